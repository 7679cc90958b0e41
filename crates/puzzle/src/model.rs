//! The puzzle model: what a puzzle is and claims, as submitted ([`NewPuzzle`]), as verified
//! ([`VerifiedPuzzle`]) and as stored ([`StoredPuzzle`]).

use crate::fixtures::cases::{Case, Destinations, SquarePiece};
use crate::history::History;
use crate::outcome::PuzzleOutcome;
use crate::rules::{GameKind, Rules, Variant};
use crate::solver::Stipulation;
use serde::{Deserialize, Serialize};

/// What a puzzle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A position, a move (after the moves leading to it) and its expected outcome.
    Diagram,
    /// A position and a stipulation (`#N`, `s#N`, `h#N`, `h#N.5`).
    Mate,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Diagram => "diagram",
            Kind::Mate => "mate",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "diagram" => Some(Kind::Diagram),
            "mate" => Some(Kind::Mate),
            _ => None,
        }
    }
}

/// A puzzle as submitted (by `POST /v1/puzzles`, a fixture or the generator), not yet verified:
/// a position of a game, what it claims, and what is said about it.
#[derive(Clone, Debug)]
pub struct NewPuzzle {
    /// The game, with its rule set where it has rule sets.
    pub variant: Variant,
    pub fen: String,
    /// What the puzzle claims.
    pub claim: Claim,
    /// Titles, tags and provenance.
    pub about: About,
}

/// What is said about a puzzle besides its claim.
#[derive(Clone, Debug, Default)]
pub struct About {
    pub title: Option<String>,
    pub source: Option<String>,
    pub caption: Option<String>,
    pub tags: Vec<String>,
    /// The fixture case or puzzle id it was seeded from.
    pub fixture: Option<String>,
    /// Its authors, publication date, award, keywords and notes.
    pub history: History,
}

/// What a puzzle claims.
#[derive(Clone, Debug)]
pub enum Claim {
    /// A move (after the moves leading to it) and its outcome.
    Diagram(DiagramClaim),
    /// The side to move mates in N, with what a solve must find when stated.
    Mate(MateClaim),
}

impl Claim {
    /// The kind of puzzle that makes this claim.
    pub fn kind(&self) -> Kind {
        match self {
            Claim::Diagram(_) => Kind::Diagram,
            Claim::Mate(_) => Kind::Mate,
        }
    }
}

/// What a diagram claims: its last move is legal with exactly these captures (and this status and
/// these frozen pieces after it, when stated), or illegal for this reason; or, for a piece, exactly
/// these moves.
#[derive(Clone, Debug)]
pub struct DiagramClaim {
    /// The moves as the document writes them (standard coordinates).
    pub moves: Vec<String>,
    /// Whether the last move is legal, and if not why.
    pub legal: bool,
    pub reason: Option<String>,
    /// For a legal last move: exactly the pieces it captures.
    pub captures: Option<Vec<SquarePiece>>,
    /// For a legal last move: the status after it, when stated.
    pub status: Option<String>,
    /// For a legal last move: the frozen pieces after it, when stated.
    pub frozen: Option<Vec<SquarePiece>>,
    /// Exactly the moves of one piece after `moves` (the Rococo fixtures' claims).
    pub destinations: Option<Destinations>,
}

impl DiagramClaim {
    /// The claim of a fixture case.
    pub fn of_case(case: &Case) -> DiagramClaim {
        DiagramClaim {
            moves: case.moves.clone(),
            legal: case.legal,
            reason: case.reason.clone(),
            captures: case.captures.clone(),
            status: case.status.clone(),
            frozen: case.frozen.clone(),
            destinations: case.destinations.clone(),
        }
    }
}

