//! `GET /health`.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

/// `GET /health`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::health))]
pub struct Health {
    /// Always `ok` when the service answers.
    #[schema(example = "ok")]
    pub status: String,
    /// The service's version.
    pub version: String,
}

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

/// Examples for the OpenAPI document.
mod examples {
    use super::Health;
    use crate::api::common::examples::value;
    use serde_json::Value;

    /// `GET /health`.
    pub fn health() -> Value {
        value(Health {
            status: "ok".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        })
    }
}
