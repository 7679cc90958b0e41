//! Sharded generation jobs: a collection whose candidates are screened by every replica with a
//! free generation slot, and assembled by one.
//!
//! A job's candidates are cut into shards of one steering epoch each (`steer_epoch` candidates:
//! shard `k` holds candidates `k * epoch` to `(k + 1) * epoch`). Each shard is a row of the store
//! that a replica claims under a lease of its own, screens (verifying each sound puzzle with the
//! full solver on the thread that found it), and finishes with its result: every candidate's
//! verdict and nodes, and the sound puzzles as verified. The job's runner (the replica that holds
//! the job's lease) reads the results in shard order and offers them to the run's
//! [`Assembly`], which keeps what one uninterrupted run keeps: the collection is the first
//! `count` sound puzzles in candidate order, duplicates dropped and the variety rules applied,
//! whoever screened which shard.
//!
//! The one thing a shard needs from the shards before it is its steering (whether every
//! candidate keeps the defender's pieces, and which key kinds have their cap). A shard screened
//! ahead is screened under the steering known when it was made; when the runner reaches it and
//! finds that every candidate had to keep the defender's pieces meanwhile, the shard is screened
//! again under the right steering (this happens once a run at most, to the shards screened ahead
//! when every candidate came to keep the defender's pieces). The capped kinds only grow,
//! and a sound puzzle of a capped kind is passed over by the assembly anyway: a stale list costs
//! screening, never a different collection.
//!
//! The runner screens the shard it needs next itself when nobody holds it, offering each batch
//! as it is screened (so a single replica stops at the puzzle that completes the collection, as
//! an unsharded run does), and screens a shard ahead while another replica holds the next.

use crate::collections::{
    confirming, new_puzzle, record_end, stored_by_fen, CollectionError, Finish, RunSummary,
};
use crate::generate::{
    slug, Assembly, Flow, GenerateOptions, Generated, Progress, Screened, Screener, Sound, Steer,
    Stop, Take, Verdict,
};
use crate::puzzle::{verify, VerifiedPuzzle};
use crate::rules::{GamePosition, Naming, Role, Visit};
use crate::solver::{Cancel, SolveOptions};
use crate::store::{Store, StoreError, StoredPuzzle};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::Duration;

/// The shards a runner makes ahead of the one it assembles next, for other replicas to claim.
pub const LOOKAHEAD: i64 = 16;

/// A steering as a shard row keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct SteerJson {
    all_keep_defenders: bool,
    /// The capped key kinds, as tag words (`long-leaper`).
    capped: Vec<String>,
}

impl SteerJson {
    fn of(steer: &Steer) -> SteerJson {
        SteerJson {
            all_keep_defenders: steer.all_keep_defenders,
            capped: steer.capped.iter().map(|&r| slug(r)).collect(),
        }
    }

    fn steer(&self) -> Steer {
        Steer {
            all_keep_defenders: self.all_keep_defenders,
            capped: self.capped.iter().filter_map(|s| role_of(s)).collect(),
        }
    }

    fn document(&self) -> Box<crate::store::Json> {
        super::document(&serde_json::to_value(self).unwrap_or_default())
    }
}

fn role_of(slug_text: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|&r| slug(r) == slug_text)
}

/// A sound puzzle of a shard, as its result keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    pub candidate: u64,
    pub fen: String,
    /// Its canonical key (the same for its mirror images).
    pub canonical: String,
    /// Its key kind, as a tag word.
    pub key: Option<String>,
    pub defenders: usize,
    /// The puzzle as the full solve verified it ([`VerifiedPuzzle::to_json`]); absent when the
    /// full solve did not confirm the screening (it never should), with `error` saying why.
    pub puzzle: Option<Box<serde_json::value::RawValue>>,
    pub error: Option<String>,
}

