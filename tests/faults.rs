//! Faults, through the real binary (`baroque serve` as a child process): a server killed with
//! SIGKILL in the middle of a stream of puzzle writes loses none it acknowledged and leaves a sound
//! database; a database it cannot write (a read-only file, an unwritable directory, a full disk)
//! stops start-up with a message that says so, or, when the disk fills while it runs, answers 503
//! `store-unavailable` and keeps serving reads.
//!
//! Permissions do not bind root, so when the tests run as root the server runs as `nobody`
//! (dropping privileges between fork and exec). A full disk is a file size limit
//! (`RLIMIT_FSIZE`, with `SIGXFSZ` ignored so that writes fail with `EFBIG` as on a full disk).
#![cfg(unix)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

mod common;
use common::{agent, listening_addr};

const TOKEN: &str = "fault-test-token-5f1e";
const NOBODY: libc::uid_t = 65534;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// How the child is started.
#[derive(Clone, Copy, Default)]
struct Launch {
    /// Run as `nobody` (when the tests run as root).
    unprivileged: bool,
    /// `RLIMIT_FSIZE` in bytes.
    max_file_bytes: Option<u64>,
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn command(bin: &Path, db: &Path, launch: Launch) -> Command {
    let mut cmd = Command::new(bin);
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--workers", "2"])
        .arg("--db")
        .arg(db)
        .arg("--fixtures")
        .arg(fixtures())
        .env("BAROQUE_WRITE_TOKEN", TOKEN)
        .env("BAROQUE_LOG_FORMAT", "text")
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let drop_to_nobody = launch.unprivileged && is_root();
    let fsize = launch.max_file_bytes;
    // SAFETY: the closure runs between fork and exec and calls only async-signal-safe functions.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(bytes) = fsize {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let lim = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            if drop_to_nobody
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(NOBODY) != 0
                    || libc::setuid(NOBODY) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

/// A running server; killed (SIGKILL) when dropped.
struct Server {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the server and waits for its "listening on" line; its output is drained in the
/// background (a full pipe would block its logging).
fn start(bin: &Path, db: &Path, launch: Launch) -> Server {
    let mut child = command(bin, db, launch)
        .spawn()
        .expect("spawn baroque serve");
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = stderr.read_to_end(&mut sink);
    });
    let (tx, rx) = mpsc::channel();
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
    Server {
        child,
        base: format!("http://{addr}"),
        agent: agent(),
    }
}

/// Runs `baroque serve` expecting it to fail at start-up: its exit status and standard error.
fn start_fails(bin: &Path, db: &Path, launch: Launch) -> (std::process::ExitStatus, String) {
    let mut child = command(bin, db, launch)
        .spawn()
        .expect("spawn baroque serve");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status, err);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server started (or hung) instead of refusing to start");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Server {
    fn get(&self, path: &str) -> (u16, Value) {
        let mut res = self
            .agent
            .get(format!("{}{path}", self.base))
            .call()
            .expect("the server answers");
        let status = res.status().as_u16();
        let text = res.body_mut().read_to_string().unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// POSTs a puzzle: the status, the content type and the body, or `None` when the connection
    /// failed (the server was killed).
    fn post_puzzle(&self, body: &Value) -> Option<(u16, String, Value)> {
        let mut res = self
            .agent
            .post(format!("{}/v1/puzzles", self.base))
            .header("authorization", format!("Bearer {TOKEN}"))
            .header("content-type", "application/json")
            .send(body.to_string().as_bytes())
            .ok()?;
        let status = res.status().as_u16();
        let ct = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let v = serde_json::from_str(&res.body_mut().read_to_string().ok()?).ok()?;
        Some((status, ct, v))
    }
}

/// A diagram puzzle distinct for each `n`: two Kings and a King move, the position `n` plies in.
fn diagram(n: u64) -> Value {
    json!({"kind": "diagram", "fen": format!("7k/8/8/8/8/8/8/K7 w {n}"), "moves": ["Ka1-a2"],
           "captures": [], "title": format!("fault {n}"), "tags": ["faults"]})
}

fn integrity(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

/// A directory the unprivileged server can reach (a temporary directory is 0700).
fn shared_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// The binary, where `nobody` may run it: as built when every directory above it lets others
/// in, else a copy in `dir`.
fn runnable_binary(dir: &Path) -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_baroque"));
    let reachable = bin
        .ancestors()
        .skip(1)
        .all(|d| std::fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
    if !is_root() || reachable {
        return bin;
    }
    let copy = dir.join("baroque");
    std::fs::copy(&bin, &copy).unwrap();
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
    copy
}

#[test]
fn every_acknowledged_write_survives_a_kill_9_mid_stream() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("baroque.db");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_baroque"));
    let server = Arc::new(start(&bin, &db, Launch::default()));
    let (status, _) = server.get("/v1/puzzles?limit=1");
    assert_eq!(status, 200);
    let seeded = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM puzzles", [], |r| r.get::<_, i64>(0))
        .unwrap();

    // Four writers, each its own puzzles, until the server dies under them.
    let acked: Arc<Mutex<Vec<(i64, u64)>>> = Arc::default();
    let failed = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..4u64)
        .map(|w| {
            let (server, acked, failed) = (server.clone(), acked.clone(), failed.clone());
            std::thread::spawn(move || {
                let mut n = w * 1_000_000 + 1;
                while let Some((status, ct, body)) = server.post_puzzle(&diagram(n)) {
                    if status == 201 {
                        let id = body["id"].as_i64().expect("an id");
                        acked.lock().unwrap().push((id, n));
                    } else {
                        eprintln!("write {n}: {status} {ct} {body}");
                        failed.store(true, Ordering::SeqCst);
                        return;
                    }
                    n += 1;
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    while acked.lock().unwrap().len() < 200 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    // SIGKILL, while the writers are still writing.
    let pid = server.child.id();
    // SAFETY: kill(2) on the child's pid, which has not been waited for.
    assert_eq!(unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) }, 0);
    for w in writers {
        w.join().unwrap();
    }
    assert!(!failed.load(Ordering::SeqCst), "a write was refused");
    drop(Arc::try_unwrap(server).ok().expect("the writers are done"));
    let acked = acked.lock().unwrap().clone();
    assert!(
        acked.len() >= 200,
        "only {} writes before the deadline",
        acked.len()
    );

    // The database as the killed server left it: sound, and every acknowledged write in it.
    assert_eq!(integrity(&db), "ok");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let mut stmt = conn
            .prepare("SELECT fen FROM puzzles WHERE id = ?1")
            .unwrap();
        for (id, n) in &acked {
            let fen: String = stmt
                .query_row([id], |r| r.get(0))
                .unwrap_or_else(|e| panic!("acknowledged puzzle {id} is missing: {e}"));
            assert_eq!(fen, format!("7k/8/8/8/8/8/8/K7 w {n}"));
        }
        let written: i64 = conn
            .query_row(
                "SELECT count(*) FROM puzzles p JOIN puzzle_tags t ON t.puzzle_id = p.id \
                 WHERE t.tag = 'faults'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        // Requests in flight at the kill may have been stored without their answer arriving.
        assert!(written >= acked.len() as i64, "{written} < {}", acked.len());
        assert!(
            written <= acked.len() as i64 + 4,
            "{written} > {} + 4",
            acked.len()
        );
        let total: i64 = conn
            .query_row("SELECT count(*) FROM puzzles", [], |r| r.get(0))
            .unwrap();
        assert_eq!(total, seeded + written);
    }

    // Restarted on the same file, the server serves every one of them.
    let server = start(&bin, &db, Launch::default());
    for (id, n) in &acked {
        let (status, body) = server.get(&format!("/v1/puzzles/{id}"));
        assert_eq!(status, 200, "puzzle {id}: {body}");
        assert_eq!(body["fen"], format!("7k/8/8/8/8/8/8/K7 w {n}"));
    }
    // And it takes new writes.
    let (status, _, _) = server.post_puzzle(&diagram(9_999_999)).unwrap();
    assert_eq!(status, 201);
    drop(server);
    assert_eq!(integrity(&db), "ok");
}

#[test]
fn a_read_only_database_file_stops_start_up_with_a_clear_message() {
    let dir = shared_tempdir();
    let db = dir.path().join("baroque.db");
    baroque::store::Store::open(&db).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    if is_root() {
        // The server's own file, in its own directory: only the file's mode stands in the way.
        std::os::unix::fs::chown(dir.path(), Some(NOBODY), None).unwrap();
        std::os::unix::fs::chown(&db, Some(NOBODY), None).unwrap();
    }
    let bin = runnable_binary(dir.path());
    let (status, err) = start_fails(
        &bin,
        &db,
        Launch {
            unprivileged: true,
            ..Launch::default()
        },
    );
    assert!(!status.success(), "{err}");
    assert!(err.contains("read-only"), "{err}");
    assert!(err.contains("baroque.db"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn an_unwritable_directory_stops_start_up_with_a_clear_message() {
    let dir = shared_tempdir();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    let bin = runnable_binary(dir.path());
    let (status, err) = start_fails(
        &bin,
        &locked.join("baroque.db"),
        Launch {
            unprivileged: true,
            ..Launch::default()
        },
    );
    assert!(!status.success(), "{err}");
    assert!(
        err.contains("cannot open or create the database file"),
        "{err}"
    );
    assert!(err.contains("directory"), "{err}");
}

#[test]
fn a_full_disk_at_start_up_stops_it_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_baroque"));
    let (status, err) = start_fails(
        &bin,
        &dir.path().join("baroque.db"),
        Launch {
            max_file_bytes: Some(40 * 1024),
            ..Launch::default()
        },
    );
    assert!(!status.success(), "{err}");
    assert!(err.contains("is the disk full"), "{err}");
}

#[test]
fn a_disk_filling_up_while_serving_gives_503_and_reads_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("baroque.db");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_baroque"));
    // Seeded by a first run, then checkpointed: the WAL is empty, the store larger than the limit.
    drop(start(&bin, &db, Launch::default()));
    rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
    let limit = 64 * 1024;
    assert!(std::fs::metadata(&db).unwrap().len() > limit);
    let server = start(
        &bin,
        &db,
        Launch {
            max_file_bytes: Some(limit),
            ..Launch::default()
        },
    );
    // The WAL has room for a few writes; then each write is refused, and the server stays up.
    let mut refused = None;
    for n in 1..=200 {
        let (status, ct, body) = server.post_puzzle(&diagram(n)).expect("the server answers");
        match status {
            201 => continue,
            503 => {
                refused = Some((ct, body));
                break;
            }
            other => panic!("write {n}: {other} {ct} {body}"),
        }
    }
    let (ct, body) = refused.expect("the disk never filled");
    assert_eq!(ct, "application/problem+json");
    assert_eq!(body["type"], "/problems/store-unavailable", "{body}");
    assert!(body["detail"].as_str().unwrap().contains("full"), "{body}");
    for n in 1000..1003 {
        let (status, _, body) = server.post_puzzle(&diagram(n)).expect("still up");
        assert_eq!(status, 503, "{body}");
    }
    assert_eq!(server.get("/health").0, 200);
    let (status, page) = server.get("/v1/puzzles?limit=5");
    assert_eq!(status, 200);
    assert_eq!(page["items"].as_array().unwrap().len(), 5);
    drop(server);
    assert_eq!(integrity(&db), "ok");
}

#[test]
fn a_database_locked_by_another_process_gives_503_after_the_busy_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("baroque.db");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_baroque"));
    let server = start(&bin, &db, Launch::default());
    let (status, ..) = server.post_puzzle(&diagram(1)).expect("the server answers");
    assert_eq!(status, 201);
    // Another process takes the write lock and keeps it past the server's busy timeout.
    let mut other = rusqlite::Connection::open(&db).unwrap();
    let tx = other
        .transaction_with_behavior(rusqlite::TransactionBehavior::Exclusive)
        .unwrap();
    let started = Instant::now();
    let (status, ct, body) = server.post_puzzle(&diagram(2)).expect("the server answers");
    let waited = started.elapsed();
    assert_eq!(status, 503, "{body}");
    assert_eq!(ct, "application/problem+json");
    assert_eq!(body["type"], "/problems/store-unavailable", "{body}");
    assert!(
        body["detail"].as_str().unwrap().contains("locked"),
        "{body}"
    );
    assert!(
        waited >= baroque::store::BUSY_TIMEOUT,
        "it waited {waited:?} for the lock"
    );
    // Reads go on under the lock (WAL); once it is released, writes do too.
    let (status, page) = server.get("/v1/puzzles?limit=5");
    assert_eq!(status, 200);
    assert_eq!(page["items"].as_array().unwrap().len(), 5);
    tx.rollback().unwrap();
    let (status, ..) = server.post_puzzle(&diagram(3)).expect("the server answers");
    assert_eq!(status, 201);
    drop(server);
    assert_eq!(integrity(&db), "ok");
}
