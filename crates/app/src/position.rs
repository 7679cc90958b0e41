//! A position read from a request ([`CheckedPosition`]), and the typed errors of reading a
//! request ([`RequestError`]), which the edges turn into an HTTP problem or a command-line message.

use crate::rules::prelude::*;
use crate::rules::rococo::Coords;
use crate::rules::{
    FenField, GameKind, Naming, ParseFenError, PositionError, Problem, Rules, Variant,
    VariantPosition,
};

/// The largest ply count a request's FEN may carry, so that playing moves can never overflow it.
pub const MAX_PLIES: u32 = 1_000_000_000;

/// What is wrong with a request, named by the member it comes from. Each edge words it for its
/// users (the HTTP API as a problem document, the command line as a message).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// A request the use case cannot read at all (`give mate_in or stipulation`).
    #[error("{0}")]
    Invalid(String),
    /// The FEN does not read.
    #[error("FEN {0}")]
    InvalidFen(ParseFenError),
    /// The position cannot arise.
    #[error("{0}")]
    ImpossiblePosition(PositionError),
    /// More moves than a request may hold.
    #[error("{count} moves: at most {limit} are allowed")]
    TooManyMoves { count: usize, limit: u64 },
    /// N is 0 or above the maximum.
    #[error("N must be between 1 and {max}, not {mate_in}")]
    InvalidMateIn { mate_in: u32, max: u32 },
    /// A zero budget, or a count out of its range.
    #[error("{0}")]
    InvalidLimits(String),
    /// A member that does not apply to this game or puzzle.
    #[error("`{field}`: {detail}")]
    NotApplicable { field: &'static str, detail: String },
    /// The intended key is not a legal move.
    #[error("key {key:?}: {reason}")]
    InvalidKey { key: String, reason: String },
    /// A twin that cannot be applied.
    #[error("{0}")]
    InvalidTwin(crate::puzzle::twins::TwinError),
    /// A stipulation that does not read, or disagrees with N.
    #[error("{0}")]
    InvalidStipulation(String),
    /// The side to move is not the one the stipulation starts with.
    #[error("{0}")]
    StipulationSide(String),
}

impl From<ParseFenError> for RequestError {
    fn from(e: ParseFenError) -> RequestError {
        RequestError::InvalidFen(e)
    }
}

impl From<PositionError> for RequestError {
    fn from(e: PositionError) -> RequestError {
        RequestError::ImpossiblePosition(e)
    }
}

/// A request's `mate_in` and `stipulation` that do not make one stipulation.
impl From<crate::solver::StipulationError> for RequestError {
    fn from(e: crate::solver::StipulationError) -> Self {
        use crate::solver::StipulationError;
        match e {
            StipulationError::Unreadable(text) => RequestError::InvalidStipulation(format!(
                "`stipulation` {text:?} is not one: write {} (such as \"#2\", \"s#3\", \
                 \"h#2\", \"h#2.5\", \"=2\")",
                crate::solver::Stipulation::FORMS
            )),
            StipulationError::Disagree(n, s) => RequestError::InvalidStipulation(format!(
                "`mate_in` {n} means #{n}, but `stipulation` is {s}: give one of them"
            )),
            StipulationError::Missing => {
                RequestError::Invalid("give `mate_in` (mate in N) or `stipulation`".into())
            }
        }
    }
}

/// A stipulation that does not apply to a position.
impl From<crate::solver::Inapplicable> for RequestError {
    fn from(e: crate::solver::Inapplicable) -> RequestError {
        use crate::solver::Inapplicable;
        match e {
            Inapplicable::Length { stipulation, max } => RequestError::InvalidMateIn {
                mate_in: stipulation.moves(),
                max,
            },
            Inapplicable::NeedsBothKings => RequestError::NotApplicable {
                field: "fen",
                detail: e.to_string(),
            },
            Inapplicable::WrongSide { .. } => RequestError::StipulationSide(e.to_string()),
        }
    }
}

/// The position a request names: its FEN, game, square names and rule set, not read yet (a
/// request's other members are checked first, in the order its answer documents).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionInput {
    pub fen: String,
    pub game: GameKind,
    /// The square names asked for (`None`: the standard ones).
    pub coords: Option<Coords>,
    /// The rule set asked for (`None`: the game's default).
    pub rules: Option<Rules>,
}

