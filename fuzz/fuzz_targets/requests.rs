//! The use cases of the requests, without HTTP or JSON: the first byte picks one (analyze, verify,
//! solve, a puzzle's verification), the rest is its members, a line each (the FEN first). The
//! request is read into the use case's query, which is run under a tiny budget. Never panics;
//! every refusal says what is wrong in words; every solve keeps to its node and time budget and
//! says whether it ran out (and which limit), an `unknown` result only when it did.
#![no_main]
use baroque_app::analysis::analyze;
use baroque_app::line::{check_moves, verify, VerifyQuery};
use baroque_app::position::PositionInput;
use baroque_app::solve::{AskedBudget, SolveInput, SolveLimits, SolveQuery, Solved};
use baroque_puzzle::{About, Claim, MateClaim, NewPuzzle};
use baroque_rules::rococo::Coords;
use baroque_rules::GameKind;
use baroque_solver::{Cancel, Outcome};
use libfuzzer_sys::fuzz_target;

/// A search budget small enough for a fuzz target.
const LIMITS: SolveLimits = SolveLimits {
    max_nodes: 2_000,
    max_millis: 20,
    max_mate_in: 12,
    max_tree_nodes: 50,
    table_mib: 0,
    threads: 1,
    concurrency: 1,
};

/// A refusal must say what is wrong.
fn refused(e: impl std::fmt::Display) {
    assert!(!e.to_string().is_empty());
}

/// A number of the input (a member is a line; an unreadable one is absent).
fn number(line: Option<&str>) -> Option<u64> {
    line.and_then(|l| l.trim().parse().ok())
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.split('\n');
    let position = PositionInput {
        fen: lines.next().unwrap_or_default().to_string(),
        game: if op & 8 == 8 {
            GameKind::Rococo
        } else {
            GameKind::Baroque
        },
        coords: (op & 16 == 16).then_some(Coords::Page),
        rules: None,
    };
    match op % 4 {
        0 => match position.read() {
            Ok(p) => drop(analyze(&p, &Cancel::new())),
            Err(e) => refused(e),
        },
        1 => {
            let moves: Vec<String> = lines.take(65).map(String::from).collect();
            if let Err(e) = check_moves(&moves, 64) {
                return refused(e);
            }
            match position.read() {
                Ok(position) => drop(verify(&VerifyQuery { position, moves }, &Cancel::new())),
                Err(e) => refused(e),
            }
        }
        2 => {
            let stipulation = lines.next().map(String::from).filter(|s| !s.is_empty());
            let mate_in = number(lines.next()).map(|n| n as u32);
            let key = lines.next().map(String::from).filter(|s| !s.is_empty());
            let nodes = number(lines.next());
            let millis = number(lines.next());
            let input = SolveInput {
                position,
                mate_in,
                stipulation,
                intended_solutions: number(lines.next()).map(|n| n as u32),
                max_solutions: number(lines.next()).map(|n| n as u32),
                max_refutations: number(lines.next()).map(|n| n as u32),
                set_play: op & 32 == 32,
                twins: lines.take(3).map(String::from).collect(),
                key,
                budget: AskedBudget {
                    nodes,
                    millis,
                    max_tree_nodes: None,
                },
                text: None,
            };
            match SolveQuery::parse(input, &LIMITS) {
                Ok(q) => {
                    let report = baroque_app::solve::run(&q);
                    let (nodes, elapsed, exhausted, by, unknown) = match &report.solved {
                        Solved::Tree(s) => (
                            s.nodes,
                            s.millis,
                            s.budget_exhausted,
                            s.exhausted_by,
                            s.result == Outcome::Unknown,
                        ),
                        Solved::Lines(s) => (
                            s.nodes,
                            s.millis,
                            s.budget_exhausted,
                            s.exhausted_by,
                            s.count == 0 && !s.complete,
                        ),
                    };
                    // The node count is checked every 1,024 nodes of each thread (one here).
                    assert!(nodes <= LIMITS.max_nodes + 4096, "{nodes}");
                    // The clock in every phase: the budget plus the promised 200 ms (plus slack
                    // for an instrumented build).
                    assert!(elapsed <= q.limits.millis + 1000, "{elapsed}");
                    assert_eq!(exhausted, by.is_some(), "{by:?}");
                    if unknown {
                        assert!(exhausted);
                    }
                }
                Err(e) => refused(e),
            }
        }
        _ => {
            let Some(stipulation) = lines.next().and_then(baroque_solver::Stipulation::parse) else {
                return;
            };
            let Ok(variant) = baroque_rules::Variant::of(position.game, None) else {
                return;
            };
            let new = NewPuzzle {
                variant,
                fen: position.fen,
                claim: Claim::Mate(MateClaim {
                    stipulation,
                    keys: lines.next().map(|k| vec![k.to_string()]),
                    ..MateClaim::default()
                }),
                about: About::default(),
            };
            if let Err(e) = baroque_puzzle::verify(new, &LIMITS.options()) {
                refused(e);
            }
        }
    }
});
