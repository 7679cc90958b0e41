//! Depth-first proof search for "mate in n": AND/OR tree search with a transposition table.
//!
//! - OR nodes (attacker to move): some move leads to a won AND node. Move ordering: checking moves
//!   first, then captures; with one move left only a checkmating (or, under `stalemate: loss`, a
//!   stalemating) move can win, so only checks (and, under that option, every move) are tried.
//! - AND nodes (defender to move): every move leads to a won OR node. A defender without a legal move
//!   has lost when in check (checkmate) or when the rules say `stalemate: loss`. Defences are ordered
//!   by the number of attacker replies they leave (fewest first), and at the last level captures and
//!   King moves first: both try the likeliest refutation early, which cuts the node.
//! - Each result is stored in the shared table ([`super::tt`]) as a bound in attacker moves.
//!
//! Which moves count is the game's ([`baroque_rules::SearchHooks::search_moves`], its legal moves in play), and
//! so is the goal ([`baroque_rules::SearchHooks::lost`]). The one pruning, in a direct mate only: moves that
//! [lose at once](baroque_rules::SearchHooks::loses_at_once) (in Rococo, those that leave the mover's King
//! capturable without taking the enemy King) are skipped at both kinds of node, which changes no
//! answer:
//! - an attacker's such move never wins: it does not mate (the defender's move that takes the
//!   King saves the defender), and after it the defender takes the attacker's King, which ends the
//!   game without the defender mated;
//! - a defender's such move never escapes while the attacker has a move left (an AND node with
//!   `n >= 1`): the attacker takes the King, and a King taken is mated.
//!
//! A searcher [aimed](Searcher::aiming) at a stalemate ([`Target::Stalemate`]: `=N`, `s=N`) proves
//! that goal with the same nodes, its last test being [`baroque_rules::SearchHooks::stalemated`],
//! and none of the mate-only prunings: a stalemating move gives no check, a King's capture
//! stalemates nobody, and a defender's move that leaves its King capturable may escape a
//! stalemate. Its own pruning is at the last move: a move after which the defender surely still
//! has a move (shown without making it) is not tried, and the last move that stalemated at that
//! ply before is tried first, before the others are generated.
//!
//! A selfmate counts every move: there a defender's move that leaves its King capturable is a
//! defence (the attacker may take it and is then not mated), and an attacker's may be a key.

use super::tt::Table;
use super::{Budget, Target};
use crate::rules::{GamePosition, SquareSet};

/// The search was stopped by its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Nodes counted locally before they are added to the shared count and the node limit is checked.
/// (The node limit is what decides a generated candidate, so this stays as the figures were made.)
pub const CHECK_EVERY: u64 = 1024;
/// Units of work (nodes, and the work between them) after which the clock and the cancel flag are
/// read. The dearest unit is a move generation with a legality test of each move (tens of
/// microseconds on a crowded Rococo board), so the clock is read every few milliseconds at worst.
pub const CLOCK_EVERY: u32 = 64;

/// What the attacker plays for: a direct mate (`#N`) or stalemate (`=N`), or a selfmate (`s#N`)
/// or selfstalemate (`s=N`). The solution tree, threats and tries are built the same way for all,
/// through [`Searcher::after_attack`] and [`Searcher::after_defence`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The attacker mates the defender.
    Mate,
    /// The attacker forces the defender to mate it.
    SelfMate,
    /// The attacker stalemates the defender.
    Stalemate,
    /// The attacker forces the defender to stalemate it.
    SelfStalemate,
    /// A reflexmate (`r#N`): a selfmate where a side that can mate in one must.
    Reflex,
    /// A semi-reflexmate (`semi-r#N`): only the defender must mate when it can.
    SemiReflex,
}

impl Goal {
    /// The goal of a stipulation the attacker forces (`None` for a helpmate, a helpstalemate or a
    /// series mover, whose answers are lines).
    pub fn of(stipulation: crate::Stipulation) -> Option<Goal> {
        use crate::Stipulation as S;
        match stipulation {
            S::Mate(_) => Some(Goal::Mate),
            S::SelfMate(_) => Some(Goal::SelfMate),
            S::Stalemate(_) => Some(Goal::Stalemate),
            S::SelfStalemate(_) => Some(Goal::SelfStalemate),
            S::ReflexMate(_) => Some(Goal::Reflex),
            S::SemiReflexMate(_) => Some(Goal::SemiReflex),
            S::HelpMate { .. }
            | S::HelpStalemate { .. }
            | S::SeriesMate(_)
            | S::SeriesStalemate(_)
            | S::SeriesSelfMate(_)
            | S::SeriesHelpMate(_) => None,
        }
    }

