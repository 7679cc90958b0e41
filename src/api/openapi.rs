//! The OpenAPI 3.1 document: built from the handlers' `#[utoipa::path]` attributes as they are
//! registered, served at `/openapi.json` and committed as `openapi/openapi.json`
//! (`baroque openapi > openapi/openapi.json` regenerates it; a test fails when the two differ).

use super::routes;
use actix_web::App;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

/// The document's fixed parts: info, tags, and the schemas no handler names.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "baroque",
        description = "Verifies positions and puzzles of Baroque chess (Ultima) and of its 10x10 \
                       relative Rococo (`\"game\": \"rococo\"`, squares optionally in the Rococo \
                       page's names with `\"coords\": \"page\"`): the legal moves of a \
                       position, whether a line of moves is legal with what each move captures, and \
                       whether a mate-in-N puzzle is sound. \
                       Every error is an RFC 9457 `application/problem+json` document (schema `Problem`)."
    ),
    tags(
        (name = "positions", description = "Analyse a position; verify a line of moves"),
        (name = "solver", description = "Prove mate-in-N puzzles: keys, cooks, short solutions, soundness, the solution tree"),
        (name = "puzzles", description = "The puzzle store: verified diagrams and mates; writes need a bearer token"),
        (name = "collections", description = "Generated collections of sound mate puzzles: start a generation job (bearer token), follow it, list and export collections"),
        (name = "diagrams", description = "Positions and stored puzzles drawn as SVG images"),
        (name = "rules", description = "The rule presets and options"),
        (name = "service", description = "Health")
    ),
    components(schemas(
        super::problem::Problem,
        super::problem::PositionProblem,
        super::routes::diagram::DiagramCoords
    )),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

/// Adds the `bearer` security scheme (the write token of `BAROQUE_WRITE_TOKEN`).
struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The write token the server was started with (BAROQUE_WRITE_TOKEN)",
                    ))
                    .build(),
            ),
        );
    }
}

/// The OpenAPI document of the service.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes::configure)
        .split_for_parts();
    doc
}

/// The document as served and committed: pretty-printed JSON with a trailing newline.
pub fn openapi_json() -> String {
    document_text(&openapi())
}

