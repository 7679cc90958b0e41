//! `GET /health` and `GET /v1/rules`.

use crate::helpers::spawn_app;

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
