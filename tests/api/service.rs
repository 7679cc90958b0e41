//! `GET /health` and `GET /v1/rules`.

use crate::helpers::{on_postgres, spawn_app};

#[test]
fn health_answers_ok_with_the_version() {
    let app = spawn_app();
    let r = app.get("/health");
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, "application/json");
    assert_eq!(
        r.json(),
        serde_json::json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")})
    );
}

#[test]
fn rules_lists_the_presets_and_options_with_a_sentence_each() {
    let app = spawn_app();
    let r = app.get("/v1/rules");
    assert_eq!(r.status, 200);
    let body = r.json();
    let presets: Vec<&str> = body["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(presets, ["abbott", "cambridge", "vchess"]);
    let defaults: Vec<&str> = body["presets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["default"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(defaults, ["abbott"]);
    let options: Vec<(&str, &str)> = body["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["name"].as_str().unwrap(), o["default"].as_str().unwrap()))
        .collect();
    assert_eq!(
        options,
        [
            ("leaper", "long"),
            ("suicide", "off"),
            ("stalemate", "draw")
        ]
    );
    for item in body["presets"]
        .as_array()
        .unwrap()
        .iter()
        .chain(body["options"].as_array().unwrap())
    {
        let d = item["description"].as_str().unwrap();
        assert!(d.len() > 40 && d.ends_with('.'), "{d}");
    }
}

#[test]
fn responses_are_gzipped_when_the_client_asks() {
    let app = spawn_app();
    let res = ureq::get(app.url("/v1/rules"))
        .header("accept-encoding", "gzip")
        .call()
        .unwrap();
    assert_eq!(
        res.headers()
            .get("content-encoding")
            .and_then(|v| v.to_str().ok()),
        Some("gzip")
    );
}

/// The value of a Prometheus sample whose name is `name` and whose labels include every one of
/// `labels` (as `key="value"`); 0 when there is none.
fn sample(text: &str, name: &str, labels: &[&str]) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            let (metric, rest) = series.split_once('{').unwrap_or((series, ""));
            (metric == name && labels.iter().all(|want| rest.contains(want)))
                .then(|| value.parse::<f64>().ok())?
        })
        .sum()
}

#[test]
fn a_request_id_is_echoed_and_carried_by_every_problem() {
    let app = spawn_app();
    // The client's id, when usable, is kept.
    let r = app.send("GET", "/health", &[("x-request-id", "trace-42/abc")], None);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("x-request-id"), Some("trace-42/abc"));
    // Else one is made: 32 hexadecimal digits, different each time.
    let a = app.get("/health");
    let b = app.get("/health");
    let (a, b) = (
        a.header("x-request-id").unwrap(),
        b.header("x-request-id").unwrap(),
    );
    assert!(
        a.len() == 32 && a.bytes().all(|c| c.is_ascii_hexdigit()),
        "{a}"
    );
    assert_ne!(a, b);
    let long = "x".repeat(200);
    let r = app.send("GET", "/health", &[("x-request-id", &long)], None);
    assert_eq!(r.header("x-request-id").map(str::len), Some(32));
    // A problem carries the id in its body, whatever produced it: a handler, a JSON extractor, a
    // route that does not exist, a wrong method.
    let bad_fen = serde_json::json!({"fen": "9/8 w 0"});
    for (method, path, body) in [
        ("POST", "/v1/analyze", Some(&bad_fen)),
        ("POST", "/v1/analyze", Some(&serde_json::json!({"fen": 3}))),
        ("GET", "/nowhere", None),
        ("DELETE", "/health", None),
    ] {
        let r = app.send(method, path, &[("x-request-id", "req-7")], body);
        assert_eq!(r.content_type, "application/problem+json", "{path}");
        assert_eq!(r.header("x-request-id"), Some("req-7"), "{path}");
        assert_eq!(
            r.json()["request_id"],
            "req-7",
            "{method} {path}: {}",
            r.body
        );
    }
}

#[test]
fn ready_answers_when_the_store_is_migrated() {
    let app = spawn_app();
    let r = app.get("/ready");
    assert_eq!(r.status, 200, "{}", r.body);
    if on_postgres() {
        // The test cluster offers no TLS: the default `prefer` connects in the clear.
        assert_eq!(
            r.json(),
            serde_json::json!({"status": "ready", "store": "postgres",
                "tls": {"sslmode": "prefer", "active": false, "version": null, "cipher": null}})
        );
    } else {
        assert_eq!(
            r.json(),
            serde_json::json!({"status": "ready", "store": "sqlite"})
        );
    }
    // A database another build migrated further (or an older one) is not ready for this build.
    app.set_schema_version(999);
    let p = app
        .get("/ready")
        .problem(503, "/problems/store-unavailable");
    assert!(
        p["detail"].as_str().unwrap().contains("schema version 999"),
        "{p}"
    );
}

