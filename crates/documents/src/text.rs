//! Plain-text boards of the chessvariants kind: rows of cells between `+---+` borders.
//!
//! ```text
//!    +---+---+---+
//! 00 | * | * | * |      a labelled row: a rank label, then the cells
//!    +---+---+---+
//!  8 | * |:W:| L |      `:W:` a White Withdrawer on a dark square
//!    +---+---+---+
//!      x   a   b
//! ```
//!
//! The rows of a copied page may be flattened onto one line (`+---+---+ | p |:::| +---+---+ ...`):
//! a board is any run of borders with one row of cells between each two. A cell holds a piece
//! letter (upper case White), nothing (an empty square; `:::` a dark one), `*`, `+` or `[p]`
//! (a piece that can be captured); the colons of a dark square may surround any of these. In a
//! labelled Rococo board `*` on an edge square is the edge (an empty square); elsewhere `*` marks
//! the landing square of a capture and `+` a square reached without capturing.
//!
//! The Rococo page writes the Chameleon `C`; it is read as our `X`. A labelled board whose rank
//! labels grow downwards (rank 1 at the top) is drawn from Black's side and read turned half a turn.

use super::{collapse, Content, Found, Lines, Located, Place};
use crate::rules::GameKind;

/// What a cell of a text board holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// An empty square.
    Empty,
    /// A piece letter, upper case White.
    Piece(char),
    /// `*`: the edge in a labelled Rococo board, else the landing square of a capture.
    Star,
    /// `+`: a square reached without capturing.
    Plus,
    /// `[p]`: a piece that can be captured.
    Capturable(char),
}

/// A cell and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridCell {
    /// Where its text starts.
    pub at: Place,
    /// What it holds.
    pub cell: Cell,
}

/// A text board's cells, row by row from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Cells in a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells, row by row from the top, each row from the left.
    pub cells: Vec<GridCell>,
    /// Whether the board has rank or file labels (its squares are then known).
    pub labelled: bool,
    /// Where the board starts.
    pub at: Place,
}

/// A grid placed on a board: its FEN (White to move unless placed otherwise) and the squares its
/// marks stand on (standard names: files a.., ranks 1..).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placed {
    /// The position.
    pub fen: String,
    /// `+` squares.
    pub quiet: Vec<String>,
    /// `*` squares (not the edge of a labelled Rococo board).
    pub landing: Vec<String>,
    /// `[p]` squares.
    pub capturable: Vec<String>,
    /// Every piece: square, letter as drawn.
    pub pieces: Vec<(String, char)>,
}

impl Placed {
    /// Whether the board carries marks.
    pub fn has_marks(&self) -> bool {
        !(self.quiet.is_empty() && self.landing.is_empty() && self.capturable.is_empty())
    }
}

/// A square's standard name: file letter, rank number.
fn name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

impl Grid {
    /// Places the grid on a board of `game` with its top-left cell on `(file, rank)` (0-based),
    /// `black` to move or White.
    ///
    /// # Errors
    /// A grid that does not fit there, or a letter that is no piece of the game (located at its
    /// cell).
    pub fn place(
        &self,
        game: GameKind,
        file: usize,
        rank: usize,
        black: bool,
    ) -> Result<Placed, Located> {
        let n = usize::from(game.files());
        if file + self.width > n || rank >= n || rank + 1 < self.height {
            return Err(Located::new(
                self.at,
                format!(
                    "a grid of {}x{} with its top-left cell on {} does not fit on the {} board",
                    self.width,
                    self.height,
                    name(file, rank),
                    game.name()
                ),
            ));
        }
        let mut board: Vec<Option<char>> = vec![None; n * n];
        let mut placed = Placed::default();
        for (i, gc) in self.cells.iter().enumerate() {
            let (f, r) = (file + i % self.width, rank - i / self.width);
            let sq = r * n + f;
            let letter = |c: char| -> Result<char, Located> {
                let c = match (game, c) {
                    (GameKind::Rococo, 'C') => 'X',
                    (GameKind::Rococo, 'c') => 'x',
                    _ => c,
                };
                if game.role_of_letter(c).is_some() {
                    Ok(c)
                } else {
                    Err(Located::new(
                        gc.at,
                        format!(
                            "`{c}` is not a {} piece (letters {})",
                            game.name(),
                            game.letters()
                                .chars()
                                .map(String::from)
                                .collect::<Vec<_>>()
                                .join(" ")
                        ),
                    ))
                }
            };
            match gc.cell {
                Cell::Empty => {}
                Cell::Piece(c) => {
                    board[sq] = Some(letter(c)?);
                    placed.pieces.push((name(f, r), c));
                }
                Cell::Capturable(c) => {
                    board[sq] = Some(letter(c)?);
                    placed.pieces.push((name(f, r), c));
                    placed.capturable.push(name(f, r));
                }
                Cell::Plus => placed.quiet.push(name(f, r)),
                Cell::Star => {
                    if !(self.labelled && game.is_edge(sq as u8)) {
                        placed.landing.push(name(f, r));
                    }
                }
            }
        }
        let mut fen = super::board_fen(
            (0..n)
                .rev()
                .map(|r| board[r * n..(r + 1) * n].iter().copied()),
        );
        fen.push_str(if black { " b" } else { " w" });
        placed.fen = fen;
        Ok(placed)
    }
}

