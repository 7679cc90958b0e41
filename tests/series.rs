//! The series movers (`ser-#N`, `ser-=N`, `ser-s#N`, `ser-h#N`) of both games against an oracle
//! written from the definitions with legal moves and status alone: one side plays N moves in a
//! row while the other passes (the oracle passes by rewriting the FEN's side to move), every
//! move legal, none before the last leaving the other side in check (its King capturable: in
//! Baroque the status `check`, in Rococo a legal move of the series side, after the pass, that
//! takes it; a Rococo side whose King was taken cannot pass either, the game being over); the
//! last mates (`ser-#`), stalemates (`ser-=`), leaves Black
//! a move and every one mating (`ser-s#`), or, in `ser-h#`, Black's series is followed by a
//! White move that mates. Each check counts the positions with a solution, so that one comparing
//! only empty sets fails.

#[path = "../crates/solver/tests/oracle/mod.rs"]
mod oracle;

use baroque::rules::prelude::*;
use baroque::rules::rococo::{Coords, RococoPosition};
use baroque::rules::Naming;
use baroque::solver::series::solve_series;
use baroque::solver::{SolveOptions, Stipulation};
use oracle::boards::{baroque_of, rococo_of, Walk};
use oracle::games::{playable, stalemated, Game, BAROQUE, ROCOCO};
use std::collections::HashSet;

/// Every line of `stipulation`'s form with `k` series moves from `p`, by the definition.
fn lines<P: GamePosition>(
    p: &P,
    stipulation: Stipulation,
    k: u32,
    game: &Game<P>,
) -> HashSet<Vec<P::Move>> {
    let mut out = HashSet::new();
    let mut line = Vec::new();
    walk(p, stipulation, k, game, &mut line, &mut out);
    out
}

fn walk<P: GamePosition>(
    p: &P,
    stipulation: Stipulation,
    k: u32,
    game: &Game<P>,
    line: &mut Vec<P::Move>,
    out: &mut HashSet<Vec<P::Move>>,
) {
    for m in playable(p) {
        let after = p.play(&m);
        line.push(m);
        if k == 1 {
            match stipulation {
                Stipulation::SeriesMate(_) if (game.lost)(&after) => {
                    out.insert(line.clone());
                }
                Stipulation::SeriesStalemate(_) if stalemated(game, &after) => {
                    out.insert(line.clone());
                }
                Stipulation::SeriesSelfMate(_) => {
                    let replies = playable(&after);
                    if !replies.is_empty() && replies.iter().all(|b| (game.lost)(&after.play(b))) {
                        out.insert(line.clone());
                    }
                }
                Stipulation::SeriesHelpMate(_) => {
                    for w in playable(&after) {
                        if (game.lost)(&after.play(&w)) {
                            let mut full = line.clone();
                            full.push(w);
                            out.insert(full);
                        }
                    }
                }
                _ => {}
            }
        } else if !(game.in_check)(&after) {
            walk(&(game.pass)(&after), stipulation, k - 1, game, line, out);
        }
        line.pop();
    }
}

/// The solve of `stipulation` for `p` lists the solutions and the shorter solutions of the
/// definition; whether it has a solution.
fn lines_agree<P: GamePosition>(p: &P, stipulation: Stipulation, game: &Game<P>) -> bool {
    let n = stipulation.moves();
    let opts = SolveOptions {
        stipulation,
        threads: 1,
        table_mib: 4,
        ..SolveOptions::default()
    };
    let h = solve_series(p, &opts, 1);
    let fen = p.fen(Naming::default());
    assert!(h.complete && !h.lines_truncated, "{stipulation} of {fen}");
    let want = lines(p, stipulation, n, game);
    let got: HashSet<Vec<P::Move>> = h.solutions.iter().cloned().collect();
    assert_eq!(got.len(), h.solutions.len(), "no line twice: {fen}");
    let diff = |a: &HashSet<Vec<P::Move>>, b: &HashSet<Vec<P::Move>>| {
        a.difference(b).take(3).cloned().collect::<Vec<_>>()
    };
    assert!(
        got == want,
        "{stipulation} of {fen}: {} lines, {} by the definition; found only: {:?}; missed: {:?}",
        got.len(),
        want.len(),
        diff(&got, &want),
        diff(&want, &got)
    );
    assert_eq!(h.count, want.len(), "{stipulation} of {fen}");
    let short: HashSet<Vec<P::Move>> = (1..n)
        .flat_map(|k| lines(p, stipulation, k, game))
        .collect();
    let got_short: HashSet<Vec<P::Move>> = h.short_solutions.iter().cloned().collect();
    assert!(
        got_short == short,
        "short solutions of {stipulation} of {fen}: found only {:?}; missed {:?}",
        diff(&got_short, &short),
        diff(&short, &got_short)
    );
    assert_eq!(
        h.sound,
        Some(short.is_empty() && want.len() == 1),
        "{stipulation} of {fen}"
    );
    !want.is_empty()
}

