//! `POST /v1/verify`: the handler; the request and answer are wire types
//! ([`crate::api::wire::verify`]), the use case is the app's ([`crate::app::line`]).

use crate::api::common::{Object, PositionView};
use crate::api::configuration::Limits;
use crate::api::costly_work::{Analyses, Peer};
use crate::api::problem::{ApiError, ClientClosedProblem, JsonBodyProblems, Problem};
use crate::api::wire::verify::{VerifyRequest, VerifyResponse};
use crate::app::line::{check_moves, VerifyQuery};
use actix_web::{post, web};

/// Verify a line of moves
///
/// Plays the moves in order from the position and reports, for each, its canonical notation,
/// captures, the frozen pieces, the FEN and the status after it. The first illegal move stops the
/// line: `first_illegal` gives its index and a reason code (`unparsable`, `no_piece`, `not_a_move`,
/// `frozen`, `self_check`, `ambiguous`), and nothing after it is played. An illegal move is an
/// answer (200), not an error. This is the call a puzzle site makes for a user's solution and a
/// rule document's CI makes for a diagram.
///
/// With `"game": "rococo"` the FEN and moves are Rococo's (`Xb3-b5`, `Sb2<>e5` for a swap,
/// `Se5*f6` for mutual destruction, `Pe8-e9=L` for a promotion), squares in `coords` (`standard`,
/// or `page` for the Rococo page's names, used in the answer too); each move also gets its `kind`
/// and any `promotion`. A Rococo move may leave its own King capturable (it is legal, and loses),
/// so `self_check` never occurs; a move that takes the King ends the game: `status_after` is then
/// `checkmate` and any later move is refused as `not_a_move`.
///
/// A request of the most moves allowed costs at most tens of milliseconds on any position; at most
/// a configured number run at once (`--analysis-concurrency`), and one more is refused with 503
/// `analysis-busy` and `Retry-After`. A request whose client disconnects is stopped.
#[utoipa::path(
    tag = "positions",
    request_body(content = VerifyRequest, description = "A FEN, the moves, and an optional rule set"),
    responses(
        JsonBodyProblems,
        ClientClosedProblem,
        (status = 200, description = "The moves as played, up to the first illegal one", body = VerifyResponse),
        (status = 422, description = "More moves than the limit (`too-many-moves`, with `limit`), an unreadable FEN (`invalid-fen`, with `field` and `position`), an impossible position (`impossible-position`, with `problems`), or `coords: page` with Baroque or `rules` with Rococo (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every analysis slot is taken (`analysis-busy`, with `limit`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/verify")]
pub async fn verify(
    body: web::Json<Object<VerifyRequest>>,
    limits: web::Data<Limits>,
    analyses: web::Data<Analyses>,
    peer: Peer,
) -> Result<web::Json<VerifyResponse>, ApiError> {
    let body = body.into_inner().0;
    check_moves(&body.moves, limits.max_moves)?;
    let query = VerifyQuery {
        position: body.position()?,
        moves: body.moves,
    };
    // Up to `max_moves` moves, each a move generation and a status: off the async workers, under
    // the analysis slots, stopped if the client goes away.
    let response = analyses
        .run(peer, move |cancel| {
            let line = crate::app::line::verify(&query, cancel);
            VerifyResponse::of(&line, query.position.wire_warnings())
        })
        .await?;
    Ok(web::Json(response))
}
