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
        &dir2.path().join("store.db"),
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
