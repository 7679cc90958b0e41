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
//! - Series movers: one side plays N moves in a row while the other passes, none of them but the
//!   last leaving the other side's King capturable (in check). `ser-#N`: White's Nth move mates;
//!   `ser-=N`: it stalemates; `ser-s#N`: after White's Nth move Black has a move and every one
//!   mates White; `ser-h#N`: Black plays the N moves, then White mates in one.
//!
//! "Mate" is the game's own: checkmate in Baroque, the capture of the King (or a position where no
//! move keeps it) in Rococo. "Stalemate" is a position, whatever the rule set makes of it.

use crate::rules::prelude::*;
use crate::rules::{Color, Variant};
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
    /// `ser-#N`: White plays N moves in a row (Black passing), the last one mating; none before
    /// it may give check.
    SeriesMate(u32),
    /// `ser-=N`: as `ser-#N`, the last move stalemating Black.
    SeriesStalemate(u32),
    /// `ser-s#N`: White plays N moves in a row, none but the last giving check, after which Black
    /// has at least one move and every one mates White.
    SeriesSelfMate(u32),
    /// `ser-h#N`: Black plays N moves in a row (White passing), none but the last giving check,
    /// then White mates in one.
    SeriesHelpMate(u32),
}

impl Stipulation {
    /// The forms this build reads, as error messages list them.
    pub const FORMS: &'static str = "#N, s#N, h#N, h#N.5, =N, s=N, h=N, h=N.5, r#N, semi-r#N, \
                                     ser-#N, ser-h#N, ser-s#N or ser-=N";

    /// The N of the stipulation.
    pub fn moves(self) -> u32 {
        match self {
            Stipulation::Mate(n)
            | Stipulation::SelfMate(n)
            | Stipulation::Stalemate(n)
            | Stipulation::SelfStalemate(n)
            | Stipulation::ReflexMate(n)
            | Stipulation::SemiReflexMate(n)
            | Stipulation::SeriesMate(n)
            | Stipulation::SeriesStalemate(n)
            | Stipulation::SeriesSelfMate(n)
            | Stipulation::SeriesHelpMate(n) => n,
            Stipulation::HelpMate { moves, .. } | Stipulation::HelpStalemate { moves, .. } => moves,
        }
    }

