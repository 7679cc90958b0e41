//! `/v1/puzzles`: the puzzle store. Reads are open; writes need the bearer token.

use crate::api::configuration::Limits;
use crate::api::model::{
    Object, Puzzle, PuzzleListQuery, PuzzlePage, PuzzleRequest, DEFAULT_PAGE, MAX_PAGE,
};
use crate::api::problem::{ApiError, Problem};
use crate::api::ratelimit::RateLimiter;
use crate::api::startup::WriteToken;
use crate::api::work::{Peer, Searches};
use crate::store::{Filter, Kind, Store};
use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{delete, get, post, web, FromRequest, HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};
use std::future::{ready, Ready};

/// A request allowed to write: it carries `Authorization: Bearer <token>` with the configured
/// token. As an extractor placed first, it refuses before the body is read.
pub struct Writer;

/// Whether two secrets are equal, in time that depends on neither: their SHA-256 digests (of fixed
/// length) are compared byte by byte without an early exit.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (x, y) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    let diff = x
        .iter()
        .zip(y.iter())
        .fold(0u8, |acc, (p, q)| acc | (p ^ q));
    std::hint::black_box(diff) == 0
}

impl Writer {
    fn check(req: &HttpRequest) -> Result<Writer, ApiError> {
        let configured = req
            .app_data::<web::Data<WriteToken>>()
            .and_then(|t| t.0.clone())
            .ok_or(ApiError::WritesDisabled)?;
        let sent = req
            .headers()
            .get(header::AUTHORIZATION)
            .ok_or_else(|| {
                ApiError::Unauthorized(
                    "this write needs the header `Authorization: Bearer <token>`".into(),
                )
            })?
            .to_str()
            .ok()
            .and_then(|v| {
                v.strip_prefix("Bearer ")
                    .or_else(|| v.strip_prefix("bearer "))
            })
            .map(str::trim)
            .ok_or_else(|| {
                ApiError::Unauthorized("the `Authorization` header must be `Bearer <token>`".into())
            })?;
        if same_secret(sent, &configured) {
            Ok(Writer)
        } else {
            Err(ApiError::Unauthorized(
                "the bearer token is not the write token".into(),
            ))
        }
    }
}

impl FromRequest for Writer {
    type Error = ApiError;
    type Future = Ready<Result<Writer, ApiError>>;
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Writer::check(req))
    }
}

