//! Per-client rate limiting of the costly endpoints: 429 `rate-limited` with `Retry-After` once a
//! client has used its burst, while the cheap endpoints and other clients keep being served.

use crate::helpers::{spawn_app_with, TestApp};
use baroque::api::Settings;
use serde_json::json;

const TOKEN: &str = "rate-limit-test-token";
/// The Wikipedia King diagram: a mate in 1, solved in a millisecond.
const KING: &str = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
const PAWN: &str = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0";

fn limited(per_minute: u64, burst: u64, trust_forwarded_for: bool) -> TestApp {
    spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        rate_limit_per_minute: per_minute,
        rate_limit_burst: burst,
        trust_forwarded_for,
        ..Settings::for_tests()
    })
}

fn solve(app: &TestApp, headers: &[(&str, &str)]) -> crate::helpers::Reply {
    app.send(
        "POST",
        "/v1/solve",
        headers,
        Some(&json!({"fen": KING, "mate_in": 1})),
    )
}

#[test]
fn solve_beyond_the_burst_is_429_with_retry_after_and_cheap_endpoints_keep_answering() {
    let app = limited(6, 2, false); // a token every 10 s
    for _ in 0..2 {
        let r = solve(&app, &[]);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = solve(&app, &[]);
    let p = r.problem(429, "/problems/rate-limited");
    assert_eq!(p["limit"], 6);
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=10).contains(&retry), "{retry}");
    assert!(p["detail"].as_str().unwrap().contains("retry in"), "{p}");
    // A malformed solve is refused by the limit too: the limit comes before the body is read.
    let r = app.post_raw("/v1/solve", Some("application/json"), b"{");
    r.problem(429, "/problems/rate-limited");
    // Cheap endpoints are not limited.
    for _ in 0..5 {
        assert_eq!(app.get("/health").status, 200);
        let r = app.post_json("/v1/analyze", &json!({"fen": KING}));
        assert_eq!(r.status, 200, "{}", r.body);
        let r = app.post_json("/v1/verify", &json!({"fen": KING, "moves": ["Kc4-d5"]}));
        assert_eq!(r.status, 200, "{}", r.body);
    }
}

#[test]
fn x_forwarded_for_is_ignored_unless_trusted() {
    let app = limited(6, 1, false);
    assert_eq!(solve(&app, &[("x-forwarded-for", "192.0.2.1")]).status, 200);
    // Another claimed address is the same peer.
    solve(&app, &[("x-forwarded-for", "192.0.2.2")]).problem(429, "/problems/rate-limited");

    let app = limited(6, 1, true);
    assert_eq!(solve(&app, &[("x-forwarded-for", "192.0.2.1")]).status, 200);
    solve(&app, &[("x-forwarded-for", "192.0.2.1")]).problem(429, "/problems/rate-limited");
    // The last address is the one the proxy saw: what the client wrote before it does not count.
    solve(&app, &[("x-forwarded-for", "203.0.113.9, 192.0.2.1")])
        .problem(429, "/problems/rate-limited");
    assert_eq!(
        solve(&app, &[("x-forwarded-for", "192.0.2.1, 198.51.100.7")]).status,
        200
    );
    // Without the header the peer (127.0.0.1) has its own bucket.
    assert_eq!(solve(&app, &[]).status, 200);
}

#[test]
fn posting_a_mate_counts_against_the_limit_and_a_diagram_does_not() {
    let app = limited(6, 1, false);
    let auth = format!("Bearer {TOKEN}");
    let headers = [("authorization", auth.as_str())];
    let diagram = |i: usize| {
        json!({"kind": "diagram", "fen": PAWN, "rules": "vchess", "moves": ["Pc2c4"],
               "captures": [{"square": "d4", "piece": "r"}, {"square": "c5", "piece": "n"}],
               "title": format!("pawn {i}")})
    };
    for i in 0..3 {
        let r = app.send("POST", "/v1/puzzles", &headers, Some(&diagram(i)));
        assert!(r.status == 200 || r.status == 201, "{}", r.body);
    }
    let mate = json!({"kind": "mate", "fen": KING, "mate_in": 1});
    let r = app.send("POST", "/v1/puzzles", &headers, Some(&mate));
    assert!(r.status == 200 || r.status == 201, "{}", r.body);
    let r = app.send("POST", "/v1/puzzles", &headers, Some(&mate));
    r.problem(429, "/problems/rate-limited");
    assert!(r.header("retry-after").is_some());
    // A solve shares the bucket.
    solve(&app, &[]).problem(429, "/problems/rate-limited");
    // Without the token, the answer is 401 and no token is spent telling it.
    let r = app.send("POST", "/v1/puzzles", &[], Some(&mate));
    r.problem(401, "/problems/unauthorized");
}

#[test]
fn zero_per_minute_turns_the_limit_off() {
    let app = limited(0, 1, false);
    for _ in 0..20 {
        assert_eq!(solve(&app, &[]).status, 200);
    }
}
