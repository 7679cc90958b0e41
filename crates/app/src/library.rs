//! The library: the one door of the edges (the HTTP API, the command line) to the stored puzzles,
//! collections and jobs. A route or a subcommand asks it for a use case (open and seed the store,
//! read, list, verify and store, delete, page a collection, export, import, generate, start the job
//! runner) and never holds the store itself: `tests/architecture.rs` checks that `src/api` and
//! `src/cli` name no store module.

use super::collections::{create_collection, fill_collection_then, CollectionError, RunSummary};
use super::export::Export;
use super::import::{
    import_collection, verify_and_store_read, ImportError, ImportSummary, Imported,
};
use super::jobs::{Jobs, JobsConfig};
use super::seed::{self, Fixtures, SeedReport};
use super::StoreOutcomeError;
use crate::formats::{Place, ReadError, ReadPuzzle};
use crate::generate::{GenerateOptions, Progress};
use crate::puzzle::rating::{Attempted, Rating};
use crate::puzzle::{NewPuzzle, StoredPuzzle};
use crate::solver::{Cancel, SolveOptions};
use crate::store::Store;
use std::sync::Arc;
use std::time::Duration;

pub use crate::store::collections::{valid_name, Collection};
pub use crate::store::search::{self, TextQuery};
pub use crate::store::{After, Database, Filter, SearchPage, StoreError};

/// The stored puzzles, collections and jobs, behind the application's use cases. Cheap to clone:
/// every clone shares one store.
#[derive(Clone, Debug)]
pub struct Library {
    store: Store,
}

impl From<Store> for Library {
    fn from(store: Store) -> Library {
        Library { store }
    }
}

/// What a player asks the next puzzle to be: near a rating, within filters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NextQuery {
    /// The player's rating (0 to 4000).
    pub rating: f64,
    /// Its deviation: the puzzles chosen among are those within half of it (at least 50 points)
    /// of the nearest one's rating.
    pub deviation: Option<f64>,
    pub game: Option<crate::rules::GameKind>,
    /// A stipulation (`h#2`) or a family (`h#`).
    pub stipulation: Option<String>,
    /// A theme (a tag).
    pub theme: Option<String>,
    pub collection: Option<String>,
    /// Puzzles already seen.
    pub exclude: Vec<i64>,
    /// Makes the choice repeatable (absent: the clock's).
    pub seed: Option<u64>,
}

/// One puzzle of a collection played in order ([`Library::collection_step`]).
#[derive(Clone, Debug)]
pub struct CollectionStep {
    pub puzzle: StoredPuzzle,
    /// Its position in the collection (positions grow in the collection's order; a removed
    /// puzzle leaves a gap).
    pub position: i64,
    /// Whether a puzzle follows it.
    pub more: bool,
}

/// How many of the nearest puzzles the next one is chosen among, at most.
pub const NEXT_CANDIDATES: u32 = 20;

/// Why an attempt was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum AttemptError {
    /// The player's rating is out of range.
    #[error(transparent)]
    Player(crate::puzzle::rating::RatingError),
    /// No puzzle has this id.
    #[error("no puzzle {0}")]
    NotFound(i64),
    /// The puzzle is a diagram: it has no rating.
    #[error("puzzle {0} is a diagram: only mate puzzles are rated")]
    Diagram(i64),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a history's correction was refused.
