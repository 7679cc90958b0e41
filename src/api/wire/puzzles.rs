//! The wire types of `/v1/puzzles`: the puzzle posted, a listing's query and page, the answers of
//! a post (one puzzle, or a result per PGN game) and of a read.

use crate::api::common::{position_request, GameName, PresetName, SquarePiece};
use crate::api::problem::{ApiError, Problem};
use crate::api::wire::{Puzzle, PuzzleKind};
use crate::app::library::{After, Filter};
use crate::puzzle::{About, Claim, DiagramClaim, MateClaim};
use crate::rules::prelude::*;
use crate::rules::rococo::Coords;
use crate::rules::Naming;
use actix_web::web;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

position_request! {
/// `POST /v1/puzzles`: a puzzle to verify and store. Whatever `coords` the request names squares
/// in (FEN's last-swap field, `moves`, `captures`, `keys`), the puzzle is stored, and answered, in
/// standard coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({
    "kind": "diagram",
    "fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0",
    "rules": "vchess",
    "game": "baroque",
    "title": "Pawn: a double capture",
    "source": "vchess.club rules page",
    "tags": ["pawn"],
    "moves": ["Pc2c4"],
    "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}],
    "status": "ongoing"
}), json!({
    "kind": "mate",
    "fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
    "title": "Chameleon: seven captures",
    "tags": ["chameleon"],
    "mate_in": 2
})))]
pub struct PuzzleRequest {
    pub kind: PuzzleKind,
    /// The position, either letter set; stored canonical.
    #[schema(example = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0")]
    pub fen: String,
    @position_fields,
    #[serde(default)]
    pub title: Option<String>,
    /// The document the puzzle comes from.
    #[serde(default)]
    pub source: Option<String>,
    /// What the document says about it.
    #[serde(default)]
    pub caption: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Diagram: the moves as the document writes them; the last is the one the claim is about.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
    /// Diagram: exactly the pieces the last move captures (`[]` for none); needed when it is legal.
    #[serde(default)]
    pub captures: Option<Vec<SquarePiece>>,
    /// Diagram: the status after the last move (`ongoing`, `check`, `checkmate`, `stalemate`).
    #[serde(default)]
    #[schema(example = "ongoing")]
    pub status: Option<String>,
    /// Diagram: whether the last move is legal (default true).
    #[serde(default)]
    pub legal: Option<bool>,
    /// Diagram: for an illegal last move, the expected reason (`self_check`, `frozen`, ...).
    #[serde(default)]
    pub reason: Option<String>,
    /// Mate: N of `#N` (leave it out when `stipulation` is given; both given must agree).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(minimum = 1, maximum = 12)]
    pub mate_in: Option<u32>,
    /// Mate: the stipulation, `#N`, `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`, `h=N`, `h=N.5`, `r#N`, `semi-r#N`, `ser-#N`, `ser-=N`, `ser-s#N` or `ser-h#N` (as for
    /// `/v1/solve`; the side to move
    /// must be the one it starts with). Default: `#` and `mate_in`.
    #[serde(default)]
    #[schema(example = "h#2")]
    pub stipulation: Option<String>,
    /// Mate: `#N`, `s#N`: every first move that reaches the goal within N (any notation), when the
    /// puzzle states them; a helpmate: the first moves of its solutions.
    #[serde(default)]
    pub keys: Option<Vec<String>>,
    /// Helpmate: every solution, each a line of moves (any notation), when the puzzle states them.
    #[serde(default)]
    #[schema(example = json!([["Kd3-c2", "Kb4-c3"]]))]
    pub solutions: Option<Vec<Vec<String>>>,
    /// Helpmate: the number of solutions a sound one has (default 1; 1 to 1000).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 1, minimum = 1, maximum = 1000)]
    pub intended_solutions: Option<u32>,
    /// Mate: whether the puzzle is sound, when it states it.
    #[serde(default)]
    pub sound: Option<bool>,
    /// The problem's composers, as they sign (at most 20; its history, which
    /// `PATCH /v1/puzzles/{id}` corrects).
    #[serde(default)]
    #[schema(example = json!(["R. Abbott"]))]
    pub authors: Vec<String>,
    /// When it was published: `YYYY` or `YYYY-MM-DD` (`source` names where).
    #[serde(default)]
    #[schema(example = "1963")]
    pub published: Option<String>,
    /// Its award (`1st Prize`, `Commendation`).
    #[serde(default)]
    pub award: Option<String>,
    /// Free keywords (at most 50).
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Anything else about it (at most 20,000 characters).
    #[serde(default)]
    pub notes: Option<String>,
    /// Mate: `refuse` refuses a puzzle whose position (up to a symmetry of its game), stipulation
    /// and rule set the store holds (409 `anticipated`, naming the stored puzzle and the
    /// symmetry); `allow` (the default) stores it unless its content is stored.
    #[serde(default)]
    pub anticipation: Option<crate::api::wire::database::AnticipationPolicy>,
}
}

