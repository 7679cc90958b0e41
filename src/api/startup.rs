//! Building and running the server: [`Application::build`] binds the listener (port 0 picks a free
//! one, which [`Application::port`] tells), and [`Application::run_until_stopped`] serves on it.

use super::body_deadline::{self, BodyTimeout};
use super::configuration::{CorsPolicy, Limits, Settings};
use super::costly_work::{Analyses, Searches};
use super::openapi::{allowed_methods, document_text, openapi};
use super::problem::{
    ensure_problem_json, json_error_handler, path_error_handler, query_error_handler, ApiError,
};
use super::ratelimit::{refund_refused, RateLimit, RateLimiter};
use super::routes::embed::{self, FrameAncestors};
use super::{routes, telemetry};
use crate::app::seed::SeedReport;
use crate::app::Library;
use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceRequest, ServiceResponse};
use actix_web::http::{header, Method};
use actix_web::middleware::{from_fn, Compress, Condition, ErrorHandlers, Next};
use actix_web::web::{self, Bytes};
use actix_web::{guard, App, HttpMessage, HttpRequest, HttpResponse, HttpServer};
use std::io;
use std::net::{SocketAddr, TcpListener};
use utoipa_actix_web::AppExt;
use utoipa_swagger_ui::{Config, SwaggerUi};

/// A bound, not yet running, server.
#[derive(Debug)]
pub struct Application {
    listener: TcpListener,
    settings: Settings,
    library: Library,
    seeded: SeedReport,
}

pub use super::auth::WriteToken;

impl Application {
    /// Binds the listening socket of `settings.addr`, then opens the puzzle store of `settings.db`
    /// (applying its migrations) and seeds it from the fixtures built in, or `settings.fixtures`
    /// (not with `settings.no_seed`).
    ///
    /// ```
    /// use baroque::api::{Application, Settings};
    ///
    /// let dir = tempfile::tempdir()?; // removed, with the store, at the end
    /// let settings = Settings { db: dir.path().join("baroque.db").into(), ..Settings::for_tests() };
    /// let app = Application::build(settings)?; // 127.0.0.1:0
    /// assert_ne!(app.port(), 0);
    /// // actix_web::rt::System::new().block_on(app.run_until_stopped())?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    /// When the database cannot be opened or migrated, a fixture is unreadable or contradicted (the
    /// message names it), or the address does not resolve or cannot be bound.
    pub fn build(settings: Settings) -> io::Result<Application> {
        settings
            .cors()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        FrameAncestors::parse(&settings.embed_frame_ancestors)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        // The socket first: a start that cannot listen leaves no database behind.
        let listener = TcpListener::bind(&settings.addr).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot listen on {}: {e}", settings.addr))
        })?;
        let solve = Limits::from(&settings).solve.options();
        let (library, seeded, abandoned) =
            Library::start(&settings.db, settings.seed_source().as_ref(), &solve)
                .map_err(io::Error::other)?;
        if abandoned > 0 {
            tracing::warn!(
                abandoned,
                "collections left running by a previous run are marked stopped"
            );
        }
        Ok(Application {
            listener,
            settings,
            library,
            seeded,
        })
    }

    /// What seeding found and stored.
    pub fn seeded(&self) -> &SeedReport {
        &self.seeded
    }

    /// The stored puzzles, behind the application's use cases.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// The bound address.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.listener.local_addr().map_or(0, |a| a.port())
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Serves until SIGTERM or SIGINT (Ctrl-C), then shuts down gracefully: no new connections,
    /// running generation jobs handed over ([`crate::app::jobs::Jobs::hand_over_all`]), and
    /// in-flight requests given `settings.shutdown_timeout` seconds to finish. Must run inside an actix
    /// `System`.
    ///
    /// # Errors
    /// When the server cannot start on the listener.
    pub async fn run_until_stopped(self) -> io::Result<()> {
        self.run_until(shutdown_signal()).await
    }

    /// Serves until `stop` completes (it names the cause, for the log), then shuts down as
    /// [`Application::run_until_stopped`] does: an embedder's or a test's own stop signal.
    ///
    /// # Errors
    /// When the server cannot start on the listener.
    pub async fn run_until(
        self,
        stop: impl std::future::Future<Output = &'static str> + 'static,
    ) -> io::Result<()> {
        let limits = Limits::from(&self.settings);
        let replica = self
            .settings
            .replica_name
            .clone()
            .unwrap_or_else(|| crate::app::jobs::default_replica_name(self.port()));
        let jobs = web::Data::from(self.library.start_jobs(crate::app::jobs::JobsConfig {
            max_running: limits.max_jobs,
            lease: std::time::Duration::from_secs(self.settings.job_lease_seconds),
            solve: limits.solve.options(),
            threads: limits.job_threads,
            replica,
        }));
        let grace = std::time::Duration::from_secs(self.settings.shutdown_timeout);
        let server = server(self.listener, &self.settings, self.library, jobs.clone())?;
        let handle = server.handle();
        let stopping = jobs.clone();
        actix_web::rt::spawn(async move {
            let signal = stop.await;
            tracing::info!(
                signal,
                grace_seconds = grace.as_secs(),
                "shutting down: no new connections; in-flight requests may finish; running jobs are handed over"
            );
            stopping.hand_over_all();
            handle.stop(true).await;
        });
        server.await?;
        // The jobs run on threads of their own: wait for them to hand themselves over.
        let deadline = std::time::Instant::now() + grace;
        while jobs.active() > 0 && std::time::Instant::now() < deadline {
            actix_web::rt::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        if jobs.active() > 0 {
            tracing::warn!(
                running = jobs.active(),
                "generation jobs still running at the end of the grace period"
            );
        }
        tracing::info!("stopped");
        Ok(())
    }
}

