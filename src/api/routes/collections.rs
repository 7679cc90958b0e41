//! `/v1/collections` and `/v1/jobs`: generated puzzle collections. Reads are open; starting a
//! generation needs the write token. A generation runs as a job on its own thread, off the HTTP
//! workers: the request that starts it gets 202 and the job's URL at once, the job goes on when the
//! client leaves, and at most `--max-jobs` run at once.

use crate::api::auth::Writer;
use crate::api::common::{etag, none_match, GameName, Object, RulesInput};
use crate::api::configuration::Limits;
use crate::api::costly_work::Slots;
use crate::api::problem::{ApiError, JsonBodyProblems, Problem};
use crate::api::ratelimit::Metered;
use crate::api::routes::puzzles::Puzzle;
use crate::api::wire::solve::SearchLimits;
use crate::app::export::Export;
use crate::app::jobs::{JobRecord, Jobs, ShardsView, StartError};
use crate::app::library::{valid_name, Collection, StoreError};
use crate::app::Library;
use crate::formats::Format;
use crate::generate::{GenerateOptions, Progress, Stop};
use crate::rules::{GameKind, Rules, Variant};
use actix_web::http::header;
use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use utoipa::ToSchema;

pub use crate::api::wire::json_line;

/// A request to generate a collection.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"name": "twos", "mate_in": 2, "count": 5, "rules": "abbott", "seed": 42, "max_pieces": 8})))]
pub struct CollectionRequest {
    /// The new collection's name: 1 to 64 letters, digits, `-`, `_` or `.` (409 when taken).
    #[schema(example = "twos", pattern = "^[A-Za-z0-9._-]{1,64}$")]
    pub name: String,
    /// N of "mate in N" (`#N`): from 1 to the server's `--solve-max-mate-in`. Leave it out when
    /// `stipulation` is given (both given: they must agree).
    #[schema(example = 2, minimum = 1, maximum = 12)]
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    pub mate_in: Option<u32>,
    /// The stipulation of the puzzles: `#N`, `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`, `h=N`, `h=N.5`, `r#N`, `semi-r#N`, `ser-#N`, `ser-=N`, `ser-s#N` or `ser-h#N`
    /// (as for `/v1/solve`; N up to
    /// the server's `--solve-max-mate-in`). Candidates have the side to move the stipulation
    /// starts with; a helpmate is kept when it has exactly one solution and no shorter helpmate.
    #[serde(default)]
    #[schema(example = "h#2")]
    pub stipulation: Option<String>,
    /// Puzzles wanted: from 1 to the server's `--job-max-count` (which is at most 100,000).
    #[schema(example = 5, minimum = 1, maximum = 100_000)]
    #[serde(deserialize_with = "crate::api::whole_numbers::number")]
    pub count: u32,
    /// The game: `baroque` (the default) or `rococo` (mate meaning the capture of the King; no
    /// `rules`).
    #[serde(default)]
    pub game: Option<GameName>,
    /// The rule set (default `abbott`).
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// The seed of the random candidates: the same seed and request make the same puzzles
    /// (default: from the clock; the job and the collection show it). At most 2^63 - 1.
    #[serde(
        default,
        deserialize_with = "crate::api::whole_numbers::option_unchecked"
    )]
    #[schema(example = 42, minimum = 0, maximum = 9_223_372_036_854_775_807_u64)]
    pub seed: Option<u64>,
    /// Most pieces on the board, Kings included (3 to 32; default 10).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 8, minimum = 3, maximum = 32)]
    pub max_pieces: Option<u32>,
    /// Whether the side to move may start in check (default false).
    #[serde(default)]
    pub allow_check: Option<bool>,
    /// The solver's budget for one candidate (default: 2,000,000 nodes and 10,000 ms; clamped to the
    /// server's solve maxima). A candidate the solver cannot settle within it is dropped. The nodes
    /// decide; the time is a safety net (a run where it bites may not be reproduced by its seed).
    #[serde(default, deserialize_with = "crate::api::common::object_option")]
    pub candidate_limits: Option<SearchLimits>,
    /// The largest share of the puzzles whose key piece is of one kind (above 0, at most 1;
    /// default 0.4 for `#N`, 1 for every other stipulation). The key piece makes the key (a
    /// helpmate: the mating move). The share is never exceeded in collections of 10 puzzles or
    /// more; below 10 there is no limit.
    #[serde(default)]
    #[schema(example = 0.4, exclusive_minimum = 0.0, maximum = 1.0)]
    pub max_key_share: Option<f64>,
    /// Pieces besides its King the defender (the side that answers the key; in a helpmate the
    /// side mated) keeps in at least `min_defenders_share` of the puzzles (0: no such rule;
    /// default for `#N` 2, or `max_pieces` − 3 when that is less; 0 for every other stipulation;
    /// at most `max_pieces` − 3).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 2, minimum = 0, maximum = 29)]
    pub min_defenders: Option<u32>,
    /// The share of the puzzles whose defender keeps `min_defenders` pieces (0 to 1; default 0.8).
    #[serde(default)]
    #[schema(example = 0.8, minimum = 0.0, maximum = 1.0)]
    pub min_defenders_share: Option<f64>,
    /// For `#N`, `=N` and the help stipulations (`h#N`, `h#N.5`, `h=N`, `h=N.5`): only the
    /// candidates mated (or stalemated) by a search whose moves before the last land near the King
    /// mated (or stalemated) are screened fully, the first move within `focus` King steps and the
    /// later ones within one more (default 2). 0: every candidate is screened fully, so that
    /// puzzles whose solution plays far from the King are found too, at a fraction of the speed.
    /// Selfmates, selfstalemates, reflexmates and series movers are always screened fully.
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 2, minimum = 0, maximum = 16)]
    pub focus: Option<u32>,
}

