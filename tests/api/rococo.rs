//! Rococo through every endpoint (`"game": "rococo"`): analyze, verify, solve and the puzzle store,
//! in standard and in page coordinates, and its errors.

use crate::helpers::{spawn_app, spawn_app_with, TestApp};
use baroque::api::Settings;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const START: &str = "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0";
/// The page's Chameleon example (fixture `rc-chameleon-leap-withdraw-approach`).
const CHAMELEON: &str = "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0";
/// The Long Leaper on e4 takes the King on e8 by leaping to e9 (page: d3, d7, d8).
const MATE_IN_1: &str = "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0";

/// `(square, piece)` pairs of a captures or frozen list.
fn pieces(v: &Value) -> BTreeSet<(String, String)> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|p| {
            (
                p["square"].as_str().unwrap().to_string(),
                p["piece"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn set(pairs: &[(&str, &str)]) -> BTreeSet<(String, String)> {
    pairs
        .iter()
        .map(|(s, p)| (s.to_string(), p.to_string()))
        .collect()
}

/// The depth-1 count of fixtures/perft/rococo.perft for the start position.
fn perft_1() -> u64 {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perft/rococo.perft");
    let text = std::fs::read_to_string(path).unwrap();
    let mut at_start = false;
    for line in text.lines().map(str::trim) {
        if let Some(fen) = line.strip_prefix("fen ") {
            at_start = fen.starts_with(START);
        } else if let Some(n) = line.strip_prefix("perft 1 ").filter(|_| at_start) {
            return n.trim().parse().unwrap();
        }
    }
    panic!("no depth 1 count for the start position in rococo.perft")
}

#[test]
fn the_start_position_has_the_perft_1_count_of_moves() {
    let app = spawn_app();
    let r = app.post_json("/v1/analyze", &json!({"fen": START, "game": "rococo"}));
    assert_eq!(r.status, 200, "{}", r.body);
    let a = r.json();
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, perft_1());
    assert_eq!(moves.len(), 25);
    assert_eq!(a["game"], "rococo");
    assert_eq!(a["fen"], format!("{START} -"));
    assert_eq!(a["side_to_move"], "white");
    assert_eq!(a["status"], "ongoing");
    assert_eq!(a["in_check"], false);
    assert_eq!(a["can_keep_king"], true);
    assert!(a["rules"].is_null(), "{a}");
    assert!(a.get("fen_baroque").is_none(), "{a}");
    assert_eq!(a["warnings"], json!([]));
    // 22 Cannon Pawn steps and 3 swaps of the Swapper on i2 (fixtures/perft/rococo.perft).
    let kinds: Vec<&str> = moves.iter().map(|m| m["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "swap").count(), 3);
    assert_eq!(kinds.iter().filter(|k| **k == "normal").count(), 22);
    let swap = moves.iter().find(|m| m["notation"] == "Si2<>h2").unwrap();
    assert_eq!(swap["uci"], "i2h2");
    assert_eq!(swap["piece"], "S");
    assert_eq!(swap["captures"], json!([]));
    assert_eq!(swap["gives_check"], false);
    assert_eq!(swap["checkmate"], false);
    assert!(moves.iter().all(|m| m["piece"] == "P" || m["piece"] == "S"));
}

#[test]
fn a_diagram_case_of_the_page_verifies_with_its_captures() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagrams/rococo.json");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let case = file["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "rc-chameleon-leap-withdraw-approach")
        .unwrap();
    let app = spawn_app();
    let r = app.post_json(
        "/v1/verify",
        &json!({"fen": case["fen"], "moves": case["moves"], "game": "rococo"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["first_illegal"], Value::Null);
    let m = &v["moves"][0];
    assert_eq!(m["legal"], true);
    assert_eq!(m["notation"], "Xb3xb5");
    assert_eq!(m["kind"], "normal");
    assert_eq!(pieces(&m["captures"]), pieces(&case["captures"]));
    assert_eq!(
        pieces(&m["captures"]),
        set(&[("b4", "L"), ("b2", "W"), ("b6", "A")])
    );
    assert_eq!(m["fen_after"], "10/10/10/10/10/1x8/10/10/10/10 w 1 -");
    assert_eq!(v["final_fen"], m["fen_after"]);
    // White has no piece left: no move at all, a draw.
    assert_eq!(v["final_status"], "stalemate");
    assert!(v["rules"].is_null());
    // Neither side has a King: warnings, not errors.
    let codes: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["no_king", "no_king"]);
}

#[test]
fn page_coordinates_name_the_same_move_in_the_pages_terms() {
    let app = spawn_app();
    let page = app
        .post_json(
            "/v1/verify",
            &json!({"fen": CHAMELEON, "moves": ["Xa2-a4"], "game": "rococo", "coords": "page"}),
        )
        .json();
    let standard = app
        .post_json(
            "/v1/verify",
            &json!({"fen": CHAMELEON, "moves": ["Xb3-b5"], "game": "rococo"}),
        )
        .json();
    let (p, s) = (&page["moves"][0], &standard["moves"][0]);
    assert_eq!(p["legal"], true, "{page}");
    assert_eq!(p["notation"], "Xa2xa4");
    assert_eq!(p["uci"], "a2a4");
    assert_eq!(
        pieces(&p["captures"]),
        set(&[("a3", "L"), ("a1", "W"), ("a5", "A")])
    );
    assert_eq!(s["notation"], "Xb3xb5");
    assert_eq!(s["uci"], "b3b5");
    // The same move: the same pieces taken, the same position after it.
    let piece_letters = |v: &Value| {
        let mut l: Vec<String> = pieces(v).into_iter().map(|(_, p)| p).collect();
        l.sort();
        l
    };
    assert_eq!(piece_letters(&p["captures"]), piece_letters(&s["captures"]));
    assert_eq!(p["fen_after"], s["fen_after"]);
    assert_eq!(p["status_after"], s["status_after"]);

    // The standard name of the move is read as page squares when coords is page, and so is not
    // the same move: b3 is the page's name of our c4, where no piece stands (never guessed).
    let r = app
        .post_json(
            "/v1/verify",
            &json!({"fen": CHAMELEON, "moves": ["Xb3-b5"], "game": "rococo", "coords": "page"}),
        )
        .json();
    assert_eq!(r["first_illegal"]["reason"], "no_piece", "{r}");

    // Analyze lists the move under each name.
    let names = |coords: &str| -> Vec<String> {
        app.post_json(
            "/v1/analyze",
            &json!({"fen": CHAMELEON, "game": "rococo", "coords": coords}),
        )
        .json()["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["notation"].as_str().unwrap().to_string())
            .collect()
    };
    let (page_names, standard_names) = (names("page"), names("standard"));
    assert_eq!(page_names.len(), standard_names.len());
    assert!(page_names.contains(&"Xa2xa4".to_string()), "{page_names:?}");
    assert!(standard_names.contains(&"Xb3xb5".to_string()));
    assert!(!page_names.contains(&"Xb3xb5".to_string()));
}

#[test]
fn a_last_swap_field_is_read_and_written_in_the_requests_coordinates() {
    let app = spawn_app();
    // Standard e5g7 is the page's d4f6.
    let fen = "10/10/10/10/10/10/10/10/10/10 w 3";
    let a = app
        .post_json(
            "/v1/analyze",
            &json!({"fen": format!("{fen} d4f6"), "game": "rococo", "coords": "page"}),
        )
        .json();
    assert_eq!(a["fen"], format!("{fen} d4f6"));
    let a = app
        .post_json(
            "/v1/analyze",
            &json!({"fen": format!("{fen} e5g7"), "game": "rococo"}),
        )
        .json();
    assert_eq!(a["fen"], format!("{fen} e5g7"));
    // y00 is a page name only.
    let r = app.post_json(
        "/v1/analyze",
        &json!({"fen": format!("{fen} y00a1"), "game": "rococo"}),
    );
    let p = r.problem(422, "/problems/invalid-fen");
    assert_eq!(p["field"], "last_swap");
    assert_eq!(p["position"], 35);
}

#[test]
fn a_mate_in_1_is_the_capture_of_the_king() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": MATE_IN_1, "mate_in": 1, "game": "rococo"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let s = r.json();
    assert_eq!(s["game"], "rococo");
    assert_eq!(s["result"], "mate");
    assert_eq!(s["mate_in"], 1);
    assert_eq!(s["sound"], true);
    assert!(s["rules"].is_null());
    let keys = s["keys"].as_array().unwrap();
    assert_eq!(keys.len(), 1, "{s}");
    assert_eq!(keys[0]["notation"], "Le4xe9");
    assert_eq!(keys[0]["uci"], "e4e9");
    assert_eq!(pieces(&keys[0]["captures"]), set(&[("e8", "k")]));
    assert_eq!(s["tree"][0]["mates"], true);

    // The same in page coordinates, with the intended key in the page's names.
    let p = app
        .post_json(
            "/v1/solve",
            &json!({"fen": MATE_IN_1, "mate_in": 1, "game": "rococo", "coords": "page", "key": "Ld3-d8"}),
        )
        .json();
    assert_eq!(p["keys"][0]["notation"], "Ld3xd8", "{p}");
    assert_eq!(p["keys"][0]["uci"], "d3d8");
    assert_eq!(pieces(&p["keys"][0]["captures"]), set(&[("d7", "k")]));
    assert_eq!(p["tree"][0]["notation"], "Ld3xd8");
    assert_eq!(p["intended_key"]["notation"], "Ld3xd8");
    assert_eq!(p["intended_key"]["mate_in"], 1);
    assert_eq!(p["cooks"], json!([]));

    // Not mate in 1 with Black to move: Black's King walks away first (it cannot be taken).
    let b = app
        .post_json(
            "/v1/solve",
            &json!({"fen": MATE_IN_1.replace(" w ", " b "), "mate_in": 1, "game": "rococo"}),
        )
        .json();
    assert_eq!(b["result"], "no_mate", "{b}");

    // Verify: the capture ends the game.
    let v = app
        .post_json(
            "/v1/verify",
            &json!({"fen": MATE_IN_1, "moves": ["Le4-e9", "Kb2-c3"], "game": "rococo"}),
        )
        .json();
    assert_eq!(v["moves"][0]["legal"], true);
    assert_eq!(v["moves"][0]["status_after"], "checkmate");
    assert_eq!(v["first_illegal"]["index"], 1, "{v}");
    assert_eq!(v["first_illegal"]["reason"], "not_a_move");
    assert_eq!(v["final_status"], "checkmate");
    // Analyze marks the capture as a mate.
    let a = app
        .post_json("/v1/analyze", &json!({"fen": MATE_IN_1, "game": "rococo"}))
        .json();
    let mates: Vec<&str> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["checkmate"] == true)
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert_eq!(mates, ["Le4xe9"]);
}

#[test]
fn a_side_that_cannot_keep_its_king_is_checkmated_and_says_so() {
    let app = spawn_app();
    // Black to move, its King on e8 in the Leaper's line: it can step aside (check), and a move
    // that stays in line loses the King.
    let a = app
        .post_json(
            "/v1/analyze",
            &json!({"fen": MATE_IN_1.replace(" w ", " b "), "game": "rococo"}),
        )
        .json();
    assert_eq!(a["status"], "check", "{a}");
    assert_eq!(a["in_check"], true);
    assert_eq!(a["can_keep_king"], true);
    // Frozen by an Immobilizer on d9 and with the Leaper in line, the King cannot keep itself:
    // Black's only moves are the Cannon Pawn's, and each leaves the King to be taken.
    let fen = "10/1p1I6/4k5/10/10/10/4L5/10/1K8/10 b 0";
    let a = app
        .post_json("/v1/analyze", &json!({"fen": fen, "game": "rococo"}))
        .json();
    assert_eq!(a["can_keep_king"], false, "{a}");
    assert_eq!(a["status"], "checkmate");
    assert_eq!(a["in_check"], true);
    assert_eq!(pieces(&a["frozen"]), set(&[("e8", "k")]));
}

/// A side with no move at all draws (`stalemate`), whether or not its King could be taken; the
/// problem goal "stalemated" (`=N`) is only the first of the two, and `in_check` tells them apart.
#[test]
fn a_side_with_no_move_cannot_keep_its_king_and_says_whether_it_is_in_check() {
    let app = spawn_app();
    // White's King on c9 is frozen by the Immobilizer on d9, and the Withdrawer on c8 would take
    // it by withdrawing to c7: no move at all, with the King capturable.
    let fen = "10/1Ki7/1w8/10/10/10/10/10/5k4/10 w 0";
    let a = app
        .post_json("/v1/analyze", &json!({"fen": fen, "game": "rococo"}))
        .json();
    assert_eq!(a["status"], "stalemate", "{a}");
    assert_eq!(a["moves"], json!([]));
    assert_eq!(a["in_check"], true, "{a}");
    assert_eq!(a["can_keep_king"], false, "{a}");
    // Without the Withdrawer the King is frozen and safe: the goal of `=N` is reached.
    let fen = "10/1Ki7/10/10/10/10/10/10/5k4/10 w 0";
    let a = app
        .post_json("/v1/analyze", &json!({"fen": fen, "game": "rococo"}))
        .json();
    assert_eq!(a["status"], "stalemate", "{a}");
    assert_eq!(a["in_check"], false, "{a}");
    assert_eq!(a["can_keep_king"], false, "{a}");
}

#[test]
fn rococo_errors_are_problems() {
    let app = spawn_app();
    // Eleven squares on rank 1.
    let bad = "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/11 w 0";
    let p = app
        .post_json("/v1/analyze", &json!({"fen": bad, "game": "rococo"}))
        .problem(422, "/problems/invalid-fen");
    assert_eq!(p["field"], "board");
    assert_eq!(p["position"], 60);
    // A Baroque letter set's Q is no Rococo piece.
    let p = app
        .post_json(
            "/v1/verify",
            &json!({"fen": "10/10/10/10/4Q5/10/10/10/10/10 w 0", "moves": [], "game": "rococo"}),
        )
        .problem(422, "/problems/invalid-fen");
    assert_eq!(
        (p["field"].as_str(), p["position"].as_u64()),
        (Some("board"), Some(14))
    );
    // Two White Kings.
    let p = app
        .post_json(
            "/v1/analyze",
            &json!({"fen": "10/10/10/10/4K5/10/10/4K5/10/10 w 0", "game": "rococo"}),
        )
        .problem(422, "/problems/impossible-position");
    assert_eq!(p["problems"][0]["code"], "two_kings");
    // A Baroque FEN given as Rococo.
    app.post_json(
        "/v1/solve",
        &json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1, "game": "rococo"}),
    )
    .problem(422, "/problems/invalid-fen");

    // Page coordinates are Rococo's: refused for Baroque, on every endpoint.
    for (path, extra) in [
        ("/v1/analyze", json!({})),
        ("/v1/verify", json!({"moves": ["Kc4-d5"]})),
        ("/v1/solve", json!({"mate_in": 1})),
    ] {
        let mut body = json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "coords": "page"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let p = app
            .post_json(path, &body)
            .problem(422, "/problems/not-applicable");
        assert_eq!(p["field"], "coords", "{path}");
        assert!(p["detail"].as_str().unwrap().contains("rococo"), "{p}");
    }
    // `coords: standard` is the default for either game.
    let r = app.post_json(
        "/v1/analyze",
        &json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "coords": "standard"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // Baroque presets do not apply to Rococo.
    let p = app
        .post_json(
            "/v1/analyze",
            &json!({"fen": START, "game": "rococo", "rules": "vchess"}),
        )
        .problem(422, "/problems/not-applicable");
    assert_eq!(p["field"], "rules");
    // An unknown game or coordinate system is a schema error.
    app.post_json("/v1/analyze", &json!({"fen": START, "game": "ultima"}))
        .problem(400, "/problems/invalid-request");
    app.post_json(
        "/v1/analyze",
        &json!({"fen": START, "game": "rococo", "coords": "chess"}),
    )
    .problem(400, "/problems/invalid-request");
    // A mate search needs both Kings.
    let p = app
        .post_json(
            "/v1/solve",
            &json!({"fen": CHAMELEON, "mate_in": 1, "game": "rococo"}),
        )
        .problem(422, "/problems/not-applicable");
    assert_eq!(p["field"], "fen");
    // An intended key that is no move.
    app.post_json(
        "/v1/solve",
        &json!({"fen": MATE_IN_1, "mate_in": 1, "game": "rococo", "key": "Le4-e5=L"}),
    )
    .problem(422, "/problems/invalid-key");
}

#[test]
fn rococo_moves_are_refused_with_the_baroque_reason_codes() {
    let app = spawn_app();
    let reason = |fen: &str, mv: &str| {
        let v = app
            .post_json(
                "/v1/verify",
                &json!({"fen": fen, "moves": [mv], "game": "rococo"}),
            )
            .json();
        assert_eq!(v["moves"][0]["legal"], false, "{v}");
        assert_eq!(v["first_illegal"]["index"], 0);
        v["first_illegal"]["reason"].as_str().unwrap().to_string()
    };
    assert_eq!(reason(START, "Pb3/b4"), "unparsable");
    assert_eq!(reason(START, "Qe3-e4"), "unparsable");
    assert_eq!(reason(START, "Pe5-e6"), "no_piece");
    assert_eq!(reason(START, "Ke2-e3"), "not_a_move");
    assert_eq!(
        reason("10/3I6/4k5/10/10/10/4L5/10/1K8/10 b 0", "Ke8-f8"),
        "frozen"
    );
    // Both Long Leapers of a side may reach the same square.
    let v = app
        .post_json(
            "/v1/verify",
            &json!({"fen": "10/10/10/10/10/10/10/10/1L4L3/10 w 0", "moves": ["Le2"], "game": "rococo"}),
        )
        .json();
    assert_eq!(v["first_illegal"]["reason"], "ambiguous", "{v}");
    assert_eq!(
        v["first_illegal"]["candidates"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect::<BTreeSet<_>>(),
        BTreeSet::from(["Lb2-e2", "Lg2-e2"])
    );
}

const TOKEN: &str = "test-write-token-rococo";

fn writer() -> TestApp {
    spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    })
}

