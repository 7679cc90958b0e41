//! What the generator's narrowed search (`--focus`) keeps and what it saves (a study, not a
//! figure): the same candidates screened fully, and screened only when the narrowed search mates
//! them, for a few reaches. `cargo run --release --example focus -- 12000 '#3' [rococo]` (or `h#2`...;
//! a fourth argument, `2` or `0,2`, names the reaches, 0 for none; 0 to 3 by default).
use baroque::generate::{candidate, GenerateOptions};
use baroque::rules::rococo::RococoPosition;
use baroque::rules::{GameKind, GamePosition, Position, Variant};
use baroque::solver::help::{focused_help, screen_help};
use baroque::solver::{focused_mate, screen, Narrowed, Outcome, Stipulation};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(4000, |s| s.parse().unwrap());
    let stipulation = Stipulation::parse(args.get(2).map_or("#3", |s| s.as_str())).unwrap();
    let reaches: Vec<u32> = args.get(4).map_or(vec![0, 1, 2, 3], |r| {
        r.split(',').map(|x| x.parse().unwrap()).collect()
    });
    if args.get(3).is_some_and(|g| g == "rococo") {
        let variant = Variant::of(GameKind::Rococo, None).unwrap();
        run::<RococoPosition>(variant, stipulation, n, &reaches);
    } else {
        run::<Position>(Variant::default(), stipulation, n, &reaches);
    }
}

fn run<P: GamePosition>(variant: Variant, stipulation: Stipulation, n: u64, reaches: &[u32]) {
    let opts = GenerateOptions {
        variant,
        stipulation,
        ..GenerateOptions::default()
    };
    let solve = opts.screening();
    let candidates: Vec<P> = (0..n)
        .filter_map(|i| candidate::<P>(&opts, i).map(|c| c.0))
        .collect();
    println!("{} candidates of {stipulation}", candidates.len());
    // 0: no narrowed search.
    for &focus in reaches {
        let start = Instant::now();
        let (mut sound, mut dropped, mut narrowed_ms) = (0, 0, 0.0);
        for pos in &candidates {
            let help = stipulation.is_help();
            let narrowed_start = Instant::now();
            let narrowed_out = focus > 0
                && if help {
                    match focused_help(pos, focus, &solve, 1).0 {
                        Narrowed::NoMate => true,
                        Narrowed::Mate(lines) => lines.len() > 1,
                        Narrowed::Stopped => false,
                    }
                } else {
                    focused_mate(pos, focus, &solve).0 == Narrowed::NoMate
                };
            narrowed_ms += narrowed_start.elapsed().as_secs_f64() * 1e3;
            if narrowed_out {
                dropped += 1;
                continue;
            }
            sound += usize::from(if help {
                let h = screen_help(pos, &solve, 1);
                h.sound == Some(true) && h.count == 1
            } else {
                let s = screen(pos, &solve);
                s.result == Outcome::Mate && s.sound == Some(true)
            });
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "focus {focus}: {sound} sound, {dropped} dropped by the narrowed search, {ms:.0} ms ({narrowed_ms:.0} in it), {:.1} sound a second",
            sound as f64 / ms * 1e3
        );
    }
}
