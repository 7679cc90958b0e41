//! TLS to PostgreSQL with libpq's conventions: the URL's `sslmode`, `sslrootcert`, `sslcert` and
//! `sslkey` mean what they mean to `psql`, over `rustls` (the ring provider) through
//! `tokio-postgres-rustls`.
//!
//! | `sslmode` | TLS | the server's certificate |
//! |---|---|---|
//! | `disable` | never | - |
//! | `prefer` (the default) | when the server offers it, else in the clear | not checked |
//! | `require` | always | not checked; checked as `verify-ca` when a root certificate is there |
//! | `verify-ca` | always | signed by a CA of the root certificates |
//! | `verify-full` | always | as `verify-ca`, and issued for the host name of the URL |
//!
//! The root certificates are `sslrootcert=PATH` (PEM, one or more), `sslrootcert=system` (the
//! system's trust store, with `verify-full` only, as libpq 16 has it), or else
//! `~/.postgresql/root.crt` when it exists. A client certificate is `sslcert=PATH` with
//! `sslkey=PATH` (PEM; PKCS#8, PKCS#1 or SEC1 key), or else `~/.postgresql/postgresql.crt` and
//! `.key` when both exist. Files are read when the store opens: a missing or unreadable one stops
//! the start with its name.
//!
//! The `postgres` crate knows `disable`, `prefer` and `require` only and refuses the other
//! options: [`split`] takes them out of the URL it is given, and [`connector`] checks what they
//! ask in the TLS handshake.

use crate::StoreError;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::server::ParsedCertificate;
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
pub use tokio_postgres_rustls::MakeRustlsConnect;

/// libpq's `sslmode`, except `allow`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SslMode {
    /// In the clear.
    Disable,
    /// TLS when the server offers it; the certificate is not checked.
    #[default]
    Prefer,
    /// TLS; the certificate is not checked, unless root certificates are given.
    Require,
    /// TLS with a certificate signed by a trusted CA.
    VerifyCa,
    /// TLS with a certificate signed by a trusted CA for the host name connected to.
    VerifyFull,
}

impl SslMode {
    /// The modes.
    pub const ALL: [SslMode; 5] = [
        SslMode::Disable,
        SslMode::Prefer,
        SslMode::Require,
        SslMode::VerifyCa,
        SslMode::VerifyFull,
    ];

    /// The mode of its name in a URL.
    pub fn parse(name: &str) -> Option<SslMode> {
        SslMode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Its name in a URL.
    pub fn name(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    /// The `postgres` crate's mode: the verifying modes are `require` to it.
    fn client_mode(self) -> postgres::config::SslMode {
        match self {
            SslMode::Disable => postgres::config::SslMode::Disable,
            SslMode::Prefer => postgres::config::SslMode::Prefer,
            _ => postgres::config::SslMode::Require,
        }
    }
}

impl fmt::Display for SslMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where the trusted CAs come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootCert {
    /// A PEM file of one or more certificates.
    File(PathBuf),
    /// The system's trust store (`sslrootcert=system`).
    System,
}

impl fmt::Display for RootCert {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RootCert::File(path) => write!(f, "sslrootcert={}", path.display()),
            RootCert::System => f.write_str("sslrootcert=system"),
        }
    }
}

/// The TLS settings of a PostgreSQL URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsOptions {
    /// `sslmode`.
    pub mode: SslMode,
    /// `sslrootcert`, when given.
    pub root_cert: Option<RootCert>,
    /// `sslcert` and `sslkey`, when given.
    pub client_cert: Option<(PathBuf, PathBuf)>,
}

/// The options this module takes out of a URL's query.
const OPTIONS: [&str; 4] = ["sslmode", "sslrootcert", "sslcert", "sslkey"];

