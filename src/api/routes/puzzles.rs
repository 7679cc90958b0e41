//! `/v1/puzzles`: the puzzle store. Reads are open; writes need the bearer token.

use crate::api::auth::Writer;
use crate::api::common::{tagged_response, Object};
use crate::api::configuration::Limits;
use crate::api::costly_work::{Peer, Searches};
use crate::api::problem::{
    ApiError, ClientClosedProblem, JsonBodyProblems, Problem, PuzzleNotFoundProblem,
    StoreUnavailableProblem,
};
use crate::api::ratelimit::{Metered, RateLimiter};
use crate::app::Library;
use crate::puzzle::Claim;
use crate::puzzle::Kind;
use actix_web::http::header;
use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};

use crate::api::wire::database::AnticipationPolicy;
use crate::api::wire::puzzles::{
    examples, AttemptRequest, AttemptResponse, GameResult, NextPuzzleQuery, PgnGameResult,
    PgnResults, PlayerRating, PostQuery, PuzzleAnswer, PuzzleListQuery, PuzzlePage, PuzzleQuery,
    PuzzleRequest, PuzzleSort,
};
use crate::api::wire::Puzzle;

/// The most games one PGN body may hold.
pub const MAX_PGN_GAMES: usize = 100;

/// A puzzle post's body: JSON (`application/json`), or PGN text (`application/x-chess-pgn`). Any
/// other content type is refused as the JSON extractor refuses it (415).
#[derive(Clone, Debug)]
pub enum PuzzleBody {
    Json(Box<PuzzleRequest>),
    Pgn(String),
}

/// Whether a request's body is PGN.
fn is_pgn(req: &HttpRequest) -> bool {
    use actix_web::HttpMessage;
    req.mime_type()
        .ok()
        .flatten()
        .is_some_and(|m| m.essence_str() == crate::formats::pgn::CONTENT_TYPE)
}

/// A payload's read error as a problem: a late body is 408.
fn payload_error(e: actix_web::error::PayloadError) -> ApiError {
    match e {
        actix_web::error::PayloadError::Overflow => ApiError::PayloadTooLarge { limit: 0 },
        actix_web::error::PayloadError::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
            ApiError::BodyTimeout {
                millis: crate::api::body_deadline::timeout_millis(&io),
            }
        }
        other => ApiError::Payload(other.to_string()),
    }
}

/// Reads a text body of at most `limit` bytes.
async fn read_text(
    mut payload: actix_web::dev::Payload,
    limit: usize,
    announced: Option<u64>,
) -> Result<String, ApiError> {
    use futures_core::Stream;
    let too_large = ApiError::PayloadTooLarge {
        limit: limit as u64,
    };
    if announced.is_some_and(|n| n > limit as u64) {
        return Err(too_large);
    }
    let mut body = Vec::new();
    while let Some(chunk) =
        std::future::poll_fn(|cx| std::pin::Pin::new(&mut payload).poll_next(cx)).await
    {
        let chunk = chunk.map_err(payload_error)?;
        if body.len() + chunk.len() > limit {
            return Err(too_large);
        }
        body.extend_from_slice(&chunk);
    }
    String::from_utf8(body).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        ApiError::InvalidPgn {
            game: None,
            line: e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1,
            message: "the body is not UTF-8 text".into(),
        }
    })
}

impl actix_web::FromRequest for PuzzleBody {
    type Error = actix_web::Error;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<PuzzleBody, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut actix_web::dev::Payload) -> Self::Future {
        if is_pgn(req) {
            let limit = req.app_data::<web::Data<Limits>>().map_or(
                crate::api::configuration::DEFAULT_MAX_BODY_BYTES as usize,
                |l| l.max_body_bytes,
            );
            let announced = req
                .headers()
                .get(header::CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok());
            let payload = payload.take();
            Box::pin(async move {
                read_text(payload, limit, announced)
                    .await
                    .map(PuzzleBody::Pgn)
                    .map_err(Into::into)
            })
        } else {
            let json = web::Json::<Object<PuzzleRequest>>::from_request(req, payload);
            Box::pin(async move {
                json.await
                    .map(|j| PuzzleBody::Json(Box::new(j.into_inner().0)))
            })
        }
    }
}

