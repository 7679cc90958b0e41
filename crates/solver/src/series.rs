//! Series movers: one side plays N moves in a row while the other passes.
//!
//! - `ser-#N`: White plays N moves, the last one mating Black.
//! - `ser-=N`: the same, the last one stalemating Black.
//! - `ser-s#N`: White plays N moves, after which Black has at least one legal move and every one
//!   of them mates White.
//! - `ser-h#N`: Black plays N moves, then White mates in one.
//!
//! Every move is a move in play ([`baroque_rules::SearchHooks::search_moves`]), and none of the
//! series side's moves but its last may leave the other side's King capturable (in check): the
//! other side passes after each of them ([`baroque_rules::SearchHooks::null_move`], which a side
//! in check cannot, nor, in Rococo, a side whose King was taken: the game is over). The answer is every line of the stipulated length and every line of the
//! shorter series of the same form (`ser-#1` .. `ser-#N-1`), which make the problem unsound, as
//! for helpmates ([`HelpSolution`]). A line holds the series' moves, without the passes; in
//! `ser-h#N` it ends with White's mating move (each mate is a solution of its own, as in a
//! helpmate); in `ser-s#N` it ends with White's Nth move (Black's replies are all forced mates).
//!
//! The search enumerates the series depth first. A position with k series moves left shown to
//! lead to no solution is remembered, so that the many orders of the same moves are searched
//! once; so is the number of lines from one that leads to some, which counts them without a new
//! search once the lines kept are [`MAX_LINES`]. At the last move of `ser-#N` only checks are tried where only a check can mate. The
//! budget is checked at every node.

use super::help::{
    by_length, dead_key, sorted_lines, DeadSet, Found, HelpSolution, KeyHasher, MAX_DEAD, MAX_LINES,
};
use super::search::{reached_in, Searcher, Stopped};
use super::tt::Table;
use super::{Budget, SolveOptions, Stipulation, Target};
use crate::rules::GamePosition;

/// The most table the selfmate's last test (`ser-s#N`) uses, in MiB.
const SERIES_TABLE_MIB: usize = 16;

/// The position after the other side's pass, when it can pass: it is not in check, and its King
/// is on the board (in Rococo, a King taken ends the game).
pub(crate) fn pass<P: GamePosition>(after: &P) -> Option<P> {
    after.king(after.turn())?;
    after.null_move()
}

/// What the series' last move must bring about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    /// The other side mated or stalemated by it (`ser-#N`, `ser-=N`).
    Goal(Target),
    /// The other side left with moves that all mate (`ser-s#N`).
    SelfMate,
    /// The other side (White) left a mate in one (`ser-h#N`), its mating moves ending the lines.
    HelpMate,
}

impl Last {
    fn of(stipulation: Stipulation) -> Last {
        match stipulation {
            Stipulation::SeriesSelfMate(_) => Last::SelfMate,
            Stipulation::SeriesHelpMate(_) => Last::HelpMate,
            other => Last::Goal(other.target()),
        }
    }
}

/// The enumeration of series lines.
struct Series<'a, P: GamePosition> {
    searcher: Searcher<'a, P>,
    /// Positions with so many series moves left ([`dead_key`]) shown to lead to no solution.
    dead: DeadSet,
    /// The number of lines from positions with so many series moves left that lead to some:
    /// once [`MAX_LINES`] lines are kept, a position met again adds its count without a search
    /// (the lines from a position do not depend on the moves that led to it), so that counting
    /// every line costs a search of each position, not of each line.
    counts: std::collections::HashMap<u64, usize, std::hash::BuildHasherDefault<KeyHasher>>,
    line: Vec<P::Move>,
    found: Vec<Vec<P::Move>>,
    /// Lines found, kept or not.
    count: usize,
    /// A move buffer per number of series moves left (0: the replies to the last), reused.
    bufs: Vec<Vec<P::Move>>,
    /// The search stops once more lines than this are found (screening needs no more).
    enough: usize,
    /// The most lines kept ([`MAX_LINES`]; the others are counted).
    keep: usize,
    last: Last,
}

