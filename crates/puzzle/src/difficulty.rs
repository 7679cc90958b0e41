//! The difficulty of a mate puzzle: a number from 0 (found at a glance) to 100, computed from
//! what its verified proof shows. A pure function of the stored outcome (see
//! [`crate::VerifiedPuzzle::outcome`]), the FEN (for the pieces on the board) and the
//! stipulation: no search is run, so a store can compute it for every row it holds.
//!
//! For `#N`, `s#N`, `=N` and `s=N`, of the first key (its tree when there is one):
//!
//! | part | points |
//! |---|---|
//! | length | 20 × (N − 1) |
//! | defences | 8 × log2(1 + D), at most 24, D the defender's moves in the key's solution tree (every level) |
//! | tries | 6 per try refuted by a single defence, 2 per try with more refutations, at most 18 |
//! | key | 12 for a quiet key, 6 for a key that captures without giving check, 0 for a key that gives check (or mates) |
//! | selfmate | 10 for `s#N`, `s=N`, `r#N` and `semi-r#N` |
//! | stalemate | 8 for `=N` and `s=N` |
//! | pieces | 1.5 × (pieces on the board − 3), at most 20 |
//!
//! For `h#N`, `h#N.5`, `h=N` and `h=N.5`, with H the half-moves of the solution (2N, or 2N + 1):
//!
//! | part | points |
//! |---|---|
//! | length | 12 × (H − 1) |
//! | solutions | 10 / the number of solutions |
//! | stalemate | 8 for `h=N` and `h=N.5` |
//! | pieces | 1.5 × (pieces on the board − 3), at most 20 |
//!
//! For the series movers `ser-#N`, `ser-=N`, `ser-s#N` and `ser-h#N`:
//!
//! | part | points |
//! |---|---|
//! | length | 10 × (N − 1) |
//! | solutions | 10 / the number of solutions |
//! | selfmate | 10 for `ser-s#N` |
//! | stalemate | 8 for `ser-=N` |
//! | pieces | 1.5 × (pieces on the board − 3), at most 20 |
//!
//! (A series move weighs half a move of a direct mate: the other side only passes, so there is
//! no defence to foresee, but the order of the moves is the puzzle.)
//!
//! (A stalemate asks that every move of the stalemated side be taken away, the King's included,
//! without a check: a goal solvers find less at a glance than a mate of the same length.)
//!
//! The sum is rounded to the nearest integer and clamped to 0..=100. So a longer mate is harder,
//! a key met by more defences is harder, a try that fails to one defence only (a tempting
//! near-solution) is harder, a checking or capturing key is easier than a quiet one, and a
//! crowded board is harder than a sparse one.

use crate::outcome::{Attack, HelpOutcome, KeysOutcome, PuzzleOutcome};
use crate::solver::{Stipulation, Target};

/// The version of the formula: a store records the version its difficulties were computed with,
/// and computes them again when it differs.
pub const FORMULA: u32 = 1;

/// Points per move of a direct mate or selfmate beyond the first.
const PER_MOVE: f64 = 20.0;
/// Points per `log2(1 + D)` of the defences D, and their most.
const PER_DEFENCE_BIT: f64 = 8.0;
const MAX_DEFENCES: f64 = 24.0;
/// Points of a try refuted by one defence, of one refuted by more, and their most.
const CLOSE_TRY: f64 = 6.0;
const OTHER_TRY: f64 = 2.0;
const MAX_TRIES: f64 = 18.0;
/// Points of the key by its kind.
const QUIET_KEY: f64 = 12.0;
const CAPTURING_KEY: f64 = 6.0;
const CHECKING_KEY: f64 = 0.0;
/// Points of a selfmate.
const SELFMATE: f64 = 10.0;
/// A stalemate for its goal (`=N`, `s=N`, `h=N`).
const STALEMATE: f64 = 8.0;
/// Points per half-move of a helpmate beyond the first.
const PER_HELP_PLY: f64 = 12.0;
/// Points per series move beyond the first.
const PER_SERIES_MOVE: f64 = 10.0;
/// Points of a helpmate with one solution (divided by the number of solutions).
const UNIQUE_SOLUTION: f64 = 10.0;
/// Points per piece beyond three, and their most.
const PER_PIECE: f64 = 1.5;
const MAX_PIECES: f64 = 20.0;

