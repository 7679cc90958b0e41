//! `POST /v1/play` and `POST /v1/puzzles/{id}/play`: a puzzle played move by move.

use crate::api::common::{
    position_request, CheckedPosition, CoordsName, GameName, GameStatus, Object, ResolvedRules,
    Warning,
};
use crate::api::configuration::Limits;
use crate::api::costly_work::{Peer, Searches};
use crate::api::problem::{
    ApiError, ClientClosedProblem, JsonBodyProblems, Problem, PuzzleNotFoundProblem,
};
use crate::api::ratelimit::{Metered, RateLimiter};
use crate::api::routes::solve::{
    AppliedLimits, BudgetLimit, Budgets, SearchLimits, SolutionMove, SolveQuery, SolveRequest,
};
use crate::api::routes::verify::{verify_line_moves, IllegalMove};
use crate::api::stored_plays::StoredPlays;
use crate::app::Library;
use crate::puzzle::Kind;
use crate::rules::prelude::*;
use crate::rules::{Naming, Variant};
use crate::solver::play::{NoProof, PlayOptions, Proof, Verdict};
use crate::solver::{Cancel, Stipulation};
use actix_web::{post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

position_request! {
/// `POST /v1/play`: a position, its stipulation and the moves played so far.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({
    "fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
    "stipulation": "#2",
    "moves": ["Bg6xc6"]
}), json!({
    "fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
    "mate_in": 2,
    "moves": [],
    "hint": true
})))]
pub struct PlayRequest {
    /// The puzzle's position, as for `/v1/analyze`; its side to move is the one the stipulation
    /// starts with.
    #[schema(example = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0")]
    pub fen: String,
    /// The stipulation, as for `/v1/solve`: `#N`, `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`, `h=N`,
    /// `h=N.5`, `r#N`, `semi-r#N`, `ser-#N`, `ser-=N`, `ser-s#N` or `ser-h#N`. In a series mover
    /// every move sent is the series side's (and, in `ser-h#N`, White's mate after it): the
    /// other side passes between them, unless the move is the Nth, leaves the other side in
    /// check (which cannot pass), or the next move sent is the other side's (a shorter line).
    #[serde(default)]
    #[schema(example = "#2")]
    pub stipulation: Option<String>,
    /// The same as `"stipulation": "#N"` (both given: they must agree).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 2, minimum = 1, maximum = 12)]
    pub mate_in: Option<u32>,
    @position_fields,
    /// The moves played so far from the position, by both sides in turn (the solver's, and the
    /// replies it was given), in any notation `/v1/verify` reads. A helpmate's moves are all the
    /// solver's.
    #[schema(example = json!(["Bg6xc6"]))]
    pub moves: Vec<String>,
    /// Ask for a hint: the square of the piece the solver should move next.
    #[serde(default)]
    pub hint: bool,
    /// The search budget, as for `/v1/solve`.
    #[serde(default, deserialize_with = "crate::api::common::object_option")]
    pub limits: Option<SearchLimits>,
}
}

/// `POST /v1/puzzles/{id}/play`: the moves played so far in a stored puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"moves": ["Bg6xc6", "Kb7xc8"], "hint": true})))]
pub struct StoredPlayRequest {
    /// The moves played so far, as for `/v1/play`.
    #[schema(example = json!(["Bg6xc6"]))]
    pub moves: Vec<String>,
    /// Ask for a hint: the square of the piece the solver should move next.
    #[serde(default)]
    pub hint: bool,
    /// How Rococo squares are named, in input and output: `standard` (the default) or `page`.
    #[serde(default)]
    pub coords: Option<CoordsName>,
    /// The budget of a search, when the stored proof does not settle the line (a wrong move's
    /// refutation, say); as for `/v1/solve`.
    #[serde(default, deserialize_with = "crate::api::common::object_option")]
    pub limits: Option<SearchLimits>,
}