/// The state of a job (and of its collection).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = "done")]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Running,
    /// Every puzzle asked for was stored.
    Done,
    /// A limit (candidates, time) or a cancel came first; what was found is stored.
    Stopped,
    /// The store failed; `error` says how.
    Failed,
}

/// A generation job.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"id": 1, "url": "/v1/jobs/1", "state": "done", "collection": "twos",
    "collection_url": "/v1/collections/twos", "mate_in": 2, "stipulation": "#2", "count": 5, "seed": 42,
    "progress": {"tried": 170, "found": 5, "duplicates": 0, "unsettled": 0, "nodes": 181000, "millis": 240},
    "stop": "done", "puzzle_ids": [65, 66, 67, 68, 69],
    "summary": {"variety": {"max_key_share": 0.4, "key_cap": 2, "min_defenders": 2, "min_defenders_share": 0.8, "defenders_kept": 5},
        "key_pieces": {"immobilizer": 2, "long-leaper": 2, "chameleon": 1}, "themes": {"mate-in-2": 5, "quiet-key": 4, "key-captures-1": 1},
        "difficulty": {"min": 34, "median": 55, "max": 67, "buckets": {"0-19": 0, "20-39": 1, "40-59": 2, "60-79": 2, "80-100": 0}},
        "focus": 2},
    "error": null, "attempts": 1, "workers": {"replica-1:8080": 170},
    "shards": {"total": 17, "done": 1, "running": 0}})))]
pub struct Job {
    pub id: u64,
    pub url: String,
    pub state: JobState,
    pub collection: String,
    pub collection_url: String,
    /// The N of the stipulation.
    pub mate_in: u32,
    /// The stipulation of the puzzles.
    #[schema(example = "#2")]
    pub stipulation: String,
    pub count: u32,
    pub seed: u64,
    pub progress: JobProgress,
    /// Why the run stopped (`done`, `candidate_limit`, `time_limit`, `cancelled`); null while it runs.
    #[schema(value_type = Option<String>, example = "done")]
    pub stop: Option<Stop>,
    /// The stored puzzles, in order.
    pub puzzle_ids: Vec<i64>,
    /// Once the run ended, what its puzzles are like (as in the collection's `summary`):
    /// `variety` (the rules and `defenders_kept`), `key_pieces`, `themes`, `difficulty`
    /// (`min`, `median`, `max`, `buckets`) and `focus`; null while it runs.
    #[schema(value_type = Option<Object>)]
    pub summary: Option<serde_json::Value>,
    pub error: Option<String>,
    /// How many runners have held the job: 1, or more when a replica that stopped (handing it
    /// over), died or was killed left it and another took it over, going on from the puzzles
    /// already stored.
    #[schema(example = 1)]
    pub attempts: u32,
    /// The candidates each replica screened for the job, over all its runs, by replica name
    /// (`--replica-name`; default the host's name and port).
    #[schema(example = json!({"db-1:8080": 170}))]
    pub workers: std::collections::BTreeMap<String, u64>,
    /// Where the job's shards are: ranges of `steer_epoch` candidates (256 by default) that
    /// any replica with a free generation slot screens. `total` are made so far (a few ahead of
    /// the one assembled next), `done` screened, `running` screened by a replica now. Absent from
    /// a job stored by a release before shards (it runs on one replica at a time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<JobShards>,
}

impl From<JobRecord> for Job {
    fn from(r: JobRecord) -> Job {
        let v = r.view;
        Job {
            id: u64::try_from(r.id).unwrap_or_default(),
            url: format!("/v1/jobs/{}", r.id),
            state: match r.state.as_str() {
                "done" => JobState::Done,
                "stopped" => JobState::Stopped,
                "failed" => JobState::Failed,
                _ => JobState::Running,
            },
            collection_url: format!("/v1/collections/{}", v.collection),
            collection: v.collection,
            mate_in: v.mate_in,
            stipulation: v.stipulation,
            count: v.count,
            seed: v.seed,
            progress: v.progress.into(),
            stop: v.stop,
            puzzle_ids: v.puzzle_ids,
            summary: v.summary,
            error: v.error,
            attempts: r.attempts,
            workers: v.workers,
            shards: v.shards.map(Into::into),
        }
    }
}

