//! The puzzle player that sites embed: `GET /embed/puzzles/{id}` (a stored puzzle) and
//! `GET /embed` (any position), an HTML page whose script and styles come from the binary
//! (`/embed/player.js`, `/embed/player.css`), that plays through the public API only.
//!
//! The page is served with a Content-Security-Policy that lets it load nothing but its own files
//! and call nothing but this service; its `frame-ancestors` is `--embed-frame-ancestors`. The
//! query is checked here (400 `invalid-parameter`, naming the parameter), so that a page that
//! loads has a position it can play; what it plays is the script's (src/api/embed/player.js).

use crate::api::configuration::Limits;
use crate::api::problem::{
    ApiError, Problem, PuzzleNotFoundProblem, RenderedError, StoreUnavailableProblem,
};
use crate::api::routes::diagram::{parse_bool, parse_coords, parse_game, short, DiagramCoords};
use crate::api::wire::embed::{
    EmbedCollectionQuery, EmbedNextQuery, EmbedQuery, EmbedStoredQuery, NextFilters, Sequence,
};
use crate::api::wire::play::PlayRequest;
use crate::app::judge::PlayQuery;
use crate::app::Library;
use crate::puzzle::rating::Rating;
use crate::puzzle::StoredPuzzle;
use crate::rules::prelude::*;
use crate::rules::{GameKind, Naming, Rules, Variant};
use crate::solver::Stipulation;
use actix_web::http::header;
use actix_web::{get, web, HttpResponse};
use serde::Serialize;

/// The page, with `{{LANG}}`, `{{THEME}}`, `{{TITLE}}` and `{{CONFIG}}` to fill.
const PAGE: &str = include_str!("../embed/player.html");
/// The player's script.
pub const SCRIPT: &str = include_str!("../embed/player.js");
/// The player's styles.
pub const STYLES: &str = include_str!("../embed/player.css");

/// Who may show the player in a frame: the `frame-ancestors` sources of its
/// Content-Security-Policy (`--embed-frame-ancestors`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameAncestors(pub String);

impl FrameAncestors {
    /// The sources of `--embed-frame-ancestors`: `*`, `'none'`, or a space-separated list of
    /// `'self'`, schemes (`https:`) and hosts (`https://puzzles.example`, `*.example.org:8443`).
    ///
    /// # Errors
    /// A source of another form (a `;` or `,` would end the directive; quotes other than the
    /// keywords are not CSP).
    pub fn parse(text: &str) -> Result<FrameAncestors, String> {
        let sources: Vec<&str> = text.split_whitespace().collect();
        if sources.is_empty() {
            return Err(
                "--embed-frame-ancestors is empty: write `*` (any site), `'none'` (no site) or \
                 the sites' origins"
                    .into(),
            );
        }
        for s in &sources {
            let keyword = matches!(*s, "*" | "'self'" | "'none'");
            let plain = !s.is_empty()
                && s.bytes().all(|b| {
                    b.is_ascii_alphanumeric()
                        || matches!(b, b'.' | b'-' | b':' | b'/' | b'*' | b'[' | b']')
                });
            if !keyword && !plain {
                return Err(format!(
                    "--embed-frame-ancestors: `{s}` is not a source: write `*`, `'self'`, \
                     `'none'`, a scheme such as `https:` or an origin such as \
                     https://puzzles.example, separated by spaces"
                ));
            }
        }
        if sources.contains(&"'none'") && sources.len() > 1 {
            return Err("--embed-frame-ancestors: `'none'` stands alone".into());
        }
        Ok(FrameAncestors(sources.join(" ")))
    }

    /// The page's Content-Security-Policy.
    pub fn policy(&self) -> String {
        format!(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors {}",
            self.0
        )
    }
}

