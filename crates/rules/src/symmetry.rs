//! What a game knows of its own symmetries and armies, for code that makes positions (the
//! puzzle generator): the kinds a side starts with, where a random setup may place pieces, and a
//! text that is the same for a position and its mirror images.
//!
//! - Baroque: the 8 symmetries of the square board (file and rank reflections and the diagonal
//!   transposition), each with the colours kept or exchanged (the side to move with them): the
//!   rules look the same from every side.
//! - Rococo: the mirror of the files, and the exchange of the colours with the mirror of the
//!   ranks. Cannon Pawns promote on the far rank, so the ranks have a direction and the board may
//!   not be turned. A position whose last move was a swap is compared as it is (the swap restricts
//!   the next move).

use super::board::Board;
use super::fen;
use super::geometry::{Board10, Board8, Geometry};
use super::piece::{Color, Letters, Piece, Role};
use super::position::Position;
use super::rococo::{Coords, RococoPosition};

/// Baroque's kinds besides the King, the Pawn first, with how many a side starts with.
pub const BAROQUE_KINDS: [(Role, u32); 6] = [
    (Role::Pawn, 8),
    (Role::Withdrawer, 1),
    (Role::LongLeaper, 2),
    (Role::Coordinator, 1),
    (Role::Immobilizer, 1),
    (Role::Chameleon, 2),
];

/// Rococo's kinds besides the King, the Cannon Pawn first, with how many a side starts with.
pub const ROCOCO_KINDS: [(Role, u32); 7] = [
    (Role::CannonPawn, 8),
    (Role::Immobilizer, 1),
    (Role::Withdrawer, 1),
    (Role::LongLeaper, 2),
    (Role::Chameleon, 1),
    (Role::Advancer, 1),
    (Role::Swapper, 1),
];

/// A square's image under symmetry `t` of the 8x8 board (bit 4: transpose, 1: mirror the files, 2:
/// mirror the ranks).
fn transform(sq: u8, t: u8) -> u8 {
    let (mut f, mut r) = (Board8::file_of(sq), Board8::rank_of(sq));
    if t & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    if t & 1 != 0 {
        f = 7 - f;
    }
    if t & 2 != 0 {
        r = 7 - r;
    }
    Board8::square(f, r)
}

/// The images of a Baroque position under the 16 symmetries of the rules.
pub fn baroque_images(pos: &Position) -> Vec<Position> {
    let mut out = Vec::with_capacity(16);
    for t in 0..8 {
        for swap in [false, true] {
            let mut board: Board<Board8> = Board::empty();
            for (sq, p) in pos.board().iter() {
                let color = if swap { p.color.other() } else { p.color };
                board.put(transform(sq, t), Piece::new(color, p.role));
            }
            let turn = if swap { pos.turn().other() } else { pos.turn() };
            out.push(Position::from_board(board, turn, *pos.rules()));
        }
    }
    out
}

/// The least of the FENs (without the move counter) of a Baroque position's images.
pub fn baroque_key(pos: &Position) -> String {
    baroque_images(pos)
        .iter()
        .map(|p| {
            let mut fen = p.fen(Letters::Chess);
            // The move counter plays no part in a puzzle.
            if let Some(i) = fen.rfind(' ') {
                fen.truncate(i);
            }
            fen
        })
        .min()
        .unwrap_or_default()
}

/// The least of the board-and-turn texts of a Rococo position's images (the position's own FEN
/// when its last move was a swap).
pub fn rococo_key(pos: &RococoPosition) -> String {
    if pos.last_swap.is_some() {
        return pos.fen(Coords::Standard);
    }
    let mut best: Option<String> = None;
    for mirror in [false, true] {
        for exchange in [false, true] {
            let mut board: Board<Board10> = Board::empty();
            for (sq, p) in pos.board().iter() {
                let (mut f, mut r) = (Board10::file_of(sq), Board10::rank_of(sq));
                if mirror {
                    f = 9 - f;
                }
                let mut color = p.color;
                if exchange {
                    r = 9 - r;
                    color = color.other();
                }
                board.put(Board10::square(f, r), Piece::new(color, p.role));
            }
            let turn = if exchange {
                pos.turn().other()
            } else {
                pos.turn()
            };
            let text = format!(
                "{} {}",
                fen::write_board(&board, |p| p.rococo_letter()),
                if turn == Color::White { 'w' } else { 'b' }
            );
            if best.as_ref().is_none_or(|b| text < *b) {
                best = Some(text);
            }
        }
    }
    best.unwrap_or_default()
}

/// The Rococo squares a random setup uses: the inner 8x8 board (a piece stands on an edge square
/// only after a capture that needed it).
pub fn rococo_setup_squares() -> u128 {
    (1..9)
        .flat_map(|r| (1..9).map(move |f| Board10::square(f, r)))
        .fold(0, |acc, sq| acc | (1u128 << sq))
}

/// A Rococo position with these pieces and this side to move, before any move.
pub fn rococo_setup(pieces: &[(u8, Piece)], turn: Color) -> RococoPosition {
    let mut board: Board<Board10> = Board::empty();
    for &(sq, p) in pieces {
        board.put(sq, p);
    }
    RococoPosition {
        board,
        turn,
        plies: 0,
        last_swap: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn every_image_has_as_many_legal_moves() {
        for fen in [
            "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0",
            "8/8/8/4k3/2K2M2/3q4/8/8 w 0",
        ] {
            let pos = Position::from_fen(fen, Rules::default()).unwrap();
            let n = pos.legal_moves().len();
            let images = baroque_images(&pos);
            assert_eq!(images.len(), 16);
            for image in &images {
                assert_eq!(
                    image.legal_moves().len(),
                    n,
                    "{}",
                    image.fen(Letters::Chess)
                );
                assert_eq!(baroque_key(image), baroque_key(&pos));
            }
        }
    }
}