impl PuzzleRequest {
    /// The puzzle to verify; the FEN is read here so that its errors are the usual problems.
    ///
    /// # Errors
    /// Those of [`PuzzleRequest::position`], and a claim that does not fit its kind.
    pub fn into_new_puzzle(self) -> Result<crate::puzzle::NewPuzzle, ApiError> {
        let history = crate::puzzle::History {
            authors: self.authors.clone(),
            published: self.published.clone(),
            award: self.award.clone(),
            keywords: self.keywords.clone(),
            notes: self.notes.clone(),
        }
        .checked()
        .map_err(ApiError::InvalidHistory)?;
        // The FEN is read here, so its errors are the usual problems; page coordinates become
        // standard ones.
        let checked = self.position()?;
        let fen = checked.position.fen(Naming::default());
        let coords = checked.naming.coords;
        let standard = |text: String| Coords::Standard.restate(&text, coords);
        let not_verified = |reason: &str| ApiError::PuzzleNotVerified(vec![reason.to_string()]);
        let claim = match self.kind {
            PuzzleKind::Diagram => {
                if self.mate_in.is_some() || self.keys.is_some() || self.sound.is_some() {
                    return Err(not_verified(
                        "a diagram takes `moves` and `captures`, not `mate_in`, `keys` or `sound`",
                    ));
                }
                if self.stipulation.is_some()
                    || self.solutions.is_some()
                    || self.intended_solutions.is_some()
                {
                    return Err(not_verified(
                        "a diagram takes `moves` and `captures`, not `stipulation`, `solutions` \
                         or `intended_solutions`",
                    ));
                }
                Claim::Diagram(DiagramClaim {
                    moves: self
                        .moves
                        .unwrap_or_default()
                        .into_iter()
                        .map(standard)
                        .collect(),
                    legal: self.legal.unwrap_or(true),
                    reason: self.reason,
                    captures: self.captures.map(|v| {
                        v.into_iter()
                            .map(|p| crate::cases::SquarePiece {
                                square: standard(p.square),
                                piece: p.piece,
                            })
                            .collect()
                    }),
                    status: self.status,
                    frozen: None,
                    destinations: None,
                })
            }
            PuzzleKind::Mate => {
                if self.moves.as_ref().is_some_and(|m| !m.is_empty())
                    || self.captures.is_some()
                    || self.status.is_some()
                {
                    return Err(not_verified(
                        "a mate takes `mate_in` (and optionally `keys` and `sound`), not `moves`, `captures` or `status`",
                    ));
                }
                use crate::solver::{Stipulation, StipulationError};
                let stipulation =
                    match Stipulation::from_parts(self.mate_in, self.stipulation.as_deref()) {
                        Ok(s) => s,
                        Err(StipulationError::Missing) => {
                            return Err(not_verified("a mate needs `mate_in` or `stipulation`"))
                        }
                        Err(StipulationError::Unreadable(text)) => {
                            return Err(ApiError::InvalidStipulation(format!(
                                "`stipulation` {text:?} is not one: write {} (such as \"#2\", \
                                 \"s#3\", \"h#2\", \"h#2.5\", \"=2\")",
                                Stipulation::FORMS
                            )))
                        }
                        Err(StipulationError::Disagree(n, s)) => {
                            return Err(ApiError::InvalidStipulation(format!(
                                "`mate_in` {n} means #{n}, but `stipulation` is {s}: give one \
                                 of them"
                            )))
                        }
                    };
                if !stipulation.lists_lines()
                    && (self.solutions.is_some() || self.intended_solutions.is_some())
                {
                    return Err(not_verified(
                        "`solutions` and `intended_solutions` are a helpmate's or a series \
                         mover's; this puzzle is neither",
                    ));
                }
                let intended_solutions = match self.intended_solutions {
                    Some(k) if !(1..=1000).contains(&k) => {
                        return Err(ApiError::InvalidStipulation(format!(
                            "`intended_solutions` is {k}: it must be between 1 and 1000"
                        )))
                    }
                    k => k.map(|k| k as usize),
                };
                Claim::Mate(MateClaim {
                    stipulation,
                    keys: self
                        .keys
                        .map(|keys| keys.into_iter().map(standard).collect()),
                    short_solutions: None,
                    solutions: self.solutions.map(|lines| {
                        lines
                            .into_iter()
                            .map(|l| l.into_iter().map(standard).collect())
                            .collect()
                    }),
                    intended_solutions,
                    sound: self.sound,
                })
            }
        };
        Ok(crate::puzzle::NewPuzzle {
            variant: checked.position.variant(),
            fen,
            claim,
            about: About {
                title: self.title,
                source: self.source,
                caption: self.caption,
                tags: self.tags,
                fixture: None,
                history,
            },
        })
    }
}

/// `GET /v1/puzzles`: one page.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(examples::puzzle_page))]
pub struct PuzzlePage {
    /// The puzzles of the page, by increasing id (`sort=difficulty`: by increasing difficulty,
    /// then id).
    pub items: Vec<Puzzle>,
    /// The `cursor` of the next page; null on the last.
    pub next_cursor: Option<String>,
}

/// The largest page.
pub const MAX_PAGE: u32 = 200;
/// The page size when `limit` is absent.
pub const DEFAULT_PAGE: u32 = 50;

