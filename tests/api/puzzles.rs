//! `/v1/puzzles` over HTTP, each test on a fresh temporary database: seeding, verification before
//! every write, idempotency, auth, pagination, reading and deleting.

use crate::helpers::{spawn_app_with, TestApp};
use baroque::api::Settings;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

const TOKEN: &str = "test-write-token-0123";
const PAWN: &str = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0";

fn app() -> TestApp {
    spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    })
}

fn auth() -> [(&'static str, String); 1] {
    [("authorization", format!("Bearer {TOKEN}"))]
}

fn post(app: &TestApp, body: &Value) -> crate::helpers::Reply {
    let h = auth();
    app.send(
        "POST",
        "/v1/puzzles",
        &[(h[0].0, h[0].1.as_str())],
        Some(body),
    )
}

/// Every puzzle, following `next_cursor` with pages of `limit`.
fn all(app: &TestApp, query: &str, limit: u32) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/puzzles?limit={limit}{query}");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let r = app.get(&path);
        assert_eq!(r.status, 200, "{}", r.body);
        let page = r.json();
        let got = page["items"].as_array().unwrap();
        assert!(got.len() <= limit as usize);
        items.extend(got.iter().cloned());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    items
}

/// The diagram cases of fixtures/diagrams (Baroque and Rococo), by id, with the captures the
/// engine finds.
fn fixture_cases() -> BTreeMap<String, Vec<Value>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagrams");
    let mut out = BTreeMap::new();
    for path in baroque::cases::files_in(&dir).unwrap() {
        let file = baroque::cases::read_file(&path).unwrap();
        for case in &file.cases {
            let o = case.verify(file.game);
            assert!(o.ok(), "{}", case.id);
            let caps = o
                .last_move
                .map(|m| serde_json::to_value(m.captures).unwrap())
                .unwrap_or(json!([]));
            out.insert(case.id.clone(), caps.as_array().unwrap().clone());
        }
    }
    out
}

fn as_set(v: &[Value]) -> BTreeSet<String> {
    v.iter().map(|c| c.to_string()).collect()
}

#[test]
fn the_seeded_diagrams_are_listed_with_the_engines_captures() {
    let app = app();
    let cases = fixture_cases();
    assert!(cases.len() >= 30, "{}", cases.len());
    let items = all(&app, "&kind=diagram", 50);
    assert_eq!(items.len(), cases.len());
    for item in &items {
        let id = item["fixture"]
            .as_str()
            .expect("a seeded diagram names its fixture");
        let want = &cases[id];
        assert_eq!(
            as_set(item["captures"].as_array().unwrap()),
            as_set(want),
            "{id}"
        );
        if item["game"] == "baroque" {
            assert!(
                item["moves"].as_array().is_some_and(|m| !m.is_empty()),
                "{id}"
            );
        }
        assert!(
            item["source"].as_str().is_some_and(|s| !s.is_empty()),
            "{id}"
        );
        for field in ["id", "kind", "fen", "title"] {
            assert!(!item[field].is_null(), "{id} {field}");
        }
        // Rococo has one rule set: null; a Baroque puzzle names its own.
        assert_eq!(item["rules"].is_null(), item["game"] == "rococo", "{id}");
        assert!(
            item.get("outcome").is_none(),
            "listings leave the outcome out"
        );
    }
    let ids: BTreeSet<&str> = items
        .iter()
        .map(|i| i["fixture"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), cases.len());
    // The seeded mates of fixtures/puzzles.
    let mates = all(&app, "&kind=mate", 50);
    let mate_ids: BTreeSet<&str> = mates
        .iter()
        .map(|i| i["fixture"].as_str().unwrap())
        .collect();
    for id in [
        "wp-king-mate-in-1",
        "wp-king-mate-in-2-unsound",
        "wp-chameleon-mate-in-2",
    ] {
        assert!(mate_ids.contains(id), "{id}");
    }
    let one = app.get(&format!("/v1/puzzles/{}?include=outcome", mates[0]["id"]));
    assert_eq!(one.status, 200);
    assert_eq!(one.json()["outcome"]["result"], "mate");
}

