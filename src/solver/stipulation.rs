//! What a solve must prove: a stipulation, as problemists write it. Only the direct mate exists
//! today (`#N`); the search, the tree and the solution take the stipulation, so that others can be
//! added beside it.

use std::fmt;

/// A stipulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stipulation {
    /// `#N`: the side to move forces mate (in Rococo, the capture of the enemy King) with its Nth
    /// move at the latest, against every defence.
    Mate(u32),
}

impl Stipulation {
    /// The number of moves of the side that starts (N of `#N`).
    pub fn moves(self) -> u32 {
        match self {
            Stipulation::Mate(n) => n,
        }
    }

    /// Reads `#N`.
    ///
    /// ```
    /// use baroque::solver::Stipulation;
    /// assert_eq!(Stipulation::parse("#2"), Some(Stipulation::Mate(2)));
    /// assert_eq!(Stipulation::Mate(3).to_string(), "#3");
    /// assert_eq!(Stipulation::parse("h#2"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Stipulation> {
        let n = text.trim().strip_prefix('#')?;
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        n.parse().ok().map(Stipulation::Mate)
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
        }
    }
}
