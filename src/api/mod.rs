//! The HTTP service: a thin layer over [`crate::rules`].
//!
//! | method | path | what |
//! |---|---|---|
//! | `POST` | `/v1/analyze` | a position's legal moves, status and frozen pieces |
//! | `POST` | `/v1/verify` | plays a list of moves, stopping at the first illegal one |
//! | `POST` | `/v1/solve` | solves a puzzle of any stipulation: keys, cooks, tries, short solutions, soundness, the solution tree or lines |
//! | `POST` | `/v1/puzzles` | verifies and stores a puzzle, or the games of a PGN body (bearer token) |
//! | `GET` | `/v1/puzzles` | lists stored puzzles, filtered, a page at a time |
//! | `GET`, `DELETE` | `/v1/puzzles/{id}` | one puzzle (its outcome with `?include=outcome`); removes one (bearer token) |
//! | `GET` | `/v1/puzzles/{id}/outcome` | a stored puzzle's verified outcome |
//! | `POST` | `/v1/puzzles/{id}/play` | judges a line of a stored puzzle |
//! | `GET` | `/v1/diagram.svg` | a position (FEN) as an SVG image with marks and arrows |
//! | `GET` | `/v1/puzzles/{id}/diagram.svg` | a stored puzzle's position as an SVG image |
//! | `POST` | `/v1/collections` | starts a job generating a collection of sound puzzles of any stipulation (bearer token) |
//! | `GET`, `DELETE` | `/v1/jobs/{id}` | a generation job's progress; asks it to stop (bearer token) |
//! | `GET` | `/v1/collections` | the collections |
//! | `GET` | `/v1/collections/{name}` | one collection and its puzzles in order |
//! | `GET` | `/v1/collections/{name}/export` | a collection's complete puzzles as JSON lines, PGN or CSV |
//! | `GET` | `/v1/rules` | the rule presets and options |
//! | `GET` | `/health` | liveness |
//! | `GET` | `/openapi.json` | the OpenAPI 3.1 document (also committed as `openapi/openapi.json`) |
//! | `GET` | `/docs/` | Swagger UI, served from the binary |
//!
//! One module per endpoint under [`routes`], its request and response types beside its handler;
//! what they share at the edge is in [`common`] (no file of this module imports another in a
//! circle: `scripts/api-cycles.py` checks it in CI). Request bodies are parsed at the edge into
//! domain values; every error is an RFC 9457
//! `application/problem+json` document ([`problem`]). [`startup::Application`] binds the listener
//! and runs the server; [`configuration::Settings`] holds what flags and environment variables set.

pub mod auth;
pub mod body_deadline;
pub mod common;
pub mod configuration;
pub mod costly_work;
pub mod export_stream;
pub mod openapi;
pub mod problem;
pub mod ratelimit;
pub mod request_echo;
pub mod routes;
pub mod startup;
pub mod stored_plays;
pub mod telemetry;
pub mod whole_numbers;
pub mod wire;
pub mod write_timeout;

pub use configuration::Settings;
pub use openapi::{openapi, openapi_json};
pub use startup::Application;
