//! The verified outcome of a puzzle, typed: what verification found, stored with the puzzle, shown
//! by the API and read by difficulty, play and the exchange formats. This module is its one
//! schema: [`PuzzleOutcome::to_json`] writes the stored JSON and [`PuzzleOutcome::read`] reads it.
//!
//! Every object's members are declared in alphabetical order, the order the stored text has
//! always had, so that a row reads and writes back byte for byte (and an export with it). Members
//! an older outcome lacks read as empty; the two that say whether a proof was cut short stay
//! absent when absent, which reads as cut.

use crate::fixtures::cases::{Destination, Destinations};
use crate::rules::{MoveInfo, SquarePiece};
use crate::solver::help::NamedHelpSolution;
use crate::solver::tree::{NamedAttack, NamedDefence};
use crate::solver::{NamedKey, NamedSolution, NamedThreat, NamedTry, Outcome, Stipulation};
use serde::{Deserialize, Serialize};

/// A puzzle's verified outcome: a diagram's last move, a solve of `#N` or `s#N`, or a helpmate's
/// solution lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PuzzleOutcome {
    Diagram(DiagramOutcome),
    Keys(KeysOutcome),
    Help(HelpOutcome),
}

/// Why a stored outcome does not read.
#[derive(Debug, thiserror::Error)]
#[error("its outcome does not read as a {what}: {source}")]
pub struct UnreadableOutcome {
    what: &'static str,
    source: serde_json::Error,
}

impl PuzzleOutcome {
    /// Reads the stored JSON of the outcome of a puzzle of `stipulation` (`None`: a diagram).
    ///
    /// # Errors
    /// The text is not such an outcome.
    pub fn read(
        stipulation: Option<Stipulation>,
        json: &str,
    ) -> Result<PuzzleOutcome, UnreadableOutcome> {
        let failed = |what| move |source| UnreadableOutcome { what, source };
        match stipulation {
            None => serde_json::from_str(json)
                .map(PuzzleOutcome::Diagram)
                .map_err(failed("diagram's outcome")),
            Some(s) if s.lists_lines() => serde_json::from_str(json)
                .map(PuzzleOutcome::Help)
                .map_err(failed("helpmate's solution")),
            Some(_) => serde_json::from_str(json)
                .map(PuzzleOutcome::Keys)
                .map_err(failed("mate's solution")),
        }
    }

    /// The stored JSON.
    pub fn to_json(&self) -> String {
        // Strings, numbers, booleans and sequences only: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }

    /// The proof of `#N` or `s#N`, when this is one.
    pub fn keys(&self) -> Option<&KeysOutcome> {
        match self {
            PuzzleOutcome::Keys(k) => Some(k),
            _ => None,
        }
    }

    /// A helpmate's lines, when this is one.
    pub fn help(&self) -> Option<&HelpOutcome> {
        match self {
            PuzzleOutcome::Help(h) => Some(h),
            _ => None,
        }
    }

    /// Whether the puzzle is sound, when this is a mate's outcome that says.
    pub fn sound(&self) -> Option<bool> {
        match self {
            PuzzleOutcome::Keys(k) => k.sound,
            PuzzleOutcome::Help(h) => h.sound,
            PuzzleOutcome::Diagram(_) => None,
        }
    }

    /// A mate's result (`mate` for every stored mate puzzle).
    pub fn result(&self) -> Option<Outcome> {
        match self {
            PuzzleOutcome::Keys(k) => k.result,
            PuzzleOutcome::Help(h) => h.result,
            PuzzleOutcome::Diagram(_) => None,
        }
    }
}

/// A piece a move took or froze, as stored: `{"piece": "q", "square": "d3"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    /// The piece's letter, upper case for White (chess-style letters).
    pub piece: String,
    pub square: String,
}

impl From<&SquarePiece> for Piece {
    fn from(p: &SquarePiece) -> Piece {
        Piece {
            piece: p.piece.clone(),
            square: p.square.clone(),
        }
    }
}

fn pieces(v: &[SquarePiece]) -> Vec<Piece> {
    v.iter().map(Piece::from).collect()
}

/// A move of a stored outcome: notation (standard naming), machine form, captures.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMove {
    #[serde(default)]
    pub captures: Vec<Piece>,
    pub notation: String,
    pub uci: String,
}

impl From<&MoveInfo> for StoredMove {
    fn from(m: &MoveInfo) -> StoredMove {
        StoredMove {
            captures: pieces(&m.captures),
            notation: m.notation.clone(),
            uci: m.uci.clone(),
        }
    }
}

