//! Tests: Rococo puzzles from the generator (which is generic over the game): candidates,
//! soundness and themes.

use crate::generate::{candidate, generate, GenerateOptions, Source, Stop, Take};
use crate::rules::prelude::*;
use crate::rules::rococo::{Coords, RococoPosition};
use crate::rules::symmetry::rococo_setup;
use crate::rules::{Board10, Geometry, Piece, Variant};
use crate::solver::Cancel;
use crate::solver::{solve, SolveOptions};

fn opts(seed: u64, count: usize) -> GenerateOptions {
    GenerateOptions {
        variant: Variant::Rococo,
        stipulation: crate::solver::Stipulation::Mate(2),
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
        // The position's images, each made afresh (a candidate has no last swap).
        let image = |f: fn(u8, u8) -> (u8, u8), exchange: bool| {
            let pieces: Vec<(u8, Piece)> = pos
                .board()
                .iter()
                .map(|(sq, p)| {
                    let (file, rank) = f(Board10::file_of(sq), Board10::rank_of(sq));
                    let color = if exchange { p.color.other() } else { p.color };
                    (Board10::square(file, rank), Piece::new(color, p.role))
                })
                .collect();
            let turn = if exchange {
                pos.turn().other()
            } else {
                pos.turn()
            };
            rococo_setup(&pieces, turn)
        };
        let mirrored = image(|f, r| (9 - f, r), false);
        assert_eq!(mirrored.legal_moves().len(), pos.legal_moves().len());
        assert_eq!(mirrored.canonical_key(), key);
        let exchanged = image(|f, r| (f, 9 - r), true);
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
                stipulation: crate::solver::Stipulation::Mate(2),
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
