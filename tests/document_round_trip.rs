//! Round trips through the real binary, on documents written at random in each format: the
//! diagrams `check` finds are the ones written (board, game, caption), `extract` turns them into
//! a case file whose positions all read (only the moves are left for the author), and a document
//! written again from the extracted FENs gives the same diagrams, places included.

use baroque::rules::{GameKind, Naming, Variant};
use proptest::prelude::*;
use serde_json::Value;

mod common;
use common::{baroque, run};

/// A diagram to write: its game, its board (FEN's first field, as a FEN writes it), its caption.
#[derive(Clone, Debug)]
struct Written {
    game: GameKind,
    board: String,
    caption: String,
}

/// A board of `side` squares a side from `(square, letter)` pairs (later pairs win).
fn board_fen(side: usize, cells: &[(usize, char)]) -> String {
    let mut grid = vec![None; side * side];
    for &(sq, c) in cells {
        grid[sq % (side * side)] = Some(c);
    }
    let mut ranks = Vec::new();
    for rank in grid.chunks(side) {
        let mut out = String::new();
        let mut empty = 0;
        for cell in rank {
            match cell {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(*c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        ranks.push(out);
    }
    ranks.join("/")
}

fn fen_of(w: &Written) -> String {
    match w.game {
        GameKind::Baroque => format!("{} w 0", w.board),
        GameKind::Rococo => format!("{} w 0 -", w.board),
    }
}

/// A position that can arise, of `game`: both Kings and up to five other pieces.
fn written(game: GameKind) -> impl Strategy<Value = Written> {
    let (side, letters): (usize, &'static [char]) = match game {
        GameKind::Baroque => (
            8,
            &['p', 'r', 'n', 'b', 'q', 'm', 'P', 'R', 'N', 'B', 'Q', 'M'],
        ),
        GameKind::Rococo => (
            10,
            &[
                'p', 'i', 'w', 'l', 'x', 'a', 's', 'P', 'I', 'W', 'L', 'X', 'A', 'S',
            ],
        ),
    };
    let n = side * side;
    (
        0..n,
        0..n,
        prop::collection::vec((0..n, prop::sample::select(letters)), 0..6),
        "[A-Za-z][a-z]{0,8}( ([a-z]{1,8}|&)){0,4}\\.",
    )
        .prop_filter_map(
            "a position that can arise",
            move |(k, kk, rest, caption)| {
                let mut cells = rest;
                // Pawns stay off the first and last ranks of the board: Baroque's cannot stand there.
                cells.retain(|(sq, c)| {
                    !(c.eq_ignore_ascii_case(&'p') && (sq / side == 0 || sq / side == side - 1))
                });
                cells.push((k, 'K'));
                cells.push((kk, 'k'));
                if k == kk {
                    return None;
                }
                let board = board_fen(side, &cells);
                let w = Written {
                    game,
                    board,
                    caption,
                };
                let variant = Variant::of(game, None).ok()?;
                variant.position(&fen_of(&w), Naming::default()).ok()?;
                Some(w)
            },
        )
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Html,
    Markdown,
    Wiki,
    Text,
}

impl Kind {
    fn extension(self) -> &'static str {
        match self {
            Kind::Html => "html",
            Kind::Markdown => "md",
            Kind::Wiki => "wiki",
            Kind::Text => "txt",
        }
    }

    /// Whether the format draws boards of this game.
    fn draws(self, game: GameKind) -> bool {
        !matches!((self, game), (Kind::Wiki, GameKind::Rococo))
    }
}

/// The document of `kind` showing `diagrams`, with prose between them, and the line where each
/// diagram starts (HTML: its `data-fen`; Markdown: its fence; MediaWiki: its template; text: its
/// top border).
fn document(kind: Kind, diagrams: &[Written]) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut lines = Vec::new();
    match kind {
        Kind::Html => out.push_str("<!DOCTYPE html>\n<html><body>\n<h1>Rules</h1>\n"),
        Kind::Markdown => out.push_str("# Rules\n\n"),
        Kind::Wiki => out.push_str("== Rules ==\n\n"),
        Kind::Text => out.push_str("Rules\n\n"),
    }
    for (i, d) in diagrams.iter().enumerate() {
        let fen = fen_of(d);
        let chunk = out.len();
        match kind {
            Kind::Html => out.push_str(&format!(
                "<p>Section {i}.</p>\n<figure>\n  <div class=\"diag\" data-fen=\"{fen}\"></div>\n  <figcaption>{}</figcaption>\n</figure>\n",
                d.caption.replace('&', "&amp;")
            )),
            Kind::Markdown => out.push_str(&format!(
                "Section {i}.\n\n```fen\n{fen}\n```\n\n{}\n\n",
                d.caption
            )),
            Kind::Wiki => {
                out.push_str(&format!("Section {i}.\n\n{{{{Chess diagram\n| tright\n| \n"));
                for rank in ranks(d) {
                    let cells: Vec<String> = rank
                        .iter()
                        .map(|c| match c {
                            Some(c) if c.is_ascii_uppercase() => format!("{}l", c.to_ascii_lowercase()),
                            Some(c) => format!("{c}d"),
                            None => "  ".to_string(),
                        })
                        .collect();
                    out.push_str(&format!("|{}\n", cells.join("|")));
                }
                out.push_str(&format!("| {}\n}}}}\n\n", d.caption));
            }
            Kind::Text => {
                out.push_str(&format!("# {}\n\n", d.caption));
                let side = ranks(d).len();
                let rule = format!("   +{}\n", "---+".repeat(side));
                out.push_str(&rule);
                for (r, rank) in ranks(d).iter().enumerate() {
                    let cells: String = rank
                        .iter()
                        .map(|c| format!(" {} |", c.unwrap_or(' ')))
                        .collect();
                    out.push_str(&format!("{:>2} |{cells}\n", side - r));
                    out.push_str(&rule);
                }
                let files: String = "abcdefghij"
                    .chars()
                    .take(side)
                    .map(|f| format!("{f}   "))
                    .collect();
                out.push_str(&format!("     {}\n\n", files.trim_end()));
            }
        }
        let mark = match kind {
            Kind::Html => "data-fen",
            Kind::Markdown => "```fen",
            Kind::Wiki => "{{Chess diagram",
            Kind::Text => "   +",
        };
        let at = chunk + out[chunk..].find(mark).unwrap();
        lines.push(out[..at].matches('\n').count() + 1);
    }
    if let Kind::Html = kind {
        out.push_str("</body></html>\n");
    }
    (out, lines)
}

/// The board's ranks, top first, each a list of cells.
fn ranks(d: &Written) -> Vec<Vec<Option<char>>> {
    d.board
        .split('/')
        .map(|rank| {
            let mut cells = Vec::new();
            let mut empty = 0;
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => empty = empty * 10 + n as usize,
                    None => {
                        cells.extend(std::iter::repeat_n(None, empty));
                        empty = 0;
                        cells.push(Some(c));
                    }
                }
            }
            cells.extend(std::iter::repeat_n(None, empty));
            cells
        })
        .collect()
}

