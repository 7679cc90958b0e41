//! `baroque`: verifies positions and puzzles of Baroque chess (Ultima) and Rococo.
//!
//! Layers, each depending only on the ones before it: [`rules`] (the engine), [`diagram`] (SVG
//! boards), [`cases`] (diagram cases), [`solver`], [`generate`] (puzzle collections), [`puzzles`]
//! (mate puzzles), [`store`] (SQLite), [`api`] (the HTTP service) and the command line ([`cli`]).

pub mod api;
pub mod cases;
pub mod cli;
pub mod diagram;
pub mod generate;
pub mod puzzles;
pub mod rules;
pub mod solver;
pub mod store;
