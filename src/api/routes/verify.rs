//! `POST /v1/verify`.

use crate::api::common::{
    position_request, CheckedPosition, GameName, GameStatus, MoveKindName, Object, ResolvedRules,
    SquarePiece, Warning,
};
use crate::api::configuration::Limits;
use crate::api::costly_work::{Analyses, Peer};
use crate::api::problem::{ApiError, ClientClosedProblem, JsonBodyProblems, Problem};
use crate::cases::{play_text, PlayedMove};
use crate::rules::MoveErrorKind;
use crate::rules::{GamePosition, Naming, Piece, Status, Visit};
use crate::solver::Cancel;
use actix_web::{post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

position_request! {
/// `POST /v1/verify`: moves to play from a position.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "moves": ["Pc2c4"], "rules": "vchess"}),
    json!({"fen": "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0", "moves": ["Xb3-b5"], "game": "rococo"}),
    json!({"fen": "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0", "moves": ["Xa2-a4"], "game": "rococo", "coords": "page"})
))]
pub struct VerifyRequest {
    /// The position, as for `/v1/analyze`.
    #[schema(example = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0")]
    pub fen: String,
    /// The moves in order, in any accepted form. Baroque: `Pc2c4`, `Kc4-d5`, `Ld2-d4-d6-d8`,
    /// `g4d4`, `Rc5`, `Nxd8`, `c5c5` (suicide); both letter sets. Rococo: `Xb3-b5`, `Xb3xb5`,
    /// `b3b5`, `Sb2<>e5` (swap), `Se5*f6` (mutual destruction), `Pe8-e9=L` (promotion), `Le5-e5`
    /// (suicide), `Le9`; squares in `coords`. Move numbers and `+ # ! ?` ignored.
    #[schema(example = json!(["Pc2c4"]))]
    pub moves: Vec<String>,
    @position_fields,
}
}

/// A verify request parsed: a position that can arise and the move texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyQuery {
    pub position: CheckedPosition,
    pub moves: Vec<String>,
}

impl TryFrom<VerifyRequest> for VerifyQuery {
    type Error = ApiError;
    fn try_from(r: VerifyRequest) -> Result<VerifyQuery, ApiError> {
        Ok(VerifyQuery {
            position: r.position()?,
            moves: r.moves,
        })
    }
}

/// Why a move was refused: the code of a [`MoveErrorKind`], whose variants say what each means
/// (`unparsable`, `no_piece`, `not_a_move`, `frozen`, `self_check`, `ambiguous`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct MoveReason(pub MoveErrorKind);

impl utoipa::PartialSchema for MoveReason {
    // `example`, as the derives write it for every other schema of the document.
    #[allow(deprecated)]
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("Why a move was refused."))
            .enum_values(Some(MoveErrorKind::ALL.iter().map(|k| k.code())))
            .example(Some(serde_json::json!(MoveErrorKind::SelfCheck.code())))
            .into()
    }
}

impl ToSchema for MoveReason {}

impl From<MoveErrorKind> for MoveReason {
    fn from(k: MoveErrorKind) -> MoveReason {
        MoveReason(k)
    }
}

/// One move of a verify request, as the engine read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::verified_move, examples::verified_move_rococo))]
pub struct VerifiedMove {
    /// The move as sent.
    #[schema(example = "Pc2c4")]
    pub input: String,
    pub legal: bool,
    /// Canonical notation (null when illegal).
    #[schema(example = "Pc2xc4")]
    pub notation: Option<String>,
    /// The machine form (null when illegal): from and to squares, then in Rococo `*` for a mutual
    /// destruction and `=` with the letter for a promotion.
    #[schema(example = "c2c4")]
    pub uci: Option<String>,
    /// Every piece the move captures (empty when illegal).
    pub captures: Vec<SquarePiece>,
    /// The frozen pieces of both sides after the move (empty when illegal).
    pub frozen_after: Vec<SquarePiece>,
    /// The FEN after the move (null when illegal).
    #[schema(example = "7k/5ppp/2N5/8/2P1B3/8/PP6/K7 b 1")]
    pub fen_after: Option<String>,
    /// The status of the side to move after the move (null when illegal).
    pub status_after: Option<GameStatus>,
    /// Rococo only (null when illegal): what kind of move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<MoveKindName>,
    /// Rococo only, for a Cannon Pawn's promotion: the piece it becomes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "L")]
    pub promotion: Option<String>,
}

/// The first illegal move of a verify request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::illegal_move))]
pub struct IllegalMove {
    /// 0-based index of the move in the request's `moves`.
    pub index: usize,
    /// The move as sent.
    #[schema(example = "Ke5")]
    pub input: String,
    pub reason: MoveReason,
    /// Why, in words.
    pub message: String,
    /// For `ambiguous`: the canonical names of the moves the text fits.
    pub candidates: Vec<String>,
}

