//! Oracle: a Rococo move is in the legal list exactly when the single-move legality check (the
//! moves of its piece alone) accepts it, for the moves of the list and for made-up moves of every
//! role and kind between any two squares.
#![no_main]
use baroque_rules::rococo::{Coords, RococoKind, RococoMove, RococoPosition};
use baroque_rules::Role;
use libfuzzer_sys::fuzz_target;

const KINDS: [RococoKind; 4] = [
    RococoKind::Normal,
    RococoKind::Swap,
    RococoKind::MutualDestruction,
    RococoKind::Suicide,
];

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let cut = (split as usize).min(rest.len());
    let (fen, tail) = rest.split_at(cut);
    let Ok(text) = std::str::from_utf8(fen) else {
        return;
    };
    let Ok(pos) = RococoPosition::from_fen(text, Coords::Standard) else {
        return;
    };
    if pos.validate().iter().any(|p| p.is_error()) {
        return;
    }
    let legal = pos.legal_moves();
    for m in &legal {
        assert!(pos.is_legal(m), "{m:?}");
    }
    for chunk in tail.chunks(4).take(64) {
        if let [from, to, role, kind] = *chunk {
            // Made up, or a move of the list with one part changed.
            let mut m = match legal.get(kind as usize / 4 % legal.len().max(1)) {
                Some(real) if kind & 2 == 0 => *real,
                _ => RococoMove {
                    from: from % 100,
                    to: to % 100,
                    role: Role::ALL[role as usize % Role::ALL.len()],
                    kind: KINDS[kind as usize % 4],
                    captures: 0,
                    promotion: None,
                },
            };
            if kind & 1 == 1 {
                m.to = to % 100;
            }
            assert_eq!(pos.is_legal(&m), legal.contains(&m), "{m:?} in {text}");
        }
    }
});
