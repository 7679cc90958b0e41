//! A Baroque position: the board, the side to move, the ply count and the rule set.
//!
//! A [`Position`] is made by [`Position::from_fen`] (which checks syntax only) and then
//! [`Position::validate`]d: the checked constructor [`Position::from_fen_validated`] refuses positions
//! that cannot arise (two Kings of one side; the side not to move in check) and reports every
//! problem at once.

use super::bitset::BitSet;
use super::board::{Board, ZOBRIST_BLACK};
use super::fen::{self, FenField, ParseFenError};
use super::geometry::{Board8, Geometry};
use super::piece::{Color, Letters, Piece, Role};
use super::ruleset::Rules;
use serde::Serialize;

/// The 8x8 geometry of Baroque.
pub type G8 = Board8;
/// A set of squares of the Baroque board.
pub type Bits = u64;

/// The default start position (vchess's).
pub const START_FEN: &str = "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0";

/// What kind of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move from one square to another.
    Normal,
    /// A frozen piece removes itself (rule option `suicide: on`); `from == to`.
    Suicide,
}

/// A move with everything it does: the piece, its squares and the squares of every piece it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the piece leaves (index `rank * 8 + file`, a1 = 0).
    pub from: u8,
    /// The square the piece lands on (`from` itself for a suicide).
    pub to: u8,
    /// The role of the moving piece.
    pub role: Role,
    /// An ordinary move or a suicide.
    pub kind: MoveKind,
    /// The squares of the captured pieces (all of the opponent's).
    pub captures: Bits,
}

impl Move {
    /// Whether the move takes at least one piece.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captures != 0
    }
    /// The from and to squares, as in `d2d8` (a suicide is `c5c5`).
    pub fn uci(&self) -> String {
        format!("{}{}", G8::name(self.from), G8::name(self.to))
    }
}

/// The state of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The side to move is not in check and has a move.
    Ongoing,
    /// The side to move's King can be captured now, but some move saves it.
    Check,
    /// The side to move has lost: no move keeps its King (Baroque: in check with no legal move;
    /// Rococo: every move leaves it capturable, or it was just taken).
    Checkmate,
    /// The side to move has no move at all (in Baroque, while not in check): a draw, or a loss
    /// under Baroque's option `stalemate` set to `loss`.
    Stalemate,
}

impl Status {
    /// The lower-case name, as serialized: `ongoing`, `check`, `checkmate` or `stalemate`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Check => "check",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
        }
    }
}

/// What a problem of a position is: an error refuses the position (it cannot arise), a warning
/// only says something worth knowing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// A side has more than one King (error).
    TwoKings,
    /// The side not to move has a King that can be captured: the position cannot arise (error; not
    /// in Rococo, where taking the King is how a game ends).
    OpponentInCheck,
    /// A side has no King: it is never in check and cannot be mated (warning).
    NoKing,
    /// A side has more pieces of a kind than it starts with (warning).
    TooManyPieces,
}

impl ProblemKind {
    /// The stable code clients read: `two_kings`, `opponent_in_check`, `no_king`,
    /// `too_many_pieces`.
    pub fn code(self) -> &'static str {
        match self {
            ProblemKind::TwoKings => "two_kings",
            ProblemKind::OpponentInCheck => "opponent_in_check",
            ProblemKind::NoKing => "no_king",
            ProblemKind::TooManyPieces => "too_many_pieces",
        }
    }

    /// Whether a position with this problem is refused.
    pub fn is_error(self) -> bool {
        matches!(self, ProblemKind::TwoKings | ProblemKind::OpponentInCheck)
    }
}

/// A problem found by [`Position::validate`] (or a Rococo position's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What the problem is.
    pub kind: ProblemKind,
    /// The problem explained for a person.
    pub message: String,
}

impl Problem {
    /// The problem's stable code ([`ProblemKind::code`]).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// Whether the position is refused for it ([`ProblemKind::is_error`]).
    pub fn is_error(&self) -> bool {
        self.kind.is_error()
    }
}