/// What the page's script is told: the puzzle and the look.
#[derive(Clone, Debug, Serialize)]
struct Config {
    puzzle_id: Option<i64>,
    fen: String,
    game: &'static str,
    /// The rule set as the API reads it back (an object of preset and options).
    rules: Option<crate::api::wire::ResolvedRules>,
    stipulation: String,
    /// A stored puzzle's title and caption, shown above the board (absent for a free position).
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    caption: Option<String>,
    /// A stored puzzle's rating, which the page rates its visitor against (`/embed/next`).
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<Rating>,
    /// The puzzles played after this one: a collection's order, or the next from a rating.
    #[serde(skip_serializing_if = "Option::is_none")]
    sequence: Option<Sequence>,
    #[serde(flatten)]
    look: Look,
}

/// The look, read from a query: `coords`, `flip`, `theme` and `lang` of the configuration.
#[derive(Clone, Debug, Serialize)]
struct Look {
    coords: DiagramCoords,
    flip: bool,
    theme: &'static str,
    lang: String,
}

fn invalid(parameter: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::InvalidParameter {
        parameter,
        message: message.into(),
    }
}

/// The look from a query: `theme` is the light or dark scheme, under the parameter name
/// `theme_name` (`theme`, or `scheme` where `theme` names the puzzles' theme).
fn look(
    game: GameKind,
    coords: Option<&str>,
    flip: Option<&str>,
    (theme_name, theme): (&'static str, Option<&str>),
    lang: Option<&str>,
) -> Result<Look, ApiError> {
    let coords = parse_coords(coords, game)?;
    let flip = parse_bool("flip", flip)?;
    let theme = match theme {
        None | Some("light") => "light",
        Some("dark") => "dark",
        Some(other) => {
            return Err(invalid(
                theme_name,
                format!(
                    "`{}` is not a {theme_name}: `light` or `dark`",
                    short(other)
                ),
            ))
        }
    };
    let lang = match lang {
        None => "en".to_string(),
        Some(tag) if is_language_tag(tag) => tag.to_string(),
        Some(other) => {
            return Err(invalid(
                "lang",
                format!(
                    "`{}` is not a language tag: write one such as `en` or `fr`",
                    short(other)
                ),
            ))
        }
    };
    Ok(Look {
        coords,
        flip,
        theme,
        lang,
    })
}

/// Whether `tag` has the shape of a BCP 47 language tag (`en`, `fr-CA`, `zh-Hant-TW`,
/// `x-klingon`, `i-default`): subtags of letters and digits, the first of letters.
fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let first = parts.next().unwrap_or("");
    (1..=8).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
        && tag.split('-').count() <= 6
}

impl Look {
    /// How the page's squares are named to the API (a Rococo FEN's last swap among them).
    fn naming(&self) -> Naming {
        match self.coords {
            DiagramCoords::Page => Naming::coords(crate::rules::rococo::Coords::Page),
            DiagramCoords::Standard | DiagramCoords::None => Naming::default(),
        }
    }
}

/// The page for `config`, with its headers.
fn page(config: &Config, ancestors: &FrameAncestors) -> HttpResponse {
    // In a `<script type="application/json">`, `<` is written `\u003c` so that no `</script>`
    // can end it; `&` and `>` likewise, for good measure.
    let json = serde_json::to_string(config)
        .unwrap_or_default()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let title = match (config.puzzle_id, &config.title) {
        (Some(id), Some(title)) => format!("Puzzle {id}: {title} ({})", config.stipulation),
        (Some(id), None) => format!("Puzzle {id}: {}", config.stipulation),
        (None, _) => format!("Puzzle: {}", config.stipulation),
    };
    let body = PAGE
        .replace("{{VERSION}}", asset_version())
        .replace("{{LANG}}", &config.look.lang)
        .replace("{{THEME}}", config.look.theme)
        .replace("{{TITLE}}", &html_escape(&title))
        .replace("{{CONFIG}}", &json);
    html(actix_web::http::StatusCode::OK, body, ancestors)
}

/// An HTML answer of the player's, with its headers.
fn html(
    status: actix_web::http::StatusCode,
    body: String,
    ancestors: &FrameAncestors,
) -> HttpResponse {
    let mut response = HttpResponse::build(status);
    if ancestors.0 == "'none'" {
        // For browsers that know no Content-Security-Policy.
        response.insert_header((header::X_FRAME_OPTIONS, "DENY"));
    }
    response
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CONTENT_SECURITY_POLICY, ancestors.policy()))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

