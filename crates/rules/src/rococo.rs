//! Rococo: the 10x10 relative of Baroque (the chessvariants.com page), on the same board type, rays
//! and freezing logic as Baroque.
//!
//! Squares are a-j and 1-10; the outer ring is the edge. The page names squares differently (files x,
//! a-h, y; ranks 0, 1-8, 00: its a1 is our b2, its x00 our a10); [`Coords::Page`] reads and writes
//! those names.
//!
//! FEN: `<ranks 10 down to 1> <w|b> [<plies> [<last swap as from-to squares, or ->]]`, letters K King,
//! P Cannon Pawn, I Immobilizer, W Withdrawer, A Advancer, L Long Leaper, X Chameleon, S Swapper,
//! U Pushme-Pullyu, upper case White. The last-swap field names the two squares of a swap between
//! opposing Swappers or a Swapper and a Chameleon made by the previous move, which may not be undone
//! by a swap on this move.
//!
//! Decisions where the page is unclear (RULES.md):
//! - Edge squares: a move may pass over or end on edge squares only when it captures (a swap counts),
//!   and then over no more edge squares than another move of the same piece making the same capture.
//! - Freezing as Abbott's: every piece next to an enemy Immobilizer, and an Immobilizer next to an
//!   enemy Chameleon, is frozen. A frozen piece other than the King may remove itself (suicide).
//! - Victory is by capturing the King: moves that leave the King capturable are legal (and lose).

use super::bitset::BitSet;
use super::board::{Board, ZOBRIST_BLACK};
use super::fen::{self, FenField, ParseFenError};
use super::freeze::frozen;
use super::geometry::{
    is_positive, opposite, Board10, Dir, Geometry, ALL_DIRS, E, N, NE, NO_SQUARE, NW, S, SE, W,
};
use super::piece::{Color, Piece, Role};
use super::position::{Problem, ProblemKind, Status};
use super::ruleset::Freezing;
use super::SquarePiece;
use serde::{Deserialize, Serialize};

/// A set of squares of the Rococo board.
pub type Bits128 = u128;
type G = Board10;

/// The start position: White on ranks 2-3, Black on 8-9, back ranks I W L K X L A S on b..i.
pub const ROCOCO_START_FEN: &str =
    "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0 -";

/// How squares are named.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Coords {
    /// Files a-j, ranks 1-10.
    #[default]
    Standard,
    /// The page's names: files x, a-h, y; ranks 0, 1-8, 00.
    Page,
}

impl Coords {
    /// The name of a square.
    pub fn name(self, sq: u8) -> String {
        match self {
            Coords::Standard => G::name(sq),
            Coords::Page => {
                let (f, r) = (G::file_of(sq), G::rank_of(sq));
                let file = match f {
                    0 => 'x',
                    9 => 'y',
                    _ => (b'a' + f - 1) as char,
                };
                let rank = match r {
                    0 => "0".to_string(),
                    9 => "00".to_string(),
                    _ => r.to_string(),
                };
                format!("{file}{rank}")
            }
        }
    }

    /// Reads a square name.
    pub fn parse(self, s: &str) -> Option<u8> {
        match self {
            Coords::Standard => G::parse_square(s),
            Coords::Page => {
                let mut chars = s.chars();
                let file = match chars.next()? {
                    'x' => 0,
                    'y' => 9,
                    c @ 'a'..='h' => c as u8 - b'a' + 1,
                    _ => return None,
                };
                let rank = match chars.as_str() {
                    "0" => 0,
                    "00" => 9,
                    r if r.len() == 1 && ("1"..="8").contains(&r) => r.parse::<u8>().ok()?,
                    _ => return None,
                };
                Some(G::square(file, rank))
            }
        }
    }
}

/// What kind of Rococo move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RococoKind {
    /// A move to an empty square, or a King's or Cannon Pawn's capture by replacement.
    Normal,
    /// A Swapper (or a Chameleon imitating one) trades places with the piece on `to`.
    Swap,
    /// A Swapper (or a Chameleon next to an enemy Swapper) removes the enemy piece on `to` and itself.
    MutualDestruction,
    /// A frozen piece removes itself (`from == to`).
    Suicide,
}

/// A Rococo move with everything it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RococoMove {
    /// The square the piece leaves (index `rank * 10 + file`, a1 = 0).
    pub from: u8,
    /// The square it moves to: for a swap or a mutual destruction the other piece's square, for a
    /// suicide `from` itself.
    pub to: u8,
    /// The role of the moving piece (before any promotion).
    pub role: Role,
    /// What kind of move it is.
    pub kind: RococoKind,
    /// Squares of the enemy pieces taken.
    pub captures: Bits128,
    /// The piece a Cannon Pawn becomes, when it promotes.
    pub promotion: Option<Role>,
}

thread_local! {
    /// A move list for the questions answered a piece at a time, so that they allocate nothing.
    static SCRATCH: std::cell::RefCell<Vec<RococoMove>> =
        std::cell::RefCell::new(Vec::with_capacity(128));
}

/// What a position's side to move needs to know of its King to judge its moves quickly.
#[derive(Clone, Copy, Debug)]
pub struct KingWatch {
    /// The King cannot be taken now (or there is none).
    safe: bool,
    /// The King's square and the squares on its eight lines, to the board's edges.
    lines: Bits128,
    /// The squares next to the King where a piece would be a mount for an enemy Cannon Pawn.
    mounts: Bits128,
    /// The squares whose emptying may open a way to take the King (see
    /// [`RococoPosition::keeps_king_with`]).
    openers: Bits128,
}

/// `LINES[k]`: the squares on the eight lines from `k`, to the board's edges.
static LINES: std::sync::LazyLock<[Bits128; 100]> = std::sync::LazyLock::new(|| {
    let t = G::t();
    std::array::from_fn(|k| ALL_DIRS.iter().fold(0, |acc, &d| acc | t.ray[d][k]))
});

/// The pieces of each side's start army (besides the King and the Cannon Pawns).
const ARMY: [(Role, u32); 6] = [
    (Role::Immobilizer, 1),
    (Role::Withdrawer, 1),
    (Role::LongLeaper, 2),
    (Role::Chameleon, 1),
    (Role::Advancer, 1),
    (Role::Swapper, 1),
];

/// A Rococo position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RococoPosition {
    pub(crate) board: Board<G>,
    pub(crate) turn: Color,
    pub(crate) plies: u32,
    /// The two squares of a swap between opposing Swappers/Chameleons made by the previous move.
    pub(crate) last_swap: Option<(u8, u8)>,
}

