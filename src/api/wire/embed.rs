//! The player pages' queries (`/embed`, `/embed/puzzles/{id}`, `/embed/collections/{name}`,
//! `/embed/next`) and what a page of a run of puzzles tells its script of the next one.

use crate::api::routes::diagram::DiagramCoords;
use crate::puzzle::rating::Rating;
use serde::{Deserialize, Serialize};
use utoipa::IntoParams;

/// `GET /embed/puzzles/{id}`: the look of the page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EmbedStoredQuery {
    /// How squares are named: `standard` (default), `page` (Rococo only) or `none` (standard
    /// names, no coordinates drawn).
    #[param(value_type = Option<DiagramCoords>)]
    pub coords: Option<String>,
    /// `true` to show the board from Black's side (default `false`).
    #[param(value_type = Option<bool>)]
    pub flip: Option<String>,
    /// `light` (default) or `dark`.
    #[param(example = "dark")]
    pub theme: Option<String>,
    /// The page's language, a language tag (`en`, the default, or `fr`; another tag gets
    /// English words under its own `lang`).
    #[param(example = "fr")]
    pub lang: Option<String>,
}

/// `GET /embed`: a position to play and the look of the page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EmbedQuery {
    /// The position, as for `/v1/analyze` (its side to move is the one the stipulation starts
    /// with).
    #[param(example = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0")]
    pub fen: String,
    /// The stipulation, as for `/v1/play` (`#2`, `s#3`, `h#2`, ...).
    #[param(example = "#2")]
    pub stipulation: String,
    /// `baroque` (default) or `rococo`.
    pub game: Option<String>,
    /// A rule set of Baroque, as for `/v1/analyze` (`abbott`, the default, or a preset with
    /// options such as `abbott,leaper=single`).
    pub rules: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    #[param(value_type = Option<DiagramCoords>)]
    pub coords: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    #[param(value_type = Option<bool>)]
    pub flip: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    pub theme: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    pub lang: Option<String>,
}

/// What the page's "Next" button loads.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Sequence {
    /// The puzzle after this one in a collection's order.
    Collection {
        name: String,
        /// This puzzle's position in the collection.
        position: i64,
        /// Whether a puzzle follows it (false: the collection is played to its end).
        more: bool,
    },
    /// A puzzle near the visitor's rating, which the page updates after each attempt.
    Next {
        /// The visitor's rating before this puzzle.
        player: Rating,
        /// The filters, passed on to the next page as they came.
        filters: NextFilters,
        /// The puzzles already seen, this one not among them yet.
        exclude: Vec<i64>,
    },
}

/// The filters of `/embed/next`, as the page passes them on.
#[derive(Clone, Debug, Default, Serialize)]
pub struct NextFilters {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stipulation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collection: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// `GET /embed/collections/{name}`: where in the collection, and the look of the page.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EmbedCollectionQuery {
    /// The position of the puzzle played before (the page's "Next" button sets it): the page
    /// plays the first puzzle after it. Absent or 0: the collection's first puzzle.
    #[param(value_type = Option<i64>, minimum = 0, example = 3)]
    pub after: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    #[param(value_type = Option<DiagramCoords>)]
    pub coords: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    #[param(value_type = Option<bool>)]
    pub flip: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    pub theme: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    pub lang: Option<String>,
}

/// `GET /embed/next`: the visitor's rating, the filters of `/v1/puzzles/next`, and the look of
/// the page.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EmbedNextQuery {
    /// The visitor's rating, 0 to 4000 (default 1500, a new player's).
    #[param(example = 1650, minimum = 0, maximum = 4000)]
    pub rating: Option<f64>,
    /// Its deviation, above 0 and at most 350 (default 350).
    #[param(example = 120, maximum = 350)]
    pub deviation: Option<f64>,
    /// Its volatility, above 0 and below 1 (default 0.06).
    #[param(example = 0.06)]
    pub volatility: Option<f64>,
    /// As for `/v1/puzzles/next`.
    pub game: Option<crate::api::wire::GameName>,
    /// As for `/v1/puzzles/next`: a stipulation (`h#2`) or a family (`h#`).
    #[param(example = "h#")]
    pub stipulation: Option<String>,
    /// As for `/v1/puzzles/next`: only puzzles with this tag (the page's look is `scheme`).
    pub theme: Option<String>,
    /// As for `/v1/puzzles/next`.
    pub collection: Option<String>,
    /// As for `/v1/puzzles/next`: the puzzles already seen (the page adds each one it shows).
    #[param(example = "62,65")]
    pub exclude: Option<String>,
    /// As for `/v1/puzzles/next`: the same seed, rating and exclusions give the same puzzle.
    #[param(maximum = 9_223_372_036_854_775_807_i64)]
    pub seed: Option<u64>,
    /// As for `/embed/puzzles/{id}`; `page` names the squares of Rococo's puzzles, and a Baroque
    /// puzzle of the same run keeps standard names.
    #[param(value_type = Option<DiagramCoords>)]
    pub coords: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    #[param(value_type = Option<bool>)]
    pub flip: Option<String>,
    /// `light` (default) or `dark`: the `theme` of the other player pages, named otherwise here
    /// since `theme` is the puzzles' theme.
    #[param(example = "dark")]
    pub scheme: Option<String>,
    /// As for `/embed/puzzles/{id}`.
    pub lang: Option<String>,
}
