//! Every diagram case under fixtures/diagrams/ holds for the engine.

use baroque_puzzle::fixtures::cases::{files_in, read_file};
use std::collections::HashSet;
use std::path::Path;

#[test]
fn every_seed_diagram_case_holds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/diagrams");
    let files = files_in(&dir).unwrap();
    assert!(
        files.len() >= 2,
        "expected the Wikipedia and vchess case files"
    );
    let mut ids = HashSet::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in files {
        let file = read_file(&path).unwrap();
        for case in &file.cases {
            count += 1;
            assert!(ids.insert(case.id.clone()), "duplicate case id {}", case.id);
            let outcome = case.verify(file.game);
            if !outcome.ok() {
                failures.push(format!("{}: {}", case.id, outcome.problems.join("; ")));
            }
        }
    }
    assert!(count >= 30, "only {count} cases");
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
