//! The player pages over HTTP: `/embed/puzzles/{id}` and `/embed`, their policy, their files,
//! their weight and their errors (the page's play is tested in Chromium: tests/browser.rs).

use crate::helpers::{spawn_app, spawn_app_with, TestApp};
use baroque::api::Settings;
use serde_json::Value;

const CHAMELEON: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";

fn fixture_id(app: &TestApp, name: &str) -> i64 {
    app.get("/v1/puzzles?limit=200").json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["fixture"] == name)
        .unwrap()["id"]
        .as_i64()
        .unwrap()
}

/// The page's configuration, as its script reads it.
fn config(body: &str) -> Value {
    let start = body.find("id=\"baroque-config\">").unwrap() + "id=\"baroque-config\">".len();
    let end = start + body[start..].find("</script>").unwrap();
    serde_json::from_str(&body[start..end]).unwrap()
}

fn query(s: &str) -> String {
    s.replace('#', "%23")
        .replace(' ', "%20")
        .replace('/', "%2F")
}

#[test]
fn a_stored_puzzle_gets_its_page_with_a_policy_that_lets_any_site_frame_it() {
    let app = spawn_app();
    let id = fixture_id(&app, "wp-chameleon-mate-in-2");
    let r = app.get(&format!("/embed/puzzles/{id}?theme=dark&lang=fr&flip=true"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.content_type, "text/html; charset=utf-8");
    let csp = r.header("content-security-policy").unwrap();
    assert!(csp.contains("default-src 'none'"), "{csp}");
    assert!(
        csp.contains("script-src 'self'") && csp.contains("connect-src 'self'"),
        "{csp}"
    );
    assert!(csp.ends_with("frame-ancestors *"), "{csp}");
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    assert!(
        r.body.contains("<html lang=\"fr\" data-theme=\"dark\">"),
        "{}",
        r.body
    );
    for contract in [
        "role=\"status\"",
        "data-action=\"hint\"",
        "data-action=\"solution\"",
        "data-action=\"retry\"",
        "src=\"/embed/player.js?v=",
    ] {
        assert!(r.body.contains(contract), "{contract}");
    }
    let c = config(&r.body);
    assert_eq!(c["puzzle_id"], id);
    assert_eq!(c["fen"], CHAMELEON);
    assert_eq!(c["stipulation"], "#2");
    assert_eq!(c["game"], "baroque");
    assert_eq!(c["rules"]["preset"], "abbott");
    assert_eq!(c["rules"]["leaper"], "long");
    assert_eq!(c["flip"], true);
    // The page's own files, and no other: the script calls only the documented API.
    let js = app.get("/embed/player.js");
    assert_eq!(js.status, 200);
    assert_eq!(js.content_type, "text/javascript; charset=utf-8");
    let css = app.get("/embed/player.css");
    assert_eq!(css.content_type, "text/css; charset=utf-8");
    for path in [
        "/v1/play",
        "/v1/analyze",
        "/v1/solve",
        "/v1/diagram.svg",
        "/v1/puzzles/",
    ] {
        assert!(js.body.contains(path), "{path}");
    }
    assert!(!js.body.contains("http://") && !js.body.contains("https://"));
    // Under 100 KB in all, before compression.
    let weight = r.body.len() + js.body.len() + css.body.len();
    assert!(weight < 100_000, "{weight} bytes");
}

/// The page names its files by version: that version is cached for good, another is 404 and
/// never stored (an old replica of a rolling deploy must not serve its files under the new
/// version), and the bare path is revalidated by its tag.
#[test]
fn the_players_files_are_cached_under_their_own_version_only() {
    let app = spawn_app();
    let r = app.get(&format!("/embed?fen={}&stipulation=%232", query(CHAMELEON)));
    assert_eq!(r.status, 200, "{}", r.body);
    let version = {
        let at = r.body.find("/embed/player.js?v=").unwrap() + "/embed/player.js?v=".len();
        let end = at + r.body[at..].find('"').unwrap();
        r.body[at..end].to_string()
    };
    assert!(r.body.contains(&format!("/embed/player.css?v={version}")));
    for (file, content_type) in [
        ("player.js", "text/javascript; charset=utf-8"),
        ("player.css", "text/css; charset=utf-8"),
    ] {
        let fresh = app.get(&format!("/embed/{file}?v={version}"));
        assert_eq!(fresh.status, 200);
        assert_eq!(fresh.content_type, content_type);
        assert_eq!(
            fresh.header("cache-control"),
            Some("public, max-age=31536000, immutable")
        );
        for other in ["0", "deadbeef0000", "", "NEW"] {
            let r = app.get(&format!("/embed/{file}?v={other}"));
            let p = r.problem(404, "/problems/not-found");
            assert_eq!(r.header("cache-control"), Some("no-store"), "{p}");
        }
        let bare = app.get(&format!("/embed/{file}"));
        assert_eq!(bare.status, 200);
        assert_eq!(bare.body, fresh.body);
        assert_eq!(bare.header("cache-control"), Some("no-cache"));
        let tag = bare.header("etag").unwrap().to_string();
        assert_eq!(tag, format!("\"{version}\""));
        let again = app.get_with(&format!("/embed/{file}"), &[("if-none-match", &tag)]);
        assert_eq!(again.status, 304);
        assert_eq!(again.body, "");
    }
}

#[test]
fn frame_ancestors_come_from_the_setting() {
    let app = spawn_app_with(Settings {
        embed_frame_ancestors: "https://puzzles.example  'self'".into(),
        ..Settings::for_tests()
    });
    let r = app.get(&format!("/embed?fen={}&stipulation=%232", query(CHAMELEON)));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r
        .header("content-security-policy")
        .unwrap()
        .ends_with("frame-ancestors https://puzzles.example 'self'"));
    let none = spawn_app_with(Settings {
        embed_frame_ancestors: "'none'".into(),
        ..Settings::for_tests()
    });
    let r = none.get(&format!("/embed?fen={}&stipulation=%232", query(CHAMELEON)));
    assert!(r
        .header("content-security-policy")
        .unwrap()
        .ends_with("frame-ancestors 'none'"));
    // A source that would end the directive is refused at start-up.
    for bad in [
        "https://a.example; script-src *",
        "'none' https://a.example",
        "",
        "a,b",
    ] {
        let e = baroque::api::Application::build(Settings {
            embed_frame_ancestors: bad.into(),
            ..Settings::for_tests()
        })
        .err()
        .unwrap_or_else(|| panic!("{bad:?} was accepted"));
        assert!(e.to_string().contains("--embed-frame-ancestors"), "{e}");
    }
}

