//! Exchange formats over HTTP: a generated collection exported as PGN and CSV
//! (`GET /v1/collections/{name}/export?format=`), the PGN posted back to another store
//! (`POST /v1/puzzles` with `Content-Type: application/x-chess-pgn`) giving the same puzzles, and
//! every refusal of a PGN body.

use crate::helpers::{spawn_app_with, Reply, TestApp};
use baroque::api::Settings;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::Duration;

const TOKEN: &str = "test-write-token-formats";
const BEARER: &str = "Bearer test-write-token-formats";
const PGN: &str = "application/x-chess-pgn";

const CHAMELEON: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";
const HELPMATE: &str = "8/8/8/1K6/5r2/2M1m1p1/5k2/8 b 0";
const ROCOCO: &str = "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0";

/// A server with the write token and an empty store (no seeding), so that every puzzle posted is
/// new.
fn server() -> TestApp {
    spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        no_seed: true,
        ..Settings::for_tests()
    })
}

/// Sends `body` with a content type and the write token (when `auth`).
fn send(app: &TestApp, path: &str, content_type: &str, body: &[u8], auth: bool) -> Reply {
    let agent = ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build(),
    );
    let mut req = agent
        .post(app.url(path))
        .header("content-type", content_type);
    if auth {
        req = req.header("authorization", BEARER);
    }
    let mut res = req.send(body).expect("the server answers");
    let content_type = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let headers = res.headers().clone();
    let body = res
        .body_mut()
        .with_config()
        .limit(16 * 1024 * 1024)
        .read_to_string()
        .unwrap_or_default();
    Reply {
        status: res.status().as_u16(),
        content_type,
        headers,
        body,
    }
}

fn post_pgn(app: &TestApp, text: &str) -> Reply {
    send(app, "/v1/puzzles", PGN, text.as_bytes(), true)
}

/// A PGN game of a position, its tags and movetext.
fn game(variant: &str, fen: &str, tags: &str, movetext: &str) -> String {
    format!("[Event \"?\"]\n[Variant \"{variant}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n{tags}\n{movetext}\n\n")
}