fn moves(v: &[MoveInfo]) -> Vec<StoredMove> {
    v.iter().map(StoredMove::from).collect()
}

/// What a diagram's verification found: its last move, legal with what it did or illegal with
/// the claimed reason (nothing when the diagram has no move), and the moves of one piece when
/// claimed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiagramOutcome {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captures: Option<Vec<Piece>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destinations: Option<StoredDestinations>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen_after: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frozen: Option<Vec<Piece>>,
    /// Absent when the diagram has no move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notation: Option<String>,
    /// An illegal move's reason as claimed: present (maybe null) exactly when the move is illegal.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "present"
    )]
    pub reason: Option<Option<String>>,
    /// The status after a legal move (`ongoing`, `check`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uci: Option<String>,
}

/// A member that is present, null or not: `Some` of its value.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// The last move of a diagram as verified.
pub struct LegalMove<'a> {
    pub notation: &'a str,
    pub uci: &'a str,
    pub captures: &'a [SquarePiece],
    pub status: &'static str,
    pub frozen: &'a [SquarePiece],
    pub fen_after: &'a str,
}

impl DiagramOutcome {
    /// A diagram whose last move is legal and did this.
    pub fn legal(m: LegalMove<'_>, destinations: Option<&Destinations>) -> DiagramOutcome {
        DiagramOutcome {
            captures: Some(pieces(m.captures)),
            destinations: destinations.map(StoredDestinations::from),
            fen_after: Some(m.fen_after.to_string()),
            frozen: Some(pieces(m.frozen)),
            legal: Some(true),
            notation: Some(m.notation.to_string()),
            reason: None,
            status: Some(m.status.to_string()),
            uci: Some(m.uci.to_string()),
        }
    }

    /// A diagram whose last move is illegal for this reason (as claimed).
    pub fn illegal(reason: Option<&str>, destinations: Option<&Destinations>) -> DiagramOutcome {
        DiagramOutcome {
            legal: Some(false),
            reason: Some(reason.map(str::to_string)),
            destinations: destinations.map(StoredDestinations::from),
            ..DiagramOutcome::default()
        }
    }

    /// A diagram without a move.
    pub fn no_move(destinations: Option<&Destinations>) -> DiagramOutcome {
        DiagramOutcome {
            destinations: destinations.map(StoredDestinations::from),
            ..DiagramOutcome::default()
        }
    }
}

/// The claimed moves of one piece, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredDestinations {
    #[serde(default)]
    pub captures: Vec<StoredDestination>,
    pub from: String,
    #[serde(default)]
    pub quiet: Vec<String>,
}

/// A capturing destination and what it takes, as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredDestination {
    pub captures: Vec<Piece>,
    pub to: String,
}

impl From<&Destinations> for StoredDestinations {
    fn from(d: &Destinations) -> StoredDestinations {
        StoredDestinations {
            captures: d
                .captures
                .iter()
                .map(|c: &Destination| StoredDestination {
                    captures: pieces(&c.captures),
                    to: c.to.clone(),
                })
                .collect(),
            from: d.from.clone(),
            quiet: d.quiet.clone(),
        }
    }
}

impl From<&StoredDestinations> for Destinations {
    fn from(d: &StoredDestinations) -> Destinations {
        Destinations {
            from: d.from.clone(),
            quiet: d.quiet.clone(),
            captures: d
                .captures
                .iter()
                .map(|c| Destination {
                    to: c.to.clone(),
                    captures: c.captures.iter().map(SquarePiece::from).collect(),
                })
                .collect(),
        }
    }
}

impl From<&Piece> for SquarePiece {
    fn from(p: &Piece) -> SquarePiece {
        SquarePiece {
            square: p.square.clone(),
            piece: p.piece.clone(),
        }
    }
}

/// The solve of `#N` or `s#N` a mate puzzle stores: every key, the solution tree, threats and
/// tries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeysOutcome {
    #[serde(default)]
    pub cooks: Vec<Key>,
    /// Every first move that reaches the goal in time, shortest first.
    #[serde(default)]
    pub keys: Vec<Key>,
    #[serde(default)]
    pub mate_in: Option<u32>,
    #[serde(default)]
    pub result: Option<Outcome>,
    #[serde(default)]
    pub short_solutions: Vec<Key>,
    #[serde(default)]
    pub sound: Option<bool>,
    #[serde(default, with = "text", skip_serializing_if = "Option::is_none")]
    pub stipulation: Option<Stipulation>,
    #[serde(default)]
    pub threats: Vec<Threat>,
    #[serde(default)]
    pub tree: Vec<Attack>,
    /// Whether the tree was cut short (absent: not known, so taken as cut).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree_truncated: Option<bool>,
    #[serde(default)]
    pub tries: Vec<Try>,
}

