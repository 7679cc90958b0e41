//! The solution in problem notation over HTTP (`"format": "text"`, `Accept: text/plain`): the
//! text says what the JSON answer of the same request says, laid out as docs/src/api/solving.md describes
//! (key `!`, threat in parentheses, defences and replies, duals, tries `?` with refutations `!`,
//! set play first, numbered lines, twins under `a)`, `b)`), in both games; figurines; the choice
//! of the answer's form by `format` and by `Accept`.

use crate::helpers::{spawn_app, Reply, TestApp};
use serde_json::{json, Value};

/// `=2` (cooked): the Immobilizer freezes the lone King next to it.
const STALEMATE: &str = "7k/8/8/4M3/8/8/8/K7 w 0";

/// A generated `#2` with two tries and a key with a threat.
const TRIES: &str = "6K1/2N5/8/6k1/8/5B2/8/8 w 0";

fn solve_both(app: &TestApp, body: &Value) -> (Value, String) {
    let r = app.post_json("/v1/solve", body);
    assert_eq!(r.status, 200, "{}", r.body);
    let mut text_body = body.clone();
    text_body["format"] = "text".into();
    let t = app.post_json("/v1/solve", &text_body);
    assert_eq!(t.status, 200, "{}", t.body);
    assert_eq!(
        t.header("content-type"),
        Some("text/plain; charset=utf-8"),
        "{}",
        t.body
    );
    (r.json(), t.body)
}

/// A line of the expected text: what it says with the marks `+`, `#`, `=` left out, and the mark
/// its move must end with when the JSON answer says the move reaches the goal.
struct Want {
    text: String,
    mark: Option<char>,
}

fn want(text: String) -> Want {
    Want { text, mark: None }
}

/// The text's marks left out: a `+`, `#` or `=` that ends a move (before `!`, `?`, a space, `/`,
/// `)` or the end).
fn unmarked(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let ends = chars
            .get(i + 1)
            .is_none_or(|n| matches!(n, '!' | '?' | ' ' | '/' | ')' | '+' | '#' | '='));
        let starts_line = line.trim_start().len() == line.len() - i; // the stipulation `=2`
        if matches!(c, '+' | '#' | '=') && ends && !starts_line && i > 0 {
            continue;
        }
        out.push(c);
    }
    out
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect()
}

