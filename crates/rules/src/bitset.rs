//! Sets of squares as machine words: `u64` serves the 8x8 board, `u128` the 10x10 one.
//!
//! Bit `i` is the square with index `i` (see [`crate::geometry`]).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// A set of squares held in one unsigned integer.
pub trait BitSet:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The set with no square.
    const EMPTY: Self;
    /// The set holding the one square `index`.
    fn bit(index: u8) -> Self;
    /// Whether the set holds no square.
    fn is_empty(self) -> bool;
    /// The number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square of a non-empty set.
    fn lowest(self) -> u8;
    /// The highest square of a non-empty set.
    fn highest(self) -> u8;
    /// Widens the set to 128 bits (the common form used outside the engine).
    fn to_u128(self) -> u128;
    /// Narrows a 128-bit set; squares beyond the word are dropped.
    fn from_u128(v: u128) -> Self;

    /// Whether the set holds the square `index`.
    #[inline(always)]
    fn has(self, index: u8) -> bool {
        !(self & Self::bit(index)).is_empty()
    }
    /// Whether the set holds at least one square.
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// Whether the set holds more than one square.
    #[inline(always)]
    fn several(self) -> bool {
        self.count() > 1
    }
    /// Iterates the squares from lowest to highest.
    #[inline(always)]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// Iterator over the squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: BitSet> Iterator for Squares<B> {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0.is_empty() {
            None
        } else {
            let s = self.0.lowest();
            self.0 ^= B::bit(s);
            Some(s)
        }
    }
}

macro_rules! impl_bitset {
    ($t:ty, $bits:expr) => {
        impl BitSet for $t {
            const EMPTY: Self = 0;
            #[inline(always)]
            fn bit(index: u8) -> Self {
                1 << index
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u8 {
                self.trailing_zeros() as u8
            }
            #[inline(always)]
            fn highest(self) -> u8 {
                ($bits - 1 - self.leading_zeros()) as u8
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(v: u128) -> Self {
                v as $t
            }
        }
    };
}

impl_bitset!(u64, 64u32);
impl_bitset!(u128, 128u32);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_iterate_in_order() {
        let s: u64 = (1 << 3) | (1 << 17) | (1 << 63);
        assert_eq!(s.squares().collect::<Vec<_>>(), vec![3, 17, 63]);
        assert_eq!(s.lowest(), 3);
        assert_eq!(s.highest(), 63);
        let w: u128 = (1 << 99) | 1;
        assert_eq!(w.squares().collect::<Vec<_>>(), vec![0, 99]);
        assert_eq!(w.highest(), 99);
        assert!(w.several());
        assert!(!(1u128 << 5).several());
    }
}
