//! Generating a collection: a run of the generator whose puzzles are verified again by the full
//! solver and stored one by one in a named collection of the store, with the run's state and
//! summary recorded however it ends.

use crate::generate::{generate_prepared, GenerateOptions, Generated, Progress, Proof, Stop, Take};
use crate::puzzle::{verify, About, Claim, MateClaim, NewPuzzle, VerifyError};
use crate::rules::{GamePosition, Naming, Visit};
use crate::solver::{Cancel, SolveOptions};
use crate::store::collections::NewCollection;
use crate::store::{Store, StoreError, StoredPuzzle, VerifiedPuzzle};
use serde::Serialize;
use std::collections::BTreeMap;

/// Why a collection could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CollectionError {
    #[error("`{0}` is not a collection name: use 1 to 64 letters, digits, `-`, `_` or `.`")]
    Name(String),
    #[error("a collection named `{0}` exists already")]
    Exists(String),
    #[error(transparent)]
    Options(#[from] crate::generate::OptionsError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The run stopped on a fault of the program (a panic); the cause is logged.
    #[error("the run failed; the cause is logged")]
    Aborted,
}

/// How a run ended.
#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    pub progress: Progress,
    pub stop: Stop,
    pub stored: u64,
    pub puzzle_ids: Vec<i64>,
    /// What the stored puzzles are like: key pieces, themes, difficulty, and the variety rules.
    pub distributions: Distributions,
}

/// What the puzzles of a collection are like, recorded in its summary.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Distributions {
    /// The variety rules of the run, and how the puzzles met them.
    pub variety: VarietySummary,
    /// Puzzles by the kind of their key piece (`immobilizer`, `long-leaper`; a helpmate's mating
    /// piece).
    pub key_pieces: BTreeMap<String, u64>,
    /// Puzzles by theme (each tag of the generator's themes).
    pub themes: BTreeMap<String, u64>,
    pub difficulty: DifficultySummary,
    /// The reach of the run's narrowed search, in King steps (0: none; see
    /// [`GenerateOptions::focus`]).
    pub focus: u32,
}

/// The variety rules of a run and how its puzzles met them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VarietySummary {
    /// The largest share of one key piece kind asked for.
    pub max_key_share: f64,
    /// The most puzzles of one key piece kind this count allows.
    pub key_cap: u64,
    /// Pieces besides its King the defender keeps, in at least `min_defenders_share` of them.
    pub min_defenders: u64,
    pub min_defenders_share: f64,
    /// The puzzles whose defender keeps `min_defenders` pieces.
    pub defenders_kept: u64,
}

/// The difficulties of a collection's puzzles: the least, the median (the lower middle one for an
/// even number), the most, and how many fall in each fifth of 0 to 100.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct DifficultySummary {
    pub min: Option<u8>,
    pub median: Option<u8>,
    pub max: Option<u8>,
    /// `0-19`, `20-39`, `40-59`, `60-79`, `80-100`: the puzzles in each.
    pub buckets: BTreeMap<String, u64>,
}

impl DifficultySummary {
    /// The summary of some difficulties.
    pub fn of(difficulties: &[u8]) -> DifficultySummary {
        let mut sorted = difficulties.to_vec();
        sorted.sort_unstable();
        let mut buckets: BTreeMap<String, u64> = BUCKETS
            .iter()
            .map(|(name, _)| (name.to_string(), 0))
            .collect();
        for d in &sorted {
            if let Some((name, _)) = BUCKETS.iter().find(|(_, top)| d <= top) {
                *buckets.entry(name.to_string()).or_default() += 1;
            }
        }
        DifficultySummary {
            min: sorted.first().copied(),
            median: sorted.get(sorted.len().saturating_sub(1) / 2).copied(),
            max: sorted.last().copied(),
            buckets,
        }
    }
}

/// The difficulty buckets of a summary, each with its highest difficulty.
const BUCKETS: [(&str, u8); 5] = [
    ("0-19", 19),
    ("20-39", 39),
    ("40-59", 59),
    ("60-79", 79),
    ("80-100", 100),
];

