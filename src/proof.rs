//! The proof a stored mate puzzle carries, typed: the part of its verified outcome (see
//! [`crate::puzzle::VerifiedPuzzle::outcome`]) that says how it is solved: every key, the
//! solution tree of `#N` and `s#N`, the solution lines of a helpmate. Read by the play of stored
//! puzzles and the exchange formats; members an older outcome lacks read as empty.

use serde::Deserialize;

/// A move of a stored outcome: a key (with its length) or a move of a solution line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Move {
    /// Canonical notation, standard naming.
    pub notation: String,
    /// From and to squares.
    pub uci: String,
    /// A key's length in attacker moves.
    #[serde(default)]
    pub mate_in: Option<u32>,
}

/// An attacker move of a stored solution tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Attack {
    pub notation: String,
    pub uci: String,
    /// The forced end's length from here, this move included.
    #[serde(default)]
    pub mate_in: u32,
    /// Every defence, with the attacker moves that still win in time.
    #[serde(default)]
    pub defences: Vec<Defence>,
}

/// A defender move of a stored solution tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Defence {
    pub notation: String,
    pub uci: String,
    /// The defence reaches the goal (a selfmate's mate).
    #[serde(default)]
    pub mates: bool,
    #[serde(default)]
    pub replies: Vec<Attack>,
}

/// `short_solutions`: keys of `#N` and `s#N`, lines of a helpmate.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Short {
    Lines(Vec<Vec<Move>>),
    Keys(Vec<Move>),
}

impl Default for Short {
    fn default() -> Short {
        Short::Keys(Vec::new())
    }
}

/// What a stored outcome holds of the solution.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Outcome {
    /// `mate` for a stored mate puzzle.
    #[serde(default)]
    pub result: Option<String>,
    /// `#N`, `s#N`: every first move that reaches the goal in time, shortest first.
    #[serde(default)]
    pub keys: Vec<Move>,
    #[serde(default)]
    pub tree: Vec<Attack>,
    /// Whether the tree was cut short (absent: not known, so taken as cut).
    #[serde(default)]
    pub tree_truncated: Option<bool>,
    /// A helpmate's solutions.
    #[serde(default)]
    pub solutions: Vec<Vec<Move>>,
    #[serde(default)]
    pub short_solutions: Short,
    /// Whether lines were left out of `solutions` or `short_solutions` (absent: taken as cut).
    #[serde(default)]
    pub solutions_truncated: Option<bool>,
}

impl Outcome {
    /// The typed proof of an outcome's JSON (empty where it says nothing usable).
    pub fn of(outcome: &serde_json::Value) -> Outcome {
        Outcome::deserialize(outcome).unwrap_or_default()
    }
}