/// A puzzle the engine (and for a mate the solver) confirmed, ready to store.
#[derive(Clone, Debug)]
pub struct VerifiedPuzzle {
    pub kind: Kind,
    pub game: GameKind,
    /// The canonical FEN (chess-style letters).
    pub fen: String,
    pub rules: Rules,
    pub title: Option<String>,
    pub source: Option<String>,
    pub caption: Option<String>,
    pub tags: Vec<String>,
    pub moves: Vec<String>,
    /// The verified captures of the last move (diagram; empty when illegal or for a mate).
    pub captures: Vec<SquarePiece>,
    /// The N of the stipulation (mate puzzles).
    pub mate_in: Option<u32>,
    /// The stipulation (mate puzzles).
    pub stipulation: Option<Stipulation>,
    /// The verified outcome: a diagram's last move, the solve of `#N` or `s#N`, or a helpmate's
    /// lines ([`PuzzleOutcome`]).
    pub outcome: PuzzleOutcome,
    /// A mate puzzle's difficulty, 0 to 100, from its outcome ([`crate::difficulty`]); `None` for
    /// a diagram.
    pub difficulty: Option<u8>,
    pub fixture: Option<String>,
    /// Its authors, publication date, award, keywords and notes (not part of its content).
    pub history: History,
    /// SHA-256 (hex) of the content: kind, game, canonical FEN, rules, canonical moves and N.
    pub content_hash: String,
}

/// A verified puzzle as JSON (every field; the outcome as the store keeps it), for a process
/// that stores it later than it was verified: a shard of a generation job screened by another
/// replica ([`VerifiedPuzzle::to_json`], [`VerifiedPuzzle::from_json`]).
#[derive(Serialize, Deserialize)]
struct VerifiedJson {
    kind: Kind,
    game: String,
    fen: String,
    rules: String,
    title: Option<String>,
    source: Option<String>,
    caption: Option<String>,
    tags: Vec<String>,
    moves: Vec<String>,
    captures: Vec<SquarePiece>,
    mate_in: Option<u32>,
    stipulation: Option<String>,
    outcome: String,
    difficulty: Option<u8>,
    fixture: Option<String>,
    #[serde(default)]
    history: History,
    content_hash: String,
}

impl VerifiedPuzzle {
    /// The game with its rule set where it has rule sets (`None` only for a game and rules that
    /// do not go together, which verification never gives).
    pub fn variant(&self) -> Option<Variant> {
        Variant::of(
            self.game,
            Variant::has_rule_sets(self.game).then_some(self.rules),
        )
        .ok()
    }

    /// The puzzle as JSON text, read back by [`VerifiedPuzzle::from_json`].
    pub fn to_json(&self) -> String {
        let json = VerifiedJson {
            kind: self.kind,
            game: self.game.name().into(),
            fen: self.fen.clone(),
            rules: self.rules.to_string(),
            title: self.title.clone(),
            source: self.source.clone(),
            caption: self.caption.clone(),
            tags: self.tags.clone(),
            moves: self.moves.clone(),
            captures: self.captures.clone(),
            mate_in: self.mate_in,
            stipulation: self.stipulation.map(|s| s.to_string()),
            outcome: self.outcome.to_json(),
            difficulty: self.difficulty,
            fixture: self.fixture.clone(),
            history: self.history.clone(),
            content_hash: self.content_hash.clone(),
        };
        // Strings, numbers, booleans and sequences only: serialising cannot fail.
        serde_json::to_string(&json).unwrap_or_default()
    }

    /// A puzzle written by [`VerifiedPuzzle::to_json`].
    ///
    /// # Errors
    /// The JSON is not such a puzzle (which field does not read).
    pub fn from_json(json: &str) -> Result<VerifiedPuzzle, String> {
        let j: VerifiedJson = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let game = GameKind::parse(&j.game).ok_or(format!("game `{}`", j.game))?;
        let rules = j
            .rules
            .parse::<Rules>()
            .map_err(|e| format!("rules `{}`: {e}", j.rules))?;
        let stipulation = match &j.stipulation {
            Some(s) => Some(Stipulation::parse(s).ok_or(format!("stipulation `{s}`"))?),
            None => None,
        };
        let outcome = PuzzleOutcome::read(stipulation, &j.outcome).map_err(|e| e.to_string())?;
        Ok(VerifiedPuzzle {
            kind: j.kind,
            game,
            fen: j.fen,
            rules,
            title: j.title,
            source: j.source,
            caption: j.caption,
            tags: j.tags,
            moves: j.moves,
            captures: j.captures,
            mate_in: j.mate_in,
            stipulation,
            outcome,
            difficulty: j.difficulty,
            fixture: j.fixture,
            history: j.history,
            content_hash: j.content_hash,
        })
    }
}

