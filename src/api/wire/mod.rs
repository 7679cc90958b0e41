//! The documents of a stored puzzle as JSON: what `GET /v1/puzzles/{id}` answers and each line
//! of a JSON lines export (`GET /v1/collections/{name}/export`, `baroque export`), so that the
//! service and the command line write the same bytes. The wire names of the game, the rule set
//! and the pieces live here too; `api::common` re-exports them for the requests.

pub mod analyze;
pub mod collections;
pub mod database;
pub mod embed;
pub mod play;
pub mod puzzles;
pub mod solve;
pub mod verify;

use crate::rules::{GameKind, Leaper, Preset, Rules, Stalemate};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a puzzle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "diagram")]
pub enum PuzzleKind {
    /// A position, a move (after the moves leading to it) and its expected outcome.
    Diagram,
    /// A position and N: the side to move mates in N.
    Mate,
}

impl From<PuzzleKind> for crate::puzzle::Kind {
    fn from(k: PuzzleKind) -> crate::puzzle::Kind {
        match k {
            PuzzleKind::Diagram => crate::puzzle::Kind::Diagram,
            PuzzleKind::Mate => crate::puzzle::Kind::Mate,
        }
    }
}

impl From<crate::puzzle::Kind> for PuzzleKind {
    fn from(k: crate::puzzle::Kind) -> PuzzleKind {
        match k {
            crate::puzzle::Kind::Diagram => PuzzleKind::Diagram,
            crate::puzzle::Kind::Mate => PuzzleKind::Mate,
        }
    }
}

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(examples::puzzle, examples::puzzle_rococo))]
pub struct Puzzle {
    #[schema(example = 1)]
    pub id: i64,
    pub kind: PuzzleKind,
    pub game: GameName,
    /// The canonical FEN (Baroque: chess-style letters; Rococo: standard coordinates).
    pub fen: String,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    pub source: Option<String>,
    pub title: Option<String>,
    pub caption: Option<String>,
    pub tags: Vec<String>,
    /// Diagram: the moves as submitted (empty for a mate).
    pub moves: Vec<String>,
    /// Diagram: the captures of the last move as the engine found them (empty for a mate).
    pub captures: Vec<SquarePiece>,
    /// Mate: the N of its stipulation.
    pub mate_in: Option<u32>,
    /// Mate: its stipulation (`#2`, `s#3`, `h#2`, `h#2.5`; null for a diagram).
    #[schema(example = "#2")]
    pub stipulation: Option<String>,
    /// The id of the fixture it was seeded from (null when posted).
    pub fixture: Option<String>,
    /// When it was stored (RFC 3339, UTC).
    pub created_at: String,
    /// SHA-256 of the content (kind, game, canonical FEN, rules, canonical moves, stipulation):
    /// the same puzzle is stored once.
    pub content_hash: String,
    /// Mate: how hard it is, 0 to 100, from what its proof shows (length, defences, tries, the
    /// kind of key, pieces on the board; the formula is in docs/src/api/store.md); null for a diagram.
    #[schema(example = 43, minimum = 0, maximum = 100)]
    pub difficulty: Option<u8>,
    /// The verified outcome (in single-puzzle answers, not in listings): for a diagram `legal`,
    /// `notation`, `uci`, `captures`, `status`, `frozen`, `fen_after` (or `reason`); for `#N` and
    /// `s#N` `result`, `stipulation`, `mate_in`, `sound`, `keys`, `cooks`, `short_solutions`,
    /// `tree`, `tree_truncated`, `threats`, `tries` (stored before stipulations: without the last
    /// three); for a helpmate `result`, `stipulation`, `sound`, `solutions`, `count`,
    /// `short_solutions`, `solutions_truncated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<crate::outcome::PuzzleOutcome>,
    /// Mate: its Glicko-2 rating from players' attempts (`POST /v1/puzzles/{id}/attempts`); before
    /// the first, the one its difficulty gives (`1000 + 15 × difficulty`, deviation 350,
    /// volatility 0.06). Absent for a diagram.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<PuzzleRating>,
    /// Its composers (absent when none are known).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// When it was published, `YYYY` or `YYYY-MM-DD` (absent when unknown; `source` names where).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
    /// Its award (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub award: Option<String>,
    /// Its keywords (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// Notes about it (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// A Glicko-2 rating and the attempts it was made from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(json!({"value": 1645.2, "deviation": 290.3, "volatility": 0.06, "attempts": 1})))]
pub struct PuzzleRating {
    /// The rating.
    pub value: f64,
    /// Its deviation: the uncertainty, in rating points (350 at first).
    pub deviation: f64,
    /// Its volatility: how erratic the results are (0.06 at first).
    pub volatility: f64,
    /// The attempts recorded.
    pub attempts: u64,
}

impl From<crate::puzzle::rating::PuzzleRating> for PuzzleRating {
    fn from(r: crate::puzzle::rating::PuzzleRating) -> PuzzleRating {
        PuzzleRating {
            value: r.rating.value,
            deviation: r.rating.deviation,
            volatility: r.rating.volatility,
            attempts: r.attempts,
        }
    }
}

impl Puzzle {
    /// The API form of a stored puzzle; `full` keeps the outcome.
    pub fn from_stored(p: crate::puzzle::StoredPuzzle, full: bool) -> Puzzle {
        let rules = p.variant.rules().as_ref().map(ResolvedRules::from);
        Puzzle {
            id: p.id,
            kind: p.kind.into(),
            game: p.game().into(),
            fen: p.fen,
            rules,
            source: p.source,
            title: p.title,
            caption: p.caption,
            tags: p.tags,
            moves: p.moves,
            captures: p.captures.into_iter().map(SquarePiece::from).collect(),
            stipulation: p.stipulation.map(|s| s.to_string()),
            mate_in: p.mate_in,
            fixture: p.fixture,
            created_at: p.created_at,
            content_hash: p.content_hash,
            difficulty: p.difficulty,
            outcome: p.outcome.filter(|_| full),
            rating: p.rating.map(PuzzleRating::from),
            authors: p.history.authors,
            published: p.history.published,
            award: p.history.award,
            keywords: p.history.keywords,
            notes: p.history.notes,
        }
    }
}

/// A rule preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "vchess")]
pub enum PresetName {
    /// Abbott's rules as in the Wikipedia article (the default).
    Abbott,
    /// The Cambridge variant.
    Cambridge,
    /// The rules of the vchess page.
    Vchess,
}

impl From<PresetName> for Preset {
    fn from(p: PresetName) -> Preset {
        match p {
            PresetName::Abbott => Preset::Abbott,
            PresetName::Cambridge => Preset::Cambridge,
            PresetName::Vchess => Preset::Vchess,
        }
    }
}

impl From<Preset> for PresetName {
    fn from(p: Preset) -> PresetName {
        match p {
            Preset::Abbott => PresetName::Abbott,
            Preset::Cambridge => PresetName::Cambridge,
            Preset::Vchess => PresetName::Vchess,
        }
    }
}

/// How far a Long Leaper (and a Chameleon imitating one) leaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "single")]
pub enum LeaperOption {
    /// Several captures in one line (the default).
    Long,
    /// Only the first enemy piece, landing right behind it.
    Single,
}

/// Whether a frozen piece may remove itself from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "on")]
pub enum SuicideOption {
    On,
    /// The default.
    Off,
}

/// What a side with no legal move gets when it is not in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "draw")]
pub enum StalemateOption {
    /// The default.
    Draw,
    /// The side that cannot move loses.
    Loss,
}

/// The rule set a response was computed under, every option spelled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"preset": "vchess", "leaper": "long", "suicide": "off", "stalemate": "draw"})))]
pub struct ResolvedRules {
    pub preset: PresetName,
    pub leaper: LeaperOption,
    pub suicide: SuicideOption,
    pub stalemate: StalemateOption,
}

impl From<&Rules> for ResolvedRules {
    fn from(r: &Rules) -> ResolvedRules {
        ResolvedRules {
            preset: r.preset.into(),
            leaper: match r.leaper {
                Leaper::Long => LeaperOption::Long,
                Leaper::Single => LeaperOption::Single,
            },
            suicide: if r.suicide {
                SuicideOption::On
            } else {
                SuicideOption::Off
            },
            stalemate: match r.stalemate {
                Stalemate::Draw => StalemateOption::Draw,
                Stalemate::Loss => StalemateOption::Loss,
            },
        }
    }
}

/// A piece on a square, upper case for White. Baroque: one chess-style letter, K King,
/// P Pawn (Pincer), Q Withdrawer, N Long Leaper, R Coordinator, M Immobilizer, B Chameleon
/// (`"q"` is a black Withdrawer), squares a-h, 1-8. Rococo: K King, P Cannon Pawn, I Immobilizer,
/// W Withdrawer, A Advancer, L Long Leaper, X Chameleon, S Swapper, U Pushme-Pullyu, squares a-j,
/// 1-10 (or, with `coords: page`, the page's files x, a-h, y and ranks 0, 1-8, 00).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(examples(json!({"square": "c5", "piece": "n"}), json!({"square": "b4", "piece": "L"})))]
pub struct SquarePiece {
    #[schema(example = "c5", pattern = "^[a-jxy](10|00|[0-9])$")]
    pub square: String,
    #[schema(example = "n", pattern = "^[KPQNRMBIWALXSUkpqnrmbiwalxsu]$")]
    pub piece: String,
}

impl From<crate::cases::SquarePiece> for SquarePiece {
    fn from(p: crate::cases::SquarePiece) -> SquarePiece {
        SquarePiece {
            square: p.square,
            piece: p.piece,
        }
    }
}

/// The game of a request or a puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "rococo")]
pub enum GameName {
    /// Baroque chess (Ultima), 8x8, the default.
    #[default]
    Baroque,
    /// Rococo (the chessvariants.com page), 10x10 with edge squares: won by capturing the King.
    /// Letters K King, P Cannon Pawn, I Immobilizer, W Withdrawer, A Advancer, L Long Leaper,
    /// X Chameleon, S Swapper, U Pushme-Pullyu; no rule presets.
    Rococo,
}

impl From<GameName> for GameKind {
    fn from(g: GameName) -> GameKind {
        match g {
            GameName::Baroque => GameKind::Baroque,
            GameName::Rococo => GameKind::Rococo,
        }
    }
}

impl From<GameKind> for GameName {
    fn from(g: GameKind) -> GameName {
        match g {
            GameKind::Baroque => GameName::Baroque,
            GameKind::Rococo => GameName::Rococo,
        }
    }
}

/// A puzzle as a line of the JSON lines export: as `GET /v1/puzzles/{id}?include=outcome` gives it.
pub fn json_line(p: crate::puzzle::StoredPuzzle, out: &mut Vec<u8>) -> Result<(), String> {
    serde_json::to_writer(out, &Puzzle::from_stored(p, true)).map_err(|e| e.to_string())
}

/// Examples for the OpenAPI document, computed by the engine.
pub(crate) mod examples {
    use super::Puzzle;
    use crate::rules::{Preset, Rules};
    use serde_json::Value;

