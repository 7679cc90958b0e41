//! `POST /v1/puzzles/{id}/attempts` over HTTP: a stored mate puzzle's Glicko-2 rating, shown in
//! the puzzle and the listing, updated by each attempt the site posts (with its token), every
//! attempt counted when many come at once; refusals name what is wrong. Run on SQLite, and on
//! PostgreSQL with `BAROQUE_TEST_DB=postgres` (CI runs both).

use crate::helpers::{spawn_app_with, TestApp};
use baroque::api::Settings;
use baroque::puzzle::rating::{attempt, Rating};
use serde_json::{json, Value};

const TOKEN: &str = "test-write-token-0123";

fn app() -> TestApp {
    spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    })
}

fn post_attempt(app: &TestApp, id: i64, body: &Value) -> crate::helpers::Reply {
    let auth = format!("Bearer {TOKEN}");
    app.send(
        "POST",
        &format!("/v1/puzzles/{id}/attempts"),
        &[("authorization", auth.as_str())],
        Some(body),
    )
}

/// The first stored puzzle of a kind and game, from the seeded fixtures.
fn first(app: &TestApp, query: &str) -> Value {
    let r = app.get(&format!("/v1/puzzles?limit=1&{query}"));
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["items"][0].clone()
}

fn rating_of(v: &Value) -> Rating {
    Rating {
        value: v["value"].as_f64().unwrap(),
        deviation: v["deviation"].as_f64().unwrap(),
        volatility: v["volatility"].as_f64().unwrap(),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * a.abs().max(1.0)
}

#[test]
fn a_mate_puzzle_starts_from_its_difficulty_and_each_attempt_moves_it() {
    let app = app();
    for game in ["baroque", "rococo"] {
        let puzzle = first(&app, &format!("kind=mate&game={game}"));
        let id = puzzle["id"].as_i64().unwrap();
        let difficulty = puzzle["difficulty"].as_u64().unwrap() as u8;
        // Before any attempt: the rating its difficulty gives.
        let start = Rating::of_difficulty(Some(difficulty));
        assert_eq!(puzzle["rating"]["attempts"], 0, "{puzzle}");
        assert_eq!(rating_of(&puzzle["rating"]), start, "{puzzle}");
        let read = app.get(&format!("/v1/puzzles/{id}")).json();
        assert_eq!(read["rating"], puzzle["rating"]);

        // A solved attempt by a new player, then a failed one by a strong player.
        let r = post_attempt(&app, id, &json!({"solved": true}));
        assert_eq!(r.status, 200, "{}", r.body);
        let answer = r.json();
        let (want_puzzle, want_player) = attempt(start, Rating::NEW_PLAYER, true);
        assert_eq!(answer["puzzle_id"], id);
        assert_eq!(answer["puzzle"]["attempts"], 1);
        let got = rating_of(&answer["puzzle"]);
        assert!(close(got.value, want_puzzle.value) && close(got.deviation, want_puzzle.deviation));
        assert!(
            got.value < start.value,
            "a solved puzzle loses points: {answer}"
        );
        assert!(close(
            answer["player"]["rating"].as_f64().unwrap(),
            want_player.value
        ));
        assert!(answer["player"]["rating"].as_f64().unwrap() > 1500.0);

        let strong = Rating {
            value: 2200.0,
            deviation: 60.0,
            volatility: 0.05,
        };
        let r = post_attempt(
            &app,
            id,
            &json!({"solved": false, "player": {"rating": 2200, "deviation": 60, "volatility": 0.05}}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let (want, _) = attempt(want_puzzle, strong, false);
        let answer = r.json();
        assert_eq!(answer["puzzle"]["attempts"], 2);
        assert!(
            close(rating_of(&answer["puzzle"]).value, want.value),
            "{answer}"
        );
        // The stored puzzle and the listing show it.
        let read = app.get(&format!("/v1/puzzles/{id}")).json();
        assert_eq!(read["rating"], answer["puzzle"]);
    }
    // A diagram has none.
    let diagram = first(&app, "kind=diagram");
    assert!(diagram.get("rating").is_none(), "{diagram}");
}

#[test]
fn attempts_at_once_lose_none() {
    let app = app();
    let puzzle = first(&app, "kind=mate");
    let id = puzzle["id"].as_i64().unwrap();
    let (threads, each) = (8, 6);
    std::thread::scope(|s| {
        for t in 0..threads {
            let app = &app;
            s.spawn(move || {
                for k in 0..each {
                    let r = post_attempt(app, id, &json!({"solved": (t + k) % 2 == 0}));
                    assert_eq!(r.status, 200, "{}", r.body);
                }
            });
        }
    });
    let read = app.get(&format!("/v1/puzzles/{id}")).json();
    assert_eq!(read["rating"]["attempts"], threads * each, "{read}");
}

#[test]
fn refusals_name_what_is_wrong() {
    let app = app();
    let mate = first(&app, "kind=mate")["id"].as_i64().unwrap();
    let diagram = first(&app, "kind=diagram")["id"].as_i64().unwrap();
    for (player, field) in [
        (json!({"deviation": -5}), "player.deviation"),
        (json!({"deviation": 400}), "player.deviation"),
        (json!({"rating": 5000}), "player.rating"),
        (json!({"volatility": 0}), "player.volatility"),
        (json!({"volatility": 1.5}), "player.volatility"),
    ] {
        let r = post_attempt(&app, mate, &json!({"solved": true, "player": player}));
        let p = r.problem(400, "/problems/invalid-rating");
        assert_eq!(p["field"], field, "{p}");
    }
    post_attempt(
        &app,
        mate,
        &json!({"solved": true, "player": {"elo": 1500}}),
    )
    .problem(400, "/problems/invalid-request");
    post_attempt(&app, mate, &json!({})).problem(400, "/problems/invalid-request");
    post_attempt(&app, diagram, &json!({"solved": true})).problem(422, "/problems/not-applicable");
    post_attempt(&app, 987_654, &json!({"solved": true})).problem(404, "/problems/not-found");
    // The site posts attempts with its token; a visitor's browser cannot.
    let r = app.post_json(
        &format!("/v1/puzzles/{mate}/attempts"),
        &json!({"solved": true}),
    );
    assert_eq!(r.status, 401, "{}", r.body);
    // Nothing refused was counted.
    let read = app.get(&format!("/v1/puzzles/{mate}")).json();
    assert_eq!(read["rating"]["attempts"], 0, "{read}");
}
