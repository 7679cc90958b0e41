//! What problemists read besides the keys of a direct mate or a selfmate: the threat of each key
//! and the tries.
//!
//! - The threat of a key that needs `k` moves: the attacker's moves that would reach the goal
//!   within `k - 1` moves were the defender allowed to pass after the key (none when passing is
//!   not legal: the key gives check; none for a key of one move).
//! - A try: a first move that is not a key and fails to at most `max` defences, its refutations
//!   (the defences after which the attacker no longer reaches the goal in time). A first move
//!   after which the defender has no move at all fails without a refutation and is no try.
//!
//! Both are answered with the solve's table and budget, so they reuse what the keys' proofs
//! stored.

use super::search::{in_two_passes, keep_duty, Duty, Goal, Searcher, Stopped};
use crate::rules::GamePosition;

/// The threat of `key` in `pos`, a key of `goal` in `length` moves: every attacker move that
/// would reach the goal within `length - 1` moves after the key and a pass.
///
/// # Errors
/// [`Stopped`] when the budget runs out.
pub fn threat<P: GamePosition>(
    s: &mut Searcher<'_, P>,
    goal: Goal,
    pos: &P,
    key: &P::Move,
    length: u32,
) -> Result<Vec<P::Move>, Stopped> {
    let mut found = Vec::new();
    if length < 2 {
        return Ok(found);
    }
    let Some(null) = pos.play(key).null_move() else {
        return Ok(found);
    };
    let mut moves = Vec::new();
    null.search_moves(&mut moves);
    if goal.drops_losing() {
        // They never mate in time (see `search`'s doc).
        null.drop_moves_losing_at_once(&mut moves);
    }
    if goal == Goal::Stalemate && length == 2 {
        // A last move after which the defender surely has a move stalemates nobody.
        null.drop_moves_leaving_a_reply(&mut moves, &[]);
    }
    for m in moves {
        s.tick()?;
        if s.after_attack(goal, &null.play(&m), length - 2, 1)? {
            found.push(m);
        }
    }
    Ok(found)
}

/// The length of each of `threats`, threats of `key` in `pos` for `goal` in `length` moves (see
/// [`threat`]): the fewest attacker moves, the threat included, in which it reaches the goal after
/// the key and a pass. A threat reaches it within `length - 1`; the shorter lengths are probed
/// from 1 up.
///
/// # Errors
/// [`Stopped`] when the budget runs out.
pub fn threat_lengths<P: GamePosition>(
    s: &mut Searcher<'_, P>,
    goal: Goal,
    pos: &P,
    key: &P::Move,
    threats: &[P::Move],
    length: u32,
) -> Result<Vec<u32>, Stopped> {
    let Some(null) = pos.play(key).null_move() else {
        return Ok(vec![length.saturating_sub(1); threats.len()]);
    };
    let mut lengths = Vec::with_capacity(threats.len());
    for m in threats {
        let after = null.play(m);
        let mut k = 1;
        while k + 1 < length {
            s.tick()?;
            if s.after_attack(goal, &after, k - 1, 1)? {
                break;
            }
            k += 1;
        }
        lengths.push(k);
    }
    Ok(lengths)
}

/// The refutations of first move `mv` in `pos` for `goal` in `n` moves, up to `max + 1` of
/// them: the move is a try when there are from one to `max` (more: it is no try; none: a key, or a
/// move that leaves the defender no move). `hints`: defences (moves of other positions, made for
/// this one) that may refute, tried first.
///
/// # Errors
/// [`Stopped`] when the budget runs out.
pub fn refutations<P: GamePosition>(
    s: &mut Searcher<'_, P>,
    goal: Goal,
    pos: &P,
    mv: &P::Move,
    hints: &[P::Move],
    n: u32,
    max: usize,
) -> Result<Vec<P::Move>, Stopped> {
    let after = pos.play(mv);
    // In a direct mate with a move left after the defence, one that loses at once is answered by
    // the King's capture: never a refutation (see `search`'s doc). With none left (`#1`), or in a
    // selfmate, every move counts.
    let skip_losing = goal.drops_losing() && n >= 2;
    let counts = |d: &P::Move| !skip_losing || !after.loses_at_once(d);
    let mut refuting = Vec::new();
    // Likely refutations first, made for this position without generating every defence. Most
    // first moves have more than `max` refutations, and these often show it.
    let mut tried: Vec<P::Move> = Vec::new();
    let bound = goal.duty() != Duty::None && {
        let mut all = Vec::new();
        after.search_moves(&mut all);
        all.iter().any(|d| after.play(d).lost())
    };
    for d in hints
        .iter()
        .filter_map(|k| after.search_move_like(k))
        .filter(counts)
        .filter(|d| !bound || after.play(d).lost())
    {
        if tried.contains(&d) {
            continue;
        }
        tried.push(d);
        s.tick()?;
        if !s.after_defence(goal, &after.play(&d), n - 1, 1)? {
            refuting.push(d);
            if refuting.len() > max {
                return Ok(refuting);
            }
        }
    }
    let mut defences = Vec::new();
    after.search_moves(&mut defences);
    // A reflexmate's defender mates when it can: those are then its only moves.
    keep_duty(&after, goal.duty() != Duty::None, &mut defences);
    if skip_losing {
        after.drop_moves_losing_at_once(&mut defences);
    }
    // Then captures and King moves, which refute most often, then the others.
    let first = |d: &P::Move| P::is_capture(d) || P::is_king_move(d);
    for d in in_two_passes(&defences, first) {
        if tried.contains(d) {
            continue;
        }
        s.tick()?;
        if !s.after_defence(goal, &after.play(d), n - 1, 1)? {
            refuting.push(*d);
            if refuting.len() > max {
                return Ok(refuting);
            }
        }
    }
    Ok(refuting)
}
