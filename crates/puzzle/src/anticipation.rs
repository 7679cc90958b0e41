//! Anticipation: whether a problem was done before, up to the symmetries that keep its game's
//! rules ([`Symmetry::of_game`]).
//!
//! A stored puzzle is indexed by keys computed from its position alone, never by solving:
//! - its **position key**: a 63-bit hash of the least text of its images ([`Pattern::canonical`]),
//!   equal for two positions exactly when one is an image of the other (up to the hash's
//!   collisions, which [`compare`] rules out);
//! - its **near keys**: the position keys of the position without each of its pieces.
//!
//! A posted position `Q` then finds, by equality of keys:
//! - `same`: a stored position whose key is `Q`'s;
//! - `near`, a piece added to `Q`: a stored position with a near key equal to `Q`'s key;
//! - `near`, a piece removed from `Q`: a stored position whose key is one of `Q`'s near keys;
//! - `near`, a piece moved or changed: a stored position sharing a near key with `Q`.
//!
//! Each candidate is then compared square by square ([`compare`]) under every symmetry, which
//! names the transformation and the difference, and drops a hash collision.

use crate::rules::symmetry::{Pattern, Symmetry};
use crate::rules::{Piece, VariantPosition};
use sha2::{Digest, Sha256};

/// A position key: the first 63 bits of the SHA-256 of the game's name and the canonical text,
/// so that it is a non-negative 64-bit integer in either database.
fn hash(kind_name: &str, text: &str) -> i64 {
    let digest = Sha256::digest(format!("{kind_name}:{text}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    (u64::from_be_bytes(bytes) >> 1) as i64
}

/// The key of a pattern: equal for a pattern and its images.
pub fn pattern_key(p: &Pattern) -> i64 {
    hash(p.kind().name(), &p.canonical().0)
}

/// What a position is indexed by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keys {
    /// The position's key.
    pub position: i64,
    /// The keys of the position without each of its pieces (each once, in increasing order).
    pub near: Vec<i64>,
}

impl Keys {
    /// The keys of a position.
    pub fn of(pos: &VariantPosition) -> Keys {
        Keys::of_pattern(&Pattern::of(pos))
    }

    /// The keys of a position's pattern.
    pub fn of_pattern(pattern: &Pattern) -> Keys {
        let mut near: Vec<i64> = pattern
            .pieces()
            .map(|(sq, _)| pattern_key(&pattern.without(sq)))
            .collect();
        near.sort_unstable();
        near.dedup();
        Keys {
            position: pattern_key(pattern),
            near,
        }
    }
}

/// How a stored problem anticipates a posted one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Relation {
    /// The same position, up to a symmetry.
    Same,
    /// The same position with one piece added, removed, moved or changed, up to a symmetry.
    Near,
    /// Another position whose key (a helpmate's first move) is the same move up to a symmetry.
    Solution,
}

impl Relation {
    /// `same`, `near` or `solution`.
    pub fn name(self) -> &'static str {
        match self {
            Relation::Same => "same",
            Relation::Near => "near",
            Relation::Solution => "solution",
        }
    }
}

/// A stored position compared with a posted one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub relation: Relation,
    /// The symmetry that turns the stored position into (the nearest image to) the posted one.
    pub symmetry: Symmetry,
    /// What the posted position has that the stored one's image has not, as a twin writes it:
    /// `+wPa3` (a piece added), `-bNc4` (removed), `wKc7-->d7` (moved), `-wPa3, +wLa3`
    /// (changed); empty for the same position.
    pub difference: Vec<String>,
}

/// How `stored` relates to `posted` (positions of one game) under the game's symmetries: the same
/// position, or a near one (one piece added, removed, moved or changed, the side to move the
/// same), with the symmetry that shows it (the identity first, when several do); `None` when
/// neither. `name` writes a piece on a square as a twin does (`wPa3`).
pub fn compare(
    stored: &Pattern,
    posted: &Pattern,
    name: impl Fn(Piece, u8) -> String,
) -> Option<Comparison> {
    if stored.kind() != posted.kind() {
        return None;
    }
    let mut best: Option<Comparison> = None;
    for &s in Symmetry::of_game(posted.kind()) {
        let image = stored.image(s);
        if image.turn() != posted.turn() || image.swap() != posted.swap() {
            continue;
        }
        let Some(difference) = difference(&image, posted, &name) else {
            continue;
        };
        let relation = match difference.is_empty() {
            true => Relation::Same,
            false => Relation::Near,
        };
        if best.as_ref().is_none_or(|b| relation < b.relation) {
            best = Some(Comparison {
                relation,
                symmetry: s,
                difference,
            });
        }
    }
    best
}

