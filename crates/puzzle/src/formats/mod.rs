//! Exchange formats: stored puzzles written as PGN or as Lichess's puzzle CSV, and PGN or CSV read
//! back into puzzles to verify. Pure text work over [`crate::model`] and [`crate::rules`]: no web
//! and no database code (the application's import use case verifies and stores what is read
//! here).
//!
//! Both formats carry a mate puzzle (`#N`, `s#N`, `h#N`, `h#N.5`): its position, its stipulation,
//! and a line of its solution, the "main line" ([`Solution`]): for `#N` and `s#N` the first key
//! followed, at each defence, by the defence that resists longest (the one whose quickest mating
//! reply is the longest; the first of the proof's order on a tie) and the quickest mating reply
//! (the first on a tie); for a helpmate its first solution. What is read back is verified like a
//! JSON post, and the line it states must hold: its first move must be a key (every move of a
//! helpmate's line: one of its solutions) ([`check_line`]). Diagram puzzles (a position and a
//! move with its outcome) are no stipulated problems: the writers leave them out
//! ([`exportable`]).

pub mod csv;
pub mod pgn;
pub mod text;

use crate::outcome::{Attack, Defence, Key, PuzzleOutcome, StoredMove};
use crate::rules::{Color, Naming, Variant, VariantPosition};
use crate::solver::{Stipulation, Target};
use crate::StoredPuzzle;
use crate::{Kind, NewPuzzle, VerifiedPuzzle};
use baroque_rules::prelude::*;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON puzzle per line, as `GET /v1/puzzles/{id}?include=outcome` gives it.
    Jsonl,
    /// PGN, one game per puzzle ([`pgn`]).
    Pgn,
    /// Lichess's puzzle CSV ([`csv`]).
    Csv,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::Jsonl, Format::Pgn, Format::Csv];

    /// The name requests and flags use: `jsonl`, `pgn`, `csv`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Pgn => "pgn",
            Format::Csv => "csv",
        }
    }

    /// Reads a name of [`Format::name`].
    pub fn parse(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The media type of an export.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Jsonl => "application/x-ndjson",
            Format::Pgn => pgn::CONTENT_TYPE,
            Format::Csv => csv::CONTENT_TYPE,
        }
    }

    /// The file name extension of an export (without the dot).
    pub fn extension(self) -> &'static str {
        self.name()
    }
}

/// Whether a stored puzzle can be written as PGN or CSV: a mate puzzle with its stipulation (a
/// diagram is a move and its outcome, not a stipulated problem).
pub fn exportable(p: &StoredPuzzle) -> bool {
    p.kind == Kind::Mate && p.stipulation.is_some()
}

/// The side that mates (or stalemates) in a stipulation's solution, `to_move` being the side to
/// move: the side to move in `#N` and `=N`, Black in `s#N` and `s=N`, White in a helpmate.
pub fn mating_side(stipulation: Stipulation, to_move: Color) -> Color {
    stipulation.final_mover(to_move)
}

/// The side to move of a stored FEN (its second field), White when it cannot be told.
fn side_to_move(fen: &str) -> Color {
    match fen.split_whitespace().nth(1) {
        Some("b") => Color::Black,
        _ => Color::White,
    }
}

/// A move of a written line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Canonical notation (`Bg6xc6`).
    pub notation: String,
    /// From and to squares (`g6c6`).
    pub uci: String,
    /// Other moves in this move's place, each with what follows it (PGN variations).
    pub alternatives: Vec<Vec<Step>>,
}

/// A stored puzzle's solution as written out: the main line, with the other defences, replies,
/// keys or helpmate solutions as alternatives along it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solution {
    pub line: Vec<Step>,
}

impl Solution {
    /// The main line's moves from and to squares (the CSV's `Moves`).
    pub fn main_uci(&self) -> Vec<&str> {
        self.line.iter().map(|s| s.uci.as_str()).collect()
    }
}

fn step(notation: &str, uci: &str) -> Step {
    Step {
        notation: notation.to_string(),
        uci: uci.to_string(),
        alternatives: Vec::new(),
    }
}

/// The quickest reply's length after a defence (0 when it mates or has no reply).
fn resistance(d: &Defence) -> u32 {
    if d.mates {
        return 0;
    }
    d.replies.iter().map(|r| r.mate_in).min().unwrap_or(0)
}

