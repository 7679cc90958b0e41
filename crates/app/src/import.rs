//! Importing puzzles read from PGN or CSV ([`crate::formats`]): each is verified as a JSON post is
//! (the same [`crate::puzzle::verify()`] under the caller's budget), the line it states is checked
//! against the proof ([`crate::formats::check_line`]), and it is stored (once: the same content is
//! one row) and, for a file import, appended to a collection.

use super::StoreOutcomeError;
use crate::formats::{check_line, Place, ReadError, ReadPuzzle};
use crate::puzzle::{verify, VerifiedPuzzle, VerifyError};
use crate::solver::SolveOptions;
use crate::store::collections::{valid_name, NewCollection};
use crate::store::{Store, StoreError, StoredPuzzle};

/// Verifies a puzzle read from a file and checks the line it states against the proof.
///
/// # Errors
/// The verification's refusal, or the line's (a [`VerifyError::Contradicted`] with the reason).
pub fn verify_read(read: ReadPuzzle, solve: &SolveOptions) -> Result<VerifiedPuzzle, VerifyError> {
    let line = read.line;
    let verified = verify(read.puzzle, solve)?;
    check_line(&line, &verified).map_err(|reason| VerifyError::Contradicted(vec![reason]))?;
    Ok(verified)
}

/// [`verify_read`], then stores the puzzle unless the same one is stored: `(puzzle, true)` when it
/// was new.
///
/// # Errors
/// The refusal, or the store's failure.
pub fn verify_and_store_read(
    store: &Store,
    read: ReadPuzzle,
    solve: &SolveOptions,
) -> Result<(StoredPuzzle, bool), StoreOutcomeError> {
    // A puzzle stored before: its line is checked against the stored proof, without a solve.
    if let Some(found) = super::stored_already(store, &read.puzzle)? {
        let stipulation = found.stipulation;
        if let Some(outcome) = &found.outcome {
            crate::formats::check_line_in(&read.line, stipulation, outcome)
                .map_err(|reason| VerifyError::Contradicted(vec![reason]))?;
        }
        return Ok((found, false));
    }
    let verified = verify_read(read, solve)?;
    Ok(store.insert(&verified)?)
}

/// The stored problem a verified mate puzzle repeats up to a symmetry (not the same content:
/// that one is the puzzle itself, stored already), with the symmetry.
fn duplicate_of(
    store: &Store,
    p: &VerifiedPuzzle,
) -> Result<Option<(StoredPuzzle, String)>, StoreError> {
    let Some(stipulation) = p.stipulation else {
        return Ok(None);
    };
    let Some(variant) = p.variant() else {
        return Ok(None);
    };
    let found = crate::anticipation::same_problem(store, variant, &p.fen, stipulation)?;
    Ok(found
        .filter(|a| a.puzzle.content_hash != p.content_hash)
        .map(|a| (a.puzzle, a.transform)))
}

/// What became of one game or row of an import.
#[derive(Clone, Debug)]
pub enum Imported {
    /// Verified and stored.
    Created(StoredPuzzle),
    /// Verified; the same puzzle was stored already.
    Existing(StoredPuzzle),
    /// Verified, not stored: another stored puzzle is the same problem, its position the same up
    /// to a symmetry of the game (`transform`, as a twin names it) with the same stipulation.
    Duplicate { of: StoredPuzzle, transform: String },
    /// Not stored: why (it could not be read, or did not verify).
    Rejected(String),
}

/// The counts of an import.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportSummary {
    /// Games or rows read.
    pub read: u64,
    pub created: u64,
    pub existing: u64,
    /// Verified and not stored: the same problem as a stored one up to a symmetry.
    pub duplicates: u64,
    pub rejected: u64,
    /// Whether this import made the collection.
    pub made_collection: bool,
}

