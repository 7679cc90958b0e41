//! Errors as RFC 9457 problem details (`application/problem+json`).
//!
//! Every error the service answers is a [`Problem`] with `type`, `title`, `status` and `detail`, and
//! extension members where they help: `field` and `position` for an unreadable FEN, `problems` for
//! an impossible position, `limit` for the size limits, `allow` for a wrong method, `parameter` for a
//! bad query parameter. The `type` is a URI reference `/problems/<slug>` that names the class of error; clients switch on it.
//!
//! Three layers make sure nothing else escapes: handlers return [`ApiError`]; the JSON extractor's
//! errors go through [`json_error_handler`]; and [`ensure_problem_json`] (an `ErrorHandlers`
//! default) rewrites any other error response, such as a missing Swagger UI asset, into a problem.

use crate::rules::{ParseFenError, PositionError};
use actix_web::body::{BoxBody, EitherBody};
use actix_web::dev::ServiceResponse;
use actix_web::error::JsonPayloadError;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::ErrorHandlerResponse;
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

/// The `Retry-After` of a `store-unavailable` answer, in seconds.
pub const STORE_RETRY_AFTER: u64 = 5;
/// Seconds a client is asked to wait when every analysis slot is taken (an analysis takes
/// milliseconds).
pub const ANALYSIS_RETRY_AFTER: u64 = 1;

/// The media type of problem details.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// An RFC 9457 problem details document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    json!({"type": "/problems/invalid-fen", "title": "Unreadable FEN", "status": 422,
           "detail": "FEN board: rank 1 has more than 8 squares (at character 30)",
           "field": "board", "position": 30}),
    json!({"type": "/problems/impossible-position", "title": "Impossible position", "status": 422,
           "detail": "white has 2 Kings; a side has at most one",
           "problems": [{"code": "two_kings", "error": true,
                         "message": "white has 2 Kings; a side has at most one"}]})
))]
pub struct Problem {
    /// A URI reference naming the kind of problem: `/problems/malformed-json`,
    /// `/problems/invalid-request`, `/problems/invalid-parameter`, `/problems/unsupported-media-type`,
    /// `/problems/payload-too-large`, `/problems/invalid-fen`, `/problems/impossible-position`,
    /// `/problems/too-many-moves`, `/problems/invalid-mate-in`, `/problems/invalid-limits`,
    /// `/problems/invalid-key`, `/problems/invalid-twin`, `/problems/not-applicable`, `/problems/solver-busy`,
    /// `/problems/exports-busy`, `/problems/plays-busy`, `/problems/rate-limited`, `/problems/store-unavailable`, `/problems/puzzle-not-verified`,
    /// `/problems/solver-budget-exhausted`, `/problems/invalid-pgn`, `/problems/unauthorized`,
    /// `/problems/writes-disabled`, `/problems/not-found`,
    /// `/problems/method-not-allowed`, `/problems/internal`, or `about:blank` for any other HTTP
    /// status.
    #[serde(rename = "type")]
    #[schema(example = "/problems/invalid-fen")]
    pub problem_type: String,
    /// A short summary of the kind of problem (the same for every occurrence).
    #[schema(example = "Unreadable FEN")]
    pub title: String,
    /// The HTTP status code.
    #[schema(example = 422)]
    pub status: u16,
    /// What went wrong this time, in words a person can act on.
    pub detail: String,
    /// For `invalid-fen`: the FEN field where reading stopped (`board`, `turn`, `plies`,
    /// `last_swap`, `extra`). For `not-applicable`: the request member that does not apply
    /// (`coords`, `rules`, `fen`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "board")]
    pub field: Option<String>,
    /// For `invalid-fen`: the 1-based character position in the FEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 1)]
    pub position: Option<usize>,
    /// For `impossible-position`: every problem of the position, errors and warnings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problems: Option<Vec<PositionProblem>>,
    /// For `payload-too-large` (bytes), `too-many-moves` (moves), `invalid-mate-in` (the largest N),
    /// `solver-busy` (searches at once) and `rate-limited` (costly requests a minute): the limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// For `puzzle-not-verified`: every way the engine or the solver contradicts the puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasons: Option<Vec<String>>,
    /// For `method-not-allowed`: the methods the resource accepts (also in the `Allow` header).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<String>>,
    /// For `invalid-pgn`: the line of the PGN body (from 1) where reading stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 7)]
    pub line: Option<usize>,
    /// For `invalid-pgn`: the game of the PGN body (from 1) that could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 1)]
    pub game: Option<usize>,
    /// For `invalid-parameter`: the query parameter whose value is unusable.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "marks")]
    pub parameter: Option<String>,
    /// For `invalid-twin`: the label of the twin that cannot be made (`b)` for the first of
    /// `twins`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "b)")]
    pub twin: Option<String>,
    /// For `anticipated`: the stored puzzle that anticipates the posted one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = 12)]
    pub puzzle_id: Option<i64>,
    /// For `anticipated`: the symmetry that turns the stored position into the posted one, as a
    /// twin names it (`rotate 90`, `mirror a1<->h1`, `none`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "mirror a1<->h1")]
    pub transform: Option<String>,
    /// The request's id (its `X-Request-Id`, the client's when usable, else a new one), as in the
    /// response header and the server's log lines of the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "5f0c2a7e9b1d4c3a8e6f7a9b0c1d2e3f")]
    pub request_id: Option<String>,
}