/// An attacker move and what follows it: the defence that resists longest, the others as
/// alternatives.
fn attack_line(a: &Attack) -> Vec<Step> {
    let mut line = vec![step(&a.notation, &a.uci)];
    let mut best: Option<usize> = None;
    for (i, d) in a.defences.iter().enumerate() {
        if best.is_none_or(|b| resistance(d) > resistance(&a.defences[b])) {
            best = Some(i);
        }
    }
    if let Some(b) = best {
        let main = &a.defences[b];
        let mut first = step(&main.notation, &main.uci);
        first.alternatives = a
            .defences
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != b)
            .map(|(_, d)| defence_line(d))
            .collect();
        line.push(first);
        line.extend(reply_line(main));
    }
    line
}

/// A defence and what follows it.
fn defence_line(d: &Defence) -> Vec<Step> {
    let mut line = vec![step(&d.notation, &d.uci)];
    line.extend(reply_line(d));
    line
}

/// The quickest mating reply to a defence, the other replies (duals) as alternatives.
fn reply_line(d: &Defence) -> Vec<Step> {
    let mut best: Option<usize> = None;
    for (i, r) in d.replies.iter().enumerate() {
        if best.is_none_or(|b| r.mate_in < d.replies[b].mate_in) {
            best = Some(i);
        }
    }
    let Some(b) = best else {
        return Vec::new();
    };
    let mut line = attack_line(&d.replies[b]);
    line[0].alternatives = d
        .replies
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != b)
        .map(|(_, r)| attack_line(r))
        .collect();
    line
}

/// Adds a line to a line with alternatives: it follows the moves they share and branches where
/// they part.
fn insert_line(line: &mut Vec<Step>, moves: &[StoredMove]) {
    let Some((first, rest)) = moves.split_first() else {
        return;
    };
    let fresh = || -> Vec<Step> { moves.iter().map(|m| step(&m.notation, &m.uci)).collect() };
    match line.first() {
        None => *line = fresh(),
        Some(s) if s.notation == first.notation => {
            let mut tail = line.split_off(1);
            insert_line(&mut tail, rest);
            line.extend(tail);
        }
        Some(_) => {
            let head = &mut line[0];
            match head
                .alternatives
                .iter_mut()
                .find(|alt| alt.first().is_some_and(|s| s.notation == first.notation))
            {
                Some(alt) => insert_line(alt, moves),
                None => head.alternatives.push(fresh()),
            }
        }
    }
}

/// The move written for a pass: PGN's null move `--` (ChessBase, SCID and python-chess read it),
/// `0000` as from and to squares (UCI's null move).
pub const PASS: &str = "--";
/// [`PASS`] as from and to squares.
pub const PASS_UCI: &str = "0000";

/// A series mover's line with the other side's passes written in ([`PASS`]).
fn with_passes(stipulation: Stipulation, line: &[StoredMove]) -> Vec<StoredMove> {
    let mut out = Vec::with_capacity(2 * line.len());
    for (i, m) in line.iter().enumerate() {
        out.push(m.clone());
        if stipulation.passes_after(i, line.len()) {
            out.push(StoredMove {
                captures: Vec::new(),
                notation: PASS.into(),
                uci: PASS_UCI.into(),
            });
        }
    }
    out
}

/// A stored mate puzzle's solution: for `#N` and `s#N` the first key's main line (the tree's, or
/// the key alone when the outcome has no tree), the other keys as alternatives of the first move;
/// for a helpmate its first solution, the others branching from it where they part; a series
/// mover's likewise, with the other side's passes written as [`PASS`].
pub fn solution(p: &StoredPuzzle) -> Solution {
    let Some(outcome) = &p.outcome else {
        return Solution::default();
    };
    let Some(stipulation) = p.stipulation else {
        return Solution::default();
    };
    let outcome = match outcome {
        PuzzleOutcome::Help(h) => {
            let mut line = Vec::new();
            for s in &h.solutions {
                insert_line(&mut line, &with_passes(stipulation, s));
            }
            return Solution { line };
        }
        PuzzleOutcome::Keys(k) => k,
        PuzzleOutcome::Diagram(_) => return Solution::default(),
    };
    let Some(first) = outcome.keys.first() else {
        return Solution::default();
    };
    let node = |k: &Key| outcome.tree.iter().find(|a| a.notation == k.notation);
    let mut line = match node(first) {
        Some(a) => attack_line(a),
        None => vec![step(&first.notation, &first.uci)],
    };
    line[0].alternatives = outcome.keys[1..]
        .iter()
        .map(|k| match node(k) {
            Some(a) => attack_line(a),
            None => vec![step(&k.notation, &k.uci)],
        })
        .collect();
    Solution { line }
}

