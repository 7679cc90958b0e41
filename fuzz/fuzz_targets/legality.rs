//! Oracle: a move is in the legal list exactly when the single-move legality check accepts it, for
//! made-up moves of every role between any two squares.
#![no_main]
use baroque_rules::{Move, MoveKind, Position, Role, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let cut = (split as usize).min(rest.len());
    let (fen, tail) = rest.split_at(cut);
    let Ok(text) = std::str::from_utf8(fen) else {
        return;
    };
    let Ok(pos) = Position::from_fen_validated(text, Rules::default()) else {
        return;
    };
    let legal = pos.legal_moves();
    for m in &legal {
        assert!(pos.is_legal(m));
    }
    for chunk in tail.chunks(3).take(64) {
        if let [from, to, role] = *chunk {
            let m = Move {
                from: from % 64,
                to: to % 64,
                role: Role::BAROQUE[role as usize % 7],
                kind: if from % 64 == to % 64 {
                    MoveKind::Suicide
                } else {
                    MoveKind::Normal
                },
                captures: 0,
            };
            assert_eq!(pos.is_legal(&m), legal.contains(&m));
        }
    }
});