/// What the line comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "correct")]
pub enum PlayVerdict {
    /// The last move keeps the goal within reach in time: the key, a cook, a short solution or
    /// any continuation that still wins (a helpmate: the line can still be completed). A line
    /// ending with a reply (or empty) is `correct` while the solver can still win.
    Correct,
    /// The last move completes the stipulation (in a selfmate, White's move after which every
    /// defence mates; `reply` is then the mate).
    Solved,
    /// The solver's move `judged` is legal but no longer wins in time (`refutation`: the defence
    /// that beats it, when there is one). With no move played: the position does not win within
    /// the stipulation (no solver move is accepted).
    Wrong,
    /// A move is not legal (`first_illegal`, as `/v1/verify` gives it).
    Illegal,
    /// The budget ran out before the line was judged.
    Unknown,
}

impl From<Verdict> for PlayVerdict {
    fn from(v: Verdict) -> PlayVerdict {
        match v {
            Verdict::Correct => PlayVerdict::Correct,
            Verdict::Solved => PlayVerdict::Solved,
            Verdict::Wrong => PlayVerdict::Wrong,
            Verdict::Unknown => PlayVerdict::Unknown,
        }
    }
}

/// The judgement of a line of play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::play_response))]
pub struct PlayResponse {
    pub game: GameName,
    /// The stored puzzle played (`/v1/puzzles/{id}/play` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub puzzle_id: Option<i64>,
    #[schema(example = "#2")]
    pub stipulation: String,
    pub verdict: PlayVerdict,
    /// The moves of the request as read (up to the first illegal one), in canonical notation.
    pub moves: Vec<SolutionMove>,
    /// The index in `moves` of the solver move judged: the last one, or the first wrong one (null
    /// when no solver move was played).
    pub judged: Option<usize>,
    /// For `illegal`: the first illegal move, as `/v1/verify` gives it.
    pub first_illegal: Option<IllegalMove>,
    /// For `wrong` (`#N`, `s#N`): the first defence, in canonical order, after which the goal is
    /// out of reach in time (null when the move leaves the defender no move).
    pub refutation: Option<SolutionMove>,
    /// After a `correct` solver move (or a selfmate's solving one): the defence the site should
    /// play: the one that resists longest, then the one leaving the fewest winning answers, then
    /// the first in canonical order. Null for helpmates, whose moves are all the solver's.
    pub reply: Option<SolutionMove>,
    /// Moves left to the solver within the stipulation after the line and the reply (a
    /// helpmate: plies, both sides' moves).
    pub remaining: u32,
    /// Every solver move that would also have been `correct` where the judged move was played
    /// (itself included), or, when the line ends with a reply or is empty, every `correct` solver
    /// move now; canonical order.
    pub accepted: Vec<SolutionMove>,
    /// With `"hint": true`, while the line goes on: the square of the piece the solver should
    /// move next (after the reply), on the way to the soonest goal; nothing more.
    #[schema(example = "c8")]
    pub hint: Option<String>,
    /// The position after the line and the reply: what the site shows next.
    pub fen: String,
    /// The status of the side to move in `fen`.
    pub status: GameStatus,
    /// Whether everything besides the verdict was worked out (`reply`, `accepted`, `hint`): false
    /// when the budget ran out after the verdict.
    pub complete: bool,
    /// Whether a search ran (a stored puzzle's proof settles lines along its solution without one).
    pub searched: bool,
    /// Positions visited.
    pub nodes: u64,
    pub millis: u64,
    pub budget_exhausted: bool,
    pub budget_exhausted_by: Option<BudgetLimit>,
    /// The budget a search ran (or would have run) under.
    pub limits: AppliedLimits,
    /// The request members lowered to the server's maxima.
    pub clamped: Vec<String>,
    /// The rule set (null for Rococo).
    pub rules: Option<ResolvedRules>,
    pub warnings: Vec<Warning>,
}

/// A line to judge: the position, the stipulation, the moves and the budget.
pub struct PlayQuery {
    pub position: CheckedPosition,
    pub stipulation: Stipulation,
    pub moves: Vec<String>,
    pub hint: bool,
    pub limits: crate::solver::Limits,
    pub table_mib: usize,
    pub applied: AppliedLimits,
    pub clamped: Vec<String>,
    pub puzzle_id: Option<i64>,
}

