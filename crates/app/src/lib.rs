//! The use cases, between the engine and the edges (HTTP, command line): verifying a puzzle and
//! storing it, seeding the store from the fixtures, generating a collection, importing puzzles read
//! from PGN or CSV, exporting them. They use the store to persist; the store itself only persists and
//! reads.

pub mod analysis;
pub mod anticipation;
pub mod collections;
pub mod export;
pub mod generate;
pub mod import;
pub mod jobs;
pub mod judge;
pub mod library;
pub mod line;
pub mod position;
pub mod processes;
pub mod proof_cache;
pub mod seed;
pub mod shards;
pub mod solve;

use baroque_puzzle as puzzle;
use baroque_puzzle::fixtures::{cases, puzzles};
use baroque_puzzle::{difficulty, formats, outcome, play};
use baroque_rules as rules;
use baroque_solver as solver;
use baroque_store as store;

use crate::puzzle::{verify, NewPuzzle, VerifyError};
use crate::solver::SolveOptions;
use crate::store::{Store, StoreError, StoredPuzzle};

pub use library::Library;

/// Why a puzzle was not stored.
#[derive(Debug, thiserror::Error)]
pub enum StoreOutcomeError {
    /// The puzzle does not verify (or the budget ran out).
    #[error(transparent)]
    Verify(#[from] VerifyError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Verifies a puzzle and stores it unless the same one is stored: `(puzzle, true)` when it was
/// new.
///
/// # Errors
/// The verification's refusal, or the store's failure.
pub fn verify_and_store(
    store: &Store,
    new: NewPuzzle,
    solve: &SolveOptions,
) -> Result<(StoredPuzzle, bool), StoreOutcomeError> {
    if let Some(found) = stored_already(store, &new)? {
        return Ok((found, false));
    }
    let verified = verify(new, solve)?;
    Ok(store.insert(&verified)?)
}

/// Lowers the calling thread's scheduling priority (nice 10 on Linux; nothing elsewhere): the
/// threads of searches and generation jobs give way to the HTTP workers.
pub fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take plain integers and touch only the calling thread's
    // scheduling attributes; a failure (a sandbox forbidding it) leaves the priority as it was.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// The stored puzzle with the content of `new`, looked up before any solve, when its claim states
/// its stipulation alone (see [`crate::puzzle::stored_content_hash`]): a post of a puzzle stored
/// before is answered from the store, without the search that verified it then.
///
/// # Errors
/// The store's failure.
pub fn stored_already(store: &Store, new: &NewPuzzle) -> Result<Option<StoredPuzzle>, StoreError> {
    match crate::puzzle::stored_content_hash(new) {
        Some(hash) => store.get_by_hash(&hash),
        None => Ok(None),
    }
}

/// The JSON document the store keeps for `value` (a job's request or view, a collection's
/// summary): its compact text, keys in order, as every release has written it.
pub fn document(value: &serde_json::Value) -> Box<crate::store::Json> {
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| document(&serde_json::Value::Null))
}

/// The value of a stored JSON document. The store checked that it is JSON, so it always reads.
pub fn value(doc: &crate::store::Json) -> serde_json::Value {
    serde_json::from_str(doc.get()).unwrap_or_default()
}