impl RococoPosition {
    /// The start position.
    pub fn start() -> RococoPosition {
        match RococoPosition::from_fen(ROCOCO_START_FEN, Coords::Standard) {
            Ok(p) => p,
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    /// Reads a Rococo FEN (squares of the last-swap field in the given coordinates).
    pub fn from_fen(text: &str, coords: Coords) -> Result<RococoPosition, ParseFenError> {
        let fen::Head {
            board,
            turn,
            plies,
            rest,
        } = fen::parse_head::<G>(text, Piece::from_rococo_letter)?;
        let last_swap = match rest.first() {
            None | Some((_, "-")) => None,
            Some(&(at, t)) => Some(parse_swap(t, coords).ok_or_else(|| {
                ParseFenError::new(
                    FenField::LastSwap,
                    at + 1,
                    format!("the last swap must be two squares such as e5g7, or -, not `{t}`"),
                )
            })?),
        };
        if let Some(&(at, extra)) = rest.get(1) {
            return Err(ParseFenError::new(
                FenField::Extra,
                at + 1,
                format!("unexpected `{extra}` after the last-swap field"),
            ));
        }
        Ok(RococoPosition {
            board,
            turn,
            plies,
            last_swap,
        })
    }

    /// The FEN, squares in the given coordinates.
    pub fn fen(&self, coords: Coords) -> String {
        let swap = match self.last_swap {
            Some((a, b)) => format!("{}{}", coords.name(a), coords.name(b)),
            None => "-".into(),
        };
        format!(
            "{} {} {} {swap}",
            fen::write_board(&self.board, |p| p.rococo_letter()),
            if self.turn == Color::White { 'w' } else { 'b' },
            self.plies
        )
    }

    /// Where the pieces stand.
    pub fn board(&self) -> &Board<G> {
        &self.board
    }
    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }
    /// Plies played (the FEN's third field).
    pub fn plies(&self) -> u32 {
        self.plies
    }
    /// Zobrist hash of placement, side to move and the swap restriction.
    pub fn hash(&self) -> u64 {
        let mut h = self.board.hash()
            ^ if self.turn == Color::Black {
                ZOBRIST_BLACK
            } else {
                0
            };
        if let Some((a, b)) = self.last_swap {
            h ^= (a as u64 * 131 + b as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        h
    }

    /// Problems of the position: two Kings of a side (error); a side without a King, more pieces of a
    /// kind than the start army (warnings). A King that can be captured is no error in Rococo.
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
                    message: format!("{c} has no King: it cannot lose one"),
                });
            }
        }
        for c in [Color::White, Color::Black] {
            let limits = ARMY
                .iter()
                .copied()
                .chain([(Role::CannonPawn, 8), (Role::PushmePullyu, 1)]);
            for (r, max) in limits {
                let n = self.board.pieces(c, r).count();
                if n > max {
                    out.push(Problem {
                        kind: ProblemKind::TooManyPieces,
                        message: format!("{c} has {n} of kind {}, more than {max}", r.name()),
                    });
                }
            }
        }
        out
    }

    /// The frozen pieces of both sides.
    pub fn frozen(&self) -> Bits128 {
        frozen(&self.board, Color::White, Freezing::Abbott)
            | frozen(&self.board, Color::Black, Freezing::Abbott)
    }

    /// Every move of the side to move (in Rococo every such move is legal).
    pub fn legal_moves(&self) -> Vec<RococoMove> {
        let mut out = Vec::with_capacity(128);
        self.generate(&mut out);
        out
    }

    /// Every move of the side to move, written into `out` (cleared first), in the order of
    /// [`RococoPosition::legal_moves`]. Allocates nothing once `out` has room.
    pub fn generate(&self, out: &mut Vec<RococoMove>) {
        out.clear();
        self.generate_raw(out, Bits128::MAX);
    }

    /// The number of moves of the side to move (perft's last ply), counted without writing most of
    /// them (`buf` is a scratch list).
    pub fn count_moves(&self, buf: &mut Vec<RococoMove>) -> u64 {
        buf.clear();
        let mut count = Count {
            quiet: 0,
            rest: buf,
        };
        self.generate_raw(&mut count, Bits128::MAX);
        count.quiet + count.rest.len() as u64
    }

    /// Whether a move (of any origin) is legal here, judged from the moves of its piece alone: the
    /// single-move legality check (in Rococo every move a piece has is legal).
    pub fn is_legal(&self, mv: &RococoMove) -> bool {
        SCRATCH.with_borrow_mut(|buf| {
            buf.clear();
            self.generate_raw(buf, Bits128::bit(mv.from));
            buf.contains(mv)
        })
    }

    /// The move that takes the piece of `like` (a move of any position) from its square to the
    /// same destination, in the same way (kind and promotion), with what it captures here (the
    /// first such move generated, where the piece may capture more or less on the way); `None`
    /// when there is none. Only that piece's moves are generated.
    pub fn move_like(&self, like: &RococoMove) -> Option<RococoMove> {
        self.find_like(like, |_| true)
    }

    /// [`RococoPosition::move_like`] among the moves that keep the mover's King (see
    /// [`RococoPosition::keeping_moves`]).
    pub fn keeping_move_like(&self, like: &RococoMove) -> Option<RococoMove> {
        self.find_like(like, |m| self.keeps_king(m))
    }

    /// The first move of `like`'s piece, between its squares, of its kind and promotion, for which
    /// `keep` holds.
    fn find_like(
        &self,
        like: &RococoMove,
        keep: impl Fn(&RococoMove) -> bool,
    ) -> Option<RococoMove> {
        if !self.board.by_color(self.turn).has(like.from)
            || self.board.role_at(like.from) != Some(like.role)
        {
            return None;
        }
        SCRATCH.with_borrow_mut(|buf| {
            buf.clear();
            self.generate_raw(buf, Bits128::bit(like.from));
            buf.iter()
                .find(|m| {
                    m.to == like.to
                        && m.kind == like.kind
                        && m.promotion == like.promotion
                        && keep(m)
                })
                .copied()
        })
    }

    /// Whether the side to move has any move at all (a side without one has drawn).
    pub fn has_move(&self) -> bool {
        SCRATCH.with_borrow_mut(|buf| {
            self.board.by_color(self.turn).squares().any(|s| {
                buf.clear();
                self.generate_raw(buf, Bits128::bit(s));
                !buf.is_empty()
            })
        })
    }

    /// Plays a move of this position's list.
    pub fn after(&self, mv: &RococoMove) -> RococoPosition {
        let mut p = *self;
        let us = self.turn;
        let them = us.other();
        p.board.remove_all(them, mv.captures);
        p.last_swap = None;
        match mv.kind {
            RococoKind::Normal => {
                p.board.shift(us, mv.role, mv.from, mv.to);
                if let Some(r) = mv.promotion {
                    p.board.toggle(mv.to, Piece::new(us, mv.role));
                    p.board.toggle(mv.to, Piece::new(us, r));
                }
            }
            RococoKind::Swap => {
                let other = self.board.piece_at(mv.to);
                if let Some(o) = other {
                    p.board.toggle(mv.to, o);
                    p.board.shift(us, mv.role, mv.from, mv.to);
                    p.board.toggle(mv.from, o);
                    let restricted = matches!(
                        (mv.role, o.role),
                        (Role::Swapper, Role::Swapper | Role::Chameleon)
                            | (Role::Chameleon, Role::Swapper)
                    ) && o.color == them;
                    if restricted {
                        p.last_swap = Some((mv.from, mv.to));
                    }
                }
            }
            RococoKind::MutualDestruction | RococoKind::Suicide => {
                p.board.toggle(mv.from, Piece::new(us, mv.role));
            }
        }
        p.turn = them;
        p.plies = self.plies.saturating_add(1);
        p
    }

    /// The position with the other side to move, when the side to move is not in check.
    pub fn null_move(&self) -> Option<RococoPosition> {
        if self.king_capturable(self.turn) {
            return None;
        }
        let mut p = *self;
        p.turn = self.turn.other();
        p.last_swap = None;
        p.plies = self.plies.saturating_add(1);
        Some(p)
    }

    /// Whether `side`'s King can be captured by the other side's next move.
    ///
    /// Answered backwards from the King's square, without generating the other side's moves: each
    /// way a Rococo piece can take a King is a pattern around that square. Why each is complete
    /// (the property tests compare it with the capturing moves of the generator):
    /// - a King, a Chameleon (taking a King the King's way) and a Swapper (mutual destruction)
    ///   take it from a neighbouring square;
    /// - a Cannon Pawn two squares away in a line, over any piece between;
    /// - a Withdrawer or Pushme-Pullyu next to it, moving straight away onto an empty square;
    /// - an Advancer or Pushme-Pullyu moving along a line onto the empty square before it;
    /// - a Long Leaper in a line, jumping it onto the empty square beyond, over pieces of its side
    ///   each followed by an empty square.
    ///
    /// No other capture takes a King (a Chameleon takes only the kind it imitates; a swap takes
    /// nothing of the King's). Only unfrozen pieces move. The swap restriction of the last-swap
    /// field bars swaps, which never take a King; the edge rule keeps, of the moves making one
    /// capture, those crossing the fewest edge squares, so a capture of the King always survives it.
    pub fn king_capturable(&self, side: Color) -> bool {
        match self.board.king(side) {
            Some(k) => self.king_attacked(k, side.other()),
            None => false,
        }
    }

    /// Whether the King of the other side of `by`, on `k`, can be taken by `by`'s next move.
    fn king_attacked(&self, k: u8, by: Color) -> bool {
        let b = &self.board;
        let t = G::t();
        let ku = k as usize;
        // Unfrozen pieces that can take (an Immobilizer takes nothing). A piece is frozen next to
        // an enemy Immobilizer (an Immobilizer next to an enemy Chameleon too, but it takes
        // nothing anyway).
        let their_immobilizers = b.pieces(by.other(), Role::Immobilizer);
        let mut active = b.by_color(by) & !b.pieces(by, Role::Immobilizer);
        if their_immobilizers.any() {
            active &= !G::around(their_immobilizers);
        }
        // Every attacker stands on one of the King's lines.
        if active & LINES[ku] == 0 {
            return false;
        }
        let occ = b.occupied();
        let piece = |r: Role| b.pieces(by, r) & active;
        let near = t.neighbours[ku];
        if (near & (piece(Role::King) | piece(Role::Chameleon) | piece(Role::Swapper))).any() {
            return true;
        }
        let withdrawers = piece(Role::Withdrawer) | piece(Role::PushmePullyu);
        let advancers = piece(Role::Advancer) | piece(Role::PushmePullyu);
        let pawns = piece(Role::CannonPawn);
        let leapers = piece(Role::LongLeaper);
        let prey = b.by_color(by.other());
        for d in ALL_DIRS {
            // `d` points from the King toward the attacker.
            if t.ray[d][ku] & active == 0 {
                continue;
            }
            let Some(first) = G::first_on_ray(k, d, occ) else {
                continue;
            };
            let next = t.step[d][ku];
            // A Long Leaper lands on the square behind the King, seen from the leaper.
            let behind = t.step[opposite(d)][ku];
            let behind_empty = behind != NO_SQUARE && !occ.has(behind);
            if first == next {
                let beyond = t.step[d][first as usize];
                if beyond != NO_SQUARE {
                    // A Withdrawer moving away; a Cannon Pawn over this piece.
                    if withdrawers.has(first) && !occ.has(beyond) {
                        return true;
                    }
                    if pawns.has(beyond) {
                        return true;
                    }
                }
                // A Long Leaper next to the King; nothing else leaps this piece (no empty square
                // between it and the King).
                if leapers.has(first) && behind_empty {
                    return true;
                }
                continue;
            }
            // An Advancer moving onto the empty square before the King.
            if advancers.has(first) {
                return true;
            }
            // A Long Leaper down the line, over pieces of the King's side each with an empty
            // square between it and the piece before it.
            if behind_empty && t.ray[d][ku] & leapers != 0 {
                let (mut cur, mut q) = (k, first);
                loop {
                    if leapers.has(q) {
                        return true;
                    }
                    if !prey.has(q) || t.step[d][cur as usize] == q {
                        break;
                    }
                    cur = q;
                    match G::first_on_ray(cur, d, occ) {
                        Some(n) => q = n,
                        None => break,
                    }
                }
            }
        }
        false
    }

    /// Whether the side to move can capture the enemy King now.
    pub fn can_capture_king(&self) -> bool {
        self.king_capturable(self.turn.other())
    }

    /// Whether a move keeps the mover's King out of capture (or takes the enemy King, which ends the
    /// game at once).
    pub fn keeps_king(&self, mv: &RococoMove) -> bool {
        self.takes_king(mv) || !self.after(mv).king_capturable(self.turn)
    }

    /// The facts [`RococoPosition::keeps_king_with`] needs of this position, found once for all its
    /// moves.
    pub fn king_watch(&self) -> KingWatch {
        self.king_watch_in(self.king_capturable(self.turn))
    }

    /// [`RococoPosition::king_watch`] when whether the mover's King can be taken now is known.
    fn king_watch_in(&self, in_check: bool) -> KingWatch {
        match self.board.king(self.turn) {
            Some(k) => KingWatch {
                safe: !in_check,
                // The King's square too: a swap with the King moves it.
                lines: LINES[k as usize] | Bits128::bit(k),
                mounts: self.mounts(k),
                openers: self.openers(k),
            },
            None => KingWatch {
                safe: true,
                lines: 0,
                mounts: 0,
                openers: 0,
            },
        }
    }

    /// The squares on the lines of the mover's King on `k` whose emptying may open a way to take
    /// it: on a line, the first piece from the King when the next piece is an enemy Advancer or
    /// Pushme-Pullyu; the square beyond an enemy Withdrawer or Pushme-Pullyu next to the King; on a
    /// line with an enemy Long Leaper, the whole line and the square behind the King.
    fn openers(&self, k: u8) -> Bits128 {
        let b = &self.board;
        let t = G::t();
        let them = self.turn.other();
        let occ = b.occupied();
        let withdrawers = b.pieces(them, Role::Withdrawer) | b.pieces(them, Role::PushmePullyu);
        let advancers = b.pieces(them, Role::Advancer) | b.pieces(them, Role::PushmePullyu);
        let leapers = b.pieces(them, Role::LongLeaper);
        let mut openers = 0;
        for d in ALL_DIRS {
            let ray = t.ray[d][k as usize];
            if ray & leapers != 0 {
                let behind = t.step[opposite(d)][k as usize];
                openers |= ray;
                if behind != NO_SQUARE {
                    openers |= Bits128::bit(behind);
                }
                continue;
            }
            // A Withdrawer next to the King is the first piece of its line.
            let next = t.step[d][k as usize];
            if next != NO_SQUARE && withdrawers.has(next) {
                let beyond = t.step[d][next as usize];
                if beyond != NO_SQUARE {
                    openers |= Bits128::bit(beyond);
                }
            }
            // Only a line with an enemy Advancer on it can have one second from the King.
            if ray & advancers == 0 {
                continue;
            }
            let Some(first) = G::first_on_ray(k, d, occ) else {
                continue;
            };
            if G::first_on_ray(first, d, occ).is_some_and(|second| advancers.has(second)) {
                openers |= Bits128::bit(first);
            }
        }
        openers
    }

    /// The squares next to the mover's King on `k` with an enemy Cannon Pawn beyond them on the
    /// line: a piece landing there lets the pawn take the King.
    fn mounts(&self, k: u8) -> Bits128 {
        let t = G::t();
        let pawns = self.board.pieces(self.turn.other(), Role::CannonPawn);
        let mut mounts = 0;
        for d in ALL_DIRS {
            let next = t.step[d][k as usize];
            if next != NO_SQUARE {
                let beyond = t.step[d][next as usize];
                if beyond != NO_SQUARE && pawns.has(beyond) {
                    mounts |= Bits128::bit(next);
                }
            }
        }
        mounts
    }

    /// [`RococoPosition::keeps_king`], answered without playing the move when it cannot matter.
    ///
    /// When the mover's King cannot be taken now, a move of the mover leaves it so unless it opens a
    /// way of taking it (see [`RococoPosition::king_capturable`] for the ways; every attacker,
    /// mount, landing and leaping square lies on the King's eight lines). A move may open one when:
    /// - it moves the King, or one of the mover's Immobilizers, which alone freeze enemy pieces
    ///   (as the moving piece, or as the partner of a swap);
    /// - it is a swap or a mutual destruction touching those lines or the King's square, with its
    ///   squares or its captures (an enemy piece moves onto the square a Swapper leaves; a mutual
    ///   destruction empties two squares of a line at once);
    /// - it lands next to the King with an enemy Cannon Pawn beyond: a mount for the pawn;
    /// - it empties two squares or more of those lines (a Chameleon leaping over the King as a
    ///   Cannon Pawn may also withdraw from a Withdrawer on the line it leaves);
    /// - it empties (leaving it, or taking the enemy piece on it) the first piece on a line from the
    ///   King when the next piece is an enemy Advancer or Pushme-Pullyu (whose way gets free); the
    ///   square beyond an enemy Withdrawer or Pushme-Pullyu next to the King (it gets room to
    ///   withdraw); or any square of a line holding an enemy Long Leaper, or the square behind the
    ///   King from it (its way over the King's side, or its landing square, may get free).
    ///
    /// Nothing else opens a way. Landing on a square only fills it: an Advancer and a Withdrawer
    /// need empty squares, a Long Leaper's way over the King's side needs each piece followed by an
    /// empty square (a way that a new piece completes was open before), and only a piece next to
    /// the King is a Cannon Pawn's mount. Emptying a square that is not the first piece of its line
    /// leaves that piece blocking the line; emptying the first piece lets only the next piece
    /// through, which takes the King only as an Advancer (a Withdrawer and a Cannon Pawn take it
    /// from two squares at most, with the square next to the King as the Withdrawer's place or the
    /// Cannon Pawn's mount).
    /// A property test compares this with playing every move.
    #[inline]
    pub fn keeps_king_with(&self, mv: &RococoMove, watch: &KingWatch) -> bool {
        if watch.safe && mv.role != Role::King && mv.role != Role::Immobilizer {
            let opens = match mv.kind {
                RococoKind::Swap | RococoKind::MutualDestruction => {
                    let touched = Bits128::bit(mv.from) | Bits128::bit(mv.to) | mv.captures;
                    touched & watch.lines != 0
                        || self.board.pieces(self.turn, Role::Immobilizer).has(mv.to)
                }
                RococoKind::Normal | RococoKind::Suicide => {
                    let emptied = Bits128::bit(mv.from) | mv.captures;
                    emptied & watch.openers != 0
                        || (emptied & watch.lines).count() > 1
                        || watch.mounts.has(mv.to)
                }
            };
            if !opens {
                return true;
            }
        }
        self.keeps_king(mv)
    }

    /// The moves that keep the mover's King (or take the enemy King), written into `out` (cleared
    /// first): what a side may play without losing at once.
    pub fn keeping_moves(&self, out: &mut Vec<RococoMove>) {
        self.generate(out);
        let watch = self.king_watch();
        out.retain(|m| self.keeps_king_with(m, &watch));
    }

    /// Whether some move keeps the mover's King (or takes the enemy King).
    ///
    /// The moves are made a piece at a time, and the answer comes with the first move that keeps
    /// the King. Out of check, pieces off the King's lines go first (their moves are judged without
    /// being played, see [`RococoPosition::keeps_king_with`]): usually the first piece's move
    /// answers. In check, the King and the pieces on its lines go first.
    pub fn has_keeping_move(&self) -> bool {
        self.has_keeping_move_in(self.king_capturable(self.turn))
    }

    /// [`RococoPosition::has_keeping_move`] when whether the mover's King can be taken now is
    /// known (`in_check` must be [`RococoPosition::king_capturable`] of the mover).
    pub fn has_keeping_move_in(&self, in_check: bool) -> bool {
        let watch = self.king_watch_in(in_check);
        let ours = self.board.by_color(self.turn);
        // Out of check, the pieces off the King's lines first: their moves keep it unplayed. In
        // check, the King and the pieces on its lines first: they make most of the saving moves.
        // `first` and `then` split the mover's pieces.
        if watch.safe && self.has_keeping_step(&watch) {
            return true;
        }
        let (first, then) = if watch.safe {
            // Cannon Pawns first: they have the fewest moves to make.
            let pawns = self.board.pieces(self.turn, Role::CannonPawn);
            let off = ours & !watch.lines;
            (off & pawns, (off & !pawns) | (ours & watch.lines))
        } else {
            (ours & watch.lines, ours & !watch.lines)
        };
        SCRATCH.with_borrow_mut(|buf| {
            first.squares().chain(then.squares()).any(|s| {
                buf.clear();
                self.generate_raw(buf, Bits128::bit(s));
                buf.iter().any(|m| self.keeps_king_with(m, &watch))
            })
        })
    }

    /// Whether, out of check, some piece of the mover other than the King and an Immobilizer can
    /// step to a next empty square off the edge in a way [`RococoPosition::keeps_king_with`] judges
    /// safe without playing it: a move every such piece has (all of them move a square in any
    /// direction), found without generating moves. The step's captures (a Withdrawer's or a
    /// Pushme-Pullyu's withdrawal, an Advancer's or a Pushme-Pullyu's approach, a Chameleon's as
    /// either) are counted as the generator counts them.
    fn has_keeping_step(&self, watch: &KingWatch) -> bool {
        let b = &self.board;
        let us = self.turn;
        let them = us.other();
        let t = G::t();
        let theirs = b.by_color(them);
        let empty = !b.occupied() & t.all & !t.edge & !watch.mounts;
        let stuck = frozen(b, us, Freezing::Abbott);
        let steppers = b.by_color(us)
            & !stuck
            & !watch.openers
            & !b.pieces(us, Role::King)
            & !b.pieces(us, Role::Immobilizer);
        let enemy = |r: Role| b.pieces(them, r);
        for s in steppers.squares() {
            if t.neighbours[s as usize] & empty == 0 {
                continue;
            }
            let Some(role) = b.role_at(s) else { continue };
            let (withdrawn, approached) = match role {
                Role::Withdrawer => (theirs, 0),
                Role::Advancer => (0, theirs),
                Role::PushmePullyu => (theirs, theirs),
                Role::Chameleon => (
                    enemy(Role::Withdrawer) | enemy(Role::PushmePullyu),
                    enemy(Role::Advancer) | enemy(Role::PushmePullyu),
                ),
                _ => (0, 0),
            };
            for d in ALL_DIRS {
                let to = t.step[d][s as usize];
                if to == NO_SQUARE || !empty.has(to) {
                    continue;
                }
                let behind = t.step[opposite(d)][s as usize];
                let ahead = t.step[d][to as usize];
                let mut emptied = Bits128::bit(s);
                if behind != NO_SQUARE {
                    emptied |= withdrawn & Bits128::bit(behind);
                }
                if ahead != NO_SQUARE {
                    emptied |= approached & Bits128::bit(ahead);
                }
                if emptied & watch.openers == 0 && (emptied & watch.lines).count() <= 1 {
                    return true;
                }
            }
        }
        false
    }

    /// The status of the side to move: `checkmate` when it cannot keep its King (every move leaves it
    /// capturable and none takes the enemy King), `stalemate` when it has no move at all (a draw),
    /// `check` when its King can be captured now but some move saves it.
    pub fn status(&self) -> Status {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return Status::Stalemate;
        }
        let watch = self.king_watch();
        let keeps = moves.iter().any(|m| self.keeps_king_with(m, &watch));
        let check = self.king_capturable(self.turn);
        match (keeps, check) {
            (false, _) => Status::Checkmate,
            (true, true) => Status::Check,
            (true, false) => Status::Ongoing,
        }
    }

    /// The pieces on the squares of a set, in the given coordinates.
    pub fn square_pieces(&self, set: Bits128, coords: Coords) -> Vec<SquarePiece> {
        set.squares()
            .filter_map(|s| {
                self.board.piece_at(s).map(|p| SquarePiece {
                    square: coords.name(s),
                    piece: p.rococo_letter().to_string(),
                })
            })
            .collect()
    }

    /// The canonical name: letter, from, `-` or `x`, to; `S`…`<>` for a swap, `*` for mutual
    /// destruction, `=L` for a promotion; a suicide is `Ld5-d5`.
    pub fn move_name(&self, mv: &RococoMove, coords: Coords) -> String {
        let sep = match mv.kind {
            RococoKind::Swap => "<>",
            RococoKind::MutualDestruction => "*",
            _ if mv.captures.any() => "x",
            _ => "-",
        };
        let promo = mv
            .promotion
            .map(|r| format!("={}", r.rococo_letter()))
            .unwrap_or_default();
        format!(
            "{}{}{sep}{}{promo}",
            mv.role.rococo_letter(),
            coords.name(mv.from),
            coords.name(mv.to)
        )
    }

    /// The machine form of a move, unique among the moves of a position: its from and to squares
    /// (`b3b5`; a suicide is `d5d5`), then `*` for a mutual destruction (`e5e6*`, where the swap
    /// of the same squares is `e5e6`) and `=` with the piece letter for a promotion (`e8e9=L`,
    /// where the move that stays a pawn is `e8e9`). [`RococoPosition::parse_move`] reads it back.
    pub fn uci(mv: &RococoMove, coords: Coords) -> String {
        let mut s = format!("{}{}", coords.name(mv.from), coords.name(mv.to));
        if mv.kind == RococoKind::MutualDestruction {
            s.push('*');
        }
        if let Some(r) = mv.promotion {
            s.push('=');
            s.push(r.rococo_letter());
        }
        s
    }

    /// A move of this position, described in the given coordinates.
    pub fn move_info(&self, mv: &RococoMove, coords: Coords) -> super::MoveInfo {
        super::MoveInfo {
            notation: self.move_name(mv, coords),
            uci: RococoPosition::uci(mv, coords),
            captures: self.square_pieces(mv.captures, coords),
        }
    }

    /// Whether a move takes the enemy King (which wins the game at once).
    pub fn takes_king(&self, mv: &RococoMove) -> bool {
        self.board
            .king(self.turn.other())
            .is_some_and(|k| mv.captures.has(k))
    }

    /// The status of the side to move after a move of this position (`after` is the position it
    /// leads to): `checkmate` when the move took that side's King (the game is over), otherwise
    /// [`RococoPosition::status`] of `after`.
    pub fn status_after(&self, mv: &RococoMove, after: &RococoPosition) -> Status {
        if self.takes_king(mv) {
            Status::Checkmate
        } else {
            after.status()
        }
    }

    /// The piece types `side` may promote to: those of the start army missing from the board.
    fn promotion_choices(&self, side: Color) -> impl Iterator<Item = Role> + '_ {
        ARMY.iter()
            .filter(move |(r, n)| self.board.pieces(side, *r).count() < *n)
            .map(|(r, _)| *r)
    }

    /// The number of moves of the unfrozen Cannon Pawns `pawns` of the side to move, counted for
    /// all of them at once a direction at a time, as [`RococoPosition::generate_raw`] makes them: a
    /// step onto a next empty square, or a jump over a next piece onto the square beyond, empty or
    /// the enemy's (taking it). A move onto the edge that captures nothing is dropped by the edge
    /// rule; the others all stand (a pawn makes each capture one way only: the rule weighs it
    /// only against its own promotions, which cross as many edge squares). A move onto the last
    /// two ranks also promotes, in as many ways as there are choices.
    fn count_pawn_moves(&self, pawns: Bits128) -> u64 {
        let b = &self.board;
        let us = self.turn;
        let t = G::t();
        let ours = b.by_color(us);
        let theirs = b.by_color(us.other());
        let occ = ours | theirs;
        let empty = !occ & t.all;
        let promo = promotion_zone(us);
        // The moves onto each square, and those among them onto the last two ranks.
        let (mut n, mut promoting) = (0, 0);
        for d in ALL_DIRS {
            let next = shift(pawns, d);
            let mounts = next & occ;
            let lands = shift(mounts, d) & !ours;
            // (A square may be one pawn's step and another's landing: two moves.)
            for x in [
                next & empty & !t.edge,
                (lands & empty & !t.edge) | (lands & theirs),
            ] {
                n += u64::from(x.count());
                promoting += u64::from((x & promo).count());
            }
        }
        if promoting > 0 {
            n += promoting * self.promotion_choices(us).count() as u64;
        }
        n
    }

    /// Every move of the pieces on the squares of `pieces`, edge rule included, into `out`.
    ///
    /// The edge rule is applied as each piece's moves are made: a move over or onto edge squares
    /// that captures nothing is never written, and the capturing ones are settled among the moves
    /// of their piece ([`settle_edges`]), since moves of different pieces never compete.
    ///
    /// A move passes over or ends on edge squares exactly when it ends on one (or, for a swap, the
    /// square it swaps with is one): the squares off the edge make a rectangle, and a straight path
    /// from a square of the board to one inside a rectangle passes only over squares inside it
    /// (each coordinate moves monotonically towards the target's). A Cannon Pawn's mount on the
    /// edge puts its landing square on the edge too, or off the board.
    fn generate_raw<S: Sink>(&self, out: &mut S, pieces: Bits128) {
        let b = &self.board;
        let us = self.turn;
        let them = us.other();
        let t = G::t();
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occ = ours | theirs;
        let empty = !occ & t.all;
        let stuck = frozen(b, us, Freezing::Abbott);
        let mut movers = ours & !stuck & pieces;
        let pawns = movers & b.by_role(Role::CannonPawn);
        if pawns != 0 && out.bulk(|| self.count_pawn_moves(pawns)) {
            movers &= !pawns;
        }
        // Whether the current piece made a capturing move over edge squares.
        let mut edged = false;
        let enemy = |r: Role| b.pieces(them, r);
        let swap_forbidden = |from: u8, to: u8| {
            self.last_swap
                .is_some_and(|(a, c)| (from == a && to == c) || (from == c && to == a))
        };
        for s in movers.squares() {
            let Some(role) = b.role_at(s) else { continue };
            let segment = out.list().len();
            edged = false;
            match role {
                Role::King => {
                    let dests = t.neighbours[s as usize] & !ours;
                    out.moves(s, role, dests, theirs, Bits128::bit, &mut edged);
                }
                Role::CannonPawn => {
                    for d in ALL_DIRS {
                        let n = t.step[d][s as usize];
                        if n == NO_SQUARE {
                            continue;
                        }
                        let (to, caps) = if empty.has(n) {
                            (n, 0)
                        } else {
                            let beyond = t.step[d][n as usize];
                            if beyond == NO_SQUARE || ours.has(beyond) {
                                continue;
                            }
                            (beyond, theirs & Bits128::bit(beyond))
                        };
                        let list = out.list();
                        let start = list.len();
                        push(list, &mut edged, s, to, role, RococoKind::Normal, caps);
                        // Promotions share the move's squares, captures and edge squares.
                        if list.len() > start && promotion_zone(us).has(to) {
                            for r in self.promotion_choices(us) {
                                let mut m = list[start];
                                m.promotion = Some(r);
                                list.push(m);
                            }
                        }
                    }
                }
                Role::Withdrawer | Role::Advancer | Role::PushmePullyu | Role::Immobilizer => {
                    let withdraws = matches!(role, Role::Withdrawer | Role::PushmePullyu);
                    let approaches = matches!(role, Role::Advancer | Role::PushmePullyu);
                    for d in ALL_DIRS {
                        let dests = G::slide(s, d, occ) & empty;
                        if dests == 0 {
                            continue;
                        }
                        let behind = t.step[opposite(d)][s as usize];
                        let withdraw = if withdraws && behind != NO_SQUARE {
                            theirs & Bits128::bit(behind)
                        } else {
                            0
                        };
                        let approach = if approaches {
                            approach_end(dests, d, theirs)
                        } else {
                            0
                        };
                        let taking = if withdraw != 0 { dests } else { approach };
                        let caps = |to: u8| {
                            let ahead = t.step[d][to as usize];
                            let approached = if approaches && ahead != NO_SQUARE {
                                theirs & Bits128::bit(ahead)
                            } else {
                                0
                            };
                            withdraw | approached
                        };
                        out.moves(s, role, dests, taking, caps, &mut edged);
                    }
                }
                Role::LongLeaper => {
                    for d in ALL_DIRS {
                        leaps(s, d, occ, empty, theirs, |dests, caps| {
                            let taking = if caps == 0 { 0 } else { dests };
                            out.moves(s, role, dests, taking, |_| caps, &mut edged);
                        });
                    }
                }
                Role::Swapper => {
                    for d in ALL_DIRS {
                        let dests = G::slide(s, d, occ) & empty;
                        out.moves(s, role, dests, 0, |_| 0, &mut edged);
                        if let Some(q) = G::first_on_ray(s, d, occ) {
                            if !swap_forbidden(s, q) {
                                push(out.list(), &mut edged, s, q, role, RococoKind::Swap, 0);
                            }
                        }
                    }
                    for q in (t.neighbours[s as usize] & theirs).squares() {
                        let kind = RococoKind::MutualDestruction;
                        push(out.list(), &mut edged, s, q, role, kind, Bits128::bit(q));
                    }
                }
                Role::Chameleon => {
                    let withdrawers = enemy(Role::Withdrawer) | enemy(Role::PushmePullyu);
                    let advancers = enemy(Role::Advancer) | enemy(Role::PushmePullyu);
                    for d in ALL_DIRS {
                        let behind = t.step[opposite(d)][s as usize];
                        let withdraw = if behind != NO_SQUARE {
                            withdrawers & Bits128::bit(behind)
                        } else {
                            0
                        };
                        let approach = |to: u8| {
                            let ahead = t.step[d][to as usize];
                            if ahead != NO_SQUARE {
                                advancers & Bits128::bit(ahead)
                            } else {
                                0
                            }
                        };
                        let (last, leapt) =
                            leaps(s, d, occ, empty, enemy(Role::LongLeaper), |dests, leapt| {
                                let taking = if leapt | withdraw != 0 {
                                    dests
                                } else {
                                    approach_end(dests, d, advancers)
                                };
                                let caps = |to: u8| leapt | withdraw | approach(to);
                                out.moves(s, role, dests, taking, caps, &mut edged);
                            });
                        // Swapping with an enemy Swapper: the first piece beyond the last square
                        // reached (after any leaps).
                        if let Some(q) = G::first_on_ray(last, d, occ) {
                            if enemy(Role::Swapper).has(q) && !swap_forbidden(s, q) {
                                let caps = leapt | withdraw | approach(q);
                                push(out.list(), &mut edged, s, q, role, RococoKind::Swap, caps);
                            }
                        }
                        // Taking a Cannon Pawn the pawn's way: over an adjacent mount onto it.
                        let mount = t.step[d][s as usize];
                        if mount != NO_SQUARE && occ.has(mount) {
                            let land = t.step[d][mount as usize];
                            if land != NO_SQUARE && enemy(Role::CannonPawn).has(land) {
                                let caps = Bits128::bit(land) | withdraw | approach(land);
                                let kind = RococoKind::Normal;
                                push(out.list(), &mut edged, s, land, role, kind, caps);
                            }
                        }
                        // Taking the King the King's way.
                        let k = t.step[d][s as usize];
                        if k != NO_SQUARE && enemy(Role::King).has(k) {
                            let kind = RococoKind::Normal;
                            push(out.list(), &mut edged, s, k, role, kind, Bits128::bit(k));
                        }
                    }
                    for q in (t.neighbours[s as usize] & enemy(Role::Swapper)).squares() {
                        let kind = RococoKind::MutualDestruction;
                        push(out.list(), &mut edged, s, q, role, kind, Bits128::bit(q));
                    }
                }
                Role::Pawn | Role::Coordinator => {}
            }
            if edged {
                settle_edges(out.list(), segment);
            }
        }
        for s in (ours & stuck & !b.by_role(Role::King) & pieces).squares() {
            if let Some(role) = b.role_at(s) {
                push(out.list(), &mut edged, s, s, role, RococoKind::Suicide, 0);
            }
        }
    }
}

