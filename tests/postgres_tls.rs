//! TLS to PostgreSQL with libpq's `sslmode`, `sslrootcert`, `sslcert` and `sslkey`, against a
//! throwaway cluster started with `ssl=on`, a CA and a server certificate made here (rcgen), and
//! a `pg_hba.conf` that takes TCP connections over TLS only (`hostssl`).
#![cfg(unix)]

mod common;
#[path = "common/postgres.rs"]
mod pg;

use baroque::store::tls::SslMode;
use baroque::store::{Database, Store};
use common::{baroque, run, Served};
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// A CA: its certificate's PEM and the issuer that signs with it.
fn new_ca(name: &str) -> CertifiedIssuer<'static, KeyPair> {
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap()
}

/// A certificate signed by `ca` for `names` (the common name is the first), and its key's PEM.
fn leaf(ca: &CertifiedIssuer<'static, KeyPair>, names: &[&str]) -> (String, String) {
    let key = KeyPair::generate().unwrap();
    let mut params =
        CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).unwrap();
    params.distinguished_name.push(DnType::CommonName, names[0]);
    let cert = params.signed_by(&key, ca).unwrap();
    (cert.pem(), key.serialize_pem())
}

/// The cluster, with the files a client needs.
struct Tls {
    cluster: pg::Cluster,
    /// `ca.pem` (the server's CA), `other-ca.pem`, `client.pem` and `client.key` (user
    /// `certuser`, signed by the CA), `stranger.pem` and `stranger.key` (signed by the other CA).
    files: tempfile::TempDir,
    /// A fresh database's name, and one owned by `certuser`.
    db: String,
    cert_db: String,
}

impl Tls {
    fn file(&self, name: &str) -> PathBuf {
        self.files.path().join(name)
    }

    /// The URL of the database for `user` (`certuser`'s own database) at `host`, with `query`.
    fn url(&self, user: &str, host: &str, query: &str) -> String {
        let db = if user == "certuser" {
            &self.cert_db
        } else {
            &self.db
        };
        // The name `localhost` is checked against the certificate, at the address the cluster
        // listens on (whatever else the name resolves to).
        let addr = if host == "localhost" {
            "hostaddr=127.0.0.1&"
        } else {
            ""
        };
        format!(
            "postgres://{user}@{host}:{}/{db}?{addr}{query}",
            self.cluster.port()
        )
    }
}

/// The TLS cluster of this test process, made once: its certificate names `localhost` only.
fn tls() -> Option<&'static Tls> {
    static TLS: OnceLock<Tls> = OnceLock::new();
    if !pg::here_or_skip() {
        return None;
    }
    Some(TLS.get_or_init(|| {
        let ca = new_ca("baroque test CA");
        let other = new_ca("another CA");
        let (cert_pem, key_pem) = leaf(&ca, &["localhost"]);
        let hba = "local all all trust\n\
                   hostssl all certuser 127.0.0.1/32 cert\n\
                   hostssl all certuser ::1/128 cert\n\
                   hostssl all all 127.0.0.1/32 trust\n\
                   hostssl all all ::1/128 trust\n";
        let cluster = pg::tls_cluster(&pg::TlsSetup {
            cert_pem,
            key_pem,
            ca_pem: ca.pem(),
            hba: hba.into(),
        });
        let files = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(files.path().join(name), text).unwrap();
        write("ca.pem", &ca.pem());
        write("other-ca.pem", &other.pem());
        let (client, client_key) = leaf(&ca, &["certuser"]);
        write("client.pem", &client);
        write("client.key", &client_key);
        let (stranger, stranger_key) = leaf(&other, &["certuser"]);
        write("stranger.pem", &stranger);
        write("stranger.key", &stranger_key);
        let name = |url: String| url.rsplit('/').next().unwrap().to_string();
        let db = name(cluster.fresh_database());
        let cert_db = name(cluster.fresh_database());
        let admin = format!(
            "host={} port={} user=postgres dbname=postgres",
            cluster.dir().display(),
            cluster.port()
        );
        postgres::Client::connect(&admin, postgres::NoTls)
            .unwrap()
            .batch_execute(&format!(
                "CREATE ROLE certuser LOGIN; ALTER DATABASE \"{cert_db}\" OWNER TO certuser"
            ))
            .unwrap();
        Tls {
            cluster,
            files,
            db,
            cert_db,
        }
    }))
}

fn open(url: &str) -> Result<Store, String> {
    let db: Database = url.parse().map_err(|e| format!("{e}"))?;
    Store::connect(&db).map_err(|e| e.to_string())
}