/// The expected lines of a tree answer (`#N`, `s#N`, `=N`, `r#N`, ...) and its notes.
fn tree_lines(v: &Value, out: &mut Vec<Want>, notes: &mut Vec<Want>) {
    let stipulation = v["stipulation"].as_str().unwrap();
    let sign = if stipulation.contains('=') { '=' } else { '#' };
    let selfish = stipulation.starts_with('s') || stipulation.contains("r#");
    let n: u64 = stipulation
        .trim_start_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .unwrap();
    for t in v["tries"].as_array().unwrap() {
        out.push(want(format!("1.{}?", t["notation"].as_str().unwrap())));
        for r in names(&t["refutations"]) {
            out.push(want(format!("  1...{r}!")));
        }
    }
    fn sorted(v: &Value) -> Vec<&Value> {
        let mut v: Vec<&Value> = v.as_array().unwrap().iter().collect();
        v.sort_by_key(|m| m["notation"].as_str().unwrap().to_string());
        v
    }
    fn attack(
        node: &Value,
        depth: usize,
        number: u32,
        suffix: &str,
        sign: char,
        selfish: bool,
        out: &mut Vec<Want>,
    ) {
        let pad = "  ".repeat(depth);
        let threat = match node.get("threat") {
            None => String::new(),
            Some(t) if t.as_array().unwrap().is_empty() => " (zugzwang)".into(),
            Some(t) => format!(
                " ({})",
                names(t)
                    .iter()
                    .map(|m| format!("{}.{m}", number + 1))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        out.push(Want {
            text: format!(
                "{pad}{number}.{}{suffix}{threat}",
                node["notation"].as_str().unwrap()
            ),
            mark: (node["mates"] == true && !selfish).then_some(sign),
        });
        for d in sorted(&node["defences"]) {
            let dual = if d["dual"] == true { " (dual)" } else { "" };
            out.push(Want {
                text: format!(
                    "{pad}  {number}...{}{dual}",
                    d["notation"].as_str().unwrap()
                ),
                mark: (d["mates"] == true).then_some(sign),
            });
            for r in sorted(&d["replies"]) {
                attack(r, depth + 2, number + 1, "", sign, selfish, out);
            }
        }
    }
    let tree = v["tree"].as_array().unwrap();
    let keys = v["keys"].as_array().unwrap();
    let node = |k: &Value| tree.iter().find(|n| n["uci"] == k["uci"]).unwrap().clone();
    for k in keys.iter().filter(|k| k["mate_in"] == n) {
        attack(&node(k), 0, 1, "!", sign, selfish, out);
    }
    let short: Vec<&Value> = keys.iter().filter(|k| k["mate_in"] != n).collect();
    if !short.is_empty() {
        out.push(want("short solutions:".into()));
        for k in short {
            attack(&node(k), 1, 1, "!", sign, selfish, out);
        }
    }
    if v["result"] == "no_mate" {
        notes.push(want("(no solution)".into()));
    }
}

/// A helpmate's line numbered: Black's move opens each pair; a White first move is `1...`.
fn help_line(line: &[String], white_first: bool) -> String {
    let mut parts = Vec::new();
    for (i, m) in line.iter().enumerate() {
        let ply = i + usize::from(white_first);
        parts.push(if ply % 2 == 0 {
            format!("{}.{m}", ply / 2 + 1)
        } else if i == 0 {
            format!("1...{m}")
        } else {
            m.clone()
        });
    }
    parts.join(" ")
}

fn lines_of(v: &Value) -> Vec<Vec<String>> {
    v.as_array().unwrap().iter().map(names).collect()
}

/// The expected lines of a helpmate answer and its notes.
fn help_lines(v: &Value, out: &mut Vec<Want>, notes: &mut Vec<Want>) {
    let stipulation = v["stipulation"].as_str().unwrap();
    let sign = if stipulation.contains('=') { '=' } else { '#' };
    let white_first = stipulation.ends_with(".5");
    for l in lines_of(&v["solutions"]) {
        out.push(Want {
            text: help_line(&l, white_first),
            mark: Some(sign),
        });
    }
    let short = lines_of(&v["short_solutions"]);
    if !short.is_empty() {
        out.push(want("short solutions:".into()));
        for l in short {
            out.push(Want {
                text: format!("  {}", help_line(&l, white_first)),
                mark: Some(sign),
            });
        }
    }
    if v["count"] == 0 && v["short_solutions"].as_array().unwrap().is_empty() {
        notes.push(want("(no solution)".into()));
    }
    let shown = v["solutions"].as_array().unwrap().len();
    if v["count"].as_u64().unwrap() as usize > shown {
        notes.push(want(format!("({} solutions, {shown} shown)", v["count"])));
    }
}

/// The expected lines of a set play (each list shown whole: no notes).
fn set_lines(set: &Value, out: &mut Vec<Want>) {
    let defences = set["defences"].as_array().unwrap();
    let solutions = lines_of(&set["solutions"]);
    if set["fen"].is_null() || (defences.is_empty() && solutions.is_empty()) {
        out.push(want("set play: none".into()));
        return;
    }
    out.push(want("set play:".into()));
    let white_first = set["stipulation"].as_str().unwrap().ends_with(".5");
    for l in solutions {
        out.push(want(format!("  {}", help_line(&l, white_first))));
    }
    for d in defences {
        out.push(want(format!("  1...{}", d["notation"].as_str().unwrap())));
        for r in names(&d["replies"]) {
            out.push(want(format!("    2.{r}")));
        }
    }
}

/// The expected text of a JSON answer (the diagram's block; `label` when there are twins).
fn expected(v: &Value, label: Option<String>) -> Vec<Want> {
    let mut out = Vec::new();
    if let Some(l) = label {
        out.push(want(l));
    }
    out.push(want(v["stipulation"].as_str().unwrap().to_string()));
    if let Some(set) = v.get("set_play") {
        set_lines(set, &mut out);
    }
    let mut notes = Vec::new();
    if v.get("solutions").is_some() {
        help_lines(v, &mut out, &mut notes);
    } else {
        tree_lines(v, &mut out, &mut notes);
    }
    out.extend(notes);
    out
}

/// The text says what the JSON says, line by line.
fn assert_text_follows(v: &Value, text: &str) {
    let mut wanted = Vec::new();
    let twins = v.get("twins").and_then(Value::as_array);
    let label = twins.map(|_| "a) diagram".to_string());
    wanted.extend(expected(v, label));
    for t in twins.into_iter().flatten() {
        let label = format!(
            "{} {}",
            t["label"].as_str().unwrap(),
            t["notation"].as_str().unwrap()
        );
        wanted.extend(expected(t, Some(label)));
    }
    let got: Vec<&str> = text.lines().collect();
    let got_unmarked: Vec<String> = got.iter().map(|l| unmarked(l)).collect();
    let want_text: Vec<&str> = wanted.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(got_unmarked, want_text, "text:\n{text}");
    for (w, line) in wanted.iter().zip(&got) {
        if let Some(sign) = w.mark {
            let head = line
                .split([' ', '!', '?', '('])
                .find(|p| !p.is_empty())
                .unwrap();
            let last_move = line.trim_end_matches(['!', '?']);
            assert!(
                head.ends_with(sign) || last_move.ends_with(sign),
                "`{line}` should end with {sign}:\n{text}"
            );
        }
    }
    assert!(text.ends_with('\n'));
}

#[test]
fn the_text_says_what_the_json_says_in_both_games() {
    let app = spawn_app();
    let cases = [
        json!({"fen": TRIES, "mate_in": 2}),
        json!({"fen": "8/2P5/8/K4M2/2k2pP1/p4PP1/8/7n w 0", "mate_in": 2, "set_play": true}),
        json!({"fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "mate_in": 2}),
        json!({"fen": STALEMATE, "stipulation": "=2", "set_play": true}),
        json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "s#2"}),
        json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "r#2"}),
        json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "semi-r#1"}),
        json!({"fen": "7R/6P1/8/8/2K5/4k3/8/6M1 w 0", "mate_in": 3}),
        json!({"fen": "2PP4/4Q3/8/8/3k4/1KP5/8/8 b 0", "stipulation": "h#2", "set_play": true}),
        json!({"fen": "8/6P1/8/8/2K5/4k3/8/6M1 w 0", "stipulation": "h#2.5"}),
        json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#2", "set_play": true}),
        json!({"fen": "7k/8/8/4M3/8/8/8/K7 b 0", "stipulation": "h=1"}),
        json!({"fen": STALEMATE, "stipulation": "=1",
               "twins": ["move e5 f6", "continued mirror a1<->h1", "stipulation h=1"]}),
        json!({"fen": "6k1/8/8/8/8/8/8/K7 w 0", "mate_in": 2}),
        // Rococo, in both coordinates.
        json!({"fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "game": "rococo", "mate_in": 1}),
        json!({"fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "game": "rococo",
               "coords": "page", "mate_in": 1}),
        json!({"fen": "10/8k1/10/10/5I4/10/10/10/1K8/10 w 0 -", "game": "rococo",
               "stipulation": "=2", "set_play": true}),
        json!({"fen": "10/10/10/1p8/10/5I4/3k6/10/7K2/10 b 0 -", "game": "rococo",
               "stipulation": "h#1", "set_play": true}),
    ];
    for body in cases {
        let (v, text) = solve_both(&app, &body);
        assert_text_follows(&v, &text);
    }
}

