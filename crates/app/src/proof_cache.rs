//! The proofs of stored puzzles, kept parsed in a cache bounded by bytes (`--proof-cache-mib`), so
//! that a puzzle played again is judged without reading or parsing its outcome.
//!
//! A cached proof is used only while the puzzle's stored content revision is the one it was read
//! at (the puzzle is read without its outcome first, which is cheap): a puzzle whose outcome another
//! replica rewrote, or that was deleted, is never judged by a stale proof, while attempts, which
//! change only the rating, leave the cached proof in use
//! ([`StoredPuzzle::content_revision`]). Proofs missing from the
//! cache are read and parsed one at a time, so that a flood of plays of one large puzzle parses it
//! once, and holds one parse's memory.

use super::Library;
use crate::play::StoredProof;
use crate::puzzle::StoredPuzzle;
use crate::solver::Stipulation;
use crate::store::StoreError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The proof cache of stored play, shared by every worker.
#[derive(Debug)]
pub struct ProofCache {
    cache: Mutex<Cache>,
    /// Held while a proof missing from the cache is read and parsed.
    loading: Mutex<()>,
}

#[derive(Debug, Default)]
struct Cache {
    entries: HashMap<i64, Entry>,
    /// The sum of the entries' weights.
    bytes: usize,
    budget: usize,
    /// A clock of uses: the least recently used entry goes first.
    tick: u64,
}

#[derive(Debug)]
struct Entry {
    revision: i64,
    proof: Arc<StoredProof>,
    bytes: usize,
    used: u64,
}

impl Cache {
    fn get(&mut self, id: i64, revision: i64) -> Option<Arc<StoredProof>> {
        self.tick += 1;
        let tick = self.tick;
        let entry = self
            .entries
            .get_mut(&id)
            .filter(|e| e.revision == revision)?;
        entry.used = tick;
        Some(entry.proof.clone())
    }

    fn put(&mut self, id: i64, revision: i64, proof: Arc<StoredProof>) {
        if let Some(old) = self.entries.remove(&id) {
            self.bytes -= old.bytes;
        }
        let bytes = proof.weight();
        if bytes > self.budget {
            return;
        }
        while self.bytes + bytes > self.budget {
            let Some((&oldest, _)) = self.entries.iter().min_by_key(|(_, e)| e.used) else {
                break;
            };
            if let Some(old) = self.entries.remove(&oldest) {
                self.bytes -= old.bytes;
            }
        }
        self.tick += 1;
        self.bytes += bytes;
        self.entries.insert(
            id,
            Entry {
                revision,
                proof,
                bytes,
                used: self.tick,
            },
        );
    }
}

impl ProofCache {
    /// Proofs cached up to `budget_bytes`.
    pub fn new(budget_bytes: usize) -> ProofCache {
        ProofCache {
            cache: Mutex::new(Cache {
                budget: budget_bytes,
                ..Cache::default()
            }),
            loading: Mutex::new(()),
        }
    }

    /// The proof of a stored mate puzzle read without its outcome (`lean`): from the cache while
    /// the puzzle's revision is the one cached, else read (with its outcome), parsed and cached.
    /// Blocks on the store: call it off the async workers.
    ///
    /// # Errors
    /// The store's.
    pub fn proof(
        &self,
        library: &Library,
        lean: &StoredPuzzle,
        stipulation: Stipulation,
    ) -> Result<Arc<StoredProof>, StoreError> {
        let revision = lean.content_revision();
        if let Some(p) = self.cached(lean.id, revision) {
            return Ok(p);
        }
        let _loading = self.loading.lock().unwrap_or_else(|e| e.into_inner());
        // Another play may have loaded it while this one waited.
        if let Some(p) = self.cached(lean.id, revision) {
            return Ok(p);
        }
        let Some(full) = library.puzzle(lean.id)? else {
            // Deleted since: nothing to play along.
            return Ok(Arc::new(StoredProof::None));
        };
        let proof = Arc::new(match &full.outcome {
            Some(outcome) => StoredProof::of_outcome(stipulation, outcome),
            None => StoredProof::None,
        });
        drop(full);
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .put(lean.id, revision, proof.clone());
        Ok(proof)
    }

    fn cached(&self, id: i64, revision: i64) -> Option<Arc<StoredProof>> {
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id, revision)
    }

    /// The bytes the cached proofs hold, and how many there are.
    pub fn cached_bytes(&self) -> (usize, usize) {
        let c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        (c.bytes, c.entries.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> Arc<StoredProof> {
        Arc::new(StoredProof::Lines(vec![vec!["Kd3-c2".to_string()]; n]))
    }

    #[test]
    fn an_attempt_keeps_the_cached_proof_and_a_change_of_the_puzzle_does_not() {
        use crate::generate::GenerateOptions;
        use crate::puzzle::rating::Rating;
        use crate::solver::{Cancel, SolveOptions};
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(&dir.path().join("t.db")).unwrap();
        let library = Library::from(store.clone());
        let opts = GenerateOptions {
            stipulation: Stipulation::Mate(1),
            count: 1,
            seed: 3,
            max_pieces: 6,
            threads: 1,
            ..GenerateOptions::default()
        };
        library
            .generate(
                "one",
                &opts,
                &SolveOptions::default(),
                &Cancel::new(),
                |_, _| true,
            )
            .unwrap();
        let id = store.collection("one").unwrap().unwrap().1[0].id;
        let lean = || library.puzzle_lean(id).unwrap().unwrap();
        let cache = ProofCache::new(1 << 20);
        let first = cache
            .proof(&library, &lean(), Stipulation::Mate(1))
            .unwrap();
        assert!(!matches!(*first, StoredProof::None));
        let before = lean();
        library
            .record_attempt(id, Rating::NEW_PLAYER, false)
            .unwrap();
        let after = lean();
        assert!(
            after.revision > before.revision,
            "an attempt is a change of the row"
        );
        assert_eq!(after.content_revision(), before.content_revision());
        let second = cache.proof(&library, &after, Stipulation::Mate(1)).unwrap();
        assert!(Arc::ptr_eq(&first, &second), "the cached proof is used");
        // Another content hash is another puzzle: its proof is read again.
        assert!(store.set_content_hash(id, "another").unwrap());
        let changed = lean();
        assert!(changed.content_revision() > after.content_revision());
        let third = cache
            .proof(&library, &changed, Stipulation::Mate(1))
            .unwrap();
        assert!(!Arc::ptr_eq(&second, &third), "the proof is read again");
    }

    #[test]
    fn the_cache_stays_within_its_budget_and_drops_the_least_recently_used() {
        let one = lines(10).weight();
        let mut c = Cache {
            budget: one * 2,
            ..Cache::default()
        };
        c.put(1, 0, lines(10));
        c.put(2, 0, lines(10));
        assert!(c.get(1, 0).is_some());
        c.put(3, 0, lines(10));
        assert!(c.bytes <= c.budget);
        assert!(c.get(2, 0).is_none(), "the least recently used went");
        assert!(c.get(1, 0).is_some() && c.get(3, 0).is_some());
        // Another revision is another proof.
        assert!(c.get(1, 1).is_none());
        // A proof larger than the budget is not kept.
        c.put(4, 0, lines(1_000));
        assert!(c.get(4, 0).is_none());
        assert!(c.bytes <= c.budget);
        // Put again: counted once.
        c.put(1, 1, lines(10));
        assert_eq!(c.entries.len(), 2);
        assert_eq!(c.bytes, c.entries.values().map(|e| e.bytes).sum::<usize>());
    }
}