/// The result of a shard.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ShardResult {
    /// The steering its candidates were made with.
    steer: SteerJson,
    /// The replica that screened it.
    replica: String,
    /// Its candidates screened: `start..end` (`end` short of the shard's end when the
    /// collection was complete before it).
    start: u64,
    end: u64,
    /// One letter a candidate: `r` rejected, `v` passed over early, `u` unsettled, `s` sound
    /// (the next of `sound`).
    verdicts: String,
    /// The solver nodes of each candidate.
    nodes: Vec<u64>,
    sound: Vec<Entry>,
}

impl ShardResult {
    fn new(steer: &Steer, replica: &str, start: u64) -> ShardResult {
        ShardResult {
            steer: SteerJson::of(steer),
            replica: replica.to_string(),
            start,
            end: start,
            verdicts: String::new(),
            nodes: Vec::new(),
            sound: Vec::new(),
        }
    }

    /// Records the next candidate's screening.
    fn push(&mut self, s: &Screened<Sound<Entry>>) {
        self.end += 1;
        self.nodes.push(s.nodes);
        self.verdicts.push(match &s.verdict {
            Verdict::Rejected => 'r',
            Verdict::Varied => 'v',
            Verdict::Unsettled => 'u',
            Verdict::Sound(sound) => {
                self.sound.push(sound.puzzle.clone());
                's'
            }
        });
    }

    /// The candidates' screenings, in order; `None` when the result does not read.
    fn screenings(&self) -> Option<Vec<Screened<Sound<Entry>>>> {
        let mut sound = self.sound.iter();
        let all: Option<Vec<_>> = self
            .verdicts
            .chars()
            .zip(&self.nodes)
            .map(|(v, &nodes)| {
                let verdict = match v {
                    'r' => Verdict::Rejected,
                    'v' => Verdict::Varied,
                    'u' => Verdict::Unsettled,
                    's' => {
                        let e = sound.next()?;
                        Verdict::Sound(Sound {
                            canonical: e.canonical.clone(),
                            key: match &e.key {
                                Some(k) => Some(role_of(k)?),
                                None => None,
                            },
                            defenders: e.defenders,
                            puzzle: e.clone(),
                        })
                    }
                    _ => return None,
                };
                Some(Screened { verdict, nodes })
            })
            .collect();
        let all = all?;
        (all.len() as u64 == self.end.saturating_sub(self.start)
            && self.verdicts.len() == self.nodes.len()
            && sound.next().is_none())
        .then_some(all)
    }
}

/// The candidates of shard `index` of a run of `opts`.
fn range_of(opts: &GenerateOptions, index: i64) -> std::ops::Range<u64> {
    let epoch = opts.steer_epoch;
    let start = (index as u64).saturating_mul(epoch);
    start.min(opts.max_candidates)..start.saturating_add(epoch).min(opts.max_candidates)
}

/// The shards a run of `opts` may make at most.
fn shards_of(opts: &GenerateOptions) -> i64 {
    i64::try_from(opts.max_candidates.div_ceil(opts.steer_epoch)).unwrap_or(i64::MAX)
}

/// Who screens: the job and the runner's names, its lease, and the shard it holds now (for the
/// supervisor to renew).
pub struct Screening<'a> {
    pub store: &'a Store,
    pub job: i64,
    /// The collection's name (in each puzzle's caption).
    pub collection: &'a str,
    pub owner: &'a str,
    pub replica: &'a str,
    pub lease: Duration,
    pub held: &'a Mutex<Option<(i64, i64)>>,
}

impl Screening<'_> {
    fn hold(&self, index: Option<i64>) {
        *self.held.lock().unwrap_or_else(|e| e.into_inner()) = index.map(|i| (self.job, i));
    }

    /// Claims the first claimable shard of `indices`, and holds it; its index.
    fn claim(&self, indices: std::ops::Range<i64>) -> Result<Option<i64>, StoreError> {
        let claimed = self
            .store
            .claim_shard(self.job, indices, self.owner, self.replica, self.lease)?
            .map(|row| row.index);
        if claimed.is_some() {
            self.hold(claimed);
        }
        Ok(claimed)
    }

    /// Records the result of the shard held.
    fn finish(&self, index: i64, result: &ShardResult) -> Result<bool, StoreError> {
        self.hold(None);
        let json = serde_json::to_value(result).unwrap_or_default();
        self.store.finish_shard(
            self.job,
            index,
            self.owner,
            result.end - result.start,
            &super::document(&json),
        )
    }

    /// Gives the shard held back, unscreened.
    fn release(&self, index: i64) -> Result<(), StoreError> {
        self.hold(None);
        self.store.release_shard(self.job, index, self.owner)
    }
}

