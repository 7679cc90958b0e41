//! What the generator's narrowed search (`--focus`) keeps and what it saves (a study, not a
//! figure): the same candidates screened fully, and screened only when the narrowed search mates
//! them, for a few reaches. `cargo run --release --example focus -- 12000 '#3' [rococo]`.
use baroque::generate::{candidate, GenerateOptions};
use baroque::rules::rococo::RococoPosition;
use baroque::rules::{GameKind, GamePosition, Position, Variant};
use baroque::solver::{focused_mate, screen, Narrowed, Outcome, Stipulation};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(4000, |s| s.parse().unwrap());
    let stipulation = Stipulation::parse(args.get(2).map_or("#3", |s| s.as_str())).unwrap();
    if args.get(3).is_some_and(|g| g == "rococo") {
        run::<RococoPosition>(Variant::of(GameKind::Rococo, None).unwrap(), stipulation, n);
    } else {
        run::<Position>(Variant::default(), stipulation, n);
    }
}

fn run<P: GamePosition>(variant: Variant, stipulation: Stipulation, n: u64) {
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
    for focus in [0, 1, 2, 3] {
        let start = Instant::now();
        let (mut sound, mut dropped) = (0, 0);
        for pos in &candidates {
            if focus > 0 && focused_mate(pos, focus, &solve).0 == Narrowed::NoMate {
                dropped += 1;
                continue;
            }
            let s = screen(pos, &solve);
            sound += usize::from(s.result == Outcome::Mate && s.sound == Some(true));
        }
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!(
            "focus {focus}: {sound} sound, {dropped} dropped by the narrowed search, {ms:.0} ms, {:.1} sound a second",
            sound as f64 / ms * 1e3
        );
    }
}