/// Listens for SIGTERM and SIGINT (Ctrl-C) from the call on (on Unix their default action, which
/// ends the process at once, is replaced before this returns; elsewhere Ctrl-C is listened for
/// from the first poll), and waits for either; its name. Call it
/// inside the runtime before saying that the server listens: a signal sent as soon as the server
/// answers is then a graceful stop, not a kill.
pub fn shutdown_signal() -> impl std::future::Future<Output = &'static str> {
    #[cfg(unix)]
    {
        use actix_web::rt::signal::unix::{signal, SignalKind};
        let signals = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        );
        async move {
            match signals {
                (Ok(mut term), Ok(mut int)) => {
                    std::future::poll_fn(|cx| {
                        if term.poll_recv(cx).is_ready() {
                            std::task::Poll::Ready("SIGTERM")
                        } else if int.poll_recv(cx).is_ready() {
                            std::task::Poll::Ready("SIGINT")
                        } else {
                            std::task::Poll::Pending
                        }
                    })
                    .await
                }
                _ => {
                    tracing::warn!("cannot listen for signals: stop the server by killing it");
                    std::future::pending().await
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = actix_web::rt::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}

/// The CORS middleware of a policy (unused for [`CorsPolicy::None`]). Preflights are answered as
/// the Fetch standard says; a request from an origin not allowed is served without CORS headers
/// (the browser then keeps its page from reading the answer).
fn cors(policy: &CorsPolicy) -> actix_cors::Cors {
    let exposed = [
        header::ETAG,
        header::LOCATION,
        header::RETRY_AFTER,
        header::ALLOW,
        telemetry::REQUEST_ID,
    ];
    let base = actix_cors::Cors::default()
        .expose_headers(exposed)
        .max_age(3600);
    match policy {
        CorsPolicy::None => base,
        CorsPolicy::Origins(origins) => origins
            .iter()
            .fold(base, |c, o| c.allowed_origin(o))
            .allowed_methods([Method::GET, Method::HEAD, Method::POST, Method::DELETE])
            .allowed_headers([
                header::CONTENT_TYPE,
                header::AUTHORIZATION,
                header::IF_NONE_MATCH,
                telemetry::REQUEST_ID,
            ]),
        // No Authorization header and no DELETE across origins: the writes stay out of reach.
        CorsPolicy::Anyone => base
            .allow_any_origin()
            .send_wildcard()
            .allowed_methods([Method::GET, Method::HEAD, Method::POST])
            .allowed_headers([
                header::CONTENT_TYPE,
                header::IF_NONE_MATCH,
                telemetry::REQUEST_ID,
            ]),
    }
}

/// The document as served at `/openapi.json`.
#[derive(Clone)]
struct OpenApiText(Bytes);

/// The server: every route, the JSON limits, problem+json for every error, request logs and gzip.
///
/// The server does not handle signals itself ([`Application::run_until_stopped`] does); `jobs` is
/// the server's set of generation jobs.
pub fn server(
    listener: TcpListener,
    settings: &Settings,
    library: Library,
    jobs: web::Data<crate::app::jobs::Jobs>,
) -> io::Result<Server> {
    let library = web::Data::new(library);
    let token = web::Data::new(WriteToken(
        settings.write_token.clone().filter(|t| !t.is_empty()),
    ));
    let limits = Limits::from(settings);
    let cors_policy = settings
        .cors()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let ancestors = web::Data::new(
        FrameAncestors::parse(&settings.embed_frame_ancestors)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?,
    );
    telemetry::metrics();
    let doc = openapi();
    let text = OpenApiText(Bytes::from(document_text(&doc)));
    let mut allowed = allowed_methods(&doc);
    for extra in [
        "/openapi.json",
        "/docs",
        "/docs/{_:.*}",
        "/embed/player.js",
        "/embed/player.css",
    ] {
        allowed.push((extra.to_string(), vec!["GET".to_string()]));
    }
    // HEAD is answered wherever GET is (RFC 9110 9.3.2), by the GET handler without the body.
    for (_, allow) in &mut allowed {
        if allow.iter().any(|m| m == "GET") && !allow.iter().any(|m| m == "HEAD") {
            allow.insert(1, "HEAD".to_string());
        }
    }
    // One set of search slots and search threads for the whole server, shared by every worker,
    // and one of analysis slots.
    let searches = web::Data::new(Searches::new(
        limits.solve.concurrency,
        limits.solve.max_millis.div_ceil(1000).max(1),
    )?);
    let analyses = web::Data::new(Analyses::new(
        limits.analysis_concurrency,
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    )?);
    let body_timeout = web::Data::new(BodyTimeout(limits.body_timeout));
    let plays = web::Data::new(crate::api::stored_plays::StoredPlays::new(
        limits.max_stored_plays,
        limits.proof_cache_bytes,
    ));
    let exports = web::Data::new(crate::api::export_stream::ExportSlots::new(
        limits.max_exports,
        limits.max_exports_per_client,
    ));
    // One watchdog of the clients that stop reading.
    let watchdog = web::Data::new(crate::api::write_timeout::Watchdog::start(
        limits.write_timeout,
    )?);
    // One set of rate limit buckets too.
    let limiter = web::Data::new(RateLimiter::new(RateLimit::from(settings)));
    let mut server = HttpServer::new(move || {
        let json = web::JsonConfig::default()
            .limit(limits.max_body_bytes)
            .error_handler(json_error_handler);
        // A literal path answers 405 to a method it does not take before any route with a
        // parameter can match it: `DELETE /v1/puzzles/next` is not `DELETE /v1/puzzles/{id}`.
        let mut early = App::new();
        for (path, allow) in allowed.iter().filter(|(p, _)| !p.contains('{')) {
            let methods: Vec<Method> = allow
                .iter()
                .filter_map(|m| Method::from_bytes(m.as_bytes()).ok())
                .collect();
            let allow = allow.clone();
            early = early.service(
                web::resource(path.as_str())
                    .guard(guard::fn_guard(move |ctx| {
                        !methods.contains(&ctx.head().method)
                    }))
                    .to(move |req: HttpRequest| {
                        let allow = allow.clone();
                        async move { method_not_allowed(req, allow) }
                    }),
            );
        }
        let (app, _) = early
            .into_utoipa_app()
            .configure(routes::configure)
            .split_for_parts();
        let mut app = app
            .app_data(web::Data::new(limits))
            .app_data(searches.clone())
            .app_data(analyses.clone())
            .app_data(body_timeout.clone())
            .app_data(jobs.clone())
            .app_data(exports.clone())
            .app_data(watchdog.clone())
            .app_data(plays.clone())
            .app_data(limiter.clone())
            .app_data(library.clone())
            .app_data(token.clone())
            .app_data(web::QueryConfig::default().error_handler(query_error_handler))
            .app_data(web::PathConfig::default().error_handler(path_error_handler))
            .app_data(json)
            .app_data(web::Data::new(text.clone()))
            .app_data(ancestors.clone())
            .service(web::resource("/embed/player.js").guard(guard::Get()).to(
                |req: HttpRequest| async move {
                    embed::asset(&req, embed::SCRIPT, "text/javascript; charset=utf-8")
                },
            ))
            .service(web::resource("/embed/player.css").guard(guard::Get()).to(
                |req: HttpRequest| async move {
                    embed::asset(&req, embed::STYLES, "text/css; charset=utf-8")
                },
            ))
            .service(
                web::resource("/openapi.json")
                    .guard(guard::Get())
                    .to(serve_openapi),
            )
            .service(web::resource("/docs").guard(guard::Get()).to(docs_redirect))
            .service(
                SwaggerUi::new("/docs/{_:.*}")
                    // No call to the outside validator (swagger.io) from a user's browser.
                    .config(Config::new(["/openapi.json"]).validator_url("none")),
            );
        // Registered after the handlers: a path that exists answers 405 to any other method.
        for (path, allow) in &allowed {
            let allow = allow.clone();
            app = app.service(web::resource(path.as_str()).to(move |req: HttpRequest| {
                let allow = allow.clone();
                async move { method_not_allowed(req, allow) }
            }));
        }
        app.default_service(web::to(not_found))
            .wrap(from_fn(head_as_get))
            .wrap(from_fn(body_deadline::deadline))
            .wrap(from_fn(refund_refused))
            .wrap(Condition::new(
                cors_policy != CorsPolicy::None,
                cors(&cors_policy),
            ))
            .wrap(ErrorHandlers::new().default_handler(ensure_problem_json))
            .wrap(from_fn(telemetry::observe))
            // Inside compression: a body is watched by the size it has before it.
            .wrap(from_fn(crate::api::write_timeout::watch_writes))
            .wrap(Compress::default())
    })
    .on_connect(super::costly_work::remember_peer)
    .disable_signals()
    .shutdown_timeout(settings.shutdown_timeout)
    .listen(listener)?;
    if let Some(n) = settings.workers {
        server = server.workers(usize::try_from(n).unwrap_or(1));
    }
    Ok(server.run())
}

async fn serve_openapi(text: web::Data<OpenApiText>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(text.0.clone())
}

async fn docs_redirect() -> HttpResponse {
    HttpResponse::PermanentRedirect()
        .insert_header((header::LOCATION, "/docs/"))
        .finish()
}

/// Marks a HEAD request routed as a GET.
#[derive(Clone, Copy)]
struct Head;

/// Routes a HEAD request to the GET handler of its path: the HTTP layer sends the response's
/// headers (with the length the body would have) and drops the body, since it knows the request
/// was a HEAD. Request logs, outside this layer, still show HEAD.
async fn head_as_get(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
        req.extensions_mut().insert(Head);
    }
    next.call(req).await
}

fn method_not_allowed(req: HttpRequest, allow: Vec<String>) -> Result<HttpResponse, ApiError> {
    use super::request_echo::{capped, ECHOED_METHOD_CHARS, LOGGED_PATH_CHARS};
    let method = if req.extensions().get::<Head>().is_some() {
        "HEAD".to_string()
    } else {
        capped(req.method().as_str(), ECHOED_METHOD_CHARS)
    };
    Err(ApiError::MethodNotAllowed {
        path: capped(req.path(), LOGGED_PATH_CHARS),
        method,
        allow,
    })
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound {
        path: super::request_echo::capped(req.path(), super::request_echo::LOGGED_PATH_CHARS),
    })
}