/// The TLS of the store's connection, as the server's `pg_stat_ssl` says it.
fn tls_of(store: &Store) -> baroque::store::TlsState {
    store
        .readiness(Duration::from_secs(5))
        .unwrap()
        .tls
        .expect("a PostgreSQL store says its TLS")
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn require_connects_over_tls_without_checking_the_certificate() {
    let Some(t) = tls() else { return };
    // 127.0.0.1 is not a name of the certificate: require does not check it.
    let store = open(&t.url("postgres", "127.0.0.1", "sslmode=require")).unwrap();
    let state = tls_of(&store);
    assert_eq!(state.sslmode, SslMode::Require);
    assert!(state.active, "{state:?}");
    assert!(
        state.version.as_deref().unwrap().starts_with("TLSv1."),
        "{state:?}"
    );
    assert!(state.cipher.is_some());
    // The pool's connections are encrypted too: every backend of this database is.
    let (stored, _) = store
        .insert(&baroque::puzzle::verify(chameleon(), &Default::default()).unwrap())
        .unwrap();
    assert!(store.get(stored.id).unwrap().is_some());
    let mut admin = postgres::Client::connect(
        &format!(
            "host={} port={} user=postgres dbname=postgres",
            t.cluster.dir().display(),
            t.cluster.port()
        ),
        postgres::NoTls,
    )
    .unwrap();
    let rows = admin
        .query(
            "SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) \
             WHERE a.datname = $1 AND a.application_name = 'baroque'",
            &[&t.db],
        )
        .unwrap();
    assert!(!rows.is_empty());
    assert!(
        rows.iter().all(|r| r.get::<_, bool>(0)),
        "a connection in the clear"
    );
}

#[test]
fn prefer_is_the_default_and_takes_tls_when_offered() {
    let Some(t) = tls() else { return };
    let store = open(&t.url("postgres", "127.0.0.1", "")).unwrap();
    let state = tls_of(&store);
    assert_eq!(state.sslmode, SslMode::Prefer);
    assert!(state.active, "{state:?}");
}

#[test]
fn verify_full_takes_the_right_ca_and_host_name() {
    let Some(t) = tls() else { return };
    let ca = path(&t.file("ca.pem"));
    let store = open(&t.url(
        "postgres",
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .unwrap();
    let state = tls_of(&store);
    assert_eq!(state.sslmode, SslMode::VerifyFull);
    assert!(state.active);
}

#[test]
fn verify_full_refuses_another_ca_naming_the_host_and_the_reason() {
    let Some(t) = tls() else { return };
    let other = path(&t.file("other-ca.pem"));
    let e = open(&t.url(
        "postgres",
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={other}"),
    ))
    .expect_err("another CA is refused");
    assert_eq!(
        e,
        format!(
            "PostgreSQL: the server's certificate for `localhost` does not verify \
             (sslmode=verify-full): it is not signed by a CA of sslrootcert={other}"
        )
    );
}

#[test]
fn verify_full_refuses_a_host_name_the_certificate_does_not_name() {
    let Some(t) = tls() else { return };
    let ca = path(&t.file("ca.pem"));
    let e = open(&t.url(
        "postgres",
        "127.0.0.1",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .expect_err("a wrong host name is refused");
    assert_eq!(
        e,
        "PostgreSQL: the server's certificate for `127.0.0.1` does not verify \
         (sslmode=verify-full): it is not issued for the host name `127.0.0.1`"
    );
    // verify-ca checks the CA and not the name.
    let store = open(&t.url(
        "postgres",
        "127.0.0.1",
        &format!("sslmode=verify-ca&sslrootcert={ca}"),
    ))
    .unwrap();
    assert!(tls_of(&store).active);
    // And refuses another CA.
    let other = path(&t.file("other-ca.pem"));
    let e = open(&t.url(
        "postgres",
        "127.0.0.1",
        &format!("sslmode=verify-ca&sslrootcert={other}"),
    ))
    .unwrap_err();
    assert!(
        e.contains("(sslmode=verify-ca): it is not signed by a CA of"),
        "{e}"
    );
    // require with a root certificate checks as verify-ca does, as libpq's does.
    let e = open(&t.url(
        "postgres",
        "127.0.0.1",
        &format!("sslmode=require&sslrootcert={other}"),
    ))
    .unwrap_err();
    assert!(
        e.contains(
            "(sslmode=require, checked as verify-ca since a root certificate is given): it is \
             not signed by a CA of"
        ),
        "{e}"
    );
}

#[test]
fn a_unix_socket_makes_no_tls_whatever_the_mode() {
    let Some(t) = tls() else { return };
    let dir = t.cluster.dir().display().to_string().replace('/', "%2F");
    let store = open(&format!(
        "postgres://postgres@{dir}:{}/{}?sslmode=require",
        t.cluster.port(),
        t.db
    ))
    .unwrap();
    let state = tls_of(&store);
    assert_eq!(state.sslmode, SslMode::Require);
    assert!(!state.active, "{state:?}");
}

#[test]
fn disable_against_a_tls_only_server_is_refused_clearly() {
    let Some(t) = tls() else { return };
    let e = open(&t.url("postgres", "127.0.0.1", "sslmode=disable")).expect_err("hostssl only");
    assert!(
        e.starts_with("PostgreSQL: the server refused user `postgres` (no pg_hba.conf entry"),
        "{e}"
    );
    assert!(
        e.ends_with(
            "no encryption): the server takes this connection over TLS only, which \
             sslmode=disable forbids (write sslmode=verify-full, or require)"
        ),
        "{e}"
    );
}

#[test]
fn require_against_a_server_without_tls_says_so() {
    if !pg::here_or_skip() {
        return;
    }
    let plain = pg::cluster();
    let url = plain.fresh_database();
    let e = open(&format!("{url}?sslmode=require")).expect_err("no TLS there");
    assert_eq!(
        e,
        "PostgreSQL: the server at `127.0.0.1` does not accept TLS, and sslmode=require \
         requires it (turn `ssl` on at the server, or write sslmode=prefer to allow a connection \
         in the clear)"
    );
    // prefer falls back to the clear.
    let store = open(&format!("{url}?sslmode=prefer")).unwrap();
    let state = tls_of(&store);
    assert!(!state.active && state.version.is_none(), "{state:?}");
}

#[test]
fn a_client_certificate_authenticates_its_user() {
    let Some(t) = tls() else { return };
    let ca = path(&t.file("ca.pem"));
    let query = |cert: &str, key: &str| {
        format!(
            "sslmode=verify-full&sslrootcert={ca}&sslcert={}&sslkey={}",
            path(&t.file(cert)),
            path(&t.file(key))
        )
    };
    let store = open(&t.url("certuser", "localhost", &query("client.pem", "client.key"))).unwrap();
    assert!(tls_of(&store).active);
    // Without a certificate, or with one of another CA, the server refuses the user.
    let e = open(&t.url(
        "certuser",
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .unwrap_err();
    assert!(e.contains("the server refused user `certuser`"), "{e}");
    let e = open(&t.url(
        "certuser",
        "localhost",
        &query("stranger.pem", "stranger.key"),
    ))
    .unwrap_err();
    assert_eq!(
        e,
        format!(
            "PostgreSQL: the server at `localhost` did not accept the client certificate \
             sslcert={} (its alert: UnknownCA)",
            path(&t.file("stranger.pem"))
        )
    );
    // A key file that is missing is named.
    let e = open(&t.url(
        "certuser",
        "localhost",
        &format!(
            "sslmode=verify-full&sslrootcert={ca}&sslcert={}&sslkey=/nonexistent/client.key",
            path(&t.file("client.pem"))
        ),
    ))
    .unwrap_err();
    assert!(
        e.starts_with("PostgreSQL: sslkey=/nonexistent/client.key: "),
        "{e}"
    );
}

#[test]
fn serve_says_its_tls_at_ready_and_refuses_to_start_on_a_bad_certificate() {
    let Some(t) = tls() else { return };
    let ca = path(&t.file("ca.pem"));
    let url = t.url(
        "postgres",
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    );
    let server = Served::start_at(&url, &[], &[], tempfile::tempdir().unwrap());
    let (status, body) = server.get("/ready");
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["store"], "postgres");
    assert_eq!(body["tls"]["sslmode"], "verify-full");
    assert_eq!(body["tls"]["active"], true);
    assert!(
        body["tls"]["version"]
            .as_str()
            .unwrap()
            .starts_with("TLSv1."),
        "{body}"
    );
    drop(server);

    let other = path(&t.file("other-ca.pem"));
    let bad = t.url(
        "postgres",
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={other}"),
    );
    let (code, _, stderr) = run(baroque().args(["serve", "--addr", "127.0.0.1:0", "--db", &bad]));
    assert_ne!(code, 0);
    assert!(
        stderr.contains(&format!(
            "PostgreSQL: the server's certificate for `localhost` does not verify \
             (sslmode=verify-full): it is not signed by a CA of sslrootcert={other}"
        )),
        "{stderr}"
    );
    // An sslmode libpq does not have is refused before any connection.
    let (code, _, stderr) = run(baroque().args([
        "serve",
        "--addr",
        "127.0.0.1:0",
        "--db",
        &t.url("postgres", "localhost", "sslmode=verify"),
    ]));
    assert_ne!(code, 0);
    assert!(
        stderr.contains(
            "sslmode `verify` is not one of disable, prefer, require, verify-ca, verify-full"
        ),
        "{stderr}"
    );
}

/// The Chameleon mate in 2 of the Wikipedia article, to store.
fn chameleon() -> baroque::puzzle::NewPuzzle {
    use baroque::puzzle::{About, Claim, MateClaim};
    use baroque::solver::Stipulation;
    baroque::puzzle::NewPuzzle {
        variant: Default::default(),
        fen: "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0".into(),
        claim: Claim::Mate(MateClaim {
            stipulation: Stipulation::Mate(2),
            ..Default::default()
        }),
        about: About::default(),
    }
}