/// Checks `text` on `boards` Baroque boards of up to `extra` pieces besides the Kings and
/// `rococo.0` Rococo boards of up to `rococo.1`, made from `seed`, and on the Rococo positions
/// `known`; at least one of each game's must have a solution.
fn check_form(
    text: &str,
    boards: usize,
    extra: u64,
    rococo: (usize, u64),
    seed: u64,
    known: &[&str],
) {
    let stipulation = Stipulation::parse(text).unwrap();
    let turn = stipulation.starts().unwrap();
    // Selfmates and stalemates need a side short of moves: lopsided boards.
    let lopsided = matches!(
        stipulation,
        Stipulation::SeriesSelfMate(_) | Stipulation::SeriesStalemate(_)
    );
    let mut walk = Walk(seed);
    let (mut made, mut found) = (0, 0);
    while made < boards {
        if let Some(p) = baroque_of(&mut walk, turn, extra, lopsided) {
            made += 1;
            found += usize::from(lines_agree(&p, stipulation, &BAROQUE));
        }
    }
    assert!(found >= 1, "Baroque {stipulation}: no solution in {boards}");
    let (mut made, mut found_r) = (0, 0);
    while made < rococo.0 {
        if let Some(p) = rococo_of(&mut walk, turn, rococo.1, lopsided) {
            made += 1;
            found_r += usize::from(lines_agree(&p, stipulation, &ROCOCO));
        }
    }
    for fen in known {
        let p = RococoPosition::from_fen(fen, Coords::Standard).unwrap();
        found_r += usize::from(lines_agree(&p, stipulation, &ROCOCO));
    }
    eprintln!(
        "{stipulation}: Baroque {found} of {boards}, Rococo {found_r} of {}",
        rococo.0 + known.len()
    );
    assert!(
        found_r >= 1,
        "Rococo {stipulation}: no solution in {}",
        rococo.0
    );
}

#[test]
fn series_mates_have_the_lines_of_the_definition() {
    check_form("ser-#1", 400, 5, (200, 5), 71, &[]);
    check_form("ser-#2", 200, 3, (100, 3), 72, &[]);
    check_form("ser-#3", 40, 2, (20, 2), 73, &[]);
}

#[test]
fn series_stalemates_have_the_lines_of_the_definition() {
    check_form("ser-=1", 600, 5, (300, 5), 81, &[]);
    check_form("ser-=2", 200, 3, (100, 3), 82, &[]);
}

#[test]
fn series_selfmates_have_the_lines_of_the_definition() {
    // Rococo selfmates are rare on random boards: some found by the oracle alone (a search of
    // 20000 boards), each with a `ser-s#1` solution, and so a short one of `ser-s#2`.
    let known = [
        "10/10/10/3l6/2p4P2/4i5/2kKi5/10/10/10 w 0 -",
        "10/10/2I7/3i6/2K1a5/2ik6/2A7/7p2/10/10 w 0 -",
        "10/10/3W6/6iK2/2k3wi2/7p2/10/10/10/10 w 0 -",
        "10/10/10/10/5u4/4Kk4/6i3/6iI2/10/10 w 0 -",
    ];
    check_form("ser-s#1", 3000, 5, (1000, 6), 91, &known);
    check_form("ser-s#2", 400, 3, (200, 6), 92, &known);
}

#[test]
fn series_helpmates_have_the_lines_of_the_definition() {
    check_form("ser-h#1", 400, 5, (200, 5), 101, &[]);
    check_form("ser-h#2", 150, 3, (75, 3), 102, &[]);
}

