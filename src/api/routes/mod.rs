//! The handlers, one file per endpoint, and their registration.

pub mod analyze;
pub mod collections;
pub mod diagram;
pub mod health;
pub mod puzzles;
pub mod rules;
pub mod solve;
pub mod verify;

pub use analyze::{analysis, analyze_checked};
pub use collections::Jobs;
pub use solve::solve_query;
pub use verify::verify_moves;

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers the documented endpoints (utoipa collects their OpenAPI paths from these calls).
pub fn configure(cfg: &mut ServiceConfig) {
    cfg.service(analyze::analyze)
        .service(verify::verify)
        .service(solve::solve)
        .service(puzzles::create)
        .service(puzzles::list)
        .service(puzzles::get_one)
        .service(puzzles::delete_one)
        .service(diagram::puzzle_diagram)
        .service(diagram::diagram)
        .service(collections::create)
        .service(collections::list)
        .service(collections::get_one)
        .service(collections::export)
        .service(collections::get_job)
        .service(collections::cancel_job)
        .service(rules::rules)
        .service(health::health);
}
