//! Set play: what would follow if the other side were to move first in the diagram, the
//! stipulation shortened by half a move. Set play does not change soundness.
//!
//! - `#N`, `s#N`, `r#N`, `semi-r#N`, `=N`, `s=N`: the diagram with Black to move (White passes);
//!   every Black move that has a White reply fulfilling the stipulation half a move shorter
//!   (Black's move, then White's N - 1 moves, the reply the first of them: in `#2` the set
//!   mates), with those replies and the moves each needs (1: the reply mates, or in a selfmate
//!   leaves every Black move mating). `#1` and the like have none. In a reflexmate both sides
//!   keep their duty: a bound Black plays only its mating moves, a White that can mate in `r#N`
//!   has no reply.
//! - `h#N`, `h=N` (Black starts): the lines of `h#(N-1).5` (`h=(N-1).5`) with White starting;
//!   `h#N.5`, `h=N.5` (White starts): those of `h#N` (`h=N`) with Black starting.
//! - Series movers have none (there is no other side to start).
//!
//! The diagram's side to move passes by [`baroque_rules::SearchHooks::null_move`]: a side in
//! check cannot, and the position then has no set play.

use super::help::{solve_help, HelpSolution};
use super::search::{keep_duty, Duty, Goal, Searcher, Stopped};
use super::tt::Table;
use super::{Budget, Exhausted, SolveOptions, Stipulation};
use crate::rules::{GamePosition, MoveInfo, Naming, VariantPosition, Visit};

/// The most table the set play's searches use, in MiB.
const SET_TABLE_MIB: usize = 16;

/// A Black move of the set play with the White replies that fulfil the stipulation after it,
/// each with the White moves it needs (1: the reply reaches the goal, or leaves it to Black's
/// next move in a selfmate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetMove<M> {
    pub mv: M,
    pub replies: Vec<(M, u32)>,
}

/// The set play of a diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetLines<M> {
    /// A forced stipulation's: Black's moves with their replies, in canonical order.
    Forced(Vec<SetMove<M>>),
    /// A helpmate's: the lines of the shortened helpmate.
    Help(HelpSolution<M>),
}

/// The set play of a diagram: the position after the pass, the stipulation played from there,
/// and the play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetPlay<P: GamePosition> {
    /// The diagram with the other side to move.
    pub position: P,
    /// `#N` (the same) for a forced stipulation; the shortened helpmate for a helpmate.
    pub stipulation: Stipulation,
    pub lines: SetLines<P::Move>,
    /// Whether every Black move was settled (the budget did not run out).
    pub complete: bool,
    pub nodes: u64,
    pub millis: u64,
    pub exhausted_by: Option<Exhausted>,
}

/// The set play named: each move named in the position it is played from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedSetPlay {
    /// The FEN of the diagram with the other side to move.
    pub fen: String,
    pub stipulation: Stipulation,
    /// Black's moves and their replies (a forced stipulation).
    pub defences: Vec<(MoveInfo, Vec<(MoveInfo, u32)>)>,
    /// The shortened helpmate's lines and their count (a helpmate).
    pub solutions: Vec<Vec<MoveInfo>>,
    pub count: usize,
    pub complete: bool,
    pub nodes: u64,
    pub millis: u64,
    pub exhausted_by: Option<Exhausted>,
}

impl<P: GamePosition> SetPlay<P> {
    /// The set play named in `naming`.
    pub fn named(&self, naming: Naming) -> NamedSetPlay {
        let pos = &self.position;
        let (defences, solutions, count) = match &self.lines {
            SetLines::Forced(moves) => {
                let defences = moves
                    .iter()
                    .map(|s| {
                        let after = pos.play(&s.mv);
                        let replies = s
                            .replies
                            .iter()
                            .map(|(r, k)| (after.move_info(r, naming), *k))
                            .collect();
                        (pos.move_info(&s.mv, naming), replies)
                    })
                    .collect();
                (defences, Vec::new(), 0)
            }
            SetLines::Help(h) => {
                let named = h.named(pos, naming);
                (Vec::new(), named.solutions, named.count)
            }
        };
        NamedSetPlay {
            fen: pos.fen(naming),
            stipulation: self.stipulation,
            defences,
            solutions,
            count,
            complete: self.complete,
            nodes: self.nodes,
            millis: self.millis,
            exhausted_by: self.exhausted_by,
        }
    }
}

