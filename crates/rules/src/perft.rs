//! Perft: the number of leaf nodes of the legal-move tree, a signature of the move generator. One
//! function for every game.

use super::game::GamePosition;

/// The number of move sequences of length `depth` from `pos`.
pub fn perft<P: GamePosition>(pos: &P, depth: u32) -> u64 {
    let mut bufs: Vec<Vec<P::Move>> = (0..=depth).map(|_| Vec::with_capacity(128)).collect();
    perft_with(pos, depth, &mut bufs)
}

fn perft_with<P: GamePosition>(pos: &P, depth: u32, bufs: &mut [Vec<P::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_legal(buf);
    }
    pos.legal_moves_into(buf);
    let mut n = 0;
    for mv in buf.iter() {
        n += perft_with(&pos.play(mv), depth - 1, rest);
    }
    n
}

/// Perft split by first move: each legal move with the count below it.
pub fn divide<P: GamePosition>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| (mv, perft(&pos.play(&mv), depth - 1)))
        .collect()
}

/// [`divide`] on `threads` threads: each takes the next first move as it finishes one (the counts
/// below first moves differ widely), so the split needs no tuning. The answer, in the order of
/// the legal moves, is the same as [`divide`]'s whatever the number of threads.
pub fn divide_threads<P: GamePosition>(pos: &P, depth: u32, threads: usize) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves();
    let counts: Vec<std::sync::atomic::AtomicU64> = moves
        .iter()
        .map(|_| std::sync::atomic::AtomicU64::new(0))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut bufs: Vec<Vec<P::Move>> = (0..depth).map(|_| Vec::with_capacity(128)).collect();
        loop {
            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(mv) = moves.get(k) else { break };
            let n = perft_with(&pos.play(mv), depth - 1, &mut bufs);
            counts[k].store(n, std::sync::atomic::Ordering::Relaxed);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.clamp(1, moves.len().max(1)) {
            scope.spawn(work);
        }
        work();
    });
    moves
        .into_iter()
        .zip(counts)
        .map(|(m, n)| (m, n.into_inner()))
        .collect()
}

/// [`perft`] on `threads` threads, split at the first move (see [`divide_threads`]).
pub fn perft_threads<P: GamePosition>(pos: &P, depth: u32, threads: usize) -> u64 {
    if depth == 0 || threads <= 1 {
        return perft(pos, depth);
    }
    divide_threads(pos, depth, threads)
        .iter()
        .map(|(_, n)| n)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameKind, Variant};

    #[test]
    fn a_split_perft_counts_what_the_single_thread_does() {
        for kind in [GameKind::Baroque, GameKind::Rococo] {
            let pos = Variant::of(kind, None).unwrap().start();
            for threads in [1, 2, 3] {
                assert_eq!(perft_threads(&pos, 3, threads), perft(&pos, 3));
                assert_eq!(divide_threads(&pos, 2, threads), divide(&pos, 2));
            }
        }
    }
}