/// The series movers: numbered series moves; in `ser-h#N` White's mate unnumbered after them; in
/// `ser-s#N` every Black reply, joined by `/`, each mating.
#[test]
fn series_lines_are_numbered_as_problemists_number_them() {
    let app = spawn_app();
    let text = |body: Value| {
        let (v, t) = solve_both(&app, &body);
        (v, t)
    };
    let (v, t) = text(json!({"fen": "8/8/8/8/8/1k3p2/2M5/5K2 w 0", "stipulation": "ser-#3"}));
    assert_eq!(v["count"], 1);
    assert_eq!(t, "ser-#3\n1.Kf1-e2 2.Ke2-d3 3.Kd3-c4#\n");
    let (v, t) = text(json!({"fen": "10/10/10/1p8/10/5I4/3k6/10/7K2/10 b 0 -",
        "game": "rococo", "stipulation": "ser-h#2"}));
    let line = names(&v["solutions"][0]);
    assert_eq!(
        t,
        format!("ser-h#2\n1.{} 2.{} {}#\n", line[0], line[1], line[2])
    );
    let (v, t) = text(json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "ser-s#1"}));
    assert_eq!(v["solutions"][0][0]["notation"], "Bd3-e2");
    // Black's only move takes the Chameleon and mates.
    assert_eq!(t, "ser-s#1\n1.Bd3-e2+ Ke1xe2#\n");
    let (v, t) = text(json!({"fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", "stipulation": "ser-s#2"}));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[0], "ser-s#2");
    for (i, l) in lines_of(&v["solutions"]).iter().enumerate() {
        assert!(
            lines[i + 1].starts_with(&format!("1.{} 2.{}", l[0], l[1])),
            "{t}"
        );
        assert!(lines[i + 1].ends_with('#'), "{t}");
    }
    assert_eq!(
        lines[v["count"].as_u64().unwrap() as usize + 1],
        "short solutions:"
    );
}