    /// Whether the attacker's own move reaches it (`#N`, `=N`), not the defender's.
    pub fn is_direct(self) -> bool {
        matches!(self, Goal::Mate | Goal::Stalemate)
    }

    /// The position it ends in.
    pub fn target(self) -> Target {
        match self {
            Goal::Mate | Goal::SelfMate | Goal::Reflex | Goal::SemiReflex => Target::Mate,
            Goal::Stalemate | Goal::SelfStalemate => Target::Stalemate,
        }
    }

    /// Who must mate in one when they can: [`Duty::Both`] in `r#N`, [`Duty::Defender`] in
    /// `semi-r#N`, [`Duty::None`] otherwise.
    pub fn duty(self) -> Duty {
        match self {
            Goal::Reflex => Duty::Both,
            Goal::SemiReflex => Duty::Defender,
            _ => Duty::None,
        }
    }

    /// Whether the moves that lose at once may be left out (a direct mate's only: see the
    /// module's doc; a stalemate is not reached by taking a King, and a defender's move that
    /// leaves its King capturable may escape one).
    pub fn drops_losing(self) -> bool {
        self == Goal::Mate
    }
}

/// Who must mate in one when they can (the reflexmates' rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Duty {
    /// Nobody: the selfmate's rule.
    #[default]
    None,
    /// The defender (Black) only: `semi-r#N`.
    Defender,
    /// Both sides: `r#N`.
    Both,
}

/// Keeps, of `moves` (moves of `pos`), only the mating ones when `bound` (a side a reflexmate
/// binds) and there are any: the moves the stipulation allows that side.
pub(crate) fn keep_duty<P: GamePosition>(pos: &P, bound: bool, moves: &mut Vec<P::Move>) {
    if bound && moves.iter().any(|m| pos.play(m).lost()) {
        moves.retain(|m| pos.play(m).lost());
    }
}

/// Whether the side to move in `pos` is beaten as `target` asks: mated or stalemated.
#[inline]
pub fn reached<P: GamePosition>(target: Target, pos: &P) -> bool {
    match target {
        Target::Mate => pos.lost(),
        Target::Stalemate => pos.stalemated(),
    }
}

/// [`reached`] when whether the side to move is in check is known.
#[inline]
pub(crate) fn reached_in<P: GamePosition>(target: Target, pos: &P, in_check: bool) -> bool {
    match target {
        Target::Mate => pos.lost_in(in_check),
        Target::Stalemate => pos.stalemated_in(in_check),
    }
}

/// The squares within `steps` King steps of `king` on a square board `files` wide.
fn squares_within(king: u8, steps: u32, files: u32) -> SquareSet {
    let (file, rank) = (u32::from(king) % files, u32::from(king) / files);
    let (lo, hi) = (
        file.saturating_sub(steps),
        file.saturating_add(steps).min(files - 1),
    );
    // The files lo..=hi of one rank.
    let row: SquareSet = ((1 << (hi - lo + 1)) - 1) << lo;
    (rank.saturating_sub(steps)..=rank.saturating_add(steps).min(files - 1))
        .fold(0, |set, r| set | row << (r * files))
}

/// The search moves of `pos` landing within `within` King steps of `side`'s King, written into
/// `out`: every search move when that King is gone (in Rococo it may be taken).
pub(crate) fn search_moves_near_king<P: GamePosition>(
    pos: &P,
    side: crate::rules::Color,
    within: u32,
    out: &mut Vec<P::Move>,
) {
    match pos.king(side) {
        Some(king) => {
            let files = u32::from(pos.variant().kind().files());
            pos.search_moves_to(squares_within(king, within, files), out);
        }
        None => pos.search_moves(out),
    }
}

