//! Twins: positions derived from a diagram by commands, each solved with the diagram's
//! stipulation (or one a command sets), answered in order as `b)`, `c)`, ... (the diagram being
//! `a)`).
//!
//! Commands, several to a twin separated by `;`, squares named as the request names them:
//!
//! | command | effect |
//! |---|---|
//! | `move d4 e5` | the piece on d4 goes to e5 (a piece there is removed) |
//! | `exchange d4 e5` | the contents of the two squares are swapped |
//! | `remove d4` | the piece on d4 is removed |
//! | `add wPa3` | a piece is put on an empty square: colour (`w`, `b`), letter of the game's FEN, square |
//! | `rotate 90`, `180`, `270` | quarter turns clockwise as White sees the board (a1 goes to a8, a8 to h8) |
//! | `mirror a1<->h1`, `a1<->a8`, `a1<->h8` | files reversed, ranks reversed, or the a1-h8 diagonal (the game's corners: `a1<->j1` in Rococo) |
//! | `shift a1 b2` | every piece moved by that vector (refused if one would leave the board) |
//! | `polish` | the colours of all pieces swapped |
//! | `stipulation h#3` | the twin's stipulation |
//!
//! A twin starting with `continued` applies to the previous twin instead of the diagram. The side
//! to move is the one the twin's stipulation starts with (unchanged for `#N` and `=N`). A twin
//! whose position cannot arise is refused, naming it.

use crate::rules::{Color, GameNotation, GameRules, Naming, Piece, VariantPosition};
use crate::solver::Stipulation;

/// The most twins of a diagram: `b)` to `z)`.
pub const MAX_TWINS: usize = 25;

/// A position derived from the diagram.
#[derive(Clone, Debug)]
pub struct Twin {
    /// `b)`, `c)`, ...
    pub label: String,
    /// The commands, as written.
    pub text: String,
    /// The twin as problemists print it: pieces named by colour and the game's letter
    /// (`wKc7-->d7`, `wKc6<-->bAe2`, `+wPa3`, `-bPa3`), the other commands as written
    /// (`rotate 90`, `mirror a1<->h1`), several joined by `, `, `continued` kept in front.
    pub notation: String,
    pub position: VariantPosition,
    pub stipulation: Stipulation,
}

/// Why a twin is refused: its label and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("twin {label} `{text}`: {message}")]
pub struct TwinError {
    /// `b)`, `c)`, ...
    pub label: String,
    pub text: String,
    pub message: String,
}

/// The label of the twin at `index` among the twins (from 0): `b)` for the first.
pub fn label(index: usize) -> String {
    let letter = char::from(b'b' + u8::try_from(index.min(24)).unwrap_or(24));
    format!("{letter})")
}

/// A board as a grid of squares (index `rank * files + file`).
struct Grid {
    files: u8,
    squares: Vec<Option<Piece>>,
}

impl Grid {
    fn of(pos: &VariantPosition) -> Grid {
        let files = pos.variant().kind().files();
        let squares = (0..u16::from(files) * u16::from(files))
            .map(|sq| pos.piece_at(sq as u8))
            .collect();
        Grid { files, squares }
    }

    fn at(&self, file: i32, rank: i32) -> Option<usize> {
        let n = i32::from(self.files);
        ((0..n).contains(&file) && (0..n).contains(&rank)).then(|| (rank * n + file) as usize)
    }

    /// The grid with each piece moved to `to(file, rank)` (`None`: off the board).
    fn mapped(&self, to: impl Fn(i32, i32) -> Option<(i32, i32)>) -> Result<Grid, String> {
        let n = i32::from(self.files);
        let mut out = vec![None; self.squares.len()];
        for (sq, piece) in self.squares.iter().enumerate() {
            if let Some(p) = piece {
                let (file, rank) = (sq as i32 % n, sq as i32 / n);
                let target = to(file, rank)
                    .and_then(|(f, r)| self.at(f, r))
                    .ok_or_else(|| "a piece would leave the board".to_string())?;
                out[target] = Some(*p);
            }
        }
        Ok(Grid {
            files: self.files,
            squares: out,
        })
    }
}

