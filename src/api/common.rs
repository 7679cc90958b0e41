//! What the endpoints share at the edge: request bodies as JSON objects, rule sets, the game and
//! its square names, a position read from a request ([`CheckedPosition`]), sides, statuses,
//! pieces on squares and warnings. Each endpoint's own request and response types are beside its
//! handler (`super::routes`).

use super::problem::ApiError;
use crate::rules::prelude::*;
use crate::rules::rococo::Coords;
use crate::rules::{
    Color, GameKind, GamePosition, Leaper, Naming, Preset, Rules, SquareSet, Stalemate, Status,
};
use serde::de::{Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::marker::PhantomData;
use utoipa::ToSchema;

pub use crate::api::wire::{
    GameName, LeaperOption, PresetName, ResolvedRules, SquarePiece, StalemateOption, SuicideOption,
};

/// Declares a request body that names a position: the struct as written (its `fen` and its own
/// fields), with the fields every such request shares, documented once, where the body says
/// `@position_fields,`: `rules`, `game` and `coords`; and [`CheckedPosition`] read from them
/// (`position()`, and `position_input()` unread). The marker keeps each body's field order, which serde's "expected one of"
/// errors list. (rustfmt leaves the bodies of macro calls as they are written.)
macro_rules! position_request {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $crate::api::common::position_request!(@munch [$(#[$meta])*] $name [] $($body)*);
    };
    (@munch [$($meta:tt)*] $name:ident [$($done:tt)*] @position_fields, $($rest:tt)*) => {
        $($meta)*
        pub struct $name {
            $($done)*
            /// The Baroque rule set (default `abbott`). Rococo has no presets or options: `rules`
            /// with `game: rococo` is refused (422 `not-applicable`).
            #[serde(default)]
            pub rules: Option<$crate::api::common::RulesInput>,
            /// The game: `baroque` (the default) or `rococo` (10x10; a mate there means forcing
            /// the capture of the enemy King).
            #[serde(default)]
            pub game: Option<$crate::api::common::GameName>,
            /// How Rococo squares are named, in input and output: `standard` (a-j, 1-10; the
            /// default) or `page` (the Rococo page's x, a-h, y and 0, 1-8, 00). `page` with
            /// Baroque is refused (422 `not-applicable`).
            #[serde(default)]
            pub coords: Option<$crate::api::common::CoordsName>,
            $($rest)*
        }

        impl $name {
            /// The request's position, read from its `fen`, `game`, `coords` and `rules`
            /// ([`read_position`](crate::api::common::read_position)).
            ///
            /// # Errors
            /// Those of [`read_position`](crate::api::common::read_position).
            pub fn position(
                &self,
            ) -> Result<$crate::api::common::CheckedPosition, $crate::api::problem::ApiError> {
                $crate::api::common::read_position(&self.fen, self.game, self.coords, self.rules)
            }

            /// The request's position, not read yet.
            pub fn position_input(&self) -> $crate::app::position::PositionInput {
                $crate::api::common::position_input(&self.fen, self.game, self.coords, self.rules)
            }
        }
    };
    // One field of the body before the marker.
    (@munch $meta:tt $name:ident [$($done:tt)*]
        $(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty, $($rest:tt)*) => {
        $crate::api::common::position_request!(
            @munch $meta $name [$($done)* $(#[$fmeta])* $fvis $field: $ty,] $($rest)*
        );
    };
    (@munch $meta:tt $name:ident [$($done:tt)*]) => {
        compile_error!("position_request!: the body has no `@position_fields,` marker");
    };
}
pub(crate) use position_request;

/// The largest ply count a request's FEN may carry, so that playing moves can never overflow it.
pub const MAX_PLIES: u32 = crate::app::position::MAX_PLIES;

/// A request body that must be a JSON object: serde alone would also read a struct from an array
/// (`["7k/8/8/8/8/8/8/K7 w 0"]`). Duplicate keys, unknown fields and error positions are reported
/// as for the struct itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(ObjectVisitor(PhantomData)).map(Object)
    }
}

/// An optional member that must be a JSON object when present (`null` is absence): for
/// `#[serde(default, deserialize_with = "crate::api::common::object_option")]`.
///
/// # Errors
/// The deserializer's, for anything but an object or `null`.
pub fn object_option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Option::<Object<T>>::deserialize(d).map(|o| o.map(|Object(t)| t))
}

/// A preset with options; an absent member keeps its default (preset `abbott`, leaper `long`,
/// suicide `off`, stalemate `draw`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"preset": "abbott", "suicide": "on"}), json!({"preset": "abbott", "leaper": "single"})))]
pub struct RuleOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<PresetName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaper: Option<LeaperOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suicide: Option<SuicideOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stalemate: Option<StalemateOption>,
}

/// A rule set: a preset name (`abbott`, `cambridge`, `vchess`), or a preset with options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(examples(json!("vchess"), json!({"preset": "abbott", "suicide": "on"})))]
pub enum RulesInput {
    Preset(PresetName),
    Options(RuleOptions),
}

impl<'de> Deserialize<'de> for RulesInput {
    /// A string must be a preset name and an object a [`RuleOptions`]; the error says which.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match v {
            serde_json::Value::String(s) => s
                .parse::<Preset>()
                .map(|p| RulesInput::Preset(p.into()))
                .map_err(D::Error::custom),
            serde_json::Value::Object(_) => serde_json::from_value(v)
                .map(RulesInput::Options)
                .map_err(|e| D::Error::custom(format!("in `rules`: {e}"))),
            _ => Err(D::Error::custom(
                "`rules` must be a preset name (abbott, cambridge, vchess) or an object with \
                 `preset`, `leaper`, `suicide` and `stalemate`",
            )),
        }
    }
}