/// The difficulty of a mate puzzle of `stipulation` from `fen` whose verified outcome is
/// `outcome`, 0 to 100 (see the module's documentation for the formula); `None` when the outcome
/// holds no solution (a diagram's outcome, or a mate outcome without keys or solution lines).
pub fn difficulty(stipulation: Stipulation, fen: &str, outcome: &PuzzleOutcome) -> Option<u8> {
    let points = match outcome {
        PuzzleOutcome::Help(h) if stipulation.lists_lines() => help_points(stipulation, h)?,
        PuzzleOutcome::Keys(k) if !stipulation.lists_lines() => key_points(stipulation, k)?,
        _ => return None,
    } + piece_points(fen);
    Some(points.round().clamp(0.0, 100.0) as u8)
}

/// The difficulty of a stored puzzle: `None` for a diagram (no stipulation) or an outcome
/// without a solution.
pub fn of_stored(
    stipulation: Option<Stipulation>,
    fen: &str,
    outcome: &PuzzleOutcome,
) -> Option<u8> {
    difficulty(stipulation?, fen, outcome)
}

/// The pieces on the board of a FEN of either game: the letters of its first field.
pub fn pieces(fen: &str) -> u32 {
    fen.split_whitespace()
        .next()
        .unwrap_or_default()
        .bytes()
        .filter(u8::is_ascii_alphabetic)
        .count() as u32
}

fn piece_points(fen: &str) -> f64 {
    (PER_PIECE * f64::from(pieces(fen).saturating_sub(3))).min(MAX_PIECES)
}

/// Defender moves in a tree of attack nodes (every level).
fn defences(attack: &Attack) -> u64 {
    attack
        .defences
        .iter()
        .map(|d| 1 + d.replies.iter().map(defences).sum::<u64>())
        .sum()
}

fn key_points(stipulation: Stipulation, outcome: &KeysOutcome) -> Option<f64> {
    let n = f64::from(stipulation.moves().max(1));
    // The first key: its tree when there is one (a key that mates, or after which the defender
    // may not pass, gives check: the tree records no threat when the defender is in check), else
    // the key alone (no defences known, taken as not checking).
    let (d, checks, captures) = match outcome.tree.first() {
        Some(a) => (
            defences(a),
            a.mates || a.threat.is_none(),
            !a.captures.is_empty(),
        ),
        None => (0, false, !outcome.keys.first()?.captures.is_empty()),
    };
    let d = d as f64;
    let defence_points = (PER_DEFENCE_BIT * (1.0 + d).log2()).min(MAX_DEFENCES);
    let try_points = outcome
        .tries
        .iter()
        .map(|t| {
            if t.refutations.len() == 1 {
                CLOSE_TRY
            } else {
                OTHER_TRY
            }
        })
        .sum::<f64>()
        .min(MAX_TRIES);
    let key_kind = if checks {
        CHECKING_KEY
    } else if captures {
        CAPTURING_KEY
    } else {
        QUIET_KEY
    };
    let selfmate = if stipulation.is_self() { SELFMATE } else { 0.0 };
    Some(
        PER_MOVE * (n - 1.0)
            + defence_points
            + try_points
            + key_kind
            + selfmate
            + stalemate_points(stipulation),
    )
}

fn help_points(stipulation: Stipulation, outcome: &HelpOutcome) -> Option<f64> {
    let count = match outcome.count {
        0 => outcome.solutions.len(),
        n => n,
    };
    if count == 0 {
        return None;
    }
    let length = match stipulation.help_plies() {
        Some(plies) => PER_HELP_PLY * (f64::from(plies.max(1)) - 1.0),
        None => PER_SERIES_MOVE * (f64::from(stipulation.moves().max(1)) - 1.0),
    };
    let selfmate = if stipulation == Stipulation::SeriesSelfMate(stipulation.moves()) {
        SELFMATE
    } else {
        0.0
    };
    Some(length + UNIQUE_SOLUTION / count as f64 + selfmate + stalemate_points(stipulation))
}

