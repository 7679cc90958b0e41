//! The claims a diagram's caption states about it, read in the document's own notation and
//! verified against the diagram (`baroque check`): a move or line followed by what it does
//! ("delivering checkmate", "mates in two", "would result in stalemate", "gives check",
//! "captures both coordinator and long leaper"), or a move the text calls impossible ("could
//! not play c4-d4", "not Kc4-d4", "illegal").
//!
//! Each sentence of the caption (and, in MediaWiki, of the text after the template) is read on
//! its own. A sentence that names a move and says one of these things is a claim; each claim is
//! [`Finding::Verified`], [`Finding::Wrong`] (with what the engine says), or
//! [`Finding::NotUnderstood`] (a sentence that says one of these things of no move, or names a
//! piece the reader does not know): a document's words are read, never guessed, so a sentence
//! the reader cannot tie to a move is reported and left alone.

use crate::extract::lines_named;
use crate::rules::prelude::*;
use crate::rules::{MoveErrorKind, Naming, Role, Status, VariantPosition};

/// What a claim says the move or line does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Says {
    /// The line ends in checkmate (`#`, "checkmate", "mate").
    Mate,
    /// The first move forces mate in N moves, itself included ("mates in two").
    MateIn(u32),
    /// The line ends in stalemate (`=`, "stalemate").
    Stalemate,
    /// The line ends with the side to move in check (`+`, "check").
    Check,
    /// The line's last move captures exactly these kinds of piece ("captures both coordinator
    /// and long leaper").
    Captures(Vec<Role>),
    /// The line's last move captures exactly the pieces on these squares ("captures on c7 and
    /// h5").
    CapturesOn(Vec<String>),
    /// The move cannot be played ("illegal", "cannot", "could not play", "not Kc4-d4").
    Illegal,
}

impl std::fmt::Display for Says {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Says::Mate => f.write_str("checkmate"),
            Says::MateIn(n) => write!(f, "mate in {n}"),
            Says::Stalemate => f.write_str("stalemate"),
            Says::Check => f.write_str("check"),
            Says::Captures(roles) => {
                let names: Vec<String> = roles.iter().map(|r| r.name().to_lowercase()).collect();
                write!(f, "captures {}", names.join(", "))
            }
            Says::CapturesOn(squares) => write!(f, "captures on {}", squares.join(", ")),
            Says::Illegal => f.write_str("illegal"),
        }
    }
}

/// What the engine makes of a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    Verified,
    /// The claim is wrong: what the engine says instead.
    Wrong(String),
    /// The sentence says something the reader cannot tie to a move, or the engine could not
    /// settle within its budget: why.
    NotUnderstood(String),
}

/// A claim of a caption and its finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The sentence, as written (spaces collapsed).
    pub sentence: String,
    /// The moves the claim is about, as written (empty when none was understood).
    pub line: Vec<String>,
    /// What it says (none when the sentence was not understood).
    pub says: Option<Says>,
    pub finding: Finding,
}

impl Claim {
    /// Whether the claim fails the diagram.
    pub fn is_wrong(&self) -> bool {
        matches!(self.finding, Finding::Wrong(_))
    }
}

/// The pieces a caption may name, as the engine names them (lower case), longest first so that
/// "cannon pawn" is read before "pawn"; and the other names documents give them.
const PIECE_NAMES: [(&str, Role); 15] = [
    ("pushme-pullyu", Role::PushmePullyu),
    ("long-leaper", Role::LongLeaper),
    ("cannon pawn", Role::CannonPawn),
    ("long leaper", Role::LongLeaper),
    ("coordinator", Role::Coordinator),
    ("immobilizer", Role::Immobilizer),
    ("immobiliser", Role::Immobilizer),
    ("withdrawer", Role::Withdrawer),
    ("chameleon", Role::Chameleon),
    ("advancer", Role::Advancer),
    ("swapper", Role::Swapper),
    ("leaper", Role::LongLeaper),
    ("pincer", Role::Pawn),
    ("king", Role::King),
    ("pawn", Role::Pawn),
];