/// The square of a run of empty squares along `d` (from a piece's square, or from a piece it
/// jumped) next to the piece that ends it, as a set, if that piece is one of `targets`: the only
/// square of the run where a move along `d` approaches a piece.
#[inline(always)]
fn approach_end(run: Bits128, d: Dir, targets: Bits128) -> Bits128 {
    let end = if is_positive(d) {
        run.highest()
    } else {
        run.lowest()
    };
    let ahead = G::t().step[d][end as usize];
    if ahead != NO_SQUARE && targets.has(ahead) {
        Bits128::bit(end)
    } else {
        0
    }
}

/// Writes a move, by the edge rule: a move onto an edge square (so over edge squares, see
/// [`RococoPosition::generate_raw`]) is dropped when it captures nothing and is not a swap, and
/// otherwise sets `edged` (its piece's moves are to be settled). A mutual destruction and a
/// suicide move no piece over any square.
#[inline(always)]
fn push(
    out: &mut Vec<RococoMove>,
    edged: &mut bool,
    from: u8,
    to: u8,
    role: Role,
    kind: RococoKind,
    captures: Bits128,
) {
    let moves_over = !matches!(kind, RococoKind::MutualDestruction | RococoKind::Suicide);
    if moves_over && G::t().edge.has(to) {
        if captures == 0 && kind != RococoKind::Swap {
            return;
        }
        *edged = true;
    }
    out.push(RococoMove {
        from,
        to,
        role,
        kind,
        captures,
        promotion: None,
    })
}

