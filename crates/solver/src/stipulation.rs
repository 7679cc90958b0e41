//! What a solve must prove: a stipulation, as problemists write it.
//!
//! - `#N` (direct mate): the side to move forces mate with its Nth move at the latest.
//! - `s#N` (selfmate): White, to move, forces Black to give mate: against every Black defence,
//!   within White's N moves, Black is left with at least one move and every move of Black mates.
//! - `h#N` (helpmate): Black moves first and both sides cooperate; White's Nth move mates Black.
//!   `h#N.5`: White moves first, and White's move N+1 mates.
//!
//! "Mate" is the game's own: checkmate in Baroque, the capture of the King (or a position where no
//! move keeps it) in Rococo.

use crate::rules::Color;
use std::fmt;

/// A stipulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stipulation {
    /// `#N`: the side to move forces mate (in Rococo, the capture of the enemy King) with its Nth
    /// move at the latest, against every defence.
    Mate(u32),
    /// `s#N`: White forces Black to mate White within White's N moves.
    SelfMate(u32),
    /// `h#N` (`half: false`: Black starts, White's Nth move mates) or `h#N.5` (`half: true`: White
    /// starts, White's move N+1 mates); both sides cooperate.
    HelpMate {
        /// N.
        moves: u32,
        /// Whether the stipulation is `h#N.5`.
        half: bool,
    },
}

impl Stipulation {
    /// The N of the stipulation (`#N`, `s#N`, `h#N`, `h#N.5`).
    pub fn moves(self) -> u32 {
        match self {
            Stipulation::Mate(n) | Stipulation::SelfMate(n) => n,
            Stipulation::HelpMate { moves, .. } => moves,
        }
    }

    /// The plies of a helpmate's solution (`h#N`: 2N, `h#N.5`: 2N + 1); `None` for the others.
    pub fn help_plies(self) -> Option<u32> {
        match self {
            Stipulation::HelpMate { moves, half } => Some(2 * moves + u32::from(half)),
            _ => None,
        }
    }

    /// The side that must be to move, when the stipulation names one: White for `s#N` and
    /// `h#N.5`, Black for `h#N`; `#N` is for either side.
    pub fn starts(self) -> Option<Color> {
        match self {
            Stipulation::Mate(_) => None,
            Stipulation::SelfMate(_) | Stipulation::HelpMate { half: true, .. } => {
                Some(Color::White)
            }
            Stipulation::HelpMate { half: false, .. } => Some(Color::Black),
        }
    }

    /// Whether this is a helpmate.
    pub fn is_help(self) -> bool {
        matches!(self, Stipulation::HelpMate { .. })
    }

    /// Reads `#N`, `s#N`, `h#N` or `h#N.5` (N from 1; `h#0.5` is White mating in one move).
    ///
    /// ```
    /// use baroque_solver::Stipulation;
    /// assert_eq!(Stipulation::parse("#2"), Some(Stipulation::Mate(2)));
    /// assert_eq!(Stipulation::Mate(3).to_string(), "#3");
    /// assert_eq!(Stipulation::parse("s#3"), Some(Stipulation::SelfMate(3)));
    /// assert_eq!(
    ///     Stipulation::parse("h#2.5"),
    ///     Some(Stipulation::HelpMate { moves: 2, half: true })
    /// );
    /// assert_eq!(Stipulation::parse("h#2").unwrap().to_string(), "h#2");
    /// assert_eq!(Stipulation::parse("h#0"), None);
    /// assert_eq!(Stipulation::parse("x#2"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Stipulation> {
        let text = text.trim();
        let number = |n: &str| -> Option<u32> {
            if n.is_empty() || n.len() > 4 || !n.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            n.parse().ok()
        };
        if let Some(n) = text.strip_prefix("s#") {
            return number(n).filter(|&n| n > 0).map(Stipulation::SelfMate);
        }
        if let Some(n) = text.strip_prefix("h#") {
            return match n.strip_suffix(".5") {
                Some(whole) => {
                    number(whole).map(|moves| Stipulation::HelpMate { moves, half: true })
                }
                None => number(n)
                    .filter(|&n| n > 0)
                    .map(|moves| Stipulation::HelpMate { moves, half: false }),
            };
        }
        let n = text.strip_prefix('#')?;
        number(n).filter(|&n| n > 0).map(Stipulation::Mate)
    }
}

