//! Solving a position of any stipulation, with its set play and twins: a request read under the
//! ceilings of whoever runs it ([`SolveQuery::parse`]), run within one budget and one answer's
//! size ([`run`]), and reported ([`SolveReport`]) for each edge to answer in its own form (the
//! HTTP API's JSON and text, the command line's JSON, text and lines).

use crate::position::{CheckedPosition, PositionInput, RequestError};
use crate::puzzle::formats::text::{self, Found, Shown, Style};
use crate::puzzle::twins::{Twin, TwinError};
use crate::rules::prelude::*;
use crate::rules::VariantMove;
use crate::solver::help::HelpSolution;
use crate::solver::set_play::NamedSetPlay;
use crate::solver::{Solution, SolveOptions, Stipulation};
use std::sync::Arc;

/// The lines of each list of a solve answered when the request does not say (`max_solutions`).
pub const DEFAULT_MAX_SOLUTIONS: usize = 100;

/// The most solution lines one answer holds, all its lists together (the diagram's, its set
/// play's and every twin's): as many as `max_solutions` allows one list.
pub const ANSWER_MAX_LINES: usize = crate::solver::help::MAX_LINES;

/// The most moves those lines hold together: 10,000 lines of an `h#3`, fewer of a longer
/// stipulation (2,500 of an `h#12`), so that the answer's size does not grow with N.
pub const ANSWER_MAX_MOVES: usize = 60_000;

/// The ceilings on a solve of whoever runs it (the server's settings, the command line's flags).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    pub max_nodes: u64,
    pub max_millis: u64,
    pub max_mate_in: u32,
    pub max_tree_nodes: usize,
    pub table_mib: usize,
    pub threads: usize,
    /// Searches at once (the server's slots).
    pub concurrency: usize,
}

impl SolveLimits {
    /// Solver options at these maxima (the budget of a puzzle's verification).
    pub fn options(&self) -> SolveOptions {
        SolveOptions {
            stipulation: Stipulation::Mate(1),
            limits: crate::solver::Limits {
                nodes: self.max_nodes,
                time: std::time::Duration::from_millis(self.max_millis),
            },
            table_mib: self.table_mib,
            threads: self.threads,
            max_tree_nodes: self.max_tree_nodes,
            intended_key: None,
            cancel: crate::solver::Cancel::new(),
            max_refutations: 1,
            proven: None,
            within: None,
        }
    }
}

/// The budget a request asks for (each member absent: the ceiling).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AskedBudget {
    /// Positions visited (`limits.nodes`).
    pub nodes: Option<u64>,
    /// Wall-clock milliseconds (`limits.millis`).
    pub millis: Option<u64>,
    /// Moves of the solution trees (`max_tree_nodes`).
    pub max_tree_nodes: Option<u64>,
}

/// The budget a search runs under, after lowering what was asked to the ceilings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppliedLimits {
    pub nodes: u64,
    pub millis: u64,
    pub max_tree_nodes: u64,
}

impl AppliedLimits {
    /// The solver's node and time limits.
    pub fn solver(&self) -> crate::solver::Limits {
        crate::solver::Limits {
            nodes: self.nodes,
            time: std::time::Duration::from_millis(self.millis),
        }
    }
}

impl AskedBudget {
    /// The budget that applies under `max`, and the members lowered to it (`limits.nodes`,
    /// `limits.millis`, `max_tree_nodes`).
    ///
    /// # Errors
    /// [`RequestError::InvalidLimits`] for a zero member.
    pub fn apply(&self, max: &SolveLimits) -> Result<(AppliedLimits, Vec<String>), RequestError> {
        let mut clamped = Vec::new();
        let mut bound = |name: &str, asked: Option<u64>, ceiling: u64| match asked {
            Some(0) => Err(RequestError::InvalidLimits(format!(
                "`{name}` is 0; it must be at least 1"
            ))),
            Some(n) if n > ceiling => {
                clamped.push(name.to_string());
                Ok(ceiling)
            }
            Some(n) => Ok(n),
            None => Ok(ceiling),
        };
        let nodes = bound("limits.nodes", self.nodes, max.max_nodes)?;
        let millis = bound("limits.millis", self.millis, max.max_millis)?;
        let max_tree_nodes = bound(
            "max_tree_nodes",
            self.max_tree_nodes,
            max.max_tree_nodes as u64,
        )?;
        Ok((
            AppliedLimits {
                nodes,
                millis,
                max_tree_nodes,
            },
            clamped,
        ))
    }
}

