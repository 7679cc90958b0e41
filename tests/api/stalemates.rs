//! The stalemate stipulations over HTTP, in both games: `=N` solved by `/v1/solve` and judged by
//! `/v1/play`, a helpstalemate's lines, puzzles of them verified, stored and listed by
//! stipulation, an unknown stipulation's problem listing the known forms, and a reflexmate.

use crate::helpers::{spawn_app, spawn_app_with, TestApp};
use baroque::api::Settings;
use serde_json::{json, Value};

/// A lone Black King stalemated once the White Immobilizer stands next to it: `Me5-g7`.
const BAROQUE: &str = "7k/8/8/4M3/8/8/8/K7 w 0";
/// The same in Rococo: `If6-h8` freezes the King on i9.
const ROCOCO: &str = "10/8k1/10/10/5I4/10/10/10/1K8/10 w 0 -";
const TOKEN: &str = "stalemate-token";

fn notations(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect()
}

fn solve(app: &TestApp, body: Value) -> Value {
    let r = app.post_json("/v1/solve", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

#[test]
fn a_direct_stalemate_is_solved_in_both_games() {
    let app = spawn_app();
    for (body, key) in [
        (json!({"fen": BAROQUE, "stipulation": "=1"}), "Me5-g7"),
        (
            json!({"fen": ROCOCO, "game": "rococo", "stipulation": "=1"}),
            "If6-h8",
        ),
    ] {
        let s = solve(&app, body);
        assert_eq!(s["stipulation"], "=1");
        // `mate`: the stipulation's goal, here a stalemate, is forced.
        assert_eq!(s["result"], "mate");
        assert_eq!(s["sound"], true);
        assert_eq!(notations(&s["keys"]), [key]);
        assert_eq!(s["tree"][0]["mates"], true, "{s}");
        assert_eq!(s["cooks"], json!([]));
    }
    // Two moves: every move that keeps the Immobilizer's reach wins, so it is cooked; the
    // stalemate in one is its short solution.
    let s = solve(&app, json!({"fen": BAROQUE, "stipulation": "=2"}));
    assert_eq!(s["sound"], false);
    assert_eq!(notations(&s["short_solutions"]), ["Me5-g7"]);
}

#[test]
fn a_helpstalemate_lists_every_line() {
    let app = spawn_app();
    let fen = "7k/8/8/4M3/8/8/8/K7 b 0";
    let s = solve(&app, json!({"fen": fen, "stipulation": "h=1"}));
    assert_eq!(s["stipulation"], "h=1");
    assert_eq!(s["count"], 5);
    assert_eq!(s["sound"], false);
    let lines: Vec<Vec<&str>> = s["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(notations)
        .collect();
    assert!(lines.contains(&vec!["Kh8-g8", "Me5-h8"]), "{lines:?}");
    // The side to move must be the one the stipulation starts with.
    app.post_json("/v1/solve", &json!({"fen": BAROQUE, "stipulation": "h=1"}))
        .problem(422, "/problems/stipulation-side");
}

#[test]
fn play_judges_a_stalemate_line() {
    let app = spawn_app();
    let play = |moves: &[&str]| {
        let r = app.post_json(
            "/v1/play",
            &json!({"fen": BAROQUE, "stipulation": "=1", "moves": moves}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    assert_eq!(play(&["Me5-g7"])["verdict"], "solved");
    assert_eq!(play(&["Me5-e6"])["verdict"], "wrong");
    let start = play(&[]);
    assert_eq!(notations(&start["accepted"]), ["Me5-g7"]);
}

#[test]
fn stalemate_puzzles_are_verified_stored_and_listed() {
    let app = spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    });
    let auth = format!("Bearer {TOKEN}");
    let post = |body: Value| {
        app.send(
            "POST",
            "/v1/puzzles",
            &[("authorization", auth.as_str())],
            Some(&body),
        )
    };
    let r = post(json!({"kind": "mate", "fen": BAROQUE, "stipulation": "=1", "keys": ["Me5-g7"]}));
    assert_eq!(r.status, 201, "{}", r.body);
    let baroque = r.json();
    assert_eq!(baroque["stipulation"], "=1");
    assert_eq!(baroque["mate_in"], 1);
    assert_eq!(baroque["outcome"]["sound"], true);
    let r = post(json!({"kind": "mate", "fen": ROCOCO, "game": "rococo", "stipulation": "=1"}));
    assert_eq!(r.status, 201, "{}", r.body);
    let rococo = r.json();
    // A wrong key claimed is refused.
    let p = post(json!({"kind": "mate", "fen": BAROQUE, "stipulation": "=1", "keys": ["Ka1-b1"]}))
        .problem(422, "/problems/puzzle-not-verified");
    assert!(p["reasons"][0].as_str().unwrap().contains("Me5-g7"), "{p}");
    // Listed by stipulation (`=` URL-encoded as %3D); a `#1` is another stipulation.
    let r = app.get("/v1/puzzles?stipulation=%3D1&limit=200");
    assert_eq!(r.status, 200, "{}", r.body);
    let ids: Vec<Value> = r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].clone())
        .collect();
    assert_eq!(ids, [baroque["id"].clone(), rococo["id"].clone()]);
}

#[test]
fn an_unknown_stipulation_lists_the_known_forms() {
    let app = spawn_app();
    let p = app
        .post_json(
            "/v1/solve",
            &json!({"fen": BAROQUE, "stipulation": "ser-r#2"}),
        )
        .problem(422, "/problems/invalid-stipulation");
    assert!(
        p["detail"].as_str().unwrap().contains(
            "#N, s#N, h#N, h#N.5, =N, s=N, h=N, h=N.5, r#N, semi-r#N, ser-#N, ser-h#N, \
                 ser-s#N or ser-=N"
        ),
        "{p}"
    );
    // N above the server's maximum is the same problem as for a mate.
    app.post_json("/v1/solve", &json!({"fen": BAROQUE, "stipulation": "=99"}))
        .problem(422, "/problems/invalid-mate-in");
}

/// The selfmate of docs/src/api/solving.md as a reflexmate: Black, able to mate in one after any Bishop move,
/// must, so every one of them is a key (`s#1` has one); `semi-r#1` the same.
#[test]
fn a_reflexmate_binds_black_to_mate() {
    let app = spawn_app();
    let fen = "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0";
    let s = solve(&app, json!({"fen": fen, "stipulation": "s#1"}));
    assert_eq!(notations(&s["keys"]), ["Bd3-e2"]);
    for stipulation in ["r#1", "semi-r#1"] {
        let s = solve(&app, json!({"fen": fen, "stipulation": stipulation}));
        assert_eq!(s["stipulation"], stipulation);
        assert_eq!(s["keys"].as_array().unwrap().len(), 20, "{s}");
        assert_eq!(s["sound"], false);
        // After Bd3-c2 Black's mating moves are its only moves: both mate.
        let tree = s["tree"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["notation"] == "Bd3-c2")
            .unwrap();
        let defences: Vec<(&str, bool)> = tree["defences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["notation"].as_str().unwrap(),
                    d["mates"].as_bool().unwrap(),
                )
            })
            .collect();
        assert_eq!(defences, [("Ke1-e2", true), ("Ke1-f2", true)], "{tree}");
    }
}