impl Distributions {
    /// The distributions of stored puzzles, each with its key piece kind and the defender's pieces
    /// besides its King, under the variety rules of `opts`.
    pub(crate) fn of(
        opts: &GenerateOptions,
        puzzles: &[(StoredPuzzle, Option<String>, usize)],
    ) -> Self {
        let v = opts.variety;
        let mut key_pieces = BTreeMap::new();
        let mut themes = BTreeMap::new();
        let mut kept = 0;
        for (p, key, defenders) in puzzles {
            if let Some(k) = key {
                *key_pieces.entry(k.clone()).or_default() += 1;
            }
            for t in &p.tags {
                *themes.entry(t.clone()).or_default() += 1;
            }
            kept += u64::from(*defenders >= v.min_defenders);
        }
        let difficulties: Vec<u8> = puzzles.iter().filter_map(|(p, ..)| p.difficulty).collect();
        Distributions {
            variety: VarietySummary {
                max_key_share: v.max_key_share,
                key_cap: v.key_cap(opts.count) as u64,
                min_defenders: v.min_defenders as u64,
                min_defenders_share: v.min_defenders_share,
                defenders_kept: kept,
            },
            key_pieces,
            themes,
            difficulty: DifficultySummary::of(&difficulties),
            focus: opts.effective_focus(),
        }
    }
}

/// Makes the empty collection `name` for a run of `opts` (state `running`); `Ok(false)` when the
/// name is taken.
///
/// # Errors
/// When the store fails.
pub fn create_collection(
    store: &Store,
    name: &str,
    opts: &GenerateOptions,
) -> Result<bool, StoreError> {
    let variant = opts.variant;
    let new = NewCollection {
        game: variant.kind(),
        rules: crate::store::rules_columns(variant.kind(), &variant.rules().unwrap_or_default()).0,
        stipulation: opts.stipulation,
        seed: opts.seed,
        max_pieces: opts.max_pieces,
        count: opts.count,
        runner: crate::processes::this_process(),
    };
    store.create_collection(name, &new)
}

/// How a run's end is recorded: its state (`done`, `stopped`, `failed`) and summary.
pub type Finish<'a> = &'a dyn Fn(&str, &serde_json::Value) -> Result<(), StoreError>;

/// Fills collection `name`, made by [`create_collection`]: generates puzzles with `opts`, verifies
/// each again with the full solver (`solve`: budget and table), stores it with its themes as tags
/// and appends it; only puzzles so stored count toward `opts.count`. `observe` sees the progress
/// after each batch and each puzzle stored, and returns `false` to stop; `cancel` stops the run
/// from another thread. The collection's final state and summary are recorded by `finish` however
/// the run ends (a generation job records its own end and its collection's in one transaction).
///
/// A collection that holds puzzles already (a run taken over after its runner died) is gone on
/// with: the same seed makes the same candidates, so the run finds its puzzles again in the same
/// order (they are not solved again, and count as found) and then goes on; the collection ends as
/// one uninterrupted run would have made it.
///
/// # Errors
/// When the options are out of range or the store fails.
pub fn fill_collection_then(
    store: &Store,
    name: &str,
    opts: &GenerateOptions,
    solve: &SolveOptions,
    cancel: &Cancel,
    observe: impl FnMut(&Progress, Option<&StoredPuzzle>) -> bool,
    finish: Finish<'_>,
) -> Result<RunSummary, CollectionError> {
    /// The run on the concrete position type of the options' game.
    struct Fill<'a, F> {
        store: &'a Store,
        name: &'a str,
        opts: &'a GenerateOptions,
        solve: &'a SolveOptions,
        cancel: &'a Cancel,
        observe: F,
        finish: Finish<'a>,
    }
    impl<F: FnMut(&Progress, Option<&StoredPuzzle>) -> bool> Visit for Fill<'_, F> {
        type Output = Result<RunSummary, CollectionError>;
        fn visit<P: GamePosition>(self, _: &P) -> Self::Output {
            fill_with::<P>(
                self.store,
                self.name,
                self.opts,
                self.solve,
                self.cancel,
                self.observe,
                self.finish,
            )
        }
    }
    opts.variant.start().visit(Fill {
        store,
        name,
        opts,
        solve,
        cancel,
        observe,
        finish,
    })
}

