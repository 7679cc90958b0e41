//! Logs, request ids and metrics.
//!
//! - A `tracing` subscriber, and one log line per request with its method, path, status and
//!   latency. Headers (and so `Authorization`), query strings and bodies are never logged.
//! - Every request has an id: the client's `X-Request-Id` when it is usable (1 to 128 visible ASCII
//!   characters), else a new one. It is echoed in the `X-Request-Id` response header, is a field of
//!   the `request` span that every log line of the request is written in (also on the threads that
//!   search or analyse for it), and is the `request_id` member of every problem document.
//! - Metrics in the Prometheus text format (`GET /metrics`), kept by the `metrics` crate and
//!   rendered by `metrics-exporter-prometheus`: see [`METRICS`] for the names.

use super::configuration::LogFormat;
use super::problem::PROBLEM_JSON;
use super::request_echo::logged_path;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::Instant;
use tracing::Instrument;
use tracing_subscriber::EnvFilter;

/// The request id header, in requests and responses.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The metrics the service keeps, with their labels (every name starts with `baroque_`).
pub const METRICS: &[(&str, &str)] = &[
    (
        "baroque_http_requests_total",
        "requests answered, by route template, method and status",
    ),
    (
        "baroque_http_request_duration_seconds",
        "latency histogram, by route template and method",
    ),
    (
        "baroque_solver_searches_total",
        "searches of /v1/solve and of mates posted to /v1/puzzles, by outcome",
    ),
    ("baroque_solver_nodes_total", "nodes those searches visited"),
    ("baroque_jobs_running", "generation jobs running"),
    (
        "baroque_puzzles_stored_total",
        "puzzles stored (posted or generated)",
    ),
    (
        "baroque_store_errors_total",
        "store errors answered as problems (503 store-unavailable and 500 internal)",
    ),
    (
        "baroque_rate_limited_total",
        "costly requests refused by the rate limit (429)",
    ),
    (
        "baroque_http_write_timeouts_total",
        "connections closed because their clients read nothing of an answer for --write-timeout",
    ),
    (
        "baroque_play_moves_total",
        "moves judged by /v1/play and by stored puzzles' play, by verdict",
    ),
    (
        "baroque_puzzle_attempts_total",
        "players' attempts recorded by POST /v1/puzzles/{id}/attempts, by whether they solved",
    ),
];

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

/// The process's metrics recorder, installed on first use, and its handle for rendering.
pub fn metrics() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Full("baroque_http_request_duration_seconds".into()),
                &[
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                    10.0, 30.0,
                ],
            )
            .expect("a bucket list that is not empty");
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        // Another recorder already installed (a test harness, say) keeps the macros; this handle
        // then renders nothing new, which is all a second install could do.
        let _ = metrics::set_global_recorder(recorder);
        for (name, help) in METRICS {
            metrics::describe_counter!(*name, *help);
        }
        handle
    })
}

/// The metrics in the Prometheus text format.
pub fn render_metrics() -> String {
    let handle = metrics();
    handle.run_upkeep();
    handle.render()
}

/// The id of a request (in its extensions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId(pub String);

/// Whether a client's request id is usable: 1 to 128 visible ASCII characters, none of those that
/// delimit a text log line's fields (`"`, `\`, `{`, `}`, `=`), so an id cannot forge a field.
fn usable(id: &str) -> bool {
    (1..=128).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\\' | b'{' | b'}' | b'='))
}

/// The label of a request's method in metrics and logs: the method when HTTP defines it, else
/// `other`, so that no client can add label values (a label value comes from a closed set).
pub fn method_label(method: &actix_web::http::Method) -> &'static str {
    use actix_web::http::Method;
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "other",
    }
}

/// A new request id: 32 hexadecimal digits, random per process and counted within it.
fn new_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static STATE: OnceLock<std::collections::hash_map::RandomState> = OnceLock::new();
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let state = STATE.get_or_init(std::collections::hash_map::RandomState::new);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let half = |salt: u64| {
        let mut h = state.build_hasher();
        h.write_u64(n);
        h.write_u64(salt);
        h.finish()
    };
    format!("{:016x}{:016x}", half(1), half(2))
}

/// Middleware (`middleware::from_fn`): gives the request its id and span, logs it when its
/// response is ready, counts it, echoes the id and writes it into a problem document.
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let start = Instant::now();
    let id = req
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| usable(v))
        .map_or_else(new_id, str::to_owned);
    req.extensions_mut().insert(RequestId(id.clone()));
    let method = method_label(req.method());
    let path = logged_path(req.path());
    let span = tracing::info_span!("request", request_id = %id);
    let res = next.call(req).instrument(span.clone()).await;
    // An error a middleware returned becomes its response further out; it gets the id too.
    let (status, route, res) = match res {
        Ok(res) => {
            let mut res = with_request_id(res.map_into_boxed_body(), &id).await;
            if let Ok(v) = HeaderValue::from_str(&id) {
                res.headers_mut().insert(REQUEST_ID, v);
            }
            let route = res
                .request()
                .match_pattern()
                .unwrap_or_else(|| "unmatched".to_string());
            (res.status().as_u16(), route, Ok(res))
        }
        Err(e) => {
            let response = e.error_response();
            let status = response.status().as_u16();
            let mut response = problem_with_request_id(response, &id).await;
            if let Ok(v) = HeaderValue::from_str(&id) {
                response.headers_mut().insert(REQUEST_ID, v);
            }
            let e = actix_web::error::InternalError::from_response(e.to_string(), response);
            (status, "unmatched".to_string(), Err(e.into()))
        }
    };
    let elapsed = start.elapsed();
    let latency_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    span.in_scope(|| tracing::info!(%method, %path, status, latency_us, "request"));
    metrics();
    metrics::counter!(
        "baroque_http_requests_total",
        "route" => route.clone(),
        "method" => method,
        "status" => status.to_string()
    )
    .increment(1);
    metrics::histogram!(
        "baroque_http_request_duration_seconds",
        "route" => route,
        "method" => method
    )
    .record(elapsed.as_secs_f64());
    res
}

/// The response, with `request_id` in its body when it is a problem document.
async fn with_request_id(res: ServiceResponse<BoxBody>, id: &str) -> ServiceResponse<BoxBody> {
    let (req, response) = res.into_parts();
    ServiceResponse::new(req, problem_with_request_id(response, id).await)
}

/// `response`, with `request_id` in its body when it is a problem document.
async fn problem_with_request_id(response: HttpResponse<BoxBody>, id: &str) -> HttpResponse {
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    if !is_problem {
        return response;
    }
    let (response, body) = response.into_parts();
    let bytes = actix_web::body::to_bytes(body).await.unwrap_or_default();
    // The member goes last, the others keep their order: `…}` becomes `…,"request_id":"…"}`.
    let body = match (
        serde_json::from_slice::<serde_json::Value>(&bytes),
        serde_json::to_string(id),
    ) {
        (Ok(serde_json::Value::Object(doc)), Ok(quoted)) if !doc.contains_key("request_id") => {
            let text = String::from_utf8_lossy(&bytes);
            let end = text.trim_end().len().saturating_sub(1);
            let comma = if doc.is_empty() { "" } else { "," };
            format!("{}{comma}\"request_id\":{quoted}}}", &text[..end]).into()
        }
        _ => bytes,
    };
    response.set_body(BoxBody::new(body))
}
