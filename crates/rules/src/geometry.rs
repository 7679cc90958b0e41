//! Board geometries: the 8x8 Baroque board and the 10x10 Rococo board, with precomputed rays.
//!
//! A square is an index `rank * FILES + file`, file and rank counted from 0 (a1 is 0).
//! Directions are numbered 0..8: the four orthogonal ones first (N, S, E, W), then the diagonals
//! (NE, NW, SE, SW).
//!
//! ```text
//!   8 | 56 57 58 59 60 61 62 63
//!   . | ...
//!   1 |  0  1  2  3  4  5  6  7
//!       a  b  c  d  e  f  g  h
//! ```

use super::bitset::BitSet;
use std::fmt::Debug;

/// No square (the end of a ray).
pub const NO_SQUARE: u8 = 255;

/// A direction index, 0..8.
pub type Dir = usize;
/// North: up the board, towards the last rank (Black's side).
pub const N: Dir = 0;
/// South: down the board, towards rank 1 (White's side).
pub const S: Dir = 1;
/// East: towards the last file (h, or j in Rococo).
pub const E: Dir = 2;
/// West: towards the a file.
pub const W: Dir = 3;
/// North-east: up the board and towards the last file.
pub const NE: Dir = 4;
/// North-west: up the board and towards the a file.
pub const NW: Dir = 5;
/// South-east: down the board and towards the last file.
pub const SE: Dir = 6;
/// South-west: down the board and towards the a file.
pub const SW: Dir = 7;
/// All eight directions.
pub const ALL_DIRS: [Dir; 8] = [N, S, E, W, NE, NW, SE, SW];
/// The four orthogonal directions.
pub const ORTHOGONAL: [Dir; 4] = [N, S, E, W];
const DF: [i8; 8] = [0, 0, 1, -1, 1, -1, 1, -1];
const DR: [i8; 8] = [1, -1, 0, 0, 1, 1, -1, -1];

/// The direction pointing the other way.
#[inline(always)]
pub const fn opposite(d: Dir) -> Dir {
    // N-S and E-W are 0-1 and 2-3; NE-SW and NW-SE are 4-7 and 5-6. Arithmetic rather than a
    // table, which the compiler would build anew on the stack at every call.
    if d < 4 {
        d ^ 1
    } else {
        11 - d
    }
}

/// Whether a direction increases the square index (so the nearest square on a ray is its lowest).
#[inline(always)]
pub const fn is_positive(d: Dir) -> bool {
    matches!(d, N | E | NE | NW)
}

/// Whether a direction is orthogonal (rook-like).
#[inline(always)]
pub const fn is_orthogonal(d: Dir) -> bool {
    d < 4
}

/// Precomputed tables of one geometry.
pub struct Tables<B> {
    /// `ray[d][sq]`: the squares from `sq` (excluded) to the board's end in direction `d`.
    pub ray: [[B; 100]; 8],
    /// `step[d][sq]`: the neighbour of `sq` in direction `d`, or [`NO_SQUARE`].
    pub step: [[u8; 100]; 8],
    /// The up to eight neighbours of a square.
    pub neighbours: [B; 100],
    /// Every square of a file.
    pub file: [B; 10],
    /// Every square of a rank.
    pub rank: [B; 10],
    /// Every square of the board.
    pub all: B,
    /// The outer ring of squares.
    pub edge: B,
}

