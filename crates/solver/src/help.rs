//! Helpmates: `h#N` (Black starts; White's Nth move mates Black) and `h#N.5` (White starts;
//! White's move N+1 mates). Both sides cooperate, so the answer is every line of moves that ends in
//! mate at exactly the stipulated move, and the lines of the shorter helpmates of the same start
//! (`h#1` .. `h#N-1`, or `h#0.5` .. `h#(N-1).5`), which make a helpmate unsound.
//!
//! The search enumerates the lines depth first, every move a move in play (see
//! [`baroque_rules::SearchHooks::search_moves`]: in Rococo a move may leave the mover's King capturable, and
//! the partner need not take it), the last one leaving Black lost ([`baroque_rules::SearchHooks::lost`]: in
//! Rococo, its King taken or every move of its losing it). A position with k plies left that has
//! been shown to lead to no mate is remembered, so that transpositions are not searched again. At
//! the mating ply only checks are tried where only a check can mate. The budget is checked at
//! every node.

use super::search::{reached_in, search_moves_near_king, Searcher, Stopped};
use super::{Budget, Exhausted, Narrowed, SolveOptions, Stipulation, Target};
use crate::rules::{Color, GamePosition, MoveInfo, Naming, VariantMove, VariantPosition, Visit};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Most solution lines kept of one helpmate length (the rest are counted): the answer stays a few
/// megabytes at most whatever the position.
pub const MAX_LINES: usize = 10_000;
/// Most positions remembered as leading to no mate: about 40 MB at most (8 bytes each, in a table
/// of up to 2^22 slots).
pub(crate) const MAX_DEAD: usize = 2_000_000;

/// A helpmate's (or a series mover's, see [`crate::series`]) report: lines of moves, not names
/// ([`HelpSolution::named`] names them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpSolution<M> {
    /// The helpmate solved.
    pub stipulation: Stipulation,
    /// Every line of the stipulated length that ends in mate, in the order of the moves'
    /// canonical notation.
    pub solutions: Vec<Vec<M>>,
    /// Every line of a shorter helpmate of the same start, shortest first.
    pub short_solutions: Vec<Vec<M>>,
    /// The number of solutions (of the stipulated length), all counted even when more than
    /// [`MAX_LINES`] were found and only the first were kept.
    pub count: usize,
    /// Whether lines were left out of `solutions` or `short_solutions` (more than [`MAX_LINES`]).
    pub lines_truncated: bool,
    /// Whether the search finished: `solutions` and `short_solutions` are then complete.
    pub complete: bool,
    /// Exactly `intended` solutions and no shorter one; `None` when the search did not finish
    /// (unless what it found already settles it).
    pub sound: Option<bool>,
    /// The helpmates of this start searched to the end without a solution, up to this N (`h#k`:
    /// k; `h#k.5`: k, and 0 when even `h#0.5` was not settled or had a solution).
    pub proven_no_solution_within: u32,
    /// Nodes visited.
    pub nodes: u64,
    pub millis: u64,
    /// Whether the node or time budget ran out (or the solve was cancelled).
    pub budget_exhausted: bool,
    /// Which limit ran out, when one did.
    pub exhausted_by: Option<Exhausted>,
}

/// A helpmate solve's report, named: each line a list of named moves.
pub type NamedHelpSolution = HelpSolution<MoveInfo>;

impl<M: Copy> HelpSolution<M> {
    /// The report in another move type.
    pub fn map<N>(&self, f: impl Fn(&M) -> N) -> HelpSolution<N> {
        self.map_lines(|l| l.iter().map(&f).collect())
    }

    /// The report named in `naming`; `pos` is the position that was solved.
    pub fn named<P: GamePosition<Move = M>>(&self, pos: &P, naming: Naming) -> NamedHelpSolution {
        self.map_lines(|l| name_line(pos, self.stipulation, l, naming))
    }

