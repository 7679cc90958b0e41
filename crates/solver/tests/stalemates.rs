//! The stalemate stipulations (`=N`, `s=N`, `h=N`, `h=N.5`) of both games against oracles
//! written from their definitions with the rules engine's legal moves alone:
//!
//! - a side is *stalemated* when it is to move, its King is on the board and not capturable (not
//!   in check), and it has no legal move; whatever the rule set makes of it (Baroque's
//!   `stalemate: loss` included);
//! - the play stops once a King is taken (Rococo): a side without its King has no move;
//! - `=N`: some White move such that, against every Black move, White stalemates Black by its Nth
//!   move at the latest; `s=N`: White forces Black to stalemate White (Black has a move, and every
//!   one of them stalemates White or leaves White the same within its moves left); `h=N`: every
//!   line of legal moves of 2N plies (2N + 1 for `h=N.5`) whose last leaves Black stalemated.
//!
//! Positions are made by a fixed random walk (the same every run): sparse boards where
//! stalemates are common (Immobilizers freeze, Kings stand in corners). Each check also counts
//! the positions where the stipulation has an answer, so that a check that only ever compares
//! empty sets fails.

mod oracle;

use baroque_rules::prelude::*;
use baroque_rules::rococo::{Coords, RococoPosition};
use baroque_rules::{Color, Position, Rules};
use baroque_solver::help::solve_help;
use baroque_solver::{solve, SolveOptions, Stipulation};
use oracle::boards::{baroque, baroque_of, rococo, rococo_of, Walk};
use std::collections::HashSet;

/// The moves of the side to move: its legal moves, none once its King was taken.
fn playable<P: GamePosition>(p: &P) -> Vec<P::Move> {
    if p.king(p.turn()).is_none() {
        return Vec::new();
    }
    p.legal_moves()
}

/// The side to move is stalemated: its King on the board, not capturable, and no legal move.
fn stalemated<P: GamePosition>(p: &P) -> bool {
    p.king(p.turn()).is_some() && !p.in_check() && playable(p).is_empty()
}

/// `=n`, the attacker to move in `p`: some move after which the defender is beaten within `n`
/// attacker moves in all (the first included).
fn stalemates_within<P: GamePosition>(p: &P, n: u32) -> bool {
    n > 0
        && playable(p)
            .iter()
            .any(|m| stalemated_within(&p.play(m), n - 1))
}

/// The defender to move in `p`: stalemated now, or it has moves and every one of them leaves the
/// attacker a stalemate within `n` more of its moves.
fn stalemated_within<P: GamePosition>(p: &P, n: u32) -> bool {
    if stalemated(p) {
        return true;
    }
    let moves = playable(p);
    n > 0 && !moves.is_empty() && moves.iter().all(|d| stalemates_within(&p.play(d), n))
}

/// `s=n`, White to move in `p`: some move after which Black must stalemate White within `n`
/// White moves in all.
fn self_stalemates_within<P: GamePosition>(p: &P, n: u32) -> bool {
    n > 0
        && playable(p)
            .iter()
            .any(|w| black_must_stalemate(&p.play(w), n - 1))
}

/// Black to move in `p`: it has a move, and every move of its stalemates White, or leaves White a
/// selfstalemate within `n` more White moves.
fn black_must_stalemate<P: GamePosition>(p: &P, n: u32) -> bool {
    let moves = playable(p);
    !moves.is_empty()
        && moves.iter().all(|b| {
            let q = p.play(b);
            stalemated(&q) || self_stalemates_within(&q, n)
        })
}

/// The first moves of `p` after which `wins` (with the attacker's moves left after the first),
/// each with the fewest attacker moves in all: the keys of `=n` or `s=n`.
fn keys_by<P: GamePosition>(
    p: &P,
    n: u32,
    wins: impl Fn(&P, u32) -> bool,
) -> HashSet<(P::Move, u32)> {
    playable(p)
        .into_iter()
        .filter_map(|m| {
            let after = p.play(&m);
            (1..=n).find(|&k| wins(&after, k - 1)).map(|k| (m, k))
        })
        .collect()
}

fn options(stipulation: Stipulation) -> SolveOptions {
    SolveOptions {
        stipulation,
        threads: 1,
        table_mib: 4,
        max_refutations: 0,
        ..SolveOptions::default()
    }
}