/// Why a request's stipulation is unusable (see [`Stipulation::from_parts`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StipulationError {
    /// The text is not a stipulation.
    #[error(
        "{0:?} is not a stipulation: write #N, s#N, h#N or h#N.5 (such as #2, s#3, h#2, h#2.5)"
    )]
    Unreadable(String),
    /// A mate-in-N and a stipulation that is not `#N`.
    #[error("mate in {0} means #{0}, but the stipulation is {1}: give one of them")]
    Disagree(u32, Stipulation),
    /// Neither was given.
    #[error("give N (mate in N) or a stipulation")]
    Missing,
}

impl Stipulation {
    /// The stipulation of a request that may give a mate-in-N (`#N`), a stipulation's text, or
    /// both when they agree: what the command line and the API read.
    ///
    /// # Errors
    /// [`StipulationError`]: unreadable text, the two disagreeing, or neither given.
    pub fn from_parts(
        mate_in: Option<u32>,
        text: Option<&str>,
    ) -> Result<Stipulation, StipulationError> {
        let named = text
            .map(|t| Stipulation::parse(t).ok_or_else(|| StipulationError::Unreadable(t.into())))
            .transpose()?;
        match (mate_in, named) {
            (Some(n), None) => Ok(Stipulation::Mate(n)),
            (None, Some(s)) => Ok(s),
            (Some(n), Some(s)) if s == Stipulation::Mate(n) => Ok(s),
            (Some(n), Some(s)) => Err(StipulationError::Disagree(n, s)),
            (None, None) => Err(StipulationError::Missing),
        }
    }
}

impl Default for Stipulation {
    fn default() -> Stipulation {
        Stipulation::Mate(2)
    }
}

impl fmt::Display for Stipulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stipulation::Mate(n) => write!(f, "#{n}"),
            Stipulation::SelfMate(n) => write!(f, "s#{n}"),
            Stipulation::HelpMate { moves, half: false } => write!(f, "h#{moves}"),
            Stipulation::HelpMate { moves, half: true } => write!(f, "h#{moves}.5"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stipulation;

    #[test]
    fn every_stipulation_reads_back() {
        for text in ["#1", "#12", "s#1", "s#4", "h#1", "h#3", "h#0.5", "h#2.5"] {
            let s = Stipulation::parse(text).unwrap();
            assert_eq!(s.to_string(), text);
        }
        for bad in [
            "", "#", "#0", "s#0", "h#", "h#.5", "h#2.", "h#2.0", "#-1", "#2x", "##2", "s#99999",
        ] {
            assert_eq!(Stipulation::parse(bad), None, "{bad}");
        }
        assert_eq!(Stipulation::parse("h#2").unwrap().help_plies(), Some(4));
        assert_eq!(Stipulation::parse("h#1.5").unwrap().help_plies(), Some(3));
    }

    #[test]
    fn a_mate_in_n_and_a_stipulation_must_agree() {
        use super::StipulationError as E;
        assert_eq!(
            Stipulation::from_parts(Some(2), None),
            Ok(Stipulation::Mate(2))
        );
        assert_eq!(
            Stipulation::from_parts(Some(2), Some("#2")),
            Ok(Stipulation::Mate(2))
        );
        assert_eq!(
            Stipulation::from_parts(None, Some("s#3")),
            Ok(Stipulation::SelfMate(3))
        );
        assert_eq!(
            Stipulation::from_parts(Some(2), Some("h#1")),
            Err(E::Disagree(
                2,
                Stipulation::HelpMate {
                    moves: 1,
                    half: false
                }
            ))
        );
        assert_eq!(
            Stipulation::from_parts(None, Some("x#2")),
            Err(E::Unreadable("x#2".into()))
        );
        assert_eq!(Stipulation::from_parts(None, None), Err(E::Missing));
    }
}