/// Reads a square of `pos` named as `naming` says.
fn square(pos: &VariantPosition, name: &str, naming: Naming) -> Result<usize, String> {
    pos.parse_square(name, naming)
        .map(usize::from)
        .ok_or_else(|| format!("`{name}` is not a square"))
}

/// The piece written `wPa3`'s first two letters: colour and the game's FEN letter.
fn piece(pos: &VariantPosition, colour: char, letter: char) -> Result<Piece, String> {
    let color = match colour {
        'w' => Color::White,
        'b' => Color::Black,
        _ => return Err(format!("`{colour}` is not a colour: write w or b")),
    };
    pos.role_of_letter(letter)
        .map(|role| Piece::new(color, role))
        .ok_or_else(|| {
            format!(
                "`{letter}` is not a piece letter of {}",
                pos.variant().name()
            )
        })
}

/// A piece as problemists name it in a twin: colour, the game's letter, square (`wKc7`); a square
/// alone without a piece.
pub fn named(pos: &VariantPosition, piece: Option<Piece>, square: usize, naming: Naming) -> String {
    let name = pos.square_name(square as u8, naming);
    match piece {
        Some(p) => {
            let colour = match p.color {
                Color::White => 'w',
                Color::Black => 'b',
            };
            let letter = pos
                .piece_letter(Piece::new(Color::White, p.role), naming)
                .to_ascii_uppercase();
            format!("{colour}{letter}{name}")
        }
        None => name,
    }
}

/// A command as problemists print it, read against `grid` as it stands before the command:
/// `move` is `wKc7-->d7`, `exchange` `wKc6<-->bAe2`, `add` `+wPa3`, `remove` `-bPa3`; the others
/// as written.
fn notation(pos: &VariantPosition, grid: &Grid, command: &str, naming: Naming) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    let at = |name: &str| square(pos, name, naming).ok();
    let standing = |sq: usize| grid.squares.get(sq).copied().flatten();
    match words.as_slice() {
        ["move", from, to] => match (at(from), at(to)) {
            (Some(f), Some(t)) => format!(
                "{}-->{}",
                named(pos, standing(f), f, naming),
                pos.square_name(t as u8, naming)
            ),
            _ => command.to_string(),
        },
        ["exchange", a, b] => match (at(a), at(b)) {
            (Some(a), Some(b)) => format!(
                "{}<-->{}",
                named(pos, standing(a), a, naming),
                named(pos, standing(b), b, naming)
            ),
            _ => command.to_string(),
        },
        ["remove", sq] => match at(sq) {
            Some(sq) => format!("-{}", named(pos, standing(sq), sq, naming)),
            None => command.to_string(),
        },
        ["add", what] => {
            let mut chars = what.chars();
            let placed = match (chars.next(), chars.next()) {
                (Some(colour), Some(letter)) => piece(pos, colour, letter)
                    .ok()
                    .zip(at(chars.as_str()))
                    .map(|(p, sq)| named(pos, Some(p), sq, naming)),
                _ => None,
            };
            format!("+{}", placed.unwrap_or_else(|| what.to_string()))
        }
        _ => words.join(" "),
    }
}

