//! What operators meet, through the binary: it runs from any directory with the fixtures built in,
//! `--no-seed` starts empty, a failed start leaves nothing behind, and a closed pipe ends a
//! subcommand quietly.
#![cfg(unix)]

use std::process::{Command, Stdio};

mod common;
use common::Served;

/// The number of puzzles a server lists (following the pages).
fn stored(server: &Served) -> usize {
    let (status, page) = server.get("/v1/puzzles?limit=200");
    assert_eq!(status, 200, "{page}");
    assert_eq!(
        page["next_cursor"],
        serde_json::Value::Null,
        "one page holds the fixtures: {page}"
    );
    page["items"].as_array().unwrap().len()
}

#[test]
fn serve_runs_from_a_directory_without_fixtures_and_seeds_the_ones_built_in() {
    let elsewhere = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("store.db");
    let from_elsewhere = Served::start_in(
        &db,
        &[],
        &[],
        tempfile::tempdir().unwrap(),
        elsewhere.path(),
    );
    let built_in = stored(&from_elsewhere);
    drop(from_elsewhere);
    // The package's fixture directory seeds the same puzzles.
    let dir2 = tempfile::tempdir().unwrap();
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");
    let from_dir = Served::start_at(
        dir2.path().join("store.db"),
        &["--fixtures", fixtures],
        &[],
        tempfile::tempdir().unwrap(),
    );
    assert_eq!(stored(&from_dir), built_in);
    assert!(built_in >= 60, "the document fixtures: {built_in}");
    // Nothing was written in the working directory.
    assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
}

#[test]
fn no_seed_starts_with_an_empty_store() {
    let server = Served::start(&["--no-seed"]);
    assert_eq!(stored(&server), 0);
    assert_eq!(server.get("/v1/puzzles/1").0, 404);
}

#[test]
fn a_start_that_cannot_listen_leaves_no_database() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("never.db");
    let out = Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(["serve", "--addr", &addr, "--db"])
        .arg(&db)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot listen on"), "{err}");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "files left behind"
    );
}