impl<'a, P: GamePosition> Series<'a, P> {
    fn new(searcher: Searcher<'a, P>, moves: u32, enough: usize, last: Last) -> Self {
        Series {
            searcher,
            dead: DeadSet::default(),
            counts: Default::default(),
            line: Vec::new(),
            found: Vec::new(),
            count: 0,
            bufs: (0..=moves).map(|_| Vec::with_capacity(128)).collect(),
            enough,
            keep: MAX_LINES,
            last,
        }
    }

    /// Adds every line of `left` series moves from `pos` (the series side to move) that ends as
    /// the stipulation asks; whether it found one.
    fn search(&mut self, pos: &P, left: u32) -> Result<bool, Stopped> {
        let key = dead_key(pos.key(), left);
        if self.dead.contains(&key) {
            return Ok(false);
        }
        if self.found.len() >= self.keep {
            if let Some(&n) = self.counts.get(&key) {
                self.count += n;
                return Ok(true);
            }
        }
        let before = self.count;
        let mut moves = std::mem::take(&mut self.bufs[left as usize]);
        // The mating move of `ser-#N`, where only a move that gives check can mate: the checks.
        let all_check =
            left == 1 && self.last == Last::Goal(Target::Mate) && self.searcher.only_checks(pos);
        if all_check {
            pos.search_checks(&mut moves);
        } else {
            pos.search_moves(&mut moves);
        }
        if left == 1 && self.last == Last::Goal(Target::Stalemate) {
            // `ser-=N`: the last moves that surely leave Black a move, not made.
            pos.drop_moves_leaving_a_reply(&mut moves, &[]);
        }
        let r = self.search_moves(pos, &moves, left, all_check);
        self.bufs[left as usize] = moves;
        let any = r?;
        // A search cut short (more lines than needed) proves nothing of what it left.
        if self.count <= self.enough {
            if !any && self.dead.len() < MAX_DEAD {
                self.dead.insert(key);
            } else if any && self.counts.len() < MAX_DEAD {
                self.counts.insert(key, self.count - before);
            }
        }
        Ok(any)
    }

    fn search_moves(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        left: u32,
        all_check: bool,
    ) -> Result<bool, Stopped> {
        let mut any = false;
        for m in moves {
            self.searcher.tick()?;
            if left == 1 {
                any |= self.last_move(pos, m, all_check)?;
            } else if let Some(passed) = pass(&pos.play(m)) {
                // A move before the last that gives check cannot be passed: not a line.
                self.line.push(*m);
                let r = self.search(&passed, left - 1);
                self.line.pop();
                any |= r?;
            }
            if self.count > self.enough {
                break;
            }
        }
        Ok(any)
    }

    /// Records the line so far with `tail` after it.
    fn record(&mut self, tail: &[P::Move]) {
        if self.found.len() < self.keep {
            let mut line = self.line.clone();
            line.extend_from_slice(tail);
            self.found.push(line);
        }
        self.count += 1;
    }

    /// Whether the series' last move `m` of `pos` ends a solution (recording each line it ends).
    fn last_move(&mut self, pos: &P, m: &P::Move, all_check: bool) -> Result<bool, Stopped> {
        match self.last {
            Last::Goal(target) => {
                let check = all_check || pos.gives_check(m);
                // A checking move stalemates nobody: not even made for `ser-=N`.
                let reached = !(check && target == Target::Stalemate)
                    && reached_in(target, &pos.play(m), check);
                if reached {
                    self.record(&[*m]);
                }
                Ok(reached)
            }
            Last::SelfMate => {
                let after = pos.play(m);
                // Black has a move and every one mates White: the selfmate's last test.
                let reached = self.searcher.self_defend(&after, 0, 0)?;
                if reached {
                    self.record(&[*m]);
                }
                Ok(reached)
            }
            Last::HelpMate => {
                let after = pos.play(m);
                let mut replies = std::mem::take(&mut self.bufs[0]);
                if self.searcher.only_checks(&after) {
                    after.search_checks(&mut replies);
                } else {
                    after.search_moves(&mut replies);
                }
                let mut any = Ok(false);
                for w in &replies {
                    if let Err(e) = self.searcher.tick() {
                        any = Err(e);
                        break;
                    }
                    if after.play(w).lost() {
                        self.record(&[*m, *w]);
                        any = Ok(true);
                        if self.count > self.enough {
                            break;
                        }
                    }
                }
                self.bufs[0] = replies;
                any
            }
        }
    }
}