/// A position that cannot arise, with every reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .problems.iter().map(|p| p.message.as_str()).collect::<Vec<_>>().join("; "))]
pub struct PositionError {
    /// Every problem found, errors and warnings.
    pub problems: Vec<Problem>,
}

/// A FEN that is unreadable or describes an impossible position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not a readable FEN.
    #[error(transparent)]
    Parse(#[from] ParseFenError),
    /// The FEN is readable but the position cannot arise.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A Baroque position with its rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board<G8>,
    pub(crate) turn: Color,
    pub(crate) plies: u32,
    pub(crate) rules: Rules,
}

impl Position {
    /// The start position under the given rules.
    pub fn start(rules: Rules) -> Position {
        match Position::from_fen(START_FEN, rules) {
            Ok(p) => p,
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    /// Reads a FEN without checking that the position can arise.
    pub fn from_fen(text: &str, rules: Rules) -> Result<Position, ParseFenError> {
        let fen::Head {
            board,
            turn,
            plies,
            rest,
        } = fen::parse_head::<G8>(text, Piece::from_baroque_letter)?;
        if let Some(&(at, extra)) = rest.first() {
            return Err(ParseFenError::new(
                FenField::Extra,
                at + 1,
                format!("unexpected `{extra}` after the ply count: a Baroque FEN has board, side to move and plies"),
            ));
        }
        Ok(Position {
            board,
            turn,
            plies,
            rules,
        })
    }

    /// Reads a FEN and refuses positions that cannot arise.
    pub fn from_fen_validated(text: &str, rules: Rules) -> Result<Position, FenError> {
        let pos = Position::from_fen(text, rules)?;
        let problems = pos.validate();
        if problems.iter().any(|p| p.is_error()) {
            return Err(PositionError { problems }.into());
        }
        Ok(pos)
    }

    /// Builds a position from a board.
    pub fn from_board(board: Board<G8>, turn: Color, rules: Rules) -> Position {
        Position {
            board,
            turn,
            plies: 0,
            rules,
        }
    }

    /// The FEN in the given letter set.
    pub fn fen(&self, letters: Letters) -> String {
        format!(
            "{} {} {}",
            fen::write_board(&self.board, |p| p.letter(letters)),
            if self.turn == Color::White { 'w' } else { 'b' },
            self.plies
        )
    }

    /// Where the pieces stand.
    pub fn board(&self) -> &Board<G8> {
        &self.board
    }
    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// Plies played (the FEN's third field; 0 when it is absent).
    pub fn plies(&self) -> u32 {
        self.plies
    }
    /// The rule set the position is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The same position under other rules.
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }
    /// The Zobrist hash of placement and side to move (the ply count is not part of it).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.board.hash()
            ^ if self.turn == Color::Black {
                ZOBRIST_BLACK
            } else {
                0
            }
    }

    /// Every problem of the position: errors (it cannot arise) and warnings.
    pub fn validate(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        for c in [Color::White, Color::Black] {
            let kings = self.board.pieces(c, Role::King).count();
            if kings > 1 {
                out.push(Problem {
                    kind: ProblemKind::TwoKings,
                    message: format!("{c} has {kings} Kings; a side has at most one"),
                });
            } else if kings == 0 {
                out.push(Problem {
                    kind: ProblemKind::NoKing,
                    message: format!(
                        "{c} has no King: that side is never in check and cannot be mated"
                    ),
                });
            }
        }
        let waiting = self.turn.other();
        if self.board.pieces(waiting, Role::King).count() == 1 && self.king_capturable(waiting) {
            out.push(Problem {
                kind: ProblemKind::OpponentInCheck,
                message: format!(
                    "{waiting} is not to move but its King can be captured: the position cannot arise"
                ),
            });
        }
        for c in [Color::White, Color::Black] {
            for r in Role::BAROQUE {
                let n = self.board.pieces(c, r).count();
                let max = r.baroque_start_count();
                if r != Role::King && n > max {
                    out.push(Problem {
                        kind: ProblemKind::TooManyPieces,
                        message: format!(
                            "{c} has {n} of kind {}, more than the {max} a side starts with",
                            r.name()
                        ),
                    });
                }
            }
        }
        out
    }

