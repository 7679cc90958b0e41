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

/// The lines of every list of one answer (the diagram's solutions and short solutions, its set
/// play's, each twin's), in the answer's order.
fn lines_of(v: &Value) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    let mut one = |label: &str, v: &Value| {
        let n = |x: &Value| x.as_array().map_or(0, Vec::len);
        out.push((
            format!("{label} solutions"),
            n(&v["solutions"]),
            v["count"].as_u64().unwrap_or(0) as usize,
        ));
        out.push((
            format!("{label} short"),
            n(&v["short_solutions"]),
            n(&v["short_solutions"]),
        ));
        if let Some(set) = v.get("set_play") {
            out.push((
                format!("{label} set"),
                n(&set["solutions"]),
                set["count"].as_u64().unwrap_or(0) as usize,
            ));
        }
    };
    one("a)", v);
    for t in v["twins"].as_array().into_iter().flatten() {
        one(t["label"].as_str().unwrap(), t);
    }
    out
}

/// Twins and set play do not multiply an answer's size: each list keeps at most `max_solutions`
/// lines, and the whole answer at most 10,000, its lists filled in its order; each cut list says
/// so, and the counts stay whole.
#[test]
fn an_answer_holds_at_most_ten_thousand_lines_whatever_its_twins() {
    let app = spawn_app();
    let body = |max: u32, twins: &[&str]| {
        json!({"fen": "k7/8/8/8/8/8/8/RNBQKBNR b 0", "stipulation": "h#2", "set_play": true,
               "max_solutions": max, "twins": twins})
    };
    let few = ["rotate 90", "continued rotate 90", "mirror a1<->h1"];
    let whole = solve(&app, body(10_000, &few));
    let all = lines_of(&whole);
    let found: usize = all.iter().map(|l| l.1).sum();
    assert!(found > 40 && found < 10_000, "{all:?}");
    // Every list whole: its lines are its count.
    for l in &all {
        if !l.0.ends_with("short") {
            assert_eq!(l.1, l.2, "{l:?}");
        }
    }
    for max in [1usize, 7] {
        let s = solve(&app, body(max as u32, &few));
        let cut = lines_of(&s);
        for (whole, cut) in all.iter().zip(&cut) {
            assert_eq!(cut.0, whole.0);
            assert_eq!(cut.1, whole.1.min(max), "{cut:?} of {whole:?}");
            assert_eq!(cut.2, whole.2, "{cut:?}");
        }
        let truncated = |v: &Value| v["solutions_truncated"] == true;
        assert!(
            truncated(&s) || s["twins"].as_array().unwrap().iter().any(truncated),
            "{s}"
        );
    }
    // A helpmate of 9,729 solutions and a twin of as many: more than the answer may hold.
    let s = solve(
        &app,
        json!({"fen": "8/6P1/8/8/2K5/4k3/8/6M1 w 0", "stipulation": "h#2.5",
               "max_solutions": 10_000, "twins": ["mirror a1<->h1"]}),
    );
    let cut = lines_of(&s);
    let answered: usize = cut.iter().map(|l| l.1).sum();
    let counted: usize = cut.iter().map(|l| l.2).sum();
    assert!(counted > 10_000, "{cut:?}");
    assert_eq!(answered, 10_000, "{cut:?}");
    // The lists are filled in order: once one is cut, those after it are empty.
    let first_cut = cut.iter().position(|l| l.1 < l.2).unwrap();
    assert!(cut[first_cut + 1..].iter().all(|l| l.1 == 0), "{cut:?}");
    assert_eq!(s["twins"][0]["solutions_truncated"], true);
}

/// One `max_tree_nodes` for the trees of the diagram and its twins together.
#[test]
fn twins_share_one_max_tree_nodes() {
    let app = spawn_app();
    // The Chameleon mate in 2, and three twins that solve it again: four trees of one size.
    let body = |max: u64| {
        json!({"fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "mate_in": 2, "rules": "abbott",
               "max_tree_nodes": max,
               "twins": ["stipulation #2", "stipulation #2", "stipulation #2"]})
    };
    fn moves(tree: &Value) -> usize {
        tree.as_array()
            .into_iter()
            .flatten()
            .map(|a| {
                1 + a["defences"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|d| 1 + moves(&d["replies"]))
                    .sum::<usize>()
            })
            .sum()
    }
    let whole = solve(&app, body(2000));
    let one = moves(&whole["tree"]);
    assert!(one >= 3, "{}", whole["tree"]);
    assert_eq!(whole["tree_truncated"], false);
    for t in whole["twins"].as_array().unwrap() {
        assert_eq!(moves(&t["tree"]), one, "{t}");
    }
    // Room for two trees and a half: the third is cut, the fourth gets what is left.
    let max = 2 * one + one / 2;
    let s = solve(&app, body(max as u64));
    let twins = s["twins"].as_array().unwrap();
    assert_eq!(moves(&s["tree"]), one);
    assert_eq!(s["tree_truncated"], false);
    assert_eq!(moves(&twins[0]["tree"]), one);
    assert_eq!(twins[0]["tree_truncated"], false);
    let third = moves(&twins[1]["tree"]);
    assert!(third <= one / 2, "{}", twins[1]["tree"]);
    assert_eq!(twins[1]["tree_truncated"], true);
    let fourth = moves(&twins[2]["tree"]);
    assert!(fourth <= one / 2 - third, "{}", twins[2]["tree"]);
    assert_eq!(twins[2]["tree_truncated"], true);
    let total = moves(&s["tree"]) + twins.iter().map(|t| moves(&t["tree"])).sum::<usize>();
    assert!(total <= max, "{total} > {max}");
    // The keys are found all the same.
    for t in twins {
        assert_eq!(t["result"], "mate", "{t}");
    }
}