/// The one-piece difference from `a` to `b`, or `None` when they differ by more.
fn difference(
    a: &Pattern,
    b: &Pattern,
    name: &impl Fn(Piece, u8) -> String,
) -> Option<Vec<String>> {
    let (mut gone, mut added) = (Vec::new(), Vec::new());
    let squares = a.kind().files() * a.kind().files();
    for sq in 0..squares {
        match (a.at(sq), b.at(sq)) {
            (x, y) if x == y => {}
            (x, y) => {
                if let Some(x) = x {
                    gone.push((sq, x));
                }
                if let Some(y) = y {
                    added.push((sq, y));
                }
            }
        }
        if gone.len() > 1 || added.len() > 1 {
            return None;
        }
    }
    Some(match (gone.first(), added.first()) {
        (None, None) => Vec::new(),
        (None, Some(&(sq, p))) => vec![format!("+{}", name(p, sq))],
        (Some(&(sq, p)), None) => vec![format!("-{}", name(p, sq))],
        (Some(&(from, p)), Some(&(to, q))) if p == q && from != to => {
            let to_name = name(q, to);
            // `wKc7-->d7`: the piece's name, then the square it went to.
            let square = to_name.get(2..).unwrap_or_default();
            vec![format!("{}-->{square}", name(p, from))]
        }
        (Some(&(sq, p)), Some(&(to, q))) => {
            vec![format!("-{}", name(p, sq)), format!("+{}", name(q, to))]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{GameKind, Naming, Variant};

    fn pattern(kind: GameKind, fen: &str) -> Pattern {
        let v = Variant::of(kind, None).unwrap();
        Pattern::of(&v.read_fen(fen, Naming::default()).unwrap())
    }

    fn named(kind: GameKind) -> impl Fn(Piece, u8) -> String {
        move |p: Piece, sq: u8| {
            let n = kind.files();
            let colour = if p.color == crate::rules::Color::White {
                'w'
            } else {
                'b'
            };
            let letter = match kind {
                GameKind::Baroque => p.role.letter(crate::rules::Letters::Chess),
                GameKind::Rococo => p.role.rococo_letter(),
            };
            format!(
                "{colour}{letter}{}{}",
                char::from(b'a' + sq % n),
                sq / n + 1
            )
        }
    }

    #[test]
    fn an_image_is_the_same_and_a_moved_piece_is_near() {
        let b = GameKind::Baroque;
        let p = pattern(b, "8/8/8/4k3/2K2M2/3q4/8/8 w 0");
        // The files reversed: the King from c4 to f4, and so on.
        let mirrored = pattern(b, "8/8/8/3k4/2M2K2/4q3/8/8 w 0");
        let c = compare(&p, &mirrored, named(b)).unwrap();
        assert_eq!(c.relation, Relation::Same);
        assert_eq!(c.symmetry.name(8), "mirror a1<->h1");
        assert_eq!(
            Keys::of_pattern(&p).position,
            Keys::of_pattern(&mirrored).position
        );
        // The Queen (a Withdrawer: `q`) moved from d3 to d2.
        let moved = pattern(b, "8/8/8/4k3/2K2M2/8/3q4/8 w 0");
        let c = compare(&p, &moved, named(b)).unwrap();
        assert_eq!(c.relation, Relation::Near);
        assert_eq!(c.difference, ["bQd3-->d2"]);
        let added = pattern(b, "8/8/8/4k3/2K2M2/3q4/8/P7 w 0");
        assert_eq!(compare(&p, &added, named(b)).unwrap().difference, ["+wPa1"]);
        let changed = pattern(b, "8/8/8/4k3/2K2M2/3r4/8/8 w 0");
        assert_eq!(
            compare(&p, &changed, named(b)).unwrap().difference,
            ["-bQd3", "+bRd3"]
        );
        // Two pieces away, or the other side to move: neither.
        let far = pattern(b, "8/8/8/4k3/2K5/8/8/8 w 0");
        assert_eq!(compare(&p, &far, named(b)), None);
        let other_turn = pattern(b, "8/8/8/4k3/2K2M2/3q4/8/8 b 0");
        assert_eq!(compare(&p, &other_turn, named(b)), None);
        // The colours exchanged, Black to move: not an image of the board.
        let polish = pattern(b, "8/8/8/4K3/2k2m2/3Q4/8/8 b 0");
        assert_eq!(compare(&p, &polish, named(b)), None);
        assert_ne!(pattern_key(&p), pattern_key(&polish));
    }

    #[test]
    fn the_keys_find_every_kind_of_near_position() {
        let b = GameKind::Baroque;
        let p = Keys::of_pattern(&pattern(b, "8/8/8/4k3/2K2M2/3q4/8/8 w 0"));
        let added = Keys::of_pattern(&pattern(b, "8/8/8/4k3/2K2M2/3q4/8/P7 w 0"));
        let moved = Keys::of_pattern(&pattern(b, "8/8/8/4k3/2K2M2/8/3q4/8 w 0"));
        // A piece added: the stored position is one of the posted one's near keys.
        assert!(added.near.contains(&p.position));
        // Moved: they share a near key.
        assert!(moved.near.iter().any(|k| p.near.contains(k)));
    }

    #[test]
    fn rococo_positions_are_compared_under_rococo_symmetries_only() {
        let r = GameKind::Rococo;
        let p = pattern(r, "10/10/5k4/4P5/10/10/10/4K5/10/10 w 0 -");
        // Files reversed: e7 -> f7, f8 -> e8, e3 -> f3.
        let mirrored = pattern(r, "10/10/4k5/5P4/10/10/10/5K4/10/10 w 0 -");
        let c = compare(&p, &mirrored, named(r)).unwrap();
        assert_eq!(
            (c.relation, c.symmetry.name(10).as_str()),
            (Relation::Same, "mirror a1<->j1")
        );
        // A quarter turn keeps no Rococo position: the pawn would head sideways.
        let turned = Symmetry::all()
            .iter()
            .find(|s| s.name(10) == "rotate 90")
            .unwrap();
        let image = p.image(*turned);
        assert_eq!(compare(&p, &image, named(r)), None);
        assert_ne!(pattern_key(&p), pattern_key(&image));
    }
}
