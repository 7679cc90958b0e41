//! Twins over HTTP (`"twins": [...]`): each derived position solved and answered in order with its
//! label, FEN and stipulation after the diagram's answer; `continued`; a stipulation twin; a twin
//! that cannot be made refused as 422 `invalid-twin` naming it; both games.

use crate::helpers::{spawn_app, TestApp};
use serde_json::{json, Value};

/// `=1`: the Immobilizer freezes the lone King next to it (`Me5-g7`).
const STALEMATE: &str = "7k/8/8/4M3/8/8/8/K7 w 0";

fn solve(app: &TestApp, body: Value) -> Value {
    let r = app.post_json("/v1/solve", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

fn keys(v: &Value) -> Vec<&str> {
    v["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["notation"].as_str().unwrap())
        .collect()
}

#[test]
fn twins_are_solved_in_order_after_the_diagram() {
    let app = spawn_app();
    let s = solve(
        &app,
        json!({"fen": STALEMATE, "stipulation": "=1",
               "twins": ["move e5 f6", "continued mirror a1<->h1", "stipulation h=1"]}),
    );
    // a): the diagram, as without twins.
    assert_eq!(keys(&s), ["Me5-g7"]);
    let twins = s["twins"].as_array().unwrap();
    assert_eq!(twins.len(), 3);
    // b): the Immobilizer on f6 goes to g7.
    assert_eq!(twins[0]["label"], "b)");
    assert_eq!(twins[0]["twin"], "move e5 f6");
    assert_eq!(twins[0]["fen"], "7k/8/5M2/8/8/8/8/K7 w 0");
    assert_eq!(twins[0]["stipulation"], "=1");
    assert_eq!(keys(&twins[0]), ["Mf6-g7"]);
    assert_eq!(twins[0]["sound"], true);
    // c): b) mirrored: the King on a8, the Immobilizer on c6, White's King on h1.
    assert_eq!(twins[1]["label"], "c)");
    assert_eq!(twins[1]["fen"], "k7/8/2M5/8/8/8/8/7K w 0");
    assert_eq!(keys(&twins[1]), ["Mc6-b7"]);
    // d): the diagram as a helpstalemate, Black to move: every line answered.
    assert_eq!(twins[2]["label"], "d)");
    assert_eq!(twins[2]["stipulation"], "h=1");
    assert_eq!(twins[2]["fen"], "7k/8/8/4M3/8/8/8/K7 b 0");
    assert_eq!(twins[2]["count"], 5);
    // No twins asked for: no `twins`.
    let s = solve(&app, json!({"fen": STALEMATE, "stipulation": "=1"}));
    assert!(s.get("twins").is_none(), "{s}");
    // Rococo: a quarter turn of the stalemate (If6-h8 freezes the King on i9).
    let s = solve(
        &app,
        json!({"fen": "10/8k1/10/10/5I4/10/10/10/1K8/10 w 0 -", "game": "rococo",
               "stipulation": "=1", "twins": ["rotate 180"]}),
    );
    assert_eq!(
        s["twins"][0]["fen"],
        "10/8K1/10/10/10/4I5/10/10/1k8/10 w 0 -"
    );
    assert_eq!(keys(&s["twins"][0]), ["Ie5-c3"]);
}

#[test]
fn a_twin_that_cannot_be_made_is_named() {
    let app = spawn_app();
    for (twins, label, says) in [
        (
            json!(["move e5 f6", "shift a1 b2"]),
            "c)",
            "leave the board",
        ),
        (json!(["add wKb1"]), "b)", "King"),
        (json!(["continued polish"]), "b)", "continued"),
        (json!(["fly e5"]), "b)", "not a twin command"),
        (json!(["stipulation #99"]), "b)", "between 1 and"),
    ] {
        let p = app
            .post_json(
                "/v1/solve",
                &json!({"fen": STALEMATE, "stipulation": "=1", "twins": twins}),
            )
            .problem(422, "/problems/invalid-twin");
        assert_eq!(p["twin"], label, "{p}");
        assert!(p["detail"].as_str().unwrap().contains(says), "{p}");
    }
}

/// A twin's own warnings are answered (its position's, not the diagram's), and a twin that is a
/// series mover is answered without set play when the set play is asked for (the diagram's own
/// series mover refuses it instead).
#[test]
fn a_twin_has_its_own_warnings_and_a_series_twin_no_set_play() {
    let app = spawn_app();
    let s = solve(
        &app,
        json!({"fen": STALEMATE, "stipulation": "=1", "set_play": true,
               "twins": ["remove a1", "stipulation ser-=1"]}),
    );
    assert_eq!(s["warnings"], json!([]));
    let twins = s["twins"].as_array().unwrap();
    let codes: Vec<&str> = twins[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["no_king"], "{}", twins[0]);
    assert!(twins[0]["set_play"].is_object(), "{}", twins[0]);
    assert_eq!(twins[1]["stipulation"], "ser-=1");
    assert!(twins[1].get("set_play").is_none(), "{}", twins[1]);
    assert_eq!(keys_of_lines(&twins[1]), ["Me5-g7"]);
}

fn keys_of_lines(v: &Value) -> Vec<&str> {
    v["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l[0]["notation"].as_str().unwrap())
        .collect()
}
