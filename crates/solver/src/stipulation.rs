//! What a solve must prove: a stipulation, as problemists write it.
//!
//! - `#N` (direct mate): the side to move forces mate with its Nth move at the latest.
//! - `s#N` (selfmate): White, to move, forces Black to give mate: against every Black defence,
//!   within White's N moves, Black is left with at least one move and every move of Black mates.
//! - `h#N` (helpmate): Black moves first and both sides cooperate; White's Nth move mates Black.
//!   `h#N.5`: White moves first, and White's move N+1 mates.
//! - `=N`, `s=N`, `h=N`, `h=N.5`: the same with stalemate as the goal: the side that must be
//!   stalemated is to move, has no legal move, and its King is not capturable (see
//!   [`Target`]).
//! - `r#N` (reflexmate): as `s#N`, but a side that can mate in one must; `semi-r#N` binds Black
//!   only.
//!
//! "Mate" is the game's own: checkmate in Baroque, the capture of the King (or a position where no
//! move keeps it) in Rococo. "Stalemate" is a position, whatever the rule set makes of it.

use crate::rules::Color;
use std::fmt;

/// The position a stipulation's play must end in, with the side that must be beaten to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Target {
    /// Mated (`#`): [`baroque_rules::SearchHooks::lost`].
    #[default]
    Mate,
    /// Stalemated (`=`): [`baroque_rules::SearchHooks::stalemated`].
    Stalemate,
}

impl Target {
    /// The sign problemists write: `#` or `=`.
    pub fn sign(self) -> char {
        match self {
            Target::Mate => '#',
            Target::Stalemate => '=',
        }
    }
}

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
    /// `=N`: the side to move forces, with its Nth move at the latest, a position where the other
    /// side is to move and stalemated, against every defence.
    Stalemate(u32),
    /// `s=N`: White forces Black to stalemate White by Black's Nth move at the latest.
    SelfStalemate(u32),
    /// `h=N` (Black starts) or `h=N.5` (White starts): both sides cooperate; White's last move
    /// leaves Black stalemated.
    HelpStalemate {
        /// N.
        moves: u32,
        /// Whether the stipulation is `h=N.5`.
        half: bool,
    },
    /// `r#N` (reflexmate): as `s#N`, but a side that can mate in one must: White, at any of its
    /// moves, fails when it can mate; Black, when it can, mates, which ends the play.
    ReflexMate(u32),
    /// `semi-r#N`: as `r#N`, with only Black bound to mate when it can.
    SemiReflexMate(u32),
}

impl Stipulation {
    /// The forms this build reads, as error messages list them.
    pub const FORMS: &'static str = "#N, s#N, h#N, h#N.5, =N, s=N, h=N, h=N.5, r#N or semi-r#N";

    /// The N of the stipulation.
    pub fn moves(self) -> u32 {
        match self {
            Stipulation::Mate(n)
            | Stipulation::SelfMate(n)
            | Stipulation::Stalemate(n)
            | Stipulation::SelfStalemate(n)
            | Stipulation::ReflexMate(n)
            | Stipulation::SemiReflexMate(n) => n,
            Stipulation::HelpMate { moves, .. } | Stipulation::HelpStalemate { moves, .. } => moves,
        }
    }

    /// What the play must end in.
    pub fn target(self) -> Target {
        match self {
            Stipulation::Mate(_)
            | Stipulation::SelfMate(_)
            | Stipulation::HelpMate { .. }
            | Stipulation::ReflexMate(_)
            | Stipulation::SemiReflexMate(_) => Target::Mate,
            Stipulation::Stalemate(_)
            | Stipulation::SelfStalemate(_)
            | Stipulation::HelpStalemate { .. } => Target::Stalemate,
        }
    }

    /// The plies of a helpmate's solution (`h#N`: 2N, `h#N.5`: 2N + 1; the same for `h=`);
    /// `None` for the others.
    pub fn help_plies(self) -> Option<u32> {
        match self {
            Stipulation::HelpMate { moves, half } | Stipulation::HelpStalemate { moves, half } => {
                Some(2 * moves + u32::from(half))
            }
            _ => None,
        }
    }

    /// The side that must be to move, when the stipulation names one: White for `s#N`, `s=N`,
    /// `h#N.5` and `h=N.5`, Black for `h#N` and `h=N`; `#N` and `=N` are for either side.
    pub fn starts(self) -> Option<Color> {
        match self {
            Stipulation::Mate(_) | Stipulation::Stalemate(_) => None,
            Stipulation::SelfMate(_)
            | Stipulation::SelfStalemate(_)
            | Stipulation::ReflexMate(_)
            | Stipulation::SemiReflexMate(_)
            | Stipulation::HelpMate { half: true, .. }
            | Stipulation::HelpStalemate { half: true, .. } => Some(Color::White),
            Stipulation::HelpMate { half: false, .. }
            | Stipulation::HelpStalemate { half: false, .. } => Some(Color::Black),
        }
    }