/// A board geometry: its size and tables.
pub trait Geometry: Copy + Eq + Debug + Default + Send + Sync + 'static {
    /// The set type holding one bit per square.
    type B: BitSet;
    /// The number of files (8 for Baroque, 10 for Rococo).
    const FILES: u8;
    /// The number of ranks (8 for Baroque, 10 for Rococo).
    const RANKS: u8;
    /// The number of squares, `FILES * RANKS`.
    const SQUARES: u8 = Self::FILES * Self::RANKS;
    /// The precomputed tables.
    fn t() -> &'static Tables<Self::B>;

    /// The file of `sq`, counted from 0 (the a file).
    #[inline(always)]
    fn file_of(sq: u8) -> u8 {
        sq % Self::FILES
    }
    /// The rank of `sq`, counted from 0 (rank 1).
    #[inline(always)]
    fn rank_of(sq: u8) -> u8 {
        sq / Self::FILES
    }
    /// The square on `file` and `rank`, both counted from 0.
    #[inline(always)]
    fn square(file: u8, rank: u8) -> u8 {
        rank * Self::FILES + file
    }
    /// The neighbour of `sq` in direction `d`, if on the board.
    #[inline(always)]
    fn step(sq: u8, d: Dir) -> Option<u8> {
        let s = Self::t().step[d][sq as usize];
        (s != NO_SQUARE).then_some(s)
    }
    /// The nearest square of `occ` on the ray from `sq` in direction `d`.
    #[inline(always)]
    fn first_on_ray(sq: u8, d: Dir, occ: Self::B) -> Option<u8> {
        let b = Self::t().ray[d][sq as usize] & occ;
        if b.is_empty() {
            None
        } else if is_positive(d) {
            Some(b.lowest())
        } else {
            Some(b.highest())
        }
    }
    /// The squares a slider on `sq` reaches in direction `d`, up to and including the first
    /// square of `occ`.
    #[inline(always)]
    fn slide(sq: u8, d: Dir, occ: Self::B) -> Self::B {
        let t = Self::t();
        let ray = t.ray[d][sq as usize];
        match Self::first_on_ray(sq, d, occ) {
            Some(b) => ray ^ t.ray[d][b as usize],
            None => ray,
        }
    }
    /// Squares reachable by a queen move from `sq` (blockers included).
    #[inline(always)]
    fn queen_reach(sq: u8, occ: Self::B) -> Self::B {
        let mut r = Self::B::EMPTY;
        for d in ALL_DIRS {
            r |= Self::slide(sq, d, occ);
        }
        r
    }
    /// Squares reachable by a rook move from `sq` (blockers included).
    #[inline(always)]
    fn rook_reach(sq: u8, occ: Self::B) -> Self::B {
        let mut r = Self::B::EMPTY;
        for d in ORTHOGONAL {
            r |= Self::slide(sq, d, occ);
        }
        r
    }
    /// Every square next to some square of `set`.
    #[inline(always)]
    fn around(set: Self::B) -> Self::B {
        let mut r = Self::B::EMPTY;
        for s in set.squares() {
            r |= Self::t().neighbours[s as usize];
        }
        r
    }
    /// The direction from `a` to `b` when both lie on one rank, file or diagonal.
    fn direction(a: u8, b: u8) -> Option<Dir> {
        if a == b {
            return None;
        }
        let df = Self::file_of(b) as i16 - Self::file_of(a) as i16;
        let dr = Self::rank_of(b) as i16 - Self::rank_of(a) as i16;
        if df != 0 && dr != 0 && df.abs() != dr.abs() {
            return None;
        }
        let (sf, sr) = (df.signum() as i8, dr.signum() as i8);
        ALL_DIRS.into_iter().find(|&d| DF[d] == sf && DR[d] == sr)
    }
    /// The distance in king steps between two squares.
    fn distance(a: u8, b: u8) -> u8 {
        let df = (Self::file_of(a) as i16 - Self::file_of(b) as i16).unsigned_abs();
        let dr = (Self::rank_of(a) as i16 - Self::rank_of(b) as i16).unsigned_abs();
        df.max(dr) as u8
    }
    /// The name of a square: file letter then rank number (`a1`, `j10`).
    fn name(sq: u8) -> String {
        format!(
            "{}{}",
            (b'a' + Self::file_of(sq)) as char,
            Self::rank_of(sq) + 1
        )
    }
    /// Reads a square name; `None` when it is not a square of this board.
    fn parse_square(s: &str) -> Option<u8> {
        let b = s.as_bytes();
        if b.len() < 2 || b.len() > 3 {
            return None;
        }
        let file = b[0].checked_sub(b'a')?;
        if file >= Self::FILES || !b[1..].iter().all(u8::is_ascii_digit) || b[1] == b'0' {
            return None;
        }
        let rank: u8 = s[1..].parse().ok()?;
        if rank == 0 || rank > Self::RANKS {
            return None;
        }
        Some(Self::square(file, rank - 1))
    }
}