#[test]
fn any_position_gets_a_page_and_bad_queries_a_problem_naming_the_parameter() {
    let app = spawn_app();
    let r = app.get(&format!(
        "/embed?fen={}&stipulation=h%232&game=rococo&coords=page",
        query("10/10/10/10/4k5/10/10/4K5/10/10 b 0 -")
    ));
    assert_eq!(r.status, 200, "{}", r.body);
    let c = config(&r.body);
    assert_eq!(
        (&c["game"], &c["coords"], &c["stipulation"]),
        (
            &Value::from("rococo"),
            &Value::from("page"),
            &Value::from("h#2")
        )
    );
    assert_eq!(c["puzzle_id"], Value::Null);
    // A rule set with options goes to the page as the API reads it back.
    let r = app.get(&format!(
        "/embed?fen={}&stipulation=%232&rules=abbott,leaper=single",
        query(CHAMELEON)
    ));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(config(&r.body)["rules"]["leaper"], "single");
    // What /v1/play would refuse is refused here, with its own problem.
    app.get(&format!(
        "/embed?fen={}&stipulation=h%232",
        query(CHAMELEON)
    ))
    .problem(422, "/problems/stipulation-side");
    app.get(&format!(
        "/embed?fen={}&stipulation=%2399",
        query(CHAMELEON)
    ))
    .problem(422, "/problems/invalid-mate-in");
    app.get(&format!(
        "/embed?fen={}&stipulation=%232&game=rococo",
        query("10/10/10/10/4k5/10/10/10/10/10 w 0 -")
    ))
    .problem(422, "/problems/not-applicable");
    // Any language tag's shape, English words.
    assert_eq!(
        app.get(&format!(
            "/embed?fen={}&stipulation=%232&lang=x-klingon",
            query(CHAMELEON)
        ))
        .status,
        200
    );
    for (q, parameter) in [
        ("fen=x&stipulation=%232".to_string(), "fen"),
        (
            format!("fen={}&stipulation=mate", query(CHAMELEON)),
            "stipulation",
        ),
        (
            format!("fen={}&stipulation=%232&theme=blue", query(CHAMELEON)),
            "theme",
        ),
        (
            format!(
                "fen={}&stipulation=%232&lang=%3Cscript%3E",
                query(CHAMELEON)
            ),
            "lang",
        ),
        (
            format!("fen={}&stipulation=%232&coords=page", query(CHAMELEON)),
            "coords",
        ),
        (
            format!("fen={}&stipulation=%232&flip=maybe", query(CHAMELEON)),
            "flip",
        ),
        (
            format!("fen={}&stipulation=%232&rules=nonsense", query(CHAMELEON)),
            "rules",
        ),
        (
            format!("fen={}&stipulation=%232&game=chess", query(CHAMELEON)),
            "game",
        ),
    ] {
        let p = app
            .get(&format!("/embed?{q}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{q}: {p}");
    }
    app.get("/embed?stipulation=%232")
        .problem(400, "/problems/invalid-request");
    app.get(&format!(
        "/embed?fen={}&stipulation=%232&size=3",
        query(CHAMELEON)
    ))
    .problem(400, "/problems/invalid-request");
    app.get("/embed/puzzles/999999")
        .problem(404, "/problems/not-found");
    let diagram = fixture_id(&app, "wp-king-mate-in-1");
    assert_eq!(app.get(&format!("/embed/puzzles/{diagram}")).status, 200);
    let stored: Vec<Value> = app.get("/v1/puzzles?limit=200").json()["items"]
        .as_array()
        .unwrap()
        .clone();
    let a_diagram = stored.iter().find(|p| p["kind"] == "diagram").unwrap()["id"]
        .as_i64()
        .unwrap();
    app.get(&format!("/embed/puzzles/{a_diagram}"))
        .problem(422, "/problems/not-applicable");
}

/// A browser (its `Accept` names `text/html`) that opens a player the service refuses gets a small
/// page in the player's style, with the problem's status, title and detail escaped; an API client
/// (JSON in `Accept`, or no `Accept`) keeps the problem document.
#[test]
fn a_refused_player_page_is_a_page_for_a_browser_and_a_problem_for_an_api_client() {
    let app = spawn_app();
    const BROWSER: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    let page = app.get_with("/embed/puzzles/999999?theme=dark", &[("Accept", BROWSER)]);
    assert_eq!(page.status, 404, "{}", page.body);
    assert!(
        page.content_type.starts_with("text/html"),
        "{}",
        page.content_type
    );
    let problem = app
        .get("/embed/puzzles/999999")
        .problem(404, "/problems/not-found");
    let title = problem["title"].as_str().unwrap();
    assert!(
        page.body
            .contains(&format!("<p class=\"stipulation\">{title}</p>")),
        "{}",
        page.body
    );
    assert!(page.body.contains("data-theme=\"dark\""), "{}", page.body);
    assert!(
        page.body.contains("data-problem=\"/problems/not-found\""),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("{\""),
        "no JSON in the page: {}",
        page.body
    );
    assert!(page.header("content-security-policy").is_some());
    // A refusal naming the request's own text has it escaped.
    let fen = "%3Cscript%3Ealert(1)%3C%2Fscript%3E";
    let bad = app.get_with(
        &format!("/embed?fen={fen}&stipulation=%232"),
        &[("Accept", BROWSER)],
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.content_type.starts_with("text/html"));
    assert!(!bad.body.contains("<script>"), "{}", bad.body);
    assert!(bad.body.contains("&lt;script&gt;"), "{}", bad.body);
    // JSON asked for: the problem document.
    app.get_with("/embed/puzzles/999999", &[("Accept", "application/json")])
        .problem(404, "/problems/not-found");
}

const TOKEN: &str = "test-write-token-embed";

/// A server with a write token and a generated collection `name` of `count` sound `#2`, with
/// its puzzle ids in order.
fn with_collection(name: &str, count: u32) -> (TestApp, Vec<i64>) {
    let app = spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    });
    let body = serde_json::json!({"name": name, "mate_in": 2, "count": count, "seed": 42, "max_pieces": 8});
    let ids = generated(&app, &body);
    (app, ids)
}