/// `GET /v1/puzzles` filters and paging.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PuzzleListQuery {
    /// Only puzzles of this kind.
    pub kind: Option<PuzzleKind>,
    /// Only puzzles of this game.
    pub game: Option<GameName>,
    /// Only Baroque puzzles under this preset (with any options).
    pub rules: Option<PresetName>,
    /// Only mate puzzles whose stipulation has this N (1 to 12).
    #[param(minimum = 1, maximum = 12)]
    pub mate_in: Option<u32>,
    /// Only mate puzzles of this stipulation (`#2`, `s#3`, `h#2`, `h#2.5`, `=2`; URL-encoded:
    /// `%232`, `s%233`, `h%232`, `%3D2`).
    #[param(example = "h#2")]
    pub stipulation: Option<String>,
    /// Only puzzles with this tag.
    pub tag: Option<String>,
    /// Only puzzles from this source document (exact).
    pub source: Option<String>,
    /// Only mate puzzles of at least this difficulty (0 to 100; diagrams have none).
    #[param(value_type = Option<u32>, minimum = 0, maximum = 100, example = 20)]
    pub difficulty_min: Option<String>,
    /// Only mate puzzles of at most this difficulty (0 to 100; diagrams have none).
    #[param(value_type = Option<u32>, minimum = 0, maximum = 100, example = 60)]
    pub difficulty_max: Option<String>,
    /// Only mate puzzles rated within these bounds, `MIN..MAX` (either may be left out:
    /// `1400..`, `..1600`; 0 to 4000); diagrams have no rating.
    #[param(
        example = "1400..1600",
        pattern = "^([0-9]{1,4}(\\.[0-9]+)?)?\\.\\.([0-9]{1,4}(\\.[0-9]+)?)?$"
    )]
    pub rating: Option<String>,
    /// Only puzzles with each of these pieces (at least one of each): FEN letters of the game
    /// (either Baroque letter set), upper case White, separated by commas (`M,k`: a White
    /// Immobilizer and a Black King). Without `game`, a letter means its piece in either game.
    #[param(example = "M,k")]
    pub pieces: Option<String>,
    /// Only puzzles with each of these pieces on its square: a FEN letter and a square in the
    /// game's standard coordinates, separated by commas (`Kb4`, `Kb4,qd3`).
    #[param(example = "Kb4")]
    pub at: Option<String>,
    /// Only mate puzzles of this family of stipulations: `#`, `s#`, `h#`, `r#`, `semi-r#`, `=`,
    /// `s=`, `h=`, `ser-#`, `ser-h#`, `ser-s#` or `ser-=` (URL-encoded: `h%23`).
    #[param(example = "h#")]
    pub family: Option<String>,
    /// Only mate puzzles at least this long (`h#2.5` is 2.5 long): a multiple of 0.5 up to 100.
    #[param(value_type = Option<f64>, example = 2)]
    pub moves_min: Option<String>,
    /// Only mate puzzles at most this long.
    #[param(value_type = Option<f64>, example = 3)]
    pub moves_max: Option<String>,
    /// Only puzzles whose authors have every word of this, over all of them (without case:
    /// `abbott`).
    #[param(example = "Abbott")]
    pub author: Option<String>,
    /// Only puzzles whose keywords have every word of this, over all of them.
    #[param(example = "miniature")]
    pub keyword: Option<String>,
    /// Only puzzles whose award has every word of this (`prize`).
    #[param(example = "prize")]
    pub award: Option<String>,
    /// Only puzzles published in this year or later (1000 to 9999).
    #[param(value_type = Option<u32>, example = 1960)]
    pub year_min: Option<String>,
    /// Only puzzles published in this year or earlier.
    #[param(value_type = Option<u32>, example = 1999)]
    pub year_max: Option<String>,
    /// Full text over the title, caption, authors, source, award, keywords and notes: words,
    /// `"phrases"` and `-word` (excluded), compared without case, at least one word or phrase a
    /// puzzle must have, at most 16.
    #[param(example = "immobilizer -rococo")]
    pub text: Option<String>,
    /// The order: `id` (the default: by increasing id), `difficulty` (by increasing difficulty,
    /// then id), `rating` (by increasing rating, then id), `published` (by publication date,
    /// then id; puzzles with one only) or `relevance` (with `text`: the best matches first,
    /// then id); `difficulty` and `rating` list mate puzzles only.
    #[param(value_type = Option<PuzzleSort>)]
    pub sort: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page (absent for the first), given with the same `sort`:
    /// digits (`62`) by id, difficulty and id (`43.62`) by difficulty, rating and id
    /// (`1451.702667884292_68`) by rating, date and id (`1999-06-21_68`) by publication, relevance
    /// and id (`-3.5_68`) by relevance.
    #[param(pattern = "^-?[0-9][0-9.-]{0,40}(_[0-9]{1,18})?$", example = "62")]
    pub cursor: Option<String>,
}

/// The order of a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "difficulty")]
pub enum PuzzleSort {
    /// By increasing id.
    Id,
    /// By increasing difficulty, then id; puzzles without one (diagrams) are left out.
    Difficulty,
    /// By increasing rating, then id; puzzles without one (diagrams) are left out.
    Rating,
    /// By publication date, then id; puzzles without one are left out.
    Published,
    /// With `text`: the best matches first, then id.
    Relevance,
}

/// What became of one game of a PGN body of several games.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(examples::pgn_game_result))]
pub struct PgnGameResult {
    /// The game's number in the body, from 1.
    #[schema(example = 2)]
    pub game: usize,
    /// The line of the body it starts on.
    #[schema(example = 17)]
    pub line: usize,
    /// What a post of this game alone would have been answered: 201 stored, 200 already stored,
    /// or the status of `problem`.
    #[schema(example = 201)]
    pub status: u16,
    /// What became of it: `created`, `existing`, `rejected` (it does not verify, or cannot be
    /// read), or `unknown` (the request's budget ran out before it was settled: not stored, send
    /// it again).
    pub result: GameResult,
    /// The stored puzzle (201, 200).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<Puzzle>,
    /// Why it was not stored (`invalid-pgn`, `puzzle-not-verified`, `solver-budget-exhausted`,
    /// `rate-limited`, `solver-busy`, `store-unavailable`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<Problem>,
}

