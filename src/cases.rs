//! Diagram cases: the rule diagrams of a document written as data (the format of
//! `fixtures/README.md`), and their verification with the rules engine.

use crate::rules::{Letters, Move, Position, Preset, Rules, Status};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// A rule set as requests and files write it: a preset name, or a preset with options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RulesSpec {
    Name(String),
    Options(RuleOptions),
}

/// A preset with options; absent options keep the preset's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleOptions {
    #[serde(default)]
    pub preset: Option<String>,
    #[serde(default)]
    pub leaper: Option<String>,
    #[serde(default)]
    pub suicide: Option<String>,
    #[serde(default)]
    pub stalemate: Option<String>,
}

impl RulesSpec {
    /// The rule set, or a message naming what is wrong.
    pub fn to_rules(&self) -> Result<Rules, String> {
        match self {
            RulesSpec::Name(n) => Ok(Rules::preset(n.parse::<Preset>()?)),
            RulesSpec::Options(o) => {
                let preset = match &o.preset {
                    Some(p) => p.parse::<Preset>()?,
                    None => Preset::default(),
                };
                let mut r = Rules::preset(preset);
                for (name, value) in [
                    ("leaper", &o.leaper),
                    ("suicide", &o.suicide),
                    ("stalemate", &o.stalemate),
                ] {
                    if let Some(v) = value {
                        r.set_option(name, v)?;
                    }
                }
                Ok(r)
            }
        }
    }

    /// The spec that describes `rules`: a bare name when the options are the preset's.
    pub fn from_rules(rules: &Rules) -> RulesSpec {
        if rules.is_plain_preset() {
            return RulesSpec::Name(rules.preset.name().to_string());
        }
        let o = RuleOptions {
            preset: Some(rules.preset.name().into()),
            leaper: Some(format!("{:?}", rules.leaper).to_lowercase()),
            suicide: Some(if rules.suicide { "on" } else { "off" }.into()),
            stalemate: Some(format!("{:?}", rules.stalemate).to_lowercase()),
        };
        RulesSpec::Options(o)
    }
}

pub use crate::rules::SquarePiece;

/// The pieces on the squares of a set, lowest square first.
pub fn square_pieces(pos: &Position, set: u64) -> Vec<SquarePiece> {
    pos.square_pieces(set)
}

/// Which game a file's diagrams belong to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Game {
    #[default]
    Baroque,
    Rococo,
}

/// A file of cases.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    pub document: String,
    #[serde(default)]
    pub game: Game,
    pub cases: Vec<Case>,
}

/// One claim of a document about a diagram.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    pub fen: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<RulesSpec>,
    pub moves: Vec<String>,
    #[serde(default = "yes")]
    pub legal: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captures: Option<Vec<SquarePiece>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frozen: Option<Vec<SquarePiece>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn yes() -> bool {
    true
}

/// What the engine found for a case.
#[derive(Clone, Debug, Serialize)]
pub struct CaseOutcome {
    pub id: String,
    /// Every way the engine disagrees with the case; empty when it passes.
    pub problems: Vec<String>,
    /// The last move as played, when legal.
    pub last_move: Option<PlayedMove>,
}

impl CaseOutcome {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// A move the engine accepted, with what it did.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedMove {
    pub notation: String,
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    pub fen_after: String,
    pub status_after: Status,
    pub frozen_after: Vec<SquarePiece>,
}

/// Plays one move given as text, reporting what it did.
pub fn play_text(
    pos: &Position,
    text: &str,
) -> Result<(Move, PlayedMove, Position), crate::rules::MoveError> {
    let mv = pos.parse_move(text)?;
    let after = pos.after(&mv);
    let played = PlayedMove {
        notation: pos.move_name(&mv, Letters::Chess),
        uci: mv.uci(),
        captures: square_pieces(pos, mv.captures),
        fen_after: after.fen(Letters::Chess),
        status_after: after.status(),
        frozen_after: square_pieces(&after, after.frozen()),
    };
    Ok((mv, played, after))
}