/// Applies one command to `grid` (squares named in `pos`); a new stipulation when it sets one.
fn apply(
    pos: &VariantPosition,
    grid: Grid,
    command: &str,
    naming: Naming,
) -> Result<(Grid, Option<Stipulation>), String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let n = i32::from(grid.files);
    let last = n - 1;
    let mut grid = grid;
    match words.as_slice() {
        ["move", from, to] => {
            let (from, to) = (square(pos, from, naming)?, square(pos, to, naming)?);
            let p = grid.squares[from]
                .take()
                .ok_or_else(|| format!("no piece on {}", words[1]))?;
            grid.squares[to] = Some(p);
        }
        ["exchange", a, b] => {
            let (a, b) = (square(pos, a, naming)?, square(pos, b, naming)?);
            grid.squares.swap(a, b);
        }
        ["remove", at] => {
            let at = square(pos, at, naming)?;
            grid.squares[at]
                .take()
                .ok_or_else(|| format!("no piece on {}", words[1]))?;
        }
        ["add", what] => {
            let mut chars = what.chars();
            let (Some(colour), Some(letter)) = (chars.next(), chars.next()) else {
                return Err(format!(
                    "`{what}`: write colour, letter and square, as wPa3"
                ));
            };
            let p = piece(pos, colour, letter)?;
            let at = square(pos, chars.as_str(), naming)?;
            if grid.squares[at].is_some() {
                return Err(format!("{} is not empty", chars.as_str()));
            }
            grid.squares[at] = Some(p);
        }
        ["rotate", turns] => {
            grid = match *turns {
                "90" => grid.mapped(|f, r| Some((r, last - f)))?,
                "180" => grid.mapped(|f, r| Some((last - f, last - r)))?,
                "270" => grid.mapped(|f, r| Some((last - r, f)))?,
                _ => return Err(format!("rotate `{turns}`: write 90, 180 or 270")),
            };
        }
        ["mirror", pair] => {
            let (a, b) = pair
                .split_once("<->")
                .ok_or_else(|| format!("mirror `{pair}`: write a1<->h1, a1<->a8 or a1<->h8"))?;
            let (a, b) = (square(pos, a, naming)?, square(pos, b, naming)?);
            let at = |sq: usize| (sq as i32 % n, sq as i32 / n);
            grid = match (at(a), at(b)) {
                ((0, 0), (f, 0)) if f == last => grid.mapped(|f, r| Some((last - f, r)))?,
                ((0, 0), (0, r)) if r == last => grid.mapped(|f, r| Some((f, last - r)))?,
                ((0, 0), (f, r)) if f == last && r == last => grid.mapped(|f, r| Some((r, f)))?,
                _ => {
                    return Err(format!(
                        "mirror `{pair}`: name the corners a1 and the one across (files \
                         reversed, ranks reversed, or the diagonal)"
                    ))
                }
            };
        }
        ["shift", a, b] => {
            let (a, b) = (square(pos, a, naming)?, square(pos, b, naming)?);
            let (df, dr) = (b as i32 % n - a as i32 % n, b as i32 / n - a as i32 / n);
            grid = grid.mapped(|f, r| Some((f + df, r + dr)))?;
        }
        ["polish"] => {
            for p in grid.squares.iter_mut().flatten() {
                *p = Piece::new(p.color.other(), p.role);
            }
        }
        ["stipulation", text] => {
            let s = Stipulation::parse(text).ok_or_else(|| {
                format!(
                    "`{text}` is not a stipulation: write {}",
                    Stipulation::FORMS
                )
            })?;
            return Ok((grid, Some(s)));
        }
        _ => {
            return Err(format!(
                "`{command}` is not a twin command: write move, exchange, remove, add, rotate, \
                 mirror, shift, polish or stipulation"
            ))
        }
    }
    Ok((grid, None))
}