/// Generates collection `name` (sound #2, seed 42) and waits for its job.
fn generate(app: &TestApp, name: &str, count: u32) -> Vec<Value> {
    let body = json!({"name": name, "mate_in": 2, "count": count, "seed": 42, "max_pieces": 8});
    let r = app.send(
        "POST",
        "/v1/collections",
        &[("authorization", BEARER)],
        Some(&body),
    );
    assert_eq!(r.status, 202, "{}", r.body);
    let url = r.json()["url"].as_str().unwrap().to_string();
    let job = app.job_ended(&url, Duration::from_secs(60));
    assert_eq!(job["state"], "done", "{job}");
    let export = app.get(&format!("/v1/collections/{name}/export"));
    export
        .body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// What makes two stored puzzles the same: their content hash (kind, game, FEN, rules,
/// stipulation), with the FEN and stipulation to read in a failure.
fn identity(p: &Value) -> (String, String, String) {
    (
        p["content_hash"].as_str().unwrap().to_string(),
        p["fen"].as_str().unwrap().to_string(),
        p["stipulation"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_collection_exported_as_pgn_and_posted_back_gives_the_same_puzzles() {
    let app = server();
    let original = generate(&app, "twos", 3);
    assert_eq!(original.len(), 3);

    let pgn = app.get("/v1/collections/twos/export?format=pgn");
    assert_eq!(pgn.status, 200, "{}", pgn.body);
    assert_eq!(pgn.content_type, PGN);
    assert_eq!(
        pgn.header("content-disposition"),
        Some("attachment; filename=\"twos.pgn\"")
    );
    assert_eq!(pgn.header("x-baroque-skipped"), None);
    // A game per puzzle, in order, with the tags in the order of the seven tag roster.
    let games: Vec<&str> = pgn.body.split("\n\n[").collect();
    assert_eq!(games.len(), 3, "{}", pgn.body);
    let first_tags: Vec<&str> = pgn
        .body
        .lines()
        .take_while(|l| l.starts_with('['))
        .map(|l| l[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(
        first_tags,
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Variant",
            "SetUp",
            "FEN",
            "Stipulation",
            "Rules",
            "Caption",
            "Tags",
            "Rating",
            "RatingDeviation",
            "NbPlays",
            "BaroqueId"
        ]
    );
    for p in &original {
        let id = p["id"].as_i64().unwrap();
        assert!(pgn
            .body
            .contains(&format!("[Event \"baroque puzzle {id}\"]")));
        assert!(pgn
            .body
            .contains(&format!("[FEN \"{}\"]", p["fen"].as_str().unwrap())));
        // The rating, in the tags of Lichess's CSV columns, right before the id.
        let r = &p["rating"];
        let tags = format!(
            "[Rating \"{:.0}\"]\n[RatingDeviation \"{:.0}\"]\n[NbPlays \"{}\"]\n[BaroqueId \"{id}\"]",
            r["value"].as_f64().unwrap(),
            r["deviation"].as_f64().unwrap(),
            r["attempts"]
        );
        assert!(pgn.body.contains(&tags), "{tags}\n{}", pgn.body);
        // The movetext starts with the key (`1...` when Black is to move).
        let key = p["outcome"]["keys"][0]["notation"].as_str().unwrap();
        let number = if p["fen"].as_str().unwrap().contains(" b ") {
            "1..."
        } else {
            "1."
        };
        assert!(
            pgn.body.contains(&format!("\n\n{number} {key} ")),
            "{key} in {}",
            pgn.body
        );
    }
    assert!(pgn
        .body
        .contains("[Stipulation \"#2\"]\n[Rules \"abbott\"]"));
    assert!(pgn.body.contains("[Result \"1-0\"]"));
    assert!(pgn.body.trim_end().ends_with("1-0"));

    // A strong ETag of each format: each names its own export.
    let jsonl = app.get("/v1/collections/twos/export?format=jsonl");
    let tag = pgn.header("etag").unwrap().to_string();
    assert_ne!(Some(tag.as_str()), jsonl.header("etag"));
    let again = app.send(
        "GET",
        "/v1/collections/twos/export?format=pgn",
        &[("if-none-match", &tag)],
        None,
    );
    assert_eq!(again.status, 304);
    let other = app.send(
        "GET",
        "/v1/collections/twos/export?format=csv",
        &[("if-none-match", &tag)],
        None,
    );
    assert_eq!(other.status, 200);

    // Posted to another store, the PGN gives the same puzzles: a result per game.
    let other = server();
    let r = post_pgn(&other, &pgn.body);
    assert_eq!(r.status, 200, "{}", r.body);
    let answer = r.json();
    assert_eq!(
        (&answer["created"], &answer["existing"], &answer["rejected"]),
        (&json!(3), &json!(0), &json!(0)),
        "{answer}"
    );
    let results = answer["results"].as_array().unwrap();
    let mut line = 0;
    for (i, (r, p)) in results.iter().zip(&original).enumerate() {
        assert_eq!(r["game"], i + 1);
        assert_eq!(r["status"], 201, "{r}");
        assert!(r["line"].as_u64().unwrap() > line);
        line = r["line"].as_u64().unwrap();
        assert_eq!(identity(&r["puzzle"]), identity(p));
        assert_eq!(r["puzzle"]["tags"], p["tags"]);
        assert_eq!(r["puzzle"]["source"], "generated");
        assert_eq!(r["puzzle"]["caption"], p["caption"]);
        assert_eq!(
            r["puzzle"]["title"],
            Value::Null,
            "`baroque puzzle N` is no title"
        );
        assert_eq!(r["puzzle"]["outcome"]["keys"], p["outcome"]["keys"]);
        // Stored for real: the puzzle reads back.
        let id = r["puzzle"]["id"].as_i64().unwrap();
        let stored = other.get(&format!("/v1/puzzles/{id}")).json();
        assert_eq!(identity(&stored), identity(p));
    }
    assert_eq!(results[0]["line"], 1);
    // Again: every game is there already.
    let r = post_pgn(&other, &pgn.body).json();
    assert_eq!(
        (&r["created"], &r["existing"]),
        (&json!(0), &json!(3)),
        "{r}"
    );
    assert!(r["results"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["status"] == 200));
}

#[test]
fn a_collection_exported_as_csv_has_lichess_columns() {
    let app = server();
    let original = generate(&app, "twos", 2);
    let csv = app.get("/v1/collections/twos/export?format=csv");
    assert_eq!(csv.status, 200, "{}", csv.body);
    assert_eq!(csv.content_type, "text/csv; charset=utf-8");
    assert_eq!(
        csv.header("content-disposition"),
        Some("attachment; filename=\"twos.csv\"")
    );
    let lines: Vec<&str> = csv.body.lines().collect();
    assert_eq!(
        lines[0],
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags"
    );
    assert_eq!(lines.len(), 3);
    for (row, p) in lines[1..].iter().zip(&original) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 10, "{row}");
        assert_eq!(fields[0], p["id"].to_string());
        assert_eq!(fields[1], p["fen"].as_str().unwrap());
        let moves: Vec<&str> = fields[2].split(' ').collect();
        assert_eq!(moves[0], p["outcome"]["keys"][0]["uci"].as_str().unwrap());
        assert_eq!(moves.len(), 3, "key, defence, mate: {row}");
        // Rating, RatingDeviation, Popularity, NbPlays: the puzzle's rating, rounded, before any
        // attempt (1000 + 15 x its difficulty, 350), no popularity, no attempt.
        let rating = 1000 + 15 * p["difficulty"].as_u64().expect("a mate has a difficulty");
        assert_eq!(p["rating"]["value"].as_f64(), Some(rating as f64));
        assert_eq!(
            &fields[3..7],
            [rating.to_string().as_str(), "350", "0", "0"]
        );
        let tags: Vec<&str> = p["tags"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(fields[7], tags.join(" "));
        assert_eq!(fields[8], "generated");
        assert_eq!(fields[9], "game:baroque rules:abbott stipulation:#2");
    }
    // The default stays JSON lines.
    let plain = app.get("/v1/collections/twos/export");
    assert_eq!(plain.content_type, "application/x-ndjson");
    assert_eq!(
        plain.header("content-disposition"),
        Some("attachment; filename=\"twos.jsonl\"")
    );
}

#[test]
fn export_parameters_are_checked() {
    let app = server();
    generate(&app, "one", 1);
    let p = app
        .get("/v1/collections/one/export?format=xml")
        .problem(400, "/problems/invalid-parameter");
    assert_eq!(p["parameter"], "format");
    assert!(p["detail"].as_str().unwrap().contains("\"xml\""), "{p}");
    app.get("/v1/collections/one/export?format=PGN")
        .problem(400, "/problems/invalid-parameter");
    app.get("/v1/collections/one/export?colour=red")
        .problem(400, "/problems/invalid-request");
    app.get("/v1/collections/none/export?format=pgn")
        .problem(404, "/problems/not-found");
}

#[test]
fn one_pgn_game_is_answered_as_a_json_post_of_it() {
    let app = server();
    let chameleon = game(
        "Baroque",
        CHAMELEON,
        "[Stipulation \"#2\"]\n[Tags \"chameleon wikipedia\"]\n[Site \"Wikipedia: Baroque chess\"]",
        // Any notation the move reader takes; comments, NAGs and variations are skipped.
        "1. Xg6-e6-c6! {seven captures} $1 Kb7xc8 (1... Kb7-a7 ; no such move is read\n) 2. Nc4-g8# 1-0",
    );
    let r = post_pgn(&app, &chameleon);
    assert_eq!(r.status, 201, "{}", r.body);
    let p = r.json();
    assert_eq!(
        r.header("location"),
        Some(format!("/v1/puzzles/{}", p["id"]).as_str())
    );
    assert_eq!(
        (
            p["kind"].as_str(),
            p["stipulation"].as_str(),
            p["fen"].as_str()
        ),
        (Some("mate"), Some("#2"), Some(CHAMELEON))
    );
    assert_eq!(p["title"], Value::Null, "`?` is no title");
    assert_eq!(p["source"], "Wikipedia: Baroque chess");
    assert_eq!(p["tags"], json!(["chameleon", "wikipedia"]));
    assert_eq!(p["outcome"]["keys"][0]["notation"], "Bg6xc6");
    // The same content again: 200 with the stored puzzle, whatever the movetext.
    let again = post_pgn(
        &app,
        &game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "1. g6c6 *"),
    );
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.json()["id"], p["id"]);
    // The same as JSON is the same puzzle.
    let json_post = app.send(
        "POST",
        "/v1/puzzles",
        &[("authorization", BEARER)],
        Some(&json!({"kind": "mate", "fen": CHAMELEON, "mate_in": 2})),
    );
    assert_eq!(json_post.status, 200, "{}", json_post.body);
    assert_eq!(json_post.json()["content_hash"], p["content_hash"]);

    // A helpmate: the main line must be its solution; a Rococo mate without a stipulation.
    let h = post_pgn(
        &app,
        &game(
            "Baroque",
            HELPMATE,
            "[Stipulation \"h#2\"]",
            "1... Kf2-e2 2. Mc3-d4 Ke2-d3 3. Kb5-c4 1-0",
        ),
    );
    assert_eq!(h.status, 201, "{}", h.body);
    assert_eq!(h.json()["stipulation"], "h#2");
    let wrong = post_pgn(
        &app,
        &game(
            "Baroque",
            HELPMATE,
            "[Stipulation \"h#2\"]",
            "1... Kf2-g2 *",
        ),
    )
    .problem(422, "/problems/puzzle-not-verified");
    assert!(
        wrong["reasons"][0]
            .as_str()
            .unwrap()
            .contains("is not a solution of h#2"),
        "{wrong}"
    );
    let r = post_pgn(&app, &game("Rococo", ROCOCO, "", "1. Le4xe9 *"));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(
        (r.json()["game"].as_str(), r.json()["stipulation"].as_str()),
        (Some("rococo"), Some("#1"))
    );

    // A first move that is not a key is refused, as a JSON post with wrong keys is.
    let p = post_pgn(
        &app,
        &game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "1. Pa6-a7 *"),
    )
    .problem(422, "/problems/puzzle-not-verified");
    assert!(
        p["reasons"][0]
            .as_str()
            .unwrap()
            .contains("first move `Pa6-a7` is not a key of #2; its keys: Bg6xc6"),
        "{p}"
    );
    // A position without the mate claimed.
    post_pgn(
        &app,
        &game(
            "Baroque",
            "k7/8/8/8/8/8/8/K7 w 0",
            "[Stipulation \"#1\"]",
            "*",
        ),
    )
    .problem(422, "/problems/puzzle-not-verified");
}

#[test]
fn unreadable_pgn_is_refused_naming_the_line() {
    let app = server();
    for (body, line, words) in [
        ("hello world\n".to_string(), 1, "not PGN"),
        ("".to_string(), 1, "no PGN game"),
        (
            game(
                "Baroque",
                CHAMELEON,
                "[Stipulation \"#2\"]",
                "1. Bg6xc6 Kb7xc8 2. Nc4-g7 *",
            ),
            6,
            "move 3 is not a legal move: `Nc4-g7`",
        ),
        (
            "[Event \"x\"]\n[FEN \"k7/8/8/8/8/8/8/K7 w 0\"]\n*\n".to_string(),
            1,
            "[Variant] tag is missing",
        ),
        (
            "[Variant \"Baroque\"]\n[FEN \"k7/8/8/8/8/8/8/K7 w 0\"\n*\n".to_string(),
            2,
            "`]` must follow",
        ),
        (
            "[Variant \"Baroque\"]\n1. Ka1-a2 } ] *\n".to_string(),
            2,
            "`}` closes nothing",
        ),
        (game("Baroque", "k7/8/8/8/8/8/8/K8 w 0", "", "*"), 4, "FEN"),
        (
            game(
                "Baroque",
                CHAMELEON,
                "[Stipulation \"#2\"]",
                "1. Bg6xc6 (1. Pa6-a7 *",
            ),
            6,
            "not closed",
        ),
    ] {
        let p = post_pgn(&app, &body).problem(422, "/problems/invalid-pgn");
        assert_eq!(p["line"], line, "{p} for {body}");
        assert!(p["detail"].as_str().unwrap().contains(words), "{p}");
        assert!(p["request_id"].is_string(), "{p}");
    }
    // Not UTF-8: the line of the first bad byte.
    let p = send(
        &app,
        "/v1/puzzles",
        PGN,
        b"[Event \"x\"]\n[Site \"\xff\"]\n",
        true,
    )
    .problem(422, "/problems/invalid-pgn");
    assert_eq!(p["line"], 2);
    // The write token, the media type and the size limit, as for JSON.
    let ok = game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "*");
    send(&app, "/v1/puzzles", PGN, ok.as_bytes(), false).problem(401, "/problems/unauthorized");
    send(&app, "/v1/puzzles", "text/plain", ok.as_bytes(), true)
        .problem(415, "/problems/unsupported-media-type");
    let big = format!("{ok}{}", "{padding}".repeat(10_000));
    let p = post_pgn(&app, &big).problem(413, "/problems/payload-too-large");
    assert_eq!(p["limit"], 65536);
    // At most 100 games a request: the 101st is named.
    let many = "[Variant \"Chess\"]\n*\n".repeat(101);
    let p = post_pgn(&app, &many).problem(422, "/problems/invalid-pgn");
    assert_eq!((&p["game"], &p["line"]), (&json!(101), &json!(201)), "{p}");
    assert!(p["detail"].as_str().unwrap().contains("at most 100"), "{p}");
    // Nothing was stored.
    assert_eq!(app.get("/v1/puzzles").json()["items"], json!([]));
}

