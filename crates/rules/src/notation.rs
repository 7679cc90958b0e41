//! Move notation: reading every form the rule documents use, and one canonical form for output.
//!
//! Accepted (both letter sets; a leading move number such as `1.` or `12...` and trailing `+`, `#`,
//! `!`, `?` are ignored):
//!
//! | form | example | meaning |
//! |---|---|---|
//! | piece, from, to | `Kc4-d5`, `Kc4xd3`, `Pc2c4` | the piece on the from-square moves to the to-square |
//! | with waypoints | `Ld2-d4-d6-d8`, `Xg6-e6-c6` | the same; each waypoint must lie on the line, in order |
//! | squares only | `g4d4`, `g4-d4` | whatever piece of the side to move stands on the from-square |
//! | short form | `Rc5`, `Qa5`, `Nxd8` | the one legal move of that kind of piece to that square |
//! | suicide | `c5c5`, `Nc5-c5` | a frozen piece removes itself (rule option `suicide: on`) |
//!
//! A capture mark `x` is checked: a move written with it must capture. A move written without it may
//! capture (the documents write `Pg4-d4` for a capturing move). Piece letters are upper case for
//! either side, since lower-case `b` and `c` are files.
//!
//! The canonical form is the piece letter, the from-square, `-` or `x` (when the move captures) and
//! the to-square: `Kc4-d5`, `Nd2xd8`, and `Nc5-c5` for a suicide.

use super::bitset::BitSet;
use super::freeze::frozen;
use super::geometry::Geometry;
use super::piece::{Letters, Role};
use super::position::{Move, MoveKind, Position, G8};
use serde::Serialize;
use std::fmt;

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveErrorKind {
    /// The text is not a move in any accepted form.
    Unparsable,
    /// No piece of the side to move (of the named kind) on the from-square.
    NoPiece,
    /// The piece cannot make that move.
    NotAMove,
    /// The piece is frozen.
    Frozen,
    /// The move would leave the mover's own King capturable (Baroque only: in Rococo such a move
    /// is legal, and loses).
    SelfCheck,
    /// A short form that fits several legal moves.
    Ambiguous,
}

impl MoveErrorKind {
    /// Every reason, in order.
    pub const ALL: [MoveErrorKind; 6] = [
        MoveErrorKind::Unparsable,
        MoveErrorKind::NoPiece,
        MoveErrorKind::NotAMove,
        MoveErrorKind::Frozen,
        MoveErrorKind::SelfCheck,
        MoveErrorKind::Ambiguous,
    ];

    /// The stable code.
    pub fn code(self) -> &'static str {
        match self {
            MoveErrorKind::Unparsable => "unparsable",
            MoveErrorKind::NoPiece => "no_piece",
            MoveErrorKind::NotAMove => "not_a_move",
            MoveErrorKind::Frozen => "frozen",
            MoveErrorKind::SelfCheck => "self_check",
            MoveErrorKind::Ambiguous => "ambiguous",
        }
    }
}

impl fmt::Display for MoveErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A move that cannot be played, with a message a person can act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct MoveError {
    /// Why the move was refused.
    pub kind: MoveErrorKind,
    /// What is wrong, for a person to read.
    pub message: String,
    /// For an ambiguous short form: the canonical names of the fitting moves.
    pub candidates: Vec<String>,
}

impl MoveError {
    fn new(kind: MoveErrorKind, message: impl Into<String>) -> MoveError {
        MoveError {
            kind,
            message: message.into(),
            candidates: Vec::new(),
        }
    }
}

/// A move as written, before it is matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The piece letter written, if any (none in the squares-only form).
    pub role: Option<Role>,
    /// The squares written, in order: one for a short form, else from, waypoints..., to.
    pub squares: Vec<u8>,
    /// Whether an `x` was written.
    pub capture_mark: bool,
}

/// Reads a move text without a position.
pub fn parse_text(input: &str) -> Result<MoveText, MoveError> {
    let unparsable = |why: &str| {
        MoveError::new(
            MoveErrorKind::Unparsable,
            format!("`{input}` is not a move: {why}"),
        )
    };
    let mut s = input.trim();
    // A leading move number: `1.`, `12...`, `1. `.
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && s[digits..].starts_with('.') {
        s = s[digits..].trim_start_matches('.').trim_start();
    }
    s = s.trim_end_matches(['+', '#', '!', '?']);
    if s.is_empty() {
        return Err(unparsable("it is empty"));
    }
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut role = None;
    if bytes[0].is_ascii_uppercase() {
        role = Some(Role::from_baroque_letter(bytes[0] as char).ok_or_else(|| {
            unparsable(&format!(
                "`{}` is not a piece letter (K P Q N R M B or K P W L C I X)",
                bytes[0] as char
            ))
        })?);
        i = 1;
    }
    let mut squares = Vec::new();
    let mut capture_mark = false;
    let mut need_square = true;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'x' || c == b'-' || c == b':' {
            if c != b'-' {
                capture_mark = true;
            }
            if need_square && !squares.is_empty() {
                return Err(unparsable("two separators in a row"));
            }
            need_square = true;
            i += 1;
            continue;
        }
        if c.is_ascii_lowercase() {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let name = &s[start..i];
            let sq = G8::parse_square(name)
                .ok_or_else(|| unparsable(&format!("`{name}` is not a square of the board")))?;
            squares.push(sq);
            need_square = false;
            continue;
        }
        return Err(unparsable(&format!("unexpected `{}`", c as char)));
    }
    if need_square {
        return Err(unparsable("it ends without a square"));
    }
    if squares.len() == 1 && role.is_none() {
        return Err(unparsable(
            "a single square needs a piece letter before it (as in `Rc5`)",
        ));
    }
    Ok(MoveText {
        role,
        squares,
        capture_mark,
    })
}