/// A key, with its length in attacker moves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Key {
    #[serde(default)]
    pub captures: Vec<Piece>,
    pub mate_in: u32,
    pub notation: String,
    pub uci: String,
}

impl From<&NamedKey> for Key {
    fn from(k: &NamedKey) -> Key {
        Key {
            captures: pieces(&k.info.captures),
            mate_in: k.mate_in,
            notation: k.info.notation.clone(),
            uci: k.info.uci.clone(),
        }
    }
}

/// A key's threat: the attacker moves that would reach the goal after a pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Threat {
    pub key: StoredMove,
    #[serde(default)]
    pub moves: Vec<StoredMove>,
}

/// A try and the defences that refute it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Try {
    #[serde(default)]
    pub captures: Vec<Piece>,
    pub notation: String,
    #[serde(default)]
    pub refutations: Vec<StoredMove>,
    pub uci: String,
}

/// An attacker move of a stored solution tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attack {
    #[serde(default)]
    pub captures: Vec<Piece>,
    /// Every defence, with the attacker moves that still win in time.
    #[serde(default)]
    pub defences: Vec<Defence>,
    /// The forced end's length from here, this move included.
    #[serde(default)]
    pub mate_in: u32,
    #[serde(default)]
    pub mates: bool,
    pub notation: String,
    /// What would win were the defender allowed to pass; absent after a check or at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threat: Option<Vec<StoredMove>>,
    pub uci: String,
}

/// A defender move of a stored solution tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Defence {
    #[serde(default)]
    pub captures: Vec<Piece>,
    /// More than one attacker move wins in time after it.
    #[serde(default)]
    pub dual: bool,
    /// The defence reaches the goal (a selfmate's mate).
    #[serde(default)]
    pub mates: bool,
    pub notation: String,
    #[serde(default)]
    pub replies: Vec<Attack>,
    pub uci: String,
}

impl From<&NamedAttack> for Attack {
    fn from(a: &NamedAttack) -> Attack {
        Attack {
            captures: pieces(&a.info.captures),
            defences: a.defences.iter().map(Defence::from).collect(),
            mate_in: a.mate_in,
            mates: a.mates,
            notation: a.info.notation.clone(),
            threat: a.threat.as_deref().map(moves),
            uci: a.info.uci.clone(),
        }
    }
}

impl From<&NamedDefence> for Defence {
    fn from(d: &NamedDefence) -> Defence {
        Defence {
            captures: pieces(&d.info.captures),
            dual: d.dual,
            mates: d.mates,
            notation: d.info.notation.clone(),
            replies: d.replies.iter().map(Attack::from).collect(),
            uci: d.info.uci.clone(),
        }
    }
}

impl From<&NamedThreat> for Threat {
    fn from(t: &NamedThreat) -> Threat {
        Threat {
            key: StoredMove::from(&t.key),
            moves: moves(&t.moves),
        }
    }
}

impl From<&NamedTry> for Try {
    fn from(t: &NamedTry) -> Try {
        Try {
            captures: pieces(&t.info.captures),
            notation: t.info.notation.clone(),
            refutations: moves(&t.refutations),
            uci: t.info.uci.clone(),
        }
    }
}

impl KeysOutcome {
    /// What a puzzle of `stipulation` stores of its solve.
    pub fn of(stipulation: Stipulation, s: &NamedSolution) -> KeysOutcome {
        let keys = |v: &[NamedKey]| v.iter().map(Key::from).collect();
        KeysOutcome {
            cooks: keys(&s.cooks),
            keys: keys(&s.keys),
            mate_in: s.mate_in,
            result: Some(s.result),
            short_solutions: keys(&s.short_solutions),
            sound: s.sound,
            stipulation: Some(stipulation),
            threats: s.threats.iter().map(Threat::from).collect(),
            tree: s.tree.iter().map(Attack::from).collect(),
            tree_truncated: Some(s.tree_truncated),
            tries: s.tries.iter().map(Try::from).collect(),
        }
    }
}

/// The solution lines of a helpmate a puzzle stores.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HelpOutcome {
    /// The number of solutions, all counted even when lines were left out.
    #[serde(default)]
    pub count: usize,
    #[serde(default)]
    pub result: Option<Outcome>,
    /// The solutions of shorter helpmates of the same start.
    #[serde(default)]
    pub short_solutions: Vec<Vec<StoredMove>>,
    #[serde(default)]
    pub solutions: Vec<Vec<StoredMove>>,
    /// Whether lines were left out of `solutions` or `short_solutions` (absent: taken as cut).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solutions_truncated: Option<bool>,
    #[serde(default)]
    pub sound: Option<bool>,
    #[serde(default, with = "text", skip_serializing_if = "Option::is_none")]
    pub stipulation: Option<Stipulation>,
}

