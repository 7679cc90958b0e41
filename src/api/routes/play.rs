//! `POST /v1/play` and `POST /v1/puzzles/{id}/play`: the handlers; the requests and answer are
//! wire types ([`crate::api::wire::play`]), the use case is the app's ([`crate::app::judge`]).

use crate::api::common::Object;
use crate::api::configuration::Limits;
use crate::api::costly_work::{Peer, Searches};
use crate::api::problem::{
    ApiError, ClientClosedProblem, JsonBodyProblems, Problem, PuzzleNotFoundProblem,
};
use crate::api::ratelimit::{Metered, RateLimiter};
use crate::api::stored_plays::StoredPlays;
use crate::api::wire::play::{PlayRequest, PlayResponse, PlayVerdict, StoredPlayRequest};
use crate::app::judge::{judge, PlayQuery};
use crate::app::Library;
use crate::solver::play::NoProof;
use crate::solver::Cancel;
use actix_web::{post, web, HttpRequest, HttpResponse};

/// The problems every play endpoint may answer, besides its own.
const PLAY_422: &str = "More moves than the limit (`too-many-moves`), an unreadable or \
    disagreeing `stipulation` (`invalid-stipulation`), N above the server's maximum \
    (`invalid-mate-in`), a side to move that is not the one the stipulation starts with \
    (`stipulation-side`), a zero budget (`invalid-limits`), an unreadable FEN (`invalid-fen`), \
    an impossible position (`impossible-position`), or `coords: page` with Baroque, `rules` with \
    Rococo, a Rococo position without both Kings (`not-applicable`, with `field`)";

