//! The wire types of `POST /v1/verify`: its request and its answer, built from the use case's
//! [`VerifiedLine`].

use crate::api::common::{
    position_request, GameName, GameStatus, MoveKindName, ResolvedRules, SquarePiece, Warning,
};
use crate::app::line::{LineMove, VerifiedLine};
use crate::rules::MoveErrorKind;
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

impl VerifyResponse {
    /// The answer of a verified line, with the start position's `warnings`.
    pub fn of(line: &VerifiedLine, warnings: Vec<Warning>) -> VerifyResponse {
        VerifyResponse {
            game: line.game.into(),
            rules: line.rules.as_ref().map(ResolvedRules::from),
            moves: line.moves.iter().map(VerifiedMove::from).collect(),
            first_illegal: line.first_illegal.as_ref().map(IllegalMove::from),
            final_fen: line.final_fen.clone(),
            final_status: GameStatus::from(line.final_status),
            warnings,
        }
    }
}

impl From<&crate::app::line::Illegal> for IllegalMove {
    fn from(i: &crate::app::line::Illegal) -> IllegalMove {
        IllegalMove {
            index: i.index,
            input: i.input.clone(),
            reason: MoveReason(i.reason),
            message: i.message.clone(),
            candidates: i.candidates.clone(),
        }
    }
}

impl From<&LineMove> for VerifiedMove {
    fn from(m: &LineMove) -> VerifiedMove {
        match m {
            LineMove::Legal {
                input,
                played,
                kind,
                promotion,
            } => VerifiedMove {
                input: input.clone(),
                legal: true,
                notation: Some(played.notation.clone()),
                uci: Some(played.uci.clone()),
                captures: played
                    .captures
                    .iter()
                    .cloned()
                    .map(SquarePiece::from)
                    .collect(),
                frozen_after: played
                    .frozen_after
                    .iter()
                    .cloned()
                    .map(SquarePiece::from)
                    .collect(),
                fen_after: Some(played.fen_after.clone()),
                status_after: Some(played.status_after.into()),
                kind: kind.and_then(MoveKindName::from_name),
                promotion: promotion.clone(),
            },
            LineMove::Illegal { input } => VerifiedMove {
                input: input.clone(),
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
        }
    }
}

/// Examples for the OpenAPI document, computed by the engine (see [`crate::api::common::examples`]).
pub mod examples {
    #[allow(unused_imports)]
    use super::*;
    #[allow(unused_imports)]
    use crate::api::common::examples::*;
    #[allow(unused_imports)]
    use crate::api::common::PositionView;
    #[allow(unused_imports)]
    use crate::rules::rococo::Coords;
    #[allow(unused_imports)]
    use crate::rules::{Preset, Rules};
    use serde_json::Value;

    /// The answer of a verify request.
    fn verify_moves(query: &crate::app::line::VerifyQuery) -> VerifyResponse {
        let line = crate::app::line::verify(query, &crate::solver::Cancel::new());
        VerifyResponse::of(&line, query.position.wire_warnings())
    }

    fn verify(fen: &str, preset: Preset, moves: &[&str]) -> Value {
        match position(fen, preset) {
            Ok(position) => value(verify_moves(&crate::app::line::VerifyQuery {
                position,
                moves: moves.iter().map(|m| m.to_string()).collect(),
            })),
            Err(e) => value(e.problem()),
        }
    }

    /// `POST /v1/verify` of `Xa2-a4` from [`ROCOCO_CHAMELEON_FEN`] in page coordinates.
    pub fn verify_response_rococo() -> Value {
        match rococo(ROCOCO_CHAMELEON_FEN, Coords::Page) {
            Ok(p) => value(verify_moves(&crate::app::line::VerifyQuery {
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