fn fill_with<P: GamePosition>(
    store: &Store,
    name: &str,
    opts: &GenerateOptions,
    solve: &SolveOptions,
    cancel: &Cancel,
    mut observe: impl FnMut(&Progress, Option<&StoredPuzzle>) -> bool,
    finish: Finish<'_>,
) -> Result<RunSummary, CollectionError> {
    let mut failure: Option<StoreError> = None;
    let mut stored_before = stored_by_fen(store, name)?;
    let deadline = std::time::Instant::now() + opts.max_time;
    let solve_until = |solve: &SolveOptions| confirming(solve, cancel, deadline);
    let mut ids = Vec::new();
    let mut kept: Vec<(StoredPuzzle, Option<String>, usize)> = Vec::new();
    let go_on = |b: bool| if b { Take::Kept } else { Take::Stop };
    // Each puzzle found is verified again by the full solver on the thread that found it, one
    // thread per solve (the run's threads are busy with it); not those an earlier run stored.
    let before: std::collections::HashSet<String> = stored_before.keys().cloned().collect();
    let verify_one = |found: &Generated<P>| {
        let new = new_puzzle(name, opts, found);
        (!before.contains(&new.fen)).then(|| {
            let solve = SolveOptions {
                threads: 1,
                // The confirming solve starts from what the screening proved.
                proven: found.proven.clone(),
                ..solve_until(solve)
            };
            verify(new, &solve)
        })
    };
    let run = generate_prepared::<P, _>(opts, cancel, verify_one, |progress, found| {
        let Some((found, verified)) = found else {
            return go_on(observe(progress, None));
        };
        let again = stored_before.remove(&found.position.fen(Naming::default()));
        let stored = match (again, verified) {
            (Some(p), _) => Ok(Some(p)),
            (None, Some(verified)) => store_verified(store, name, found, verified),
            // Stored before, and taken already: a duplicate the run drops itself.
            (None, None) => Ok(None),
        };
        match stored {
            Ok(Some(stored)) => {
                ids.push(stored.id);
                let go = go_on(observe(progress, Some(&stored)));
                kept.push((
                    stored,
                    found.key.map(crate::generate::slug),
                    found.defenders,
                ));
                go
            }
            // The full solve did not confirm the screening (it never should): not counted.
            Ok(None) => Take::Skipped,
            Err(e) => {
                failure = Some(e);
                Take::Stop
            }
        }
    });
    let run = match run {
        Ok(run) => run,
        Err(e) => {
            let summary = serde_json::json!({"count": opts.count, "error": e.to_string()});
            finish("failed", &summary)?;
            return Err(e.into());
        }
    };
    let summary = RunSummary {
        stored: ids.len() as u64,
        puzzle_ids: ids,
        progress: run.progress,
        stop: run.stop,
        distributions: Distributions::of(opts, &kept),
    };
    record_end(summary, failure, opts, finish)
}

/// What an earlier run of collection `name` stored, by position (a run taken over goes on from
/// them).
///
/// # Errors
/// When the store fails.
pub(crate) fn stored_by_fen(
    store: &Store,
    name: &str,
) -> Result<std::collections::HashMap<String, StoredPuzzle>, StoreError> {
    Ok(store
        .collection(name)?
        .map(|(_, puzzles)| puzzles.into_iter().map(|p| (p.fen.clone(), p)).collect())
        .unwrap_or_default())
}

/// The options of a confirming solve of a run: `solve`, stopped by the run's `cancel` and by its
/// `deadline` (the time left now).
pub(crate) fn confirming(
    solve: &SolveOptions,
    cancel: &Cancel,
    deadline: std::time::Instant,
) -> SolveOptions {
    let left = deadline.saturating_duration_since(std::time::Instant::now());
    SolveOptions {
        cancel: cancel.clone(),
        limits: crate::solver::Limits {
            time: solve.limits.time.min(left),
            ..solve.limits
        },
        ..solve.clone()
    }
}

/// Records how a run ended through `finish` (`failed` when the store failed, `done` when the
/// collection is complete, else `stopped`), with the collection's summary; the run's summary, or
/// the store's failure.
///
/// # Errors
/// The store's failure during the run, or in recording its end.
pub(crate) fn record_end(
    summary: RunSummary,
    failure: Option<StoreError>,
    opts: &GenerateOptions,
    finish: Finish<'_>,
) -> Result<RunSummary, CollectionError> {
    let state = match (&failure, summary.stop) {
        (Some(_), _) => "failed",
        (None, Stop::Done) => "done",
        (None, _) => "stopped",
    };
    let mut json = serde_json::json!({
        "count": opts.count,
        "progress": summary.progress,
        "stop": summary.stop,
        "variety": summary.distributions.variety,
        "key_pieces": summary.distributions.key_pieces,
        "themes": summary.distributions.themes,
        "difficulty": summary.distributions.difficulty,
        "focus": summary.distributions.focus,
    });
    if let Some(e) = &failure {
        json["error"] = e.to_string().into();
    }
    finish(state, &json)?;
    match failure {
        Some(e) => Err(e.into()),
        None => Ok(summary),
    }
}

