//! The wire types of `POST /v1/analyze`: its request and its answer, built from the use case's
//! [`Analysis`] and written by [`to_json`].

use crate::api::common::{
    position_request, GameName, GameStatus, MoveKindName, ResolvedRules, ShortText, Side,
    SquarePiece, Warning,
};
use crate::app::analysis::{Analysis, AnalyzedMove};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

position_request! {
/// `POST /v1/analyze`: a position to analyse.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "rules": "vchess"}),
    json!({"fen": "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0", "game": "rococo"}),
    json!({"fen": "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0", "game": "rococo", "coords": "page"})
))]
pub struct AnalyzeRequest {
    /// The position. Baroque: `<board> <w|b> [<plies>]`, pieces in either letter set. Rococo:
    /// `<ranks 10 down to 1> <w|b> [<plies> [<last swap, such as e5g7, or ->]]`.
    #[schema(example = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0")]
    pub fen: String,
    @position_fields,
}
}

/// A legal move with what it does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::legal_move, examples::legal_move_rococo))]
pub struct LegalMove {
    /// Canonical notation: piece letter, from-square, `-` or `x` (when it captures), to-square.
    #[schema(value_type = String, example = "Pc2xc4")]
    pub notation: ShortText,
    /// The machine form, unique among the position's moves: the from and to squares (`d2d8`; a
    /// suicide is `c5c5`), then in Rococo `*` for a mutual destruction (`e5e6*`) and `=` with the
    /// letter for a promotion (`e8e9=L`). Sent back as a move, it plays this move.
    #[schema(value_type = String, example = "c2c4")]
    pub uci: ShortText,
    /// The moving piece: one chess-style letter, upper case for White.
    #[schema(value_type = String, example = "P")]
    pub piece: ShortText,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
    /// Whether the opponent is in check after the move (Rococo: its King could be captured next).
    pub gives_check: bool,
    /// Whether the opponent is checkmated after the move (Rococo: the move takes its King, or
    /// leaves it no move that keeps its King).
    pub checkmate: bool,
    /// Rococo only: what kind of move (`normal`, `swap`, `mutual_destruction`, `suicide`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<MoveKindName>,
    /// Rococo only, for a Cannon Pawn's promotion: the piece it becomes (upper case for White).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, example = "L")]
    pub promotion: Option<ShortText>,
}

/// `POST /v1/analyze`: the position's state and every legal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::analyze_response, examples::analyze_response_rococo))]
pub struct AnalyzeResponse {
    pub game: GameName,
    /// The canonical FEN: Baroque in chess-style letters (K P Q N R M B); Rococo in its letters,
    /// with the ply count and the last-swap field (squares in the request's `coords`).
    pub fen: String,
    /// Baroque only: the same FEN in Baroque-style letters (K P W L C I X).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen_baroque: Option<String>,
    pub side_to_move: Side,
    /// See `GameStatus` for its meaning in each game. A status is the game's word for the
    /// position, not a problem's goal: Rococo's `stalemate` (no move at all, a draw) is the goal
    /// "stalemated" of `=N` only when `in_check` is false.
    pub status: GameStatus,
    /// Whether the side to move's King could be captured now: in Baroque, in check; in Rococo, an
    /// enemy move could take it. False when the side to move has no King.
    pub in_check: bool,
    /// Rococo only: whether the side to move has a move that keeps its King (or takes the enemy
    /// King); false when `status` is `checkmate`, and when it is `stalemate`, since there is then
    /// no move at all (the game is drawn, whether or not the King could be captured: see
    /// `in_check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_keep_king: Option<bool>,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    /// The frozen (immobilized) pieces of both sides.
    pub frozen: Vec<SquarePiece>,
    /// Remarks that do not stop the analysis (`no_king`, `too_many_pieces`).
    pub warnings: Vec<Warning>,
    /// Every legal move of the side to move (Rococo: every move, including those that leave the
    /// King capturable, which lose).
    pub moves: Vec<LegalMove>,
}