/// A puzzle to verify and store: posted as JSON, or read from a PGN game (with the line it
/// states, checked against the proof).
enum Pending {
    Posted(crate::puzzle::NewPuzzle),
    Read(crate::formats::ReadPuzzle),
}

impl Pending {
    fn puzzle(&self) -> &crate::puzzle::NewPuzzle {
        match self {
            Pending::Posted(p) => p,
            Pending::Read(r) => &r.puzzle,
        }
    }

    fn kind(&self) -> Kind {
        self.puzzle().claim.kind()
    }

    /// A mate whose N is above the server's maximum is refused before any search, as
    /// `/v1/solve` refuses it.
    fn check_mate_in(&self, max: u32) -> Result<(), ApiError> {
        match &self.puzzle().claim {
            Claim::Mate(m) if m.stipulation.moves() > max => Err(ApiError::InvalidMateIn {
                mate_in: m.stipulation.moves(),
                max,
            }),
            _ => Ok(()),
        }
    }

    fn verify_and_store(
        self,
        library: &Library,
        solve: &crate::solver::SolveOptions,
    ) -> Result<(crate::puzzle::StoredPuzzle, bool), crate::app::StoreOutcomeError> {
        match self {
            Pending::Posted(p) => library.verify_and_store(p, solve),
            Pending::Read(r) => library.verify_and_store_read(r, solve),
        }
    }
}

/// Verifies and stores one puzzle: a mate counts against the client's rate limit as a solve does,
/// takes a search slot and runs on the search threads, stopped if the client goes away; a diagram
/// is replayed on the blocking pool.
async fn store_one(
    req: &HttpRequest,
    library: &web::Data<Library>,
    limits: &Limits,
    searches: &Searches,
    peer: Peer,
    pending: Pending,
    within: Option<std::sync::Arc<crate::solver::Budget>>,
) -> Result<(crate::puzzle::StoredPuzzle, bool), ApiError> {
    pending.check_mate_in(limits.solve.max_mate_in)?;
    let solve = crate::solver::SolveOptions {
        within,
        ..limits.solve.options()
    };
    let library = library.clone().into_inner();
    let (stored, inserted) = if pending.kind() == Kind::Mate {
        if let Some(limiter) = req.app_data::<web::Data<RateLimiter>>() {
            limiter.check(req)?;
        }
        let slot = searches.try_acquire()?;
        let verified = searches
            .run(slot, peer, move |cancel| {
                let solve = crate::solver::SolveOptions {
                    cancel: cancel.clone(),
                    ..solve
                };
                pending.verify_and_store(&library, &solve)
            })
            .await;
        let outcome = match &verified {
            Ok(Ok(_)) => "puzzle_verified",
            Ok(Err(_)) => "puzzle_refused",
            Err(_) => "stopped",
        };
        metrics::counter!("baroque_solver_searches_total", "outcome" => outcome).increment(1);
        verified??
    } else {
        web::block(move || pending.verify_and_store(&library, &solve)).await??
    };
    if inserted {
        metrics::counter!("baroque_puzzles_stored_total").increment(1);
    }
    Ok((stored, inserted))
}

/// 201 with the new puzzle and its `Location`, or 200 with the one stored before.
fn stored_response(stored: crate::puzzle::StoredPuzzle, inserted: bool) -> HttpResponse {
    let id = stored.id;
    let body = Puzzle::from_stored(stored, true);
    if inserted {
        HttpResponse::Created()
            .insert_header((header::LOCATION, format!("/v1/puzzles/{id}")))
            .json(body)
    } else {
        HttpResponse::Ok().json(body)
    }
}