    /// The vchess Pawn diagram: `Pc2c4` captures the Leaper on c5 and the Coordinator on d4.
    pub const PAWN_FEN: &str = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0";
    /// The Rococo page's Chameleon example (`rc-chameleon-leap-withdraw-approach`): `Xb3-b5`
    /// (page `Xa2-a4`) takes a Long Leaper by leaping, a Withdrawer by withdrawing and an Advancer
    /// by approaching.
    pub const ROCOCO_CHAMELEON_FEN: &str = "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0";

    /// The vchess Pawn diagram as the store keeps it (id 26 in a fresh store: the 25 Rococo cases
    /// come first).
    pub fn puzzle() -> Value {
        let about = crate::puzzle::About {
            title: Some("Pawn/Pincer".into()),
            source: Some("vchess.club: Baroque chess rules".into()),
            caption: None,
            tags: vec!["fixture".into(), "pawn".into()],
            fixture: Some("vc-pawn-c2c4".into()),
            history: Default::default(),
        };
        let variant = crate::rules::Variant::Baroque(Rules::preset(Preset::Vchess));
        let captures = [("d4", "r"), ("c5", "n")];
        shown(stored(
            26,
            diagram(variant, PAWN_FEN, "Pc2c4", &captures, about),
        ))
    }

    /// The Rococo page's Chameleon example as the store keeps it (id 5 in a fresh store).
    pub fn puzzle_rococo() -> Value {
        let about = crate::puzzle::About {
            title: Some("Chameleon".into()),
            source: Some("chessvariants.com: Rococo (seed 003)".into()),
            caption: None,
            tags: vec!["chameleon".into(), "fixture".into()],
            fixture: Some("rc-chameleon-leap-withdraw-approach".into()),
            history: Default::default(),
        };
        let (variant, fen) = (crate::rules::Variant::Rococo, ROCOCO_CHAMELEON_FEN);
        let captures = [("b4", "L"), ("b2", "W"), ("b6", "A")];
        shown(stored(5, diagram(variant, fen, "Xb3-b5", &captures, about)))
    }

