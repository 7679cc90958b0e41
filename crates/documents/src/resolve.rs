//! A diagram case's `diagram` resolved from its rule document: the position, its placement and
//! its marks as claims (see [`baroque_puzzle::fixtures::cases`]).

use crate::cases::{Case, Marks};
use crate::rules::GameKind;
use std::path::Path;

/// A case whose diagram is resolved: the case with the diagram's position (and marks), its game,
/// and the diagram named for messages (`diagram 3 (docs/rules.wiki:45)`).
#[derive(Clone, Debug)]
pub struct Resolved {
    pub case: Case,
    pub game: GameKind,
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
    game: GameKind,
    base: &Path,
    library: &mut crate::Library,
) -> Result<Resolved, String> {
    use crate::{Content, Format, Reading};
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
        crate::exchange_colours(&fen)
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
