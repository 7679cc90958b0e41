//! `GET /v1/rules`.

use crate::api::model::{OptionInfo, PresetInfo, PresetName, ResolvedRules, RulesCatalog};
use crate::rules::{Preset, Rules};
use actix_web::{get, web};

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