/// Whether the request asks for a page (a browser's navigation, an `<iframe>`): its `Accept` names
/// `text/html` and no JSON. API clients, and requests without `Accept`, keep problem documents.
fn wants_html(req: &actix_web::HttpRequest) -> bool {
    let accept = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    accept.contains("text/html") && !accept.contains("json")
}

/// A refusal of the player's routes: to a browser, a small page in the player's style with the
/// problem's title and detail (and its status); to anyone else, the problem document.
fn refusal(
    req: &actix_web::HttpRequest,
    e: ApiError,
    theme: Option<&str>,
    ancestors: &FrameAncestors,
) -> Result<HttpResponse, ApiError> {
    if !wants_html(req) {
        return Err(e);
    }
    let problem = e.problem();
    let status = actix_web::http::StatusCode::from_u16(problem.status)
        .unwrap_or(actix_web::http::StatusCode::INTERNAL_SERVER_ERROR);
    let theme = if theme == Some("dark") {
        "dark"
    } else {
        "light"
    };
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\" data-theme=\"{theme}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n\
         <link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"/embed/player.css?v={version}\">\n</head>\n\
         <body>\n<main class=\"player\">\n<section class=\"panel problem\" role=\"alert\" data-problem=\"{kind}\" data-status=\"{status}\">\n\
         <p class=\"stipulation\">{title}</p>\n<p class=\"message\">{detail}</p>\n</section>\n</main>\n</body>\n</html>\n",
        title = html_escape(&problem.title),
        detail = html_escape(&problem.detail),
        kind = html_escape(&problem.problem_type),
        status = problem.status,
        version = asset_version(),
    );
    let mut page = html(status, body, ancestors);
    page.extensions_mut().insert(RenderedError);
    Ok(page)
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The player of a stored puzzle
///
/// An HTML page that plays stored puzzle `id` move by move through `/v1/puzzles/{id}/play`
/// (click, drag or keyboard; hints, the solution, retries), for a site to show in an `<iframe>`.
/// It posts `{"type": "baroque-puzzle", "event": "move"|"wrong"|"solved", ...}` to the page
/// around it. Served with a Content-Security-Policy whose `frame-ancestors` is
/// `--embed-frame-ancestors`. A refusal is a problem document, or, to a browser (an `Accept` that
/// names `text/html` and no JSON), a small page in the player's style with the same status,
/// title and detail.
#[utoipa::path(
    tag = "player",
    params(("id" = i64, Path, description = "The puzzle's id"), EmbedStoredQuery),
    responses(
        (status = 200, description = "The player page", content_type = "text/html", body = String,
            headers(("Content-Security-Policy" = String, description = "The page's policy, with `frame-ancestors` from `--embed-frame-ancestors`"))),
        (status = 400, description = "A parameter's value is unusable (`invalid-parameter`, with `parameter`), or an unknown parameter (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        PuzzleNotFoundProblem,
        (status = 422, description = "The puzzle is a diagram, which has no stipulation to play (`not-applicable`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/embed/puzzles/{id}")]
pub async fn embed_stored(
    req: actix_web::HttpRequest,
    id: web::Path<i64>,
    query: web::Query<EmbedStoredQuery>,
    library: web::Data<Library>,
    ancestors: web::Data<FrameAncestors>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner();
    let theme = q.theme.clone();
    match stored_page(&req, id.into_inner(), q, library, &ancestors).await {
        Ok(page) => Ok(page),
        Err(e) => refusal(&req, e, theme.as_deref(), &ancestors),
    }
}

async fn stored_page(
    req: &actix_web::HttpRequest,
    id: i64,
    q: EmbedStoredQuery,
    library: web::Data<Library>,
    ancestors: &FrameAncestors,
) -> Result<HttpResponse, ApiError> {
    let library = library.into_inner();
    let Some(p) = web::block(move || library.puzzle_lean(id)).await?? else {
        return Err(ApiError::NotFound {
            path: req.path().to_string(),
        });
    };
    let look = look(
        p.game(),
        q.coords.as_deref(),
        q.flip.as_deref(),
        ("theme", q.theme.as_deref()),
        q.lang.as_deref(),
    )?;
    puzzle_page(p, look, None, ancestors)
}

/// The page of stored puzzle `p`, followed by `sequence`.
fn puzzle_page(
    p: StoredPuzzle,
    look: Look,
    sequence: Option<Sequence>,
    ancestors: &FrameAncestors,
) -> Result<HttpResponse, ApiError> {
    let id = p.id;
    let Some(stipulation) = p.stipulation else {
        return Err(ApiError::NotApplicable {
            field: "id",
            detail: format!("puzzle {id} is a diagram: it has no stipulation to play"),
        });
    };
    // The stored FEN names squares (Rococo's last swap) in standard names: in page names when the
    // page uses them, since the script talks to the API in the page's names.
    let fen = p
        .variant
        .read_fen(&p.fen, Naming::default())
        .map(|pos| pos.fen(look.naming()))
        .map_err(|e| ApiError::Internal(format!("stored puzzle {id}: {e}")))?;
    Ok(page(
        &Config {
            puzzle_id: Some(id),
            fen,
            game: p.game().name(),
            rules: p.variant.rules().map(|r| (&r).into()),
            stipulation: stipulation.to_string(),
            title: p.title.clone(),
            caption: p.caption.clone(),
            rating: p.rating.map(|r| r.rating),
            sequence,
            look,
        },
        ancestors,
    ))
}

/// The player of a collection, puzzle after puzzle
///
/// The page of `/embed/puzzles/{id}` for the collection's first puzzle (or the first after
/// position `after`), with a "Next" button (`data-action="next"`) once the puzzle is solved or
/// failed, which loads the next puzzle in the collection's order. The page posts an `attempt`
/// event to the page around it for each puzzle (`{"type": "baroque-puzzle", "event": "attempt",
/// "puzzle_id", "solved", "moves"}`), for the site to record with `POST
/// /v1/puzzles/{id}/attempts`. Past the last puzzle, or for no such collection, 404.
#[utoipa::path(
    tag = "player",
    params(("name" = String, Path, description = "The collection's name"), EmbedCollectionQuery),
    responses(
        (status = 200, description = "The player page", content_type = "text/html", body = String,
            headers(("Content-Security-Policy" = String, description = "The page's policy, with `frame-ancestors` from `--embed-frame-ancestors`"))),
        (status = 400, description = "A parameter's value is unusable (`invalid-parameter`, with `parameter`), or an unknown parameter (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such collection, or no puzzle after position `after` (`not-found`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The puzzle is a diagram, which has no stipulation to play (`not-applicable`)", body = Problem, content_type = "application/problem+json"),
        StoreUnavailableProblem,
    )
)]
#[get("/embed/collections/{name}")]
pub async fn embed_collection(
    req: actix_web::HttpRequest,
    name: web::Path<String>,
    query: web::Query<EmbedCollectionQuery>,
    library: web::Data<Library>,
    ancestors: web::Data<FrameAncestors>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner();
    let theme = q.theme.clone();
    match collection_page(&req, name.into_inner(), q, library, &ancestors).await {
        Ok(page) => Ok(page),
        Err(e) => refusal(&req, e, theme.as_deref(), &ancestors),
    }
}