/// A solve request, typed: what `/v1/solve` and `baroque solve` take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveInput {
    pub position: PositionInput,
    /// N of `#N` (`mate_in`), or none with `stipulation`.
    pub mate_in: Option<u32>,
    /// The stipulation as written (`h#2.5`).
    pub stipulation: Option<String>,
    /// For a helpmate: the number of solutions a sound one has (1 to 1000; default 1).
    pub intended_solutions: Option<u32>,
    /// The most lines answered of each list (1 to 10,000; default 100).
    pub max_solutions: Option<u32>,
    /// The most refutations of a listed try (0 to 3; default 1).
    pub max_refutations: Option<u32>,
    pub set_play: bool,
    /// The twins' commands, as written.
    pub twins: Vec<String>,
    /// The intended key, in any notation the position reads.
    pub key: Option<String>,
    pub budget: AskedBudget,
    /// The answer in problem notation too, in this style.
    pub text: Option<Style>,
}

/// Why a solve request is refused, typed where the edges word it differently.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// N and the stipulation do not make one.
    #[error("{0:?}")]
    Stipulation(crate::solver::StipulationError),
    /// Set play asked of a series mover.
    #[error("set play does not apply to {0}: a series mover has no other side to start")]
    SetPlayOfSeries(Stipulation),
    /// Anything else, as for every request.
    #[error(transparent)]
    Request(#[from] RequestError),
}

impl From<crate::solver::Inapplicable> for SolveError {
    fn from(e: crate::solver::Inapplicable) -> SolveError {
        SolveError::Request(e.into())
    }
}

/// A solve request read: a position that can arise, the solver's options and what was lowered.
#[derive(Clone, Debug)]
pub struct SolveQuery {
    pub position: CheckedPosition,
    /// For a helpmate: the number of solutions a sound one has.
    pub intended_solutions: usize,
    /// The most lines answered of each list.
    pub max_solutions: usize,
    /// Whether the set play is asked for.
    pub set_play: bool,
    /// The twins, each with its position and stipulation.
    pub twins: Vec<Twin>,
    /// The answer in problem notation too, in this style.
    pub text: Option<Style>,
    /// The solver's settings, the intended key among them.
    pub options: SolveOptions,
    pub limits: AppliedLimits,
    /// The request members lowered to the ceilings (`limits.nodes`, `limits.millis`,
    /// `max_tree_nodes`).
    pub clamped: Vec<String>,
}

impl SolveQuery {
    /// Reads a solve request under `max`, member by member in the order the errors are
    /// documented: the stipulation and its length, the counts, set play, the budget, the
    /// position and its side to move, the key, the twins.
    ///
    /// # Errors
    /// [`SolveError::Stipulation`], [`SolveError::SetPlayOfSeries`], and as a
    /// [`RequestError`]: an N of 0 or above the maximum, a count out of range, a zero budget,
    /// the position's errors, a stipulation that does not apply to it, a key that is not a legal
    /// move, a twin that cannot be applied.
    pub fn parse(r: SolveInput, max: &SolveLimits) -> Result<SolveQuery, SolveError> {
        let stipulation = Stipulation::from_parts(r.mate_in, r.stipulation.as_deref())
            .map_err(SolveError::Stipulation)?;
        stipulation.check_length(max.max_mate_in)?;
        let intended_solutions = match r.intended_solutions {
            Some(k) if !(1..=1000).contains(&k) => {
                return Err(RequestError::InvalidStipulation(format!(
                    "`intended_solutions` is {k}: it must be between 1 and 1000"
                ))
                .into())
            }
            Some(k) => k as usize,
            None => 1,
        };
        let max_solutions = match r.max_solutions {
            Some(k) if !(1..=ANSWER_MAX_LINES as u32).contains(&k) => {
                return Err(RequestError::InvalidLimits(format!(
                    "`max_solutions` is {k}: it must be between 1 and {ANSWER_MAX_LINES}"
                ))
                .into())
            }
            Some(k) => k as usize,
            None => DEFAULT_MAX_SOLUTIONS,
        };
        let max_refutations = match r.max_refutations {
            Some(k) if k > 3 => {
                return Err(RequestError::InvalidLimits(format!(
                    "`max_refutations` is {k}: it must be between 0 and 3"
                ))
                .into())
            }
            Some(k) => k as usize,
            None => 1,
        };
        if r.set_play && stipulation.is_series() {
            return Err(SolveError::SetPlayOfSeries(stipulation));
        }
        let (applied, clamped) = r.budget.apply(max)?;
        let position = r.position.read()?;
        stipulation.check_position(&position.position)?;
        let key = match &r.key {
            None => None,
            Some(text) => Some(
                position
                    .position
                    .parse_move(text, position.naming)
                    .map_err(|e| RequestError::InvalidKey {
                        key: text.clone(),
                        reason: e.to_string(),
                    })?,
            ),
        };
        let options = SolveOptions {
            stipulation,
            limits: applied.solver(),
            table_mib: max.table_mib,
            threads: max.threads,
            max_tree_nodes: usize::try_from(applied.max_tree_nodes).unwrap_or(usize::MAX),
            intended_key: key,
            cancel: crate::solver::Cancel::new(),
            max_refutations,
            proven: None,
            within: None,
        };
        let twins = crate::puzzle::twins::derive(
            &position.position,
            stipulation,
            &r.twins,
            position.naming,
        )
        .map_err(RequestError::InvalidTwin)?;
        for t in &twins {
            // The twin's stipulation sets its side to move: its length and Kings are checked.
            t.stipulation
                .check_length(max.max_mate_in)
                .and_then(|()| t.stipulation.check_kings(&t.position))
                .map_err(|e| {
                    RequestError::InvalidTwin(TwinError {
                        label: t.label.clone(),
                        text: t.text.clone(),
                        message: e.to_string(),
                    })
                })?;
        }
        Ok(SolveQuery {
            position,
            intended_solutions,
            max_solutions,
            set_play: r.set_play,
            twins,
            text: r.text,
            options,
            limits: applied,
            clamped,
        })
    }
}