/// The entry of a sound puzzle found: verified again by the full solve (`solve`, one thread,
/// starting from what the screening proved), on the thread that found it.
fn entry_of<P: GamePosition>(
    collection: &str,
    opts: &GenerateOptions,
    solve: &SolveOptions,
    found: &Generated<P>,
) -> Entry {
    let new = new_puzzle(collection, opts, found);
    let solve = SolveOptions {
        threads: 1,
        proven: found.proven.clone(),
        ..solve.clone()
    };
    let (puzzle, error) = match verify(new, &solve) {
        Ok(v) => (
            serde_json::value::RawValue::from_string(v.to_json()).ok(),
            None,
        ),
        Err(e) => (None, Some(e.to_string())),
    };
    Entry {
        candidate: found.candidate,
        fen: found.position.fen(Naming::default()),
        canonical: String::new(),
        key: found.key.map(slug),
        defenders: found.defenders,
        puzzle,
        error,
    }
}

/// A screened candidate as a shard keeps it.
fn as_entry<P: GamePosition>(
    s: Screened<crate::generate::Prepared<P, Entry>>,
) -> Screened<Sound<Entry>> {
    let verdict = match s.verdict {
        Verdict::Sound(sound) => {
            let mut entry = sound.puzzle.1;
            entry.canonical = sound.canonical.clone();
            Verdict::Sound(Sound {
                canonical: sound.canonical,
                key: sound.key,
                defenders: sound.defenders,
                puzzle: entry,
            })
        }
        Verdict::Rejected => Verdict::Rejected,
        Verdict::Varied => Verdict::Varied,
        Verdict::Unsettled => Verdict::Unsettled,
    };
    Screened {
        verdict,
        nodes: s.nodes,
    }
}

/// Screens shard `index` whole under `steer`: its result, or `None` when the run halted (its
/// cancel, or its time limit, which may have cut a search short) before it was done.
fn screen_shard<P: GamePosition>(
    screener: &Screener<'_>,
    at: &Screening<'_>,
    opts: &GenerateOptions,
    solve: &SolveOptions,
    index: i64,
    steer: &Steer,
) -> Option<ShardResult> {
    let range = range_of(opts, index);
    let mut result = ShardResult::new(steer, at.replica, range.start);
    let prepare = |found: &Generated<P>| entry_of(at.collection, opts, solve, found);
    let mut next = range.start;
    while next < range.end {
        let end = (next + screener.batch()).min(range.end);
        for s in screener.screen::<P, Entry>(next..end, steer, &prepare) {
            result.push(&as_entry::<P>(s?));
        }
        next = end;
    }
    (!screener.halted()).then_some(result)
}

/// Screens shard `first` of job `at.job`, claimed by a replica helping another's job, under the
/// steering it was made with, and records its result; gives it back when `cancel` is raised or
/// the shard's time ran out first. The plan's options are `opts` (with this replica's threads);
/// each puzzle found is confirmed with `solve` (this replica's budget), stopped by `cancel` too.
///
/// # Errors
/// When the store fails.
pub fn help_with<P: GamePosition>(
    at: &Screening<'_>,
    first: i64,
    steer: &crate::store::Json,
    opts: &GenerateOptions,
    solve: &SolveOptions,
    cancel: &Cancel,
) -> Result<(), StoreError> {
    let steer: SteerJson = serde_json::from_str(steer.get()).unwrap_or_default();
    let screener = Screener::new(opts, cancel);
    let solve = SolveOptions {
        cancel: cancel.clone(),
        ..solve.clone()
    };
    at.hold(Some(first));
    match screen_shard::<P>(&screener, at, opts, &solve, first, &steer.steer()) {
        Some(result) if !cancel.is_cancelled() => {
            at.finish(first, &result)?;
        }
        _ => at.release(first)?,
    }
    Ok(())
}

