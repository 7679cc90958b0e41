//! Playing a stipulation move by move, as a puzzle site does: after each move of the solver (the
//! side the stipulation is for), whether the line still reaches the goal in time, the defence the
//! site should answer with, the other moves that would have done as well, and a hint.
//!
//! - `#N`, `s#N`: the solver plays White's moves (the side to move), the site the defender's.
//!   A solver move is *correct* when the goal is still forced within the moves left (the key, a
//!   cook, a short solution or any continuation that still wins), *solved* when it reaches the
//!   goal (mate; in a selfmate, when every defence mates, the reply then being the mate), *wrong*
//!   otherwise, with the first defence in canonical order that beats it as its refutation.
//! - The reply to a correct move is chosen deterministically: the defence that resists longest
//!   (its forced end is furthest), then the one leaving the fewest winning answers, then the
//!   first in canonical order.
//! - `h#N`, `h#N.5`: every move is the solver's; *correct* means the line can still end with
//!   White mating Black within the plies left, *solved* that it just did.
//! - The series movers: every move is the solver's too, the other side passing between the
//!   series' moves as [`SeriesLine`] says; `remaining` counts the line's moves left.
//!
//! Every answer comes from searches under one budget, unless a stored [`Proof`] settles it (a
//! stored puzzle's solution tree or solution lines), so that a stored puzzle plays without a new
//! search along its solution.

use super::help::shortest_help;
use super::search::{reached, Duty, Goal, Searcher, Stopped};
use super::series::{ends_series, shortest_series, SeriesLine};
use super::tt::Table;
use super::{Budget, Cancel, Exhausted, Limits, Stipulation, Target};
use crate::rules::{GamePosition, MoveInfo, Naming, VariantMove, VariantPosition, Visit};
use serde::Serialize;

/// The most table a judgement uses, in MiB.
const PLAY_TABLE_MIB: usize = 4;

/// What a line of play comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The line still reaches the goal within the stipulation.
    Correct,
    /// The line has reached the goal.
    Solved,
    /// The solver's move judged no longer reaches the goal in time (with no move played: the
    /// solver has no move that reaches it).
    Wrong,
    /// The budget ran out before the line was judged.
    Unknown,
}

/// What a stored proof settles about a line, so that no search is needed for it.
pub trait Proof {
    /// `line` holds the canonical names (standard naming) of the moves from the start, the last one
    /// a move of the solver; `left` is the number of solver moves left after it (plies, for a
    /// helpmate). `Some(Some(k))`: the goal is reached in exactly `k` more solver moves (0: this
    /// move reaches it); `Some(None)`: it cannot be reached within `left`; `None`: the proof does
    /// not say.
    fn lookup(&self, line: &[String], left: u32) -> Option<Option<u32>>;
}

/// No stored proof: everything is searched.
pub struct NoProof;

impl Proof for NoProof {
    fn lookup(&self, _: &[String], _: u32) -> Option<Option<u32>> {
        None
    }
}

/// Settings of one judgement of a line.
pub struct PlayOptions<'a> {
    pub stipulation: Stipulation,
    pub limits: Limits,
    /// Transposition table size in MiB.
    pub table_mib: usize,
    pub cancel: Cancel,
    /// How moves and squares are named in the report.
    pub naming: Naming,
    /// Whether to give a hint.
    pub hint: bool,
    pub proof: &'a dyn Proof,
    /// Whether to search what the proof does not settle (without: the report is left incomplete,
    /// or the verdict `unknown`, and [`PlayReport::needs_search`] says so).
    pub search: bool,
}