/// How far a run (a generation job) has got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"tried": 51, "found": 2, "duplicates": 0, "unsettled": 0, "varied": 0, "nodes": 68155, "millis": 23})))]
pub struct JobProgress {
    /// Candidates made and screened.
    pub tried: u64,
    /// Sound puzzles kept.
    pub found: u64,
    /// Sound puzzles dropped as near-duplicates (the same position or a mirror image of one kept).
    pub duplicates: u64,
    /// Candidates the solver could not settle within the candidate budget.
    pub unsettled: u64,
    /// Puzzles passed over to keep the collection varied (their key piece's kind had its share,
    /// or the defender kept too few pieces when every remaining puzzle had to keep them). With
    /// `focus`, a candidate whose key would be of a kind that has its share is dropped before it
    /// is proven sound, and counted here too: it is sound or not, but would not be kept either
    /// way.
    pub varied: u64,
    /// Solver nodes spent.
    pub nodes: u64,
    /// Milliseconds spent.
    pub millis: u64,
}

/// Where a sharded job's shards are: made so far, done, and held by a runner now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"total": 12, "done": 9, "running": 2})))]
pub struct JobShards {
    /// Shards made so far: each a range of `steer_epoch` candidates (256 by default); the job's
    /// runner makes them a few ahead of the one it assembles next.
    pub total: u64,
    /// Shards screened.
    pub done: u64,
    /// Shards a replica screens now.
    pub running: u64,
}

impl From<Progress> for JobProgress {
    fn from(p: Progress) -> JobProgress {
        let Progress {
            tried,
            found,
            duplicates,
            unsettled,
            varied,
            nodes,
            millis,
        } = p;
        JobProgress {
            tried,
            found,
            duplicates,
            unsettled,
            varied,
            nodes,
            millis,
        }
    }
}

impl From<ShardsView> for JobShards {
    fn from(s: ShardsView) -> JobShards {
        let ShardsView {
            total,
            done,
            running,
        } = s;
        JobShards {
            total,
            done,
            running,
        }
    }
}

/// A collection as listed.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"name": "twos", "url": "/v1/collections/twos", "game": "baroque",
    "rules": "abbott", "mate_in": 2, "stipulation": "#2", "seed": 42, "max_pieces": 8, "state": "done", "puzzles": 5,
    "summary": {"count": 5, "stop": "done", "progress": {"tried": 170, "found": 5}},
    "created_at": "2026-11-22T07:00:00.000Z"})))]
pub struct CollectionInfo {
    pub name: String,
    pub url: String,
    pub game: String,
    /// The rule set, as `Rules` writes it (`abbott`, `abbott,leaper=single`).
    pub rules: String,
    /// The N of the stipulation.
    pub mate_in: u32,
    /// The stipulation of the puzzles (`#2`, `s#2`, `h#2`, `h#2.5`, `=2`, ...).
    #[schema(example = "#2")]
    pub stipulation: String,
    /// The seed: the same request with it makes the same puzzles.
    pub seed: u64,
    pub max_pieces: u32,
    /// `running`, `done`, `stopped` (a limit, a cancel or a restart came first) or `failed`.
    pub state: String,
    /// Puzzles in the collection.
    pub puzzles: u64,
    /// The run's figures: `count` asked, `progress`, `stop`, and `error` when it failed; once it
    /// ended, what its puzzles are like: `variety` (`max_key_share` and the `key_cap` it gives,
    /// `min_defenders`, `min_defenders_share`, and `defenders_kept`: the puzzles whose defender
    /// keeps them), `key_pieces` (puzzles by the kind of their key piece), `themes` (puzzles by
    /// theme tag), `difficulty` (`min`, `median`, `max`, and `buckets` `0-19` to `80-100`) and
    /// `focus` (the reach of the narrowed search, 0 for none).
    #[schema(value_type = Object)]
    pub summary: serde_json::Value,
    /// RFC 3339, UTC.
    pub created_at: String,
}

impl From<Collection> for CollectionInfo {
    fn from(c: Collection) -> CollectionInfo {
        CollectionInfo {
            url: format!("/v1/collections/{}", c.name),
            name: c.name,
            game: c.game,
            rules: c.rules,
            mate_in: c.mate_in,
            stipulation: c.stipulation,
            seed: c.seed,
            max_pieces: c.max_pieces,
            state: c.state,
            puzzles: c.puzzles,
            summary: crate::app::value(&c.summary),
            created_at: c.created_at,
        }
    }
}

/// Every collection.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"items": [{"name": "twos", "url": "/v1/collections/twos", "game": "baroque",
    "rules": "abbott", "mate_in": 2, "stipulation": "#2", "seed": 42, "max_pieces": 8, "state": "done", "puzzles": 2,
    "summary": {"count": 2, "stop": "done", "progress": {"tried": 51, "found": 2, "duplicates": 0, "unsettled": 0, "nodes": 68155, "millis": 23}},
    "created_at": "2026-11-22T07:05:53.405Z"}]})))]
pub struct CollectionList {
    pub items: Vec<CollectionInfo>,
}