/// The answer to a PGN body of several games: a result per game, in order, and the counts.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(examples::pgn_results))]
pub struct PgnResults {
    pub results: Vec<PgnGameResult>,
    /// Games verified and stored.
    #[schema(example = 1)]
    pub created: u64,
    /// Games verified and found stored already.
    #[schema(example = 0)]
    pub existing: u64,
    /// Games not stored: they do not verify, or cannot be read.
    #[schema(example = 1)]
    pub rejected: u64,
    /// Games the request's budget did not settle (not stored: send them again).
    #[schema(example = 0)]
    pub unknown: u64,
}

/// What became of one game of a PGN body of several games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "created")]
pub enum GameResult {
    Created,
    Existing,
    Rejected,
    Unknown,
}

/// The budget of a PGN body of several games, shared by their searches: `nodes` and `millis`
/// (the server's ceilings when left out, and at most those).
#[derive(Clone, Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PostQuery {
    /// The nodes all the games' searches may visit together (at most, and by default, the
    /// server's `--solve-max-nodes`).
    #[param(minimum = 1, maximum = 9_223_372_036_854_775_807_u64)]
    pub nodes: Option<u64>,
    /// The milliseconds all the games' searches may take together (at most, and by default, the
    /// server's `--solve-max-millis`).
    #[param(minimum = 1, maximum = 9_223_372_036_854_775_807_u64)]
    pub millis: Option<u64>,
}

impl PostQuery {
    /// Reads the query of a post.
    ///
    /// # Errors
    /// [`ApiError::InvalidParameter`] for a value that is not a number from 1 to 2^63 - 1.
    pub fn read(query: &str) -> Result<PostQuery, ApiError> {
        let q = web::Query::<PostQuery>::from_query(query)
            .map_err(|e| ApiError::InvalidParameter {
                parameter: "nodes, millis",
                message: format!("the budget of the games: {e}"),
            })?
            .into_inner();
        for (parameter, value) in [("nodes", q.nodes), ("millis", q.millis)] {
            if value.is_some_and(|v| v == 0 || v > i64::MAX as u64) {
                return Err(ApiError::InvalidParameter {
                    parameter,
                    message: format!("`{parameter}` must be from 1 to {}", i64::MAX),
                });
            }
        }
        Ok(q)
    }

    /// The request's budget under the server's ceilings.
    pub fn budget(&self, max: &crate::api::configuration::SolveLimits) -> crate::solver::Limits {
        crate::solver::Limits {
            nodes: self.nodes.unwrap_or(max.max_nodes).min(max.max_nodes),
            time: std::time::Duration::from_millis(
                self.millis.unwrap_or(max.max_millis).min(max.max_millis),
            ),
        }
    }
}

/// A 200 answer of `POST /v1/puzzles`: the puzzle (a JSON body, or a PGN body of one game), or a
/// result per game (a PGN body of several games).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(examples(examples::puzzle, examples::pgn_results))]
pub enum PuzzleAnswer {
    Puzzle(Box<Puzzle>),
    Results(PgnResults),
}

/// `GET /v1/puzzles/{id}` parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PuzzleQuery {
    /// `outcome`: the puzzle with its verified outcome, which is left out otherwise.
    #[param(value_type = Option<String>, example = "outcome")]
    pub include: Option<String>,
}

/// Examples for the OpenAPI document, computed by the engine (see [`crate::api::common::examples`]).
pub mod examples {
    /// A new player solving a puzzle of difficulty 43 at its first attempt (computed by the
    /// Glicko-2 arithmetic of `baroque_puzzle::rating`).
    pub fn attempt_response() -> serde_json::Value {
        use crate::puzzle::rating::{attempt, PuzzleRating, Rating};
        let (puzzle, player) = attempt(Rating::of_difficulty(Some(43)), Rating::NEW_PLAYER, true);
        serde_json::to_value(super::AttemptResponse {
            puzzle_id: 68,
            puzzle: PuzzleRating {
                rating: puzzle,
                attempts: 1,
            }
            .into(),
            player: super::PlayerRating {
                rating: Some(player.value),
                deviation: Some(player.deviation),
                volatility: Some(player.volatility),
            },
        })
        .unwrap_or_default()
    }

    #[allow(unused_imports)]
    use super::*;
    #[allow(unused_imports)]
    use crate::api::common::examples::*;
    #[allow(unused_imports)]
    use crate::rules::rococo::Coords;
    #[allow(unused_imports)]
    use crate::rules::{Preset, Rules};
    use serde_json::Value;

    pub use crate::api::wire::examples::{chameleon_stored, puzzle};

    /// The Chameleon mate in 2 as a PGN game.
    pub fn pgn_game() -> String {
        chameleon_stored()
            .and_then(|p| crate::formats::pgn::write_puzzle(&p))
            .unwrap_or_default()
    }

    /// The answer to a PGN body of two games: the Chameleon mate, and the same game with an
    /// illegal third move.
    pub fn pgn_results() -> Value {
        let game = pgn_game();
        let second = game.lines().count() + 1;
        let tags = game.lines().take_while(|l| l.starts_with('[')).count();
        let problem = ApiError::InvalidPgn {
            game: Some(2),
            line: second + tags + 1,
            message: "move 3 is not a legal move: `Nc4-g7`: a Long Leaper on c4 cannot move to g7"
                .into(),
        }
        .problem();
        serde_json::json!({
            "results": [
                {"game": 1, "line": 1, "status": 201, "result": "created",
                 "puzzle": chameleon_stored().map(|p| Puzzle::from_stored(p, true))},
                {"game": 2, "line": second, "status": 422, "result": "rejected", "problem": problem},
            ],
            "created": 1,
            "existing": 0,
            "rejected": 1,
            "unknown": 0,
        })
    }