/// `baroque openapi | head -c 10`, and other subcommands whose reader goes away: a quiet end,
/// never a panic.
#[test]
fn a_closed_pipe_ends_a_subcommand_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    for args in [
        &["openapi"][..],
        &["perft", "startpos", "3", "--divide"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_baroque"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 10];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(
            status.success() || status.signal() == Some(libc::SIGPIPE),
            "{args:?}: {status:?} {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// SIGTERM (and SIGINT) stop the server gracefully: a search in flight still gets its answer, a
/// running generation job is handed over (left `running` with its lease given up, and taken over
/// by the next server on the store), new connections are refused, and the process exits 0.
#[test]
fn a_signal_lets_work_in_flight_finish_and_exits_zero() {
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("graceful.db");
        let token = [("BAROQUE_WRITE_TOKEN", "graceful-token")];
        let mut server = Served::start_at(
            &db,
            &["--no-seed", "--shutdown-timeout", "20"],
            &token,
            tempfile::tempdir().unwrap(),
        );
        // A job that would run for minutes.
        let (status, job) = server.post_with(
            "/v1/collections",
            &serde_json::json!({"name": "long", "mate_in": 3, "count": 200, "seed": 7, "max_pieces": 12}),
            &[("authorization", "Bearer graceful-token")],
        );
        assert_eq!(status, 202, "{job}");
        // A search of about 1.5 s: a crowded Rococo board under a time budget.
        let base = server.base.clone();
        let search = std::thread::spawn(move || {
            let body = serde_json::json!({
                "fen": "ssssXxS2s/S1sXs3sS/xXSXXxs1xX/Xss1XXXxsX/xksX1sxSsS/xxx1SsXXXx/sxxSXxxSsS/SsS1SSX1XX/S1SsxxsSSK/1SsX1XxXSS w 0 -",
                "game": "rococo", "mate_in": 4, "limits": {"millis": 1500}
            });
            let mut res = common::agent()
                .post(format!("{base}/v1/solve"))
                .header("content-type", "application/json")
                .send(body.to_string().as_bytes())
                .expect("the search in flight is answered");
            let status = res.status().as_u16();
            (status, res.body_mut().read_to_string().unwrap_or_default())
        });
        std::thread::sleep(std::time::Duration::from_millis(400));
        let pid = server.child.id() as libc::pid_t;
        // SAFETY: sending a signal to our own child process.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let (status, body) = search.join().unwrap();
        assert_eq!(
            status,
            200,
            "signal {signal}: {}",
            &body[..body.len().min(500)]
        );
        let answer: serde_json::Value = serde_json::from_str(&body).unwrap();
        // The whole answer: the search ran to its time budget after the signal.
        assert_eq!(
            answer["budget_exhausted_by"], "time",
            "{}",
            answer["result"]
        );
        assert!(
            answer["millis"].as_u64().unwrap() >= 1000,
            "{}",
            answer["millis"]
        );
        let exit = wait_for_exit(&mut server.child, std::time::Duration::from_secs(30));
        assert_eq!(exit.code(), Some(0), "signal {signal}: {exit:?}");
        assert!(
            std::net::TcpStream::connect(&server.addr).is_err(),
            "still accepting connections"
        );
        // The job handed itself over: still running in the store, its lease given up, for the
        // next server on this store to go on with.
        let store = baroque::store::Store::open(&db).unwrap();
        let (collection, _) = store.collection("long").unwrap().unwrap();
        assert_eq!(collection.state, "running", "{collection:?}");
        let id = job["id"].as_i64().unwrap();
        let row = store.job(id).unwrap().unwrap();
        assert_eq!(
            (row.state.as_str(), row.attempts),
            ("running", 1),
            "{row:?}"
        );
        drop(store);
        // The next server on the store takes it over at once, and a cancel stops it `stopped`.
        let next = Served::start_at(&db, &["--no-seed"], &token, tempfile::tempdir().unwrap());
        let url = format!("/v1/jobs/{id}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while next.get(&url).1["attempts"] != 2 {
            assert!(std::time::Instant::now() < deadline, "{}", next.get(&url).1);
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let cancelled = next
            .agent
            .delete(format!("{}{url}", next.base))
            .header("authorization", "Bearer graceful-token")
            .call()
            .unwrap();
        assert!(cancelled.status().is_success(), "{cancelled:?}");
        while next.get(&url).1["state"] == "running" {
            assert!(std::time::Instant::now() < deadline, "{}", next.get(&url).1);
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let (_, j) = next.get(&url);
        assert_eq!(j["state"], "stopped", "{j}");
        assert_eq!(j["stop"], "cancelled", "{j}");
    }
}

/// Waits for a child to exit, killing it after `limit`.
fn wait_for_exit(
    child: &mut std::process::Child,
    limit: std::time::Duration,
) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not exit within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// `BAROQUE_CORS_ALLOW_ORIGIN` takes a comma-separated list, as operators set it in a container.
#[test]
fn the_cors_variable_takes_a_comma_separated_list() {
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start_at(
        dir.path().join("cors.db"),
        &["--no-seed"],
        &[(
            "BAROQUE_CORS_ALLOW_ORIGIN",
            "https://a.example, https://b.example",
        )],
        tempfile::tempdir().unwrap(),
    );
    for (origin, allowed) in [
        ("https://a.example", true),
        ("https://b.example", true),
        ("https://c.example", false),
    ] {
        let res = common::agent()
            .get(format!("{}/health", server.base))
            .header("origin", origin)
            .call()
            .unwrap();
        let got = res
            .headers()
            .get("access-control-allow-origin")
            .and_then(|v| v.to_str().ok());
        assert_eq!(got, allowed.then_some(origin), "{origin}");
    }
}