/// One thread's searcher.
pub struct Searcher<'a, P: GamePosition> {
    pub(crate) table: &'a Table,
    pub(crate) budget: &'a Budget,
    /// Nodes this searcher visited.
    pub nodes: u64,
    pending: u64,
    /// Units of work since the clock was last read.
    since_clock: u32,
    bufs: Vec<Vec<P::Move>>,
    /// Per ply: the attacker's non-checking moves, tried after the checks.
    quiet: Vec<Vec<P::Move>>,
    /// Per ply: the last defences that refuted there (killer moves), newest first.
    killers: Vec<[Option<P::Move>; 2]>,
    /// Per ply: the attacker's last move that won there, tried first at the next last move of a
    /// stalemate at that ply (see [`Searcher::winner_wins`]).
    winners: Vec<Option<P::Move>>,
    /// When set, the attacker's moves before its last one only land near the defender's King:
    /// within this many King steps on its first move (see [`Searcher::focused`]).
    focus: Option<u32>,
    /// The move with which the last search from the root ([`Searcher::attack`] at ply 0) won.
    pub first_win: Option<P::Move>,
    /// What the goal of its searches ends in (mate unless [`Searcher::aiming`] says otherwise).
    target: Target,
    /// Who must mate in one when they can, in its reflexmate searches ([`Searcher::bound`]).
    duty: Duty,
}