    /// The result of a game of a PGN body that could not be read.
    pub fn pgn_game_result() -> Value {
        pgn_results()["results"][1].clone()
    }

    /// A page of one puzzle, the last.
    pub fn puzzle_page() -> Value {
        let mut item = puzzle();
        if let Some(o) = item.as_object_mut() {
            o.remove("outcome");
        }
        serde_json::json!({"items": [item], "next_cursor": null})
    }
}

/// `POST /v1/puzzles/{id}/attempts`: a player's attempt at a puzzle.
#[derive(Clone, Debug, PartialEq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"solved": true, "player": {"rating": 1620, "deviation": 80, "volatility": 0.06}}), json!({"solved": false})))]
pub struct AttemptRequest {
    /// Whether the player solved the puzzle (the puzzle wins when the player fails).
    pub solved: bool,
    /// The player's rating before the attempt (absent: a new player's, 1500, 350, 0.06).
    #[serde(default, deserialize_with = "crate::api::common::object_option")]
    pub player: Option<PlayerRating>,
}

/// A player's Glicko-2 rating, each member absent taking a new player's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"rating": 1620, "deviation": 80, "volatility": 0.06})))]
pub struct PlayerRating {
    /// The rating, 0 to 4000 (default 1500).
    #[schema(example = 1620, minimum = 0, maximum = 4000)]
    pub rating: Option<f64>,
    /// Its deviation, above 0 and at most 350 (default 350).
    #[schema(example = 80, maximum = 350)]
    pub deviation: Option<f64>,
    /// Its volatility, above 0 and below 1 (default 0.06).
    #[schema(example = 0.06)]
    pub volatility: Option<f64>,
}

impl PlayerRating {
    /// The rating, absent members a new player's.
    pub fn rating(&self) -> crate::puzzle::rating::Rating {
        let new = crate::puzzle::rating::Rating::NEW_PLAYER;
        crate::puzzle::rating::Rating {
            value: self.rating.unwrap_or(new.value),
            deviation: self.deviation.unwrap_or(new.deviation),
            volatility: self.volatility.unwrap_or(new.volatility),
        }
    }
}

/// `POST /v1/puzzles/{id}/attempts`: the ratings after the attempt.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(examples::attempt_response))]
pub struct AttemptResponse {
    pub puzzle_id: i64,
    /// The puzzle's rating after the attempt, with every attempt counted.
    pub puzzle: crate::api::wire::PuzzleRating,
    /// The player's rating after this one game, for a site that keeps no ratings of its own.
    pub player: PlayerRating,
}

/// `GET /v1/puzzles/next`: the player's rating and the filters.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct NextPuzzleQuery {
    /// The player's rating, 0 to 4000.
    #[param(example = 1650, minimum = 0, maximum = 4000)]
    pub rating: f64,
    /// Its deviation (above 0, at most 350): the puzzle is chosen among the nearest ones within
    /// half of it (at least 50 points) of the nearest one's rating.
    #[param(example = 120, maximum = 350)]
    pub deviation: Option<f64>,
    /// Only puzzles of this game.
    pub game: Option<GameName>,
    /// Only puzzles of this stipulation (`h#2`) or family (`h#`: every `h#N`; URL-encoded
    /// `h%23`).
    #[param(example = "h#")]
    pub stipulation: Option<String>,
    /// Only puzzles with this tag.
    pub theme: Option<String>,
    /// Only puzzles of this collection.
    pub collection: Option<String>,
    /// Puzzle ids never to give (the ones already seen), comma-separated, at most 1,000.
    #[param(example = "62,65")]
    pub exclude: Option<String>,
    /// Makes the choice repeatable: the same seed and store give the same puzzle (0 to
    /// 9,223,372,036,854,775,807).
    #[param(maximum = 9_223_372_036_854_775_807_i64)]
    pub seed: Option<u64>,
}

impl NextPuzzleQuery {
    /// The query, checked, for the use case.
    ///
    /// # Errors
    /// [`ApiError::InvalidParameter`] naming `rating`, `deviation` or `exclude`.
    pub fn read(self) -> Result<crate::app::library::NextQuery, ApiError> {
        let refuse = |parameter, message: String| ApiError::InvalidParameter { parameter, message };
        if !self.rating.is_finite() || !(0.0..=4000.0).contains(&self.rating) {
            return Err(refuse(
                "rating",
                format!("{} is not a rating from 0 to 4000", self.rating),
            ));
        }
        if let Some(d) = self
            .deviation
            .filter(|d| !d.is_finite() || *d <= 0.0 || *d > 350.0)
        {
            return Err(refuse(
                "deviation",
                format!("{d} is not a deviation above 0 and at most 350"),
            ));
        }
        // The document's integers are 64-bit signed: a seed above them is not one it describes.
        if let Some(seed) = self.seed.filter(|s| i64::try_from(*s).is_err()) {
            return Err(refuse(
                "seed",
                format!("{seed} is not a seed from 0 to {}", i64::MAX),
            ));
        }
        let exclude = match self.exclude.as_deref().filter(|e| !e.is_empty()) {
            None => Vec::new(),
            Some(list) => {
                let ids: Result<Vec<i64>, _> =
                    list.split(',').map(|t| t.trim().parse::<i64>()).collect();
                let ids = ids.map_err(|_| {
                    refuse(
                        "exclude",
                        format!("{list:?} is not a comma-separated list of puzzle ids"),
                    )
                })?;
                if ids.len() > 1000 {
                    return Err(refuse(
                        "exclude",
                        format!("{} ids: at most 1000", ids.len()),
                    ));
                }
                ids
            }
        };
        Ok(crate::app::library::NextQuery {
            rating: self.rating,
            deviation: self.deviation,
            game: self.game.map(Into::into),
            stipulation: self.stipulation.filter(|s| !s.is_empty()),
            theme: self.theme.filter(|s| !s.is_empty()),
            collection: self.collection.filter(|s| !s.is_empty()),
            exclude,
            seed: self.seed,
        })
    }
}

