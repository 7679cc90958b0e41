//! Generation jobs as rows, so that every replica sharing a store can follow, cancel and take over
//! any of them. A running job is held by its runner (`owner`) under a lease that the runner renews
//! while it works; a job whose lease ran out (its runner died) may be claimed by another. The store
//! keeps what a job is (its request and its view, both JSON that the application layer writes and
//! reads) and decides nothing about it.

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

/// How a job ends ([`crate::Backend::finish_job`]): its state, its last view and its
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
