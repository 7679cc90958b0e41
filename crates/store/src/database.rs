//! Where the store lives, as `--db` / `BAROQUE_DB` say it: a path (a SQLite file) or a
//! `postgres://` (or `postgresql://`) URL. A URL's password is kept for connecting and never shown:
//! `Display` and `Debug` print `***` in its place, so logs and errors cannot leak it.

use crate::tls::{self, TlsOptions};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The store's location.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created when missing.
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(PostgresUrl),
}

/// A PostgreSQL URL, with its password hidden when shown.
#[derive(Clone, PartialEq, Eq)]
pub struct PostgresUrl {
    url: String,
    shown: String,
    /// The URL without its TLS options, for the client library.
    client: String,
    tls: TlsOptions,
}

impl PostgresUrl {
    /// The URL as given (password included): for a client library only.
    pub fn secret(&self) -> &str {
        &self.url
    }

    /// The URL as given without its TLS options (password included), for the `postgres` crate,
    /// which refuses the options it does not know: they are [`PostgresUrl::tls`].
    pub fn client_url(&self) -> &str {
        &self.client
    }

    /// The URL's TLS options (`sslmode`, `sslrootcert`, `sslcert`, `sslkey`).
    pub fn tls(&self) -> &TlsOptions {
        &self.tls
    }

    /// The URL without its password.
    pub fn redacted(&self) -> &str {
        &self.shown
    }
}

impl fmt::Display for PostgresUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

impl fmt::Debug for PostgresUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PostgresUrl({})", self.shown)
    }
}

impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => url.fmt(f),
        }
    }
}

impl fmt::Debug for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "Sqlite({})", path.display()),
            Database::Postgres(url) => write!(f, "Postgres({url})"),
        }
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

impl From<&std::path::Path> for Database {
    fn from(path: &std::path::Path) -> Database {
        Database::Sqlite(path.to_path_buf())
    }
}

/// Why a `--db` value is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DatabaseError {
    #[error("the database location is empty: give a SQLite file path or a postgres:// URL")]
    Empty,
    /// The URL (password hidden) and what is wrong with it.
    #[error("`{0}` is not a usable PostgreSQL URL: {1} (write postgres://user:password@host:port/dbname)")]
    Url(String, String),
}

/// The schemes of a PostgreSQL URL.
const SCHEMES: [&str; 2] = ["postgres://", "postgresql://"];

impl FromStr for Database {
    type Err = DatabaseError;

    fn from_str(s: &str) -> Result<Database, DatabaseError> {
        if s.is_empty() {
            return Err(DatabaseError::Empty);
        }
        let lower = s.to_ascii_lowercase();
        if !SCHEMES.iter().any(|scheme| lower.starts_with(scheme)) {
            // Anything else that looks like a URL is a mistake, not a file name.
            if let Some((scheme, _)) = s.split_once("://") {
                if !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_alphanumeric()) {
                    return Err(DatabaseError::Url(
                        redact(s),
                        format!("the scheme `{scheme}` is not postgres or postgresql (a SQLite store is given by its path)"),
                    ));
                }
            }
            return Ok(Database::Sqlite(PathBuf::from(s)));
        }
        // The client library reads the scheme in lower case only.
        let (scheme, rest) = s.split_once("://").unwrap_or((s, ""));
        let s = &format!("{}://{rest}", scheme.to_ascii_lowercase());
        let shown = redact(s);
        let (client, tls) = tls::split(s).map_err(|why| DatabaseError::Url(shown.clone(), why))?;
        let config = ::postgres::Config::from_str(&client).map_err(|e| {
            // The parser's words never hold the password; say so only if that stays true.
            let why = e.to_string();
            let why = match password_of(s) {
                Some(p) if !p.is_empty() && why.contains(p) => "it cannot be parsed".to_string(),
                _ => why,
            };
            DatabaseError::Url(shown.clone(), why)
        })?;
        if config.get_hosts().is_empty() {
            return Err(DatabaseError::Url(shown, "it names no host".into()));
        }
        if config.get_dbname().is_none_or(str::is_empty) {
            return Err(DatabaseError::Url(shown, "it names no database".into()));
        }
        Ok(Database::Postgres(PostgresUrl {
            url: s.to_string(),
            shown,
            client,
            tls,
        }))
    }
}

/// The password of a URL's user information, if any (`user:password@`).
fn password_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?']).next()?;
    let (userinfo, _) = authority.rsplit_once('@')?;
    userinfo.split_once(':').map(|(_, p)| p)
}

/// The URL with `***` for the password of its user information and for any `password=` query
/// parameter.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    // The user information runs to the last `@` before the path (a password may hold `?`).
    let before_path = rest.find('/').unwrap_or(rest.len());
    let host_from = rest[..before_path].rfind('@').map_or(0, |at| at + 1);
    let end = rest[host_from..]
        .find(['/', '?'])
        .map_or(rest.len(), |i| host_from + i);
    let (authority, tail) = rest.split_at(end);
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{user}:***@{host}"),
            None => format!("{userinfo}@{host}"),
        },
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                    _ => kv.to_string(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_sqlite_and_urls_are_postgres() {
        assert_eq!(
            "baroque.db".parse::<Database>(),
            Ok(Database::Sqlite("baroque.db".into()))
        );
        assert_eq!(
            "/var/lib/x:y@z.db".parse::<Database>(),
            Ok(Database::Sqlite("/var/lib/x:y@z.db".into()))
        );
        for url in [
            "postgres://u:secret@db:5432/baroque",
            "postgresql://u:secret@db/baroque",
            "POSTGRES://u:secret@127.0.0.1:5433/baroque?connect_timeout=3",
        ] {
            let Ok(Database::Postgres(u)) = url.parse::<Database>() else {
                panic!("{url}");
            };
            assert_eq!(u.secret().to_lowercase(), url.to_lowercase());
            assert!(!u.to_string().contains("secret"), "{u}");
            assert!(!format!("{u:?}").contains("secret"));
            assert!(u.to_string().contains(":***@"), "{u}");
        }
    }

    #[test]
    fn the_password_is_hidden_wherever_it_is_written() {
        assert_eq!(
            redact("postgres://u:p%40ss@h:1/d?password=x&sslmode=disable"),
            "postgres://u:***@h:1/d?password=***&sslmode=disable"
        );
        assert_eq!(redact("postgres://u@h/d"), "postgres://u@h/d");
        assert_eq!(
            redact("postgres://u:ab?cd@h/d?sslmode=require"),
            "postgres://u:***@h/d?sslmode=require"
        );
        assert_eq!(redact("postgres://h/d"), "postgres://h/d");
        let e = "postgres://u:hunter2@h:notaport/d"
            .parse::<Database>()
            .unwrap_err();
        assert!(!e.to_string().contains("hunter2"), "{e}");
        let e = "postgres://u:hunter2@h:5432"
            .parse::<Database>()
            .unwrap_err();
        assert!(e.to_string().contains("no database"), "{e}");
        assert!(!e.to_string().contains("hunter2"), "{e}");
    }

    #[test]
    fn other_schemes_and_empty_values_are_refused() {
        assert_eq!("".parse::<Database>(), Err(DatabaseError::Empty));
        // Options of libpq this client does not have are refused, not ignored.
        let e = "postgres://h/d?sslpassword=x"
            .parse::<Database>()
            .unwrap_err();
        assert!(e.to_string().contains("sslpassword"), "{e}");
        let e = "mysql://u:pw@h/d".parse::<Database>().unwrap_err();
        assert!(e.to_string().contains("mysql"), "{e}");
        assert!(!e.to_string().contains("pw@"), "{e}");
    }
}
