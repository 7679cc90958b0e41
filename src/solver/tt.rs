//! A transposition table shared by the search threads, without locks.
//!
//! Each entry holds what has been proven about one position for the stipulation "the attacker mates
//! within n of its moves": the smallest n proven to win and the largest n proven not to win. Entries
//! are two atomic words, the key XOR-ed with the data (Hyatt's lockless hashing), so a torn write reads
//! as a miss, never as a wrong result.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes per entry.
const ENTRY_BYTES: usize = 16;

/// What is known of a position: `win`: mate proven within this many attacker moves (0: none);
/// `no_win`: no mate within this many attacker moves (0: nothing proven).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    pub win: u8,
    pub no_win: u8,
}

impl Bounds {
    fn pack(self) -> u64 {
        self.win as u64 | (self.no_win as u64) << 8
    }
    fn unpack(d: u64) -> Bounds {
        Bounds {
            win: d as u8,
            no_win: (d >> 8) as u8,
        }
    }
    /// The answer for `n`, when these bounds settle it.
    pub fn answer(self, n: u32) -> Option<bool> {
        if self.win != 0 && self.win as u32 <= n {
            Some(true)
        } else if self.no_win as u32 >= n {
            Some(false)
        } else {
            None
        }
    }
}

/// The table; its size is a power of two number of entries.
pub struct Table {
    /// Two words per entry: key XOR data, then data.
    words: Vec<AtomicU64>,
    mask: u64,
}

/// A vector of `n` zeroed atomics from zeroed memory: the pages are mapped lazily by the system, so a
/// large table costs nothing until used.
fn zeroed_atomics(n: usize) -> Vec<AtomicU64> {
    let layout = match std::alloc::Layout::array::<AtomicU64>(n) {
        Ok(l) if l.size() > 0 => l,
        _ => return (0..n).map(|_| AtomicU64::new(0)).collect(),
    };
    // SAFETY: the layout is that of `n` AtomicU64 and non-zero in size; all-zero bits are a valid
    // AtomicU64 (it has the bit validity of u64); the vector takes ownership of the allocation with
    // the same layout, length and capacity, so it frees it correctly.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut AtomicU64;
        if ptr.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(ptr, n, n)
    }
}

impl Table {
    /// A table of at most `mib` MiB; 0 gives a one-entry table that stores nothing.
    pub fn new(mib: usize) -> Table {
        let size = if mib == 0 {
            1
        } else {
            let want = (mib << 20) / ENTRY_BYTES;
            1usize << (usize::BITS - 1 - want.leading_zeros())
        };
        Table {
            words: zeroed_atomics(2 * size),
            mask: size as u64 - 1,
        }
    }

    /// Whether the table stores anything (a one-entry table is the "no table" setting).
    pub fn enabled(&self) -> bool {
        self.mask > 0
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Bounds {
        if !self.enabled() {
            return Bounds::default();
        }
        let i = 2 * (key & self.mask) as usize;
        let data = self.words[i + 1].load(Ordering::Relaxed);
        if self.words[i].load(Ordering::Relaxed) ^ data == key {
            Bounds::unpack(data)
        } else {
            Bounds::default()
        }
    }

    /// Records a result for `n` attacker moves, merged with what the entry knew of the same key.
    #[inline]
    pub fn store(&self, key: u64, n: u32, wins: bool) {
        if !self.enabled() {
            return;
        }
        let mut b = self.probe(key);
        let n = n.min(255) as u8;
        if wins {
            if b.win == 0 || n < b.win {
                b.win = n;
            }
        } else if n > b.no_win {
            b.no_win = n;
        }
        let data = b.pack();
        let i = 2 * (key & self.mask) as usize;
        self.words[i].store(key ^ data, Ordering::Relaxed);
        self.words[i + 1].store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_merges_bounds() {
        let t = Table::new(1);
        assert_eq!(t.probe(42).answer(2), None);
        t.store(42, 1, false);
        t.store(42, 3, true);
        assert_eq!(t.probe(42).answer(1), Some(false));
        assert_eq!(t.probe(42).answer(2), None);
        assert_eq!(t.probe(42).answer(4), Some(true));
        t.store(42, 2, true);
        assert_eq!(t.probe(42).answer(2), Some(true));
        // Another key in the same slot replaces it; the old key then misses.
        t.store(42 + (1 << 16) * (t.mask + 1), 1, true);
        assert_eq!(t.probe(42), Bounds::default());
    }
}