/// A collection and its puzzles in order.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"name": "twos", "url": "/v1/collections/twos", "game": "baroque",
    "rules": "abbott", "mate_in": 2, "stipulation": "#2", "seed": 42, "max_pieces": 8, "state": "done", "puzzles": 1,
    "summary": {"count": 1, "stop": "done", "progress": {"tried": 19, "found": 1, "duplicates": 0, "unsettled": 0, "nodes": 20512, "millis": 9}},
    "created_at": "2026-11-22T07:05:53.405Z",
    "items": [{"id": 65, "kind": "mate", "game": "baroque", "fen": "7R/6P1/8/8/2K5/4k3/8/6M1 w 0",
        "rules": {"preset": "abbott", "leaper": "long", "suicide": "off", "stalemate": "draw"},
        "source": "generated", "title": null, "caption": "collection twos: seed 42, candidate 18 (random)",
        "tags": ["key-immobilizer", "mate-by-immobilizer", "mate-by-king", "mate-by-pawn", "mate-in-2", "quiet-key"],
        "moves": [], "captures": [], "mate_in": 2, "stipulation": "#2", "fixture": null, "created_at": "2026-11-22T07:05:53.418Z",
        "content_hash": "d14346d71780c27fdc4cb44ec445ee9f538858c63c8d552cdacfc908d8ebeab5"}]})))]
pub struct CollectionPuzzles {
    #[serde(flatten)]
    pub collection: CollectionInfo,
    pub items: Vec<Puzzle>,
}

