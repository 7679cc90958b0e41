//! `GET /v1/diagram.svg` and `GET /v1/puzzles/{id}/diagram.svg` over HTTP: the image is XML with
//! the pieces on their squares, marks and arrows; strong ETags with `If-None-Match`; problems for
//! bad parameters.

use crate::helpers::{spawn_app, Reply, TestApp};
use serde_json::Value;
use std::collections::BTreeMap;

const START: &str = "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0";
const ROCOCO: &str = "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0 -";

/// A FEN for a query string.
fn enc(fen: &str) -> String {
    fen.replace(' ', "%20")
}

/// The image's pieces, `data-square` -> `data-piece`; checks the answer is an SVG document.
fn pieces(r: &Reply) -> BTreeMap<String, String> {
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.content_type, "image/svg+xml");
    let doc = roxmltree::Document::parse(&r.body).expect("the SVG is XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("piece"))
        .map(|n| {
            (
                n.attribute("data-square").unwrap().to_string(),
                n.attribute("data-piece").unwrap().to_string(),
            )
        })
        .collect()
}

/// The values of `attr` on the elements of class `class`.
fn attrs(body: &str, class: &str, attr: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(body).unwrap();
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|n| n.attribute(attr).unwrap_or_default().to_string())
        .collect()
}

/// The pieces a FEN's board places, square -> letter (files from `a`, ranks from the top).
fn fen_pieces(fen: &str, width: u8) -> BTreeMap<String, String> {
    let board = fen.split(' ').next().unwrap();
    let mut out = BTreeMap::new();
    for (i, rank) in board.split('/').enumerate() {
        let r = width as usize - i;
        let mut f = 0u32;
        let mut num = 0u32;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                num = num * 10 + d;
                continue;
            }
            f += num;
            num = 0;
            out.insert(format!("{}{r}", (b'a' + f as u8) as char), c.to_string());
            f += 1;
        }
    }
    out
}

#[test]
fn a_baroque_position_is_drawn_with_marks_and_arrows() {
    let app = spawn_app();
    let r = app.get(&format!(
        "/v1/diagram.svg?fen={}&marks=d4,d6&arrows=d2d8&size=256",
        enc(START)
    ));
    let got = pieces(&r);
    assert_eq!(got, fen_pieces(START, 8));
    assert_eq!(got["a1"], "M");
    assert_eq!(got["d1"], "Q");
    assert_eq!(got["h1"], "R");
    assert_eq!(got["e8"], "q");
    assert_eq!(attrs(&r.body, "mark", "data-square"), ["d4", "d6"]);
    assert_eq!(attrs(&r.body, "arrow", "data-from"), ["d2"]);
    assert_eq!(attrs(&r.body, "arrow", "data-to"), ["d8"]);
    let doc = roxmltree::Document::parse(&r.body).unwrap();
    assert_eq!(doc.root_element().attribute("width"), Some("256"));
    let etag = r.header("etag").unwrap();
    assert!(
        etag.starts_with('"') && etag.ends_with('"') && etag.len() == 34,
        "{etag}"
    );
    assert_eq!(r.header("cache-control"), Some("public, max-age=86400"));
    // The Baroque-style letters read the same.
    let baroque_letters = START
        .replace('m', "i")
        .replace('M', "I")
        .replace('q', "w")
        .replace('Q', "W");
    let r2 = app.get(&format!(
        "/v1/diagram.svg?fen={}&marks=d4,d6&arrows=d2d8&size=256&game=baroque",
        enc(&baroque_letters)
    ));
    assert_eq!(pieces(&r2), got);
    assert_eq!(r2.header("etag"), Some(etag));
}

