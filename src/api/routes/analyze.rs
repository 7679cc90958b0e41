//! `POST /v1/analyze`.

use crate::api::model::{
    square_pieces, AnalyzeQuery, AnalyzeRequest, AnalyzeResponse, CheckedPosition, GameStatus,
    LegalMove, Object, ResolvedRules,
};
use crate::api::problem::{ApiError, Problem};
use crate::rules::{Letters, Piece, Status};
use actix_web::{post, web};

/// Analyse a position
///
/// Reads a FEN under a rule set and answers the canonical FEN in both letter sets, the side to
/// move, its status (`ongoing`, `check`, `checkmate`, `stalemate`), the frozen pieces, warnings,
/// and every legal move with its captures and whether it gives check or checkmate. A position that
/// cannot arise (two Kings of a side, the side not to move in check) is refused with 422 listing
/// every problem.
#[utoipa::path(
    tag = "positions",
    request_body(content = AnalyzeRequest, description = "A FEN and an optional rule set"),
    responses(
        (status = 200, description = "The position's state and legal moves", body = AnalyzeResponse),
        (status = 400, description = "Malformed JSON (`malformed-json`), or a body that does not match the schema: unknown or missing fields, wrong types, unknown rule names (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the limit (`payload-too-large`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent as `application/json` (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unreadable FEN (`invalid-fen`, with `field` and `position`) or an impossible position (`impossible-position`, with `problems`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/analyze")]
pub async fn analyze(
    body: web::Json<Object<AnalyzeRequest>>,
) -> Result<web::Json<AnalyzeResponse>, ApiError> {
    let query = AnalyzeQuery::try_from(body.into_inner().0)?;
    let response = web::block(move || analyze_position(&query.position)).await?;
    Ok(web::Json(response))
}

/// The analysis of a position. Whether a move checkmates needs a move search of the position after
/// it, so it is looked for only after the moves that give check.
pub fn analyze_position(checked: &CheckedPosition) -> AnalyzeResponse {
    let pos = &checked.position;
    let legal = pos.legal_moves();
    let moves: Vec<LegalMove> = legal
        .iter()
        .map(|mv| {
            let after = pos.after(mv);
            let gives_check = after.is_check();
            LegalMove {
                notation: pos.move_name(mv, Letters::Chess),
                uci: mv.uci(),
                piece: Piece::new(pos.turn(), mv.role)
                    .letter(Letters::Chess)
                    .to_string(),
                captures: square_pieces(pos, mv.captures),
                gives_check,
                checkmate: gives_check && !after.has_legal_move(),
            }
        })
        .collect();
    let status = match (pos.is_check(), legal.is_empty()) {
        (true, true) => Status::Checkmate,
        (false, true) => Status::Stalemate,
        (true, false) => Status::Check,
        (false, false) => Status::Ongoing,
    };
    AnalyzeResponse {
        fen: pos.fen(Letters::Chess),
        fen_baroque: pos.fen(Letters::Baroque),
        side_to_move: pos.turn().into(),
        status: GameStatus::from(status),
        rules: ResolvedRules::from(pos.rules()),
        frozen: square_pieces(pos, pos.frozen()),
        warnings: checked.warnings.clone(),
        moves,
    }
}
