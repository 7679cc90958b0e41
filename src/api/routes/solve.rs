//! `POST /v1/solve`.

use crate::api::configuration::Limits;
use crate::api::model::{Object, SolveQuery, SolveRequest, SolveResponse};
use crate::api::problem::{ApiError, Problem};
use crate::api::ratelimit::Metered;
use crate::api::work::{Peer, Searches};
use actix_web::{post, web, HttpResponse};
/// Solve "mate in N"
///
/// Proves whether the side to move forces checkmate with its Nth move at the latest against every
/// defence (stalemate counts only under `stalemate: loss`). `result` is `mate` or `no_mate`, both
/// proven, or `unknown` when the node or time budget ran out first (with `proven_no_mate_within`,
/// the part that was proven). The answer lists every key (every first move that forces mate within
/// N, each with its exact length), the `cooks` (other first moves mating in N, besides the
/// intended `key` when one is sent), the `short_solutions` (mates in fewer than N), `sound`
/// (exactly one key, needing all N moves), and the solution tree: after each key every defence,
/// and for each defence every attacker move that still mates in time (`dual` when more than one
/// does), with the threat where the defender could pass.
///
/// The budget is `limits` (`nodes`, `millis`), each clamped to the server's maximum and named in
/// `clamped` when it was; so is `max_tree_nodes`. An N above the server's maximum is refused (422):
/// a smaller N would answer another question. At most a configured number of searches run at
/// once, off the HTTP workers and at a lower priority than them; one more is refused with 503 and
/// `Retry-After`. The answer comes within `limits.millis` plus 200 ms or 10 %, whichever is more,
/// in every phase (the search, the keys' lengths, the tree); `budget_exhausted_by` says which
/// limit ran out, and a tree cut short says `tree_truncated`. A search whose client disconnects is
/// stopped and its slot freed at once. A refused request (503) does not count against the rate
/// limit. Each client may
/// start a configured number of searches a minute (in bursts of a configured size); one more is
/// refused with 429 and `Retry-After`.
///
/// With `"game": "rococo"`, mate in N means forcing the capture of the enemy King: after the
/// attacker's Nth move at the latest, the defender has lost its King or has no move that keeps it
/// (a side with no move at all draws). Both Kings must be on the board (422 `not-applicable`
/// otherwise). `rules` does not apply; the FEN, `key` and every move of the answer use `coords`
/// (`standard` or `page`), and `rules` in the answer is null.
#[utoipa::path(
    tag = "solver",
    request_body(content = SolveRequest, description = "A FEN, N, and optionally the rule set, the budget, the intended key and the tree size"),
    responses(
        (status = 200, description = "What is proven: `mate`, `no_mate`, or `unknown` when the budget ran out", body = SolveResponse),
        (status = 400, description = "Malformed JSON (`malformed-json`), or a body that does not match the schema: unknown or missing fields, wrong types (a negative `mate_in` or limit), unknown rule names (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the server's `--body-timeout-ms` (`body-timeout`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the limit (`payload-too-large`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent as `application/json` (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`mate_in` 0 or above the server's maximum (`invalid-mate-in`, with `limit`), a zero budget or tree size (`invalid-limits`), an unreadable FEN (`invalid-fen`), an impossible position (`impossible-position`), a `key` that is not a legal move (`invalid-key`), or `coords: page` with Baroque, `rules` with Rococo, or a Rococo position without both Kings (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its searches (`rate-limited`, with `limit`, the searches a minute); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 499, description = "The client closed its side of the connection before the answer was ready (`client-closed`): the work was stopped; a client that shuts down its sending side early is treated as gone", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every search slot is taken (`solver-busy`, with `limit`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/solve")]
pub async fn solve(
    _metered: Metered,
    body: web::Json<Object<SolveRequest>>,
    limits: web::Data<Limits>,
    searches: web::Data<Searches>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let mut query = SolveQuery::parse(body.into_inner().0, &limits.solve)?;
    let slot = searches.try_acquire()?;
    let response = searches
        .run(slot, peer, move |cancel| {
            query.options.cancel = cancel.clone();
            solve_query(&query)
        })
        .await?;
    Ok(HttpResponse::Ok().json(response))
}

/// Runs a parsed solve request (blocking: call it off the async workers).
pub fn solve_query(query: &SolveQuery) -> SolveResponse {
    let solution = crate::solver::solve_any(&query.position.position, &query.options);
    SolveResponse::new(query, &solution)
}