/// Store a diagram, or a puzzle of any stipulation
///
/// Verifies the puzzle and stores it: a diagram is replayed with the rules engine (every move but
/// the last must be legal; the last must be legal or not as `legal` says, capture exactly
/// `captures`, and leave `status` when given), a mate is solved under the server's budget (it must
/// reach its `stipulation`, `#N` by default with `mate_in`: a direct mate or a selfmate must have
/// a key, a helpmate a solution; `keys`, `solutions` and `sound` are checked when given, with the
/// reasons of any difference in a 422 `puzzle-not-verified`). Nothing is written unless it
/// verifies. A Rococo puzzle (`game: rococo`) takes no `rules`; it may name its squares in the
/// Rococo page's coordinates (`coords: page`) and is stored in standard ones; a Rococo mate means
/// forcing the capture of the enemy King (both Kings on the board). 201 with the stored puzzle,
/// or 200 with the one already stored when the same content (kind, game, canonical FEN, rules,
/// moves, stipulation) is there. Needs `Authorization: Bearer <token>`. A mate counts against the
/// client's rate limit of searches, as `/v1/solve` does (429 with `Retry-After`).
///
/// With `Content-Type: application/x-chess-pgn` the body is PGN, a game per puzzle (as
/// `GET /v1/collections/{name}/export?format=pgn` writes them): `Variant` (`Baroque` or `Rococo`),
/// `SetUp "1"` and `FEN` are needed; `Rules` (Baroque), `Stipulation` (without it, a main line
/// that ends in mate stands for `#N`), `Event` (the title), `Site` (the source), `Caption` and
/// `Tags` (space-separated) are read; the movetext's main line (variations, comments and NAGs are
/// skipped; moves in any notation `/v1/verify` reads) states a solution: its first move must be
/// a key (a helpmate's line: one of its solutions), or the game is refused with 422
/// `puzzle-not-verified`. Each game is verified like a JSON post of it, under the same token,
/// rate limit (a search per game) and budget. A body of one game is answered as a JSON post is; a
/// body of several (at most 100) is answered 200 with a result per game (`game`, `line`,
/// `status`, `result`, and `puzzle` or `problem`) and the counts `created`, `existing`,
/// `rejected` and `unknown`. A game that cannot be read is 422 `invalid-pgn`, naming its `game`
/// and `line`. The games of such a body share one budget (`nodes` and `millis` in the query, at
/// most and by default the server's ceilings of a solve): a game it did not reach, or whose
/// search it cut short, is `unknown` (`solver-budget-exhausted`, not stored: send it again).
///
/// A mate stated by its stipulation alone (a PGN game's main line is checked against the stored
/// proof) whose content is stored already is answered from the store, without a search. A
/// stipulation whose N is above the server's `--solve-max-mate-in` is refused at once with 422
/// `invalid-mate-in`, as `/v1/solve` refuses it.
#[utoipa::path(
    tag = "puzzles",
    request_body(
        description = "A diagram (`moves`, `captures`, optional `status`) or a mate (`mate_in` or `stipulation`) as JSON; or PGN games",
        content(
            (PuzzleRequest = "application/json"),
            (String = "application/x-chess-pgn", example = json!(examples::pgn_game())),
        )
    ),
    security(("bearer" = [])),
    params(PostQuery),
    responses(
        ClientClosedProblem,
        (status = 201, description = "Verified and stored (a JSON body, or a PGN body of one game)", body = Puzzle,
            headers(("Location" = String, description = "The stored puzzle's URL"))),
        (status = 200, description = "A JSON body or a PGN body of one game: already stored, the existing puzzle. A PGN body of several games: a result per game, in order, and the counts", body = PuzzleAnswer,
            examples(
                ("Already stored" = (value = json!(examples::puzzle()))),
                ("Several games" = (value = json!(examples::pgn_results()))),
            )),
        (status = 400, description = "Malformed JSON or a body that does not match the schema, or a `nodes` or `millis` that is not a number (`invalid-parameter`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No bearer token, or not the write token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "No write token is configured (`writes-disabled`; the detail says how to set one)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the server's `--body-timeout-ms` (`body-timeout`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the limit", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is sent neither as `application/json` nor as `application/x-chess-pgn`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The puzzle does not verify (`puzzle-not-verified`, with `reasons`; for PGN also a main line whose first move is not a key), the solver's budget ran out (`solver-budget-exhausted`), N above the server's maximum (`invalid-mate-in`, with `limit`), an unreadable FEN or impossible position, `coords: page` with Baroque or `rules` with Rococo (`not-applicable`), or a PGN body or game that cannot be read (`invalid-pgn`, with `line` and `game`: no game, a bad tag, no `Variant` or `FEN`, a move that is not legal, more than 100 games)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "A mate runs a search, and this client has used its searches (`rate-limited`, as for `/v1/solve`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 503, description = "A mate needs a search slot and all are taken (`solver-busy`), or the store cannot write now: disk full, read-only, locked (`store-unavailable`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/puzzles")]
pub async fn create(
    _writer: Writer,
    req: HttpRequest,
    body: PuzzleBody,
    library: web::Data<Library>,
    limits: web::Data<Limits>,
    searches: web::Data<Searches>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let query = PostQuery::read(req.query_string())?;
    let one = match body {
        PuzzleBody::Json(request) => {
            let refuse = request.anticipation == Some(AnticipationPolicy::Refuse);
            let new = request.into_new_puzzle()?;
            Pending::Posted(match refuse {
                true => super::database::refuse_anticipated(&library, new).await?,
                false => new,
            })
        }
        PuzzleBody::Pgn(text) => {
            let mut reads = crate::formats::pgn::read(&text)?;
            if let Some(extra) = reads.get(MAX_PGN_GAMES) {
                let line = match extra {
                    Ok(r) => r.place.line,
                    Err(e) => e.start,
                };
                return Err(ApiError::InvalidPgn {
                    game: Some(MAX_PGN_GAMES + 1),
                    line,
                    message: format!(
                        "the body holds {} games; a request takes at most {MAX_PGN_GAMES} (send \
                         the rest in another, or use `baroque import`)",
                        reads.len()
                    ),
                });
            }
            if reads.len() != 1 {
                let within = query.budget(&limits.solve);
                let answer = store_games(&req, &library, &limits, &searches, peer, reads, within);
                return Ok(HttpResponse::Ok().json(answer.await?));
            }
            match reads.pop() {
                Some(Ok(read)) => Pending::Read(read),
                Some(Err(e)) => return Err(e.into()),
                None => return Err(ApiError::Internal("a game vanished".into())),
            }
        }
    };
    let (stored, inserted) = store_one(&req, &library, &limits, &searches, peer, one, None).await?;
    Ok(stored_response(stored, inserted))
}

/// Verifies and stores each game of a PGN body in turn, under one budget for them all; what
/// became of each. Only the client leaving ends it early.
async fn store_games(
    req: &HttpRequest,
    library: &web::Data<Library>,
    limits: &web::Data<Limits>,
    searches: &web::Data<Searches>,
    peer: Peer,
    reads: Vec<Result<crate::formats::ReadPuzzle, crate::formats::ReadError>>,
    within: crate::solver::Limits,
) -> Result<PgnResults, ApiError> {
    // One budget for the whole request, shared by its games' searches.
    let budget = std::sync::Arc::new(crate::solver::Budget::new(within));
    let mut answer = PgnResults {
        results: Vec::with_capacity(reads.len()),
        created: 0,
        existing: 0,
        rejected: 0,
        unknown: 0,
    };
    for (i, read) in reads.into_iter().enumerate() {
        let (line, outcome) = match read {
            Err(e) => (e.start, Err(ApiError::from(e))),
            // A game the budget did not reach is not verified: the client may send it again.
            Ok(read) if read.puzzle.claim.kind() == Kind::Mate && !budget.on_time() => (
                read.place.line,
                Err(ApiError::SolverBudgetExhausted(
                    "the request's budget ran out before this game was verified: it is not \
                     stored; send it again"
                        .into(),
                )),
            ),
            Ok(read) => {
                let line = read.place.line;
                let pending = Pending::Read(read);
                let within = Some(budget.clone());
                let stored = store_one(req, library, limits, searches, peer, pending, within).await;
                (line, stored)
            }
        };
        let result = match outcome {
            Ok((stored, inserted)) => {
                if inserted {
                    answer.created += 1;
                } else {
                    answer.existing += 1;
                }
                PgnGameResult {
                    game: i + 1,
                    line,
                    status: if inserted { 201 } else { 200 },
                    result: if inserted {
                        GameResult::Created
                    } else {
                        GameResult::Existing
                    },
                    puzzle: Some(Puzzle::from_stored(stored, true)),
                    problem: None,
                }
            }
            // The client left: nothing more is worked on.
            Err(ApiError::ClientClosed) => return Err(ApiError::ClientClosed),
            Err(e) => {
                let result = if matches!(e, ApiError::SolverBudgetExhausted(_)) {
                    answer.unknown += 1;
                    GameResult::Unknown
                } else {
                    answer.rejected += 1;
                    GameResult::Rejected
                };
                let problem = e.problem();
                PgnGameResult {
                    game: i + 1,
                    line,
                    status: problem.status,
                    result,
                    puzzle: None,
                    problem: Some(problem),
                }
            }
        };
        answer.results.push(result);
    }
    Ok(answer)
}

/// List and search puzzles by kind, game, rules, stipulation, pieces, history or text
///
/// The stored puzzles by increasing id, filtered by `kind`, `game`, `rules` (a Baroque preset),
/// `mate_in`, `stipulation` (URL-encoded: `%232` for `#2`), `tag`, `source`, `difficulty_min` and
/// `difficulty_max` (0 to 100; diagrams have no difficulty, so either leaves them out), `rating`,
/// and the problem database's search: `pieces`, `at`, `family` with `moves_min` and `moves_max`,
/// `author`, `keyword`, `award`, `year_min`, `year_max` and `text` (full text), all combinable,
/// each served by an index on both databases. A page at a time: pass the answer's `next_cursor`
/// as `cursor` for the next page (null on the last), with the same `sort`. `sort=difficulty`
/// orders by increasing difficulty, then id, and lists only puzzles that have one (mates);
/// `published` by publication date; `relevance` (with `text`) the best matches first. A search
/// the indexes cannot answer within its budget (2 s in the database) is 422
/// `search-too-broad`. Each item carries its id, kind, canonical FEN, rules, source, title, its
/// history, and for a diagram its moves and the captures the engine verified.
#[utoipa::path(
    tag = "puzzles",
    params(PuzzleListQuery),
    responses(
        (status = 200, description = "One page", body = PuzzlePage),
        (status = 400, description = "An unknown parameter, a bad value, a `limit` outside 1 to 200, a `mate_in` outside 1 to 12, a difficulty bound outside 0 to 100 or a `difficulty_min` above `difficulty_max`, an unknown `sort` (or `relevance` without `text`), an unreadable `stipulation`, `pieces`, `at`, `family`, length, year, `text` or `cursor`, or a cursor of the other order (`invalid-parameter`, naming it)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The search needed more than its budget in the database (`search-too-broad`, with `limit` in ms): narrow it with a filter the indexes serve", body = Problem, content_type = "application/problem+json"),
        StoreUnavailableProblem,
    )
)]
#[get("/v1/puzzles")]
pub async fn list(
    query: web::Query<PuzzleListQuery>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let (filter, sort, after, limit) = query.into_inner().read()?;
    let library = library.into_inner();
    let page = web::block(move || library.search(&filter, after, limit)).await??;
    let (items, last_relevance) = (page.items, page.last_relevance);
    let next_cursor = page
        .more
        .then(|| {
            items.last().map(|p| match sort {
                PuzzleSort::Id => p.id.to_string(),
                PuzzleSort::Difficulty => format!("{}.{}", p.difficulty.unwrap_or(0), p.id),
                PuzzleSort::Rating => {
                    format!("{}_{}", p.rating.map_or(0.0, |r| r.rating.value), p.id)
                }
                PuzzleSort::Published => {
                    format!("{}_{}", p.history.published.as_deref().unwrap_or(""), p.id)
                }
                PuzzleSort::Relevance => format!("{}_{}", last_relevance.unwrap_or(0.0), p.id),
            })
        })
        .flatten();
    Ok(HttpResponse::Ok().json(PuzzlePage {
        items: items
            .into_iter()
            .map(|p| Puzzle::from_stored(p, false))
            .collect(),
        next_cursor,
    }))
}