/// The chess pieces' names, for documents that draw Baroque with chess pieces (the vchess page's
/// "captures the black rook"): the letter each stands for in the game's FEN.
const CHESS_NAMES: [(&str, char); 4] = [
    ("rook", 'R'),
    ("knight", 'N'),
    ("bishop", 'B'),
    ("queen", 'Q'),
];

/// Words that make a sentence say what a move threatens, prevents or avoids, not what it does.
const HEDGES: [&str; 7] = [
    "threat", "prevent", "avoid", "stops ", "defend", "escape", "unless",
];

/// Words that say a move cannot be played.
const NEGATIONS: [&str; 8] = [
    "illegal",
    "cannot",
    "can not",
    "can't",
    "could not",
    "may not",
    "not possible",
    "not allowed",
];

/// The claims of `text` (a caption, with the text after its diagram) about the diagram `pos`,
/// each verified. The lines are read in standard coordinates, as case files name moves.
pub fn claims(pos: &VariantPosition, text: &str) -> Vec<Claim> {
    sentences(text)
        .into_iter()
        .flat_map(|s| claims_of_sentence(pos, &s))
        .collect()
}

/// The sentences of a text: split after `.`, `!`, `?` or `;` followed by a space (a move number
/// such as `1.` and a move marked `!` or `?` are no end), spaces collapsed.
fn sentences(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for word in words {
        current.push(word);
        let stem = word.trim_end_matches(['.', '!', '?', ';']);
        // `1.` numbers a move; `Bg6xc6!` and `Kb7-c6?` mark a key and a try.
        let ends = match word.chars().last() {
            Some('.' | ';') => !stem.chars().all(|c| c.is_ascii_digit()),
            Some('!' | '?') => !stem.contains(|c: char| c.is_ascii_digit()),
            _ => false,
        };
        if ends {
            out.push(current.join(" "));
            current.clear();
        }
    }
    if !current.is_empty() {
        out.push(current.join(" "));
    }
    out
}

/// What a sentence says of its moves, besides a negation: the goal or check its line reaches,
/// and the pieces its last move captures.
fn sayings(pos: &VariantPosition, lower: &str, last_word: Option<&str>) -> (Vec<Says>, bool) {
    let mut says = Vec::new();
    let mut unknown_capture = false;
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    const NUMBERS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    let number = |w: &str| -> Option<u32> {
        w.parse()
            .ok()
            .or_else(|| NUMBERS.iter().position(|n| *n == w).map(|i| i as u32 + 1))
    };
    let mate_word = |w: &str| {
        matches!(
            w,
            "mate" | "mates" | "mated" | "checkmate" | "checkmates" | "checkmated"
        )
    };
    // "mates in two", "forces checkmate in 3"; a mate word then `in` without a number is not
    // read.
    let mut mate_in_unread = false;
    let mate_in = words.windows(3).find_map(|w| {
        if mate_word(w[0]) && w[1] == "in" {
            let n = number(w[2]);
            mate_in_unread |= n.is_none();
            n
        } else {
            None
        }
    });
    if mate_in_unread && mate_in.is_none() {
        return (Vec::new(), true);
    }
    let suffix = last_word.unwrap_or("");
    if let Some(n) = mate_in {
        says.push(Says::MateIn(n));
    } else if words.iter().any(|w| {
        matches!(
            *w,
            "checkmate" | "checkmates" | "checkmated" | "mate" | "mates" | "mated"
        )
    }) || suffix.ends_with('#')
    {
        says.push(Says::Mate);
    } else if words.iter().any(|w| w.starts_with("stalemate")) || suffix.ends_with('=') {
        says.push(Says::Stalemate);
    } else if words.iter().any(|w| matches!(*w, "check" | "checks")) || suffix.ends_with('+') {
        says.push(Says::Check);
    }
    if let Some(at) = words
        .iter()
        .position(|w| w.starts_with("captur") || matches!(*w, "takes" | "taking"))
    {
        // The pieces named after the capture word ("capturing the black pawn on h7",
        // "Capturing the Withdrawer with Kc4xd3"): the mover, named before it, is not one. A
        // count or an exception ("all seven black pieces except the king") is not read.
        // The span: from the capture word to the end of its clause (a comma, a semicolon or a
        // colon ends it: "captures the Withdrawer, leaving ...").
        let start = lower.find(words[at]).unwrap_or(0);
        let clause = lower[start..]
            .split([',', ';', ':'])
            .next()
            .unwrap_or_default();
        let clause_words: Vec<&str> = clause
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|w| !w.is_empty())
            .skip(1)
            .collect();
        let span = clause_words.join(" ");
        let counted = clause_words.iter().any(|w| {
            matches!(
                *w,
                "all" | "except" | "two" | "three" | "four" | "five" | "six" | "seven" | "eight"
            )
        });
        let mut roles: Vec<Role> = Vec::new();
        let mut rest = span.clone();
        let kind = pos.variant().kind();
        let chess = CHESS_NAMES
            .iter()
            .filter_map(|&(name, letter)| Some((name, kind.role_of_letter(letter)?)))
            .filter(|_| kind == crate::rules::GameKind::Baroque);
        for (name, role) in PIECE_NAMES.into_iter().chain(chess) {
            while let Some(i) = rest.find(name) {
                let before = rest[..i].chars().last();
                let after = rest[i + name.len()..].chars().next();
                let whole = !before.is_some_and(|c| c.is_ascii_alphabetic())
                    && !after.is_some_and(|c| c.is_ascii_alphabetic() && c != 's');
                rest.replace_range(i..i + name.len(), &" ".repeat(name.len()));
                if whole && !roles.contains(&role) {
                    roles.push(role);
                }
            }
        }
        // Squares named after the capture word: "captures on c7 and h5".
        let squares: Vec<String> = clause_words
            .iter()
            .filter(|w| pos.parse_square(w, Naming::default()).is_some())
            .map(|w| w.to_string())
            .collect();
        if counted {
            unknown_capture = true;
        } else if !squares.is_empty() && roles.is_empty() {
            says.push(Says::CapturesOn(squares));
        } else if roles.is_empty() {
            unknown_capture = true;
        } else {
            roles.sort();
            says.push(Says::Captures(roles));
        }
    }
    (says, unknown_capture)
}