    /// Whether this is a helpmate or a helpstalemate (both sides cooperate).
    pub fn is_help(self) -> bool {
        self.help_plies().is_some()
    }

    /// The plies of a solution line played out in full: `#N`, `=N`: 2N - 1 (the attacker's Nth
    /// move ends it); `s#N`, `s=N`: 2N (Black's Nth); a helpmate: [`Stipulation::help_plies`].
    pub fn solution_plies(self) -> u32 {
        match self.help_plies() {
            Some(plies) => plies,
            None if self.is_self() => 2 * self.moves(),
            None => (2 * self.moves()).saturating_sub(1),
        }
    }

    /// The side whose move ends a solution (mates or stalemates), `to_move` being the side to
    /// move: the side to move in `#N` and `=N`, Black in `s#N` and `s=N`, White in a helpmate.
    pub fn final_mover(self, to_move: Color) -> Color {
        if self.is_help() {
            Color::White
        } else if self.is_self() {
            Color::Black
        } else {
            to_move
        }
    }

    /// Whether White plays for the other side to reach the goal against White (`s#N`, `s=N`,
    /// and the reflexmates `r#N` and `semi-r#N`).
    pub fn is_self(self) -> bool {
        matches!(
            self,
            Stipulation::SelfMate(_)
                | Stipulation::SelfStalemate(_)
                | Stipulation::ReflexMate(_)
                | Stipulation::SemiReflexMate(_)
        )
    }

    /// Whether this is a reflexmate (`r#N`, `semi-r#N`).
    pub fn is_reflex(self) -> bool {
        matches!(
            self,
            Stipulation::ReflexMate(_) | Stipulation::SemiReflexMate(_)
        )
    }

    /// Reads `#N`, `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`, `h=N` or `h=N.5` (N from 1; `h#0.5` is
    /// White mating in one move, `h=0.5` White stalemating in one).
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
    /// assert_eq!(Stipulation::parse("=2"), Some(Stipulation::Stalemate(2)));
    /// assert_eq!(Stipulation::parse("s=1").unwrap().to_string(), "s=1");
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
        let whole = |n: &str| number(n).filter(|&n| n > 0);
        if let Some(n) = text.strip_prefix("semi-r#") {
            return whole(n).map(Stipulation::SemiReflexMate);
        }
        if let Some(n) = text.strip_prefix("r#") {
            return whole(n).map(Stipulation::ReflexMate);
        }
        let (form, rest) = match text.as_bytes().first()? {
            b's' | b'h' => text.split_at(1),
            _ => ("", text),
        };
        let (target, n) = match rest.as_bytes().first()? {
            b'#' => (Target::Mate, &rest[1..]),
            b'=' => (Target::Stalemate, &rest[1..]),
            _ => return None,
        };
        let mate = target == Target::Mate;
        match form {
            "" => whole(n).map(|n| {
                if mate {
                    Stipulation::Mate(n)
                } else {
                    Stipulation::Stalemate(n)
                }
            }),
            "s" => whole(n).map(|n| {
                if mate {
                    Stipulation::SelfMate(n)
                } else {
                    Stipulation::SelfStalemate(n)
                }
            }),
            _ => {
                let (moves, half) = match n.strip_suffix(".5") {
                    Some(w) => (number(w)?, true),
                    None => (whole(n)?, false),
                };
                Some(if mate {
                    Stipulation::HelpMate { moves, half }
                } else {
                    Stipulation::HelpStalemate { moves, half }
                })
            }
        }
    }
}

/// Why a request's stipulation is unusable (see [`Stipulation::from_parts`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StipulationError {
    /// The text is not a stipulation.
    #[error(
        "{0:?} is not a stipulation: write {forms} (such as #2, s#3, h#2, h#2.5, =2, h=2, r#2)",
        forms = Stipulation::FORMS
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
            Stipulation::Stalemate(n) => write!(f, "={n}"),
            Stipulation::SelfStalemate(n) => write!(f, "s={n}"),
            Stipulation::HelpStalemate { moves, half: false } => write!(f, "h={moves}"),
            Stipulation::HelpStalemate { moves, half: true } => write!(f, "h={moves}.5"),
            Stipulation::ReflexMate(n) => write!(f, "r#{n}"),
            Stipulation::SemiReflexMate(n) => write!(f, "semi-r#{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stipulation;

    #[test]
    fn every_stipulation_reads_back() {
        for text in [
            "#1", "#12", "s#1", "s#4", "h#1", "h#3", "h#0.5", "h#2.5", "=1", "=3", "s=2", "h=1",
            "h=0.5", "h=2.5", "r#1", "r#3", "semi-r#2",
        ] {
            let s = Stipulation::parse(text).unwrap();
            assert_eq!(s.to_string(), text);
        }
        for bad in [
            "", "#", "#0", "s#0", "h#", "h#.5", "h#2.", "h#2.0", "#-1", "#2x", "##2", "s#99999",
            "=", "=0", "s=0", "h=0", "h=.5", "=#2", "#=2", "s", "h", "x=2", "s#2.5", "=2.5",
            "sh#2",
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
