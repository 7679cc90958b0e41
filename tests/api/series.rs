//! The series movers over HTTP, in both games: `ser-#N`, `ser-=N`, `ser-s#N` and `ser-h#N`
//! solved by `/v1/solve` (every line), judged move by move by `/v1/play` (the other side
//! passing), verified, stored and listed by `POST`/`GET /v1/puzzles`, read from PGN with `--`
//! for the passes, and an N above the server's maximum refused.

use crate::helpers::{spawn_app, spawn_app_with, TestApp};
use baroque::api::Settings;
use serde_json::{json, Value};

/// `ser-#3`: the White King walks f1-e2-d3-c4 to the Black King frozen by the Immobilizer on c2;
/// c3 is closed to it (the Pawn's f3-d3 would take it by custody against b3).
const SERIES_MATE: &str = "8/8/8/8/8/1k3p2/2M5/5K2 w 0";
/// `ser-h#2`: Black walks Kd4-e3-f4 into the Immobilizer's reach, and Kh2-g3 mates (Rococo).
const ROCOCO_HELP: &str = "10/10/10/1p8/10/5I4/3k6/10/7K2/10 b 0 -";
/// `ser-#2` in Rococo: If9-i6 freezes the King on i5, Ki7-h6 then threatens to take it.
const ROCOCO_MATE: &str = "10/5I4/1p8/8K1/10/8k1/10/10/10/10 w 0 -";
const TOKEN: &str = "series-token";

fn lines(v: &Value) -> Vec<Vec<String>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l.as_array()
                .unwrap()
                .iter()
                .map(|m| m["notation"].as_str().unwrap().to_string())
                .collect()
        })
        .collect()
}