/// A border: its byte range and its number of cells.
struct Border {
    start: usize,
    end: usize,
    cells: usize,
}

fn borders(text: &str) -> Vec<Border> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'+' {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i + 1;
        let mut cells = 0;
        loop {
            let mut k = j;
            while k < b.len() && b[k] == b'-' {
                k += 1;
            }
            if k - j >= 2 && k < b.len() && b[k] == b'+' {
                cells += 1;
                j = k + 1;
            } else {
                break;
            }
        }
        if cells > 0 {
            out.push(Border {
                start,
                end: j,
                cells,
            });
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// A row of a board: its label, if any, and its cells (byte offset, text).
type Row<'a> = (Option<&'a str>, Vec<(usize, &'a str)>);

/// A row between two borders: its label and its cells (byte offset, text), if `between` is one.
fn row(text: &str, from: usize, to: usize) -> Option<Row<'_>> {
    let between = &text[from..to];
    let t = between.trim();
    if t.is_empty() || t.contains('\n') || !t.ends_with('|') {
        return None;
    }
    let t_at = from + (between.len() - between.trim_start().len());
    let bar = t.find('|')?;
    let label = t[..bar].trim();
    if label.chars().count() > 3 || label.contains(char::is_whitespace) {
        return None;
    }
    let mut cells = Vec::new();
    let mut start = t_at + bar + 1;
    for (i, c) in t[bar + 1..].char_indices() {
        if c == '|' {
            let at = t_at + bar + 1 + i;
            cells.push((start, &text[start..at]));
            start = at + 1;
        }
    }
    Some(((!label.is_empty()).then_some(label), cells))
}

/// A cell's content, or `None` when it is none of the forms.
fn cell(raw: &str) -> Option<Cell> {
    let mut s = raw.trim();
    if s.len() >= 2 && s.starts_with(':') && s.ends_with(':') {
        s = s[1..s.len() - 1].trim();
    }
    if s.is_empty() || s == ":" {
        return Some(Cell::Empty);
    }
    if let Some(inner) = s.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
        let mut chars = inner.trim().chars();
        return match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Some(Cell::Capturable(c)),
            _ => None,
        };
    }
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some('*'), None) => Some(Cell::Star),
        (Some('+'), None) => Some(Cell::Plus),
        (Some(c), None) if c.is_ascii_alphabetic() => Some(Cell::Piece(c)),
        _ => None,
    }
}

pub(super) fn read(text: &str) -> Vec<Found> {
    let lines = Lines::new(text);
    let borders = borders(text);
    let mut out = Vec::new();
    let mut k = 0;
    while k < borders.len() {
        let mut rows = Vec::new();
        let mut j = k;
        while j + 1 < borders.len() {
            match row(text, borders[j].end, borders[j + 1].start) {
                Some(r) => {
                    rows.push(r);
                    j += 1;
                }
                None => break,
            }
        }
        if rows.is_empty() {
            k += 1;
            continue;
        }
        out.push(board(text, &lines, &borders[k..=j], &rows));
        k = j + 1;
    }
    out
}

/// The end of the window a reader looks at after `end` (a char boundary).
fn ahead(text: &str, end: usize) -> usize {
    let mut e = (end + super::CAPTION_WINDOW).min(text.len());
    while !text.is_char_boundary(e) {
        e += 1;
    }
    e
}

/// Whether rank labels grow down the board (rank 1 at the top): the board is drawn from Black's
/// side, turned half a turn. Labels such as the Rococo page's `0` and `00` are left out.
fn drawn_from_blacks_side(rows: &[Row]) -> bool {
    let ranks: Vec<usize> = rows
        .iter()
        .filter_map(|r| r.0)
        .filter(|l| !l.starts_with('0'))
        .filter_map(|l| l.parse().ok())
        .collect();
    matches!((ranks.first(), ranks.last()), (Some(a), Some(b)) if a < b)
}