/// The exact text of a small problem with twins, as docs/src/api/solving.md prints it.
#[test]
fn twins_are_printed_under_their_labels() {
    let app = spawn_app();
    let (_, t) = solve_both(
        &app,
        &json!({"fen": STALEMATE, "stipulation": "=1", "twins": ["move e5 f6", "continued mirror a1<->h1"]}),
    );
    assert_eq!(
        t,
        "a) diagram\n=1\n1.Me5-g7=!\nb) wMe5-->f6\n=1\n1.Mf6-g7=!\nc) continued mirror a1<->h1\n=1\n1.Mc6-b7=!\n"
    );
}

/// Figurines where Unicode has them; the Immobilizer keeps its letter; Rococo's letters map by
/// the piece (`L` the Long Leaper: `♘`).
#[test]
fn figurines_replace_the_letters_unicode_has() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": TRIES, "mate_in": 2, "format": "text", "notation": "figurine"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.body.contains("1.\u{2658}c7-h7! (2.\u{2657}f3-f5#)"),
        "{}",
        r.body
    );
    assert!(r.body.contains("  1...\u{2654}g5-f6"), "{}", r.body);
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": STALEMATE, "stipulation": "=1", "format": "text", "notation": "figurine"}),
    );
    assert_eq!(r.body, "=1\n1.Me5-g7=!\n");
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "game": "rococo",
                "mate_in": 1, "format": "text", "notation": "figurine"}),
    );
    assert_eq!(r.body, "#1\n1.\u{2658}e4xe9#!\n");
    // The JSON keeps the letters.
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": STALEMATE, "stipulation": "=1", "notation": "figurine"}),
    );
    assert_eq!(r.json()["keys"][0]["notation"], "Me5-g7");
}

fn with_accept(app: &TestApp, accept: &str, body: &Value) -> Reply {
    app.post_with(
        "/v1/solve",
        "application/json",
        &[("accept", accept)],
        body.to_string().as_bytes(),
    )
}