impl PlayQuery {
    /// Reads a `/v1/play` request under the server's maxima (as `/v1/solve` reads its own).
    ///
    /// # Errors
    /// Those of [`SolveQuery::parse`].
    pub fn parse(r: PlayRequest, limits: &Limits) -> Result<PlayQuery, ApiError> {
        check_moves(&r.moves, limits)?;
        let q = SolveQuery::parse(
            SolveRequest {
                fen: r.fen,
                mate_in: r.mate_in,
                stipulation: r.stipulation,
                intended_solutions: None,
                rules: r.rules,
                game: r.game,
                coords: r.coords,
                limits: r.limits,
                key: None,
                max_tree_nodes: None,
                max_refutations: None,
                max_solutions: None,
                set_play: false,
                twins: Vec::new(),
                format: None,
                notation: None,
            },
            &limits.solve,
        )?;
        Ok(PlayQuery {
            position: q.position,
            stipulation: q.options.stipulation,
            moves: r.moves,
            hint: r.hint,
            limits: q.options.limits,
            table_mib: q.options.table_mib,
            applied: q.limits,
            clamped: q
                .clamped
                .into_iter()
                .filter(|c| c != "max_tree_nodes")
                .collect(),
            puzzle_id: None,
        })
    }

    /// Reads a `/v1/puzzles/{id}/play` request for a stored mate puzzle.
    ///
    /// # Errors
    /// [`ApiError::NotApplicable`] for a diagram, or `coords: page` with Baroque; the errors of
    /// [`SolveQuery::parse`] for the limits.
    pub fn stored(
        p: &crate::puzzle::StoredPuzzle,
        r: StoredPlayRequest,
        limits: &Limits,
    ) -> Result<PlayQuery, ApiError> {
        check_moves(&r.moves, limits)?;
        if p.kind != Kind::Mate {
            return Err(ApiError::NotApplicable {
                field: "id",
                detail: format!(
                    "puzzle {} is a diagram: only mate puzzles (a stipulation) can be played",
                    p.id
                ),
            });
        }
        let stipulation = p
            .stipulation
            .ok_or_else(|| ApiError::Internal(format!("puzzle {} has no stipulation", p.id)))?;
        let variant = p.variant;
        let (applied, clamped) = Budgets::read(r.limits, None, &limits.solve)?;
        let coords = r.coords.unwrap_or_default();
        if coords == CoordsName::Page && !Variant::has_page_coords(p.game()) {
            return Err(ApiError::NotApplicable {
                field: "coords",
                detail: "`coords: page` names the squares of the Rococo page; this puzzle is \
                         Baroque"
                    .into(),
            });
        }
        let naming = Naming::coords(coords.into());
        let mut position = CheckedPosition::of(variant, &p.fen, Naming::default())?;
        position.naming = naming;
        Ok(PlayQuery {
            position,
            stipulation,
            moves: r.moves,
            hint: r.hint,
            limits: crate::solver::Limits {
                nodes: applied.nodes,
                time: std::time::Duration::from_millis(applied.millis),
            },
            table_mib: limits.solve.table_mib,
            applied,
            clamped,
            puzzle_id: Some(p.id),
        })
    }
}

/// Refuses more moves than a request may hold.
fn check_moves(moves: &[String], limits: &Limits) -> Result<(), ApiError> {
    if moves.len() > limits.max_moves {
        return Err(ApiError::TooManyMoves {
            count: moves.len(),
            limit: limits.max_moves as u64,
        });
    }
    Ok(())
}