/// Get a puzzle
///
/// One stored puzzle, as the listing shows it; with `?include=outcome`, with its verified outcome
/// too (for a mate: keys, cooks, short solutions, soundness and the solution tree; for a
/// helpmate, its solutions, at most 100 of each length), which `GET /v1/puzzles/{id}/outcome`
/// also gives alone. A strong `ETag` (a hash of the answer) comes with it; a request whose
/// `If-None-Match` names it gets 304 without a body.
#[utoipa::path(
    tag = "puzzles",
    params(
        ("id" = i64, Path, description = "The puzzle's id"),
        PuzzleQuery,
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 when the puzzle is the same"),
    ),
    responses(
        (status = 200, description = "The puzzle", body = Puzzle,
            headers(("ETag" = String, description = "Strong: the first 128 bits of the answer's SHA-256"))),
        (status = 304, description = "Not modified: `If-None-Match` names the current `ETag`",
            headers(("ETag" = String, description = "The current ETag"))),
        (status = 400, description = "An `include` other than `outcome`, or an unknown parameter (`invalid-parameter`, naming it; `invalid-request`)", body = Problem, content_type = "application/problem+json"),
        PuzzleNotFoundProblem,
        StoreUnavailableProblem,
    )
)]
#[get("/v1/puzzles/{id}")]
pub async fn get_one(
    req: HttpRequest,
    id: web::Path<i64>,
    query: web::Query<PuzzleQuery>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let full = match query.into_inner().include.as_deref() {
        None => false,
        Some("outcome") => true,
        Some(other) => {
            return Err(ApiError::InvalidParameter {
                parameter: "include",
                message: format!(
                    "{:?} cannot be included: only `outcome`",
                    crate::api::request_echo::capped(other, 64)
                ),
            })
        }
    };
    tagged_read(&req, id.into_inner(), library, full, move |p| {
        serde_json::to_vec(&Puzzle::from_stored(p, full))
    })
    .await
}

