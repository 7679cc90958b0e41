//! `POST /v1/solve`: the handler; the request and answer are wire types
//! ([`crate::api::wire::solve`]), the use case is the app's ([`crate::app::solve`]).

use crate::api::common::Object;
use crate::api::configuration::Limits;
use crate::api::costly_work::{Peer, Searches};
use crate::api::problem::{ApiError, ClientClosedProblem, JsonBodyProblems, Problem};
use crate::api::ratelimit::Metered;
use crate::api::wire::solve::{examples, SolveRequest, SolveResponse, SolveResult};
use crate::app::solve::SolveQuery;
use actix_web::{post, web, HttpResponse};

/// Solve a puzzle of any stipulation
///
/// Solves `stipulation`: `#N` (the default, with `mate_in`), `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`,
/// `h=N`, `h=N.5`, `r#N`, `semi-r#N`, `ser-#N`, `ser-=N`, `ser-s#N` or `ser-h#N`, with `tries`,
/// `threats`, `set_play` and `twins` on request; a helpmate or a series mover answers every
/// solution line. For `#N` it proves whether the side to move forces checkmate with its Nth move at
/// the latest against every defence (stalemate counts only under `stalemate: loss`). `result` is `mate` or `no_mate`, both
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
/// With `"format": "text"` (or, without `format`, an `Accept` header preferring `text/plain`),
/// the answer is the solution in problem notation, `text/plain`: the stipulation, the set play,
/// each try `1.X?` with its refutations `1...Y!`, each key `1.X!` with its threat in parentheses
/// and its tree indented by ply (defences `1...Y`, `(dual)` when several replies fulfil the
/// stipulation, replies `2.Z`), helpmate and series lines numbered, twins under `a)`, `b)`, and
/// each move marked `#`, `=` or `+` by the position it leaves; `"notation": "figurine"` writes
/// figurines. Errors stay `application/problem+json`.
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
        JsonBodyProblems,
        ClientClosedProblem,
        (status = 200, description = "What is proven: `mate`, `no_mate`, or `unknown` when the budget ran out; with `\"format\": \"text\"` (or, without `format`, an `Accept` header preferring `text/plain`) the solution in problem notation",
            content(
                (SolveResponse = "application/json"),
                (String = "text/plain; charset=utf-8", example = json!(examples::solve_text())),
            )),
        (status = 422, description = "`mate_in` (or the N of `stipulation`) 0 or above the server's maximum (`invalid-mate-in`, with `limit`), an unreadable `stipulation`, one that disagrees with `mate_in`, or an `intended_solutions` out of range (`invalid-stipulation`), a side to move that is not the one the stipulation starts with (`stipulation-side`), a zero budget or tree size (`invalid-limits`), an unreadable FEN (`invalid-fen`), an impossible position (`impossible-position`), a `key` that is not a legal move (`invalid-key`), or `coords: page` with Baroque, `rules` with Rococo, or a Rococo position without both Kings (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its searches (`rate-limited`, with `limit`, the searches a minute); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 503, description = "Every search slot is taken (`solver-busy`, with `limit`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/solve")]
pub async fn solve(
    _metered: Metered,
    request: actix_web::HttpRequest,
    body: web::Json<Object<SolveRequest>>,
    limits: web::Data<Limits>,
    searches: web::Data<Searches>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner().0;
    let asks_text = body.format.is_none() && accepts_text(&request);
    let mut query = SolveQuery::parse(body.input(asks_text), &limits.solve)?;
    let slot = searches.try_acquire()?;
    let report = searches
        .run(slot, peer, move |cancel| {
            query.options.cancel = cancel.clone();
            crate::app::solve::run(&query)
        })
        .await?;
    let response = SolveResponse::from(&report);
    let outcome = match response.result {
        SolveResult::Mate => "mate",
        SolveResult::NoMate => "no_mate",
        SolveResult::Unknown => "unknown",
    };
    metrics::counter!("baroque_solver_searches_total", "outcome" => outcome).increment(1);
    metrics::counter!("baroque_solver_nodes_total").increment(response.nodes);
    // The answer's form depends on `Accept`: caches must key on it.
    let vary = (actix_web::http::header::VARY, "Accept");
    Ok(match report.text {
        Some(text) => HttpResponse::Ok()
            .content_type(crate::puzzle::formats::text::CONTENT_TYPE)
            .insert_header(vary)
            .body(text),
        None => HttpResponse::Ok().insert_header(vary).json(response),
    })
}

/// Whether the request's `Accept` header prefers `text/plain` to `application/json` (RFC 9110:
/// each media type takes the quality of the most specific range that matches it, `text/plain`
/// over `text/*` over `*/*`; a type no range matches has quality 0); a tie answers JSON.
fn accepts_text(request: &actix_web::HttpRequest) -> bool {
    // For each of text/plain and application/json: (specificity, quality) of the best match.
    let mut text: Option<(u8, f32)> = None;
    let mut json: Option<(u8, f32)> = None;
    let mut seen = false;
    for value in request.headers().get_all(actix_web::http::header::ACCEPT) {
        let Ok(value) = value.to_str() else { continue };
        for range in value.split(',') {
            let mut parts = range.split(';');
            let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            if media.is_empty() {
                continue;
            }
            seen = true;
            let q = parts
                .filter_map(|p| {
                    let (name, value) = p.split_once('=')?;
                    name.trim().eq_ignore_ascii_case("q").then(|| value.trim())
                })
                .find_map(|q| q.parse::<f32>().ok())
                .filter(|q| q.is_finite())
                .unwrap_or(1.0)
                .clamp(0.0, 1.0);
            let offer = |slot: &mut Option<(u8, f32)>, specificity: u8| {
                if slot.is_none_or(|(s, _)| specificity > s) {
                    *slot = Some((specificity, q));
                }
            };
            match media.as_str() {
                "text/plain" => offer(&mut text, 2),
                "text/*" => offer(&mut text, 1),
                "application/json" => offer(&mut json, 2),
                "application/*" => offer(&mut json, 1),
                "*/*" => {
                    offer(&mut text, 0);
                    offer(&mut json, 0);
                }
                _ => {}
            }
        }
    }
    let quality = |slot: Option<(u8, f32)>| slot.map_or(0.0, |(_, q)| q);
    seen && quality(text) > quality(json)
}
