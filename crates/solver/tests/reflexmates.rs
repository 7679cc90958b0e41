//! The reflexmates (`r#N`, `semi-r#N`) of both games against an oracle written from the
//! definition with legal moves alone: as `s#N` (White forces Black to mate it), but where Black
//! can mate in one it must (and that ends the play: the goal is met when White is mated), and in
//! `r#N` White too must mate when it can, which fails the play. Boards as in
//! `tests/stalemates.rs`; each check counts the positions with an answer, so that one comparing
//! only empty sets fails.

mod oracle;

use baroque_rules::prelude::*;
use baroque_rules::rococo::RococoPosition;
use baroque_rules::{Color, Position, Stalemate, Status};
use baroque_solver::{solve, SolveOptions, Stipulation};
use oracle::boards::{baroque_of, rococo_of, Walk};
use std::collections::HashSet;

/// The moves of the side to move: its legal moves, none once its King was taken.
fn playable<P: GamePosition>(p: &P) -> Vec<P::Move> {
    if p.king(p.turn()).is_none() {
        return Vec::new();
    }
    p.legal_moves()
}

/// Baroque: the side to move has lost (checkmate, or no move under `stalemate: loss`).
fn lost_baroque(p: &Position) -> bool {
    p.legal_moves().is_empty() && (p.is_check() || p.rules().stalemate == Stalemate::Loss)
}

/// Rococo: the side to move has lost (its King taken, or the status `checkmate`).
fn lost_rococo(p: &RococoPosition) -> bool {
    p.board().king(p.turn()).is_none() || p.status() == Status::Checkmate
}

/// The side to move has a move that leaves the other side lost.
fn can_mate<P: GamePosition>(p: &P, lost: &impl Fn(&P) -> bool) -> bool {
    playable(p).iter().any(|m| lost(&p.play(m)))
}

/// White to move: a reflexmate within `n` White moves (`both`: White bound too).
fn wins_within<P: GamePosition>(p: &P, n: u32, both: bool, lost: &impl Fn(&P) -> bool) -> bool {
    n > 0
        && !(both && can_mate(p, lost))
        && playable(p)
            .iter()
            .any(|w| black_loses(&p.play(w), n - 1, both, lost))
}

/// Black to move: it can mate, and must (the goal); or it has moves, and each leaves White a
/// reflexmate within `n` more moves.
fn black_loses<P: GamePosition>(p: &P, n: u32, both: bool, lost: &impl Fn(&P) -> bool) -> bool {
    if can_mate(p, lost) {
        return true;
    }
    let moves = playable(p);
    n > 0 && !moves.is_empty() && moves.iter().all(|b| wins_within(&p.play(b), n, both, lost))
}

/// The keys of `stipulation` of `p` are those of the definition; whether it has any.
fn keys_agree<P: GamePosition>(
    p: &P,
    stipulation: Stipulation,
    lost: &impl Fn(&P) -> bool,
) -> bool {
    let n = stipulation.moves();
    let both = matches!(stipulation, Stipulation::ReflexMate(_));
    let opts = SolveOptions {
        stipulation,
        threads: 1,
        table_mib: 4,
        max_refutations: 0,
        ..SolveOptions::default()
    };
    let s = solve(p, &opts);
    let fen = p.fen(Default::default());
    assert!(!s.budget_exhausted, "{stipulation} of {fen}");
    let want: HashSet<(P::Move, u32)> = if both && can_mate(p, lost) {
        HashSet::new()
    } else {
        playable(p)
            .into_iter()
            .filter_map(|m| {
                let after = p.play(&m);
                (1..=n)
                    .find(|&k| black_loses(&after, k - 1, both, lost))
                    .map(|k| (m, k))
            })
            .collect()
    };
    let got: HashSet<(P::Move, u32)> = s.keys.iter().map(|k| (k.mv, k.mate_in)).collect();
    assert_eq!(got, want, "{stipulation} of {fen}");
    !want.is_empty()
}

#[test]
fn reflexmates_in_one_and_two_have_the_keys_of_the_definition() {
    for text in ["r#1", "semi-r#1", "r#2", "semi-r#2"] {
        let stipulation = Stipulation::parse(text).unwrap();
        let (count, extra) = if stipulation.moves() == 1 {
            (300, 5)
        } else {
            (60, 3)
        };
        let mut walk = Walk(41 + u64::from(stipulation.moves()));
        let (mut made, mut found) = (0, 0);
        while made < count {
            if let Some(p) = baroque_of(&mut walk, Color::White, extra, true) {
                made += 1;
                found += usize::from(keys_agree(&p, stipulation, &lost_baroque));
            }
        }
        assert!(found >= 1, "Baroque {stipulation}: none of {count}");
        let (mut made, mut found) = (0, 0);
        while made < count / 2 {
            if let Some(p) = rococo_of(&mut walk, Color::White, extra, true) {
                made += 1;
                found += usize::from(keys_agree(&p, stipulation, &lost_rococo));
            }
        }
        eprintln!("Rococo {stipulation}: {found} of {}", count / 2);
    }
}

/// Every line a reflexmate solve reports replays through the verification behind `/v1/verify` to
/// White mated, and the judgement behind `/v1/play` agrees with the solve (its correct first
/// moves are the keys), in both games.
#[test]
fn solve_verify_and_play_agree_on_the_reflexmates() {
    for (i, text) in ["r#1", "semi-r#1", "r#2", "semi-r#2"].iter().enumerate() {
        let stipulation = Stipulation::parse(text).unwrap();
        let agree = |r: Result<(), proptest::test_runner::TestCaseError>| match r {
            Ok(()) | Err(proptest::test_runner::TestCaseError::Reject(_)) => {}
            Err(e) => panic!("{stipulation}: {e}"),
        };
        let mut walk = Walk(53 + i as u64);
        for _ in 0..30 {
            if let Some(p) = baroque_of(&mut walk, Color::White, 3, true) {
                agree(oracle::solve_verify_and_play_agree(&p, stipulation));
            }
            if let Some(p) = rococo_of(&mut walk, Color::White, 3, true) {
                agree(oracle::solve_verify_and_play_agree(&p, stipulation));
            }
        }
    }
}