/// Reads puzzle `id` (with its outcome when `outcome`) and answers `render` of it with its
/// `ETag`, or 404; the reading and the rendering run on the blocking pool, since a proof may be
/// large.
async fn tagged_read(
    req: &HttpRequest,
    id: i64,
    library: web::Data<Library>,
    outcome: bool,
    render: impl FnOnce(crate::puzzle::StoredPuzzle) -> serde_json::Result<Vec<u8>> + Send + 'static,
) -> Result<HttpResponse, ApiError> {
    let library = library.into_inner();
    let body = web::block(move || -> Result<_, ApiError> {
        let found = if outcome {
            library.puzzle(id)?
        } else {
            library.puzzle_lean(id)?
        };
        found
            .map(render)
            .transpose()
            .map_err(|e| ApiError::Internal(e.to_string()))
    })
    .await??;
    match body {
        Some(body) => Ok(tagged_response(req, "application/json", body)),
        None => Err(ApiError::NotFound {
            path: req.path().to_string(),
        }),
    }
}

/// Get a puzzle's outcome
///
/// A stored puzzle's verified outcome alone: for a diagram, `{legal, reason, notation, uci,
/// captures, status, frozen, fen_after}`; for `#N` and `s#N`, `{result, stipulation, mate_in,
/// sound, keys, cooks, short_solutions, tree, tree_truncated, threats, tries}`; for a helpmate,
/// `{result, stipulation, sound, solutions, count, short_solutions, solutions_truncated}` (at most
/// 100 lines of each length; `count` says how many solutions there are). A strong `ETag` comes
/// with it.
#[utoipa::path(
    tag = "puzzles",
    params(
        ("id" = i64, Path, description = "The puzzle's id"),
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 when the outcome is the same"),
    ),
    responses(
        (status = 200, description = "The verified outcome", body = Object,
            headers(("ETag" = String, description = "Strong: the first 128 bits of the answer's SHA-256"))),
        (status = 304, description = "Not modified: `If-None-Match` names the current `ETag`",
            headers(("ETag" = String, description = "The current ETag"))),
        PuzzleNotFoundProblem,
        StoreUnavailableProblem,
    )
)]
#[get("/v1/puzzles/{id}/outcome")]
pub async fn get_outcome(
    req: HttpRequest,
    id: web::Path<i64>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    tagged_read(&req, id.into_inner(), library, true, |p| {
        serde_json::to_vec(&p.outcome)
    })
    .await
}