/// The lines of `stipulation`'s form with `moves` series moves from `pos` (the first
/// [`MAX_LINES`] found), sorted by the canonical names of their moves, and how many there are,
/// stopping past `enough`; `Err` when the budget ran out first.
fn series_lines<P: GamePosition>(
    pos: &P,
    stipulation: Stipulation,
    moves: u32,
    budget: &Budget,
    table: &Table,
    enough: usize,
) -> Result<Found<P::Move>, Stopped> {
    let searcher = Searcher::new(table, budget);
    let mut series = Series::new(searcher, moves, enough, Last::of(stipulation));
    let r = series.search(pos, moves);
    let _ = series.searcher.flush();
    r?;
    let count = series.count;
    Ok((sorted_lines(pos, stipulation, series.found), count))
}

/// Solves a series mover (`opts.stipulation` must be one: anything else is read as `ser-#N` of
/// its N) for `pos`, whose side to move is the series side: the shorter series of the same form
/// first, then the stipulated one. `intended` is the number of solutions a sound problem has (1
/// unless its composer says otherwise).
pub fn solve_series<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
) -> HelpSolution<P::Move> {
    series_with(pos, opts, intended, false)
}

/// Like [`solve_series`], but for screening candidate puzzles: each length's search stops as soon
/// as the problem is shown unsound (see [`super::help::screen_help`]).
pub fn screen_series<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
) -> HelpSolution<P::Move> {
    series_with(pos, opts, intended, true)
}

fn series_with<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
    screening: bool,
) -> HelpSolution<P::Move> {
    let budget = Budget::within(opts.within.clone(), opts.limits, opts.cancel.clone());
    let stipulation = if opts.stipulation.is_series() {
        opts.stipulation
    } else {
        Stipulation::SeriesMate(opts.stipulation.moves())
    };
    // Only the selfmate's last test stores anything.
    let table = match stipulation {
        Stipulation::SeriesSelfMate(_) => Table::new(opts.table_mib.min(SERIES_TABLE_MIB)),
        _ => Table::new(0),
    };
    by_length(stipulation, 1, intended, screening, &budget, |k, enough| {
        series_lines(pos, stipulation, k, &budget, &table, enough)
    })
}

/// The fewest series moves, at most `moves`, of a line of `stipulation`'s form from `pos` (the
/// series side to move); `None` when no line of at most `moves` does. What a site playing a
/// series mover needs after each move.
///
/// # Errors
/// [`Stopped`] when the budget runs out.
pub fn shortest_series<P: GamePosition>(
    pos: &P,
    stipulation: Stipulation,
    moves: u32,
    budget: &Budget,
    table: &Table,
) -> Result<Option<u32>, Stopped> {
    for k in 1..=moves {
        let (_, count) = series_lines(pos, stipulation, k, budget, table, 0)?;
        if count > 0 {
            return Ok(Some(k));
        }
    }
    Ok(None)
}

/// Whether the series move just played (`after` is the position it leaves, the other side to
/// move) ends a line of `stipulation`'s form: in `ser-#N` and `ser-=N` the other side is mated or
/// stalemated, in `ser-s#N` it has a move and every one mates, in `ser-h#N` White has a move that
/// mates. (A test of one or two plies: no budget.)
pub fn ends_series<P: GamePosition>(stipulation: Stipulation, after: &P) -> bool {
    let mates = |p: &P| p.lost();
    let mut moves = Vec::new();
    match stipulation {
        Stipulation::SeriesSelfMate(_) => {
            after.search_moves(&mut moves);
            !moves.is_empty() && moves.iter().all(|m| mates(&after.play(m)))
        }
        Stipulation::SeriesHelpMate(_) => {
            after.search_moves(&mut moves);
            moves.iter().any(|m| mates(&after.play(m)))
        }
        other => super::search::reached(other.target(), after),
    }
}

