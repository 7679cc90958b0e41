//! `GET /v1/rules`.

use crate::api::common::{PresetName, ResolvedRules};
use crate::rules::{Preset, Rules};
use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

/// A rule preset and what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::preset_info))]
pub struct PresetInfo {
    pub name: PresetName,
    /// Whether requests without `rules` use it.
    pub default: bool,
    pub description: String,
}

/// A rule option, its values and its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::option_info))]
pub struct OptionInfo {
    #[schema(example = "suicide")]
    pub name: String,
    pub values: Vec<String>,
    pub default: String,
    pub description: String,
}

/// `GET /v1/rules`: the presets and options a request's `rules` may name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::rules_catalog))]
pub struct RulesCatalog {
    pub presets: Vec<PresetInfo>,
    pub options: Vec<OptionInfo>,
}

/// List the rule presets and options
///
/// Every preset a request's `rules` may name, with a sentence on what it means, and every option
/// with its values and default.
#[utoipa::path(
    tag = "rules",
    responses((status = 200, description = "The presets and options", body = RulesCatalog))
)]
#[get("/v1/rules")]
pub async fn rules() -> web::Json<RulesCatalog> {
    web::Json(catalog())
}

/// The presets and options.
pub fn catalog() -> RulesCatalog {
    let default = Rules::default();
    let defaults = serde_json::to_value(ResolvedRules::from(&default)).unwrap_or_default();
    let option = |name: &str, values: [&str; 2], description: &str| OptionInfo {
        name: name.into(),
        values: values.iter().map(|v| v.to_string()).collect(),
        default: defaults[name].as_str().unwrap_or_default().into(),
        description: description.into(),
    };
    RulesCatalog {
        presets: Preset::ALL
            .into_iter()
            .map(|p| PresetInfo {
                name: PresetName::from(p),
                default: p == default.preset,
                description: p.description().into(),
            })
            .collect(),
        options: vec![
            option(
                "leaper",
                ["long", "single"],
                "How far a Long Leaper (and a Chameleon imitating one) leaps: `long` captures several pieces in one line, stopping on any empty square after any victim; `single` takes only the first enemy piece and lands on the square right behind it.",
            ),
            option(
                "suicide",
                ["on", "off"],
                "Whether a frozen piece (not the King) may remove itself from the board as its move, written as from-square to the same square (`c5c5`).",
            ),
            option(
                "stalemate",
                ["draw", "loss"],
                "What a side that is not in check and has no legal move gets: a `draw`, or a `loss`.",
            ),
        ],
    }
}

/// Examples for the OpenAPI document, computed by the engine (see [`crate::api::common::examples`]).
pub(crate) mod examples {
    #[allow(unused_imports)]
    use super::*;
    #[allow(unused_imports)]
    use crate::api::common::examples::*;
    #[allow(unused_imports)]
    use crate::rules::rococo::Coords;
    #[allow(unused_imports)]
    use crate::rules::{Preset, Rules};
    use serde_json::Value;

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
}