#[test]
fn a_rococo_position_is_drawn_in_either_coordinates() {
    let app = spawn_app();
    let r = app.get(&format!(
        "/v1/diagram.svg?fen={}&game=rococo&marks=a10,j1&arrows=e2-e9",
        enc(ROCOCO)
    ));
    let got = pieces(&r);
    assert_eq!(got, fen_pieces(ROCOCO, 10));
    assert_eq!(got["e2"], "K");
    assert_eq!(got["h2"], "A");
    assert_eq!(got["i9"], "s");
    assert_eq!(attrs(&r.body, "mark", "data-square"), ["a10", "j1"]);
    let doc = roxmltree::Document::parse(&r.body).unwrap();
    assert_eq!(doc.root_element().attribute("data-game"), Some("rococo"));
    // The page's names: its a1 is our b2.
    let r = app.get(&format!(
        "/v1/diagram.svg?fen={}&game=rococo&coords=page&marks=x00,y0&arrows=d1d8",
        enc(ROCOCO)
    ));
    let got = pieces(&r);
    assert_eq!(got["d1"], "K");
    assert_eq!(got["a1"], "I");
    assert_eq!(attrs(&r.body, "mark", "data-square"), ["x00", "y0"]);
    assert_eq!(attrs(&r.body, "arrow", "data-from"), ["d1"]);
    let labels: Vec<String> = roxmltree::Document::parse(&r.body)
        .unwrap()
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text().map(str::to_string))
        .collect();
    for l in ["x", "y", "0", "00"] {
        assert!(labels.iter().any(|t| t == l), "{l}");
    }
    // No coordinates.
    let r = app.get(&format!(
        "/v1/diagram.svg?fen={}&game=rococo&coords=none",
        enc(ROCOCO)
    ));
    assert!(!r.body.contains("<text"));
}

#[test]
fn an_etag_named_in_if_none_match_gets_304() {
    let app = spawn_app();
    let path = format!("/v1/diagram.svg?fen={}&arrows=e2e4", enc(START));
    let first = app.get(&path);
    assert_eq!(first.status, 200);
    let tag = first.header("etag").unwrap().to_string();
    for sent in [
        tag.clone(),
        format!("W/{tag}"),
        format!("\"other\", {tag}"),
        "*".into(),
    ] {
        let r = app.send("GET", &path, &[("if-none-match", sent.as_str())], None);
        assert_eq!(r.status, 304, "{sent}");
        assert!(r.body.is_empty());
        assert_eq!(r.header("etag"), Some(tag.as_str()));
        assert!(r.header("cache-control").is_some());
    }
    let r = app.send("GET", &path, &[("if-none-match", "\"other\"")], None);
    assert_eq!(r.status, 200);
    assert_eq!(r.body, first.body, "the same query draws the same bytes");
    // Another drawing, another tag.
    let r = app.get(&format!("/v1/diagram.svg?fen={}&arrows=e2e5", enc(START)));
    assert_ne!(r.header("etag"), Some(tag.as_str()));
}

