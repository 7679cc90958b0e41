//! The rules engine: boards, FEN, notation, move generation, captures and legality.
//!
//! Pure Rust: no web, database or async code. Baroque (8x8) is played on [`Board8`]; the same board
//! type, rays and freezing logic serve the 10x10 [`Board10`] of Rococo. A [`Variant`] is a game
//! and its rule set; [`GamePosition`] is a position of any game: its legal moves, what each
//! captures, the position and status after it.
//!
//! The vchess rules page's Pawn diagram, where the Pawn takes two pieces by one move:
//!
//! ```
//! use baroque_rules::{prelude::*, Naming, Preset, Rules, Status, Variant};
//!
//! let variant = Variant::Baroque(Rules::preset(Preset::Vchess));
//! let (pos, _warnings) = variant
//!     .position("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", Naming::default())
//!     .unwrap();
//! let pawn = pos.parse_move("Pc2-c4", Naming::default()).unwrap();
//! let info = pos.move_info(&pawn, Naming::default());
//! assert_eq!(info.notation, "Pc2xc4");
//! assert_eq!(info.captures.len(), 2);
//! assert_eq!(pos.status_after(&pawn, &pos.play(&pawn)), Status::Ongoing);
//! ```

#![warn(missing_docs)]

pub mod attacks;
pub mod bitset;
pub mod board;
pub mod descriptions;
pub mod fen;
pub mod freeze;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rococo;
pub mod ruleset;
pub mod symmetry;

pub use bitset::BitSet;
pub use board::Board;
pub use fen::{FenField, ParseFenError};
pub use game::{
    GameKind, GameNotation, GamePosition, GameRules, GeneratorSetup, Naming, SearchHooks,
    SquareSet, Variant, VariantMove, VariantPosition, Visit, WrongGame,
};

/// The game traits, for code that calls their methods on concrete positions:
/// `use baroque_rules::prelude::*;`.
pub mod prelude {
    pub use crate::game::{GameNotation, GamePosition, GameRules, GeneratorSetup, SearchHooks};
}
pub use descriptions::{MoveInfo, SquarePiece};
pub use geometry::{Board10, Board8, Geometry};
pub use movegen::MoveList;
pub use notation::{MoveError, MoveErrorKind};
pub use piece::{Color, Letters, Piece, Role};
pub use position::{
    FenError, Move, MoveKind, Position, PositionError, Problem, ProblemKind, Status, Undo,
    START_FEN,
};
pub use ruleset::{Freezing, Leaper, Preset, Rules, Stalemate};