/// The squares where a Cannon Pawn of `side` promotes: the last two ranks.
#[inline(always)]
fn promotion_zone(side: Color) -> Bits128 {
    let t = G::t();
    match side {
        Color::White => t.rank[8] | t.rank[9],
        Color::Black => t.rank[0] | t.rank[1],
    }
}

/// The squares one step from those of `set` in direction `d` (the steps that stay on the board).
#[inline(always)]
fn shift(set: Bits128, d: Dir) -> Bits128 {
    let t = G::t();
    let not_a = !t.file[0];
    let not_j = !t.file[9];
    let moved = match d {
        N => set << 10,
        S => set >> 10,
        E => (set & not_j) << 1,
        W => (set & not_a) >> 1,
        NE => (set & not_j) << 11,
        NW => (set & not_a) << 9,
        SE => (set & not_j) >> 9,
        _ => (set & not_a) >> 11,
    };
    moved & t.all
}

/// Where [`RococoPosition::generate_raw`] puts the moves it finds: a list, or a count.
trait Sink {
    /// Whether the sink takes a count of moves rather than the moves, and if so takes `count()`.
    fn bulk(&mut self, count: impl FnOnce() -> u64) -> bool;
    /// The list the moves are written to (for a count, those that may compete under the edge
    /// rule).
    fn list(&mut self) -> &mut Vec<RococoMove>;
    /// The normal moves of `role` from `from` to each square of `dests`, in ascending order: onto
    /// the squares of `taking`, capturing `caps(to)`, onto the others capturing nothing.
    fn moves(
        &mut self,
        from: u8,
        role: Role,
        dests: Bits128,
        taking: Bits128,
        caps: impl Fn(u8) -> Bits128,
        edged: &mut bool,
    );
}