/// Why an import could not run.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("`{0}` is not a collection name: use 1 to 64 letters, digits, `-`, `_` or `.`")]
    Name(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Imports the puzzles read from a file into collection `name`, in order: each is verified
/// ([`verify_read`], budget `solve`), stored and appended to the collection. The collection is
/// made when absent, at the first puzzle stored, with that puzzle's game, rule set and
/// stipulation (seed and piece budget 0), and marked `done` at the end with a summary saying it
/// was imported (`{"source": "import", "format", "file", "read", "created", "existing",
/// "rejected"}`); an existing collection gets the puzzles appended and keeps its state and
/// summary. `each` sees every game's or row's outcome as it is settled.
///
/// # Errors
/// A bad collection name (before anything is done), or the store's failure.
pub fn import_collection(
    store: &Store,
    name: &str,
    reads: Vec<Result<ReadPuzzle, ReadError>>,
    solve: &SolveOptions,
    about: (&str, &str),
    mut each: impl FnMut(&Place, &Imported),
) -> Result<ImportSummary, ImportError> {
    if !valid_name(name) {
        return Err(ImportError::Name(name.to_string()));
    }
    let mut summary = ImportSummary::default();
    let mut known = false;
    for read in reads {
        summary.read += 1;
        let (place, outcome) = match read {
            Err(e) => (
                Place {
                    number: e.place.number,
                    line: e.start,
                },
                Imported::Rejected(format!("line {}: {}", e.place.line, e.message)),
            ),
            Ok(read) => {
                let place = read.place.clone();
                match verify_read(read, solve) {
                    Err(e) => (place, Imported::Rejected(reason(&e))),
                    Ok(verified) => {
                        if !known {
                            summary.made_collection = make_collection(store, name, &verified)?;
                            known = true;
                        }
                        match duplicate_of(store, &verified)? {
                            Some((of, transform)) => (place, Imported::Duplicate { of, transform }),
                            None => {
                                let (stored, inserted) = store.insert(&verified)?;
                                store.add_to_collection(name, stored.id)?;
                                if inserted {
                                    (place, Imported::Created(stored))
                                } else {
                                    (place, Imported::Existing(stored))
                                }
                            }
                        }
                    }
                }
            }
        };
        match &outcome {
            Imported::Created(_) => summary.created += 1,
            Imported::Existing(_) => summary.existing += 1,
            Imported::Duplicate { .. } => summary.duplicates += 1,
            Imported::Rejected(_) => summary.rejected += 1,
        }
        each(&place, &outcome);
    }
    if summary.made_collection {
        let (format, file) = about;
        let json = serde_json::json!({
            "source": "import",
            "format": format,
            "file": file,
            "read": summary.read,
            "created": summary.created,
            "existing": summary.existing,
            "rejected": summary.rejected,
        });
        store.finish_collection(name, "done", &super::document(&json))?;
    }
    Ok(summary)
}

/// A verification's refusal in words.
pub fn reason(e: &VerifyError) -> String {
    match e {
        VerifyError::Contradicted(reasons) => reasons.join("; "),
        other => other.to_string(),
    }
}

/// Makes collection `name` for an import, after `first`, unless it exists; whether it made it.
fn make_collection(store: &Store, name: &str, first: &VerifiedPuzzle) -> Result<bool, StoreError> {
    let Some(stipulation) = first.stipulation else {
        return Ok(false);
    };
    store.create_collection(
        name,
        &NewCollection {
            game: first.game,
            rules: crate::store::rules_columns(first.game, &first.rules).0,
            stipulation,
            seed: 0,
            max_pieces: 0,
            count: 0,
            runner: crate::processes::this_process(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::pgn;

    #[test]
    fn a_pgn_import_fills_a_collection_and_refuses_what_does_not_hold() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let game = |movetext: &str| {
            format!(
                "[Event \"Chameleon\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
                 [FEN \"2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0\"]\n[Stipulation \"#2\"]\n\n\
                 {movetext}\n\n"
            )
        };
        let text = [
            game("1. Bg6xc6 Kb7xc8 2. Nc4-g8 1-0"),
            game("1. Bg6xc6 *"),
            game("1. Pa6-a7 *"),
            "[Variant \"Chess\"]\n*\n".to_string(),
        ]
        .concat();
        let reads = pgn::read(&text).unwrap();
        let mut seen = Vec::new();
        let summary = import_collection(
            &store,
            "mine",
            reads,
            &SolveOptions::default(),
            ("pgn", "t.pgn"),
            |place, outcome| seen.push((place.number, outcome.clone())),
        )
        .unwrap();
        assert_eq!(
            (
                summary.read,
                summary.created,
                summary.existing,
                summary.rejected
            ),
            (4, 1, 1, 2)
        );
        assert!(summary.made_collection);
        assert!(matches!(seen[0].1, Imported::Created(_)));
        assert!(matches!(seen[1].1, Imported::Existing(_)));
        match &seen[2].1 {
            Imported::Rejected(r) => assert!(r.contains("`Pa6-a7` is not a key"), "{r}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(seen[3].0, Some(4));
        let (c, puzzles) = store.collection("mine").unwrap().unwrap();
        assert_eq!((c.state.as_str(), c.puzzles), ("done", 1));
        assert_eq!(crate::value(&c.summary)["source"], "import");
        assert_eq!(c.stipulation, "#2");
        assert_eq!(puzzles[0].title.as_deref(), Some("Chameleon"));
        assert!(matches!(
            import_collection(
                &store,
                "a b",
                Vec::new(),
                &SolveOptions::default(),
                ("pgn", "x"),
                |_, _| {}
            ),
            Err(ImportError::Name(_))
        ));
    }

    #[test]
    fn an_import_reports_a_stored_problem_s_mirror_image_as_a_duplicate() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let game = |fen: &str, movetext: &str| {
            format!(
                "[Event \"Chameleon\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
                 [FEN \"{fen}\"]\n[Stipulation \"#2\"]\n\n{movetext}\n\n"
            )
        };
        // The Wikipedia's Chameleon mate, then the same with the files reversed (the key mirrored
        // too), then the first again.
        let text = [
            game("2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "1. Bg6xc6 *"),
            game("5R2/5pk1/qBn1n1pP/5p2/5N2/8/8/5r1K w 0", "1. Bb6xf6 *"),
            game("2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", "1. Bg6xc6 *"),
        ]
        .concat();
        let mut seen = Vec::new();
        let summary = import_collection(
            &store,
            "mine",
            pgn::read(&text).unwrap(),
            &SolveOptions::default(),
            ("pgn", "t.pgn"),
            |_, outcome| seen.push(outcome.clone()),
        )
        .unwrap();
        let counts = (
            summary.created,
            summary.duplicates,
            summary.existing,
            summary.rejected,
        );
        assert_eq!(counts, (1, 1, 1, 0), "{seen:?}");
        let Imported::Created(first) = &seen[0] else {
            panic!("{seen:?}")
        };
        match &seen[1] {
            Imported::Duplicate { of, transform } => {
                assert_eq!(of.id, first.id);
                assert_eq!(transform, "mirror a1<->h1");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(store.count().unwrap(), 1);
    }
}
