//! Diagram cases: the rule diagrams of a document written as data (the format of
//! `fixtures/README.md`), and their verification with the rules engine.

use crate::rules::{
    GamePosition, Naming, Position, Preset, Rules, Status, Variant, VariantPosition,
};
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
pub use crate::rules::GameKind as Game;

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
    /// The position; empty when `diagram` names it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub fen: String,
    /// A diagram of a document whose position the case is about, instead of `fen`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagram: Option<DiagramRef>,
    /// Where an unlabelled text grid of `diagram` stands on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub placement: Option<Placement>,
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
    /// Exactly the moves of one piece in the position after `moves`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destinations: Option<Destinations>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The marks of the case's diagram, claims about one piece's moves (set by
    /// [`crate::cases::resolve`], never read from a file).
    #[serde(skip)]
    pub marks: Option<Marks>,
}

/// A diagram of a document: `{"document": "docs/rules.wiki", "index": 3}` (1-based, in document
/// order) or `{"document": ..., "caption_contains": "Long-Leaper"}` (the first diagram whose
/// caption, or the text after it, contains the words). The path is relative to the case file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagramRef {
    pub document: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption_contains: Option<String>,
    /// The document's format (`mediawiki`, `html`, `markdown`, `text`) when its extension does
    /// not say it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// Where a text grid without labels stands: `{"game": "rococo", "top_left": "b9"}`, and the
/// square of the piece its marks belong to when it is not the only piece of its colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    #[serde(default)]
    pub game: Game,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_left: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// `true` to read upper case as Black (a board drawn with the colours exchanged).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exchange_colours: bool,
}

/// A diagram's marks: claims about the moves of the piece on `from` (squares in standard names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The piece's square.
    pub from: String,
    /// `+`: exactly the moves that capture nothing.
    pub quiet: Vec<String>,
    /// `*`: exactly the landing squares of the capturing moves.
    pub landing: Vec<String>,
    /// `[p]`: pieces some move captures.
    pub capturable: Vec<String>,
}

/// The claim that the piece on `from` has exactly these moves: `quiet` destinations (moves that
/// capture nothing and swap nothing) and `captures` (every other move, with what it takes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Destinations {
    pub from: String,
    #[serde(default)]
    pub quiet: Vec<String>,
    #[serde(default)]
    pub captures: Vec<Destination>,
}

/// A capturing destination and what the move takes.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Destination {
    pub to: String,
    pub captures: Vec<SquarePiece>,
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

