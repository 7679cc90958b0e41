//! Case file skeletons from a rule document (`baroque extract`): one case per diagram with its
//! position and the moves its text names, for the document's author to complete with what each
//! move does.
//!
//! A word of a diagram's caption (and, in MediaWiki, of the text after the template) is kept as a
//! move when it reads as one in our notations, legal or not: the position's move reader
//! ([`crate::rules::GameNotation::parse_move`]) accepts it or refuses it for any reason but
//! `unparsable`. Move numbers (`1.`) and punctuation around a word are dropped; a word must hold a
//! letter and a digit.

use crate::cases::{Case, CaseFile, DiagramRef};
use crate::rules::prelude::*;
use crate::rules::GameKind;
use crate::rules::{MoveErrorKind, Naming, Rules, Variant, VariantPosition};
use crate::{Content, Diagram, Reading};

/// The words of `text` that read as moves of `pos`, in order, each once.
pub fn moves_named(pos: &VariantPosition, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in move_words(pos, text) {
        if !out.contains(&word) {
            out.push(word);
        }
    }
    out
}

/// The words of `text` that read as moves of `pos`, in order, each as often as it is named.
fn move_words(pos: &VariantPosition, text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c: char| ",;:!?()[]\"'".contains(c));
        let word = word.trim_end_matches('.');
        // A move number: `1.Pc2c4`, `12...Kd5`.
        let word = word
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches('.');
        if word.is_empty()
            || !word.starts_with(|c: char| c.is_ascii_alphabetic())
            || !word.contains(|c: char| c.is_ascii_digit())
        {
            continue;
        }
        let reads = match pos.parse_move(word, Naming::default()) {
            Ok(_) => true,
            Err(e) => e.kind != MoveErrorKind::Unparsable,
        };
        if reads {
            out.push(word.to_string());
        }
    }
    out
}

/// Whether `word` is a move of the side to move of `pos` (legal or not): it is one, or it names
/// its from-square (`Kc4-d4`) and a piece of that side stands there.
fn of_side_to_move(pos: &VariantPosition, word: &str) -> bool {
    if pos.parse_move(word, Naming::default()).is_ok() {
        return true;
    }
    // A long form: an optional piece letter, then the from-square, then `-`, `x`, `<` or `*`.
    let rest = word.trim_start_matches(|c: char| c.is_ascii_uppercase());
    let end = rest
        .char_indices()
        .skip(1)
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(rest.len(), |(i, _)| i);
    let (from, after) = rest.split_at(end);
    if !after.starts_with(['-', 'x', '<', '*']) {
        return false;
    }
    pos.parse_square(from, Naming::default())
        .and_then(|sq| pos.piece_at(sq))
        .is_some_and(|p| p.color == pos.turn())
}

/// The lines of moves `text` names for `pos` (the words that read as moves, in order): a word
/// that is a legal move where its line stands continues the line; one that is not, but is a move
/// of the diagram's side to move there (legal, or a long form from a square of that side), is an
/// alternative and starts a line of its own (`1.Qa5, 1.Qb5 or 1.Qc5`: three lines); any other
/// word ends its line (a reply the text calls illegal). Repeated lines are kept once.
pub fn lines_named(pos: &VariantPosition, text: &str) -> Vec<Vec<String>> {
    let mut lines: Vec<(Vec<String>, Option<VariantPosition>)> = Vec::new();
    for word in move_words(pos, text) {
        if let Some((line, Some(at))) = lines.last_mut() {
            if let Ok(mv) = at.parse_move(&word, Naming::default()) {
                *at = at.play(&mv);
                line.push(word);
                continue;
            }
        }
        let first_move = of_side_to_move(pos, &word);
        match lines.last_mut() {
            Some((line, at)) if !first_move => {
                // Played where it cannot be: the line's last word, after which nothing is played.
                line.push(word);
                *at = None;
            }
            _ => {
                let at = pos
                    .parse_move(&word, Naming::default())
                    .ok()
                    .map(|mv| pos.play(&mv));
                lines.push((vec![word], at));
            }
        }
    }
    let mut out: Vec<Vec<String>> = Vec::new();
    for (line, _) in lines {
        if !out.contains(&line) {
            out.push(line);
        }
    }
    out
}

/// A file-name stem as an id prefix: lower case letters, digits and `-`.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "diagram".into()
    } else {
        out
    }
}

