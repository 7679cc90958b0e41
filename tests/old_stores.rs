//! A store written by an earlier build opens with this build and reads back as it did.
//!
//! `tests/stores/vN.db` is a SQLite store of schema version N: the seeded fixtures, a posted
//! helpmate, and two generated collections (Baroque `#2`, Rococo `#1`) with their jobs.
//! `vN.expected.json` holds what the build that wrote it answered for it: the listing, every
//! puzzle with its outcome, the collections, each export in each format, and the jobs. This build
//! migrates a copy and must answer the same. `vN.postgres.sql` (a `pg_dump --inserts` without its
//! `\restrict` lines) and `vN.postgres.expected.json` are the same for a PostgreSQL store.
//!
//! - Schema 9: written by the release of 2026-11-27 (74e5f32). Its jobs have no `workers` (the
//!   candidates each replica screened): this build shows none.
//! - Schema 11: written by main of 2026-12-07 (43df81c) with `bash scripts/make-old-store.sh 11`,
//!   which also posts a selfmate as PGN; its jobs record their `workers` (replica `fixture`) and
//!   `shards`. The expected answers are a second server's, started on a copy of the store as
//!   these tests start one (and checked against the writing server's).
//!
//! The stores keep their timestamps and job timings, so whole answers compare. The fixtures of a
//! later schema come from the same script, run with its version.

#[path = "common/postgres.rs"]
mod pg;

use baroque::puzzle::rating::Rating;
use serde_json::Value;

mod common;
use common::Served;

/// A file of `tests/stores`.
fn stored(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/stores/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn expected(name: &str) -> Value {
    serde_json::from_str(&stored(name)).unwrap()
}

/// GETs a path: the status and the body as text.
fn text(server: &Served, path: &str) -> (u16, String) {
    let mut res = server
        .agent
        .get(format!("{}{path}", server.base))
        .call()
        .unwrap();
    let status = res.status().as_u16();
    (status, res.body_mut().read_to_string().unwrap())
}

/// The SQLite store `tests/stores/v{version}.db`, served from a copy, answers as
/// `v{version}.expected.json` says.
fn sqlite_store_reads_back(version: u32) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join(format!("v{version}.db"));
    std::fs::copy(
        format!("{}/tests/stores/v{version}.db", env!("CARGO_MANIFEST_DIR")),
        &db,
    )
    .unwrap();
    let server = Served::start_at(&db, &[], &[], dir);
    reads_back(&server, &expected(&format!("v{version}.expected.json")));
}

/// The PostgreSQL dump `tests/stores/v{version}.postgres.sql`, restored into a fresh database,
/// answers as `v{version}.postgres.expected.json` says.
fn postgres_store_reads_back(version: u32) {
    if !pg::here_or_skip() {
        return;
    }
    let url = pg::cluster().fresh_database();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .batch_execute(&stored(&format!("v{version}.postgres.sql")))
        .unwrap();
    drop(client);
    let server = Served::start_at(&url, &[], &[], tempfile::tempdir().unwrap());
    reads_back(
        &server,
        &expected(&format!("v{version}.postgres.expected.json")),
    );
}

#[test]
fn a_version_9_store_reads_back_as_its_release_answered() {
    sqlite_store_reads_back(9);
}

#[test]
fn a_version_9_postgresql_store_reads_back_as_its_release_answered() {
    postgres_store_reads_back(9);
}

#[test]
fn a_version_11_store_reads_back_as_its_build_answered() {
    sqlite_store_reads_back(11);
}

#[test]
fn a_version_11_postgresql_store_reads_back_as_its_build_answered() {
    postgres_store_reads_back(11);
}

/// A stored mate puzzle's `rating` (schema 12), which a build before ratings did not answer:
/// checked to be the one its difficulty gives with no attempt, and taken out of every puzzle of
/// `v` (a diagram has none).
fn without_rating(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.contains_key("content_hash") {
                match m.remove("rating") {
                    Some(r) => {
                        let start =
                            Rating::of_difficulty(m["difficulty"].as_u64().map(|d| d as u8));
                        assert_eq!(
                            r,
                            serde_json::json!({"value": start.value, "deviation": start.deviation,
                                "volatility": start.volatility, "attempts": 0}),
                            "{m:?}"
                        );
                    }
                    None => assert_eq!(m["kind"], "diagram", "{m:?}"),
                }
            }
            m.values_mut().for_each(without_rating);
        }
        Value::Array(a) => a.iter_mut().for_each(without_rating),
        _ => {}
    }
}

