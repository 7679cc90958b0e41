//! `POST /v1/play` and `POST /v1/puzzles/{id}/play` over HTTP: the Wikipedia Chameleon mate in 2
//! played to the end (the key, the reply `Kb7xc8`, either mating move), a wrong first move and its
//! refutation, an illegal move, a hint, a selfmate and a helpmate, a stored puzzle played along
//! its proof without a search, and bad input.

use crate::helpers::spawn_app;
use serde_json::{json, Value};

const CHAMELEON: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";

fn notations(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect()
}

fn play(app: &crate::helpers::TestApp, moves: &[&str], hint: bool) -> Value {
    let r = app.post_json(
        "/v1/play",
        &json!({"fen": CHAMELEON, "stipulation": "#2", "moves": moves, "hint": hint}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.content_type, "application/json");
    r.json()
}

#[test]
fn the_chameleon_mate_in_2_plays_to_the_end() {
    let app = spawn_app();
    let start = play(&app, &[], true);
    assert_eq!(start["verdict"], "correct");
    assert_eq!(start["judged"], Value::Null);
    assert_eq!(start["remaining"], 2);
    assert_eq!(notations(&start["accepted"]), ["Bg6xc6"]);
    assert_eq!(
        start["hint"], "g6",
        "the square of the piece to move, nothing more"
    );

    // The key, in the page's notation of the Chameleon's path.
    let key = play(&app, &["Xg6-e6-c6"], false);
    assert_eq!(key["verdict"], "correct");
    assert_eq!(key["judged"], 0);
    assert_eq!(key["stipulation"], "#2");
    assert_eq!(notations(&key["moves"]), ["Bg6xc6"]);
    assert_eq!(key["moves"][0]["captures"].as_array().unwrap().len(), 7);
    assert_eq!(
        key["reply"],
        json!({"notation": "Kb7xc8", "uci": "b7c8", "captures": [{"square": "c8", "piece": "R"}]})
    );
    assert_eq!(key["remaining"], 1);
    assert_eq!(notations(&key["accepted"]), ["Bg6xc6"]);
    assert_eq!(key["hint"], Value::Null, "no hint unless asked");
    assert_eq!(
        key["fen"], "2k5/8/P1B5/8/2N5/8/8/K7 w 2",
        "after the key and the reply"
    );
    assert_eq!(key["status"], "ongoing");
    assert_eq!(key["complete"], true);

    let reply = play(&app, &["Bg6xc6", "Kb7xc8"], true);
    assert_eq!(reply["verdict"], "correct");
    assert_eq!(notations(&reply["accepted"]), ["Bc6-c7", "Nc4-g8"]);
    assert_eq!(reply["hint"], "c6");

    for mate in ["Bc6-c7", "Nc4-g8"] {
        let end = play(&app, &["Bg6xc6", "Kb7xc8", mate], true);
        assert_eq!(end["verdict"], "solved", "{mate}: {end}");
        assert_eq!(end["judged"], 2);
        assert_eq!(end["remaining"], 0);
        assert_eq!(end["reply"], Value::Null);
        assert_eq!(end["hint"], Value::Null);
        assert_eq!(end["status"], "checkmate");
        assert_eq!(notations(&end["accepted"]), ["Bc6-c7", "Nc4-g8"]);
    }
}

#[test]
fn a_wrong_move_gets_its_refutation_and_an_illegal_one_what_verify_says() {
    let app = spawn_app();
    let wrong = play(&app, &["Bg6-e8"], false);
    assert_eq!(wrong["verdict"], "wrong");
    assert_eq!(wrong["judged"], 0);
    assert_eq!(notations(&wrong["accepted"]), ["Bg6xc6"]);
    let refutation = wrong["refutation"]["notation"]
        .as_str()
        .unwrap()
        .to_string();
    // After the refutation White has no mate in 1.
    let after = app.post_json(
        "/v1/verify",
        &json!({"fen": CHAMELEON, "moves": ["Bg6-e8", refutation]}),
    );
    let fen = after.json()["final_fen"].as_str().unwrap().to_string();
    let solved = app.post_json("/v1/solve", &json!({"fen": fen, "mate_in": 1}));
    assert_eq!(solved.json()["result"], "no_mate", "{refutation}");

    // A wrong last move: the mate missed.
    let missed = play(&app, &["Bg6xc6", "Kb7xc8", "Ka1-a2"], false);
    assert_eq!(missed["verdict"], "wrong");
    assert_eq!(missed["judged"], 2);
    assert_eq!(notations(&missed["accepted"]), ["Bc6-c7", "Nc4-g8"]);

    for moves in [vec!["Ka1-b1"], vec!["Bg6xc6", "Kb7-a8"], vec!["Zz9"]] {
        let illegal = play(&app, &moves, false);
        assert_eq!(illegal["verdict"], "illegal", "{moves:?}");
        let verified = app
            .post_json("/v1/verify", &json!({"fen": CHAMELEON, "moves": moves}))
            .json();
        assert_eq!(illegal["first_illegal"], verified["first_illegal"]);
        assert_eq!(illegal["fen"], verified["final_fen"]);
        assert_eq!(illegal["searched"], false);
    }
}

#[test]
fn a_selfmate_and_a_helpmate_play_to_the_end() {
    let app = spawn_app();
    let selfmate = |moves: &[&str]| {
        let r = app.post_json(
            "/v1/play",
            &json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "s#1", "moves": moves}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    let key = selfmate(&["Bd3-e2"]);
    assert_eq!(key["verdict"], "solved");
    assert_eq!(key["reply"]["notation"], "Ke1xe2", "Black's forced mate");
    assert_eq!(key["status"], "checkmate", "White is mated");
    assert_eq!(selfmate(&["Bd3-c2"])["verdict"], "wrong");

    let helpmate = |moves: &[&str]| {
        let r = app.post_json(
            "/v1/play",
            &json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#1", "moves": moves, "hint": true}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    let first = helpmate(&["Kd3-c2"]);
    assert_eq!(first["verdict"], "correct");
    assert_eq!(
        first["reply"],
        Value::Null,
        "a helpmate's moves are all the solver's"
    );
    assert_eq!(first["remaining"], 1);
    assert_eq!(first["hint"], "b4");
    let end = helpmate(&["Kd3-c2", "Kb4-c3"]);
    assert_eq!(end["verdict"], "solved");
    assert_eq!(end["status"], "checkmate");
    assert_eq!(helpmate(&["Kd3-e2"])["verdict"], "wrong");
}

#[test]
fn a_stored_puzzle_plays_along_its_proof_without_a_search() {
    let app = spawn_app();
    let list = app
        .get("/v1/puzzles?kind=mate&stipulation=%232&limit=200")
        .json();
    let id = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["fen"] == CHAMELEON)
        .expect("the Chameleon puzzle is seeded")["id"]
        .as_i64()
        .unwrap();
    let path = format!("/v1/puzzles/{id}/play");
    let stored = |moves: &[&str]| {
        let r = app.post_json(&path, &json!({"moves": moves, "hint": true}));
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    for (moves, verdict) in [
        (vec![], "correct"),
        (vec!["Bg6xc6"], "correct"),
        (vec!["Bg6xc6", "Kb7xc8"], "correct"),
        (vec!["Bg6xc6", "Kb7xc8", "Nc4-g8"], "solved"),
    ] {
        let r = stored(&moves);
        assert_eq!(r["verdict"], verdict, "{moves:?}");
        assert_eq!(r["puzzle_id"], id);
        assert_eq!(r["searched"], false, "{moves:?}: {r}");
        assert_eq!(r["nodes"], 0);
        // The same answer as a search gives.
        let mut searched = play(&app, &moves, true);
        for member in ["nodes", "millis", "searched", "limits"] {
            searched[member] = r[member].clone();
        }
        searched["puzzle_id"] = json!(id);
        assert_eq!(r, searched, "{moves:?}");
    }
    let wrong = stored(&["Bg6-e8"]);
    assert_eq!(wrong["verdict"], "wrong");
    assert_eq!(wrong["searched"], true, "a refutation is searched");
    assert_eq!(
        wrong["refutation"],
        play(&app, &["Bg6-e8"], false)["refutation"]
    );

    let diagram = app.get("/v1/puzzles?kind=diagram&limit=1").json()["items"][0]["id"]
        .as_i64()
        .unwrap();
    let r = app.post_json(
        &format!("/v1/puzzles/{diagram}/play"),
        &json!({"moves": []}),
    );
    let p = r.problem(422, "/problems/not-applicable");
    assert_eq!(p["field"], "id");
    app.post_json("/v1/puzzles/999999/play", &json!({"moves": []}))
        .problem(404, "/problems/not-found");
}

#[test]
fn bad_play_requests_are_refused_with_problems() {
    let app = spawn_app();
    app.post_json(
        "/v1/play",
        &json!({"fen": CHAMELEON, "stipulation": "h#2", "moves": []}),
    )
    .problem(422, "/problems/stipulation-side");
    // Black to move has no mate in 2: no move is accepted.
    let black_to_move = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 b 0";
    let r = app.post_json(
        "/v1/play",
        &json!({"fen": black_to_move, "stipulation": "#2", "moves": [], "hint": true}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    assert_eq!(
        (&r["verdict"], &r["accepted"], &r["hint"]),
        (&json!("wrong"), &json!([]), &Value::Null)
    );
    app.post_json(
        "/v1/play",
        &json!({"fen": CHAMELEON, "stipulation": "#2", "mate_in": 3, "moves": []}),
    )
    .problem(422, "/problems/invalid-stipulation");
    app.post_json(
        "/v1/play",
        &json!({"fen": CHAMELEON, "stipulation": "x#2", "moves": []}),
    )
    .problem(422, "/problems/invalid-stipulation");
    app.post_json("/v1/play", &json!({"fen": CHAMELEON, "moves": "Bg6xc6"}))
        .problem(400, "/problems/invalid-request");
    // A budget is an object: serde alone would read one from an array.
    for path in ["/v1/play", "/v1/solve"] {
        let mut body = json!({"fen": CHAMELEON, "mate_in": 2, "limits": [null, null]});
        if path == "/v1/play" {
            body["moves"] = json!([]);
        }
        app.post_json(path, &body)
            .problem(400, "/problems/invalid-request");
    }
    let many: Vec<&str> = vec!["Ka1-a2"; 501];
    app.post_json(
        "/v1/play",
        &json!({"fen": CHAMELEON, "stipulation": "#2", "moves": many}),
    )
    .problem(422, "/problems/too-many-moves");
}

#[test]
fn rococo_plays_in_the_pages_coordinates_and_taking_the_king_solves() {
    let app = spawn_app();
    let rococo = |moves: &[&str]| {
        let r = app.post_json(
            "/v1/play",
            &json!({"fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "game": "rococo", "coords": "page",
                    "stipulation": "#2", "moves": moves, "hint": true}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    };
    let start = rococo(&[]);
    assert_eq!(notations(&start["accepted"]), ["Ld3xd8"]);
    assert_eq!(start["hint"], "d3", "in the page's names");
    let taken = rococo(&["Ld3xd8"]);
    assert_eq!(taken["verdict"], "solved");
    assert_eq!(taken["remaining"], 0);
    assert_eq!(taken["status"], "checkmate", "the King was taken");
    assert_eq!(taken["rules"], Value::Null);
}

/// With no move played, a budget that runs out before any solver move is judged leaves the
/// verdict `unknown`, never `correct`; with room, the same position is `correct`.
#[test]
fn no_move_and_no_budget_is_unknown() {
    let app = spawn_app();
    let start = "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0";
    let r = app.post_json(
        "/v1/play",
        &json!({"fen": start, "mate_in": 8, "moves": [], "limits": {"millis": 20}}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let p = r.json();
    assert_eq!(p["verdict"], "unknown", "{p}");
    assert_eq!(p["complete"], false, "{p}");
    assert_eq!(p["budget_exhausted"], true, "{p}");
    let p = app
        .post_json(
            "/v1/play",
            &json!({"fen": CHAMELEON, "mate_in": 2, "moves": []}),
        )
        .json();
    assert_eq!(p["verdict"], "correct", "{p}");
    assert_eq!(notations(&p["accepted"]), ["Bg6xc6"], "{p}");
}

/// A direct mate solved before its last move has no reply to choose: in Rococo the mated side
/// still has moves (each losing its King), and none is searched or played.
#[test]
fn a_solved_direct_mate_has_no_reply() {
    let app = spawn_app();
    let p = app
        .post_json(
            "/v1/play",
            &json!({"fen": "10/10/10/3K6/10/4k1I3/10/10/3W1A4/10 w 0", "mate_in": 2, "game": "rococo", "moves": ["Wd2-d4"]}),
        )
        .json();
    assert_eq!(p["verdict"], "solved", "{p}");
    assert!(p["reply"].is_null(), "{p}");
    assert_eq!(p["status"], "checkmate", "{p}");
}
