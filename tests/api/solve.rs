//! `POST /v1/solve` over HTTP: the seed diagrams' mates, budgets, clamping, the search slots and
//! bad input.

use crate::helpers::{spawn_app, spawn_app_with};
use baroque::api::Settings;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const KING: &str = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
const CHAMELEON: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";
const START: &str = "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0";

fn notations(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect()
}

#[test]
fn the_king_diagram_is_a_sound_mate_in_1() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": KING, "mate_in": 1, "rules": "abbott", "limits": {"nodes": 1_000_000, "millis": 5000}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.content_type, "application/json");
    let s = r.json();
    assert_eq!(s["result"], "mate");
    assert_eq!(s["mate_in"], 1);
    assert_eq!(s["sound"], true);
    assert_eq!(notations(&s["keys"]), ["Kc4-d5"]);
    assert_eq!(
        s["keys"][0],
        json!({"notation": "Kc4-d5", "uci": "c4d5", "mate_in": 1, "captures": []})
    );
    assert_eq!(s["cooks"], json!([]));
    assert_eq!(s["short_solutions"], json!([]));
    assert_eq!(s["tree"][0]["mates"], true);
    assert_eq!(s["tree_truncated"], false);
    assert_eq!(s["budget_exhausted"], false);
    assert_eq!(s["proven_no_mate_within"], 1);
    assert!(s["nodes"].as_u64().unwrap() > 0);
    assert!(s["millis"].is_u64());
    assert_eq!(s["clamped"], json!([]));
    assert_eq!(s["intended_key"], Value::Null);
}

#[test]
fn the_king_diagram_as_a_mate_in_2_is_not_sound_with_a_short_solution() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": KING, "mate_in": 2, "key": "Kc4-c5"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    assert_eq!(s["result"], "mate");
    assert_eq!(s["mate_in"], 1);
    assert_eq!(s["sound"], false);
    assert_eq!(notations(&s["short_solutions"]), ["Kc4-d5"]);
    assert_eq!(s["short_solutions"][0]["mate_in"], 1);
    assert!(notations(&s["keys"]).contains(&"Kc4-d5"));
    assert_eq!(s["intended_key"]["notation"], "Kc4-c5");
    assert_eq!(s["intended_key"]["mate_in"], 2);
}

#[test]
fn the_chameleon_diagram_has_the_single_key_bg6xc6_capturing_seven() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": CHAMELEON, "mate_in": 2, "rules": "abbott", "key": "Xg6-e6-c6",
                "limits": {"nodes": 5_000_000, "millis": 10_000}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    assert_eq!(s["result"], "mate");
    assert_eq!(s["sound"], true);
    assert_eq!(notations(&s["keys"]), ["Bg6xc6"]);
    let key = &s["keys"][0];
    assert_eq!(key["uci"], "g6c6");
    assert_eq!(key["mate_in"], 2);
    assert_eq!(key["captures"].as_array().unwrap().len(), 7);
    assert_eq!(s["cooks"], json!([]));
    assert_eq!(s["short_solutions"], json!([]));
    assert_eq!(s["intended_key"]["notation"], "Bg6xc6");
    assert_eq!(s["intended_key"]["mate_in"], 2);
    let defence = &s["tree"][0]["defences"][0];
    assert_eq!(defence["notation"], "Kb7xc8");
    assert_eq!(defence["dual"], true);
    assert_eq!(
        notations(&defence["replies"]).len(),
        2,
        "{}",
        defence["replies"]
    );
}

#[test]
fn a_tiny_budget_answers_unknown_within_the_time_limit_and_a_margin() {
    let app = spawn_app();
    let start = Instant::now();
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": START, "mate_in": 5, "limits": {"millis": 100}}),
    );
    let took = start.elapsed();
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    assert_eq!(s["result"], "unknown");
    assert_eq!(s["sound"], Value::Null);
    assert_eq!(s["budget_exhausted"], true);
    assert_eq!(s["limits"]["millis"], 100);
    assert!(s["proven_no_mate_within"].as_u64().unwrap() < 5);
    assert!(took < Duration::from_millis(100 + 1500), "took {took:?}");
}

