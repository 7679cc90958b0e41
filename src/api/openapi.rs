//! The OpenAPI 3.1 document: built from the handlers' `#[utoipa::path]` attributes as they are
//! registered, served at `/openapi.json` and committed as `openapi/openapi.json`
//! (`baroque openapi > openapi/openapi.json` regenerates it; a test fails when the two differ).

use super::routes;
use actix_web::App;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

/// The document's fixed parts: info, tags, and the schemas no handler names.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "baroque",
        description = "Verifies positions and puzzles of Baroque chess (Ultima) and of its 10x10 \
                       relative Rococo (`\"game\": \"rococo\"`, squares optionally in the Rococo \
                       page's names with `\"coords\": \"page\"`): the legal moves of a \
                       position, whether a line of moves is legal with what each move captures, \
                       and the solution and soundness of a puzzle of any stipulation problemists use; \
                       it stores verified puzzles, generates collections, lets a site play a puzzle \
                       move by move and draws diagrams. \
                       Every error is an RFC 9457 `application/problem+json` document (schema `Problem`)."
    ),
    tags(
        (name = "positions", description = "Analyse a position; verify a line of moves"),
        (name = "solver", description = "Solve puzzles of every stipulation (direct mates, selfmates, helpmates, stalemates, reflexmates, series movers): keys, cooks, tries, threats, short solutions, set play, twins, soundness, the solution tree, plain text in problem notation"),
        (name = "puzzles", description = "The puzzle store: verified diagrams and puzzles of every stipulation, their outcomes and difficulty; writes need a bearer token"),
        (name = "collections", description = "Generated collections of sound puzzles of any stipulation: start a generation job (bearer token), follow it, list and export collections (JSON lines, PGN, CSV)"),
        (name = "diagrams", description = "Positions and stored puzzles drawn as SVG images"),
        (name = "rules", description = "The rule presets and options"),
        (name = "player", description = "The puzzle player sites embed in an iframe: an HTML page that plays through this API"),
        (name = "service", description = "The service itself: liveness (`/health`), readiness (`/ready`: the store answers) and Prometheus metrics (`/metrics`)")
    ),
    components(schemas(
        super::problem::Problem,
        super::problem::PositionProblem,
        super::routes::diagram::DiagramCoords,
        super::wire::puzzles::PuzzleSort,
        super::wire::solve::TwinAnswer
    )),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

/// Adds the `bearer` security scheme (the write token of `BAROQUE_WRITE_TOKEN`).
struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The write token the server was started with (BAROQUE_WRITE_TOKEN)",
                    ))
                    .build(),
            ),
        );
    }
}

/// The OpenAPI document of the service.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let (_, doc) = App::new()
        .into_utoipa_app()
        .openapi(ApiDoc::openapi())
        .configure(routes::configure)
        .split_for_parts();
    with_problem_examples(doc)
}

/// The document with an example for each kind of problem an error response documents: the kinds
/// its description names in backquotes (`` `not-found` ``), or else those of its status; so that
/// each error response shows its own problem rather than the schema's one example.
fn with_problem_examples(doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use serde_json::{json, Map, Value};
    let Ok(mut value) = serde_json::to_value(&doc) else {
        return doc;
    };
    let samples: Vec<super::problem::Problem> = super::problem::ApiError::samples()
        .iter()
        .map(|e| {
            let mut p = e.problem();
            p.request_id = Some("5f0c2a7e9b1d4c3a8e6f7a9b0c1d2e3f".into());
            p
        })
        .collect();
    let Some(paths) = value["paths"].as_object_mut() else {
        return doc;
    };
    for item in paths.values_mut() {
        let Some(ops) = item.as_object_mut() else {
            continue;
        };
        for op in ops.values_mut() {
            let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
                continue;
            };
            for (status, response) in responses.iter_mut() {
                let description = response["description"].as_str().unwrap_or("").to_string();
                let Some(content) = response
                    .get_mut("content")
                    .and_then(|c| c.get_mut(super::problem::PROBLEM_JSON))
                    .and_then(Value::as_object_mut)
                else {
                    continue;
                };
                let slug = |p: &super::problem::Problem| {
                    p.problem_type.trim_start_matches("/problems/").to_string()
                };
                let named: Vec<&super::problem::Problem> = samples
                    .iter()
                    .filter(|p| description.contains(&format!("`{}`", slug(p))))
                    .collect();
                let chosen: Vec<&super::problem::Problem> = if named.is_empty() {
                    samples
                        .iter()
                        .filter(|p| p.status.to_string() == *status)
                        .collect()
                } else {
                    named
                };
                let mut examples = Map::new();
                for p in chosen {
                    examples
                        .entry(slug(p))
                        .or_insert_with(|| json!({"summary": p.title, "value": p}));
                }
                if !examples.is_empty() {
                    content.insert("examples".into(), Value::Object(examples));
                }
            }
        }
    }
    serde_json::from_value(value).unwrap_or(doc)
}

/// The document as served and committed: pretty-printed JSON with a trailing newline.
pub fn openapi_json() -> String {
    document_text(&openapi())
}

/// A document as pretty-printed JSON with a trailing newline.
pub fn document_text(doc: &utoipa::openapi::OpenApi) -> String {
    let mut text = doc
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

/// The paths of the document with the methods each accepts, upper case (`[("/health", ["GET"])]`).
pub fn allowed_methods(doc: &utoipa::openapi::OpenApi) -> Vec<(String, Vec<String>)> {
    doc.paths
        .paths
        .iter()
        .map(|(path, item)| {
            let methods = [
                ("GET", item.get.is_some()),
                ("PUT", item.put.is_some()),
                ("POST", item.post.is_some()),
                ("DELETE", item.delete.is_some()),
                ("OPTIONS", item.options.is_some()),
                ("HEAD", item.head.is_some()),
                ("PATCH", item.patch.is_some()),
                ("TRACE", item.trace.is_some()),
            ];
            let allow = methods
                .iter()
                .filter(|(_, on)| *on)
                .map(|(m, _)| m.to_string())
                .collect();
            (path.clone(), allow)
        })
        .collect()
}
