//! `POST /v1/verify`.

use crate::api::configuration::Limits;
use crate::api::model::{
    GameStatus, IllegalMove, MoveKindName, MoveReason, Object, ResolvedRules, SquarePiece,
    VerifiedMove, VerifyQuery, VerifyRequest, VerifyResponse, Warning,
};
use crate::api::problem::{ApiError, Problem};
use crate::api::work::{Analyses, Peer};
use crate::cases::{play_text, PlayedMove};
use crate::rules::{GamePosition, Naming, Piece, Status, Visit};
use crate::solver::Cancel;
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
        (status = 200, description = "The moves as played, up to the first illegal one", body = VerifyResponse),
        (status = 400, description = "Malformed JSON (`malformed-json`), or a body that does not match the schema: unknown or missing fields, wrong types, unknown rule names (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the limit (`payload-too-large`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent as `application/json` (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the server's `--body-timeout-ms` (`body-timeout`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "More moves than the limit (`too-many-moves`, with `limit`), an unreadable FEN (`invalid-fen`, with `field` and `position`), an impossible position (`impossible-position`, with `problems`), or `coords: page` with Baroque or `rules` with Rococo (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 499, description = "The client closed its side of the connection before the answer was ready (`client-closed`): the work was stopped; a client that shuts down its sending side early is treated as gone", body = Problem, content_type = "application/problem+json"),
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
    if body.moves.len() > limits.max_moves {
        return Err(ApiError::TooManyMoves {
            count: body.moves.len(),
            limit: limits.max_moves as u64,
        });
    }
    let query = VerifyQuery::try_from(body)?;
    // Up to `max_moves` moves, each a move generation and a status: off the async workers, under
    // the analysis slots, stopped if the client goes away.
    let response = analyses
        .run(peer, move |cancel| verify_moves_until(&query, cancel))
        .await?;
    Ok(web::Json(response))
}

/// Plays the moves of a query in order, stopping at the first illegal one.
pub fn verify_moves(query: &VerifyQuery) -> VerifyResponse {
    verify_moves_until(query, &Cancel::new())
}

/// [`verify_moves`], stopping early (with the moves so far) once `cancel` is raised: the client
/// has gone and will not read the answer.
pub fn verify_moves_until(query: &VerifyQuery, cancel: &Cancel) -> VerifyResponse {
    query
        .position
        .position
        .visit(Verification { query, cancel })
}

/// The verification, run on the concrete position (see [`crate::rules::Visit`]).
struct Verification<'a> {
    query: &'a VerifyQuery,
    cancel: &'a Cancel,
}

impl Visit for Verification<'_> {
    type Output = VerifyResponse;
    fn visit<P: GamePosition>(self, start: &P) -> VerifyResponse {
        let checked = &self.query.position;
        let texts = self
            .query
            .moves
            .iter()
            .take_while(|_| !self.cancel.is_cancelled());
        verify_line(start, checked.naming, texts, &checked.warnings)
    }
}

/// Plays move texts in order from `start`, stopping at the first illegal one (or at the first
/// after a move that ended the game).
pub fn verify_line<'a, P: GamePosition>(
    start: &P,
    naming: Naming,
    texts: impl Iterator<Item = &'a String>,
    warnings: &[Warning],
) -> VerifyResponse {
    let mut pos = *start;
    let mut moves = Vec::new();
    let mut first_illegal = None;
    // Set once a move ended the game (in Rococo, took the King).
    let mut final_status = None;
    for (index, text) in texts.enumerate() {
        if final_status.is_some() {
            let (m, i) = illegal(
                index,
                text,
                MoveReason::NotAMove,
                format!("`{text}`: the game is over, the previous move took the King"),
                Vec::new(),
            );
            moves.push(m);
            first_illegal = Some(i);
            break;
        }
        match play_text(&pos, text, naming) {
            Ok((mv, played, after)) => {
                if pos.ends_game(&mv) {
                    final_status = Some(Status::Checkmate);
                }
                let mut m = legal(text, played);
                m.kind = P::kind_name(&mv).and_then(MoveKindName::from_name);
                m.promotion = P::promotion(&mv).map(|r| {
                    pos.piece_letter(Piece::new(pos.turn(), r), naming)
                        .to_string()
                });
                moves.push(m);
                pos = after;
            }
            Err(e) => {
                let (m, i) = illegal(index, text, e.kind.into(), e.message, e.candidates);
                moves.push(m);
                first_illegal = Some(i);
                break;
            }
        }
    }
    VerifyResponse {
        game: pos.variant().kind().into(),
        rules: pos.variant().rules().map(|r| ResolvedRules::from(&r)),
        moves,
        first_illegal,
        final_fen: pos.fen(naming),
        final_status: GameStatus::from(final_status.unwrap_or_else(|| pos.status())),
        warnings: warnings.to_vec(),
    }
}

/// A legal move as the answer lists it.
fn legal(text: &str, played: PlayedMove) -> VerifiedMove {
    VerifiedMove {
        input: text.to_string(),
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
        kind: None,
        promotion: None,
    }
}

/// An illegal move as the answer lists it, and its refusal.
fn illegal(
    index: usize,
    text: &str,
    reason: MoveReason,
    message: String,
    candidates: Vec<String>,
) -> (VerifiedMove, IllegalMove) {
    (
        VerifiedMove {
            input: text.to_string(),
            legal: false,
            notation: None,
            uci: None,
            captures: Vec::new(),
            frozen_after: Vec::new(),
            fen_after: None,
            status_after: None,
            kind: None,
            promotion: None,
        },
        IllegalMove {
            index,
            input: text.to_string(),
            reason,
            message,
            candidates,
        },
    )
}
