//! Mate puzzles written as data (the puzzle files of `fixtures/README.md`), and their verification
//! with the solver.
//!
//! A puzzle states "mate in N" for the side to move and what a solve must find: every key, the
//! short solutions, and whether the puzzle is sound. [`Puzzle::verify`] runs the solver under a
//! budget and lists every way its answer differs; a budget that runs out is a failure of its own
//! (the claim is then neither confirmed nor contradicted).

use crate::cases::{Game, RulesSpec};
use crate::puzzle::Solved;
use crate::puzzle::{check_mate, MateCheck, MateClaim};
use crate::rules::{GamePosition, Naming, Rules, Variant};
use crate::solver::{Limits, SolveOptions, Stipulation};
use serde::{Deserialize, Serialize};
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
    pub solution: Option<Solved>,
}

impl PuzzleOutcome {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
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
    /// compares the answer with the puzzle's claims ([`crate::puzzle::check_mate`], the check the
    /// store makes too).
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
        let rules = match self.rules.as_ref().map(|_| self.rules()).transpose() {
            Ok(r) => r,
            Err(e) => {
                out.problems.push(format!("rules: {e}"));
                return out;
            }
        };
        if rules.is_some() && !Variant::has_rule_sets(game) {
            out.problems
                .push("rules: Rococo has one rule set; `rules` does not apply".into());
            return out;
        }
        let variant = match Variant::of(game, rules) {
            Ok(v) => v,
            Err(e) => {
                out.problems.push(format!("rules: {e}"));
                return out;
            }
        };
        let pos = match variant.position(&self.fen, Naming::default()) {
            Ok((p, _)) => p,
            Err(e) => {
                out.problems.push(format!("fen: {e}"));
                return out;
            }
        };
        if Variant::mate_needs_both_kings(game) && !pos.has_both_kings() {
            out.problems.push(
                "a Rococo mate needs both Kings on the board: mate means forcing the capture of \
                 the enemy King"
                    .into(),
            );
            return out;
        }
        let claim = MateClaim {
            stipulation: Stipulation::Mate(self.mate_in),
            keys: Some(self.keys.clone()),
            short_solutions: self.short_solutions.clone(),
            sound: Some(self.sound),
            ..MateClaim::default()
        };
        let opts = SolveOptions {
            limits,
            table_mib,
            threads,
            max_tree_nodes: 0,
            ..SolveOptions::default()
        };
        match check_mate(&pos, &claim, &opts) {
            Err(e) => out.problems.push(e),
            Ok(MateCheck::Settled { problems, solution }) => {
                out.problems = problems;
                out.solution = Some(*solution);
            }
            Ok(MateCheck::Unsettled {
                nodes,
                millis,
                proven,
                solution,
            }) => {
                out.problems.push(format!(
                    "the budget ({nodes} nodes, {millis} ms) ran out after proving no mate within \
                     {proven}: the puzzle is neither confirmed nor contradicted"
                ));
                out.solution = Some(*solution);
            }
        }
        out
    }
}

/// Reads a puzzle file.
pub fn read_file(path: &Path) -> Result<PuzzleFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