/// Plays one move given as text (squares in `naming`), reporting what it did in the same naming.
/// In Rococo, a move that takes the enemy King leaves the opponent `checkmate`: the game is over.
///
/// # Errors
/// The move's refusal.
pub fn play_text<P: GamePosition>(
    pos: &P,
    text: &str,
    naming: Naming,
) -> Result<(P::Move, PlayedMove, P), crate::rules::MoveError> {
    let mv = pos.parse_move(text, naming)?;
    let after = pos.play(&mv);
    let info = pos.move_info(&mv, naming);
    let played = PlayedMove {
        notation: info.notation,
        uci: info.uci,
        captures: info.captures,
        fen_after: after.fen(naming),
        status_after: pos.status_after(&mv, &after),
        frozen_after: after.square_pieces(after.frozen(), naming),
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
        let mut pos =
            match read_position(game, &self.fen, self.rules.as_ref().map(|_| self.rules())) {
                Ok(p) => p,
                Err(e) => {
                    out.problems.push(e);
                    return out;
                }
            };
        if self.moves.is_empty() && self.destinations.is_none() && self.marks.is_none() {
            out.problems
                .push("the case lists no move and no destinations".into());
            return out;
        }
        let last = self.moves.len().saturating_sub(1);
        for (i, text) in self.moves.iter().enumerate() {
            match play_case_move(&pos, text) {
                Err((code, e)) if i < last => {
                    out.problems
                        .push(format!("move {} `{text}` is illegal ({code}): {e}", i + 1));
                    return out;
                }
                Err((code, e)) => {
                    if self.legal {
                        out.problems
                            .push(format!("`{text}` should be legal, but {e} ({code})"));
                    } else if let Some(reason) = &self.reason {
                        if reason != code {
                            out.problems.push(format!(
                                "`{text}` is illegal as expected, but for `{code}` rather than `{reason}`: {e}"
                            ));
                        }
                    }
                    return out;
                }
                Ok((played, after)) => {
                    if i == last {
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
                    pos = after;
                }
            }
        }
        if let Some(want) = &self.destinations {
            match destinations(&pos, &want.from) {
                Err(e) => out.problems.push(e),
                Ok(got) => compare_destinations(want, &got, &mut out.problems),
            }
        }
        if let Some(marks) = &self.marks {
            match destinations(&pos, &marks.from) {
                Err(e) => out.problems.push(e),
                Ok(got) => compare_marks(marks, &got, &mut out.problems),
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

/// A case whose diagram is resolved: the case with the diagram's position (and marks), its game,
/// and the diagram named for messages (`diagram 3 (docs/rules.wiki:45)`).
#[derive(Clone, Debug)]
pub struct Resolved {
    pub case: Case,
    pub game: Game,
    pub source: Option<String>,
    /// The document's path (the case file's directory joined to it) and the diagram's line.
    pub at: Option<(std::path::PathBuf, usize)>,
}

/// The square `(file, rank)` (0-based) of a standard square name such as `b9`.
fn square_of(name: &str) -> Option<(usize, usize)> {
    let mut chars = name.chars();
    let file = chars.next().filter(char::is_ascii_lowercase)?;
    let rank: usize = chars.as_str().parse().ok()?;
    (rank >= 1).then(|| ((file as u8 - b'a') as usize, rank - 1))
}

/// A FEN with the side to move set.
fn with_turn(fen: &str, black: bool) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let turn = if black { "b" } else { "w" };
    if fields.len() >= 2 {
        fields[1] = turn;
    } else {
        fields.push(turn);
    }
    fields.join(" ")
}

/// Resolves a case's `diagram`: the position from the document (found relative to `base`, read
/// through `library`), placed by `placement` when it is a grid without labels, and its marks as
/// claims about the one piece they belong to. A case without `diagram` comes back as it is.
///
/// # Errors
/// A document that cannot be read, no such diagram, a diagram that cannot be read, a grid without
/// placement, or marks whose piece is not known; every message names the diagram and its line.
pub fn resolve(
    case: &Case,
    game: Game,
    base: &Path,
    library: &mut crate::documents::Library,
) -> Result<Resolved, String> {
    use crate::documents::{Content, Format, Reading};
    let Some(r) = &case.diagram else {
        return Ok(Resolved {
            case: case.clone(),
            game,
            source: None,
            at: None,
        });
    };
    if !case.fen.is_empty() {
        return Err("give `fen` or `diagram`, not both".into());
    }
    let format = match &r.format {
        None => None,
        Some(f) => Some(Format::parse(f).ok_or_else(|| {
            format!("diagram.format `{f}`: write mediawiki, html, markdown or text")
        })?),
    };
    let path = base.join(&r.document);
    let diagrams = library.diagrams(&path, format)?;
    let d = match (r.index, &r.caption_contains) {
        (Some(i), None) => diagrams.get(i.wrapping_sub(1)).ok_or_else(|| {
            format!(
                "{} has {} diagrams: there is no diagram {i}",
                r.document,
                diagrams.len()
            )
        })?,
        (None, Some(words)) => diagrams
            .iter()
            .find(|d| d.caption().contains(words.as_str()) || d.after().contains(words.as_str()))
            .ok_or_else(|| {
                format!(
                    "no diagram of {} has `{words}` in its caption ({} diagrams)",
                    r.document,
                    diagrams.len()
                )
            })?,
        _ => return Err("diagram: give `index` or `caption_contains`, one of them".into()),
    };
    let source = format!("diagram {} ({}:{})", d.index, r.document, d.at().line);
    let exchange = case.placement.as_ref().is_some_and(|p| p.exchange_colours);
    let (game, fen, placed) = match (&d.found.content, &d.reading) {
        (Ok(Content::Grid(grid)), _) => {
            let p = case.placement.as_ref().ok_or_else(|| {
                format!(
                    "{source} is a grid without labels: give `placement`, such as {{\"game\": \"rococo\", \"top_left\": \"b9\"}}"
                )
            })?;
            let corner = p.top_left.as_deref().ok_or_else(|| {
                format!("{source}: `placement` needs `top_left`, the square of the grid's top-left cell")
            })?;
            let (file, rank) = square_of(corner)
                .ok_or_else(|| format!("placement.top_left `{corner}` is not a square"))?;
            let placed = grid
                .place(p.game, file, rank, false)
                .map_err(|e| format!("{source}: line {}: {}", e.at.line, e.message))?;
            (p.game, placed.fen.clone(), Some(placed))
        }
        (_, Reading::Unreadable(e)) => {
            return Err(format!(
                "{source} is unreadable: line {}, column {}: {}",
                e.at.line, e.at.column, e.message
            ))
        }
        (Ok(Content::Board { placed, .. }), _) => (
            d.found.game,
            d.fen().unwrap_or_default().to_string(),
            placed.clone().filter(|p| p.has_marks()),
        ),
        _ => (d.found.game, d.fen().unwrap_or_default().to_string(), None),
    };
    let mut fen = if exchange {
        crate::documents::exchange_colours(&fen)
    } else {
        fen
    };
    let mut out = case.clone();
    if let Some(placed) = placed.filter(|p| p.has_marks()) {
        let white = |c: char| c.is_ascii_uppercase() != exchange;
        let from = match case.placement.as_ref().and_then(|p| p.from.clone()) {
            Some(f) => f,
            None => {
                let whites: Vec<_> = placed.pieces.iter().filter(|p| white(p.1)).collect();
                let blacks: Vec<_> = placed.pieces.iter().filter(|p| !white(p.1)).collect();
                match (whites.as_slice(), blacks.as_slice()) {
                    ([one], _) | ([], [one]) => one.0.clone(),
                    _ => {
                        return Err(format!(
                            "{source}: its marks belong to one piece, and neither side has only one: name its square in `placement.from`"
                        ))
                    }
                }
            }
        };
        let piece = placed
            .pieces
            .iter()
            .find(|p| p.0 == from)
            .ok_or_else(|| format!("{source}: placement.from {from} holds no piece"))?;
        fen = with_turn(&fen, !white(piece.1));
        out.marks = Some(Marks {
            from,
            quiet: placed.quiet.clone(),
            landing: placed.landing.clone(),
            capturable: placed.capturable.clone(),
        });
    }
    out.fen = fen;
    Ok(Resolved {
        case: out,
        game,
        source: Some(source),
        at: Some((path, d.at().line)),
    })
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

/// Reads a case's position: the variant of `game` under the case's rules (none for a game without
/// rule sets), a FEN of it that can arise.
fn read_position(
    game: Game,
    fen: &str,
    rules: Option<Result<Rules, String>>,
) -> Result<VariantPosition, String> {
    let rules = rules
        .transpose()
        .map_err(|e| format!("rules: {e}"))?
        .filter(|_| Variant::has_rule_sets(game));
    let variant = Variant::of(game, rules).map_err(|e| format!("rules: {e}"))?;
    variant
        .position(fen, Naming::default())
        .map(|(p, _)| p)
        .map_err(|e| format!("fen: {e}"))
}

/// Plays a move written as text: what it did and the position after, or the reason code and
/// message of its refusal.
fn play_case_move(
    pos: &VariantPosition,
    text: &str,
) -> Result<(PlayedMove, VariantPosition), (&'static str, String)> {
    play_text(pos, text, Naming::default())
        .map(|(_, played, after)| (played, after))
        .map_err(|e| (e.kind.code(), e.message))
}

/// The quiet destinations and the capturing moves of the piece on `from` (a promotion is neither:
/// the claims name squares, not what a piece becomes).
fn destinations(
    pos: &VariantPosition,
    from: &str,
) -> Result<(Vec<String>, Vec<Destination>), String> {
    let naming = Naming::default();
    let s = pos
        .parse_square(from, naming)
        .ok_or_else(|| format!("destinations: `{from}` is not a square"))?;
    let mut quiet = Vec::new();
    let mut caps = Vec::new();
    for m in pos.legal_moves() {
        let (mfrom, to) = VariantPosition::squares(&m);
        if mfrom != s || VariantPosition::promotion(&m).is_some() {
            continue;
        }
        let to = pos.square_name(to, naming);
        let captures = VariantPosition::captures(&m);
        // A game that reports kinds of moves: only a plain move is quiet (a swap or a suicide is
        // listed with what it takes).
        let plain = VariantPosition::kind_name(&m).is_none_or(|k| k == "normal");
        if captures == 0 && plain {
            quiet.push(to);
        } else {
            caps.push(Destination {
                to,
                captures: pos.square_pieces(captures, naming),
            });
        }
    }
    Ok((quiet, caps))
}

fn compare_destinations(
    want: &Destinations,
    got: &(Vec<String>, Vec<Destination>),
    problems: &mut Vec<String>,
) {
    let set = |v: &[String]| v.iter().cloned().collect::<BTreeSet<String>>();
    let (wq, gq) = (set(&want.quiet), set(&got.0));
    if wq != gq {
        let missing: Vec<_> = wq.difference(&gq).cloned().collect();
        let extra: Vec<_> = gq.difference(&wq).cloned().collect();
        problems.push(format!(
            "quiet moves from {}: missing {missing:?}, not expected {extra:?}",
            want.from
        ));
    }
    let norm = |v: &[Destination]| {
        v.iter()
            .map(|d| {
                let mut c = d.captures.clone();
                c.sort();
                (d.to.clone(), c)
            })
            .collect::<BTreeSet<_>>()
    };
    let (wc, gc) = (norm(&want.captures), norm(&got.1));
    if wc != gc {
        let show = |s: BTreeSet<&(String, Vec<SquarePiece>)>| {
            s.iter()
                .map(|(to, c)| format!("{to} taking {}", list(&c.iter().cloned().collect())))
                .collect::<Vec<_>>()
                .join("; ")
        };
        problems.push(format!(
            "capturing moves from {}: missing [{}], not expected [{}]",
            want.from,
            show(wc.difference(&gc).collect()),
            show(gc.difference(&wc).collect())
        ));
    }
}

/// Compares a diagram's marks with the moves of the piece: `+` squares are exactly its quiet
/// destinations, `*` squares exactly the landing squares of its capturing moves (besides those
/// landing on a `[p]` piece they take), and every `[p]` piece is taken by some move.
fn compare_marks(marks: &Marks, got: &(Vec<String>, Vec<Destination>), problems: &mut Vec<String>) {
    let set = |v: &[String]| v.iter().cloned().collect::<BTreeSet<String>>();
    let mut diff = |mark: &str, what: &str, want: BTreeSet<String>, got: BTreeSet<String>| {
        if want != got {
            let marked: Vec<_> = want.difference(&got).cloned().collect();
            let unmarked: Vec<_> = got.difference(&want).cloned().collect();
            let mut parts = Vec::new();
            if !marked.is_empty() {
                parts.push(format!("marked but not such moves: {}", marked.join(" ")));
            }
            if !unmarked.is_empty() {
                parts.push(format!("such moves not marked: {}", unmarked.join(" ")));
            }
            problems.push(format!(
                "the diagram's `{mark}` marks ({what} of {}): {}",
                marks.from,
                parts.join("; ")
            ));
        }
    };
    diff(
        "+",
        "moves capturing nothing",
        set(&marks.quiet),
        set(&got.0),
    );
    // A capture that lands on the `[p]` piece it takes (by replacement) is marked by the `[p]`.
    let landing: BTreeSet<String> = got
        .1
        .iter()
        .map(|d| d.to.clone())
        .filter(|to| !marks.capturable.contains(to) || marks.landing.contains(to))
        .collect();
    diff(
        "*",
        "landing squares of captures",
        set(&marks.landing),
        landing,
    );
    let taken: BTreeSet<String> = got
        .1
        .iter()
        .flat_map(|d| d.captures.iter().map(|c| c.square.clone()))
        .collect();
    let missing: Vec<_> = marks
        .capturable
        .iter()
        .filter(|s| !taken.contains(*s))
        .collect();
    if !missing.is_empty() {
        problems.push(format!(
            "the diagram's `[p]` marks: no move of {} captures {missing:?}",
            marks.from
        ));
    }
}
