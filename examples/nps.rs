//! Solver speed of each game on positions of the same kind: nodes per second of `mate in N` proofs
//! (the costly case: no mate, every defence searched) from midgame positions reached by random
//! plies from each game's start (32 pieces each), one thread, the solver's table.
//!
//! ```text
//! cargo run --release --example nps -- [N] [POSITIONS] [PLIES] [GAME]
//! ```
//!
//! With a `GAME` (`baroque` or `rococo`), only that game is measured (to profile it).
//!
//! Prints, for each game, the nodes, the seconds and the nodes per second over all positions (the
//! fastest of three runs), and the ratio of Rococo's to Baroque's.

use baroque::rules::rococo::RococoPosition;
use baroque::rules::{GamePosition, Position, Variant};
use baroque::solver::{solve, Limits, SolveOptions, Stipulation};
use std::time::{Duration, Instant};

/// A small, seedable generator (xorshift*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

/// A position `plies` random legal moves from the start (another draw when the game ends first).
fn midgame<P: GamePosition>(variant: Variant, plies: u32, rng: &mut Rng) -> P {
    'draw: loop {
        let mut pos = P::start_position(variant);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'draw;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
        if !pos.legal_moves().is_empty() {
            return pos;
        }
    }
}

/// Nodes and seconds of solving `mate in n` on `count` midgame positions of one game: the fastest
/// of three runs (this machine is shared).
fn measure<P: GamePosition>(variant: Variant, n: u32, count: u32, plies: u32) -> (u64, f64) {
    let runs = (0..3).map(|_| measure_once::<P>(variant, n, count, plies));
    runs.min_by(|a, b| a.1.total_cmp(&b.1)).unwrap_or((0, 1.0))
}

/// One run of [`measure`].
fn measure_once<P: GamePosition>(variant: Variant, n: u32, count: u32, plies: u32) -> (u64, f64) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let opts = SolveOptions {
        stipulation: Stipulation::Mate(n),
        threads: 1,
        max_tree_nodes: 0,
        limits: Limits {
            nodes: 20_000_000,
            time: Duration::from_secs(20),
        },
        ..SolveOptions::default()
    };
    let (mut nodes, mut seconds) = (0, 0.0);
    for _ in 0..count {
        let pos: P = midgame(variant, plies, &mut rng);
        let start = Instant::now();
        let s = solve(&pos, &opts);
        seconds += start.elapsed().as_secs_f64();
        nodes += s.nodes;
    }
    (nodes, seconds)
}

fn main() {
    let arg = |i: usize, default: u32| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let (n, count, plies) = (arg(1, 2), arg(2, 20), arg(3, 16));
    println!("mate in {n}, {count} positions {plies} random plies from the start, one thread");
    let only = std::env::args().nth(4);
    let wanted = |game: &str| only.as_deref().is_none_or(|o| o == game);
    let mut rates = Vec::new();
    let mut runs = Vec::new();
    if wanted("baroque") {
        let run = measure::<Position>(Variant::default(), n, count, plies);
        runs.push(("baroque", run));
    }
    if wanted("rococo") {
        let run = measure::<RococoPosition>(Variant::Rococo, n, count, plies);
        runs.push(("rococo", run));
    }
    for (name, (nodes, seconds)) in runs {
        let rate = nodes as f64 / seconds;
        rates.push(rate);
        println!("{name:8} {nodes:>12} nodes {seconds:>8.3} s {rate:>12.0} nodes/s");
    }
    if let [baroque, rococo] = rates[..] {
        println!("rococo/baroque {:.2}", rococo / baroque);
    }
}