/// The keys of `stipulation` (`=n` or `s=n`) of `p` are those of the definition; whether it has
/// any.
fn keys_agree<P: GamePosition>(p: &P, stipulation: Stipulation) -> bool {
    let n = stipulation.moves();
    let s = solve(p, &options(stipulation));
    assert!(
        !s.budget_exhausted,
        "{stipulation} of {}",
        p.fen(Default::default())
    );
    let want = if stipulation.is_self() {
        keys_by(p, n, black_must_stalemate)
    } else {
        keys_by(p, n, stalemated_within)
    };
    let got: HashSet<(P::Move, u32)> = s.keys.iter().map(|k| (k.mv, k.mate_in)).collect();
    assert_eq!(got, want, "{stipulation} of {}", p.fen(Default::default()));
    // Sound: exactly one key, of the full length.
    let sound = want.len() == 1 && want.iter().all(|k| k.1 == n);
    assert_eq!(
        s.sound,
        Some(sound),
        "{stipulation} of {}",
        p.fen(Default::default())
    );
    !want.is_empty()
}

/// The helpstalemate's lines of `p` are every line of the definition, its short solutions every
/// shorter one of the same start; whether it has any.
fn help_lines_agree<P: GamePosition>(p: &P, stipulation: Stipulation) -> bool {
    let plies = stipulation.help_plies().unwrap();
    let h = solve_help(p, &options(stipulation), 1);
    let fen = p.fen(Default::default());
    assert!(h.complete, "{stipulation} of {fen}");
    let want = oracle::help_lines(p, plies, &playable, &stalemated);
    let what = format!("{stipulation} of {fen}");
    if let Err(e) = oracle::same_lines(&h.solutions, h.count, h.lines_truncated, &want, &what) {
        panic!("{e}");
    }
    let shorter: HashSet<Vec<P::Move>> = (1..plies)
        .filter(|k| k % 2 == plies % 2)
        .flat_map(|k| oracle::help_lines(p, k, &playable, &stalemated))
        .collect();
    let short: HashSet<Vec<P::Move>> = h.short_solutions.iter().cloned().collect();
    assert_eq!(short, shorter, "shorter than {stipulation} of {fen}");
    !want.is_empty()
}

/// Runs `check` on `count` positions `make` gives (skipping those it cannot make): the positions
/// on which it found an answer.
fn sweep<P>(
    seed: u64,
    count: usize,
    mut make: impl FnMut(&mut Walk) -> Option<P>,
    mut check: impl FnMut(&P) -> bool,
) -> Vec<P> {
    let mut walk = Walk(seed);
    let (mut made, mut answered) = (0, Vec::new());
    while made < count {
        if let Some(p) = make(&mut walk) {
            made += 1;
            if check(&p) {
                answered.push(p);
            }
        }
    }
    answered
}

#[test]
fn direct_stalemates_in_one_and_two_have_the_keys_of_the_definition() {
    for (n, count) in [(1, 400), (2, 60)] {
        let stipulation = Stipulation::Stalemate(n);
        let extra = if n == 1 { 5 } else { 3 };
        let found = sweep(
            7 + u64::from(n),
            count,
            |w| baroque(w, Color::White, extra),
            |p| keys_agree(p, stipulation),
        )
        .len();
        assert!(found >= 2, "Baroque {stipulation}: {found} of {count}");
        let found = sweep(
            11 + u64::from(n),
            count / 2,
            |w| rococo(w, Color::White, extra),
            |p| keys_agree(p, stipulation),
        )
        .len();
        assert!(found >= 2, "Rococo {stipulation}: {found} of {count}");
    }
}

