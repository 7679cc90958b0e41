//! Rule sets: the presets of RULES.md and the options that override them.
//!
//! | rule | `abbott` (default) | `cambridge` | `vchess` |
//! |---|---|---|---|
//! | freezing | next to an enemy Immobilizer; an Immobilizer next to an enemy Chameleon | cancelled by a friendly Immobilizer or Chameleon next to the enemy Immobilizer | as `cambridge` |
//! | Chameleon combines captures | yes | a leaping move takes only the leapers | yes |
//!
//! Options: `leaper` (`long` or `single`), `suicide` (`on` or `off`), `stalemate` (`draw` or `loss`).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A named preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Abbott's 1962 rules as the Wikipedia article states them.
    #[default]
    Abbott,
    /// The Cambridge variant: immobilization cancelled by a friendly Immobilizer or Chameleon next to
    /// the enemy Immobilizer; the Chameleon captures only what the imitated piece's own move could.
    Cambridge,
    /// The rules the vchess page states: Cambridge immobilization, combining Chameleon.
    Vchess,
}

impl Preset {
    /// Every preset: abbott, cambridge, vchess.
    pub const ALL: [Preset; 3] = [Preset::Abbott, Preset::Cambridge, Preset::Vchess];

    /// The preset's name as written in rule names and JSON (`abbott`, `cambridge`, `vchess`).
    pub fn name(self) -> &'static str {
        match self {
            Preset::Abbott => "abbott",
            Preset::Cambridge => "cambridge",
            Preset::Vchess => "vchess",
        }
    }

    /// One sentence describing the preset.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Abbott => "Abbott's rules as in the Wikipedia article (the default): every piece next to an enemy Immobilizer is frozen, an Immobilizer next to an enemy Chameleon is frozen, and a Chameleon may combine all its captures in one move.",
            Preset::Cambridge => "The Cambridge variant: an enemy Immobilizer's power is cancelled when a friendly Immobilizer or Chameleon stands next to it (so Kings and Withdrawers can take an Immobilizer), and a Chameleon captures only what the imitated piece's own move could (a leaping move takes only the leapers).",
            Preset::Vchess => "The rules of the vchess page: Cambridge immobilization with its cancellation, and a Chameleon that combines all its captures in one move.",
        }
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown rule set `{s}`: expected abbott, cambridge or vchess"))
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How far a Long Leaper (and a Chameleon imitating one) leaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Leaper {
    /// Several captures in one line, stopping on any empty square after any victim.
    #[default]
    Long,
    /// Only the first enemy piece, landing on the square right behind it.
    Single,
}

/// What a side with no move gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stalemate {
    /// The game is drawn (the default).
    #[default]
    Draw,
    /// The side that cannot move loses.
    Loss,
}

/// How immobilization works.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Freezing {
    /// Every piece next to an enemy Immobilizer is frozen; no cancellation.
    Abbott,
    /// A friendly Immobilizer or Chameleon next to the enemy Immobilizer cancels its power.
    Cambridge,
}

/// A complete rule set: a preset with its options applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// The preset the options apply to (it decides freezing and how a Chameleon combines captures).
    pub preset: Preset,
    /// How far a Long Leaper leaps (option `leaper`).
    pub leaper: Leaper,
    /// Whether a frozen piece other than the King may remove itself as its move (option `suicide`).
    pub suicide: bool,
    /// What a stalemated side gets (option `stalemate`).
    pub stalemate: Stalemate,
}

impl Rules {
    /// A preset with its default options.
    pub fn preset(preset: Preset) -> Rules {
        Rules {
            preset,
            ..Rules::default()
        }
    }

    /// How immobilization works: Abbott's under `abbott`, Cambridge's under `cambridge` and
    /// `vchess`.
    #[inline(always)]
    pub fn freezing(&self) -> Freezing {
        match self.preset {
            Preset::Abbott => Freezing::Abbott,
            Preset::Cambridge | Preset::Vchess => Freezing::Cambridge,
        }
    }

    /// Whether a Chameleon combines captures of different kinds with its leaps.
    #[inline(always)]
    pub fn chameleon_combines(&self) -> bool {
        self.preset != Preset::Cambridge
    }

    /// Whether the options are those of the preset alone.
    pub fn is_plain_preset(&self) -> bool {
        *self == Rules::preset(self.preset)
    }
}

impl fmt::Display for Rules {
    /// `abbott`, or `abbott+suicide` style names when options differ from the preset's defaults:
    /// `leaper=single`, `suicide=on`, `stalemate=loss`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.preset.name())?;
        if self.leaper == Leaper::Single {
            f.write_str(",leaper=single")?;
        }
        if self.suicide {
            f.write_str(",suicide=on")?;
        }
        if self.stalemate == Stalemate::Loss {
            f.write_str(",stalemate=loss")?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = String;
    /// Reads the form [`Rules`]'s `Display` writes: a preset, then `,option=value` items.
    fn from_str(s: &str) -> Result<Self, String> {
        let mut parts = s.split(',');
        let mut rules = Rules::preset(parts.next().unwrap_or("").trim().parse()?);
        for part in parts {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("rule option `{part}` must be written name=value"))?;
            rules.set_option(k.trim(), v.trim())?;
        }
        Ok(rules)
    }
}

impl Rules {
    /// Sets one option by name: `leaper` (`long`/`single`), `suicide` (`on`/`off`), `stalemate`
    /// (`draw`/`loss`).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match (name, value) {
            ("leaper", "long") => self.leaper = Leaper::Long,
            ("leaper", "single") => self.leaper = Leaper::Single,
            ("suicide", "on") => self.suicide = true,
            ("suicide", "off") => self.suicide = false,
            ("stalemate", "draw") => self.stalemate = Stalemate::Draw,
            ("stalemate", "loss") => self.stalemate = Stalemate::Loss,
            ("leaper", v) => return Err(format!("leaper must be long or single, not `{v}`")),
            ("suicide", v) => return Err(format!("suicide must be on or off, not `{v}`")),
            ("stalemate", v) => return Err(format!("stalemate must be draw or loss, not `{v}`")),
            (k, _) => {
                return Err(format!(
                    "unknown rule option `{k}`: expected leaper, suicide or stalemate"
                ))
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_round_trip_through_text() {
        for s in [
            "abbott",
            "cambridge,leaper=single",
            "vchess,suicide=on,stalemate=loss",
        ] {
            let r: Rules = s.parse().unwrap();
            assert_eq!(r.to_string(), s);
        }
        assert!("abbot".parse::<Rules>().is_err());
        assert!("abbott,suicide=maybe".parse::<Rules>().is_err());
        assert_eq!(Rules::default().freezing(), Freezing::Abbott);
        assert!(!Rules::preset(Preset::Cambridge).chameleon_combines());
    }
}
