//! Perft: the number of leaf nodes of the legal-move tree, a signature of the move generator.

use super::movegen::MoveList;
use super::position::{Move, Position};

/// The number of move sequences of length `depth` from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut bufs: Vec<MoveList> = (0..=depth).map(|_| Vec::with_capacity(128)).collect();
    perft_with(pos, depth, &mut bufs)
}

fn perft_with(pos: &Position, depth: u32, bufs: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_legal(buf);
    }
    pos.generate_legal(buf);
    let mut n = 0;
    for mv in buf.iter() {
        n += perft_with(&pos.after(mv), depth - 1, rest);
    }
    n
}

/// Perft split by first move: each legal move with the count below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|mv| (mv, perft(&pos.after(&mv), depth - 1)))
        .collect()
}

/// Perft for Rococo (every move is legal there).
pub fn rococo_perft(pos: &super::rococo::RococoPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| rococo_perft(&pos.after(m), depth - 1))
        .sum()
}
