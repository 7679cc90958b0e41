//! `POST /v1/analyze`.

use crate::api::model::{
    square_pieces, AnalyzeQuery, AnalyzeRequest, AnalyzeResponse, CheckedPosition, GameStatus,
    LegalMove, Object, ResolvedRules, ShortText,
};
use crate::api::problem::{ApiError, Problem};
use crate::rules::{Board8, Geometry, Letters, Move, Piece, Status};
use actix_web::http::header::ContentType;
use actix_web::{post, web, HttpResponse};
use serde::Serialize;

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
pub async fn analyze(body: web::Json<Object<AnalyzeRequest>>) -> Result<HttpResponse, ApiError> {
    let query = AnalyzeQuery::try_from(body.into_inner().0)?;
    // One position costs little and its cost is bounded: about 10 us on average and 27 us at worst
    // over 7,200 positions of random games (release build), within what a worker may spend between
    // awaits. So it runs here; a hop to the blocking pool cost 40% of the throughput. Verify, whose
    // cost grows with its moves, runs on the blocking pool.
    let response = analyze_position(&query.position);
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(to_json(&response)))
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
            let (notation, uci) = names(mv);
            let mut piece = ShortText::default();
            piece.push(Piece::new(pos.turn(), mv.role).letter(Letters::Chess));
            LegalMove {
                notation,
                uci,
                piece,
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

/// The response as JSON: what `serde_json::to_vec` writes (a test checks it byte for byte), with the
/// move list written directly (its texts are [`ShortText`]s, which never need an escape). The moves are most of the body, and serde's generic path through
/// eight fields a move was a quarter of the endpoint's time on the server.
pub fn to_json(r: &AnalyzeResponse) -> Vec<u8> {
    #[derive(Serialize)]
    struct Head<'a> {
        fen: &'a str,
        fen_baroque: &'a str,
        side_to_move: crate::api::model::Side,
        status: GameStatus,
        rules: ResolvedRules,
        frozen: &'a [crate::api::model::SquarePiece],
        warnings: &'a [crate::api::model::Warning],
    }
    let head = Head {
        fen: &r.fen,
        fen_baroque: &r.fen_baroque,
        side_to_move: r.side_to_move,
        status: r.status,
        rules: r.rules,
        frozen: &r.frozen,
        warnings: &r.warnings,
    };
    let mut out = Vec::with_capacity(512 + 112 * r.moves.len());
    if serde_json::to_writer(&mut out, &head).is_err() {
        return serde_json::to_vec(r).unwrap_or_default();
    }
    out.pop(); // the closing brace
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in r.moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
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
            return serde_json::to_vec(r).unwrap_or_default();
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

/// The canonical notation (`Pc2xc4`, as `Position::move_name` writes it in chess-style letters) and
/// the `uci` (`c2c4`, as `Move::uci`) of a move, written in place: the engine's functions format
/// through temporary strings, which was half the cost of an analysis. A test
/// checks both against the engine's for every legal move of the seed positions.
fn names(mv: &Move) -> (ShortText, ShortText) {
    let mut uci = ShortText::default();
    push_square(&mut uci, mv.from);
    push_square(&mut uci, mv.to);
    let mut notation = ShortText::default();
    notation.push(mv.role.letter(Letters::Chess));
    push_square(&mut notation, mv.from);
    notation.push(if mv.is_capture() { 'x' } else { '-' });
    push_square(&mut notation, mv.to);
    (notation, uci)
}

/// Appends a square's name (`c2`).
fn push_square(out: &mut ShortText, sq: u8) {
    out.push(char::from(b'a' + Board8::file_of(sq)));
    let rank = Board8::rank_of(sq) + 1;
    if rank >= 10 {
        out.push(char::from(b'0' + rank / 10));
    }
    out.push(char::from(b'0' + rank % 10));
}

#[cfg(test)]
mod tests {
    use super::{analyze_position, names, to_json};
    use crate::api::model::CheckedPosition;
    use crate::rules::{Letters, Position, Rules, START_FEN};

    #[test]
    fn names_are_the_engines() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagrams");
        let mut positions = vec![Position::from_fen(START_FEN, Rules::default()).unwrap()];
        for path in crate::cases::files_in(&dir).unwrap() {
            let file = crate::cases::read_file(&path).unwrap();
            if file.game != crate::cases::Game::Baroque {
                continue;
            }
            for case in file.cases {
                let mut rules = case.rules().unwrap();
                rules.suicide = true;
                let pos = Position::from_fen(&case.fen, rules).unwrap();
                positions.extend(pos.legal_moves().iter().map(|m| pos.after(m)));
                positions.push(pos);
            }
        }
        let mut checked = 0;
        for pos in &positions {
            for mv in pos.legal_moves() {
                let (notation, uci) = names(&mv);
                assert_eq!(notation.as_str(), pos.move_name(&mv, Letters::Chess));
                assert_eq!(uci.as_str(), mv.uci());
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn to_json_writes_what_serde_writes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/diagrams");
        let mut positions = vec![Position::from_fen(START_FEN, Rules::default()).unwrap()];
        for path in crate::cases::files_in(&dir).unwrap() {
            let file = crate::cases::read_file(&path).unwrap();
            if file.game != crate::cases::Game::Baroque {
                continue;
            }
            for case in file.cases {
                let pos = Position::from_fen(&case.fen, case.rules().unwrap()).unwrap();
                positions.extend(pos.legal_moves().iter().map(|m| pos.after(m)));
                positions.push(pos);
            }
        }
        // A position with warnings (no Black King) and one with frozen pieces and captures.
        for fen in ["8/8/8/8/2K2M2/3q4/8/8 w 0", "8/8/8/4k3/2K2M2/3q4/8/8 w 0"] {
            positions.push(Position::from_fen(fen, Rules::default()).unwrap());
        }
        for position in positions {
            let checked = CheckedPosition {
                position,
                warnings: Vec::new(),
            };
            let mut r = analyze_position(&checked);
            if r.moves.len() % 7 == 0 {
                r.warnings.push(crate::api::model::Warning {
                    code: "no_king".into(),
                    message: "a \"quoted\" message\n".into(),
                });
            }
            let fast = to_json(&r);
            let serde = serde_json::to_vec(&r).unwrap();
            assert!(
                fast == serde,
                "{}\n{}",
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&serde)
            );
        }
    }
}