    /// Whether `side`'s King can be captured by the other side now (whatever the side to move).
    pub fn king_capturable(&self, side: Color) -> bool {
        match self.board.king(side) {
            Some(k) => super::attacks::capturable(&self.board, k, side.other(), &self.rules),
            None => false,
        }
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.king_capturable(self.turn)
    }

    /// The status of the side to move.
    pub fn status(&self) -> Status {
        let check = self.is_check();
        let any = self.has_legal_move();
        match (check, any) {
            (true, false) => Status::Checkmate,
            (false, false) => Status::Stalemate,
            (true, true) => Status::Check,
            (false, true) => Status::Ongoing,
        }
    }

    /// The frozen pieces of both sides.
    pub fn frozen(&self) -> Bits {
        let f = self.rules.freezing();
        super::freeze::frozen(&self.board, Color::White, f)
            | super::freeze::frozen(&self.board, Color::Black, f)
    }

    /// The captured pieces of a move played in this position, lowest square first.
    pub fn captured_pieces(&self, mv: &Move) -> Vec<(u8, Piece)> {
        mv.captures
            .squares()
            .filter_map(|s| self.board.piece_at(s).map(|p| (s, p)))
            .collect()
    }

    /// Plays a move, which must come from this position's move list.
    #[inline]
    pub fn play_unchecked(&mut self, mv: &Move) {
        let us = self.turn;
        let them = us.other();
        if mv.captures != 0 {
            self.board.remove_all(them, mv.captures);
        }
        match mv.kind {
            MoveKind::Normal => self.board.shift(us, mv.role, mv.from, mv.to),
            MoveKind::Suicide => self.board.toggle(mv.from, Piece::new(us, mv.role)),
        }
        self.turn = them;
        self.plies = self.plies.saturating_add(1);
    }

    /// The position with the other side to move, when the side to move is not in check (a "null
    /// move", used to ask for a puzzle's threat).
    pub fn null_move(&self) -> Option<Position> {
        if self.is_check() {
            return None;
        }
        let mut p = *self;
        p.turn = self.turn.other();
        p.plies = self.plies.saturating_add(1);
        Some(p)
    }

    /// The position after a move from this position's move list.
    #[inline]
    pub fn after(&self, mv: &Move) -> Position {
        let mut p = *self;
        p.play_unchecked(mv);
        p
    }

    /// Plays a move and returns what [`Position::unplay`] needs to take it back.
    pub fn play(&mut self, mv: &Move) -> Undo {
        let mut undo = Undo {
            roles: 0,
            plies: self.plies,
        };
        let them = self.turn.other();
        for (i, s) in mv.captures.squares().enumerate() {
            let r = self.board.role_at(s).map_or(0, |r| r as u64);
            undo.roles |= r << (4 * i);
            debug_assert_eq!(self.board.color_at(s), Some(them));
        }
        self.play_unchecked(mv);
        undo
    }

    /// Takes back a move played with [`Position::play`].
    pub fn unplay(&mut self, mv: &Move, undo: Undo) {
        self.turn = self.turn.other();
        self.plies = undo.plies;
        let us = self.turn;
        match mv.kind {
            MoveKind::Normal => self.board.shift(us, mv.role, mv.to, mv.from),
            MoveKind::Suicide => self.board.toggle(mv.from, Piece::new(us, mv.role)),
        }
        for (i, s) in mv.captures.squares().enumerate() {
            let r = Role::ALL[((undo.roles >> (4 * i)) & 0xF) as usize];
            self.board.toggle(s, Piece::new(us.other(), r));
        }
    }
}

/// What taking back a move needs: the roles of the captured pieces, 4 bits each, in square order
/// (a Baroque move captures at most 16 pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    roles: u64,
    plies: u32,
}