/// Where a series mover's line stands as it is played move by move, and the passes it makes, as
/// the search counts its lines: the other side passes after a series move unless it was the Nth
/// or left the other side in check (which cannot pass; nor can a Rococo side whose King was
/// taken). The series is then over: the other side is to move (in `ser-h#N` White, whose mating
/// move ends the line; in `ser-s#N` Black, whose every move mates).
#[derive(Clone, Copy, Debug)]
pub struct SeriesLine {
    stipulation: Stipulation,
    played: u32,
    over: bool,
}

impl SeriesLine {
    /// A line of `stipulation` (a series mover) about to start.
    pub fn new(stipulation: Stipulation) -> SeriesLine {
        SeriesLine {
            stipulation,
            played: 0,
            over: false,
        }
    }

    /// Whether the series is over: the moves that follow are the other side's.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The series moves played.
    pub fn played(&self) -> u32 {
        self.played
    }

    /// The position after a move of the line, `after` being the one the move leaves: after the
    /// other side's pass when the series goes on.
    pub fn step<P: GamePosition>(&mut self, after: P) -> P {
        self.step_before(after, None)
    }

    /// [`SeriesLine::step`], knowing the line's next move: when it is the other side's (legal
    /// in `after` as it stands) in a form where the other side ends the line (`ser-h#N`,
    /// `ser-s#N`), the series ends here, shorter than N, and the other side does not pass: a
    /// shorter solution, played move by move.
    pub fn step_before<P: GamePosition>(&mut self, after: P, next: Option<&P::Move>) -> P {
        if self.over {
            return after;
        }
        self.played += 1;
        let other_ends = matches!(
            self.stipulation,
            Stipulation::SeriesHelpMate(_) | Stipulation::SeriesSelfMate(_)
        ) && next.is_some_and(|m| after.legal_moves().contains(m));
        if self.played < self.stipulation.moves() && !other_ends {
            if let Some(passed) = pass(&after) {
                return passed;
            }
        }
        self.over = true;
        after
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Naming, Variant, Visit};

    /// The lines counted from remembered positions, once the lines kept are full, are as many as
    /// those enumerated one by one.
    #[test]
    fn counting_from_remembered_positions_counts_every_line() {
        let boards = [
            (
                "baroque",
                "8/M1p5/3k4/8/3K4/8/8/8 b 0",
                Stipulation::SeriesHelpMate(3),
            ),
            (
                "baroque",
                "6K1/5p2/8/3M4/5k2/8/8/8 b 0",
                Stipulation::SeriesHelpMate(4),
            ),
            (
                "baroque",
                "7k/8/4K3/4M3/8/8/8/8 w 0",
                Stipulation::SeriesStalemate(3),
            ),
            (
                "baroque",
                "7k/8/4K3/4M3/8/8/8/8 w 0",
                Stipulation::SeriesMate(4),
            ),
            (
                "rococo",
                "10/10/10/1p8/10/5I4/3k6/10/7K2/10 b 0 -",
                Stipulation::SeriesHelpMate(3),
            ),
        ];
        let mut counted = 0;
        for (game, fen, stipulation) in boards {
            let variant = Variant::of(crate::rules::GameKind::parse(game).unwrap(), None).unwrap();
            let pos = variant.read_fen(fen, Naming::default()).unwrap();
            struct Count(Stipulation, usize);
            impl Visit for Count {
                type Output = usize;
                fn visit<P: GamePosition>(self, p: &P) -> usize {
                    let budget = Budget::new(Default::default());
                    let table = Table::new(1);
                    let searcher = Searcher::new(&table, &budget);
                    let moves = self.0.moves();
                    let mut series = Series::new(searcher, moves, usize::MAX, Last::of(self.0));
                    series.keep = self.1;
                    series.search(p, moves).unwrap();
                    series.count
                }
            }
            let all = pos.visit(Count(stipulation, usize::MAX));
            let memo = pos.visit(Count(stipulation, 0));
            assert_eq!(memo, all, "{stipulation} of {fen}");
            counted += all;
        }
        assert!(counted > 100, "{counted}");
    }
}