impl<'a, P: GamePosition> Searcher<'a, P> {
    pub fn new(table: &'a Table, budget: &'a Budget) -> Searcher<'a, P> {
        Searcher {
            table,
            budget,
            nodes: 0,
            pending: 0,
            since_clock: 0,
            bufs: Vec::new(),
            quiet: Vec::new(),
            killers: Vec::new(),
            winners: Vec::new(),
            focus: None,
            first_win: None,
            target: Target::Mate,
            duty: Duty::None,
        }
    }

    /// A searcher whose reflexmate searches ([`Searcher::reflex_attack`],
    /// [`Searcher::reflex_defend`]) bind `duty` to mate in one when they can.
    pub fn bound(mut self, duty: Duty) -> Self {
        self.duty = duty;
        self
    }

    /// A searcher whose goals end in `target`: [`Searcher::attack`] and [`Searcher::defend`]
    /// then prove `=N` rather than `#N`, and the selfmate searches `s=N` rather than `s#N`.
    pub fn aiming(mut self, target: Target) -> Self {
        self.target = target;
        self
    }

    /// What its goals end in.
    pub fn target(&self) -> Target {
        self.target
    }

    /// Whether only a checking move can reach the goal in one move here (a mate, where the game
    /// says only checks mate): the search's pruning at the last move.
    #[inline]
    pub(crate) fn only_checks(&self, pos: &P) -> bool {
        self.target == Target::Mate && pos.only_checks_mate()
    }

    /// Drops the moves that lose at once, in a direct mate (see [`Goal::drops_losing`]).
    #[inline]
    fn drop_losing(&self, pos: &P, moves: &mut Vec<P::Move>) {
        if self.target == Target::Mate {
            pos.drop_moves_losing_at_once(moves);
        }
    }

    /// A searcher whose attacker, before its last move, only plays moves landing near the
    /// defender's King: its first move within `within` King steps, its later ones within one step
    /// more (the King may have stepped away meanwhile); its last move, the mating one, is not
    /// narrowed.
    ///
    /// Its "no" is not a proof that no mate exists (a mate may start far from the King; the table
    /// may also answer a position from a search narrowed differently, at another ply), but its
    /// "yes" is a mate: a mate of the narrowed attacker is one of the real attacker, since the
    /// defender keeps every defence. What a puzzle generator asks first, to spend the full search
    /// only on candidates with a mate near the King (most keys of generated mates land next to
    /// it), since most candidates have no mate at all and proving that costs the most.
    pub fn focused(mut self, within: u32) -> Self {
        self.focus = Some(within);
        self
    }

    /// Counts a node; fails once the budget has run out.
    #[inline]
    pub fn tick(&mut self) -> Result<(), Stopped> {
        self.nodes += 1;
        self.pending += 1;
        if self.pending >= CHECK_EVERY {
            return self.flush();
        }
        self.poll()
    }

    /// Counts a unit of work that is not a node (ordering moves, probing for the tree); fails once
    /// the budget has run out. Reads the stop flag every time and the clock every
    /// [`CLOCK_EVERY`] units.
    #[inline]
    pub fn poll(&mut self) -> Result<(), Stopped> {
        self.since_clock += 1;
        let on = if self.since_clock >= CLOCK_EVERY {
            self.since_clock = 0;
            self.budget.on_time()
        } else {
            !self.budget.exhausted()
        };
        if on {
            Ok(())
        } else {
            Err(Stopped)
        }
    }

    /// Adds the local count to the shared one and checks the budget.
    pub fn flush(&mut self) -> Result<(), Stopped> {
        let n = std::mem::take(&mut self.pending);
        if self.budget.spend(n) {
            Ok(())
        } else {
            Err(Stopped)
        }
    }

    fn take_buf(&mut self, ply: usize) -> Vec<P::Move> {
        if self.bufs.len() <= ply {
            self.bufs.resize_with(ply + 1, || Vec::with_capacity(128));
        }
        std::mem::take(&mut self.bufs[ply])
    }

    fn give_buf(&mut self, ply: usize, buf: Vec<P::Move>) {
        self.bufs[ply] = buf;
    }

    /// Whether some move of `moves` passes `test`, the budget ticked before each: the first that
    /// does ends the loop, as does the first error.
    fn any_move(
        &mut self,
        moves: &[P::Move],
        mut test: impl FnMut(&mut Self, &P::Move) -> Result<bool, Stopped>,
    ) -> Result<bool, Stopped> {
        for m in moves {
            self.tick()?;
            if test(self, m)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether every move of `moves` passes `test` (true for none), the budget ticked before
    /// each: the first that fails ends the loop, as does the first error.
    fn every_move(
        &mut self,
        moves: &[P::Move],
        mut test: impl FnMut(&mut Self, &P::Move) -> Result<bool, Stopped>,
    ) -> Result<bool, Stopped> {
        self.any_move(moves, |s, m| test(s, m).map(|passes| !passes))
            .map(|failed| !failed)
    }

    /// OR node: can the side to move force mate within `n` of its moves?
    pub fn attack(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        if n == 0 {
            return Ok(false);
        }
        let key = pos.key();
        if let Some(known) = self.table.probe(key).answer(n) {
            return Ok(known);
        }
        if n == 1 && self.target == Target::Stalemate && self.winner_wins(pos, ply)? {
            self.table.store(key, n, true);
            return Ok(true);
        }
        let mut moves = self.take_buf(ply);
        // The last move, where only one that gives check can mate: the checks alone.
        let all_check = n == 1 && self.only_checks(pos);
        if all_check {
            pos.search_checks(&mut moves);
        } else {
            match self.focus {
                Some(within) if n > 1 => {
                    let reach = within.saturating_add(u32::from(ply > 0));
                    search_moves_near_king(pos, pos.turn().other(), reach, &mut moves);
                }
                _ => pos.search_moves(&mut moves),
            }
        }
        // A direct mate: the attacker's moves that lose at once never win (see the module's doc).
        self.drop_losing(pos, &mut moves);
        if n == 1 {
            self.drop_unstalemating(pos, ply, &mut moves);
        }
        let result = self.attack_moves(pos, &moves, n, ply, all_check);
        self.give_buf(ply, moves);
        let wins = result?;
        self.table.store(key, n, wins);
        Ok(wins)
    }

    /// Whether the attacker's last winning move of `ply`, made for `pos` (by
    /// [`baroque_rules::SearchHooks::search_move_like`], a legal move of `pos`), is a last move
    /// that reaches the goal here too: tried before the moves are generated, where the goal is a
    /// stalemate (one stalemating move often answers many defences, and proving a stalemate
    /// costs more than a mate: every last move is a candidate, not only the checks; measured on
    /// mates, it cost more than it spared). Its "yes" is a win like any other move's (the focus,
    /// which only narrows which moves are tried, does not bind it); its "no" leaves the node to
    /// the full search.
    fn winner_wins(&mut self, pos: &P, ply: usize) -> Result<bool, Stopped> {
        let Some(like) = self.winners.get(ply).copied().flatten() else {
            return Ok(false);
        };
        let Some(m) = pos.search_move_like(&like) else {
            return Ok(false);
        };
        self.tick()?;
        // A stalemating move gives no check (and is not even made when it does).
        let wins = !pos.gives_check(&m) && reached_in(self.target, &pos.play(&m), false);
        if wins {
            self.wins_with(ply, &m);
        }
        Ok(wins)
    }

    /// [`Searcher::attack`] over `moves`; `all_check`: each of them gives check.
    fn attack_moves(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        n: u32,
        ply: usize,
        all_check: bool,
    ) -> Result<bool, Stopped> {
        if self.quiet.len() <= ply {
            self.quiet.resize_with(ply + 1, Vec::new);
        }
        let mut quiet = std::mem::take(&mut self.quiet[ply]);
        quiet.clear();
        let result = self.checks_then_quiet(pos, moves, &mut quiet, n, ply, all_check);
        self.quiet[ply] = quiet;
        result
    }

    /// Checking moves first (in Baroque, with stalemate a draw, the only ones that can mate next),
    /// then the others, captures first. `all_check`: every move of `moves` gives check.
    fn checks_then_quiet(
        &mut self,
        pos: &P,
        moves: &[P::Move],
        quiet: &mut Vec<P::Move>,
        n: u32,
        ply: usize,
        all_check: bool,
    ) -> Result<bool, Stopped> {
        let only_checks = self.only_checks(pos);
        for m in moves {
            self.tick()?;
            // Whether it gives check, before the position after it is made (most do not).
            let check = all_check || pos.gives_check(m);
            if n == 1 {
                // The last move: whether it mates is answered here, quiet ones too where they can
                // (the order does not matter when no move is searched further).
                // A mate needs a check where only checks mate; a stalemate needs none (so a
                // checking move is not even made).
                let may = match self.target {
                    Target::Mate => check || !only_checks,
                    Target::Stalemate => !check,
                };
                if may && reached_in(self.target, &pos.play(m), check) {
                    return Ok(self.wins_with(ply, m));
                }
            } else if check {
                if self.defend(&pos.play(m), n - 1, ply + 1)? {
                    return Ok(self.wins_with(ply, m));
                }
            } else {
                quiet.push(*m);
            }
        }
        for m in in_two_passes(quiet, |m| P::is_capture(m)) {
            if self.defend(&pos.play(m), n - 1, ply + 1)? {
                return Ok(self.wins_with(ply, m));
            }
        }
        Ok(false)
    }

    /// Where a stalemate is the goal, drops from `moves` (the last moves of the side to move in
    /// `pos`) those after which the other side surely still has a move, shown without making
    /// them ([`baroque_rules::SearchHooks::drop_moves_leaving_a_reply`]): none of them
    /// stalemates it. The other side's refutations at `ply + 1` are tried first as that move.
    /// The answer is the same; most last moves of `=N`, `h=N` and `ser-=N` are never made.
    pub(crate) fn drop_unstalemating(&self, pos: &P, ply: usize, moves: &mut Vec<P::Move>) {
        if self.target == Target::Stalemate {
            pos.drop_moves_leaving_a_reply(moves, &self.killers_at(ply + 1));
        }
    }

    /// Notes `m` as the winning first move when `ply` is the root's, and where the goal is a
    /// stalemate as the winning move of `ply` ([`Searcher::winner_wins`]); true.
    fn wins_with(&mut self, ply: usize, m: &P::Move) -> bool {
        if ply == 0 {
            self.first_win = Some(*m);
        }
        if self.target == Target::Stalemate {
            if self.winners.len() <= ply {
                self.winners.resize(ply + 1, None);
            }
            self.winners[ply] = Some(*m);
        }
        true
    }

    /// AND node: does every defence lose to a mate within `n` attacker moves?
    pub fn defend(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        if n == 0 {
            return Ok(reached(self.target, pos));
        }
        let key = pos.key();
        if let Some(known) = self.table.probe(key).answer(n) {
            return Ok(known);
        }
        let lost = self.every_defence_loses(pos, n, ply)?;
        self.table.store(key, n, lost);
        Ok(lost)
    }

    /// The work of [`Searcher::defend`] once the table has no answer.
    ///
    /// The defences that refuted at this ply elsewhere in the tree (killers) are tried first, each
    /// made for this position by [`baroque_rules::SearchHooks::search_move_like`] without generating the other
    /// moves: one defence often refutes many attacker moves (the King stepping out, the capture of
    /// the attacking piece, or, where the attacker threatens nothing, any move at all), and
    /// finding it first spares the generation and the ordering below. A killer so made is a legal
    /// move of this position; the order changes the work, never the answer.
    fn every_defence_loses(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        let escapes = |s: &mut Self, m: &P::Move| Ok(!s.attack(&pos.play(m), n, ply + 1)?);
        // (With `n >= 1` the defender's moves that lose at once never escape a mate: see the
        // module's doc.)
        let safe = self.target == Target::Mate;
        let Some(tried) = self.try_killers(pos, ply, safe, escapes)? else {
            return Ok(false);
        };
        let mut moves = self.take_buf(ply);
        pos.search_moves(&mut moves);
        self.drop_losing(pos, &mut moves);
        let result = if moves.is_empty() {
            // No move, or none that keeps the King: lost, or a draw; stalemated, or not.
            Ok(reached(self.target, pos))
        } else {
            self.refute(pos, &mut moves, &tried, n, ply)
                .map(|refuted| !refuted)
        };
        self.give_buf(ply, moves);
        result
    }

    /// Tries the killers of `ply`, made for `pos`, with `escapes` (whether that defence escapes
    /// the attacker): `None` once one escapes (it stays the newest killer), else the moves tried,
    /// for the full list to skip. `safe`: only those that do not lose at once.
    fn try_killers(
        &mut self,
        pos: &P,
        ply: usize,
        safe: bool,
        escapes: impl Fn(&mut Self, &P::Move) -> Result<bool, Stopped>,
    ) -> Result<Option<[Option<P::Move>; 2]>, Stopped> {
        let mut tried = [None; 2];
        for (slot, k) in tried.iter_mut().zip(self.killers_at(ply)) {
            let made = k.and_then(|k| pos.search_move_like(&k));
            let Some(m) = made.filter(|m| !safe || !pos.loses_at_once(m)) else {
                continue;
            };
            self.tick()?;
            if escapes(self, &m)? {
                self.remember_refutation(ply, m);
                return Ok(None);
            }
            *slot = Some(m);
        }
        Ok(Some(tried))
    }

    /// Whether some defence among `moves` (the defender's moves in `pos`, not empty), other than
    /// those `tried`, escapes a mate within `n` attacker moves.
    fn refute(
        &mut self,
        pos: &P,
        moves: &mut [P::Move],
        tried: &[Option<P::Move>],
        n: u32,
        ply: usize,
    ) -> Result<bool, Stopped> {
        // With more than one attacker move left: the defences that leave the attacker the fewest
        // replies first (a cheap proof-number estimate; measured: 35-42% fewer nodes on midgame
        // #3 proofs). With one left: captures and King moves first, which refute most often.
        if n > 1 {
            self.order_by_replies(pos, moves)?;
        }
        let first = |m: &P::Move| n == 1 && (P::is_capture(m) || P::is_king_move(m));
        for m in in_two_passes(moves, first) {
            if tried.contains(&Some(*m)) {
                continue;
            }
            self.tick()?;
            if !self.attack(&pos.play(m), n, ply + 1)? {
                self.remember_refutation(ply, *m);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether a killer of `ply`, made for `pos`, is a move that does not give check.
    fn killer_does_not_check(&self, pos: &P, ply: usize) -> bool {
        self.killers_at(ply)
            .iter()
            .flatten()
            .any(|k| pos.quiet_move_like(k).is_some())
    }

    /// The killers of `ply`, newest first (moves of other positions: make them for a position
    /// with [`baroque_rules::SearchHooks::search_move_like`]).
    pub fn killers_at(&self, ply: usize) -> [Option<P::Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// Keeps `m` as the newest killer of `ply`.
    fn remember_refutation(&mut self, ply: usize, m: P::Move) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None; 2]);
        }
        let slot = &mut self.killers[ply];
        if slot[0] != Some(m) {
            slot[1] = slot[0];
            slot[0] = Some(m);
        }
    }

    /// OR node of a selfmate (`s#n`): can the side to move (White) force the other side to mate
    /// it within `n` of its own moves?
    pub fn self_attack(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        if n == 0 {
            return Ok(false);
        }
        let key = pos.key();
        if let Some(known) = self.table.probe(key).answer(n) {
            return Ok(known);
        }
        let mut moves = self.take_buf(ply);
        pos.search_moves(&mut moves);
        if n == 1 && self.only_checks(pos) {
            // White's last move: those that surely leave Black a move that gives no check (the
            // last that refuted there tried first as that move) are refuted without being made.
            pos.drop_moves_leaving_a_quiet_reply(&mut moves, &self.killers_at(ply + 1));
        }
        let result = self.any_move(&moves, |s, m| s.self_defend(&pos.play(m), n - 1, ply + 1));
        self.give_buf(ply, moves);
        let wins = result?;
        self.table.store(key, n, wins);
        Ok(wins)
    }

    /// AND node of a selfmate: the side to move (Black, the defender) has a move, and each of its
    /// moves either mates the other side or leaves it a forced selfmate within `n` more moves.
    /// With `n == 0`, every move must mate.
    ///
    /// Its results are stored one up (as for `n + 1` attacker moves; only selfmate AND nodes are
    /// stored so, and they have keys of their own), so that the last level, `n == 0`, is stored
    /// too (the table's 0 means "nothing known"): the same position after White's last move is
    /// reached by many orders of White's quiet moves. The answer is monotone in `n` (a Black move
    /// that mates still mates with more moves left), as the table's bounds assume.
    pub fn self_defend(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        let key = pos.key();
        if let Some(known) = self.table.probe(key).answer(n + 1) {
            return Ok(known);
        }
        if n == 0 && self.only_checks(pos) {
            // Every move must mate, so every one must give check: one that cannot refutes (found
            // without testing the legality of the others), the last one that did tried first.
            let refuted = if self.killer_does_not_check(pos, ply) {
                true
            } else if let Some(m) = pos.quiet_search_move() {
                self.remember_refutation(ply, m);
                true
            } else {
                false
            };
            if refuted {
                self.table.store(key, n + 1, false);
                return Ok(false);
            }
        }
        let lost = self.every_self_defence_loses(pos, n, ply)?;
        self.table.store(key, n + 1, lost);
        Ok(lost)
    }

    /// The work of [`Searcher::self_defend`] past the table and the quick refutation: the
    /// killers first (see [`Searcher::every_defence_loses`]), then every move.
    fn every_self_defence_loses(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        // With no attacker move left where only checks mate, the killers are the quiet moves
        // tried above (by whether they give check).
        let quiet_killers = n == 0 && self.only_checks(pos);
        let tried = if quiet_killers {
            [None; 2]
        } else {
            let escapes = |s: &mut Self, m: &P::Move| Ok(!s.self_defence_loses(pos, m, n, ply)?);
            let Some(tried) = self.try_killers(pos, ply, false, escapes)? else {
                return Ok(false);
            };
            tried
        };
        let mut moves = self.take_buf(ply);
        pos.search_moves(&mut moves);
        let mut result = Ok(!moves.is_empty());
        // With no White move left, moves that cannot mate first: a refutation ends the node.
        let first = |m: &P::Move| n == 0 && !(P::is_capture(m) || P::is_king_move(m));
        for m in in_two_passes(&moves, first) {
            if tried.contains(&Some(*m)) {
                continue;
            }
            let holds = self
                .tick()
                .and_then(|()| self.self_defence_loses(pos, m, n, ply));
            match holds {
                Ok(true) => {}
                Ok(false) => {
                    if !quiet_killers {
                        self.remember_refutation(ply, *m);
                    }
                    result = Ok(false);
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.give_buf(ply, moves);
        result
    }

    /// Whether the defence `m` in `pos` still loses the selfmate: it mates the attacker, or leaves
    /// the attacker a forced selfmate within `n` of its moves.
    fn self_defence_loses(
        &mut self,
        pos: &P,
        m: &P::Move,
        n: u32,
        ply: usize,
    ) -> Result<bool, Stopped> {
        let after = pos.play(m);
        if reached(self.target, &after) {
            Ok(true)
        } else if n == 0 {
            Ok(false)
        } else {
            self.self_attack(&after, n, ply + 1)
        }
    }

    /// Whether the side to move in `pos` has a move that mates (the other side has then lost).
    fn mates_in_one(&mut self, pos: &P, ply: usize) -> Result<bool, Stopped> {
        let mut moves = self.take_buf(ply);
        if pos.only_checks_mate() {
            pos.search_checks(&mut moves);
        } else {
            pos.search_moves(&mut moves);
        }
        let found = self.any_move(&moves, |_, m| Ok(pos.play(m).lost()));
        self.give_buf(ply, moves);
        found
    }

    /// OR node of a reflexmate (`r#n`, `semi-r#n`): can White, to move, force Black to mate it
    /// within `n` of its own moves, with Black bound to mate whenever it can (and, in `r#n`,
    /// White failing wherever it can mate)?
    pub fn reflex_attack(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        if n == 0 {
            return Ok(false);
        }
        let key = pos.key();
        if let Some(known) = self.table.probe(key).answer(n) {
            return Ok(known);
        }
        // In `r#n` a White that can mate must, and mating Black fails the play.
        if self.duty == Duty::Both && self.mates_in_one(pos, ply)? {
            self.table.store(key, n, false);
            return Ok(false);
        }
        let mut moves = self.take_buf(ply);
        pos.search_moves(&mut moves);
        let result = self.any_move(&moves, |s, m| s.reflex_defend(&pos.play(m), n - 1, ply + 1));
        self.give_buf(ply, moves);
        let wins = result?;
        self.table.store(key, n, wins);
        Ok(wins)
    }

    /// AND node of a reflexmate: Black, to move, mates White when it can (every move it may then
    /// play mates: the goal); else it has a move, and each leaves White a reflexmate within `n`
    /// more White moves (with `n == 0`, none does). Stored one up, as [`Searcher::self_defend`].
    pub fn reflex_defend(&mut self, pos: &P, n: u32, ply: usize) -> Result<bool, Stopped> {
        let key = pos.key();
        if let Some(known) = self.table.probe(key).answer(n + 1) {
            return Ok(known);
        }
        let lost = if self.mates_in_one(pos, ply)? {
            true
        } else if n == 0 {
            false
        } else {
            let mut moves = self.take_buf(ply);
            pos.search_moves(&mut moves);
            let result = if moves.is_empty() {
                Ok(false)
            } else {
                self.every_move(&moves, |s, m| s.reflex_attack(&pos.play(m), n, ply + 1))
            };
            self.give_buf(ply, moves);
            result?
        };
        self.table.store(key, n + 1, lost);
        Ok(lost)
    }

    /// After an attacker move (the defender to move in `pos`): does the attacker reach `goal`
    /// within `n` more of its own moves, against every defence?
    pub fn after_attack(
        &mut self,
        goal: Goal,
        pos: &P,
        n: u32,
        ply: usize,
    ) -> Result<bool, Stopped> {
        debug_assert_eq!(
            goal.target(),
            self.target,
            "a searcher aims at its goal's target"
        );
        debug_assert_eq!(
            goal.duty(),
            self.duty,
            "a searcher is bound by its goal's duty"
        );
        if goal.is_direct() {
            self.defend(pos, n, ply)
        } else if goal.duty() != Duty::None {
            self.reflex_defend(pos, n, ply)
        } else {
            self.self_defend(pos, n, ply)
        }
    }

    /// After a defender move (the attacker to move in `pos`): has the attacker reached `goal`
    /// (in a selfmate: the defender's move mated it), or does it reach it within `n` of its
    /// moves?
    pub fn after_defence(
        &mut self,
        goal: Goal,
        pos: &P,
        n: u32,
        ply: usize,
    ) -> Result<bool, Stopped> {
        debug_assert_eq!(
            goal.target(),
            self.target,
            "a searcher aims at its goal's target"
        );
        debug_assert_eq!(
            goal.duty(),
            self.duty,
            "a searcher is bound by its goal's duty"
        );
        if goal.is_direct() {
            self.attack(pos, n, ply)
        } else if reached(self.target, pos) {
            Ok(true)
        } else if goal.duty() != Duty::None {
            self.reflex_attack(pos, n, ply)
        } else {
            self.self_attack(pos, n, ply)
        }
    }

    /// Orders defences by the number of replies they leave the attacker, fewest first (stable, so
    /// equal ones keep the generator's order). Each reply count is a move generation, counted as
    /// work (the clock is read as it goes).
    fn order_by_replies(&mut self, pos: &P, moves: &mut [P::Move]) -> Result<(), Stopped> {
        let mut replies = Vec::new();
        let mut keyed = Vec::with_capacity(moves.len());
        for m in moves.iter() {
            self.poll()?;
            let after = pos.play(m);
            after.search_moves(&mut replies);
            self.drop_losing(&after, &mut replies);
            keyed.push((replies.len(), *m));
        }
        keyed.sort_by_key(|&(k, _)| k);
        for (slot, (_, m)) in moves.iter_mut().zip(keyed) {
            *slot = m;
        }
        Ok(())
    }
}

/// The moves for which `first` holds, then the others, each in their order: what a stable sort on
/// `!first` gives, without sorting (these lists are ordered at every node).
pub(super) fn in_two_passes<M>(
    moves: &[M],
    first: impl Fn(&M) -> bool + Copy,
) -> impl Iterator<Item = &M> {
    moves
        .iter()
        .filter(move |m| first(m))
        .chain(moves.iter().filter(move |m| !first(m)))
}

#[cfg(test)]
mod tests {
    use super::squares_within;

    /// The squares within so many King steps, on both boards, are those whose file and rank
    /// distances are both at most that.
    #[test]
    fn squares_within_are_those_so_many_king_steps_away() {
        for files in [8u32, 10] {
            for king in 0..files * files {
                for steps in 0..=files {
                    let set = squares_within(king as u8, steps, files);
                    for sq in 0..128u32 {
                        let near = sq < files * files
                            && (sq % files).abs_diff(king % files) <= steps
                            && (sq / files).abs_diff(king / files) <= steps;
                        assert_eq!(set >> sq & 1 == 1, near, "{files} {king} {steps} {sq}");
                    }
                }
            }
        }
    }
}
