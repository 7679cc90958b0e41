//! `baroque`: verifies positions and puzzles of Baroque chess (Ultima) and Rococo.
//!
//! Layers, each depending only on the ones before it:
//! - [`rules`]: the games (a [`rules::Variant`] and [`rules::GamePosition`], a position of any
//!   game, made of four traits by concern); pure Rust, no web, database or async code;
//! - [`solver`]: proof search, generic over the game;
//! - [`cases`] (diagram case files), [`puzzle`] (what a puzzle claims and its one verification),
//!   [`outcome`] (the typed outcome a verified puzzle stores),
//!   [`difficulty`] (a mate puzzle's difficulty from its proof),
//!   [`puzzles`] (mate puzzle files), [`formats`] (puzzles as PGN and Lichess's puzzle CSV, and
//!   read back from them);
//! - [`diagram`] (SVG boards, crate `baroque-diagram`), [`documents`] (diagrams read from rule
//!   documents: wiki, HTML, Markdown, text boards) and [`extract`] (case file skeletons from a
//!   document), both of crate `baroque-documents`;
//! - [`store`]: persists puzzles, collections and jobs (SQLite or PostgreSQL) and reads them back,
//!   nothing more;
//! - [`app`] (crate `baroque-app`): the use cases (verify and store, seed, generate a collection
//!   with [`generate`], import, export), and [`app::Library`], the edges' one door to the store;
//! - [`api`] (the HTTP service) and the command line ([`cli`]), which reach the store only through
//!   [`app`].

pub mod api;
pub mod cli;
pub use baroque_app as app;
pub use baroque_app::generate;
pub use baroque_diagram as diagram;
pub use baroque_documents as documents;
pub use baroque_documents::extract;
pub use baroque_puzzle as puzzle;
pub use baroque_puzzle::fixtures::{cases, puzzles};
pub use baroque_puzzle::{difficulty, formats, outcome, play};
pub use baroque_rules as rules;
pub use baroque_solver as solver;
pub use baroque_store as store;
