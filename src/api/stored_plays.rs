//! Stored play's own bounds: at most `--max-stored-plays` stored plays at once (one more is
//! refused at once with 503 `plays-busy`), each run on the blocking pool, with the proofs of stored
//! puzzles kept parsed by the application layer's [`ProofCache`].

use super::costly_work::{Slot, Slots};
use super::problem::ApiError;
use crate::app::proof_cache::ProofCache;

/// Seconds a stored play refused for every slot being taken is asked to wait.
pub const PLAYS_RETRY_AFTER: u64 = 1;

/// The slots and the proof cache of stored play, shared by every worker.
#[derive(Debug)]
pub struct StoredPlays {
    slots: Slots,
    /// The parsed proofs of the puzzles played.
    pub proofs: ProofCache,
}

impl StoredPlays {
    /// At most `max` stored plays at once; proofs cached up to `budget_bytes`.
    pub fn new(max: usize, budget_bytes: usize) -> StoredPlays {
        StoredPlays {
            slots: Slots::new(max),
            proofs: ProofCache::new(budget_bytes),
        }
    }

    /// A stored play's slot.
    ///
    /// # Errors
    /// [`ApiError::PlaysBusy`] when every slot is taken.
    pub fn try_acquire(&self) -> Result<Slot, ApiError> {
        self.slots.try_acquire().ok_or(ApiError::PlaysBusy {
            limit: self.slots.max() as u64,
            retry_after: PLAYS_RETRY_AFTER,
        })
    }
}