/// The helping of one claimed shard, on the concrete position type of the plan's game.
pub struct Help<'a> {
    pub at: &'a Screening<'a>,
    pub index: i64,
    pub steer: &'a crate::store::Json,
    pub opts: &'a GenerateOptions,
    pub solve: &'a SolveOptions,
    pub cancel: &'a Cancel,
}

impl Visit for Help<'_> {
    type Output = Result<(), StoreError>;
    fn visit<P: GamePosition>(self, _: &P) -> Self::Output {
        help_with::<P>(
            self.at,
            self.index,
            self.steer,
            self.opts,
            self.solve,
            self.cancel,
        )
    }
}

/// Fills collection `name` of job `at.job` from its shards (see the module's doc), as
/// [`crate::collections::fill_collection_then`] fills it from one run: `observe` sees the
/// progress and each puzzle stored, `finish` records the end however the run ends. A run taken
/// over goes on from the shards done and the puzzles stored.
///
/// # Errors
/// When the options are out of range or the store fails.
pub fn fill_sharded(
    at: &Screening<'_>,
    opts: &GenerateOptions,
    solve: &SolveOptions,
    cancel: &Cancel,
    observe: impl FnMut(&Progress, Option<&StoredPuzzle>) -> bool,
    finish: Finish<'_>,
) -> Result<RunSummary, CollectionError> {
    struct Fill<'a, F> {
        at: &'a Screening<'a>,
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
                self.at,
                self.opts,
                self.solve,
                self.cancel,
                self.observe,
                self.finish,
            )
        }
    }
    opts.variant.start().visit(Fill {
        at,
        opts,
        solve,
        cancel,
        observe,
        finish,
    })
}

