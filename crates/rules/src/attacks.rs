//! Whether a King can be captured: worked backwards from the King's square, one capture kind at a
//! time, without generating the attacker's moves.
//!
//! A King is capturable ("in check") when some unfrozen enemy piece has a move that captures it,
//! whether or not that move would expose the enemy's own King:
//!
//! - an enemy King or Chameleon next to it (they capture by stepping onto it);
//! - an enemy Withdrawer next to it with an empty square behind the Withdrawer, on the line away
//!   from the King;
//! - an enemy Long Leaper on one of its lines, with an empty landing square behind the King and only
//!   our pieces, each followed by an empty square, in between (under `leaper: single`, nothing in
//!   between);
//! - an enemy Pawn that can slide to an empty square orthogonally next to the King when an enemy piece
//!   (any, frozen or not) stands on the other side of the King;
//! - an enemy Coordinator that can reach an empty square on the King's file while the enemy King
//!   stands on the King's rank, or on the King's rank while the enemy King stands on its file.

use super::bitset::BitSet;
use super::board::Board;
use super::freeze::frozen;
use super::geometry::{opposite, Geometry, ALL_DIRS, ORTHOGONAL};
use super::piece::{Color, Role};
use super::ruleset::{Leaper, Rules};

/// Whether the piece on `k` (a King of the other side) can be captured by `attacker` now.
#[inline]
pub fn capturable<G: Geometry>(b: &Board<G>, k: u8, attacker: Color, rules: &Rules) -> bool {
    let live = b.by_color(attacker) & !frozen(b, attacker, rules.freezing());
    capturable_by(b, k, attacker, live, rules)
}

/// [`capturable`] when the attacker's unfrozen pieces, `live`, are known (exactly: a piece
/// wrongly counted as unfrozen may be found to capture).
#[inline]
pub fn capturable_by<G: Geometry>(
    b: &Board<G>,
    k: u8,
    attacker: Color,
    live: G::B,
    rules: &Rules,
) -> bool {
    let t = G::t();
    let defender = attacker.other();
    let occ = b.occupied();
    let near = t.neighbours[k as usize];

    // King and Chameleon: by stepping onto it.
    if (near & live & (b.by_role(Role::King) | b.by_role(Role::Chameleon))).any() {
        return true;
    }

    // Withdrawer: next to it, moving directly away.
    let withdrawers = live & b.by_role(Role::Withdrawer);
    if (near & withdrawers).any() {
        for d in ALL_DIRS {
            let w = t.step[d][k as usize];
            if w != super::geometry::NO_SQUARE && withdrawers.has(w) {
                let away = t.step[d][w as usize];
                if away != super::geometry::NO_SQUARE && !occ.has(away) {
                    return true;
                }
            }
        }
    }

    // Long Leaper: jumping the King onto the empty square behind it.
    let leapers = live & b.by_role(Role::LongLeaper);
    if leapers.any() {
        let ours = b.by_color(defender);
        for u in ALL_DIRS {
            if (t.ray[u][k as usize] & leapers).is_empty() {
                continue;
            }
            let land = t.step[opposite(u)][k as usize];
            if land == super::geometry::NO_SQUARE || occ.has(land) {
                continue;
            }
            let mut cur = k;
            while let Some(q) = G::first_on_ray(cur, u, occ) {
                if leapers.has(q) {
                    return true;
                }
                // Only the defender's pieces can be jumped, each followed by an empty square.
                if rules.leaper == Leaper::Single
                    || !ours.has(q)
                    || t.step[opposite(u)][q as usize] == cur
                {
                    break;
                }
                cur = q;
            }
        }
    }

    // Pawn: custodian capture against an enemy piece on the far side.
    let pawns = live & b.by_role(Role::Pawn);
    if pawns.any() {
        let partners = b.by_color(attacker);
        for d in ORTHOGONAL {
            let a = t.step[d][k as usize];
            let far = t.step[opposite(d)][k as usize];
            if a == super::geometry::NO_SQUARE
                || far == super::geometry::NO_SQUARE
                || occ.has(a)
                || !partners.has(far)
            {
                continue;
            }
            if (G::rook_reach(a, occ) & pawns).any() {
                return true;
            }
        }
    }

    // Coordinator: reaching the King's file or rank, as the enemy King's lines cross there.
    let coordinators = live & b.by_role(Role::Coordinator);
    if coordinators.any() {
        if let Some(ka) = b.king(attacker) {
            let line = if G::rank_of(ka) == G::rank_of(k) {
                t.file[G::file_of(k) as usize]
            } else if G::file_of(ka) == G::file_of(k) {
                t.rank[G::rank_of(k) as usize]
            } else {
                G::B::EMPTY
            };
            let targets = line & !occ;
            if targets.any() {
                for c in coordinators.squares() {
                    if (G::queen_reach(c, occ) & targets).any() {
                        return true;
                    }
                }
            }
        }
    }
    false
}