impl Sink for Vec<RococoMove> {
    fn bulk(&mut self, _: impl FnOnce() -> u64) -> bool {
        false
    }
    fn list(&mut self) -> &mut Vec<RococoMove> {
        self
    }
    #[inline(always)]
    fn moves(
        &mut self,
        from: u8,
        role: Role,
        dests: Bits128,
        taking: Bits128,
        caps: impl Fn(u8) -> Bits128,
        edged: &mut bool,
    ) {
        for to in dests.squares() {
            let c = if taking.has(to) { caps(to) } else { 0 };
            push(self, edged, from, to, role, RococoKind::Normal, c);
        }
    }
}

/// Counts the moves (perft's last ply): a move that captures nothing and ends off the edge is
/// counted without being written, since the edge rule never drops it and never weighs it against
/// another (only moves that capture, or swap, over edge squares are weighed, against moves making
/// the same capture or swap); the others are written to `rest` and settled as in a list.
struct Count<'a> {
    quiet: u64,
    rest: &'a mut Vec<RococoMove>,
}

impl Sink for Count<'_> {
    fn bulk(&mut self, count: impl FnOnce() -> u64) -> bool {
        self.quiet += count();
        true
    }
    fn list(&mut self) -> &mut Vec<RococoMove> {
        self.rest
    }
    #[inline(always)]
    fn moves(
        &mut self,
        from: u8,
        role: Role,
        dests: Bits128,
        taking: Bits128,
        caps: impl Fn(u8) -> Bits128,
        edged: &mut bool,
    ) {
        self.quiet += u64::from((dests & !taking & !G::t().edge).count());
        for to in (dests & taking).squares() {
            push(
                self.rest,
                edged,
                from,
                to,
                role,
                RococoKind::Normal,
                caps(to),
            );
        }
    }
}

