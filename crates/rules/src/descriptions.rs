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
    /// The square's name, such as `d3`.
    pub square: String,
    /// The piece's letter, upper case for White.
    pub piece: String,
}

impl SquarePiece {
    /// A Baroque piece on a square: the square's standard name and the piece's chess-style letter.
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
    /// The move in the game's canonical notation, such as `Kc4-d5` or `Nd2xd8`.
    pub notation: String,
    /// The machine form, unique among the position's moves: the from and to squares run together,
    /// such as `d2d8` (a suicide is `c5c5`); in Rococo `*` follows for a mutual destruction
    /// (`e5e6*`) and `=` with the letter for a promotion (`e8e9=L`).
    pub uci: String,
    /// The pieces the move takes, lowest square first.
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
