//! `/v1/diagram.svg` and `/v1/puzzles/{id}/diagram.svg`: boards drawn as SVG by
//! [`crate::diagram`], with a strong ETag (a SHA-256 of the image) and `If-None-Match`.

use crate::api::common::GameName;
use crate::api::problem::{ApiError, Problem, PuzzleNotFoundProblem};
use crate::app::Library;
use crate::diagram::{render, Diagram, Labels, Options, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
use crate::puzzle::Kind;
use crate::rules::prelude::*;
use crate::rules::rococo::Coords;
use crate::rules::{GameKind, Naming, Variant, VariantPosition};
use actix_web::http::header::{self, HeaderValue};
use actix_web::{get, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

/// How the squares are named around the board and in `marks` and `arrows`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "standard")]
pub enum DiagramCoords {
    /// Files a-h (a-j on the Rococo board), ranks 1-8 (1-10), written around the board.
    #[default]
    Standard,
    /// Rococo only: the page's names, files x, a-h, y and ranks 0, 1-8, 00, written around the
    /// board.
    Page,
    /// The standard names, with nothing written around the board.
    None,
}

/// Declares a diagram query: the struct as written, with the drawing parameters both diagram
/// endpoints share (`marks`, `arrows`, `size`, `coords`, `flip`), documented once, where the body
/// says `@drawing_fields,` (the order serde's "expected one of" errors list); and [`Drawing`]
/// read from them (`drawing()`). (rustfmt leaves the bodies of macro calls as they are written.)
macro_rules! diagram_query {
    ($(#[$meta:meta])* pub struct $name:ident { $($body:tt)* }) => {
        diagram_query!(@munch [$(#[$meta])*] $name [] $($body)*);
    };
    (@munch [$($meta:tt)*] $name:ident [$($done:tt)*] @drawing_fields, $($rest:tt)*) => {
        $($meta)*
        pub struct $name {
            $($done)*
            /// Squares to highlight, comma-separated (`d4,d6`), at most 100.
            #[param(example = "d4,d6")]
            pub marks: Option<String>,
            /// Arrows, comma-separated, each two squares with an optional `-` (`d2d8,e7-e5`), at
            /// most 32. An arrow from a square to itself is drawn as a ring.
            #[param(example = "d2d8")]
            pub arrows: Option<String>,
            /// Width and height of the image in pixels, 64 to 2048 (default 480).
            #[param(value_type = Option<u32>, minimum = 64, maximum = 2048, example = 480)]
            pub size: Option<String>,
            /// The square names: `standard` (default), `page` (Rococo only) or `none` (standard
            /// names, no coordinates drawn).
            #[param(value_type = Option<DiagramCoords>)]
            pub coords: Option<String>,
            /// `true` to draw the board from Black's side (default `false`).
            #[param(value_type = Option<bool>)]
            pub flip: Option<String>,
            $($rest)*
        }

        impl $name {
            /// The drawing parameters, to read against a diagram.
            fn drawing(&self) -> Drawing<'_> {
                Drawing {
                    marks: self.marks.as_deref(),
                    arrows: self.arrows.as_deref(),
                    size: self.size.as_deref(),
                    flip: self.flip.as_deref(),
                }
            }
        }
    };
    // One field of the body before the marker.
    (@munch $meta:tt $name:ident [$($done:tt)*]
        $(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty, $($rest:tt)*) => {
        diagram_query!(@munch $meta $name [$($done)* $(#[$fmeta])* $fvis $field: $ty,] $($rest)*);
    };
    (@munch $meta:tt $name:ident [$($done:tt)*]) => {
        compile_error!("diagram_query!: the body has no `@drawing_fields,` marker");
    };
}

diagram_query! {
/// `GET /v1/diagram.svg`: a position and how to draw it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DiagramQuery {
    /// The position: a Baroque FEN (either letter set) or, with `game=rococo`, a Rococo one.
    #[param(example = "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0")]
    pub fen: String,
    /// The game of the FEN: `baroque` (default) or `rococo`.
    #[param(value_type = Option<GameName>)]
    pub game: Option<String>,
    @drawing_fields,
}
}

diagram_query! {
/// `GET /v1/puzzles/{id}/diagram.svg`: how to draw a stored puzzle's position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PuzzleDiagramQuery {
    @drawing_fields,
    /// `true` to add an arrow for the answer (default `false`, so the image does not give it
    /// away): a mate's first key, or a diagram's first move when it is a move of the position.
    #[param(value_type = Option<bool>)]
    pub solution: Option<String>,
}
}

/// `Cache-Control` of a diagram of a FEN: the image depends on the query alone.
const CACHE_FEN: &str = "public, max-age=86400";
/// `Cache-Control` of a puzzle's diagram: a puzzle may be deleted, so a shorter time.
const CACHE_PUZZLE: &str = "public, max-age=300";
/// The media type of the images.
const SVG: &str = "image/svg+xml";

fn invalid(parameter: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::InvalidParameter {
        parameter,
        message: message.into(),
    }
}

pub(crate) fn parse_bool(parameter: &'static str, v: Option<&str>) -> Result<bool, ApiError> {
    match v {
        None | Some("false" | "0") => Ok(false),
        Some("true" | "1") => Ok(true),
        Some(other) => Err(invalid(
            parameter,
            format!("`{}` is not `true` or `false`", short(other)),
        )),
    }
}

pub(crate) fn parse_game(v: Option<&str>) -> Result<GameKind, ApiError> {
    match v {
        None => Ok(GameKind::default()),
        Some(name) => GameKind::parse(name).ok_or_else(|| {
            invalid(
                "game",
                format!("`{}` is not a game: `baroque` or `rococo`", short(name)),
            )
        }),
    }
}

pub(crate) fn parse_coords(v: Option<&str>, game: GameKind) -> Result<DiagramCoords, ApiError> {
    let c = match v {
        None | Some("standard") => DiagramCoords::Standard,
        Some("page") => DiagramCoords::Page,
        Some("none") => DiagramCoords::None,
        Some(other) => {
            return Err(invalid(
                "coords",
                format!(
                    "`{}` is not a coordinate style: `standard`, `page` or `none`",
                    short(other)
                ),
            ))
        }
    };
    if c == DiagramCoords::Page && !Variant::has_page_coords(game) {
        return Err(invalid(
            "coords",
            "`page` names are Rococo's; a Baroque board takes `standard` or `none`",
        ));
    }
    Ok(c)
}

fn parse_size(v: Option<&str>) -> Result<u32, ApiError> {
    let Some(v) = v else { return Ok(DEFAULT_SIZE) };
    v.parse::<u32>()
        .ok()
        .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
        .ok_or_else(|| {
            invalid(
                "size",
                format!(
                    "`{}` is not a size: a whole number of pixels from {MIN_SIZE} to {MAX_SIZE}",
                    short(v)
                ),
            )
        })
}

/// At most 16 characters of a value, for messages.
pub(crate) fn short(v: &str) -> String {
    let s: String = v.chars().take(16).collect();
    if s.len() < v.len() {
        format!("{s}...")
    } else {
        s
    }
}

/// What both endpoints share: the drawing options read from the query.
struct Drawing<'a> {
    marks: Option<&'a str>,
    arrows: Option<&'a str>,
    size: Option<&'a str>,
    flip: Option<&'a str>,
}

impl Drawing<'_> {
    fn options(&self, d: &Diagram, coords: DiagramCoords) -> Result<Options, ApiError> {
        let labels = match coords {
            DiagramCoords::Page => Labels::Page,
            DiagramCoords::Standard | DiagramCoords::None => Labels::Standard,
        };
        let size = parse_size(self.size)?;
        let flipped = parse_bool("flip", self.flip)?;
        let marks = match self.marks {
            Some(m) => d
                .parse_marks(m, labels)
                .map_err(|e| invalid("marks", e.0))?,
            None => Vec::new(),
        };
        let arrows = match self.arrows {
            Some(a) => d
                .parse_arrows(a, labels)
                .map_err(|e| invalid("arrows", e.0))?,
            None => Vec::new(),
        };
        Ok(Options {
            size,
            coordinates: coords != DiagramCoords::None,
            labels,
            flipped,
            marks,
            arrows,
            title: None,
        })
    }
}

pub use crate::api::common::etag;
use crate::api::common::none_match;

/// 200 with the image, or 304 when the client has it.
fn svg_response(req: &HttpRequest, svg: String, cache: &'static str) -> HttpResponse {
    let tag = etag(&svg);
    let not_modified = none_match(req, &tag);
    let mut res = if not_modified {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    res.insert_header((header::CACHE_CONTROL, HeaderValue::from_static(cache)))
        .insert_header((
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .insert_header((
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
        ));
    if let Ok(v) = HeaderValue::from_str(&tag) {
        res.insert_header((header::ETAG, v));
    }
    if not_modified {
        res.finish()
    } else {
        res.content_type(SVG).body(svg)
    }
}

/// Draw a position
///
/// An SVG image of a Baroque (8x8) or Rococo (10x10) position: the pieces (each a
/// `<g class="piece" data-square="e1" data-piece="K">` with a title), the coordinates, marked
/// squares and move arrows, `size` pixels wide and high. Rococo's edge ring is shaded apart. The
/// same query always gives the same image; the strong `ETag` is a hash of it, and a request whose
/// `If-None-Match` names it gets 304 without a body. Pieces are drawn, not written with a font:
/// King a crown, Pawn a pawn, Withdrawer (Q) an arrow pointing away from a ring, Long Leaper (N) an
/// arch over a dot, Coordinator (R) a tower with a crosshair, Immobilizer (M) an octagon with a
/// snowflake, Chameleon (B) a diamond with an eye; in Rococo the Advancer a spear, the Swapper two
/// opposite arrows, the Cannon Pawn a pawn on wheels and the Pushme-Pullyu a double-headed arrow.
#[utoipa::path(
    tag = "diagrams",
    params(
        DiagramQuery,
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 when the image is the same"),
    ),
    responses(
        (status = 200, description = "The image", content_type = "image/svg+xml", body = String,
            headers(
                ("ETag" = String, description = "Strong: the first 128 bits of the image's SHA-256"),
                ("Cache-Control" = String, description = "`public, max-age=86400`")
            )),
        (status = 304, description = "Not modified: `If-None-Match` names the current `ETag`",
            headers(("ETag" = String, description = "The current ETag"))),
        (status = 400, description = "A parameter's value is unusable (`invalid-parameter`, with `parameter`: `game`, `marks`, `arrows`, `size`, `coords` or `flip`), or an unknown or missing parameter (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The FEN cannot be read (`invalid-fen`, with `field` and `position`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/diagram.svg")]
pub async fn diagram(
    req: HttpRequest,
    query: web::Query<DiagramQuery>,
) -> Result<HttpResponse, ApiError> {
    let q = query.into_inner();
    let game = parse_game(q.game.as_deref())?;
    let coords = parse_coords(q.coords.as_deref(), game)?;
    let naming = Naming::coords(match coords {
        DiagramCoords::Page => Coords::Page,
        _ => Coords::Standard,
    });
    let variant = Variant::of(game, None).map_err(|e| invalid("game", e))?;
    let d = Diagram::new(variant.read_fen(&q.fen, naming)?);
    let drawing = q.drawing();
    let options = drawing.options(&d, coords)?;
    Ok(svg_response(&req, render(&d, &options), CACHE_FEN))
}

/// Draw a puzzle
///
/// The position of a stored puzzle as an SVG image, with the options of `GET /v1/diagram.svg`
/// (`marks`, `arrows`, `size`, `coords`, `flip`; the game is the puzzle's). The image's title names
/// the puzzle. With `solution=true` an arrow shows the answer: a mate's first key, or a diagram's
/// first move (when it is a move of the position; an illegal move claimed by the diagram gets no
/// arrow). Strong `ETag` and `If-None-Match` as for `/v1/diagram.svg`.
#[utoipa::path(
    tag = "diagrams",
    params(
        ("id" = i64, Path, description = "The puzzle's id"),
        PuzzleDiagramQuery,
        ("If-None-Match" = Option<String>, Header, description = "An `ETag` of an earlier answer: 304 when the image is the same"),
    ),
    responses(
        (status = 200, description = "The image", content_type = "image/svg+xml", body = String,
            headers(
                ("ETag" = String, description = "Strong: the first 128 bits of the image's SHA-256"),
                ("Cache-Control" = String, description = "`public, max-age=300`")
            )),
        (status = 304, description = "Not modified: `If-None-Match` names the current `ETag`",
            headers(("ETag" = String, description = "The current ETag"))),
        (status = 400, description = "A parameter's value is unusable (`invalid-parameter`, with `parameter`), or an unknown parameter (`invalid-request`)", body = Problem, content_type = "application/problem+json"),
        PuzzleNotFoundProblem,
    )
)]
#[get("/v1/puzzles/{id}/diagram.svg")]
pub async fn puzzle_diagram(
    req: HttpRequest,
    id: web::Path<i64>,
    query: web::Query<PuzzleDiagramQuery>,
    library: web::Data<Library>,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let q = query.into_inner();
    let library = library.into_inner();
    let Some(p) = web::block(move || library.puzzle(id)).await?? else {
        return Err(ApiError::NotFound {
            path: req.path().to_string(),
        });
    };
    let game = p.game();
    let coords = parse_coords(q.coords.as_deref(), game)?;
    let stored = |e: String| {
        tracing::error!(id, error = %e, "a stored puzzle's position does not read");
        ApiError::Internal(e)
    };
    let variant = p.variant;
    let naming = Naming::default();
    let pos = variant
        .read_fen(&p.fen, naming)
        .map_err(|e| stored(e.to_string()))?;
    // The answer's squares, when asked for and found: a mate's first key, a diagram's first move.
    let answer = if parse_bool("solution", q.solution.as_deref())? {
        let text = match p.kind {
            Kind::Mate => p
                .outcome
                .as_ref()
                .and_then(|o| o.keys())
                .and_then(|k| k.keys.first())
                .map(|k| k.uci.clone()),
            Kind::Diagram => p.moves.first().cloned(),
        };
        text.and_then(|t| pos.parse_move(&t, naming).ok())
            .map(|m| VariantPosition::squares(&m))
    } else {
        None
    };
    let d = Diagram::new(pos);
    let drawing = q.drawing();
    let mut options = drawing.options(&d, coords)?;
    options.arrows.extend(answer);
    options.title = Some(match &p.title {
        Some(t) => format!("Puzzle {id}: {t}"),
        None => format!("Puzzle {id}"),
    });
    Ok(svg_response(&req, render(&d, &options), CACHE_PUZZLE))
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn if_none_match_compares_weakly_and_takes_lists_and_stars() {
        let tag = etag("<svg/>");
        assert_eq!(tag.len(), 34);
        let with = |v: &str| {
            TestRequest::default()
                .insert_header((header::IF_NONE_MATCH, v))
                .to_http_request()
        };
        assert!(none_match(&with(&tag), &tag));
        assert!(none_match(&with(&format!("\"x\", W/{tag}")), &tag));
        assert!(none_match(&with("*"), &tag));
        assert!(!none_match(&with("\"x\""), &tag));
        assert!(!none_match(&TestRequest::default().to_http_request(), &tag));
    }

    #[test]
    fn parameters_are_read_strictly() {
        assert_eq!(parse_size(None).unwrap(), DEFAULT_SIZE);
        assert_eq!(parse_size(Some("64")).unwrap(), 64);
        for bad in ["63", "2049", "-1", "1e3", "", "99999999999999999999"] {
            assert!(parse_size(Some(bad)).is_err(), "{bad}");
        }
        assert!(parse_coords(Some("page"), GameKind::Baroque).is_err());
        assert_eq!(
            parse_coords(Some("page"), GameKind::Rococo).unwrap(),
            DiagramCoords::Page
        );
        assert!(parse_bool("flip", Some("yes")).is_err());
        assert!(parse_game(Some("chess")).is_err());
    }
}
