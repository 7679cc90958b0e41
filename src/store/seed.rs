//! Seeding at start-up: every diagram case of `<fixtures>/diagrams/*.json` and every mate puzzle of
//! `<fixtures>/puzzles/*.json` is verified, then all are stored in one transaction, idempotently
//! (the content hash). A fixture the engine or the solver contradicts stops start-up with a message
//! naming its file and id; nothing is written then.
//!
//! Rococo diagram cases and mate puzzles are seeded like the Baroque ones (their FEN is stored
//! canonical, a diagram's moves as written; a mate is solved: forcing the capture of the King).

use super::verify::{verify, Kind, NewPuzzle, VerifiedPuzzle, VerifyError};
use super::Store;
use crate::solver::SolveOptions;
use std::path::Path;

/// What seeding did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeedReport {
    /// Fixtures verified (diagram cases and mate puzzles).
    pub verified: usize,
    /// Rows new to the database.
    pub inserted: usize,
}

/// The fixtures under `dir`, verified. Errors name the fixture.
pub fn verified_fixtures(dir: &Path, solve: &SolveOptions) -> Result<Vec<VerifiedPuzzle>, String> {
    let mut out = Vec::new();
    let diagrams = dir.join("diagrams");
    let puzzles = dir.join("puzzles");
    if !diagrams.is_dir() && !puzzles.is_dir() {
        return Err(format!(
            "no fixtures in {}: it needs a diagrams/ or puzzles/ directory (set --fixtures or BAROQUE_FIXTURES)",
            dir.display()
        ));
    }
    let named = |path: &Path, id: &str, e: VerifyError| {
        format!("fixture {id} of {} is contradicted: {e}", path.display())
    };
    if diagrams.is_dir() {
        for path in crate::cases::files_in(&diagrams)? {
            let file = crate::cases::read_file(&path)?;
            for case in &file.cases {
                let rules = case.rules().map_err(|e| {
                    format!("fixture {} of {}: rules: {e}", case.id, path.display())
                })?;
                let p = NewPuzzle {
                    kind: Kind::Diagram,
                    game: file.game,
                    fen: case.fen.clone(),
                    rules,
                    title: case.title.clone().or_else(|| case.section.clone()),
                    source: Some(file.document.clone()),
                    caption: case.note.clone(),
                    tags: case
                        .section
                        .iter()
                        .map(|s| s.to_lowercase())
                        .chain(["fixture".to_string()])
                        .collect(),
                    moves: case.moves.clone(),
                    legal: case.legal,
                    reason: case.reason.clone(),
                    captures: case.captures.clone(),
                    status: case.status.clone(),
                    frozen: case.frozen.clone(),
                    destinations: case.destinations.clone(),
                    mate_in: None,
                    keys: None,
                    sound: None,
                    fixture: Some(case.id.clone()),
                };
                out.push(verify(p, solve).map_err(|e| named(&path, &case.id, e))?);
            }
        }
    }
    if puzzles.is_dir() {
        for path in crate::cases::files_in(&puzzles)? {
            let file = crate::puzzles::read_file(&path)?;
            for pz in &file.puzzles {
                let rules = pz
                    .rules()
                    .map_err(|e| format!("fixture {} of {}: rules: {e}", pz.id, path.display()))?;
                let p = NewPuzzle {
                    title: pz.title.clone(),
                    source: Some(file.document.clone()),
                    caption: pz.note.clone(),
                    tags: vec!["fixture".into()],
                    keys: Some(pz.keys.clone()),
                    sound: Some(pz.sound),
                    fixture: Some(pz.id.clone()),
                    ..NewPuzzle::mate(file.game, pz.fen.clone(), rules, pz.mate_in)
                };
                out.push(verify(p, solve).map_err(|e| named(&path, &pz.id, e))?);
            }
        }
    }
    Ok(out)
}

/// Verifies the fixtures under `dir` and stores them (one transaction).
pub fn seed(store: &Store, dir: &Path, solve: &SolveOptions) -> Result<SeedReport, String> {
    let puzzles = verified_fixtures(dir, solve)?;
    let inserted = store
        .insert_all(&puzzles)
        .map_err(|e| format!("storing the fixtures: {e}"))?;
    Ok(SeedReport {
        verified: puzzles.len(),
        inserted,
    })
}
