//! `POST /v1/analyze`.

use crate::api::model::{
    square_pieces, AnalyzeQuery, AnalyzeRequest, AnalyzeResponse, CheckedPosition, CheckedRococo,
    GameName, GamePosition, GameStatus, LegalMove, Object, ResolvedRules, ShortText,
};
use crate::api::problem::{ApiError, Problem};
use crate::api::work::{Analyses, Peer};
use crate::rules::{Board8, Geometry, Letters, Move, Piece, Status};
use crate::solver::Cancel;
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
///
/// With `"game": "rococo"` the FEN is a Rococo one (10x10) and the answer has the same members,
/// plus `can_keep_king` (whether the side to move has a move that keeps its King: Rococo is won by
/// capturing the King) and, on each move, its `kind` (`normal`, `swap`, `mutual_destruction`,
/// `suicide`) and any `promotion`. `status` is then `check` when the King could be captured now
/// and some move saves it, `checkmate` when no move keeps it, `stalemate` when there is no move at
/// all (a draw). Every move is listed, those that leave the King capturable too. Squares follow
/// `coords` (`standard` a-j/1-10, or `page`: the Rococo page's x, a-h, y and 0, 1-8, 00). `rules`
/// does not apply to Rococo, nor `coords: page` to Baroque (422 `not-applicable`).
///
/// Any position accepted costs at most a few milliseconds to analyse. A Rococo analysis runs under
/// the analysis slots (`--analysis-concurrency`): one more is refused with 503 `analysis-busy` and
/// `Retry-After`; a request whose client disconnects is stopped.
#[utoipa::path(
    tag = "positions",
    request_body(content = AnalyzeRequest, description = "A FEN and an optional rule set"),
    responses(
        (status = 200, description = "The position's state and legal moves", body = AnalyzeResponse),
        (status = 400, description = "Malformed JSON (`malformed-json`), or a body that does not match the schema: unknown or missing fields, wrong types, unknown rule names (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "The body is larger than the limit (`payload-too-large`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not sent as `application/json` (`unsupported-media-type`)", body = Problem, content_type = "application/problem+json"),
        (status = 408, description = "The body did not arrive within the server's `--body-timeout-ms` (`body-timeout`, with `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An unreadable FEN (`invalid-fen`, with `field` and `position`), an impossible position (`impossible-position`, with `problems`), or `coords: page` with Baroque or `rules` with Rococo (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "A Rococo analysis found every analysis slot taken (`analysis-busy`, with `limit`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/analyze")]
pub async fn analyze(
    body: web::Json<Object<AnalyzeRequest>>,
    analyses: web::Data<Analyses>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let query = AnalyzeQuery::try_from(body.into_inner().0)?;
    let response = match query.position {
        // One position costs little and its cost is bounded: about 10 us on average and 27 us at
        // worst over 7,200 positions of random games (release build), within what a worker may
        // spend between awaits. So it runs here; a hop to the blocking pool cost 40% of the
        // throughput. Verify, whose cost grows with its moves, runs on the blocking pool.
        GamePosition::Baroque(p) => analyze_position(&p),
        // A Rococo move's status needs the moves of the position after it, each tested for
        // keeping the King: at most a few milliseconds on the costliest boards found
        // (benches/bounds.rs), still off the async workers and under the analysis slots.
        GamePosition::Rococo(p) => {
            analyses
                .run(peer, move |cancel| analyze_rococo_until(&p, cancel))
                .await?
        }
    };
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
                kind: None,
                promotion: None,
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
        game: GameName::Baroque,
        fen: pos.fen(Letters::Chess),
        fen_baroque: Some(pos.fen(Letters::Baroque)),
        side_to_move: pos.turn().into(),
        status: GameStatus::from(status),
        can_keep_king: None,
        rules: Some(ResolvedRules::from(pos.rules())),
        frozen: square_pieces(pos, pos.frozen()),
        warnings: checked.warnings.clone(),
        moves,
    }
}

/// The analysis of a Rococo position, squares in the request's coordinates. Every move is listed;
/// `gives_check` says the opponent's King could be taken next, `checkmate` that the move takes it
/// or leaves the opponent no move that keeps it.
pub fn analyze_rococo(checked: &CheckedRococo) -> AnalyzeResponse {
    analyze_rococo_until(checked, &Cancel::new())
}

/// [`analyze_rococo`], stopping early (with the moves so far) once `cancel` is raised: the client
/// has gone and will not read the answer.
pub fn analyze_rococo_until(checked: &CheckedRococo, cancel: &Cancel) -> AnalyzeResponse {
    let (pos, coords) = (&checked.position, checked.coords);
    let moves: Vec<LegalMove> = pos
        .legal_moves()
        .iter()
        .take_while(|_| !cancel.is_cancelled())
        .map(|mv| {
            let after = pos.after(mv);
            let info = pos.move_info(mv, coords);
            let mut piece = ShortText::default();
            piece.push(Piece::new(pos.turn(), mv.role).rococo_letter());
            let promotion = mv.promotion.map(|r| {
                let mut t = ShortText::default();
                t.push(Piece::new(pos.turn(), r).rococo_letter());
                t
            });
            LegalMove {
                notation: ShortText::from(info.notation.as_str()),
                uci: ShortText::from(info.uci.as_str()),
                piece,
                captures: info.captures.into_iter().map(Into::into).collect(),
                gives_check: after.king_capturable(after.turn()),
                checkmate: pos.status_after(mv, &after) == Status::Checkmate,
                kind: Some(mv.kind.into()),
                promotion,
            }
        })
        .collect();
    let status = pos.status();
    AnalyzeResponse {
        game: GameName::Rococo,
        fen: pos.fen(coords),
        fen_baroque: None,
        side_to_move: pos.turn().into(),
        status: GameStatus::from(status),
        can_keep_king: Some(status != Status::Checkmate),
        rules: None,
        frozen: pos
            .square_pieces(pos.frozen(), coords)
            .into_iter()
            .map(Into::into)
            .collect(),
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
        game: GameName,
        fen: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        fen_baroque: Option<&'a str>,
        side_to_move: crate::api::model::Side,
        status: GameStatus,
        #[serde(skip_serializing_if = "Option::is_none")]
        can_keep_king: Option<bool>,
        rules: Option<ResolvedRules>,
        frozen: &'a [crate::api::model::SquarePiece],
        warnings: &'a [crate::api::model::Warning],
    }
    let head = Head {
        game: r.game,
        fen: &r.fen,
        fen_baroque: r.fen_baroque.as_deref(),
        side_to_move: r.side_to_move,
        status: r.status,
        can_keep_king: r.can_keep_king,
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
        if m.kind.is_some() || m.promotion.is_some() {
            // A Rococo move: serde writes its optional members.
            if serde_json::to_writer(&mut out, m).is_err() {
                return serde_json::to_vec(r).unwrap_or_default();
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
        let mut rococo = Vec::new();
        let file = crate::cases::read_file(&dir.join("rococo.json")).unwrap();
        let start = crate::rules::rococo::RococoPosition::start();
        rococo.extend(start.legal_moves().iter().map(|m| start.after(m)));
        rococo.push(start);
        for case in file.cases {
            let pos = crate::rules::rococo::RococoPosition::from_fen(
                &case.fen,
                crate::rules::rococo::Coords::Standard,
            )
            .unwrap();
            rococo.extend(pos.legal_moves().iter().map(|m| pos.after(m)));
            rococo.push(pos);
        }
        for (i, position) in rococo.into_iter().enumerate() {
            let coords = if i % 2 == 0 {
                crate::rules::rococo::Coords::Standard
            } else {
                crate::rules::rococo::Coords::Page
            };
            let r = super::analyze_rococo(&crate::api::model::CheckedRococo {
                position,
                coords,
                warnings: Vec::new(),
            });
            assert_eq!(to_json(&r), serde_json::to_vec(&r).unwrap());
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