impl HelpOutcome {
    /// What a helpmate of `stipulation` stores of its solve: at most `most` lines of each length.
    pub fn of(stipulation: Stipulation, h: &NamedHelpSolution, most: usize) -> HelpOutcome {
        let kept = |lines: &[Vec<MoveInfo>]| -> Vec<Vec<StoredMove>> {
            lines[..lines.len().min(most)]
                .iter()
                .map(|l| moves(l))
                .collect()
        };
        let cut = h.solutions.len().max(h.short_solutions.len()) > most;
        HelpOutcome {
            count: h.count,
            result: Some(if h.count > 0 {
                Outcome::Mate
            } else {
                Outcome::NoMate
            }),
            short_solutions: kept(&h.short_solutions),
            solutions: kept(&h.solutions),
            solutions_truncated: Some(h.lines_truncated || cut),
            sound: h.sound,
            stipulation: Some(stipulation),
        }
    }

    /// Keeps at most `most` lines of each length; whether any were dropped.
    pub fn cap(&mut self, most: usize) -> bool {
        let cut = self.solutions.len().max(self.short_solutions.len()) > most;
        if cut {
            self.solutions.truncate(most);
            self.short_solutions.truncate(most);
            self.solutions_truncated = Some(true);
        }
        cut
    }
}

/// A stipulation as its text (`#2`, `h#2.5`).
mod text {
    use crate::solver::Stipulation;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(s: &Option<Stipulation>, to: S) -> Result<S::Ok, S::Error> {
        match s {
            Some(s) => to.collect_str(s),
            None => to.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Stipulation>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(text) => Stipulation::parse(&text)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a stipulation"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_text_reads_and_writes_back_byte_for_byte() {
        let texts = [
            (None, r##"{}"##),
            (
                None,
                r##"{"destinations":{"captures":[{"captures":[{"piece":"p","square":"d4"}],"to":"d5"}],"from":"d3","quiet":["d2"]}}"##,
            ),
            (
                None,
                r##"{"captures":[{"piece":"p","square":"c3"}],"fen_after":"8/8/8/8/8/8/8/8 b 0","frozen":[],"legal":true,"notation":"Pc2xc4","status":"ongoing","uci":"c2c4"}"##,
            ),
            (None, r##"{"legal":false,"reason":null}"##),
            (None, r##"{"legal":false,"reason":"frozen"}"##),
            (
                Some("#2"),
                r##"{"cooks":[],"keys":[{"captures":[],"mate_in":2,"notation":"Ka1-a2","uci":"a1a2"}],"mate_in":2,"result":"mate","short_solutions":[],"sound":true,"stipulation":"#2","threats":[{"key":{"captures":[],"notation":"Ka1-a2","uci":"a1a2"},"moves":[]}],"tree":[{"captures":[],"defences":[{"captures":[],"dual":false,"mates":false,"notation":"Kh8-h7","replies":[{"captures":[],"defences":[],"mate_in":1,"mates":true,"notation":"Ka2-b2","uci":"a2b2"}],"uci":"h8h7"}],"mate_in":2,"mates":false,"notation":"Ka1-a2","threat":[],"uci":"a1a2"}],"tree_truncated":false,"tries":[{"captures":[],"notation":"Ka1-b1","refutations":[{"captures":[],"notation":"Kh8-g8","uci":"h8g8"}],"uci":"a1b1"}]}"##,
            ),
            (
                Some("h#1"),
                r##"{"count":1,"result":"mate","short_solutions":[],"solutions":[[{"captures":[],"notation":"Kd3-c2","uci":"d3c2"},{"captures":[],"notation":"Kb4-c3","uci":"b4c3"}]],"solutions_truncated":false,"sound":true,"stipulation":"h#1"}"##,
            ),
        ];
        for (stipulation, text) in texts {
            let s = stipulation.and_then(Stipulation::parse);
            let read = PuzzleOutcome::read(s, text).unwrap();
            assert_eq!(read.to_json(), text);
        }
    }

    #[test]
    fn an_outcome_of_another_shape_is_an_error_naming_it() {
        let s = Stipulation::parse("#2");
        let e = PuzzleOutcome::read(s, r##"{"keys": 3}"##).unwrap_err();
        assert!(e.to_string().contains("mate's solution"), "{e}");
        assert!(PuzzleOutcome::read(None, "true").is_err());
    }
}
