//! What the search needs of a game: Baroque and Rococo both provide it.

use crate::rules::rococo::{Coords, RococoMove, RococoPosition};
use crate::rules::{Move, MoveInfo, Position, Role, Stalemate};

/// A position the mate search can explore.
pub trait Searchable: Copy + Send + Sync {
    type Move: Copy + Send + Sync + PartialEq + std::fmt::Debug;
    /// The moves the search considers (written into `out`, cleared first).
    fn moves(&self, out: &mut Vec<Self::Move>);
    /// Whether `moves` would give anything (may stop at the first).
    fn has_moves(&self) -> bool {
        let mut v = Vec::new();
        self.moves(&mut v);
        !v.is_empty()
    }
    fn play(&self, m: &Self::Move) -> Self;
    /// A hash of everything that decides the future (placement, side to move, restrictions).
    fn key(&self) -> u64;
    /// Whether the side to move is in check (its King could be taken now).
    fn in_check(&self) -> bool;
    /// Whether the side to move, when `moves` is empty, has lost (rather than drawn).
    fn lost_without_moves(&self) -> bool;
    /// Whether only checking moves can win on the attacker's last move.
    fn only_checks_mate(&self) -> bool;
    fn is_capture(m: &Self::Move) -> bool;
    fn is_king_move(m: &Self::Move) -> bool;
    fn info(&self, m: &Self::Move) -> MoveInfo;
    /// The position with the other side to move, when the side to move is not in check.
    fn null_move(&self) -> Option<Self>;
}

impl Searchable for Position {
    type Move = Move;
    fn moves(&self, out: &mut Vec<Move>) {
        self.generate_legal(out);
    }
    fn has_moves(&self) -> bool {
        self.has_legal_move()
    }
    fn play(&self, m: &Move) -> Self {
        self.after(m)
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn lost_without_moves(&self) -> bool {
        self.is_check() || self.rules().stalemate == Stalemate::Loss
    }
    fn only_checks_mate(&self) -> bool {
        self.rules().stalemate == Stalemate::Draw
    }
    fn is_capture(m: &Move) -> bool {
        m.is_capture()
    }
    fn is_king_move(m: &Move) -> bool {
        m.role == Role::King
    }
    fn info(&self, m: &Move) -> MoveInfo {
        self.move_info(m)
    }
    fn null_move(&self) -> Option<Self> {
        Position::null_move(self)
    }
}

/// Rococo's search: the moves considered are those that keep the mover's King (or take the enemy
/// King). A side whose King is gone has lost; a side with moves but none that keeps its King has
/// lost too (the King falls next move); a side with no move at all draws.
impl Searchable for RococoPosition {
    type Move = RococoMove;
    fn moves(&self, out: &mut Vec<RococoMove>) {
        out.clear();
        if self.board().king(self.turn()).is_none() {
            return;
        }
        self.keeping_moves(out);
    }
    fn has_moves(&self) -> bool {
        self.board().king(self.turn()).is_some() && self.has_keeping_move()
    }
    fn play(&self, m: &RococoMove) -> Self {
        self.after(m)
    }
    fn key(&self) -> u64 {
        self.hash()
    }
    fn in_check(&self) -> bool {
        self.king_capturable(self.turn())
    }
    fn lost_without_moves(&self) -> bool {
        self.board().king(self.turn()).is_none() || self.has_move()
    }
    fn only_checks_mate(&self) -> bool {
        false
    }
    fn is_capture(m: &RococoMove) -> bool {
        m.captures != 0
    }
    fn is_king_move(m: &RococoMove) -> bool {
        m.role == Role::King
    }
    fn info(&self, m: &RococoMove) -> MoveInfo {
        self.move_info(m, Coords::Standard)
    }
    fn null_move(&self) -> Option<Self> {
        RococoPosition::null_move(self)
    }
}
