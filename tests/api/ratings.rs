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
    // The attempts are counted in the metrics, by whether they solved.
    let metrics = app.get("/metrics").body;
    assert!(
        metrics.contains("# HELP baroque_puzzle_attempts_total players' attempts"),
        "{metrics}"
    );
    // (The counters are the process's: other tests' attempts may be counted too.)
    for solved in ["true", "false"] {
        let name = format!("baroque_puzzle_attempts_total{{solved=\"{solved}\"}} ");
        let count: f64 = metrics
            .lines()
            .find_map(|l| l.strip_prefix(&name))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name} in {metrics}"));
        assert!(count >= 2.0, "{name}{count}");
    }
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

/// Every stored mate puzzle of the listing, with its rating, as (id, rating, game, stipulation).
fn mates(app: &TestApp) -> Vec<Mate> {
    mates_tagged(app).into_iter().map(|(p, _)| p).collect()
}

/// A stored mate puzzle as (id, rating, game, stipulation).
type Mate = (i64, f64, String, String);

/// [`mates`], each with its tags.
fn mates_tagged(app: &TestApp) -> Vec<(Mate, Vec<String>)> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = "/v1/puzzles?kind=mate&limit=200".to_string();
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let page = app.get(&path).json();
        for p in page["items"].as_array().unwrap() {
            let tags = p["tags"]
                .as_array()
                .map(|t| {
                    t.iter()
                        .filter_map(|t| t.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default();
            out.push((
                (
                    p["id"].as_i64().unwrap(),
                    p["rating"]["value"].as_f64().unwrap(),
                    p["game"].as_str().unwrap().to_string(),
                    p["stipulation"].as_str().unwrap().to_string(),
                ),
                tags,
            ));
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    out
}

/// `GET /v1/puzzles/next` against a scan of the listing: the puzzle given is one of the nearest
/// to the rating (within 50 points of the nearest, or half the deviation), passes the filters,
/// is never excluded, and is the same for the same seed; none left is 404 `no-puzzle`.
#[test]
fn the_next_puzzle_is_near_the_player_s_rating_within_the_filters() {
    let app = app();
    // Thirty generated mates in one besides the fixtures, for themes that more than the twenty
    // candidates have, and a collection.
    let auth = format!("Bearer {TOKEN}");
    let job = app.send(
        "POST",
        "/v1/collections",
        &[("authorization", auth.as_str())],
        Some(&json!({"name": "ones", "mate_in": 1, "count": 30, "seed": 5, "max_pieces": 7})),
    );
    assert_eq!(job.status, 202, "{}", job.body);
    let url = job.json()["url"].as_str().unwrap().to_string();
    let job = app.job_ended(&url, std::time::Duration::from_secs(120));
    assert_eq!(job["state"], "done", "{job}");
    let collection: Vec<i64> = job["puzzle_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    let tagged = mates_tagged(&app);
    let all: Vec<Mate> = tagged.iter().map(|(p, _)| p.clone()).collect();
    assert!(all.len() >= 5, "{all:?}");
    // The commonest theme (the walk finds enough along the rating index) and the rarest (it reads
    // the theme's own rows).
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    for (_, tags) in &tagged {
        for t in tags {
            *counts.entry(t.as_str()).or_default() += 1;
        }
    }
    let common = counts
        .iter()
        .max_by_key(|(_, n)| **n)
        .map(|(t, _)| *t)
        .unwrap();
    let rare = counts
        .iter()
        .min_by_key(|(_, n)| **n)
        .map(|(t, _)| *t)
        .unwrap();
    assert!(counts[common] > 20 && counts[rare] < 20, "{counts:?}");
    let common_query = format!("&theme={common}");
    let rare_query = format!("&game=baroque&theme={rare}");
    let rare_tagged = tagged
        .iter()
        .filter(|((_, _, game, _), tags)| game == "baroque" && tags.iter().any(|t| t == rare))
        .count();
    assert!(rare_tagged > 0, "{rare}");
    for (rating, query) in [
        (1000.0, ""),
        (1760.0, ""),
        (2500.0, "&deviation=300"),
        (1500.0, "&game=rococo"),
        (1500.0, "&stipulation=%23"),
        (1900.0, "&game=baroque&stipulation=%232"),
        (1700.0, common_query.as_str()),
        (2200.0, rare_query.as_str()),
        (1300.0, "&collection=ones"),
        (2900.0, "&collection=ones&stipulation=%231"),
    ] {
        let theme = query.split("theme=").nth(1);
        let allowed: Vec<&(i64, f64, String, String)> = tagged
            .iter()
            .filter(|((_, _, game, stipulation), tags)| {
                (!query.contains("game=rococo") || game == "rococo")
                    && (!query.contains("game=baroque") || game == "baroque")
                    && (!query.contains("stipulation=%23")
                        || (stipulation.starts_with('#')
                            && (!query.contains("%232") || stipulation == "#2")))
                    && theme.is_none_or(|t| tags.iter().any(|x| x == t))
            })
            .filter(|((id, ..), _)| !query.contains("collection=ones") || collection.contains(id))
            .map(|(p, _)| p)
            .collect();
        assert!(!allowed.is_empty(), "{query}");
        let nearest = allowed
            .iter()
            .map(|p| (p.1 - rating).abs())
            .fold(f64::INFINITY, f64::min);
        let reach = if query.contains("deviation=300") {
            150.0
        } else {
            50.0
        };
        for seed in [1, 2, 3] {
            let path = format!("/v1/puzzles/next?rating={rating}{query}&seed={seed}");
            let r = app.get(&path);
            assert_eq!(r.status, 200, "{path}: {}", r.body);
            let got = r.json();
            let id = got["id"].as_i64().unwrap();
            let p = allowed
                .iter()
                .find(|p| p.0 == id)
                .unwrap_or_else(|| panic!("{path}: {id} passes the filters"));
            assert!(
                (p.1 - rating).abs() <= nearest + reach + 1e-9,
                "{path}: {p:?}, nearest {nearest}"
            );
            assert!(got.get("outcome").is_none());
            assert_eq!(
                app.get(&path).json()["id"],
                id,
                "the same seed, the same puzzle"
            );
        }
    }
    // Excluded puzzles are never given; with all of them excluded, none is left.
    let ids: Vec<String> = all.iter().map(|p| p.0.to_string()).collect();
    let keep = &all[all.len() / 2];
    let others: Vec<&str> = ids
        .iter()
        .filter(|i| **i != keep.0.to_string())
        .map(String::as_str)
        .collect();
    let got = app
        .get(&format!(
            "/v1/puzzles/next?rating=1200&exclude={}",
            others.join(",")
        ))
        .json();
    assert_eq!(got["id"], keep.0);
    app.get(&format!(
        "/v1/puzzles/next?rating=1200&exclude={}",
        ids.join(",")
    ))
    .problem(404, "/problems/no-puzzle");
    // Bad input names its parameter.
    for (query, parameter) in [
        ("rating=-3", "rating"),
        ("rating=5000", "rating"),
        ("rating=1500&deviation=0", "deviation"),
        ("rating=1500&exclude=1,x", "exclude"),
    ] {
        let p = app
            .get(&format!("/v1/puzzles/next?{query}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{query}");
    }
    assert_eq!(
        app.get("/v1/puzzles/next?rating=1500&colour=white").status,
        400
    );
    assert_eq!(app.get("/v1/puzzles/next").status, 400);
    // `next` is no puzzle id: another method is 405, not `DELETE /v1/puzzles/{id}`'s 404.
    let r = app.request("DELETE", "/v1/puzzles/next");
    assert_eq!(r.status, 405, "{}", r.body);
    assert_eq!(r.header("allow"), Some("GET, HEAD"));
}

/// Every puzzle of a listing, page by page, as (id, rating or none).
fn listed(app: &TestApp, query: &str, limit: u32) -> Vec<(i64, Option<f64>)> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/puzzles?limit={limit}{query}");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let r = app.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        let page = r.json();
        for p in page["items"].as_array().unwrap() {
            out.push((p["id"].as_i64().unwrap(), p["rating"]["value"].as_f64()));
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    out
}

/// The listing filtered and sorted by rating, against a scan of the whole listing: after some
/// attempts moved ratings off their difficulty's, `sort=rating` pages through every mate puzzle by
/// increasing rating then id, and `rating=MIN..MAX` keeps exactly those within; bad bounds and
/// cursors name their parameter.
#[test]
fn the_listing_filters_and_sorts_by_rating() {
    let app = app();
    let all = mates(&app);
    // Move two ratings: a solved attempt lowers one, a failed one raises another.
    post_attempt(&app, all[0].0, &json!({"solved": true}));
    post_attempt(&app, all[1].0, &json!({"solved": false}));
    let scan: Vec<(i64, Option<f64>)> = listed(&app, "", 200);
    let mut rated: Vec<(i64, f64)> = scan
        .iter()
        .filter_map(|&(id, r)| r.map(|r| (id, r)))
        .collect();
    assert_eq!(rated.len(), all.len());
    rated.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    for limit in [1, 2, 3, 200] {
        let sorted: Vec<(i64, f64)> = listed(&app, "&sort=rating", limit)
            .into_iter()
            .map(|(id, r)| (id, r.unwrap()))
            .collect();
        assert_eq!(sorted, rated, "pages of {limit}");
    }
    for (range, lo, hi) in [
        ("1300..1700", 1300.0, 1700.0),
        ("1500..", 1500.0, 4000.0),
        ("..1400", 0.0, 1400.0),
    ] {
        let want: Vec<i64> = scan
            .iter()
            .filter(|(_, r)| r.is_some_and(|r| (lo..=hi).contains(&r)))
            .map(|p| p.0)
            .collect();
        let got: Vec<i64> = listed(&app, &format!("&rating={range}"), 2)
            .into_iter()
            .map(|p| p.0)
            .collect();
        assert_eq!(got, want, "{range}");
        let by_rating: Vec<i64> = listed(&app, &format!("&rating={range}&sort=rating"), 2)
            .into_iter()
            .map(|p| p.0)
            .collect();
        let mut sorted_want: Vec<i64> = rated
            .iter()
            .filter(|(_, r)| (lo..=hi).contains(r))
            .map(|p| p.0)
            .collect();
        assert_eq!(
            by_rating,
            std::mem::take(&mut sorted_want),
            "{range} by rating"
        );
    }
    for (query, parameter) in [
        ("rating=abc", "rating"),
        ("rating=1700..1300", "rating"),
        ("rating=..5000", "rating"),
        ("sort=rating&cursor=43.62", "cursor"),
        ("sort=colour", "sort"),
    ] {
        let p = app
            .get(&format!("/v1/puzzles?{query}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{query}");
    }
}