impl From<RulesInput> for Rules {
    fn from(r: RulesInput) -> Rules {
        match r {
            RulesInput::Preset(p) => Rules::preset(p.into()),
            RulesInput::Options(o) => {
                let mut rules = Rules::preset(o.preset.unwrap_or(PresetName::Abbott).into());
                if let Some(l) = o.leaper {
                    rules.leaper = match l {
                        LeaperOption::Long => Leaper::Long,
                        LeaperOption::Single => Leaper::Single,
                    };
                }
                if let Some(s) = o.suicide {
                    rules.suicide = s == SuicideOption::On;
                }
                if let Some(s) = o.stalemate {
                    rules.stalemate = match s {
                        StalemateOption::Draw => Stalemate::Draw,
                        StalemateOption::Loss => Stalemate::Loss,
                    };
                }
                rules
            }
        }
    }
}

/// The side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "white")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// The state of the side to move.
///
/// Baroque: `ongoing` (not in check, with a legal move), `check` (in check, with a legal move),
/// `checkmate` (in check, with no legal move), `stalemate` (not in check, with no legal move: a
/// draw, or a loss under `stalemate: loss`).
///
/// Rococo, where the game is won by capturing the King and a move may leave one's own King
/// capturable: `ongoing` (its King cannot be captured now, and some move keeps it), `check` (its
/// King could be captured now, and some move saves it), `checkmate` (no move keeps its King: every
/// move leaves it capturable and none takes the enemy King; also after a move that took its King,
/// when the game is over), `stalemate` (no move at all: a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "checkmate")]
pub enum GameStatus {
    /// Baroque: not in check, with a legal move. Rococo: the King is not attacked and can be kept.
    Ongoing,
    /// Baroque: in check, with a legal move. Rococo: the King is attacked and some move saves it.
    Check,
    /// Baroque: in check, with no legal move. Rococo: the side to move cannot keep its King (or has
    /// just lost it).
    Checkmate,
    /// No legal move and not in check (Baroque: a draw, or a loss under `stalemate: loss`); Rococo:
    /// no move at all, a draw.
    Stalemate,
}

impl From<Status> for GameStatus {
    fn from(s: Status) -> GameStatus {
        match s {
            Status::Ongoing => GameStatus::Ongoing,
            Status::Check => GameStatus::Check,
            Status::Checkmate => GameStatus::Checkmate,
            Status::Stalemate => GameStatus::Stalemate,
        }
    }
}

pub use crate::app::analysis::ShortText;

/// The pieces on a set of squares of a position, lowest square first, in `naming`.
pub fn square_pieces<P: GamePosition>(pos: &P, set: SquareSet, naming: Naming) -> Vec<SquarePiece> {
    pos.square_pieces(set, naming)
        .into_iter()
        .map(SquarePiece::from)
        .collect()
}

/// A remark on a position that does not stop it being analysed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::warning))]
pub struct Warning {
    /// `no_king` or `too_many_pieces`.
    #[schema(example = "no_king")]
    pub code: String,
    pub message: String,
}

pub use crate::app::position::CheckedPosition;