/// Where something read was found: a game of a PGN or a row of a CSV, and a line of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The game's or row's number, from 1 (`None` for the text as a whole).
    pub number: Option<usize>,
    /// The line, from 1.
    pub line: usize,
}

/// Why a game or row, or a whole text, could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}line {}: {message}", .place.number.map_or(String::new(), |n| format!("{} {n}, ", .unit)), .place.line)]
pub struct ReadError {
    /// `game` (PGN) or `row` (CSV).
    pub unit: &'static str,
    /// Where reading stopped.
    pub place: Place,
    /// The line its game or row starts on (1 for the whole text).
    pub start: usize,
    pub message: String,
}

/// A puzzle read from a game or a row, to verify: the claim, and the line of the solution it
/// states (canonical notation), checked against the proof by [`check_line`].
#[derive(Clone, Debug)]
pub struct ReadPuzzle {
    pub place: Place,
    pub puzzle: NewPuzzle,
    /// The main line, in canonical notation (possibly empty: no line stated).
    pub line: Vec<String>,
}

/// A main line played from a position: its moves in canonical notation (passes as [`PASS`]), and
/// whether its last move mates or stalemates.
struct Played {
    line: Vec<String>,
    mates: bool,
    stalemates: bool,
}

impl Played {
    /// The moves played, passes left out.
    fn moves(&self) -> usize {
        self.line.iter().filter(|m| *m != PASS).count()
    }
}

/// Plays a line of moves (any notation the move reader takes, each with its text line) from
/// `pos`: the first move that is not legal is an error at its line.
fn play_line(pos: &VariantPosition, moves: &[(String, usize)]) -> Result<Played, (usize, String)> {
    let mut at = *pos;
    let mut played = Played {
        line: Vec::with_capacity(moves.len()),
        mates: false,
        stalemates: false,
    };
    for (i, (text, line)) in moves.iter().enumerate() {
        if played.mates {
            return Err((
                *line,
                format!(
                    "move {} `{text}` follows the mate that ends the line",
                    i + 1
                ),
            ));
        }
        if text == PASS || text == PASS_UCI {
            // A pass (the other side of a series mover), which a side in check cannot make.
            at = at.null_move().ok_or_else(|| {
                (
                    *line,
                    format!("move {} `{text}` is a pass by a side in check", i + 1),
                )
            })?;
            played.line.push(PASS.into());
            played.stalemates = false;
            continue;
        }
        let mv = at
            .parse_move(text, Naming::default())
            .map_err(|e| (*line, format!("move {} is not a legal move: {e}", i + 1)))?;
        played.line.push(at.move_name(&mv, Naming::default()));
        let after = at.play(&mv);
        played.mates = at.mates(&mv, &after);
        played.stalemates = after.stalemated();
        at = after;
    }
    Ok(played)
}

/// The stipulation of a read puzzle: the one stated, or else `#N` for a main line that ends in
/// mate (N: the moves of the side to move in it).
fn stipulation_for(
    stated: Option<Stipulation>,
    played: &Played,
    what: &str,
) -> Result<Stipulation, String> {
    if let Some(s) = stated {
        return Ok(s);
    }
    if played.mates && played.moves() == played.line.len() {
        let n = played.line.len().div_ceil(2);
        return Ok(Stipulation::Mate(u32::try_from(n).unwrap_or(u32::MAX)));
    }
    Err(format!(
        "no stipulation is given ({what}), and the main line does not end in mate: state one \
         ({}, such as #2)",
        Stipulation::FORMS
    ))
}

/// Checks a verified puzzle against the line it was read with: the first move of a direct mate's
/// or selfmate's line must be one of its keys, the line no longer than the stipulation and, when
/// it is that long, ending in mate; a helpmate's line must be one of its solutions. An empty line
/// states nothing.
///
/// # Errors
/// The reason the line does not hold, in words.
pub fn check_line(line: &[String], verified: &VerifiedPuzzle) -> Result<(), String> {
    check_line_in(line, verified.stipulation, &verified.outcome)
}