/// The puzzle ids, in order, of the collection the generation job `body` makes on `app`.
fn generated(app: &TestApp, body: &Value) -> Vec<i64> {
    let auth = format!("Bearer {TOKEN}");
    let r = app.send(
        "POST",
        "/v1/collections",
        &[("authorization", auth.as_str())],
        Some(body),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let url = r.json()["url"].as_str().unwrap().to_string();
    let job = app.job_ended(&url, std::time::Duration::from_secs(60));
    assert_eq!(job["state"], "done", "{job}");
    job["puzzle_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

#[test]
fn a_rococo_collection_and_the_next_rococo_puzzle_play_in_page_names() {
    let app = spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    });
    let body = serde_json::json!({"name": "rococo-ones", "game": "rococo", "mate_in": 1, "count": 2, "seed": 7, "max_pieces": 8});
    let ids = generated(&app, &body);
    assert_eq!(ids.len(), 2);
    let page = |path: &str| {
        let r = app.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        config(&r.body)
    };
    let first = page("/embed/collections/rococo-ones?coords=page");
    assert_eq!(first["puzzle_id"], ids[0]);
    assert_eq!(first["game"], "rococo");
    assert_eq!(first["coords"], "page");
    assert_eq!(first["sequence"]["more"], true);
    let position = first["sequence"]["position"].as_i64().unwrap();
    let second = page(&format!(
        "/embed/collections/rococo-ones?coords=page&after={position}"
    ));
    assert_eq!(second["puzzle_id"], ids[1]);
    assert_eq!(second["sequence"]["more"], false);
    // The page's FEN names squares as the page does: read in page names, it is the stored one.
    let stored = app.get(&format!("/v1/puzzles/{}", ids[1])).json();
    let analyzed = app
        .post_json(
            "/v1/analyze",
            &serde_json::json!({"fen": second["fen"], "game": "rococo", "coords": "page"}),
        )
        .json();
    let canonical = app
        .post_json(
            "/v1/analyze",
            &serde_json::json!({"fen": stored["fen"], "game": "rococo"}),
        )
        .json();
    assert_eq!(
        analyzed["moves"].as_array().unwrap().len(),
        canonical["moves"].as_array().unwrap().len()
    );
    // The next Rococo puzzle near a rating, within the collection.
    let next =
        page("/embed/next?rating=1500&game=rococo&collection=rococo-ones&coords=page&seed=1");
    assert_eq!(next["game"], "rococo");
    assert_eq!(next["coords"], "page");
    assert!(ids.contains(&next["puzzle_id"].as_i64().unwrap()), "{next}");
    assert_eq!(next["sequence"]["filters"]["game"], "rococo");
}

#[test]
fn a_collection_is_played_in_its_order_to_its_end() {
    let (app, ids) = with_collection("threes", 3);
    assert_eq!(ids.len(), 3);
    let mut after = None;
    for (i, id) in ids.iter().enumerate() {
        let path = match after {
            None => "/embed/collections/threes?theme=dark&lang=fr".to_string(),
            Some(p) => format!("/embed/collections/threes?after={p}&theme=dark&lang=fr"),
        };
        let r = app.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert!(r.header("content-security-policy").is_some());
        let c = config(&r.body);
        assert_eq!(c["puzzle_id"], *id, "{path}: {c}");
        assert_eq!(c["theme"], "dark");
        assert_eq!(c["lang"], "fr");
        let puzzle = app.get(&format!("/v1/puzzles/{id}")).json();
        assert_eq!(c["fen"], puzzle["fen"]);
        assert_eq!(c["stipulation"], "#2");
        // The page rates its visitor against the puzzle's own rating.
        assert_eq!(
            c["rating"],
            serde_json::json!({
                "value": puzzle["rating"]["value"],
                "deviation": puzzle["rating"]["deviation"],
                "volatility": puzzle["rating"]["volatility"],
            })
        );
        let s = &c["sequence"];
        assert_eq!(s["kind"], "collection", "{c}");
        assert_eq!(s["name"], "threes");
        assert_eq!(s["more"], i + 1 < ids.len(), "{c}");
        let position = s["position"].as_i64().unwrap();
        assert!(after.is_none_or(|a| position > a), "{c}");
        after = Some(position);
    }
    // Past the last puzzle, and no such collection: not found.
    app.get(&format!(
        "/embed/collections/threes?after={}",
        after.unwrap()
    ))
    .problem(404, "/problems/not-found");
    app.get("/embed/collections/none")
        .problem(404, "/problems/not-found");
    // A position that is not one: the parameter is named.
    for bad in ["-1", "first", "1.5"] {
        let p = app
            .get(&format!("/embed/collections/threes?after={bad}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], "after", "{p}");
    }
    let p = app
        .get("/embed/collections/threes?theme=blue")
        .problem(400, "/problems/invalid-parameter");
    assert_eq!(p["parameter"], "theme", "{p}");
    // The next puzzle from a rating may be limited to the collection.
    let r = app.get("/embed/next?rating=1500&collection=threes&seed=3");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(ids.contains(&config(&r.body)["puzzle_id"].as_i64().unwrap()));
}

#[test]
fn the_next_page_plays_the_puzzle_the_api_would_give() {
    let app = spawn_app();
    for (query, player) in [
        ("rating=1500&seed=1", (1500.0, 350.0, 0.06)),
        (
            "rating=1234.5&deviation=80&volatility=0.05&seed=9",
            (1234.5, 80.0, 0.05),
        ),
        ("seed=2&stipulation=%23&game=baroque", (1500.0, 350.0, 0.06)),
        ("rating=1700&seed=4&exclude=1,2,3", (1700.0, 350.0, 0.06)),
    ] {
        let r = app.get(&format!("/embed/next?{query}&scheme=dark"));
        assert_eq!(r.status, 200, "{query}: {}", r.body);
        let c = config(&r.body);
        // The same puzzle as /v1/puzzles/next for the same rating, deviation, filters and seed.
        let api_query = format!(
            "{}&rating={}&deviation={}",
            query
                .split('&')
                .filter(|p| !p.starts_with("rating=")
                    && !p.starts_with("deviation=")
                    && !p.starts_with("volatility="))
                .collect::<Vec<_>>()
                .join("&"),
            player.0,
            player.1
        );
        let expected = app.get(&format!("/v1/puzzles/next?{api_query}"));
        assert_eq!(expected.status, 200, "{api_query}: {}", expected.body);
        let expected = expected.json();
        assert_eq!(c["puzzle_id"], expected["id"], "{query}");
        assert_eq!(c["rating"]["value"], expected["rating"]["value"], "{query}");
        assert_eq!(c["theme"], "dark");
        let s = &c["sequence"];
        assert_eq!(s["kind"], "next", "{c}");
        assert_eq!(
            s["player"],
            serde_json::json!({"value": player.0, "deviation": player.1, "volatility": player.2}),
            "{query}"
        );
        if query.contains("exclude") {
            assert_eq!(s["exclude"], serde_json::json!([1, 2, 3]));
        } else {
            assert_eq!(s["exclude"], serde_json::json!([]));
        }
        if query.contains("stipulation") {
            assert_eq!(
                s["filters"],
                serde_json::json!({"game": "baroque", "stipulation": "#", "seed": 2})
            );
            assert!(c["stipulation"].as_str().unwrap().starts_with('#'), "{c}");
        }
    }
    // Page names are Rococo's: a Baroque puzzle keeps standard names.
    let r = app.get("/embed/next?rating=1500&seed=1&game=baroque&coords=page");
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(config(&r.body)["coords"], "standard");
    // Refusals name the parameter.
    for (query, parameter) in [
        ("rating=5000", "rating"),
        ("rating=1500&deviation=0", "deviation"),
        ("rating=1500&volatility=1.5", "volatility"),
        ("rating=1500&scheme=blue", "scheme"),
        ("rating=1500&exclude=a,b", "exclude"),
        ("rating=1500&seed=9223372036854775808", "seed"),
    ] {
        let p = app
            .get(&format!("/embed/next?{query}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{query}: {p}");
    }
    app.get("/embed/next?rating=1500&colour=red")
        .problem(400, "/problems/invalid-request");
    app.get("/embed/next?rating=1500&theme=no-such-theme")
        .problem(404, "/problems/no-puzzle");
}