impl PositionInput {
    /// Reads the position.
    ///
    /// # Errors
    /// [`RequestError::NotApplicable`] for page coordinates with a game without page names or a
    /// rule set with a game without rule sets, and the errors of [`CheckedPosition::of`].
    pub fn read(&self) -> Result<CheckedPosition, RequestError> {
        let kind = self.game;
        if self.coords == Some(Coords::Page) && !Variant::has_page_coords(kind) {
            return Err(RequestError::NotApplicable {
                field: "coords",
                detail: "`coords: page` names the squares of the Rococo page; it applies \
                         only with `game: rococo` (Baroque squares are a-h, 1-8)"
                    .into(),
            });
        }
        if self.rules.is_some() && !Variant::has_rule_sets(kind) {
            return Err(RequestError::NotApplicable {
                field: "rules",
                detail: "Rococo has one rule set: the Baroque presets and options of \
                         `rules` do not apply to it; leave `rules` out"
                    .into(),
            });
        }
        let variant =
            Variant::of(kind, self.rules).map_err(|detail| RequestError::NotApplicable {
                field: "rules",
                detail,
            })?;
        let naming = Naming::coords(self.coords.unwrap_or_default());
        CheckedPosition::of(variant, &self.fen, naming)
    }
}

/// A position read from a request: its FEN was readable and the position can arise. The naming
/// of its squares is the request's, used for the answer too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedPosition {
    pub position: VariantPosition,
    /// How the request names squares and pieces.
    pub naming: Naming,
    /// The position's remarks that do not stop it being used (`no_king`, `too_many_pieces`).
    pub warnings: Vec<Problem>,
}

impl CheckedPosition {
    /// Reads and validates a Baroque FEN under a rule set (see [`CheckedPosition::of`]).
    ///
    /// # Errors
    /// As [`CheckedPosition::of`].
    ///
    /// ```
    /// use baroque_app::position::{CheckedPosition, RequestError};
    /// use baroque_rules::Rules;
    ///
    /// // The vchess Pawn diagram.
    /// let ok = CheckedPosition::parse("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", Rules::default());
    /// assert!(ok.unwrap().warnings.is_empty());
    ///
    /// let two_kings = CheckedPosition::parse("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K6K w 0", Rules::default());
    /// let Err(RequestError::ImpossiblePosition(e)) = two_kings else { panic!() };
    /// assert_eq!(e.problems[0].code(), "two_kings");
    /// ```
    pub fn parse(fen: &str, rules: Rules) -> Result<CheckedPosition, RequestError> {
        CheckedPosition::of(Variant::Baroque(rules), fen, Naming::default())
    }

    /// Reads and validates a FEN of `variant`, squares in `naming`.
    ///
    /// # Errors
    /// [`RequestError::InvalidFen`] with the field and position of a syntax error (or of a ply
    /// count above [`MAX_PLIES`]); [`RequestError::ImpossiblePosition`] listing every problem of
    /// a position that cannot arise.
    pub fn of(
        variant: Variant,
        fen: &str,
        naming: Naming,
    ) -> Result<CheckedPosition, RequestError> {
        let position = variant.read_fen(fen, naming)?;
        check_plies(fen, position.plies())?;
        let warnings = warnings_of(position.validate())?;
        Ok(CheckedPosition {
            position,
            naming,
            warnings,
        })
    }

    /// A position that can arise (a twin's, derived from one that was checked), with its
    /// warnings.
    pub fn of_valid(position: VariantPosition, naming: Naming) -> CheckedPosition {
        CheckedPosition {
            position,
            naming,
            warnings: warnings_of(position.validate()).unwrap_or_default(),
        }
    }
}

/// Refuses a ply count above [`MAX_PLIES`] as a FEN error at the ply field.
fn check_plies(fen: &str, plies: u32) -> Result<(), RequestError> {
    if plies <= MAX_PLIES {
        return Ok(());
    }
    let at = crate::rules::fen::split_fields(fen)
        .get(2)
        .map_or(1, |&(offset, _)| offset + 1);
    Err(RequestError::InvalidFen(ParseFenError::new(
        FenField::Plies,
        at,
        format!("the ply count must be at most {MAX_PLIES}"),
    )))
}

/// The warnings among a position's problems, or every problem when one is an error.
fn warnings_of(problems: Vec<Problem>) -> Result<Vec<Problem>, RequestError> {
    if problems.iter().any(|p| p.is_error()) {
        return Err(PositionError { problems }.into());
    }
    Ok(problems)
}