/// Takes the TLS options out of a PostgreSQL URL: the URL for the `postgres` crate (which
/// [`configure`] gives the `sslmode` it knows) and the options. The error says which option is wrong.
pub fn split(url: &str) -> Result<(String, TlsOptions), String> {
    // The query starts at the first `?` after the user information (a password may hold `?`).
    let after_userinfo = url.find("://").map_or(0, |i| i + 3);
    let after_userinfo = url[after_userinfo..]
        .find(['/'])
        .map_or(url.len(), |end| after_userinfo + end);
    let from = url[..after_userinfo].rfind('@').map_or(0, |at| at + 1);
    let (base, query) = match url[from..].find('?') {
        Some(q) => (&url[..from + q], &url[from + q + 1..]),
        None => (url, ""),
    };
    let mut kept = Vec::new();
    let mut found: [Option<String>; 4] = Default::default();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(key)?;
        if key == "sslnegotiation" && percent_decode(value)? != "postgres" {
            return Err(
                "sslnegotiation=direct is not supported: leave it out (TLS is then negotiated \
                 as every PostgreSQL server accepts it)"
                    .into(),
            );
        }
        match OPTIONS.iter().position(|o| *o == key) {
            Some(i) => found[i] = Some(percent_decode(value)?),
            None => kept.push(pair),
        }
    }
    let [mode, root_cert, cert, key] = found;
    let mode = match mode.as_deref() {
        // libpq 16: the system's CAs are only safe with the host name checked.
        None if root_cert.as_deref() == Some("system") => SslMode::VerifyFull,
        None => SslMode::default(),
        Some(name) => SslMode::parse(name).ok_or_else(|| {
            format!(
                "sslmode `{name}` is not one of {}",
                SslMode::ALL.map(SslMode::name).join(", ")
            )
        })?,
    };
    let root_cert = match root_cert.as_deref() {
        None | Some("") => None,
        Some("system") => {
            if mode != SslMode::VerifyFull {
                return Err(format!(
                    "sslrootcert=system trusts any CA of the system, which only a check of the \
                     host name makes safe: it takes sslmode=verify-full, not {mode}"
                ));
            }
            Some(RootCert::System)
        }
        Some(path) => Some(RootCert::File(path.into())),
    };
    let client_cert = match (
        cert.filter(|c| !c.is_empty()),
        key.filter(|k| !k.is_empty()),
    ) {
        (None, None) => None,
        (Some(cert), Some(key)) => Some((cert.into(), key.into())),
        (Some(_), None) => return Err("sslcert is given without its sslkey".into()),
        (None, Some(_)) => return Err("sslkey is given without its sslcert".into()),
    };
    if mode == SslMode::Disable && (root_cert.is_some() || client_cert.is_some()) {
        return Err("sslmode=disable makes no TLS connection, yet certificates are given".into());
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((
        url,
        TlsOptions {
            mode,
            root_cert,
            client_cert,
        },
    ))
}

/// A query value with its `%XX` escapes decoded (`+` stays, as libpq keeps it).
fn percent_decode(value: &str) -> Result<String, String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value
                .get(i + 1..i + 3)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .filter(|&b| b != 0)
                .ok_or_else(|| format!("`{value}` holds a `%` that is no escape"))?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("`{value}` decodes to bytes that are not UTF-8"))
}

/// The files libpq reads when the URL names none, under `~/.postgresql`.
fn default_file(name: &str) -> Option<PathBuf> {
    let path = Path::new(&std::env::var_os("HOME")?)
        .join(".postgresql")
        .join(name);
    path.is_file().then_some(path)
}

/// The root certificates in force: the URL's, else `~/.postgresql/root.crt` when it exists.
pub fn root_cert(options: &TlsOptions) -> Option<RootCert> {
    options
        .root_cert
        .clone()
        .or_else(|| default_file("root.crt").map(RootCert::File))
}

/// What is checked of the server's certificate, as [`explain`] and `/ready` say it.
fn checks(options: &TlsOptions) -> SslMode {
    match options.mode {
        SslMode::Require if root_cert(options).is_some() => SslMode::VerifyCa,
        mode => mode,
    }
}

