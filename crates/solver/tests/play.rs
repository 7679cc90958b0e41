//! Playing stipulations move by move ([`baroque_solver::play`]) against what the solver proves,
//! on the generated positions of the stipulation benches (`fixtures/bench/stipulations.json`):
//! a site that always plays an accepted move and the reply it is given solves every `#2` within
//! two moves, ending in checkmate; every accepted first move is a key; every other first move is
//! wrong, and its refutation leaves no mate in one; every helpmate solution plays as correct
//! moves to `solved`, and a first move of no solution is wrong.

use baroque_rules::{GameNotation, GameRules, Naming, Position, Rules, Status};
use baroque_solver::help::solve_help;
use baroque_solver::play::{play, NoProof, PlayOptions, PlayReport, Verdict};
use baroque_solver::{solve, Cancel, Limits, SolveOptions, Stipulation};
use std::collections::BTreeSet;

fn bench(list: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/bench/stipulations.json"
    ))
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| Position::from_fen(f.as_str().unwrap(), Rules::default()).unwrap())
        .collect()
}

fn limits() -> Limits {
    Limits {
        nodes: 50_000_000,
        time: std::time::Duration::from_secs(120),
    }
}

fn judge(pos: &Position, line: &[baroque_rules::Move], stipulation: Stipulation) -> PlayReport {
    let r = play(
        pos,
        line,
        &PlayOptions {
            stipulation,
            limits: limits(),
            table_mib: 4,
            cancel: Cancel::new(),
            naming: Naming::default(),
            hint: true,
            proof: &NoProof,
            search: true,
        },
    );
    assert!(r.complete && !r.budget_exhausted, "{r:?}");
    r
}

/// Plays a named move of `at`.
fn parse(at: &Position, notation: &str) -> baroque_rules::Move {
    GameNotation::parse_move(at, notation, Naming::default()).unwrap()
}

fn keys_of(pos: &Position, n: u32) -> BTreeSet<String> {
    let s = solve(
        pos,
        &SolveOptions {
            stipulation: Stipulation::Mate(n),
            limits: limits(),
            table_mib: 4,
            threads: 1,
            max_refutations: 0,
            ..SolveOptions::default()
        },
    );
    s.keys
        .iter()
        .map(|k| GameNotation::move_name(pos, &k.mv, Naming::default()))
        .collect()
}

#[test]
fn a_site_that_plays_accepted_moves_and_replies_solves_every_mate_in_2() {
    for pos in bench("direct_mates") {
        let stipulation = Stipulation::Mate(2);
        let keys = keys_of(&pos, 2);
        let start = judge(&pos, &[], stipulation);
        assert_eq!(start.verdict, Verdict::Correct);
        assert_eq!(start.remaining, 2);
        let accepted: BTreeSet<String> =
            start.accepted.iter().map(|m| m.notation.clone()).collect();
        assert_eq!(
            accepted,
            keys,
            "{}",
            GameNotation::fen(&pos, Naming::default())
        );
        let hint = start.hint.clone().unwrap();
        assert!(
            start.accepted.iter().any(|m| m.uci.starts_with(&hint)),
            "the hint {hint} moves no accepted piece"
        );
        let mut line = Vec::new();
        let mut at = pos;
        let mut solved = false;
        for step in 0..2 {
            let now = judge(&pos, &line, stipulation);
            let mv = parse(&at, &now.accepted[0].notation);
            line.push(mv);
            at = at.play(&mv);
            let r = judge(&pos, &line, stipulation);
            if r.verdict == Verdict::Solved {
                assert_eq!(GameRules::status(&at), Status::Checkmate);
                assert_eq!(r.remaining, 0);
                assert!(r.reply.is_none());
                solved = true;
                break;
            }
            assert_eq!(r.verdict, Verdict::Correct, "step {step}");
            assert_eq!(r.remaining, 1 - step);
            let reply = parse(&at, &r.reply.unwrap().notation);
            line.push(reply);
            at = at.play(&reply);
        }
        assert!(
            solved,
            "{} not solved in 2",
            GameNotation::fen(&pos, Naming::default())
        );
    }
}

#[test]
fn every_other_first_move_is_wrong_and_its_refutation_leaves_no_mate_in_1() {
    for pos in bench("direct_mates").into_iter().take(3) {
        let stipulation = Stipulation::Mate(2);
        let keys = keys_of(&pos, 2);
        for mv in GameRules::legal_moves(&pos).into_iter().take(12) {
            let name = GameNotation::move_name(&pos, &mv, Naming::default());
            let r = judge(&pos, &[mv], stipulation);
            if keys.contains(&name) {
                assert!(matches!(r.verdict, Verdict::Correct | Verdict::Solved));
                continue;
            }
            assert_eq!(r.verdict, Verdict::Wrong, "{name}");
            assert_eq!(r.judged, Some(0));
            let after = pos.play(&mv);
            match r.refutation {
                Some(refutation) => {
                    let d = parse(&after, &refutation.notation);
                    assert!(
                        keys_of(&after.play(&d), 1).is_empty(),
                        "{name} {refutation:?}"
                    );
                }
                None => assert!(GameRules::legal_moves(&after).is_empty()),
            }
            let accepted: BTreeSet<String> =
                r.accepted.iter().map(|m| m.notation.clone()).collect();
            assert_eq!(accepted, keys);
        }
    }
}

#[test]
fn every_helpmate_solution_plays_to_solved() {
    for pos in bench("helpmates").into_iter().take(4) {
        let stipulation = Stipulation::HelpMate {
            moves: 2,
            half: false,
        };
        let h = solve_help(
            &pos,
            &SolveOptions {
                stipulation,
                limits: limits(),
                ..SolveOptions::default()
            },
            1,
        );
        assert!(h.complete && h.count >= 1);
        let firsts: BTreeSet<String> = h
            .solutions
            .iter()
            .map(|l| GameNotation::move_name(&pos, &l[0], Naming::default()))
            .collect();
        for solution in &h.solutions {
            for k in 1..=solution.len() {
                let r = judge(&pos, &solution[..k], stipulation);
                let want = if k == solution.len() {
                    Verdict::Solved
                } else {
                    Verdict::Correct
                };
                assert_eq!(r.verdict, want);
                assert_eq!(r.remaining, 4 - k as u32);
                assert!(r.reply.is_none());
            }
        }
        let wrong = pos
            .legal_moves()
            .into_iter()
            .find(|m| !firsts.contains(&GameNotation::move_name(&pos, m, Naming::default())))
            .unwrap();
        assert_eq!(judge(&pos, &[wrong], stipulation).verdict, Verdict::Wrong);
    }
}
