//! The stipulations' figures (issue 16), on generated positions of `fixtures/bench/stipulations.json`:
//! `h#2` of ten sound `h#2` puzzles (at most 10 pieces) and `h#3` of ten sound `h#3` puzzles; `#2`
//! against `s#2`, `=2` and `s=2` on ten sound `#2` puzzles with White to move; and a `#2` solve
//! without tries against one with them (`max_refutations` 0 and 1). Each position is a benchmark of its own:
//! quote the median. No budget bounds a solve here (the default one would cut the slow ones
//! short and make them look fast).

use baroque::rules::{Position, Rules};
use baroque::solver::help::solve_help;
use baroque::solver::{solve, Limits, SolveOptions, Stipulation};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

fn positions(field: &str) -> Vec<Position> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bench/stipulations.json"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc[field]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| Position::from_fen_validated(f.as_str().unwrap(), Rules::default()).unwrap())
        .collect()
}

fn options(stipulation: Stipulation, max_refutations: usize) -> SolveOptions {
    SolveOptions {
        stipulation,
        max_refutations,
        threads: 1,
        limits: Limits {
            nodes: u64::MAX,
            time: Duration::from_secs(3600),
        },
        ..SolveOptions::default()
    }
}

fn helpmates(c: &mut Criterion) {
    let mut group = c.benchmark_group("helpmates");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    for (stip, set) in [("h#2", "helpmates"), ("h#3", "helpmates_3")] {
        let opts = options(Stipulation::parse(stip).unwrap(), 0);
        for (i, pos) in positions(set).iter().enumerate() {
            group.bench_function(format!("{stip} {i}"), |b| {
                b.iter(|| solve_help(black_box(pos), &opts, 1).count)
            });
        }
    }
    group.finish();
}

fn selfmates_and_tries(c: &mut Criterion) {
    let mut group = c.benchmark_group("direct and self");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(1));
    for (i, pos) in positions("direct_mates").iter().enumerate() {
        for (name, opts) in [
            ("#2 without tries", options(Stipulation::Mate(2), 0)),
            ("#2 with tries", options(Stipulation::Mate(2), 1)),
            ("s#2", options(Stipulation::SelfMate(2), 0)),
            ("=2", options(Stipulation::Stalemate(2), 0)),
            ("s=2", options(Stipulation::SelfStalemate(2), 0)),
        ] {
            group.bench_function(format!("{name} {i}"), |b| {
                b.iter(|| solve(black_box(pos), &opts).nodes)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, helpmates, selfmates_and_tries);
criterion_main!(benches);
