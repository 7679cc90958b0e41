//! Verifying a line of moves: each played in order from a position, up to the first illegal one,
//! with what it captured, froze and left ([`VerifiedLine`]).

use crate::cases::{play_text, PlayedMove};
use crate::position::{CheckedPosition, RequestError};
use crate::rules::{GameKind, GamePosition, MoveErrorKind, Naming, Piece, Rules, Status, Visit};
use crate::solver::Cancel;

/// A verify request read: a position that can arise and the move texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyQuery {
    pub position: CheckedPosition,
    pub moves: Vec<String>,
}

/// Refuses more moves than a request may hold.
///
/// # Errors
/// [`RequestError::TooManyMoves`].
pub fn check_moves(moves: &[String], max_moves: usize) -> Result<(), RequestError> {
    if moves.len() > max_moves {
        return Err(RequestError::TooManyMoves {
            count: moves.len(),
            limit: max_moves as u64,
        });
    }
    Ok(())
}

/// A move of a line, as read.
#[derive(Clone, Debug)]
pub enum LineMove {
    /// A legal move, played.
    Legal {
        /// The text as sent.
        input: String,
        played: PlayedMove,
        /// Rococo's kind of move (`swap`, `mutual_destruction`, ...).
        kind: Option<&'static str>,
        /// A promotion's new piece, as its letter in the request's naming.
        promotion: Option<String>,
    },
    /// The first illegal move (nothing after it is examined).
    Illegal { input: String },
}

/// The first illegal move of a line, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal {
    /// Its index among the texts, from 0.
    pub index: usize,
    pub input: String,
    pub reason: MoveErrorKind,
    pub message: String,
    /// For an ambiguous short form: the canonical names of the moves it fits.
    pub candidates: Vec<String>,
}

/// A line verified.
#[derive(Clone, Debug)]
pub struct VerifiedLine {
    pub game: GameKind,
    /// The rule set, for a game that has rule sets.
    pub rules: Option<Rules>,
    /// Each move examined, in order; the last is the first illegal one, if any.
    pub moves: Vec<LineMove>,
    pub first_illegal: Option<Illegal>,
    /// The FEN after the last legal move (the start's when none is), in the request's naming.
    pub final_fen: String,
    /// The status of the side to move there (Rococo: checkmate once its King was taken).
    pub final_status: Status,
}

/// Plays the moves of a query in order, stopping at the first illegal one, or early (with the
/// moves so far) once `cancel` is raised: the client has gone and will not read the answer.
pub fn verify(query: &VerifyQuery, cancel: &Cancel) -> VerifiedLine {
    struct Verification<'a> {
        query: &'a VerifyQuery,
        cancel: &'a Cancel,
    }
    impl Visit for Verification<'_> {
        type Output = VerifiedLine;
        fn visit<P: GamePosition>(self, start: &P) -> VerifiedLine {
            let texts = self
                .query
                .moves
                .iter()
                .take_while(|_| !self.cancel.is_cancelled());
            verify_line(start, self.query.position.naming, texts, |after, _| after).0
        }
    }
    query
        .position
        .position
        .visit(Verification { query, cancel })
}

/// Plays move texts in order from `start`, stopping at the first illegal one (or at the first
/// after a move that ended the game), with the legal moves played; `step` gives the position
/// each move leads to from the one it leaves (the identity, but for a series mover's line, whose
/// other side passes between the series' moves).
pub fn verify_line<'a, P: GamePosition>(
    start: &P,
    naming: Naming,
    texts: impl Iterator<Item = &'a String>,
    mut step: impl FnMut(P, Option<&String>) -> P,
) -> (VerifiedLine, Vec<P::Move>) {
    let mut pos = *start;
    let mut line = Vec::new();
    let mut moves = Vec::new();
    let mut first_illegal = None;
    // Set once a move ended the game (in Rococo, took the King).
    let mut final_status = None;
    let mut texts = texts.enumerate().peekable();
    while let Some((index, text)) = texts.next() {
        if final_status.is_some() {
            moves.push(LineMove::Illegal {
                input: text.clone(),
            });
            first_illegal = Some(Illegal {
                index,
                input: text.clone(),
                reason: MoveErrorKind::NotAMove,
                message: format!("`{text}`: the game is over, the previous move took the King"),
                candidates: Vec::new(),
            });
            break;
        }
        match play_text(&pos, text, naming) {
            Ok((mv, played, after)) => {
                if pos.ends_game(&mv) {
                    final_status = Some(Status::Checkmate);
                }
                moves.push(LineMove::Legal {
                    input: text.clone(),
                    played,
                    kind: P::kind_name(&mv),
                    promotion: P::promotion(&mv).map(|r| {
                        pos.piece_letter(Piece::new(pos.turn(), r), naming)
                            .to_string()
                    }),
                });
                line.push(mv);
                pos = step(after, texts.peek().map(|&(_, t)| t));
            }
            Err(e) => {
                moves.push(LineMove::Illegal {
                    input: text.clone(),
                });
                first_illegal = Some(Illegal {
                    index,
                    input: text.clone(),
                    reason: e.kind,
                    message: e.message,
                    candidates: e.candidates,
                });
                break;
            }
        }
    }
    let verified = VerifiedLine {
        game: pos.variant().kind(),
        rules: pos.variant().rules(),
        moves,
        first_illegal,
        final_fen: pos.fen(naming),
        final_status: final_status.unwrap_or_else(|| pos.status()),
    };
    (verified, line)
}
