//! Several `baroque serve` processes on one PostgreSQL database, as replicas behind a load
//! balancer run: what one stores the other reads; fifty concurrent posts of one puzzle through
//! both make one row; a generation job whose replica is killed with SIGKILL is finished by the
//! other, with the puzzles an uninterrupted run makes; a replica killed during a stream of writes
//! loses none it acknowledged; and PostgreSQL stopped while serving gives 503 until it returns.
//! The cluster is a throwaway one the test starts (`tests/common/postgres.rs`).
#![cfg(unix)]

mod common;
#[path = "common/postgres.rs"]
mod pg;

use common::Served;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const TOKEN: &str = "replicas-test-token";
const AUTH: (&str, &str) = ("authorization", "Bearer replicas-test-token");

/// A replica on database `url`, with a short job lease.
fn replica(url: &str) -> Served {
    Served::start_at(
        url,
        &["--job-lease-seconds", "2", "--rate-limit-per-minute", "0"],
        &[("BAROQUE_WRITE_TOKEN", TOKEN)],
        tempfile::tempdir().unwrap(),
    )
}

/// A request that may fail (the server killed): the status and body, or `None`.
fn send(server: &Served, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
    call(&server.agent, &server.base, method, path, body)
}

fn call(
    agent: &ureq::Agent,
    base: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Option<(u16, Value)> {
    let req = ureq::http::Request::builder()
        .method(method)
        .uri(format!("{base}{path}"))
        .header(AUTH.0, AUTH.1)
        .header("content-type", "application/json")
        .body(body.map(Value::to_string).unwrap_or_default())
        .ok()?;
    let mut res = agent.run(req).ok()?;
    let status = res.status().as_u16();
    let text = res.body_mut().read_to_string().unwrap_or_default();
    Some((status, serde_json::from_str(&text).unwrap_or_default()))
}

/// A diagram puzzle of its own for each `i` below 30: a King's step on an almost empty board.
fn diagram(i: usize) -> Value {
    let (file, rank) = (i % 5, i / 5 + 1);
    let mut ranks: Vec<String> = (0..8).map(|_| "8".to_string()).collect();
    ranks[0] = "7k".into();
    let row = 8 - rank;
    ranks[row] = match file {
        0 => "K7".into(),
        f => format!("{f}K{}", 7 - f),
    };
    let f = (b'a' + file as u8) as char;
    json!({"kind": "diagram", "fen": format!("{} w 5", ranks.join("/")),
           "moves": [format!("K{f}{rank}-{f}{}", rank + 1)], "captures": []})
}

#[test]
fn replicas_share_puzzles_and_one_puzzle_posted_fifty_times_is_one_row() {
    if !pg::here_or_skip() {
        return;
    }
    let url = pg::cluster().fresh_database();
    let (a, b) = (replica(&url), replica(&url));
    let (status, stored) = send(&a, "POST", "/v1/puzzles", Some(&diagram(0))).unwrap();
    assert_eq!(status, 201, "{stored}");
    let (status, read) = b.get(&format!("/v1/puzzles/{}", stored["id"]));
    assert_eq!(status, 200, "{read}");
    assert_eq!(read["fen"], stored["fen"]);
    // Fifty posts of one new puzzle at once, through both.
    let puzzle = diagram(1);
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..50)
            .map(|i| {
                let server = if i % 2 == 0 { &a } else { &b };
                let puzzle = &puzzle;
                s.spawn(move || send(server, "POST", "/v1/puzzles", Some(puzzle)).unwrap())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let created = answers.iter().filter(|(s, _)| *s == 201).count();
    let existing = answers.iter().filter(|(s, _)| *s == 200).count();
    assert_eq!((created, existing), (1, 49), "{answers:?}");
    assert!(answers.iter().all(|(_, p)| p["id"] == answers[0].1["id"]));
    let (_, page) = a.get("/v1/puzzles?kind=diagram&limit=200");
    let fen = answers[0].1["fen"].clone();
    let rows = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["fen"] == fen)
        .count();
    assert_eq!(rows, 1);
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn fens(collection: &Value) -> Vec<Value> {
    collection["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{collection}"))
        .iter()
        .map(|p| p["fen"].clone())
        .collect()
}

/// What one uninterrupted run of a collection request makes (a SQLite server of its own): the
/// FENs of the collection, in order.
fn reference_run(request: &Value) -> Vec<Value> {
    let name = request["name"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let server = Served::start_at(
        dir.path().join("ref.db"),
        &["--rate-limit-per-minute", "0"],
        &[("BAROQUE_WRITE_TOKEN", TOKEN)],
        dir,
    );
    let (status, job) = send(&server, "POST", "/v1/collections", Some(request)).unwrap();
    assert_eq!(status, 202, "{job}");
    let url = job["url"].as_str().unwrap().to_string();
    wait_for("the reference run", Duration::from_secs(300), || {
        server.get(&url).1["state"] != "running"
    });
    let (_, c) = server.get(&format!("/v1/collections/{name}"));
    assert_eq!(c["state"], "done", "{c}");
    fens(&c)
}

#[test]
fn a_job_whose_replica_is_killed_is_finished_by_the_other() {
    if !pg::here_or_skip() {
        return;
    }
    // Long enough (a few seconds) to be killed in the middle.
    let request =
        json!({"name": "taken-over", "mate_in": 2, "count": 150, "seed": 11, "max_pieces": 8});
    let reference = reference_run(&request);
    assert_eq!(reference.len(), 150);
    let url = pg::cluster().fresh_database();
    let mut a = replica(&url);
    let b = replica(&url);
    let (status, job) = send(&a, "POST", "/v1/collections", Some(&request)).unwrap();
    assert_eq!(status, 202, "{job}");
    let job_url = job["url"].as_str().unwrap().to_string();
    // Followed through the other replica; killed once it has stored a puzzle.
    wait_for("a first puzzle", Duration::from_secs(300), || {
        let (_, j) = b.get(&job_url);
        !j["puzzle_ids"].as_array().unwrap().is_empty() || j["state"] != "running"
    });
    assert_eq!(
        b.get(&job_url).1["state"],
        "running",
        "the job ended before the kill"
    );
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    wait_for("the takeover", Duration::from_secs(300), || {
        b.get(&job_url).1["state"] != "running"
    });
    let (_, j) = b.get(&job_url);
    assert_eq!(j["state"], "done", "{j}");
    assert_eq!(j["attempts"], 2, "{j}");
    assert_eq!(j["puzzle_ids"].as_array().unwrap().len(), 150, "{j}");
    let (_, c) = b.get("/v1/collections/taken-over");
    assert_eq!(c["state"], "done", "{c}");
    assert_eq!(fens(&c), reference);
}

/// Sends SIGTERM to a replica and waits for it to exit 0.
fn terminate(server: &mut Served) {
    let pid = server.child.id() as libc::pid_t;
    // SAFETY: a signal to our own child process.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the replica did not exit");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0), "{status:?}");
}

/// A rolling deploy: three replicas restarted one after another (SIGTERM, then a new one in its
/// place) while a job runs, then all three stopped and one started again. The job is handed
/// over each time its runner stops, and its collection is the one an uninterrupted run makes.
#[test]
fn a_rolling_restart_of_three_replicas_hands_the_job_over() {
    if !pg::here_or_skip() {
        return;
    }
    let request = json!({"name": "rolled", "stipulation": "#3", "count": 200, "seed": 12});
    let reference = reference_run(&request);
    assert_eq!(reference.len(), 200);
    let url = pg::cluster().fresh_database();
    // Named replicas, one with a job thread and two with two: the collection is the same.
    let start = |i: usize| {
        let name = format!("r{i}");
        let threads = if i == 0 { "1" } else { "2" };
        Served::start_at(
            &url,
            &[
                "--job-lease-seconds",
                "2",
                "--rate-limit-per-minute",
                "0",
                "--replica-name",
                &name,
                "--job-threads",
                threads,
            ],
            &[("BAROQUE_WRITE_TOKEN", TOKEN)],
            tempfile::tempdir().unwrap(),
        )
    };
    let mut replicas: Vec<Served> = (0..3).map(start).collect();
    let (status, job) = send(&replicas[0], "POST", "/v1/collections", Some(&request)).unwrap();
    assert_eq!(status, 202, "{job}");
    let job_url = job["url"].as_str().unwrap().to_string();
    let stored = |j: &Value| j["puzzle_ids"].as_array().map_or(0, Vec::len);
    for i in 0..3 {
        // Restarted once the job has stored more, seen through the next replica.
        let watcher = (i + 1) % 3;
        let before = stored(&replicas[watcher].get(&job_url).1);
        wait_for("progress", Duration::from_secs(300), || {
            let (_, j) = replicas[watcher].get(&job_url);
            stored(&j) > before || j["state"] != "running"
        });
        let (_, j) = replicas[watcher].get(&job_url);
        assert_eq!(
            j["state"], "running",
            "the job ended before restart {i}: {j}"
        );
        terminate(&mut replicas[i]);
        replicas[i] = start(i);
    }
    // Every replica goes away: the job waits, unowned, for the next one.
    for r in &mut replicas {
        terminate(r);
    }
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let row = db
        .query_one(
            "SELECT j.state, c.state FROM jobs j JOIN collections c ON c.name = j.collection",
            &[],
        )
        .unwrap();
    let states: (String, String) = (row.get(0), row.get(1));
    assert_eq!(states, ("running".into(), "running".into()));
    let last = start(0);
    wait_for("the end of the job", Duration::from_secs(300), || {
        last.get(&job_url).1["state"] != "running"
    });
    let (_, j) = last.get(&job_url);
    assert_eq!(j["state"], "done", "{j}");
    assert!(j["attempts"].as_u64().unwrap() >= 2, "{j}");
    assert_eq!(stored(&j), 200, "{j}");
    // Each runner's replica says what it screened; r0 started the job and ended it.
    let workers = j["workers"].as_object().unwrap();
    assert!(workers.len() >= 2, "{j}");
    assert!(workers.contains_key("r0"), "{j}");
    assert!(
        workers
            .keys()
            .all(|k| ["r0", "r1", "r2"].contains(&k.as_str())),
        "{j}"
    );
    assert!(workers.values().all(|n| n.as_u64().unwrap() > 0), "{j}");
    let (_, c) = last.get("/v1/collections/rolled");
    assert_eq!(c["state"], "done", "{c}");
    assert_eq!(fens(&c), reference);
}

#[test]
fn a_replica_killed_during_writes_loses_none_it_acknowledged() {
    if !pg::here_or_skip() {
        return;
    }
    let url = pg::cluster().fresh_database();
    let mut a = replica(&url);
    let b = replica(&url);
    let (acks, received) = std::sync::mpsc::channel::<(usize, Value)>();
    let writer = {
        let base = a.base.clone();
        std::thread::spawn(move || {
            let agent = common::agent();
            for i in 2..30 {
                match call(&agent, &base, "POST", "/v1/puzzles", Some(&diagram(i))) {
                    Some((201, p)) => {
                        if acks.send((i, p)).is_err() {
                            return;
                        }
                    }
                    Some((status, p)) => panic!("post {i}: {status} {p}"),
                    None => return,
                }
            }
        })
    };
    let mut acknowledged = Vec::new();
    while acknowledged.len() < 10 {
        acknowledged.push(received.recv_timeout(Duration::from_secs(60)).unwrap());
    }
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    writer.join().unwrap();
    acknowledged.extend(received.try_iter());
    for (i, p) in &acknowledged {
        let (status, read) = b.get(&format!("/v1/puzzles/{}", p["id"]));
        assert_eq!(status, 200, "puzzle {i}: {read}");
        assert_eq!(read["fen"], p["fen"]);
        assert_eq!(read["content_hash"], p["content_hash"]);
    }
}

#[test]
fn postgres_stopped_while_serving_is_503_until_it_returns() {
    if !pg::here_or_skip() {
        return;
    }
    let cluster = pg::private_cluster();
    let url = cluster.fresh_database();
    let server = replica(&url);
    let (status, stored) = send(&server, "POST", "/v1/puzzles", Some(&diagram(0))).unwrap();
    assert_eq!(status, 201, "{stored}");
    cluster.stop();
    for _ in 0..2 {
        let (status, p) = send(&server, "POST", "/v1/puzzles", Some(&diagram(1))).unwrap();
        assert_eq!(status, 503, "{p}");
        assert_eq!(p["type"], "/problems/store-unavailable", "{p}");
        let (status, p) = server.get(&format!("/v1/puzzles/{}", stored["id"]));
        assert_eq!(status, 503, "{p}");
        assert_eq!(server.get("/ready").0, 503);
        // The process lives on: no crash, no restart loop.
        assert_eq!(server.get("/health").0, 200);
    }
    let mut retry_after = None;
    let req = ureq::http::Request::builder()
        .method("GET")
        .uri(format!("{}/v1/puzzles/{}", server.base, stored["id"]))
        .body(String::new())
        .unwrap();
    if let Ok(res) = server.agent.run(req) {
        retry_after = res.headers().get("retry-after").cloned();
    }
    assert!(retry_after.is_some(), "503 without Retry-After");
    cluster.start();
    wait_for("recovery", Duration::from_secs(60), || {
        send(&server, "POST", "/v1/puzzles", Some(&diagram(1))).is_some_and(|(s, _)| s == 201)
    });
    assert_eq!(server.get("/ready").0, 200);
    let (status, read) = server.get(&format!("/v1/puzzles/{}", stored["id"]));
    assert_eq!((status, &read["fen"]), (200, &stored["fen"]));
}

#[test]
fn a_job_is_followed_and_cancelled_through_the_other_replica() {
    if !pg::here_or_skip() {
        return;
    }
    let url = pg::cluster().fresh_database();
    let (a, b) = (replica(&url), replica(&url));
    let request =
        json!({"name": "cancelled", "mate_in": 2, "count": 200, "seed": 5, "max_pieces": 8});
    let (status, job) = send(&a, "POST", "/v1/collections", Some(&request)).unwrap();
    assert_eq!(status, 202, "{job}");
    let job_url = job["url"].as_str().unwrap().to_string();
    let (status, seen) = send(&b, "DELETE", &job_url, None).unwrap();
    assert_eq!(status, 202, "{seen}");
    assert_eq!(seen["id"], job["id"]);
    wait_for("the cancel", Duration::from_secs(60), || {
        a.get(&job_url).1["state"] != "running"
    });
    for server in [&a, &b] {
        let (_, j) = server.get(&job_url);
        assert_eq!(
            (&j["state"], &j["stop"]),
            (&json!("stopped"), &json!("cancelled")),
            "{j}"
        );
        assert_eq!(j["attempts"], 1, "{j}");
    }
    let (_, c) = b.get("/v1/collections/cancelled");
    assert_eq!(c["state"], "stopped", "{c}");
    // A finished job is left as it is, through either replica.
    assert_eq!(send(&b, "DELETE", &job_url, None).unwrap().0, 200);
    assert_eq!(b.get("/v1/jobs/999").0, 404);
}

/// One collection, two replicas: a job started on one is screened by both (each with one job
/// thread), shard by shard, and its collection is the one a single replica makes.
#[test]
fn two_replicas_screen_the_shards_of_one_job() {
    if !pg::here_or_skip() {
        return;
    }
    let request =
        json!({"name": "shared", "mate_in": 2, "count": 150, "seed": 11, "max_pieces": 8});
    let reference = reference_run(&request);
    assert_eq!(reference.len(), 150);
    let url = pg::cluster().fresh_database();
    let start = |name: &str| {
        Served::start_at(
            &url,
            &[
                "--job-lease-seconds",
                "2",
                "--rate-limit-per-minute",
                "0",
                "--replica-name",
                name,
                "--job-threads",
                "1",
            ],
            &[("BAROQUE_WRITE_TOKEN", TOKEN)],
            tempfile::tempdir().unwrap(),
        )
    };
    let (a, b) = (start("a"), start("b"));
    let (status, job) = send(&a, "POST", "/v1/collections", Some(&request)).unwrap();
    assert_eq!(status, 202, "{job}");
    let job_url = job["url"].as_str().unwrap().to_string();
    // While it runs, the job says where its shards are, through either replica.
    wait_for("a shard done", Duration::from_secs(300), || {
        let (_, j) = b.get(&job_url);
        j["shards"]["done"].as_u64().unwrap_or(0) > 0 || j["state"] != "running"
    });
    // A job started on the helping replica takes its one slot back from the helper at once.
    let first_running = b.get(&job_url).1["state"] == "running";
    let second = json!({"name": "second", "mate_in": 2, "count": 2, "seed": 5, "max_pieces": 8});
    let (status, other) = send(&b, "POST", "/v1/collections", Some(&second)).unwrap();
    assert_eq!(status, 202, "{other}");
    let other_url = other["url"].as_str().unwrap().to_string();
    wait_for("the end of the job", Duration::from_secs(300), || {
        b.get(&job_url).1["state"] != "running" && b.get(&other_url).1["state"] != "running"
    });
    assert_eq!(b.get(&other_url).1["state"], "done");
    assert!(
        first_running,
        "the first job ended before the second started"
    );
    let (_, j) = b.get(&job_url);
    assert_eq!(j["state"], "done", "{j}");
    assert_eq!(j["attempts"], 1, "{j}");
    assert_eq!(j["puzzle_ids"].as_array().unwrap().len(), 150, "{j}");
    let shards = &j["shards"];
    let (total, done) = (
        shards["total"].as_u64().unwrap(),
        shards["done"].as_u64().unwrap(),
    );
    assert!(done >= 2 && total >= done, "{j}");
    // Both replicas screened shards of it: the one that started it and the other.
    let workers = j["workers"].as_object().unwrap();
    for name in ["a", "b"] {
        assert!(
            workers.get(name).and_then(Value::as_u64).unwrap_or(0) > 0,
            "{name} screened nothing: {j}"
        );
    }
    let (_, c) = a.get("/v1/collections/shared");
    assert_eq!(c["state"], "done", "{c}");
    assert_eq!(fens(&c), reference);
}
