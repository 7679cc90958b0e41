//! Logs: a `tracing` subscriber, and one line per request with its method, path, status and
//! latency. Headers (and so `Authorization`), query strings and bodies are never logged.

use super::configuration::LogFormat;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use std::io::IsTerminal;
use std::time::Instant;
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber: `RUST_LOG` filters (default `info`); text or JSON lines on
/// standard output. Does nothing when one is already installed.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false)
        .with_ansi(std::io::stdout().is_terminal());
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// Middleware (`middleware::from_fn`): logs each request when its response is ready.
pub async fn log_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_owned();
    let res = next.call(req).await;
    let status = match &res {
        Ok(r) => r.status().as_u16(),
        Err(e) => e.as_response_error().status_code().as_u16(),
    };
    let latency_us = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
    tracing::info!(%method, %path, status, latency_us, "request");
    res
}