#[test]
fn bad_parameters_are_problems_that_name_them() {
    let app = spawn_app();
    let fen = enc(START);
    for (query, parameter) in [
        (format!("fen={fen}&marks=d4,z9"), "marks"),
        (format!("fen={fen}&marks=d9"), "marks"),
        (format!("fen={fen}&arrows=d2"), "arrows"),
        (format!("fen={fen}&arrows=d2d9"), "arrows"),
        (
            format!("fen={fen}&arrows={}", vec!["a1a2"; 33].join(",")),
            "arrows",
        ),
        (format!("fen={fen}&size=10"), "size"),
        (format!("fen={fen}&size=4096"), "size"),
        (format!("fen={fen}&size=big"), "size"),
        (format!("fen={fen}&coords=page"), "coords"),
        (format!("fen={fen}&coords=fancy"), "coords"),
        (format!("fen={fen}&game=chess"), "game"),
        (format!("fen={fen}&flip=maybe"), "flip"),
        (
            format!("fen={}&game=rococo&marks=j10,k1", enc(ROCOCO)),
            "marks",
        ),
    ] {
        let r = app.get(&format!("/v1/diagram.svg?{query}"));
        let p = r.problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{query}: {p}");
        assert!(
            p["detail"]
                .as_str()
                .unwrap()
                .contains(&format!("`{parameter}`")),
            "{p}"
        );
    }
    // A FEN that does not read: where and why.
    let r = app.get("/v1/diagram.svg?fen=rnbkqbnm/pppppppp/9/8/8/8/PPPPPPPP/MNBQKBNR%20w%200");
    let p = r.problem(422, "/problems/invalid-fen");
    assert_eq!(p["field"], "board");
    // A Baroque FEN is not a Rococo one.
    let r = app.get(&format!("/v1/diagram.svg?fen={fen}&game=rococo"));
    r.problem(422, "/problems/invalid-fen");
    // Unknown and missing parameters.
    app.get(&format!("/v1/diagram.svg?fen={fen}&colour=red"))
        .problem(400, "/problems/invalid-request");
    app.get("/v1/diagram.svg")
        .problem(400, "/problems/invalid-request");
    app.get("/v1/diagram.svg?fen=")
        .problem(422, "/problems/invalid-fen");
    // Text that must be escaped is refused or escaped, never echoed raw.
    let r = app.get("/v1/diagram.svg?fen=%3Cscript%3E&marks=%3Cb%3E");
    assert!(r.status == 422 || r.status == 400, "{}", r.status);
    assert!(!r.body.contains("<script>"));
    let r = app.get(&format!("/v1/diagram.svg?fen={fen}&marks=%3Cscript%3E%22"));
    let p = r.problem(400, "/problems/invalid-parameter");
    assert_eq!(p["parameter"], "marks");
}

#[test]
fn nothing_a_client_sends_gets_a_server_error() {
    let app = spawn_app();
    for query in [
        "fen=%00%FF",
        "fen=8/8/8/8/8/8/8/8%20w%200&marks=,,,&arrows=,",
        "fen=8/8/8/8/8/8/8/8%20w%200&arrows=a1a1",
        "fen=10/10/10/10/10/10/10/10/10/10%20w%200%20-&game=rococo&arrows=x00y0&coords=page",
        "fen=10/10/10/10/10/10/10/10/10/10%20w%200%20x00y0&game=rococo&coords=page",
        "fen=8/8/8/8/8/8/8/8%20w%200&marks=%C3%A9%C3%A9,a1",
        "fen=8/8/8/8/8/8/8/8%20w%200&arrows=%C3%A91a2",
        "fen=8/8/8/8/8/8/8/8%20w%200&size=64&flip=1",
        "fen=8/8/8/8/8/8/8/8%20w%200&size=2048&flip=true",
        "fen=999999999999/8/8/8/8/8/8/8%20w%200",
        "fen=8/8/8/8/8/8/8/8%20w%20999999999999999999999",
    ] {
        let r = app.get(&format!("/v1/diagram.svg?{query}"));
        assert!(r.status < 500, "{query}: {} {}", r.status, r.body);
        if r.status == 200 {
            roxmltree::Document::parse(&r.body).expect("XML");
        }
    }
}

/// Every stored puzzle.
fn puzzles(app: &TestApp) -> Vec<Value> {
    let r = app.get("/v1/puzzles?limit=200");
    assert_eq!(r.status, 200);
    r.json()["items"].as_array().unwrap().clone()
}