/// The connector for the pool: TLS as `options` ask, over rustls with the ring provider.
///
/// # Errors
/// [`StoreError::Open`] naming the file that cannot be read, or a verifying mode without root
/// certificates.
pub fn connector(options: &TlsOptions) -> Result<MakeRustlsConnect, StoreError> {
    let open = |why: String| StoreError::Open(format!("PostgreSQL: {why}"));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier: Arc<dyn ServerCertVerifier> = match checks(options) {
        SslMode::Disable | SslMode::Prefer | SslMode::Require => Arc::new(Unchecked {
            provider: provider.clone(),
        }),
        mode @ (SslMode::VerifyCa | SslMode::VerifyFull) => {
            let source = root_cert(options).ok_or_else(|| {
                open(format!(
                    "sslmode={mode} checks the server's certificate, but no CA certificate is \
                     given: add sslrootcert=PATH to the URL (a PEM file of the CA), or \
                     sslrootcert=system with verify-full for the system's trusted CAs"
                ))
            })?;
            let roots = Arc::new(roots(&source).map_err(open)?);
            if mode == SslMode::VerifyCa {
                Arc::new(AnyName {
                    roots,
                    provider: provider.clone(),
                })
            } else {
                WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                    .build()
                    .map_err(|e| open(format!("{source}: {e}")))?
            }
        }
    };
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| open(format!("TLS: {e}")))?
        .dangerous()
        .with_custom_certificate_verifier(verifier);
    let client_cert = options.client_cert.clone().or_else(|| {
        // Nothing is read for a connection that makes no TLS.
        if options.mode == SslMode::Disable {
            return None;
        }
        Some((
            default_file("postgresql.crt")?,
            default_file("postgresql.key")?,
        ))
    });
    let config = match client_cert {
        None => builder.with_no_client_auth(),
        Some((cert, key)) => {
            let chain = certificates(&cert)
                .map_err(|e| open(format!("sslcert={}: {e}", cert.display())))?;
            let key_der = PrivateKeyDer::from_pem_file(&key)
                .map_err(|e| open(format!("sslkey={}: {e}", key.display())))?;
            builder.with_client_auth_cert(chain, key_der).map_err(|e| {
                open(format!(
                    "sslcert={} with sslkey={}: {e}",
                    cert.display(),
                    key.display()
                ))
            })?
        }
    };
    Ok(MakeRustlsConnect::new(config))
}

/// Sets the `postgres` crate's mode for `options`. A URL whose hosts are all Unix sockets makes
/// no TLS, whatever its `sslmode`, as libpq does (a socket is local).
pub fn configure(config: &mut postgres::Config, options: &TlsOptions) {
    let sockets_only = config
        .get_hosts()
        .iter()
        .all(|h| matches!(h, postgres::config::Host::Unix(_)));
    config.ssl_mode(if sockets_only {
        postgres::config::SslMode::Disable
    } else {
        options.mode.client_mode()
    });
}

/// The certificates of a PEM file, at least one.
fn certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| e.to_string())?;
    if certs.is_empty() {
        return Err("no PEM certificate in it".into());
    }
    Ok(certs)
}

/// The trusted CAs of `source`.
fn roots(source: &RootCert) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    match source {
        RootCert::File(path) => {
            let certs = certificates(path).map_err(|e| format!("{source}: {e}"))?;
            let (added, _) = roots.add_parsable_certificates(certs);
            if added == 0 {
                return Err(format!("{source}: no usable PEM certificate in it"));
            }
        }
        RootCert::System => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                return Err(format!(
                    "{source}: the system's trust store holds no certificate ({} errors)",
                    found.errors.len()
                ));
            }
        }
    }
    Ok(roots)
}

/// The handshake's signature checks and schemes of a verifier, by the provider's algorithms.
macro_rules! handshake_signatures {
    () => {
        fn verify_tls12_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls12_signature(
                message,
                cert,
                dss,
                &self.provider.signature_verification_algorithms,
            )
        }

        fn verify_tls13_signature(
            &self,
            message: &[u8],
            cert: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls13_signature(
                message,
                cert,
                dss,
                &self.provider.signature_verification_algorithms,
            )
        }

        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            self.provider
                .signature_verification_algorithms
                .supported_schemes()
        }
    };
}