/// Generate a collection of puzzles of any stipulation
///
/// Starts a job that generates sound puzzles of a stipulation (`#N` by default with `mate_in`; any
/// other `/v1/solve` takes with `stipulation`: `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`, `h=N`, `h=N.5`,
/// `r#N`, `semi-r#N`, `ser-#N`, `ser-=N`, `ser-s#N`, `ser-h#N`) and stores them, in order, in a new
/// collection. A puzzle with a key is sound with exactly one key and no shorter solution, one of
/// solution lines (a helpmate, a series mover) with exactly one line and no shorter one; the side
/// to move is the one the stipulation starts with, and not in check unless `allow_check`. 202 with
/// the job (its URL also in `Location`); follow it with `GET /v1/jobs/{id}`. Candidates are random
/// placements within `max_pieces` and positions of random play-outs; near-duplicates (the same
/// position or a mirror image of one) are dropped. Each puzzle is confirmed by the full solver
/// before it is stored, tagged with its themes (`key-chameleon`, `quiet-key`, `capture-withdrawal`,
/// `mate-by-coordinator`, `mate-in-2`; `selfmate-in-2`; for helpmates `helpmate-in-2`,
/// `h-solutions-1`, `h-moves-king`, `mate-capture-leap` or `quiet-mate`). The job runs on when the
/// client leaves, within the server's job time limit. Needs `Authorization: Bearer <token>`.
#[utoipa::path(
    tag = "collections",
    request_body(content = CollectionRequest, description = "The collection to make"),
    security(("bearer" = [])),
    responses(
        JsonBodyProblems,
        (status = 202, description = "The job started", body = Job,
            headers(("Location" = String, description = "The job's URL"))),
        (status = 401, description = "No bearer token, or not the write token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "No write token is configured (`writes-disabled`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A collection of that name exists (`conflict`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A bad name, `mate_in` (or N of `stipulation`), `count`, `max_pieces` or limit, an unreadable `stipulation` or one that disagrees with `mate_in`, or `rules` with Rococo (`invalid-collection`, `invalid-mate-in`, `invalid-stipulation`, `invalid-limits`, `not-applicable`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its costly requests (`rate-limited`, with `limit`, the requests a minute); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until this client may start another"))),
        (status = 503, description = "As many jobs as the server runs at once are running (`jobs-busy`, with `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/collections")]
pub async fn create(
    _writer: Writer,
    _metered: Metered,
    body: web::Json<Object<CollectionRequest>>,
    limits: web::Data<Limits>,
    jobs: web::Data<Jobs>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner().0;
    let opts = options(&request, &limits)?;
    let name = request.name;
    let jobs = jobs.into_inner();
    let started = web::block(move || jobs.begin(&name, &opts)).await?;
    let job = Job::from(started.map_err(|e| match e {
        StartError::Busy(limit) => ApiError::JobsBusy {
            limit: limit as u64,
            retry_after: 5,
        },
        StartError::Exists(_) => ApiError::Conflict(e.to_string()),
        StartError::Store(e) => ApiError::from(e),
        StartError::Thread(m) => ApiError::Internal(format!("cannot start a job thread: {m}")),
    })?);
    Ok(HttpResponse::Accepted()
        .insert_header((header::LOCATION, job.url.clone()))
        .json(job))
}

/// The generation options of a request, checked and clamped to the server's limits.
pub fn options(r: &CollectionRequest, limits: &Limits) -> Result<GenerateOptions, ApiError> {
    let invalid = |m: String| ApiError::InvalidCollection(m);
    if !valid_name(&r.name) {
        return Err(invalid(format!(
            "`name` {:?} is not a collection name: use 1 to 64 letters, digits, `-`, `_` or `.`",
            r.name
        )));
    }
    let game = GameKind::from(r.game.unwrap_or_default());
    let variant =
        Variant::of(game, r.rules.map(Rules::from)).map_err(|_| ApiError::NotApplicable {
            field: "rules",
            detail: "`rules` does not apply to Rococo, which has one rule set".into(),
        })?;
    let stipulation = crate::solver::Stipulation::from_parts(r.mate_in, r.stipulation.as_deref())?;
    let max = limits.solve.max_mate_in;
    let n = stipulation.moves();
    let least = stipulation.least_moves();
    if n < least || n > max {
        return Err(ApiError::InvalidMateIn { mate_in: n, max });
    }
    if r.count == 0 || u64::from(r.count) > limits.job_max_count {
        return Err(invalid(format!(
            "`count` is {}; it must be between 1 and {}",
            r.count, limits.job_max_count
        )));
    }
    let max_pieces = r.max_pieces.unwrap_or(10);
    if !(3..=32).contains(&max_pieces) {
        return Err(invalid(format!(
            "`max_pieces` is {max_pieces}; it must be between 3 and 32"
        )));
    }
    let asked = r.candidate_limits.unwrap_or_default();
    if asked.nodes == Some(0) || asked.millis == Some(0) {
        return Err(ApiError::InvalidLimits(
            "`candidate_limits`: `nodes` and `millis` must be at least 1".into(),
        ));
    }
    let nodes = asked.nodes.unwrap_or(2_000_000).min(limits.solve.max_nodes);
    let millis = asked.millis.unwrap_or(10_000).min(limits.solve.max_millis);
    if let Some(seed) = r.seed.filter(|&s| s > i64::MAX as u64) {
        return Err(invalid(format!(
            "`seed` is {seed}; it must be at most {} (2^63 - 1)",
            i64::MAX
        )));
    }
    let seed = r.seed.unwrap_or_else(crate::generate::clock_seed);
    let defaults = crate::generate::Variety::defaults(stipulation, max_pieces as usize);
    let variety = crate::generate::Variety {
        max_key_share: r.max_key_share.unwrap_or(defaults.max_key_share),
        min_defenders: r
            .min_defenders
            .map_or(defaults.min_defenders, |k| k as usize),
        min_defenders_share: r
            .min_defenders_share
            .unwrap_or(defaults.min_defenders_share),
    };
    let opts = GenerateOptions {
        variant,
        stipulation,
        count: r.count as usize,
        seed,
        max_pieces: max_pieces as usize,
        allow_check: r.allow_check.unwrap_or(false),
        candidate_limits: crate::solver::Limits {
            nodes,
            time: Duration::from_millis(millis),
        },
        max_candidates: u64::MAX,
        max_time: Duration::from_secs(limits.job_max_seconds),
        threads: limits.job_threads,
        variety,
        focus: r.focus.unwrap_or(crate::generate::DEFAULT_FOCUS),
        steer_epoch: crate::generate::STEER_EPOCH,
    };
    // The variety rules (a share out of range, one no collection can meet, defenders that leave
    // no room within the piece budget).
    opts.validate().map_err(|e| invalid(e.to_string()))?;
    Ok(opts)
}

/// Follow a job
///
/// A generation job: its state (`running`, `done`, `stopped`, `failed`), progress, the stored
/// puzzles so far, why it stopped, and how many replicas have run it. Jobs are kept in the store:
/// any replica sharing it answers for any job, and a job whose replica died is taken over by
/// another (or by the server restarted) once its lease runs out (`--job-lease-seconds`).
#[utoipa::path(
    tag = "collections",
    params(("id" = u64, Path, description = "The job's id")),
    responses(
        (status = 200, description = "The job", body = Job),
        (status = 404, description = "No such job (`not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/jobs/{id}")]
pub async fn get_job(
    req: HttpRequest,
    id: web::Path<u64>,
    jobs: web::Data<Jobs>,
) -> Result<HttpResponse, ApiError> {
    let found = match i64::try_from(id.into_inner()) {
        Ok(id) => {
            let jobs = jobs.into_inner();
            web::block(move || jobs.get(id)).await??
        }
        Err(_) => None,
    };
    match found {
        Some(job) => Ok(HttpResponse::Ok().json(Job::from(job))),
        None => Err(ApiError::NotFound {
            path: req.path().to_string(),
        }),
    }
}

/// Cancel a job
///
/// Asks a running job to stop after its current batch of candidates (through any replica: the
/// one running it sees the request within a quarter of the job lease); what it stored stays in
/// the collection, which is marked `stopped`. 202 with the job; a finished job is left as it is (200).
/// Needs `Authorization: Bearer <token>`.
#[utoipa::path(
    tag = "collections",
    params(("id" = u64, Path, description = "The job's id")),
    security(("bearer" = [])),
    responses(
        (status = 202, description = "Asked to stop", body = Job),
        (status = 200, description = "Already finished", body = Job),
        (status = 401, description = "No bearer token, or not the write token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "No write token is configured (`writes-disabled`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such job (`not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/jobs/{id}")]
pub async fn cancel_job(
    _writer: Writer,
    req: HttpRequest,
    id: web::Path<u64>,
    jobs: web::Data<Jobs>,
) -> Result<HttpResponse, ApiError> {
    let found = match i64::try_from(id.into_inner()) {
        Ok(id) => {
            let jobs = jobs.into_inner();
            web::block(move || jobs.cancel(id)).await??
        }
        Err(_) => None,
    };
    let Some(job) = found else {
        return Err(ApiError::NotFound {
            path: req.path().to_string(),
        });
    };
    let job = Job::from(job);
    if job.state == JobState::Running {
        Ok(HttpResponse::Accepted().json(job))
    } else {
        Ok(HttpResponse::Ok().json(job))
    }
}

/// List collections
///
/// Every collection, by name, with how it was made (game, rules, stipulation, seed, piece budget),
/// its state and its number of puzzles.
#[utoipa::path(
    tag = "collections",
    responses((status = 200, description = "The collections", body = CollectionList))
)]
#[get("/v1/collections")]
pub async fn list(library: web::Data<Library>) -> Result<HttpResponse, ApiError> {
    let library = library.into_inner();
    let items = web::block(move || library.collections()).await??;
    Ok(HttpResponse::Ok().json(CollectionList {
        items: items.into_iter().map(CollectionInfo::from).collect(),
    }))
}

/// Get a collection
///
/// A collection and its puzzles in the order they were found (each as `GET /v1/puzzles` lists it;
/// `GET /v1/puzzles/{id}/outcome` has the full solution).
#[utoipa::path(
    tag = "collections",
    params(("name" = String, Path, description = "The collection's name")),
    responses(
        (status = 200, description = "The collection and its puzzles", body = CollectionPuzzles),
        (status = 404, description = "No such collection (`not-found`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/collections/{name}")]
pub async fn get_one(
    req: HttpRequest,
    name: web::Path<String>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let library = library.into_inner();
    // The puzzles are listed without their outcomes: none is read.
    let found = web::block(move || -> Result<_, StoreError> {
        let Some(c) = library.collection_info(&name)? else {
            return Ok(None);
        };
        let mut items = Vec::new();
        for page in library.collection_pages(&name, 500, false) {
            items.extend(page?.into_iter().map(|p| Puzzle::from_stored(p, false)));
        }
        Ok(Some(CollectionPuzzles {
            collection: c.into(),
            items,
        }))
    })
    .await??;
    match found {
        Some(body) => Ok(HttpResponse::Ok().json(body)),
        None => Err(ApiError::NotFound {
            path: req.path().to_string(),
        }),
    }
}

/// An export's format, as `?format=` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "pgn")]
pub enum ExportFormat {
    /// One JSON puzzle per line (the default).
    Jsonl,
    /// PGN, one game per puzzle.
    Pgn,
    /// Lichess's puzzle CSV.
    Csv,
}

/// `GET /v1/collections/{name}/export` parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `jsonl` (the default), `pgn` or `csv`.
    #[param(value_type = Option<ExportFormat>, inline)]
    pub format: Option<String>,
}

/// Export a collection
///
/// The collection's puzzles in order, as `format` asks:
///
/// - `jsonl` (the default, `application/x-ndjson`): one puzzle per line, each complete (with its
///   verified outcome and solution tree), as `GET /v1/puzzles/{id}?include=outcome` gives it;
/// - `pgn` (`application/x-chess-pgn`): a game per puzzle: the tags `Event` (the title, or
///   `baroque puzzle <id>`), `Site` (the source, or `?`), `Date`, `Round`, `White`, `Black`,
///   `Result` (the side that mates: `1-0` or `0-1`), `Variant` (`Baroque`, `Rococo`), `SetUp "1"`,
///   `FEN` (the stored FEN), `Stipulation` (`#2`, `s#3`, `h#2`, `h#2.5`), `Rules` (Baroque),
///   `Caption`, `Tags` (space-separated) and `BaroqueId`; the movetext is the main line in
///   canonical notation (the first key, then at each step the defence that resists longest and
///   the quickest mate; a helpmate's first solution) with every other defence, dual, key or
///   solution as a variation;
/// - `csv` (`text/csv`): Lichess's puzzle CSV, `PuzzleId,FEN,Moves,Rating,RatingDeviation,
///   Popularity,NbPlays,Themes,GameUrl,OpeningTags`: `Moves` is the main line as from and to
///   squares, the key first (Lichess puts the opponent's last move first; a composed puzzle has
///   none), `Rating` 1500 without a difficulty, `RatingDeviation` 500, `Themes` the tags,
///   `GameUrl` the source, `OpeningTags` `game:baroque rules:abbott stipulation:#2`.
///
/// PGN and CSV carry stipulated problems only: diagram puzzles are left out, named in the
/// `X-Baroque-Skipped` header (and, in PGN, in a `%` line at the top). `POST /v1/puzzles` with
/// `Content-Type: application/x-chess-pgn` and `baroque import` read them back.
///
/// The export streams from the store a page at a time, so that its memory does not grow with the
/// collection; at most `--max-exports` stream at once, and at most `--max-exports-per-client`
/// (half of them by default) for one client (one more gets 503 `exports-busy` with
/// `Retry-After`, and `limit` the cap it met), each counts as a costly request of its client (429
/// `rate-limited` when the client has none left; a 503 gives it back), and one whose client reads
/// nothing for `--write-timeout` (30 s by default) is ended and its connection closed. A strong `ETag` comes with it, made from what the store records of the collection (its
/// puzzles, their positions and every change of one), the format and the server's build, without
/// building the export: a request whose `If-None-Match` names it gets 304 at once, without a body
/// (a collection still being filled changes its tag).
#[utoipa::path(
    tag = "collections",
    params(
        ("name" = String, Path, description = "The collection's name"),
        ExportQuery,
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier export: 304 when it is the same"),
    ),
    responses(
        (status = 200, description = "The export; `Content-Disposition` names a file with the format's extension (`twos.pgn`)",
            content(
                (String = "application/x-ndjson"),
                (String = "application/x-chess-pgn", example = json!(examples::pgn_export())),
                (String = "text/csv; charset=utf-8", example = json!(examples::csv_export())),
            ),
            headers(
                ("ETag" = String, description = "Strong: the first 128 bits of the SHA-256 of the collection's stored version, the format and the build"),
                ("Content-Disposition" = String, description = "`attachment; filename=\"<name>.<jsonl|pgn|csv>\"`"),
                ("X-Baroque-Skipped" = Option<String>, description = "PGN and CSV: the ids of the diagram puzzles left out, separated by `, `"),
            )),
        (status = 304, description = "Not modified: `If-None-Match` names the current `ETag`",
            headers(("ETag" = String, description = "The current ETag"))),
        (status = 400, description = "An unknown `format`, or an unknown parameter (`invalid-parameter`, naming it; `invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such collection (`not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The client has no costly request left (`rate-limited`, with `Retry-After`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "As many exports as the server streams at once are streaming, or as many as one client may stream are this client's (`exports-busy`, with `limit` and `Retry-After`), or the store is unavailable (`store-unavailable`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/collections/{name}/export")]
pub async fn export(
    req: HttpRequest,
    name: web::Path<String>,
    query: web::Query<ExportQuery>,
    library: web::Data<Library>,
    slots: web::Data<ExportSlots>,
) -> Result<HttpResponse, ApiError> {
    let name = name.into_inner();
    let format = match query.into_inner().format {
        None => Format::Jsonl,
        Some(text) => Format::parse(&text).ok_or_else(|| ApiError::InvalidParameter {
            parameter: "format",
            message: format!(
                "{text:?} is not an export format: `jsonl` (the default), `pgn` or `csv`"
            ),
        })?,
    };
    let not_found = || ApiError::NotFound {
        path: req.path().to_string(),
    };
    // The tag comes from the stored facts alone: a matching `If-None-Match` reads no puzzle.
    let version = {
        let (library, name) = (library.clone().into_inner(), name.clone());
        web::block(move || library.collection_version(&name)).await??
    }
    .ok_or_else(not_found)?;
    let tag = export_tag(&name, format, &version);
    if none_match(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .finish());
    }
    if let Some(limiter) = req.app_data::<web::Data<crate::api::ratelimit::RateLimiter>>() {
        limiter.check(&req)?;
    }
    let client = match req.app_data::<web::Data<crate::api::ratelimit::RateLimiter>>() {
        Some(limiter) => limiter.client_of(&req),
        None => req.peer_addr().map(|a| a.ip()),
    };
    let slot = slots.try_acquire(client)?;
    let opened = {
        let (library, name) = (library.get_ref().clone(), name.clone());
        web::block(move || library.export(&name, format, json_line)).await??
    };
    let export = opened.ok_or_else(not_found)?;
    let mut res = HttpResponse::Ok();
    res.content_type(format.content_type())
        .insert_header((header::ETAG, tag))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}.{}\"", format.extension()),
        ));
    if !export.skipped().is_empty() {
        let ids = export
            .skipped()
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        res.insert_header((header::HeaderName::from_static(SKIPPED_HEADER), ids));
    }
    // The write timeout's watchdog ends a stalled export's connection, and the export with it;
    // this wait only frees the slot of one it could not watch (a slow reader's next chunk may
    // come a whole system send buffer later, so it is long).
    let wait = req
        .app_data::<web::Data<crate::api::configuration::Limits>>()
        .map_or(EXPORT_SEND_WAIT, |l| l.write_timeout)
        * 10;
    Ok(res.streaming(stream(export, slot, wait)))
}

/// Seconds a client refused for every export slot being taken is asked to wait.
pub const EXPORT_RETRY_AFTER: u64 = 5;

/// The write timeout an export goes by when the server's `--write-timeout` is not known: it waits
/// ten times that for its client to take the next chunk before it gives up and frees its slot.
pub const EXPORT_SEND_WAIT: Duration =
    Duration::from_secs(crate::api::configuration::DEFAULT_WRITE_TIMEOUT);

/// The export slots: at most `--max-exports` exports stream at once, and at most
/// `--max-exports-per-client` of one client, so that one client cannot hold them all.
#[derive(Debug)]
pub struct ExportSlots {
    slots: Slots,
    per_client: usize,
    clients: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

/// An export's slot and its client's share, given back when dropped (when the export ends, fails
/// or its client leaves).
#[derive(Debug)]
pub struct ExportSlot {
    _slot: crate::api::costly_work::Slot,
    client: Option<std::net::IpAddr>,
    clients: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

impl Drop for ExportSlot {
    fn drop(&mut self) {
        let Some(client) = self.client else { return };
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let std::collections::hash_map::Entry::Occupied(mut e) = clients.entry(client) {
            *e.get_mut() -= 1;
            if *e.get() == 0 {
                e.remove();
            }
        }
    }
}

impl ExportSlots {
    /// `max` slots in all, `per_client` of them at most for one client.
    pub fn new(max: usize, per_client: usize) -> ExportSlots {
        ExportSlots {
            slots: Slots::new(max),
            per_client: per_client.max(1),
            clients: Default::default(),
        }
    }

    /// Takes a slot for `client` (the rate limiter's client; `None`, unknown, has no share of
    /// its own): refused when the client holds its share, or when every slot is taken.
    ///
    /// # Errors
    /// [`ApiError::ExportsBusyForClient`] and [`ApiError::ExportsBusy`].
    pub fn try_acquire(&self, client: Option<std::net::IpAddr>) -> Result<ExportSlot, ApiError> {
        // The client's count is raised under the lock before the slot is taken, and lowered
        // again if none is free: two exports of one client cannot both pass its share.
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = client {
            let held = clients.get(&c).copied().unwrap_or(0);
            if held >= self.per_client {
                return Err(ApiError::ExportsBusyForClient {
                    limit: self.per_client as u64,
                    retry_after: EXPORT_RETRY_AFTER,
                });
            }
        }
        let slot = self.slots.try_acquire().ok_or(ApiError::ExportsBusy {
            limit: self.slots.max() as u64,
            retry_after: EXPORT_RETRY_AFTER,
        })?;
        if let Some(c) = client {
            *clients.entry(c).or_insert(0) += 1;
        }
        Ok(ExportSlot {
            _slot: slot,
            client,
            clients: std::sync::Arc::clone(&self.clients),
        })
    }

    /// Slots taken now.
    pub fn in_use(&self) -> usize {
        self.slots.in_use()
    }
}

/// The strong `ETag` of an export: of the collection's stored version
/// ([`crate::app::Library::collection_version`]), the format and this build (an export's bytes
/// are a function of the three).
fn export_tag(name: &str, format: Format, version: &str) -> String {
    etag(format!(
        "{name}\n{}\n{version}\n{}",
        format.name(),
        build_stamp()
    ))
}

/// The body of a streamed export: its chunks are made on the blocking pool, one page at a time,
/// and handed over through a channel of two, so that an export holds a few pages whatever its
/// size; the slot is given back when the export ends, fails, or its client leaves or takes
/// nothing for `wait`. An export given up ends its response with an error (the connection is cut),
/// never as if it were whole.
fn stream(mut work: Export, slot: ExportSlot, wait: Duration) -> Chunks {
    let (tx, rx) = tokio::sync::mpsc::channel(2);
    let whole = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = std::sync::Arc::clone(&whole);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        loop {
            let Ok((back, next)) = web::block(move || {
                let next = work.next_chunk();
                (work, next)
            })
            .await
            else {
                break;
            };
            work = back;
            let item = match next {
                Ok(Some(chunk)) if chunk.is_empty() => continue,
                Ok(Some(chunk)) => Ok(web::Bytes::from(chunk)),
                Ok(None) => {
                    done.store(true, std::sync::atomic::Ordering::Release);
                    break;
                }
                Err(e) => {
                    tracing::error!(error = %e, "an export failed; its response is cut short");
                    Err(std::io::Error::other(e))
                }
            };
            let failed = item.is_err();
            match actix_web::rt::time::timeout(wait, tx.send(item)).await {
                Ok(Ok(())) if !failed => {}
                _ => break,
            }
        }
    });
    Chunks { rx, whole }
}

/// A response body fed by a channel; `whole` is set once the export has sent its last chunk.
struct Chunks {
    rx: tokio::sync::mpsc::Receiver<Result<web::Bytes, std::io::Error>>,
    whole: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl futures_core::Stream for Chunks {
    type Item = Result<web::Bytes, std::io::Error>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        match self.rx.poll_recv(cx) {
            Poll::Ready(None) if !self.whole.load(std::sync::atomic::Ordering::Acquire) => {
                // Given up before its end: cut the response rather than end it as if whole.
                self.whole.store(true, std::sync::atomic::Ordering::Release);
                Poll::Ready(Some(Err(std::io::Error::other(
                    "the export was given up before its end",
                ))))
            }
            other => other,
        }
    }
}

/// This build, for tags of what it writes: the version, and the size and modification time of
/// the executable (so that two builds of one version tag their exports apart).
fn build_stamp() -> &'static str {
    static STAMP: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    STAMP.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .ok()
            .map(|m| {
                let modified = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}:{modified}", m.len())
            })
            .unwrap_or_default();
        format!("{}+{exe}", env!("CARGO_PKG_VERSION"))
    })
}

/// The header of a PGN or CSV export that names the diagram puzzles left out (their ids).
pub const SKIPPED_HEADER: &str = "x-baroque-skipped";

/// Examples for the OpenAPI document, computed by the engine.
pub(crate) mod examples {
    use crate::api::routes::puzzles::examples::chameleon_stored;

    /// A collection of the Chameleon mate in 2 as PGN.
    pub fn pgn_export() -> String {
        crate::formats::pgn::write_all(chameleon_stored().as_slice()).0
    }

    /// A collection of the Chameleon mate in 2 as CSV.
    pub fn csv_export() -> String {
        crate::formats::csv::write_all(chameleon_stored().as_slice()).0
    }
}
