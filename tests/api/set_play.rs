//! Set play over HTTP (`"set_play": true`): Black's moves with their set replies, before the
//! key; a helpmate's shortened lines; none for a series mover (422); absent unless asked.

use crate::helpers::{spawn_app, TestApp};
use serde_json::{json, Value};

/// `=2` (cooked: `Me5-g7` stalemates at once): the Immobilizer freezes the lone King next to it.
/// Its set play: whatever Black plays, an Immobilizer move next to its King stalemates it.
const STALEMATE: &str = "7k/8/8/4M3/8/8/8/K7 w 0";

fn solve(app: &TestApp, body: Value) -> Value {
    let r = app.post_json("/v1/solve", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

#[test]
fn set_play_lists_each_black_move_with_its_replies() {
    let app = spawn_app();
    let s = solve(
        &app,
        json!({"fen": STALEMATE, "stipulation": "=2", "set_play": true}),
    );
    // The solve is unchanged: its short solution.
    assert_eq!(s["short_solutions"][0]["notation"], "Me5-g7");
    assert_eq!(s["sound"], false);
    let set = &s["set_play"];
    assert_eq!(set["fen"], "7k/8/8/4M3/8/8/8/K7 b 1");
    assert_eq!(set["stipulation"], "=2");
    assert_eq!(set["complete"], true);
    let defences: Vec<(String, Vec<String>)> = set["defences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let replies = d["replies"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    assert_eq!(r["mate_in"], 1);
                    r["notation"].as_str().unwrap().to_string()
                })
                .collect();
            (d["notation"].as_str().unwrap().to_string(), replies)
        })
        .collect();
    let want = |b: &str, r: &[&str]| (b.to_string(), r.iter().map(|x| x.to_string()).collect());
    assert_eq!(
        defences,
        [
            want("Kh8-g7", &["Me5-f6"]),
            want("Kh8-g8", &["Me5-g7", "Me5-h8"]),
            want("Kh8-h7", &["Me5-g7", "Me5-h8"]),
        ]
    );
    // `=1` has none: Black's move and no White move left.
    let s = solve(
        &app,
        json!({"fen": STALEMATE, "stipulation": "=1", "set_play": true}),
    );
    assert_eq!(s["set_play"]["defences"], json!([]));
    // Not asked for: absent.
    let s = solve(&app, json!({"fen": STALEMATE, "stipulation": "=1"}));
    assert!(s.get("set_play").is_none(), "{s}");
}

#[test]
fn a_helpmates_set_play_is_the_shortened_helpmate_and_a_series_has_none() {
    let app = spawn_app();
    // h#2 with Black to move: its set play is h#1.5 with White to move. Among its lines,
    // Kb4-a3 Kd3-c2 Ka3-b2: the Black King steps next to the Immobilizer, frozen, and the White
    // King comes next to it.
    let fen = "8/8/8/8/1K6/1M1k4/8/8 b 0";
    let s = solve(
        &app,
        json!({"fen": fen, "stipulation": "h#2", "set_play": true}),
    );
    let set = &s["set_play"];
    assert_eq!(set["stipulation"], "h#1.5");
    assert_eq!(set["fen"], "8/8/8/8/1K6/1M1k4/8/8 w 1");
    assert_eq!(set["count"], 25);
    let lines: Vec<Vec<&str>> = set["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l.as_array()
                .unwrap()
                .iter()
                .map(|m| m["notation"].as_str().unwrap())
                .collect()
        })
        .collect();
    assert!(
        lines.contains(&vec!["Kb4-a3", "Kd3-c2", "Ka3-b2"]),
        "{lines:?}"
    );
    assert_eq!(set["defences"], json!([]));
    // Rococo too.
    let s = solve(
        &app,
        json!({"fen": "10/8k1/10/10/5I4/10/10/10/1K8/10 w 0 -", "game": "rococo",
               "stipulation": "=2", "set_play": true}),
    );
    assert_eq!(s["set_play"]["stipulation"], "=2");
    assert!(
        !s["set_play"]["defences"].as_array().unwrap().is_empty(),
        "{s}"
    );
    let p = app
        .post_json(
            "/v1/solve",
            &json!({"fen": "8/8/8/8/8/1k3p2/2M5/5K2 w 0", "stipulation": "ser-#3", "set_play": true}),
        )
        .problem(422, "/problems/invalid-stipulation");
    assert!(p["detail"].as_str().unwrap().contains("set_play"), "{p}");
}

/// Rococo's set play lists, by the rules, each Black move that leaves its King to be taken,
/// answered by taking it (the JSON keeps them); the text leaves those out and counts them in a
/// note, as a problemist would not print them.
#[test]
fn rococo_set_play_text_leaves_out_the_king_taking_answers() {
    let app = spawn_app();
    let body = json!({"fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "game": "rococo",
                      "mate_in": 2, "set_play": true});
    let s = solve(&app, body.clone());
    let defences = s["set_play"]["defences"].as_array().unwrap();
    let takes_king = |d: &Value| {
        d["replies"].as_array().unwrap().iter().any(|r| {
            r["captures"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["piece"] == "k")
        })
    };
    let taken = defences.iter().filter(|d| takes_king(d)).count();
    assert!(taken > 0, "{}", s["set_play"]);
    let mut body = body;
    body["format"] = json!("text");
    let r = app.post_json("/v1/solve", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    let text = r.body;
    for d in defences.iter().filter(|d| takes_king(d)) {
        let name = d["notation"].as_str().unwrap();
        assert!(!text.contains(&format!("1...{name}\n")), "{name}:\n{text}");
    }
    for d in defences.iter().filter(|d| !takes_king(d)) {
        let name = d["notation"].as_str().unwrap();
        assert!(text.contains(&format!("1...{name}")), "{name}:\n{text}");
    }
    let moves = if taken == 1 { "move" } else { "moves" };
    assert!(
        text.contains(&format!(
            "({taken} Black {moves} leaving the King to be taken, each answered by taking it, left out of the set play)"
        )),
        "{text}"
    );
}
