//! Generation jobs: a collection filled on a thread of its own, recorded as a row of the store so
//! that any replica sharing the store can follow it, cancel it, or take it over.
//!
//! A replica runs at most `max_running` jobs. It holds each under a lease in the store and renews
//! it (with the job's progress) every quarter of the lease, from a supervisor thread; the same
//! thread sees a cancel asked through any replica, and, when a slot is free, claims a job whose
//! lease ran out (its runner died): the job goes on from the puzzles already stored, as
//! [`fill_collection_then`] describes. A runner that finds its lease taken stops, and writes
//! nothing more. The end of a job and of its collection is written in one transaction, by the
//! runner that still holds the lease.

use crate::collections::{create_collection, fill_collection_then};
use crate::generate::{GenerateOptions, Progress, Stop, Variety};
use crate::rules::{GameKind, Rules, Variant};
use crate::shards::{fill_sharded, Help, Screening};
use crate::solver::{Cancel, Limits, SolveOptions, Stipulation};
use crate::store::jobs::JobRow;
use crate::store::ShardRow;
use crate::store::{JobEnd, NewJob, Store, StoreError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// What a job shows besides its id and state, as its runner records it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct JobView {
    pub collection: String,
    pub mate_in: u32,
    pub stipulation: String,
    pub count: u32,
    pub seed: u64,
    pub progress: Progress,
    pub stop: Option<Stop>,
    /// The stored puzzles, in order.
    pub puzzle_ids: Vec<i64>,
    /// Once the run ended, what its puzzles are like (the collection's summary without `count`,
    /// `progress` and `stop`).
    pub summary: Option<serde_json::Value>,
    pub error: Option<String>,
    /// The candidates each replica (by its `--replica-name`) screened for the job, over all its
    /// runs (absent from the views of jobs stored before it was recorded).
    #[serde(default)]
    pub workers: BTreeMap<String, u64>,
    /// Where a sharded job's shards are (absent for a job of a release before shards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<ShardsView>,
}

/// Where a sharded job's shards are: made so far (`total`), screened (`done`) and held by a
/// runner now (`running`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardsView {
    pub total: u64,
    pub done: u64,
    pub running: u64,
}

/// A job as read: its id, state, view and how many runners have held it.
#[derive(Clone, Debug, PartialEq)]
pub struct JobRecord {
    pub id: i64,
    /// `running`, `done`, `stopped` or `failed`.
    pub state: String,
    pub view: JobView,
    pub attempts: u32,
}

/// What a job runs, stored with it so that another replica can run it again: the generation
/// options, in words and numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Plan {
    game: String,
    rules: Option<String>,
    stipulation: String,
    count: usize,
    seed: u64,
    max_pieces: usize,
    allow_check: bool,
    candidate_nodes: u64,
    candidate_millis: u64,
    max_candidates: u64,
    max_millis: u64,
    threads: usize,
    max_key_share: f64,
    min_defenders: usize,
    min_defenders_share: f64,
    /// Absent from the plans of jobs stored before the option: those ran without it (0).
    #[serde(default)]
    focus: u32,
    /// Absent from the plans of jobs stored before it was recorded: those steered every 64
    /// candidates.
    #[serde(default = "epoch_before_2026_11_25")]
    steer_epoch: u64,
    /// Whether `focus` narrows a helpmate's screening too. Absent (false) from the plans of jobs
    /// stored before helpmates had a narrowed search: those screened every helpmate candidate
    /// fully, whatever `focus` said.
    #[serde(default)]
    focus_helpmates: bool,
    /// Whether the job is cut into shards that any replica screens (see
    /// [`crate::shards`]). Absent (false) from the plans of jobs stored before shards: those
    /// run on one replica at a time, as they did.
    #[serde(default)]
    shards: bool,
}