#[test]
fn a_stored_puzzle_is_drawn_with_its_answer_on_request() {
    let app = spawn_app();
    let all = puzzles(&app);
    let mate = all
        .iter()
        .find(|p| p["fixture"] == "wp-chameleon-mate-in-2")
        .expect("the seeded Chameleon mate");
    let id = mate["id"].as_i64().unwrap();
    let fen = mate["fen"].as_str().unwrap();
    let r = app.get(&format!("/v1/puzzles/{id}/diagram.svg"));
    assert_eq!(pieces(&r), fen_pieces(fen, 8));
    assert!(
        attrs(&r.body, "arrow", "data-from").is_empty(),
        "no answer unless asked"
    );
    assert_eq!(r.header("cache-control"), Some("public, max-age=300"));
    let doc = roxmltree::Document::parse(&r.body).unwrap();
    let title = doc.root_element().first_element_child().unwrap();
    assert!(
        title.text().unwrap().starts_with(&format!("Puzzle {id}: ")),
        "{:?}",
        title.text()
    );
    // The key Bg6xc6, as an arrow.
    let r = app.get(&format!(
        "/v1/puzzles/{id}/diagram.svg?solution=true&size=300&marks=c6"
    ));
    assert_eq!(attrs(&r.body, "arrow", "data-from"), ["g6"]);
    assert_eq!(attrs(&r.body, "arrow", "data-to"), ["c6"]);
    assert_eq!(attrs(&r.body, "mark", "data-square"), ["c6"]);
    let tag = r.header("etag").unwrap().to_string();
    let again = app.send(
        "GET",
        &format!("/v1/puzzles/{id}/diagram.svg?solution=true&size=300&marks=c6"),
        &[("if-none-match", tag.as_str())],
        None,
    );
    assert_eq!(again.status, 304);

    // A Rococo diagram: its first move as the answer.
    let rococo = all
        .iter()
        .find(|p| p["game"] == "rococo" && p["moves"].as_array().is_some_and(|m| !m.is_empty()))
        .expect("a seeded Rococo diagram with moves");
    let id = rococo["id"].as_i64().unwrap();
    let r = app.get(&format!(
        "/v1/puzzles/{id}/diagram.svg?solution=1&coords=standard"
    ));
    assert_eq!(pieces(&r), fen_pieces(rococo["fen"].as_str().unwrap(), 10));
    assert_eq!(
        attrs(&r.body, "arrow", "data-from").len(),
        1,
        "{}",
        rococo["moves"]
    );
    let r = app.get(&format!("/v1/puzzles/{id}/diagram.svg?coords=page"));
    assert_eq!(r.status, 200);

    // Errors.
    app.get("/v1/puzzles/999999/diagram.svg")
        .problem(404, "/problems/not-found");
    app.get("/v1/puzzles/abc/diagram.svg")
        .problem(404, "/problems/not-found");
    let p = app
        .get(&format!(
            "/v1/puzzles/{}/diagram.svg?coords=page",
            mate["id"]
        ))
        .problem(400, "/problems/invalid-parameter");
    assert_eq!(p["parameter"], "coords");
    let p = app
        .get(&format!(
            "/v1/puzzles/{}/diagram.svg?solution=yes",
            mate["id"]
        ))
        .problem(400, "/problems/invalid-parameter");
    assert_eq!(p["parameter"], "solution");
    app.get(&format!("/v1/puzzles/{}/diagram.svg?fen=8", mate["id"]))
        .problem(400, "/problems/invalid-request");
    let r = app.request("POST", &format!("/v1/puzzles/{}/diagram.svg", mate["id"]));
    r.problem(405, "/problems/method-not-allowed");
}

#[test]
fn a_rococo_mate_puzzle_is_drawn_with_its_key_on_request() {
    let app = spawn_app();
    let mate = puzzles(&app)
        .into_iter()
        .find(|p| p["game"] == "rococo" && p["kind"] == "mate")
        .expect("a seeded Rococo mate");
    let id = mate["id"].as_i64().unwrap();
    let key = app.get(&format!("/v1/puzzles/{id}/outcome")).json()["keys"][0]["uci"]
        .as_str()
        .unwrap()
        .to_string();
    let r = app.get(&format!("/v1/puzzles/{id}/diagram.svg?solution=true"));
    assert_eq!(pieces(&r), fen_pieces(mate["fen"].as_str().unwrap(), 10));
    let (from, to) = (
        attrs(&r.body, "arrow", "data-from"),
        attrs(&r.body, "arrow", "data-to"),
    );
    assert_eq!(from.len(), 1, "the key {key} as an arrow");
    assert_eq!(format!("{}{}", from[0], to[0]), key);
    // In the page's names too.
    let r = app.get(&format!(
        "/v1/puzzles/{id}/diagram.svg?solution=true&coords=page"
    ));
    assert_eq!(attrs(&r.body, "arrow", "data-from").len(), 1);
}
