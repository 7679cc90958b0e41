//! The OpenAPI document: what the server serves is the committed file, and it is complete.

use crate::helpers::spawn_app;
use serde_json::Value;

fn committed() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn the_served_document_is_the_committed_file() {
    let app = spawn_app();
    let r = app.get("/openapi.json");
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, "application/json");
    assert!(
        r.body == committed(),
        "openapi/openapi.json differs from GET /openapi.json; regenerate it with \
         `cargo run -- openapi > openapi/openapi.json`"
    );
    assert_eq!(r.body, baroque::api::openapi_json());
}

#[test]
fn the_document_describes_every_endpoint_and_every_schema_has_examples() {
    let doc: Value = serde_json::from_str(&committed()).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["license"]["name"], "MIT");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    let paths = doc["paths"].as_object().unwrap();
    let mut ops = Vec::new();
    for (path, item) in paths {
        for (method, op) in item.as_object().unwrap() {
            ops.push(format!("{} {path}", method.to_uppercase()));
            assert!(
                op["tags"].as_array().is_some_and(|t| !t.is_empty()),
                "{path}"
            );
            assert!(
                op["summary"].as_str().is_some_and(|s| !s.is_empty()),
                "{path}"
            );
            assert!(
                op["description"].as_str().is_some_and(|s| s.len() > 40),
                "{path}"
            );
        }
    }
    ops.sort();
    assert_eq!(
        ops,
        [
            "DELETE /v1/jobs/{id}",
            "DELETE /v1/puzzles/{id}",
            "GET /embed",
            "GET /embed/collections/{name}",
            "GET /embed/next",
            "GET /embed/puzzles/{id}",
            "GET /health",
            "GET /metrics",
            "GET /ready",
            "GET /v1/collections",
            "GET /v1/collections/{name}",
            "GET /v1/collections/{name}/export",
            "GET /v1/diagram.svg",
            "GET /v1/jobs/{id}",
            "GET /v1/puzzles",
            "GET /v1/puzzles/next",
            "GET /v1/puzzles/{id}",
            "GET /v1/puzzles/{id}/diagram.svg",
            "GET /v1/puzzles/{id}/outcome",
            "GET /v1/rules",
            "PATCH /v1/puzzles/{id}",
            "POST /v1/analyze",
            "POST /v1/collections",
            "POST /v1/play",
            "POST /v1/puzzles",
            "POST /v1/puzzles/anticipation",
            "POST /v1/puzzles/{id}/attempts",
            "POST /v1/puzzles/{id}/play",
            "POST /v1/solve",
            "POST /v1/verify"
        ]
    );
    for path in ["/v1/analyze", "/v1/verify", "/v1/solve"] {
        let responses = doc["paths"][path]["post"]["responses"].as_object().unwrap();
        for status in ["400", "413", "415", "422"] {
            assert!(
                responses[status]["content"]["application/problem+json"].is_object(),
                "{path} {status}"
            );
        }
    }
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    for name in [
        "AnalyzeRequest",
        "AnalyzeResponse",
        "VerifyRequest",
        "VerifyResponse",
        "SolveRequest",
        "SolveResponse",
        "Problem",
    ] {
        assert!(schemas.contains_key(name), "{name}");
    }
    for (name, schema) in schemas {
        let has = schema["examples"].as_array().is_some_and(|e| !e.is_empty())
            || !schema["example"].is_null();
        assert!(has, "schema {name} has no example");
    }
    let req = &schemas["VerifyRequest"];
    assert_eq!(req["additionalProperties"], false);
    assert_eq!(
        req["examples"][0]["fen"],
        "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0"
    );
}