/// The steering epoch of the runs whose plans do not record it.
fn epoch_before_2026_11_25() -> u64 {
    64
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Plan {
    fn of(o: &GenerateOptions) -> Plan {
        Plan {
            game: o.variant.name().into(),
            rules: o.variant.rules().map(|r| r.to_string()),
            stipulation: o.stipulation.to_string(),
            count: o.count,
            seed: o.seed,
            max_pieces: o.max_pieces,
            allow_check: o.allow_check,
            candidate_nodes: o.candidate_limits.nodes,
            candidate_millis: millis(o.candidate_limits.time),
            max_candidates: o.max_candidates,
            max_millis: millis(o.max_time),
            threads: o.threads,
            max_key_share: o.variety.max_key_share,
            min_defenders: o.variety.min_defenders,
            min_defenders_share: o.variety.min_defenders_share,
            focus: o.focus,
            steer_epoch: o.steer_epoch,
            focus_helpmates: true,
            shards: true,
        }
    }

    fn options(&self) -> Result<GenerateOptions, String> {
        let kind = GameKind::parse(&self.game).ok_or(format!("game `{}`", self.game))?;
        let rules = match &self.rules {
            Some(r) => Some(
                r.parse::<Rules>()
                    .map_err(|e| format!("rules `{r}`: {e}"))?,
            ),
            None => None,
        };
        let stipulation = Stipulation::parse(&self.stipulation)
            .ok_or(format!("stipulation `{}`", self.stipulation))?;
        let focus = if stipulation.is_help() && !self.focus_helpmates {
            0
        } else {
            self.focus
        };
        let opts = GenerateOptions {
            variant: Variant::of(kind, rules)?,
            stipulation,
            count: self.count,
            seed: self.seed,
            max_pieces: self.max_pieces,
            allow_check: self.allow_check,
            candidate_limits: Limits {
                nodes: self.candidate_nodes,
                time: Duration::from_millis(self.candidate_millis),
            },
            max_candidates: self.max_candidates,
            max_time: Duration::from_millis(self.max_millis),
            threads: self.threads,
            variety: Variety {
                max_key_share: self.max_key_share,
                min_defenders: self.min_defenders,
                min_defenders_share: self.min_defenders_share,
            },
            focus,
            steer_epoch: self.steer_epoch,
        };
        opts.validate().map_err(|e| e.to_string())?;
        Ok(opts)
    }
}

/// How a replica runs jobs.
#[derive(Clone, Debug)]
pub struct JobsConfig {
    /// Jobs this replica runs at once.
    pub max_running: usize,
    /// How long a lease lasts without renewal: a dead runner's job is taken over after it.
    pub lease: Duration,
    /// The full solve that confirms each puzzle (budget, table, threads) on this replica.
    pub solve: SolveOptions,
    /// The threads a job runs on this replica (the job's plan records those of the replica that
    /// started it; each runner uses its own).
    pub threads: usize,
    /// This replica's name in a job's `workers`.
    pub replica: String,
}

/// A replica's name when `--replica-name` is not given: the host's name and the port it
/// listens on (`db-1:8080`).
pub fn default_replica_name(port: u16) -> String {
    format!("{}:{port}", crate::processes::host_name())
}

/// Why a job did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("{0} generation jobs are already running, the most this server runs at once")]
    Busy(usize),
    #[error("a collection named `{0}` exists already; choose another name")]
    Exists(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot start a job thread: {0}")]
    Thread(String),
}

/// A job this replica runs: its cancel flag and its view as the run goes.
struct Local {
    cancel: Cancel,
    /// Whether the job is cut into shards (its plan says).
    sharded: bool,
    /// The shard this runner screens now, for the supervisor to renew.
    held: Mutex<Option<(i64, i64)>>,
    /// Whether a client cancelled it (through any replica), rather than this replica stopping.
    cancelled: AtomicBool,
    view: Mutex<JobView>,
}

impl Local {
    /// Stops the run for a client's cancel: it ends `stopped`.
    fn cancel_for_client(&self) {
        self.cancelled.store(true, Ordering::Release);
        self.cancel.cancel();
    }
}

/// This replica's jobs.
pub struct Jobs {
    store: Store,
    config: JobsConfig,
    /// This runner in the store's `owner` column.
    owner: String,
    running: AtomicUsize,
    local: Mutex<BTreeMap<i64, Arc<Local>>>,
    /// This replica's runs that screen shards of other replicas' jobs, by number. They use the
    /// slots no job uses: a job started or taken over here makes one give its slot back.
    helpers: Mutex<BTreeMap<u64, Arc<Helper>>>,
    helper_numbers: std::sync::atomic::AtomicU64,
    /// The helpers running (their slots).
    helping: AtomicUsize,
    /// Supervisor rounds, for what is done every so many.
    rounds: std::sync::atomic::AtomicU64,
    stopping: AtomicBool,
}

/// A run of this replica that screens shards of other replicas' jobs: the shard it screens now
/// (job, index) with that shard's cancel, and whether it was asked to give its slot back.
#[derive(Default)]
struct Helper {
    current: Mutex<Option<(i64, i64, Cancel)>>,
    shed: AtomicBool,
}

impl Helper {
    /// Stops the shard it screens now, if it is still `(job, index)` (any, with `None`).
    fn stop(&self, shard: Option<(i64, i64)>) {
        let current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((job, index, cancel)) = &*current {
            if shard.is_none_or(|s| s == (*job, *index)) {
                cancel.cancel();
            }
        }
    }
}

/// Ends a helper's run however its thread ends (a panic included): forgotten, its slot free.
struct HelperEnd {
    jobs: Arc<Jobs>,
    number: u64,
}

impl Drop for HelperEnd {
    fn drop(&mut self) {
        self.jobs
            .helpers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.number);
        self.jobs.helping.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The error of a job that failed on the store or a bug: the cause is logged, not shown.
const LOGGED: &str = "the job failed; the cause is logged";

impl Jobs {
    /// This replica's jobs on `store`, with a supervisor thread that renews their leases and
    /// takes over abandoned jobs (it ends with the last handle on the jobs).
    pub fn start(store: Store, config: JobsConfig) -> Arc<Jobs> {
        let jobs = Arc::new(Jobs {
            store,
            owner: crate::processes::this_process(),
            config,
            running: AtomicUsize::new(0),
            local: Mutex::new(BTreeMap::new()),
            helpers: Mutex::new(BTreeMap::new()),
            helper_numbers: std::sync::atomic::AtomicU64::new(0),
            helping: AtomicUsize::new(0),
            rounds: std::sync::atomic::AtomicU64::new(0),
            stopping: AtomicBool::new(false),
        });
        let weak = Arc::downgrade(&jobs);
        let tick = (jobs.config.lease / 4).max(Duration::from_millis(50));
        let _ = std::thread::Builder::new()
            .name("jobs-supervisor".into())
            .spawn(move || supervise(&weak, tick));
        jobs
    }

    /// The most jobs this replica runs at once.
    pub fn max_running(&self) -> usize {
        self.config.max_running
    }

    /// The jobs running on this replica (their slots: a job gives its slot back just before it
    /// records its end).
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Acquire)
    }

    /// The jobs of this replica that have not recorded their end yet, and its runs screening
    /// shards of other replicas' jobs.
    pub fn active(&self) -> usize {
        self.local.lock().unwrap_or_else(|e| e.into_inner()).len()
            + self.helpers.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Hands this replica's jobs over (at shutdown), and claims no more: each run stops within
    /// its current candidate, records its progress and gives up its lease at once, so that another
    /// replica (or this one started again) takes the job over at its next round and goes on from
    /// the puzzles stored. The jobs stay `running`; a job a client cancelled through this replica
    /// ends `stopped` here, one cancelled through another ends `stopped` when the next runner
    /// claims it, and one that finished ends `done`.
    pub fn hand_over_all(&self) {
        // Under the lock of the runs, so that a run added after it (a job started by a request
        // in flight, or claimed by a round under way) sees it: `spawn` hands it over at once.
        let local = self.local.lock().unwrap_or_else(|e| e.into_inner());
        self.stopping.store(true, Ordering::Release);
        for l in local.values() {
            l.cancel.cancel();
        }
        drop(local);
        for h in self
            .helpers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
        {
            h.stop(None);
        }
    }

    /// Makes helpers give their slots back (each gives its shard back) until the jobs and the
    /// helpers together take at most `max_running` slots.
    fn shed_helpers(&self) {
        let helpers = self.helpers.lock().unwrap_or_else(|e| e.into_inner());
        let mut active: Vec<&Arc<Helper>> = helpers
            .values()
            .filter(|h| !h.shed.load(Ordering::Acquire))
            .collect();
        while self.running() + active.len() > self.config.max_running {
            let Some(h) = active.pop() else { break };
            h.shed.store(true, Ordering::Release);
            h.stop(None);
        }
    }

    /// Takes a slot for a helper, if neither the jobs nor the other helpers take it.
    fn take_help_slot(&self) -> bool {
        self.helping
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (self.running() + n < self.config.max_running).then_some(n + 1)
            })
            .is_ok()
    }

    fn take_slot(&self) -> bool {
        self.running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.config.max_running).then_some(n + 1)
            })
            .is_ok()
    }

    fn free_slot(&self) {
        self.running.fetch_sub(1, Ordering::AcqRel);
    }

    /// Starts a job that makes collection `name` with `opts` (checked by the caller); the job as
    /// it starts.
    ///
    /// # Errors
    /// This replica runs as many jobs as it may, the name is taken, the store failed, or no thread
    /// could be made.
    pub fn begin(
        self: &Arc<Self>,
        name: &str,
        opts: &GenerateOptions,
    ) -> Result<JobRecord, StartError> {
        if !self.take_slot() {
            return Err(StartError::Busy(self.config.max_running));
        }
        // A helper using the slot gives it back.
        self.shed_helpers();
        let started = self.create(name, opts);
        if started.is_err() {
            self.free_slot();
        }
        started
    }

    fn create(
        self: &Arc<Self>,
        name: &str,
        opts: &GenerateOptions,
    ) -> Result<JobRecord, StartError> {
        if !create_collection(&self.store, name, opts)? {
            return Err(StartError::Exists(name.to_string()));
        }
        let view = JobView {
            collection: name.to_string(),
            mate_in: opts.mate_in(),
            stipulation: opts.stipulation.to_string(),
            count: u32::try_from(opts.count).unwrap_or(u32::MAX),
            seed: opts.seed,
            ..JobView::default()
        };
        let plan = serde_json::to_value(Plan::of(opts)).unwrap_or_default();
        let id = self.store.create_job(&NewJob {
            collection: name,
            request: &super::document(&plan),
            view: &super::document(&serde_json::to_value(&view).unwrap_or_default()),
            owner: &self.owner,
            lease: self.config.lease,
        })?;
        self.spawn(id, view.clone(), opts.clone(), true)?;
        Ok(JobRecord {
            id,
            state: "running".into(),
            view,
            attempts: 1,
        })
    }

    /// Runs job `id` on a thread of its own; the slot is taken already.
    fn spawn(
        self: &Arc<Self>,
        id: i64,
        view: JobView,
        opts: GenerateOptions,
        sharded: bool,
    ) -> Result<(), StartError> {
        let local = Arc::new(Local {
            cancel: Cancel::new(),
            sharded,
            held: Mutex::new(None),
            cancelled: AtomicBool::new(false),
            view: Mutex::new(view),
        });
        {
            let mut runs = self.local.lock().unwrap_or_else(|e| e.into_inner());
            if self.stopping.load(Ordering::Acquire) {
                // Started or claimed as this replica stops: handed over at once.
                local.cancel.cancel();
            }
            runs.insert(id, Arc::clone(&local));
        }
        let jobs = Arc::clone(self);
        let span = tracing::Span::current();
        std::thread::Builder::new()
            .name(format!("job-{id}"))
            .spawn(move || {
                let _request = span.enter();
                super::lower_priority();
                jobs.run(id, &local, &opts);
                jobs.local
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
            })
            .map(|_| ())
            .map_err(|e| {
                self.local
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
                StartError::Thread(e.to_string())
            })
    }

    /// The job's thread: fills the collection, and records the end of the job and of its
    /// collection together. A panic in the run (a bug) is caught: both are marked failed.
    fn run(&self, id: i64, local: &Local, opts: &GenerateOptions) {
        metrics::gauge!("baroque_jobs_running").increment(1.0);
        let (name, screened_before) = {
            let view = local.view.lock().unwrap_or_else(|e| e.into_inner());
            let before = view.workers.get(&self.config.replica).copied();
            (view.collection.clone(), before.unwrap_or(0))
        };
        // This replica's threads, whichever replica started the job: the collection is the same.
        let opts = &GenerateOptions {
            threads: self.config.threads,
            ..opts.clone()
        };
        let slot = AtomicBool::new(true);
        // The slot is free before the job says it ended: a client that sees the end may start
        // another.
        let free_slot_once = || {
            if slot.swap(false, Ordering::AcqRel) {
                self.free_slot();
                metrics::gauge!("baroque_jobs_running").decrement(1.0);
            }
        };
        let finish = |state: &str, summary: &serde_json::Value| -> Result<(), StoreError> {
            free_slot_once();
            if local.sharded {
                // Counted before the end, which drops the job's shards.
                if let Err(e) = self.count_shards(id, local) {
                    tracing::warn!(job = id, error = %e, "cannot count the job's shards");
                }
            }
            let mut view = local.view.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if let Ok(p) = serde_json::from_value(summary["progress"].clone()) {
                view.progress = p;
            }
            view.stop = serde_json::from_value(summary["stop"].clone()).ok();
            let handed_over = state == "stopped"
                && view.stop == Some(Stop::Cancelled)
                && self.stopping.load(Ordering::Acquire)
                && !local.cancelled.load(Ordering::Acquire);
            if handed_over {
                view.stop = None;
                return self.release(id, &view);
            }
            if state == "failed" {
                view.error = Some(LOGGED.into());
            } else {
                let mut s = summary.clone();
                if let Some(o) = s.as_object_mut() {
                    for k in ["count", "progress", "stop", "error"] {
                        o.remove(k);
                    }
                }
                view.summary = Some(s);
            }
            self.end(id, state, &view, summary)
        };
        let observe = |progress: &Progress, stored: Option<&crate::store::StoredPuzzle>| {
            let mut view = local.view.lock().unwrap_or_else(|e| e.into_inner());
            view.progress = progress.clone();
            // A sharded job's workers are counted from its shards (`count_shards`).
            if !local.sharded {
                view.workers.insert(
                    self.config.replica.clone(),
                    screened_before + progress.tried,
                );
            }
            if let Some(p) = stored {
                metrics::counter!("baroque_puzzles_stored_total").increment(1);
                if !view.puzzle_ids.contains(&p.id) {
                    view.puzzle_ids.push(p.id);
                }
            }
            true
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if local.sharded {
                let at = Screening {
                    store: &self.store,
                    job: id,
                    collection: &name,
                    owner: &self.owner,
                    replica: &self.config.replica,
                    lease: self.config.lease,
                    held: &local.held,
                };
                fill_sharded(
                    &at,
                    opts,
                    &self.config.solve,
                    &local.cancel,
                    observe,
                    &finish,
                )
            } else {
                fill_collection_then(
                    &self.store,
                    &name,
                    opts,
                    &self.config.solve,
                    &local.cancel,
                    observe,
                    &finish,
                )
            }
        }));
        free_slot_once();
        match run {
            Ok(Ok(_)) => {}
            // The run recorded its end when it could; a job whose store failed before that is
            // taken over once its lease runs out.
            Ok(Err(e)) => {
                tracing::error!(job = id, collection = name, error = %e, "a generation job failed");
            }
            Err(_) => {
                tracing::error!(job = id, collection = name, "a generation job panicked");
                let summary = serde_json::json!({"count": opts.count, "error": LOGGED});
                if let Err(e) = finish("failed", &summary) {
                    tracing::error!(job = id, error = %e, "cannot record a failed job");
                }
            }
        }
    }

    /// Records in the view of sharded job `id` where its shards are, and the candidates each
    /// replica screened in them.
    fn count_shards(&self, id: i64, local: &Local) -> Result<(), StoreError> {
        let counts = self.store.shard_counts(id)?;
        let mut view = local.view.lock().unwrap_or_else(|e| e.into_inner());
        view.shards = Some(ShardsView {
            total: counts.total,
            done: counts.done,
            running: counts.running,
        });
        view.workers = counts.screened.into_iter().collect();
        Ok(())
    }

    /// Gives up the lease of job `id` with its view, for another runner to take it over.
    fn release(&self, id: i64, view: &JobView) -> Result<(), StoreError> {
        let json = serde_json::to_value(view).unwrap_or_default();
        if self
            .store
            .release_job(id, &self.owner, &super::document(&json))?
        {
            tracing::info!(
                job = id,
                stored = view.puzzle_ids.len(),
                "handed the generation job over: another replica goes on with it"
            );
        } else {
            tracing::warn!(job = id, "the job was taken over by another runner already");
        }
        Ok(())
    }

    /// Records the end of job `id` and of its collection, if this replica still holds it.
    fn end(
        &self,
        id: i64,
        state: &str,
        view: &JobView,
        summary: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let json = serde_json::to_value(view).unwrap_or_default();
        let end = JobEnd {
            state,
            view: &super::document(&json),
            summary: &super::document(summary),
        };
        if !self.store.finish_job(id, &self.owner, &end)? {
            tracing::warn!(
                job = id,
                "the job was taken over by another runner; its end is theirs"
            );
        }
        Ok(())
    }

    /// The job with this id, as the store has it (with this replica's latest progress when it
    /// runs the job).
    ///
    /// # Errors
    /// When the store fails.
    pub fn get(&self, id: i64) -> Result<Option<JobRecord>, StoreError> {
        let Some(row) = self.store.job(id)? else {
            return Ok(None);
        };
        Ok(Some(self.record(row)))
    }

    fn record(&self, row: JobRow) -> JobRecord {
        let mut view: JobView = serde_json::from_str(row.view.get()).unwrap_or_default();
        if row.state == "running" {
            let local = self.local.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(l) = local.get(&row.id) {
                view = l.view.lock().unwrap_or_else(|e| e.into_inner()).clone();
            }
        }
        JobRecord {
            id: row.id,
            state: row.state,
            view,
            attempts: row.attempts,
        }
    }

    /// Asks job `id` to stop, wherever it runs (at once here; at its runner's next renewal
    /// elsewhere); the job, or `None` when there is none.
    ///
    /// # Errors
    /// When the store fails.
    pub fn cancel(&self, id: i64) -> Result<Option<JobRecord>, StoreError> {
        let Some(row) = self.store.cancel_job(id)? else {
            return Ok(None);
        };
        if let Some(l) = self
            .local
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
        {
            l.cancel_for_client();
        }
        Ok(Some(self.record(row)))
    }

    /// One round of the supervisor: renews the leases of this replica's jobs (stopping those asked
    /// to stop, or lost to another runner), then claims abandoned jobs while slots are free.
    fn tick(self: &Arc<Self>) {
        if self.stopping.load(Ordering::Acquire) {
            // Every run is handing itself over: nothing to renew or claim.
            return;
        }
        let locals: Vec<(i64, Arc<Local>)> = {
            let local = self.local.lock().unwrap_or_else(|e| e.into_inner());
            local.iter().map(|(id, l)| (*id, Arc::clone(l))).collect()
        };
        for (id, l) in locals {
            if l.sharded {
                if let Err(e) = self.count_shards(id, &l) {
                    tracing::warn!(job = id, error = %e, "cannot count the job's shards");
                }
            }
            let held = *l.held.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((job, index)) = held {
                match self
                    .store
                    .renew_shard(job, index, &self.owner, self.config.lease)
                {
                    Ok(true) => {}
                    Ok(false) => tracing::warn!(job, shard = index, "the shard's lease was lost"),
                    Err(e) => tracing::warn!(job, error = %e, "cannot renew the shard's lease"),
                }
            }
            let view = serde_json::to_value(&*l.view.lock().unwrap_or_else(|e| e.into_inner()))
                .unwrap_or_default();
            match self
                .store
                .renew_job(id, &self.owner, self.config.lease, &super::document(&view))
            {
                Ok(Some(false)) => {}
                Ok(Some(true)) => l.cancel_for_client(),
                Ok(None) => {
                    tracing::warn!(job = id, "the job's lease was lost: it stops here");
                    l.cancel.cancel();
                }
                Err(e) => tracing::warn!(job = id, error = %e, "cannot renew the job's lease"),
            }
        }
        let helpers: Vec<Arc<Helper>> = self
            .helpers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        for h in helpers {
            let held = h
                .current
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .map(|(job, index, _)| (*job, *index));
            if let Some((job, index)) = held {
                match self
                    .store
                    .renew_shard(job, index, &self.owner, self.config.lease)
                {
                    Ok(true) => {}
                    // The job ended, was cancelled, or the shard was taken over: stop it (if
                    // the helper has not gone on to another shard meanwhile).
                    Ok(false) => h.stop(Some((job, index))),
                    Err(e) => tracing::warn!(job, error = %e, "cannot renew the shard's lease"),
                }
            }
        }
        while !self.stopping.load(Ordering::Acquire) && self.take_slot() {
            match self.store.claim_job(&self.owner, self.config.lease) {
                Ok(Some(row)) => self.resume(row),
                Ok(None) => {
                    self.free_slot();
                    break;
                }
                Err(e) => {
                    self.free_slot();
                    tracing::warn!(error = %e, "cannot look for abandoned jobs");
                    break;
                }
            }
        }
        // Jobs first: helpers give back the slots the jobs claimed took.
        self.shed_helpers();
        if self.rounds.fetch_add(1, Ordering::AcqRel) % 16 == 0 {
            match self.store.drop_ended_shards() {
                Ok(0) => {}
                Ok(n) => tracing::info!(shards = n, "dropped the shards of jobs that ended"),
                Err(e) => tracing::warn!(error = %e, "cannot drop the shards of ended jobs"),
            }
        }
        // Free slots help the running jobs of other replicas with their shards.
        while !self.stopping.load(Ordering::Acquire) && self.take_help_slot() {
            match self
                .store
                .claim_any_shard(&self.owner, &self.config.replica, self.config.lease)
            {
                Ok(Some(row)) => self.help(row),
                Ok(None) => {
                    self.helping.fetch_sub(1, Ordering::AcqRel);
                    break;
                }
                Err(e) => {
                    self.helping.fetch_sub(1, Ordering::AcqRel);
                    tracing::warn!(error = %e, "cannot look for shards to screen");
                    break;
                }
            }
        }
    }

    /// Screens shards of other replicas' jobs on a thread of its own, from the one claimed, while
    /// there are any to claim and its slot is not needed (the helper's slot is taken; given back
    /// at the end). A panic while screening a shard (a bug) gives the shard back, and the run
    /// goes on.
    fn help(self: &Arc<Self>, first: ShardRow) {
        let helper = Arc::new(Helper::default());
        let number = self.helper_numbers.fetch_add(1, Ordering::AcqRel);
        self.helpers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(number, Arc::clone(&helper));
        let end = HelperEnd {
            jobs: Arc::clone(self),
            number,
        };
        let (job, index) = (first.job, first.index);
        let spawned = std::thread::Builder::new()
            .name(format!("job-{}-help", first.job))
            .spawn(move || {
                let jobs = Arc::clone(&end.jobs);
                super::lower_priority();
                let mut next = Some(first);
                while let Some(row) = next.take() {
                    let cancel = Cancel::new();
                    *helper.current.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some((row.job, row.index, cancel.clone()));
                    let quit = || {
                        jobs.stopping.load(Ordering::Acquire) || helper.shed.load(Ordering::Acquire)
                    };
                    if quit() {
                        cancel.cancel();
                    }
                    let screened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        jobs.help_one(&row, &cancel)
                    }));
                    *helper.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
                    let failed = match screened {
                        Ok(Ok(())) => false,
                        Ok(Err(e)) => {
                            tracing::warn!(job = row.job, shard = row.index, error = %e,
                                "cannot screen a shard");
                            true
                        }
                        Err(_) => {
                            tracing::error!(
                                job = row.job,
                                shard = row.index,
                                "screening a shard panicked"
                            );
                            true
                        }
                    };
                    if failed {
                        let _ = jobs.store.release_shard(row.job, row.index, &jobs.owner);
                    }
                    // The next shard, waiting a second at most (longer each time) for the runners
                    // to make more: a job's runner makes them a few at a time.
                    for wait in 0..8u32 {
                        if quit() {
                            break;
                        }
                        next = jobs
                            .store
                            .claim_any_shard(&jobs.owner, &jobs.config.replica, jobs.config.lease)
                            .unwrap_or_else(|e| {
                                tracing::warn!(error = %e, "cannot look for shards to screen");
                                None
                            });
                        if next.is_some() {
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(10 << wait.min(5)));
                    }
                }
                drop(end);
            });
        if let Err(e) = spawned {
            // The closure, with `end`, was dropped: the helper is forgotten and its slot free.
            tracing::error!(error = %e, "cannot start a thread to screen shards");
            let _ = self.store.release_shard(job, index, &self.owner);
        }
    }

    /// Screens one claimed shard of another replica's job, and records its result (or gives it
    /// back when stopped).
    fn help_one(&self, row: &ShardRow, cancel: &Cancel) -> Result<(), String> {
        let job = self
            .store
            .job(row.job)
            .map_err(|e| e.to_string())?
            .ok_or("the job is gone")?;
        let plan: Plan = serde_json::from_str(job.request.get()).map_err(|e| e.to_string())?;
        let opts = GenerateOptions {
            threads: self.config.threads,
            ..plan.options()?
        };
        let at = Screening {
            store: &self.store,
            job: row.job,
            collection: &job.collection,
            owner: &self.owner,
            replica: &self.config.replica,
            lease: self.config.lease,
            // (Its lease is renewed through the helper's `current`.)
            held: &Mutex::new(None),
        };
        let started = std::time::Instant::now();
        opts.variant
            .start()
            .visit(Help {
                at: &at,
                index: row.index,
                steer: &row.steer,
                opts: &opts,
                solve: &self.config.solve,
                cancel,
            })
            .map_err(|e| e.to_string())?;
        tracing::debug!(
            job = row.job,
            shard = row.index,
            millis = started.elapsed().as_millis() as u64,
            "screened a shard of another replica's job"
        );
        Ok(())
    }

    /// Goes on with a job claimed from a runner that died (the slot is taken).
    fn resume(self: &Arc<Self>, row: JobRow) {
        let id = row.id;
        tracing::info!(
            job = id,
            collection = row.collection,
            attempts = row.attempts,
            "taking over an abandoned generation job"
        );
        let view: JobView = serde_json::from_str(row.view.get()).unwrap_or_default();
        let plan: Result<Plan, String> =
            serde_json::from_str(row.request.get()).map_err(|e| e.to_string());
        let sharded = plan.as_ref().is_ok_and(|p| p.shards);
        let opts = plan.and_then(|p| p.options());
        let ended = |mut view: JobView, state: &str, stop: Option<Stop>, error: Option<String>| {
            self.free_slot();
            view.stop = stop;
            view.error = error.clone();
            let summary = serde_json::json!({
                "count": view.count, "progress": view.progress, "stop": stop, "error": error,
            });
            if let Err(e) = self.end(id, state, &view, &summary) {
                tracing::error!(job = id, error = %e, "cannot record the end of a job");
            }
        };
        match opts {
            Err(e) => {
                tracing::error!(job = id, error = %e, "an abandoned job's plan is unreadable");
                ended(view, "failed", None, Some(LOGGED.into()));
            }
            // Cancelled while nobody ran it: it ends as a cancelled run does.
            Ok(_) if row.cancel => ended(view, "stopped", Some(Stop::Cancelled), None),
            Ok(opts) => {
                if let Err(e) = self.spawn(id, view, opts, sharded) {
                    self.free_slot();
                    tracing::error!(job = id, error = %e, "cannot take over a job");
                }
            }
        }
    }
}