/// Judges a query's line (blocking: call it off the async workers). Without `search`, only what
/// `proof` settles is answered, and [`PlayOutcome::needs_search`] says whether more was needed.
pub fn play_query(q: &PlayQuery, proof: &dyn Proof, search: bool, cancel: &Cancel) -> PlayOutcome {
    let start = &q.position.position;
    let naming = q.position.naming;
    // A series mover's other side passes between the series' moves.
    let mut series = crate::solver::series::SeriesLine::new(q.stipulation);
    // The other side does not pass when the line's next move is its own (a shorter `ser-h#N`
    // or `ser-s#N`).
    let step = |after: crate::rules::VariantPosition, next: Option<&String>| {
        if q.stipulation.is_series() {
            let next = next
                .and_then(|t| crate::cases::play_text(&after, t, naming).ok())
                .map(|(m, _, _)| m);
            series.step_before(after, next.as_ref())
        } else {
            after
        }
    };
    let (verified, line) =
        verify_line_moves(start, naming, q.moves.iter(), &q.position.warnings, step);
    let moves: Vec<SolutionMove> = verified
        .moves
        .iter()
        .filter(|m| m.legal)
        .map(|m| SolutionMove {
            notation: m.notation.clone().unwrap_or_default(),
            uci: m.uci.clone().unwrap_or_default(),
            captures: m.captures.clone(),
        })
        .collect();
    // The position after the line, the passes of a series mover included.
    let at = if q.stipulation.is_series() {
        let mut series = crate::solver::series::SeriesLine::new(q.stipulation);
        let mut p = *start;
        for (i, m) in line.iter().enumerate() {
            p = series.step_before(p.play(m), line.get(i + 1));
        }
        p
    } else {
        line.iter().fold(*start, |p, m| p.play(m))
    };
    let mut response = PlayResponse {
        game: q.position.game(),
        puzzle_id: q.puzzle_id,
        stipulation: q.stipulation.to_string(),
        verdict: PlayVerdict::Illegal,
        moves,
        judged: None,
        first_illegal: None,
        refutation: None,
        reply: None,
        remaining: 0,
        accepted: Vec::new(),
        hint: None,
        fen: at.fen(naming),
        status: verified.final_status,
        complete: true,
        searched: false,
        nodes: 0,
        millis: 0,
        budget_exhausted: false,
        budget_exhausted_by: None,
        limits: q.applied,
        clamped: q.clamped.clone(),
        rules: q.position.rules(),
        warnings: q.position.warnings.clone(),
    };
    if let Some(illegal) = verified.first_illegal {
        // What is left to the solver where the illegal move was sent.
        let (total, played) = if q.stipulation.lists_lines() {
            (q.stipulation.solution_plies(), line.len())
        } else {
            (q.stipulation.moves(), line.len().div_ceil(2))
        };
        response.remaining = total.saturating_sub(played as u32);
        response.first_illegal = Some(illegal);
        return PlayOutcome {
            response,
            needs_search: false,
        };
    }
    let opts = PlayOptions {
        stipulation: q.stipulation,
        limits: q.limits,
        table_mib: q.table_mib,
        cancel: cancel.clone(),
        naming,
        hint: q.hint,
        proof,
        search,
    };
    let report = crate::solver::play::play_any(start, &line, &opts);
    // The position shown next, and its status (a Rococo move that took the King ends the game).
    let mut shown = at;
    let mut status = verified.final_status;
    if let Some(reply) = &report.reply {
        if let Ok(mv) = at.parse_move(&reply.notation, naming) {
            shown = at.play(&mv);
            status = GameStatus::from(at.status_after(&mv, &shown));
        }
    }
    let named = |m: &crate::rules::MoveInfo| SolutionMove::from(m);
    response.verdict = report.verdict.into();
    response.judged = report.judged;
    response.refutation = report.refutation.as_ref().map(named);
    response.reply = report.reply.as_ref().map(named);
    response.remaining = report.remaining;
    response.accepted = report.accepted.iter().map(named).collect();
    response.hint = report.hint.clone();
    response.fen = shown.fen(naming);
    response.status = status;
    response.complete = report.complete;
    response.searched = report.nodes > 0;
    response.nodes = report.nodes;
    response.millis = report.millis;
    response.budget_exhausted = report.budget_exhausted && search;
    response.budget_exhausted_by = report
        .exhausted_by
        .filter(|_| search)
        .map(BudgetLimit::from);
    PlayOutcome {
        response,
        needs_search: report.needs_search,
    }
}