async fn collection_page(
    req: &actix_web::HttpRequest,
    name: String,
    q: EmbedCollectionQuery,
    library: web::Data<Library>,
    ancestors: &FrameAncestors,
) -> Result<HttpResponse, ApiError> {
    let after = match q.after.as_deref().map(str::trim) {
        None | Some("") => 0,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|a| *a >= 0)
            .ok_or_else(|| {
                invalid(
                    "after",
                    format!("`{}` is not a position: a whole number from 0", short(text)),
                )
            })?,
    };
    let library = library.into_inner();
    let wanted = name.clone();
    let Some(step) = web::block(move || library.collection_step(&wanted, after)).await?? else {
        return Err(ApiError::NotFound {
            path: req.path().to_string(),
        });
    };
    let look = look(
        step.puzzle.game(),
        q.coords.as_deref(),
        q.flip.as_deref(),
        ("theme", q.theme.as_deref()),
        q.lang.as_deref(),
    )?;
    let sequence = Sequence::Collection {
        name,
        position: step.position,
        more: step.more,
    };
    puzzle_page(step.puzzle, look, Some(sequence), ancestors)
}

/// The player of puzzles of any stipulation near a visitor's rating, one after another
///
/// The page of `/embed/puzzles/{id}` for the puzzle `/v1/puzzles/next` gives for the visitor's
/// rating and the filters. Once the puzzle is solved or failed, the page updates the visitor's
/// rating by the Glicko-2 arithmetic of `POST /v1/puzzles/{id}/attempts` (one game against the
/// puzzle's rating) and its "Next" button (`data-action="next"`) loads this page again with the
/// new rating and the puzzle added to `exclude`. It posts the same `attempt` events as
/// `/embed/collections/{name}`, with the visitor's new rating as `player`. 404 `no-puzzle` when
/// no puzzle is left.
#[utoipa::path(
    tag = "player",
    params(EmbedNextQuery),
    responses(
        (status = 200, description = "The player page", content_type = "text/html", body = String,
            headers(("Content-Security-Policy" = String, description = "The page's policy, with `frame-ancestors` from `--embed-frame-ancestors`"))),
        (status = 400, description = "A parameter's value is unusable: a rating, deviation, volatility or exclusion list out of range (`invalid-parameter`, with `parameter`), or an unknown parameter (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No stored puzzle matches (`no-puzzle`)", body = Problem, content_type = "application/problem+json"),
        StoreUnavailableProblem,
    )
)]
#[get("/embed/next")]
pub async fn embed_next(
    req: actix_web::HttpRequest,
    query: web::Query<EmbedNextQuery>,
    library: web::Data<Library>,
    ancestors: web::Data<FrameAncestors>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner();
    let scheme = q.scheme.clone();
    match next_page(q, library, &ancestors).await {
        Ok(page) => Ok(page),
        Err(e) => refusal(&req, e, scheme.as_deref(), &ancestors),
    }
}