/// Store a puzzle
///
/// Verifies the puzzle and stores it: a diagram is replayed with the rules engine (every move but
/// the last must be legal; the last must be legal or not as `legal` says, capture exactly
/// `captures`, and leave `status` when given), a mate is solved under the server's budget (it must
/// mate in `mate_in`; `keys` and `sound` are checked when given). Nothing is written unless it
/// verifies. A Rococo puzzle (`game: rococo`) takes no `rules`; it may name its squares in the
/// Rococo page's coordinates (`coords: page`) and is stored in standard ones; a Rococo mate means
/// forcing the capture of the enemy King (both Kings on the board). 201 with the stored puzzle,
/// or 200 with the one already stored when the same content (kind, game, canonical FEN, rules,
/// moves, N) is there. Needs `Authorization: Bearer <token>`. A mate counts against the
/// client's rate limit of searches, as `/v1/solve` does (429 with `Retry-After`).
#[utoipa::path(
    tag = "puzzles",
    request_body(content = PuzzleRequest, description = "A diagram (`moves`, `captures`, optional `status`) or a mate (`mate_in`)"),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Verified and stored", body = Puzzle,
            headers(("Location" = String, description = "The stored puzzle's URL"))),
        (status = 200, description = "Already stored: the existing puzzle", body = Puzzle),
        (status = 400, description = "Malformed JSON or a body that does not match the schema", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No bearer token, or not the write token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "No write token is configured (`writes-disabled`; the detail says how to set one)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the server's `--body-timeout-ms` (`body-timeout`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the limit", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent as `application/json`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The puzzle does not verify (`puzzle-not-verified`, with `reasons`), the solver's budget ran out (`solver-budget-exhausted`), an unreadable FEN or impossible position, or `coords: page` with Baroque or `rules` with Rococo (`not-applicable`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "A mate runs a search, and this client has used its searches (`rate-limited`, as for `/v1/solve`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 499, description = "The client closed its side of the connection before the answer was ready (`client-closed`): the work was stopped; a client that shuts down its sending side early is treated as gone", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "A mate needs a search slot and all are taken (`solver-busy`), or the store cannot write now: disk full, read-only, locked (`store-unavailable`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/puzzles")]
pub async fn create(
    _writer: Writer,
    req: HttpRequest,
    body: web::Json<Object<PuzzleRequest>>,
    store: web::Data<Store>,
    limits: web::Data<Limits>,
    searches: web::Data<Searches>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let new = body.into_inner().0.into_new_puzzle()?;
    let solve = limits.solve.options();
    let store = store.into_inner();
    let (stored, inserted) = if new.kind == Kind::Mate {
        // A mate runs a search: it counts against the client's rate limit as a solve does, takes a
        // search slot and runs on the search threads, stopped if the client goes away.
        if let Some(limiter) = req.app_data::<web::Data<RateLimiter>>() {
            limiter.check(&req)?;
        }
        let slot = searches.try_acquire()?;
        searches
            .run(slot, peer, move |cancel| {
                let solve = crate::solver::SolveOptions {
                    cancel: cancel.clone(),
                    ..solve
                };
                crate::app::verify_and_store(&store, new, &solve)
            })
            .await??
    } else {
        web::block(move || crate::app::verify_and_store(&store, new, &solve)).await??
    };
    let id = stored.id;
    let body = Puzzle::from_stored(stored, true);
    Ok(if inserted {
        HttpResponse::Created()
            .insert_header((header::LOCATION, format!("/v1/puzzles/{id}")))
            .json(body)
    } else {
        HttpResponse::Ok().json(body)
    })
}

/// List puzzles
///
/// The stored puzzles by increasing id, filtered by `kind`, `game`, `rules` (a Baroque preset),
/// `mate_in`, `tag` and `source`, a page at a time: pass the answer's `next_cursor` as `cursor` for the next page
/// (null on the last). Each item carries its id, kind, canonical FEN, rules, source, title, and for
/// a diagram its moves and the captures the engine verified.
#[utoipa::path(
    tag = "puzzles",
    params(PuzzleListQuery),
    responses(
        (status = 200, description = "One page", body = PuzzlePage),
        (status = 400, description = "An unknown parameter, a bad value, a `limit` outside 1 to 200, a `mate_in` outside 1 to 12 or an unreadable `cursor` (`invalid-parameter`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store cannot answer now: locked or failing (`store-unavailable`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/v1/puzzles")]
pub async fn list(
    query: web::Query<PuzzleListQuery>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner();
    let limit = q.limit.unwrap_or(DEFAULT_PAGE);
    if limit == 0 || limit > MAX_PAGE {
        return Err(ApiError::InvalidParameter {
            parameter: "limit",
            message: format!("{limit} is outside 1 to {MAX_PAGE}"),
        });
    }
    if let Some(n) = q
        .mate_in
        .filter(|n| !(1..=crate::solver::MAX_MATE_IN).contains(n))
    {
        return Err(ApiError::InvalidParameter {
            parameter: "mate_in",
            message: format!("{n} is outside 1 to {}", crate::solver::MAX_MATE_IN),
        });
    }
    let after = match &q.cursor {
        None => 0,
        Some(c) => c
            .parse::<i64>()
            .ok()
            .filter(|_| (1..=18).contains(&c.len()) && c.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| ApiError::InvalidParameter {
                parameter: "cursor",
                message: format!("{c:?} is not a cursor this service gave (digits)"),
            })?,
    };
    let filter = Filter {
        kind: q.kind.map(Into::into),
        game: q.game.map(Into::into),
        preset: q
            .rules
            .map(|p| crate::rules::Preset::from(p).name().to_string()),
        mate_in: q.mate_in,
        tag: q.tag,
        source: q.source,
    };
    let store = store.into_inner();
    let (items, more) = web::block(move || store.list(&filter, after, limit)).await??;
    let next_cursor = more
        .then(|| items.last().map(|p| p.id.to_string()))
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
/// One stored puzzle with its verified outcome (for a mate: keys, cooks, short solutions,
/// soundness and the solution tree).
#[utoipa::path(
    tag = "puzzles",
    params(("id" = i64, Path, description = "The puzzle's id")),
    responses(
        (status = 200, description = "The puzzle", body = Puzzle),
        (status = 404, description = "No puzzle has this id (`not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store cannot answer now: locked or failing (`store-unavailable`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[get("/v1/puzzles/{id}")]
pub async fn get_one(
    req: HttpRequest,
    id: web::Path<i64>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let store = store.into_inner();
    match web::block(move || store.get(id)).await?? {
        Some(p) => Ok(HttpResponse::Ok().json(Puzzle::from_stored(p, true))),
        None => Err(ApiError::NotFound {
            path: req.path().to_string(),
        }),
    }
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
        (status = 404, description = "No puzzle has this id (`not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The store cannot answer now: locked or failing (`store-unavailable`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[delete("/v1/puzzles/{id}")]
pub async fn delete_one(
    _writer: Writer,
    req: HttpRequest,
    id: web::Path<i64>,
    store: web::Data<Store>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let store = store.into_inner();
    if web::block(move || store.delete(id)).await?? {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::NotFound {
            path: req.path().to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::same_secret;

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("s3cret", "s3cret"));
        assert!(!same_secret("s3cret", "s3cres"));
        assert!(!same_secret("s3cret", "s3cret "));
        assert!(!same_secret("", "s3cret"));
    }
}