/// One problem of a position (see `Position::validate`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"code": "two_kings", "error": true,
                         "message": "white has 2 Kings; a side has at most one"})))]
pub struct PositionProblem {
    /// A stable code: `two_kings`, `opponent_in_check` (errors); `no_king`, `too_many_pieces`
    /// (warnings).
    #[schema(example = "two_kings")]
    pub code: String,
    /// Whether the position is refused for it (`false` for a warning).
    pub error: bool,
    /// The problem in words.
    pub message: String,
}

impl From<&crate::rules::Problem> for PositionProblem {
    fn from(p: &crate::rules::Problem) -> PositionProblem {
        PositionProblem {
            code: p.code().to_string(),
            error: p.is_error(),
            message: p.message.clone(),
        }
    }
}

/// Every error a request can end in.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON.
    #[error("the request body is not valid JSON: {0}")]
    MalformedJson(String),
    /// The body is JSON but not of the request's shape (unknown or missing fields, wrong types,
    /// unknown rule names).
    #[error("the request body does not match the schema: {0}")]
    InvalidRequest(String),
    /// The query string does not fit the operation's parameters (an unknown or missing parameter,
    /// a value of the wrong type).
    #[error("the query string does not match the parameters: {0}")]
    InvalidQuery(String),
    /// A query parameter's value is unusable (a square off the board, a size out of range).
    #[error("`{parameter}`: {message}")]
    InvalidParameter {
        parameter: &'static str,
        message: String,
    },
    #[error("the request body must be JSON, sent with `Content-Type: application/json`")]
    UnsupportedMediaType,
    #[error("the request body is larger than the limit of {limit} bytes")]
    PayloadTooLarge { limit: u64 },
    /// The body could not be read (the client went away, a broken chunked encoding).
    #[error("the request body could not be read: {0}")]
    Payload(String),
    #[error("{0}")]
    InvalidFen(ParseFenError),
    #[error("{0}")]
    ImpossiblePosition(PositionError),
    #[error("{count} moves sent; one request verifies at most {limit}")]
    TooManyMoves { count: usize, limit: u64 },
    /// The N of a solve is 0 or above the server's maximum.
    #[error("`mate_in` is {mate_in}; it must be between 1 and {max}")]
    InvalidMateIn { mate_in: u32, max: u32 },
    /// A solve's limits are unusable (zero).
    #[error("{0}")]
    InvalidLimits(String),
    /// A request member that does not apply to the request's game (`coords: page` with Baroque,
    /// `rules` with Rococo), or a Rococo mate search without both Kings.
    #[error("{detail}")]
    NotApplicable { field: &'static str, detail: String },
    /// A solve's intended key is not a legal move of the position.
    #[error("`key` {key:?} is not a legal move of the position: {reason}")]
    InvalidKey { key: String, reason: String },
    /// A twin that cannot be made (`twin`: its label).
    #[error("{0}")]
    InvalidTwin(crate::puzzle::twins::TwinError),
    /// A stipulation that cannot be read, or that disagrees with `mate_in`.
    #[error("{0}")]
    InvalidStipulation(String),
    /// The side to move is not the one the stipulation starts with.
    #[error("{0}")]
    StipulationSide(String),
    /// A resource of that name exists already.
    #[error("{0}")]
    Conflict(String),
    /// A search the indexes could not answer within its budget.
    #[error("the search needed more than {millis} ms in the database: narrow it with a filter the indexes serve (a piece, a square, a stipulation or family, an author, a text)")]
    SearchTooBroad { millis: u64 },
    /// A problem's history that cannot be stored (a date that is not one, a text too long).
    #[error("{0}")]
    InvalidHistory(crate::puzzle::HistoryError),
    /// A puzzle posted with `"anticipation": "refuse"` that the store holds up to a symmetry.
    #[error("puzzle {puzzle_id} is this position{}: the store holds it already (`\"anticipation\": \"refuse\"`)", if transform == "none" { String::new() } else { format!(" after `{transform}`") })]
    Anticipated { puzzle_id: i64, transform: String },
    /// As many generation jobs as the server runs at once are running.
    #[error("{limit} generation jobs are already running, the most this server runs at once; retry in {retry_after} s")]
    JobsBusy { limit: u64, retry_after: u64 },
    /// A collection request that cannot be run (name, count, piece budget, game).
    #[error("{0}")]
    InvalidCollection(String),
    /// As many collection exports as the server streams at once are streaming.
    #[error("{limit} collection exports are already streaming, the most this server streams at once; retry in {retry_after} s")]
    ExportsBusy { limit: u64, retry_after: u64 },
    /// The client already streams as many collection exports as one client may.
    #[error("this client already streams {limit} collection exports, the most one client streams at once (--max-exports-per-client); retry in {retry_after} s")]
    ExportsBusyForClient { limit: u64, retry_after: u64 },
    /// As many stored plays as the server judges at once are being judged.
    #[error("{limit} plays of stored puzzles are already being judged, the most this server judges at once; retry in {retry_after} s")]
    PlaysBusy { limit: u64, retry_after: u64 },
    /// Every search slot is taken.
    #[error("{limit} searches are already running, the most this server runs at once; retry in {retry_after} s")]
    SolverBusy { limit: u64, retry_after: u64 },
    /// Every slot of the costly analyses (Rococo analysis, verification) is taken.
    #[error("{limit} analyses are already running, the most this server runs at once; retry in {retry} s", retry = ANALYSIS_RETRY_AFTER)]
    AnalysisBusy { limit: u64 },
    /// The client closed its side of the connection while its request was being worked on: the
    /// work was stopped, and nothing it did is an answer.
    #[error("the client closed the connection before the answer was ready; the work was stopped")]
    ClientClosed,
    /// The request body did not arrive within the server's body timeout.
    #[error("the request body did not arrive within {millis} ms")]
    BodyTimeout { millis: u64 },
    /// A client used up its costly requests (see [`super::ratelimit`]).
    #[error("this client has used its costly requests ({per_minute} a minute, {burst} at once); retry in {retry_after} s")]
    RateLimited {
        per_minute: u64,
        burst: u64,
        retry_after: u64,
    },
    /// The puzzle store cannot write or answer now (disk full, read-only, locked, an I/O error);
    /// the cause is logged and named.
    #[error("the puzzle store cannot do this now: {0}; retry in {retry} s", retry = STORE_RETRY_AFTER)]
    StoreUnavailable(String),
    /// A PGN body, or one of its games, that cannot be read as a puzzle: the game (from 1) and the
    /// line.
    #[error("{}line {line}: {message}", .game.map_or(String::new(), |g| format!("game {g}, ")))]
    InvalidPgn {
        game: Option<usize>,
        line: usize,
        message: String,
    },
    /// No stored puzzle is left for the next puzzle's request.
    #[error("no stored mate puzzle matches the filters (every one may be excluded)")]
    NoPuzzle,
    /// A player's rating out of range (`player.rating`, `player.deviation`,
    /// `player.volatility`).
    #[error("`player.{}` {}", .0.field, .0.message)]
    InvalidRating(crate::puzzle::rating::RatingError),
    /// The engine or the solver contradicts a submitted puzzle.
    #[error("the puzzle does not verify, so nothing was stored: {}", .0.join("; "))]
    PuzzleNotVerified(Vec<String>),
    /// The solver's budget ran out before a submitted mate was proven or refuted.
    #[error("{0}")]
    SolverBudgetExhausted(String),
    /// A write without the right bearer token.
    #[error("{0}")]
    Unauthorized(String),
    /// A write while no write token is configured.
    #[error("writes are disabled: no write token is configured. Start the server with the environment variable BAROQUE_WRITE_TOKEN set to a secret, then send it as `Authorization: Bearer <token>`")]
    WritesDisabled,
    #[error("no resource at `{path}`")]
    NotFound { path: String },
    #[error("{path} does not accept {method}; it accepts {}", .allow.join(", "))]
    MethodNotAllowed {
        path: String,
        method: String,
        allow: Vec<String>,
    },
    /// A fault of the server; the cause is logged, not sent.
    #[error("the server failed to answer; the fault is logged")]
    Internal(String),
    /// Any other HTTP error status (the rewrite of an error response that was not a problem).
    #[error("{detail}")]
    Status { status: StatusCode, detail: String },
}

