//! Mate puzzles written as data (the puzzle files of `fixtures/README.md`), and their verification
//! with the solver.
//!
//! A puzzle states "mate in N" for the side to move and what a solve must find: every key, the
//! short solutions, and whether the puzzle is sound. [`Puzzle::verify`] runs the solver under a
//! budget and lists every way its answer differs; a budget that runs out is a failure of its own
//! (the claim is then neither confirmed nor contradicted).

use crate::cases::{Game, RulesSpec};
use crate::rules::rococo::{Coords, RococoPosition};
use crate::rules::{Color, Position, Rules};
use crate::rules::{GamePosition, Naming};
use crate::solver::{Limits, NamedSolution, Outcome, SolveOptions, MAX_MATE_IN};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// A file of puzzles.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleFile {
    pub document: String,
    #[serde(default)]
    pub game: Game,
    pub puzzles: Vec<Puzzle>,
}

/// One mate-in-N puzzle and what its solve must find.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub fen: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesSpec>,
    pub mate_in: u32,
    /// Every first move that forces mate within `mate_in`, in canonical notation.
    pub keys: Vec<String>,
    /// The keys that mate in fewer than `mate_in` moves, when stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short_solutions: Option<Vec<String>>,
    pub sound: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What the solver found for a puzzle.
#[derive(Clone, Debug)]
pub struct PuzzleOutcome {
    pub id: String,
    /// Every way the solver disagrees with the puzzle, or why it could not tell; empty when it
    /// passes.
    pub problems: Vec<String>,
    /// The solver's answer, when the puzzle could be solved at all, named in the standard naming.
    pub solution: Option<NamedSolution>,
}

impl PuzzleOutcome {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

fn names(v: &BTreeSet<String>) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.iter().cloned().collect::<Vec<_>>().join(", ")
    }
}

impl Puzzle {
    /// The rule set of the puzzle (default `abbott`).
    pub fn rules(&self) -> Result<Rules, String> {
        match &self.rules {
            None => Ok(Rules::default()),
            Some(spec) => spec.to_rules(),
        }
    }

    /// Solves the puzzle under `limits` with a `table_mib` MiB table and `threads` threads, and
    /// compares the answer with the puzzle's claims.
    pub fn verify(
        &self,
        game: Game,
        limits: Limits,
        table_mib: usize,
        threads: usize,
    ) -> PuzzleOutcome {
        let mut out = PuzzleOutcome {
            id: self.id.clone(),
            problems: Vec::new(),
            solution: None,
        };
        if self.mate_in == 0 || self.mate_in > MAX_MATE_IN {
            out.problems.push(format!(
                "mate_in is {}; it must be between 1 and {MAX_MATE_IN}",
                self.mate_in
            ));
            return out;
        }
        match game {
            Game::Baroque => {
                let rules = match self.rules() {
                    Ok(r) => r,
                    Err(e) => {
                        out.problems.push(format!("rules: {e}"));
                        return out;
                    }
                };
                match Position::from_fen_validated(&self.fen, rules) {
                    Ok(pos) => self.solve_and_compare(&pos, limits, table_mib, threads, out),
                    Err(e) => {
                        out.problems.push(format!("fen: {e}"));
                        out
                    }
                }
            }
            Game::Rococo => {
                if self.rules.is_some() {
                    out.problems
                        .push("rules: Rococo has one rule set; `rules` does not apply".into());
                    return out;
                }
                let pos = match RococoPosition::from_fen(&self.fen, Coords::Standard) {
                    Ok(p) => p,
                    Err(e) => {
                        out.problems.push(format!("fen: {e}"));
                        return out;
                    }
                };
                let board = pos.board();
                if board.king(Color::White).is_none() || board.king(Color::Black).is_none() {
                    out.problems.push(
                        "a Rococo mate needs both Kings on the board: mate means forcing the \
                         capture of the enemy King"
                            .into(),
                    );
                    return out;
                }
                self.solve_and_compare(&pos, limits, table_mib, threads, out)
            }
        }
    }

    /// Solves `pos` and lists every way the answer differs from the claims.
    fn solve_and_compare<P: GamePosition>(
        &self,
        pos: &P,
        limits: Limits,
        table_mib: usize,
        threads: usize,
        mut out: PuzzleOutcome,
    ) -> PuzzleOutcome {
        let opts = SolveOptions {
            mate_in: self.mate_in,
            limits,
            table_mib,
            threads,
            max_tree_nodes: 0,
            intended_key: None,
            cancel: Default::default(),
        };
        let s = crate::solver::solve(pos, &opts).named(pos, Naming::default());
        if s.result == Outcome::Unknown || s.sound.is_none() {
            out.problems.push(format!(
                "the budget ({} nodes, {} ms) ran out after proving no mate within {}: the \
                 puzzle is neither confirmed nor contradicted",
                limits.nodes,
                limits.time.as_millis(),
                s.proven_no_mate_within
            ));
            out.solution = Some(s);
            return out;
        }
        let got: BTreeSet<String> = s.keys.iter().map(|k| k.info.notation.clone()).collect();
        let want: BTreeSet<String> = self.keys.iter().cloned().collect();
        if got != want {
            out.problems.push(format!(
                "the keys of #{} are {}, expected {}",
                self.mate_in,
                names(&got),
                names(&want)
            ));
        }
        if let Some(short) = &self.short_solutions {
            let got: BTreeSet<String> = s
                .short_solutions
                .iter()
                .map(|k| k.info.notation.clone())
                .collect();
            let want: BTreeSet<String> = short.iter().cloned().collect();
            if got != want {
                out.problems.push(format!(
                    "the short solutions are {}, expected {}",
                    names(&got),
                    names(&want)
                ));
            }
        }
        if s.sound != Some(self.sound) {
            out.problems.push(format!(
                "the puzzle is {}, expected {}",
                if self.sound { "not sound" } else { "sound" },
                if self.sound { "sound" } else { "not sound" }
            ));
        }
        out.solution = Some(s);
        out
    }
}

/// Reads a puzzle file.
pub fn read_file(path: &Path) -> Result<PuzzleFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
