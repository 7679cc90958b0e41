//! The mate puzzles of fixtures/puzzles/: the solver confirms every claim (keys, short solutions,
//! soundness), and a file with a wrong claim is caught.

use baroque_puzzle::fixtures::puzzles::{read_file, Puzzle};
use baroque_rules::GameKind;
use baroque_solver::Limits;
use std::path::Path;
use std::time::Duration;

const BUDGET: Limits = Limits {
    nodes: 20_000_000,
    time: Duration::from_secs(60),
};

fn files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/puzzles");
    baroque_puzzle::fixtures::cases::files_in(&dir).unwrap()
}

#[test]
fn every_puzzle_fixture_is_confirmed_by_the_solver() {
    let mut ids = std::collections::BTreeSet::new();
    let mut count = 0;
    for path in files() {
        let file = read_file(&path).unwrap();
        for p in &file.puzzles {
            assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
            let out = p.verify(file.game, BUDGET, 16, 2);
            assert!(out.ok(), "{}: {}", p.id, out.problems.join("; "));
            count += 1;
        }
    }
    assert!(count >= 3, "{count} puzzles");
    for id in [
        "wp-king-mate-in-1",
        "wp-king-mate-in-2-unsound",
        "wp-chameleon-mate-in-2",
        "rc-leaper-takes-king-in-1",
        "rc-immobilizer-freezes-all-in-2",
    ] {
        assert!(ids.contains(id), "{id}");
    }
}

#[test]
fn the_chameleon_key_captures_seven_pieces() {
    let wikipedia = files()
        .into_iter()
        .find(|f| f.ends_with("wikipedia.json"))
        .unwrap();
    let file = read_file(&wikipedia).unwrap();
    let p = file
        .puzzles
        .iter()
        .find(|p| p.id == "wp-chameleon-mate-in-2")
        .unwrap();
    let Some(baroque_puzzle::Solved::Keys(s)) = p.verify(file.game, BUDGET, 16, 2).solution else {
        panic!("a direct mate's solve answers keys");
    };
    assert_eq!(s.keys.len(), 1);
    assert_eq!(s.keys[0].info.notation, "Bg6xc6");
    assert_eq!(s.keys[0].info.captures.len(), 7);
}

fn puzzle(json: &str) -> Puzzle {
    serde_json::from_str(json).unwrap()
}

#[test]
fn a_wrong_claim_is_reported() {
    let wrong = puzzle(
        r#"{"id": "king-2-claimed-sound", "fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "mate_in": 2,
            "keys": ["Kc4-c5"], "short_solutions": [], "sound": true}"#,
    );
    let out = wrong.verify(GameKind::Baroque, BUDGET, 16, 1);
    assert!(!out.ok());
    let text = out.problems.join("; ");
    assert!(text.contains("keys of #2 are Kc4-c5, Kc4-d5"), "{text}");
    assert!(text.contains("short solutions are Kc4-d5"), "{text}");
    assert!(text.contains("not sound"), "{text}");
}

#[test]
fn a_wrong_rococo_claim_is_reported() {
    // The Immobilizer mate claimed with another key, and without its Kings.
    let wrong = puzzle(
        r#"{"id": "rc-wrong", "fen": "10/10/2I7/10/10/3k6/1x4W3/1a8/3K6/10 w 0", "mate_in": 2,
            "keys": ["Ic8-c6"], "sound": true}"#,
    );
    let out = wrong.verify(GameKind::Rococo, BUDGET, 16, 1);
    let text = out.problems.join("; ");
    assert!(
        text.contains("keys of #2 are Ic8-c4, expected Ic8-c6"),
        "{text}"
    );
    let kingless = puzzle(
        r#"{"id": "rc-kingless", "fen": "10/10/2I7/10/10/10/1x4W3/1a8/3K6/10 w 0", "mate_in": 1,
            "keys": [], "sound": false}"#,
    );
    let out = kingless.verify(GameKind::Rococo, BUDGET, 16, 1);
    assert!(out.problems[0].contains("both Kings"), "{:?}", out.problems);
    let with_rules = puzzle(
        r#"{"id": "rc-rules", "fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0", "mate_in": 1,
            "rules": "abbott", "keys": ["Le4xe9"], "sound": true}"#,
    );
    let out = with_rules.verify(GameKind::Rococo, BUDGET, 16, 1);
    assert!(
        out.problems[0].contains("does not apply"),
        "{:?}",
        out.problems
    );
}

#[test]
fn a_budget_that_runs_out_neither_confirms_nor_contradicts() {
    let p = puzzle(
        r#"{"id": "start-4", "fen": "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0",
            "mate_in": 4, "keys": [], "sound": false}"#,
    );
    let tiny = Limits {
        nodes: 1_000,
        time: Duration::from_secs(5),
    };
    let out = p.verify(GameKind::Baroque, tiny, 1, 1);
    assert!(!out.ok());
    assert!(out.problems[0].contains("ran out"), "{:?}", out.problems);
}