/// Accepts any certificate (libpq's `prefer` and `require`), but still checks the handshake's
/// signatures with it, so that the session is the certificate holder's.
#[derive(Debug)]
struct Unchecked {
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    handshake_signatures!();
}

/// `verify-ca`: the chain must reach a trusted CA (rustls's own check of the chain, for a server
/// certificate); the name is not checked.
#[derive(Debug)]
struct AnyName {
    roots: Arc<RootCertStore>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for AnyName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let cert = ParsedCertificate::try_from(end_entity)?;
        rustls::client::verify_server_cert_signed_by_trust_anchor(
            &cert,
            &self.roots,
            intermediates,
            now,
            self.provider.signature_verification_algorithms.all,
        )?;
        Ok(ServerCertVerified::assertion())
    }

    handshake_signatures!();
}

/// When connecting failed for a reason of TLS, that reason in words: the certificate that does
/// not verify (with the host and why), or a server without TLS where the mode requires it.
pub fn explain(
    e: &postgres::Error,
    config: &postgres::Config,
    options: &TlsOptions,
) -> Option<String> {
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .map(|h| match h {
            postgres::config::Host::Tcp(name) => name.clone(),
            postgres::config::Host::Unix(path) => path.display().to_string(),
        })
        .collect();
    // The `postgres` crate reports the last host's error when several are given.
    let host = match hosts.as_slice() {
        [one] => format!("`{one}`"),
        _ => format!("one of `{}`", hosts.join("`, `")),
    };
    let mode = match checks(options) {
        checked if checked != options.mode => format!(
            "sslmode={}, checked as {checked} since a root certificate is given",
            options.mode
        ),
        mode => format!("sslmode={mode}"),
    };
    let chain = || {
        std::iter::successors(Some(e as &(dyn std::error::Error + 'static)), |s| {
            s.source()
        })
    };
    if let Some(tls) = chain().find_map(tls_error) {
        let why = match tls {
            rustls::Error::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer | CertificateError::BadSignature => {
                    let roots = root_cert(options)
                        .map_or_else(|| "the root certificates".into(), |r| r.to_string());
                    format!("it is not signed by a CA of {roots}")
                }
                CertificateError::NotValidForName
                | CertificateError::NotValidForNameContext { .. } => {
                    format!("it is not issued for the host name {host}")
                }
                CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                    "it has expired".into()
                }
                CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                    "it is not valid yet".into()
                }
                CertificateError::Revoked => "it is revoked".into(),
                CertificateError::BadEncoding => "it cannot be read".into(),
                CertificateError::InvalidPurpose
                | CertificateError::InvalidPurposeContext { .. } => {
                    "it is not issued for a TLS server".into()
                }
                other => other.to_string(),
            },
            rustls::Error::AlertReceived(alert) if options.client_cert.is_some() => {
                let (cert, _) = options.client_cert.as_ref()?;
                return Some(format!(
                    "the server at {host} did not accept the client certificate sslcert={} \
                     (its alert: {alert:?})",
                    cert.display()
                ));
            }
            other => {
                return Some(format!(
                    "the TLS handshake with {host} failed ({mode}): {other}"
                ))
            }
        };
        return Some(format!(
            "the server's certificate for {host} does not verify ({mode}): {why}"
        ));
    }
    if chain().any(|s| s.to_string() == "server does not support TLS") {
        return Some(format!(
            "the server at {host} does not accept TLS, and sslmode={} requires it (turn `ssl` \
             on at the server, or write sslmode=prefer to allow a connection in the clear)",
            options.mode
        ));
    }
    None
}