#[derive(Debug, thiserror::Error)]
pub enum HistoryCorrectionError {
    /// A field of the correction is wrong.
    #[error(transparent)]
    Invalid(#[from] crate::puzzle::HistoryError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Library {
    /// Opens the store at `db` (applying its migrations).
    ///
    /// # Errors
    /// The store's, in one line that never holds a password.
    pub fn open(db: &Database) -> Result<Library, StoreError> {
        Store::connect(db).map(Library::from)
    }

    /// Opens the store at `db` for the server: upgrades the rows older releases stored (Rococo
    /// puzzles solved under an older reading of the rules are solved again, mate rows get their
    /// difficulty), seeds it from `source` when given, and marks stopped the collections a
    /// previous run left running (jobs do not outlive their process): the library, what seeding
    /// did, and how many collections were stopped.
    ///
    /// # Errors
    /// A line naming the store and what failed.
    pub fn start(
        db: &Database,
        source: Option<&Fixtures>,
        solve: &SolveOptions,
    ) -> Result<(Library, SeedReport, usize), String> {
        let store = Store::connect(db).map_err(|e| format!("the puzzle store {db}: {e}"))?;
        seed::upgrade(&store, solve)?;
        let seeded = match source {
            Some(source) => seed::seed(&store, source, solve)?,
            None => SeedReport::default(),
        };
        let abandoned = store
            .stop_abandoned_collections(&crate::processes::is_running)
            .map_err(|e| format!("{db}: {e}"))?;
        Ok((Library { store }, seeded, abandoned))
    }

    /// The generation job runner of this replica, started on this library.
    pub fn start_jobs(&self, config: JobsConfig) -> Arc<Jobs> {
        Jobs::start(self.store.clone(), config)
    }

    /// Whether the store answers within `wait`.
    ///
    /// # Errors
    /// The store's.
    pub fn readiness(&self, wait: Duration) -> Result<crate::store::Readiness, StoreError> {
        self.store.readiness(wait)
    }

    /// Puzzle `id` with its outcome.
    ///
    /// # Errors
    /// The store's; an unreadable row is [`StoreError::Corrupt`].
    pub fn puzzle(&self, id: i64) -> Result<Option<StoredPuzzle>, StoreError> {
        self.store.get(id)
    }

    /// Puzzle `id` without its outcome (cheap: nothing of its proof is read).
    ///
    /// # Errors
    /// The store's.
    pub fn puzzle_lean(&self, id: i64) -> Result<Option<StoredPuzzle>, StoreError> {
        self.store.get_lean(id)
    }

    /// A page of at most `limit` puzzles matching `filter`, from `after`, and whether more follow.
    ///
    /// # Errors
    /// The store's.
    pub fn list_page(
        &self,
        filter: &Filter,
        after: After,
        limit: u32,
    ) -> Result<(Vec<StoredPuzzle>, bool), StoreError> {
        self.store.list_page(filter, after, limit)
    }

    /// A page of a listing with its last item's relevance when ordered by relevance (see
    /// [`crate::store::PuzzleStore::search`]).
    ///
    /// # Errors
    /// The store's; [`StoreError::Budget`] when the filters are too broad for the indexes.
    pub fn search(
        &self,
        filter: &Filter,
        after: After,
        limit: u32,
    ) -> Result<SearchPage, StoreError> {
        self.store.search(filter, after, limit)
    }

    /// Deletes puzzle `id`: whether it was there.
    ///
    /// # Errors
    /// The store's.
    pub fn delete(&self, id: i64) -> Result<bool, StoreError> {
        self.store.delete(id)
    }

    /// The next puzzle for a player: chosen at random (by `seed`, or the clock) among the stored
    /// mate puzzles nearest the player's rating that the filters allow, those within half the
    /// deviation (at least 50 points) of the nearest one's rating; `None` when no puzzle is left
    /// (or the rating is not a number).
    ///
    /// # Errors
    /// The store's.
    pub fn next_puzzle(&self, q: &NextQuery) -> Result<Option<StoredPuzzle>, StoreError> {
        let filter = crate::store::NextFilter {
            game: q.game,
            stipulation: q.stipulation.clone(),
            tag: q.theme.clone(),
            collection: q.collection.clone(),
            exclude: q.exclude.clone(),
        };
        if !q.rating.is_finite() {
            return Ok(None);
        }
        let near = self.store.near_rating(q.rating, &filter, NEXT_CANDIDATES)?;
        let distance = |p: &StoredPuzzle| {
            p.rating
                .map_or(f64::INFINITY, |r| (r.rating.value - q.rating).abs())
        };
        let Some(nearest) = near.first().map(distance) else {
            return Ok(None);
        };
        let reach = nearest + (q.deviation.unwrap_or(0.0) / 2.0).max(50.0);
        let pool: Vec<StoredPuzzle> = near.into_iter().filter(|p| distance(p) <= reach).collect();
        let seed = q.seed.unwrap_or_else(crate::generate::clock_seed);
        // SplitMix64 of the seed: an index spread over the pool.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        if pool.is_empty() {
            return Ok(None);
        }
        let pick = (z % pool.len() as u64) as usize;
        Ok(pool.into_iter().nth(pick))
    }

