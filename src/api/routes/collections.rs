//! `/v1/collections` and `/v1/jobs`: generated puzzle collections. Reads are open; starting a
//! generation needs the write token. A generation runs as a job on its own thread, off the HTTP
//! workers: the request that starts it gets 202 and the job's URL at once, the job goes on when the
//! client leaves, and at most `--max-jobs` run at once.

use crate::api::auth::Writer;
use crate::api::common::{none_match, Object};
use crate::api::configuration::Limits;
use crate::api::problem::{ApiError, JsonBodyProblems, Problem};
use crate::api::ratelimit::Metered;
use crate::api::wire::Puzzle;
use crate::app::jobs::{Jobs, StartError};
use crate::app::library::{valid_name, StoreError};
use crate::app::Library;
use crate::formats::Format;
use crate::generate::GenerateOptions;
use crate::rules::{GameKind, Rules, Variant};
use actix_web::http::header;
use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use std::time::Duration;

use crate::api::export_stream::{export_tag, stream, ExportSlots, EXPORT_SEND_WAIT};
use crate::api::wire::collections::{
    examples, CollectionInfo, CollectionList, CollectionPuzzles, CollectionRequest, ExportQuery,
    Job, JobState,
};
pub use crate::api::wire::json_line;

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

/// The header of a PGN or CSV export that names the diagram puzzles left out (their ids).
pub const SKIPPED_HEADER: &str = "x-baroque-skipped";