/// The enum of a query parameter of an operation, following a `$ref`.
fn parameter_enum(doc: &Value, path: &str, name: &str) -> Vec<String> {
    let params = doc["paths"][path]["get"]["parameters"].as_array().unwrap();
    let p = params.iter().find(|p| p["name"] == name).unwrap();
    let mut schema = p["schema"].clone();
    // `Option<T>` is written as `oneOf: [null, {$ref}]`.
    if let Some(alts) = schema["oneOf"].as_array() {
        schema = alts.iter().find(|a| a["$ref"].is_string()).unwrap().clone();
    }
    if let Some(r) = schema["$ref"].as_str() {
        let name = r.rsplit('/').next().unwrap();
        schema = doc["components"]["schemas"][name].clone();
    }
    schema["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{path} {name}: {schema}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_diagram_coords_are_documented_as_they_are_read() {
    let doc: Value = serde_json::from_str(&committed()).unwrap();
    let app = spawn_app();
    for path in ["/v1/diagram.svg", "/v1/puzzles/{id}/diagram.svg"] {
        let values = parameter_enum(&doc, path, "coords");
        assert_eq!(values, ["standard", "page", "none"], "{path}");
    }
    // Each documented value is taken (`page` by a Rococo board).
    let rococo = "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10%20w%200";
    for c in ["standard", "page", "none"] {
        let r = app.get(&format!(
            "/v1/diagram.svg?game=rococo&fen={rococo}&coords={c}"
        ));
        assert_eq!(r.status, 200, "{c}: {}", r.body);
    }
    // The request body's `coords` is another type, without `none`.
    assert_eq!(
        doc["components"]["schemas"]["CoordsName"]["enum"],
        serde_json::json!(["standard", "page"])
    );
}

/// Each documented error response shows its own kinds of problem: an example per kind its
/// description names (or, naming none, per kind of its status), each of that status.
#[test]
fn every_error_response_has_examples_of_its_own_problems() {
    let doc: Value = serde_json::from_str(&committed()).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut responses = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for (status, r) in op["responses"].as_object().unwrap() {
                let Some(content) = r["content"].get("application/problem+json") else {
                    continue;
                };
                responses += 1;
                let examples = content["examples"]
                    .as_object()
                    .unwrap_or_else(|| panic!("{method} {path} {status}: no examples"));
                assert!(!examples.is_empty(), "{method} {path} {status}");
                let description = r["description"].as_str().unwrap();
                for (name, example) in examples {
                    let value = &example["value"];
                    assert_eq!(
                        value["type"],
                        format!("/problems/{name}"),
                        "{method} {path}"
                    );
                    assert_eq!(
                        value["status"].to_string(),
                        *status,
                        "{method} {path} {name}"
                    );
                    assert!(
                        description.contains(&format!("`{name}`")) || !description.contains("(`"),
                        "{method} {path} {status}: {name} is not named in {description:?}"
                    );
                    seen.insert(name.clone());
                }
            }
        }
    }
    assert!(responses > 40, "{responses}");
    for kind in [
        "not-found",
        "unauthorized",
        "solver-busy",
        "invalid-fen",
        "rate-limited",
    ] {
        assert!(seen.contains(kind), "{kind} in no example: {seen:?}");
    }
}

/// The summaries and tag descriptions say what the endpoints do today: an operation that takes a
/// `stipulation` (in its body or its query) says so in its summary, and nothing is described as
/// taking only "mate in N".
#[test]
fn summaries_name_the_stipulation_wherever_one_is_taken() {
    let doc: Value = serde_json::from_str(&committed()).unwrap();
    let schemas = &doc["components"]["schemas"];
    let takes_stipulation = |op: &Value| {
        let in_query = op["parameters"]
            .as_array()
            .is_some_and(|ps| ps.iter().any(|p| p["name"] == "stipulation"));
        let body = &op["requestBody"]["content"]["application/json"]["schema"]["$ref"];
        let in_body = body.as_str().is_some_and(|r| {
            let name = r.rsplit('/').next().unwrap();
            !schemas[name]["properties"]["stipulation"].is_null()
        });
        in_query || in_body
    };
    let stale = |text: &str| {
        let t = text.to_lowercase();
        t.contains("mate in n\"") || t.contains("mate-in-n") || t.contains("\"mate in n")
    };
    let mut taking = 0;
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            let summary = op["summary"].as_str().unwrap_or_default();
            assert!(!stale(summary), "{method} {path}: {summary}");
            if takes_stipulation(op) {
                taking += 1;
                assert!(
                    summary.contains("stipulation"),
                    "{method} {path} takes a stipulation, its summary does not say so: {summary}"
                );
            }
        }
    }
    // `/v1/solve`, `/v1/play`, `POST` and `GET /v1/puzzles`, `POST /v1/collections`.
    assert!(taking >= 5, "{taking}");
    for tag in doc["tags"].as_array().unwrap() {
        let text = tag["description"].as_str().unwrap();
        assert!(!stale(text), "{text}");
    }
}
