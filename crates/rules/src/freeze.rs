//! Immobilization: which pieces cannot move.

use super::bitset::BitSet;
use super::board::Board;
use super::geometry::Geometry;
use super::piece::{Color, Role};
use super::ruleset::Freezing;

/// The pieces of `side` that are frozen (cannot move).
///
/// - `Abbott`: every piece next to an enemy Immobilizer, and every Immobilizer next to an enemy
///   Chameleon. A frozen Immobilizer still freezes its other neighbours.
/// - `Cambridge`: an Immobilizer next to an enemy Chameleon; and a piece X next to an enemy
///   Immobilizer that has no Immobilizer or Chameleon of X's colour, other than X, next to it.
#[inline]
pub fn frozen<G: Geometry>(b: &Board<G>, side: Color, freezing: Freezing) -> G::B {
    let enemy = side.other();
    let enemy_imm = b.pieces(enemy, Role::Immobilizer);
    let my_imm = b.pieces(side, Role::Immobilizer);
    let enemy_cham = b.pieces(enemy, Role::Chameleon);
    if enemy_imm.is_empty() && (my_imm.is_empty() || enemy_cham.is_empty()) {
        return G::B::EMPTY;
    }
    let t = G::t();
    let mine = b.by_color(side);
    let mut f = G::B::EMPTY;
    for c in enemy_cham.squares() {
        f |= t.neighbours[c as usize] & my_imm;
    }
    match freezing {
        Freezing::Abbott => {
            for i in enemy_imm.squares() {
                f |= t.neighbours[i as usize] & mine;
            }
        }
        Freezing::Cambridge => {
            let cancellers = my_imm | b.pieces(side, Role::Chameleon);
            for i in enemy_imm.squares() {
                let near = t.neighbours[i as usize];
                let helpers = near & cancellers;
                match helpers.count() {
                    0 => f |= near & mine,
                    // The one helper cancels the power over the others, not over itself.
                    1 => f |= helpers,
                    _ => {}
                }
            }
        }
    }
    f
}