/// A document as pretty-printed JSON with a trailing newline.
pub fn document_text(doc: &utoipa::openapi::OpenApi) -> String {
    let mut text = doc
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// The paths of the document with the methods each accepts, upper case (`[("/health", ["GET"])]`).
pub fn allowed_methods(doc: &utoipa::openapi::OpenApi) -> Vec<(String, Vec<String>)> {
    doc.paths
        .paths
        .iter()
        .map(|(path, item)| {
            let methods = [
                ("GET", item.get.is_some()),
                ("PUT", item.put.is_some()),
                ("POST", item.post.is_some()),
                ("DELETE", item.delete.is_some()),
                ("OPTIONS", item.options.is_some()),
                ("HEAD", item.head.is_some()),
                ("PATCH", item.patch.is_some()),
                ("TRACE", item.trace.is_some()),
            ];
            let allow = methods
                .iter()
                .filter(|(_, on)| *on)
                .map(|(m, _)| m.to_string())
                .collect();
            (path.clone(), allow)
        })
        .collect()
}

/// Examples computed by the engine from the seed diagrams (fixtures/diagrams/), so the document
/// cannot drift from what the service answers.
pub mod examples {
    use crate::api::model::{AnalyzeResponse, CheckedPosition, Health, VerifyQuery};
    use crate::api::problem::ApiError;
    use crate::api::routes::{analyze_checked, rules::catalog, verify_moves};
    use crate::rules::rococo::Coords;
    use crate::rules::{Naming, Preset, Rules, Variant};
    use crate::solver::Cancel;

    fn analyze_position(p: &CheckedPosition) -> AnalyzeResponse {
        analyze_checked(p, &Cancel::new())
    }
    use serde::Serialize;
    use serde_json::Value;

    /// The vchess Pawn diagram: `Pc2c4` captures the Leaper on c5 and the Coordinator on d4.
    pub const PAWN_FEN: &str = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0";
    /// The Wikipedia King diagram: White to move, with the mate `Kc4-d5` among its moves.
    pub const KING_FEN: &str = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
    /// The vchess King diagram: `Ke5` would leave the White King capturable.
    pub const KING_SELF_CHECK_FEN: &str = "7k/8/8/p4r2/4K3/8/8/8 w 0";

    fn value(v: impl Serialize) -> Value {
        serde_json::to_value(v).unwrap_or_else(|e| Value::String(e.to_string()))
    }

    fn position(fen: &str, preset: Preset) -> Result<CheckedPosition, ApiError> {
        CheckedPosition::parse(fen, Rules::preset(preset))
    }

    fn verify(fen: &str, preset: Preset, moves: &[&str]) -> Value {
        match position(fen, preset) {
            Ok(position) => value(verify_moves(&VerifyQuery {
                position,
                moves: moves.iter().map(|m| m.to_string()).collect(),
            })),
            Err(e) => value(e.problem()),
        }
    }

    /// The Rococo start position (fixtures/diagrams/rococo.json, `rc-start-*`).
    pub const ROCOCO_START_FEN: &str =
        "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0";
    /// The Rococo page's Chameleon example (`rc-chameleon-leap-withdraw-approach`): `Xb3-b5`
    /// (page `Xa2-a4`) takes a Long Leaper by leaping, a Withdrawer by withdrawing and an Advancer
    /// by approaching.
    pub const ROCOCO_CHAMELEON_FEN: &str = "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0";
    /// A Rococo mate in 1: the Long Leaper takes the King, `Le4xe9` (page `Ld3xd8`).
    pub const ROCOCO_MATE_FEN: &str = "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0";

    fn rococo(fen: &str, coords: Coords) -> Result<CheckedPosition, ApiError> {
        CheckedPosition::of(Variant::Rococo, fen, Naming::coords(coords))
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

    fn problem(fen: &str) -> Value {
        match position(fen, Preset::Vchess) {
            Ok(_) => Value::Null,
            Err(e) => value(e.problem()),
        }
    }

    /// [`PAWN_FEN`] with a first rank of nine squares.
    pub fn problem_invalid_fen() -> Value {
        problem("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K8 w 0")
    }

    /// [`PAWN_FEN`] with a second White King on h1.
    pub fn problem_impossible_position() -> Value {
        problem("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K6K w 0")
    }

    /// The problem `two_kings`.
    pub fn position_problem() -> Value {
        problem_impossible_position()["problems"][0].clone()
    }

    /// The warning for [`KING_FEN`] without its Black King.
    pub fn warning() -> Value {
        match position("8/8/8/8/2K2M2/3q4/8/8 w 0", Preset::Abbott) {
            Ok(p) => p.warnings.first().map(value).unwrap_or_default(),
            Err(e) => value(e.problem()),
        }
    }

    /// The Wikipedia Chameleon diagram: `Xg6-e6-c6` (`Bg6xc6`) captures seven pieces, the only key
    /// of a mate in 2.
    pub const CHAMELEON_FEN: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";

    /// `POST /v1/solve` of [`CHAMELEON_FEN`], mate in 2, with the intended key `Xg6-e6-c6`; one
    /// thread, so the node count is the same every time, and `millis` fixed at 12 (it varies).
    pub fn solve_response() -> Value {
        solve(crate::api::model::SolveRequest {
            fen: CHAMELEON_FEN.into(),
            mate_in: 2,
            rules: None,
            game: None,
            coords: None,
            limits: None,
            key: Some("Xg6-e6-c6".into()),
            max_tree_nodes: None,
        })
    }

    /// `POST /v1/solve` of [`ROCOCO_MATE_FEN`], mate in 1, in page coordinates with the key
    /// `Ld3xd8`.
    pub fn solve_response_rococo() -> Value {
        solve(crate::api::model::SolveRequest {
            fen: ROCOCO_MATE_FEN.into(),
            mate_in: 1,
            rules: None,
            game: Some(crate::api::model::GameName::Rococo),
            coords: Some(crate::api::model::CoordsName::Page),
            limits: None,
            key: Some("Ld3xd8".into()),
            max_tree_nodes: None,
        })
    }

    /// A solve on one thread, so the node count is the same every time, and `millis` fixed at 12.
    fn solve(request: crate::api::model::SolveRequest) -> Value {
        let settings = crate::api::Settings {
            solve_threads: Some(1),
            solve_table_mib: 1,
            ..crate::api::Settings::default()
        };
        let max = crate::api::configuration::SolveLimits::from(&settings);
        match crate::api::model::SolveQuery::parse(request, &max) {
            Ok(q) => {
                let mut v = value(crate::api::routes::solve_query(&q));
                v["millis"] = Value::from(12);
                v
            }
            Err(e) => value(e.problem()),
        }
    }

    /// The key `Bg6xc6` of the Chameleon diagram.
    pub fn key_move() -> Value {
        solve_response()["keys"][0].clone()
    }

    /// The tree below the key `Bg6xc6`.
    pub fn attack_node() -> Value {
        solve_response()["tree"][0].clone()
    }

    /// The only defence to `Bg6xc6`, `Kb7xc8`, answered by two mates (a dual).
    pub fn defence_node() -> Value {
        attack_node()["defences"][0].clone()
    }

    /// The vchess Pawn diagram as the store keeps it (id 26 in a fresh store: the 25 Rococo cases
    /// come first).
    pub fn puzzle() -> Value {
        let new = crate::puzzle::NewPuzzle {
            kind: crate::store::Kind::Diagram,
            game: crate::cases::Game::Baroque,
            fen: PAWN_FEN.into(),
            rules: Rules::preset(Preset::Vchess),
            title: Some("Pawn/Pincer".into()),
            source: Some("vchess.club: Baroque chess rules".into()),
            caption: None,
            tags: vec!["fixture".into(), "pawn".into()],
            moves: vec!["Pc2c4".into()],
            legal: true,
            reason: None,
            captures: Some(vec![
                crate::cases::SquarePiece {
                    square: "d4".into(),
                    piece: "r".into(),
                },
                crate::cases::SquarePiece {
                    square: "c5".into(),
                    piece: "n".into(),
                },
            ]),
            status: None,
            frozen: None,
            destinations: None,
            mate_in: None,
            keys: None,
            short_solutions: None,
            sound: None,
            fixture: Some("vc-pawn-c2c4".into()),
        };
        match crate::puzzle::verify(new, &crate::solver::SolveOptions::default()) {
            Ok(v) => serde_json::json!({
                "id": 26,
                "kind": "diagram",
                "game": "baroque",
                "fen": v.fen,
                "rules": value(crate::api::model::ResolvedRules::from(&v.rules)),
                "source": v.source,
                "title": v.title,
                "caption": null,
                "tags": v.tags,
                "moves": v.moves,
                "captures": value(&v.captures),
                "mate_in": null,
                "fixture": v.fixture,
                "created_at": "2026-11-22T04:30:00.000Z",
                "content_hash": v.content_hash,
                "outcome": v.outcome,
            }),
            Err(e) => Value::String(e.to_string()),
        }
    }

    /// The Rococo page's Chameleon example as the store keeps it (id 5 in a fresh store).
    pub fn puzzle_rococo() -> Value {
        let piece = |square: &str, piece: &str| crate::cases::SquarePiece {
            square: square.into(),
            piece: piece.into(),
        };
        let new = crate::puzzle::NewPuzzle {
            kind: crate::store::Kind::Diagram,
            game: crate::cases::Game::Rococo,
            fen: ROCOCO_CHAMELEON_FEN.into(),
            rules: Rules::default(),
            title: Some("Chameleon".into()),
            source: Some("chessvariants.com: Rococo (seed 003)".into()),
            caption: None,
            tags: vec!["chameleon".into(), "fixture".into()],
            moves: vec!["Xb3-b5".into()],
            legal: true,
            reason: None,
            captures: Some(vec![piece("b4", "L"), piece("b2", "W"), piece("b6", "A")]),
            status: None,
            frozen: None,
            destinations: None,
            mate_in: None,
            keys: None,
            short_solutions: None,
            sound: None,
            fixture: Some("rc-chameleon-leap-withdraw-approach".into()),
        };
        match crate::puzzle::verify(new, &crate::solver::SolveOptions::default()) {
            Ok(v) => serde_json::json!({
                "id": 5,
                "kind": "diagram",
                "game": "rococo",
                "fen": v.fen,
                "rules": null,
                "source": v.source,
                "title": v.title,
                "caption": null,
                "tags": v.tags,
                "moves": v.moves,
                "captures": value(&v.captures),
                "mate_in": null,
                "fixture": v.fixture,
                "created_at": "2026-11-22T04:30:00.000Z",
                "content_hash": v.content_hash,
                "outcome": v.outcome,
            }),
            Err(e) => Value::String(e.to_string()),
        }
    }

    /// A page of one puzzle, the last.
    pub fn puzzle_page() -> Value {
        let mut item = puzzle();
        if let Some(o) = item.as_object_mut() {
            o.remove("outcome");
        }
        serde_json::json!({"items": [item], "next_cursor": null})
    }

    /// `GET /v1/rules`.
    pub fn rules_catalog() -> Value {
        value(catalog())
    }

    /// The `vchess` preset.
    pub fn preset_info() -> Value {
        rules_catalog()["presets"][2].clone()
    }

    /// The `suicide` option.
    pub fn option_info() -> Value {
        rules_catalog()["options"][1].clone()
    }

    /// `GET /health`.
    pub fn health() -> Value {
        value(Health {
            status: "ok".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn examples_are_what_the_seed_diagrams_give() {
            let m = legal_move();
            assert_eq!(m["notation"], "Pc2xc4");
            assert_eq!(
                m["captures"],
                serde_json::json!([{"square": "d4", "piece": "r"}, {"square": "c5", "piece": "n"}])
            );
            assert_eq!(
                verified_move()["fen_after"],
                "7k/5ppp/2N5/8/2P1B3/8/PP6/K7 b 1"
            );
            assert_eq!(illegal_move()["reason"], "self_check");
            assert_eq!(problem_invalid_fen()["field"], "board");
            assert_eq!(position_problem()["code"], "two_kings");
            assert_eq!(warning()["code"], "no_king");
            assert_eq!(preset_info()["name"], "vchess");
            assert_eq!(option_info()["name"], "suicide");
            let a = analyze_response();
            assert_eq!(a["status"], "check");
            let mates: Vec<_> = a["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["checkmate"] == true)
                .map(|m| m["notation"].as_str().unwrap())
                .collect();
            assert!(mates.contains(&"Kc4-d5"), "{mates:?}");
            let s = solve_response();
            assert_eq!(s["result"], "mate");
            assert_eq!(s["sound"], true);
            assert_eq!(key_move()["notation"], "Bg6xc6");
            assert_eq!(key_move()["captures"].as_array().map(Vec::len), Some(7));
            assert_eq!(s["intended_key"]["mate_in"], 2);
            assert_eq!(defence_node()["dual"], true);
            assert_eq!(solve_response(), s, "the example is the same every time");
        }
    }
}
