//! `GET /health` (liveness), `GET /ready` (readiness) and `GET /metrics` (Prometheus).

use crate::api::problem::{ApiError, Problem};
use crate::app::Library;
use actix_web::{get, web, HttpResponse};
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

/// `GET /ready`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    json!({"status": "ready", "store": "sqlite"}),
    json!({"status": "ready", "store": "postgres", "tls": {"sslmode": "verify-full", "active": true, "version": "TLSv1.3", "cipher": "TLS_AES_256_GCM_SHA384"}})
))]
pub struct Ready {
    /// `ready` when the service can serve.
    #[schema(example = "ready")]
    pub status: String,
    /// The store's backend: `sqlite` or `postgres`.
    #[schema(example = "sqlite")]
    pub store: String,
    /// On PostgreSQL, the TLS of the connection that answered the probe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tls: Option<ReadyTls>,
}

/// The TLS of the store's connection, as the PostgreSQL server's `pg_stat_ssl` sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    json!({"sslmode": "verify-full", "active": true, "version": "TLSv1.3", "cipher": "TLS_AES_256_GCM_SHA384"}),
    json!({"sslmode": "prefer", "active": false, "version": null, "cipher": null})
))]
pub struct ReadyTls {
    /// The database URL's `sslmode`: `disable`, `prefer`, `require`, `verify-ca` or
    /// `verify-full`.
    #[schema(example = "verify-full")]
    pub sslmode: String,
    /// Whether the connection is encrypted.
    pub active: bool,
    /// The TLS version, when encrypted.
    #[schema(example = "TLSv1.3")]
    pub version: Option<String>,
    /// The cipher suite, when encrypted.
    #[schema(example = "TLS_AES_256_GCM_SHA384")]
    pub cipher: Option<String>,
}

/// How long the readiness probe waits for a database connection.
const READY_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Readiness
///
/// Answers 200 only when the puzzle store answers a query and has every migration of this build
/// applied (on PostgreSQL the answer says the connection's TLS); 503 `store-unavailable` otherwise
/// (a load balancer's readiness probe).
#[utoipa::path(
    tag = "service",
    responses(
        (status = 200, description = "The store answers and is migrated", body = Ready),
        (status = 503, description = "The store does not answer or is not migrated (`store-unavailable`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))),
    )
)]
#[get("/ready")]
pub async fn ready(library: web::Data<Library>) -> Result<web::Json<Ready>, ApiError> {
    let library = library.into_inner();
    let found = web::block(move || library.readiness(READY_WAIT))
        .await?
        .map_err(|e| {
            tracing::warn!(error = %e, "not ready");
            ApiError::StoreUnavailable(e.to_string())
        })?;
    Ok(web::Json(Ready {
        status: "ready".into(),
        store: found.backend.into(),
        tls: found.tls.map(|t| ReadyTls {
            sslmode: t.sslmode.name().into(),
            active: t.active,
            version: t.version,
            cipher: t.cipher,
        }),
    }))
}

/// Metrics
///
/// The service's metrics in the Prometheus text format (version 0.0.4): requests by route
/// template, method and status; latency histograms by route; solver searches by outcome and
/// their nodes; moves judged by `/v1/play` and stored plays, by verdict
/// (`baroque_play_moves_total{verdict}`); generation jobs running; puzzles stored; store errors;
/// rate-limit refusals.
#[utoipa::path(
    tag = "service",
    responses((status = 200, description = "The metrics", body = String, content_type = "text/plain; version=0.0.4",
        example = "# TYPE baroque_http_requests_total counter\nbaroque_http_requests_total{route=\"/health\",method=\"GET\",status=\"200\"} 1\n"))
)]
#[get("/metrics")]
pub async fn metrics() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(crate::api::telemetry::render_metrics())
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