impl ApiError {
    /// One error of every kind the API sends, with realistic details: the examples of the OpenAPI
    /// document's error responses (and the table of problem types of docs/src/api.md is checked against them).
    pub fn samples() -> Vec<ApiError> {
        use crate::rules::{Position, Rules};
        let fen_error = Position::from_fen("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K8 w 0", Rules::default())
            .err()
            .map_or(
                ApiError::InvalidRequest("unreadable FEN".into()),
                ApiError::from,
            );
        let impossible = Position::from_fen("k7/1Q6/8/8/8/8/8/KK6 w 0", Rules::default())
            .ok()
            .map(|p| PositionError {
                problems: p.validate(),
            })
            .map_or(
                ApiError::InvalidRequest("impossible".into()),
                ApiError::from,
            );
        vec![
            ApiError::NoPuzzle,
            ApiError::InvalidRating(crate::puzzle::rating::RatingError {
                field: "deviation",
                message: "must be a number above 0 and at most 350".into(),
            }),
            ApiError::MalformedJson("expected `,` or `}` at line 1 column 18".into()),
            ApiError::InvalidRequest("unknown field `mate`, expected one of `fen`, `mate_in`, ... at line 1 column 12".into()),
            ApiError::InvalidParameter {
                parameter: "limit",
                message: "`limit` is 0: it must be between 1 and 200".into(),
            },
            ApiError::UnsupportedMediaType,
            ApiError::PayloadTooLarge { limit: 65536 },
            ApiError::BodyTimeout { millis: 10_000 },
            fen_error,
            impossible,
            ApiError::TooManyMoves { count: 501, limit: 500 },
            ApiError::InvalidMateIn { mate_in: 9, max: 8 },
            ApiError::InvalidStipulation(
                format!(
                    "`stipulation` \"x#2\" is not one: write {}",
                    crate::solver::Stipulation::FORMS
                ),
            ),
            ApiError::StipulationSide(
                "h#2 starts with black to move, but the FEN has white to move".into(),
            ),
            ApiError::InvalidLimits("`limits.nodes` is 0: give at least 1".into()),
            ApiError::NotApplicable {
                field: "rules",
                detail: "`rules` does not apply to Rococo, which has one rule set".into(),
            },
            ApiError::InvalidKey {
                key: "Ka1-a3".into(),
                reason: "not a move of the King on a1".into(),
            },
            ApiError::InvalidTwin(crate::puzzle::twins::TwinError {
                label: "b)".into(),
                text: "shift a1 b2".into(),
                message: "a piece would leave the board".into(),
            }),
            ApiError::Conflict("a collection named `twos` exists already".into()),
            ApiError::Anticipated {
                puzzle_id: 65,
                transform: "mirror a1<->h1".into(),
            },
            ApiError::SearchTooBroad { millis: 2000 },
            ApiError::InvalidHistory(crate::puzzle::HistoryError {
                field: "published".into(),
                message: "\"June 1999\" is not a date: write YYYY or YYYY-MM-DD".into(),
            }),
            ApiError::InvalidCollection("`count` is 0: ask for 1 to 200 puzzles".into()),
            ApiError::JobsBusy { limit: 1, retry_after: 30 },
            ApiError::ExportsBusy { limit: 4, retry_after: 5 },
            ApiError::ExportsBusyForClient { limit: 2, retry_after: 5 },
            ApiError::PlaysBusy { limit: 16, retry_after: 1 },
            ApiError::SolverBusy { limit: 2, retry_after: 10 },
            ApiError::AnalysisBusy { limit: 64 },
            ApiError::ClientClosed,
            ApiError::RateLimited {
                per_minute: 60,
                burst: 10,
                retry_after: 1,
            },
            ApiError::StoreUnavailable("the disk is full".into()),
            ApiError::PuzzleNotVerified(vec!["Pc2xc4 captures nc5, rd4, expected nc5".into()]),
            ApiError::InvalidPgn {
                game: Some(1),
                line: 7,
                message: "move 3 is not a legal move: `Nc4-g7`: a Long Leaper on c4 cannot move to g7"
                    .into(),
            },
            ApiError::SolverBudgetExhausted(
                "the solver's budget (50000000 nodes, 10000 ms) ran out before the mate was proven or refuted".into(),
            ),
            ApiError::Unauthorized("the bearer token is not the write token".into()),
            ApiError::WritesDisabled,
            ApiError::NotFound {
                path: "/v1/puzzles/999".into(),
            },
            ApiError::MethodNotAllowed {
                path: "/v1/solve".into(),
                method: "GET".into(),
                allow: vec!["POST".into()],
            },
            ApiError::Internal("an example".into()),
        ]
    }

