//! `s#2`, `=2`, `s=2` and tries against `#2` on the bench set (a quick study; the figures are the
//! bench's): `cargo run --release --example ratios`.
use baroque::rules::{Position, Rules};
use baroque::solver::{solve, Limits, SolveOptions, Stipulation};
use std::time::{Duration, Instant};

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

fn time(pos: &Position, opts: &SolveOptions) -> (f64, u64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..30 {
        let t = Instant::now();
        nodes = solve(pos, opts).nodes;
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, nodes)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
}

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bench/stipulations.json"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut tries, mut selfs) = (Vec::new(), Vec::new());
    let (mut stales, mut self_stales) = (Vec::new(), Vec::new());
    if let Some(stip) = std::env::args().nth(1) {
        // A profile of one stipulation: each position solved 200 times (`ratios '#2' tries 3`:
        // with tries, the fourth position alone, 2,000 times).
        let tries = usize::from(std::env::args().nth(2).is_some());
        let only: Option<usize> = std::env::args().nth(3).map(|i| i.parse().unwrap());
        let opts = options(Stipulation::parse(&stip).unwrap(), tries);
        let all = doc["direct_mates"].as_array().unwrap();
        let picked: Vec<&serde_json::Value> = match only {
            Some(i) => std::iter::repeat_n(&all[i], 10).collect(),
            None => all.iter().collect(),
        };
        for f in picked {
            let pos = Position::from_fen_validated(f.as_str().unwrap(), Rules::default()).unwrap();
            for _ in 0..200 {
                solve(&pos, &opts);
            }
        }
        return;
    }
    for f in doc["direct_mates"].as_array().unwrap() {
        let pos = Position::from_fen_validated(f.as_str().unwrap(), Rules::default()).unwrap();
        let (d, dn) = time(&pos, &options(Stipulation::Mate(2), 0));
        let (t, tn) = time(&pos, &options(Stipulation::Mate(2), 1));
        let (s, sn) = time(&pos, &options(Stipulation::SelfMate(2), 0));
        let (e, en) = time(&pos, &options(Stipulation::Stalemate(2), 0));
        let (se, sen) = time(&pos, &options(Stipulation::SelfStalemate(2), 0));
        println!(
            "#2 {:.3} ms {dn} nodes; tries {:.2}x {tn}; s#2 {:.2}x {sn}; =2 {:.2}x {en}; s=2 {:.2}x {sen}",
            d * 1e3,
            t / d,
            s / d,
            e / d,
            se / d
        );
        tries.push(t / d);
        selfs.push(s / d);
        stales.push(e / d);
        self_stales.push(se / d);
    }
    println!(
        "median: tries {:.2}x, s#2 {:.2}x, =2 {:.2}x, s=2 {:.2}x",
        median(tries),
        median(selfs),
        median(stales),
        median(self_stales)
    );
}