impl PuzzleListQuery {
    /// The listing's filter, order, first page and page size.
    ///
    /// # Errors
    /// 400 `invalid-parameter` naming the first parameter whose value is unusable.
    pub fn read(self) -> Result<(Filter, PuzzleSort, After, u32), ApiError> {
        let q = self;
        let limit = q.limit.unwrap_or(DEFAULT_PAGE);
        if limit == 0 || limit > MAX_PAGE {
            return Err(ApiError::InvalidParameter {
                parameter: "limit",
                message: format!("{limit} is outside 1 to {MAX_PAGE}"),
            });
        }
        if let Some(n) = q
            .mate_in
            .filter(|n| !(1..=crate::solver::MAX_MATE_IN).contains(n))
        {
            return Err(ApiError::InvalidParameter {
                parameter: "mate_in",
                message: format!("{n} is outside 1 to {}", crate::solver::MAX_MATE_IN),
            });
        }
        let stipulation = q
            .stipulation
            .as_deref()
            .map(|text| {
                crate::solver::Stipulation::parse(text)
                    .map(|s| s.to_string())
                    .ok_or_else(|| ApiError::InvalidParameter {
                        parameter: "stipulation",
                        message: format!(
                            "{text:?} is not a stipulation: write {}, URL-encoded (`%232` for #2)",
                            crate::solver::Stipulation::FORMS
                        ),
                    })
            })
            .transpose()?;
        let difficulty_min = difficulty_bound("difficulty_min", q.difficulty_min.as_deref())?;
        let difficulty_max = difficulty_bound("difficulty_max", q.difficulty_max.as_deref())?;
        if let (Some(lo), Some(hi)) = (difficulty_min, difficulty_max) {
            if lo > hi {
                return Err(ApiError::InvalidParameter {
                    parameter: "difficulty_min",
                    message: format!("{lo} is above `difficulty_max` {hi}: no puzzle could match"),
                });
            }
        }
        let sort = match q.sort.as_deref() {
            None | Some("id") => PuzzleSort::Id,
            Some("difficulty") => PuzzleSort::Difficulty,
            Some("rating") => PuzzleSort::Rating,
            Some("published") => PuzzleSort::Published,
            Some("relevance") if q.text.is_some() => PuzzleSort::Relevance,
            Some("relevance") => {
                return Err(ApiError::InvalidParameter {
                    parameter: "sort",
                    message: "`relevance` orders by a `text` search: give `text` with it".into(),
                })
            }
            Some(other) => {
                return Err(ApiError::InvalidParameter {
                    parameter: "sort",
                    message: format!(
                        "{other:?} is not an order: `id`, `difficulty`, `rating`, `published` or \
                         `relevance`"
                    ),
                })
            }
        };
        let search = search_filters(&q)?;
        let (rating_min, rating_max) = rating_bounds(q.rating.as_deref())?;
        let after = page_after(sort, q.cursor.as_deref())?;
        let filter = Filter {
            family: search.family,
            moves_min: search.moves_min,
            moves_max: search.moves_max,
            year_min: search.year_min,
            year_max: search.year_max,
            features: search.features,
            text: search.text,
            difficulty_min,
            difficulty_max,
            rating_min,
            rating_max,
            kind: q.kind.map(Into::into),
            game: q.game.map(Into::into),
            preset: q
                .rules
                .map(|p| crate::rules::Preset::from(p).name().to_string()),
            mate_in: q.mate_in,
            stipulation,
            tag: q.tag,
            source: q.source,
            lean: true,
        };
        Ok((filter, sort, after, limit))
    }
}

/// A difficulty bound of the listing: an integer from 0 to 100.
fn difficulty_bound(parameter: &'static str, text: Option<&str>) -> Result<Option<u8>, ApiError> {
    let Some(text) = text else { return Ok(None) };
    text.parse::<u8>()
        .ok()
        .filter(|d| *d <= 100 && text.bytes().all(|b| b.is_ascii_digit()))
        .map(Some)
        .ok_or_else(|| ApiError::InvalidParameter {
            parameter,
            message: format!("{text:?} is not a difficulty: an integer from 0 to 100"),
        })
}