/// The twins of `diagram` (whose stipulation is `stipulation`) that `texts` describe, in order.
///
/// # Errors
/// The first twin that cannot be made: an unknown command, a square or piece that does not read,
/// a piece pushed off the board, or a position that cannot arise.
pub fn derive(
    diagram: &VariantPosition,
    stipulation: Stipulation,
    texts: &[String],
    naming: Naming,
) -> Result<Vec<Twin>, TwinError> {
    if texts.len() > MAX_TWINS {
        return Err(TwinError {
            label: format!("{})", texts.len() + 1),
            text: texts[MAX_TWINS].clone(),
            message: format!(
                "a diagram has at most {MAX_TWINS} twins (b) to z)); this is twin {}",
                MAX_TWINS + 1
            ),
        });
    }
    let mut twins: Vec<Twin> = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let label = label(i);
        let fail = |message: String| TwinError {
            label: label.clone(),
            text: text.clone(),
            message,
        };
        if i >= MAX_TWINS {
            return Err(fail(format!("a diagram has at most {MAX_TWINS} twins")));
        }
        let body = text.trim();
        let (from, from_stipulation, rest, continued) = match body.strip_prefix("continued") {
            Some(rest) => {
                let prev = twins
                    .last()
                    .ok_or_else(|| fail("`continued` needs a twin before it".into()))?;
                (prev.position, prev.stipulation, rest, true)
            }
            None => (*diagram, stipulation, body, false),
        };
        let (mut grid, mut stip) = (Grid::of(&from), from_stipulation);
        let commands: Vec<&str> = rest
            .split(';')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        if commands.is_empty() {
            return Err(fail("no command".into()));
        }
        let mut named_commands = Vec::with_capacity(commands.len());
        for command in commands {
            named_commands.push(notation(&from, &grid, command, naming));
            let (g, s) = apply(&from, grid, command, naming).map_err(&fail)?;
            grid = g;
            stip = s.unwrap_or(stip);
        }
        let notation = match continued {
            true => format!("continued {}", named_commands.join(", ")),
            false => named_commands.join(", "),
        };
        let turn = stip.starts().unwrap_or(from.turn());
        let pieces: Vec<(u8, Piece)> = grid
            .squares
            .iter()
            .enumerate()
            .filter_map(|(sq, p)| p.map(|p| (sq as u8, p)))
            .collect();
        let variant = from.variant();
        let made =
            <VariantPosition as crate::rules::GeneratorSetup>::from_setup(variant, &pieces, turn);
        // The twin's FEN read back as a diagram's would be: the position must be able to arise.
        let fen = made.fen(naming);
        let position = variant
            .position(&fen, naming)
            .map(|(p, _)| p)
            .map_err(|e| fail(format!("{fen}: {e}")))?;
        twins.push(Twin {
            label,
            text: text.clone(),
            notation,
            position,
            stipulation: stip,
        });
    }
    Ok(twins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn twin(fen: &str, texts: &[&str]) -> Result<Vec<String>, TwinError> {
        let variant = Variant::default();
        let (pos, _) = variant.position(fen, Naming::default()).unwrap();
        let texts: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
        derive(&pos, Stipulation::Mate(2), &texts, Naming::default()).map(|v| {
            v.iter()
                .map(|t| {
                    format!(
                        "{} {} {}",
                        t.label,
                        t.position.fen(Naming::default()),
                        t.stipulation
                    )
                })
                .collect()
        })
    }

    #[test]
    fn twins_are_named_as_problemists_print_them() {
        let variant = Variant::default();
        let fen = "7k/8/8/4M3/8/8/8/K7 w 0";
        let (pos, _) = variant.position(fen, Naming::default()).unwrap();
        let texts: Vec<String> = [
            "move e5 d4",
            "exchange a1 h8",
            "exchange e5 e4",
            "remove e5",
            "add bpa3",
            "rotate 90",
            "mirror a1<->h1",
            "move e5 d4; stipulation =1",
            "continued move d4 c3",
        ]
        .iter()
        .map(|t| t.to_string())
        .collect();
        let named: Vec<String> = derive(&pos, Stipulation::Mate(2), &texts, Naming::default())
            .unwrap()
            .into_iter()
            .map(|t| format!("{} {}", t.label, t.notation))
            .collect();
        assert_eq!(
            named,
            [
                "b) wMe5-->d4",
                "c) wKa1<-->bKh8",
                "d) wMe5<-->e4",
                "e) -wMe5",
                "f) +bPa3",
                "g) rotate 90",
                "h) mirror a1<->h1",
                "i) wMe5-->d4, stipulation =1",
                "j) continued wMd4-->c3",
            ]
        );
        // The game's letters: the Rococo Advancer is `A`.
        let rococo = Variant::of(crate::rules::GameKind::Rococo, None).unwrap();
        let (pos, _) = rococo
            .position("10/10/4k5/10/10/10/4A5/10/1K8/10 w 0", Naming::default())
            .unwrap();
        let b = derive(
            &pos,
            Stipulation::Mate(2),
            &["exchange b2 e4".into()],
            Naming::default(),
        )
        .unwrap();
        assert_eq!(b[0].notation, "wKb2<-->wAe4");
    }

    #[test]
    fn each_command_does_what_it_says() {
        let fen = "7k/8/8/4M3/8/8/8/K7 w 0";
        let got = twin(
            fen,
            &[
                "move e5 d4",
                "exchange a1 h8",
                "remove e5",
                "add bPa3",
                "rotate 90",
                "rotate 180",
                "mirror a1<->h1",
                "mirror a1<->a8",
                "mirror a1<->h8",
                "stipulation h#2",
                "move e5 d4; stipulation =1",
                "continued move d4 c3",
            ],
        )
        .unwrap();
        assert_eq!(
            got,
            [
                "b) 7k/8/8/8/3M4/8/8/K7 w 0 #2",
                "c) 7K/8/8/4M3/8/8/8/k7 w 0 #2",
                "d) 7k/8/8/8/8/8/8/K7 w 0 #2",
                "e) 7k/8/8/4M3/8/p7/8/K7 w 0 #2",
                // A quarter turn: a1 goes to a8, h8 to h1, e5 to e4.
                "f) K7/8/8/8/4M3/8/8/7k w 0 #2",
                "g) 7K/8/8/8/3M4/8/8/k7 w 0 #2",
                "h) k7/8/8/3M4/8/8/8/7K w 0 #2",
                "i) K7/8/8/8/4M3/8/8/7k w 0 #2",
                "j) 7k/8/8/4M3/8/8/8/K7 w 0 #2",
                // A helpmate starts with Black.
                "k) 7k/8/8/4M3/8/8/8/K7 b 0 h#2",
                "l) 7k/8/8/8/3M4/8/8/K7 w 0 =1",
                "m) 7k/8/8/8/8/2M5/8/K7 w 0 =1",
            ]
        );
        let shifted = twin("8/8/3k4/8/4M3/8/2K5/8 w 0", &["shift a1 b2", "polish"]).unwrap();
        assert_eq!(
            shifted,
            [
                "b) 8/4k3/8/5M2/8/3K4/8/8 w 0 #2",
                "c) 8/8/3K4/8/4m3/8/2k5/8 w 0 #2"
            ]
        );
    }

    #[test]
    fn a_twin_that_cannot_be_made_is_named() {
        let fen = "7k/8/8/4M3/8/8/8/K7 w 0";
        for (texts, label, says) in [
            (&["move e5 d4", "shift a1 b2"][..], "c)", "leave the board"),
            (
                &["continued remove e5"][..],
                "b)",
                "`continued` needs a twin",
            ),
            (&["rotate 45"][..], "b)", "write 90, 180 or 270"),
            (&["add wQz9"][..], "b)", "`z9` is not a square"),
            (&["add wZa2"][..], "b)", "`Z` is not a piece letter"),
            (&["add wWa2", "continued add wKb2"][..], "c)", "King"),
            (&["remove d4"][..], "b)", "no piece on d4"),
            (&["add wKb1"][..], "b)", "King"),
            (&["jump a1"][..], "b)", "is not a twin command"),
            (&["mirror a1<->h2"][..], "b)", "name the corners"),
        ] {
            let texts: Vec<&str> = texts.to_vec();
            let e = twin(fen, &texts).unwrap_err();
            assert_eq!(e.label, label, "{texts:?}");
            assert!(e.message.contains(says), "{texts:?}: {}", e.message);
        }
    }
}
