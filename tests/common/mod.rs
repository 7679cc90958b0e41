//! Helpers of the tests that run the real binary's `serve` as a child process.
#![allow(dead_code)] // each test binary uses its own part

use std::time::Duration;

/// An HTTP client that returns 4xx and 5xx answers instead of failing, with a 20 s timeout.
pub fn agent() -> ureq::Agent {
    ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(20)))
            .build(),
    )
}

/// The `HOST:PORT` of a server's "listening on http://HOST:PORT" line, when `text` holds it
/// whole.
pub fn listening_addr(text: &str) -> Option<String> {
    let rest = text.split("listening on http://").nth(1)?;
    let addr: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '[' | ']'))
        .collect();
    let port = addr.rsplit_once(':')?.1;
    // A port is whole once something other than a digit follows it.
    let whole = rest.len() > addr.len() && !port.is_empty();
    whole.then_some(addr)
}

/// A `baroque serve` child process on a free port of 127.0.0.1, killed when dropped.
pub struct Served {
    pub child: std::process::Child,
    /// `http://HOST:PORT`.
    pub base: String,
    /// `HOST:PORT`.
    pub addr: String,
    pub agent: ureq::Agent,
    _dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// Starts the binary's `serve` with `args` (besides the address and a fresh database) and
    /// waits until it listens; its output is drained in the background.
    pub fn start(args: &[&str]) -> Served {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let db = dir.path().join("baroque.db");
        Served::start_at(&db, args, &[], dir)
    }

    /// Starts `serve` on the database `db` with `args` and environment variables `envs`; `dir` is
    /// removed when the server is dropped.
    pub fn start_at(
        db: impl AsRef<std::ffi::OsStr>,
        args: &[&str],
        envs: &[(&str, &str)],
        dir: tempfile::TempDir,
    ) -> Served {
        Served::start_in(
            db,
            args,
            envs,
            dir,
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        )
    }

    /// [`Served::start_at`] with `cwd` as the server's working directory.
    pub fn start_in(
        db: impl AsRef<std::ffi::OsStr>,
        args: &[&str],
        envs: &[(&str, &str)],
        dir: tempfile::TempDir,
        cwd: &std::path::Path,
    ) -> Served {
        use std::io::{BufRead, BufReader, Read};
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_baroque"))
            .current_dir(cwd)
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(db.as_ref())
            .args(args)
            .envs(envs.iter().copied())
            .env("NO_COLOR", "1")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn baroque serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = stderr.read_to_end(&mut sink);
        });
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(addr) = listening_addr(&format!("{line}\n")) {
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the server says where it listens");
        Served {
            child,
            base: format!("http://{addr}"),
            addr,
            agent: agent(),
            _dir: dir,
        }
    }

    /// POSTs JSON: the status and the body as JSON (`Null` when it is not).
    pub fn post(&self, path: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
        self.post_with(path, body, &[])
    }

    /// POSTs JSON with extra headers.
    pub fn post_with(
        &self,
        path: &str,
        body: &serde_json::Value,
        headers: &[(&str, &str)],
    ) -> (u16, serde_json::Value) {
        let mut req = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json");
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let mut res = req
            .send(body.to_string().as_bytes())
            .expect("the server answers");
        let status = res.status().as_u16();
        let text = res.body_mut().read_to_string().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or_default())
    }

    /// GETs a path: the status and the body as JSON (`Null` when it is not).
    pub fn get(&self, path: &str) -> (u16, serde_json::Value) {
        let mut res = self
            .agent
            .get(format!("{}{path}", self.base))
            .call()
            .expect("the server answers");
        let status = res.status().as_u16();
        let text = res.body_mut().read_to_string().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or_default())
    }

    /// Opens a connection and sends a POST of `body` to `path` without reading the answer.
    pub fn send_raw(&self, path: &str, body: &serde_json::Value) -> std::net::TcpStream {
        use std::io::Write;
        let mut s = std::net::TcpStream::connect(&self.addr).expect("connect");
        let body = body.to_string();
        write!(
            s,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .expect("send");
        s
    }

    /// The CPU time the server has used so far (user and system), from `/proc`.
    #[cfg(target_os = "linux")]
    pub fn cpu_time(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()))
            .expect("the server's /proc entry");
        // The fields after the command name, which is in parentheses and may hold spaces.
        let rest = &stat[stat.rfind(')').expect("a stat line") + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        // SAFETY: sysconf has no preconditions.
        let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
        Duration::from_millis(ticks * 1000 / per_second)
    }
}

/// The binary, as a command to run.
pub fn baroque() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_baroque"))
}

/// Runs a command: its exit code (-1 when killed), standard output and standard error.
pub fn run(cmd: &mut std::process::Command) -> (i32, String, String) {
    let out = cmd.output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