impl Position {
    /// Reads a move in any accepted form and finds the legal move it names.
    ///
    /// # Errors
    /// A [`MoveError`] saying whether the text is unparsable, names no piece, is not a move of that
    /// piece, moves a frozen piece, leaves the mover's King capturable, or is an ambiguous short form.
    pub fn parse_move(&self, input: &str) -> Result<Move, MoveError> {
        let text = parse_text(input)?;
        let mv = if text.squares.len() == 1 {
            self.resolve_short(input, &text)?
        } else {
            self.resolve_full(input, &text)?
        };
        Ok(mv)
    }

    fn resolve_full(&self, input: &str, text: &MoveText) -> Result<Move, MoveError> {
        let from = text.squares[0];
        let to = text.squares[text.squares.len() - 1];
        let us = self.turn;
        let from_name = G8::name(from);
        let piece = match self.board.piece_at(from) {
            None => {
                return Err(MoveError::new(
                    MoveErrorKind::NoPiece,
                    format!("`{input}`: there is no piece on {from_name}"),
                ))
            }
            Some(p) if p.color != us => {
                return Err(MoveError::new(
                    MoveErrorKind::NoPiece,
                    format!(
                        "`{input}`: {from_name} holds a {}, but {us} is to move",
                        p.describe()
                    ),
                ))
            }
            Some(p) => p,
        };
        if let Some(r) = text.role {
            if r != piece.role {
                return Err(MoveError::new(
                    MoveErrorKind::NoPiece,
                    format!(
                        "`{input}`: the piece on {from_name} is a {}, not a {}",
                        piece.role.name(),
                        r.name()
                    ),
                ));
            }
        }
        let name = piece.role.name();
        let is_frozen = frozen(&self.board, us, self.rules.freezing()).has(from);
        let mv = if from == to {
            if !self.rules.suicide {
                return Err(MoveError::new(
                    MoveErrorKind::NotAMove,
                    format!("`{input}`: a move from a square to itself is a suicide, which these rules do not allow (rule option suicide: on)"),
                ));
            }
            if piece.role == Role::King {
                return Err(MoveError::new(
                    MoveErrorKind::NotAMove,
                    format!("`{input}`: the King cannot commit suicide"),
                ));
            }
            if !is_frozen {
                return Err(MoveError::new(
                    MoveErrorKind::NotAMove,
                    format!("`{input}`: only a frozen piece may commit suicide, and the {name} on {from_name} is not frozen"),
                ));
            }
            Move {
                from,
                to,
                role: piece.role,
                kind: MoveKind::Suicide,
                captures: 0,
            }
        } else {
            if is_frozen {
                return Err(MoveError::new(
                    MoveErrorKind::Frozen,
                    format!("`{input}`: the {name} on {from_name} is frozen (immobilized) and cannot move"),
                ));
            }
            let mut buf = Vec::new();
            self.generate_pseudo_from(from, &mut buf);
            let Some(mv) = buf.into_iter().find(|m| m.to == to) else {
                return Err(MoveError::new(
                    MoveErrorKind::NotAMove,
                    format!(
                        "`{input}`: a {name} on {from_name} cannot move to {}",
                        G8::name(to)
                    ),
                ));
            };
            self.check_waypoints(input, text)?;
            mv
        };
        if text.capture_mark && !mv.is_capture() {
            return Err(MoveError::new(
                MoveErrorKind::NotAMove,
                format!("`{input}` is written as a capture, but the move captures nothing"),
            ));
        }
        if !self.is_safe(&mv) {
            return Err(MoveError::new(
                MoveErrorKind::SelfCheck,
                format!("`{input}` would leave the {us} King capturable"),
            ));
        }
        Ok(mv)
    }

    fn check_waypoints(&self, input: &str, text: &MoveText) -> Result<(), MoveError> {
        let from = text.squares[0];
        let to = text.squares[text.squares.len() - 1];
        let dir = G8::direction(from, to);
        let mut last = 0;
        for &w in &text.squares[1..text.squares.len() - 1] {
            let on_line =
                dir.is_some() && G8::direction(from, w) == dir && G8::direction(w, to) == dir;
            let dist = G8::distance(from, w);
            if !on_line || dist <= last {
                return Err(MoveError::new(
                    MoveErrorKind::NotAMove,
                    format!(
                        "`{input}`: the waypoint {} does not lie, in order, on the line from {} to {}",
                        G8::name(w),
                        G8::name(from),
                        G8::name(to)
                    ),
                ));
            }
            last = dist;
        }
        Ok(())
    }

