//! `POST /v1/analyze`: the handler; the request and answer are wire types
//! ([`crate::api::wire::analyze`]), the use case is the app's ([`crate::app::analysis`]).

use crate::api::common::{Object, PositionView};
use crate::api::costly_work::{Analyses, Peer};
use crate::api::problem::{ApiError, ClientClosedProblem, JsonBodyProblems, Problem};
use crate::api::wire::analyze::{to_json, AnalyzeRequest, AnalyzeResponse};
use crate::app::analysis::analyze as analyze_position;
use crate::rules::Variant;
use crate::solver::Cancel;
use actix_web::http::header::ContentType;
use actix_web::{post, web, HttpResponse};

/// Analyse a position
///
/// Reads a FEN under a rule set and answers the canonical FEN in both letter sets, the side to
/// move, its status (`ongoing`, `check`, `checkmate`, `stalemate`), the frozen pieces, warnings,
/// and every legal move with its captures and whether it gives check or checkmate. A position that
/// cannot arise (two Kings of a side, the side not to move in check) is refused with 422 listing
/// every problem.
///
/// With `"game": "rococo"` the FEN is a Rococo one (10x10) and the answer has the same members,
/// plus `can_keep_king` (whether the side to move has a move that keeps its King: Rococo is won by
/// capturing the King; false with no move at all) and, on each move, its `kind` (`normal`, `swap`, `mutual_destruction`,
/// `suicide`) and any `promotion`. `status` is then `check` when the King could be captured now
/// and some move saves it, `checkmate` when no move keeps it, `stalemate` when there is no move at
/// all (a draw). Every move is listed, those that leave the King capturable too. Squares follow
/// `coords` (`standard` a-j/1-10, or `page`: the Rococo page's x, a-h, y and 0, 1-8, 00). `rules`
/// does not apply to Rococo, nor `coords: page` to Baroque (422 `not-applicable`).
///
/// Any position accepted costs at most a few milliseconds to analyse. A Rococo analysis runs under
/// the analysis slots (`--analysis-concurrency`): one more is refused with 503 `analysis-busy` and
/// `Retry-After`; a request whose client disconnects is stopped.
#[utoipa::path(
    tag = "positions",
    request_body(content = AnalyzeRequest, description = "A FEN and an optional rule set"),
    responses(
        JsonBodyProblems,
        ClientClosedProblem,
        (status = 200, description = "The position's state and legal moves", body = AnalyzeResponse),
        (status = 422, description = "An unreadable FEN (`invalid-fen`, with `field` and `position`), an impossible position (`impossible-position`, with `problems`), or `coords: page` with Baroque or `rules` with Rococo (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "A Rococo analysis found every analysis slot taken (`analysis-busy`, with `limit`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/analyze")]
pub async fn analyze(
    body: web::Json<Object<AnalyzeRequest>>,
    analyses: web::Data<Analyses>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let checked = body.into_inner().0.position()?;
    let warnings = checked.wire_warnings();
    let analysis = if Variant::analysis_is_light(checked.position.kind()) {
        // Any position of a light game costs under a millisecond (about 10 us on average), within
        // what a worker may spend between awaits: it runs here, since a hop to another thread
        // cost 40% of the throughput.
        analyze_position(&checked, &Cancel::new())
    } else {
        // Up to tens of milliseconds on the costliest boards found (benches/bounds.rs): off the
        // async workers and under the analysis slots.
        analyses
            .run(peer, move |cancel| analyze_position(&checked, cancel))
            .await?
    };
    Ok(HttpResponse::Ok()
        .content_type(ContentType::json())
        .body(to_json(&analysis, &warnings)))
}
