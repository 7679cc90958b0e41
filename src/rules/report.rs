//! Plain descriptions of moves and pieces for reports (JSON through serde).

use super::bitset::BitSet;
use super::geometry::{Board8, Geometry};
use super::piece::{Letters, Piece};
use super::position::{Bits, Move, Position};
use serde::{Deserialize, Serialize};

/// A piece on a square, as `{"square": "d3", "piece": "q"}` (chess-style letter, upper case White).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquarePiece {
    pub square: String,
    pub piece: String,
}

impl SquarePiece {
    pub fn new(square: u8, piece: Piece) -> SquarePiece {
        SquarePiece {
            square: Board8::name(square),
            piece: piece.letter(Letters::Chess).to_string(),
        }
    }
}

/// A move named for people and programs: canonical notation, from and to squares, captures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveInfo {
    pub notation: String,
    pub uci: String,
    pub captures: Vec<SquarePiece>,
}

impl Position {
    /// The pieces on the squares of a set, lowest square first.
    pub fn square_pieces(&self, set: Bits) -> Vec<SquarePiece> {
        set.squares()
            .filter_map(|s| self.board.piece_at(s).map(|p| SquarePiece::new(s, p)))
            .collect()
    }

    /// A move of this position, described.
    pub fn move_info(&self, mv: &Move) -> MoveInfo {
        MoveInfo {
            notation: self.move_name(mv, Letters::Chess),
            uci: mv.uci(),
            captures: self.square_pieces(mv.captures),
        }
    }
}
