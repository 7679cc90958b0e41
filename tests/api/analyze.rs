//! `POST /v1/analyze`.

use crate::helpers::spawn_app;
use baroque::rules::{Letters, Position, Rules, START_FEN};
use serde_json::{json, Value};
use std::collections::HashSet;

fn moves(body: &Value) -> &Vec<Value> {
    body["moves"].as_array().expect("a move list")
}

#[test]
fn the_start_position_under_vchess_has_32_pawn_moves() {
    let app = spawn_app();
    let r = app.post_json("/v1/analyze", &json!({"fen": START_FEN, "rules": "vchess"}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.content_type, "application/json");
    let body = r.json();
    assert_eq!(body["fen"], START_FEN);
    assert_eq!(
        body["fen_baroque"],
        "clxkwxli/pppppppp/8/8/8/8/PPPPPPPP/ILXWKXLC w 0"
    );
    assert_eq!(body["side_to_move"], "white");
    assert_eq!(body["status"], "ongoing");
    assert_eq!(
        body["rules"],
        json!({"preset": "vchess", "leaper": "long", "suicide": "off", "stalemate": "draw"})
    );
    assert_eq!(body["frozen"], json!([]));
    assert_eq!(body["warnings"], json!([]));
    let moves = moves(&body);
    assert_eq!(moves.len(), 32);
    let ucis: HashSet<&str> = moves.iter().map(|m| m["uci"].as_str().unwrap()).collect();
    assert_eq!(ucis.len(), 32);
    assert!(ucis.contains("e2e6") && ucis.contains("a2a3"));
    for m in moves {
        assert_eq!(m["piece"], "P", "{m}");
        assert_eq!(m["captures"], json!([]), "{m}");
        assert_eq!(m["gives_check"], false, "{m}");
        assert_eq!(m["checkmate"], false, "{m}");
        let uci = m["uci"].as_str().unwrap();
        assert_eq!(
            m["notation"],
            format!("P{}-{}", &uci[..2], &uci[2..]),
            "{m}"
        );
    }
}

#[test]
fn rules_default_to_abbott_and_baroque_letters_are_read() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/analyze",
        &json!({"fen": "clxkwxli/pppppppp/8/8/8/8/PPPPPPPP/ILXWKXLC w 0"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let body = r.json();
    assert_eq!(body["fen"], START_FEN);
    assert_eq!(body["rules"]["preset"], "abbott");
}

#[test]
fn the_wikipedia_king_diagram_lists_the_mate_and_its_captures() {
    let app = spawn_app();
    let fen = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
    let body = app
        .post_json("/v1/analyze", &json!({"fen": fen, "rules": "abbott"}))
        .json();
    assert_eq!(body["status"], "check");
    assert_eq!(body["in_check"], true, "{body}");
    assert_eq!(body["frozen"], json!([{"square": "e5", "piece": "k"}]));
    let find = |notation: &str| {
        moves(&body)
            .iter()
            .find(|m| m["notation"] == notation)
            .unwrap_or_else(|| panic!("{notation} not listed in {body}"))
            .clone()
    };
    let mate = find("Kc4-d5");
    assert_eq!(mate["gives_check"], true);
    assert_eq!(mate["checkmate"], true);
    assert_eq!(mate["uci"], "c4d5");
    assert_eq!(mate["piece"], "K");
    let take = find("Kc4xd3");
    assert_eq!(take["captures"], json!([{"square": "d3", "piece": "q"}]));
    assert_eq!(take["checkmate"], false);
    assert!(
        moves(&body).iter().all(|m| m["notation"] != "Kc4-d4"),
        "Kc4-d4 leaves the King capturable"
    );
    for m in moves(&body) {
        assert!(m["checkmate"] == false || m["gives_check"] == true, "{m}");
    }
}

#[test]
fn a_mated_side_has_no_moves_and_black_to_move_is_reported() {
    let app = spawn_app();
    let body = app
        .post_json(
            "/v1/analyze",
            &json!({"fen": "8/8/8/3Kk3/5M2/3q4/8/8 b 1", "rules": "abbott"}),
        )
        .json();
    assert_eq!(body["side_to_move"], "black");
    assert_eq!(body["status"], "checkmate");
    assert_eq!(body["in_check"], true);
    assert_eq!(body["moves"], json!([]));
    assert!(
        body.get("can_keep_king").is_none(),
        "Baroque has no `can_keep_king`: {body}"
    );
}

#[test]
fn a_stalemated_side_is_not_in_check() {
    let app = spawn_app();
    // The Immobilizer freezes the lone King in the corner: no move, and no check.
    let body = app
        .post_json("/v1/analyze", &json!({"fen": "7k/6M1/8/8/8/8/8/K7 b 0"}))
        .json();
    assert_eq!(body["status"], "stalemate", "{body}");
    assert_eq!(body["in_check"], false);
    assert_eq!(body["moves"], json!([]));
    let body = app
        .post_json("/v1/analyze", &json!({"fen": "7k/6M1/8/8/8/8/8/K7 w 0"}))
        .json();
    assert_eq!(body["status"], "ongoing", "{body}");
    assert_eq!(body["in_check"], false);
}

#[test]
fn warnings_do_not_stop_the_analysis() {
    let app = spawn_app();
    let r = app.post_json("/v1/analyze", &json!({"fen": "8/8/8/8/2K2M2/3q4/8/8 w 0"}));
    assert_eq!(r.status, 200, "{}", r.body);
    let codes: Vec<Value> = r.json()["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].clone())
        .collect();
    assert_eq!(codes, [json!("no_king")]);
}

#[test]
fn rule_options_change_the_moves() {
    let app = spawn_app();
    // The Wikipedia Immobilizer diagram after If3-d5: the Black Leaper c5 is frozen.
    let pos = Position::from_fen("8/8/1kbrq3/2n5/2Kp2n1/5M2/8/8 w 0", Rules::default()).unwrap();
    let fen = pos
        .after(&pos.parse_move("If3-d5").unwrap())
        .fen(Letters::Chess);
    let plain = app
        .post_json("/v1/analyze", &json!({"fen": fen, "rules": "abbott"}))
        .json();
    let suicide = app
        .post_json(
            "/v1/analyze",
            &json!({"fen": fen, "rules": {"preset": "abbott", "suicide": "on"}}),
        )
        .json();
    assert_eq!(plain["rules"]["suicide"], "off");
    assert_eq!(suicide["rules"]["suicide"], "on");
    let suicides = |b: &Value| -> Vec<String> {
        moves(b)
            .iter()
            .filter(|m| m["uci"].as_str().is_some_and(|u| u[..2] == u[2..]))
            .map(|m| m["notation"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(suicides(&plain).is_empty(), "{plain}");
    assert!(
        suicides(&suicide).contains(&"Nc5-c5".to_string()),
        "{suicide}"
    );
    assert_eq!(
        moves(&suicide).len(),
        moves(&plain).len() + suicides(&suicide).len()
    );
}

#[test]
fn every_seed_position_lists_as_many_moves_as_the_engine() {
    let app = spawn_app();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagrams");
    for path in baroque::cases::files_in(&dir).unwrap() {
        let file = baroque::cases::read_file(&path).unwrap();
        if file.game != baroque::rules::GameKind::Baroque {
            continue;
        }
        for case in &file.cases {
            let rules: Rules = case.rules().unwrap();
            let pos = Position::from_fen(&case.fen, rules).unwrap();
            let body = app
                .post_json(
                    "/v1/analyze",
                    &json!({"fen": case.fen, "rules": case.rules}),
                )
                .json();
            assert_eq!(
                moves(&body).len(),
                pos.legal_moves().len(),
                "{}: {body}",
                case.id
            );
        }
    }
}
