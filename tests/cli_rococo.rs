//! The command line with `--game rococo`, run as a user would.

use std::process::Command;

fn baroque(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn rococo_perft_of_the_start_position() {
    let (ok, out, _) = baroque(&["perft", "startpos", "3", "--game", "rococo"]);
    assert!(ok);
    assert_eq!(out.lines().last(), Some("nodes 23863"));
    let (ok, out, _) = baroque(&["perft", "startpos", "1", "--game", "rococo", "--divide"]);
    assert!(ok);
    assert!(out.contains("Si2<>h2 1"), "{out}");
    assert_eq!(out.lines().last(), Some("nodes 25"));
}

#[test]
fn rococo_solve_finds_the_only_key() {
    let fen = "10/10/10/3K6/10/4k1I3/10/10/3W1A4/10 w 0 -";
    let (ok, out, _) = baroque(&["solve", fen, "1", "--game", "rococo"]);
    assert!(ok);
    assert!(out.contains("keys Wd2-d4 (#1)"), "{out}");
    assert!(out.contains("sound true"), "{out}");
    let (ok, out, _) = baroque(&["solve", fen, "1", "--game", "rococo", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["keys"][0]["notation"], "Wd2-d4");
}

#[test]
fn rococo_bad_input_is_a_clear_error() {
    let (ok, _, err) = baroque(&["perft", "10/10 w", "2", "--game", "rococo"]);
    assert!(!ok);
    assert!(err.contains("ranks"), "{err}");
    let (ok, _, err) = baroque(&[
        "solve",
        "10/10/10/10/10/10/10/10/4K5/10 w 0",
        "2",
        "--game",
        "rococo",
    ]);
    assert!(!ok);
    assert!(err.contains("both Kings"), "{err}");
}