/// `POST /v1/verify`: the moves played in order, up to and including the first illegal one (the
/// moves after it are not examined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::verify_response, examples::verify_response_rococo))]
pub struct VerifyResponse {
    pub game: GameName,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    /// One entry per move examined, in order; the last is the first illegal move, if any.
    pub moves: Vec<VerifiedMove>,
    /// Null when every move is legal.
    pub first_illegal: Option<IllegalMove>,
    /// The FEN after the last legal move (the request's position when none is).
    pub final_fen: String,
    /// The status of the side to move in `final_fen` (Rococo: `checkmate` once its King was
    /// captured; moves after that are refused as `not_a_move`).
    pub final_status: GameStatus,
    /// Remarks on the starting position (`no_king`, `too_many_pieces`).
    pub warnings: Vec<Warning>,
}

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
    verify_line_moves(start, naming, texts, warnings, |after, _| after).0
}

/// [`verify_line`], with the legal moves played (those before the first illegal one); `step`
/// gives the position each move leads to from the one it leaves (the identity, but for a series
/// mover's line, whose other side passes between the series' moves).
pub fn verify_line_moves<'a, P: GamePosition>(
    start: &P,
    naming: Naming,
    texts: impl Iterator<Item = &'a String>,
    warnings: &[Warning],
    mut step: impl FnMut(P, Option<&String>) -> P,
) -> (VerifyResponse, Vec<P::Move>) {
    let mut pos = *start;
    let mut line = Vec::new();
    let mut moves = Vec::new();
    let mut first_illegal = None;
    // Set once a move ended the game (in Rococo, took the King).
    let mut final_status = None;
    let mut texts = texts.enumerate().peekable();
    while let Some((index, text)) = texts.next() {
        if final_status.is_some() {
            let (m, i) = illegal(
                index,
                text,
                MoveReason(MoveErrorKind::NotAMove),
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
                line.push(mv);
                pos = step(after, texts.peek().map(|&(_, t)| t));
            }
            Err(e) => {
                let (m, i) = illegal(index, text, e.kind.into(), e.message, e.candidates);
                moves.push(m);
                first_illegal = Some(i);
                break;
            }
        }
    }
    let response = VerifyResponse {
        game: pos.variant().kind().into(),
        rules: pos.variant().rules().map(|r| ResolvedRules::from(&r)),
        moves,
        first_illegal,
        final_fen: pos.fen(naming),
        final_status: GameStatus::from(final_status.unwrap_or_else(|| pos.status())),
        warnings: warnings.to_vec(),
    };
    (response, line)
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

/// Examples for the OpenAPI document, computed by the engine (see [`crate::api::common::examples`]).
pub(crate) mod examples {
    #[allow(unused_imports)]
    use super::*;
    #[allow(unused_imports)]
    use crate::api::common::examples::*;
    #[allow(unused_imports)]
    use crate::rules::rococo::Coords;
    #[allow(unused_imports)]
    use crate::rules::{Preset, Rules};
    use serde_json::Value;

    fn verify(fen: &str, preset: Preset, moves: &[&str]) -> Value {
        match position(fen, preset) {
            Ok(position) => value(verify_moves(&VerifyQuery {
                position,
                moves: moves.iter().map(|m| m.to_string()).collect(),
            })),
            Err(e) => value(e.problem()),
        }
    }

    /// `POST /v1/verify` of `Xa2-a4` from [`ROCOCO_CHAMELEON_FEN`] in page coordinates.
    pub fn verify_response_rococo() -> Value {
        match rococo(ROCOCO_CHAMELEON_FEN, Coords::Page) {
            Ok(p) => value(verify_moves(&VerifyQuery {
                position: p,
                moves: vec!["Xa2-a4".into()],
            })),
            Err(e) => value(e.problem()),
        }
    }

    /// The verified move `Xa2-a4` (page coordinates).
    pub fn verified_move_rococo() -> Value {
        verify_response_rococo()["moves"][0].clone()
    }

    /// `POST /v1/verify` of `Pc2c4` from [`PAWN_FEN`] under `vchess`.
    pub fn verify_response() -> Value {
        verify(PAWN_FEN, Preset::Vchess, &["Pc2c4"])
    }

    /// The verified move `Pc2c4`.
    pub fn verified_move() -> Value {
        verify_response()["moves"][0].clone()
    }

    /// The refusal of `Ke5` in [`KING_SELF_CHECK_FEN`].
    pub fn illegal_move() -> Value {
        verify(KING_SELF_CHECK_FEN, Preset::Vchess, &["Ke5"])["first_illegal"].clone()
    }
}