/// `Accept: text/plain` asks for the text unless the client prefers JSON; `format` wins over
/// `Accept`; a problem stays `application/problem+json`.
#[test]
fn accept_chooses_the_form_and_format_wins() {
    let app = spawn_app();
    let body = json!({"fen": STALEMATE, "stipulation": "=1"});
    let text = "=1\n1.Me5-g7=!\n";
    for accept in ["text/plain", "text/*", "text/plain, application/json;q=0.5"] {
        let r = with_accept(&app, accept, &body);
        assert_eq!(r.status, 200, "{accept}");
        assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
        assert_eq!(r.body, text, "{accept}");
    }
    // The most specific range decides each type's quality; `q` in any case.
    for accept in [
        "application/json;q=0, */*;q=0.1",
        "application/json;q=0.5, */*",
        "text/plain;Q=0.9, application/json;q=0.5",
    ] {
        let r = with_accept(&app, accept, &body);
        assert_eq!(r.body, text, "{accept}");
        assert_eq!(r.header("vary").map(|v| v.contains("Accept")), Some(true));
    }
    for accept in [
        "application/json",
        "*/*",
        "text/plain;q=0.5, application/json",
        "text/plain;Q=0.1, application/json;q=0.5",
        "text/plain, application/json",
        "text/html",
    ] {
        let r = with_accept(&app, accept, &body);
        assert_eq!(r.status, 200, "{accept}");
        assert_eq!(r.json()["keys"][0]["notation"], "Me5-g7", "{accept}");
        assert_eq!(r.header("vary").map(|v| v.contains("Accept")), Some(true));
    }
    // `notation` holds for a text asked for by `Accept` too.
    let r = with_accept(
        &app,
        "text/plain",
        &json!({"fen": TRIES, "mate_in": 2, "notation": "figurine"}),
    );
    assert!(r.body.contains("1.\u{2658}c7-h7!"), "{}", r.body);
    let mut json_body = body.clone();
    json_body["format"] = "json".into();
    let r = with_accept(&app, "text/plain", &json_body);
    assert_eq!(r.json()["stipulation"], "=1");
    // A bad request is a problem whatever the client accepts.
    let r = with_accept(
        &app,
        "text/plain",
        &json!({"fen": STALEMATE, "stipulation": "=99"}),
    );
    assert_eq!(r.status, 422);
    assert_eq!(
        r.header("content-type"),
        Some("application/problem+json"),
        "{}",
        r.body
    );
    // An unknown form or notation is refused, naming the value and the ones accepted.
    for (bad, named) in [
        (
            json!({"fen": STALEMATE, "mate_in": 1, "format": "html"}),
            "unknown variant `html`, expected `json` or `text`",
        ),
        (
            json!({"fen": STALEMATE, "mate_in": 1, "notation": "descriptive"}),
            "unknown variant `descriptive`, expected `letters` or `figurine`",
        ),
    ] {
        let r = app.post_json("/v1/solve", &bad);
        assert_eq!(r.status, 400, "{}", r.body);
        assert_eq!(r.header("content-type"), Some("application/problem+json"));
        assert!(r.body.contains(named), "{}", r.body);
    }
}

/// The notes close each block: the position's warnings, lists cut to `max_solutions`, a set play
/// the budget cut before any line was found (not called "none"), a key found before the budget ran
/// out (other keys may be missing; a checking key without its tree has no threat).
#[test]
fn notes_say_what_the_text_leaves_out() {
    let app = spawn_app();
    let text = |body: Value| {
        let r = app.post_json("/v1/solve", &body);
        assert_eq!(r.status, 200, "{}", r.body);
        r.body
    };
    let t = text(
        json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#2",
        "set_play": true, "format": "text", "max_solutions": 2}),
    );
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[..2], ["h#2", "set play:"]);
    assert!(lines[2].starts_with("  1..."), "{t}");
    assert!(lines[3].starts_with("  1..."), "{t}");
    assert!(lines[4].starts_with("1."), "{t}");
    assert_eq!(
        lines[lines.len() - 2..],
        ["(25 set play lines, 2 shown)", "(70 solutions, 2 shown)"],
        "{t}"
    );
    let t = text(
        json!({"fen": "8/8/8/8/1K6/1M1k4/8/8 b 0", "stipulation": "h#2",
        "set_play": true, "format": "text", "limits": {"nodes": 200}}),
    );
    assert!(t.starts_with("h#2\nset play:\n"), "{t}");
    assert!(!t.contains("none"), "{t}");
    assert!(
        t.contains("(the set play may be incomplete: the budget ran out)\n"),
        "{t}"
    );
    let t = text(
        json!({"fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "mate_in": 3,
        "limits": {"nodes": 3000}, "format": "text"}),
    );
    assert!(!t.contains("+! ("), "{t}");
    assert!(
        t.ends_with("(the budget ran out: other keys may be missing)\n"),
        "{t}"
    );
    let t = text(
        json!({"fen": STALEMATE, "stipulation": "=1", "format": "text",
        "twins": ["remove a1"]}),
    );
    assert!(
        t.ends_with("b) -wKa1\n=1\n1.Me5-g7=!\n(warning: white has no King: that side is never in check and cannot be mated)\n"),
        "{t}"
    );
}

/// A budget that runs out says so in the text.
#[test]
fn a_budget_cut_short_is_noted() {
    let app = spawn_app();
    let r = app.post_json(
        "/v1/solve",
        &json!({"fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "mate_in": 3,
                "limits": {"nodes": 50}, "format": "text"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.starts_with("#3\n"), "{}", r.body);
    assert!(r.body.contains("(the budget ran out"), "{}", r.body);
}