/// The judgement of a line, named in the options' naming.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayReport {
    pub verdict: Verdict,
    /// The index in the line of the solver move judged: the last one, or the first wrong one; `None`
    /// when the line holds no solver move.
    pub judged: Option<usize>,
    /// For a wrong move of `#N` or `s#N`: the first defence, in canonical order, after which the
    /// goal is out of reach (none when the move leaves the defender no move).
    pub refutation: Option<MoveInfo>,
    /// After a correct (or, in a selfmate, solving) solver move: the defence to play.
    pub reply: Option<MoveInfo>,
    /// Solver moves (helpmate: plies) left within the stipulation after the line and the reply.
    pub remaining: u32,
    /// Every solver move that is correct where the judged move was played (itself included), or,
    /// when the line ends with a defence or is empty, where the solver is to move now; canonical
    /// order.
    pub accepted: Vec<MoveInfo>,
    /// The square of the piece the solver should move next (after the reply), when asked and the
    /// line goes on.
    pub hint: Option<String>,
    /// Whether the reply, the hint and `accepted` were all worked out (the budget may run out
    /// after the verdict).
    pub complete: bool,
    /// Whether a search was needed that the options did not allow.
    pub needs_search: bool,
    pub nodes: u64,
    pub millis: u64,
    pub budget_exhausted: bool,
    pub exhausted_by: Option<Exhausted>,
}

