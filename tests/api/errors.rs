//! Every error class answers RFC 9457 `application/problem+json` with its status.

use crate::helpers::{spawn_app, spawn_app_with};
use baroque::api::Settings;
use serde_json::json;

#[test]
fn malformed_json_is_400() {
    let app = spawn_app();
    let r = app.post_raw("/v1/analyze", Some("application/json"), b"{\"fen\": ");
    r.problem(400, "/problems/malformed-json");
    let r = app.post_raw("/v1/verify", Some("application/json"), b"not json");
    r.problem(400, "/problems/malformed-json");
}

#[test]
fn bodies_that_do_not_match_the_schema_are_400_and_say_why() {
    let app = spawn_app();
    let fen = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0";
    let cases = [
        (
            json!({"fen": fen, "colour": "white"}),
            "unknown field `colour`",
        ),
        (json!({"rules": "vchess"}), "missing field `fen`"),
        (json!({"fen": 7}), "invalid type"),
        (
            json!({"fen": fen, "rules": "abbot"}),
            "unknown rule set `abbot`",
        ),
        (
            json!({"fen": fen, "rules": {"preset": "abbott", "suicide": "maybe"}}),
            "unknown variant `maybe`",
        ),
        (
            json!({"fen": fen, "rules": {"preset": "abbott", "colour": "on"}}),
            "unknown field `colour`",
        ),
        (json!({"fen": fen, "rules": 3}), "must be a preset name"),
        (json!([fen]), "invalid type"),
    ];
    for (body, says) in cases {
        let p = app
            .post_json("/v1/analyze", &body)
            .problem(400, "/problems/invalid-request");
        assert!(p["detail"].as_str().unwrap().contains(says), "{body}: {p}");
    }
    let p = app
        .post_json("/v1/verify", &json!({"fen": fen, "moves": "Pc2c4"}))
        .problem(400, "/problems/invalid-request");
    assert!(
        p["detail"].as_str().unwrap().contains("invalid type"),
        "{p}"
    );
    let p = app
        .post_json("/v1/verify", &json!({"fen": fen, "moves": [], "extra": 1}))
        .problem(400, "/problems/invalid-request");
    assert!(
        p["detail"]
            .as_str()
            .unwrap()
            .contains("unknown field `extra`"),
        "{p}"
    );
}

#[test]
fn a_body_that_is_not_json_is_415() {
    let app = spawn_app();
    let body = br#"{"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0"}"#;
    app.post_raw("/v1/analyze", Some("text/plain"), body)
        .problem(415, "/problems/unsupported-media-type");
    app.post_raw("/v1/verify", None, body)
        .problem(415, "/problems/unsupported-media-type");
}

