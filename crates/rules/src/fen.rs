//! FEN: `<board> <w|b> [<plies>]`, as on the vchess page (`... w 0`).
//!
//! The board lists the ranks from the top (rank 8, or 10 on the Rococo board) down, files from `a`,
//! separated by `/`; an empty run is a decimal count (`10` is a whole empty Rococo rank). Pieces are
//! letters, upper case White. Baroque accepts both letter sets of [`crate::piece`], mixed
//! freely. The parser is strict about the board (every rank must fill exactly its width) and lenient
//! about spacing: fields are separated by one or more spaces.
//!
//! Errors name the field and the 1-based character position where the problem is.

use super::board::Board;
use super::geometry::Geometry;
use super::piece::{Color, Piece};
use serde::Serialize;
use std::fmt;

/// A field of a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FenField {
    /// The piece placement, ranks from the top down.
    Board,
    /// The side to move, `w` or `b`.
    Turn,
    /// The optional count of plies played.
    Plies,
    /// Rococo's last-swap field: the two squares of the previous move's swap, or `-`.
    LastSwap,
    /// Text after the last field.
    Extra,
}

impl FenField {
    /// The field's snake_case name, as in error messages: `board`, `turn`, `plies`, `last_swap`,
    /// `extra`.
    pub fn name(self) -> &'static str {
        match self {
            FenField::Board => "board",
            FenField::Turn => "turn",
            FenField::Plies => "plies",
            FenField::LastSwap => "last_swap",
            FenField::Extra => "extra",
        }
    }
}

/// A FEN that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("FEN {}: {message} (at character {position})", field.name())]
pub struct ParseFenError {
    /// The field where the problem is.
    pub field: FenField,
    /// 1-based character position in the FEN text.
    pub position: usize,
    /// What is wrong, for a person to read.
    pub message: String,
}

impl ParseFenError {
    /// An error in `field` at the 1-based character `position`.
    pub fn new(field: FenField, position: usize, message: impl Into<String>) -> Self {
        ParseFenError {
            field,
            position,
            message: message.into(),
        }
    }
}

/// The fields of a FEN text with the 0-based offset where each starts.
pub fn split_fields(fen: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut start = None;
    for (i, c) in fen.char_indices() {
        if c == ' ' || c == '\t' {
            if let Some(s) = start.take() {
                fields.push((s, &fen[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        fields.push((s, &fen[s..]));
    }
    fields
}

/// The fields both games' FENs begin with: the board, the side to move and the optional ply
/// count, and the fields after them (with their 0-based offsets).
pub(crate) struct Head<'a, G: Geometry> {
    pub board: Board<G>,
    pub turn: Color,
    pub plies: u32,
    pub rest: Vec<(usize, &'a str)>,
}

/// Reads the head of a FEN: the board (each letter read by `letter`), the side to move, the plies.
pub(crate) fn parse_head<G: Geometry>(
    text: &str,
    letter: impl Fn(char) -> Option<Piece>,
) -> Result<Head<'_, G>, ParseFenError> {
    let mut fields = split_fields(text);
    let Some(&(board_at, board_text)) = fields.first() else {
        return Err(ParseFenError::new(FenField::Board, 1, "the FEN is empty"));
    };
    let board = parse_board::<G>(board_text, board_at, letter)?;
    let turn = parse_turn(fields.get(1).copied(), text.trim_end().len())?;
    let plies = parse_plies(fields.get(2).copied())?;
    let rest = fields.split_off(fields.len().min(3));
    Ok(Head {
        board,
        turn,
        plies,
        rest,
    })
}

/// Reads the board field; `offset` is its 0-based place in the whole FEN (for error positions).
pub(crate) fn parse_board<G: Geometry>(
    text: &str,
    offset: usize,
    letter: impl Fn(char) -> Option<Piece>,
) -> Result<Board<G>, ParseFenError> {
    let mut board = Board::<G>::empty();
    let err = |i: usize, m: String| ParseFenError::new(FenField::Board, offset + i + 1, m);
    let ranks: Vec<(usize, &str)> = {
        let mut v = Vec::new();
        let mut start = 0;
        for (i, c) in text.char_indices() {
            if c == '/' {
                v.push((start, &text[start..i]));
                start = i + 1;
            }
        }
        v.push((start, &text[start..]));
        v
    };
    if ranks.len() != G::RANKS as usize {
        return Err(err(
            text.len().saturating_sub(1),
            format!(
                "the board has {} ranks separated by '/', expected {}",
                ranks.len(),
                G::RANKS
            ),
        ));
    }
    for (i, (start, rank_text)) in ranks.iter().enumerate() {
        let rank = G::RANKS - 1 - i as u8;
        let mut file: u32 = 0;
        let too_long = |at| {
            let message = format!(
                "rank {} has more than {} squares",
                rank as u32 + 1,
                G::FILES
            );
            Err(err(at, message))
        };
        let mut chars = rank_text.char_indices().peekable();
        while let Some((j, c)) = chars.next() {
            let at = start + j;
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap_or(0);
                while let Some(&(_, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    n = n * 10 + d.to_digit(10).unwrap_or(0);
                    chars.next();
                    if n > 99 {
                        break;
                    }
                }
                if n == 0 {
                    return Err(err(at, "an empty-square count must be at least 1".into()));
                }
                file += n;
                if file > G::FILES as u32 {
                    return too_long(at);
                }
            } else {
                let p = letter(c)
                    .ok_or_else(|| err(at, format!("`{c}` is not a piece letter of this game")))?;
                if file >= G::FILES as u32 {
                    return too_long(at);
                }
                board.put(G::square(file as u8, rank), p);
                file += 1;
            }
        }
        if file != G::FILES as u32 {
            return Err(err(
                start + rank_text.len().saturating_sub(1),
                format!(
                    "rank {} has {} squares, expected {}",
                    rank as u32 + 1,
                    file,
                    G::FILES
                ),
            ));
        }
    }
    Ok(board)
}

/// Writes the board field with the given letter function.
pub(crate) fn write_board<G: Geometry>(board: &Board<G>, letter: impl Fn(Piece) -> char) -> String {
    let mut s = String::new();
    for rank in (0..G::RANKS).rev() {
        let mut empty = 0;
        for file in 0..G::FILES {
            match board.piece_at(G::square(file, rank)) {
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(letter(p));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Reads the side to move.
pub(crate) fn parse_turn(field: Option<(usize, &str)>, len: usize) -> Result<Color, ParseFenError> {
    match field {
        Some((_, "w")) => Ok(Color::White),
        Some((_, "b")) => Ok(Color::Black),
        Some((i, other)) => Err(ParseFenError::new(
            FenField::Turn,
            i + 1,
            format!("the side to move must be `w` or `b`, not `{other}`"),
        )),
        None => Err(ParseFenError::new(
            FenField::Turn,
            len + 1,
            "the side to move (`w` or `b`) is missing after the board",
        )),
    }
}

/// Reads the optional ply count.
pub(crate) fn parse_plies(field: Option<(usize, &str)>) -> Result<u32, ParseFenError> {
    match field {
        None => Ok(0),
        Some((i, t)) => t.parse::<u32>().map_err(|_| {
            let why = if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                format!("the ply count `{t}` is too large (at most {})", u32::MAX)
            } else {
                format!("the ply count must be a whole number, not `{t}`")
            };
            ParseFenError::new(FenField::Plies, i + 1, why)
        }),
    }
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
