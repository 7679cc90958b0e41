//! The stipulations' figures (issue 16), on generated positions of `fixtures/bench/stipulations.json`:
//! `h#2` of ten sound `h#2` puzzles (at most 10 pieces) and `h#3` of ten sound `h#3` puzzles; `#2`
//! against `s#2`, `r#2`, `semi-r#2`, `=2` and `s=2` on ten sound `#2` puzzles with White to
//! move; a `#2` solve without tries against one with them (`max_refutations` 0 and 1); and the
//! series helpmates `ser-h#1` to `ser-h#4` on the first three `h#2` puzzles (Black to move, up to
//! ten pieces: each more move multiplies the time by 20 to 30, so `ser-h#6` there takes a minute)
//! and `ser-h#1` to `ser-h#6` on three sparse boards (the sound `ser-h#2` puzzles of the tests,
//! two Baroque and one Rococo). Each position is a benchmark of its own:
//! quote the median. No budget bounds a solve here (the default one would cut the slow ones
//! short and make them look fast).

use baroque::rules::{Position, Rules};
use baroque::solver::help::solve_help;
use baroque::solver::series::solve_series;
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
            ("r#2", options(Stipulation::ReflexMate(2), 0)),
            ("semi-r#2", options(Stipulation::SemiReflexMate(2), 0)),
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

fn series(c: &mut Criterion) {
    let mut group = c.benchmark_group("series");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(2));
    for (i, pos) in positions("helpmates").iter().take(3).enumerate() {
        for n in 1..=4 {
            let opts = options(Stipulation::SeriesHelpMate(n), 0);
            group.bench_function(format!("ser-h#{n} {i}"), |b| {
                b.iter(|| solve_series(black_box(pos), &opts, 1).count)
            });
        }
    }
    let sparse = [
        ("baroque", "8/M1p5/3k4/8/3K4/8/8/8 b 0"),
        ("baroque", "6K1/5p2/8/3M4/5k2/8/8/8 b 0"),
        ("rococo", "10/10/10/1p8/10/5I4/3k6/10/7K2/10 b 0 -"),
    ];
    for (i, (game, fen)) in sparse.iter().enumerate() {
        let kind = baroque::rules::GameKind::parse(game).unwrap();
        let variant = baroque::rules::Variant::of(kind, None).unwrap();
        let pos = variant
            .read_fen(fen, baroque::rules::Naming::default())
            .unwrap();
        for n in 1..=6 {
            let opts = options(Stipulation::SeriesHelpMate(n), 0);
            group.bench_function(format!("ser-h#{n} sparse {i}"), |b| {
                b.iter(|| baroque::solver::solve_lines_any(black_box(&pos), &opts, 1).count)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, helpmates, selfmates_and_tries, series);
criterion_main!(benches);
