//! `POST /v1/solve`.

use crate::api::configuration::Limits;
use crate::api::model::{GamePosition, KeyChoice, Object, SolveQuery, SolveRequest, SolveResponse};
use crate::api::problem::{ApiError, Problem};
use crate::api::ratelimit::Metered;
use actix_web::{post, web, HttpResponse};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The search slots of the server: at most `max` searches run at once, and a request that finds
/// every slot taken is refused at once (503) rather than queued behind searches of seconds.
#[derive(Debug)]
pub struct SolveSlots {
    in_use: Arc<AtomicUsize>,
    max: usize,
}

/// A taken slot, given back when dropped (when the search ends, even if the client left).
#[derive(Debug)]
pub struct SolveSlot(Arc<AtomicUsize>);

impl Drop for SolveSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl SolveSlots {
    pub fn new(max: usize) -> SolveSlots {
        SolveSlots {
            in_use: Arc::new(AtomicUsize::new(0)),
            max: max.max(1),
        }
    }

    /// Takes a slot, or `None` when all are taken.
    pub fn try_acquire(&self) -> Option<SolveSlot> {
        self.in_use
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| SolveSlot(Arc::clone(&self.in_use)))
    }

    /// The number of slots.
    pub fn max(&self) -> usize {
        self.max
    }
}

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
/// once, off the HTTP workers; one more is refused with 503 and `Retry-After`. Each client may
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
        (status = 413, description = "The body is larger than the limit (`payload-too-large`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent as `application/json` (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`mate_in` 0 or above the server's maximum (`invalid-mate-in`, with `limit`), a zero budget or tree size (`invalid-limits`), an unreadable FEN (`invalid-fen`), an impossible position (`impossible-position`), a `key` that is not a legal move (`invalid-key`), or `coords: page` with Baroque, `rules` with Rococo, or a Rococo position without both Kings (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its searches (`rate-limited`, with `limit`, the searches a minute); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 503, description = "Every search slot is taken (`solver-busy`, with `limit`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/solve")]
pub async fn solve(
    _metered: Metered,
    body: web::Json<Object<SolveRequest>>,
    limits: web::Data<Limits>,
    slots: web::Data<SolveSlots>,
) -> Result<HttpResponse, ApiError> {
    let query = SolveQuery::parse(body.into_inner().0, &limits.solve)?;
    let slot = slots.try_acquire().ok_or(ApiError::SolverBusy {
        limit: slots.max() as u64,
        retry_after: limits.solve.max_millis.div_ceil(1000).max(1),
    })?;
    let response = web::block(move || {
        let _slot = slot;
        solve_query(&query)
    })
    .await?;
    Ok(HttpResponse::Ok().json(response))
}

/// Runs a parsed solve request (blocking: call it off the async workers).
pub fn solve_query(query: &SolveQuery) -> SolveResponse {
    match (&query.position, query.key) {
        (GamePosition::Baroque(p), key) => {
            let key = match key {
                Some(KeyChoice::Baroque(mv)) => Some(mv),
                _ => None,
            };
            let solution = crate::solver::solve(&p.position, &query.options.with_key(key));
            SolveResponse::new(query, &solution)
        }
        (GamePosition::Rococo(p), key) => {
            let key = match key {
                Some(KeyChoice::Rococo(mv)) => Some(mv),
                _ => None,
            };
            let solution = crate::solver::solve(&p.position, &query.options.with_key(key));
            SolveResponse::new(query, &solution)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SolveSlots;

    #[test]
    fn slots_are_given_back_when_dropped() {
        let slots = SolveSlots::new(2);
        let a = slots.try_acquire().unwrap();
        let b = slots.try_acquire().unwrap();
        assert!(slots.try_acquire().is_none());
        drop(a);
        let c = slots.try_acquire().unwrap();
        assert!(slots.try_acquire().is_none());
        drop((b, c));
        assert!(slots.try_acquire().is_some());
    }
}