    fn kind(&self) -> (&'static str, &'static str, StatusCode) {
        match self {
            ApiError::MalformedJson(_) => (
                "/problems/malformed-json",
                "Malformed JSON",
                StatusCode::BAD_REQUEST,
            ),
            ApiError::InvalidRequest(_) => (
                "/problems/invalid-request",
                "Invalid request body",
                StatusCode::BAD_REQUEST,
            ),
            ApiError::InvalidQuery(_) => (
                "/problems/invalid-request",
                "Invalid query string",
                StatusCode::BAD_REQUEST,
            ),
            ApiError::InvalidParameter { .. } => (
                "/problems/invalid-parameter",
                "Invalid query parameter",
                StatusCode::BAD_REQUEST,
            ),
            ApiError::UnsupportedMediaType => (
                "/problems/unsupported-media-type",
                "Unsupported media type",
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            ApiError::PayloadTooLarge { .. } => (
                "/problems/payload-too-large",
                "Request body too large",
                StatusCode::PAYLOAD_TOO_LARGE,
            ),
            ApiError::Payload(_) => (
                "/problems/invalid-request",
                "Invalid request body",
                StatusCode::BAD_REQUEST,
            ),
            ApiError::InvalidFen(_) => (
                "/problems/invalid-fen",
                "Unreadable FEN",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::ImpossiblePosition(_) => (
                "/problems/impossible-position",
                "Impossible position",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::TooManyMoves { .. } => (
                "/problems/too-many-moves",
                "Too many moves",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::InvalidMateIn { .. } => (
                "/problems/invalid-mate-in",
                "Unsupported mate length",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::Conflict(_) => ("/problems/conflict", "Conflict", StatusCode::CONFLICT),
            ApiError::Anticipated { .. } => (
                "/problems/anticipated",
                "Anticipated by a stored puzzle",
                StatusCode::CONFLICT,
            ),
            ApiError::SearchTooBroad { .. } => (
                "/problems/search-too-broad",
                "Search too broad",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::InvalidHistory(_) => (
                "/problems/invalid-history",
                "Invalid history",
                StatusCode::BAD_REQUEST,
            ),
            ApiError::InvalidStipulation(_) => (
                "/problems/invalid-stipulation",
                "Unusable stipulation",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::StipulationSide(_) => (
                "/problems/stipulation-side",
                "Wrong side to move for the stipulation",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::JobsBusy { .. } => (
                "/problems/jobs-busy",
                "Generation jobs busy",
                StatusCode::SERVICE_UNAVAILABLE,
            ),
            ApiError::ExportsBusy { .. } | ApiError::ExportsBusyForClient { .. } => (
                "/problems/exports-busy",
                "Exports busy",
                StatusCode::SERVICE_UNAVAILABLE,
            ),
            ApiError::PlaysBusy { .. } => (
                "/problems/plays-busy",
                "Stored plays busy",
                StatusCode::SERVICE_UNAVAILABLE,
            ),
            ApiError::InvalidCollection(_) => (
                "/problems/invalid-collection",
                "Unusable collection request",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::InvalidLimits(_) => (
                "/problems/invalid-limits",
                "Unusable search limits",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::NotApplicable { .. } => (
                "/problems/not-applicable",
                "Not applicable to this game",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::InvalidKey { .. } => (
                "/problems/invalid-key",
                "Intended key is not a legal move",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::InvalidTwin(_) => (
                "/problems/invalid-twin",
                "Twin cannot be made",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::SolverBusy { .. } => (
                "/problems/solver-busy",
                "Solver busy",
                StatusCode::SERVICE_UNAVAILABLE,
            ),
            ApiError::AnalysisBusy { .. } => (
                "/problems/analysis-busy",
                "Analysis busy",
                StatusCode::SERVICE_UNAVAILABLE,
            ),
            ApiError::ClientClosed => (
                "/problems/client-closed",
                "Client closed request",
                StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST),
            ),
            ApiError::BodyTimeout { .. } => (
                "/problems/body-timeout",
                "Request body timeout",
                StatusCode::REQUEST_TIMEOUT,
            ),
            ApiError::RateLimited { .. } => (
                "/problems/rate-limited",
                "Too many requests",
                StatusCode::TOO_MANY_REQUESTS,
            ),
            ApiError::StoreUnavailable(_) => (
                "/problems/store-unavailable",
                "Puzzle store unavailable",
                StatusCode::SERVICE_UNAVAILABLE,
            ),
            ApiError::NoPuzzle => ("/problems/no-puzzle", "No puzzle", StatusCode::NOT_FOUND),
            ApiError::InvalidRating(_) => (
                "/problems/invalid-rating",
                "Invalid player rating",
                StatusCode::BAD_REQUEST,
            ),
            ApiError::PuzzleNotVerified(_) => (
                "/problems/puzzle-not-verified",
                "Puzzle does not verify",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::InvalidPgn { .. } => (
                "/problems/invalid-pgn",
                "Unreadable PGN",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::SolverBudgetExhausted(_) => (
                "/problems/solver-budget-exhausted",
                "Solver budget exhausted",
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            ApiError::Unauthorized(_) => (
                "/problems/unauthorized",
                "Unauthorized",
                StatusCode::UNAUTHORIZED,
            ),
            ApiError::WritesDisabled => (
                "/problems/writes-disabled",
                "Writes disabled",
                StatusCode::FORBIDDEN,
            ),
            ApiError::NotFound { .. } => {
                ("/problems/not-found", "Not found", StatusCode::NOT_FOUND)
            }
            ApiError::MethodNotAllowed { .. } => (
                "/problems/method-not-allowed",
                "Method not allowed",
                StatusCode::METHOD_NOT_ALLOWED,
            ),
            ApiError::Internal(_) => (
                "/problems/internal",
                "Internal server error",
                StatusCode::INTERNAL_SERVER_ERROR,
            ),
            ApiError::Status { status, .. } => (
                "about:blank",
                status.canonical_reason().unwrap_or("Error"),
                *status,
            ),
        }
    }

    /// The problem details document of this error.
    pub fn problem(&self) -> Problem {
        let (problem_type, title, status) = self.kind();
        let mut p = Problem {
            problem_type: problem_type.into(),
            title: title.into(),
            status: status.as_u16(),
            detail: self.to_string(),
            field: None,
            position: None,
            problems: None,
            limit: None,
            reasons: None,
            allow: None,
            line: None,
            game: None,
            parameter: None,
            twin: None,
            puzzle_id: None,
            transform: None,
            request_id: None,
        };
        match self {
            ApiError::InvalidFen(e) => {
                p.field = Some(e.field.name().into());
                p.position = Some(e.position);
            }
            ApiError::ImpossiblePosition(e) => {
                p.problems = Some(e.problems.iter().map(PositionProblem::from).collect());
            }
            ApiError::PayloadTooLarge { limit }
            | ApiError::TooManyMoves { limit, .. }
            | ApiError::SolverBusy { limit, .. }
            | ApiError::ExportsBusy { limit, .. }
            | ApiError::ExportsBusyForClient { limit, .. }
            | ApiError::PlaysBusy { limit, .. }
            | ApiError::AnalysisBusy { limit } => {
                p.limit = Some(*limit);
            }
            ApiError::BodyTimeout { millis } => p.limit = Some(*millis),
            ApiError::InvalidMateIn { max, .. } => p.limit = Some(u64::from(*max)),
            ApiError::RateLimited { per_minute, .. } => p.limit = Some(*per_minute),
            ApiError::NotApplicable { field, .. } => p.field = Some((*field).into()),
            ApiError::MethodNotAllowed { allow, .. } => p.allow = Some(allow.clone()),
            ApiError::PuzzleNotVerified(reasons) => p.reasons = Some(reasons.clone()),
            ApiError::InvalidPgn { game, line, .. } => {
                p.line = Some(*line);
                p.game = *game;
            }
            ApiError::InvalidParameter { parameter, .. } => {
                p.parameter = Some((*parameter).to_string());
            }
            ApiError::InvalidTwin(e) => p.twin = Some(e.label.clone()),
            ApiError::InvalidHistory(e) => p.field = Some(e.field.clone()),
            ApiError::SearchTooBroad { millis } => p.limit = Some(*millis),
            ApiError::Anticipated {
                puzzle_id,
                transform,
            } => {
                p.puzzle_id = Some(*puzzle_id);
                p.transform = Some(transform.clone());
            }
            ApiError::InvalidRating(e) => p.field = Some(format!("player.{}", e.field)),
            _ => {}
        }
        p
    }
}

/// A request's `mate_in` and `stipulation` that do not make one stipulation.
impl From<crate::solver::StipulationError> for ApiError {
    fn from(e: crate::solver::StipulationError) -> Self {
        crate::app::position::RequestError::from(e).into()
    }
}

/// A request's content the use case refuses, as its problem.
impl From<crate::app::position::RequestError> for ApiError {
    fn from(e: crate::app::position::RequestError) -> ApiError {
        use crate::app::position::RequestError as E;
        match e {
            E::Invalid(detail) => ApiError::InvalidRequest(detail),
            E::InvalidFen(e) => ApiError::InvalidFen(e),
            E::ImpossiblePosition(e) => ApiError::ImpossiblePosition(e),
            E::TooManyMoves { count, limit } => ApiError::TooManyMoves { count, limit },
            E::InvalidMateIn { mate_in, max } => ApiError::InvalidMateIn { mate_in, max },
            E::InvalidLimits(detail) => ApiError::InvalidLimits(detail),
            E::NotApplicable { field, detail } => ApiError::NotApplicable { field, detail },
            E::InvalidKey { key, reason } => ApiError::InvalidKey { key, reason },
            E::InvalidTwin(e) => ApiError::InvalidTwin(e),
            E::InvalidStipulation(detail) => ApiError::InvalidStipulation(detail),
            E::StipulationSide(detail) => ApiError::StipulationSide(detail),
        }
    }
}

/// A solve request refused, as its problem.
impl From<crate::app::solve::SolveError> for ApiError {
    fn from(e: crate::app::solve::SolveError) -> ApiError {
        use crate::app::solve::SolveError;
        match e {
            SolveError::Stipulation(e) => e.into(),
            SolveError::SetPlayOfSeries(stipulation) => ApiError::InvalidStipulation(format!(
                "`set_play` does not apply to {stipulation}: a series mover has no other side \
                 to start"
            )),
            SolveError::Request(e) => e.into(),
        }
    }
}

impl From<ParseFenError> for ApiError {
    fn from(e: ParseFenError) -> ApiError {
        ApiError::InvalidFen(e)
    }
}

impl From<PositionError> for ApiError {
    fn from(e: PositionError) -> ApiError {
        ApiError::ImpossiblePosition(e)
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(e: actix_web::error::BlockingError) -> ApiError {
        tracing::error!(error = %e, "a blocking task failed");
        ApiError::Internal(e.to_string())
    }
}

impl From<crate::app::library::StoreError> for ApiError {
    /// A fault of the environment (disk full, read-only file, lock held too long, I/O error, no
    /// connection in time) is 503 `store-unavailable` with `Retry-After`; anything else is 500.
    fn from(e: crate::app::library::StoreError) -> ApiError {
        if let crate::app::library::StoreError::Budget { millis } = e {
            return ApiError::SearchTooBroad { millis };
        }
        metrics::counter!("baroque_store_errors_total").increment(1);
        if let Some(reason) = e.unavailable() {
            tracing::error!(error = %e, "the puzzle store is unavailable");
            ApiError::StoreUnavailable(reason.to_string())
        } else {
            tracing::error!(error = %e, "the puzzle store failed");
            ApiError::Internal(e.to_string())
        }
    }
}

/// A history's correction refused, as its problem.
impl From<crate::app::library::HistoryCorrectionError> for ApiError {
    fn from(e: crate::app::library::HistoryCorrectionError) -> ApiError {
        match e {
            crate::app::library::HistoryCorrectionError::Invalid(e) => ApiError::InvalidHistory(e),
            crate::app::library::HistoryCorrectionError::Store(e) => e.into(),
        }
    }
}

impl From<crate::app::StoreOutcomeError> for ApiError {
    fn from(e: crate::app::StoreOutcomeError) -> ApiError {
        match e {
            crate::app::StoreOutcomeError::Verify(e) => e.into(),
            crate::app::StoreOutcomeError::Store(e) => e.into(),
        }
    }
}

/// An attempt refused, as its problem.
impl From<crate::app::library::AttemptError> for ApiError {
    fn from(e: crate::app::library::AttemptError) -> ApiError {
        use crate::app::library::AttemptError;
        match e {
            AttemptError::Player(e) => ApiError::InvalidRating(e),
            AttemptError::NotFound(id) => ApiError::NotFound {
                path: format!("/v1/puzzles/{id}/attempts"),
            },
            e @ AttemptError::Diagram(_) => ApiError::NotApplicable {
                field: "id",
                detail: e.to_string(),
            },
            AttemptError::Store(e) => e.into(),
        }
    }
}

impl From<crate::puzzle::VerifyError> for ApiError {
    fn from(e: crate::puzzle::VerifyError) -> ApiError {
        match e {
            crate::puzzle::VerifyError::Contradicted(reasons) => {
                ApiError::PuzzleNotVerified(reasons)
            }
            e @ crate::puzzle::VerifyError::BudgetExhausted { .. } => {
                ApiError::SolverBudgetExhausted(e.to_string())
            }
        }
    }
}

/// Maps the query extractor's errors (`QueryConfig::error_handler`) to problems (400).
pub fn query_error_handler(
    err: actix_web::error::QueryPayloadError,
    _req: &HttpRequest,
) -> actix_web::Error {
    ApiError::InvalidQuery(err.to_string()).into()
}

/// Maps the path extractor's errors (`PathConfig::error_handler`) to 404: no resource has that id.
pub fn path_error_handler(
    _err: actix_web::error::PathError,
    req: &HttpRequest,
) -> actix_web::Error {
    ApiError::NotFound {
        path: super::request_echo::capped(req.path(), super::request_echo::LOGGED_PATH_CHARS),
    }
    .into()
}

impl From<crate::solver::Inapplicable> for ApiError {
    fn from(e: crate::solver::Inapplicable) -> ApiError {
        crate::app::position::RequestError::from(e).into()
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.kind().2
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        let mut res = problem_response(&self.problem());
        let retry_after = match self {
            ApiError::SolverBusy { retry_after, .. }
            | ApiError::JobsBusy { retry_after, .. }
            | ApiError::ExportsBusy { retry_after, .. }
            | ApiError::ExportsBusyForClient { retry_after, .. }
            | ApiError::PlaysBusy { retry_after, .. }
            | ApiError::RateLimited { retry_after, .. } => Some(*retry_after),
            ApiError::StoreUnavailable(_) => Some(STORE_RETRY_AFTER),
            ApiError::AnalysisBusy { .. } => Some(ANALYSIS_RETRY_AFTER),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if let ApiError::Unauthorized(_) = self {
            res.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"baroque\""),
            );
        }
        res
    }
}

/// The HTTP response carrying a problem.
pub fn problem_response(p: &Problem) -> HttpResponse {
    let status = StatusCode::from_u16(p.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut res = HttpResponse::build(status);
    res.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
    if let Some(allow) = &p.allow {
        if let Ok(v) = HeaderValue::from_str(&allow.join(", ")) {
            res.insert_header((header::ALLOW, v));
        }
    }
    match serde_json::to_vec(p) {
        Ok(body) => res.body(body),
        Err(_) => res.body(format!(
            r#"{{"type":"about:blank","title":"Error","status":{},"detail":"error"}}"#,
            status.as_u16()
        )),
    }
}

/// Maps the JSON extractor's errors (`JsonConfig::error_handler`) to problems.
pub fn json_error_handler(err: JsonPayloadError, req: &HttpRequest) -> actix_web::Error {
    let limit = req
        .app_data::<actix_web::web::Data<super::configuration::Limits>>()
        .map(|l| l.max_body_bytes as u64);
    ApiError::from_json_error(err, limit).into()
}

impl ApiError {
    /// The problem for a JSON extractor error; `limit` is the body limit when known.
    pub fn from_json_error(err: JsonPayloadError, limit: Option<u64>) -> ApiError {
        match err {
            JsonPayloadError::OverflowKnownLength { limit, .. }
            | JsonPayloadError::Overflow { limit } => ApiError::PayloadTooLarge {
                limit: limit as u64,
            },
            JsonPayloadError::ContentType => ApiError::UnsupportedMediaType,
            JsonPayloadError::Deserialize(e) => {
                use serde_json::error::Category;
                match e.classify() {
                    Category::Syntax | Category::Eof => ApiError::MalformedJson(e.to_string()),
                    Category::Data | Category::Io => ApiError::InvalidRequest(e.to_string()),
                }
            }
            JsonPayloadError::Payload(actix_web::error::PayloadError::Overflow) => {
                ApiError::PayloadTooLarge {
                    limit: limit.unwrap_or(0),
                }
            }
            JsonPayloadError::Payload(actix_web::error::PayloadError::Io(e))
                if e.kind() == std::io::ErrorKind::TimedOut =>
            {
                ApiError::BodyTimeout {
                    millis: super::body_deadline::timeout_millis(&e),
                }
            }
            JsonPayloadError::Payload(e) => ApiError::Payload(e.to_string()),
            other => {
                tracing::error!(error = %other, "unexpected JSON extractor error");
                ApiError::Internal(other.to_string())
            }
        }
    }
}

/// Marks an error response a handler wrote on purpose in another form than a problem document (the
/// player's refusals, written as pages for a browser): [`ensure_problem_json`] leaves it alone.
#[derive(Clone, Copy, Debug)]
pub struct RenderedError;

/// An `ErrorHandlers` default: leaves problem responses and [`RenderedError`]s alone, and turns any
/// other error response (an empty 404 from the docs assets, an actix error written as text) into a
/// problem of the same status, keeping its `Allow` header.
pub fn ensure_problem_json<B>(
    res: ServiceResponse<B>,
) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    let rendered = res.response().extensions().get::<RenderedError>().is_some();
    if is_problem || rendered {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    let (req, old) = res.into_parts();
    use super::request_echo::{capped, logged_path, ECHOED_METHOD_CHARS, LOGGED_PATH_CHARS};
    let path = capped(req.path(), LOGGED_PATH_CHARS);
    let err = match status {
        StatusCode::NOT_FOUND => ApiError::NotFound { path },
        s if s.is_server_error() => {
            let path = logged_path(req.path());
            tracing::error!(status = s.as_u16(), %path, "error response without problem details");
            ApiError::Internal(format!("status {s}"))
        }
        s => ApiError::Status {
            status: s,
            detail: format!(
                "{} {}: {}",
                capped(req.method().as_str(), ECHOED_METHOD_CHARS),
                path,
                s.canonical_reason().unwrap_or("error").to_lowercase()
            ),
        },
    };
    let mut new = err.error_response();
    if let Some(allow) = old.headers().get(header::ALLOW) {
        new.headers_mut().insert(header::ALLOW, allow.clone());
    }
    let res: ServiceResponse<EitherBody<B>> = ServiceResponse::new(req, new).map_into_right_body();
    Ok(ErrorHandlerResponse::Response(res))
}

/// A game of a PGN body (or the body as a whole) that cannot be read.
impl From<crate::formats::ReadError> for ApiError {
    fn from(e: crate::formats::ReadError) -> ApiError {
        ApiError::InvalidPgn {
            game: e.place.number,
            line: e.place.line,
            message: e.message,
        }
    }
}

/// An error response of the OpenAPI document: a problem document of `status`, described.
fn documented_problem(
    status: &str,
    description: &str,
) -> (
    String,
    utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
) {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let response = ResponseBuilder::new()
        .description(description)
        .content(
            PROBLEM_JSON,
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("Problem")))
                .build(),
        )
        .build();
    (status.to_string(), response.into())
}

/// The error responses of every endpoint that reads a JSON body, for its OpenAPI operation: 400
/// (`malformed-json`, `invalid-request`), 408 (`body-timeout`), 413 (`payload-too-large`) and
/// 415 (`unsupported-media-type`). Named among an operation's `responses`.
pub struct JsonBodyProblems;

impl utoipa::IntoResponses for JsonBodyProblems {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        [
            documented_problem("400", "Malformed JSON (`malformed-json`), or a body that does not match the schema: unknown or missing fields, wrong types or values, unknown names of rules or options (`invalid-request`)"),
            documented_problem("408", "The body did not arrive within the server's `--body-timeout-ms` (`body-timeout`, with `limit`)"),
            documented_problem("413", "The body is larger than the limit (`payload-too-large`, with `limit`)"),
            documented_problem("415", "The body is not sent as `application/json` (`unsupported-media-type`)"),
        ]
        .into_iter()
        .collect()
    }
}

/// The 404 of every endpoint that reads a stored puzzle by id (`not-found`), for its OpenAPI
/// operation.
pub struct PuzzleNotFoundProblem;

impl utoipa::IntoResponses for PuzzleNotFoundProblem {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        [documented_problem(
            "404",
            "No puzzle has this id (`not-found`)",
        )]
        .into_iter()
        .collect()
    }
}

/// The 503 of every endpoint that only reads or deletes stored puzzles (`store-unavailable`,
/// with `Retry-After`), for its OpenAPI operation.
pub struct StoreUnavailableProblem;

impl utoipa::IntoResponses for StoreUnavailableProblem {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        use utoipa::openapi::header::HeaderBuilder;
        use utoipa::openapi::RefOr;
        let (status, response) = documented_problem(
            "503",
            "The store cannot answer now: locked or failing (`store-unavailable`); retry after the `Retry-After` seconds",
        );
        let RefOr::T(mut response) = response else {
            unreachable!("documented_problem builds the response itself")
        };
        let seconds = HeaderBuilder::new()
            .schema(Some(<u64 as utoipa::PartialSchema>::schema()))
            .description(Some("Seconds to wait before retrying"))
            .build();
        response
            .headers
            .insert("Retry-After".to_string(), RefOr::T(seconds));
        [(status, RefOr::T(response))].into_iter().collect()
    }
}

/// The 499 response of every endpoint whose work stops when its client leaves (`client-closed`),
/// for its OpenAPI operation.
pub struct ClientClosedProblem;

impl utoipa::IntoResponses for ClientClosedProblem {
    fn responses() -> std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
    > {
        [documented_problem("499", "The client closed its side of the connection before the answer was ready (`client-closed`): the work was stopped; a client that shuts down its sending side early is treated as gone")]
            .into_iter()
            .collect()
    }
}
