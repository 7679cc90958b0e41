//! Rococo candidates: random placements on the inner board, random play-outs from the page's start
//! position, and the game's symmetries (the mirror of the files, and the exchange of the colours
//! with the mirror of the ranks: Cannon Pawns promote on the far rank, so the ranks have a direction
//! and the board may not be turned).

use super::{Generatable, GenerateOptions, Rng};
use crate::rules::rococo::{Coords, RococoPosition};
use crate::rules::GamePosition;
use crate::rules::{fen, Board, Board10, Color, Geometry, Piece, Role};

/// The kinds other than the King a side starts with, and how many of each.
const KINDS: [(Role, u32); 7] = [
    (Role::CannonPawn, 8),
    (Role::Immobilizer, 1),
    (Role::Withdrawer, 1),
    (Role::LongLeaper, 2),
    (Role::Chameleon, 1),
    (Role::Advancer, 1),
    (Role::Swapper, 1),
];

fn position(board: Board<Board10>, turn: Color) -> RococoPosition {
    RococoPosition {
        board,
        turn,
        plies: 0,
        last_swap: None,
    }
}

impl Generatable for RococoPosition {
    /// Pieces on the inner 8x8 board only: a piece stands on an edge square only after a capture
    /// that needed it.
    fn random(rng: &mut Rng, opts: &GenerateOptions) -> RococoPosition {
        let mut board: Board<Board10> = Board::empty();
        let mut free: Vec<u8> = (1..9)
            .flat_map(|r| (1..9).map(move |f| Board10::square(f, r)))
            .collect();
        let mut place = |rng: &mut Rng, board: &mut Board<Board10>, piece: Piece| {
            let i = rng.below(free.len() as u64) as usize;
            board.put(free.swap_remove(i), piece);
        };
        place(rng, &mut board, Piece::new(Color::White, Role::King));
        place(rng, &mut board, Piece::new(Color::Black, Role::King));
        let extra = 1 + rng.below((opts.max_pieces - 2) as u64) as usize;
        let mut counts = [[0u32; 7]; 2];
        for _ in 0..extra {
            let color = if rng.chance(55) {
                Color::White
            } else {
                Color::Black
            };
            let k = if rng.chance(40) {
                0
            } else {
                1 + rng.below(6) as usize
            };
            let (role, max) = KINDS[k];
            let n = &mut counts[color.index()][k];
            if *n < max {
                *n += 1;
                place(rng, &mut board, Piece::new(color, role));
            }
        }
        let turn = if rng.chance(50) {
            Color::White
        } else {
            Color::Black
        };
        position(board, turn)
    }

    fn playout(rng: &mut Rng, opts: &GenerateOptions) -> Option<RococoPosition> {
        let mut pos = RococoPosition::start();
        let extra = rng.below(6);
        let mut after_budget = 0;
        for _ in 0..500 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return None;
            }
            let captures: Vec<_> = moves.iter().filter(|m| Self::is_capture(m)).collect();
            let mv = if !captures.is_empty() && rng.chance(85) {
                *captures[rng.below(captures.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            if pos.takes_king(&mv) {
                return None;
            }
            pos = pos.after(&mv);
            if pos.board().occupied().count_ones() as usize <= opts.max_pieces {
                if after_budget >= extra {
                    return Some(pos);
                }
                after_budget += 1;
            }
        }
        None
    }

    fn acceptable(&self, opts: &GenerateOptions) -> bool {
        let board = self.board();
        board.king(Color::White).is_some()
            && board.king(Color::Black).is_some()
            && board.occupied().count_ones() as usize <= opts.max_pieces
            && !self.validate().iter().any(|p| p.error)
            && (opts.allow_check || !self.in_check())
            && self.has_search_move()
    }

    fn canonical_key(&self) -> String {
        // A recorded swap restricts the next move: such a position is compared as it is.
        if self.last_swap.is_some() {
            return self.fen(Coords::Standard);
        }
        let mut best: Option<String> = None;
        for mirror in [false, true] {
            for exchange in [false, true] {
                let mut board: Board<Board10> = Board::empty();
                for (sq, p) in self.board().iter() {
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
                    self.turn().other()
                } else {
                    self.turn()
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{candidate, generate, Source, Stop, Take};
    use crate::solver::Cancel;
    use crate::solver::{solve, SolveOptions};

    fn opts(seed: u64, count: usize) -> GenerateOptions {
        GenerateOptions {
            game: crate::cases::Game::Rococo,
            mate_in: 2,
            count,
            seed,
            max_pieces: 8,
            threads: 2,
            ..GenerateOptions::default()
        }
    }

    #[test]
    fn mirror_images_have_as_many_moves_and_one_key() {
        let o = opts(3, 1);
        let mut made = [0; 2];
        for i in 0..200 {
            let Some((pos, source)) = candidate::<RococoPosition>(&o, i) else {
                continue;
            };
            made[(source == Source::Playout) as usize] += 1;
            assert!(pos.board().occupied().count_ones() <= 8);
            let key = pos.canonical_key();
            let mirrored = {
                let mut board: Board<Board10> = Board::empty();
                for (sq, p) in pos.board().iter() {
                    let (f, r) = (Board10::file_of(sq), Board10::rank_of(sq));
                    board.put(Board10::square(9 - f, r), p);
                }
                RococoPosition { board, ..pos }
            };
            assert_eq!(mirrored.legal_moves().len(), pos.legal_moves().len());
            assert_eq!(mirrored.canonical_key(), key);
            let exchanged = {
                let mut board: Board<Board10> = Board::empty();
                for (sq, p) in pos.board().iter() {
                    let (f, r) = (Board10::file_of(sq), Board10::rank_of(sq));
                    board.put(
                        Board10::square(f, 9 - r),
                        Piece::new(p.color.other(), p.role),
                    );
                }
                RococoPosition {
                    board,
                    turn: pos.turn().other(),
                    ..pos
                }
            };
            assert_eq!(exchanged.legal_moves().len(), pos.legal_moves().len());
            assert_eq!(exchanged.canonical_key(), key);
        }
        assert!(made[0] > 20 && made[1] > 5, "{made:?}");
    }

    #[test]
    fn found_rococo_puzzles_are_sound() {
        let r = generate::<RococoPosition>(&opts(5, 2), &Cancel::new(), |_, _| Take::Kept).unwrap();
        assert_eq!(r.stop, Stop::Done);
        for p in &r.puzzles {
            let full = solve(
                &p.position,
                &SolveOptions {
                    mate_in: 2,
                    ..SolveOptions::default()
                },
            );
            assert_eq!(
                full.sound,
                Some(true),
                "{}",
                p.position.fen(Coords::Standard)
            );
            assert!(
                p.themes.iter().any(|t| t.starts_with("key-")),
                "{:?}",
                p.themes
            );
        }
    }
}
