//! The costliest requests found (`fixtures/worst/boards.json`, made by `cargo run --release
//! --example worst_boards`): analysing each board and verifying 500 moves on it, both games,
//! through the use cases the handlers run; and a search on the crowded Rococo board under a
//! 500 ms budget, whose time over 500 ms is how late a search answers.
//!
//! `cargo bench --bench bounds`. Goals: every analysis and verification under 50 ms; a search
//! within its budget plus 200 ms.

use baroque::app::analysis::analyze;
use baroque::app::line::{verify, VerifyQuery};
use baroque::app::position::{CheckedPosition, PositionInput};
use baroque::rules::rococo::{Coords, RococoPosition};
use baroque::rules::GameKind;
use baroque::solver::Cancel;
use baroque::solver::{solve, Limits, SolveOptions};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::Value;
use std::hint::black_box;
use std::time::Duration;

fn boards() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/worst/boards.json"
    ))
    .expect("fixtures/worst/boards.json");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    doc["boards"].as_array().cloned().unwrap_or_default()
}

/// A board of the fixture, read as a request reads it.
fn position(fen: &Value, game: &str) -> CheckedPosition {
    PositionInput {
        fen: fen.as_str().expect("a FEN").to_string(),
        game: if game == "rococo" {
            GameKind::Rococo
        } else {
            GameKind::Baroque
        },
        coords: None,
        rules: None,
    }
    .read()
    .expect("an accepted board")
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("worst boards");
    group.sample_size(20);
    for b in boards() {
        let (game, op) = (
            b["game"].as_str().unwrap(),
            b["operation"].as_str().unwrap(),
        );
        let name = format!("{game} {op}");
        match op {
            "analyze" => {
                let p = position(&b["fen"], game);
                group.bench_function(name, |bench| {
                    bench.iter(|| black_box(analyze(&p, &Cancel::new())).moves.len())
                });
            }
            _ => {
                let q = VerifyQuery {
                    position: position(&b["fen"], game),
                    moves: serde_json::from_value(b["moves"].clone()).expect("the moves"),
                };
                group.bench_function(format!("{name} (500 moves)"), |bench| {
                    bench.iter(|| black_box(verify(&q, &Cancel::new())).moves.len())
                });
            }
        }
    }
    group.finish();

    let mut group = c.benchmark_group("search under a 500 ms budget");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    let crowded = RococoPosition::from_fen(
        "ssssXxS2s/S1sXs3sS/xXSXXxs1xX/Xss1XXXxsX/xksX1sxSsS/xxx1SsXXXx/sxxSXxxSsS/SsS1SSX1XX/S1SsxxsSSK/1SsX1XxXSS w 0 -",
        Coords::Standard,
    )
    .expect("the crowded board");
    let opts = SolveOptions {
        stipulation: baroque::solver::Stipulation::Mate(8),
        limits: Limits {
            nodes: u64::MAX,
            time: Duration::from_millis(500),
        },
        ..SolveOptions::default()
    };
    group.bench_function("crowded rococo #8", |bench| {
        bench.iter(|| black_box(solve(&crowded, &opts)).nodes)
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