    /// Records an attempt at puzzle `id` by a player rated `player` (checked first), solved or
    /// not: the puzzle's rating and the player's after it (see
    /// [`crate::puzzle::rating::attempt`]), every attempt counted even when many come at once.
    ///
    /// # Errors
    /// [`AttemptError::Player`] for a player rating out of range, [`AttemptError::NotFound`] for
    /// no such puzzle, [`AttemptError::Diagram`] for a diagram (it has no rating), and the store's.
    pub fn record_attempt(
        &self,
        id: i64,
        player: Rating,
        solved: bool,
    ) -> Result<Attempted, AttemptError> {
        player.check().map_err(AttemptError::Player)?;
        match self.store.record_attempt(id, player, solved)? {
            Some(done) => Ok(done),
            None => match self.store.get_lean(id)? {
                Some(_) => Err(AttemptError::Diagram(id)),
                None => Err(AttemptError::NotFound(id)),
            },
        }
    }

    /// Verifies a posted puzzle and stores it unless the same one is stored (see
    /// [`super::verify_and_store`]).
    ///
    /// # Errors
    /// The verification's refusal, or the store's failure.
    pub fn verify_and_store(
        &self,
        new: NewPuzzle,
        solve: &SolveOptions,
    ) -> Result<(StoredPuzzle, bool), StoreOutcomeError> {
        super::verify_and_store(&self.store, new, solve)
    }

    /// Verifies a puzzle read from PGN or CSV and stores it (see [`verify_and_store_read`]).
    ///
    /// # Errors
    /// The verification's refusal, or the store's failure.
    pub fn verify_and_store_read(
        &self,
        read: ReadPuzzle,
        solve: &SolveOptions,
    ) -> Result<(StoredPuzzle, bool), StoreOutcomeError> {
        verify_and_store_read(&self.store, read, solve)
    }

    /// The stored problems that anticipate a position (see [`crate::anticipation::anticipate`]).
    ///
    /// # Errors
    /// The store's.
    pub fn anticipate(
        &self,
        pos: &crate::rules::VariantPosition,
        stipulation: Option<crate::solver::Stipulation>,
        naming: crate::rules::Naming,
    ) -> Result<crate::anticipation::AnticipationReport, StoreError> {
        crate::anticipation::anticipate(&self.store, pos, stipulation, naming)
    }

    /// The stored problem that a post refusing anticipated puzzles refuses `new` for (see
    /// [`crate::anticipation::anticipated_by`]).
    ///
    /// # Errors
    /// The store's.
    pub fn anticipated_by(
        &self,
        new: &NewPuzzle,
    ) -> Result<Option<crate::anticipation::Anticipation>, StoreError> {
        crate::anticipation::anticipated_by(&self.store, new)
    }

    /// Corrects a stored puzzle's history and source (never its position, stipulation or
    /// outcome): the puzzle as it is now, read without its outcome; `None` when no puzzle has
    /// that id.
    ///
    /// # Errors
    /// The correction's fault (naming the field), or the store's failure.
    pub fn correct_history(
        &self,
        id: i64,
        patch: crate::puzzle::HistoryPatch,
    ) -> Result<Option<StoredPuzzle>, HistoryCorrectionError> {
        if !patch.is_empty() {
            use crate::store::HistoryCorrection as C;
            match self.store.correct_history(id, &patch)? {
                C::Done => {}
                C::Missing => return Ok(None),
                C::Invalid(e) => return Err(e.into()),
            }
        }
        Ok(self.store.get_lean(id)?)
    }

