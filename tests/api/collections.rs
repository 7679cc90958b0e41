//! `/v1/collections` and `/v1/jobs` over HTTP: a generation job started with 202, followed to its
//! end, its collection listed, read and exported, and every refusal.

use crate::helpers::{spawn_app_with, Reply, TestApp};
use baroque::api::Settings;
use serde_json::{json, Value};
use std::time::Duration;

const TOKEN: &str = "test-write-token-collections";
const AUTH: [(&str, &str); 1] = [("authorization", "Bearer test-write-token-collections")];

fn app() -> TestApp {
    spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    })
}

fn start(app: &TestApp, body: &Value) -> Reply {
    app.send("POST", "/v1/collections", &AUTH, Some(body))
}

/// Polls a job until it is no longer running (a minute at most).
fn finished(app: &TestApp, url: &str) -> Value {
    app.job_ended(url, Duration::from_secs(60))
}

#[test]
fn a_job_fills_a_collection_that_can_be_listed_read_and_exported() {
    let app = app();
    assert_eq!(app.get("/v1/collections").json(), json!({"items": []}));

    let body = json!({"name": "twos", "mate_in": 2, "count": 3, "rules": "abbott", "seed": 42, "max_pieces": 8});
    let r = start(&app, &body);
    assert_eq!(r.status, 202, "{}", r.body);
    let job = r.json();
    let url = job["url"].as_str().unwrap().to_string();
    assert_eq!(r.header("location"), Some(url.as_str()));
    assert_eq!(job["collection_url"], "/v1/collections/twos");
    assert_eq!(job["seed"], 42);

    let job = finished(&app, &url);
    assert_eq!(job["state"], "done", "{job}");
    assert_eq!(job["stop"], "done");
    assert_eq!(job["attempts"], 1);
    // One replica ran it, named by its host and port by default, and screened every candidate.
    let workers = job["workers"].as_object().unwrap();
    assert_eq!(workers.len(), 1, "{job}");
    let (name, screened) = workers.iter().next().unwrap();
    let port = app.base.rsplit(':').next().unwrap();
    assert!(name.ends_with(&format!(":{port}")), "{name}");
    assert_eq!(screened, &job["progress"]["tried"], "{job}");
    let ids: Vec<i64> = job["puzzle_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), 3);
    assert!(job["progress"]["tried"].as_u64().unwrap() >= 3);

    let list = app.get("/v1/collections").json();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let c = &list["items"][0];
    assert_eq!(
        (c["name"].as_str(), c["state"].as_str()),
        (Some("twos"), Some("done"))
    );
    assert_eq!(
        (
            c["puzzles"].as_u64(),
            c["seed"].as_u64(),
            c["mate_in"].as_u64()
        ),
        (Some(3), Some(42), Some(2))
    );

    let one = app.get("/v1/collections/twos").json();
    let listed: Vec<i64> = one["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(listed, ids, "in the order found");
    for p in one["items"].as_array().unwrap() {
        assert_eq!(
            (p["kind"].as_str(), p["game"].as_str()),
            (Some("mate"), Some("baroque"))
        );
        assert_eq!(p["source"], "generated");
    }

    let export = app.get("/v1/collections/twos/export");
    assert_eq!(export.status, 200);
    assert_eq!(export.content_type, "application/x-ndjson");
    // A strong ETag; naming it again gets 304 without a body.
    let tag = export.header("etag").expect("an ETag").to_string();
    assert!(tag.starts_with('"') && tag.len() == 34, "{tag}");
    let again = app.send(
        "GET",
        "/v1/collections/twos/export",
        &[("if-none-match", &tag)],
        None,
    );
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(tag.as_str()));
    let lines: Vec<Value> = export
        .body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (line, id) in lines.iter().zip(&ids) {
        assert_eq!(line["id"], *id);
        assert_eq!(line["outcome"]["sound"], true, "{line}");
        assert_eq!(line["outcome"]["keys"].as_array().unwrap().len(), 1);
    }

    // The themes are tags: every puzzle is found by `mate-in-2`, and by its key's piece.
    let tagged = app
        .get("/v1/puzzles?tag=mate-in-2&source=generated&limit=200")
        .json();
    let found: Vec<i64> = tagged["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(found, ids);
    let first = app.get(&format!("/v1/puzzles/{}", ids[0])).json();
    let key_tag = first["tags"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|t| t.as_str().filter(|t| t.starts_with("key-")))
        .unwrap()
        .to_string();
    let by_key = app.get(&format!("/v1/puzzles?tag={key_tag}")).json();
    assert!(by_key["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == ids[0]));

    // The name is taken now.
    start(&app, &body).problem(409, "/problems/conflict");
}

#[test]
fn bad_requests_are_refused_with_problems() {
    let app = app();
    let ok = json!({"name": "x", "mate_in": 2, "count": 1});
    // No token, wrong token.
    assert_eq!(app.post_json("/v1/collections", &ok).status, 401);
    let wrong = [("authorization", "Bearer nope")];
    assert_eq!(
        app.send("POST", "/v1/collections", &wrong, Some(&ok))
            .status,
        401
    );
    for (body, status, kind) in [
        (
            json!({"name": "a b", "mate_in": 2, "count": 1}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 0}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 100000}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 1, "max_pieces": 2}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 1, "game": "rococo", "rules": "abbott"}),
            422,
            "/problems/not-applicable",
        ),
        (
            json!({"name": "x", "mate_in": 99, "count": 1}),
            422,
            "/problems/invalid-mate-in",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 1, "candidate_limits": {"nodes": 0}}),
            422,
            "/problems/invalid-limits",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 1, "colour": "red"}),
            400,
            "/problems/invalid-request",
        ),
        // The documented maximum of `seed` is 2^63 - 1 (schemathesis sent 2^63 and it was taken).
        (
            json!({"name": "x", "mate_in": 2, "count": 1, "seed": 9_223_372_036_854_775_808_u64}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 1.5}),
            400,
            "/problems/invalid-request",
        ),
        (
            json!({"name": "x", "stipulation": "x#2", "count": 1}),
            422,
            "/problems/invalid-stipulation",
        ),
        (
            json!({"name": "x", "stipulation": "h#2", "mate_in": 2, "count": 1}),
            422,
            "/problems/invalid-stipulation",
        ),
        (
            json!({"name": "x", "stipulation": "s#13", "count": 1}),
            422,
            "/problems/invalid-mate-in",
        ),
        (
            json!({"name": "x", "count": 1}),
            400,
            "/problems/invalid-request",
        ),
        // The variety rules: a share out of range or one no collection can meet, defenders that
        // leave no room within the piece budget.
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "max_key_share": 0}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "max_key_share": 1.5}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "max_key_share": 0.1}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "min_defenders": 8}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "min_defenders_share": 2}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "min_defenders": -1}),
            400,
            "/problems/invalid-request",
        ),
        // The narrowed search's reach (0 to 16 King steps).
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "focus": 17}),
            422,
            "/problems/invalid-collection",
        ),
        (
            json!({"name": "x", "mate_in": 2, "count": 10, "focus": 1.5}),
            400,
            "/problems/invalid-request",
        ),
    ] {
        let r = start(&app, &body);
        let p = r.problem(status, kind);
        assert!(!p["detail"].as_str().unwrap().is_empty(), "{body}");
    }
    app.get("/v1/collections/none")
        .problem(404, "/problems/not-found");
    app.get("/v1/collections/none/export")
        .problem(404, "/problems/not-found");
    app.get("/v1/jobs/999").problem(404, "/problems/not-found");
    assert_eq!(
        app.get("/v1/collections").json(),
        json!({"items": []}),
        "nothing was made"
    );
}