/// Walks a line from `s` in direction `d`, jumping pieces of `jumpable` each followed by an empty
/// square, calling `land` with each run of empty squares reached (never an empty one) and the
/// pieces jumped before it. Returns the square the last run starts from (`s`, or the last piece
/// jumped) and the pieces jumped: the first piece of `occ` from that square along `d` is the one
/// that stopped the walk.
fn leaps(
    s: u8,
    d: Dir,
    occ: Bits128,
    empty: Bits128,
    jumpable: Bits128,
    mut land: impl FnMut(Bits128, Bits128),
) -> (u8, Bits128) {
    let t = G::t();
    let mut cur = s;
    let mut caps = 0;
    loop {
        let reach = G::slide(cur, d, occ) & empty;
        if reach != 0 {
            land(reach, caps);
        }
        let Some(q) = G::first_on_ray(cur, d, occ) else {
            return (cur, caps);
        };
        let beyond = t.step[d][q as usize];
        if !jumpable.has(q) || beyond == NO_SQUARE || occ.has(beyond) {
            return (cur, caps);
        }
        caps |= Bits128::bit(q);
        cur = q;
    }
}

/// The edge squares a move passes over or ends on (a mutual destruction and a suicide move no
/// piece over any). Every other move goes along one line, the King's and the Cannon Pawn's too.
fn edge_squares(m: &RococoMove) -> u32 {
    if matches!(m.kind, RococoKind::MutualDestruction | RococoKind::Suicide) {
        return 0;
    }
    let t = G::t();
    match G::direction(m.from, m.to) {
        Some(d) => ((t.ray[d][m.from as usize] & !t.ray[d][m.to as usize]) & t.edge).count(),
        None => 0,
    }
}