impl From<&AnalyzedMove> for LegalMove {
    fn from(m: &AnalyzedMove) -> LegalMove {
        LegalMove {
            notation: m.notation,
            uci: m.uci,
            piece: m.piece,
            captures: m.captures.iter().cloned().map(SquarePiece::from).collect(),
            gives_check: m.gives_check,
            checkmate: m.checkmate,
            kind: m.kind.and_then(MoveKindName::from_name),
            promotion: m.promotion,
        }
    }
}

impl AnalyzeResponse {
    /// The answer of an analysis, with the position's `warnings`.
    pub fn of(a: &Analysis, warnings: Vec<Warning>) -> AnalyzeResponse {
        AnalyzeResponse {
            game: a.game.into(),
            fen: a.fen.clone(),
            fen_baroque: a.fen_baroque.clone(),
            side_to_move: a.side_to_move.into(),
            status: a.status.into(),
            in_check: a.in_check,
            can_keep_king: a.can_keep_king,
            rules: a.rules.as_ref().map(ResolvedRules::from),
            frozen: a.frozen.iter().cloned().map(SquarePiece::from).collect(),
            warnings,
            moves: a.moves.iter().map(LegalMove::from).collect(),
        }
    }
}

/// The response as JSON: what `serde_json::to_vec` writes (a test checks it byte for byte), with the
/// move list written directly (its texts are [`ShortText`]s, which never need an escape). The moves are most of the body, and serde's generic path through
/// eight fields a move was a quarter of the endpoint's time on the server.
pub fn to_json(r: &Analysis, warnings: &[Warning]) -> Vec<u8> {
    #[derive(Serialize)]
    struct Head<'a> {
        game: GameName,
        fen: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        fen_baroque: Option<&'a str>,
        side_to_move: crate::api::common::Side,
        status: GameStatus,
        in_check: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        can_keep_king: Option<bool>,
        rules: Option<ResolvedRules>,
        frozen: &'a [crate::rules::SquarePiece],
        warnings: &'a [crate::api::common::Warning],
    }
    let head = Head {
        game: r.game.into(),
        fen: &r.fen,
        fen_baroque: r.fen_baroque.as_deref(),
        side_to_move: r.side_to_move.into(),
        status: r.status.into(),
        in_check: r.in_check,
        can_keep_king: r.can_keep_king,
        rules: r.rules.as_ref().map(ResolvedRules::from),
        frozen: &r.frozen,
        warnings,
    };
    let slow =
        || serde_json::to_vec(&AnalyzeResponse::of(r, warnings.to_vec())).unwrap_or_default();
    let mut out = Vec::with_capacity(512 + 112 * r.moves.len());
    if serde_json::to_writer(&mut out, &head).is_err() {
        return slow();
    }
    out.pop(); // the closing brace
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in r.moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if m.kind.is_some() || m.promotion.is_some() {
            // A Rococo move: serde writes its optional members.
            if serde_json::to_writer(&mut out, &LegalMove::from(m)).is_err() {
                return slow();
            }
            continue;
        }
        out.extend_from_slice(b"{\"notation\":\"");
        out.extend_from_slice(m.notation.as_bytes());
        out.extend_from_slice(b"\",\"uci\":\"");
        out.extend_from_slice(m.uci.as_bytes());
        out.extend_from_slice(b"\",\"piece\":\"");
        out.extend_from_slice(m.piece.as_bytes());
        out.extend_from_slice(b"\",\"captures\":");
        if m.captures.is_empty() {
            out.extend_from_slice(b"[]");
        } else if serde_json::to_writer(&mut out, &m.captures).is_err() {
            return slow();
        }
        out.extend_from_slice(if m.gives_check {
            b",\"gives_check\":true"
        } else {
            b",\"gives_check\":false"
        });
        out.extend_from_slice(if m.checkmate {
            b",\"checkmate\":true}"
        } else {
            b",\"checkmate\":false}"
        });
    }
    out.extend_from_slice(b"]}");
    out
}

/// Examples for the OpenAPI document, computed by the engine (see [`crate::api::common::examples`]).
pub mod examples {
    #[allow(unused_imports)]
    use super::*;
    #[allow(unused_imports)]
    use crate::api::common::examples::*;
    #[allow(unused_imports)]
    use crate::rules::rococo::Coords;
    #[allow(unused_imports)]
    use crate::rules::{Preset, Rules};
    use serde_json::Value;