/// The bounds of the listing's `rating` filter, `MIN..MAX` (either left out: no bound).
fn rating_bounds(text: Option<&str>) -> Result<(Option<f64>, Option<f64>), ApiError> {
    let Some(text) = text else {
        return Ok((None, None));
    };
    let refused = |message: String| ApiError::InvalidParameter {
        parameter: "rating",
        message,
    };
    let bound = |t: &str| -> Result<Option<f64>, ApiError> {
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<f64>()
            .ok()
            .filter(|r| r.is_finite() && (0.0..=4000.0).contains(r) && !t.starts_with(['+', '-']))
            .map(Some)
            .ok_or_else(|| refused(format!("{t:?} is not a rating from 0 to 4000")))
    };
    let Some((lo, hi)) = text.split_once("..") else {
        return Err(refused(format!(
            "{text:?} is not a range of ratings: write `MIN..MAX`, `MIN..` or `..MAX` (`1400..1600`)"
        )));
    };
    let (lo, hi) = (bound(lo)?, bound(hi)?);
    if let (Some(l), Some(h)) = (lo, hi) {
        if l > h {
            return Err(refused(format!("{l} is above {h}: no puzzle could match")));
        }
    }
    Ok((lo, hi))
}

/// The page a `cursor` of a listing in order `sort` starts after.
fn page_after(sort: PuzzleSort, cursor: Option<&str>) -> Result<After, ApiError> {
    let number = |t: &str| {
        t.parse::<i64>()
            .ok()
            .filter(|_| (1..=18).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()))
    };
    let refused = |message: String| ApiError::InvalidParameter {
        parameter: "cursor",
        message,
    };
    let Some(c) = cursor else {
        return Ok(match sort {
            PuzzleSort::Id => After::Id(0),
            PuzzleSort::Difficulty => After::Difficulty(None),
            PuzzleSort::Rating => After::Rating(None),
            PuzzleSort::Published => After::Published(None),
            PuzzleSort::Relevance => After::Relevance(None),
        });
    };
    if sort == PuzzleSort::Published {
        // A publication date as stored and an id: `1999-06-21_68`.
        let parsed = c.rsplit_once('_').and_then(|(d, id)| {
            let date = crate::puzzle::History {
                published: Some(d.to_string()),
                ..Default::default()
            }
            .checked()
            .ok()?
            .published?;
            Some((date, number(id)?))
        });
        return parsed
            .map(|from| After::Published(Some(from)))
            .ok_or_else(|| {
                refused(format!(
                    "{c:?} is not a cursor this service gave (date and id: `1999-06-21_68`)"
                ))
            });
    }
    if sort == PuzzleSort::Relevance {
        // A relevance (as Rust writes an f64) and an id: `-3.5_68`.
        let parsed = c.split_once('_').and_then(|(r, id)| {
            let relevance = r
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && x.to_string() == r);
            Some((relevance?, number(id)?))
        });
        return parsed
            .map(|from| After::Relevance(Some(from)))
            .ok_or_else(|| {
                refused(format!(
                    "{c:?} is not a cursor this service gave (relevance and id: `-3.5_68`)"
                ))
            });
    }
    if sort == PuzzleSort::Rating {
        // A rating (as Rust writes an f64: it reads back exactly) and an id: `1451.70266_68`.
        let parsed = c.split_once('_').and_then(|(r, id)| {
            let rating = r
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && x.abs() < 1e6 && x.to_string() == r);
            Some((rating?, number(id)?))
        });
        return parsed.map(|from| After::Rating(Some(from))).ok_or_else(|| {
            refused(format!(
                "{c:?} is not a cursor this service gave (rating and id: `1451.702667884292_68`)"
            ))
        });
    }
    match (sort, c.split_once('.')) {
        (PuzzleSort::Id, None) => number(c)
            .map(After::Id)
            .ok_or_else(|| refused(format!("{c:?} is not a cursor this service gave (digits)"))),
        (PuzzleSort::Difficulty, Some((d, id))) => {
            match (number(d).and_then(|d| u8::try_from(d).ok()), number(id)) {
                (Some(d), Some(id)) if d <= 100 => Ok(After::Difficulty(Some((d, id)))),
                _ => Err(refused(format!(
                    "{c:?} is not a cursor this service gave (difficulty and id: `43.62`)"
                ))),
            }
        }
        (PuzzleSort::Id, Some(_)) if c.split('.').all(|t| number(t).is_some()) => {
            Err(refused(format!(
                "{c:?} is a cursor of a listing by difficulty: pass `sort=difficulty` with it, \
                 as on the page it came from"
            )))
        }
        (PuzzleSort::Difficulty, None) if number(c).is_some() => Err(refused(format!(
            "{c:?} is a cursor of a listing by id: with `sort=difficulty` start without a \
             cursor and pass the `next_cursor` of the previous page"
        ))),
        _ => Err(refused(format!("{c:?} is not a cursor this service gave"))),
    }
}

/// The listing's search filters, read.
struct SearchFilters {
    family: Option<String>,
    moves_min: Option<f64>,
    moves_max: Option<f64>,
    year_min: Option<u32>,
    year_max: Option<u32>,
    features: Vec<Vec<String>>,
    text: Option<crate::app::library::TextQuery>,
}