/// The edge rule among the moves of one piece, `out[segment..]`: a capturing move over or onto
/// edge squares (non-capturing ones were never written) is kept only when no move of the piece
/// making the same capture (a swap counts, with its square) crosses fewer edge squares.
///
/// In place and without allocating: a move is dropped exactly when it crosses more edge squares
/// than the fewest of its group, and a move with the fewest is never dropped, so each move is
/// judged against the moves kept so far and those not yet judged.
fn settle_edges(out: &mut Vec<RococoMove>, segment: usize) {
    let key = |m: &RococoMove| {
        let swap = if m.kind == RococoKind::Swap {
            m.to
        } else {
            NO_SQUARE
        };
        (m.captures, swap, m.kind == RococoKind::MutualDestruction)
    };
    let mut write = segment;
    for read in segment..out.len() {
        let m = out[read];
        let e = edge_squares(&m);
        let beaten = e > 0
            && out[segment..write]
                .iter()
                .chain(&out[read + 1..])
                .any(|o| key(o) == key(&m) && edge_squares(o) < e);
        if !beaten {
            out[write] = m;
            write += 1;
        }
    }
    out.truncate(write);
}

impl Coords {
    /// A text (a move, a `uci`, a square) with every square name written in `from`'s coordinates
    /// rewritten in `self`'s; anything else is kept. A square name is a lower-case letter followed by
    /// digits (a page `x` followed by a letter is a capture mark, as when reading moves); a name that
    /// is no square of `from` is kept as it is.
    ///
    /// ```
    /// use baroque_rules::rococo::Coords;
    /// assert_eq!(Coords::Page.restate("Xb3xb5", Coords::Standard), "Xa2xa4");
    /// assert_eq!(Coords::Standard.restate("Lx00-x2", Coords::Page), "La10-a3");
    /// assert_eq!(Coords::Standard.restate("Sa2<>y00", Coords::Page), "Sb3<>j10");
    /// ```
    pub fn restate(self, text: &str, from: Coords) -> String {
        if self == from {
            return text.to_string();
        }
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len() + 2);
        let mut i = 0;
        while i < bytes.len() {
            let starts_square =
                bytes[i].is_ascii_lowercase() && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if !starts_square {
                // Whole characters: the text may hold any UTF-8.
                let c = text[i..].chars().next().unwrap_or('?');
                out.push(c);
                i += c.len_utf8();
                continue;
            }
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let name = &text[start..i];
            match from.parse(name) {
                Some(sq) => out.push_str(&self.name(sq)),
                None => out.push_str(name),
            }
        }
        out
    }
}

fn parse_swap(t: &str, coords: Coords) -> Option<(u8, u8)> {
    // Split where the second square's file letter starts.
    let split = t
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i)?;
    Some((coords.parse(&t[..split])?, coords.parse(&t[split..])?))
}

/// Why a Rococo move was refused: the same [`super::MoveError`] as Baroque's (never
/// `self_check`: in Rococo a move may leave the King capturable).
pub type RococoMoveError = super::notation::MoveError;

