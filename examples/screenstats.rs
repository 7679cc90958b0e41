//! Where the screening of `#N` / `s#N` candidates spends its time (a study, not a figure):
//! `cargo run --release --example screenstats -- 3000 '#3'`.
use baroque::generate::{candidate, GenerateOptions, Source};
use baroque::rules::Position;
use baroque::solver::{screen, Limits, Outcome, SolveOptions, Stipulation};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(2000, |s| s.parse().unwrap());
    let stip = args.get(2).map_or("#3", |s| s.as_str());
    let opts = GenerateOptions {
        stipulation: Stipulation::parse(stip).unwrap(),
        ..GenerateOptions::default()
    };
    let mut cats: std::collections::BTreeMap<String, (u64, u64, Duration)> = Default::default();
    for i in 0..n {
        let Some((pos, source)) = candidate::<Position>(&opts, i) else {
            continue;
        };
        let solve = SolveOptions {
            stipulation: opts.stipulation,
            limits: opts.candidate_limits,
            table_mib: 16,
            threads: 1,
            max_tree_nodes: 500,
            max_refutations: 0,
            ..SolveOptions::default()
        };
        let t = Instant::now();
        let s = screen(&pos, &solve);
        let el = t.elapsed();
        let src = if matches!(source, Source::Random) {
            "random"
        } else {
            "playout"
        };
        let what = match (s.result, s.sound) {
            (Outcome::Unknown, _) => "unsettled",
            (Outcome::NoMate, _) => "none",
            (Outcome::Mate, Some(true)) => "sound",
            (Outcome::Mate, _) if !s.short_solutions.is_empty() => "short",
            (Outcome::Mate, _) => "cooked",
        };
        let _ = Limits::default();
        let e = cats.entry(format!("{src} {what}")).or_default();
        e.0 += 1;
        e.1 += s.nodes;
        e.2 += el;
    }
    for (k, (c, nodes, t)) in cats {
        println!(
            "{k:24} {c:6} nodes {nodes:12} ms {:8.1} per {:.3} ms",
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() * 1e3 / c as f64
        );
    }
}