#[test]
fn a_contradicted_puzzle_is_refused_and_stores_nothing() {
    let app = app();
    let before = all(&app, "", 200).len();
    let wrong = json!({"kind": "diagram", "fen": PAWN, "rules": "abbott", "moves": ["Pc2c4"],
                       "captures": [{"square": "c5", "piece": "n"}], "title": "wrong"});
    let r = post(&app, &wrong);
    let p = r.problem(422, "/problems/puzzle-not-verified");
    let reasons = p["reasons"].as_array().unwrap();
    assert!(reasons[0].as_str().unwrap().contains("expected nc5"), "{p}");
    let no_mate = json!({"kind": "mate", "fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1,
                         "keys": ["Kc4-c5"]});
    let r = post(&app, &no_mate);
    r.problem(422, "/problems/puzzle-not-verified");
    let illegal = json!({"kind": "diagram", "fen": PAWN, "moves": ["Pc2c5"], "captures": []});
    post(&app, &illegal).problem(422, "/problems/puzzle-not-verified");
    let missing = json!({"kind": "diagram", "fen": PAWN, "moves": ["Pc2c4"]});
    post(&app, &missing).problem(422, "/problems/puzzle-not-verified");
    let bad_fen = json!({"kind": "diagram", "fen": "8/8 w 0", "moves": ["Pc2c4"], "captures": []});
    post(&app, &bad_fen).problem(422, "/problems/invalid-fen");
    assert_eq!(all(&app, "", 200).len(), before);
}