/// The file labels after a board's last border, if the next text is one label per cell.
fn file_labels(text: &str, end: usize, width: usize) -> bool {
    let rest = &text[end..ahead(text, end)];
    let line = rest
        .split('\n')
        .take(2)
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let line_is_next = !line.is_empty();
    let tokens: Vec<&str> = line
        .trim()
        .trim_end_matches('|')
        .split_whitespace()
        .collect();
    line_is_next
        && tokens.len() == width
        && tokens
            .iter()
            .all(|t| t.len() <= 3 && t.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// The text standing for a board's caption: the section title before it and the text after its
/// last border on the same line.
fn caption(text: &str, start: usize, end: usize, labelled: bool) -> String {
    let before = &text[super::window_start(text, start, super::CAPTION_WINDOW)..start];
    let title = before.lines().rev().find_map(|l| {
        let l = l.trim().trim_end_matches('|').trim();
        l.strip_prefix("![]()")
            .or_else(|| l.strip_prefix('#').map(|h| h.trim_start_matches('#')))
            .map(|t| t.trim().to_string())
    });
    let title = title.or_else(|| {
        before
            .lines()
            .rev()
            .map(|l| l.trim().trim_end_matches('|').trim())
            .find(|l| !l.is_empty() && !l.starts_with('+'))
            .map(str::to_string)
    });
    let tail = text[end..ahead(text, end)].split('\n').next().unwrap_or("");
    let tail = if labelled {
        ""
    } else {
        tail.trim().trim_end_matches('|')
    };
    collapse(
        &[title.unwrap_or_default(), tail.to_string()]
            .into_iter()
            .filter(|s| !s.trim().is_empty())
            .collect::<Vec<_>>()
            .join(": "),
    )
}

fn board(text: &str, lines: &Lines, borders: &[Border], rows: &[Row]) -> Found {
    let first = &borders[0];
    let last = &borders[borders.len() - 1];
    let at = lines.place(first.start);
    let width = first.cells;
    let labelled = rows.iter().any(|r| r.0.is_some()) || file_labels(text, last.end, width);
    let found = |content| Found {
        at,
        caption: caption(text, first.start, last.end, labelled),
        after: String::new(),
        game: GameKind::Baroque,
        rules: None,
        content,
    };
    let mut cells = Vec::new();
    for (i, (label, row)) in rows.iter().enumerate() {
        if let Some(b) = borders.iter().find(|b| b.cells != width) {
            return found(Err(Located::new(
                lines.place(b.start),
                format!(
                    "ragged board: this border has {} cells, the board's first border {width}",
                    b.cells
                ),
            )));
        }
        if row.len() != width {
            let row_at = row.first().map_or(borders[i].end, |c| c.0);
            return found(Err(Located::new(
                lines.place(row_at.saturating_sub(1)),
                format!(
                    "ragged board: row {}{} has {} cells, its borders {width}",
                    i + 1,
                    label.map_or(String::new(), |l| format!(" (rank {l})")),
                    row.len()
                ),
            )));
        }
        for &(offset, raw) in row {
            let lead = raw.len() - raw.trim_start().len();
            let place = lines.place(offset + lead);
            match cell(raw) {
                Some(c) => cells.push(GridCell { at: place, cell: c }),
                None => {
                    return found(Err(Located::new(
                        place,
                        format!(
                            "cell `{}` is neither a piece letter, an empty square (`:::` dark), `*`, `+` nor `[p]`",
                            raw.trim()
                        ),
                    )))
                }
            }
        }
    }
    if drawn_from_blacks_side(rows) {
        cells.reverse();
    }
    let grid = Grid {
        width,
        height: rows.len(),
        cells,
        labelled,
        at,
    };
    if !labelled {
        return found(Ok(Content::Grid(grid)));
    }
    let Some(game) = GameKind::of_board(grid.width, grid.height) else {
        let (w, h) = (grid.width, grid.height);
        return found(Err(Located::new(
            at,
            format!("a labelled board is 8x8 (Baroque) or 10x10 (Rococo); this one is {w}x{h}"),
        )));
    };
    let n = usize::from(game.files());
    let content = grid
        .place(game, 0, n - 1, false)
        .map(|placed| Content::Board {
            fen: placed.fen.clone(),
            placed: Some(placed),
        });
    Found {
        game,
        ..found(content)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LABELLED: &str = "Intro\n   +---+---+---+---+---+---+---+---+\n 8 |   |   |   |:k:|   |   |   |   |\n   +---+---+---+---+---+---+---+---+\n 7 |   |   |   |   |   |   |   |   |\n   +---+---+---+---+---+---+---+---+\n 6 |   |   |   |   |   |   |   |   |\n   +---+---+---+---+---+---+---+---+\n 5 |   |   |   |   |   |   |   |   |\n   +---+---+---+---+---+---+---+---+\n 4 |   |   |   |   |   |   |   |   |\n   +---+---+---+---+---+---+---+---+\n 3 |   |   |   |   |   |   |   |   |\n   +---+---+---+---+---+---+---+---+\n 2 |   |   |   |   |   |   |   |   |\n   +---+---+---+---+---+---+---+---+\n 1 |   |   |   |   | K |   |   |   |\n   +---+---+---+---+---+---+---+---+\n     a   b   c   d   e   f   g   h\n";

    #[test]
    fn a_labelled_board_is_a_position() {
        let f = read(LABELLED);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].at, Place { line: 2, column: 4 });
        assert_eq!(f[0].game, GameKind::Baroque);
        match &f[0].content {
            Ok(Content::Board { fen, .. }) => assert_eq!(fen, "3k4/8/8/8/8/8/8/4K3 w"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_flattened_grid_is_kept_for_a_case() {
        let t = "Title\n+---+---+---+ | + |:A:| * | +---+---+---+ |:::|[p]| | +---+---+---+Text after. |\n";
        let f = read(t);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].caption, "Title: Text after.");
        let Ok(Content::Grid(g)) = &f[0].content else {
            panic!("{:?}", f[0].content)
        };
        assert_eq!((g.width, g.height), (3, 2));
        let p = g.place(GameKind::Rococo, 1, 8, false).unwrap();
        assert_eq!(p.fen, "10/2A7/2p7/10/10/10/10/10/10/10 w");
        assert_eq!(p.quiet, ["b9"]);
        assert_eq!(p.landing, ["d9"]);
        assert_eq!(p.capturable, ["c8"]);
        assert!(g.place(GameKind::Rococo, 8, 8, false).is_err());
    }

    #[test]
    fn a_ragged_border_a_wrong_size_and_a_wrong_letter_are_located() {
        let t = "+---+---+\n| K |   |\n+---+---+---+\n| k |   |\n+---+---+\n";
        let e = read(t).remove(0).content.unwrap_err();
        assert_eq!(e.at, Place { line: 3, column: 1 });
        assert!(e.message.contains("border has 3 cells"), "{}", e.message);
        let row = |l: &str| format!("{l} |   |   |   |\n+---+---+---+\n");
        let t = format!("+---+---+---+\n{}{}{}", row("3"), row("2"), row("1"));
        let e = read(&t).remove(0).content.unwrap_err();
        assert!(
            e.message.contains("8x8 (Baroque) or 10x10"),
            "{}",
            e.message
        );
        let mut rows = String::from("   +");
        rows.push_str(&"---+".repeat(10));
        rows.push('\n');
        for r in (1..=10).rev() {
            let cells = if r == 5 { " Q |" } else { "   |" };
            rows.push_str(&format!(
                "{r:>2} |{}{}\n   +{}\n",
                cells,
                "   |".repeat(9),
                "---+".repeat(10)
            ));
        }
        let e = read(&rows).remove(0).content.unwrap_err();
        assert_eq!(
            e.at,
            Place {
                line: 12,
                column: 6
            }
        );
        assert!(
            e.message.contains("`Q` is not a rococo piece"),
            "{}",
            e.message
        );
    }

    #[test]
    fn a_board_drawn_from_blacks_side_is_turned() {
        let flipped: String = LABELLED
            .lines()
            .map(|l| match l.trim_start().chars().next() {
                Some(c @ '1'..='8') => {
                    let rank = 9 - c.to_digit(10).unwrap();
                    let cells: Vec<&str> = l.split('|').collect();
                    let inner: Vec<&str> =
                        cells[1..cells.len() - 1].iter().rev().copied().collect();
                    format!(" {rank} |{}|\n", inner.join("|"))
                }
                _ => format!("{l}\n"),
            })
            .collect();
        // The top row is now labelled rank 1 and its cells run from h to a: the k drawn in its
        // fifth cell stands on d1, the K of the bottom row (rank 8) on e8.
        let f = read(&flipped);
        match &f[0].content {
            Ok(Content::Board { fen, .. }) => assert_eq!(fen, "4K3/8/8/8/8/8/8/3k4 w"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_ragged_row_is_located() {
        let t = "+---+---+\n| K |   |\n+---+---+\n| k |\n+---+---+\n";
        let e = read(t).remove(0).content.unwrap_err();
        assert_eq!(e.at.line, 4, "{}", e.message);
        assert!(e.message.contains("ragged"), "{}", e.message);
    }
}