/// `check --report json` of a file: its exit code and a line per diagram or case.
fn check(path: &std::path::Path) -> (i32, Vec<Value>) {
    let (code, out, err) = run(baroque().arg("check").args(["--report", "json"]).arg(path));
    assert!(!err.contains("panicked"), "{err}");
    let lines = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (code, lines)
}

fn kind_and_diagrams() -> impl Strategy<Value = (Kind, Vec<Written>)> {
    prop::sample::select(vec![Kind::Html, Kind::Markdown, Kind::Wiki, Kind::Text]).prop_flat_map(
        |kind| {
            let game = prop::sample::select(
                [GameKind::Baroque, GameKind::Rococo]
                    .into_iter()
                    .filter(|g| kind.draws(*g))
                    .collect::<Vec<_>>(),
            );
            (
                Just(kind),
                prop::collection::vec(game.prop_flat_map(written), 1..4),
            )
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn diagrams_survive_extract_and_check((kind, diagrams) in kind_and_diagrams()) {
        let dir = tempfile::tempdir().unwrap();
        let doc = dir.path().join(format!("rules.{}", kind.extension()));
        let (text, lines) = document(kind, &diagrams);
        std::fs::write(&doc, text).unwrap();

        // The document: every diagram found, as written.
        let (code, found) = check(&doc);
        prop_assert_eq!(code, 0, "{:?}", found);
        prop_assert_eq!(found.len(), diagrams.len(), "{:?}", found);
        for ((f, d), line) in found.iter().zip(&diagrams).zip(&lines) {
            prop_assert_eq!(f["ok"].as_bool(), Some(true), "{}", f);
            prop_assert_eq!(f["line"].as_u64(), Some(*line as u64), "{}", f);
            let fen = f["fen"].as_str().unwrap();
            prop_assert_eq!(fen.split(' ').next(), Some(d.board.as_str()), "{}", f);
            let game = format!("{:?}", d.game).to_lowercase();
            prop_assert_eq!(f["game"].as_str(), Some(game.as_str()));
            prop_assert_eq!(f["caption"].as_str(), Some(d.caption.as_str()), "{}", f);
        }

        // Extracted into a case file beside it, whose cases all check.
        let (code, out, err) = run(baroque().arg("extract").arg(&doc));
        prop_assert_eq!(code, 0, "{}", err);
        let cases: Value = serde_json::from_str(&out).unwrap();
        let cases = cases["cases"].as_array().unwrap().clone();
        prop_assert_eq!(cases.len(), diagrams.len());
        // A case holds its diagram's FEN, or points at the diagram when it is of the other game
        // than the case file's.
        for (i, (c, f)) in cases.iter().zip(&found).enumerate() {
            if c["fen"].is_null() {
                prop_assert_eq!(&c["diagram"]["index"], &serde_json::json!(i + 1), "{}", c);
                prop_assert_ne!(&f["game"], &serde_json::from_str::<Value>(&out).unwrap()["game"]);
            } else {
                prop_assert_eq!(&c["fen"], &f["fen"], "{}", c);
            }
        }
        let case_file = dir.path().join("cases.json");
        std::fs::write(&case_file, &out).unwrap();
        // A skeleton is the author's to complete: each case's position reads, and only its moves
        // are missing.
        let (code, checked) = check(&case_file);
        prop_assert_eq!(code, 1, "{:?}", checked);
        prop_assert_eq!(checked.len(), diagrams.len());
        for c in &checked {
            prop_assert_eq!(
                &c["problems"],
                &serde_json::json!(["the case lists no move and no destinations"]),
                "{}", c
            );
        }

        // Written again from the extracted FENs: the same diagrams.
        let again: Vec<Written> = cases
            .iter()
            .zip(&diagrams)
            .zip(&found)
            .map(|((c, d), f)| Written {
                game: d.game,
                board: c["fen"].as_str().or(f["fen"].as_str()).unwrap().split(' ').next().unwrap().to_string(),
                caption: d.caption.clone(),
            })
            .collect();
        std::fs::write(&doc, document(kind, &again).0).unwrap();
        let (code, found_again) = check(&doc);
        prop_assert_eq!(code, 0);
        prop_assert_eq!(found_again, found);
    }
}