/// The puzzle a generated one is stored as: its claim (the key, or the helpmate's one line) for
/// the full solve to confirm, and where it came from.
pub(crate) fn new_puzzle<P: GamePosition>(
    name: &str,
    opts: &GenerateOptions,
    found: &Generated<P>,
) -> NewPuzzle {
    let claim = match &found.solution {
        Proof::Keys(s) => MateClaim {
            stipulation: opts.stipulation,
            keys: s
                .keys
                .first()
                .map(|k| vec![found.position.move_name(&k.mv, Naming::default())]),
            sound: Some(true),
            ..MateClaim::default()
        },
        Proof::Help(h) => MateClaim {
            stipulation: opts.stipulation,
            solutions: Some(
                h.named(&found.position, Naming::default())
                    .solutions
                    .into_iter()
                    .map(|l| l.into_iter().map(|m| m.notation).collect())
                    .collect(),
            ),
            sound: Some(true),
            ..MateClaim::default()
        },
    };
    NewPuzzle {
        variant: opts.variant,
        fen: found.position.fen(Naming::default()),
        claim: Claim::Mate(claim),
        about: About {
            source: Some("generated".into()),
            caption: Some(format!(
                "collection {name}: seed {}, candidate {} ({})",
                opts.seed,
                found.candidate,
                found.source.name()
            )),
            tags: found.themes.clone(),
            ..About::default()
        },
    }
}

/// Appends a generated puzzle the full solve confirmed to the collection; `Ok(None)` (and a
/// warning) when it did not (it never should).
fn store_verified<P: GamePosition>(
    store: &Store,
    name: &str,
    found: &Generated<P>,
    verified: Result<VerifiedPuzzle, VerifyError>,
) -> Result<Option<StoredPuzzle>, StoreError> {
    match verified {
        Ok(verified) => store.append_to_collection(name, &verified).map(Some),
        Err(e) => {
            tracing::warn!(collection = name, candidate = found.candidate, error = %e,
                "a generated puzzle was not confirmed by the full solve");
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Limits;
    use crate::Library;
    use std::time::Duration;

    fn options(seed: u64, count: usize) -> GenerateOptions {
        GenerateOptions {
            count,
            seed,
            max_pieces: 7,
            threads: 2,
            candidate_limits: Limits {
                nodes: 300_000,
                time: Duration::from_secs(2),
            },
            ..GenerateOptions::default()
        }
    }

    #[test]
    fn a_run_stores_its_puzzles_in_order_with_themes() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let solve = SolveOptions::default();
        let mut seen = Vec::new();
        let run = Library::from(store.clone())
            .generate("twos", &options(11, 3), &solve, &Cancel::new(), |_, p| {
                if let Some(p) = p {
                    seen.push(p.id);
                }
                true
            })
            .unwrap();
        assert_eq!(run.stored, 3);
        assert_eq!(run.puzzle_ids, seen);
        let (c, puzzles) = store.collection("twos").unwrap().unwrap();
        assert_eq!(
            (c.state.as_str(), c.puzzles, c.seed, c.mate_in),
            ("done", 3, 11, 2)
        );
        assert_eq!(crate::value(&c.summary)["stop"], "done");
        assert_eq!(puzzles.iter().map(|p| p.id).collect::<Vec<_>>(), seen);
        for p in &puzzles {
            assert_eq!(p.outcome.as_ref().unwrap().sound(), Some(true));
            assert!(p.tags.iter().any(|t| t.starts_with("key-")), "{:?}", p.tags);
        }
        // The name is taken now; bad names are refused.
        assert!(matches!(
            Library::from(store.clone()).generate(
                "twos",
                &options(11, 1),
                &solve,
                &Cancel::new(),
                |_, _| true
            ),
            Err(CollectionError::Exists(_))
        ));
        for bad in ["", "a b", "x/y", &"n".repeat(65)] {
            assert!(matches!(
                Library::from(store.clone()).generate(
                    bad,
                    &options(1, 1),
                    &solve,
                    &Cancel::new(),
                    |_, _| true
                ),
                Err(CollectionError::Name(_))
            ));
        }
        assert_eq!(store.collections().unwrap().len(), 1);
    }

    #[test]
    fn a_cancelled_run_is_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let run = Library::from(store.clone())
            .generate(
                "cut",
                &options(5, 50),
                &SolveOptions::default(),
                &Cancel::new(),
                |_, _| false,
            )
            .unwrap();
        assert_eq!(run.stop, Stop::Cancelled);
        let (c, _) = store.collection("cut").unwrap().unwrap();
        assert_eq!(c.state, "stopped");
    }
}
