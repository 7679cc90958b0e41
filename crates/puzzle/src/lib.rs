//! `baroque-puzzle`: puzzles of Baroque chess and Rococo, typed from request to row.
//!
//! - [`model`]: what a puzzle is and claims ([`NewPuzzle`], [`Claim`]), as verified
//!   ([`VerifiedPuzzle`]) and as stored ([`StoredPuzzle`]);
//! - [`verify`](mod@verify): the one verification of a puzzle ([`verify()`], [`check_mate`]) and
//!   its content hash;
//! - [`outcome`]: the typed outcome a verified puzzle stores, its one JSON schema;
//! - [`difficulty`]: a mate puzzle's difficulty from its outcome;
//! - [`play`]: the proof a stored puzzle carries, read as the solver's proof for judging a line;
//! - [`formats`]: puzzles as PGN and as Lichess's puzzle CSV, and read back;
//! - [`twins`]: positions derived from a diagram by twin commands;
//! - [`fixtures`]: the case and puzzle file formats of the repository's fixtures.
//!
//! It depends on the games ([`baroque_rules`]) and the solver ([`baroque_solver`]), and on no web,
//! database or command-line code.
//!
//! ```
//! use baroque_puzzle::{verify, About, Claim, MateClaim, NewPuzzle};
//! use baroque_rules::Variant;
//! use baroque_solver::{SolveOptions, Stipulation};
//!
//! // The Chameleon mate in 2 of the Wikipedia article.
//! let puzzle = NewPuzzle {
//!     variant: Variant::default(),
//!     fen: "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0".into(),
//!     claim: Claim::Mate(MateClaim {
//!         stipulation: Stipulation::Mate(2),
//!         ..MateClaim::default()
//!     }),
//!     about: About::default(),
//! };
//! let verified = verify(puzzle, &SolveOptions::default()).unwrap();
//! assert_eq!(verified.outcome.sound(), Some(true));
//! assert!(verified.difficulty.is_some());
//! ```

use baroque_rules as rules;
use baroque_solver as solver;

pub mod anticipation;
pub mod difficulty;
pub mod fixtures;
pub mod formats;
pub mod history;
pub mod model;
pub mod outcome;
pub mod play;
pub mod rating;
pub mod twins;
pub mod verify;

pub use history::{History, HistoryError, HistoryPatch};
pub use model::*;
pub use verify::*;