fn post(app: &TestApp, body: &Value) -> crate::helpers::Reply {
    let auth = format!("Bearer {TOKEN}");
    app.send(
        "POST",
        "/v1/puzzles",
        &[("authorization", auth.as_str())],
        Some(body),
    )
}

#[test]
fn the_seeded_rococo_diagrams_are_listed_and_read_by_id() {
    let app = spawn_app();
    let r = app.get("/v1/puzzles?game=rococo&limit=200");
    assert_eq!(r.status, 200, "{}", r.body);
    let items = r.json()["items"].as_array().unwrap().clone();
    // The page's 25 diagram cases and the 3 mates of fixtures/puzzles/rococo.json.
    let kinds = |k: &str| items.iter().filter(|p| p["kind"] == k).count();
    assert_eq!((kinds("diagram"), kinds("mate")), (25, 3));
    assert!(items
        .iter()
        .all(|p| p["game"] == "rococo" && p["rules"].is_null()));
    let baroque = app.get("/v1/puzzles?game=baroque&limit=200").json();
    assert!(baroque["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["game"] == "baroque" && p["rules"].is_object()));
    // A Baroque preset filter lists Baroque puzzles only.
    let abbott = app.get("/v1/puzzles?rules=abbott&limit=200").json();
    assert!(abbott["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["game"] == "baroque"));

    let chameleon = items
        .iter()
        .find(|p| p["fixture"] == "rc-chameleon-leap-withdraw-approach")
        .unwrap();
    let one = app
        .get(&format!("/v1/puzzles/{}?include=outcome", chameleon["id"]))
        .json();
    assert_eq!(one["game"], "rococo");
    assert_eq!(one["fen"], format!("{CHAMELEON} -"));
    assert_eq!(one["moves"], json!(["Xb3-b5"]));
    assert_eq!(one["outcome"]["notation"], "Xb3xb5");
    assert_eq!(
        pieces(&one["outcome"]["captures"]),
        set(&[("b4", "L"), ("b2", "W"), ("b6", "A")])
    );
    assert!(one["rules"].is_null());
}

#[test]
fn a_rococo_mate_is_solved_before_it_is_stored() {
    let app = writer();
    // The Long Leaper mate with the white King on c2: the seeded fixture has it on b2.
    const MATE_IN_1: &str = "10/10/4k5/10/10/10/4L5/10/2K7/10 w 0";
    let r = post(
        &app,
        &json!({"kind": "mate", "game": "rococo", "fen": MATE_IN_1, "mate_in": 1, "keys": ["Le4-e9"], "sound": true}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let p = r.json();
    assert_eq!(p["game"], "rococo");
    assert!(p["rules"].is_null());
    assert_eq!(p["outcome"]["result"], "mate");
    assert_eq!(p["outcome"]["keys"][0]["notation"], "Le4xe9");
    let listed = app.get("/v1/puzzles?game=rococo&kind=mate").json();
    let ids: Vec<&Value> = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["id"])
        .collect();
    assert!(ids.contains(&&p["id"]), "{listed}");

    // The same puzzle in page coordinates is the same content: one row.
    let again = post(
        &app,
        &json!({"kind": "mate", "game": "rococo", "coords": "page", "fen": MATE_IN_1, "mate_in": 1, "keys": ["Ld3-d8"]}),
    );
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["id"], p["id"]);

    // Wrong keys, no mate, a missing King and Baroque rules are refused.
    let p = post(
        &app,
        &json!({"kind": "mate", "game": "rococo", "fen": MATE_IN_1, "mate_in": 1, "keys": ["Le4-e8"]}),
    )
    .problem(422, "/problems/puzzle-not-verified");
    assert!(p["reasons"][0].as_str().unwrap().contains("key"), "{p}");
    post(
        &app,
        &json!({"kind": "mate", "game": "rococo", "fen": MATE_IN_1.replace(" w ", " b "), "mate_in": 1}),
    )
    .problem(422, "/problems/puzzle-not-verified");
    post(
        &app,
        &json!({"kind": "mate", "game": "rococo", "fen": CHAMELEON, "mate_in": 1}),
    )
    .problem(422, "/problems/puzzle-not-verified");
    post(
        &app,
        &json!({"kind": "mate", "game": "rococo", "fen": MATE_IN_1, "mate_in": 1, "rules": "abbott"}),
    )
    .problem(422, "/problems/not-applicable");
    // The three seeded mates and the one stored here: nothing refused was stored.
    let rows = app.get("/v1/puzzles?game=rococo&kind=mate").json();
    assert_eq!(rows["items"].as_array().unwrap().len(), 4);
}

#[test]
fn a_rococo_diagram_posted_in_page_coordinates_is_stored_in_standard_ones() {
    let app = writer();
    // The seeded Chameleon diagram three plies on (so that it is a puzzle of its own).
    let chameleon = CHAMELEON.replace(" b 0", " b 3");
    let r = post(
        &app,
        &json!({
            "kind": "diagram", "game": "rococo", "coords": "page", "fen": chameleon,
            "moves": ["Xa2xa4"],
            "captures": [{"square": "a3", "piece": "L"}, {"square": "a1", "piece": "W"}, {"square": "a5", "piece": "A"}]
        }),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let p = r.json();
    // Moves are stored as written, their squares in standard names.
    assert_eq!(p["moves"], json!(["Xb3xb5"]));
    assert_eq!(p["fixture"], Value::Null);
    assert_eq!(
        pieces(&p["captures"]),
        set(&[("b4", "L"), ("b2", "W"), ("b6", "A")])
    );
    // Captures that the move does not make are refused, naming what it does take.
    let bad = post(
        &app,
        &json!({
            "kind": "diagram", "game": "rococo", "coords": "page", "fen": chameleon,
            "moves": ["Xa2-a4"], "captures": [{"square": "a3", "piece": "L"}]
        }),
    )
    .problem(422, "/problems/puzzle-not-verified");
    assert!(bad["reasons"][0].as_str().unwrap().contains("Lb4"), "{bad}");
}

#[test]
fn a_rococo_diagram_is_one_puzzle_whatever_notation_its_move_is_written_in() {
    let app = writer();
    // A Cannon Pawn's step, not among the fixtures, written three ways.
    let fen = "10/10/4k5/10/10/10/10/1P8/1K8/10 w 0";
    let mut ids = Vec::new();
    for (written, status) in [("Pb3-b4", 201), ("b3b4", 200), ("Pb3b4", 200)] {
        let r = post(
            &app,
            &json!({"kind": "diagram", "game": "rococo", "fen": fen, "moves": [written], "captures": []}),
        );
        assert_eq!(r.status, status, "{written}: {}", r.body);
        ids.push(r.json()["id"].clone());
    }
    assert!(ids.windows(2).all(|w| w[0] == w[1]), "{ids:?}");
    // In page coordinates too: the same move.
    let r = post(
        &app,
        &json!({"kind": "diagram", "game": "rococo", "coords": "page", "fen": fen,
                "moves": ["a2a3"], "captures": []}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["id"], ids[0]);
}

/// The examples: `/v1/solve` agrees with `/v1/verify` and `/v1/play`, since every
/// stipulation counts every legal move (one that leaves the mover's King capturable too).
#[test]
fn solve_agrees_with_verify_and_play_on_moves_that_leave_a_king_capturable() {
    let app = spawn_app();
    // A try whose only refutation is the capture of the White King.
    let s = app
        .post_json(
            "/v1/solve",
            &json!({"fen": "10/5k4/2A7/4K5/10/10/10/10/6P3/10 w 0", "mate_in": 2, "game": "rococo", "max_refutations": 2}),
        )
        .json();
    let tries = s["tries"].as_array().unwrap_or_else(|| panic!("{s}"));
    let t = tries
        .iter()
        .find(|t| t["notation"] == "Ke7-f8")
        .unwrap_or_else(|| panic!("Ke7-f8 is a try: {s}"));
    assert_eq!(t["refutations"].as_array().unwrap().len(), 1, "{t}");
    assert_eq!(t["refutations"][0]["notation"], "Kf9xf8");
    let v = app
        .post_json(
            "/v1/verify",
            &json!({"fen": "10/5k4/2A7/4K5/10/10/10/10/6P3/10 w 0", "moves": ["Ke7-f8", "Kf9xf8"], "game": "rococo"}),
        )
        .json();
    assert!(v["first_illegal"].is_null(), "{v}");
    assert_eq!(v["final_status"], "checkmate");

    // h#1: Black's King steps next to the Advancer's reach, which takes it.
    const H1: &str = "10/10/3K6/10/10/1k2S5/3A6/10/10/10 b 0";
    let h = app
        .post_json(
            "/v1/solve",
            &json!({"fen": H1, "stipulation": "h#1", "game": "rococo"}),
        )
        .json();
    assert_eq!(h["result"], "mate", "{h}");
    let lines: BTreeSet<String> = h["solutions"]
        .as_array()
        .unwrap_or_else(|| panic!("{h}"))
        .iter()
        .map(|l| {
            l.as_array()
                .unwrap()
                .iter()
                .map(|m| m["notation"].as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(lines.contains("Kb5-b6 Ad4xc5"), "{h}");
    assert!(lines.contains("Kb5-b4 Ad4xc4"), "{h}");
    for line in &lines {
        let moves: Vec<&str> = line.split(' ').collect();
        let v = app
            .post_json(
                "/v1/verify",
                &json!({"fen": H1, "moves": moves, "game": "rococo"}),
            )
            .json();
        assert!(v["first_illegal"].is_null(), "{v}");
        assert_eq!(v["final_status"], "checkmate", "{line}: {v}");
        let p = app
            .post_json(
                "/v1/play",
                &json!({"fen": H1, "stipulation": "h#1", "moves": moves, "game": "rococo"}),
            )
            .json();
        assert_eq!(p["verdict"], "solved", "{line}: {p}");
    }

    // h#2: Black's frozen Immobilizer removes itself, and the Cannon Pawn's hop takes the King.
    const H2: &str = "10/10/10/10/3k6/3iI5/6P3/5K4/10/10 b 0";
    let line = ["d5d5", "e5f5", "d6e6", "g4e6"];
    let h = app
        .post_json(
            "/v1/solve",
            &json!({"fen": H2, "stipulation": "h#2", "game": "rococo"}),
        )
        .json();
    let ucis: Vec<Vec<&str>> = h["solutions"]
        .as_array()
        .unwrap_or_else(|| panic!("{h}"))
        .iter()
        .map(|l| {
            l.as_array()
                .unwrap()
                .iter()
                .map(|m| m["uci"].as_str().unwrap())
                .collect()
        })
        .collect();
    assert!(ucis.contains(&line.to_vec()), "{h}");
    let p = app
        .post_json(
            "/v1/play",
            &json!({"fen": H2, "stipulation": "h#2", "moves": line, "game": "rococo"}),
        )
        .json();
    assert_eq!(p["verdict"], "solved", "{p}");
}

/// A Swapper next to an enemy piece can swap with it or destroy both: two moves, two `uci`s, and
/// each plays back through `/v1/verify` as the move it names.
#[test]
fn a_swap_and_a_mutual_destruction_have_uci_of_their_own() {
    let app = spawn_app();
    const FEN: &str = "10/10/10/4k5/10/4p5/4S5/10/2K7/10 w 0";
    let a = app
        .post_json("/v1/analyze", &json!({"fen": FEN, "game": "rococo"}))
        .json();
    let moves = a["moves"].as_array().unwrap_or_else(|| panic!("{a}"));
    let ucis: Vec<&str> = moves.iter().map(|m| m["uci"].as_str().unwrap()).collect();
    let unique: BTreeSet<&str> = ucis.iter().copied().collect();
    assert_eq!(unique.len(), ucis.len(), "{ucis:?}");
    let find = |notation: &str| {
        moves
            .iter()
            .find(|m| m["notation"] == notation)
            .unwrap_or_else(|| panic!("{notation}: {a}"))["uci"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(find("Se4<>e5"), "e4e5");
    assert_eq!(find("Se4*e5"), "e4e5*");
    for (uci, notation, kind) in [
        ("e4e5", "Se4<>e5", "swap"),
        ("e4e5*", "Se4*e5", "mutual_destruction"),
    ] {
        let v = app
            .post_json(
                "/v1/verify",
                &json!({"fen": FEN, "moves": [uci], "game": "rococo"}),
            )
            .json();
        assert!(v["first_illegal"].is_null(), "{v}");
        assert_eq!(v["moves"][0]["notation"], notation, "{v}");
        assert_eq!(v["moves"][0]["kind"], kind, "{v}");
    }
}

/// A helpmate line may pass through a White mated without its King taken (a Rococo side that
/// cannot keep its King still moves): `/v1/play` judges it as `/v1/solve` lists it, move by move.
#[test]
fn play_follows_a_helpmate_line_through_a_mated_white() {
    let app = spawn_app();
    const FEN: &str = "10/10/10/10/10/10/10/10/4A5/1p1Kk5 b 0";
    let line = ["Pb1-c2=I", "Ae2-g2", "Ke1-e2", "Ag2xf2"];
    let h = app
        .post_json(
            "/v1/solve",
            &json!({"fen": FEN, "stipulation": "h#2", "game": "rococo", "max_solutions": 10000}),
        )
        .json();
    assert_eq!(h["solutions_truncated"], false, "{}", h["count"]);
    let found = h["solutions"].as_array().unwrap().iter().any(|l| {
        l.as_array()
            .unwrap()
            .iter()
            .map(|m| m["notation"].as_str().unwrap())
            .collect::<Vec<_>>()
            == line
    });
    assert!(found, "the line is a solution");
    let v = app
        .post_json(
            "/v1/verify",
            &json!({"fen": FEN, "moves": line, "game": "rococo"}),
        )
        .json();
    assert!(v["first_illegal"].is_null(), "{v}");
    assert_eq!(
        v["moves"][0]["status_after"], "checkmate",
        "White is mated after the first move: {v}"
    );
    assert_eq!(v["final_status"], "checkmate", "{v}");
    for k in 1..=line.len() {
        let p = app
            .post_json(
                "/v1/play",
                &json!({"fen": FEN, "stipulation": "h#2", "moves": &line[..k], "game": "rococo"}),
            )
            .json();
        let want = if k == line.len() { "solved" } else { "correct" };
        assert_eq!(p["verdict"], want, "{k} moves: {p}");
    }
}

/// Each threat of a key has its length, and the text prints only the shortest, as problemists do:
/// after `1.Kg5-f4!` two moves threaten mate in one, two more mate in two. Each length is checked
/// against a solve of the position after the key with Black passing.
#[test]
fn threats_carry_their_length_and_the_text_prints_the_shortest() {
    let app = spawn_app();
    let fen = "10/10/6A3/10/1W8/6K3/10/10/5k4/10 w 0";
    let s = app
        .post_json(
            "/v1/solve",
            &json!({"fen": fen, "game": "rococo", "mate_in": 3}),
        )
        .json();
    let threat = s["threats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["key"]["notation"] == "Kg5-f4")
        .unwrap_or_else(|| panic!("no threat of Kg5-f4 in {s}"));
    let moves = threat["moves"].as_array().unwrap();
    let length = |n: &str| {
        moves
            .iter()
            .find(|m| m["notation"] == n)
            .unwrap_or_else(|| panic!("{n} is not a threat: {threat}"))["mate_in"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(length("Wb6-e3"), 1, "{threat}");
    assert_eq!(length("Ag8-g4"), 1, "{threat}");
    assert_eq!(length("Kf4-e4"), 2, "{threat}");
    assert_eq!(length("Ag8-d5"), 2, "{threat}");
    // Each length is the threat's own: with Black passing after the key, the threat is a key of a
    // mate in that many moves, of exactly that length.
    let after = app
        .post_json(
            "/v1/verify",
            &json!({"fen": fen, "game": "rococo", "moves": ["Kg5-f4"]}),
        )
        .json();
    let passed = after["final_fen"]
        .as_str()
        .unwrap()
        .replacen(" b ", " w ", 1);
    for m in moves {
        let k = m["mate_in"].as_u64().unwrap();
        let solved = app
            .post_json(
                "/v1/solve",
                &json!({"fen": passed, "game": "rococo", "mate_in": k, "key": m["notation"]}),
            )
            .json();
        assert_eq!(solved["intended_key"]["mate_in"], k, "{m}: {solved}");
    }
    // The text: only the two threats of mate in one.
    let text = app
        .post_json(
            "/v1/solve",
            &json!({"fen": fen, "game": "rococo", "mate_in": 3, "format": "text"}),
        )
        .body;
    let line = text
        .lines()
        .find(|l| l.starts_with("1.Kg5-f4"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("(2.Wb6-e3# 2.Ag8-g4#)"), "{line}");
    assert!(
        !line.contains("Kf4-e4") && !line.contains("Ag8-d5"),
        "{line}"
    );
}
