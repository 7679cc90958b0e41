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
        advise_huge_pages(ptr as *mut u8, layout.size());
        Vec::from_raw_parts(ptr, n, n)
    }
}

/// Asks Linux to back the table with transparent huge pages where the system leaves that to the
/// program (`madvise` mode): a search touches the table at random, and with 4 KiB pages every first
/// touch of a page is a fault that costs more than the node that caused it (a 64 MiB table took
/// 16,000 of them). Only the whole pages inside the allocation are advised; a failure changes
/// nothing but speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    const PAGE: usize = 4096;
    if len < 2 * HUGE {
        return;
    }
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + len) / PAGE * PAGE;
    // SAFETY: [start, end) lies inside the live allocation just made and is page-aligned;
    // MADV_HUGEPAGE changes no contents, only how the kernel backs the pages.
    unsafe {
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

/// The entries of a table of at most `mib` MiB: a power of two, 1 for 0 MiB.
fn entries_in(mib: usize) -> usize {
    if mib == 0 {
        1
    } else {
        let want = (mib << 20) / ENTRY_BYTES;
        1usize << (usize::BITS - 1 - want.leading_zeros())
    }
}

impl Table {
    /// A table of at most `mib` MiB; 0 gives a one-entry table that stores nothing.
    pub fn new(mib: usize) -> Table {
        Table::with_entries(entries_in(mib))
    }

    /// A table of `entries` entries, rounded up to a power of two (at least 1): for a search
    /// known to be small, whose table would cost more to clear than to fill.
    pub fn with_room_for(entries: usize) -> Table {
        Table::with_entries(entries.max(1).next_power_of_two())
    }

    fn with_entries(size: usize) -> Table {
        Table {
            words: zeroed_atomics(2 * size),
            mask: size as u64 - 1,
        }
    }

    /// Entries held.
    pub fn entries(&self) -> usize {
        self.words.len() / 2
    }

    /// Grows the table to hold `want` entries (rounded up to a power of two), never beyond `max_mib`
    /// MiB, keeping what it knows. A search starts with a small table and grows it between the
    /// iterations of its deepening: a short search then touches few pages (each first touch of a
    /// page costs more than a node), a long one still gets the whole table.
    pub fn grow(&mut self, want: usize, max_mib: usize) {
        let size = want.next_power_of_two().min(entries_in(max_mib));
        if !self.enabled() || size <= self.entries() {
            return;
        }
        let bigger = Table::with_entries(size);
        for pair in self.words.chunks_exact(2) {
            let data = pair[1].load(Ordering::Relaxed);
            if data != 0 {
                let key = pair[0].load(Ordering::Relaxed) ^ data;
                let i = 2 * (key & bigger.mask) as usize;
                bigger.words[i].store(key ^ data, Ordering::Relaxed);
                bigger.words[i + 1].store(data, Ordering::Relaxed);
            }
        }
        *self = bigger;
    }

    /// Whether the table stores something and is no larger than `mib` MiB (what a search with
    /// that setting may use).
    pub fn fits_in(&self, mib: usize) -> bool {
        self.enabled() && self.entries() <= entries_in(mib)
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

    #[test]
    fn growing_keeps_every_entry_and_respects_the_limit() {
        let mut t = Table::new(1);
        let keys: Vec<u64> = (1..=5000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            t.store(k, 1 + (i % 5) as u32, i % 2 == 0);
        }
        let before: Vec<Bounds> = keys.iter().map(|&k| t.probe(k)).collect();
        t.grow(1 << 20, 4);
        assert_eq!(t.entries(), entries_in(4));
        let after: Vec<Bounds> = keys.iter().map(|&k| t.probe(k)).collect();
        assert_eq!(before, after);
        t.grow(1 << 30, 4);
        assert_eq!(t.entries(), entries_in(4), "never beyond the limit");
        let mut none = Table::new(0);
        none.grow(1 << 20, 64);
        assert!(!none.enabled(), "no table stays no table");
    }
}