/// [`check_line`] against a puzzle's stipulation and verified outcome (a stored puzzle's too).
///
/// # Errors
/// The reason the line does not hold, in words.
pub fn check_line_in(
    line: &[String],
    stipulation: Option<Stipulation>,
    verified_outcome: &PuzzleOutcome,
) -> Result<(), String> {
    let Some(first) = line.first() else {
        return Ok(());
    };
    let Some(stipulation) = stipulation else {
        return Ok(());
    };
    let listed = |v: Vec<String>| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    if !stipulation.is_series() && line.iter().any(|m| m == PASS) {
        return Err(format!(
            "the main line passes (`{PASS}`), which only a series mover's other side does; \
             {stipulation} is not one"
        ));
    }
    if stipulation.lists_lines() {
        let plies = stipulation.solution_plies();
        let moves: Vec<&str> = line
            .iter()
            .map(String::as_str)
            .filter(|m| *m != PASS)
            .collect();
        let want = moves.join(" ");
        let help = verified_outcome.help();
        let solutions: Vec<String> = help
            .iter()
            .flat_map(|h| &h.solutions)
            .map(|s| {
                s.iter()
                    .map(|m| m.notation.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        // A series line must pass exactly where the solution does.
        let written = |s: &[StoredMove]| -> Vec<String> {
            with_passes(stipulation, s)
                .into_iter()
                .map(|m| m.notation)
                .collect()
        };
        let passes_right = help
            .iter()
            .flat_map(|h| &h.solutions)
            .any(|s| written(s) == line);
        if solutions.contains(&want) && (passes_right || !stipulation.is_series()) {
            return Ok(());
        }
        if solutions.contains(&want) {
            return Err(format!(
                "the main line `{}` passes where {stipulation}'s solution does not: the other \
                 side passes once after each of the series' moves but the last",
                line.join(" ")
            ));
        }
        let length = if moves.len() == plies as usize {
            String::new()
        } else {
            format!(" ({} moves where {stipulation} has {plies})", moves.len())
        };
        let truncated = help.is_some_and(|h| h.solutions_truncated == Some(true));
        return Err(format!(
            "the main line `{want}`{length} is not a solution of {stipulation}; {}: {}",
            if truncated {
                "the first solutions found"
            } else {
                "its solutions"
            },
            listed(solutions)
        ));
    }
    let keys: Vec<String> = verified_outcome
        .keys()
        .iter()
        .flat_map(|k| &k.keys)
        .map(|k| k.notation.clone())
        .collect();
    if !keys.contains(first) {
        return Err(format!(
            "the main line's first move `{first}` is not a key of {stipulation}; its keys: {}",
            listed(keys)
        ));
    }
    let most = stipulation.solution_plies() as usize;
    if line.len() > most {
        return Err(format!(
            "the main line has {} half-moves; {stipulation} has at most {most}",
            line.len()
        ));
    }
    Ok(())
}

/// Whether a read line that is as long as its stipulation ends in its goal, mate or stalemate
/// (checked as it is read).
fn full_line_mates(stipulation: Stipulation, played: &Played) -> Result<(), String> {
    let full = stipulation.solution_plies() as usize;
    let (reached, goal) = match stipulation.target() {
        Target::Mate => (played.mates, "mate"),
        Target::Stalemate => (played.stalemates, "stalemate"),
    };
    if full > 0 && played.moves() == full && !reached && !stipulation.is_series() {
        return Err(format!(
            "the main line `{}` has the {full} half-moves of {stipulation} but does not end in \
             {goal}",
            played.line.join(" ")
        ));
    }
    Ok(())
}

/// The variant, canonical FEN, main line and stipulation of a read puzzle, and the position.
struct Reading {
    fen: String,
    played: Played,
    stipulation: Stipulation,
}

/// The part of a puzzle an error of [`read_puzzle`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Fen,
    Moves,
    Stipulation,
}

/// Reads what every format states: a FEN of `variant`, a main line and an optional stipulation.
/// Errors name the line of the text they come from (`fen_line` for the FEN and the stipulation)
/// and the part they are about.
fn read_puzzle(
    variant: Variant,
    fen: &str,
    fen_line: usize,
    moves: &[(String, usize)],
    stated: Option<Stipulation>,
    what: &str,
) -> Result<Reading, (usize, Part, String)> {
    let (pos, _) = variant
        .position(fen, Naming::default())
        .map_err(|e| (fen_line, Part::Fen, format!("FEN {fen:?}: {e}")))?;
    let played = play_line(&pos, moves).map_err(|(line, m)| (line, Part::Moves, m))?;
    let stipulation =
        stipulation_for(stated, &played, what).map_err(|m| (fen_line, Part::Stipulation, m))?;
    stipulation
        .check_side(&pos)
        .map_err(|e| (fen_line, Part::Stipulation, e.to_string()))?;
    full_line_mates(stipulation, &played).map_err(|m| (fen_line, Part::Moves, m))?;
    Ok(Reading {
        fen: pos.fen(Naming::default()),
        played,
        stipulation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_have_names_types_and_extensions() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.name()), Some(f));
        }
        assert_eq!(Format::parse("PGN"), None);
        assert_eq!(Format::Csv.extension(), "csv");
        assert!(Format::Pgn
            .content_type()
            .starts_with("application/x-chess-pgn"));
    }

    #[test]
    fn the_mating_side_is_the_results() {
        use Color::{Black, White};
        assert_eq!(mating_side(Stipulation::Mate(2), White), White);
        assert_eq!(mating_side(Stipulation::Mate(2), Black), Black);
        assert_eq!(mating_side(Stipulation::SelfMate(2), White), Black);
        let h = |half| Stipulation::HelpMate { moves: 2, half };
        assert_eq!(mating_side(h(false), Black), White);
        assert_eq!(mating_side(h(true), White), White);
    }

    #[test]
    fn diagrams_are_left_out_and_named() {
        let diagram = StoredPuzzle {
            id: 26,
            kind: Kind::Diagram,
            variant: Variant::Baroque("vchess".parse().unwrap()),
            fen: "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0".into(),
            moves: vec!["Pc2c4".into()],
            captures: Vec::new(),
            mate_in: None,
            stipulation: None,
            outcome: Some(PuzzleOutcome::Diagram(Default::default())),
            title: None,
            source: None,
            caption: None,
            tags: Vec::new(),
            fixture: None,
            history: crate::History::default(),
            created_at: String::new(),
            content_hash: String::new(),
            difficulty: None,
            revision: 0,
            rating: None,
        };
        assert!(!exportable(&diagram));
        let (text, skipped) = pgn::write_all([&diagram]);
        assert_eq!(skipped, [26]);
        assert!(
            text.starts_with("% baroque: puzzle 26 is a diagram"),
            "{text}"
        );
        assert!(pgn::read(&text).is_err(), "no game");
        let (text, skipped) = csv::write_all([&diagram]);
        assert_eq!(skipped, [26]);
        assert_eq!(text.lines().count(), 1, "the header alone");
    }

    /// A series mover's line is written with the other side's passes: `--` in PGN (read back as
    /// passes, the line then checked against the solutions), `0000` in the CSV's `Moves`.
    #[test]
    fn series_lines_are_written_and_read_with_their_passes() {
        let stipulation = Stipulation::SeriesMate(3);
        let line = [("Kf1-e2", "f1e2"), ("Ke2-d3", "e2d3"), ("Kd3-c4", "d3c4")];
        let solution: Vec<StoredMove> = line
            .iter()
            .map(|(n, u)| StoredMove {
                notation: (*n).into(),
                uci: (*u).into(),
                captures: Vec::new(),
            })
            .collect();
        let outcome = PuzzleOutcome::Help(crate::outcome::HelpOutcome {
            count: 1,
            result: Some(crate::solver::Outcome::Mate),
            solutions: vec![solution],
            solutions_truncated: Some(false),
            sound: Some(true),
            stipulation: Some(stipulation),
            ..Default::default()
        });
        let puzzle = StoredPuzzle {
            id: 7,
            kind: Kind::Mate,
            variant: Variant::default(),
            fen: "8/8/8/8/8/1k3p2/2M5/5K2 w 0".into(),
            moves: Vec::new(),
            captures: Vec::new(),
            mate_in: Some(3),
            stipulation: Some(stipulation),
            outcome: Some(outcome.clone()),
            title: None,
            source: None,
            caption: None,
            tags: Vec::new(),
            fixture: None,
            history: crate::History::default(),
            created_at: String::new(),
            content_hash: String::new(),
            difficulty: Some(30),
            revision: 0,
            rating: None,
        };
        let text = pgn::write_puzzle(&puzzle).unwrap();
        assert!(
            text.contains("\n1. Kf1-e2 -- 2. Ke2-d3 -- 3. Kd3-c4 1-0\n"),
            "{text}"
        );
        let read = pgn::read(&text).unwrap().remove(0).unwrap();
        assert_eq!(read.line, ["Kf1-e2", PASS, "Ke2-d3", PASS, "Kd3-c4"]);
        check_line_in(&read.line, Some(stipulation), &outcome).unwrap();
        // A pass where the line has none (the mate comes a move early) is not a solution;
        // nor is the solution with a pass too many, or with one left out.
        let wrong = ["Kf1-e2".to_string(), PASS.into(), "Ke2-d3".to_string()];
        assert!(check_line_in(&wrong, Some(stipulation), &outcome).is_err());
        let text = |v: &[&str]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        for wrong in [
            text(&["Kf1-e2", PASS, PASS, PASS, "Ke2-d3", PASS, "Kd3-c4"]),
            text(&["Kf1-e2", "Ke2-d3", PASS, "Kd3-c4"]),
            text(&["Kf1-e2", PASS, "Ke2-d3", PASS, "Kd3-c4", PASS]),
        ] {
            let e = check_line_in(&wrong, Some(stipulation), &outcome).unwrap_err();
            assert!(e.contains("passes where"), "{e}");
        }
        // No pass outside a series mover.
        let mate = Some(Stipulation::Mate(3));
        let e = check_line_in(&text(&["Kf1-e2", PASS]), mate, &outcome).unwrap_err();
        assert!(e.contains("only a series mover"), "{e}");
        let row = csv::write_puzzle(&puzzle).unwrap();
        assert!(row.contains(",f1e2 0000 e2d3 0000 d3c4,"), "{row}");
        // Before any attempt, the rating its difficulty gives; after attempts, the rating they
        // made, rounded, and their number as `NbPlays`.
        assert!(row.contains(",1450,350,0,0,"), "{row}");
        let rated = StoredPuzzle {
            rating: Some(crate::rating::PuzzleRating {
                rating: crate::rating::Rating {
                    value: 1451.702,
                    deviation: 286.5,
                    volatility: 0.06,
                },
                attempts: 3,
            }),
            ..puzzle
        };
        let row = csv::write_puzzle(&rated).unwrap();
        assert!(row.contains(",1452,286,0,3,"), "{row}");
    }

    fn om(n: &str) -> StoredMove {
        StoredMove {
            notation: n.into(),
            uci: n.to_lowercase(),
            captures: Vec::new(),
        }
    }

    #[test]
    fn helpmate_solutions_branch_where_they_part() {
        let mut line = Vec::new();
        insert_line(&mut line, &[om("A"), om("B"), om("C")]);
        insert_line(&mut line, &[om("A"), om("D"), om("E")]);
        insert_line(&mut line, &[om("F"), om("G")]);
        let names = |l: &[Step]| l.iter().map(|s| s.notation.clone()).collect::<Vec<_>>();
        assert_eq!(names(&line), ["A", "B", "C"]);
        assert_eq!(names(&line[0].alternatives[0]), ["F", "G"]);
        assert_eq!(names(&line[1].alternatives[0]), ["D", "E"]);
    }

    /// Text made of PGN's and CSV's own characters, in any order.
    fn text_strategy() -> impl proptest::strategy::Strategy<Value = String> {
        let pieces = [
            "[", "]", "\"", "\\", "{", "}", "(", ")", ";", "%", "$1", "1.", "1...", "\n", " ", ",",
            "\r\n", "1-0", "*", "Variant", "Baroque", "Rococo", "FEN", "Stipulation", "#2", "h#2",
            "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "Bg6xc6", "Kb7xc8", "Nc4-g8", "g6c6", "\u{e9}",
            "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags",
            "stipulation:#2", "game:rococo", "x",
        ];
        proptest::collection::vec(proptest::sample::select(pieces.to_vec()), 0..40)
            .prop_map(|v| v.concat())
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        /// No text makes a reader panic, and every error names a line of the text.
        #[test]
        fn readers_never_panic_and_errors_are_placed_in_the_text(text in text_strategy()) {
            let lines = text.lines().count().max(1) + 1;
            let place = |e: &ReadError| {
                assert!(e.place.line >= 1 && e.place.line <= lines, "{e} in {text:?}");
                assert!(e.start >= 1 && e.start <= e.place.line, "{e} in {text:?}");
            };
            for read in [pgn::read(&text), csv::read(&text)] {
                match read {
                    Err(e) => place(&e),
                    Ok(items) => {
                        for item in &items {
                            match item {
                                Err(e) => place(e),
                                Ok(p) => assert!(p.place.line <= lines),
                            }
                        }
                    }
                }
            }
        }
    }
}
