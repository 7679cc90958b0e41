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
