//! `baroque`: verifies positions and puzzles of Baroque chess (Ultima) and Rococo.
//!
//! Layers, each depending only on the ones before it: [`rules`] (the engine) and the command line
//! ([`cli`]).

pub mod cases;
pub mod cli;
pub mod rules;
pub mod solver;
