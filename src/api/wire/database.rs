//! The wire types of the problem database: a problem's history as posted and corrected
//! (`PATCH /v1/puzzles/{id}`), and anticipation (`POST /v1/puzzles/anticipation`).

use crate::api::common::position_request;
use crate::api::wire::Puzzle;
use crate::app::anticipation::{Anticipation, AnticipationReport};
use crate::puzzle::HistoryPatch;
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

/// A member that may be given as null (`Some(None)`: clear it) or left out (`None`: keep it).
fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// `PATCH /v1/puzzles/{id}`: the parts of a problem's history to replace. A member left out stays
/// as stored; `null` (or `[]` for a list) clears it. Nothing else of a puzzle can be changed: any
/// other member (`fen`, `stipulation`, ...) is refused (400 `invalid-request`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"authors": ["R. Abbott"], "published": "1963", "award": null}))]
pub struct HistoryPatchRequest {
    /// The composers.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<Vec<String>>)]
    pub authors: Option<Option<Vec<String>>>,
    /// When it was published: `YYYY` or `YYYY-MM-DD`.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub published: Option<Option<String>>,
    /// Its award.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub award: Option<Option<String>>,
    /// Free keywords.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<Vec<String>>)]
    pub keywords: Option<Option<Vec<String>>>,
    /// Anything else.
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub notes: Option<Option<String>>,
    /// The publication (the puzzle's `source`).
    #[serde(default, deserialize_with = "nullable")]
    #[schema(value_type = Option<String>)]
    pub source: Option<Option<String>>,
}

impl From<HistoryPatchRequest> for HistoryPatch {
    fn from(r: HistoryPatchRequest) -> HistoryPatch {
        HistoryPatch {
            authors: r.authors.map(Option::unwrap_or_default),
            published: r.published,
            award: r.award,
            keywords: r.keywords.map(Option::unwrap_or_default),
            notes: r.notes,
            source: r.source,
        }
    }
}

position_request! {
/// `POST /v1/puzzles/anticipation`: a position (and optionally its stipulation) to look up.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "stipulation": "#2"}))]
pub struct AnticipationRequest {
    /// The position, either letter set.
    pub fen: String,
    @position_fields,
    /// The stipulation: the stored problems of this one come first within each relation, and
    /// carry `same_stipulation: true`.
    #[serde(default)]
    #[schema(example = "#2")]
    pub stipulation: Option<String>,
}
}

/// The stored problems that anticipate a position.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(json!({"matches": [examples::anticipation_match()], "truncated": false})))]
pub struct AnticipationResponse {
    /// The same positions first, then the near ones; those of the stipulation asked for first
    /// within each; then by id.
    pub matches: Vec<AnticipationMatch>,
    /// Whether the position shares keys with more stored ones than a lookup reads (1,000: a
    /// sparse position near many): the matches are those of the first by id.
    pub truncated: bool,
}

/// A stored problem that anticipates the posted position.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(examples::anticipation_match))]
pub struct AnticipationMatch {
    /// The stored puzzle's id.
    #[schema(example = 12)]
    pub id: i64,
    /// `same`: the same position up to a symmetry of the game; `near`: one piece added, removed,
    /// moved or changed, up to a symmetry.
    #[schema(example = "same")]
    pub relation: String,
    /// The symmetry of the board that turns the stored position into the posted one (or its
    /// nearest image), as a twin names it. Baroque has eight: `none`, `rotate 90`, `rotate 180`,
    /// `rotate 270`, `mirror a1<->h1` (files reversed), `mirror a1<->a8` (ranks reversed),
    /// `mirror a1<->h8` (the diagonal) and `mirror a1<->h8; rotate 180` (the other diagonal).
    /// Rococo (corners `j1`, `a10`, `j10`) has two, `none` and `mirror a1<->j1`: its Cannon Pawns
    /// promote on the far rank, so a turn or a mirror of the ranks would change the rules.
    #[schema(example = "mirror a1<->h1")]
    pub transform: String,
    /// What the posted position has that the stored one's image has not, as twins write it:
    /// `+wPa3` (added), `-bNc4` (removed), `wKc7-->d7` (moved), `-wPa3`, `+wLa3` (changed);
    /// empty for `same`.
    pub difference: Vec<String>,
    /// The stored problem's stipulation.
    #[schema(example = "#2")]
    pub stipulation: Option<String>,
    /// Whether it is the stipulation asked for (true when none was).
    pub same_stipulation: bool,
    /// The stored puzzle, without its outcome.
    pub puzzle: Puzzle,
}

impl From<AnticipationReport> for AnticipationResponse {
    fn from(r: AnticipationReport) -> AnticipationResponse {
        AnticipationResponse {
            matches: r.matches.into_iter().map(AnticipationMatch::from).collect(),
            truncated: r.truncated,
        }
    }
}

impl From<Anticipation> for AnticipationMatch {
    fn from(a: Anticipation) -> AnticipationMatch {
        AnticipationMatch {
            id: a.puzzle.id,
            relation: a.relation.name().into(),
            transform: a.transform,
            difference: a.difference,
            stipulation: a.puzzle.stipulation.map(|s| s.to_string()),
            same_stipulation: a.same_stipulation,
            puzzle: Puzzle::from_stored(a.puzzle, false),
        }
    }
}

/// What a post does with a puzzle the store holds up to a symmetry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "refuse")]
pub enum AnticipationPolicy {
    /// Store it unless its content is stored (the default).
    #[default]
    Allow,
    /// Refuse it (409 `anticipated`, naming the stored puzzle and the symmetry) when the store
    /// holds the same position, up to a symmetry of its game, with the same stipulation and rule
    /// set.
    Refuse,
}

/// Examples of the answers, for the OpenAPI document.
pub mod examples {
    use serde_json::{json, Value};

    /// A near match: the King mate of the Wikipedia article with the files reversed and the
    /// Withdrawer a square lower.
    pub fn anticipation_match() -> Value {
        json!({"id": 65, "relation": "near", "transform": "mirror a1<->h1", "difference": ["bQe3-->e2"],
    "stipulation": "#1", "same_stipulation": true, "puzzle": {"id": 65, "kind": "mate", "game": "baroque",
    "fen": "8/8/8/4k3/2K2M2/3q4/8/8 w 0", "rules": {"preset": "abbott", "leaper": "long", "suicide": "off",
    "stalemate": "draw"}, "source": "Wikipedia: Baroque chess (seeds 000 and 001)", "title": "King: mate in 1",
    "caption": null, "tags": ["fixture"], "moves": [], "captures": [], "mate_in": 1, "stipulation": "#1",
    "fixture": "wp-king-mate-in-1", "created_at": "2026-12-07T21:38:54.486Z",
    "content_hash": "f0e72fd15831106832390ef9ddc402e81d90d3b3e27305b2bf34757ee841fbba", "difficulty": 2,
    "rating": {"value": 1030.0, "deviation": 350.0, "volatility": 0.06, "attempts": 0}}})
    }
}
