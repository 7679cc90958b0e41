//! Depth-first proof search for "mate in n": AND/OR tree search with a transposition table.
//!
//! - OR nodes (attacker to move): some move leads to a won AND node. Move ordering: checking moves
//!   first, then captures; with one move left only a checkmating (or, under `stalemate: loss`, a
//!   stalemating) move can win, so only checks (and, under that option, every move) are tried.
//! - AND nodes (defender to move): every move leads to a won OR node. A defender without a legal move
//!   has lost when in check (checkmate) or when the rules say `stalemate: loss`. Defences are ordered
//!   captures and King moves first: they refute most often, which cuts the node early.
//! - Each result is stored in the shared table ([`super::tt`]) as a bound in attacker moves.

use super::tt::Table;
use super::Budget;
use crate::rules::{Move, MoveList, Position, Role, Stalemate};

/// The search was stopped by its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// Nodes counted locally before they are added to the shared count and the budget is checked.
const CHECK_EVERY: u64 = 1024;

/// One thread's searcher.
pub struct Searcher<'a> {
    pub(crate) table: &'a Table,
    pub(crate) budget: &'a Budget,
    /// Nodes this searcher visited.
    pub nodes: u64,
    pending: u64,
    bufs: Vec<MoveList>,
}

impl<'a> Searcher<'a> {
    pub fn new(table: &'a Table, budget: &'a Budget) -> Searcher<'a> {
        Searcher {
            table,
            budget,
            nodes: 0,
            pending: 0,
            bufs: Vec::new(),
        }
    }

    /// Counts a node; fails once the budget has run out.
    #[inline]
    pub fn tick(&mut self) -> Result<(), Stopped> {
        self.nodes += 1;
        self.pending += 1;
        if self.pending >= CHECK_EVERY {
            self.flush()?;
        }
        Ok(())
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

    fn take_buf(&mut self, ply: usize) -> MoveList {
        if self.bufs.len() <= ply {
            self.bufs.resize_with(ply + 1, || Vec::with_capacity(128));
        }
        std::mem::take(&mut self.bufs[ply])
    }

    fn give_buf(&mut self, ply: usize, buf: MoveList) {
        self.bufs[ply] = buf;
    }

    /// Whether the defender to move in `pos` has lost right now: no legal move, and in check (or
    /// stalemate counts as a loss).
    pub fn defender_lost(pos: &Position) -> bool {
        let check = pos.is_check();
        if !check && pos.rules().stalemate == Stalemate::Draw {
            return false;
        }
        !pos.has_legal_move()
    }

    /// OR node: can the side to move force mate within `n` of its moves?
    pub fn attack(&mut self, pos: &Position, n: u32, ply: usize) -> Result<bool, Stopped> {
        if n == 0 {
            return Ok(false);
        }
        let key = pos.hash();
        if let Some(known) = self.table.probe(key).answer(n) {
            return Ok(known);
        }
        let mut moves = self.take_buf(ply);
        pos.generate_legal(&mut moves);
        let result = self.attack_moves(pos, &moves, n, ply);
        self.give_buf(ply, moves);
        let wins = result?;
        self.table.store(key, n, wins);
        Ok(wins)
    }

    fn attack_moves(
        &mut self,
        pos: &Position,
        moves: &[Move],
        n: u32,
        ply: usize,
    ) -> Result<bool, Stopped> {
        let stalemate_wins = pos.rules().stalemate == Stalemate::Loss;
        // Checking moves first (they are the only ones that can mate next move).
        let mut quiet: Vec<(Move, Position)> = Vec::new();
        for m in moves {
            let after = pos.after(m);
            self.tick()?;
            if after.is_check() {
                if self.defend(&after, n - 1, ply + 1)? {
                    return Ok(true);
                }
            } else if n > 1 || stalemate_wins {
                quiet.push((*m, after));
            }
        }
        quiet.sort_by_key(|(m, _)| !m.is_capture());
        for (_, after) in &quiet {
            if self.defend(after, n - 1, ply + 1)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// AND node: does every defence lose to a mate within `n` attacker moves?
    pub fn defend(&mut self, pos: &Position, n: u32, ply: usize) -> Result<bool, Stopped> {
        if n == 0 {
            return Ok(Self::defender_lost(pos));
        }
        let key = pos.hash();
        if let Some(known) = self.table.probe(key).answer(n) {
            return Ok(known);
        }
        let mut moves = self.take_buf(ply);
        pos.generate_legal(&mut moves);
        let result = if moves.is_empty() {
            Ok(pos.is_check() || pos.rules().stalemate == Stalemate::Loss)
        } else {
            // Captures and King moves first: they refute most often.
            moves.sort_by_key(|m| !(m.is_capture() || m.role == Role::King));
            let mut all_lose = Ok(true);
            for m in moves.iter() {
                let after = pos.after(m);
                if let Err(e) = self.tick() {
                    all_lose = Err(e);
                    break;
                }
                match self.attack(&after, n, ply + 1) {
                    Ok(true) => {}
                    other => {
                        all_lose = other;
                        break;
                    }
                }
            }
            all_lose
        };
        self.give_buf(ply, moves);
        let lost = result?;
        self.table.store(key, n, lost);
        Ok(lost)
    }
}