const fn build(files: u8, ranks: u8) -> Tables<u128> {
    let mut t = Tables {
        ray: [[0; 100]; 8],
        step: [[NO_SQUARE; 100]; 8],
        neighbours: [0; 100],
        file: [0; 10],
        rank: [0; 10],
        all: 0,
        edge: 0,
    };
    let n = files as usize * ranks as usize;
    let mut sq = 0;
    while sq < n {
        let f = (sq % files as usize) as i8;
        let r = (sq / files as usize) as i8;
        t.all |= 1 << sq;
        t.file[f as usize] |= 1 << sq;
        t.rank[r as usize] |= 1 << sq;
        if f == 0 || r == 0 || f == files as i8 - 1 || r == ranks as i8 - 1 {
            t.edge |= 1 << sq;
        }
        let mut d = 0;
        while d < 8 {
            let (mut cf, mut cr) = (f + DF[d], r + DR[d]);
            let mut first = true;
            while cf >= 0 && cr >= 0 && cf < files as i8 && cr < ranks as i8 {
                let s = cr as usize * files as usize + cf as usize;
                t.ray[d][sq] |= 1 << s;
                if first {
                    t.step[d][sq] = s as u8;
                    t.neighbours[sq] |= 1 << s;
                    first = false;
                }
                cf += DF[d];
                cr += DR[d];
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

const fn narrow(w: Tables<u128>) -> Tables<u64> {
    let mut t = Tables {
        ray: [[0; 100]; 8],
        step: w.step,
        neighbours: [0; 100],
        file: [0; 10],
        rank: [0; 10],
        all: w.all as u64,
        edge: w.edge as u64,
    };
    let mut i = 0;
    while i < 100 {
        let mut d = 0;
        while d < 8 {
            t.ray[d][i] = w.ray[d][i] as u64;
            d += 1;
        }
        t.neighbours[i] = w.neighbours[i] as u64;
        if i < 10 {
            t.file[i] = w.file[i] as u64;
            t.rank[i] = w.rank[i] as u64;
        }
        i += 1;
    }
    t
}

static TABLES_8: Tables<u64> = narrow(build(8, 8));
static TABLES_10: Tables<u128> = build(10, 10);

/// The 8x8 board of Baroque chess.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8;

impl Geometry for Board8 {
    type B = u64;
    const FILES: u8 = 8;
    const RANKS: u8 = 8;
    #[inline(always)]
    fn t() -> &'static Tables<u64> {
        &TABLES_8
    }
}

/// The 10x10 board of Rococo (the outer ring is the edge).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board10;

impl Geometry for Board10 {
    type B = u128;
    const FILES: u8 = 10;
    const RANKS: u8 = 10;
    #[inline(always)]
    fn t() -> &'static Tables<u128> {
        &TABLES_10
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_and_steps() {
        let d4 = Board8::parse_square("d4").unwrap();
        assert_eq!(d4, 27);
        assert_eq!(Board8::name(d4), "d4");
        assert_eq!(Board8::t().ray[N][d4 as usize].count(), 4);
        assert_eq!(Board8::t().ray[SW][d4 as usize].count(), 3);
        assert_eq!(Board8::t().neighbours[0].count(), 3);
        assert_eq!(Board8::step(0, W), None);
        assert_eq!(Board8::step(0, NE), Some(9));
        assert_eq!(Board8::direction(0, 63), Some(NE));
        assert_eq!(Board8::direction(0, 17), None);
        assert_eq!(Board10::parse_square("j10"), Some(99));
        assert_eq!(Board10::t().edge.count(), 36);
        assert_eq!(Board8::parse_square("i1"), None);
        assert_eq!(Board8::parse_square("a9"), None);
        assert_eq!(Board8::parse_square("a0"), None);
        assert_eq!(Board8::parse_square("a01"), None);
    }

    #[test]
    fn opposite_directions_pair_up() {
        for (d, o) in [(N, S), (E, W), (NE, SW), (NW, SE)] {
            assert_eq!((opposite(d), opposite(o)), (o, d));
        }
        for d in ALL_DIRS {
            assert_eq!(DF[opposite(d)], -DF[d]);
            assert_eq!(DR[opposite(d)], -DR[d]);
        }
    }

    #[test]
    fn slides_stop_at_blockers() {
        let a1 = 0;
        let occ: u64 = 1 << 24; // a4
        let r = Board8::slide(a1, N, occ);
        assert_eq!(r.count(), 3); // a2, a3, a4
        assert!(r.has(24));
    }
}
