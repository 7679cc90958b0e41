//! The real binary: perft, check, openapi and health.

use std::process::Command;

fn baroque() -> Command {
    Command::new(env!("CARGO_BIN_EXE_baroque"))
}

fn run(cmd: &mut Command) -> (i32, String, String) {
    let out = cmd.output().expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_of_the_start_position_to_depth_3_under_vchess() {
    let (code, out, err) = run(baroque().args(["perft", "startpos", "3", "--rules", "vchess"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("nodes 42762"), "{out}");
}

#[test]
fn check_passes_the_seed_diagrams() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/diagrams");
    let (code, out, err) = run(baroque().args(["check", dir]));
    assert_eq!(code, 0, "{out}{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(last.ends_with(" passed, 0 failed"), "{out}");
}

#[test]
fn check_fails_on_a_wrong_expectation_and_names_the_case() {
    let case = r#"{
  "document": "a test",
  "cases": [
    {
      "id": "vc-pawn-c2c4-wrong",
      "fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0",
      "rules": "vchess",
      "moves": ["Pc2c4"],
      "captures": [{"square": "c5", "piece": "n"}]
    },
    {
      "id": "vc-pawn-c2c4-right",
      "fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0",
      "rules": "vchess",
      "moves": ["Pc2c4"],
      "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}]
    }
  ]
}"#;
    let path = std::env::temp_dir().join(format!("baroque-cli-test-{}.json", std::process::id()));
    std::fs::write(&path, case).unwrap();
    let (code, out, err) = run(baroque().arg("check").arg(&path));
    std::fs::remove_file(&path).ok();
    assert_ne!(code, 0, "{out}{err}");
    assert!(out.contains("FAIL vc-pawn-c2c4-wrong"), "{out}");
    assert!(out.contains("ok   vc-pawn-c2c4-right"), "{out}");
    assert!(out.contains("1 passed, 1 failed"), "{out}");
}

#[test]
fn openapi_prints_the_committed_document() {
    let (code, out, err) = run(baroque().arg("openapi"));
    assert_eq!(code, 0, "{err}");
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json"))
            .unwrap();
    assert!(
        out == committed,
        "regenerate with `cargo run -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn health_fails_when_nothing_listens_and_passes_against_a_server() {
    // A port that was free a moment ago: nothing listens there.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = free.local_addr().unwrap().to_string();
    drop(free);
    let (code, _, err) = run(baroque().args(["health", "--addr", &addr, "--timeout", "2"]));
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("unhealthy"), "{err}");

    // The real server on a port that was free a moment ago; `health` reads BAROQUE_ADDR and
    // turns the unspecified host 0.0.0.0 into 127.0.0.1.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let mut server = baroque()
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--workers",
            "1",
        ])
        .env("BAROQUE_DB", "/nonexistent/not-opened.db")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut result = (1, String::new(), String::new());
    for _ in 0..100 {
        result = run(baroque()
            .args(["health", "--timeout", "2"])
            .env("BAROQUE_ADDR", format!("0.0.0.0:{port}")));
        if result.0 == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    server.kill().ok();
    server.wait().ok();
    let (code, out, err) = result;
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\"status\":\"ok\""), "{out}");
}

#[test]
fn solve_prints_the_keys_in_text_and_json() {
    let king = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
    let (code, out, err) = run(baroque().args(["solve", king, "2", "--rules", "abbott"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("result mate"), "{out}");
    assert!(out.contains("sound false"), "{out}");
    assert!(out.contains("short_solutions Kc4-d5 (#1)"), "{out}");

    let chameleon = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";
    let (code, out, err) = run(baroque().args(["solve", chameleon, "2", "--json"]));
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(s["result"], "mate");
    assert_eq!(s["sound"], true);
    assert_eq!(s["keys"].as_array().unwrap().len(), 1);
    assert_eq!(s["keys"][0]["notation"], "Bg6xc6");
    assert_eq!(s["keys"][0]["captures"].as_array().unwrap().len(), 7);
    for field in ["cooks", "short_solutions", "tree", "nodes", "millis"] {
        assert!(!s[field].is_null(), "{field}");
    }

    let (code, _, err) = run(baroque().args(["solve", king, "0"]));
    assert_eq!(code, 2);
    assert!(err.contains("N must be between 1 and 12"), "{err}");
    let (code, _, err) = run(baroque().args(["solve", "8/8/8 w 0", "1"]));
    assert_eq!(code, 2);
    assert!(err.starts_with("error: FEN"), "{err}");
}
