//! The problem database over HTTP, on both games and (with `BAROQUE_TEST_DB=postgres`) both
//! databases: a problem's history posted, listed, exported and corrected (`PATCH
//! /v1/puzzles/{id}`), and anticipation (`POST /v1/puzzles/anticipation`) against an oracle written
//! here from the definition: every stored mate compared with the posted position under each
//! symmetry of the board, square by square, with the test's own board transformations.

use crate::helpers::{spawn_app_with, TestApp};
use baroque::api::Settings;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::Duration;

const TOKEN: &str = "test-write-token-0123";

fn app() -> TestApp {
    spawn_app_with(Settings {
        write_token: Some(TOKEN.into()),
        ..Settings::for_tests()
    })
}

fn send(app: &TestApp, method: &str, path: &str, body: &Value) -> crate::helpers::Reply {
    let auth = format!("Bearer {TOKEN}");
    app.send(
        method,
        path,
        &[("authorization", auth.as_str())],
        Some(body),
    )
}

/// A board read from a FEN: `n` x `n` squares (index `rank * n + file`), the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Grid {
    n: usize,
    squares: Vec<Option<char>>,
    white: bool,
}

impl Grid {
    fn of(fen: &str) -> Grid {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap();
        let ranks: Vec<&str> = board.split('/').collect();
        let n = ranks.len();
        let mut squares = vec![None; n * n];
        for (i, rank) in ranks.iter().enumerate() {
            let r = n - 1 - i;
            let (mut f, mut digits) = (0, String::new());
            for c in rank.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    f += digits.parse::<usize>().unwrap();
                    digits.clear();
                }
                if c != '/' {
                    squares[r * n + f] = Some(c);
                    f += 1;
                }
            }
            assert_eq!(f, n, "{fen}");
        }
        Grid {
            n,
            squares,
            white: fields.next() == Some("w"),
        }
    }

    fn fen(&self) -> String {
        let n = self.n;
        let mut out = String::new();
        for r in (0..n).rev() {
            let mut empty = 0;
            for f in 0..n {
                match self.squares[r * n + f] {
                    Some(c) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if r > 0 {
                out.push('/');
            }
        }
        let turn = if self.white { "w" } else { "b" };
        match n {
            8 => format!("{out} {turn} 0"),
            _ => format!("{out} {turn} 0 -"),
        }
    }

    /// The image under a board map and, with `polish`, the colours and the turn exchanged.
    fn image(&self, map: fn(usize, usize, usize) -> (usize, usize), polish: bool) -> Grid {
        let n = self.n;
        let mut squares = vec![None; n * n];
        for (i, c) in self.squares.iter().enumerate() {
            if let Some(c) = c {
                let (f, r) = map(i % n, i / n, n - 1);
                let c = match polish {
                    true if c.is_ascii_uppercase() => c.to_ascii_lowercase(),
                    true => c.to_ascii_uppercase(),
                    false => *c,
                };
                squares[r * n + f] = Some(c);
            }
        }
        Grid {
            n,
            squares,
            white: self.white != polish,
        }
    }

    /// How many squares differ, and whether the difference is one piece added, removed, moved
    /// or changed.
    fn near(&self, other: &Grid) -> Option<usize> {
        if self.white != other.white || self.n != other.n {
            return None;
        }
        let (mut gone, mut added) = (0, 0);
        for (a, b) in self.squares.iter().zip(&other.squares) {
            if a != b {
                gone += usize::from(a.is_some());
                added += usize::from(b.is_some());
            }
        }
        (gone <= 1 && added <= 1).then_some(gone + added)
    }
}

type Map = fn(usize, usize, usize) -> (usize, usize);

/// The test's own symmetries, by the names twins give them (`l` is the last file's index).
fn symmetries(n: usize) -> Vec<(String, Map, bool)> {
    let last = char::from(b'a' + n as u8 - 1);
    let maps: [(String, Map); 8] = [
        ("none".into(), |f, r, _| (f, r)),
        (format!("mirror a1<->{last}1"), |f, r, l| (l - f, r)),
        (format!("mirror a1<->a{n}"), |f, r, l| (f, l - r)),
        ("rotate 180".into(), |f, r, l| (l - f, l - r)),
        (format!("mirror a1<->{last}{n}"), |f, r, _| (r, f)),
        ("rotate 270".into(), |f, r, l| (l - r, f)),
        ("rotate 90".into(), |f, r, l| (r, l - f)),
        (format!("mirror a1<->{last}{n}; rotate 180"), |f, r, l| {
            (l - r, l - f)
        }),
    ];
    // The board's symmetries alone: the colours exchanged are not an image of the board.
    let all: Vec<(String, Map, bool)> = maps
        .iter()
        .map(|(name, map)| (name.clone(), *map, false))
        .collect();
    match n {
        8 => all,
        // Rococo: the files reversed only (each side's pawns keep their direction).
        _ => all
            .into_iter()
            .filter(|(name, _, _)| ["none", "mirror a1<->j1"].contains(&name.as_str()))
            .collect(),
    }
}

/// Every stored mate: id, game, FEN.
fn mates(app: &TestApp) -> Vec<(i64, String, String)> {
    let mut out = Vec::new();
    let mut cursor = String::new();
    loop {
        let r = app.get(&format!("/v1/puzzles?kind=mate&limit=200{cursor}"));
        assert_eq!(r.status, 200, "{}", r.body);
        let page = r.json();
        for p in page["items"].as_array().unwrap() {
            out.push((
                p["id"].as_i64().unwrap(),
                p["game"].as_str().unwrap().to_string(),
                p["fen"].as_str().unwrap().to_string(),
            ));
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = format!("&cursor={c}"),
            None => return out,
        }
    }
}

/// The oracle: each stored mate of the game that is the posted position (`same`) or one piece
/// from it (`near`) under one of the game's symmetries, by the test's own transformations.
fn oracle(stored: &[(i64, String, String)], game: &str, posted: &Grid) -> BTreeSet<(i64, String)> {
    let mut out = BTreeSet::new();
    for (id, g, fen) in stored {
        if g != game {
            continue;
        }
        let grid = Grid::of(fen);
        let best = symmetries(grid.n)
            .iter()
            .filter_map(|(_, map, polish)| grid.image(*map, *polish).near(posted))
            .min();
        match best {
            Some(0) => out.insert((*id, "same".to_string())),
            Some(_) => out.insert((*id, "near".to_string())),
            None => false,
        };
    }
    out
}

/// Generates a collection of mates in one (`game`), waiting for it; its puzzles' ids.
fn generate(app: &TestApp, name: &str, game: &str, count: u32, seed: u64) -> Vec<i64> {
    let job = send(
        app,
        "POST",
        "/v1/collections",
        &json!({"name": name, "game": game, "mate_in": 1, "count": count, "seed": seed,
                "max_pieces": 6}),
    );
    assert_eq!(job.status, 202, "{}", job.body);
    let url = job.json()["url"].as_str().unwrap().to_string();
    let job = app.job_ended(&url, Duration::from_secs(180));
    assert_eq!(job["state"], "done", "{job}");
    job["puzzle_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

/// Anticipation answers what a scan of the store applying every symmetry finds, for images of
/// stored positions and near ones (a piece removed, a piece moved), on both games; each `same`
/// match's `transform` turns the stored position into the posted one.
#[test]
fn anticipation_equals_a_scan_under_every_symmetry_on_both_games() {
    let app = app();
    generate(&app, "baroque-ones", "baroque", 8, 3);
    generate(&app, "rococo-ones", "rococo", 6, 4);
    let stored = mates(&app);
    let mut asked = 0;
    for (i, (_, game, fen)) in stored.iter().enumerate() {
        let grid = Grid::of(fen);
        let syms = symmetries(grid.n);
        let (_, map, polish) = &syms[(i * 5 + 1) % syms.len()];
        let image = grid.image(*map, *polish);
        // The image, the image less one piece (not a King), and the image with a piece moved to
        // an empty square of the inner board.
        let mut queries = vec![image.clone()];
        let n = grid.n;
        let movable: Vec<usize> = (0..n * n)
            .filter(|&s| image.squares[s].is_some_and(|c| c != 'K' && c != 'k'))
            .collect();
        if let Some(&s) = movable.get(i % movable.len().max(1)) {
            let mut less = image.clone();
            less.squares[s] = None;
            queries.push(less);
            let inner = |s: usize| (1..n - 1).contains(&(s % n)) && (1..n - 1).contains(&(s / n));
            if let Some(to) = (0..n * n).find(|&t| image.squares[t].is_none() && inner(t)) {
                let mut moved = image.clone();
                moved.squares[to] = moved.squares[s].take();
                queries.push(moved);
            }
        }
        for q in queries {
            let r = app.post_json(
                "/v1/puzzles/anticipation",
                &json!({"fen": q.fen(), "game": game}),
            );
            if r.status == 422 {
                // A near position that cannot arise (a King left in check, say) is refused as
                // any request's would be.
                r.problem(422, "/problems/impossible-position");
                continue;
            }
            assert_eq!(r.status, 200, "{} {}", q.fen(), r.body);
            asked += 1;
            let answer = r.json();
            assert_eq!(answer["truncated"], false);
            let got: BTreeSet<(i64, String)> = answer["matches"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["id"].as_i64().unwrap(),
                        m["relation"].as_str().unwrap().into(),
                    )
                })
                .collect();
            assert_eq!(got, oracle(&stored, game, &q), "{game} {}", q.fen());
            for m in answer["matches"].as_array().unwrap() {
                let (_, _, fen) = stored.iter().find(|s| s.0 == m["id"]).unwrap();
                let transform = m["transform"].as_str().unwrap();
                let (_, map, polish) = syms
                    .iter()
                    .find(|(name, _, _)| name == transform)
                    .unwrap_or_else(|| panic!("{transform} is not a symmetry of {game}"));
                let image = Grid::of(fen).image(*map, *polish);
                let differ = image.near(&q).expect("the transform shows it");
                assert_eq!(differ == 0, m["relation"] == "same", "{m}");
                assert_eq!(m["difference"].as_array().unwrap().is_empty(), differ == 0);
            }
        }
    }
    assert!(asked >= 30, "{asked}");
}

/// A post with `"anticipation": "refuse"` is refused (409 `anticipated`) when the store holds its
/// position up to a symmetry with its stipulation, naming the stored puzzle and the symmetry;
/// without it, the image is stored as a puzzle of its own. The Rococo image of a quarter turn is
/// not an anticipation (its pawns would head sideways).
#[test]
fn a_post_may_refuse_an_anticipated_puzzle_on_both_games() {
    let app = app();
    for (game, fen, mirrored, stipulation) in [
        (
            "baroque",
            "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
            // The files reversed.
            "5R2/5pk1/qBn1n1pP/5p2/5N2/8/8/5r1K w 0",
            "#2",
        ),
        (
            "rococo",
            // The Rococo fixture's mate in two, and its files reversed.
            "10/10/2I7/10/10/3k6/1x4W3/1a8/3K6/10 w 0 -",
            "10/10/7I2/10/10/6k3/3W4x1/8a1/6K3/10 w 0 -",
            "#2",
        ),
    ] {
        let first = send(
            &app,
            "POST",
            "/v1/puzzles",
            &json!({"kind": "mate", "game": game, "fen": fen, "stipulation": stipulation}),
        );
        assert!([200, 201].contains(&first.status), "{}", first.body);
        let id = first.json()["id"].as_i64().unwrap();
        let body = json!({"kind": "mate", "game": game, "fen": mirrored,
                          "stipulation": stipulation, "anticipation": "refuse"});
        let refused = send(&app, "POST", "/v1/puzzles", &body);
        let p = refused.problem(409, "/problems/anticipated");
        assert_eq!(p["puzzle_id"], id, "{p}");
        let files = if game == "baroque" { "h1" } else { "j1" };
        assert_eq!(p["transform"], format!("mirror a1<->{files}"), "{p}");
        // Another stipulation is another problem.
        let other = json!({"kind": "mate", "game": game, "fen": mirrored, "stipulation": "h#1",
                           "anticipation": "refuse"});
        let r = send(&app, "POST", "/v1/puzzles", &other);
        assert_ne!(r.status, 409, "{}", r.body);
        let mut allowed = body.clone();
        allowed.as_object_mut().unwrap().remove("anticipation");
        let stored = send(&app, "POST", "/v1/puzzles", &allowed);
        assert_eq!(stored.status, 201, "{}", stored.body);
        assert_ne!(stored.json()["id"], id);
    }
    // A quarter turn of the Rococo puzzle keeps its pieces, not its rules.
    let turned = app.post_json(
        "/v1/puzzles/anticipation",
        &json!({"game": "rococo", "fen": "10/2ax6/7I2/1K2k5/10/10/3W6/10/10/10 w 0 -"}),
    );
    assert_eq!(turned.status, 200, "{}", turned.body);
    assert!(
        turned.json()["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["relation"] != "same"),
        "{}",
        turned.body
    );
}

/// A problem's history is posted with it, shown, corrected by an authenticated PATCH that touches
/// nothing else, exported as PGN tags and read back by an import into another store.
#[test]
fn a_problem_s_history_is_kept_corrected_and_exported() {
    let app = app();
    // The Wikipedia's Chameleon mate with the files reversed: not a seeded puzzle.
    let fen = "5R2/5pk1/qBn1n1pP/5p2/5N2/8/8/5r1K w 0";
    let posted = send(
        &app,
        "POST",
        "/v1/puzzles",
        &json!({"kind": "mate", "fen": fen, "mate_in": 2, "authors": [" A. Composer ", "B. Second"],
                "published": "1999-06-21", "award": "1st Prize", "keywords": ["Chameleon", "key"],
                "notes": "line one\nline two", "source": "The Problemist"}),
    );
    assert_eq!(posted.status, 201, "{}", posted.body);
    let c = posted.json();
    let id = c["id"].as_i64().unwrap();
    let path = format!("/v1/puzzles/{id}");
    assert_eq!(c["authors"], json!(["A. Composer", "B. Second"]));
    assert_eq!(c["published"], "1999-06-21");
    assert_eq!(c["award"], "1st Prize");
    assert_eq!(c["keywords"], json!(["Chameleon", "key"]));
    assert_eq!(c["notes"], "line one\nline two");
    assert_eq!(c["source"], "The Problemist");
    let before = app.get(&path);
    assert_eq!(before.json()["authors"], c["authors"]);
    // A part left out stays; null clears; nothing but the history changes, and the ETag does.
    let r = send(
        &app,
        "PATCH",
        &path,
        &json!({"award": null, "published": "2001"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_ne!(r.header("etag"), before.header("etag"));
    let r = r.json();
    assert!(r.get("award").is_none(), "{r}");
    assert_eq!(
        (r["published"].as_str(), &r["authors"]),
        (Some("2001"), &c["authors"])
    );
    let b = before.json();
    for field in [
        "fen",
        "stipulation",
        "content_hash",
        "difficulty",
        "tags",
        "title",
        "rating",
    ] {
        assert_eq!(r[field], b[field], "{field}");
    }
    assert_eq!(app.get(&path).json(), r);
    // Corrections of different parts at once lose none: each reads and writes the row held.
    std::thread::scope(|scope| {
        for field in ["award", "notes"] {
            let (app, path) = (&app, &path);
            scope.spawn(move || {
                for i in 0..10 {
                    let r = send(app, "PATCH", path, &json!({field: format!("{field} {i}")}));
                    assert_eq!(r.status, 200, "{}", r.body);
                }
            });
        }
    });
    let both = app.get(&path).json();
    assert_eq!(
        (both["award"].as_str(), both["notes"].as_str()),
        (Some("award 9"), Some("notes 9"))
    );
    let cleared = send(&app, "PATCH", &path, &json!({"award": null, "notes": null})).json();
    assert!(
        cleared.get("award").is_none() && cleared.get("notes").is_none(),
        "{cleared}"
    );
    let outcome = app.get(&format!("{path}/outcome"));
    assert_eq!(outcome.status, 200);
    // The listing shows it.
    let listed = app.get("/v1/puzzles?kind=mate&limit=200").json();
    let item = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap()
        .clone();
    assert_eq!(item["authors"], c["authors"]);
    // Refusals: the position is not history, a date must be one, a write needs the token.
    let p =
        send(&app, "PATCH", &path, &json!({"fen": fen})).problem(400, "/problems/invalid-request");
    assert!(p["detail"].as_str().unwrap().contains("fen"), "{p}");
    let p = send(&app, "PATCH", &path, &json!({"published": "June 1999"}))
        .problem(400, "/problems/invalid-history");
    assert_eq!(p["field"], "published");
    let p = send(
        &app,
        "PATCH",
        &path,
        &json!({"keywords": ["ok", "bad\u{7}"]}),
    )
    .problem(400, "/problems/invalid-history");
    assert_eq!(p["field"], "keywords[1]");
    app.send("PATCH", &path, &[], Some(&json!({"award": "x"})))
        .problem(401, "/problems/unauthorized");
    send(&app, "PATCH", "/v1/puzzles/999999", &json!({"award": "x"}))
        .problem(404, "/problems/not-found");
    // A post's history is checked as a correction's.
    let p = send(
        &app,
        "POST",
        "/v1/puzzles",
        &json!({"kind": "mate", "fen": fen, "mate_in": 2, "published": "1999-02-30"}),
    )
    .problem(400, "/problems/invalid-history");
    assert_eq!(p["field"], "published");
    // PGN: a generated puzzle given a history is exported with problemists' tags, and an import
    // into another store reads them back.
    let one_id = generate(&app, "one", "baroque", 1, 9)[0];
    let history = json!({"authors": ["A. Composer", "B. Second"], "published": "1851",
                         "award": "Commendation", "keywords": ["miniature"],
                         "notes": "first line\nsecond"});
    let r = send(&app, "PATCH", &format!("/v1/puzzles/{one_id}"), &history);
    assert_eq!(r.status, 200, "{}", r.body);
    let pgn = app.get("/v1/collections/one/export?format=pgn");
    assert_eq!(pgn.status, 200, "{}", pgn.body);
    let text = pgn.body.clone();
    for tag in [
        "[Date \"1851.??.??\"]",
        "[Composer \"A. Composer; B. Second\"]",
        "[Award \"Commendation\"]",
        "[Keywords \"miniature\"]",
        "[Notes \"first line second\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    let other = self::app();
    let auth = format!("Bearer {TOKEN}");
    let r = other.post_with(
        "/v1/puzzles",
        "application/x-chess-pgn",
        &[("authorization", auth.as_str())],
        text.as_bytes(),
    );
    assert_eq!(r.status, 201, "{}", r.body);
    let read = r.json();
    assert_eq!(read["authors"], history["authors"]);
    assert_eq!(read["published"], "1851");
    assert_eq!(read["award"], "Commendation");
    assert_eq!(read["keywords"], history["keywords"]);
    assert_eq!(read["notes"], "first line second");
}

/// A stored puzzle as the oracle of the search reads it.
#[derive(Clone, Debug)]
struct Listed {
    id: i64,
    game: String,
    grid: Grid,
    stipulation: Option<String>,
    authors: Vec<String>,
    keywords: Vec<String>,
    award: Option<String>,
    published: Option<String>,
    text: String,
}

impl Listed {
    fn of(v: &Value) -> Listed {
        let list = |k: &str| -> Vec<String> {
            v[k].as_array()
                .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
                .unwrap_or_default()
        };
        let text = ["title", "caption", "source", "award", "notes"]
            .iter()
            .filter_map(|k| v[*k].as_str())
            .chain(list("authors").iter().map(String::as_str))
            .chain(list("keywords").iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ");
        Listed {
            id: v["id"].as_i64().unwrap(),
            game: v["game"].as_str().unwrap().into(),
            grid: Grid::of(v["fen"].as_str().unwrap()),
            stipulation: v["stipulation"].as_str().map(str::to_string),
            authors: list("authors"),
            keywords: list("keywords"),
            award: v["award"].as_str().map(str::to_string),
            published: v["published"].as_str().map(str::to_string),
            text,
        }
    }

    /// The stipulation's family and length, read here: `h#2.5` is (`h#`, 2.5).
    fn family(&self) -> Option<(String, f64)> {
        let s = self.stipulation.as_deref()?;
        let at = s.find(|c: char| c.is_ascii_digit())?;
        Some((s[..at].to_string(), s[at..].parse().unwrap()))
    }

    fn has(&self, letter: char) -> bool {
        self.grid.squares.contains(&Some(letter))
    }

    fn at(&self, letter: char, square: &str) -> bool {
        let n = self.grid.n;
        let file = usize::from(square.as_bytes()[0] - b'a');
        let rank: usize = square[1..].parse().unwrap();
        file < n && rank <= n && self.grid.squares[(rank - 1) * n + file] == Some(letter)
    }
}

/// The words of a text, lower case.
fn words(t: &str) -> Vec<String> {
    t.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether every word of `want` is among the words of `fields`, over all of them.
fn words_in(fields: &[String], want: &str) -> bool {
    let have: Vec<String> = fields.iter().flat_map(|f| words(f)).collect();
    words(want).iter().all(|w| have.contains(w))
}

/// Every item of a listing, following the cursors with pages of `limit`: the ids in order.
fn listing(app: &TestApp, query: &str, limit: u32) -> Vec<i64> {
    let mut ids = Vec::new();
    let mut cursor = String::new();
    loop {
        let r = app.get(&format!("/v1/puzzles?limit={limit}{query}{cursor}"));
        assert_eq!(r.status, 200, "{query}: {}", r.body);
        let page = r.json();
        ids.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_i64().unwrap()),
        );
        match page["next_cursor"].as_str() {
            Some(c) => cursor = format!("&cursor={}", c.replace('#', "%23")),
            None => return ids,
        }
    }
}

/// Each search filter, alone and combined, answers what the whole listing filtered here does, on
/// both games; pages follow their cursors in every order; unusable values are 400 naming the
/// parameter.
#[test]
fn every_search_filter_equals_the_listing_filtered_in_memory() {
    let app = app();
    let baroque = generate(&app, "b-ones", "baroque", 8, 21);
    let rococo = generate(&app, "r-ones", "rococo", 6, 22);
    // Histories on some of them, of both games.
    let histories = [
        json!({"authors": ["R. Abbott"], "published": "1963", "keywords": ["miniature", "Immobilizer"],
               "award": "1st Prize", "notes": "the first of its kind, or nearly"}),
        json!({"authors": ["A. Composer", "R. Abbott"], "published": "1999-06-21",
               "keywords": ["miniature"], "award": "Commendation"}),
        json!({"authors": ["B. Second"], "published": "2001-01-05", "keywords": ["Rococo"],
               "notes": "a miniature of the page's army"}),
        json!({"authors": ["C. Third"], "published": "1963-12-31", "award": "2nd Prize"}),
    ];
    let targets = [baroque[0], baroque[1], rococo[0], rococo[1]];
    for (id, h) in targets.iter().zip(&histories) {
        let r = send(&app, "PATCH", &format!("/v1/puzzles/{id}"), h);
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let all: Vec<Listed> = {
        let ids = listing(&app, "", 200);
        let page = app.get("/v1/puzzles?limit=200").json();
        let items: Vec<Listed> = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(Listed::of)
            .collect();
        assert_eq!(items.len(), ids.len());
        items
    };
    // A square of a generated Baroque puzzle's White King, and of a Rococo one's Black King.
    let square_of = |l: &Listed, letter: char| -> String {
        let n = l.grid.n;
        let i = l
            .grid
            .squares
            .iter()
            .position(|c| *c == Some(letter))
            .unwrap();
        format!("{}{}", char::from(b'a' + (i % n) as u8), i / n + 1)
    };
    let b0 = all.iter().find(|l| l.id == baroque[0]).unwrap().clone();
    let r0 = all.iter().find(|l| l.id == rococo[0]).unwrap().clone();
    let (bk, rk) = (square_of(&b0, 'K'), square_of(&r0, 'k'));
    type Want = Box<dyn Fn(&Listed) -> bool>;
    let family_is = |f: &'static str| -> Want {
        Box::new(move |l: &Listed| l.family().is_some_and(|(x, _)| x == f))
    };
    let cases: Vec<(String, Want)> = vec![
        (
            "&pieces=K,k".into(),
            Box::new(|l: &Listed| l.has('K') && l.has('k')),
        ),
        (
            "&game=baroque&pieces=M".into(),
            Box::new(|l: &Listed| l.game == "baroque" && l.has('M')),
        ),
        // `I` is the Immobilizer of both games (Baroque's other letter set; `M` in its FEN).
        (
            "&pieces=I".into(),
            Box::new(|l: &Listed| {
                if l.game == "baroque" {
                    l.has('M')
                } else {
                    l.has('I')
                }
            }),
        ),
        (
            "&game=rococo&pieces=L,K".into(),
            Box::new(|l: &Listed| l.game == "rococo" && l.has('L') && l.has('K')),
        ),
        (
            format!("&game=baroque&at=K{bk}"),
            Box::new(move |l: &Listed| l.game == "baroque" && l.at('K', &bk.clone())),
        ),
        (
            format!("&at=k{rk}"),
            Box::new(move |l: &Listed| l.at('k', &rk.clone())),
        ),
        ("&family=%23".into(), family_is("#")),
        (
            "&family=%23&moves_min=2".into(),
            Box::new(|l: &Listed| l.family().is_some_and(|(f, n)| f == "#" && n >= 2.0)),
        ),
        (
            "&moves_max=1".into(),
            Box::new(|l: &Listed| l.family().is_some_and(|(_, n)| n <= 1.0)),
        ),
        (
            "&author=abbott".into(),
            Box::new(|l: &Listed| words_in(&l.authors, "abbott")),
        ),
        (
            "&author=R.%20Abbott".into(),
            Box::new(|l: &Listed| words_in(&l.authors, "R. Abbott")),
        ),
        (
            "&keyword=MINIATURE".into(),
            Box::new(|l: &Listed| words_in(&l.keywords, "miniature")),
        ),
        (
            "&award=prize".into(),
            Box::new(|l: &Listed| {
                l.award
                    .as_deref()
                    .is_some_and(|a| words_in(&[a.to_string()], "prize"))
            }),
        ),
        (
            "&year_min=1963&year_max=1963".into(),
            Box::new(|l: &Listed| {
                l.published
                    .as_deref()
                    .is_some_and(|p| p.starts_with("1963"))
            }),
        ),
        (
            "&year_min=1990".into(),
            Box::new(|l: &Listed| l.published.as_deref().is_some_and(|p| p >= "1990")),
        ),
        (
            "&year_max=9999".into(),
            Box::new(|l: &Listed| l.published.is_some()),
        ),
        (
            "&year_max=1999".into(),
            Box::new(|l: &Listed| l.published.as_deref().is_some_and(|p| p < "2000")),
        ),
        // `or` is a word, not an operator, on both databases.
        (
            "&text=first%20or%20kind".into(),
            Box::new(|l: &Listed| {
                let w = words(&l.text);
                ["first", "or", "kind"]
                    .iter()
                    .all(|x| w.contains(&x.to_string()))
            }),
        ),
        (
            "&text=miniature".into(),
            Box::new(|l: &Listed| words(&l.text).contains(&"miniature".to_string())),
        ),
        (
            "&text=miniature%20-rococo".into(),
            Box::new(|l: &Listed| {
                let w = words(&l.text);
                w.contains(&"miniature".to_string()) && !w.contains(&"rococo".to_string())
            }),
        ),
        (
            "&text=%22first%20of%20its%20kind%22".into(),
            Box::new(|l: &Listed| l.text.to_lowercase().contains("first of its kind")),
        ),
        (
            "&game=baroque&family=%23&author=abbott&year_min=1960".into(),
            Box::new(|l: &Listed| {
                l.game == "baroque"
                    && l.family().is_some_and(|(f, _)| f == "#")
                    && words_in(&l.authors, "abbott")
                    && l.published.as_deref().is_some_and(|p| p >= "1960")
            }),
        ),
    ];
    for (query, want) in &cases {
        let expected: Vec<i64> = all.iter().filter(|l| want(l)).map(|l| l.id).collect();
        assert!(
            !expected.is_empty() || query.contains("moves_min"),
            "{query} matches nothing here"
        );
        assert_eq!(listing(&app, query, 3), expected, "{query}");
        // By publication date: the same puzzles that have one, in date order.
        let mut by_date: Vec<(String, i64)> = all
            .iter()
            .filter(|l| want(l))
            .filter_map(|l| Some((l.published.clone()?, l.id)))
            .collect();
        by_date.sort();
        let got = listing(&app, &format!("{query}&sort=published"), 2);
        assert_eq!(
            got,
            by_date.iter().map(|(_, id)| *id).collect::<Vec<_>>(),
            "{query} by date"
        );
        // By relevance: the same puzzles, each once, whatever the order.
        if query.contains("text=") {
            let mut got = listing(&app, &format!("{query}&sort=relevance"), 2);
            got.sort();
            assert_eq!(got, expected, "{query} by relevance");
        }
    }
    // Unusable values name their parameter.
    for (query, parameter) in [
        ("pieces=Z", "pieces"),
        ("pieces=KK", "pieces"),
        ("game=baroque&at=Ki9", "at"),
        ("game=rococo&at=Kk1", "at"),
        ("family=x%23", "family"),
        ("moves_min=2.3", "moves_min"),
        ("moves_min=3&moves_max=2", "moves_min"),
        ("year_min=99", "year_min"),
        ("year_min=2000&year_max=1999", "year_min"),
        ("author=%2E%2E", "author"),
        ("text=-alone", "text"),
        ("text=%22open", "text"),
        ("sort=relevance", "sort"),
        ("sort=published&cursor=1999_x", "cursor"),
    ] {
        let p = app
            .get(&format!("/v1/puzzles?{query}"))
            .problem(400, "/problems/invalid-parameter");
        assert_eq!(p["parameter"], parameter, "{query}: {p}");
    }
}
