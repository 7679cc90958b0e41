//! Puzzle ids through the binary: a server started again and again on one database stores nothing
//! new at start-up and takes no ids, so the next puzzle stored gets the next id.
#![cfg(unix)]

use serde_json::json;

mod common;
use common::Served;

#[test]
fn ids_stay_consecutive_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ids.db");
    let token = [("BAROQUE_WRITE_TOKEN", "ids-test-token")];
    let seeded = {
        let server = Served::start_at(&db, &[], &token, tempfile::tempdir().unwrap());
        let (status, page) = server.get("/v1/puzzles?limit=200");
        assert_eq!(status, 200);
        let ids: Vec<i64> = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_i64().unwrap())
            .collect();
        assert_eq!(ids, (1..=ids.len() as i64).collect::<Vec<_>>());
        ids.len() as i64
    };
    // Two more start-ups: the fixtures are there already, nothing is stored.
    for _ in 0..2 {
        let server = Served::start_at(&db, &[], &token, tempfile::tempdir().unwrap());
        assert_eq!(server.get("/health").0, 200);
    }
    let server = Served::start_at(&db, &[], &token, tempfile::tempdir().unwrap());
    let (status, p) = server.post_with(
        "/v1/puzzles",
        &json!({"kind": "diagram", "fen": "7k/8/8/8/8/8/8/K7 w 5", "moves": ["Ka1-a2"], "captures": []}),
        &[("authorization", "Bearer ids-test-token")],
    );
    assert_eq!(status, 201, "{p}");
    assert_eq!(p["id"], seeded + 1, "{p}");
}