/// The search filters of a listing's query.
///
/// # Errors
/// 400 `invalid-parameter` naming the first that cannot be read.
fn search_filters(q: &PuzzleListQuery) -> Result<SearchFilters, ApiError> {
    use crate::app::library::search as s;
    use crate::rules::GameKind;
    let refused = |parameter: &'static str, message: String| ApiError::InvalidParameter {
        parameter,
        message,
    };
    let games: Vec<GameKind> = match q.game {
        Some(g) => vec![g.into()],
        None => vec![GameKind::Baroque, GameKind::Rococo],
    };
    // A piece letter: its piece in each game that reads it.
    let pieces_of = |parameter: &'static str,
                     letter: char|
     -> Result<Vec<(GameKind, crate::rules::Piece)>, ApiError> {
        let found: Vec<_> = games
            .iter()
            .filter_map(|&g| {
                let role = g.role_of_letter(letter)?;
                let color = match letter.is_ascii_uppercase() {
                    true => crate::rules::Color::White,
                    false => crate::rules::Color::Black,
                };
                Some((g, crate::rules::Piece::new(color, role)))
            })
            .collect();
        match found.is_empty() {
            true => Err(refused(
                parameter,
                format!("{letter:?} is not a piece letter of {}", game_names(&games)),
            )),
            false => Ok(found),
        }
    };
    let mut features: Vec<Vec<String>> = Vec::new();
    for item in list_items(q.pieces.as_deref()) {
        let mut chars = item.chars();
        let (Some(letter), None) = (chars.next(), chars.next()) else {
            return Err(refused(
                "pieces",
                format!(
                    "{item:?} is not one piece letter: write letters separated by commas (`M,k`)"
                ),
            ));
        };
        let any: Vec<String> = pieces_of("pieces", letter)?
            .into_iter()
            .map(|(g, p)| s::piece_feature(g, p))
            .collect();
        features.push(any);
    }
    for item in list_items(q.at.as_deref()) {
        let mut chars = item.chars();
        let letter = chars.next().unwrap_or(' ');
        let square = chars.as_str().to_ascii_lowercase();
        let any: Vec<String> = pieces_of("at", letter)?
            .into_iter()
            .filter_map(|(g, p)| s::square_feature_named(g, p, &square))
            .collect();
        if any.is_empty() {
            return Err(refused(
                "at",
                format!(
                    "{item:?} is not a piece on a square of {}: write its letter and square (`Kb4`)",
                    game_names(&games)
                ),
            ));
        }
        features.push(any);
    }
    for (parameter, prefix, text) in [
        ("author", "author", &q.author),
        ("keyword", "keyword", &q.keyword),
        ("award", "award", &q.award),
    ] {
        if let Some(text) = text {
            let words = s::words(text);
            if words.is_empty() {
                return Err(refused(
                    parameter,
                    "name at least one word (letters or digits)".into(),
                ));
            }
            features.extend(words.into_iter().map(|w| vec![format!("{prefix}:{w}")]));
        }
    }
    if features.len() > 24 {
        return Err(refused(
            "pieces",
            "at most 24 pieces, squares and words in all".into(),
        ));
    }
    let family = match q.family.as_deref() {
        Some(f) if crate::solver::Stipulation::FAMILIES.contains(&f) => Some(f.to_string()),
        Some(f) => {
            return Err(refused(
                "family",
                format!(
                    "{f:?} is not a family of stipulations: write one of {} (URL-encoded: `h%23`)",
                    crate::solver::Stipulation::FAMILIES.join(", ")
                ),
            ))
        }
        None => None,
    };
    let length = |parameter: &'static str,
                  text: &Option<String>|
     -> Result<Option<f64>, ApiError> {
        let Some(t) = text else { return Ok(None) };
        t.parse::<f64>()
            .ok()
            .filter(|x| (0.0..=100.0).contains(x) && (x * 2.0).fract() == 0.0)
            .map(Some)
            .ok_or_else(|| {
                refused(
                    parameter,
                    format!("{t:?} is not a length: a multiple of 0.5 from 0 to 100 (`2`, `2.5`)"),
                )
            })
    };
    let (moves_min, moves_max) = (
        length("moves_min", &q.moves_min)?,
        length("moves_max", &q.moves_max)?,
    );
    let year = |parameter: &'static str, text: &Option<String>| -> Result<Option<u32>, ApiError> {
        let Some(t) = text else { return Ok(None) };
        t.parse::<u32>()
            .ok()
            .filter(|y| (1000..=9999).contains(y) && t.len() == 4)
            .map(Some)
            .ok_or_else(|| {
                refused(
                    parameter,
                    format!("{t:?} is not a year: four digits, 1000 to 9999"),
                )
            })
    };
    let (year_min, year_max) = (
        year("year_min", &q.year_min)?,
        year("year_max", &q.year_max)?,
    );
    if let (Some(lo), Some(hi)) = (moves_min, moves_max) {
        if lo > hi {
            return Err(refused(
                "moves_min",
                format!("{lo} is above `moves_max` {hi}: no puzzle could match"),
            ));
        }
    }
    if let (Some(lo), Some(hi)) = (year_min, year_max) {
        if lo > hi {
            return Err(refused(
                "year_min",
                format!("{lo} is after `year_max` {hi}: no puzzle could match"),
            ));
        }
    }
    let text = q
        .text
        .as_deref()
        .map(crate::app::library::TextQuery::parse)
        .transpose()
        .map_err(|e| refused("text", e))?;
    Ok(SearchFilters {
        family,
        moves_min,
        moves_max,
        year_min,
        year_max,
        features,
        text,
    })
}

/// The items of a comma-separated list, trimmed, the empty ones dropped.
fn list_items(text: Option<&str>) -> Vec<&str> {
    text.map(|t| {
        t.split(',')
            .map(str::trim)
            .filter(|i| !i.is_empty())
            .collect()
    })
    .unwrap_or_default()
}

/// `Baroque or Rococo`, or the one game.
fn game_names(games: &[crate::rules::GameKind]) -> String {
    games
        .iter()
        .map(|g| g.title())
        .collect::<Vec<_>>()
        .join(" or ")
}