/// What an answer shows of a [`CheckedPosition`]: its game, rule set and warnings as the wire
/// names them.
pub trait PositionView {
    /// The game.
    fn game(&self) -> GameName;
    /// The rule set, for a game that has rule sets.
    fn rules(&self) -> Option<ResolvedRules>;
    /// The remarks on the position.
    fn wire_warnings(&self) -> Vec<Warning>;
}

impl PositionView for CheckedPosition {
    fn game(&self) -> GameName {
        self.position.kind().into()
    }

    fn rules(&self) -> Option<ResolvedRules> {
        self.position
            .variant()
            .rules()
            .map(|r| ResolvedRules::from(&r))
    }

    fn wire_warnings(&self) -> Vec<Warning> {
        self.warnings.iter().map(Warning::from).collect()
    }
}

impl From<&crate::rules::Problem> for Warning {
    fn from(p: &crate::rules::Problem) -> Warning {
        Warning {
            code: p.code().to_string(),
            message: p.message.clone(),
        }
    }
}

/// The position a request names, read from its `fen`, `game`, `coords` and `rules`.
///
/// # Errors
/// [`ApiError::NotApplicable`] for `coords: page` with a game without page names or `rules`
/// with a game without rule sets; [`ApiError::InvalidFen`] with the field and position of a
/// syntax error; [`ApiError::ImpossiblePosition`] listing every problem of a position that
/// cannot arise.
///
/// ```
/// use baroque::api::common::read_position;
///
/// // The vchess Pawn diagram.
/// let ok = read_position("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", None, None, None);
/// assert!(ok.unwrap().warnings.is_empty());
///
/// let bad = read_position("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K8 w 0", None, None, None);
/// let problem = bad.unwrap_err().problem();
/// assert_eq!((problem.status, problem.field.as_deref(), problem.position), (422, Some("board"), Some(30)));
/// ```
pub fn read_position(
    fen: &str,
    game: Option<GameName>,
    coords: Option<CoordsName>,
    rules: Option<RulesInput>,
) -> Result<CheckedPosition, ApiError> {
    Ok(position_input(fen, game, coords, rules).read()?)
}

/// The position a request names, not read yet.
pub fn position_input(
    fen: &str,
    game: Option<GameName>,
    coords: Option<CoordsName>,
    rules: Option<RulesInput>,
) -> crate::app::position::PositionInput {
    crate::app::position::PositionInput {
        fen: fen.to_string(),
        game: GameKind::from(game.unwrap_or_default()),
        coords: coords.map(Coords::from),
        rules: rules.map(Rules::from),
    }
}

/// How a request names Rococo's squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "page")]
pub enum CoordsName {
    /// Files a-j, ranks 1-10, the edge included (the default).
    #[default]
    Standard,
    /// The names of the chessvariants.com Rococo page: files x, a-h, y and ranks 0, 1-8, 00 (its
    /// a1 is our b2, its x00 our a10). Rococo only. They collide with the standard names on the
    /// inner board, so they are used only when asked for, in input and output alike.
    Page,
}

impl From<CoordsName> for Coords {
    fn from(c: CoordsName) -> Coords {
        match c {
            CoordsName::Standard => Coords::Standard,
            CoordsName::Page => Coords::Page,
        }
    }
}

/// What kind of Rococo move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "swap")]
pub enum MoveKindName {
    /// A move to an empty square, or a King's or Cannon Pawn's capture by replacement.
    Normal,
    /// A Swapper (or a Chameleon imitating one) trades places with the piece on the to-square
    /// (notation `Sb2<>e5`).
    Swap,
    /// A Swapper (or a Chameleon next to an enemy Swapper) removes the adjacent enemy piece and
    /// itself (notation `Se5*f6`).
    MutualDestruction,
    /// A frozen piece removes itself (from-square = to-square).
    Suicide,
}

