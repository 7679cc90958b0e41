//! The wire types of `POST /v1/play` and `POST /v1/puzzles/{id}/play`: their requests and their
//! answer, built from the use case's [`Judgement`].

use crate::api::common::{
    position_request, CoordsName, GameName, GameStatus, PositionView, ResolvedRules, Warning,
};
use crate::api::wire::solve::{AppliedLimits, BudgetLimit, SearchLimits, SolutionMove};
use crate::api::wire::verify::IllegalMove;
use crate::app::judge::{Judgement, PlayInput, PlayQuery};
use crate::app::solve::AskedBudget;
use crate::solver::play::Verdict;
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

impl PlayRequest {
    /// The request, typed for the use case.
    pub fn input(self) -> PlayInput {
        let limits = self.limits.unwrap_or_default();
        PlayInput {
            position: self.position_input(),
            mate_in: self.mate_in,
            stipulation: self.stipulation,
            moves: self.moves,
            hint: self.hint,
            budget: AskedBudget {
                nodes: limits.nodes,
                millis: limits.millis,
                max_tree_nodes: None,
            },
        }
    }
}

impl StoredPlayRequest {
    /// The budget asked for.
    pub fn budget(&self) -> AskedBudget {
        let limits = self.limits.unwrap_or_default();
        AskedBudget {
            nodes: limits.nodes,
            millis: limits.millis,
            max_tree_nodes: None,
        }
    }
}

impl PlayResponse {
    /// The answer of a judged line.
    pub fn of(q: &PlayQuery, j: &Judgement) -> PlayResponse {
        let named = |m: &crate::rules::MoveInfo| SolutionMove::from(m);
        let mut response = PlayResponse {
            game: q.position.game(),
            puzzle_id: q.puzzle_id,
            stipulation: q.stipulation.to_string(),
            verdict: PlayVerdict::Illegal,
            moves: j
                .played
                .iter()
                .map(|m| SolutionMove {
                    notation: m.notation.clone(),
                    uci: m.uci.clone(),
                    captures: m.captures.iter().cloned().map(Into::into).collect(),
                })
                .collect(),
            judged: None,
            first_illegal: j.first_illegal.as_ref().map(IllegalMove::from),
            refutation: None,
            reply: None,
            remaining: j.remaining,
            accepted: Vec::new(),
            hint: None,
            fen: j.fen.clone(),
            status: j.status.into(),
            complete: true,
            searched: false,
            nodes: 0,
            millis: 0,
            budget_exhausted: false,
            budget_exhausted_by: None,
            limits: q.limits.into(),
            clamped: q.clamped.clone(),
            rules: q.position.rules(),
            warnings: q.position.wire_warnings(),
        };
        if let Some(report) = &j.report {
            response.verdict = report.verdict.into();
            response.judged = report.judged;
            response.refutation = report.refutation.as_ref().map(named);
            response.reply = report.reply.as_ref().map(named);
            response.accepted = report.accepted.iter().map(named).collect();
            response.hint = report.hint.clone();
            response.complete = report.complete;
            response.searched = report.nodes > 0;
            response.nodes = report.nodes;
            response.millis = report.millis;
            response.budget_exhausted = report.budget_exhausted && j.search;
            response.budget_exhausted_by = report
                .exhausted_by
                .filter(|_| j.search)
                .map(BudgetLimit::from);
        }
        response
    }
}

/// Examples for the OpenAPI document, computed by the engine.
pub mod examples {
    use super::*;
    use serde_json::Value;

    /// The Wikipedia Chameleon mate in 2 after its key.
    pub fn play_response() -> Value {
        let settings = crate::api::Settings {
            solve_table_mib: 1,
            ..crate::api::Settings::default()
        };
        let limits = crate::api::configuration::Limits::from(&settings);
        let request = PlayRequest {
            fen: "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0".into(),
            stipulation: Some("#2".into()),
            mate_in: None,
            rules: None,
            game: None,
            coords: None,
            moves: vec!["Bg6xc6".into()],
            hint: true,
            limits: None,
        };
        let query = PlayQuery::parse(request.input(), &limits.solve, limits.max_moves)
            .expect("the example reads");
        let judged = crate::app::judge::judge(
            &query,
            &crate::solver::play::NoProof,
            true,
            &crate::solver::Cancel::new(),
        );
        let mut r = PlayResponse::of(&query, &judged);
        r.millis = 3;
        serde_json::to_value(r).unwrap_or_default()
    }
}