async fn next_page(
    q: EmbedNextQuery,
    library: web::Data<Library>,
    ancestors: &FrameAncestors,
) -> Result<HttpResponse, ApiError> {
    let player = crate::api::wire::puzzles::PlayerRating {
        rating: q.rating,
        deviation: q.deviation,
        volatility: q.volatility,
    }
    .rating();
    player
        .check()
        .map_err(|e| invalid(e.field, format!("the visitor's {}: {}", e.field, e.message)))?;
    let filters = NextFilters {
        game: q.game.map(|g| GameKind::from(g).name().to_string()),
        stipulation: q.stipulation.clone().filter(|s| !s.is_empty()),
        theme: q.theme.clone().filter(|s| !s.is_empty()),
        collection: q.collection.clone().filter(|s| !s.is_empty()),
        seed: q.seed,
    };
    let next = crate::api::wire::puzzles::NextPuzzleQuery {
        rating: player.value,
        deviation: Some(player.deviation),
        game: q.game,
        stipulation: q.stipulation,
        theme: q.theme,
        collection: q.collection,
        exclude: q.exclude,
        seed: q.seed,
    }
    .read()?;
    let exclude = next.exclude.clone();
    let library = library.into_inner();
    let Some(p) = web::block(move || library.next_puzzle(&next)).await?? else {
        return Err(ApiError::NoPuzzle);
    };
    // Page names are Rococo's: a Baroque puzzle in the same run keeps standard names.
    let coords = q
        .coords
        .as_deref()
        .filter(|c| *c != "page" || p.game() == GameKind::Rococo);
    let look = look(
        p.game(),
        coords,
        q.flip.as_deref(),
        ("scheme", q.scheme.as_deref()),
        q.lang.as_deref(),
    )?;
    let sequence = Sequence::Next {
        player,
        filters,
        exclude,
    };
    puzzle_page(p, look, Some(sequence), ancestors)
}

