//! Judging a puzzle played move by move: the moves so far, from a position and stipulation sent
//! ([`PlayQuery::parse`]) or from a stored puzzle ([`PlayQuery::stored`]), checked as a line and
//! judged by the solver, its stored proof first ([`judge`]).

use crate::cases::PlayedMove;
use crate::line::{check_moves, verify_line, Illegal};
use crate::position::{CheckedPosition, PositionInput, RequestError};
use crate::puzzle::{Kind, StoredPuzzle};
use crate::rules::prelude::*;
use crate::rules::rococo::Coords;
use crate::rules::{Naming, Status, Variant, VariantPosition};
use crate::solve::{AppliedLimits, AskedBudget, SolveError, SolveInput, SolveLimits, SolveQuery};
use crate::solver::play::{PlayOptions, PlayReport, Proof};
use crate::solver::{Cancel, Stipulation};

/// A line to judge, sent with its position: `/v1/play`'s request, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayInput {
    pub position: PositionInput,
    /// N of `#N`, or none with `stipulation`.
    pub mate_in: Option<u32>,
    pub stipulation: Option<String>,
    /// The moves played so far, both sides'.
    pub moves: Vec<String>,
    /// Whether the square of the piece to move next is asked for.
    pub hint: bool,
    pub budget: AskedBudget,
}

/// A line to judge: the position, the stipulation, the moves and the budget.
#[derive(Clone, Debug)]
pub struct PlayQuery {
    pub position: CheckedPosition,
    pub stipulation: Stipulation,
    pub moves: Vec<String>,
    pub hint: bool,
    pub table_mib: usize,
    pub limits: AppliedLimits,
    /// The budget's members lowered to the ceilings (`limits.nodes`, `limits.millis`).
    pub clamped: Vec<String>,
    /// The stored puzzle played, if it is one.
    pub puzzle_id: Option<i64>,
}

impl PlayQuery {
    /// Reads a line sent with its position under the ceilings (as a solve reads its own).
    ///
    /// # Errors
    /// [`RequestError::TooManyMoves`] for more than `max_moves`, and those of
    /// [`SolveQuery::parse`].
    pub fn parse(
        r: PlayInput,
        max: &SolveLimits,
        max_moves: usize,
    ) -> Result<PlayQuery, SolveError> {
        check_moves(&r.moves, max_moves)?;
        let q = SolveQuery::parse(
            SolveInput {
                position: r.position,
                mate_in: r.mate_in,
                stipulation: r.stipulation,
                intended_solutions: None,
                max_solutions: None,
                max_refutations: None,
                set_play: false,
                twins: Vec::new(),
                key: None,
                budget: AskedBudget {
                    max_tree_nodes: None,
                    ..r.budget
                },
                text: None,
            },
            max,
        )?;
        Ok(PlayQuery {
            position: q.position,
            stipulation: q.options.stipulation,
            moves: r.moves,
            hint: r.hint,
            table_mib: q.options.table_mib,
            limits: q.limits,
            clamped: q
                .clamped
                .into_iter()
                .filter(|c| c != "max_tree_nodes")
                .collect(),
            puzzle_id: None,
        })
    }

    /// Reads a line of a stored mate puzzle, its squares named in `coords`.
    ///
    /// # Errors
    /// [`RequestError::TooManyMoves`], [`RequestError::NotApplicable`] for a diagram or page
    /// coordinates with Baroque, [`RequestError::InvalidLimits`] for a zero budget.
    pub fn stored(
        p: &StoredPuzzle,
        moves: Vec<String>,
        hint: bool,
        coords: Option<Coords>,
        budget: AskedBudget,
        max: &SolveLimits,
        max_moves: usize,
    ) -> Result<PlayQuery, RequestError> {
        check_moves(&moves, max_moves)?;
        let (Kind::Mate, Some(stipulation)) = (p.kind, p.stipulation) else {
            return Err(RequestError::NotApplicable {
                field: "id",
                detail: format!(
                    "puzzle {} is a diagram: only mate puzzles (a stipulation) can be played",
                    p.id
                ),
            });
        };
        let (limits, clamped) = AskedBudget {
            max_tree_nodes: None,
            ..budget
        }
        .apply(max)?;
        if coords == Some(Coords::Page) && !Variant::has_page_coords(p.game()) {
            return Err(RequestError::NotApplicable {
                field: "coords",
                detail: "`coords: page` names the squares of the Rococo page; this puzzle is \
                         Baroque"
                    .into(),
            });
        }
        let mut position = CheckedPosition::of(p.variant, &p.fen, Naming::default())?;
        position.naming = Naming::coords(coords.unwrap_or_default());
        Ok(PlayQuery {
            position,
            stipulation,
            moves,
            hint,
            table_mib: max.table_mib,
            limits,
            clamped,
            puzzle_id: Some(p.id),
        })
    }
}

/// The judgement of a line.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The legal moves of the line, as played.
    pub played: Vec<PlayedMove>,
    /// The first illegal move (then nothing is judged).
    pub first_illegal: Option<Illegal>,
    /// The solver's judgement of a legal line.
    pub report: Option<PlayReport>,
    /// The solver's moves left (where the illegal move was sent, for an illegal line).
    pub remaining: u32,
    /// The position shown next (after the reply, if any) in the query's naming, and its status.
    pub fen: String,
    pub status: Status,
    /// Whether a search was allowed.
    pub search: bool,
}

impl Judgement {
    /// Whether the judgement needed a search it was not allowed.
    pub fn needs_search(&self) -> bool {
        self.report.as_ref().is_some_and(|r| r.needs_search)
    }
}

/// Judges a query's line (blocking: call it off async workers). Without `search`, only what
/// `proof` settles is judged, and [`Judgement::needs_search`] says whether more was needed.
pub fn judge(q: &PlayQuery, proof: &dyn Proof, search: bool, cancel: &Cancel) -> Judgement {
    let start = &q.position.position;
    let naming = q.position.naming;
    // A series mover's other side passes between the series' moves.
    let mut series = crate::solver::series::SeriesLine::new(q.stipulation);
    // The other side does not pass when the line's next move is its own (a shorter `ser-h#N`
    // or `ser-s#N`).
    let step = |after: VariantPosition, next: Option<&String>| {
        if q.stipulation.is_series() {
            let next = next
                .and_then(|t| crate::cases::play_text(&after, t, naming).ok())
                .map(|(m, _, _)| m);
            series.step_before(after, next.as_ref())
        } else {
            after
        }
    };
    let (verified, line) = verify_line(start, naming, q.moves.iter(), step);
    let played: Vec<PlayedMove> = verified
        .moves
        .into_iter()
        .filter_map(|m| match m {
            crate::line::LineMove::Legal { played, .. } => Some(played),
            crate::line::LineMove::Illegal { .. } => None,
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
    if let Some(illegal) = verified.first_illegal {
        // What is left to the solver where the illegal move was sent.
        let (total, done) = if q.stipulation.lists_lines() {
            (q.stipulation.solution_plies(), line.len())
        } else {
            (q.stipulation.moves(), line.len().div_ceil(2))
        };
        return Judgement {
            played,
            first_illegal: Some(illegal),
            report: None,
            remaining: total.saturating_sub(done as u32),
            fen: at.fen(naming),
            status: verified.final_status,
            search,
        };
    }
    let opts = PlayOptions {
        stipulation: q.stipulation,
        limits: q.limits.solver(),
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
            status = at.status_after(&mv, &shown);
        }
    }
    Judgement {
        played,
        first_illegal: None,
        remaining: report.remaining,
        report: Some(report),
        fen: shown.fen(naming),
        status,
        search,
    }
}
