//! `POST /v1/verify`.

use crate::api::configuration::Limits;
use crate::api::model::{
    GameStatus, IllegalMove, Object, ResolvedRules, SquarePiece, VerifiedMove, VerifyQuery,
    VerifyRequest, VerifyResponse,
};
use crate::api::problem::{ApiError, Problem};
use crate::cases::play_text;
use crate::rules::Letters;
use actix_web::{post, web};

/// Verify a line of moves
///
/// Plays the moves in order from the position and reports, for each, its canonical notation,
/// captures, the frozen pieces, the FEN and the status after it. The first illegal move stops the
/// line: `first_illegal` gives its index and a reason code (`unparsable`, `no_piece`, `not_a_move`,
/// `frozen`, `self_check`, `ambiguous`), and nothing after it is played. An illegal move is an
/// answer (200), not an error. This is the call a puzzle site makes for a user's solution and a
/// rule document's CI makes for a diagram.
#[utoipa::path(
    tag = "positions",
    request_body(content = VerifyRequest, description = "A FEN, the moves, and an optional rule set"),
    responses(
        (status = 200, description = "The moves as played, up to the first illegal one", body = VerifyResponse),
        (status = 400, description = "Malformed JSON (`malformed-json`), or a body that does not match the schema: unknown or missing fields, wrong types, unknown rule names (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the limit (`payload-too-large`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent as `application/json` (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "More moves than the limit (`too-many-moves`, with `limit`), an unreadable FEN (`invalid-fen`, with `field` and `position`) or an impossible position (`impossible-position`, with `problems`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/verify")]
pub async fn verify(
    body: web::Json<Object<VerifyRequest>>,
    limits: web::Data<Limits>,
) -> Result<web::Json<VerifyResponse>, ApiError> {
    let body = body.into_inner().0;
    if body.moves.len() > limits.max_moves {
        return Err(ApiError::TooManyMoves {
            count: body.moves.len(),
            limit: limits.max_moves as u64,
        });
    }
    let query = VerifyQuery::try_from(body)?;
    // Up to `max_moves` moves, each a move search: off the async workers.
    let response = web::block(move || verify_moves(&query)).await?;
    Ok(web::Json(response))
}

/// Plays the moves of a query in order, stopping at the first illegal one.
pub fn verify_moves(query: &VerifyQuery) -> VerifyResponse {
    let mut pos = query.position.position;
    let mut moves = Vec::with_capacity(query.moves.len());
    let mut first_illegal = None;
    for (index, text) in query.moves.iter().enumerate() {
        match play_text(&pos, text) {
            Ok((_, played, after)) => {
                moves.push(VerifiedMove {
                    input: text.clone(),
                    legal: true,
                    notation: Some(played.notation),
                    uci: Some(played.uci),
                    captures: played.captures.into_iter().map(SquarePiece::from).collect(),
                    frozen_after: played
                        .frozen_after
                        .into_iter()
                        .map(SquarePiece::from)
                        .collect(),
                    fen_after: Some(played.fen_after),
                    status_after: Some(played.status_after.into()),
                });
                pos = after;
            }
            Err(e) => {
                moves.push(VerifiedMove {
                    input: text.clone(),
                    legal: false,
                    notation: None,
                    uci: None,
                    captures: Vec::new(),
                    frozen_after: Vec::new(),
                    fen_after: None,
                    status_after: None,
                });
                first_illegal = Some(IllegalMove {
                    index,
                    input: text.clone(),
                    reason: e.kind.into(),
                    message: e.message,
                    candidates: e.candidates,
                });
                break;
            }
        }
    }
    VerifyResponse {
        rules: ResolvedRules::from(pos.rules()),
        moves,
        first_illegal,
        final_fen: pos.fen(Letters::Chess),
        final_status: GameStatus::from(pos.status()),
        warnings: query.position.warnings.clone(),
    }
}
