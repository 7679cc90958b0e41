//! The rules engine: boards, FEN, notation, move generation, captures and legality.
//!
//! Pure Rust: no web, database or async code. Baroque (8x8) is played on [`Board8`]; the same board
//! type, rays and freezing logic serve the 10x10 [`Board10`] of Rococo.

#![warn(missing_docs)]

pub mod attacks;
pub mod bitset;
pub mod board;
pub mod fen;
pub mod freeze;
pub mod game;
pub mod geometry;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod report;
pub mod rococo;
pub mod ruleset;
pub mod symmetry;

pub use bitset::BitSet;
pub use board::Board;
pub use fen::{FenField, ParseFenError};
pub use game::{
    GameKind, GamePosition, Naming, SquareSet, Variant, VariantMove, VariantPosition, Visit,
};
pub use geometry::{Board10, Board8, Geometry};
pub use movegen::MoveList;
pub use notation::{MoveError, MoveErrorKind};
pub use piece::{Color, Letters, Piece, Role};
pub use position::{
    FenError, Move, MoveKind, Position, PositionError, Problem, ProblemKind, Status, Undo,
    START_FEN,
};
pub use report::{MoveInfo, SquarePiece};
pub use ruleset::{Freezing, Leaper, Preset, Rules, Stalemate};