    /// The family: the stipulation without its length (`#`, `s#`, `h#`, `h=`, `semi-r#`,
    /// `ser-h#`, ...).
    pub fn family(self) -> &'static str {
        match self {
            Stipulation::Mate(_) => "#",
            Stipulation::SelfMate(_) => "s#",
            Stipulation::HelpMate { .. } => "h#",
            Stipulation::Stalemate(_) => "=",
            Stipulation::SelfStalemate(_) => "s=",
            Stipulation::HelpStalemate { .. } => "h=",
            Stipulation::ReflexMate(_) => "r#",
            Stipulation::SemiReflexMate(_) => "semi-r#",
            Stipulation::SeriesMate(_) => "ser-#",
            Stipulation::SeriesStalemate(_) => "ser-=",
            Stipulation::SeriesSelfMate(_) => "ser-s#",
            Stipulation::SeriesHelpMate(_) => "ser-h#",
        }
    }

    /// The families, as [`Stipulation::family`] names them.
    pub const FAMILIES: [&'static str; 12] = [
        "#", "s#", "h#", "=", "s=", "h=", "r#", "semi-r#", "ser-#", "ser-=", "ser-s#", "ser-h#",
    ];

    /// The length as problemists count it: N, and N + 0.5 for `h#N.5` and `h=N.5`.
    pub fn length(self) -> f64 {
        let half = matches!(
            self,
            Stipulation::HelpMate { half: true, .. }
                | Stipulation::HelpStalemate { half: true, .. }
        );
        f64::from(self.moves()) + if half { 0.5 } else { 0.0 }
    }

    /// What the play must end in.
    pub fn target(self) -> Target {
        match self {
            Stipulation::Mate(_)
            | Stipulation::SelfMate(_)
            | Stipulation::HelpMate { .. }
            | Stipulation::ReflexMate(_)
            | Stipulation::SemiReflexMate(_)
            | Stipulation::SeriesMate(_)
            | Stipulation::SeriesSelfMate(_)
            | Stipulation::SeriesHelpMate(_) => Target::Mate,
            Stipulation::Stalemate(_)
            | Stipulation::SelfStalemate(_)
            | Stipulation::HelpStalemate { .. }
            | Stipulation::SeriesStalemate(_) => Target::Stalemate,
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
    /// `r#N`, `h#N.5`, `h=N.5` and the series movers but `ser-h#N`, Black for `h#N`, `h=N` and
    /// `ser-h#N`; `#N` and `=N` are for either side.
    pub fn starts(self) -> Option<Color> {
        match self {
            Stipulation::Mate(_) | Stipulation::Stalemate(_) => None,
            Stipulation::SelfMate(_)
            | Stipulation::SelfStalemate(_)
            | Stipulation::ReflexMate(_)
            | Stipulation::SemiReflexMate(_)
            | Stipulation::SeriesMate(_)
            | Stipulation::SeriesStalemate(_)
            | Stipulation::SeriesSelfMate(_)
            | Stipulation::HelpMate { half: true, .. }
            | Stipulation::HelpStalemate { half: true, .. } => Some(Color::White),
            Stipulation::HelpMate { half: false, .. }
            | Stipulation::HelpStalemate { half: false, .. }
            | Stipulation::SeriesHelpMate(_) => Some(Color::Black),
        }
    }

    /// Whether this is a helpmate or a helpstalemate (both sides cooperate).
    pub fn is_help(self) -> bool {
        self.help_plies().is_some()
    }

    /// Whether this is a series mover (`ser-#N`, `ser-=N`, `ser-s#N`, `ser-h#N`).
    pub fn is_series(self) -> bool {
        matches!(
            self,
            Stipulation::SeriesMate(_)
                | Stipulation::SeriesStalemate(_)
                | Stipulation::SeriesSelfMate(_)
                | Stipulation::SeriesHelpMate(_)
        )
    }

    /// Whether the answer is a list of solution lines (a helpmate or a series mover), not keys
    /// with a solution tree.
    pub fn lists_lines(self) -> bool {
        self.is_help() || self.is_series()
    }

    /// The least N this stipulation takes: 0 for a helpmate (`h#0.5`), 1 for the others.
    pub fn least_moves(self) -> u32 {
        u32::from(!self.is_help())
    }

    /// Whether, in a solution line of `len` moves of this stipulation, the other side passes
    /// after the move at `index` (from 0): in a series mover, after each of the series' moves
    /// but its last (in `ser-h#N` the line ends with White's mating move, after Black's series).
    /// Never in the other stipulations.
    pub fn passes_after(self, index: usize, len: usize) -> bool {
        if !self.is_series() {
            return false;
        }
        let series = len - usize::from(matches!(self, Stipulation::SeriesHelpMate(_)));
        index + 1 < series
    }

    /// The plies of a solution line played out in full: `#N`, `=N`: 2N - 1 (the attacker's Nth
    /// move ends it); `s#N`, `s=N`: 2N (Black's Nth); a helpmate: [`Stipulation::help_plies`];
    /// a series mover: the moves of its solution line, passes not counted (N; N + 1 in
    /// `ser-h#N`, whose line ends with White's mate; a `ser-s#N` line ends with White's Nth move,
    /// every Black reply mating).
    pub fn solution_plies(self) -> u32 {
        match self.help_plies() {
            Some(plies) => plies,
            None if self.is_series() => {
                self.moves() + u32::from(matches!(self, Stipulation::SeriesHelpMate(_)))
            }
            None if self.is_self() => 2 * self.moves(),
            None => (2 * self.moves()).saturating_sub(1),
        }
    }

    /// The side whose move ends a solution (mates or stalemates), `to_move` being the side to
    /// move: the side to move in `#N` and `=N`, Black in `s#N`, `s=N` and `ser-s#N`, White in a
    /// helpmate and the other series movers.
    pub fn final_mover(self, to_move: Color) -> Color {
        if self == Stipulation::SeriesSelfMate(self.moves()) {
            Color::Black
        } else if self.is_help() || self.is_series() {
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

    /// Reads `#N`, `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`, `h=N`, `h=N.5`, `r#N`, `semi-r#N`,
    /// `ser-#N`, `ser-=N`, `ser-s#N` or `ser-h#N` (N from 1; `h#0.5` is White mating in one move,
    /// `h=0.5` White stalemating in one).
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
    /// assert_eq!(Stipulation::parse("ser-h#4"), Some(Stipulation::SeriesHelpMate(4)));
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
        if let Some(rest) = text.strip_prefix("ser-") {
            type Make = fn(u32) -> Stipulation;
            let forms: [(&str, Make); 4] = [
                ("h#", Stipulation::SeriesHelpMate),
                ("s#", Stipulation::SeriesSelfMate),
                ("#", Stipulation::SeriesMate),
                ("=", Stipulation::SeriesStalemate),
            ];
            return forms
                .iter()
                .find_map(|(sign, make)| rest.strip_prefix(sign).map(|n| (make, n)))
                .and_then(|(make, n)| whole(n).map(make));
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
        "{0:?} is not a stipulation: write {forms} (such as #2, s#3, h#2, h#2.5, =2, h=2, r#2, \
         ser-#3)",
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

/// Why a stipulation cannot be solved from a position: the one check every edge (a request, a
/// twin, a stored or imported puzzle, a fixture) makes before a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inapplicable {
    /// N is below the stipulation's least (`h#0.5`'s half move) or above `max`.
    Length { stipulation: Stipulation, max: u32 },
    /// A game won by capturing the King needs both Kings: its mate is forcing that capture.
    NeedsBothKings,
    /// The side to move is not the one the stipulation starts with.
    WrongSide {
        stipulation: Stipulation,
        starts: Color,
        turn: Color,
    },
}

impl std::fmt::Display for Inapplicable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Inapplicable::Length { stipulation, max } => write!(
                f,
                "the N of {stipulation} is {}; it must be between {} and {max}",
                stipulation.moves(),
                stipulation.least_moves()
            ),
            Inapplicable::NeedsBothKings => f.write_str(
                "a Rococo mate needs both Kings on the board: mate means forcing the capture of \
                 the enemy King",
            ),
            Inapplicable::WrongSide {
                stipulation,
                starts,
                turn,
            } => write!(
                f,
                "{stipulation} starts with {starts} to move, but the FEN has {turn} to move"
            ),
        }
    }
}

impl std::error::Error for Inapplicable {}

impl Stipulation {
    /// Whether N is within the stipulation's least and `max`.
    ///
    /// # Errors
    /// [`Inapplicable::Length`].
    pub fn check_length(self, max: u32) -> Result<(), Inapplicable> {
        let n = self.moves();
        if n < self.least_moves() || n > max {
            return Err(Inapplicable::Length {
                stipulation: self,
                max,
            });
        }
        Ok(())
    }

    /// Whether the stipulation can be solved from `pos`: both Kings on the board where the game
    /// needs them ([`Variant::mate_needs_both_kings`]), and the side to move the one the
    /// stipulation starts with.
    ///
    /// # Errors
    /// [`Inapplicable::NeedsBothKings`] (checked first) and [`Inapplicable::WrongSide`].
    pub fn check_position<P: GamePosition>(self, pos: &P) -> Result<(), Inapplicable> {
        self.check_kings(pos)?;
        self.check_side(pos)
    }

    /// The side to move's half of [`Stipulation::check_position`].
    ///
    /// # Errors
    /// [`Inapplicable::WrongSide`].
    pub fn check_side<P: GamePosition>(self, pos: &P) -> Result<(), Inapplicable> {
        match self.starts() {
            Some(starts) if pos.turn() != starts => Err(Inapplicable::WrongSide {
                stipulation: self,
                starts,
                turn: pos.turn(),
            }),
            _ => Ok(()),
        }
    }

    /// The Kings' half of [`Stipulation::check_position`], for a position whose side to move
    /// the stipulation sets (a twin's).
    ///
    /// # Errors
    /// [`Inapplicable::NeedsBothKings`].
    pub fn check_kings<P: GamePosition>(self, pos: &P) -> Result<(), Inapplicable> {
        if Variant::mate_needs_both_kings(pos.variant().kind()) && !pos.has_both_kings() {
            return Err(Inapplicable::NeedsBothKings);
        }
        Ok(())
    }

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
            Stipulation::SeriesMate(n) => write!(f, "ser-#{n}"),
            Stipulation::SeriesStalemate(n) => write!(f, "ser-={n}"),
            Stipulation::SeriesSelfMate(n) => write!(f, "ser-s#{n}"),
            Stipulation::SeriesHelpMate(n) => write!(f, "ser-h#{n}"),
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
            "h=0.5", "h=2.5", "r#1", "r#3", "semi-r#2", "ser-#1", "ser-#10", "ser-=3", "ser-s#2",
            "ser-h#6",
        ] {
            let s = Stipulation::parse(text).unwrap();
            assert_eq!(s.to_string(), text);
            // The family and the length make the text again.
            let length = s.length();
            let n = match length.fract() == 0.0 {
                true => format!("{length}"),
                false => format!("{length:.1}"),
            };
            assert_eq!(format!("{}{n}", s.family()), text);
            assert!(Stipulation::FAMILIES.contains(&s.family()));
        }
        for bad in [
            "",
            "#",
            "#0",
            "s#0",
            "h#",
            "h#.5",
            "h#2.",
            "h#2.0",
            "#-1",
            "#2x",
            "##2",
            "s#99999",
            "=",
            "=0",
            "s=0",
            "h=0",
            "h=.5",
            "=#2",
            "#=2",
            "s",
            "h",
            "x=2",
            "s#2.5",
            "=2.5",
            "sh#2",
            "ser-",
            "ser-#",
            "ser-#0",
            "ser-h#2.5",
            "ser-h=2",
            "ser-s=2",
            "ser-r#2",
            "ser-x2",
            "ser#2",
            "ser-h",
            "ser-#-1",
            "ser-é",
            "é#2",
        ] {
            assert_eq!(Stipulation::parse(bad), None, "{bad}");
        }
        assert_eq!(Stipulation::parse("h#2").unwrap().help_plies(), Some(4));
        assert_eq!(Stipulation::parse("h#1.5").unwrap().help_plies(), Some(3));
    }

    #[test]
    fn series_lines_pass_between_the_series_moves() {
        let ser = Stipulation::SeriesMate(3);
        assert!((0..3)
            .map(|i| ser.passes_after(i, 3))
            .eq([true, true, false]));
        let help = Stipulation::SeriesHelpMate(2);
        assert!((0..3)
            .map(|i| help.passes_after(i, 3))
            .eq([true, false, false]));
        assert!(!Stipulation::HelpMate {
            moves: 2,
            half: false
        }
        .passes_after(0, 4));
        assert_eq!(ser.solution_plies(), 3);
        assert_eq!(Stipulation::SeriesSelfMate(3).solution_plies(), 3);
        assert_eq!(Stipulation::SeriesHelpMate(3).solution_plies(), 4);
        assert!(ser.lists_lines() && !ser.is_help() && !ser.is_self());
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