/// The player of any position and stipulation
///
/// The page of `/embed/puzzles/{id}` for a position and a stipulation given in the query, played
/// through `/v1/play`. Its refusals are as `/embed/puzzles/{id}`'s: a page for a browser, a problem
/// document for anyone else.
#[utoipa::path(
    tag = "player",
    params(EmbedQuery),
    responses(
        (status = 200, description = "The player page", content_type = "text/html", body = String,
            headers(("Content-Security-Policy" = String, description = "The page's policy, with `frame-ancestors` from `--embed-frame-ancestors`"))),
        (status = 400, description = "A parameter's value is unusable: a FEN that does not read or cannot arise, a stipulation or rule set that does not read (`invalid-parameter`, with `parameter`), or an unknown or missing parameter (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A puzzle `/v1/play` would refuse, as it would: a stipulation longer than the server allows (`invalid-mate-in`), a stipulation whose side is not the one to move (`stipulation-side`), a Rococo board without both Kings (`not-applicable`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/embed")]
pub async fn embed(
    req: actix_web::HttpRequest,
    query: web::Query<EmbedQuery>,
    ancestors: web::Data<FrameAncestors>,
    limits: web::Data<Limits>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner();
    let theme = q.theme.clone();
    match free_page(q, &ancestors, &limits) {
        Ok(page) => Ok(page),
        Err(e) => refusal(&req, e, theme.as_deref(), &ancestors),
    }
}

fn free_page(
    q: EmbedQuery,
    ancestors: &FrameAncestors,
    limits: &Limits,
) -> Result<HttpResponse, ApiError> {
    let game = parse_game(q.game.as_deref())?;
    let look = look(
        game,
        q.coords.as_deref(),
        q.flip.as_deref(),
        ("theme", q.theme.as_deref()),
        q.lang.as_deref(),
    )?;
    let rules = q
        .rules
        .as_deref()
        .map(|r| {
            r.parse::<Rules>()
                .map_err(|e| invalid("rules", format!("`{}`: {e}", short(r))))
        })
        .transpose()?;
    // Rules given for Rococo are refused here, as the game has none.
    let variant = Variant::of(game, rules).map_err(|e| invalid("rules", e))?;
    let (pos, _) = variant
        .position(q.fen.trim(), look.naming())
        .map_err(|e| invalid("fen", format!("`{}`: {e}", short(&q.fen))))?;
    let stipulation = Stipulation::parse(q.stipulation.trim()).ok_or_else(|| {
        invalid(
            "stipulation",
            format!(
                "`{}` is not a stipulation: write {}",
                short(&q.stipulation),
                Stipulation::FORMS
            ),
        )
    })?;
    let fen = pos.fen(look.naming());
    let rules_view: Option<crate::api::wire::ResolvedRules> = rules.map(|r| (&r).into());
    // What /v1/play will say of every move, said now: the stipulation's side, its length, a
    // Rococo board without both Kings.
    let mut request = serde_json::json!({
        "fen": fen,
        "stipulation": stipulation.to_string(),
        "game": game.name(),
        "moves": [],
    });
    if let Some(r) = &rules_view {
        request["rules"] = serde_json::to_value(r).unwrap_or_default();
    }
    if look.coords == DiagramCoords::Page {
        request["coords"] = "page".into();
    }
    let request: PlayRequest = serde_json::from_value(request)
        .map_err(|e| ApiError::Internal(format!("the embed page's play request: {e}")))?;
    PlayQuery::parse(request.input(), &limits.solve, limits.max_moves)?;
    Ok(page(
        &Config {
            puzzle_id: None,
            fen,
            game: game.name(),
            rules: rules_view,
            stipulation: stipulation.to_string(),
            title: None,
            caption: None,
            rating: None,
            sequence: None,
            look,
        },
        ancestors,
    ))
}

/// The version of the page's files, named in their URLs (`?v=`) so that a page never runs with
/// the files of another build: the first 48 bits of the SHA-256 of both, in hexadecimal.
pub fn asset_version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        use sha2::{Digest, Sha256};
        let digest = Sha256::new()
            .chain_update(SCRIPT)
            .chain_update(STYLES)
            .finalize();
        digest[..6].iter().map(|b| format!("{b:02x}")).collect()
    })
}