/// A JSON-lines export without its puzzles' `rating` (the last member of each line, see
/// [`without_rating`]), byte for byte otherwise.
fn jsonl_without_rating(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(",\"rating\":{") {
        let end = at + rest[at..].find('}').expect("a rating object") + 1;
        let mut checked: Value =
            serde_json::from_str(&format!("{{{}}}", &rest[at + 1..end])).expect("a rating");
        assert_eq!(checked["rating"]["attempts"], 0, "{checked}");
        checked["rating"].take();
        out.push_str(&rest[..at]);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A CSV export written by a build before ratings, with the `Rating` and `RatingDeviation` this
/// build writes for a puzzle without attempts: its first rating from its difficulty (the build
/// that wrote it put `600 + 24 × difficulty` and 500 there).
fn csv_with_first_ratings(text: &str, puzzles: &serde_json::Map<String, Value>) -> String {
    assert!(!text.contains('"'), "no quoted field");
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let mut fields: Vec<String> = line.split(',').map(String::from).collect();
        if i > 0 {
            let difficulty = puzzles[&fields[0]]["difficulty"].as_u64().map(|d| d as u8);
            let first = Rating::of_difficulty(difficulty);
            fields[3] = format!("{:.0}", first.value);
            fields[4] = format!("{:.0}", first.deviation);
        }
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// A PGN export written by a build before ratings, with the rating tags this build writes for a
/// puzzle without attempts before each `BaroqueId`: its first rating from its difficulty.
fn pgn_with_first_ratings(text: &str, puzzles: &serde_json::Map<String, Value>) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if let Some(id) = line
            .strip_prefix("[BaroqueId \"")
            .and_then(|rest| rest.split('"').next())
        {
            let difficulty = puzzles[id]["difficulty"].as_u64().map(|d| d as u8);
            let first = Rating::of_difficulty(difficulty);
            out.push_str(&format!(
                "[Rating \"{:.0}\"]\n[RatingDeviation \"{:.0}\"]\n[NbPlays \"0\"]\n",
                first.value, first.deviation
            ));
        }
        out.push_str(line);
    }
    out
}

/// What the server answers for the store, against what the build that wrote it answered (`want`).
fn reads_back(server: &Served, want: &Value) {
    // The listing, page by page.
    let mut listing = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/puzzles?limit=200&cursor={c}"),
            None => "/v1/puzzles?limit=200".into(),
        };
        let (status, page) = server.get(&path);
        assert_eq!(status, 200, "{page}");
        listing.extend(page["items"].as_array().unwrap().iter().cloned());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let mut listing = Value::Array(listing);
    without_rating(&mut listing);
    assert_eq!(listing, want["listing"]);

    // Every puzzle with its outcome (the release answered it by default).
    let puzzles = want["puzzles"].as_object().unwrap();
    assert!(puzzles.len() >= 70, "{}", puzzles.len());
    for (id, puzzle) in puzzles {
        let (status, mut got) = server.get(&format!("/v1/puzzles/{id}?include=outcome"));
        assert_eq!(status, 200);
        without_rating(&mut got);
        assert_eq!(&got, puzzle, "puzzle {id}");
        let (_, outcome) = server.get(&format!("/v1/puzzles/{id}/outcome"));
        assert_eq!(outcome, puzzle["outcome"], "puzzle {id}");
    }

    // The collections, each export byte for byte, and the jobs.
    assert_eq!(server.get("/v1/collections").1, want["collections"]);
    for (name, collection) in want["collection"].as_object().unwrap() {
        let mut got = server.get(&format!("/v1/collections/{name}")).1;
        without_rating(&mut got);
        assert_eq!(&got, collection);
    }
    let exports = want["exports"].as_object().unwrap();
    assert_eq!(exports.len(), 6);
    for (file, body) in exports {
        let (name, format) = file.rsplit_once('.').unwrap();
        let (status, got) = text(
            server,
            &format!("/v1/collections/{name}/export?format={format}"),
        );
        assert_eq!(status, 200);
        let got = if format == "jsonl" {
            jsonl_without_rating(&got)
        } else {
            got
        };
        let want_body = match format {
            "csv" => csv_with_first_ratings(body.as_str().unwrap(), puzzles),
            "pgn" => pgn_with_first_ratings(body.as_str().unwrap(), puzzles),
            _ => body.as_str().unwrap().to_string(),
        };
        assert_eq!(got, want_body, "{file}");
    }
    for (id, job) in want["jobs"].as_object().unwrap() {
        let mut got = server.get(&format!("/v1/jobs/{id}")).1;
        if job.get("workers").is_none() {
            // A job of a build before `workers` (schema 9): the candidates each replica
            // screened are unknown, so none are shown.
            let workers = got.as_object_mut().unwrap().remove("workers");
            assert_eq!(workers, Some(serde_json::json!({})), "job {id}");
        }
        assert_eq!(&got, job, "job {id}");
    }
}