    /// The report with each line of moves rewritten by `line`.
    fn map_lines<N>(&self, line: impl Fn(&[M]) -> Vec<N>) -> HelpSolution<N> {
        let lines = |v: &[Vec<M>]| v.iter().map(|l| line(l)).collect();
        HelpSolution {
            stipulation: self.stipulation,
            solutions: lines(&self.solutions),
            short_solutions: lines(&self.short_solutions),
            count: self.count,
            lines_truncated: self.lines_truncated,
            complete: self.complete,
            sound: self.sound,
            proven_no_solution_within: self.proven_no_solution_within,
            nodes: self.nodes,
            millis: self.millis,
            budget_exhausted: self.budget_exhausted,
            exhausted_by: self.exhausted_by,
        }
    }
}

/// A solution line of `stipulation` from `pos`, each move named in the position it is played
/// from (in a series mover, the other side passing where [`Stipulation::passes_after`] says).
pub fn name_line<P: GamePosition>(
    pos: &P,
    stipulation: Stipulation,
    line: &[P::Move],
    naming: Naming,
) -> Vec<MoveInfo> {
    let mut at = *pos;
    line.iter()
        .enumerate()
        .map(|(i, m)| {
            let info = at.move_info(m, naming);
            at = next_in_line(&at, stipulation, m, i, line.len()).unwrap_or(at);
            info
        })
        .collect()
}

/// The position after the move `m` at `index` of a solution line of `len` moves of
/// `stipulation` played from `at`: after the other side's pass where the stipulation has one;
/// `None` when that side cannot pass (it is in check).
pub fn next_in_line<P: GamePosition>(
    at: &P,
    stipulation: Stipulation,
    m: &P::Move,
    index: usize,
    len: usize,
) -> Option<P> {
    let after = at.play(m);
    if stipulation.passes_after(index, len) {
        super::series::pass(&after)
    } else {
        Some(after)
    }
}

/// A hasher for keys that are already Zobrist hashes: it passes them through.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The key of a position with `plies` left: its Zobrist key with the plies mixed in.
pub(crate) fn dead_key(key: u64, plies: u32) -> u64 {
    key ^ u64::from(plies).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The enumeration of helpmate lines.
struct Lines<'a, P: GamePosition> {
    searcher: Searcher<'a, P>,
    /// Positions with so many plies left ([`dead_key`]) shown to lead to no mate.
    dead: DeadSet,
    line: Vec<P::Move>,
    found: Vec<Vec<P::Move>>,
    /// Lines found, kept or not.
    count: usize,
    /// A move buffer per number of plies left, reused from node to node.
    bufs: Vec<Vec<P::Move>>,
    /// The search stops once more lines than this are found (screening needs no more).
    enough: usize,
    /// When set, the moves before the mating one only land near the mated side's King (see
    /// [`focused_help`]): `(within, mated, plies)`, `plies` those of the whole line.
    focus: Option<(u32, Color, u32)>,
}

impl<'a, P: GamePosition> Lines<'a, P> {
    /// An enumeration of lines of up to `plies` moves, cut short past `enough` lines, narrowed
    /// by `focus`.
    fn new(
        searcher: Searcher<'a, P>,
        plies: u32,
        enough: usize,
        focus: Option<(u32, Color, u32)>,
    ) -> Self {
        Lines {
            searcher,
            dead: HashSet::default(),
            line: Vec::new(),
            found: Vec::new(),
            count: 0,
            bufs: (0..=plies).map(|_| Vec::with_capacity(128)).collect(),
            enough,
            focus,
        }
    }