fn sorted(v: &[SquarePiece]) -> BTreeSet<SquarePiece> {
    v.iter().cloned().collect()
}

fn list(v: &BTreeSet<SquarePiece>) -> String {
    if v.is_empty() {
        return "nothing".into();
    }
    v.iter()
        .map(|p| format!("{}{}", p.piece, p.square))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Case {
    /// The rule set of the case (default `abbott`).
    pub fn rules(&self) -> Result<Rules, String> {
        match &self.rules {
            None => Ok(Rules::default()),
            Some(spec) => spec.to_rules(),
        }
    }

    /// Checks the case against the engine.
    pub fn verify(&self, game: Game) -> CaseOutcome {
        let mut out = CaseOutcome {
            id: self.id.clone(),
            problems: Vec::new(),
            last_move: None,
        };
        if game != Game::Baroque {
            out.problems
                .push("only Baroque cases can be checked so far".into());
            return out;
        }
        let rules = match self.rules() {
            Ok(r) => r,
            Err(e) => {
                out.problems.push(format!("rules: {e}"));
                return out;
            }
        };
        let mut pos = match Position::from_fen_validated(&self.fen, rules) {
            Ok(p) => p,
            Err(e) => {
                out.problems.push(format!("fen: {e}"));
                return out;
            }
        };
        if self.moves.is_empty() {
            out.problems.push("the case lists no move".into());
            return out;
        }
        let last = self.moves.len() - 1;
        for (i, text) in self.moves.iter().enumerate() {
            match play_text(&pos, text) {
                Err(e) if i < last => {
                    out.problems
                        .push(format!("move {} `{text}` is illegal: {e}", i + 1));
                    return out;
                }
                Err(e) => {
                    if self.legal {
                        out.problems
                            .push(format!("`{text}` should be legal, but {e} ({})", e.kind));
                    } else if let Some(reason) = &self.reason {
                        if reason != e.kind.code() {
                            out.problems.push(format!(
                                "`{text}` is illegal as expected, but for `{}` rather than `{reason}`: {e}",
                                e.kind
                            ));
                        }
                    }
                }
                Ok((_, played, _)) if i == last => {
                    if !self.legal {
                        out.problems.push(format!(
                            "`{text}` should be illegal, but the engine plays it as {} capturing {}",
                            played.notation,
                            list(&sorted(&played.captures))
                        ));
                    } else {
                        self.compare(&played, &mut out.problems);
                    }
                    out.last_move = Some(played);
                }
                Ok((_, _, after)) => pos = after,
            }
        }
        out
    }

    fn compare(&self, played: &PlayedMove, problems: &mut Vec<String>) {
        match &self.captures {
            Some(expected) => {
                let (want, got) = (sorted(expected), sorted(&played.captures));
                if want != got {
                    problems.push(format!(
                        "{} captures {}, expected {}",
                        played.notation,
                        list(&got),
                        list(&want)
                    ));
                }
            }
            None => problems.push("a legal case must list its `captures` ([] for none)".into()),
        }
        if let Some(status) = &self.status {
            if status != played.status_after.name() {
                problems.push(format!(
                    "the status after {} is {}, expected {status}",
                    played.notation,
                    played.status_after.name()
                ));
            }
        }
        if let Some(frozen) = &self.frozen {
            let (want, got) = (sorted(frozen), sorted(&played.frozen_after));
            if want != got {
                problems.push(format!(
                    "after {} the frozen pieces are {}, expected {}",
                    played.notation,
                    list(&got),
                    list(&want)
                ));
            }
        }
    }
}

/// Reads a case file.
pub fn read_file(path: &Path) -> Result<CaseFile, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Every case file under a directory (`*.json`, sorted by name).
pub fn files_in(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    Ok(v)
}