/// A judgement, and whether it needed a search it was not allowed.
pub struct PlayOutcome {
    pub response: PlayResponse,
    pub needs_search: bool,
}

/// The problems every play endpoint may answer, besides its own.
const PLAY_422: &str = "More moves than the limit (`too-many-moves`), an unreadable or \
    disagreeing `stipulation` (`invalid-stipulation`), N above the server's maximum \
    (`invalid-mate-in`), a side to move that is not the one the stipulation starts with \
    (`stipulation-side`), a zero budget (`invalid-limits`), an unreadable FEN (`invalid-fen`), \
    an impossible position (`impossible-position`), or `coords: page` with Baroque, `rules` with \
    Rococo, a Rococo position without both Kings (`not-applicable`, with `field`)";

/// Play a puzzle of any stipulation move by move
///
/// The call a puzzle site makes after each move of a person solving a puzzle. `moves` are the
/// moves played so far by both sides: the solver's (White's, the side to move, for `#N` and
/// `s#N`; every move of a helpmate) and the replies the site was given. The answer judges the
/// solver's last move: `correct` (it still reaches the goal in time: the key, a cook, a short
/// solution or any continuation that wins), `solved` (it completes the stipulation), `wrong` (legal
/// but no longer winning in time, with the `refutation`) or `illegal` (with `first_illegal`, as
/// `/v1/verify` gives it). After a `correct` move, `reply` is the defence to play, chosen
/// deterministically: the one that resists longest, then the one leaving the fewest winning
/// answers, then the first in canonical order. `accepted` lists every solver move that would also
/// have been correct, `remaining` the solver's moves left, and with `"hint": true` `hint` is the
/// square of the piece to move next. Any mating move counts at the last step, as any winning move
/// does before it.
///
/// Each call is a search, budgeted and metered as `/v1/solve` (`limits`, the search slots, the
/// rate limit); when the budget runs out the verdict is `unknown`, or, when it ran out after the
/// verdict, `complete` is false.
#[utoipa::path(
    tag = "solver",
    request_body(content = PlayRequest, description = "A FEN, the stipulation and the moves played so far"),
    responses(
        JsonBodyProblems,
        ClientClosedProblem,
        (status = 200, description = "The judgement of the line", body = PlayResponse),
        (status = 422, description = PLAY_422, body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "This client has used its searches (`rate-limited`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 503, description = "Every search slot is taken (`solver-busy`); retry after the `Retry-After` seconds", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/play")]
pub async fn play(
    _metered: Metered,
    body: web::Json<Object<PlayRequest>>,
    limits: web::Data<Limits>,
    searches: web::Data<Searches>,
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let query = PlayQuery::parse(body.into_inner().0, &limits)?;
    let slot = searches.try_acquire()?;
    let outcome = searches
        .run(slot, peer, move |cancel| {
            play_query(&query, &NoProof, true, cancel)
        })
        .await?;
    count(&outcome.response);
    Ok(HttpResponse::Ok().json(outcome.response))
}

/// Counts a judgement in the metrics.
fn count(r: &PlayResponse) {
    let verdict = match r.verdict {
        PlayVerdict::Correct => "correct",
        PlayVerdict::Solved => "solved",
        PlayVerdict::Wrong => "wrong",
        PlayVerdict::Illegal => "illegal",
        PlayVerdict::Unknown => "unknown",
    };
    metrics::counter!("baroque_play_moves_total", "verdict" => verdict).increment(1);
    metrics::counter!("baroque_solver_nodes_total").increment(r.nodes);
}