/// The claims of one sentence.
fn claims_of_sentence(pos: &VariantPosition, sentence: &str) -> Vec<Claim> {
    let lower = sentence.to_lowercase();
    let lines = lines_named(pos, sentence);
    let claim = |line: &[String], says: Option<Says>, finding: Finding| Claim {
        sentence: sentence.to_string(),
        line: line.to_vec(),
        says,
        finding,
    };
    // A sentence about what a move threatens, prevents or avoids says nothing the reader can
    // check of the move itself.
    let hedged = HEDGES.iter().any(|h| lower.contains(h));
    let not_understood = |why: &str| vec![claim(&[], None, Finding::NotUnderstood(why.into()))];
    let Some(first) = lines.first() else {
        // Something said of no move the reader found.
        let (says, unknown_capture) = sayings(pos, &lower, None);
        let says_something =
            says.iter().any(|s| !matches!(s, Says::Captures(_))) || unknown_capture;
        return if says_something {
            not_understood("it names no move of the diagram")
        } else {
            Vec::new()
        };
    };
    if hedged {
        return not_understood("it says what a move threatens, prevents or avoids");
    }
    // A move the text says cannot be played: a negation in the few words before it ("could not
    // play Kc4-d4", "not Kc4-d4", "cannot be captured by Ld2-h2") or after it ("Kc4-d5 is
    // illegal").
    let governed = |word: &str| -> bool {
        let word = word.to_lowercase();
        let Some(i) = lower.find(&word) else {
            return false;
        };
        // Slices at the match's own bounds (a lower-cased word may not keep its byte length).
        let before: Vec<&str> = lower[..i].split_whitespace().rev().take(4).collect();
        let after: Vec<&str> = lower[i + word.len()..].split_whitespace().take(4).collect();
        let before = before.into_iter().rev().collect::<Vec<_>>().join(" ");
        let after = after.join(" ");
        NEGATIONS.iter().any(|n| before.contains(n))
            || before.split_whitespace().any(|w| w == "not")
            || [
                "illegal",
                "impossible",
                "not legal",
                "not possible",
                "not allowed",
            ]
            .iter()
            .any(|n| after.contains(n))
    };
    let negated_anywhere =
        NEGATIONS.iter().any(|n| lower.contains(n)) || lower.split_whitespace().any(|w| w == "not");
    let governed_moves: Vec<&String> = lines
        .iter()
        .map(|l| &l[0])
        .filter(|m| governed(m))
        .collect();
    if !governed_moves.is_empty() {
        return governed_moves
            .into_iter()
            .map(|mv| {
                claim(
                    std::slice::from_ref(mv),
                    Some(Says::Illegal),
                    verify_illegal(pos, mv),
                )
            })
            .collect();
    }
    if negated_anywhere {
        return not_understood("a negation the reader cannot tie to a move");
    }
    // Several lines that are not alternatives of one move each: what the sentence says is not
    // known to be said of each, so a finding against one is not reported as wrong.
    let alternatives = lines.iter().all(|l| l.len() == 1);
    let mut out = Vec::new();
    for line in &lines {
        let (says, unknown_capture) = sayings(pos, &lower, line.last().map(String::as_str));
        let said = out.iter().any(|c: &Claim| c.says.is_none());
        if unknown_capture && !said {
            out.push(claim(
                line,
                None,
                Finding::NotUnderstood(
                    "it says what the move does in words the reader does not read (a count of \
                     pieces, a length without its number)"
                        .into(),
                ),
            ));
        }
        for s in says {
            let finding = match verify(pos, line, &s) {
                Finding::Wrong(why) if lines.len() > 1 && !alternatives => Finding::NotUnderstood(
                    format!("the sentence names several lines and the reader cannot tell which it means ({why})"),
                ),
                f => f,
            };
            out.push(claim(line, Some(s), finding));
        }
    }
    let _ = first;
    out
}