/// The supervisor's loop, until the jobs are dropped.
fn supervise(jobs: &Weak<Jobs>, tick: Duration) {
    loop {
        std::thread::sleep(tick);
        let Some(jobs) = jobs.upgrade() else { return };
        jobs.tick();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan stored by a version without `focus` and `steer_epoch` runs as that version did (no
    /// narrowed search, steering every 64 candidates), so a job it started and another replica
    /// takes over makes the same puzzles; a plan of this version gives back its options.
    #[test]
    fn plans_stored_before_the_narrowed_search_run_without_it() {
        let opts = GenerateOptions {
            stipulation: Stipulation::Mate(3),
            count: 12,
            seed: 9,
            threads: 1,
            ..GenerateOptions::default()
        };
        let mut plan = serde_json::to_value(Plan::of(&opts)).unwrap();
        let now: Plan = serde_json::from_value(plan.clone()).unwrap();
        let again = now.options().unwrap();
        assert_eq!((again.focus, again.steer_epoch), (2, 256));
        assert_eq!(Plan::of(&again), now);
        let fields = plan.as_object_mut().unwrap();
        fields.remove("focus");
        fields.remove("steer_epoch");
        let old: Plan = serde_json::from_value(plan).unwrap();
        let then = old.options().unwrap();
        assert_eq!((then.focus, then.steer_epoch), (0, 64));
        assert_eq!((then.seed, then.count), (9, 12));
    }

    /// A job stored by a release before shards (its plan says nothing of them), left running
    /// by a runner that died, is taken over and run as that release ran it: on one replica, no
    /// shard made, its collection the one an unsharded run makes. A job of this release is
    /// sharded, and makes the same collection.
    #[test]
    fn a_job_of_a_release_before_shards_runs_unsharded_and_makes_the_same_collection() {
        use crate::collections::create_collection;
        use crate::Library;
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        let opts = GenerateOptions {
            stipulation: Stipulation::Mate(2),
            count: 6,
            seed: 4,
            max_pieces: 7,
            threads: 1,
            ..GenerateOptions::default()
        };
        let solve = SolveOptions::default();
        Library::from(store.clone())
            .generate("plain", &opts, &solve, &Cancel::new(), |_, _| true)
            .unwrap();
        let fens = |name: &str| -> Vec<String> {
            let (_, puzzles) = store.collection(name).unwrap().unwrap();
            puzzles.into_iter().map(|p| p.fen).collect()
        };
        let mut plan = serde_json::to_value(Plan::of(&opts)).unwrap();
        plan.as_object_mut().unwrap().remove("shards");
        assert!(!serde_json::from_value::<Plan>(plan.clone()).unwrap().shards);
        assert!(create_collection(&store, "old", &opts).unwrap());
        let view = JobView {
            collection: "old".into(),
            count: 6,
            seed: 4,
            ..JobView::default()
        };
        let id = store
            .create_job(&NewJob {
                collection: "old",
                request: &super::super::document(&plan),
                view: &super::super::document(&serde_json::to_value(&view).unwrap()),
                owner: "a process that died",
                lease: Duration::ZERO,
            })
            .unwrap();
        let jobs = Jobs::start(
            store.clone(),
            JobsConfig {
                max_running: 2,
                lease: Duration::from_millis(400),
                solve: solve.clone(),
                threads: 1,
                replica: "here".into(),
            },
        );
        let wait = |id: i64| {
            let deadline = std::time::Instant::now() + Duration::from_secs(120);
            loop {
                let job = jobs.get(id).unwrap().unwrap();
                if job.state != "running" {
                    return job;
                }
                assert!(std::time::Instant::now() < deadline, "still running");
                std::thread::sleep(Duration::from_millis(50));
            }
        };
        let old = wait(id);
        assert_eq!((old.state.as_str(), old.attempts), ("done", 2));
        assert_eq!(old.view.shards, None);
        assert_eq!(store.shard_counts(id).unwrap().total, 0);
        assert_eq!(fens("old"), fens("plain"));
        // A job of this release: sharded, the same collection.
        let new = jobs.begin("new", &opts).unwrap();
        let new = wait(new.id);
        assert_eq!(new.state, "done");
        let shards = new.view.shards.expect("a sharded job counts its shards");
        assert!(
            shards.done >= 1 && shards.total >= shards.done,
            "{shards:?}"
        );
        assert_eq!(new.view.workers.get("here"), Some(&new.view.progress.tried));
        assert_eq!(fens("new"), fens("plain"));
    }

    /// A helpmate plan stored before helpmates had a narrowed search screens every candidate
    /// fully, as that version did, whatever `focus` it recorded; one of this version narrows.
    #[test]
    fn helpmate_plans_stored_before_their_narrowed_search_run_without_it() {
        let opts = GenerateOptions {
            stipulation: Stipulation::parse("h#2").unwrap(),
            count: 5,
            seed: 3,
            threads: 1,
            ..GenerateOptions::default()
        };
        let mut plan = serde_json::to_value(Plan::of(&opts)).unwrap();
        let now: Plan = serde_json::from_value(plan.clone()).unwrap();
        let again = now.options().unwrap();
        assert_eq!((again.focus, again.effective_focus()), (2, 2));
        assert_eq!(Plan::of(&again), now);
        plan.as_object_mut().unwrap().remove("focus_helpmates");
        let old: Plan = serde_json::from_value(plan).unwrap();
        assert_eq!(old.focus, 2);
        let then = old.options().unwrap();
        assert_eq!(then.effective_focus(), 0);
        // A direct mate's plan of that version narrowed already, and still does.
        let mate = GenerateOptions {
            stipulation: Stipulation::Mate(2),
            ..opts
        };
        let mut plan = serde_json::to_value(Plan::of(&mate)).unwrap();
        plan.as_object_mut().unwrap().remove("focus_helpmates");
        let old: Plan = serde_json::from_value(plan).unwrap();
        assert_eq!(old.options().unwrap().effective_focus(), 2);
    }
}
