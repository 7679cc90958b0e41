//! The balancer's rate limit, in a real nginx: deploy/nginx.conf, its replicas pointed at one
//! `baroque serve` whose own limit is off, so that every 429 is the balancer's. Costly requests
//! are metered per client (burst 10, then one a second) and refused with a problem document and
//! `Retry-After`; cheap ones are not metered.
//!
//! Needs nginx (Debian's `nginx-light`), so it is ignored by a plain `cargo test` (the summary
//! counts it, with the reason) and run by `cargo test --test nginx -- --ignored` (as CI does),
//! which fails without it.

mod common;
use common::Served;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn nginx() -> Option<&'static str> {
    ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

struct Nginx(Child);

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// deploy/nginx.conf with its replicas at `upstream`, listening on `port`, its files in `dir`.
fn configuration(upstream: &str, port: u16, dir: &Path) -> String {
    let conf =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/nginx.conf"))
            .unwrap();
    let mut out = format!("pid {}/nginx.pid;\n", dir.display());
    for line in conf.lines() {
        let t = line.trim();
        if t.starts_with("server baroque-") {
            out.push_str(&format!("        server {upstream};\n"));
        } else if t == "listen 8080;" {
            out.push_str(&format!("        listen 127.0.0.1:{port};\n"));
        } else if t == "http {" {
            out.push_str(line);
            out.push('\n');
            for temp in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"] {
                out.push_str(&format!("    {temp}_temp_path {}/{temp};\n", dir.display()));
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
#[ignore = "needs nginx (Debian: nginx-light): cargo test --test nginx -- --ignored"]
fn the_balancer_meters_costly_requests_per_client() {
    let nginx = nginx().expect("nginx is missing (Debian: nginx-light)");
    let served = Served::start(&["--rate-limit-per-minute", "0"]);
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let conf = dir.path().join("nginx.conf");
    std::fs::write(&conf, configuration(&served.addr, port, dir.path())).unwrap();
    let check = Command::new(nginx)
        .args(["-t", "-e", "stderr", "-p"])
        .arg(dir.path())
        .arg("-c")
        .arg(&conf)
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let _nginx = Nginx(
        Command::new(nginx)
            .args(["-e", "stderr", "-p"])
            .arg(dir.path())
            .arg("-c")
            .arg(&conf)
            .args(["-g", "daemon off;"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let base = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "nginx does not listen"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let agent = common::agent();
    // Cheap requests are not metered.
    for _ in 0..30 {
        let r = agent
            .get(format!("{base}/v1/puzzles?limit=1"))
            .call()
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
    }
    // Costly ones: the burst, then 429 from the balancer (the replica's own limit is off). A
    // puzzle posted to a replica without a write token is refused at once (403), so the requests
    // take milliseconds; the balancer meters them all the same. One more request may pass for
    // each second the burst took (the bucket drains one a second).
    let started = Instant::now();
    let mut statuses = Vec::new();
    let mut refused = None;
    for _ in 0..14 {
        let mut r = agent
            .post(format!("{base}/v1/puzzles"))
            .header("content-type", "application/json")
            .send(b"{}")
            .unwrap();
        let status = r.status().as_u16();
        statuses.push(status);
        if status == 429 && refused.is_none() {
            let header = |name: &str| {
                r.headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            };
            let (retry, kind) = (header("retry-after"), header("content-type"));
            let body: serde_json::Value =
                serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
            refused = Some((retry, kind, body));
        }
    }
    let seconds = started.elapsed().as_secs() as usize;
    assert!(
        statuses[..10].iter().all(|&s| s == 401 || s == 403),
        "{statuses:?}"
    );
    let passed = statuses.iter().filter(|&&s| s != 429).count();
    assert!(
        passed <= 11 + seconds,
        "{passed} passed in {seconds} s: {statuses:?}"
    );
    let (retry, kind, body) = refused.expect("the balancer refused none");
    assert_eq!(retry.as_deref(), Some("1"));
    assert_eq!(kind.as_deref(), Some("application/problem+json"));
    assert_eq!(body["type"], "/problems/rate-limited");
    assert_eq!(body["status"], 429);
    // A cheap request still passes; a solve and a play are metered in the same bucket.
    let r = agent
        .get(format!("{base}/v1/puzzles?limit=1"))
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let solve = serde_json::json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1});
    let r = agent
        .post(format!("{base}/v1/solve"))
        .header("content-type", "application/json")
        .send(solve.to_string().as_bytes())
        .unwrap();
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(r.status().as_u16(), 429);
    }
    let r = agent
        .post(format!("{base}/v1/play"))
        .header("content-type", "application/json")
        .send(b"{}")
        .unwrap();
    if started.elapsed() < Duration::from_secs(1) {
        assert_eq!(r.status().as_u16(), 429);
    }
}