/// The stalemate term: [`STALEMATE`] when the goal is a stalemate.
fn stalemate_points(stipulation: Stipulation) -> f64 {
    match stipulation.target() {
        Target::Mate => 0.0,
        Target::Stalemate => STALEMATE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    const SPARSE: &str = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";

    fn mv(notation: &str, captures: usize) -> Value {
        let captures: Vec<Value> = (0..captures)
            .map(|_| json!({"square": "a1", "piece": "p"}))
            .collect();
        json!({"notation": notation, "uci": "a1a2", "captures": captures})
    }

    /// A key (quiet unless `captures`, giving check unless `threat`) met by `defences` defences,
    /// each answered by a mate.
    fn key_node(n: u32, captures: usize, threat: bool, defences: usize) -> Value {
        let mut key = mv("Ma1-a2", captures);
        key["mate_in"] = json!(n);
        key["mates"] = json!(n == 1);
        if threat {
            key["threat"] = json!([mv("Kb1-b2", 0)]);
        }
        let mate = {
            let mut m = mv("Kb1-b2", 0);
            m["mate_in"] = json!(1);
            m["mates"] = json!(true);
            m["defences"] = json!([]);
            m
        };
        key["defences"] = (0..defences)
            .map(|_| {
                let mut d = mv("Kh8-h7", 0);
                d["mates"] = json!(false);
                d["dual"] = json!(false);
                d["replies"] = json!([mate.clone()]);
                d
            })
            .collect();
        key
    }

    fn outcome(key: Value, tries: &[usize]) -> Value {
        let tries: Vec<Value> = tries
            .iter()
            .map(|&k| {
                let mut t = mv("Ma1-a3", 0);
                t["refutations"] = (0..k).map(|_| mv("Kh8-g8", 0)).collect();
                t
            })
            .collect();
        json!({"result": "mate", "keys": [key.clone()], "tree": [key], "tries": tries, "threats": []})
    }

    fn typed(s: Option<Stipulation>, o: &Value) -> PuzzleOutcome {
        PuzzleOutcome::read(s, &o.to_string()).unwrap()
    }

    fn of(s: &str, fen: &str, o: &Value) -> u8 {
        let s = Stipulation::parse(s).unwrap();
        difficulty(s, fen, &typed(Some(s), o)).unwrap()
    }

    #[test]
    fn exact_values_of_hand_made_outcomes() {
        // The Wikipedia King mate in 1: the key mates, four pieces: 1.5, rounded to 2.
        assert_eq!(of("#1", SPARSE, &outcome(key_node(1, 0, false, 0), &[])), 2);
        // A quiet #2 met by three defences with a threat, 8 pieces:
        // 20 + 8 log2(4) + 12 + 1.5 × 5 = 20 + 16 + 12 + 7.5 = 55.5, rounded to 56.
        let eight = "k7/pp6/8/8/8/8/PPP5/KM6 w 0";
        assert_eq!(of("#2", eight, &outcome(key_node(2, 0, true, 3), &[])), 56);
        // The same with a try refuted once and one refuted twice: + 6 + 2.
        assert_eq!(
            of("#2", eight, &outcome(key_node(2, 0, true, 3), &[1, 2])),
            64
        );
        // The Chameleon mate in 2: a checking capture, one defence, 13 pieces:
        // 20 + 8 + 0 + 15 = 43.
        let chameleon = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";
        assert_eq!(
            of("#2", chameleon, &outcome(key_node(2, 7, false, 1), &[])),
            43
        );
        // A selfmate adds 10; a stalemate goal 8 (both for `s=N`).
        assert_eq!(of("s#2", eight, &outcome(key_node(2, 0, true, 3), &[])), 66);
        assert_eq!(of("=2", eight, &outcome(key_node(2, 0, true, 3), &[])), 64);
        assert_eq!(of("s=2", eight, &outcome(key_node(2, 0, true, 3), &[])), 74);
        // Helpmates: h#2 with one solution and 5 pieces: 12 × 3 + 10 + 3 = 49; two solutions: 44.
        let five = "8/8/8/8/1K6/1M1k4/2pp4/8 b 0";
        let help = |count: u64| json!({"result": "mate", "solutions": [[]], "count": count});
        assert_eq!(of("h#2", five, &help(1)), 49);
        assert_eq!(of("h#2", five, &help(2)), 44);
        assert_eq!(of("h#1", five, &help(1)), 25);
        assert_eq!(of("h#1.5", five, &help(1)), 37);
        assert_eq!(of("h=2", five, &help(1)), 57);
        assert_eq!(of("h=1.5", five, &help(1)), 45);
        // Series movers: ser-#3 with one solution and 5 pieces: 10 × 2 + 10 + 3 = 33; ser-s#3
        // 10 more, ser-=3 8 more; ser-h#3 as ser-#3; two solutions: 28.
        assert_eq!(of("ser-#3", five, &help(1)), 33);
        assert_eq!(of("ser-s#3", five, &help(1)), 43);
        assert_eq!(of("ser-=3", five, &help(1)), 41);
        assert_eq!(of("ser-h#3", five, &help(1)), 33);
        assert_eq!(of("ser-#3", five, &help(2)), 28);
        assert_eq!(of("ser-#1", five, &help(1)), 13);
        // Clamped: a long crowded quiet mate reaches 100, no more.
        let crowded = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w 0";
        assert_eq!(
            of(
                "#5",
                crowded,
                &outcome(key_node(5, 0, true, 40), &[1, 1, 1])
            ),
            100
        );
    }

    #[test]
    fn the_order_is_what_a_solver_would_say() {
        let fen = "k7/pp6/8/8/8/8/PPP5/K7 w 0";
        let d = |s: &str, key: Value, tries: &[usize]| of(s, fen, &outcome(key, tries));
        // Longer is harder.
        assert!(d("#2", key_node(2, 0, true, 3), &[]) < d("#3", key_node(3, 0, true, 3), &[]));
        // More defences are harder.
        for k in 0..12 {
            assert!(
                d("#2", key_node(2, 0, true, k), &[]) <= d("#2", key_node(2, 0, true, k + 1), &[])
            );
        }
        assert!(d("#2", key_node(2, 0, true, 1), &[]) < d("#2", key_node(2, 0, true, 4), &[]));
        // A checking key and a capturing key are easier than a quiet one; a checking capture is
        // the easiest.
        let quiet = d("#2", key_node(2, 0, true, 3), &[]);
        let checking = d("#2", key_node(2, 0, false, 3), &[]);
        let capturing = d("#2", key_node(2, 2, true, 3), &[]);
        assert!(checking < quiet && capturing < quiet);
        assert!(d("#2", key_node(2, 2, false, 3), &[]) <= checking);
        // A try with one refutation makes it harder, more than a try with several.
        let none = d("#2", key_node(2, 0, true, 3), &[]);
        let close = d("#2", key_node(2, 0, true, 3), &[1]);
        let loose = d("#2", key_node(2, 0, true, 3), &[3]);
        assert!(none < loose && loose < close);
        // More pieces are harder.
        let o = outcome(key_node(2, 0, true, 3), &[]);
        assert!(of("#2", "k7/8/8/8/8/8/8/K1M5 w 0", &o) < of("#2", fen, &o));
        // A helpmate's length and number of solutions.
        let help = |count: u64| json!({"result": "mate", "solutions": [[]], "count": count});
        assert!(of("h#2", fen, &help(1)) < of("h#2.5", fen, &help(1)));
        assert!(of("h#2", fen, &help(3)) < of("h#2", fen, &help(1)));
    }

    #[test]
    fn no_solution_no_difficulty() {
        let diagram = json!({"legal": true, "notation": "Pc2xc4"});
        assert_eq!(of_stored(None, SPARSE, &typed(None, &diagram)), None);
        let two = Stipulation::parse("#2");
        assert_eq!(
            of_stored(two, SPARSE, &typed(two, &json!({"keys": []}))),
            None
        );
        let help = Stipulation::parse("h#2");
        assert_eq!(
            of_stored(help, SPARSE, &typed(help, &json!({"count": 0}))),
            None
        );
        assert_eq!(pieces("10/10/4k5/10/10/10/4L5/10/1K8/10 w 0 -"), 3);
    }
}