#[test]
fn requests_above_the_maxima_are_clamped_and_say_so() {
    let app = spawn_app_with(Settings {
        solve_max_nodes: 10_000,
        solve_max_millis: 2_000,
        solve_max_tree_nodes: 5,
        ..Settings::for_tests()
    });
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": KING, "mate_in": 2, "limits": {"nodes": 1_000_000_000, "millis": 60_000},
                "max_tree_nodes": 1_000_000}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    assert_eq!(
        s["limits"],
        json!({"nodes": 10_000, "millis": 2_000, "max_tree_nodes": 5})
    );
    assert_eq!(
        s["clamped"],
        json!(["limits.nodes", "limits.millis", "max_tree_nodes"])
    );
    assert_eq!(s["tree_truncated"], true);
    assert_eq!(s["sound"], false);
}

#[test]
fn a_full_server_answers_503_with_retry_after_and_other_requests_keep_flowing() {
    let app = std::sync::Arc::new(spawn_app_with(Settings {
        solve_concurrency: 1,
        solve_max_millis: 1_500,
        ..Settings::for_tests()
    }));
    let long = {
        let app = app.clone();
        std::thread::spawn(move || {
            // The probes below take the slot for a moment too: retry until the long search has it.
            let deadline = Instant::now() + Duration::from_secs(10);
            loop {
                let r = app.post_json(
                    "/v1/solve",
                    &json!({"fen": START, "mate_in": 6, "limits": {"millis": 1_500}}),
                );
                if r.status != 503 || Instant::now() > deadline {
                    break r;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    // Wait until the long search holds the slot.
    let deadline = Instant::now() + Duration::from_secs(5);
    let busy = loop {
        std::thread::sleep(Duration::from_millis(50));
        let r = app.post_json("/v1/solve", &json!({"fen": KING, "mate_in": 1}));
        if r.status == 503 || Instant::now() > deadline {
            break r;
        }
    };
    let p = busy.problem(503, "/problems/solver-busy");
    assert_eq!(p["limit"], 1);
    assert_eq!(busy.header("retry-after"), Some("2"));
    let t = Instant::now();
    let health = app.get("/health");
    assert_eq!(health.status, 200);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    let r = long.join().unwrap();
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["result"], "unknown");
    // The slot is free again.
    let r = app.post_json("/v1/solve", &json!({"fen": KING, "mate_in": 1}));
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn bad_input_is_a_problem() {
    let app = spawn_app();
    let cases = [
        (
            json!({"fen": KING, "mate_in": 0}),
            422,
            "/problems/invalid-mate-in",
        ),
        (
            json!({"fen": KING, "mate_in": 9}),
            422,
            "/problems/invalid-mate-in",
        ),
        (
            json!({"fen": KING, "mate_in": 13}),
            422,
            "/problems/invalid-mate-in",
        ),
        (
            json!({"fen": KING, "mate_in": -1}),
            400,
            "/problems/invalid-request",
        ),
        (
            json!({"fen": KING, "mate_in": "2"}),
            400,
            "/problems/invalid-request",
        ),
        (
            json!({"fen": KING, "mate_in": 1.5}),
            400,
            "/problems/invalid-request",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "limits": {"nodes": 1e3, "millis": 2.25}}),
            400,
            "/problems/invalid-request",
        ),
        (json!({"fen": KING}), 400, "/problems/invalid-request"),
        (
            json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/9 w 0", "mate_in": 1}),
            422,
            "/problems/invalid-fen",
        ),
        (
            json!({"fen": "k7/1Q6/8/8/8/8/8/KK6 w 0", "mate_in": 1}),
            422,
            "/problems/impossible-position",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "limits": {"nodes": 0}}),
            422,
            "/problems/invalid-limits",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "limits": {"millis": 0}}),
            422,
            "/problems/invalid-limits",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "max_tree_nodes": 0}),
            422,
            "/problems/invalid-limits",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "limits": {"millis": -5}}),
            400,
            "/problems/invalid-request",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "limits": {"seconds": 5}}),
            400,
            "/problems/invalid-request",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "limits": 100}),
            400,
            "/problems/invalid-request",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "key": "Kc4-d4"}),
            422,
            "/problems/invalid-key",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "key": "zz"}),
            422,
            "/problems/invalid-key",
        ),
        (
            json!({"fen": KING, "mate_in": 1, "depth": 3}),
            400,
            "/problems/invalid-request",
        ),
    ];
    for (body, status, problem_type) in cases {
        let r = app.post_json("/v1/solve", &body);
        let p = r.problem(status, problem_type);
        if problem_type == "/problems/invalid-mate-in" {
            assert_eq!(p["limit"], 8, "{body}");
        }
    }
    let r = app.post_raw("/v1/solve", Some("text/plain"), b"{}");
    r.problem(415, "/problems/unsupported-media-type");
    let r = app.post_raw("/v1/solve", Some("application/json"), b"{\"fen\": ");
    r.problem(400, "/problems/malformed-json");
    let r = app.get("/v1/solve");
    r.problem(405, "/problems/method-not-allowed");
}