impl RococoPosition {
    /// Reads a move: `Xb3-b5`, `Xb3xb5`, `b3b5`, `Sb2<>e5` (swap), `Se5*f6` (mutual destruction),
    /// `Pe8-e9=L` (promotion), `Le5-e5` (suicide), the `uci` forms `e5f6*` and `e8e9=L`, or the
    /// short form `Le9` when one move fits. Squares in the given coordinates. A capture mark `x` is
    /// checked; without `=`, a pawn reaching the promotion ranks stays a pawn; without `*`, a
    /// Swapper's (or Chameleon's) move to an enemy piece's square is the swap when it has one.
    pub fn parse_move(&self, input: &str, coords: Coords) -> Result<RococoMove, RococoMoveError> {
        use super::notation::MoveErrorKind as K;
        let err = |kind: K, message: String| RococoMoveError {
            kind,
            message,
            candidates: Vec::new(),
        };
        let unparsable = |why: &str| err(K::Unparsable, format!("`{input}` is not a move: {why}"));
        let mut s = input.trim();
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && s[digits..].starts_with('.') {
            s = s[digits..].trim_start_matches('.').trim_start();
        }
        s = s.trim_end_matches(['+', '#', '!', '?']);
        let (body, promotion) = match s.split_once('=') {
            Some((b, p)) => {
                let mut cs = p.chars();
                let r = match (cs.next(), cs.next()) {
                    (Some(c), None) => Role::from_rococo_letter(c)
                        .filter(|r| !matches!(r, Role::King | Role::CannonPawn))
                        .ok_or_else(|| {
                            unparsable(&format!("`{c}` is not a piece to promote to"))
                        })?,
                    _ => return Err(unparsable("`=` must be followed by one piece letter")),
                };
                (b, Some(r))
            }
            None => (s, None),
        };
        let bytes = body.as_bytes();
        if bytes.is_empty() {
            return Err(unparsable("it is empty"));
        }
        let mut i = 0;
        let mut role = None;
        if bytes[0].is_ascii_uppercase() {
            role = Some(Role::from_rococo_letter(bytes[0] as char).ok_or_else(|| {
                unparsable(&format!(
                    "`{}` is not a Rococo piece letter",
                    bytes[0] as char
                ))
            })?);
            i = 1;
        }
        let (mut squares, mut marks) = (Vec::new(), Vec::new());
        while i < bytes.len() {
            let rest = &body[i..];
            // In the page's coordinates `x` is also a file: `x` before a digit starts a square.
            let page_file_x = coords == Coords::Page
                && bytes[i] == b'x'
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
            if let Some(sep) = ["<>", "-", "x", "*", ":"]
                .iter()
                .find(|p| rest.starts_with(**p))
                .filter(|_| !page_file_x)
            {
                marks.push(*sep);
                i += sep.len();
                continue;
            }
            if bytes[i].is_ascii_lowercase() {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let name = &body[start..i];
                squares.push(coords.parse(name).ok_or_else(|| {
                    unparsable(&format!("`{name}` is not a square of the board"))
                })?);
                continue;
            }
            return Err(unparsable(&format!("unexpected `{}`", bytes[i] as char)));
        }
        let kind_wanted = if marks.contains(&"<>") {
            Some(RococoKind::Swap)
        } else if marks.contains(&"*") {
            Some(RococoKind::MutualDestruction)
        } else {
            None
        };
        let capture_mark = marks.iter().any(|m| *m == "x" || *m == ":");
        let moves = self.legal_moves();
        let fits: Vec<RococoMove> = match squares.as_slice() {
            [to] => {
                let Some(r) = role else {
                    return Err(unparsable("a single square needs a piece letter before it"));
                };
                moves
                    .iter()
                    .filter(|m| m.role == r && m.to == *to && m.from != m.to)
                    .copied()
                    .collect()
            }
            [from, .., to] => {
                let us = self.turn;
                match self.board.piece_at(*from) {
                    Some(p) if p.color == us && role.is_none_or(|r| r == p.role) => {}
                    Some(p) => {
                        return Err(err(
                            K::NoPiece,
                            format!(
                                "`{input}`: {} holds a {}, not a {us} {}",
                                coords.name(*from),
                                p.describe(),
                                role.map_or("piece", |r| r.name())
                            ),
                        ))
                    }
                    None => {
                        return Err(err(
                            K::NoPiece,
                            format!("`{input}`: there is no piece on {}", coords.name(*from)),
                        ))
                    }
                }
                if from != to && self.frozen().has(*from) {
                    return Err(err(
                        K::Frozen,
                        format!("`{input}`: the piece on {} is frozen", coords.name(*from)),
                    ));
                }
                moves
                    .iter()
                    .filter(|m| m.from == *from && m.to == *to)
                    .copied()
                    .collect()
            }
            [] => return Err(unparsable("it names no square")),
        };
        let fits: Vec<RococoMove> = fits
            .into_iter()
            .filter(|m| kind_wanted.is_none_or(|k| m.kind == k))
            .filter(|m| m.promotion == promotion)
            .filter(|m| !capture_mark || m.captures.any())
            .collect();
        // Without `*`, a mutual destruction is named only where it is the one move that fits: a
        // swap of the same squares is `e5e6`, the destruction `e5e6*` (each move's `uci`).
        let fits = if kind_wanted.is_none()
            && fits.iter().any(|m| m.kind == RococoKind::MutualDestruction)
            && fits.iter().any(|m| m.kind != RococoKind::MutualDestruction)
        {
            fits.into_iter()
                .filter(|m| m.kind != RococoKind::MutualDestruction)
                .collect()
        } else {
            fits
        };
        match fits.len() {
            1 => Ok(fits[0]),
            0 => Err(err(
                K::NotAMove,
                format!("`{input}` is not a move of this position"),
            )),
            _ => {
                let candidates: Vec<String> =
                    fits.iter().map(|m| self.move_name(m, coords)).collect();
                Err(RococoMoveError {
                    kind: K::Ambiguous,
                    message: format!("`{input}` fits several moves: {}", candidates.join(", ")),
                    candidates,
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_coordinates_map_onto_ours() {
        let p = Coords::Page;
        assert_eq!(p.parse("a1"), G::parse_square("b2"));
        assert_eq!(p.parse("x00"), G::parse_square("a10"));
        assert_eq!(p.parse("y0"), G::parse_square("j1"));
        assert_eq!(p.parse("h8"), G::parse_square("i9"));
        assert_eq!(p.parse("a9"), None);
        for sq in 0..100 {
            assert_eq!(p.parse(&p.name(sq)), Some(sq));
            assert_eq!(Coords::Standard.parse(&Coords::Standard.name(sq)), Some(sq));
        }
    }

    #[test]
    fn restate_renames_every_square_and_nothing_else() {
        let (s, p) = (Coords::Standard, Coords::Page);
        for sq in 0..100 {
            let (std, page) = (s.name(sq), p.name(sq));
            assert_eq!(p.restate(&std, s), page);
            assert_eq!(s.restate(&page, p), std);
            // In moves, with capture marks (a page `x` file next to an `x` mark too).
            let text = format!("X{std}x{std}<>{std}*{std}=L");
            let want = format!("X{page}x{page}<>{page}*{page}=L");
            assert_eq!(p.restate(&text, s), want);
            assert_eq!(s.restate(&want, p), text);
        }
        assert_eq!(p.restate("Sa10<>j1", s), "Sx00<>y0");
        assert_eq!(s.restate("Xx00xx1", p), "Xa10xa2");
        // Names that are no square are kept, and so is any other text.
        assert_eq!(p.restate("k1 z9 é a11", s), "k1 z9 é a11");
        assert_eq!(s.restate("a9", p), "a9");
    }

    #[test]
    fn start_position_reads_and_writes() {
        let p = RococoPosition::start();
        assert_eq!(p.fen(Coords::Standard), ROCOCO_START_FEN);
        assert_eq!(p.board.occupied().count(), 32);
        assert!(p.validate().iter().all(|x| !x.is_error()));
    }
}