#[test]
fn several_games_get_a_result_each() {
    let app = server();
    let text = [
        game(
            "Baroque",
            CHAMELEON,
            "[Stipulation \"#2\"]",
            "1. Bg6xc6 Kb7xc8 2. Nc4-g8 1-0",
        ),
        game("Chess", CHAMELEON, "", "*"),
        game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "1. Pa6-a7 *"),
        game(
            "Baroque",
            HELPMATE,
            "[Stipulation \"h#2\"]",
            "1... Kf2-e2 2. Mc3-d4 Ke2-d3 3. Kb5-c4 1-0",
        ),
        game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "*"),
    ]
    .concat();
    let r = post_pgn(&app, &text);
    assert_eq!(r.status, 200, "{}", r.body);
    let answer = r.json();
    assert_eq!(
        (&answer["created"], &answer["existing"], &answer["rejected"]),
        (&json!(2), &json!(1), &json!(2)),
        "{answer}"
    );
    let results = answer["results"].as_array().unwrap();
    let statuses: Vec<u64> = results
        .iter()
        .map(|g| g["status"].as_u64().unwrap())
        .collect();
    assert_eq!(statuses, [201, 422, 422, 201, 200]);
    let lines: Vec<u64> = results
        .iter()
        .map(|g| g["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 8, 15, 22, 29]);
    assert_eq!(results[1]["problem"]["type"], "/problems/invalid-pgn");
    assert_eq!(results[1]["problem"]["game"], 2);
    assert_eq!(results[1]["problem"]["line"], 9);
    assert!(results[1].get("puzzle").is_none());
    assert_eq!(
        results[2]["problem"]["type"],
        "/problems/puzzle-not-verified"
    );
    assert_eq!(results[4]["puzzle"]["id"], results[0]["puzzle"]["id"]);
    let stored: BTreeSet<i64> = app.get("/v1/puzzles").json()["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(stored.len(), 2);
}

/// A body of several games shares one budget: crowded `h#8`s that would each search for the
/// whole ceiling end within the request's `millis` (plus the time to answer), each `unknown`
/// and not stored; a game stored before is answered from the store with no budget at all.
#[test]
fn the_games_of_one_post_share_one_budget() {
    let app = server();
    // Baroque's start, Black to move: h#8 searches for as long as it may.
    let crowded = "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR b 0";
    let text: String = (0..3)
        .map(|_| game("Baroque", crowded, "[Stipulation \"h#8\"]", "*"))
        .collect();
    let start = std::time::Instant::now();
    let r = send(&app, "/v1/puzzles?millis=1500", PGN, text.as_bytes(), true);
    let took = start.elapsed();
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(took < Duration::from_millis(3_000), "{took:?}");
    let answer = r.json();
    assert_eq!(answer["unknown"], 3, "{answer}");
    assert_eq!(answer["created"], 0, "{answer}");
    for g in answer["results"].as_array().unwrap() {
        assert_eq!(g["result"], "unknown", "{g}");
        assert_eq!(
            g["problem"]["type"], "/problems/solver-budget-exhausted",
            "{g}"
        );
    }
    assert_eq!(app.get("/v1/puzzles").json()["items"], json!([]));

    // Stored once, then posted again with a budget of one node: found, not searched.
    let first = post_pgn(
        &app,
        &game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "1. Bg6xc6 *"),
    );
    assert_eq!(first.status, 201, "{}", first.body);
    let again = [
        game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "1. Bg6xc6 *"),
        game("Baroque", CHAMELEON, "[Stipulation \"#2\"]", "*"),
    ]
    .concat();
    let r = send(&app, "/v1/puzzles?nodes=1", PGN, again.as_bytes(), true);
    let answer = r.json();
    assert_eq!(answer["existing"], 2, "{answer}");
    assert_eq!(answer["results"][0]["result"], "existing", "{answer}");
    // A budget out of range is refused, whatever the body.
    for query in [
        "nodes=0",
        "millis=0",
        "nodes=9223372036854775808",
        "millis=x",
    ] {
        let r = send(
            &app,
            &format!("/v1/puzzles?{query}"),
            PGN,
            again.as_bytes(),
            true,
        );
        r.problem(400, "/problems/invalid-parameter");
    }
}

/// A stipulation above the server's `--solve-max-mate-in` is refused before any search, in JSON
/// and in PGN, as `/v1/solve` refuses it.
#[test]
fn a_posted_n_above_the_maximum_is_refused_at_once() {
    let app = server();
    for stipulation in ["#12", "s#9", "h#12.5"] {
        let start = std::time::Instant::now();
        let body = json!({"kind": "mate", "fen": "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0", "stipulation": stipulation});
        let r = send(
            &app,
            "/v1/puzzles",
            "application/json",
            body.to_string().as_bytes(),
            true,
        );
        let p = r.problem(422, "/problems/invalid-mate-in");
        assert_eq!(p["limit"], 8, "{p}");
        assert!(start.elapsed() < Duration::from_secs(2), "{stipulation}");
    }
    let r = post_pgn(
        &app,
        &game(
            "Baroque",
            "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0",
            "[Stipulation \"h#12.5\"]",
            "*",
        ),
    );
    r.problem(422, "/problems/invalid-mate-in");
}