fn solve(app: &TestApp, body: Value) -> Value {
    let r = app.post_json("/v1/solve", &body);
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

#[test]
fn series_movers_list_every_line_in_both_games() {
    let app = spawn_app();
    let s = solve(&app, json!({"fen": SERIES_MATE, "stipulation": "ser-#3"}));
    assert_eq!(s["stipulation"], "ser-#3");
    assert_eq!(lines(&s["solutions"]), [["Kf1-e2", "Ke2-d3", "Kd3-c4"]]);
    assert_eq!(s["count"], 1);
    assert_eq!(s["sound"], true);
    assert_eq!(s["short_solutions"], json!([]));
    // Four moves are too many: the three-move series is its short solution.
    let s = solve(&app, json!({"fen": SERIES_MATE, "stipulation": "ser-#4"}));
    assert_eq!(s["sound"], false);
    assert_eq!(
        lines(&s["short_solutions"]),
        [["Kf1-e2", "Ke2-d3", "Kd3-c4"]]
    );
    // A series stalemate: the King takes the Pawn, after which Black has no move.
    let s = solve(
        &app,
        json!({"fen": "8/M7/1k6/8/8/3p4/8/1K6 w 0", "stipulation": "ser-=2"}),
    );
    assert_eq!(lines(&s["solutions"]), [["Kb1-c2", "Kc2xd3"]]);
    assert_eq!(s["sound"], true);
    // Rococo: a series mate, and a series helpmate whose lines end with White's mate.
    let s = solve(
        &app,
        json!({"fen": ROCOCO_MATE, "game": "rococo", "stipulation": "ser-#2"}),
    );
    assert_eq!(lines(&s["solutions"]), [["If9-i6", "Ki7-h6"]]);
    let s = solve(
        &app,
        json!({"fen": ROCOCO_HELP, "game": "rococo", "stipulation": "ser-h#2"}),
    );
    assert_eq!(lines(&s["solutions"]), [["Kd4-e3", "Ke3-f4", "Kh2-g3"]]);
    assert_eq!(s["sound"], true);
    // The series side must be to move: White in `ser-#N`, Black in `ser-h#N`.
    app.post_json(
        "/v1/solve",
        &json!({"fen": SERIES_MATE, "stipulation": "ser-h#2"}),
    )
    .problem(422, "/problems/stipulation-side");
    app.post_json(
        "/v1/solve",
        &json!({"fen": SERIES_MATE, "stipulation": "ser-#99"}),
    )
    .problem(422, "/problems/invalid-mate-in");
}

#[test]
fn play_passes_between_the_series_moves() {
    let app = spawn_app();
    let play = |fen: &str, game: &str, stipulation: &str, moves: &[&str]| {
        let r = app.post_json(
            "/v1/play",
            &json!({"fen": fen, "game": game, "stipulation": stipulation, "moves": moves, "hint": true}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    let start = play(SERIES_MATE, "baroque", "ser-#3", &[]);
    assert_eq!(start["verdict"], "correct");
    assert_eq!(start["hint"], "f1");
    let first = play(SERIES_MATE, "baroque", "ser-#3", &["Kf1-e2"]);
    assert_eq!(first["verdict"], "correct");
    assert_eq!(first["remaining"], 2);
    // Black passed: White is to move again.
    assert_eq!(first["fen"], "8/8/8/8/8/1k3p2/2M1K3/8 w 2");
    assert_eq!(first["reply"], Value::Null);
    let done = play(
        SERIES_MATE,
        "baroque",
        "ser-#3",
        &["Kf1-e2", "Ke2-d3", "Kd3-c4"],
    );
    assert_eq!(done["verdict"], "solved", "{done}");
    assert_eq!(done["status"], "checkmate");
    // Kf1-e1 cannot reach c4 in two more moves.
    let wrong = play(SERIES_MATE, "baroque", "ser-#3", &["Kf1-e1"]);
    assert_eq!(wrong["verdict"], "wrong");
    let accepted: Vec<&str> = wrong["accepted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert_eq!(accepted, ["Kf1-e2"]);
    // Rococo: Black's series, then White's mate.
    let done = play(
        ROCOCO_HELP,
        "rococo",
        "ser-h#2",
        &["Kd4-e3", "Ke3-f4", "Kh2-g3"],
    );
    assert_eq!(done["verdict"], "solved", "{done}");
    let half = play(ROCOCO_HELP, "rococo", "ser-h#2", &["Kd4-e3"]);
    assert_eq!(half["verdict"], "correct");
    assert_eq!(half["remaining"], 2);
    // A line that goes on past a shorter one (the stalemate after two moves, Black passing),
    // as the solve lists it, plays to its end; so does a series helpmate whose Black Pawn
    // walks on after White could already mate.
    let s = app.post_json(
        "/v1/solve",
        &json!({"fen": "8/M7/1k6/8/8/3p4/8/1K6 w 0", "stipulation": "ser-=3"}),
    );
    assert!(
        s.body.contains(
            "[{\"notation\":\"Kb1-c2\",\"uci\":\"b1c2\",\"captures\":[]},{\"notation\":\"Kc2xd3\""
        ),
        "{}",
        s.body
    );
    let long = play(
        "8/M7/1k6/8/8/3p4/8/1K6 w 0",
        "baroque",
        "ser-=3",
        &["Kb1-c2", "Kc2xd3", "Kd3-c2"],
    );
    assert_eq!(long["first_illegal"], Value::Null, "{long}");
    assert_eq!(long["verdict"], "solved", "{long}");
    let help = play(
        "8/8/8/8/8/1k1K1p2/2M5/8 b 0",
        "baroque",
        "ser-h#2",
        &["Pf3-e3", "Pe3-e1", "Kd3-c3"],
    );
    assert_eq!(help["first_illegal"], Value::Null, "{help}");
    assert_eq!(help["verdict"], "solved", "{help}");
    // A shorter line plays move by move too, in both games: White mates before Black's Nth move
    // (White does not pass when the next move sent is its own).
    for (fen, game) in [
        ("8/8/8/8/8/1k1K1p2/2M5/8 b 0", "baroque"),
        ("10/10/10/10/4I5/7K2/10/5k4/10/10 b 0 -", "rococo"),
    ] {
        let s = solve(
            &app,
            json!({"fen": fen, "game": game, "stipulation": "ser-h#2"}),
        );
        let short = lines(&s["short_solutions"]);
        assert!(!short.is_empty(), "{s}");
        for line in short {
            assert_eq!(line.len(), 2, "{line:?}");
            let moves: Vec<&str> = line.iter().map(String::as_str).collect();
            let r = play(fen, game, "ser-h#2", &moves);
            assert_eq!(r["first_illegal"], Value::Null, "{moves:?}: {r}");
            assert_eq!(r["verdict"], "solved", "{moves:?}: {r}");
            assert_eq!(r["status"], "checkmate", "{moves:?}: {r}");
            let first = play(fen, game, "ser-h#2", &moves[..1]);
            assert_eq!(first["verdict"], "correct", "{moves:?}: {first}");
        }
    }
}

#[test]
fn series_puzzles_are_verified_stored_listed_and_read_from_pgn() {
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
    let r = post(
        json!({"kind": "mate", "fen": SERIES_MATE, "stipulation": "ser-#3",
        "solutions": [["Kf1-e2", "Ke2-d3", "Kd3-c4"]]}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let stored = r.json();
    assert_eq!(stored["stipulation"], "ser-#3");
    assert_eq!(stored["outcome"]["sound"], true);
    assert!(stored["difficulty"].as_u64().is_some(), "{stored}");
    // A line that is not the solution is refused.
    let p = post(
        json!({"kind": "mate", "fen": SERIES_MATE, "stipulation": "ser-#3",
        "solutions": [["Kf1-e1", "Ke1-d1", "Kd1-c1"]]}),
    )
    .problem(422, "/problems/puzzle-not-verified");
    assert!(p["reasons"][0].as_str().unwrap().contains("Kf1-e2"), "{p}");
    let r = post(
        json!({"kind": "mate", "fen": ROCOCO_HELP, "game": "rococo", "stipulation": "ser-h#2"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    // Listed by stipulation (`#` URL-encoded as %23).
    let r = app.get("/v1/puzzles?stipulation=ser-%233&limit=200");
    assert_eq!(r.status, 200, "{}", r.body);
    let ids: Vec<Value> = r.json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].clone())
        .collect();
    assert_eq!(ids, [stored["id"].clone()]);
    // PGN: the passes written as `--`.
    let pgn = "[Event \"?\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
               [FEN \"8/M7/1k6/8/8/3p4/8/1K6 w 0\"]\n[Stipulation \"ser-=2\"]\n\n\
               1. Kb1-c2 -- 2. Kc2xd3 1/2-1/2\n\n";
    let r = app.post_with(
        "/v1/puzzles",
        "application/x-chess-pgn",
        &[("authorization", auth.as_str())],
        pgn.as_bytes(),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["stipulation"], "ser-=2");
}