/// Whether `mv` cannot be played in `pos`.
fn verify_illegal(pos: &VariantPosition, mv: &str) -> Finding {
    match pos.parse_move(mv, Naming::default()) {
        Ok(m) => Finding::Wrong(format!(
            "{} is a legal move",
            pos.move_info(&m, Naming::default()).notation
        )),
        Err(e) if e.kind == MoveErrorKind::Unparsable => {
            Finding::NotUnderstood(format!("`{mv}` does not read as a move"))
        }
        Err(_) => Finding::Verified,
    }
}

/// Verifies what a sentence says of a line of `pos`.
fn verify(pos: &VariantPosition, line: &[String], says: &Says) -> Finding {
    let mut at = *pos;
    let mut last = None;
    for word in line {
        match at.parse_move(word, Naming::default()) {
            Ok(mv) => {
                last = Some((at, mv));
                at = at.play(&mv);
            }
            Err(e) => return Finding::Wrong(format!("{word} cannot be played: {}", e.message)),
        }
    }
    let Some((before, mv)) = last else {
        return Finding::NotUnderstood("no move".into());
    };
    let status = before.status_after(&mv, &at);
    let named = |s: Status| match s {
        Status::Ongoing => "the game goes on",
        Status::Check => "check",
        Status::Checkmate => "checkmate",
        Status::Stalemate => "stalemate",
    };
    let expect = |want: Status, ok: bool| {
        if ok {
            Finding::Verified
        } else {
            Finding::Wrong(format!(
                "after {} the engine finds {}, not {}",
                line.join(" "),
                named(status),
                named(want)
            ))
        }
    };
    match says {
        Says::Mate => expect(Status::Checkmate, status == Status::Checkmate),
        Says::Stalemate => expect(Status::Stalemate, status == Status::Stalemate),
        Says::Check => expect(
            Status::Check,
            matches!(status, Status::Check | Status::Checkmate),
        ),
        Says::Captures(want) => {
            let mut got: Vec<Role> = squares(VariantPosition::captures(&mv))
                .filter_map(|sq| before.piece_at(sq))
                .map(|p| p.role)
                .collect();
            got.sort();
            got.dedup();
            if &got == want {
                Finding::Verified
            } else {
                let names: Vec<String> = got.iter().map(|r| r.name().to_lowercase()).collect();
                Finding::Wrong(format!(
                    "{} captures {}",
                    line.last().map_or("", String::as_str),
                    if names.is_empty() {
                        "nothing".to_string()
                    } else {
                        names.join(", ")
                    }
                ))
            }
        }
        Says::CapturesOn(want) => {
            let got: Vec<String> = squares(VariantPosition::captures(&mv))
                .map(|sq| before.square_name(sq, Naming::default()))
                .collect();
            let mut sorted = want.clone();
            sorted.sort();
            let mut got_sorted = got.clone();
            got_sorted.sort();
            if sorted == got_sorted {
                Finding::Verified
            } else {
                Finding::Wrong(format!(
                    "{} captures on {}",
                    line.last().map_or("", String::as_str),
                    if got.is_empty() {
                        "no square".to_string()
                    } else {
                        got.join(", ")
                    }
                ))
            }
        }
        Says::MateIn(n) => verify_mate_in(pos, line, *n),
        Says::Illegal => verify_illegal(pos, &line[0]),
    }
}