/// What a solve of one position found: a tree of keys, or lines.
#[derive(Clone, Debug)]
pub enum Solved {
    /// Keys with their tree, tries and threats (`#N`, `s#N`, `r#N`, `=N`, ...).
    Tree(Box<Solution<VariantMove>>),
    /// Lines (helpmates and series movers): the lines the answer holds, `lines_truncated` set
    /// when it holds fewer than were found.
    Lines(Box<HelpSolution<VariantMove>>),
}

/// The set play of a position, and how many of its lines the answer holds.
#[derive(Clone, Debug)]
pub struct SetPlayReport {
    /// The set play (`None`: there is none: the side to move cannot pass, or the stipulation is
    /// half a move long).
    pub set: Option<NamedSetPlay>,
    /// The lines of a helpmate's set play the answer holds.
    pub shown: usize,
}

/// A twin's report.
#[derive(Clone, Debug)]
pub struct TwinReport {
    pub twin: Twin,
    pub report: SolveReport,
}

/// What a solve found of one position (the diagram, or a twin), with its twins.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// The position solved, its naming and warnings.
    pub position: CheckedPosition,
    pub stipulation: Stipulation,
    /// The intended key, as read.
    pub intended_key: Option<VariantMove>,
    pub solved: Solved,
    /// When asked for.
    pub set_play: Option<SetPlayReport>,
    /// The budget the search ran under, and the members lowered to the ceilings.
    pub limits: AppliedLimits,
    pub clamped: Vec<String>,
    pub twins: Vec<TwinReport>,
    /// The answer in problem notation, when asked for (the twins' blocks included).
    pub text: Option<String>,
}

/// What is left of a request's answer for the lists still to fill, in the order of the answer
/// (the diagram's solutions, short solutions and set play lines, then each twin's): at most
/// [`ANSWER_MAX_LINES`] lines, `max_solutions` of each list, and one `max_tree_nodes` of tree moves
/// for the whole request, so that twins and set play do not multiply its size.
#[derive(Clone, Copy, Debug)]
struct AnswerRoom {
    lines: usize,
    moves: usize,
    per_list: usize,
    tree_nodes: usize,
}

impl AnswerRoom {
    /// The lines shown of a list whose lines have `lengths` moves, taken from what is left: the
    /// first ones, as many as `max_solutions`, the lines and the moves left allow.
    fn take_lines(&mut self, lengths: impl Iterator<Item = usize>) -> usize {
        let mut n = 0;
        for length in lengths {
            if n == self.per_list || self.lines == 0 || length > self.moves {
                break;
            }
            n += 1;
            self.lines -= 1;
            self.moves -= length;
        }
        n
    }
}