#[test]
fn a_body_over_the_limit_is_413() {
    let app = spawn_app();
    let filler = "x".repeat(70 * 1024);
    let body = json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "moves": [filler]});
    let p = app
        .post_json("/v1/verify", &body)
        .problem(413, "/problems/payload-too-large");
    assert_eq!(p["limit"], 65536);

    let small = spawn_app_with(Settings {
        max_body_bytes: 64,
        ..Settings::for_tests()
    });
    let body = json!({"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "moves": ["Pc2c4", "Kh8-g8", "Ka1-b1"]});
    let p = small
        .post_json("/v1/verify", &body)
        .problem(413, "/problems/payload-too-large");
    assert_eq!(p["limit"], 64);
}

#[test]
fn too_many_moves_is_422_with_the_limit() {
    let app = spawn_app();
    let moves = vec!["Pc2c4"; 501];
    let p = app
        .post_json(
            "/v1/verify",
            &json!({"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "moves": moves}),
        )
        .problem(422, "/problems/too-many-moves");
    assert_eq!(p["limit"], 500);
    assert!(p["detail"].as_str().unwrap().contains("501"), "{p}");
}

#[test]
fn an_unreadable_fen_is_422_with_its_field_and_position() {
    let app = spawn_app();
    let cases = [
        // Rank 1 `K8`: the `8` (character 30) overflows the rank.
        ("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K8 w 0", "board", 30),
        ("Z7/8/8/8/8/8/8/K6k w 0", "board", 1),
        ("7k/8/8/8/8/8/8/K7 x 0", "turn", 19),
        ("7k/8/8/8/8/8/8/K7 w zero", "plies", 21),
        ("7k/8/8/8/8/8/8/K7  w  4294967295", "plies", 23),
        // The side to move is missing: the position just after the 17-character board.
        ("7k/8/8/8/8/8/8/K7", "turn", 18),
    ];
    for (fen, field, position) in cases {
        for (path, body) in [
            ("/v1/analyze", json!({"fen": fen})),
            ("/v1/verify", json!({"fen": fen, "moves": []})),
        ] {
            let p = app
                .post_json(path, &body)
                .problem(422, "/problems/invalid-fen");
            assert_eq!(p["field"], field, "{fen}: {p}");
            assert_eq!(p["position"], position, "{fen}: {p}");
        }
    }
}

#[test]
fn an_impossible_position_is_422_listing_every_problem() {
    let app = spawn_app();
    // Two White Kings, and the Black King capturable by the Withdrawer on b7 with White to move.
    let p = app
        .post_json("/v1/analyze", &json!({"fen": "k7/1Q6/8/8/8/8/8/KK6 w 0"}))
        .problem(422, "/problems/impossible-position");
    let codes: Vec<(&str, bool)> = p["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["code"].as_str().unwrap(), x["error"].as_bool().unwrap()))
        .collect();
    assert_eq!(codes, [("two_kings", true), ("opponent_in_check", true)]);
}

#[test]
fn unknown_routes_are_404() {
    let app = spawn_app();
    for path in [
        "/",
        "/v1",
        "/v1/analyse",
        "/v2/analyze",
        "/docs/no-such-file.js",
    ] {
        let p = app.get(path).problem(404, "/problems/not-found");
        assert!(p["detail"].as_str().unwrap().contains(path), "{p}");
    }
    app.request("DELETE", "/nowhere")
        .problem(404, "/problems/not-found");
}

#[test]
fn wrong_methods_are_405_with_allow() {
    let app = spawn_app();
    let cases = [
        ("GET", "/v1/analyze", "POST"),
        ("PUT", "/v1/analyze", "POST"),
        ("GET", "/v1/verify", "POST"),
        ("DELETE", "/v1/verify", "POST"),
        ("POST", "/v1/rules", "GET, HEAD"),
        ("POST", "/health", "GET, HEAD"),
        ("DELETE", "/openapi.json", "GET, HEAD"),
        ("POST", "/docs/", "GET, HEAD"),
    ];
    for (method, path, allow) in cases {
        let r = app.request(method, path);
        let p = r.problem(405, "/problems/method-not-allowed");
        assert_eq!(r.header("allow"), Some(allow), "{method} {path}");
        let listed: Vec<&str> = allow.split(", ").collect();
        assert_eq!(p["allow"], json!(listed), "{method} {path}");
        assert!(p["detail"].as_str().unwrap().contains(method), "{p}");
    }
}

#[test]
fn head_answers_like_get_without_a_body() {
    let app = spawn_app();
    for path in [
        "/health",
        "/v1/rules",
        "/v1/puzzles",
        "/v1/puzzles/1",
        "/openapi.json",
    ] {
        let get = app.request("GET", path);
        let head = app.request("HEAD", path);
        assert_eq!(get.status, 200, "GET {path}: {}", get.body);
        assert_eq!(head.status, 200, "HEAD {path}");
        assert_eq!(head.content_type, get.content_type, "HEAD {path}");
        assert!(head.body.is_empty(), "HEAD {path} sent a body");
        if let Some(length) = head.header("content-length") {
            assert_eq!(length, get.body.len().to_string(), "HEAD {path}");
        }
    }
    // HEAD where only POST is allowed is a 405 that names HEAD.
    let r = app.request("HEAD", "/v1/analyze");
    assert_eq!(r.status, 405);
    assert_eq!(r.header("allow"), Some("POST"));
    // HEAD of a missing puzzle is the GET's 404.
    assert_eq!(app.request("HEAD", "/v1/puzzles/999999").status, 404);
}

#[test]
fn no_input_makes_a_server_error() {
    let app = spawn_app();
    let long = "P".repeat(60_000);
    let bodies = [
        "null",
        "{}",
        "[]",
        "\"\"",
        "1e999",
        r#"{"fen": ""}"#,
        r#"{"fen": "   "}"#,
        r#"{"fen": "é/ü/8/8/8/8/8/8 w 0"}"#,
        r#"{"fen": "99999999999999999999k/8/8/8/8/8/8/K7 w 0"}"#,
        r#"{"fen": "7k/8/8/8/8/8/8/K7 w 99999999999999999999"}"#,
        r#"{"fen": "7k/8/8/8/8/8/8/K7 w 0 extra"}"#,
        r#"{"fen": "7k/8/8/8/8/8/8/K7 w 4294967295"}"#,
        r#"{"fen": "8/8/8/8/8/8/8/8 w 0", "moves": ["Ka1-a2"]}"#,
        r#"{"fen": "7k/8/8/8/8/8/8/K7 w 0", "moves": ["", "é", "Ka1-a2-a3-a4-a5", "K", "1.", "Ka1xa2", "a1a1", "Kz9", "Ka1--a2"]}"#,
        r#"{"fen": "7k/8/8/8/8/8/8/K7 w 0", "moves": ["Ka1a1"], "rules": {"suicide": "on"}}"#,
        r#"{"fen": "7k/8/8/8/8/8/8/K7 w 0", "moves": ["\u0000"]}"#,
    ];
    for body in bodies.iter().map(|b| b.to_string()).chain([
        format!(r#"{{"fen": "{long}"}}"#),
        format!(r#"{{"fen": "7k/8/8/8/8/8/8/K7 w 0", "moves": ["{long}"]}}"#),
    ]) {
        for path in ["/v1/analyze", "/v1/verify"] {
            let r = app.post_raw(path, Some("application/json"), body.as_bytes());
            assert!(r.status < 500, "{path} {body}: {} {}", r.status, r.body);
            if r.status >= 400 {
                assert_eq!(r.content_type, "application/problem+json", "{body}");
            }
        }
    }
}
