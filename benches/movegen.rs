//! Move generation: the legal moves of the start position, and perft of both games' start
//! positions (32 pieces each), whose nodes per second the Performance table compares.

use baroque::rules::rococo::RococoPosition;
use baroque::rules::{Position, Preset, Rules};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let rules = Rules::preset(Preset::Vchess);
    let start = Position::start(rules);
    c.bench_function("legal moves, start", |b| {
        b.iter(|| black_box(&start).legal_moves().len())
    });
    c.bench_function("perft 3, start, vchess", |b| {
        b.iter(|| baroque::rules::perft::perft(black_box(&start), 3))
    });
    let rococo = RococoPosition::start();
    c.bench_function("perft 3, start, rococo", |b| {
        b.iter(|| baroque::rules::perft::perft(black_box(&rococo), 3))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