/// Why a puzzle was not stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The engine or the solver contradicts the puzzle, or the puzzle is incomplete.
    #[error("the puzzle does not verify: {}", .0.join("; "))]
    Contradicted(Vec<String>),
    /// The solver's budget ran out before it proved or refuted the mate.
    #[error("the solver's budget ({nodes} nodes, {millis} ms) ran out after proving no mate within {proven}: the puzzle is neither confirmed nor refuted, so it is not stored")]
    BudgetExhausted {
        nodes: u64,
        millis: u64,
        proven: u32,
    },
}

/// What a mate puzzle claims: its stipulation, and what a solve must find when stated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MateClaim {
    /// `#N`, `s#N`, `h#N` or `h#N.5`.
    pub stipulation: Stipulation,
    /// `#N`, `s#N`: every first move that reaches the goal within N; a helpmate: the first moves
    /// of its solutions (any notation).
    pub keys: Option<Vec<String>>,
    /// `#N`, `s#N`: the keys that need fewer than N moves; a helpmate: the solutions of a shorter
    /// helpmate, each a line of moves separated by spaces.
    pub short_solutions: Option<Vec<String>>,
    /// A helpmate: every solution, each a line of moves (any notation).
    pub solutions: Option<Vec<Vec<String>>>,
    /// A helpmate: the number of solutions a sound one has (default 1).
    pub intended_solutions: Option<usize>,
    /// Whether the puzzle is sound.
    pub sound: Option<bool>,
}

impl MateClaim {
    /// The N of the stipulation.
    pub fn mate_in(&self) -> u32 {
        self.stipulation.moves()
    }
}

/// A stored puzzle: a verified puzzle with the id, time and revision its store gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPuzzle {
    pub id: i64,
    pub kind: Kind,
    /// The game, with its rule set where it has rule sets.
    pub variant: Variant,
    pub fen: String,
    pub moves: Vec<String>,
    pub captures: Vec<SquarePiece>,
    /// The N of a mate puzzle's stipulation.
    pub mate_in: Option<u32>,
    /// A mate puzzle's stipulation (`#2`, `s#3`, `h#2`, `h#2.5`; a row stored before
    /// stipulations reads as `#N`).
    pub stipulation: Option<Stipulation>,
    /// The verified outcome; `None` when the row was read without it (a listing, a lean read).
    pub outcome: Option<PuzzleOutcome>,
    /// A mate puzzle's difficulty, 0 to 100 (see [`crate::difficulty`]); `None` for a diagram.
    pub difficulty: Option<u8>,
    pub title: Option<String>,
    pub source: Option<String>,
    pub caption: Option<String>,
    pub tags: Vec<String>,
    pub fixture: Option<String>,
    /// Its authors, publication date, award, keywords and notes.
    pub history: History,
    /// RFC 3339, UTC.
    pub created_at: String,
    pub content_hash: String,
    /// How many times the stored row changed since it was written (its outcome, difficulty,
    /// content hash, tags or rating): what was read of it stays true while this stays the same.
    pub revision: i64,
    /// A mate puzzle's rating from players' attempts (the one its difficulty gives before any);
    /// `None` for a diagram.
    pub rating: Option<crate::rating::PuzzleRating>,
}

impl StoredPuzzle {
    /// The revision of what the puzzle is (its content hash, outcome, difficulty and tags): its
    /// [`revision`](Self::revision) less its rating's attempts, since each attempt raises the
    /// revision by one and changes nothing but the rating. What was read of the puzzle's proof
    /// stays true while this stays the same; it never decreases.
    pub fn content_revision(&self) -> i64 {
        let attempts = self.rating.map_or(0, |r| r.attempts);
        self.revision
            .saturating_sub(i64::try_from(attempts).unwrap_or(i64::MAX))
    }

    /// The game.
    pub fn game(&self) -> GameKind {
        self.variant.kind()
    }

    /// The rule set as a store keeps it (see [`rules_text`]).
    pub fn rules_text(&self) -> String {
        rules_text(self.game(), &self.variant.rules().unwrap_or_default())
    }
}

/// The rule set of a puzzle of `game` as a store keeps it and [`Rules`] displays it (`abbott`,
/// `abbott,leaper=single`); the game's name for a game without rule sets.
pub fn rules_text(game: GameKind, rules: &Rules) -> String {
    if Variant::has_rule_sets(game) {
        rules.to_string()
    } else {
        game.name().to_string()
    }
}
