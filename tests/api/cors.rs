//! CORS: `--cors-allow-origin` lets web pages of the named origins call the API; `*` lets any
//! origin call the endpoints that need no token; none by default.

use crate::helpers::{spawn_app, spawn_app_with};
use baroque::api::Settings;

const SITE: &str = "https://puzzles.example";

fn with_origins(origins: &[&str]) -> crate::helpers::TestApp {
    spawn_app_with(Settings {
        cors_allow_origin: origins.iter().map(|o| o.to_string()).collect(),
        ..Settings::for_tests()
    })
}

fn preflight(
    app: &crate::helpers::TestApp,
    path: &str,
    origin: &str,
    method: &str,
    headers: &str,
) -> crate::helpers::Reply {
    app.send(
        "OPTIONS",
        path,
        &[
            ("origin", origin),
            ("access-control-request-method", method),
            ("access-control-request-headers", headers),
        ],
        None,
    )
}

#[test]
fn a_named_origin_may_call_every_endpoint() {
    let app = with_origins(&[SITE, "http://localhost:3000"]);
    let r = preflight(
        &app,
        "/v1/puzzles",
        SITE,
        "POST",
        "content-type,authorization",
    );
    assert!(
        r.status == 200 || r.status == 204,
        "{} {}",
        r.status,
        r.body
    );
    assert_eq!(r.header("access-control-allow-origin"), Some(SITE));
    let methods = r
        .header("access-control-allow-methods")
        .unwrap()
        .to_lowercase();
    assert!(
        methods.contains("post") && methods.contains("delete"),
        "{methods}"
    );
    let headers = r
        .header("access-control-allow-headers")
        .unwrap()
        .to_lowercase();
    assert!(headers.contains("authorization"), "{headers}");
    assert_eq!(r.header("access-control-max-age"), Some("3600"));
    // An actual request from the page gets the header and may read the exposed ones.
    let r = app.send("GET", "/health", &[("origin", SITE)], None);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some(SITE));
    let exposed = r
        .header("access-control-expose-headers")
        .unwrap()
        .to_lowercase();
    assert!(
        exposed.contains("x-request-id") && exposed.contains("etag"),
        "{exposed}"
    );
    let r = app.send(
        "GET",
        "/health",
        &[("origin", "http://localhost:3000")],
        None,
    );
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("http://localhost:3000")
    );
    // Another origin is served, without CORS headers: its page cannot read the answer.
    let r = app.send(
        "GET",
        "/health",
        &[("origin", "https://elsewhere.example")],
        None,
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), None);
}

#[test]
fn any_origin_reaches_the_endpoints_without_a_token_only() {
    let app = with_origins(&["*"]);
    let r = preflight(
        &app,
        "/v1/solve",
        "https://any.example",
        "POST",
        "content-type",
    );
    assert!(
        r.status == 200 || r.status == 204,
        "{} {}",
        r.status,
        r.body
    );
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    let r = app.send(
        "GET",
        "/v1/rules",
        &[("origin", "https://any.example")],
        None,
    );
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    // A write needs the token's header, which no other origin may send; nor may it DELETE.
    let r = preflight(
        &app,
        "/v1/puzzles",
        "https://any.example",
        "POST",
        "content-type,authorization",
    );
    assert!(
        r.header("access-control-allow-origin").is_none() || r.status >= 400,
        "{} {:?}",
        r.status,
        r.headers
    );
    let r = preflight(&app, "/v1/puzzles/1", "https://any.example", "DELETE", "");
    assert!(
        r.header("access-control-allow-origin").is_none() || r.status >= 400,
        "{} {:?}",
        r.status,
        r.headers
    );
}

#[test]
fn no_origin_is_allowed_by_default() {
    let app = spawn_app();
    let r = app.send("GET", "/health", &[("origin", SITE)], None);
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), None);
    let r = preflight(&app, "/v1/solve", SITE, "POST", "content-type");
    assert_eq!(r.header("access-control-allow-origin"), None);
    r.problem(405, "/problems/method-not-allowed");
}

#[test]
fn an_unusable_origin_stops_start_up() {
    for bad in [
        vec!["puzzles.example"],
        vec!["https://puzzles.example/"],
        vec!["*", SITE],
    ] {
        let err = baroque::api::Application::build(Settings {
            cors_allow_origin: bad.iter().map(|o| o.to_string()).collect(),
            ..Settings::for_tests()
        })
        .unwrap_err()
        .to_string();
        assert!(err.contains("--cors-allow-origin"), "{bad:?}: {err}");
    }
}