/// `GET /embed/player.js` and `/embed/player.css`: the page's files, by the version the page
/// names (`?v=`, [`asset_version`]).
///
/// - The served build's version: cached for a year and never revalidated (`immutable`), since
///   another build names other files.
/// - Another version: 404 `not-found`, not to be stored (`no-store`). In a rolling deploy a page
///   of the new build may ask an old replica for the new files: a cache must not keep the old
///   files under the new name, and the page retries or fails whole rather than running with the
///   files of another build.
/// - No version (a hand-written link): answered, revalidated on each use (`no-cache`) by its
///   `ETag`, 304 when `If-None-Match` names it.
pub fn asset(
    req: &actix_web::HttpRequest,
    body: &'static str,
    content_type: &'static str,
) -> HttpResponse {
    let asked =
        web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
            .ok()
            .and_then(|q| q.0.get("v").cloned());
    let version = asset_version();
    let cache = match asked.as_deref() {
        Some(v) if v == version => "public, max-age=31536000, immutable",
        Some(v) => {
            use actix_web::ResponseError;
            let mut res = ApiError::NotFound {
                path: format!(
                    "{}?v={}",
                    req.path(),
                    crate::api::request_echo::capped(v, 32)
                ),
            }
            .error_response();
            res.headers_mut().insert(
                header::CACHE_CONTROL,
                header::HeaderValue::from_static("no-store"),
            );
            return res;
        }
        None => "no-cache",
    };
    let tag = format!("\"{version}\"");
    if crate::api::common::none_match(req, &tag) {
        return HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache))
            .finish();
    }
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::ETAG, tag))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_cannot_end_its_script_element() {
        let config = Config {
            puzzle_id: Some(7),
            fen: "</script><script>alert(1)</script> & <!--".into(),
            game: "baroque",
            rules: None,
            stipulation: "#2".into(),
            title: Some("</script><b>".into()),
            caption: Some("<!-- & </SCRIPT>".into()),
            rating: None,
            sequence: None,
            look: Look {
                coords: DiagramCoords::Standard,
                flip: false,
                theme: "light",
                lang: "en".into(),
            },
        };
        let r = page(&config, &FrameAncestors("*".into()));
        let body = actix_web::body::to_bytes(r.into_body());
        let body = futures_executor(body);
        let text = String::from_utf8(body).unwrap();
        let start = text.find("id=\"baroque-config\">").unwrap();
        let end = start + text[start..].find("</script>").unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&text[start + "id=\"baroque-config\">".len()..end]).unwrap();
        assert_eq!(json["fen"], config.fen);
        assert_eq!(json["title"], "</script><b>");
        assert_eq!(json["caption"], "<!-- & </SCRIPT>");
        assert!(!text.contains("<b>"), "{text}");
        assert!(
            text.contains("<title>Puzzle 7: &lt;/script&gt;&lt;b&gt; (#2)</title>"),
            "{text}"
        );
        assert!(!text[start..end].contains('<'), "{}", &text[start..end]);
    }

    /// Runs a future that needs no reactor.
    fn futures_executor<
        F: std::future::Future<Output = Result<actix_web::web::Bytes, E>>,
        E: std::fmt::Debug,
    >(
        f: F,
    ) -> Vec<u8> {
        actix_web::rt::System::new().block_on(f).unwrap().to_vec()
    }

    #[test]
    fn frame_ancestors_keep_one_directive() {
        assert!(FrameAncestors::parse("https://a.example; script-src *").is_err());
        assert!(FrameAncestors::parse("https://a.example\nX: y").is_ok_and(|f| !f.0.contains('\n')));
        assert!(FrameAncestors::parse("'self' 'unsafe-inline'").is_err());
        assert_eq!(
            FrameAncestors::parse(" https://a.example   'self' ")
                .unwrap()
                .0,
            "https://a.example 'self'"
        );
    }
}
