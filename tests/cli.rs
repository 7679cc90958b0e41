//! The real binary: perft, check, openapi and health.

mod common;
use common::{agent, baroque, run};

#[test]
fn perft_of_the_start_position_to_depth_3_under_vchess() {
    let (code, out, err) = run(baroque().args(["perft", "startpos", "3", "--rules", "vchess"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("nodes 42762"), "{out}");
}

#[test]
fn perft_split_over_threads_counts_and_divides_the_same() {
    let (code, out, err) = run(baroque().args([
        "perft",
        "startpos",
        "3",
        "--rules",
        "vchess",
        "--threads",
        "2",
        "--json",
        "--divide",
    ]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["nodes"].as_u64(), v["threads"].as_u64()),
        (Some(42762), Some(2))
    );
    let (_, single, _) = run(baroque().args([
        "perft", "startpos", "3", "--rules", "vchess", "--json", "--divide",
    ]));
    let single: serde_json::Value = serde_json::from_str(&single).unwrap();
    assert_eq!(v["divide"], single["divide"]);
    assert_eq!(v["divide"].as_array().map(Vec::len), Some(32));
    let (code, _, err) = run(baroque().args(["perft", "startpos", "3", "--threads", "0"]));
    assert_eq!(code, 2, "{err}");
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
    let dir = tempfile::tempdir().unwrap();
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
        .env("BAROQUE_DB", dir.path().join("baroque.db"))
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

/// A port that was free a moment ago.
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// `baroque serve` on `db` with the write token, once it answers /health.
fn serve(db: &std::path::Path, port: u16) -> std::process::Child {
    let mut child = baroque()
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--workers",
            "1",
        ])
        .arg("--db")
        .arg(db)
        .env("BAROQUE_WRITE_TOKEN", "restart-token")
        .env(
            "BAROQUE_FIXTURES",
            concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures"),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..200 {
        let (code, _, _) = run(baroque().args(["health", "--addr", &format!("127.0.0.1:{port}")]));
        if code == 0 {
            return child;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.kill().ok();
    child.wait().ok();
    panic!("the server did not start");
}

fn puzzle_ids(port: u16) -> Vec<i64> {
    let mut res = agent()
        .get(format!("http://127.0.0.1:{port}/v1/puzzles?limit=200"))
        .call()
        .unwrap();
    let page: serde_json::Value =
        serde_json::from_str(&res.body_mut().read_to_string().unwrap()).unwrap();
    assert!(page["next_cursor"].is_null());
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect()
}

#[test]
fn a_restart_keeps_every_row_even_after_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("baroque.db");
    let port = free_port();
    let mut first = serve(&db, port);
    let seeded = puzzle_ids(port);
    let body = serde_json::json!({"kind": "diagram", "fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0",
        "rules": "cambridge", "moves": ["Pc2c4"],
        "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}]});
    let res = agent()
        .post(format!("http://127.0.0.1:{port}/v1/puzzles"))
        .header("authorization", "Bearer restart-token")
        .header("content-type", "application/json")
        .send(body.to_string().as_bytes())
        .unwrap();
    assert_eq!(res.status().as_u16(), 201);
    let before = puzzle_ids(port);
    assert_eq!(before.len(), seeded.len() + 1);
    first.kill().unwrap(); // SIGKILL: no orderly shutdown
    first.wait().unwrap();

    let port = free_port();
    let mut second = serve(&db, port);
    let after = puzzle_ids(port);
    second.kill().ok();
    second.wait().ok();
    assert_eq!(
        after, before,
        "seeding again adds nothing and the posted row is kept"
    );
}

#[test]
fn a_kill_during_writes_keeps_every_acknowledged_row_and_an_intact_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("baroque.db");
    let port = free_port();
    let mut server = serve(&db, port);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writers: Vec<_> = (0..4u32)
        .map(|w| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let agent = agent();
                let mut acknowledged = Vec::new();
                for i in 0..10_000u32 {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        break;
                    }
                    // The ply count makes each position, so each puzzle, distinct.
                    let body = serde_json::json!({"kind": "diagram",
                        "fen": format!("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w {}", w * 100_000 + i),
                        "moves": ["Pc2c4"],
                        "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}]});
                    let res = agent
                        .post(format!("http://127.0.0.1:{port}/v1/puzzles"))
                        .header("authorization", "Bearer restart-token")
                        .header("content-type", "application/json")
                        .send(body.to_string().as_bytes());
                    match res {
                        Ok(mut r) if r.status().as_u16() == 201 => {
                            let v: serde_json::Value =
                                serde_json::from_str(&r.body_mut().read_to_string().unwrap())
                                    .unwrap();
                            acknowledged.push(v["id"].as_i64().unwrap());
                        }
                        Ok(r) => panic!("status {}", r.status()),
                        Err(_) => break, // the server is gone
                    }
                }
                acknowledged
            })
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(400));
    server.kill().unwrap(); // SIGKILL in the middle of the writes
    server.wait().unwrap();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let acknowledged: Vec<i64> = writers
        .into_iter()
        .flat_map(|w| w.join().unwrap())
        .collect();
    eprintln!("{} writes acknowledged before the kill", acknowledged.len());
    assert!(acknowledged.len() > 10, "{} writes", acknowledged.len());

    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    drop(conn);
    let store = baroque::store::Store::open(&db).unwrap();
    for id in &acknowledged {
        assert!(
            store.get(*id).unwrap().is_some(),
            "row {id} was acknowledged but lost"
        );
    }
}

/// `solve --stipulation`: a helpmate's every line, a selfmate's keys, and clear refusals.
#[test]
fn solve_takes_a_stipulation() {
    // h#1: the Black King walks into the Immobilizer, the White King comes next to it.
    let (code, out, err) =
        run(baroque().args(["solve", "8/8/8/8/1K6/1M1k4/8/8 b 0", "--stipulation", "h#1"]));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..5],
        [
            "stipulation h#1",
            "solutions 1",
            "  Kd3-c2 Kb4-c3",
            "short_solutions 0",
            "sound true"
        ],
        "{out}"
    );
    let (code, out, err) = run(baroque().args([
        "solve",
        "8/8/8/8/1K6/1M1k4/8/8 b 0",
        "--stipulation",
        "h#1",
        "--json",
    ]));
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["count"], 1);
    assert_eq!(doc["solutions"][0][1]["uci"], "b4c3");
    // s#1: the Chameleon offered to the King.
    let (code, out, err) = run(baroque().args([
        "solve",
        "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0",
        "--stipulation",
        "s#1",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("keys Bd3-e2 (s#1)\n"), "{out}");
    assert!(out.contains("sound true\n"), "{out}");
    // Its tree: the key, then Black's one move, which mates.
    assert!(out.contains("\nBd3-e2\n  ... Ke1xe2 mate\n"), "{out}");
    // =1 (stalemate): the Immobilizer freezes the lone King, in both games; h=1: Black's King
    // steps, then White's Immobilizer freezes it.
    let (code, out, err) =
        run(baroque().args(["solve", "7k/8/8/4M3/8/8/8/K7 w 0", "--stipulation", "=1"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("keys Me5-g7 (=1)\n"), "{out}");
    assert!(out.contains("sound true\n"), "{out}");
    assert!(out.contains("\nMe5-g7 stalemate\n"), "{out}");
    let (code, out, err) = run(baroque().args([
        "solve",
        "10/8k1/10/10/5I4/10/10/10/1K8/10 w 0 -",
        "--game",
        "rococo",
        "--stipulation",
        "=1",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("keys If6-h8 (=1)\n"), "{out}");
    let (code, out, err) =
        run(baroque().args(["solve", "7k/8/8/4M3/8/8/8/K7 b 0", "--stipulation", "h=1"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("stipulation h=1\nsolutions 5\n"), "{out}");
    assert!(out.contains("  Kh8-g8 Me5-h8\n"), "{out}");
    // r#1: Black, able to mate after any Bishop move, must: twenty keys where s#1 has one.
    let (code, out, err) = run(baroque().args([
        "solve",
        "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0",
        "--stipulation",
        "r#1",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("keys Bd3-a3 (r#1), Bd3-a6 (r#1), "), "{out}");
    assert!(
        out.contains("\nBd3-c2\n  ... Ke1-e2 mate\n  ... Ke1-f2 mate\n"),
        "{out}"
    );
    // ser-#3: the King walks to c4 while Black passes; ser-h#2 in Rococo: Black's King walks
    // into the Immobilizer's reach, then White mates.
    let (code, out, err) = run(baroque().args([
        "solve",
        "8/8/8/8/8/1k3p2/2M5/5K2 w 0",
        "--stipulation",
        "ser-#3",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("stipulation ser-#3\nsolutions 1\n  Kf1-e2 Ke2-d3 Kd3-c4\nshort_solutions 0\nsound true\n"),
        "{out}"
    );
    let (code, out, err) = run(baroque().args([
        "solve",
        "10/10/10/1p8/10/5I4/3k6/10/7K2/10 b 0 -",
        "--game",
        "rococo",
        "--stipulation",
        "ser-h#2",
        "--json",
    ]));
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["stipulation"], "ser-h#2");
    assert_eq!(doc["solutions"][0][2]["notation"], "Kh2-g3", "{doc}");
    assert_eq!(doc["sound"], true);
    // A #2 with a try refuted by one defence, and the key's threat.
    let (code, out, err) = run(baroque().args(["solve", "N7/5N1k/3r3R/8/7P/1K6/8/6B1 w 0", "2"]));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("tries Bg1-g8? Kh7xh6!\n"), "{out}");
    assert!(out.contains("threat of Bg1-g6: none\n"), "{out}");
    let (code, out, _) = run(baroque().args([
        "solve",
        "N7/5N1k/3r3R/8/7P/1K6/8/6B1 w 0",
        "2",
        "--max-refutations",
        "0",
    ]));
    assert_eq!(code, 0);
    assert!(out.contains("tries none\n"), "{out}");
    let (code, _, err) = run(baroque().args([
        "solve",
        "N7/5N1k/3r3R/8/7P/1K6/8/6B1 w 0",
        "2",
        "--max-refutations",
        "4",
    ]));
    assert_ne!(code, 0);
    assert!(err.contains("--max-refutations"), "{err}");
    // The positional N is `#N`, and may be given with an agreeing `--stipulation`.
    let (code, out, _) = run(baroque().args([
        "solve",
        "8/8/8/4k3/2K2M2/3q4/8/8 w 0",
        "1",
        "--stipulation",
        "#1",
    ]));
    assert_eq!(code, 0);
    assert!(out.contains("keys Kc4-d5 (#1)"), "{out}");
    // Refusals.
    for (args, says) in [
        (
            vec!["8/8/8/8/1K6/1M1k4/8/8 w 0", "--stipulation", "h#1"],
            "starts with black to move",
        ),
        (
            vec!["8/8/8/8/1K6/1M1k4/8/8 b 0", "--stipulation", "s#1"],
            "starts with white to move",
        ),
        (
            vec!["8/8/8/8/1K6/1M1k4/8/8 b 0", "--stipulation", "x#2"],
            "write #N, s#N, h#N, h#N.5, =N, s=N, h=N, h=N.5, r#N, semi-r#N, ser-#N, ser-h#N, \
             ser-s#N or ser-=N",
        ),
        (
            vec!["8/8/8/8/1K6/1M1k4/8/8 b 0", "2", "--stipulation", "h#1"],
            "disagree",
        ),
        (vec!["8/8/8/8/1K6/1M1k4/8/8 b 0"], "give N"),
        (
            vec![
                "8/8/8/8/8/1k3p2/2M5/5K2 w 0",
                "--stipulation",
                "ser-#3",
                "--set-play",
            ],
            "--set-play does not apply to ser-#3",
        ),
        (
            vec![
                "7k/8/8/4M3/8/8/8/K7 w 0",
                "--stipulation",
                "=1",
                "--twin",
                "move e5 f6",
                "--twin",
                "shift a1 b2",
            ],
            "twin c) `shift a1 b2`: a piece would leave the board",
        ),
    ] {
        let (code, _, err) = run(baroque().arg("solve").args(&args));
        assert_ne!(code, 0, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_database_url_password_is_never_shown() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let refused = format!("postgres://app:hunter2@127.0.0.1:{closed}/puzzles");
    for (args, expected) in [
        (
            vec![
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                "mysql://app:hunter2@h/d",
            ],
            "the scheme `mysql` is not postgres",
        ),
        (
            vec![
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--db",
                "postgres://app:hunter2@h:x/d",
            ],
            "not a usable PostgreSQL URL",
        ),
        (
            vec![
                "serve",
                "--addr",
                "127.0.0.1:0",
                "--no-seed",
                "--db",
                &refused,
            ],
            "cannot reach the server",
        ),
        (
            vec!["export", "--collection", "c", "--db", &refused],
            "cannot reach the server",
        ),
    ] {
        let (code, out, err) = run(baroque().args(&args).env_remove("BAROQUE_DB"));
        assert_ne!(code, 0, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(err.contains("app:***@"), "{args:?}: {err}");
        assert!(
            !err.contains("hunter2") && !out.contains("hunter2"),
            "{err}"
        );
    }
}

/// `solve --text` prints the solution in problem notation (the layout of docs/src/api/solving.md): the key with
/// `!` and its threat, the defences and replies, tries with `?` and refutations with `!`, set
/// play first, twins under their labels, figurines with `--notation figurine`; `--notation`
/// needs `--text`, and `--text` and `--json` exclude each other.
#[test]
fn solve_prints_the_solution_in_problem_notation() {
    let tries = "6K1/2N5/8/6k1/8/5B2/8/8 w 0";
    let (code, out, err) = run(baroque().args(["solve", tries, "2", "--text", "--threads", "1"]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "#2\n1.Bf3-f4+?\n  1...Kg5-g6!\n1.Bf3-f5+?\n  1...Kg5xf5!\n1.Nc7-h7! (2.Bf3-f5#)\n  \
         1...Kg5-f6\n    2.Bf3-f5#\n"
    );
    let (code, out, err) = run(baroque().args([
        "solve",
        tries,
        "2",
        "--text",
        "--notation",
        "figurine",
        "--set-play",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("#2\nset play: none\n"), "{out}");
    assert!(out.contains("1.\u{2658}c7-h7! (2.\u{2657}f3-f5#)"), "{out}");
    let (code, out, err) = run(baroque().args([
        "solve",
        "7k/8/8/4M3/8/8/8/K7 w 0",
        "--stipulation",
        "=1",
        "--twin",
        "move e5 f6",
        "--twin",
        "stipulation h=1",
        "--text",
    ]));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "a) diagram",
            "=1",
            "1.Me5-g7=!",
            "b) wMe5-->f6",
            "=1",
            "1.Mf6-g7=!",
            "c) stipulation h=1"
        ]
    );
    assert_eq!(lines[7], "h=1");
    assert_eq!(lines.len(), 8 + 5, "{out}");
    assert!(
        lines[8..]
            .iter()
            .all(|l| l.starts_with("1.K") && l.ends_with('=')),
        "{out}"
    );
    // Rococo in the page's coordinates; lists cut to --max-solutions, and said so.
    let (code, out, err) = run(baroque().args([
        "solve",
        "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0",
        "1",
        "--game",
        "rococo",
        "--coords",
        "page",
        "--text",
    ]));
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "#1\n1.Ld3xd8#!\n");
    let (code, out, err) = run(baroque().args([
        "solve",
        "8/8/8/8/1K6/1M1k4/8/8 b 0",
        "--stipulation",
        "h#2",
        "--text",
        "--max-solutions",
        "1",
    ]));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert_eq!(lines[2], "short solutions:");
    assert_eq!(lines[4], "(70 solutions, 1 shown)");
    // `--max-solutions` cuts the lists of `--json` too, as `max_solutions` does in /v1/solve.
    let (code, out, err) = run(baroque().args([
        "solve",
        "8/8/8/8/1K6/1M1k4/8/8 b 0",
        "--stipulation",
        "h#2",
        "--json",
        "--max-solutions",
        "1",
    ]));
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON document");
    assert_eq!(
        s["short_solutions"].as_array().map(Vec::len),
        Some(1),
        "{out}"
    );
    assert_eq!(s["solutions_truncated"], true, "{out}");
    for (args, says) in [
        (vec!["--notation", "figurine"], "--text"),
        (vec!["--text", "--json"], "cannot be used with"),
        (vec!["--coords", "page"], "--game rococo"),
    ] {
        let (code, _, err) = run(baroque().args(["solve", tries, "2"]).args(&args));
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