    /// A diagram puzzle: `mv` from `fen` is legal and captures exactly `captures` (square, piece).
    fn diagram(
        variant: crate::rules::Variant,
        fen: &str,
        mv: &str,
        captures: &[(&str, &str)],
        about: crate::puzzle::About,
    ) -> crate::puzzle::NewPuzzle {
        let captures = captures
            .iter()
            .map(|&(square, piece)| crate::cases::SquarePiece {
                square: square.into(),
                piece: piece.into(),
            })
            .collect();
        crate::puzzle::NewPuzzle {
            variant,
            fen: fen.into(),
            claim: crate::puzzle::Claim::Diagram(crate::puzzle::DiagramClaim {
                moves: vec![mv.into()],
                legal: true,
                reason: None,
                captures: Some(captures),
                status: None,
                frozen: None,
                destinations: None,
            }),
            about,
        }
    }

    /// The Chameleon diagram of the Wikipedia article, a sound mate in 2, as the store keeps it
    /// (id 3 in this example).
    pub fn chameleon_stored() -> Option<crate::puzzle::StoredPuzzle> {
        let new = crate::puzzle::NewPuzzle {
            variant: crate::rules::Variant::Baroque(Rules::default()),
            fen: "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0".into(),
            claim: crate::puzzle::Claim::Mate(crate::puzzle::MateClaim {
                stipulation: crate::solver::Stipulation::Mate(2),
                ..crate::puzzle::MateClaim::default()
            }),
            about: crate::puzzle::About {
                title: Some("Chameleon: seven captures".into()),
                source: Some("Wikipedia: Baroque chess".into()),
                tags: vec!["chameleon".into()],
                ..crate::puzzle::About::default()
            },
        };
        stored(3, new)
    }