#[test]
fn selfstalemates_in_one_and_two_have_the_keys_of_the_definition() {
    let mut answered = (Vec::new(), Vec::new());
    for (n, count) in [(1, 400), (2, 160)] {
        let stipulation = Stipulation::SelfStalemate(n);
        let extra = if n == 1 { 5 } else { 3 };
        let found = sweep(
            17 + u64::from(n),
            count,
            |w| baroque_of(w, Color::White, extra, true),
            |p| keys_agree(p, stipulation),
        );
        assert!(!found.is_empty(), "Baroque {stipulation}: none of {count}");
        answered.0.extend(found);
        let found = sweep(
            19 + u64::from(n),
            count / 2,
            |w| rococo_of(w, Color::White, extra, true),
            |p| keys_agree(p, stipulation),
        );
        answered.1.extend(found);
    }
    // Random Rococo boards rarely hold a selfstalemate in two: those holding one in one are
    // solved as `s=2` too (their keys of one move count, with a length of 1).
    assert!(!answered.1.is_empty(), "Rococo s=1: none");
    for p in &answered.1 {
        assert!(keys_agree(p, Stipulation::SelfStalemate(2)));
    }
    for p in &answered.0 {
        assert!(keys_agree(p, Stipulation::SelfStalemate(2)));
    }
}

#[test]
fn helpstalemates_are_every_cooperating_line() {
    for (i, (text, count)) in [("h=0.5", 300), ("h=1", 300), ("h=1.5", 80), ("h=2", 100)]
        .into_iter()
        .enumerate()
    {
        let stipulation = Stipulation::parse(text).unwrap();
        let turn = stipulation.starts().unwrap();
        let extra = if count > 100 { 5 } else { 3 };
        let found = sweep(
            23 + i as u64,
            count,
            |w| baroque(w, turn, extra),
            |p| help_lines_agree(p, stipulation),
        )
        .len();
        assert!(found >= 1, "Baroque {stipulation}: {found} of {count}");
        let found = sweep(
            29 + i as u64,
            count / 2,
            |w| rococo(w, turn, extra),
            |p| help_lines_agree(p, stipulation),
        )
        .len();
        assert!(found >= 1, "Rococo {stipulation}: {found} of {count}");
    }
}

/// Every line a stalemate solve reports replays through the verification behind `/v1/verify` to
/// a stalemate of the right side, and the judgement behind `/v1/play` agrees with the solve.
#[test]
fn solve_verify_and_play_agree_on_the_stalemates() {
    let stipulations = ["=1", "=2", "s=1", "h=1", "h=0.5", "h=1.5"];
    for (i, text) in stipulations.iter().enumerate() {
        let stipulation = Stipulation::parse(text).unwrap();
        let turn = stipulation.starts().unwrap_or(Color::White);
        let agree = |p: &dyn Fn() -> Result<(), proptest::test_runner::TestCaseError>| match p() {
            Ok(()) | Err(proptest::test_runner::TestCaseError::Reject(_)) => {}
            Err(e) => panic!("{stipulation}: {e}"),
        };
        let mut walk = Walk(31 + i as u64);
        for _ in 0..40 {
            if let Some(p) = baroque(&mut walk, turn, 3) {
                agree(&|| oracle::solve_verify_and_play_agree(&p, stipulation));
            }
            if let Some(p) = rococo(&mut walk, turn, 3) {
                agree(&|| oracle::solve_verify_and_play_agree(&p, stipulation));
            }
        }
    }
}

/// A hand-checked `=1` of each game: a lone Black King is stalemated once the White Immobilizer
/// stands next to it (frozen, it has no move, and an Immobilizer captures nothing, so it is not
/// in check); the Immobilizer reaches one square next to it, and nothing else stalemates.
#[test]
fn an_immobilizer_next_to_a_lone_king_stalemates_it() {
    let p = Position::from_fen_validated("7k/8/8/4M3/8/8/8/K7 w 0", Rules::default()).unwrap();
    let s = solve(&p, &options(Stipulation::Stalemate(1)));
    let keys: Vec<String> = s
        .keys
        .iter()
        .map(|k| p.move_uci(&k.mv, Default::default()))
        .collect();
    assert_eq!(keys, ["e5g7"]);
    assert_eq!(s.sound, Some(true));
    assert!(stalemated(&p.play(&s.keys[0].mv)));
    let fen = "10/8k1/10/10/5I4/10/10/10/1K8/10 w 0 -";
    let p = RococoPosition::from_fen(fen, Coords::Standard).unwrap();
    let s = solve(&p, &options(Stipulation::Stalemate(1)));
    let keys: Vec<String> = s
        .keys
        .iter()
        .map(|k| p.move_uci(&k.mv, Default::default()))
        .collect();
    assert_eq!(keys, ["f6h8"]);
    assert_eq!(s.sound, Some(true));
    assert!(stalemated(&p.play(&s.keys[0].mv)));
}
