//! Where the screening of `h#2` candidates spends its time (a study, not a figure).
use baroque::generate::{candidate, GenerateOptions, Source};
use baroque::rules::Position;
use baroque::solver::help::screen_help;
use baroque::solver::{Limits, SolveOptions, Stipulation};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(2000, |s| s.parse().unwrap());
    let stip = args.get(2).map_or("h#2", |s| s.as_str());
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
            limits: Limits {
                nodes: 2_000_000,
                time: Duration::from_secs(10),
            },
            threads: 1,
            ..SolveOptions::default()
        };
        let t = Instant::now();
        let h = screen_help(&pos, &solve, 1);
        let el = t.elapsed();
        let src = if matches!(source, Source::Random) {
            "random"
        } else {
            "playout"
        };
        let what = match h.sound {
            None => "unsettled".to_string(),
            Some(true) => "sound".to_string(),
            Some(false) if !h.short_solutions.is_empty() => "short".to_string(),
            Some(false) if h.count > 1 => "many".to_string(),
            Some(false) => "none".to_string(),
        };
        let e = cats
            .entry(format!(
                "{src} {what} pieces{}",
                if pos.board().occupied().count_ones() <= 6 {
                    "<=6"
                } else {
                    ">6"
                }
            ))
            .or_default();
        e.0 += 1;
        e.1 += h.nodes;
        e.2 += el;
    }
    for (k, (c, nodes, t)) in cats {
        println!(
            "{k:32} {c:6} nodes {nodes:12} ms {:8.1} per {:.3} ms",
            t.as_secs_f64() * 1e3,
            t.as_secs_f64() * 1e3 / c as f64
        );
    }
}