/// The squares of a set.
fn squares(set: crate::rules::SquareSet) -> impl Iterator<Item = u8> {
    (0..128u8).filter(move |&sq| (set >> sq) & 1 == 1)
}

/// Whether the line's first move forces mate within `n` moves, itself included, within a small
/// budget.
fn verify_mate_in(pos: &VariantPosition, line: &[String], n: u32) -> Finding {
    let Ok(key) = pos.parse_move(&line[0], Naming::default()) else {
        return Finding::Wrong(format!("{} cannot be played", line[0]));
    };
    if n == 0 || n > crate::solver::MAX_MATE_IN {
        return Finding::NotUnderstood(format!("mate in {n} is out of the solver's range"));
    }
    if let Err(e) = crate::solver::Stipulation::Mate(n).check_position(pos) {
        return Finding::NotUnderstood(format!("mate in {n} does not apply here: {e}"));
    }
    let opts = crate::solver::SolveOptions {
        stipulation: crate::solver::Stipulation::Mate(n),
        limits: crate::solver::Limits {
            nodes: 5_000_000,
            time: std::time::Duration::from_secs(5),
        },
        table_mib: 16,
        threads: 1,
        max_tree_nodes: 0,
        intended_key: Some(key),
        ..crate::solver::SolveOptions::default()
    };
    let solution = crate::solver::solve_any(pos, &opts);
    match solution.keys.iter().find(|k| k.mv == key) {
        Some(k) if k.mate_in <= n => Finding::Verified,
        _ if solution.result == crate::solver::Outcome::Unknown => Finding::NotUnderstood(
            "the engine could not settle it within its budget (5 s, 5,000,000 positions)".into(),
        ),
        _ => Finding::Wrong(format!(
            "{} does not force mate in {n}",
            pos.move_info(&key, Naming::default()).notation
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn pos(fen: &str) -> VariantPosition {
        Variant::default().read_fen(fen, Naming::default()).unwrap()
    }

    #[test]
    fn the_wikipedia_king_diagram_s_claims() {
        // The Wikipedia King diagram and its text.
        let p = pos("8/8/8/4k3/2K2M2/3q4/8/8 w 0");
        let text = "The white King moves c4-d5 delivering checkmate. Note that white could not \
                    play c4-d4, as that would place his own King in check from the black \
                    Withdrawer. Capturing the Withdrawer with c4-d3 would result in stalemate, \
                    as black would then have no legal moves.";
        let found = claims(&p, text);
        let said: Vec<(Vec<String>, Option<Says>, Finding)> = found
            .iter()
            .map(|c| (c.line.clone(), c.says.clone(), c.finding.clone()))
            .collect();
        assert_eq!(
            said,
            [
                (vec!["c4-d5".into()], Some(Says::Mate), Finding::Verified),
                (vec!["c4-d4".into()], Some(Says::Illegal), Finding::Verified),
                (
                    vec!["c4-d3".into()],
                    Some(Says::Stalemate),
                    Finding::Verified
                ),
                (
                    vec!["c4-d3".into()],
                    Some(Says::Captures(vec![Role::Withdrawer])),
                    Finding::Verified
                ),
            ]
        );
    }

    #[test]
    fn a_wrong_claim_says_what_the_engine_finds() {
        let p = pos("8/8/8/4k3/2K2M2/3q4/8/8 w 0");
        let found = claims(&p, "Kc4-d3 delivers checkmate.");
        assert_eq!(found.len(), 1);
        assert!(found[0].is_wrong(), "{found:?}");
        assert!(
            matches!(&found[0].finding, Finding::Wrong(w) if w.contains("stalemate")),
            "{found:?}"
        );
        let found = claims(&p, "Kc4-d5 is illegal.");
        assert!(found[0].is_wrong(), "{found:?}");
    }

    #[test]
    fn the_vchess_pawn_diagram_captures_two_pieces() {
        let p = pos("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0");
        let found = claims(&p, "1.Pc2c4 captures both coordinator and long leaper.");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(
            found[0].says,
            Some(Says::Captures(vec![Role::LongLeaper, Role::Coordinator]).map_sorted())
        );
        assert_eq!(found[0].finding, Finding::Verified, "{found:?}");
        let found = claims(&p, "1.Pc2c4 captures the coordinator.");
        assert!(found[0].is_wrong(), "{found:?}");
    }

    #[test]
    fn a_sentence_of_no_move_is_not_understood_and_prose_is_no_claim() {
        let p = pos("8/8/8/4k3/2K2M2/3q4/8/8 w 0");
        let found = claims(&p, "Black is checkmated. The King moves like a chess King.");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(matches!(found[0].finding, Finding::NotUnderstood(_)));
        assert!(claims(&p, "The white King moves c4-d5.").is_empty());
    }

    #[test]
    fn a_key_that_mates_in_two() {
        // The Wikipedia Chameleon diagram: Xg6-e6-c6 (Bg6xc6) mates in two.
        let p = pos("2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0");
        let found = claims(&p, "1.Bg6xc6! mates in two.");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].says, Some(Says::MateIn(2)));
        assert_eq!(found[0].finding, Finding::Verified, "{found:?}");
        let found = claims(&p, "1.Pa6-a7 mates in two.");
        assert!(found[0].is_wrong(), "{found:?}");
    }

    trait Sorted {
        fn map_sorted(self) -> Self;
    }
    impl Sorted for Says {
        fn map_sorted(self) -> Self {
            match self {
                Says::Captures(mut r) => {
                    r.sort();
                    Says::Captures(r)
                }
                s => s,
            }
        }
    }
}

#[cfg(test)]
mod reading_tests {
    use super::*;
    use crate::rules::Variant;

    fn pos(fen: &str) -> VariantPosition {
        Variant::default().read_fen(fen, Naming::default()).unwrap()
    }

    /// Right captions are never reported wrong: a negation of something else, a threat, a clause
    /// after the capture, "forces checkmate in two", a Rococo board without both Kings.
    #[test]
    fn right_captions_are_never_wrong() {
        let king = pos("8/8/8/4k3/2K2M2/3q4/8/8 w 0");
        let chameleon = pos("2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0");
        for (p, text) in [
            (
                &king,
                "Black cannot escape after Kc4-d5 delivering checkmate.",
            ),
            (&chameleon, "1.Bg6xc6! threatens 2.Nc4-g8 mate."),
            (
                &king,
                "Kc4xd3 captures the Withdrawer, leaving the King alone.",
            ),
            (&chameleon, "1.Bg6xc6! forces checkmate in two."),
            (&chameleon, "1.Bg6xc6 mates in a few moves."),
        ] {
            let found = claims(p, text);
            assert!(found.iter().all(|c| !c.is_wrong()), "{text}: {found:?}");
        }
        let found = claims(&chameleon, "1.Bg6xc6! forces checkmate in two.");
        assert_eq!(found[0].says, Some(Says::MateIn(2)));
        assert_eq!(found[0].finding, Finding::Verified);
        let found = claims(
            &king,
            "Kc4xd3 captures the Withdrawer, leaving the King alone.",
        );
        assert_eq!(found[0].says, Some(Says::Captures(vec![Role::Withdrawer])));
        let rococo = Variant::Rococo
            .read_fen("10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0", Naming::default())
            .unwrap();
        let found = claims(&rococo, "Xb3-b5 mates in two.");
        assert!(
            matches!(found[0].finding, Finding::NotUnderstood(_)),
            "{found:?}"
        );
    }
}