    /// A puzzle verified and kept as the store keeps it, under `id`.
    fn stored(id: i64, new: crate::puzzle::NewPuzzle) -> Option<crate::puzzle::StoredPuzzle> {
        let v = crate::puzzle::verify(new, &crate::solver::SolveOptions::default()).ok()?;
        Some(crate::puzzle::StoredPuzzle {
            id,
            kind: v.kind,
            variant: v.variant()?,
            fen: v.fen,
            moves: v.moves,
            captures: v.captures,
            mate_in: v.mate_in,
            stipulation: v.stipulation,
            outcome: Some(v.outcome),
            title: v.title,
            source: v.source,
            caption: v.caption,
            tags: v.tags,
            fixture: v.fixture,
            history: v.history,
            created_at: "2026-11-22T04:30:00.000Z".into(),
            content_hash: v.content_hash,
            difficulty: v.difficulty,
            revision: 0,
            rating: (v.kind == crate::puzzle::Kind::Mate).then(|| {
                crate::puzzle::rating::PuzzleRating {
                    rating: crate::puzzle::rating::Rating::of_difficulty(v.difficulty),
                    attempts: 0,
                }
            }),
        })
    }

    /// A stored puzzle as `GET /v1/puzzles/{id}?include=outcome` shows it.
    fn shown(puzzle: Option<crate::puzzle::StoredPuzzle>) -> Value {
        puzzle
            .and_then(|p| serde_json::to_value(Puzzle::from_stored(p, true)).ok())
            .unwrap_or(Value::Null)
    }
}
