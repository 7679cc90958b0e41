//! The handlers, one file per endpoint, and their registration.

pub mod analyze;
pub mod collections;
pub mod database;
pub mod diagram;
pub mod embed;
pub mod health;
pub mod play;
pub mod puzzles;
pub mod rules;
pub mod solve;
pub mod verify;

pub use crate::app::jobs::Jobs;

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers the documented endpoints (utoipa collects their OpenAPI paths from these calls).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(analyze::analyze)
        .service(verify::verify)
        .service(solve::solve)
        .service(play::play)
        .service(play::play_stored)
        .service(puzzles::create)
        .service(database::anticipation)
        .service(puzzles::list)
        .service(puzzles::next)
        .service(puzzles::get_one)
        .service(puzzles::get_outcome)
        .service(puzzles::attempt)
        .service(puzzles::delete_one)
        .service(database::correct_history)
        .service(diagram::puzzle_diagram)
        .service(diagram::diagram)
        .service(collections::create)
        .service(collections::list)
        .service(collections::get_one)
        .service(collections::export)
        .service(collections::get_job)
        .service(collections::cancel_job)
        .service(rules::rules)
        .service(health::health)
        .service(health::ready)
        .service(health::metrics)
        .service(embed::embed)
        .service(embed::embed_stored)
        .service(embed::embed_collection)
        .service(embed::embed_next);
}

#[cfg(test)]
mod tests {
    use super::rules;
    use crate::api::common::examples::{value, warning};
    use crate::api::problem::ApiError;

    #[test]
    fn examples_are_what_the_seed_diagrams_give() {
        let m = crate::api::wire::analyze::examples::legal_move();
        assert_eq!(m["notation"], "Pc2xc4");
        assert_eq!(
            m["captures"],
            serde_json::json!([{"square": "d4", "piece": "r"}, {"square": "c5", "piece": "n"}])
        );
        assert_eq!(
            crate::api::wire::verify::examples::verified_move()["fen_after"],
            "7k/5ppp/2N5/8/2P1B3/8/PP6/K7 b 1"
        );
        assert_eq!(
            crate::api::wire::verify::examples::illegal_move()["reason"],
            "self_check"
        );
        assert_eq!(warning()["code"], "no_king");
        assert_eq!(rules::examples::preset_info()["name"], "vchess");
        assert_eq!(rules::examples::option_info()["name"], "suicide");
        let a = crate::api::wire::analyze::examples::analyze_response();
        assert_eq!(a["status"], "check");
        let mates: Vec<_> = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["checkmate"] == true)
            .map(|m| m["notation"].as_str().unwrap())
            .collect();
        assert!(mates.contains(&"Kc4-d5"), "{mates:?}");
        let s = crate::api::wire::solve::examples::solve_response();
        assert_eq!(s["result"], "mate");
        assert_eq!(s["sound"], true);
        assert_eq!(
            crate::api::wire::solve::examples::key_move()["notation"],
            "Bg6xc6"
        );
        assert_eq!(
            crate::api::wire::solve::examples::key_move()["captures"]
                .as_array()
                .map(Vec::len),
            Some(7)
        );
        assert_eq!(s["intended_key"]["mate_in"], 2);
        assert_eq!(
            crate::api::wire::solve::examples::defence_node()["dual"],
            true
        );
        assert_eq!(
            crate::api::wire::solve::examples::solve_response(),
            s,
            "the example is the same every time"
        );
        assert_eq!(
            crate::api::wire::puzzles::examples::puzzle()["fixture"],
            "vc-pawn-c2c4"
        );
    }

    /// The problem examples of the document are written out; they are what the API answers.
    #[test]
    fn the_problem_examples_are_what_the_api_answers() {
        let doc = crate::api::openapi();
        let schema =
            serde_json::to_value(&doc.components.as_ref().unwrap().schemas["Problem"]).unwrap();
        let answered = |fen: &str| -> serde_json::Value {
            match crate::api::common::examples::position(fen, crate::rules::Preset::Vchess) {
                Ok(_) => serde_json::Value::Null,
                Err(e) => value(ApiError::problem(&e)),
            }
        };
        assert_eq!(
            schema["examples"][0],
            answered("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K8 w 0")
        );
        assert_eq!(
            schema["examples"][1],
            answered("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K6K w 0")
        );
    }
}