/// JSON has one number type: `1.0` is the integer 1 to a JSON Schema, so the schema's integers
/// accept it (schemathesis sent `"count": 379.0` and was refused with a 400).
#[test]
fn whole_numbers_written_with_a_fraction_are_integers() {
    let app = spawn_app();
    let plain = app.post_json(
        "/v1/solve",
        &json!({"fen": KING, "mate_in": 1, "limits": {"nodes": 100_000, "millis": 5000}, "max_tree_nodes": 50}),
    );
    let floats = app.post_json(
        "/v1/solve",
        &json!({"fen": KING, "mate_in": 1.0, "limits": {"nodes": 1e5, "millis": 5000.0}, "max_tree_nodes": 50.0}),
    );
    assert_eq!(plain.status, 200, "{}", plain.body);
    assert_eq!(floats.status, 200, "{}", floats.body);
    let (a, b) = (plain.json(), floats.json());
    assert_eq!(b["mate_in"], 1);
    assert_eq!(notations(&b["keys"]), ["Kc4-d5"]);
    assert_eq!(a["tree"], b["tree"]);
    assert_eq!(a["limits"], b["limits"]);
}

/// `"stipulation"`: a helpmate's every line, a selfmate's key, and the refusals of the contract.
#[test]
fn stipulations_beyond_the_direct_mate() {
    let app = crate::helpers::spawn_app();
    let r = app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#1"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.json();
    assert_eq!(a["stipulation"], "h#1");
    assert_eq!(a["result"], "mate");
    assert_eq!(a["count"], 1);
    assert_eq!(a["sound"], true);
    assert_eq!(a["solutions"][0][0]["notation"], "Kd3-c2");
    assert_eq!(a["solutions"][0][1]["notation"], "Kb4-c3");
    assert_eq!(a["solutions"][0][1]["uci"], "b4c3");
    assert_eq!(a["short_solutions"], serde_json::json!([]));
    // h#2 of the same position: 70 lines, and h#1's line is a shorter solution.
    let a = app
        .post_json(
            "/v1/solve",
            &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#2"}),
        )
        .json();
    assert_eq!(a["count"], 70, "{a}");
    assert_eq!(a["short_solutions"].as_array().unwrap().len(), 1);
    assert_eq!(a["sound"], false);
    // A selfmate.
    let a = app
        .post_json(
            "/v1/solve",
            &serde_json::json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "s#1"}),
        )
        .json();
    assert_eq!(a["stipulation"], "s#1");
    assert_eq!(a["keys"][0]["notation"], "Bd3-e2", "{a}");
    assert_eq!(a["sound"], true);
    // Its tree: Black's one move, which mates White.
    let defences = &a["tree"][0]["defences"];
    assert_eq!(defences.as_array().unwrap().len(), 1, "{a}");
    assert_eq!(defences[0]["notation"], "Ke1xe2");
    assert_eq!(defences[0]["mates"], true);
    assert_eq!(a["threats"][0]["key"]["notation"], "Bd3-e2");
    // Tries and threats of a direct mate.
    let fen = "N7/5N1k/3r3R/8/7P/1K6/8/6B1 w 0";
    let a = app
        .post_json("/v1/solve", &serde_json::json!({"fen": fen, "mate_in": 2}))
        .json();
    assert_eq!(a["tries"].as_array().unwrap().len(), 1, "{a}");
    assert_eq!(a["tries"][0]["notation"], "Bg1-g8");
    assert_eq!(a["tries"][0]["refutations"][0]["notation"], "Kh7xh6");
    assert_eq!(a["tries_truncated"], false);
    assert_eq!(a["threats"][0]["key"]["notation"], "Bg1-g6");
    assert_eq!(a["threats"][0]["moves"], serde_json::json!([]));
    let a = app
        .post_json(
            "/v1/solve",
            &serde_json::json!({"fen": fen, "mate_in": 2, "max_refutations": 3}),
        )
        .json();
    assert!(a["tries"].as_array().unwrap().len() > 1, "{a}");
    let a = app
        .post_json(
            "/v1/solve",
            &serde_json::json!({"fen": fen, "mate_in": 2, "max_refutations": 0}),
        )
        .json();
    assert_eq!(a["tries"], serde_json::json!([]));
    app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": fen, "mate_in": 2, "max_refutations": 4}),
    )
    .problem(422, "/problems/invalid-limits");
    // `mate_in` is `#N`; with an agreeing stipulation it is the same question.
    let a = app
        .post_json(
            "/v1/solve",
            &serde_json::json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1, "stipulation": "#1"}),
        )
        .json();
    assert_eq!(a["stipulation"], "#1");
    assert_eq!(a["keys"][0]["notation"], "Kc4-d5");
    // Refusals.
    app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 w 0", "stipulation": "h#1"}),
    )
    .problem(422, "/problems/stipulation-side");
    app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "s#1"}),
    )
    .problem(422, "/problems/stipulation-side");
    app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "q#1"}),
    )
    .problem(422, "/problems/invalid-stipulation");
    app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "mate_in": 2, "stipulation": "h#1"}),
    )
    .problem(422, "/problems/invalid-stipulation");
    app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#99"}),
    )
    .problem(422, "/problems/invalid-mate-in");
    app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0"}),
    )
    .problem(400, "/problems/invalid-request");
}

