//! The problem database's own endpoints: a problem's history corrected
//! (`PATCH /v1/puzzles/{id}`) and anticipation (`POST /v1/puzzles/anticipation`).

use crate::api::auth::Writer;
use crate::api::common::{tagged_response, Object};
use crate::api::problem::{
    ApiError, JsonBodyProblems, Problem, PuzzleNotFoundProblem, StoreUnavailableProblem,
};
use crate::api::ratelimit::Metered;
use crate::api::wire::database::{AnticipationRequest, AnticipationResponse, HistoryPatchRequest};
use crate::api::wire::Puzzle;
use crate::app::Library;
use actix_web::{patch, post, web, HttpRequest, HttpResponse};

/// Correct a problem's history
///
/// Replaces the parts of a stored problem's history the body names (`authors`, `published`,
/// `award`, `keywords`, `notes`, and `source`, its publication); a member left out stays, `null`
/// (or `[]`) clears it. The position, stipulation, verified outcome, tags and rating never change:
/// any other member is refused (400 `invalid-request`). Needs `Authorization: Bearer <token>`.
/// The answer is the puzzle as `GET /v1/puzzles/{id}` gives it, with its new `ETag`.
#[utoipa::path(
    tag = "puzzles",
    params(("id" = i64, Path, description = "The puzzle's id")),
    request_body(content = HistoryPatchRequest, description = "The parts of the history to replace"),
    security(("bearer" = [])),
    responses(
        JsonBodyProblems,
        (status = 200, description = "The puzzle with its corrected history", body = Puzzle,
            headers(("ETag" = String, description = "Strong: the first 128 bits of the answer's SHA-256"))),
        (status = 400, description = "Malformed JSON (`malformed-json`), a member that is not part of the history (`invalid-request`), or a date, list or text that cannot be stored (`invalid-history`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No bearer token, or not the write token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "No write token is configured (`writes-disabled`)", body = Problem, content_type = "application/problem+json"),
        PuzzleNotFoundProblem,
        StoreUnavailableProblem,
    )
)]
#[patch("/v1/puzzles/{id}")]
pub async fn correct_history(
    _writer: Writer,
    req: HttpRequest,
    id: web::Path<i64>,
    body: web::Json<Object<HistoryPatchRequest>>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let (id, patch) = (id.into_inner(), body.into_inner().0.into());
    let library = library.into_inner();
    let corrected = web::block(move || library.correct_history(id, patch)).await??;
    let Some(p) = corrected else {
        return Err(ApiError::NotFound {
            path: req.path().to_string(),
        });
    };
    let body = serde_json::to_vec(&Puzzle::from_stored(p, false))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(tagged_response(&req, "application/json", body))
}

/// Find the stored problems that anticipate a position, of any stipulation
///
/// The stored mate problems that anticipate the posted position, each with how (`relation`):
/// `same`, the same position up to a symmetry that keeps the game's rules (`transform` names it
/// as a twin does); `near`, the same with one piece added, removed, moved or changed
/// (`difference`, as twins write it), up to the same symmetries. Baroque has the eight symmetries
/// of the square (every piece moves alike in all directions); Rococo two, the identity and the
/// files reversed (its Cannon Pawns promote on the far rank). Answered from the store's keys (a
/// position's key over the symmetries, and its keys without each piece), never by solving. With a
/// `stipulation`, the problems of that stipulation come first within each relation. Searches
/// count against the client's rate limit.
#[utoipa::path(
    tag = "puzzles",
    request_body(content = AnticipationRequest, description = "The position, and optionally its stipulation"),
    responses(
        JsonBodyProblems,
        (status = 200, description = "The stored problems that anticipate it (none: an empty list)", body = AnticipationResponse),
        (status = 400, description = "Malformed JSON (`malformed-json`) or a body that does not match the schema (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unreadable FEN (`invalid-fen`) or stipulation (`invalid-stipulation`), an impossible position, or `coords: page` with Baroque or `rules` with Rococo (`not-applicable`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its requests (`rate-limited`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may try again"))),
        StoreUnavailableProblem,
    )
)]
#[post("/v1/puzzles/anticipation")]
pub async fn anticipation(
    _metered: Metered,
    body: web::Json<Object<AnticipationRequest>>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner().0;
    let checked = request.position()?;
    let stipulation = match request.stipulation.as_deref() {
        Some(text) => Some(crate::solver::Stipulation::from_parts(None, Some(text))?),
        None => None,
    };
    let library = library.into_inner();
    let report =
        web::block(move || library.anticipate(&checked.position, stipulation, checked.naming))
            .await??;
    Ok(HttpResponse::Ok().json(AnticipationResponse::from(report)))
}

/// Refuses a posted puzzle the store holds up to a symmetry, with the same stipulation (409
/// `anticipated`, naming the stored puzzle and the symmetry): a post with
/// `"anticipation": "refuse"`.
pub(crate) async fn refuse_anticipated(
    library: &web::Data<Library>,
    new: crate::puzzle::NewPuzzle,
) -> Result<crate::puzzle::NewPuzzle, ApiError> {
    let library = library.clone().into_inner();
    let (new, found) = web::block(move || {
        let found = library.anticipated_by(&new);
        (new, found)
    })
    .await?;
    match found? {
        Some(a) => Err(ApiError::Anticipated {
            puzzle_id: a.puzzle.id,
            transform: a.transform,
        }),
        None => Ok(new),
    }
}