/// Every solution line of `stipulation` for `p`, and every shorter one, replays through the
/// verification behind `/v1/play` (passes between the series' moves) and is judged solved, each
/// move before the last correct (or solved, where a shorter line ends); the first moves play
/// accepts are the lines'. Whether `p` had a solution.
fn play_agrees<P: GamePosition>(p: &P, stipulation: Stipulation) -> bool {
    // (Counted: the shorter `ser-h#N` lines played, White mating before Black's Nth move.)
    use baroque::solver::play::Verdict;
    use baroque::solver::series::SeriesLine;
    let opts = SolveOptions {
        stipulation,
        threads: 1,
        table_mib: 4,
        ..SolveOptions::default()
    };
    let h = solve_series(p, &opts, 1);
    if h.solutions.is_empty() || h.solutions.len() + h.short_solutions.len() > 20 {
        return false;
    }
    let naming = Naming::default();
    let fen = p.fen(naming);
    if matches!(stipulation, Stipulation::SeriesHelpMate(_)) {
        SHORT_HELPMATES.fetch_add(
            h.short_solutions.len(),
            std::sync::atomic::Ordering::Relaxed,
        );
    }
    for line in h.solutions.iter().chain(&h.short_solutions) {
        // The moves as a client sends them, each named in the position it is played from.
        let mut at = *p;
        let mut walk = SeriesLine::new(stipulation);
        // (The other side does not pass when the next move is its own: a shorter line.)
        let texts: Vec<String> = line
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let text = at.move_uci(m, naming);
                at = walk.step_before(at.play(m), line.get(i + 1));
                text
            })
            .collect();
        let mut walk = SeriesLine::new(stipulation);
        let (response, played) = baroque::app::line::verify_line(
            p,
            naming,
            texts.iter(),
            |after: P, next: Option<&String>| {
                let next = next
                    .and_then(|t| baroque::cases::play_text(&after, t, naming).ok())
                    .map(|(m, _, _)| m);
                walk.step_before(after, next.as_ref())
            },
        );
        assert!(response.first_illegal.is_none(), "{texts:?} of {fen}");
        assert_eq!(&played, line, "{fen}");
        for k in 1..=line.len() {
            let verdict = oracle::judge(p, stipulation, &line[..k]);
            let ok = if k == line.len() {
                verdict == Verdict::Solved
            } else {
                matches!(verdict, Verdict::Correct | Verdict::Solved)
            };
            assert!(ok, "{stipulation} {texts:?} ({k}) of {fen}: {verdict:?}");
        }
    }
    let firsts: HashSet<P::Move> = h
        .solutions
        .iter()
        .chain(&h.short_solutions)
        .map(|l| l[0])
        .collect();
    for m in playable(p) {
        let verdict = oracle::judge(p, stipulation, &[m]);
        let accepted = matches!(verdict, Verdict::Correct | Verdict::Solved);
        assert_eq!(
            accepted,
            firsts.contains(&m),
            "{stipulation} {m:?} of {fen}"
        );
    }
    true
}

/// The shorter `ser-h#N` lines [`play_agrees`] played.
static SHORT_HELPMATES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn series_solutions_replay_and_play_as_solved_in_both_games() {
    for (i, text) in ["ser-#2", "ser-=2", "ser-s#2", "ser-h#2", "ser-#3"]
        .iter()
        .enumerate()
    {
        let stipulation = Stipulation::parse(text).unwrap();
        let turn = stipulation.starts().unwrap();
        let lopsided = matches!(
            stipulation,
            Stipulation::SeriesSelfMate(_) | Stipulation::SeriesStalemate(_)
        );
        let mut walk = Walk(211 + i as u64);
        let (mut baroque, mut rococo) = (0, 0);
        let boards = if stipulation == Stipulation::SeriesSelfMate(2) {
            3000
        } else {
            150
        };
        for _ in 0..boards {
            if let Some(p) = baroque_of(&mut walk, turn, 3, lopsided) {
                baroque += usize::from(play_agrees(&p, stipulation));
            }
            if let Some(p) = rococo_of(&mut walk, turn, 3, lopsided) {
                rococo += usize::from(play_agrees(&p, stipulation));
            }
        }
        eprintln!("{stipulation}: played Baroque {baroque}, Rococo {rococo}");
        assert!(baroque + rococo >= 1, "{stipulation}: nothing played");
    }
    let short = SHORT_HELPMATES.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("shorter ser-h# lines played: {short}");
    assert!(short >= 1, "no shorter ser-h# line was played");
}