/// A helpmate with thousands of solutions answers the first 100 lines by default (or
/// `max_solutions`), with `count` saying how many there are: a small request cannot ask for
/// megabytes.
#[test]
fn a_helpmates_lines_are_capped_and_counted() {
    let app = crate::helpers::spawn_app();
    let body = serde_json::json!({"fen": "8/6P1/8/8/2K5/4k3/8/6M1 w 0", "stipulation": "h#2.5"});
    let r = app.post_json("/v1/solve", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    let count = s["count"].as_u64().unwrap();
    assert!(count > 1_000, "{count}");
    assert_eq!(s["solutions"].as_array().unwrap().len(), 100);
    assert_eq!(s["solutions_truncated"], true);
    assert!(r.body.len() < 200_000, "{} bytes", r.body.len());
    let mut five = body.clone();
    five["max_solutions"] = 5.into();
    let s = app.post_json("/v1/solve", &five).json();
    assert_eq!(s["solutions"].as_array().unwrap().len(), 5);
    assert_eq!(s["count"].as_u64(), Some(count));
    for bad in [0, 10_001] {
        let mut b = body.clone();
        b["max_solutions"] = bad.into();
        app.post_json("/v1/solve", &b)
            .problem(422, "/problems/invalid-limits");
    }
}

/// A JSON answer without its timings (`millis`, at any depth).
fn untimed(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("millis");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// `baroque solve --json` prints what `POST /v1/solve` answers for the same request, timings
/// aside: a direct mate with its tree, tries and set play, a helpmate's lines, twins, a selfmate,
/// and Rococo in the page's coordinates.
#[test]
fn the_command_line_prints_the_answer_of_the_api() {
    let app = spawn_app_with(Settings {
        solve_threads: Some(1),
        solve_table_mib: 8,
        solve_max_nodes: 5_000_000,
        solve_max_millis: 20_000,
        solve_max_tree_nodes: 2000,
        ..Settings::default()
    });
    let same_budget = [
        "--threads",
        "1",
        "--tt-mib",
        "8",
        "--nodes",
        "5000000",
        "--millis",
        "20000",
        "--max-tree",
        "2000",
    ];
    let cases: Vec<(Value, Vec<&str>)> = vec![
        (
            json!({"fen": CHAMELEON, "mate_in": 2, "set_play": true}),
            vec![CHAMELEON, "2", "--set-play"],
        ),
        (
            json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#2"}),
            vec!["8/8/8/8/1K6/1M1k4/8/8 b 0", "--stipulation", "h#2"],
        ),
        (
            json!({"fen": "7k/8/8/4M3/8/8/8/K7 w 0", "stipulation": "=1",
                   "twins": ["move e5 f6", "stipulation h=1"]}),
            vec![
                "7k/8/8/4M3/8/8/8/K7 w 0",
                "--stipulation",
                "=1",
                "--twin",
                "move e5 f6",
                "--twin",
                "stipulation h=1",
            ],
        ),
        (
            json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "s#1"}),
            vec!["8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "--stipulation", "s#1"],
        ),
        (
            json!({"fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "mate_in": 1,
                   "game": "rococo", "coords": "page"}),
            vec![
                "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0",
                "1",
                "--game",
                "rococo",
                "--coords",
                "page",
            ],
        ),
    ];
    for (request, args) in cases {
        let r = app.post_json("/v1/solve", &request);
        assert_eq!(r.status, 200, "{}", r.body);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_baroque"))
            .arg("solve")
            .args(&args)
            .args(same_budget)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
        assert_eq!(untimed(printed), untimed(r.json()), "{request}");
    }
}