    /// Every collection, by name.
    ///
    /// # Errors
    /// The store's.
    pub fn collections(&self) -> Result<Vec<Collection>, StoreError> {
        self.store.collections()
    }

    /// Collection `name`, without its puzzles.
    ///
    /// # Errors
    /// The store's.
    pub fn collection_info(&self, name: &str) -> Result<Option<Collection>, StoreError> {
        self.store.collection_info(name)
    }

    /// The puzzles of collection `name` in order, `limit` at a time, with their outcomes or
    /// without.
    pub fn collection_pages<'a>(
        &'a self,
        name: &'a str,
        limit: u32,
        outcomes: bool,
    ) -> impl Iterator<Item = Result<Vec<StoredPuzzle>, StoreError>> + 'a {
        self.store.collection_pages(name, limit, outcomes)
    }

    /// A collection played in order: the puzzle of collection `name` that follows position
    /// `after` (0: its first), without its outcome, with its own position and whether another
    /// follows it. `None` past the last puzzle, or when there is no such collection.
    ///
    /// # Errors
    /// The store's.
    pub fn collection_step(
        &self,
        name: &str,
        after: i64,
    ) -> Result<Option<CollectionStep>, StoreError> {
        let mut page = self.store.collection_page(name, after, 2, false)?;
        let more = page.len() > 1;
        page.truncate(1);
        Ok(page.pop().map(|(position, puzzle)| CollectionStep {
            puzzle,
            position,
            more,
        }))
    }

    /// The stored version of collection `name` (it changes whenever its puzzles do): `None` when
    /// there is no such collection.
    ///
    /// # Errors
    /// The store's.
    pub fn collection_version(&self, name: &str) -> Result<Option<String>, StoreError> {
        self.store.collection_version(name)
    }

    /// An export of collection `name` in `format`, each puzzle written as a JSON line by `json`
    /// (see [`Export::open`]).
    ///
    /// # Errors
    /// The store's, or no such collection.
    pub fn export(
        &self,
        name: &str,
        format: crate::formats::Format,
        json: super::export::JsonLine,
    ) -> Result<Option<Export>, StoreError> {
        Export::open(self.store.clone(), name, format, json)
    }

    /// Imports puzzles read from a file into collection `name` (see [`import_collection`]).
    ///
    /// # Errors
    /// See [`import_collection`].
    pub fn import(
        &self,
        name: &str,
        reads: Vec<Result<ReadPuzzle, ReadError>>,
        solve: &SolveOptions,
        about: (&str, &str),
        each: impl FnMut(&Place, &Imported),
    ) -> Result<ImportSummary, ImportError> {
        import_collection(&self.store, name, reads, solve, about, each)
    }

    /// Fills in the difficulty of stored mate puzzles that have none: how many got one.
    ///
    /// # Errors
    /// A line saying what failed.
    pub fn fill_difficulties(&self) -> Result<usize, String> {
        seed::fill_difficulties(&self.store)
    }

    /// Creates collection `name` and fills it with puzzles generated with `opts` (see
    /// [`fill_collection_then`]), its end recorded in its summary.
    ///
    /// # Errors
    /// When the name is invalid or taken, the options are out of range, or the store fails.
    pub fn generate(
        &self,
        name: &str,
        opts: &GenerateOptions,
        solve: &SolveOptions,
        cancel: &Cancel,
        observe: impl FnMut(&Progress, Option<&StoredPuzzle>) -> bool,
    ) -> Result<RunSummary, CollectionError> {
        if !valid_name(name) {
            return Err(CollectionError::Name(name.to_string()));
        }
        opts.validate()?;
        let store = &self.store;
        if !create_collection(store, name, opts)? {
            return Err(CollectionError::Exists(name.to_string()));
        }
        let finish = |state: &str, summary: &serde_json::Value| {
            store.finish_collection(name, state, &super::document(summary))
        };
        fill_collection_then(store, name, opts, solve, cancel, observe, &finish)
    }
}