/// A puzzle claims either a diagram's move or a mate: fields of the other kind are refused, each
/// with the reason, and nothing is stored.
#[test]
fn a_claim_of_one_kind_refuses_the_fields_of_the_other() {
    let app = app();
    let before = all(&app, "", 200).len();
    let cases = [
        (
            json!({"kind": "diagram", "fen": PAWN, "moves": ["Pc2c4"], "captures": [], "mate_in": 1}),
            "a diagram takes `moves` and `captures`, not `mate_in`, `keys` or `sound`",
        ),
        (
            json!({"kind": "diagram", "fen": PAWN, "moves": ["Pc2c4"], "captures": [], "sound": true}),
            "a diagram takes `moves` and `captures`, not `mate_in`, `keys` or `sound`",
        ),
        (
            json!({"kind": "mate", "fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1, "moves": ["Kc4-c5"]}),
            "a mate takes `mate_in` (and optionally `keys` and `sound`), not `moves`, `captures` or `status`",
        ),
        (
            json!({"kind": "mate", "fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1, "status": "check"}),
            "a mate takes `mate_in` (and optionally `keys` and `sound`), not `moves`, `captures` or `status`",
        ),
        (
            json!({"kind": "mate", "fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0"}),
            "a mate needs `mate_in` or `stipulation`",
        ),
        (
            json!({"kind": "diagram", "fen": PAWN, "moves": ["Pc2c4"], "captures": [], "stipulation": "h#1"}),
            "a diagram takes `moves` and `captures`, not `stipulation`, `solutions` or `intended_solutions`",
        ),
        (
            json!({"kind": "mate", "fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 1, "solutions": [["Kc4-d5"]]}),
            "`solutions` and `intended_solutions` are a helpmate's or a series mover's; this puzzle is neither",
        ),
    ];
    for (body, reason) in cases {
        let p = post(&app, &body).problem(422, "/problems/puzzle-not-verified");
        assert_eq!(p["reasons"], json!([reason]), "{body}: {p}");
    }
    assert_eq!(all(&app, "", 200).len(), before);
}

#[test]
fn a_mate_the_budget_cannot_settle_is_refused() {
    let app = spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        solve_max_millis: 100,
        ..Settings::for_tests()
    });
    let start = json!({"kind": "mate", "fen": "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0",
                       "mate_in": 5});
    let r = post(&app, &start);
    let p = r.problem(422, "/problems/solver-budget-exhausted");
    assert!(p["detail"].as_str().unwrap().contains("budget"), "{p}");
    assert!(all(&app, "&kind=mate&mate_in=5", 50).is_empty());
}

#[test]
fn posting_the_same_puzzle_twice_stores_one_row() {
    let app = app();
    let before = all(&app, "", 200).len();
    let body = json!({"kind": "diagram", "fen": PAWN, "rules": "abbott", "moves": ["Pc2c4"],
                      "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}],
                      "status": "ongoing", "title": "Pawn under abbott", "source": "a test",
                      "tags": ["pawn", "test"]});
    let r = post(&app, &body);
    assert_eq!(r.status, 201, "{}", r.body);
    let first = r.json();
    let id = first["id"].as_i64().unwrap();
    assert_eq!(
        r.header("location"),
        Some(format!("/v1/puzzles/{id}").as_str())
    );
    assert_eq!(first["outcome"]["notation"], "Pc2xc4");
    assert_eq!(first["tags"], json!(["pawn", "test"]));
    // The same content written otherwise (Baroque letters, another move form): the same row.
    let again = json!({"kind": "diagram", "fen": "7k/5ppp/2L5/2l5/3cX3/8/PPP5/K7 w 0",
                       "rules": {"preset": "abbott"}, "moves": ["c2c4"],
                       "captures": [{"square": "d4", "piece": "r"}, {"square": "c5", "piece": "n"}]});
    let r = post(&app, &again);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["id"], id);
    assert_eq!(all(&app, "", 200).len(), before + 1);
    // A seeded mate posted again is the seeded row.
    let chameleon = json!({"kind": "mate", "fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
                           "mate_in": 2, "keys": ["Xg6-e6-c6"], "sound": true});
    let r = post(&app, &chameleon);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["fixture"], "wp-chameleon-mate-in-2");
    assert_eq!(r.json()["outcome"]["keys"][0]["notation"], "Bg6xc6");
}

#[test]
fn writes_are_refused_without_a_configured_token_without_a_token_and_with_a_wrong_one() {
    let body = json!({"kind": "diagram", "fen": PAWN, "moves": ["Pc2c4"], "captures": []});
    let open = spawn_app_with(Settings::for_tests());
    let r = open.send(
        "POST",
        "/v1/puzzles",
        &[("authorization", "Bearer x")],
        Some(&body),
    );
    let p = r.problem(403, "/problems/writes-disabled");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("BAROQUE_WRITE_TOKEN"),
        "{p}"
    );
    open.send("DELETE", "/v1/puzzles/1", &[], None)
        .problem(403, "/problems/writes-disabled");

    let app = app();
    let before = all(&app, "", 200).len();
    let r = app.send("POST", "/v1/puzzles", &[], Some(&body));
    r.problem(401, "/problems/unauthorized");
    assert!(r
        .header("www-authenticate")
        .is_some_and(|h| h.starts_with("Bearer")));
    let wrong = [("authorization", "Bearer test-write-token-0124")];
    app.send("POST", "/v1/puzzles", &wrong, Some(&body))
        .problem(401, "/problems/unauthorized");
    app.send(
        "POST",
        "/v1/puzzles",
        &[("authorization", "Basic dTpw")],
        Some(&body),
    )
    .problem(401, "/problems/unauthorized");
    app.send("DELETE", "/v1/puzzles/1", &wrong, None)
        .problem(401, "/problems/unauthorized");
    app.send("DELETE", "/v1/puzzles/1", &[], None)
        .problem(401, "/problems/unauthorized");
    assert_eq!(all(&app, "", 200).len(), before);
    // Reads are open.
    assert_eq!(app.get("/v1/puzzles/1").status, 200);
}

#[test]
fn pagination_visits_every_row_once() {
    let app = app();
    let everything = all(&app, "", 200);
    assert!(everything.len() > 30);
    for limit in [1, 7, 50] {
        let items = all(&app, "", limit);
        let ids: Vec<i64> = items.iter().map(|i| i["id"].as_i64().unwrap()).collect();
        let unique: BTreeSet<i64> = ids.iter().copied().collect();
        assert_eq!(ids.len(), everything.len(), "limit {limit}");
        assert_eq!(unique.len(), ids.len(), "limit {limit}");
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }
    // Filters page the same way.
    let vchess = all(&app, "&rules=vchess", 3);
    assert!(!vchess.is_empty());
    assert!(vchess.iter().all(|i| i["rules"]["preset"] == "vchess"));
    // Two Wikipedia mates in 2 and two Rococo ones.
    let tagged = all(&app, "&tag=fixture&kind=mate&mate_in=2", 1);
    assert_eq!(tagged.len(), 4);
    let source = everything[0]["source"].as_str().unwrap().to_string();
    let from = all(
        &app,
        &format!(
            "&source={}",
            source
                .replace(' ', "%20")
                .replace(':', "%3A")
                .replace('(', "%28")
                .replace(')', "%29")
        ),
        10,
    );
    assert!(!from.is_empty() && from.iter().all(|i| i["source"] == source.as_str()));
    // Bad parameters.
    for (query, parameter) in [
        ("limit=0", "limit"),
        ("limit=201", "limit"),
        ("cursor=abc", "cursor"),
        // An empty cursor and a signed one are not cursors this service gave (schemathesis).
        ("cursor=", "cursor"),
        ("cursor=%2B5", "cursor"),
        // N of a mate is 1 to 12, as documented (schemathesis).
        ("mate_in=0", "mate_in"),
        ("mate_in=13", "mate_in"),
    ] {
        let p = app
            .get(&format!("/v1/puzzles?{query}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{query}: {p}");
    }
    for query in ["kind=study", "colour=white", "limit=x"] {
        let p = app
            .get(&format!("/v1/puzzles?{query}"))
            .problem(400, "/problems/invalid-request");
        assert_eq!(p["title"], "Invalid query string", "{query}: {p}");
        assert!(!p["detail"].as_str().unwrap().contains("body"), "{p}");
    }
}

#[test]
fn a_puzzle_is_read_and_deleted_by_id() {
    let app = app();
    let first = &all(&app, "&rules=vchess", 1)[0];
    let id = first["id"].as_i64().unwrap();
    // The puzzle as listed; its outcome on request, or alone.
    let r = app.get(&format!("/v1/puzzles/{id}"));
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["id"], id);
    assert!(r.json().get("outcome").is_none(), "{}", r.body);
    let full = app.get(&format!("/v1/puzzles/{id}?include=outcome"));
    assert_eq!(full.status, 200);
    assert_eq!(full.json()["outcome"]["legal"], true);
    assert_ne!(full.header("etag"), r.header("etag"));
    let outcome = app.get(&format!("/v1/puzzles/{id}/outcome"));
    assert_eq!(outcome.status, 200);
    assert_eq!(outcome.json(), full.json()["outcome"]);
    let tag = outcome.header("etag").unwrap().to_string();
    let again = app.send(
        "GET",
        &format!("/v1/puzzles/{id}/outcome"),
        &[("if-none-match", &tag)],
        None,
    );
    assert_eq!(again.status, 304);
    let p = app
        .get(&format!("/v1/puzzles/{id}?include=tree"))
        .problem(400, "/problems/invalid-parameter");
    assert_eq!(p["parameter"], "include", "{p}");
    let h = auth();
    let headers = [(h[0].0, h[0].1.as_str())];
    let r = app.send("DELETE", &format!("/v1/puzzles/{id}"), &headers, None);
    assert_eq!(r.status, 204, "{}", r.body);
    app.get(&format!("/v1/puzzles/{id}"))
        .problem(404, "/problems/not-found");
    app.get(&format!("/v1/puzzles/{id}/outcome"))
        .problem(404, "/problems/not-found");
    app.send("DELETE", &format!("/v1/puzzles/{id}"), &headers, None)
        .problem(404, "/problems/not-found");
    app.get("/v1/puzzles/abc")
        .problem(404, "/problems/not-found");
    app.request("PUT", "/v1/puzzles/1")
        .problem(405, "/problems/method-not-allowed");
}

#[test]
fn a_contradicted_fixture_stops_start_up_naming_it() {
    let fixtures = tempfile::tempdir().unwrap();
    std::fs::create_dir(fixtures.path().join("diagrams")).unwrap();
    let case = json!({"document": "a test", "cases": [
        {"id": "pawn-right", "fen": PAWN, "rules": "vchess", "moves": ["Pc2c4"],
         "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}]},
        {"id": "pawn-claims-one-capture", "fen": PAWN, "rules": "vchess", "moves": ["Pc2c4"],
         "captures": [{"square": "c5", "piece": "n"}]}
    ]});
    std::fs::write(fixtures.path().join("diagrams/test.json"), case.to_string()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("baroque.db");
    let err = baroque::api::Application::build(Settings {
        db: db.clone().into(),
        fixtures: Some(fixtures.path().to_path_buf()),
        ..Settings::for_tests()
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("pawn-claims-one-capture"), "{err}");
    assert!(err.contains("test.json"), "{err}");
    // Nothing was stored: the database holds no puzzle.
    let store = baroque::store::Store::open(&db).unwrap();
    assert_eq!(store.count().unwrap(), 0);
    // A missing fixtures directory is an error too.
    let err = baroque::api::Application::build(Settings {
        db: db.into(),
        fixtures: Some(fixtures.path().join("nowhere")),
        ..Settings::for_tests()
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("BAROQUE_FIXTURES"), "{err}");
}

#[test]
fn concurrent_writers_lose_no_row() {
    let app = std::sync::Arc::new(app());
    let before = all(&app, "", 200).len();
    let mut handles = Vec::new();
    for preset in ["abbott", "cambridge"] {
        for leaper in ["long", "single"] {
            for suicide in ["on", "off"] {
                let app = app.clone();
                handles.push(std::thread::spawn(move || {
                    let body = json!({"kind": "diagram", "fen": PAWN, "moves": ["Pc2c4"],
                        "rules": {"preset": preset, "leaper": leaper, "suicide": suicide},
                        "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}]});
                    let r = post(&app, &body);
                    assert_eq!(r.status, 201, "{}", r.body);
                    r.json()["id"].as_i64().unwrap()
                }));
            }
        }
    }
    let ids: BTreeSet<i64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(ids.len(), 8);
    assert_eq!(all(&app, "", 200).len(), before + 8);
}

#[test]
fn a_stored_puzzle_has_a_strong_etag_and_answers_304_to_it() {
    let app = crate::helpers::spawn_app();
    let first = app.get("/v1/puzzles/1");
    assert_eq!(first.status, 200, "{}", first.body);
    let tag = first.header("etag").expect("an ETag").to_string();
    assert!(tag.starts_with('"') && tag.len() == 34, "{tag}");
    // The same answer, the same tag.
    assert_eq!(app.get("/v1/puzzles/1").header("etag"), Some(tag.as_str()));
    for named in [
        tag.clone(),
        format!("W/{tag}"),
        format!("\"other\", {tag}"),
        "*".into(),
    ] {
        let r = app.send("GET", "/v1/puzzles/1", &[("if-none-match", &named)], None);
        assert_eq!(r.status, 304, "{named}");
        assert!(r.body.is_empty());
        assert_eq!(r.header("etag"), Some(tag.as_str()));
    }
    let r = app.send(
        "GET",
        "/v1/puzzles/1",
        &[("if-none-match", "\"stale\"")],
        None,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.json(), first.json());
    // Another puzzle, another tag.
    assert_ne!(app.get("/v1/puzzles/2").header("etag"), Some(tag.as_str()));
}

/// Stipulations in the store: a helpmate and a selfmate are verified (their solutions and keys
/// must match what they claim), stored with their stipulation, deduplicated on it, and listed by
/// it; the seeded direct mates read as `#N`.
#[test]
fn helpmates_and_selfmates_are_verified_stored_and_listed_by_stipulation() {
    let app = app();
    let help_fen = "8/8/8/8/1K6/1M1k4/8/8 b 0";
    // A wrong claim: the reasons say what the solver found.
    let wrong = json!({"kind": "mate", "fen": help_fen, "stipulation": "h#1",
                       "solutions": [["Kd3-e3", "Kb4-c4"]]});
    let p = post(&app, &wrong).problem(422, "/problems/puzzle-not-verified");
    let reason = p["reasons"][0].as_str().unwrap();
    assert!(reason.contains("Kd3-c2 Kb4-c3"), "{p}");
    let not_moves = json!({"kind": "mate", "fen": help_fen, "stipulation": "h#1",
                           "solutions": [["Kd3-d8"]]});
    post(&app, &not_moves).problem(422, "/problems/puzzle-not-verified");
    let wrong_side =
        json!({"kind": "mate", "fen": "8/8/8/8/1K6/1M1k4/8/8 w 0", "stipulation": "h#1"});
    let p = post(&app, &wrong_side).problem(422, "/problems/puzzle-not-verified");
    assert!(
        p["reasons"][0]
            .as_str()
            .unwrap()
            .contains("starts with black"),
        "{p}"
    );
    post(
        &app,
        &json!({"kind": "mate", "fen": help_fen, "stipulation": "h#x"}),
    )
    .problem(422, "/problems/invalid-stipulation");
    // The helpmate, in another notation: stored with its stipulation and its one solution.
    let help = json!({"kind": "mate", "fen": help_fen, "stipulation": "h#1",
                      "solutions": [["d3c2", "b4c3"]], "sound": true});
    let r = post(&app, &help);
    assert_eq!(r.status, 201, "{}", r.body);
    let stored = r.json();
    assert_eq!(stored["stipulation"], "h#1");
    assert_eq!(stored["mate_in"], 1);
    assert_eq!(stored["outcome"]["count"], 1);
    assert_eq!(stored["outcome"]["solutions"][0][0]["notation"], "Kd3-c2");
    // Posted again: the same row. The same position as h#2 is another puzzle.
    let r = post(&app, &help);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["id"], stored["id"]);
    let r = post(
        &app,
        &json!({"kind": "mate", "fen": help_fen, "stipulation": "h#2"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["outcome"]["sound"], false);
    // A selfmate whose key is claimed: verified against the solver.
    let self_fen = "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0";
    let p = post(
        &app,
        &json!({"kind": "mate", "fen": self_fen, "stipulation": "s#1",
                               "keys": ["Bd3-c2"]}),
    )
    .problem(422, "/problems/puzzle-not-verified");
    assert!(
        p["reasons"][0]
            .as_str()
            .unwrap()
            .contains("the keys of s#1 are Bd3-e2"),
        "{p}"
    );
    let r = post(
        &app,
        &json!({"kind": "mate", "fen": self_fen, "stipulation": "s#1",
                               "keys": ["Bd3-e2"], "sound": true}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let selfmate = r.json();
    assert_eq!(selfmate["stipulation"], "s#1");
    assert_eq!(selfmate["outcome"]["tree"][0]["defences"][0]["mates"], true);
    // Listing by stipulation (URL-encoded); the seeded mates are direct mates.
    let ids = |query: &str| -> Vec<Value> {
        all(&app, query, 50)
            .iter()
            .map(|p| p["id"].clone())
            .collect()
    };
    assert_eq!(ids("&stipulation=h%231"), [stored["id"].clone()]);
    assert_eq!(ids("&stipulation=s%231"), [selfmate["id"].clone()]);
    let direct = all(&app, "&kind=mate&stipulation=%231", 50);
    assert!(!direct.is_empty());
    assert!(direct
        .iter()
        .all(|p| p["stipulation"] == "#1" && p["mate_in"] == 1));
    app.get("/v1/puzzles?stipulation=x%232")
        .problem(400, "/problems/invalid-parameter");
}

/// The fixtures' mate puzzles ordered by difficulty: every mate has one (0 to 100), a diagram
/// none; the Wikipedia King mate in 1 comes before the Chameleon mate in 2; paging through the
/// sorted list with any page size gives the same list; the bounds filter it.
#[test]
fn mates_are_listed_and_filtered_by_difficulty() {
    let app = app();
    let sorted = all(&app, "&kind=mate&sort=difficulty", 200);
    let mates = all(&app, "&kind=mate", 200);
    assert_eq!(sorted.len(), mates.len());
    assert!(sorted.len() >= 6);
    let key = |p: &Value| (p["difficulty"].as_u64().unwrap(), p["id"].as_i64().unwrap());
    for p in &sorted {
        assert!(key(p).0 <= 100, "{p}");
    }
    assert!(sorted.windows(2).all(|w| key(&w[0]) < key(&w[1])));
    let place = |fixture: &str| {
        sorted
            .iter()
            .position(|p| p["fixture"] == fixture)
            .unwrap_or_else(|| panic!("{fixture} is listed"))
    };
    assert!(place("wp-king-mate-in-1") < place("wp-chameleon-mate-in-2"));
    assert!(place("wp-king-mate-in-1") < place("wp-king-mate-in-2-unsound"));
    assert!(place("rc-leaper-takes-king-in-1") < place("rc-immobilizer-freezes-all-in-2"));
    // Every page size pages through the same list, diagrams left out.
    for limit in [1, 2, 5] {
        assert_eq!(
            all(&app, "&sort=difficulty", limit),
            sorted,
            "limit {limit}"
        );
    }
    // A diagram has no difficulty, and the one read by id has the listed difficulty.
    let diagram = &all(&app, "&kind=diagram", 200)[0];
    assert_eq!(diagram["difficulty"], Value::Null);
    let id = sorted[0]["id"].as_i64().unwrap();
    assert_eq!(
        app.get(&format!("/v1/puzzles/{id}")).json()["difficulty"],
        sorted[0]["difficulty"]
    );
    // Bounds: inclusive, any order, diagrams left out.
    let (lo, hi) = (key(&sorted[1]).0, key(&sorted[sorted.len() - 2]).0);
    let within: Vec<Value> = sorted
        .iter()
        .filter(|p| (lo..=hi).contains(&key(p).0))
        .cloned()
        .collect();
    let query = format!("&difficulty_min={lo}&difficulty_max={hi}");
    assert_eq!(all(&app, &format!("{query}&sort=difficulty"), 2), within);
    let by_id = all(&app, &query, 2);
    assert_eq!(by_id.len(), within.len());
    assert!(by_id
        .windows(2)
        .all(|w| w[0]["id"].as_i64() < w[1]["id"].as_i64()));
    assert!(all(&app, "&difficulty_min=0&difficulty_max=100", 200)
        .iter()
        .all(|p| p["kind"] == "mate"));
    // A posted mate gets its difficulty too: a helpmate in 1 (two half-moves) with one solution
    // and three pieces, 12 + 10 + 0 by the formula of docs/src/api/store.md.
    let r = post(
        &app,
        &json!({"kind": "mate", "fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#1"}),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.json()["difficulty"], 22);
    // Bad parameters name themselves.
    for (query, parameter) in [
        ("difficulty_min=101", "difficulty_min"),
        ("difficulty_min=-1", "difficulty_min"),
        ("difficulty_max=abc", "difficulty_max"),
        ("difficulty_max=2.5", "difficulty_max"),
        ("difficulty_min=60&difficulty_max=20", "difficulty_min"),
        ("sort=name", "sort"),
        ("sort=difficulty&cursor=12", "cursor"),
        ("sort=difficulty&cursor=101.5", "cursor"),
        ("sort=difficulty&cursor=a.b", "cursor"),
        ("cursor=12.5", "cursor"),
    ] {
        let p = app
            .get(&format!("/v1/puzzles?{query}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{query}: {p}");
    }
}
