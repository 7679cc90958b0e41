//! Where the screening of generation candidates spends its time, by what each candidate turned
//! out to be (a study, not a figure): `cargo run --release --example screenstats -- 4000 '#3'`
//! (any stipulation: `h#2`, `s#2`...). The per-candidate budget is the generator's default.
use baroque::generate::{candidate, GenerateOptions, Source};
use baroque::rules::Position;
use baroque::solver::help::screen_help;
use baroque::solver::Stipulation;
use baroque::solver::{screen, Outcome, SolveOptions};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What screening made of a candidate, and the nodes it took.
fn judge(pos: &Position, solve: &SolveOptions) -> (&'static str, u64) {
    if solve.stipulation.is_help() {
        let h = screen_help(pos, solve, 1);
        let what = match h.sound {
            None => "unsettled",
            Some(true) => "sound",
            Some(false) if !h.short_solutions.is_empty() => "short",
            Some(false) if h.count > 1 => "many",
            Some(false) => "none",
        };
        (what, h.nodes)
    } else {
        let s = screen(pos, solve);
        let what = match (s.result, s.sound) {
            (Outcome::Unknown, _) => "unsettled",
            (Outcome::NoMate, _) => "none",
            (Outcome::Mate, Some(true)) => "sound",
            (Outcome::Mate, _) if !s.short_solutions.is_empty() => "short",
            (Outcome::Mate, _) => "cooked",
        };
        (what, s.nodes)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(2000, |s| s.parse().unwrap());
    let stip = args.get(2).map_or("#3", |s| s.as_str());
    let opts = GenerateOptions {
        stipulation: Stipulation::parse(stip).unwrap(),
        ..GenerateOptions::default()
    };
    let solve = opts.screening();
    let mut cats: BTreeMap<String, (u64, u64, Duration)> = BTreeMap::new();
    for i in 0..n {
        let Some((pos, source)) = candidate::<Position>(&opts, i) else {
            continue;
        };
        let t = Instant::now();
        let (what, nodes) = judge(&pos, &solve);
        let took = t.elapsed();
        let src = if matches!(source, Source::Random) {
            "random"
        } else {
            "playout"
        };
        let size = if pos.board().occupied().count_ones() <= 6 {
            "<=6"
        } else {
            ">6"
        };
        let e = cats
            .entry(format!("{src} {what} pieces{size}"))
            .or_default();
        e.0 += 1;
        e.1 += nodes;
        e.2 += took;
    }
    for (k, (c, nodes, t)) in cats {
        println!(
            "{k:32} {c:6} nodes {nodes:12} ms {:8.1} per {:.3} ms",
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() * 1e3 / c as f64
        );
    }
}