    /// Adds every line of `plies` moves from `pos` that ends in mate of the side to move after
    /// it (and in no mate before); whether it found one.
    fn search(&mut self, pos: &P, plies: u32) -> Result<bool, Stopped> {
        let key = dead_key(pos.key(), plies);
        if self.dead.contains(&key) {
            return Ok(false);
        }
        let mut moves = std::mem::take(&mut self.bufs[plies as usize]);
        // The last ply, where only a move that gives check can mate: the checks alone.
        let all_check = plies == 1 && self.searcher.only_checks(pos);
        if all_check {
            pos.search_checks(&mut moves);
        } else {
            match self.focus {
                Some((within, mated, all)) if plies > 1 => {
                    let reach = within.saturating_add(u32::from(plies < all));
                    search_moves_near_king(pos, mated, reach, &mut moves);
                }
                _ => pos.search_moves(&mut moves),
            }
        }
        if plies == 1 {
            // `h=N`: the last moves that surely leave the other side a move, not made.
            self.searcher.drop_unstalemating(pos, 0, &mut moves);
        }
        let r = self.search_moves(pos, &moves, plies, all_check);
        self.bufs[plies as usize] = moves;
        let any = r?;
        // A search cut short (more lines than needed) proves nothing of what it left.
        if !any && self.dead.len() < MAX_DEAD && self.count <= self.enough {
            self.dead.insert(key);
        }
        Ok(any)
    }

    /// [`Lines::search`] over the moves of `pos`; `all_check`: each of them gives check (else a
    /// last move's check is tested before the position after it is made).
    fn search_moves(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        plies: u32,
        all_check: bool,
    ) -> Result<bool, Stopped> {
        let mut any = false;
        for m in moves {
            if plies == 1 {
                self.searcher.tick()?;
                let check = all_check || pos.gives_check(m);
                // A checking last move stalemates nobody: not even made for `h=N`.
                let target = self.searcher.target();
                if !(check && target == Target::Stalemate)
                    && reached_in(target, &pos.play(m), check)
                {
                    if self.found.len() < MAX_LINES {
                        let mut line = self.line.clone();
                        line.push(*m);
                        self.found.push(line);
                    }
                    self.count += 1;
                    any = true;
                    if self.count > self.enough {
                        break;
                    }
                }
                continue;
            }
            let after = pos.play(m);
            self.searcher.tick()?;
            // A game over before the last move ends the play: not a line of this length. It needs
            // no test here: a side checkmated in Baroque, or whose King was taken in Rococo, has no
            // move in play, so the search below finds no line. (A Rococo side that cannot keep its
            // King still has moves: the game goes on until the King is taken.)
            self.line.push(*m);
            let r = self.search(&after, plies - 1);
            self.line.pop();
            any |= r?;
            if self.count > self.enough {
                break;
            }
        }
        Ok(any)
    }
}

/// Lines found (the first [`MAX_LINES`]) and how many there are.
pub(crate) type Found<M> = (Vec<Vec<M>>, usize);

/// The positions of a line search's dead table: Zobrist keys with the plies left mixed in.
pub(crate) type DeadSet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// `found` sorted by the canonical names of their moves (lines of `stipulation` from `pos`).
pub(crate) fn sorted_lines<P: GamePosition>(
    pos: &P,
    stipulation: Stipulation,
    found: Vec<Vec<P::Move>>,
) -> Vec<Vec<P::Move>> {
    let mut named: Vec<(Vec<String>, Vec<P::Move>)> = found
        .into_iter()
        .map(|l| {
            let names = name_line(pos, stipulation, &l, Naming::default())
                .into_iter()
                .map(|i| i.notation)
                .collect();
            (names, l)
        })
        .collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    named.into_iter().map(|(_, l)| l).collect()
}

/// The helpmate lines of `plies` moves from `pos` (the first [`MAX_LINES`] found), sorted by the
/// canonical names of their moves, and how many there are; `Err` when the budget ran out first.
fn lines_of<P: GamePosition>(
    pos: &P,
    plies: u32,
    budget: &Budget,
    table: &super::tt::Table,
    enough: usize,
    target: Target,
) -> Result<Found<P::Move>, Stopped> {
    let searcher = Searcher::new(table, budget).aiming(target);
    let mut lines = Lines::new(searcher, plies, enough, None);
    let r = lines.search(pos, plies);
    let _ = lines.searcher.flush();
    r?;
    let count = lines.count;
    let stipulation = help_stipulation(target, plies / 2, plies % 2 == 1);
    Ok((sorted_lines(pos, stipulation, lines.found), count))
}

