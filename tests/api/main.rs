//! The HTTP API against the real server: each test starts one on a free port of 127.0.0.1
//! ([`helpers::spawn_app`]) and calls it over HTTP.

mod analyze;
mod collections;
mod cors;
mod diagram;
mod docs;
mod errors;
mod formats;
mod helpers;
mod openapi;
mod play;
mod puzzles;
mod ratelimit;
mod rococo;
mod service;
mod solve;
mod verify;
