//! Mate search: the documents' Chameleon #2, a sound #3 with a dual, and midgame #3 proofs (no mate,
//! the costly case), with the transposition table and threads as the solver's defaults; generated
//! sound mates in 4 and 5 (one thread).

use baroque::rules::{Position, Rules};
use baroque::solver::{solve, SolveOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

const CASES: [(&str, &str, u32); 4] = [
    (
        "chameleon diagram #2",
        "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
        2,
    ),
    ("sound #3 with a dual", "3K4/8/8/8/6k1/8/3NBM2/8 w 0", 3),
    (
        "midgame #3, 24 pieces",
        "rn1kqb2/ppbpppm1/8/3p4/7p/P4B1P/2PPP2R/MNBQK3 w 24",
        3,
    ),
    (
        "midgame #3, 26 pieces",
        "rnb1k3/1pp4p/5m2/2p5/P1n4p/2B1P3/P2PPPP1/MN1QKB2 b 25",
        3,
    ),
];

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (name, fen, n) in CASES {
        let pos = Position::from_fen_validated(fen, Rules::default()).unwrap();
        let opts = SolveOptions {
            stipulation: baroque::solver::Stipulation::Mate(n),
            max_tree_nodes: 0,
            ..SolveOptions::default()
        };
        group.bench_function(name, |b| b.iter(|| solve(black_box(&pos), &opts).nodes));
    }
    group.finish();
}

/// Sound mates in 4 and 5 of at most 12 pieces (`fixtures/bench/deep_mates.json`, made by the
/// generator with the seed and flags its `about` gives): a full solve each, one thread, no budget.
fn deep_mates(c: &mut Criterion) {
    use baroque::solver::{Limits, Stipulation};
    use std::time::Duration;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bench/deep_mates.json"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut group = c.benchmark_group("deep mates");
    group.sample_size(10);
    for (field, n) in [("mate_in_4", 4), ("mate_in_5", 5)] {
        let opts = SolveOptions {
            stipulation: Stipulation::Mate(n),
            threads: 1,
            limits: Limits {
                nodes: u64::MAX,
                time: Duration::from_secs(3600),
            },
            ..SolveOptions::default()
        };
        for (i, fen) in doc[field].as_array().unwrap().iter().enumerate() {
            let pos =
                Position::from_fen_validated(fen.as_str().unwrap(), Rules::default()).unwrap();
            group.bench_function(format!("#{n} {i}"), |b| {
                b.iter(|| solve(black_box(&pos), &opts).nodes)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench, dfs_vs_pns, deep_mates);
criterion_main!(benches);

/// Depth-first proof search with its table against proof-number search, on the question "is there a
/// mate in N" (the solver then needs every first move, which the depth-first search serves).
fn dfs_vs_pns(c: &mut Criterion) {
    use baroque::solver::search::Searcher;
    use baroque::solver::{pns, tt::Table, Budget, Limits};
    let mut group = c.benchmark_group("mate exists");
    group.sample_size(10);
    for (name, fen, n) in CASES {
        let pos = Position::from_fen_validated(fen, Rules::default()).unwrap();
        group.bench_function(format!("depth-first: {name}"), |b| {
            b.iter(|| {
                let budget = Budget::new(Limits::default());
                let table = Table::new(16);
                Searcher::new(&table, &budget)
                    .attack(black_box(&pos), n, 0)
                    .unwrap()
            })
        });
        group.bench_function(format!("proof-number: {name}"), |b| {
            b.iter(|| {
                let budget = Budget::new(Limits::default());
                pns::mates_within(black_box(&pos), n, &budget).unwrap()
            })
        });
    }
    group.finish();
}