/// Play a puzzle of any stipulation move by move
///
/// The call a puzzle site makes after each move of a person solving a puzzle. `moves` are the
/// moves played so far by both sides: the solver's (White's, the side to move, for `#N` and
/// `s#N`; every move of a helpmate) and the replies the site was given. The answer judges the
/// solver's last move: `correct` (it still reaches the goal in time: the key, a cook, a short
/// solution or any continuation that wins), `solved` (it completes the stipulation), `wrong` (legal
/// but no longer winning in time, with the `refutation`) or `illegal` (with `first_illegal`, as
/// `/v1/verify` gives it). After a `correct` move, `reply` is the defence to play, chosen
/// deterministically: the one that resists longest, then the one leaving the fewest winning
/// answers, then the first in canonical order. `accepted` lists every solver move that would also
/// have been correct, `remaining` the solver's moves left, and with `"hint": true` `hint` is the
/// square of the piece to move next. Any mating move counts at the last step, as any winning move
/// does before it.
///
/// Each call is a search, budgeted and metered as `/v1/solve` (`limits`, the search slots, the
/// rate limit); when the budget runs out the verdict is `unknown`, or, when it ran out after the
/// verdict, `complete` is false.
#[utoipa::path(
    tag = "solver",
    request_body(content = PlayRequest, description = "A FEN, the stipulation and the moves played so far"),
    responses(
        JsonBodyProblems,
        ClientClosedProblem,
        (status = 200, description = "The judgement of the line", body = PlayResponse),
        (status = 422, description = PLAY_422, body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its searches (`rate-limited`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 503, description = "Every search slot is taken (`solver-busy`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/play")]
pub async fn play(
    _metered: Metered,
    body: web::Json<Object<PlayRequest>>,
    limits: web::Data<Limits>,
    searches: web::Data<Searches>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let query = PlayQuery::parse(body.into_inner().0.input(), &limits.solve, limits.max_moves)?;
    let slot = searches.try_acquire()?;
    let response = searches
        .run(slot, peer, move |cancel| {
            PlayResponse::of(&query, &judge(&query, &NoProof, true, cancel))
        })
        .await?;
    count(&response);
    Ok(HttpResponse::Ok().json(response))
}

/// Counts a judgement in the metrics.
fn count(r: &PlayResponse) {
    let verdict = match r.verdict {
        PlayVerdict::Correct => "correct",
        PlayVerdict::Solved => "solved",
        PlayVerdict::Wrong => "wrong",
        PlayVerdict::Illegal => "illegal",
        PlayVerdict::Unknown => "unknown",
    };
    metrics::counter!("baroque_play_moves_total", "verdict" => verdict).increment(1);
    metrics::counter!("baroque_solver_nodes_total").increment(r.nodes);
}

/// Play a stored puzzle move by move
///
/// `/v1/play` for a stored mate puzzle: its position, rules and stipulation are the puzzle's, and
/// its stored proof (the solution tree of `#N` and `s#N`, every solution of a helpmate) answers
/// every line along the solution without a new search, within a few milliseconds. A line that
/// leaves the proof (a wrong move and its refutation, the continuations of a short key) is
/// searched as by `/v1/play`, and only then is the call budgeted and metered as a solve
/// (`searched` says whether it was). A diagram puzzle cannot be played (422 `not-applicable`).
///
/// At most `--max-stored-plays` calls are judged at once (one more gets 503 `plays-busy` with
/// `Retry-After`), off the server's event loop; a puzzle's proof is read and parsed once and kept
/// (up to `--proof-cache-mib`) while the stored puzzle stays the same. A helpmate whose stored
/// outcome keeps only some of its solutions (more than 100) is searched.
#[utoipa::path(
    tag = "puzzles",
    params(("id" = i64, Path, description = "The puzzle's id")),
    request_body(content = StoredPlayRequest, description = "The moves played so far"),
    responses(
        JsonBodyProblems,
        ClientClosedProblem,
        (status = 200, description = "The judgement of the line", body = PlayResponse),
        PuzzleNotFoundProblem,
        (status = 422, description = "More moves than the limit (`too-many-moves`), a zero budget (`invalid-limits`), a diagram puzzle or `coords: page` with a Baroque puzzle (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The line needs a search and this client has used its searches (`rate-limited`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 503, description = "Every slot of stored play is taken (`plays-busy`), the line needs a search and every search slot is taken (`solver-busy`), or the store cannot answer (`store-unavailable`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/puzzles/{id}/play")]
pub async fn play_stored(
    req: HttpRequest,
    id: web::Path<i64>,
    body: web::Json<Object<StoredPlayRequest>>,
    library: web::Data<Library>,
    limits: web::Data<Limits>,
    (searches, plays): (web::Data<Searches>, web::Data<StoredPlays>),
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let request = body.into_inner().0;
    // Along the proof: no search and no metering, but a slot of stored play, and all of it (the
    // store, the proof, the judgement) on the blocking pool.
    let slot = plays.try_acquire()?;
    let (library, plays, limits) = (library.get_ref().clone(), plays.into_inner(), **limits);
    let judged = web::block(move || -> Result<_, ApiError> {
        let _slot = slot;
        let Some(puzzle) = library.puzzle_lean(id)? else {
            return Ok(None);
        };
        let query = PlayQuery::stored(
            &puzzle,
            request.moves.clone(),
            request.hint,
            request.coords.map(Into::into),
            request.budget(),
            &limits.solve,
            limits.max_moves,
        )?;
        let proof = plays.proofs.proof(&library, &puzzle, query.stipulation)?;
        let first = judge(&query, proof.as_ref(), false, &Cancel::new());
        Ok(Some((query, proof, first)))
    })
    .await??;
    let Some((query, proof, first)) = judged else {
        return Err(ApiError::NotFound {
            path: req.path().to_string(),
        });
    };
    if !first.needs_search() {
        let response = PlayResponse::of(&query, &first);
        count(&response);
        return Ok(HttpResponse::Ok().json(response));
    }
    if let Some(limiter) = req.app_data::<web::Data<RateLimiter>>() {
        limiter.check(&req)?;
    }
    let slot = searches.try_acquire()?;
    let response = searches
        .run(slot, peer, move |cancel| {
            PlayResponse::of(&query, &judge(&query, proof.as_ref(), true, cancel))
        })
        .await?;
    count(&response);
    Ok(HttpResponse::Ok().json(response))
}
