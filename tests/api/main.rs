//! The HTTP API against the real server: each test starts one on a free port of 127.0.0.1
//! ([`helpers::spawn_app`]) and calls it over HTTP. The store is a fresh SQLite file, or, with
//! `BAROQUE_TEST_DB=postgres`, a fresh database of a throwaway PostgreSQL cluster that the suite
//! starts itself (see `tests/common/postgres.rs`): CI runs the suite both ways.

mod analyze;
mod collections;
mod cors;
mod database;
mod diagram;
mod docs;
mod embed;
mod errors;
mod formats;
mod helpers;
mod openapi;
#[path = "../../crates/solver/tests/oracle/mod.rs"]
mod oracle;
#[path = "../common/postgres.rs"]
mod pg;
mod play;
mod puzzles;
mod ratelimit;
mod ratings;
mod rococo;
mod series;
mod service;
mod set_play;
mod solve;
mod stalemates;
mod text;
mod twins;
mod verify;