#[test]
fn metrics_are_prometheus_text_and_move_with_the_requests() {
    let app = spawn_app();
    let scrape = || {
        let r = app.get("/metrics");
        assert_eq!(r.status, 200);
        assert!(
            r.content_type.starts_with("text/plain; version=0.0.4"),
            "{}",
            r.content_type
        );
        r.body
    };
    let before = scrape();
    for _ in 0..3 {
        assert_eq!(app.get("/health").status, 200);
    }
    assert_eq!(app.get("/v1/puzzles/999999").status, 404);
    let solve = app.post_json(
        "/v1/solve",
        &serde_json::json!({"fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "mate_in": 2}),
    );
    assert_eq!(solve.status, 200, "{}", solve.body);
    let play = app.post_json(
        "/v1/play",
        &serde_json::json!({"fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "stipulation": "#2", "moves": ["Bg6xc6"]}),
    );
    assert_eq!(play.status, 200, "{}", play.body);
    assert_eq!(play.json()["verdict"], "correct", "{}", play.body);
    let after = scrape();
    let health = ["route=\"/health\"", "method=\"GET\"", "status=\"200\""];
    let moved =
        |name: &str, labels: &[&str]| sample(&after, name, labels) - sample(&before, name, labels);
    assert!(
        moved("baroque_http_requests_total", &health) >= 3.0,
        "{after}"
    );
    assert!(
        moved(
            "baroque_http_requests_total",
            &["route=\"/v1/puzzles/{id}\"", "status=\"404\""]
        ) >= 1.0,
        "{after}"
    );
    assert!(
        moved(
            "baroque_http_request_duration_seconds_count",
            &["route=\"/health\""]
        ) >= 3.0,
        "{after}"
    );
    assert!(
        after.contains("# TYPE baroque_http_request_duration_seconds histogram"),
        "{after}"
    );
    assert!(
        after.contains("baroque_http_request_duration_seconds_bucket{"),
        "{after}"
    );
    assert!(
        moved("baroque_solver_searches_total", &["outcome=\"mate\""]) >= 1.0,
        "{after}"
    );
    let nodes = solve.json()["nodes"].as_f64().unwrap();
    assert!(moved("baroque_solver_nodes_total", &[]) >= nodes, "{after}");
    assert!(
        after.contains("# TYPE baroque_http_requests_total counter"),
        "{after}"
    );
    assert!(
        moved("baroque_play_moves_total", &["verdict=\"correct\""]) >= 1.0,
        "{after}"
    );
    assert!(
        after.contains("# HELP baroque_play_moves_total moves judged"),
        "{after}"
    );
}

/// Methods HTTP does not define are one `other` label: random methods do not grow `/metrics`, and
/// every label value comes from a closed set.
#[test]
fn random_methods_do_not_grow_the_metrics() {
    let app = spawn_app();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut methods = Vec::new();
    for _ in 0..300 {
        let method: String = (0..40)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                char::from(b'A' + (seed % 26) as u8)
            })
            .collect();
        // (An HTTP client refuses such methods: the request is written by hand.)
        use std::io::{Read, Write};
        let addr = app
            .url("")
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "{method} /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 405"), "{method}: {answer}");
        assert!(answer.len() < 3_000, "{answer}");
        methods.push(method);
    }
    let scrape = app.get("/metrics").body;
    let known = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE", "other",
    ];
    let mut labels = std::collections::BTreeSet::new();
    for line in scrape.lines().filter(|l| !l.starts_with('#')) {
        if let Some(rest) = line.split("method=\"").nth(1) {
            labels.insert(rest.split('"').next().unwrap().to_string());
        }
    }
    assert!(labels.contains("other"), "{labels:?}");
    for label in &labels {
        assert!(known.contains(&label.as_str()), "method label {label}");
    }
    assert!(!methods.iter().any(|m| scrape.contains(m.as_str())));
    // A handful of series per route, method and status: nowhere near one per request.
    assert!(
        scrape.lines().count() < 3_000,
        "{} lines",
        scrape.lines().count()
    );
}