/// The rustls error in `e`, directly or inside an I/O error.
fn tls_error<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    e.downcast_ref::<rustls::Error>().or_else(|| {
        e.downcast_ref::<std::io::Error>()?
            .get_ref()?
            .downcast_ref::<rustls::Error>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_are_taken_out_of_the_url() {
        let (url, o) = split(
            "postgres://u@h/d?sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&application_name=x",
        )
        .unwrap();
        assert_eq!(url, "postgres://u@h/d?application_name=x");
        assert_eq!(o.mode, SslMode::VerifyFull);
        assert_eq!(o.root_cert, Some(RootCert::File("/etc/ca.pem".into())));
        assert_eq!(o.client_cert, None);
        let (url, o) = split("postgres://u@h/d").unwrap();
        assert_eq!(url, "postgres://u@h/d");
        assert_eq!(o, TlsOptions::default());
        let (url, o) = split("postgres://u@h/d?sslmode=disable").unwrap();
        assert_eq!(url, "postgres://u@h/d");
        assert_eq!(o.mode, SslMode::Disable);
        let (_, o) = split("postgres://u@h/d?sslmode=require&sslcert=c.pem&sslkey=k.pem").unwrap();
        assert_eq!(o.client_cert, Some(("c.pem".into(), "k.pem".into())));
        let (_, o) = split("postgres://u@h/d?sslmode=verify-full&sslrootcert=system").unwrap();
        assert_eq!(o.root_cert, Some(RootCert::System));
        // As libpq 16: the system's CAs make verify-full the default.
        let (_, o) = split("postgres://u@h/d?sslrootcert=system").unwrap();
        assert_eq!(o.mode, SslMode::VerifyFull);
        // Keys are decoded as the client library decodes them.
        let (url, o) = split("postgres://u@h/d?%73slmode=require").unwrap();
        assert_eq!(
            (url.as_str(), o.mode),
            ("postgres://u@h/d", SslMode::Require)
        );
        // A `?` in the password is not the query.
        let (url, o) = split("postgres://u:ab?cd@h/d?sslmode=require").unwrap();
        assert_eq!(
            (url.as_str(), o.mode),
            ("postgres://u:ab?cd@h/d", SslMode::Require)
        );
    }

    #[test]
    fn wrong_options_are_named() {
        for (url, words) in [
            (
                "postgres://h/d?sslmode=allow",
                "sslmode `allow` is not one of disable, prefer",
            ),
            (
                "postgres://h/d?sslmode=verify-ca&sslrootcert=system",
                "takes sslmode=verify-full, not verify-ca",
            ),
            (
                "postgres://h/d?sslcert=c.pem",
                "sslcert is given without its sslkey",
            ),
            (
                "postgres://h/d?sslkey=k.pem",
                "sslkey is given without its sslcert",
            ),
            (
                "postgres://h/d?sslmode=disable&sslrootcert=ca.pem",
                "sslmode=disable makes no TLS",
            ),
            (
                "postgres://h/d?sslrootcert=%zz",
                "holds a `%` that is no escape",
            ),
        ] {
            let e = split(url).unwrap_err();
            assert!(e.contains(words), "{url}: {e}");
        }
    }

    #[test]
    fn a_verifying_mode_needs_its_ca_and_files_are_named() {
        if default_file("root.crt").is_some() {
            return; // this machine's own ~/.postgresql/root.crt would be used
        }
        let options = TlsOptions {
            mode: SslMode::VerifyCa,
            ..TlsOptions::default()
        };
        let e = connector(&options).err().unwrap().to_string();
        assert!(
            e.contains("sslmode=verify-ca checks the server's certificate"),
            "{e}"
        );
        let options = TlsOptions {
            mode: SslMode::VerifyFull,
            root_cert: Some(RootCert::File("/nonexistent/ca.pem".into())),
            client_cert: None,
        };
        let e = connector(&options).err().unwrap().to_string();
        assert!(e.contains("sslrootcert=/nonexistent/ca.pem"), "{e}");
        let options = TlsOptions {
            mode: SslMode::Require,
            root_cert: None,
            client_cert: Some(("/nonexistent/c.pem".into(), "/nonexistent/k.pem".into())),
        };
        let e = connector(&options).err().unwrap().to_string();
        assert!(e.contains("sslcert=/nonexistent/c.pem"), "{e}");
        assert!(connector(&TlsOptions::default()).is_ok());
    }
}