/// The case skeletons of one diagram, one for each line of moves its text names (alternatives
/// apart; one case when it names none): `document` is how a case names the document, `stem` the
/// id prefix (the first case is `stem-N`, an alternative `stem-N-2`, ...), `file_game` the game
/// of the case file (a diagram of another game is named by its `diagram`, not its FEN). A rule
/// set the document names for the diagram (a fence's `rules=`) is the case's `rules`.
fn cases_of(
    d: &Diagram,
    document: &str,
    stem: &str,
    rules: Rules,
    file_game: GameKind,
) -> Vec<Case> {
    let game = d.found.game;
    // A rule set the document names for the diagram, where the game has rule sets.
    let own = d
        .found
        .rules
        .as_deref()
        .and_then(|r| r.parse::<Rules>().ok())
        .filter(|_| Variant::has_rule_sets(game));
    let rules = own.unwrap_or(rules);
    let variant =
        Variant::of(game, Some(rules).filter(|_| Variant::has_rule_sets(game))).unwrap_or_default();
    let read = |fen: &str| variant.read_fen(fen, Naming::default()).ok();
    let (fen, pos, note) = match (&d.reading, &d.found.content) {
        (Reading::Position { fen, .. }, _) => (fen.clone(), read(fen), None),
        (Reading::Impossible { fen, problems }, _) => (
            fen.clone(),
            read(fen),
            Some(format!(
                "the diagram's position cannot arise: {}",
                problems
                    .iter()
                    .map(|p| p.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
        ),
        (Reading::Unreadable(e), Ok(Content::Fen { text, .. })) => (
            text.clone(),
            None,
            Some(format!(
                "unreadable at line {}, column {}: {}",
                e.at.line, e.at.column, e.message
            )),
        ),
        (Reading::Unreadable(e), _) => (
            String::new(),
            None,
            Some(format!(
                "unreadable at line {}, column {}: {}",
                e.at.line, e.at.column, e.message
            )),
        ),
        (Reading::Unplaced, _) => (
            String::new(),
            None,
            Some("a grid without labels: add `placement` (fixtures/README.md)".into()),
        ),
    };
    // Words are read as moves of the diagram's position, or of the game's start position (where
    // a well-formed move is at worst `no_piece`) when it has none.
    let pos = pos.unwrap_or_else(|| variant.start());
    // A case's FEN is of the file's game: a diagram of the other game is named instead.
    let fen = if game == file_game {
        fen
    } else {
        String::new()
    };
    let text = format!("{} {}", d.caption(), d.after());
    let caption = d.caption().chars().take(120).collect::<String>();
    let mut lines = lines_named(&pos, &text);
    if lines.is_empty() {
        lines.push(Vec::new());
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, moves)| Case {
            id: match i {
                0 => format!("{stem}-{}", d.index),
                _ => format!("{stem}-{}-{}", d.index, i + 1),
            },
            section: (!caption.is_empty()).then(|| caption.clone()),
            title: None,
            diagram: fen.is_empty().then(|| DiagramRef {
                document: document.to_string(),
                index: Some(d.index),
                caption_contains: None,
                format: None,
            }),
            fen: fen.clone(),
            placement: None,
            rules: own.as_ref().map(crate::cases::RulesSpec::from_rules),
            moves,
            legal: true,
            reason: None,
            captures: None,
            status: None,
            frozen: None,
            destinations: None,
            note: note.clone(),
            marks: None,
        })
        .collect()
}

/// The case file skeleton of a document's diagrams: `document` names it (the path a case's
/// `diagram` gives), `stem` prefixes the ids.
pub fn skeleton(document: &str, stem: &str, diagrams: &[Diagram], rules: Rules) -> CaseFile {
    let stem = slug(stem);
    // The game of most diagrams that read.
    let game = GameKind::most_common(
        diagrams
            .iter()
            .filter(|d| d.reading != Reading::Unplaced)
            .map(|d| d.found.game),
    );
    CaseFile {
        document: document.to_string(),
        game,
        cases: diagrams
            .iter()
            .flat_map(|d| cases_of(d, document, &stem, rules, game))
            .collect(),
    }
}

/// Merges a skeleton into an existing case file: every existing case is kept as it is, and a
/// skeleton case is added when no existing case has its id, its FEN or its diagram.
pub fn merge(existing: CaseFile, skeleton: CaseFile) -> CaseFile {
    let mut out = existing;
    for case in skeleton.cases {
        let known = out.cases.iter().any(|c| {
            c.id == case.id
                || (!case.fen.is_empty() && c.fen == case.fen)
                || (case.diagram.is_some() && c.diagram == case.diagram)
        });
        if !known {
            out.cases.push(case);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_read_as_moves_legal_or_not() {
        let pos = Variant::default()
            .read_fen("8/8/8/4k3/2K2M2/3q4/8/8 w 0", Naming::default())
            .unwrap();
        let text = "The white king moves Kc4-d5 delivering checkmate (1.Kc4-d5). Not Kc4-d4, \
                    as the d-file and Kc4xd3 would stalemate; the f4 square, 2 Kings, h9.";
        assert_eq!(moves_named(&pos, text), ["Kc4-d5", "Kc4-d4", "Kc4xd3"]);
    }

    #[test]
    fn alternatives_are_lines_of_their_own() {
        let pos = Variant::default()
            .read_fen("7k/8/8/3Qr3/8/8/8/K7 w 0", Naming::default())
            .unwrap();
        assert_eq!(
            lines_named(&pos, "1.Qa5, 1.Qb5 or 1.Qc5 captures the black rook."),
            [["Qa5"], ["Qb5"], ["Qc5"]]
        );
        // A reply continues its line; a move of the side not to move ends it.
        assert_eq!(
            lines_named(
                &pos,
                "1.Qa5 Kh8-g8 2.Qa5-a8, but not Kh8-h7 after 1.Qc5 Re5-e1"
            ),
            vec![
                vec!["Qa5", "Kh8-g8", "Qa5-a8", "Kh8-h7"],
                vec!["Qc5", "Re5-e1"]
            ]
        );
        // A short-form reply of the side not to move continues its line too; an alternative
        // keeps the words it shares with another line.
        assert_eq!(
            lines_named(&pos, "1.Qa5 Kg8, not 1...Kh7; or 1.Qb5 Kg8"),
            vec![vec!["Qa5", "Kg8", "Kh7"], vec!["Qb5", "Kg8"]]
        );
    }

    #[test]
    fn slugs_are_ids() {
        assert_eq!(slug("Rules of Baroque.wiki"), "rules-of-baroque-wiki");
        assert_eq!(slug("__"), "diagram");
    }
}