/// Play a stored puzzle move by move
///
/// `/v1/play` for a stored mate puzzle: its position, rules and stipulation are the puzzle's, and
/// its stored proof (the solution tree of `#N` and `s#N`, every solution of a helpmate) answers
/// every line along the solution without a new search, within a few milliseconds. A line that
/// leaves the proof (a wrong move and its refutation, the continuations of a short key) is
/// searched as by `/v1/play`, and only then is the call budgeted and metered as a solve
/// (`searched` says whether it was). A diagram puzzle cannot be played (422 `not-applicable`).
///
/// At most `--max-stored-plays` calls are judged at once (one more gets 503 `plays-busy` with
/// `Retry-After`), off the server's event loop; a puzzle's proof is read and parsed once and kept
/// (up to `--proof-cache-mib`) while the stored puzzle stays the same. A helpmate whose stored
/// outcome keeps only some of its solutions (more than 100) is searched.
#[utoipa::path(
    tag = "puzzles",
    params(("id" = i64, Path, description = "The puzzle's id")),
    request_body(content = StoredPlayRequest, description = "The moves played so far"),
    responses(
        JsonBodyProblems,
        ClientClosedProblem,
        (status = 200, description = "The judgement of the line", body = PlayResponse),
        PuzzleNotFoundProblem,
        (status = 422, description = "More moves than the limit (`too-many-moves`), a zero budget (`invalid-limits`), a diagram puzzle or `coords: page` with a Baroque puzzle (`not-applicable`, with `field`)", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The line needs a search and this client has used its searches (`rate-limited`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds until the client may search again"))),
        (status = 503, description = "Every slot of stored play is taken (`plays-busy`), the line needs a search and every search slot is taken (`solver-busy`), or the store cannot answer (`store-unavailable`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u64, description = "Seconds to wait before retrying"))),
    )
)]
#[post("/v1/puzzles/{id}/play")]
pub async fn play_stored(
    req: HttpRequest,
    id: web::Path<i64>,
    body: web::Json<Object<StoredPlayRequest>>,
    library: web::Data<Library>,
    limits: web::Data<Limits>,
    (searches, plays): (web::Data<Searches>, web::Data<StoredPlays>),
    peer: Peer,
) -> Result<HttpResponse, ApiError> {
    let id = id.into_inner();
    let request = body.into_inner().0;
    // Along the proof: no search and no metering, but a slot of stored play, and all of it (the
    // store, the proof, the judgement) on the blocking pool.
    let slot = plays.try_acquire()?;
    let (library, plays, limits) = (library.get_ref().clone(), plays.into_inner(), **limits);
    let judged = web::block(move || -> Result<_, ApiError> {
        let _slot = slot;
        let Some(puzzle) = library.puzzle_lean(id)? else {
            return Ok(None);
        };
        let query = PlayQuery::stored(&puzzle, request, &limits)?;
        let proof = plays.proofs.proof(&library, &puzzle, query.stipulation)?;
        let first = play_query(&query, proof.as_ref(), false, &Cancel::new());
        Ok(Some((query, proof, first)))
    })
    .await??;
    let Some((query, proof, first)) = judged else {
        return Err(ApiError::NotFound {
            path: req.path().to_string(),
        });
    };
    if !first.needs_search {
        count(&first.response);
        return Ok(HttpResponse::Ok().json(first.response));
    }
    if let Some(limiter) = req.app_data::<web::Data<RateLimiter>>() {
        limiter.check(&req)?;
    }
    let slot = searches.try_acquire()?;
    let outcome = searches
        .run(slot, peer, move |cancel| {
            play_query(&query, proof.as_ref(), true, cancel)
        })
        .await?;
    count(&outcome.response);
    Ok(HttpResponse::Ok().json(outcome.response))
}

/// Examples for the OpenAPI document, computed by the engine.
pub(crate) mod examples {
    use super::*;
    use serde_json::Value;

    /// The Wikipedia Chameleon mate in 2 after its key.
    pub fn play_response() -> Value {
        let query = PlayQuery::parse(
            PlayRequest {
                fen: "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0".into(),
                stipulation: Some("#2".into()),
                mate_in: None,
                rules: None,
                game: None,
                coords: None,
                moves: vec!["Bg6xc6".into()],
                hint: true,
                limits: None,
            },
            &Limits::from(&crate::api::Settings {
                solve_table_mib: 1,
                ..crate::api::Settings::default()
            }),
        )
        .expect("the example reads");
        let mut r = play_query(&query, &NoProof, true, &Cancel::new()).response;
        r.millis = 3;
        serde_json::to_value(r).unwrap_or_default()
    }
}