fn fill_with<P: GamePosition>(
    at: &Screening<'_>,
    opts: &GenerateOptions,
    solve: &SolveOptions,
    cancel: &Cancel,
    observe: impl FnMut(&Progress, Option<&StoredPuzzle>) -> bool,
    finish: Finish<'_>,
) -> Result<RunSummary, CollectionError> {
    // Called by the assembly for each puzzle stored, and here after each shard.
    let observe = std::cell::RefCell::new(observe);
    opts.validate().map_err(CollectionError::from)?;
    let (store, name) = (at.store, at.collection);
    let mut stored_before = stored_by_fen(store, name)?;
    // The confirming solves stop with the run too: at its cancel, and at its time limit.
    let deadline = std::time::Instant::now() + opts.max_time;
    let solve_until = || confirming(solve, cancel, deadline);
    let screener = Screener::new(opts, cancel);
    let mut assembly = Assembly::new(opts);
    let mut ids = Vec::new();
    let mut kept: Vec<(StoredPuzzle, Option<String>, usize)> = Vec::new();
    let failure: std::cell::RefCell<Option<StoreError>> = std::cell::RefCell::new(None);
    // Stores (or finds stored before) each puzzle the assembly keeps.
    let mut take = |progress: &Progress, entry: Entry| -> Take {
        let stored = match (stored_before.remove(&entry.fen), &entry.puzzle) {
            (Some(p), _) => Ok(Some(p)),
            (None, Some(json)) => match VerifiedPuzzle::from_json(json.get()) {
                Ok(verified) => store.append_to_collection(name, &verified).map(Some),
                Err(e) => Err(StoreError::Corrupt(format!(
                    "job {}: the puzzle of candidate {} does not read: {e}",
                    at.job, entry.candidate
                ))),
            },
            (None, None) => {
                tracing::warn!(
                    collection = name,
                    candidate = entry.candidate,
                    error = entry.error.as_deref().unwrap_or(""),
                    "a generated puzzle was not confirmed by the full solve"
                );
                Ok(None)
            }
        };
        match stored {
            Ok(Some(stored)) => {
                ids.push(stored.id);
                let go = (observe.borrow_mut())(progress, Some(&stored));
                kept.push((stored, entry.key.clone(), entry.defenders));
                if go {
                    Take::Kept
                } else {
                    Take::Stop
                }
            }
            Ok(None) => Take::Skipped,
            Err(e) => {
                *failure.borrow_mut() = Some(e);
                Take::Stop
            }
        }
    };
    let last = shards_of(opts);
    let mut k: i64 = 0;
    let mut written: Option<Steer> = None;
    let mut made: i64 = 0;
    // How many times in a row the runner found nothing to screen (its wait doubles each time).
    let mut waited = 0u32;
    let stop = 'run: loop {
        if assembly.complete() {
            break Stop::Done;
        }
        if let Some(why) = screener.stopped(range_of(opts, k).start) {
            break why;
        }
        let steer = assembly.steer();
        let steer_doc = SteerJson::of(&steer).document();
        if written.as_ref() != Some(&steer) {
            store.steer_pending_shards(at.job, k, &steer_doc)?;
            written = Some(steer.clone());
        }
        // Made a few ahead, for other replicas to claim (`made` are made already).
        if made < (k + LOOKAHEAD).min(last) {
            let ahead = (k + LOOKAHEAD).min(last);
            store.add_shards(at.job, made.max(k), ahead, &steer_doc)?;
            made = ahead;
        }
        // Shard k is the next to assemble: screened here when nobody holds it or screened it,
        // each batch offered as it comes, so that the run stops where the collection is complete
        // (one claim, no read, on a replica running alone).
        if at.claim(k..k + 1)?.is_some() {
            let range = range_of(opts, k);
            let mut result = ShardResult::new(&steer, at.replica, range.start);
            let prepare = |found: &Generated<P>| entry_of(name, opts, &solve_until(), found);
            let mut next = range.start;
            while next < range.end {
                let end = (next + screener.batch()).min(range.end);
                for s in screener.screen::<P, Entry>(next..end, &steer, &prepare) {
                    // A cancel during the batch may have cut any of its searches short: the
                    // shard is given back unfinished, for a run that goes on after a hand-over.
                    let Some(s) = s.filter(|_| !cancel.is_cancelled()) else {
                        at.release(k)?;
                        continue 'run;
                    };
                    let s = as_entry::<P>(s);
                    result.push(&s);
                    assembly.progress.millis = screener.millis();
                    match assembly.offer(s, &mut take) {
                        Flow::Go => {}
                        Flow::Complete => {
                            at.finish(k, &result)?;
                            break 'run Stop::Done;
                        }
                        Flow::Stop => {
                            at.release(k)?;
                            break 'run Stop::Cancelled;
                        }
                    }
                }
                next = end;
            }
            // The time limit came during the shard (a search may have been cut short): the run
            // ends here, and the shard is given back unrecorded, for a run that goes on to
            // screen again.
            if screener.halted() {
                at.release(k)?;
                continue;
            }
            at.finish(k, &result)?;
            waited = 0;
            k += 1;
            assembly.progress.millis = screener.millis();
            if !(observe.borrow_mut())(&assembly.progress, None) {
                break Stop::Cancelled;
            }
            continue;
        }
        // Shard k could not be claimed: screened already (by another replica, ahead, or by a
        // run before a takeover), or held by another replica.
        if let Some(row) = store.shard(at.job, k)? {
            if row.state == "done" {
                let range = range_of(opts, k);
                let result: Option<ShardResult> = row
                    .result
                    .as_ref()
                    .and_then(|r| serde_json::from_str(r.get()).ok());
                let screenings = result
                    .as_ref()
                    .filter(|r| {
                        r.steer.all_keep_defenders == steer.all_keep_defenders
                            && r.start == range.start
                    })
                    .and_then(ShardResult::screenings);
                if let (Some(all), Some(result)) = (screenings, &result) {
                    for s in all {
                        assembly.progress.millis = screener.millis();
                        match assembly.offer(s, &mut take) {
                            Flow::Go => {}
                            Flow::Complete => break 'run Stop::Done,
                            Flow::Stop => break 'run Stop::Cancelled,
                        }
                    }
                    if result.end < range.end {
                        // A shard is cut short only where its run's collection was complete,
                        // and the assembly keeps what it kept then.
                        *failure.borrow_mut() = Some(StoreError::Corrupt(format!(
                            "job {}: shard {k} was cut short before the collection was complete",
                            at.job
                        )));
                        break Stop::Cancelled;
                    }
                    waited = 0;
                    k += 1;
                    assembly.progress.millis = screener.millis();
                    if !(observe.borrow_mut())(&assembly.progress, None) {
                        break Stop::Cancelled;
                    }
                    continue;
                }
                // Screened under another steering (every candidate had to keep the defender's
                // pieces meanwhile), or unreadable: nothing of it was offered; screened again.
                tracing::info!(job = at.job, shard = k, "a shard is screened again");
                store.reset_shard(at.job, k, &steer_doc)?;
                continue;
            }
        }
        // Shard k is held by another replica: screen the first free one ahead meanwhile, under
        // the steering known now; or wait for it, longer each time (up to a third of a second).
        if let Some(j) = at.claim(k + 1..(k + LOOKAHEAD).min(last))? {
            match screen_shard::<P>(&screener, at, opts, &solve_until(), j, &steer) {
                Some(result) if !cancel.is_cancelled() => {
                    at.finish(j, &result)?;
                }
                _ => at.release(j)?,
            }
            waited = 0;
        } else {
            std::thread::sleep(Duration::from_millis(10 << waited));
            waited = (waited + 1).min(5);
        }
    };
    let failure = failure.into_inner();
    assembly.progress.millis = screener.millis();
    let summary = RunSummary {
        stored: ids.len() as u64,
        puzzle_ids: ids,
        progress: assembly.progress.clone(),
        stop,
        distributions: crate::collections::Distributions::of(opts, &kept),
    };
    record_end(summary, failure, opts, finish)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collections::create_collection;
    use crate::generate::Variety;
    use crate::solver::{Limits, Stipulation};
    use crate::store::NewJob;
    use crate::Library;

    fn options(seed: u64, count: usize, variety: Variety) -> GenerateOptions {
        GenerateOptions {
            stipulation: Stipulation::Mate(2),
            count,
            seed,
            max_pieces: 7,
            threads: 2,
            candidate_limits: Limits {
                nodes: 300_000,
                time: Duration::from_secs(5),
            },
            variety,
            steer_epoch: 32,
            ..GenerateOptions::default()
        }
    }

    /// The FENs of a collection, in order.
    fn fens(store: &Store, name: &str) -> Vec<String> {
        store
            .collection(name)
            .unwrap()
            .unwrap()
            .1
            .into_iter()
            .map(|p| p.fen)
            .collect()
    }

    /// A job row for collection `name` (made here), held by `owner`.
    fn job(store: &Store, name: &str, opts: &GenerateOptions, owner: &str) -> i64 {
        assert!(create_collection(store, name, opts).unwrap());
        let doc = crate::document(&serde_json::json!({}));
        store
            .create_job(&NewJob {
                collection: name,
                request: &doc,
                view: &doc,
                owner,
                lease: Duration::from_secs(60),
            })
            .unwrap()
    }

    /// Shards screened ahead by a helper under the steering of an empty collection, and a
    /// collection whose variety rules make every candidate keep the defender's pieces from the
    /// first: the runner screens those shards again under the right steering, and the
    /// collection is the one an unsharded run makes.
    #[test]
    fn a_sharded_run_makes_what_an_unsharded_run_makes_whatever_was_screened_ahead() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let solve = SolveOptions::default();
        for (n, variety) in [
            Variety::default(),
            Variety {
                min_defenders: 1,
                min_defenders_share: 1.0,
                ..Variety::default()
            },
        ]
        .into_iter()
        .enumerate()
        {
            let opts = options(5 + n as u64, 12, variety);
            let plain = format!("plain-{n}");
            let run = Library::from(store.clone())
                .generate(&plain, &opts, &solve, &Cancel::new(), |_, _| true)
                .unwrap();
            assert_eq!(run.stop, Stop::Done);
            let reference = fens(&store, &plain);
            assert_eq!(reference.len(), 12);

            let name = format!("sharded-{n}");
            let id = job(&store, &name, &opts, "runner");
            // A helper screens shards 1 to 3 first, under an empty collection's steering.
            let held = Mutex::new(None);
            let helper = Screening {
                store: &store,
                job: id,
                collection: &name,
                owner: "helper",
                replica: "h",
                lease: Duration::from_secs(60),
                held: &held,
            };
            let steer = SteerJson::of(&Steer::default()).document();
            store.add_shards(id, 0, 4, &steer).unwrap();
            for k in 1..4 {
                assert_eq!(helper.claim(k..k + 1).unwrap(), Some(k));
                help_with::<crate::rules::Position>(
                    &helper,
                    k,
                    &steer,
                    &opts,
                    &solve,
                    &Cancel::new(),
                )
                .unwrap();
                assert_eq!(store.shard(id, k).unwrap().unwrap().state, "done");
            }
            let runner = Screening {
                owner: "runner",
                replica: "r",
                ..helper
            };
            let summary = fill_sharded(
                &runner,
                &opts,
                &solve,
                &Cancel::new(),
                |_, _| true,
                &|_, _| Ok(()),
            )
            .unwrap();
            assert_eq!(summary.stop, Stop::Done);
            assert_eq!(fens(&store, &name), reference, "variety {n}");
            assert_eq!(summary.progress.tried, run.progress.tried);
            assert_eq!(summary.progress.found, 12);
            let counts = store.shard_counts(id).unwrap();
            let by: std::collections::BTreeMap<_, _> = counts.screened.into_iter().collect();
            assert!(by.contains_key("r"), "{by:?}");
            if n == 0 {
                // Screened ahead under the right steering: kept as the helper screened them.
                assert!(by.get("h").is_some_and(|&c| c > 0), "{by:?}");
            } else {
                // Under the wrong one: every shard the runner reached was screened again.
                assert!(
                    !by.contains_key("h") || summary.progress.tried <= 32,
                    "{by:?}"
                );
            }
        }
    }

    /// A run taken over goes on from the shards done: what the first runner assembled is read
    /// again, and the collection is the one an uninterrupted run makes.
    #[test]
    fn a_sharded_run_taken_over_goes_on_from_its_shards() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let solve = SolveOptions::default();
        let opts = options(9, 10, Variety::default());
        Library::from(store.clone())
            .generate("plain", &opts, &solve, &Cancel::new(), |_, _| true)
            .unwrap();
        let reference = fens(&store, "plain");
        let id = job(&store, "cut", &opts, "first");
        let held = Mutex::new(None);
        let first = Screening {
            store: &store,
            job: id,
            collection: "cut",
            owner: "first",
            replica: "a",
            lease: Duration::from_secs(60),
            held: &held,
        };
        // The first runner stops after its fourth puzzle.
        let cancel = Cancel::new();
        let mut stored = 0;
        let cut = fill_sharded(
            &first,
            &opts,
            &solve,
            &cancel,
            |_, p| {
                stored += usize::from(p.is_some());
                if stored == 4 {
                    cancel.cancel();
                }
                true
            },
            &|_, _| Ok(()),
        )
        .unwrap();
        assert_eq!(cut.stop, Stop::Cancelled);
        let partial = fens(&store, "cut");
        assert!(partial.len() >= 4 && partial.len() < 10, "{partial:?}");
        assert_eq!(partial[..], reference[..partial.len()]);
        let second = Screening {
            owner: "second",
            replica: "b",
            ..first
        };
        let done = fill_sharded(
            &second,
            &opts,
            &solve,
            &Cancel::new(),
            |_, _| true,
            &|_, _| Ok(()),
        )
        .unwrap();
        assert_eq!(done.stop, Stop::Done);
        assert_eq!(fens(&store, "cut"), reference);
    }
}