/// The moves of solution trees: each attacker and defender move.
fn tree_moves<M>(tree: &[crate::solver::tree::AttackNode<M>]) -> usize {
    tree.iter()
        .map(|a| {
            1 + a
                .defences
                .iter()
                .map(|d| 1 + tree_moves(&d.replies))
                .sum::<usize>()
        })
        .sum()
}

/// Runs a solve request (blocking: call it off async workers). The diagram, its set play and its
/// twins share the request's budget and the answer's size.
pub fn run(query: &SolveQuery) -> SolveReport {
    let mut room = AnswerRoom {
        lines: ANSWER_MAX_LINES,
        moves: ANSWER_MAX_MOVES,
        per_list: query.max_solutions,
        tree_nodes: query.options.max_tree_nodes,
    };
    block(query, None, &mut room)
}

/// One position's part of a solve (the diagram with its twins, or a twin), within `room`.
fn block(query: &SolveQuery, label: Option<(&str, &str)>, room: &mut AnswerRoom) -> SolveReport {
    // With the set play or twins, every solve of the request shares its budget.
    let shared = (query.set_play || !query.twins.is_empty()).then(|| {
        Arc::new(crate::solver::Budget::within(
            query.options.within.clone(),
            query.options.limits,
            query.options.cancel.clone(),
        ))
    });
    let options = SolveOptions {
        within: shared.or_else(|| query.options.within.clone()),
        max_tree_nodes: room.tree_nodes,
        ..query.options.clone()
    };
    let pos = &query.position.position;
    let naming = query.position.naming;
    let mut shown = Shown::each(0);
    let (solved, found) = if options.stipulation.lists_lines() {
        let mut solution = crate::solver::solve_lines_any(pos, &options, query.intended_solutions);
        shown.solutions = room.take_lines(solution.solutions.iter().map(Vec::len));
        shown.short_solutions = room.take_lines(solution.short_solutions.iter().map(Vec::len));
        // Every line named: the text shows the lines the answer holds and says how many more.
        let found = query
            .text
            .map(|_| Found::Lines(solution.named(pos, naming)));
        let cut = solution.solutions.len() > shown.solutions
            || solution.short_solutions.len() > shown.short_solutions;
        solution.solutions.truncate(shown.solutions);
        solution.short_solutions.truncate(shown.short_solutions);
        solution.lines_truncated |= cut;
        (Solved::Lines(Box::new(solution)), found)
    } else {
        let solution = crate::solver::solve_any(pos, &options);
        room.tree_nodes = room.tree_nodes.saturating_sub(tree_moves(&solution.tree));
        let found = query.text.map(|_| Found::Tree(solution.named(pos, naming)));
        (Solved::Tree(Box::new(solution)), found)
    };
    let set = query
        .set_play
        .then(|| crate::solver::set_play::set_play_any(pos, &options, naming));
    if let Some(set) = &set {
        shown.set_play = room.take_lines(
            set.as_ref()
                .into_iter()
                .flat_map(|s| s.solutions.iter().map(Vec::len)),
        );
    }
    let label = label.or_else(|| (!query.twins.is_empty()).then_some(text::DIAGRAM_LABEL));
    // `found` is named only when the text is asked for.
    let mut text = query.text.zip(found).map(|(style, found)| {
        text::block(
            &text::Block {
                label,
                position: pos,
                naming,
                stipulation: options.stipulation,
                found: &found,
                set_play: set.as_ref().map(Option::as_ref),
                shown,
            },
            style,
        )
    });
    let mut twins = Vec::new();
    for twin in &query.twins {
        let q = SolveQuery {
            position: CheckedPosition::of_valid(twin.position, naming),
            options: SolveOptions {
                stipulation: twin.stipulation,
                intended_key: None,
                ..options.clone()
            },
            twins: Vec::new(),
            // A twin that is a series mover has no set play (the diagram's is refused instead).
            set_play: query.set_play && !twin.stipulation.is_series(),
            ..query.clone()
        };
        let report = block(&q, Some((&twin.label, &twin.notation)), room);
        if let (Some(text), Some(more)) = (&mut text, &report.text) {
            text.push_str(more);
        }
        twins.push(TwinReport {
            twin: twin.clone(),
            report,
        });
    }
    SolveReport {
        position: query.position.clone(),
        stipulation: options.stipulation,
        intended_key: options.intended_key,
        solved,
        set_play: set.map(|set| SetPlayReport {
            set,
            shown: shown.set_play,
        }),
        limits: query.limits,
        clamped: query.clamped.clone(),
        twins,
        text,
    }
}
