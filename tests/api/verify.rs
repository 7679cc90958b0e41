//! `POST /v1/verify`, with every seed diagram case.

use crate::helpers::{spawn_app, spawn_app_with};
use baroque::api::Settings;
use baroque::cases::{files_in, read_file, SquarePiece};
use baroque::rules::GameKind;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;

fn set(v: &Value) -> BTreeSet<(String, String)> {
    v.as_array()
        .expect("a list of pieces")
        .iter()
        .map(|p| {
            (
                p["square"].as_str().unwrap().to_string(),
                p["piece"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn expected(v: &[SquarePiece]) -> BTreeSet<(String, String)> {
    v.iter()
        .map(|p| (p.square.clone(), p.piece.clone()))
        .collect()
}

#[test]
fn every_seed_diagram_case_verifies_as_its_document_says() {
    let app = spawn_app();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagrams");
    let mut checked = 0;
    for path in files_in(&dir).unwrap() {
        let file = read_file(&path).unwrap();
        if file.game != GameKind::Baroque {
            continue;
        }
        for case in &file.cases {
            let id = &case.id;
            let r = app.post_json(
                "/v1/verify",
                &json!({"fen": case.fen, "moves": case.moves, "rules": case.rules}),
            );
            assert_eq!(r.status, 200, "{id}: {}", r.body);
            let body = r.json();
            let moves = body["moves"].as_array().unwrap();
            assert_eq!(moves.len(), case.moves.len(), "{id}: {body}");
            let last = case.moves.len() - 1;
            for (i, m) in moves.iter().enumerate() {
                assert_eq!(m["input"], case.moves[i], "{id}");
                if i < last {
                    assert_eq!(m["legal"], true, "{id}: move {i} {m}");
                }
            }
            let m = &moves[last];
            if case.legal {
                assert_eq!(m["legal"], true, "{id}: {body}");
                assert_eq!(body["first_illegal"], Value::Null, "{id}");
                let want = case
                    .captures
                    .as_deref()
                    .expect("a legal case lists captures");
                assert_eq!(set(&m["captures"]), expected(want), "{id}: {m}");
                if let Some(status) = &case.status {
                    assert_eq!(m["status_after"], status.as_str(), "{id}: {m}");
                    assert_eq!(body["final_status"], status.as_str(), "{id}");
                }
                if let Some(frozen) = &case.frozen {
                    assert_eq!(set(&m["frozen_after"]), expected(frozen), "{id}: {m}");
                }
                assert_eq!(body["final_fen"], m["fen_after"], "{id}");
                assert!(m["notation"].as_str().is_some_and(|n| !n.is_empty()));
                assert_eq!(m["uci"].as_str().map(str::len), Some(4), "{id}: {m}");
            } else {
                assert_eq!(m["legal"], false, "{id}: {body}");
                assert_eq!(m["fen_after"], Value::Null, "{id}");
                let bad = &body["first_illegal"];
                assert_eq!(bad["index"], last, "{id}: {bad}");
                assert_eq!(bad["input"], case.moves[last], "{id}");
                if let Some(reason) = &case.reason {
                    assert_eq!(bad["reason"], reason.as_str(), "{id}: {bad}");
                }
                assert!(bad["message"].as_str().is_some_and(|s| !s.is_empty()));
            }
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} cases");
}

#[test]
fn the_vchess_pawn_diagram_captures_c5_and_d4() {
    let app = spawn_app();
    let body = app
        .post_json(
            "/v1/verify",
            &json!({"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "moves": ["Pc2c4"], "rules": "vchess"}),
        )
        .json();
    assert_eq!(
        body,
        json!({
            "game": "baroque",
            "rules": {"preset": "vchess", "leaper": "long", "suicide": "off", "stalemate": "draw"},
            "moves": [{
                "input": "Pc2c4", "legal": true, "notation": "Pc2xc4", "uci": "c2c4",
                "captures": [{"square": "d4", "piece": "r"}, {"square": "c5", "piece": "n"}],
                "frozen_after": [],
                "fen_after": "7k/5ppp/2N5/8/2P1B3/8/PP6/K7 b 1",
                "status_after": "ongoing"
            }],
            "first_illegal": null,
            "final_fen": "7k/5ppp/2N5/8/2P1B3/8/PP6/K7 b 1",
            "final_status": "ongoing",
            "warnings": []
        })
    );
}

#[test]
fn nothing_after_the_first_illegal_move_is_played() {
    let app = spawn_app();
    let fen = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0";
    let body = app
        .post_json(
            "/v1/verify",
            &json!({"fen": fen, "moves": ["Pc2c4", "Zz9", "Kh8-g8"], "rules": "vchess"}),
        )
        .json();
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2, "{body}");
    assert_eq!(moves[0]["legal"], true);
    assert_eq!(moves[1]["legal"], false);
    assert_eq!(body["first_illegal"]["index"], 1);
    assert_eq!(body["first_illegal"]["reason"], "unparsable");
    assert_eq!(body["final_fen"], "7k/5ppp/2N5/8/2P1B3/8/PP6/K7 b 1");
}

#[test]
fn an_ambiguous_short_form_names_its_candidates() {
    let app = spawn_app();
    let body = app
        .post_json(
            "/v1/verify",
            &json!({"fen": "7k/8/8/8/2P1P3/8/8/K7 w 0", "moves": ["Pd4"]}),
        )
        .json();
    let bad = &body["first_illegal"];
    assert_eq!(bad["reason"], "ambiguous", "{body}");
    assert_eq!(bad["candidates"], json!(["Pc4-d4", "Pe4-d4"]));
}

#[test]
fn no_moves_answer_the_position_itself() {
    let app = spawn_app();
    let body = app
        .post_json(
            "/v1/verify",
            &json!({"fen": "8/8/8/3Kk3/5M2/3q4/8/8 b 1", "moves": []}),
        )
        .json();
    assert_eq!(body["moves"], json!([]));
    assert_eq!(body["first_illegal"], Value::Null);
    assert_eq!(body["final_fen"], "8/8/8/3Kk3/5M2/3q4/8/8 b 1");
    assert_eq!(body["final_status"], "checkmate");
}

#[test]
fn the_move_limit_is_inclusive() {
    let app = spawn_app_with(Settings {
        max_moves: 2,
        ..Settings::for_tests()
    });
    let fen = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0";
    let ok = app.post_json(
        "/v1/verify",
        &json!({"fen": fen, "moves": ["Pc2c4", "Kh8-g8"], "rules": "vchess"}),
    );
    assert_eq!(ok.status, 200, "{}", ok.body);
    assert_eq!(ok.json()["first_illegal"], Value::Null);
    let p = app
        .post_json(
            "/v1/verify",
            &json!({"fen": fen, "moves": ["Pc2c4", "Kh8-g8", "Ka1-b1"], "rules": "vchess"}),
        )
        .problem(422, "/problems/too-many-moves");
    assert_eq!(p["limit"], 2);
}

/// Every legal move of sparse random boards of both games, sent to `/v1/verify` as its `uci`,
/// is read as the rules' move reader reads it (the oracle the engine tests use, in
/// `crates/solver/tests/oracle`): legal, named the same, and leading to the same FEN and status.
#[test]
fn the_route_reads_every_move_as_the_rules_move_reader_does() {
    use crate::oracle::boards::{baroque, rococo, Walk};
    use crate::oracle::replay_texts;
    use baroque::rules::{Color, GamePosition, Naming, Status};

    fn agree<P: GamePosition>(app: &crate::helpers::TestApp, p: &P, game: &str) -> usize {
        let naming = Naming::default();
        let fen = p.fen(naming);
        let mut body = json!({"fen": fen, "game": game});
        if let Some(rules) = p.variant().rules() {
            body["rules"] = json!(baroque::api::wire::ResolvedRules::from(&rules));
        }
        let mut sent = 0;
        for m in p.legal_moves() {
            let uci = p.move_uci(&m, naming);
            let (played, after, status) = replay_texts(p, naming, std::slice::from_ref(&uci))
                .unwrap_or_else(|e| panic!("{e} in {fen}"));
            assert_eq!(played, [m]);
            body["moves"] = json!([uci]);
            let answer = app.post_json("/v1/verify", &body);
            assert_eq!(answer.status, 200, "{uci} in {fen}: {}", answer.body);
            let v = answer.json();
            let what = format!("{uci} in {fen}: {v}");
            assert_eq!(v["first_illegal"], Value::Null, "{what}");
            assert_eq!(v["moves"][0]["uci"], json!(uci), "{what}");
            assert_eq!(v["final_fen"], json!(after.fen(naming)), "{what}");
            let status = match status {
                Status::Checkmate => "checkmate",
                Status::Stalemate => "stalemate",
                Status::Check => "check",
                Status::Ongoing => "ongoing",
            };
            assert_eq!(v["final_status"], status, "{what}");
            sent += 1;
        }
        sent
    }

    let app = spawn_app();
    let (mut walk, mut sent, mut boards) = (Walk(0x5eed_0f7e), 0, 0);
    while boards < 24 {
        let turn = if boards % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Some(p) = baroque(&mut walk, turn, 6) {
            sent += agree(&app, &p, "baroque");
            boards += 1;
        }
    }
    while boards < 48 {
        let turn = if boards % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Some(p) = rococo(&mut walk, turn, 6) {
            sent += agree(&app, &p, "rococo");
            boards += 1;
        }
    }
    assert!(sent > 500, "only {sent} moves");
}
