//! Piece placement on a board of any geometry, with an incrementally kept Zobrist hash.

use super::bitset::BitSet;
use super::geometry::Geometry;
use super::piece::{Color, Piece, Role};

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn zobrist_table() -> [[[u64; 100]; Role::COUNT]; 2] {
    let mut t = [[[0u64; 100]; Role::COUNT]; 2];
    let mut seed = 0x5EED_BA50_0E00_0001u64;
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < Role::COUNT {
            let mut s = 0;
            while s < 100 {
                seed = splitmix(seed);
                t[c][r][s] = seed;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    t
}

/// Zobrist keys, one per colour, role and square.
pub static ZOBRIST: [[[u64; 100]; Role::COUNT]; 2] = zobrist_table();
/// Zobrist key of Black to move.
pub const ZOBRIST_BLACK: u64 = splitmix(0xB1AC_0000_0000_0001);

/// Where the pieces stand. It knows nothing of rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board<G: Geometry> {
    roles: [G::B; Role::COUNT],
    colors: [G::B; 2],
    hash: u64,
}

impl<G: Geometry> std::fmt::Debug for Board<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..G::RANKS).rev() {
            for file in 0..G::FILES {
                let c = self
                    .piece_at(G::square(file, rank))
                    .map_or('.', |p| p.rococo_letter());
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl<G: Geometry> Board<G> {
    /// An empty board.
    pub fn empty() -> Self {
        Board {
            roles: [G::B::EMPTY; Role::COUNT],
            colors: [G::B::EMPTY; 2],
            hash: 0,
        }
    }

    /// The squares holding a piece of either colour.
    #[inline(always)]
    pub fn occupied(&self) -> G::B {
        self.colors[0] | self.colors[1]
    }
    /// The squares holding a piece of colour `c`.
    #[inline(always)]
    pub fn by_color(&self, c: Color) -> G::B {
        self.colors[c.index()]
    }
    /// The squares holding a piece of role `r`, of either colour.
    #[inline(always)]
    pub fn by_role(&self, r: Role) -> G::B {
        self.roles[r.index()]
    }
    /// The squares holding a piece of colour `c` and role `r`.
    #[inline(always)]
    pub fn pieces(&self, c: Color, r: Role) -> G::B {
        self.colors[c.index()] & self.roles[r.index()]
    }
    /// The piece-placement part of the Zobrist hash.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The colour of the piece on `sq`, if any.
    #[inline(always)]
    pub fn color_at(&self, sq: u8) -> Option<Color> {
        if self.colors[0].has(sq) {
            Some(Color::White)
        } else if self.colors[1].has(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: u8) -> Option<Role> {
        if !self.occupied().has(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|r| self.roles[r.index()].has(sq))
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: u8) -> Option<Piece> {
        Some(Piece::new(self.color_at(sq)?, self.role_at(sq)?))
    }

    /// Puts a piece on an empty square.
    #[inline(always)]
    pub fn put(&mut self, sq: u8, p: Piece) {
        debug_assert!(!self.occupied().has(sq));
        self.toggle(sq, p);
    }

    /// Removes the piece from a square, returning it.
    pub fn take(&mut self, sq: u8) -> Option<Piece> {
        let p = self.piece_at(sq)?;
        self.toggle(sq, p);
        Some(p)
    }

    /// Adds or removes a piece (XOR).
    #[inline(always)]
    pub fn toggle(&mut self, sq: u8, p: Piece) {
        let b = G::B::bit(sq);
        self.roles[p.role.index()] ^= b;
        self.colors[p.color.index()] ^= b;
        self.hash ^= ZOBRIST[p.color.index()][p.role.index()][sq as usize];
    }

    /// Moves a piece of colour `c` and role `r` from `from` to the empty square `to`.
    #[inline(always)]
    pub fn shift(&mut self, c: Color, r: Role, from: u8, to: u8) {
        let b = G::B::bit(from) | G::B::bit(to);
        self.roles[r.index()] ^= b;
        self.colors[c.index()] ^= b;
        let z = &ZOBRIST[c.index()][r.index()];
        self.hash ^= z[from as usize] ^ z[to as usize];
    }

    /// Removes every piece of colour `c` on the squares of `set`.
    #[inline(always)]
    pub fn remove_all(&mut self, c: Color, set: G::B) {
        for sq in set.squares() {
            if let Some(r) = self.role_at(sq) {
                self.toggle(sq, Piece::new(c, r));
            }
        }
    }

    /// Plays a move's changes on the sets alone, leaving the hash stale: for trial positions that
    /// are tested and thrown away.
    #[inline(always)]
    pub(crate) fn trial_move(&mut self, c: Color, r: Role, from: u8, to: u8, captures: G::B) {
        if captures.any() {
            for role in &mut self.roles {
                *role &= !captures;
            }
            self.colors[c.other().index()] &= !captures;
        }
        let b = G::B::bit(from) | G::B::bit(to);
        self.roles[r.index()] ^= b;
        self.colors[c.index()] ^= b;
    }

    /// Every piece on the board with its square, lowest square first.
    pub fn iter(&self) -> impl Iterator<Item = (u8, Piece)> + '_ {
        self.occupied()
            .squares()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The square of the King of `c` (the lowest one, should a board hold two).
    #[inline(always)]
    pub fn king(&self, c: Color) -> Option<u8> {
        let k = self.pieces(c, Role::King);
        if k.is_empty() {
            None
        } else {
            Some(k.lowest())
        }
    }
}
