//! Generation jobs as rows, so that every replica sharing a store can follow, cancel and take over
//! any of them. A running job is held by its runner (`owner`) under a lease that the runner renews
//! while it works; a job whose lease ran out (its runner died) may be claimed by another. The store
//! keeps what a job is (its request and its view, both JSON that the application layer writes and
//! reads) and decides nothing about it.
//!
//! A job may be split into shards: numbered ranges of its candidates, each a row of its own that
//! a replica claims (one pending, or one whose lease ran out), screens under a lease
//! of its own, and finishes with its result (JSON, again the application layer's). The job's
//! runner reads the results in order and makes the collection from them.

use crate::Json;
use crate::Result;

/// A job as stored.
#[derive(Clone, Debug)]
pub struct JobRow {
    pub id: i64,
    /// The collection it fills.
    pub collection: String,
    /// What it was asked (JSON), enough for another runner to run it again.
    pub request: Box<Json>,
    /// `running`, `done`, `stopped` or `failed`.
    pub state: String,
    /// What `GET /v1/jobs/{id}` shows (JSON), as its runner last recorded it.
    pub view: Box<Json>,
    /// The runner that holds (or last held) it.
    pub owner: Option<String>,
    /// Whether a cancel was asked for.
    pub cancel: bool,
    /// How many runners have held it (1, or more after takeovers).
    pub attempts: u32,
}

/// A job to record: running, held by `owner` for `lease` (the database's clock).
#[derive(Clone, Copy, Debug)]
pub struct NewJob<'a> {
    /// The collection it fills.
    pub collection: &'a str,
    /// What it was asked (JSON), enough for another runner to run it again.
    pub request: &'a Json,
    /// What `GET /v1/jobs/{id}` shows at the start (JSON).
    pub view: &'a Json,
    /// The runner that holds it.
    pub owner: &'a str,
    /// How long the holder may go without renewing.
    pub lease: std::time::Duration,
}

/// How a job ends ([`crate::JobStore::finish_job`]): its state, its last view and its
/// collection's summary (JSON).
#[derive(Clone, Copy, Debug)]
pub struct JobEnd<'a> {
    /// `done`, `stopped` or `failed`, for the job and its collection.
    pub state: &'a str,
    /// What `GET /v1/jobs/{id}` shows from now on.
    pub view: &'a Json,
    /// The collection's summary.
    pub summary: &'a Json,
}

/// The columns a job is read from.
pub(super) const JOB_COLUMNS: &str =
    "id, collection, request, state, view, owner, cancel, attempts";

/// A job from a row of [`JOB_COLUMNS`].
pub(super) fn read_job(r: &impl super::Columns) -> Result<JobRow> {
    let id = r.int(0)?;
    let corrupt = |what: &str| super::StoreError::Corrupt(format!("job {id}: {what}"));
    Ok(JobRow {
        id,
        collection: r.text(1)?,
        request: serde_json::from_str(&r.text(2)?).map_err(|_| corrupt("request"))?,
        state: r.text(3)?,
        view: serde_json::from_str(&r.text(4)?).map_err(|_| corrupt("view"))?,
        owner: r.opt_text(5)?,
        cancel: r.int(6)? != 0,
        attempts: u32::try_from(r.int(7)?).map_err(|_| corrupt("attempts"))?,
    })
}

/// A shard of a job, as stored.
#[derive(Clone, Debug)]
pub struct ShardRow {
    pub job: i64,
    /// Its number: shard `i` holds the job's candidates of range `i`.
    pub index: i64,
    /// `pending`, `running` or `done`.
    pub state: String,
    /// How its candidates are made (JSON), as the job's runner last said.
    pub steer: Box<Json>,
    /// The runner that holds (or last held) it.
    pub owner: Option<String>,
    /// Its result (JSON) once done.
    pub result: Option<Box<Json>>,
}

/// Where a job's shards are ([`crate::JobStore::shard_counts`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardCounts {
    /// Shards made so far.
    pub total: u64,
    pub done: u64,
    /// Held under a lease that has not run out.
    pub running: u64,
    /// Candidates screened in the done shards, by the replica that screened them.
    pub screened: Vec<(String, u64)>,
}

/// The columns a shard is read from.
pub(super) const SHARD_COLUMNS: &str = "job, idx, state, steer, owner, result";

/// A shard from a row of [`SHARD_COLUMNS`].
pub(super) fn read_shard(r: &impl super::Columns) -> Result<ShardRow> {
    let (job, index) = (r.int(0)?, r.int(1)?);
    let corrupt =
        |what: &str| super::StoreError::Corrupt(format!("job {job}, shard {index}: {what}"));
    Ok(ShardRow {
        job,
        index,
        state: r.text(2)?,
        steer: serde_json::from_str(&r.text(3)?).map_err(|_| corrupt("steer"))?,
        owner: r.opt_text(4)?,
        result: r
            .opt_text(5)?
            .map(|t| serde_json::from_str(&t).map_err(|_| corrupt("result")))
            .transpose()?,
    })
}

/// Counts a job's shards from rows of (state, live lease, replica, screened).
pub(super) fn count_shards(
    rows: impl Iterator<Item = (String, bool, Option<String>, i64)>,
) -> ShardCounts {
    let mut counts = ShardCounts::default();
    let mut by: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
    for (state, live, replica, screened) in rows {
        counts.total += 1;
        match state.as_str() {
            "done" => {
                counts.done += 1;
                if let Some(r) = replica {
                    *by.entry(r).or_default() += u64::try_from(screened).unwrap_or(0);
                }
            }
            "running" if live => counts.running += 1,
            _ => {}
        }
    }
    counts.screened = by.into_iter().collect();
    counts
}