#[test]
fn one_job_at_a_time_and_a_cancel_keeps_what_was_found() {
    let app = app();
    // Far more puzzles than a few seconds make: the job runs until cancelled.
    let big = json!({"name": "big", "mate_in": 3, "count": 200, "seed": 7, "max_pieces": 12});
    let r = start(&app, &big);
    assert_eq!(r.status, 202, "{}", r.body);
    let url = r.json()["url"].as_str().unwrap().to_string();

    let busy = start(&app, &json!({"name": "other", "mate_in": 2, "count": 1}));
    busy.problem(503, "/problems/jobs-busy");
    assert!(busy.header("retry-after").is_some());

    // Cancelling needs the token, then stops the job after its batch.
    assert_eq!(app.request("DELETE", &url).status, 401);
    let r = app.send("DELETE", &url, &AUTH, None);
    assert_eq!(r.status, 202, "{}", r.body);
    let job = finished(&app, &url);
    assert_eq!(
        (job["state"].as_str(), job["stop"].as_str()),
        (Some("stopped"), Some("cancelled"))
    );
    let c = app.get("/v1/collections/big").json();
    assert_eq!(c["state"], "stopped");
    assert_eq!(
        c["items"].as_array().unwrap().len(),
        job["puzzle_ids"].as_array().unwrap().len()
    );
    // A finished job is left as it is; the slot is free again.
    assert_eq!(app.send("DELETE", &url, &AUTH, None).status, 200);
    let r = start(
        &app,
        &json!({"name": "other", "mate_in": 2, "count": 1, "seed": 3, "max_pieces": 7}),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let job = finished(&app, r.json()["url"].as_str().unwrap());
    assert_eq!(job["state"], "done");
}

#[test]
fn a_helpmate_collection_has_one_solution_a_puzzle() {
    let app = app();
    let body =
        json!({"name": "helps", "stipulation": "h#2", "count": 2, "seed": 5, "max_pieces": 7});
    let r = start(&app, &body);
    assert_eq!(r.status, 202, "{}", r.body);
    let job = r.json();
    assert_eq!(
        (job["stipulation"].as_str(), job["mate_in"].as_u64()),
        (Some("h#2"), Some(2))
    );
    let job = finished(&app, job["url"].as_str().unwrap());
    assert_eq!(job["state"], "done", "{job}");
    let c = app.get("/v1/collections/helps").json();
    assert_eq!(c["stipulation"], "h#2");
    assert_eq!(c["summary"]["focus"], 2, "helpmates are narrowed first too");
    let items = c["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for p in items {
        assert_eq!(p["stipulation"], "h#2", "{p}");
        let full = app
            .get(&format!("/v1/puzzles/{}?include=outcome", p["id"]))
            .json();
        assert!(
            full["fen"].as_str().unwrap().contains(" b"),
            "Black moves first: {full}"
        );
        // An independent solve through the API agrees: one solution, no shorter helpmate.
        let solved = app
            .post_json(
                "/v1/solve",
                &json!({"fen": full["fen"], "stipulation": "h#2"}),
            )
            .json();
        assert_eq!(
            (solved["sound"].as_bool(), solved["count"].as_u64()),
            (Some(true), Some(1)),
            "{solved}"
        );
        assert_eq!(solved["solutions"], full["outcome"]["solutions"], "{full}");
        assert!(
            full["tags"]
                .as_array()
                .unwrap()
                .contains(&json!("h-solutions-1")),
            "{full}"
        );
        assert!(
            full["tags"]
                .as_array()
                .unwrap()
                .contains(&json!("helpmate-in-2")),
            "{full}"
        );
    }
    // Listed by its stipulation (URL-encoded).
    let listed = app
        .get("/v1/puzzles?stipulation=h%232&source=generated")
        .json();
    assert_eq!(listed["items"].as_array().unwrap().len(), 2, "{listed}");
}

/// The pieces of `fen`'s defender (the side not to move, in a direct mate) besides its King.
fn defender_pieces(fen: &str) -> usize {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap();
    let white_defends = fields.next() == Some("b");
    board
        .chars()
        .filter(|c| c.is_ascii_alphabetic() && !c.eq_ignore_ascii_case(&'k'))
        .filter(|c| c.is_ascii_uppercase() == white_defends)
        .count()
}

/// A collection of ten mates in 2 made with the default rules is varied: no kind of key piece
/// makes more than 40% of the keys, and the defender keeps two pieces besides its King in at
/// least 80% of the puzzles, as the puzzles themselves show; the summary (collection and job)
/// counts the key pieces, themes and difficulties of the puzzles it lists.
#[test]
fn a_generated_collection_is_varied_and_its_summary_says_how() {
    let app = app();
    let body = json!({"name": "varied", "mate_in": 2, "count": 10, "seed": 7});
    let r = start(&app, &body);
    assert_eq!(r.status, 202, "{}", r.body);
    let job = finished(&app, r.json()["url"].as_str().unwrap());
    assert_eq!(job["state"], "done", "{job}");
    let c = app.get("/v1/collections/varied").json();
    let items = c["items"].as_array().unwrap();
    assert_eq!(items.len(), 10);
    let summary = &c["summary"];
    assert_eq!(
        summary["variety"],
        json!({"max_key_share": 0.4, "key_cap": 4, "min_defenders": 2, "min_defenders_share": 0.8,
               "defenders_kept": summary["variety"]["defenders_kept"]})
    );
    // From the puzzles: each key piece's kind (its `key-` tag), the defenders, the themes.
    let mut keys = std::collections::BTreeMap::<String, u64>::new();
    let mut themes = std::collections::BTreeMap::<String, u64>::new();
    for p in items {
        let tags: Vec<&str> = p["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        let key: Vec<&&str> = tags
            .iter()
            .filter(|t| t.starts_with("key-") && !t.starts_with("key-captures-"))
            .collect();
        assert_eq!(key.len(), 1, "{tags:?}");
        *keys.entry(key[0]["key-".len()..].to_string()).or_default() += 1;
        for t in &tags {
            *themes.entry(t.to_string()).or_default() += 1;
        }
    }
    assert!(keys.values().all(|&n| n <= 4), "{keys:?}");
    assert_eq!(summary["key_pieces"], json!(keys));
    assert_eq!(summary["themes"], json!(themes));
    let kept = items
        .iter()
        .filter(|p| defender_pieces(p["fen"].as_str().unwrap()) >= 2)
        .count();
    assert!(kept >= 8, "{kept} of 10");
    assert_eq!(summary["variety"]["defenders_kept"], kept);
    // Difficulties: the least, the lower median, the most, and the buckets.
    let mut d: Vec<u64> = items
        .iter()
        .map(|p| p["difficulty"].as_u64().unwrap())
        .collect();
    d.sort_unstable();
    assert_eq!(summary["difficulty"]["min"], d[0]);
    assert_eq!(summary["difficulty"]["median"], d[4]);
    assert_eq!(summary["difficulty"]["max"], d[9]);
    let buckets = &summary["difficulty"]["buckets"];
    let in_buckets: u64 = ["0-19", "20-39", "40-59", "60-79", "80-100"]
        .iter()
        .map(|b| buckets[b].as_u64().unwrap())
        .sum();
    assert_eq!(in_buckets, 10);
    assert_eq!(
        buckets["60-79"],
        d.iter().filter(|x| (60..=79).contains(*x)).count()
    );
    // The job says the same once it ended.
    for part in ["variety", "key_pieces", "themes", "difficulty", "focus"] {
        assert_eq!(job["summary"][part], summary[part], "{part}");
    }
    assert_eq!(summary["focus"], 2, "the default narrowed search");
    // Rules asked for are recorded: no limit on keys, no defenders, no narrowed search.
    let body = json!({"name": "free", "mate_in": 2, "count": 2, "seed": 7,
                      "max_key_share": 1, "min_defenders": 0, "focus": 0});
    let r = start(&app, &body);
    assert_eq!(r.status, 202, "{}", r.body);
    let job = finished(&app, r.json()["url"].as_str().unwrap());
    assert_eq!(job["state"], "done", "{job}");
    let c = app.get("/v1/collections/free").json();
    assert_eq!(c["summary"]["variety"]["max_key_share"].as_f64(), Some(1.0));
    assert_eq!(c["summary"]["variety"]["min_defenders"], 0);
    assert_eq!(c["summary"]["variety"]["key_cap"], 2);
    assert_eq!(c["summary"]["focus"], 0);
}
