//! `GET /health`.

use crate::api::model::Health;
use actix_web::{get, web};

/// Liveness
///
/// Answers 200 while the service runs (the Docker health check calls it through `baroque health`).
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The service runs", body = Health))
)]
#[get("/health")]
pub async fn health() -> web::Json<Health> {
    web::Json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}