/// The next puzzle for a player, of any stipulation
///
/// A stored mate puzzle whose rating is near the player's (`rating`), within the filters
/// (`game`, `stipulation` exact or a family such as `h#`, `theme`, `collection`), never one of
/// `exclude`: chosen at random (repeatable with `seed`) among the nearest ones, those within half
/// the `deviation` (at least 50 points) of the nearest one's rating. Answered from the rating
/// index (two walks, one on each side of the rating), without the puzzle's outcome. 404
/// `no-puzzle` when none is left.
#[utoipa::path(
    tag = "puzzles",
    params(NextPuzzleQuery),
    responses(
        (status = 200, description = "The puzzle, without its outcome", body = Puzzle),
        (status = 400, description = "An unknown parameter or a value of the wrong type (`invalid-request`), a rating, deviation or exclusion list out of range (`invalid-parameter`, with `parameter`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No stored puzzle matches (`no-puzzle`)", body = Problem, content_type = "application/problem+json"),
        StoreUnavailableProblem,
    )
)]
#[get("/v1/puzzles/next")]
pub async fn next(
    query: web::Query<NextPuzzleQuery>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let next = query.into_inner().read()?;
    let library = library.into_inner();
    match web::block(move || library.next_puzzle(&next)).await?? {
        Some(p) => Ok(HttpResponse::Ok().json(Puzzle::from_stored(p, false))),
        None => Err(ApiError::NoPuzzle),
    }
}