impl MoveKindName {
    /// The kind a game reports for a move (see `GameRules::kind_name`).
    pub fn from_name(name: &str) -> Option<MoveKindName> {
        match name {
            "normal" => Some(MoveKindName::Normal),
            "swap" => Some(MoveKindName::Swap),
            "mutual_destruction" => Some(MoveKindName::MutualDestruction),
            "suicide" => Some(MoveKindName::Suicide),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {

    /// The shared fields of a request stand where its body puts them: serde's "expected one of"
    /// lists the fields in that order.
    #[test]
    fn an_unknown_field_lists_the_fields_in_their_order() {
        let e = serde_json::from_str::<crate::api::wire::solve::SolveRequest>(r#"{"zzz": 1}"#)
            .unwrap_err()
            .to_string();
        let order = "expected one of `fen`, `mate_in`, `stipulation`, `intended_solutions`, \
                     `rules`, `game`, `coords`, `limits`, `key`";
        assert!(e.contains(order), "{e}");
        let e = serde_json::from_str::<crate::api::wire::puzzles::PuzzleRequest>(r#"{"z": 1}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`kind`, `fen`, `rules`, `game`, `coords`, `title`"),
            "{e}"
        );
    }
}

/// Examples for the OpenAPI document, computed by the engine from the seed diagrams
/// (`fixtures/diagrams/`) so that the document cannot drift from what the service answers; the
/// endpoints' modules build theirs with these helpers.
pub mod examples {
    use super::CheckedPosition;
    use crate::api::problem::ApiError;
    use crate::rules::rococo::Coords;
    use crate::rules::{Naming, Preset, Rules, Variant};
    use serde::Serialize;
    use serde_json::Value;

    // The positions of the stored-puzzle examples are the views' (a stored puzzle's JSON is
    // theirs); the others are the requests'.
    pub use crate::api::wire::examples::{PAWN_FEN, ROCOCO_CHAMELEON_FEN};
    /// The Wikipedia King diagram: White to move, with the mate `Kc4-d5` among its moves.
    pub const KING_FEN: &str = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
    /// The vchess King diagram: `Ke5` would leave the White King capturable.
    pub const KING_SELF_CHECK_FEN: &str = "7k/8/8/p4r2/4K3/8/8/8 w 0";

    /// A value as JSON.
    pub fn value(v: impl Serialize) -> Value {
        serde_json::to_value(v).unwrap_or_else(|e| Value::String(e.to_string()))
    }

    /// A Baroque position under a preset, as a request reads it.
    pub fn position(fen: &str, preset: Preset) -> Result<CheckedPosition, ApiError> {
        Ok(CheckedPosition::parse(fen, Rules::preset(preset))?)
    }

    /// The Rococo start position (fixtures/diagrams/rococo.json, `rc-start-*`).
    pub const ROCOCO_START_FEN: &str =
        "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0";
    /// A Rococo mate in 1: the Long Leaper takes the King, `Le4xe9` (page `Ld3xd8`).
    pub const ROCOCO_MATE_FEN: &str = "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0";

    /// A Rococo position in `coords`, as a request reads it.
    pub fn rococo(fen: &str, coords: Coords) -> Result<CheckedPosition, ApiError> {
        Ok(CheckedPosition::of(
            Variant::Rococo,
            fen,
            Naming::coords(coords),
        )?)
    }

    /// The warning for [`KING_FEN`] without its Black King.
    pub fn warning() -> Value {
        match position("8/8/8/8/2K2M2/3q4/8/8 w 0", Preset::Abbott) {
            Ok(p) => p
                .warnings
                .first()
                .map(super::Warning::from)
                .map(value)
                .unwrap_or_default(),
            Err(e) => value(e.problem()),
        }
    }
}

/// The strong `ETag` of a body: the first 128 bits of its SHA-256, in hex and quotes.
pub fn etag(body: impl AsRef<[u8]>) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(body.as_ref());
    let mut tag = String::with_capacity(34);
    tag.push('"');
    for b in &digest[..16] {
        tag.push_str(&format!("{b:02x}"));
    }
    tag.push('"');
    tag
}

/// Whether an `If-None-Match` header names `tag` (weak comparison, as RFC 9110 asks; `*` matches).
pub fn none_match(req: &actix_web::HttpRequest, tag: &str) -> bool {
    req.headers()
        .get_all(actix_web::http::header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

/// 200 with `body` as `content_type` and its strong `ETag`, or 304 (with the `ETag`, no body)
/// when `If-None-Match` names it.
pub fn tagged_response(
    req: &actix_web::HttpRequest,
    content_type: &str,
    body: Vec<u8>,
) -> actix_web::HttpResponse {
    use actix_web::http::header::{HeaderValue, ETAG};
    let tag = etag(&body);
    let not_modified = none_match(req, &tag);
    let mut res = if not_modified {
        actix_web::HttpResponse::NotModified()
    } else {
        actix_web::HttpResponse::Ok()
    };
    if let Ok(v) = HeaderValue::from_str(&tag) {
        res.insert_header((ETAG, v));
    }
    if not_modified {
        res.finish()
    } else {
        res.content_type(content_type).body(body)
    }
}
