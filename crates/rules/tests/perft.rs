//! Perft regressions from fixtures/perft/*.perft. Depths above a node cap are skipped (set
//! BAROQUE_PERFT_MAX_NODES to raise it; the default keeps the suite quick in debug builds).

use baroque_rules::perft::perft;
use baroque_rules::rococo::{Coords, RococoPosition};
use baroque_rules::{Position, Rules};
use std::path::Path;

struct Case {
    id: String,
    rococo: bool,
    fen: String,
    rules: Rules,
    depths: Vec<(u32, u64)>,
}

fn read(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases = Vec::new();
    for block in text.split("\n\n") {
        let mut case = Case {
            id: String::new(),
            rococo: false,
            fen: String::new(),
            rules: Rules::default(),
            depths: vec![],
        };
        for line in block
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (key, value) = line.split_once(' ').unwrap();
            match key {
                "id" => case.id = value.into(),
                "game" => case.rococo = value == "rococo",
                "fen" => case.fen = value.into(),
                "rules" => case.rules = value.parse().unwrap(),
                "source" => {}
                "perft" => {
                    let (d, n) = value.split_once(' ').unwrap();
                    case.depths.push((d.parse().unwrap(), n.parse().unwrap()));
                }
                other => panic!("{}: unknown key {other}", path.display()),
            }
        }
        if !case.id.is_empty() {
            cases.push(case);
        }
    }
    cases
}

#[test]
fn perft_suites() {
    let cap: u64 = std::env::var("BAROQUE_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/perft");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "perft") {
            continue;
        }
        for case in read(&path) {
            for &(depth, nodes) in &case.depths {
                if nodes > cap {
                    continue;
                }
                let counted = if case.rococo {
                    let pos = RococoPosition::from_fen(&case.fen, Coords::Standard).unwrap();
                    perft(&pos, depth)
                } else {
                    perft(
                        &Position::from_fen_validated(&case.fen, case.rules).unwrap(),
                        depth,
                    )
                };
                assert_eq!(counted, nodes, "{} depth {depth}", case.id);
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} perft counts checked");
}