/// Judges `line` (legal moves, in order, from `start`, whose side to move is the one the
/// stipulation starts with) for a position of either game.
pub fn play_any(start: &VariantPosition, line: &[VariantMove], opts: &PlayOptions) -> PlayReport {
    struct Run<'a, 'b>(&'a [VariantMove], &'a PlayOptions<'b>);
    impl Visit for Run<'_, '_> {
        type Output = PlayReport;
        fn visit<P: GamePosition>(self, p: &P) -> PlayReport {
            let line: Vec<P::Move> = self.0.iter().filter_map(P::from_variant).collect();
            play(p, &line, self.1)
        }
    }
    start.visit(Run(line, opts))
}

/// Judges `line` (legal moves, in order, from `start`, whose side to move is the one the
/// stipulation starts with).
pub fn play<P: GamePosition>(start: &P, line: &[P::Move], opts: &PlayOptions) -> PlayReport {
    let budget = Budget::with_cancel(opts.limits, opts.cancel.clone());
    // The searches of one judgement are small: a table of a few MiB serves them, where the
    // server's full size would cost more to clear than they take.
    let table = Table::new(opts.table_mib.min(PLAY_TABLE_MIB));
    let goal = Goal::of(opts.stipulation);
    let target = opts.stipulation.target();
    let mut judge = Judge {
        searcher: Searcher::new(&table, &budget)
            .aiming(target)
            .bound(goal.map_or(Duty::None, Goal::duty)),
        target,
        budget: &budget,
        table: &table,
        goal,
        proof: opts.proof,
        naming: opts.naming,
        search: opts.search,
        needs_search: false,
    };
    let mut report = PlayReport {
        verdict: Verdict::Unknown,
        judged: None,
        refutation: None,
        reply: None,
        remaining: 0,
        accepted: Vec::new(),
        hint: None,
        complete: false,
        needs_search: false,
        nodes: 0,
        millis: 0,
        budget_exhausted: false,
        exhausted_by: None,
    };
    if opts.stipulation.is_series() {
        let mut judge = SeriesJudge {
            searcher: Searcher::new(&table, &budget),
            budget: &budget,
            table: &table,
            stipulation: opts.stipulation,
            proof: opts.proof,
            naming: opts.naming,
            search: opts.search,
            needs_search: false,
        };
        let _ = judge.run(start, line, opts, &mut report);
        let _ = judge.searcher.flush();
        report.needs_search = judge.needs_search;
    } else {
        let _ = judge.run(start, line, opts, &mut report);
        let _ = judge.searcher.flush();
        report.needs_search = judge.needs_search;
    }
    report.nodes = budget.nodes();
    report.millis = budget.elapsed().as_millis() as u64;
    report.budget_exhausted = budget.exhausted();
    report.exhausted_by = budget.exhausted_by();
    report
}

/// Moves of `pos` (with their lengths), named in `naming`.
fn named_moves<P: GamePosition>(
    pos: &P,
    found: &[(P::Move, u32)],
    naming: Naming,
) -> Vec<MoveInfo> {
    found
        .iter()
        .map(|(m, _)| pos.move_info(m, naming))
        .collect()
}

/// The canonical name of a move, as proofs know it.
fn name<P: GamePosition>(pos: &P, m: &P::Move) -> String {
    pos.move_name(m, Naming::default())
}

/// The moves of `pos` in play (its legal moves, none once a King was taken: what the searches
/// count), in canonical order.
fn moves_in_play<P: GamePosition>(pos: &P) -> Vec<P::Move> {
    let mut v = Vec::new();
    pos.search_moves(&mut v);
    v
}

/// [`moves_in_play`], named, in canonical order.
fn ordered_moves<P: GamePosition>(pos: &P) -> Vec<(String, P::Move)> {
    let mut v: Vec<(String, P::Move)> = moves_in_play(pos)
        .into_iter()
        .map(|m| (name(pos, &m), m))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

struct Judge<'a, P: GamePosition> {
    searcher: Searcher<'a, P>,
    budget: &'a Budget,
    table: &'a Table,
    /// `None` for a helpmate.
    goal: Option<Goal>,
    /// What the goal ends in.
    target: Target,
    proof: &'a dyn Proof,
    naming: Naming,
    search: bool,
    needs_search: bool,
}

impl<P: GamePosition> Judge<'_, P> {
    /// The goal the solver forces; a helpmate's is read as the direct one of its target (what
    /// the searches of a forced line ask; a helpmate's line is judged without them).
    fn forced_goal(&self) -> Goal {
        self.goal.unwrap_or(match self.target {
            Target::Mate => Goal::Mate,
            Target::Stalemate => Goal::Stalemate,
        })
    }

    /// The moves of `pos` in canonical order that its side to move may play under the
    /// reflexmates' duty: only its mating moves when it has any and is bound (`solver`: White,
    /// bound in `r#N`; else Black, bound in `r#N` and `semi-r#N`); every move otherwise.
    fn moves_under_duty(&self, pos: &P, solver: bool) -> Vec<(String, P::Move)> {
        let duty = self.goal.map_or(Duty::None, Goal::duty);
        let bound = if solver {
            duty == Duty::Both
        } else {
            duty != Duty::None
        };
        let moves = ordered_moves(pos);
        if bound {
            let mating: Vec<(String, P::Move)> = moves
                .iter()
                .filter(|(_, m)| pos.play(m).lost())
                .cloned()
                .collect();
            if !mating.is_empty() {
                return mating;
            }
        }
        moves
    }

    /// Whether the defender's move reaches the goal (`s#N`, `s=N`).
    fn is_self(&self) -> bool {
        self.goal.is_some_and(|g| !g.is_direct())
    }

    /// Fails when searching is not allowed (and notes that a search was needed).
    fn may_search(&mut self) -> Result<(), Stopped> {
        if self.search {
            self.searcher.poll()
        } else {
            self.needs_search = true;
            Err(Stopped)
        }
    }

    /// After the solver's move that ends `line` (`after` is the position it leaves), with `left`
    /// solver moves (helpmate: plies) after it: in how many more the goal is reached, if it is.
    fn wins(&mut self, line: &[String], after: &P, left: u32) -> Result<Option<u32>, Stopped> {
        if let Some(known) = self.proof.lookup(line, left) {
            return Ok(known);
        }
        self.may_search()?;
        match self.goal {
            Some(goal) => {
                for k in 0..=left {
                    if self.searcher.after_attack(goal, after, k, 0)? {
                        return Ok(Some(k));
                    }
                }
                Ok(None)
            }
            None => {
                // The move just played was White's when Black is to move.
                let by_white = after.turn() == crate::rules::Color::Black;
                if by_white && reached(self.target, after) {
                    // White mated (stalemated) Black: done.
                    return Ok(Some(0));
                }
                // Else the lines of the plies left: none once Black took White's King (the game
                // is over); a White mated otherwise still moves (in Rococo only the King's
                // capture ends the game), as the helpmate's solutions have it.
                shortest_help(after, left, self.budget, self.table, self.target)
            }
        }
    }

    /// Every solver move of `pos` (the solver to move, `left` moves including this one) that is
    /// correct, with how many solver moves it leaves to the goal; canonical order. `line` holds
    /// the names of the moves leading to `pos`.
    fn winning(
        &mut self,
        line: &mut Vec<String>,
        pos: &P,
        left: u32,
    ) -> Result<Vec<(P::Move, u32)>, Stopped> {
        let mut found = Vec::new();
        if left == 0 {
            return Ok(found);
        }
        for (n, m) in self.moves_under_duty(pos, true) {
            line.push(n);
            let w = self.wins(line, &pos.play(&m), left - 1);
            line.pop();
            if let Some(k) = w? {
                found.push((m, k));
            }
        }
        Ok(found)
    }

    /// After defence `line`'s last move (`pos`, the solver to move with `left` moves): in how many
    /// solver moves the goal is reached at the soonest (0: the defence itself reached it, in a
    /// selfmate), or `None` if not within `left`.
    fn resists(
        &mut self,
        line: &mut Vec<String>,
        pos: &P,
        left: u32,
    ) -> Result<Option<u32>, Stopped> {
        let goal = self.forced_goal();
        if !goal.is_direct() && reached(self.target, pos) {
            return Ok(Some(0));
        }
        if left == 0 {
            return Ok(None);
        }
        // A stored proof that settles every answer settles the defence (the first answer it does
        // not know ends the look: each is named only when asked about).
        let mut best: Option<u32> = None;
        let mut settled = true;
        for (n, _) in self.moves_under_duty(pos, true) {
            line.push(n);
            let known = self.proof.lookup(line, left - 1);
            line.pop();
            match known {
                Some(Some(k)) => best = Some(best.map_or(k + 1, |b| b.min(k + 1))),
                Some(None) => {}
                None => {
                    settled = false;
                    break;
                }
            }
        }
        if settled {
            return Ok(best);
        }
        self.may_search()?;
        for k in 1..=left {
            if self.searcher.after_defence(goal, pos, k, 0)? {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    fn run(
        &mut self,
        start: &P,
        line: &[P::Move],
        opts: &PlayOptions,
        report: &mut PlayReport,
    ) -> Result<(), Stopped> {
        let help = self.goal.is_none();
        let total = match opts.stipulation.help_plies() {
            Some(plies) => plies,
            None => opts.stipulation.moves(),
        };
        let mut names: Vec<String> = Vec::new();
        let mut pos = *start;
        // Solver moves (helpmate: plies) left before the next solver move.
        let mut left = total;
        // The position before the solver's move judged, its index and what was left before it.
        let mut judged: Option<(usize, P, u32)> = None;
        let mut verdict = Verdict::Correct;
        for (i, m) in line.iter().enumerate() {
            let before = pos;
            names.push(name(&before, m));
            pos = before.play(m);
            let solver = help || i % 2 == 0;
            if !solver {
                if self.is_self() && reached(self.target, &pos) {
                    verdict = Verdict::Solved;
                }
                continue;
            }
            judged = Some((i, before, left));
            report.judged = Some(i);
            let bound_white = self.goal.map_or(Duty::None, Goal::duty) == Duty::Both;
            let w = if left == 0 {
                // A move beyond the stipulation: the goal was not reached in time.
                None
            } else if bound_white
                && ordered_moves(&before)
                    .iter()
                    .any(|(_, m)| before.play(m).lost())
            {
                // In `r#N` a White that can mate must, and that fails the play.
                None
            } else {
                self.wins(&names, &pos, left - 1)?
            };
            left = left.saturating_sub(1);
            match w {
                None => {
                    report.verdict = Verdict::Wrong;
                    report.remaining = left;
                    if !help {
                        report.refutation = self.refutation(&pos, left)?;
                    }
                    let mut prefix = names[..i].to_vec();
                    report.accepted = self.accepted(&mut prefix, &before, left + 1)?;
                    report.complete = true;
                    return Ok(());
                }
                Some(0) => verdict = Verdict::Solved,
                Some(_) => verdict = Verdict::Correct,
            }
        }
        // With no move played, nothing is judged until the solver's moves are known (below): a
        // budget that runs out first leaves the verdict `unknown`.
        report.verdict = if line.is_empty() {
            Verdict::Unknown
        } else {
            verdict
        };
        report.remaining = if verdict == Verdict::Solved { 0 } else { left };
        // The reply: after a solver move of a game with a defender that still has one.
        let ends_with_solver = !help && line.len() % 2 == 1;
        let mut here = pos;
        // A direct mate that is solved has no reply to choose (in Rococo the mated side still has
        // moves, every one losing its King): no search.
        let mated = verdict == Verdict::Solved && self.goal.is_some_and(Goal::is_direct);
        if ends_with_solver && !mated {
            if let Some(d) = self.reply(&mut names, &pos, left)? {
                report.reply = Some(pos.move_info(&d, self.naming));
                names.push(name(&pos, &d));
                here = pos.play(&d);
                if self.is_self() && reached(self.target, &here) {
                    report.verdict = Verdict::Solved;
                }
            }
        }
        // `accepted` is about the solver move judged when one ends the line (or, in a helpmate,
        // was played); else about the solver's next move, here, as the hint always is.
        let at_judged = judged.filter(|_| ends_with_solver || help);
        let correct = report.verdict == Verdict::Correct || line.is_empty();
        let next = if correct && ((opts.hint && left > 0) || at_judged.is_none()) {
            self.winning(&mut names, &here, left)?
        } else {
            Vec::new()
        };
        if opts.hint && correct {
            report.hint = next
                .iter()
                .min_by_key(|(_, k)| *k)
                .map(|(m, _)| here.square_name(P::squares(m).0, self.naming));
        }
        if report.reply.is_some() {
            names.pop();
        }
        report.accepted = match at_judged {
            Some((i, before, before_left)) => {
                let mut prefix = names[..i].to_vec();
                self.accepted(&mut prefix, &before, before_left)?
            }
            None => self.named(&here, &next),
        };
        if line.is_empty() {
            // No move played: the position wins when some move of the solver's does.
            report.verdict = if next.is_empty() {
                Verdict::Wrong
            } else {
                Verdict::Correct
            };
        }
        report.complete = true;
        Ok(())
    }

    /// The correct solver moves of `pos`, named.
    fn accepted(
        &mut self,
        line: &mut Vec<String>,
        pos: &P,
        left: u32,
    ) -> Result<Vec<MoveInfo>, Stopped> {
        let found = self.winning(line, pos, left)?;
        Ok(self.named(pos, &found))
    }

    /// Moves of `pos` (with their lengths), named.
    fn named(&self, pos: &P, found: &[(P::Move, u32)]) -> Vec<MoveInfo> {
        named_moves(pos, found, self.naming)
    }

    /// The defence to play in `pos` (the defender to move after the solver's correct move that ends
    /// `line`, `left` solver moves left): the one that resists longest, then the one that leaves
    /// the fewest winning answers, then the first in canonical order.
    fn reply(
        &mut self,
        line: &mut Vec<String>,
        pos: &P,
        left: u32,
    ) -> Result<Option<P::Move>, Stopped> {
        let defences = self.moves_under_duty(pos, false);
        // The longest resistance first; `None` (the goal out of reach) resists longest of all.
        let mut resist: Vec<Option<u32>> = Vec::with_capacity(defences.len());
        for (n, d) in &defences {
            line.push(n.clone());
            let r = self.resists(line, &pos.play(d), left);
            line.pop();
            resist.push(r?);
        }
        let longest = |r: &Option<u32>| r.map_or(u32::MAX, |k| k);
        let Some(most) = resist.iter().map(longest).max() else {
            return Ok(None);
        };
        let mut best: Option<(usize, P::Move)> = None;
        for ((n, d), r) in defences.iter().zip(&resist) {
            if longest(r) != most {
                continue;
            }
            let after = pos.play(d);
            let answers = if most == 0 || most == u32::MAX {
                0
            } else {
                line.push(n.clone());
                let w = self.winning(line, &after, left);
                line.pop();
                w?.len()
            };
            if best.as_ref().is_none_or(|(fewest, _)| answers < *fewest) {
                best = Some((answers, *d));
            }
        }
        Ok(best.map(|(_, d)| d))
    }

    /// The first defence of `pos` in canonical order after which the goal is out of reach within
    /// `left` solver moves (`pos` follows the solver's wrong move ending `line`).
    fn refutation(&mut self, pos: &P, left: u32) -> Result<Option<MoveInfo>, Stopped> {
        let goal = self.forced_goal();
        self.may_search()?;
        for (_, d) in self.moves_under_duty(pos, false) {
            let after = pos.play(&d);
            if !self.searcher.after_defence(goal, &after, left, 0)? {
                return Ok(Some(pos.move_info(&d, self.naming)));
            }
        }
        Ok(None)
    }
}

/// The judgement of a series mover's line (see [`SeriesLine`]): every move of the line is the
/// solver's, the series side's moves with the other side passing between them, and in `ser-h#N`
/// White's mating move after Black's series. A move is *correct* when the line can still end as
/// the stipulation asks within the moves left, *solved* when the line so far is a solution (a
/// shorter one may go on: the other side passes, and a longer line may follow, as the solve lists
/// them; in `ser-s#N` once the series is over the reply is Black's first move in canonical order,
/// every one of which mates). `remaining` counts the moves of the line left (passes not
/// counted).
struct SeriesJudge<'a, P: GamePosition> {
    searcher: Searcher<'a, P>,
    budget: &'a Budget,
    table: &'a Table,
    stipulation: Stipulation,
    proof: &'a dyn Proof,
    naming: Naming,
    search: bool,
    needs_search: bool,
}

impl<P: GamePosition> SeriesJudge<'_, P> {
    /// After the line's move `m` from `before` (`walk` where the series stood before it, `line`
    /// the names up to and with `m`, `left` the line's moves after it): in how many more moves
    /// the line ends, if it can; and the position and series after the move.
    fn wins(
        &mut self,
        line: &[String],
        before: &P,
        m: &P::Move,
        mut walk: SeriesLine,
        left: u32,
        next_move: Option<&P::Move>,
    ) -> Result<(Option<u32>, P, SeriesLine), Stopped> {
        let after = before.play(m);
        if walk.is_over() {
            // White's move after Black's series (`ser-h#N`): it must mate.
            let mates = matches!(self.stipulation, Stipulation::SeriesHelpMate(_)) && after.lost();
            return Ok((mates.then_some(0), after, walk));
        }
        let next = walk.step_before(after, next_move);
        if let Some(known) = self.proof.lookup(line, left) {
            return Ok((known, next, walk));
        }
        if !self.search {
            self.needs_search = true;
            return Err(Stopped);
        }
        self.searcher.poll()?;
        let help = matches!(self.stipulation, Stipulation::SeriesHelpMate(_));
        // A line that ends here (a shorter one, when the series goes on: the other side may
        // still pass and the series go on to a longer line).
        let ends_here = !help && ends_series(self.stipulation, &after);
        let w = if ends_here {
            Some(0)
        } else if walk.is_over() {
            (help && ends_series(self.stipulation, &after)).then_some(1)
        } else if help && ends_series(self.stipulation, &after) {
            // White may mate at once: a shorter line (the series goes on when White passes).
            Some(1)
        } else {
            let series_left = self.stipulation.moves() - walk.played();
            shortest_series(
                &next,
                self.stipulation,
                series_left,
                self.budget,
                self.table,
            )?
            .map(|k| k + u32::from(help))
        };
        Ok((w.filter(|&k| k <= left), next, walk))
    }

    /// Every move of `pos` (`walk`, `left` line moves including this one) that is correct, in
    /// canonical order, with the moves it leaves; `line` the names of the moves before.
    fn winning(
        &mut self,
        line: &mut Vec<String>,
        pos: &P,
        walk: SeriesLine,
        left: u32,
    ) -> Result<Vec<(P::Move, u32)>, Stopped> {
        let mut found = Vec::new();
        if left == 0 {
            return Ok(found);
        }
        for (n, m) in ordered_moves(pos) {
            line.push(n);
            let w = self.wins(line, pos, &m, walk, left - 1, None);
            line.pop();
            if let (Some(k), _, _) = w? {
                found.push((m, k));
            }
        }
        Ok(found)
    }

    fn named(&self, pos: &P, found: &[(P::Move, u32)]) -> Vec<MoveInfo> {
        named_moves(pos, found, self.naming)
    }

    fn run(
        &mut self,
        start: &P,
        line: &[P::Move],
        opts: &PlayOptions,
        report: &mut PlayReport,
    ) -> Result<(), Stopped> {
        let total = self.stipulation.solution_plies();
        let mut names: Vec<String> = Vec::new();
        let mut pos = *start;
        let mut walk = SeriesLine::new(self.stipulation);
        let mut left = total;
        let mut verdict = Verdict::Correct;
        // The position, series and line moves left before the move judged.
        let mut judged_at: Option<(P, SeriesLine, u32)> = None;
        // Whether the line carries Black's mating reply after a `ser-s#N` solved.
        let mut replied = false;
        for (i, m) in line.iter().enumerate() {
            let before = pos;
            names.push(name(&before, m));
            if verdict == Verdict::Solved
                && !replied
                && walk.is_over()
                && matches!(self.stipulation, Stipulation::SeriesSelfMate(_))
                && before.play(m).lost()
            {
                replied = true;
                pos = before.play(m);
                continue;
            }
            report.judged = Some(i);
            judged_at = Some((before, walk, left));
            let (w, next, after_walk) = if left == 0 {
                // A move beyond the stipulation.
                (None, before.play(m), walk)
            } else {
                self.wins(&names, &before, m, walk, left - 1, line.get(i + 1))?
            };
            match w {
                None => {
                    report.verdict = Verdict::Wrong;
                    report.remaining = left.saturating_sub(1);
                    let mut prefix = names[..i].to_vec();
                    let found = self.winning(&mut prefix, &before, walk, left)?;
                    report.accepted = self.named(&before, &found);
                    report.complete = true;
                    return Ok(());
                }
                Some(0) => verdict = Verdict::Solved,
                Some(_) => verdict = Verdict::Correct,
            }
            left -= 1;
            pos = next;
            walk = after_walk;
        }
        report.verdict = if line.is_empty() {
            Verdict::Unknown
        } else {
            verdict
        };
        report.remaining = if verdict == Verdict::Solved { 0 } else { left };
        if verdict == Verdict::Solved
            && !replied
            && walk.is_over()
            && !line.is_empty()
            && matches!(self.stipulation, Stipulation::SeriesSelfMate(_))
        {
            // Every Black move mates: the first in canonical order.
            if let Some((_, d)) = ordered_moves(&pos).first() {
                report.reply = Some(pos.move_info(d, self.naming));
            }
        }
        let correct = report.verdict == Verdict::Correct || line.is_empty();
        let next = if correct {
            self.winning(&mut names, &pos, walk, left)?
        } else {
            Vec::new()
        };
        if opts.hint && correct && left > 0 {
            report.hint = next
                .iter()
                .min_by_key(|(_, k)| *k)
                .map(|(m, _)| pos.square_name(P::squares(m).0, self.naming));
        }
        report.accepted = match (report.judged, judged_at) {
            // About the move judged: the correct moves where it was played.
            (Some(i), Some((before, w, before_left))) => {
                let mut prefix = names[..i].to_vec();
                let found = self.winning(&mut prefix, &before, w, before_left)?;
                self.named(&before, &found)
            }
            _ => self.named(&pos, &next),
        };
        if line.is_empty() {
            report.verdict = if next.is_empty() {
                Verdict::Wrong
            } else {
                Verdict::Correct
            };
        }
        report.complete = true;
        Ok(())
    }
}