/// The moves N of a helpmate (or helpstalemate) and whether it is `h#N.5` (`h=N.5`); any other
/// stipulation is read as `h#N` (`h=N`) of its N.
fn help_moves(stipulation: Stipulation) -> (u32, bool) {
    match stipulation {
        Stipulation::HelpMate { moves, half } | Stipulation::HelpStalemate { moves, half } => {
            (moves, half)
        }
        other => (other.moves(), false),
    }
}

/// The helpmate or helpstalemate of `moves` (`half`: `.5`) aiming at `target`.
fn help_stipulation(target: Target, moves: u32, half: bool) -> Stipulation {
    match target {
        Target::Mate => Stipulation::HelpMate { moves, half },
        Target::Stalemate => Stipulation::HelpStalemate { moves, half },
    }
}

/// Solves a helpmate (`opts.stipulation` must be `h#N` or `h#N.5`; anything else is read as
/// `h#N` of its N) for `pos`, whose side to move is the one the stipulation starts with:
/// the shorter helpmates of the same start first, then the stipulated one. `intended` is the
/// number of solutions a sound helpmate has (1 unless its composer says otherwise).
pub fn solve_help<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
) -> HelpSolution<P::Move> {
    help_with(pos, opts, intended, false)
}

/// Like [`solve_help`], but for screening candidate puzzles: each length's search stops as soon as
/// the helpmate is shown unsound (a line of a shorter helpmate, or more than `intended` lines of
/// the stipulated one). What it answers is proven, but the lines and counts of an unsound
/// helpmate may be incomplete (`sound` is then `Some(false)` and `complete` false).
pub fn screen_help<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
) -> HelpSolution<P::Move> {
    help_with(pos, opts, intended, true)
}

fn help_with<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
    screening: bool,
) -> HelpSolution<P::Move> {
    let budget = Budget::within(opts.within.clone(), opts.limits, opts.cancel.clone());
    // The table is not used by the enumeration; the searcher's budget accounting needs one.
    let table = super::tt::Table::new(0);
    let (moves, half) = help_moves(opts.stipulation);
    let target = opts.stipulation.target();
    let stipulation = help_stipulation(target, moves, half);
    let first = if half { 0 } else { 1 };
    by_length(
        stipulation,
        first,
        intended,
        screening,
        &budget,
        |k, enough| {
            lines_of(
                pos,
                2 * k + u32::from(half),
                &budget,
                &table,
                enough,
                target,
            )
        },
    )
}

/// The report of a solve whose lines are searched length by length: `lines(k, enough)` finds
/// the lines of the stipulation's form with k moves (the first [`MAX_LINES`]) and how many there
/// are, stopping past `enough`; k runs from `first` to the stipulation's N, the shorter ones
/// making it unsound. Screening (see [`screen_help`]) stops at the first proof of unsoundness.
pub(crate) fn by_length<M>(
    stipulation: Stipulation,
    first: u32,
    intended: usize,
    screening: bool,
    budget: &Budget,
    mut lines: impl FnMut(u32, usize) -> Result<Found<M>, Stopped>,
) -> HelpSolution<M> {
    let moves = stipulation.moves();
    let mut short_solutions = Vec::new();
    let mut solutions = Vec::new();
    let (mut count, mut short_count, mut lines_truncated) = (0, 0, false);
    let mut complete = true;
    let mut proven = None;
    let mut all_empty = true;
    for k in first..=moves {
        let enough = match (screening, k == moves) {
            (false, _) => usize::MAX,
            (true, false) => 0,
            (true, true) => intended,
        };
        match lines(k, enough) {
            Ok((found, n)) if n > enough => {
                // Screening: unsound, and the search was cut short.
                complete = false;
                lines_truncated = true;
                if k == moves {
                    solutions = found;
                    count = n;
                } else {
                    short_count += n;
                    short_solutions.extend(found);
                }
                break;
            }
            Ok((found, n)) => {
                all_empty &= n == 0;
                if all_empty {
                    proven = Some(k);
                }
                lines_truncated |= found.len() < n;
                if k == moves {
                    solutions = found;
                    count = n;
                } else {
                    short_count += n;
                    short_solutions.extend(found);
                }
            }
            Err(Stopped) => {
                complete = false;
                break;
            }
        }
    }
    let sound = if complete {
        Some(short_count == 0 && count == intended)
    } else {
        (short_count > 0 || count > intended).then_some(false)
    };
    HelpSolution {
        stipulation,
        solutions,
        short_solutions,
        count,
        lines_truncated,
        complete,
        sound,
        proven_no_solution_within: proven.unwrap_or(0),
        nodes: budget.nodes(),
        millis: budget.elapsed().as_millis() as u64,
        budget_exhausted: budget.exhausted(),
        exhausted_by: budget.exhausted_by(),
    }
}