    fn resolve_short(&self, input: &str, text: &MoveText) -> Result<Move, MoveError> {
        let role = text.role.unwrap_or(Role::Pawn);
        let to = text.squares[0];
        let us = self.turn;
        let mut buf = Vec::new();
        self.generate_legal(&mut buf);
        let fits = |m: &Move| m.role == role && m.to == to && m.kind == MoveKind::Normal;
        let legal: Vec<Move> = buf.iter().copied().filter(fits).collect();
        let chosen: Vec<Move> = if text.capture_mark {
            legal.iter().copied().filter(Move::is_capture).collect()
        } else {
            legal.clone()
        };
        match chosen.len() {
            1 => return Ok(chosen[0]),
            0 if !legal.is_empty() => {
                return Err(MoveError::new(
                    MoveErrorKind::NotAMove,
                    format!("`{input}` is written as a capture, but the move captures nothing"),
                ))
            }
            0 => {}
            _ => {
                let mut e = MoveError::new(
                    MoveErrorKind::Ambiguous,
                    format!(
                        "`{input}` fits {} legal moves; write the from-square",
                        chosen.len()
                    ),
                );
                e.candidates = chosen
                    .iter()
                    .map(|m| self.move_name(m, Letters::Chess))
                    .collect();
                e.message = format!("{}: {}", e.message, e.candidates.join(", "));
                return Err(e);
            }
        }
        // No legal move fits: say why.
        let dest = G8::name(to);
        let ours = self.board.pieces(us, role);
        if ours.is_empty() {
            return Err(MoveError::new(
                MoveErrorKind::NoPiece,
                format!("`{input}`: {us} has no {}", role.name()),
            ));
        }
        let mut pseudo = Vec::new();
        let (mut unsafe_fit, mut frozen_fit) = (false, false);
        let is_frozen = frozen(&self.board, us, self.rules.freezing());
        for s in ours.squares() {
            self.generate_ignoring_freeze(s, &mut pseudo);
            if pseudo.iter().any(|m| m.to == to) {
                if is_frozen.has(s) {
                    frozen_fit = true;
                } else {
                    unsafe_fit = true;
                }
            }
        }
        if unsafe_fit {
            Err(MoveError::new(
                MoveErrorKind::SelfCheck,
                format!("`{input}` would leave the {us} King capturable"),
            ))
        } else if frozen_fit {
            Err(MoveError::new(
                MoveErrorKind::Frozen,
                format!(
                    "`{input}`: the {} that could reach {dest} is frozen",
                    role.name()
                ),
            ))
        } else {
            Err(MoveError::new(
                MoveErrorKind::NotAMove,
                format!("`{input}`: no {us} {} can move to {dest}", role.name()),
            ))
        }
    }

    /// The canonical name of a move of this position: `Kc4-d5`, `Nd2xd8`, `Nc5-c5` (suicide).
    pub fn move_name(&self, mv: &Move, letters: Letters) -> String {
        format!(
            "{}{}{}{}",
            mv.role.letter(letters),
            G8::name(mv.from),
            if mv.is_capture() { 'x' } else { '-' },
            G8::name(mv.to)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `MoveErrorKind::ALL` lists every reason once: a new one left out of it fails here.
    #[test]
    fn every_move_error_kind_is_listed_once() {
        use super::MoveErrorKind as K;
        let position = |k: K| match k {
            K::Unparsable => 0,
            K::NoPiece => 1,
            K::NotAMove => 2,
            K::Frozen => 3,
            K::SelfCheck => 4,
            K::Ambiguous => 5,
        };
        for (i, k) in K::ALL.iter().enumerate() {
            assert_eq!(position(*k), i, "{k:?}");
        }
    }

    #[test]
    fn texts_parse() {
        let t = parse_text("Ld2-d4-d6-d8").unwrap();
        assert_eq!(t.role, Some(Role::LongLeaper));
        assert_eq!(t.squares.len(), 4);
        let t = parse_text("1.Pc2c4").unwrap();
        assert_eq!(t.squares, vec![10, 26]);
        let t = parse_text("g4d4").unwrap();
        assert_eq!(t.role, None);
        let t = parse_text("Nxd8+").unwrap();
        assert!(t.capture_mark);
        assert_eq!(t.squares.len(), 1);
        for bad in [
            "", "Z4", "d4", "Kc4--d5", "Kc9-d5", "Kc4-", "K", "1.", "Kc4 d5",
        ] {
            assert_eq!(
                parse_text(bad).unwrap_err().kind,
                MoveErrorKind::Unparsable,
                "{bad}"
            );
        }
    }
}
