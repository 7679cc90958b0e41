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
