//! `spawn_app()`: the real server on a free port, in a background thread with its own actix
//! `System`, and a small blocking client for it. `BAROQUE_TEST_DB=postgres` puts its store in a
//! fresh database of a throwaway PostgreSQL cluster instead of a SQLite file.

use baroque::api::{Application, Settings};
use baroque::store::Database;
use serde_json::Value;
use std::time::Duration;

/// A running server and a client for it.
pub struct TestApp {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    agent: ureq::Agent,
    /// The server's database: a SQLite file, or a PostgreSQL database.
    pub db: Database,
    /// The directory of the server's fresh database, removed with the app.
    _dir: tempfile::TempDir,
    /// Stops the server (and closes its store's connections) when the app is dropped.
    _stop: tokio::sync::oneshot::Sender<()>,
}

/// What the server answered.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub headers: ureq::http::HeaderMap,
    pub body: String,
}

impl Reply {
    /// The body as JSON (panics with the body when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts an RFC 9457 problem of the given status and type; returns its body.
    #[track_caller]
    pub fn problem(&self, status: u16, problem_type: &str) -> Value {
        assert_eq!(self.status, status, "status of {}", self.body);
        assert_eq!(
            self.content_type, "application/problem+json",
            "{}",
            self.body
        );
        let p = self.json();
        assert_eq!(p["type"], problem_type, "{p}");
        assert_eq!(p["status"], status, "{p}");
        assert!(p["title"].as_str().is_some_and(|t| !t.is_empty()), "{p}");
        assert!(p["detail"].as_str().is_some_and(|t| !t.is_empty()), "{p}");
        p
    }
}

/// Starts the server with the test settings (a free port, two workers).
pub fn spawn_app() -> TestApp {
    spawn_app_with(Settings::for_tests())
}

/// Starts the server with the given settings (use port 0) on a fresh database in a temporary
/// directory.
pub fn spawn_app_with(mut settings: Settings) -> TestApp {
    let dir = tempfile::tempdir().expect("a temporary directory");
    settings.db = fresh_database(&dir);
    let db = settings.db.clone();
    let app = Application::build(settings).expect("open the store and bind a free port");
    let port = app.port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::spawn(move || {
        actix_web::rt::System::new()
            .block_on(app.run_until(async move {
                let _ = stopped.await;
                "the test ended"
            }))
            .expect("the server runs");
    });
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(30)))
        .build();
    TestApp {
        base: format!("http://127.0.0.1:{port}"),
        agent: ureq::Agent::new_with_config(config),
        db,
        _dir: dir,
        _stop: stop,
    }
}

/// Whether the suite runs against PostgreSQL (`BAROQUE_TEST_DB=postgres`) rather than SQLite.
pub fn on_postgres() -> bool {
    match std::env::var("BAROQUE_TEST_DB").as_deref() {
        Ok("postgres" | "postgresql") => true,
        Ok("" | "sqlite") | Err(_) => false,
        Ok(other) => panic!("BAROQUE_TEST_DB={other}: use sqlite or postgres"),
    }
}

/// A fresh store of the backend under test: a file in `dir`, or a new PostgreSQL database.
pub fn fresh_database(dir: &tempfile::TempDir) -> Database {
    if on_postgres() {
        assert!(
            crate::pg::available(),
            "BAROQUE_TEST_DB=postgres, but the PostgreSQL server binaries are missing"
        );
        crate::pg::cluster()
            .fresh_database()
            .parse()
            .expect("a PostgreSQL URL")
    } else {
        Database::Sqlite(dir.path().join("baroque.db"))
    }
}

fn reply(res: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Reply {
    let mut res = res.expect("the server answers");
    let content_type = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = res
        .body_mut()
        .with_config()
        .limit(16 * 1024 * 1024)
        .read_to_string()
        .expect("a readable body");
    Reply {
        status: res.status().as_u16(),
        content_type,
        headers: res.headers().clone(),
        body,
    }
}

impl TestApp {
    /// Records the store's schema as migrated to `version`, as another build would leave it.
    pub fn set_schema_version(&self, version: i64) {
        match &self.db {
            Database::Sqlite(path) => rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch(&format!("PRAGMA user_version = {version}"))
                .unwrap(),
            Database::Postgres(url) => {
                let mut c = postgres::Client::connect(url.secret(), postgres::NoTls).unwrap();
                c.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 'test')",
                    &[&version],
                )
                .unwrap();
            }
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn get(&self, path: &str) -> Reply {
        reply(self.agent.get(self.url(path)).call())
    }

    /// GETs a path with headers.
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Reply {
        let mut req = self.agent.get(self.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        reply(req.call())
    }

    /// POSTs a JSON value as `application/json`.
    pub fn post_json(&self, path: &str, body: &Value) -> Reply {
        self.post_raw(path, Some("application/json"), body.to_string().as_bytes())
    }

    /// POSTs bytes with the given content type (none when `None`).
    pub fn post_raw(&self, path: &str, content_type: Option<&str>, body: &[u8]) -> Reply {
        let mut req = self.agent.post(self.url(path));
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        reply(req.send(body))
    }

    /// POSTs bytes with a content type and headers.
    pub fn post_with(
        &self,
        path: &str,
        content_type: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        let mut req = self
            .agent
            .post(self.url(path))
            .header("content-type", content_type);
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        reply(req.send(body))
    }

    /// A request with any method, optional headers and an optional JSON body.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&Value>,
    ) -> Reply {
        let mut req = ureq::http::Request::builder()
            .method(method)
            .uri(self.url(path));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        match body {
            Some(b) => {
                let req = req
                    .header("content-type", "application/json")
                    .body(b.to_string())
                    .expect("a request");
                reply(self.agent.run(req))
            }
            None => reply(self.agent.run(req.body(()).expect("a request"))),
        }
    }

    /// A request with any method and no body.
    pub fn request(&self, method: &str, path: &str) -> Reply {
        let req = ureq::http::Request::builder()
            .method(method)
            .uri(self.url(path))
            .body(())
            .expect("a request");
        reply(self.agent.run(req))
    }

    /// The job at `url` once it no longer runs (polled every 50 ms, for `within` at most).
    pub fn job_ended(&self, url: &str, within: Duration) -> Value {
        let deadline = std::time::Instant::now() + within;
        loop {
            let r = self.get(url);
            assert_eq!(r.status, 200, "{}", r.body);
            let job = r.json();
            if job["state"] != "running" {
                return job;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the job is still running: {job}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
