//! The request log never shows the write token: the real binary (`baroque serve` as a child
//! process), at the `debug` level in both log formats, is sent the token in every place a client
//! might put it (the `Authorization` header, right and wrong, a query string, a JSON body), and
//! everything it printed is searched for it. The log must still hold the requests' lines, so a
//! server that logged nothing would fail too.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;
use common::{agent, listening_addr};

const TOKEN: &str = "log-secret-7c2d9a41e0";
const WRONG: &str = "log-wrong-guess-55b3f0";

struct Server {
    child: Child,
    output: Arc<Mutex<String>>,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn drain(mut from: impl Read + Send + 'static, into: Arc<Mutex<String>>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 {
                break;
            }
            into.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
}

fn start(db: &Path, format: &str) -> Server {
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut child = Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "1"])
        .arg("--db")
        .arg(db)
        .arg("--fixtures")
        .arg(fixtures)
        .env("BAROQUE_WRITE_TOKEN", TOKEN)
        .env("BAROQUE_LOG_FORMAT", format)
        .env("RUST_LOG", "debug")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn baroque serve");
    let output = Arc::new(Mutex::new(String::new()));
    drain(child.stdout.take().unwrap(), output.clone());
    drain(child.stderr.take().unwrap(), output.clone());
    let deadline = Instant::now() + Duration::from_secs(60);
    let addr = loop {
        let seen = output.lock().unwrap().clone();
        if let Some(addr) = listening_addr(&seen) {
            break addr;
        }
        assert!(
            Instant::now() < deadline,
            "the server never said where it listens:\n{seen}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    Server {
        child,
        output,
        base: format!("http://{addr}"),
    }
}

/// Sends the token every way a client might and returns the statuses seen.
fn exercise(server: &Server) -> Vec<u16> {
    let a = agent();
    let body = format!(
        r#"{{"kind": "diagram", "fen": "7k/8/8/8/8/8/8/K7 w 0", "moves": ["Ka1-a2"], "captures": [], "title": "{TOKEN}"}}"#
    );
    let mut statuses = Vec::new();
    for auth in [
        format!("Bearer {TOKEN}"),
        format!("Bearer {WRONG}"),
        TOKEN.to_string(),
    ] {
        let res = a
            .post(format!("{}/v1/puzzles?token={TOKEN}", server.base))
            .header("authorization", &auth)
            .header("content-type", "application/json")
            .send(body.as_bytes())
            .expect("the server answers");
        statuses.push(res.status().as_u16());
    }
    let res = a
        .delete(format!("{}/v1/puzzles/999999", server.base))
        .header("authorization", format!("Bearer {TOKEN}"))
        .call()
        .expect("the server answers");
    statuses.push(res.status().as_u16());
    let res = a
        .get(format!("{}/health", server.base))
        .header("x-request-id", "log-trace-1")
        .call()
        .expect("the server answers");
    statuses.push(res.status().as_u16());
    statuses
}

fn check(format: &str) {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("logs.db"), format);
    let statuses = exercise(&server);
    // The right token writes (201), a wrong one and one without the scheme are refused.
    assert_eq!(statuses[0], 201, "the right token writes");
    assert_eq!(statuses[1], 401, "a wrong token is refused");
    assert_eq!(statuses[2], 401, "a token without `Bearer` is refused");
    assert_eq!(statuses[3], 404, "deleting a missing puzzle");
    // Give the log lines of the last requests time to be written.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let seen = server.output.lock().unwrap().clone();
        let done = seen.matches("/v1/puzzles").count() >= 4 && seen.contains("log-trace-1");
        if done || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let seen = server.output.lock().unwrap().clone();
    assert!(
        seen.matches("/v1/puzzles").count() >= 4,
        "every request has its log line ({format}):\n{seen}"
    );
    // The request's id is in its log line.
    assert!(
        seen.lines()
            .any(|l| l.contains("log-trace-1") && l.contains("/health")),
        "the request id in the request's log line ({format}):\n{seen}"
    );
    for secret in [TOKEN, WRONG] {
        assert!(
            !seen.contains(secret),
            "the {format} log shows a token `{secret}`:\n{seen}"
        );
    }
}

#[test]
fn the_text_log_never_shows_the_token() {
    check("text");
}

#[test]
fn the_json_log_never_shows_the_token() {
    check("json");
}

/// Sends `request` (raw HTTP/1.1) and reads until the server closes or answers.
fn raw(server: &Server, request: &str) -> String {
    use std::io::Write;
    let addr = server.base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut buf = [0u8; 4096];
    let n = s.read(&mut buf).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// A text log line cannot be forged by what a client sends: a request id with a field's
/// delimiters is replaced, a path's `"`, `}` and `=` are percent-encoded, a method HTTP does not
/// define is logged as `other`, and a long path is cut.
#[test]
fn a_client_cannot_forge_fields_of_the_text_log() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&dir.path().join("logs.db"), "text");
    let forged = raw(
        &server,
        "GET /health/a\"b}c=d HTTP/1.1\r\nHost: x\r\nX-Request-Id: x}\"forged=1\r\nConnection: close\r\n\r\n",
    );
    assert!(forged.starts_with("HTTP/1.1 404"), "{forged}");
    assert!(
        !forged.contains("forged=1"),
        "the id is not echoed: {forged}"
    );
    let method = "Q".repeat(5_000);
    let odd = raw(
        &server,
        &format!("{method} /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    );
    assert!(odd.starts_with("HTTP/1.1 "), "{odd}");
    let long = format!("/{}", "p".repeat(10_000));
    let far = raw(
        &server,
        &format!("GET {long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
    );
    assert!(far.starts_with("HTTP/1.1 404"), "{far}");
    let deadline = Instant::now() + Duration::from_secs(10);
    let seen = loop {
        let seen = server.output.lock().unwrap().clone();
        if seen.matches("status=").count() >= 3 || Instant::now() > deadline {
            break seen;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!seen.contains("forged"), "{seen}");
    assert!(!seen.contains("a\"b"), "{seen}");
    assert!(seen.contains("/health/a%22b%7Dc%3Dd"), "{seen}");
    assert!(!seen.contains("QQQQ"), "{seen}");
    assert!(seen.contains("method=other"), "{seen}");
    assert!(!seen.contains(&long), "{seen}");
    for line in seen.lines() {
        assert!(line.len() < 1_000, "a log line of {} bytes", line.len());
    }
}