/// The helpmate a helpmate's set play solves: half a move shorter, the other side starting.
fn shortened(stipulation: Stipulation) -> Option<Stipulation> {
    Some(match stipulation {
        Stipulation::HelpMate {
            moves: 0,
            half: true,
        }
        | Stipulation::HelpStalemate {
            moves: 0,
            half: true,
        } => return None,
        Stipulation::HelpMate { moves, half: true } => Stipulation::HelpMate { moves, half: false },
        Stipulation::HelpMate { moves, half: false } => Stipulation::HelpMate {
            moves: moves.checked_sub(1)?,
            half: true,
        },
        Stipulation::HelpStalemate { moves, half: true } => {
            Stipulation::HelpStalemate { moves, half: false }
        }
        Stipulation::HelpStalemate { moves, half: false } => Stipulation::HelpStalemate {
            moves: moves.checked_sub(1)?,
            half: true,
        },
        _ => return None,
    })
}

/// The set play of `pos` under `opts.stipulation` (under `opts`' budget, which it shares with
/// `opts.within`); `None` for a series mover, or when the side to move is in check (it cannot
/// pass).
pub fn set_play<P: GamePosition>(pos: &P, opts: &SolveOptions) -> Option<SetPlay<P>> {
    let stipulation = opts.stipulation;
    if stipulation.is_series() {
        return None;
    }
    let set = pos.null_move()?;
    if stipulation.is_help() {
        let shorter = shortened(stipulation)?;
        let h = solve_help(
            &set,
            &SolveOptions {
                stipulation: shorter,
                ..opts.clone()
            },
            1,
        );
        return Some(SetPlay {
            position: set,
            stipulation: shorter,
            complete: h.complete,
            nodes: h.nodes,
            millis: h.millis,
            exhausted_by: h.exhausted_by,
            lines: SetLines::Help(h),
        });
    }
    let goal = Goal::of(stipulation)?;
    let budget = Budget::within(opts.within.clone(), opts.limits, opts.cancel.clone());
    let table = Table::new(opts.table_mib.min(SET_TABLE_MIB));
    let mut searcher = Searcher::new(&table, &budget)
        .aiming(goal.target())
        .bound(goal.duty());
    let mut moves = Vec::new();
    // Black's move and White's N - 1: the stipulation half a move shorter (`#1` has none).
    let r = forced(
        &mut searcher,
        &set,
        goal,
        stipulation.moves() - 1,
        &mut moves,
    );
    let _ = searcher.flush();
    Some(SetPlay {
        position: set,
        stipulation,
        lines: SetLines::Forced(moves),
        complete: r.is_ok(),
        nodes: budget.nodes(),
        millis: budget.elapsed().as_millis() as u64,
        exhausted_by: budget.exhausted_by(),
    })
}

/// The Black moves of `set` (Black to move) with their White replies that reach `goal` within
/// `n` White moves (none when `n` is 0), pushed onto `out` in canonical order as they are
/// settled.
fn forced<P: GamePosition>(
    searcher: &mut Searcher<'_, P>,
    set: &P,
    goal: Goal,
    n: u32,
    out: &mut Vec<SetMove<P::Move>>,
) -> Result<(), Stopped> {
    let naming = Naming::default();
    let ordered = |p: &P, moves: Vec<P::Move>| {
        let mut named: Vec<(String, P::Move)> = moves
            .into_iter()
            .map(|m| (p.move_name(&m, naming), m))
            .collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        named.into_iter().map(|(_, m)| m)
    };
    if n == 0 {
        return Ok(());
    }
    let mut black = Vec::new();
    set.search_moves(&mut black);
    keep_duty(set, goal.duty() != Duty::None, &mut black);
    for b in ordered(set, black) {
        searcher.poll()?;
        let after = set.play(&b);
        let mut white = Vec::new();
        after.search_moves(&mut white);
        // In `r#N` a White that can mate must, and fails the play: no reply.
        if goal.duty() == Duty::Both && white.iter().any(|w| after.play(w).lost()) {
            continue;
        }
        let mut replies = Vec::new();
        for w in ordered(&after, white) {
            let reached = after.play(&w);
            for k in 0..n {
                if searcher.after_attack(goal, &reached, k, 0)? {
                    replies.push((w, k + 1));
                    break;
                }
            }
        }
        if !replies.is_empty() {
            out.push(SetMove { mv: b, replies });
        }
    }
    Ok(())
}

/// [`set_play`] for a position of either game, named in `naming`.
pub fn set_play_any(
    pos: &VariantPosition,
    opts: &SolveOptions,
    naming: Naming,
) -> Option<NamedSetPlay> {
    struct Run<'a>(&'a SolveOptions, Naming);
    impl Visit for Run<'_> {
        type Output = Option<NamedSetPlay>;
        fn visit<P: GamePosition>(self, p: &P) -> Option<NamedSetPlay> {
            set_play(p, self.0).map(|s| s.named(self.1))
        }
    }
    pos.visit(Run(opts, naming))
}