/// Record an attempt at a puzzle
///
/// A player's attempt at a stored mate puzzle, solved or not, posted by the site (it needs
/// `Authorization: Bearer <token>`: the visitor's browser never posts it). Each attempt is one
/// Glicko-2 rating period of one game between the puzzle and the player, the puzzle winning when
/// the player fails (τ 0.5, ε 0.000001, the Illinois iteration of Glickman's "Example of the
/// Glicko-2 system"). The answer is the puzzle's new rating, every attempt counted (attempts at
/// once lose none: the row is held while it is updated, on either database), and the player's
/// new rating after this one game. A player's rating out of range is 400 `invalid-rating` naming
/// the member; a diagram has no rating (422 `not-applicable`). Attempts are rate limited per
/// client as searches are.
#[utoipa::path(
    tag = "puzzles",
    params(("id" = i64, Path, description = "The puzzle's id")),
    request_body(content = AttemptRequest, description = "Whether the player solved it, and the player's rating"),
    security(("bearer" = [])),
    responses(
        JsonBodyProblems,
        (status = 200, description = "The puzzle's and the player's ratings after the attempt", body = AttemptResponse),
        (status = 400, description = "Malformed JSON (`malformed-json`), a body that does not match the schema (`invalid-request`), or a player's rating out of range (`invalid-rating`, with `field`: `player.rating`, `player.deviation` or `player.volatility`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No bearer token, or not the write token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "No write token is configured (`writes-disabled`)", body = Problem, content_type = "application/problem+json"),
        PuzzleNotFoundProblem,
        (status = 422, description = "The puzzle is a diagram (`not-applicable`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its requests (`rate-limited`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may try again"))),
        StoreUnavailableProblem,
    )
)]
#[post("/v1/puzzles/{id}/attempts")]
pub async fn attempt(
    _writer: Writer,
    _metered: Metered,
    id: web::Path<i64>,
    body: web::Json<Object<AttemptRequest>>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let request = body.into_inner().0;
    let player = request.player.unwrap_or_default().rating();
    let library = library.into_inner();
    let done = web::block(move || library.record_attempt(id, player, request.solved)).await??;
    metrics::counter!("baroque_puzzle_attempts_total", "solved" => if request.solved { "true" } else { "false" })
        .increment(1);
    Ok(HttpResponse::Ok().json(AttemptResponse {
        puzzle_id: id,
        puzzle: done.puzzle.into(),
        player: PlayerRating {
            rating: Some(done.player.value),
            deviation: Some(done.player.deviation),
            volatility: Some(done.player.volatility),
        },
    }))
}

/// Delete a puzzle
///
/// Removes a stored puzzle and its tags. Needs `Authorization: Bearer <token>`. 204 when it was
/// there, 404 when it was not.
#[utoipa::path(
    tag = "puzzles",
    params(("id" = i64, Path, description = "The puzzle's id")),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "No bearer token, or not the write token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "No write token is configured (`writes-disabled`)", body = Problem, content_type = "application/problem+json"),
        PuzzleNotFoundProblem,
        StoreUnavailableProblem,
    )
)]
#[delete("/v1/puzzles/{id}")]
pub async fn delete_one(
    _writer: Writer,
    req: HttpRequest,
    id: web::Path<i64>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let library = library.into_inner();
    if web::block(move || library.delete(id)).await?? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::NotFound {
            path: req.path().to_string(),
        })
    }
}