/// Lines of the stipulated helpmate (`opts.stipulation`, as [`solve_help`] reads it) whose moves
/// before the mating one all land near the King of the side mated: the first within `within`
/// King steps, the later ones within one step more (the King may have stepped away meanwhile);
/// the mating move is not narrowed. The search stops once it has found more than `enough` of
/// them, and answers those found (`Narrowed::Mate`, in the order found); under `opts`' limits and
/// cancel, with the nodes it took.
///
/// Each line found is a solution, so more than `enough` of them settle that a helpmate of
/// `enough` intended solutions is unsound; `NoMate` only says that no solution is that narrow.
/// What a puzzle generator asks first, to solve in full only the candidates that may be sound:
/// most candidates have no solution, and proving that is most of the work.
pub fn focused_help<P: GamePosition>(
    pos: &P,
    within: u32,
    opts: &SolveOptions,
    enough: usize,
) -> (Narrowed<Vec<Vec<P::Move>>>, u64) {
    let budget = Budget::with_cancel(opts.limits, opts.cancel.clone());
    let table = super::tt::Table::new(0);
    let (moves, half) = help_moves(opts.stipulation);
    let plies = 2 * moves + u32::from(half);
    // The side that does not make the last move is mated.
    let mated = if plies % 2 == 0 {
        pos.turn()
    } else {
        pos.turn().other()
    };
    let focus = Some((within, mated, plies));
    let searcher = Searcher::new(&table, &budget).aiming(opts.stipulation.target());
    let mut lines = Lines::new(searcher, plies, enough, focus);
    let r = lines.search(pos, plies);
    let _ = lines.searcher.flush();
    let answer = match r {
        Ok(true) => Narrowed::Mate(lines.found),
        Ok(false) => Narrowed::NoMate,
        Err(Stopped) => Narrowed::Stopped,
    };
    (answer, lines.searcher.nodes)
}

/// [`solve_help`] for a position of either game, run on its concrete type.
pub fn solve_help_any(
    pos: &VariantPosition,
    opts: &SolveOptions,
    intended: usize,
) -> HelpSolution<VariantMove> {
    struct Run<'a>(&'a SolveOptions, usize);
    impl Visit for Run<'_> {
        type Output = HelpSolution<VariantMove>;
        fn visit<P: GamePosition>(self, p: &P) -> HelpSolution<VariantMove> {
            solve_help(p, self.0, self.1).map(P::to_variant)
        }
    }
    pos.visit(Run(opts, intended))
}

/// The fewest plies, at most `plies`, of a helpmate line from `pos` that ends with White mating
/// Black (or, with `target` stalemate, stalemating it; the last ply is White's, so their parity is
/// fixed by the side to move); `None` when no line of at most `plies` plies does. What a site
/// playing a helpmate needs after each move.
///
/// # Errors
/// [`Stopped`] when the budget runs out.
pub fn shortest_help<P: GamePosition>(
    pos: &P,
    plies: u32,
    budget: &Budget,
    table: &super::tt::Table,
    target: Target,
) -> Result<Option<u32>, Stopped> {
    let first = if pos.turn() == crate::rules::Color::White {
        1
    } else {
        2
    };
    for q in (first..=plies).step_by(2) {
        let (_, count) = lines_of(pos, q, budget, table, 0, target)?;
        if count > 0 {
            return Ok(Some(q));
        }
    }
    Ok(None)
}