    fn analyze_position(p: &crate::api::common::CheckedPosition) -> AnalyzeResponse {
        use crate::api::common::PositionView;
        let a = crate::app::analysis::analyze(p, &crate::solver::Cancel::new());
        AnalyzeResponse::of(&a, p.wire_warnings())
    }

    /// `POST /v1/analyze` of the Rococo start position.
    pub fn analyze_response_rococo() -> Value {
        match rococo(ROCOCO_START_FEN, Coords::Standard) {
            Ok(p) => value(analyze_position(&p)),
            Err(e) => value(e.problem()),
        }
    }

    /// The swap `Si2<>h2` of the Rococo start position as `/v1/analyze` lists it.
    pub fn legal_move_rococo() -> Value {
        match rococo(ROCOCO_START_FEN, Coords::Standard) {
            Ok(p) => analyze_position(&p)
                .moves
                .into_iter()
                .find(|m| m.notation.as_str() == "Si2<>h2")
                .map(value)
                .unwrap_or_default(),
            Err(e) => value(e.problem()),
        }
    }

    /// `POST /v1/analyze` of [`KING_FEN`] under `abbott`.
    pub fn analyze_response() -> Value {
        match position(KING_FEN, Preset::Abbott) {
            Ok(p) => value(analyze_position(&p)),
            Err(e) => value(e.problem()),
        }
    }

    /// The move `Pc2c4` of [`PAWN_FEN`] as `/v1/analyze` lists it.
    pub fn legal_move() -> Value {
        match position(PAWN_FEN, Preset::Vchess) {
            Ok(p) => analyze_position(&p)
                .moves
                .into_iter()
                .find(|m| m.uci.as_str() == "c2c4")
                .map(value)
                .unwrap_or_default(),
            Err(e) => value(e.problem()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{to_json, AnalyzeResponse};
    use crate::api::common::CheckedPosition;
    use crate::api::common::PositionView;
    use crate::rules::prelude::*;
    use crate::rules::rococo::Coords;
    use crate::rules::{GameKind, Naming, Variant, VariantPosition};
    use crate::solver::Cancel;

    /// The seed diagrams' positions and those one move after them, of both games.
    fn positions() -> Vec<(VariantPosition, Naming)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagrams");
        let mut out = Vec::new();
        for (i, path) in crate::cases::files_in(&dir)
            .unwrap()
            .into_iter()
            .enumerate()
        {
            let file = crate::cases::read_file(&path).unwrap();
            let starts = [Variant::default().start(), Variant::Rococo.start()];
            for case in file.cases {
                let variant = match file.game {
                    GameKind::Baroque => Variant::Baroque(case.rules().unwrap()),
                    GameKind::Rococo => Variant::Rococo,
                };
                let pos = variant.read_fen(&case.fen, Naming::default()).unwrap();
                out.extend(pos.legal_moves().iter().map(|m| pos.play(m)));
                out.push(pos);
            }
            out.extend(starts);
            let _ = i;
        }
        out.into_iter()
            .enumerate()
            .map(|(i, p)| {
                let coords = if i % 2 == 0 || p.kind() == GameKind::Baroque {
                    Coords::Standard
                } else {
                    Coords::Page
                };
                (p, Naming::coords(coords))
            })
            .collect()
    }

    #[test]
    fn to_json_writes_what_serde_writes() {
        let mut checked = 0;
        for (i, (position, naming)) in positions().into_iter().enumerate() {
            let warnings = if i % 7 == 0 {
                vec![crate::rules::Problem {
                    kind: crate::rules::ProblemKind::NoKing,
                    message: "a \"quoted\" message\n".into(),
                }]
            } else {
                Vec::new()
            };
            let read = CheckedPosition {
                position,
                naming,
                warnings,
            };
            let r = crate::app::analysis::analyze(&read, &Cancel::new());
            let warnings = read.wire_warnings();
            let (fast, serde) = (
                to_json(&r, &warnings),
                serde_json::to_vec(&AnalyzeResponse::of(&r, warnings.clone())).unwrap(),
            );
            assert!(
                fast == serde,
                "{}\n{}",
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&serde)
            );
            checked += 1;
        }
        assert!(checked > 1_000, "{checked}");
    }
}
