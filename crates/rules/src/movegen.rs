//! Move generation for Baroque: every piece with every capture kind.
//!
//! Pseudo-legal moves are generated per piece; a move is legal when it does not leave the mover's
//! King capturable ([`super::attacks::capturable`]). The generator writes into a caller-owned
//! `Vec<Move>` that is cleared, not reallocated, so the search path does not allocate once the
//! buffers have grown.

use super::attacks::{capturable, capturable_by};
use super::bitset::BitSet;
use super::freeze::frozen;
use super::geometry::{is_orthogonal, opposite, Dir, Geometry, ALL_DIRS, NO_SQUARE, ORTHOGONAL};
use super::piece::{Color, Role};
use super::position::{Bits, Move, MoveKind, Position, G8};
use super::ruleset::Leaper;

/// A quick test that a move keeps the mover's King safe (see [`Position::guard`]).
#[derive(Clone, Copy, Debug)]
struct Guard {
    relevant: Bits,
    /// Squares of our Immobilizers whose leaving would free an enemy piece that can capture.
    freeing: Bits,
    /// The enemy's unfrozen pieces now.
    live: Bits,
    /// The enemy's Immobilizers and Chameleons.
    cancellers: Bits,
}

impl Guard {
    /// True when the move surely keeps the King safe; false when it must be tested.
    #[inline(always)]
    fn passes(&self, m: &Move) -> bool {
        let touched = Bits::bit(m.from) | Bits::bit(m.to) | m.captures;
        touched & self.relevant == 0
            && match m.role {
                Role::King => false,
                Role::Immobilizer => !self.freeing.has(m.from),
                _ => true,
            }
    }

    /// The enemy's unfrozen pieces after a move of ours (or a suicide) that neither moves an
    /// Immobilizer nor takes an enemy Immobilizer or Chameleon: those of now, less the captured. Only our
    /// Immobilizers freeze the enemy's capturing pieces (our Chameleons freeze only Immobilizers,
    /// which capture nothing), and only an enemy Immobilizer or Chameleon can cancel that
    /// (Cambridge freezing): taking one may freeze more. `None`: work it out afresh.
    #[inline(always)]
    fn live_after(&self, m: &Move) -> Option<Bits> {
        (m.role != Role::Immobilizer && m.captures & self.cancellers == 0)
            .then_some(self.live & !m.captures)
    }
}

/// A list of moves (a reused buffer).
pub type MoveList = Vec<Move>;

/// What the moving side needs to know while generating.
struct Ctx {
    occ: Bits,
    /// The squares a move may end on: the empty ones among the targets.
    dest: Bits,
    king: Option<u8>,
    single: bool,
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut v = Vec::with_capacity(64);
        self.generate_legal(&mut v);
        v
    }

    /// Every pseudo-legal move: moves of unfrozen pieces (and suicides, when on) whether or not they
    /// leave the mover's King capturable. A move that captures the enemy King is among them when the
    /// position allows one.
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut v = Vec::with_capacity(64);
        self.generate_pseudo(self.movers(), &mut v);
        self.generate_suicides(&mut v);
        v
    }

    /// Writes every legal move into `out` (cleared first).
    pub fn generate_legal(&self, out: &mut MoveList) {
        out.clear();
        self.generate_pseudo(self.movers(), out);
        self.generate_suicides(out);
        let guard = self.guard();
        out.retain(|m| guard.passes(m) || self.is_safe_with(m, &guard));
    }

    /// Writes the legal moves that end on `targets` into `out` (cleared first): what
    /// [`Position::generate_legal`] gives that ends there, without making the others or testing
    /// their legality. A suicide ends on the square it leaves.
    pub fn generate_legal_to(&self, targets: Bits, out: &mut MoveList) {
        out.clear();
        self.generate_pseudo_to(self.movers(), targets, out);
        self.generate_suicides(out);
        if out.is_empty() {
            return;
        }
        let guard = self.guard();
        out.retain(|m| targets.has(m.to) && (guard.passes(m) || self.is_safe_with(m, &guard)));
    }

    /// The number of legal moves (perft's last ply), counted as they are generated (`buf` is
    /// left untouched).
    pub fn count_legal(&self, _buf: &mut MoveList) -> u64 {
        let mut count = LegalCount {
            pos: self,
            guard: self.guard(),
            n: 0,
        };
        self.generate_pseudo(self.movers(), &mut count);
        self.generate_suicides(&mut count);
        count.n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        thread_local! {
            /// A buffer per thread, so that the test does not allocate once warm.
            static SCRATCH: std::cell::RefCell<MoveList> = std::cell::RefCell::new(Vec::with_capacity(256));
        }
        // The King's moves first: in check (where this test is asked most, to tell mate), a King
        // step is the likeliest way out, and finding one spares generating the other moves.
        let test = |buf: &mut MoveList| {
            let guard = self.guard();
            let legal = |buf: &MoveList| {
                buf.iter()
                    .any(|m| guard.passes(m) || self.is_safe_with(m, &guard))
            };
            let movers = self.movers();
            let kings = movers & self.board.by_role(Role::King);
            buf.clear();
            self.generate_pseudo(kings, buf);
            if legal(buf) {
                return true;
            }
            // Then piece by piece, so that the first piece with a legal move ends the test
            // without generating the others' moves (most positions have one: what a stalemate
            // test, asked of every attacker move at the last ply of `=N`, finds first).
            for s in (movers & !kings).squares() {
                buf.clear();
                self.generate_pseudo(Bits::bit(s), buf);
                if legal(buf) {
                    return true;
                }
            }
            buf.clear();
            self.generate_suicides(buf);
            legal(buf)
        };
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut buf) => test(&mut buf),
            Err(_) => test(&mut Vec::new()),
        })
    }

    /// The squares where a move of ours could change whether our King can be captured.
    ///
    /// When our King is safe now, a move that changes occupancy only off these squares, and moves
    /// neither the King nor an Immobilizer that freezes a capturing enemy piece, keeps it safe: the
    /// enemy's capturing pieces that are frozen stay frozen (only our Immobilizers freeze them, our
    /// Chameleons freezing only Immobilizers, which capture nothing; captures only freeze more),
    /// and each capture kind depends only on
    /// squares of the set: the square each adjacent enemy Withdrawer would withdraw to, the lines
    /// of the King that hold an enemy Long Leaper with the square behind the King it would land
    /// on, and, for each side of the King with an enemy piece opposite, the rank and file
    /// of the square a Pawn would arrive on. A live enemy Coordinator whose King shares a line with
    /// ours can reach from anywhere, so then every move is tested.
    fn guard(&self) -> Guard {
        let us = self.turn;
        let them = us.other();
        let b = &self.board;
        // The enemy's unfrozen pieces: the lines watched, the reuse by `is_safe_with`.
        let live = b.by_color(them) & !frozen(b, them, self.rules.freezing());
        let cancellers = b.pieces(them, Role::Immobilizer) | b.pieces(them, Role::Chameleon);
        let every = Guard {
            relevant: !0,
            freeing: !0,
            live,
            cancellers,
        };
        let Some(k) = self.board.king(us) else {
            return Guard {
                relevant: 0,
                freeing: 0,
                live,
                cancellers,
            };
        };
        if b.pieces(them, Role::Coordinator).any() {
            if let Some(ka) = b.king(them) {
                if G8::rank_of(ka) == G8::rank_of(k) || G8::file_of(ka) == G8::file_of(k) {
                    return every;
                }
            }
        }
        if capturable_by(b, k, them, live, &self.rules) {
            return every;
        }
        let t = G8::t();
        // Only we move: the pieces next to the King that capture by stepping onto it can or
        // cannot already; a Long Leaper's line matters only if one stands on it (with the square
        // behind the King it lands on), and a Withdrawer's only the square it would withdraw to.
        let mut relevant = 0;
        let leapers = live & b.by_role(Role::LongLeaper);
        let withdrawers = live & b.by_role(Role::Withdrawer);
        for d in ALL_DIRS {
            let ray = t.ray[d][k as usize];
            if ray & leapers != 0 {
                relevant |= ray;
                let land = t.step[opposite(d)][k as usize];
                if land != NO_SQUARE {
                    relevant |= Bits::bit(land);
                }
            }
            relevant |= withdrawal(k, d, withdrawers);
        }
        if b.pieces(them, Role::Pawn).any() {
            let theirs = b.by_color(them);
            for d in ORTHOGONAL {
                let a = t.step[d][k as usize];
                let far = t.step[opposite(d)][k as usize];
                if a != NO_SQUARE && far != NO_SQUARE && theirs.has(far) {
                    relevant |= t.file[G8::file_of(a) as usize] | t.rank[G8::rank_of(a) as usize];
                }
            }
        }
        // An Immobilizer of ours that freezes a capturing enemy piece frees it by leaving
        // (unless another freezes it too: then it is tested all the same).
        let held = b.by_color(them) & !live & !b.by_role(Role::Immobilizer);
        let mut freeing = 0;
        for i in b.pieces(us, Role::Immobilizer).squares() {
            if held != 0 && t.neighbours[i as usize] & held != 0 {
                freeing |= Bits::bit(i);
            }
        }
        Guard {
            relevant,
            freeing,
            live,
            cancellers,
        }
    }

    /// Keeps, of moves of this position, those that may give check (every one that does, and
    /// some that do not).
    ///
    /// The opponent must not be in check now (it cannot be with us to move in a position that can
    /// arise, and [`Position::validate`] refuses one where it is). Its King's guard (the one legality uses for the mover's own King, with the roles
    /// swapped) holds the squares where any of our capture kinds reaches that King from; a move of
    /// ours that changes
    /// occupancy only off them cannot bring one of our pieces to such a square nor open a line for
    /// one. Added to them: the enemy Immobilizers and Chameleons (taking one may free our pieces),
    /// and, where a friendly Immobilizer or Chameleon cancels an enemy Immobilizer (Cambridge
    /// freezing), the squares next to the enemy Immobilizers (arriving there frees our pieces).
    /// Our King gives our Coordinators a way to the enemy King only from that King's rank or file,
    /// which the guard holds; the other moves of our Immobilizers and Chameleons change only what
    /// is frozen among the enemy's pieces, which does not change what our pieces can take. Without
    /// an opponent King nothing gives check.
    pub fn retain_possible_checks(&self, moves: &mut MoveList) {
        match self.check_squares() {
            Some(relevant) => moves.retain(|m| touches(m, relevant)),
            None => moves.clear(),
        }
    }

    /// The squares a move must touch (leave, reach or capture on) to possibly give check, as
    /// [`Position::retain_possible_checks`] argues; `None` without an opponent King (nothing
    /// gives check).
    ///
    /// The opponent's King is safe now. After one move of ours it can be taken next move only by:
    /// - a King or Chameleon of ours next to it (stepping onto it), a Withdrawer next to it with
    ///   the square beyond it, away from the King, empty, a Pawn arriving next to it with a piece
    ///   of ours on the other side: the King's neighbours, and the squares each adjacent
    ///   Withdrawer would withdraw to;
    /// - a Long Leaper on one of its lines, the square behind the King empty: on each line whose
    ///   landing square is empty, the squares out to our first piece (a Leaper arriving or a
    ///   blocker leaving), and every landing square (one of ours may leave it);
    /// - a Pawn sliding next to it with a piece of ours opposite: from each such empty square,
    ///   the squares out to the first piece along its rank and file;
    /// - a Coordinator, once our King stands on the King's rank or file: those lines (our King
    ///   arriving). Kings already sharing a line, with a Coordinator of ours on the board: every
    ///   square (a Coordinator freed or let through from anywhere may reach).
    ///
    /// Added: the enemy Immobilizers and Chameleons (taking one may free our pieces) and, under
    /// Cambridge freezing, the squares next to the enemy Immobilizers (arriving there may cancel
    /// one). Frozen pieces of ours count as if they were not (a superset does no harm).
    fn check_squares(&self) -> Option<Bits> {
        let us = self.turn;
        let them = us.other();
        let b = &self.board;
        let k = b.king(them)?;
        let t = G8::t();
        let ours = b.by_color(us);
        let occ = b.occupied();
        let coordinators = b.pieces(us, Role::Coordinator);
        let (kf, kr) = (G8::file_of(k), G8::rank_of(k));
        let mut relevant = t.neighbours[k as usize];
        if coordinators.any() {
            if let Some(ka) = b.king(us) {
                if G8::rank_of(ka) == kr || G8::file_of(ka) == kf {
                    return Some(!0);
                }
                relevant |= t.rank[kr as usize] | t.file[kf as usize];
            }
        }
        let leapers = b.pieces(us, Role::LongLeaper).any();
        let withdrawers = b.pieces(us, Role::Withdrawer);
        for d in ALL_DIRS {
            let land = t.step[opposite(d)][k as usize];
            if leapers && land != NO_SQUARE {
                relevant |= Bits::bit(land);
                if !occ.has(land) {
                    relevant |= G8::slide(k, d, ours);
                }
            }
            relevant |= withdrawal(k, d, withdrawers);
        }
        if b.pieces(us, Role::Pawn).any() {
            for d in ORTHOGONAL {
                let a = t.step[d][k as usize];
                let far = t.step[opposite(d)][k as usize];
                if a != NO_SQUARE && far != NO_SQUARE && ours.has(far) && !occ.has(a) {
                    for e in ORTHOGONAL {
                        relevant |= G8::slide(a, e, occ);
                    }
                }
            }
        }
        let immobilizers = b.pieces(them, Role::Immobilizer);
        relevant |= immobilizers | b.pieces(them, Role::Chameleon);
        if self.rules.freezing() == super::ruleset::Freezing::Cambridge {
            for sq in immobilizers.squares() {
                relevant |= t.neighbours[sq as usize];
            }
        }
        Some(relevant)
    }

    /// A legal move that cannot give check (one that [`Position::retain_possible_checks`] drops),
    /// if there is one: what refutes "every move mates" at once (the last move of a selfmate).
    /// Only such moves are tested for legality, until one passes; the guard is worked out only if
    /// one is met. A piece standing on a square a check needs makes no such move (each of its
    /// moves leaves that square), so only the others are generated, one piece at a time, until
    /// one has a legal quiet move.
    pub fn legal_quiet_move(&self) -> Option<Move> {
        let Some(relevant) = self.check_squares() else {
            return self.legal_moves().first().copied();
        };
        let mut sink = QuietLegal::new(self, relevant);
        for s in (self.movers() & !relevant).squares() {
            self.generate_pseudo(Bits::bit(s), &mut sink);
            if sink.found.is_some() {
                return sink.found;
            }
        }
        self.generate_suicides(&mut sink);
        sink.found
    }

    /// Two legal moves that cannot give check, as [`Position::legal_quiet_move`] tests them, by
    /// pieces other than Immobilizers and Chameleons and no suicide: the replies
    /// [`Position::quiet_reply`] can take. By two pieces where two have one (a move of the
    /// opponent seldom touches both), else two of the one piece that has one (a lone King's steps
    /// to two squares). None without an opponent King.
    pub fn two_legal_quiet_moves(&self) -> [Option<Move>; 2] {
        let mut found = [None; 2];
        let Some(relevant) = self.check_squares() else {
            return found;
        };
        let b = &self.board;
        let others = b.pieces(self.turn, Role::Immobilizer) | b.pieces(self.turn, Role::Chameleon);
        let mut sink = QuietLegal::new(self, relevant);
        let pieces = self.movers() & !relevant & !others;
        for s in pieces.squares() {
            self.generate_pseudo(Bits::bit(s), &mut sink);
            if let Some(m) = sink.found.take() {
                if found[0].is_none() {
                    found[0] = Some(m);
                } else {
                    found[1] = Some(m);
                    return found;
                }
            }
        }
        if let Some(first) = found[0] {
            sink.skip = Some(first);
            self.generate_pseudo(Bits::bit(first.from), &mut sink);
            found[1] = sink.found;
        }
        found
    }

    /// The legal moves that give check. Only the pseudo-legal moves that may give check (see
    /// [`Position::retain_possible_checks`]) are made, and each is tested for check before its
    /// legality: most give none, and the guard legality needs is worked out only when one does.
    pub fn generate_legal_checks(&self, out: &mut MoveList) {
        out.clear();
        let Some(relevant) = self.check_squares() else {
            return;
        };
        self.generate_pseudo_touching(relevant, out);
        self.generate_suicides(out);
        out.retain(|m| touches(m, relevant) && self.gives_check(m));
        if out.is_empty() {
            return;
        }
        let guard = self.guard();
        out.retain(|m| guard.passes(m) || self.is_safe_with(m, &guard));
    }

    /// Pseudo-legal normal moves of the side to move, at least every one that touches (leaves,
    /// reaches or captures on) `squares`, without generating most of the others. A piece standing
    /// on one of the squares makes every move. A piece off them makes the moves that arrive on one
    /// and, by kind, those that may capture an enemy piece on one (a victim):
    /// - a King or an Immobilizer captures at most where it arrives: nothing more;
    /// - a Pawn captures next to where it arrives: arrivals next to a victim too;
    /// - a Withdrawer captures next to where it leaves from, a Long Leaper on its lines: every
    ///   move when a victim stands there;
    /// - a Coordinator captures where its file meets our King's rank and its rank our King's
    ///   file: arrivals on the file of a victim on our King's rank, and on the rank of a victim
    ///   on our King's file;
    /// - a Chameleon captures as each of them, the pieces of that kind: every move when a
    ///   Withdrawer or Long Leaper among the victims stands on its lines; else arrivals next to
    ///   a Pawn victim and on the lines of a Coordinator victim, as above.
    fn generate_pseudo_touching(&self, squares: Bits, out: &mut MoveList) {
        let b = &self.board;
        let t = G8::t();
        let us = self.turn;
        let them = us.other();
        let movers = self.movers();
        let victims = squares & b.by_color(them);
        let lines = |s: u8| {
            ALL_DIRS
                .iter()
                .fold(0, |acc, &d| acc | t.ray[d][s as usize])
        };
        let around = |set: Bits| {
            set.squares()
                .fold(0, |acc, v| acc | t.neighbours[v as usize])
        };
        let coordinated = |set: Bits| match b.king(us) {
            Some(k) => set.squares().fold(0, |mut acc, v| {
                if G8::rank_of(v) == G8::rank_of(k) {
                    acc |= t.file[G8::file_of(v) as usize];
                }
                if G8::file_of(v) == G8::file_of(k) {
                    acc |= t.rank[G8::rank_of(v) as usize];
                }
                acc
            }),
            None => 0,
        };
        let mut all = movers & squares;
        let near = around(victims);
        all |= movers & b.by_role(Role::Withdrawer) & near;
        for s in (movers & !all & b.by_role(Role::LongLeaper)).squares() {
            if lines(s) & victims != 0 {
                all |= Bits::bit(s);
            }
        }
        let leaping = victims & (b.by_role(Role::LongLeaper) | b.by_role(Role::Withdrawer));
        let chameleons = movers & !all & b.by_role(Role::Chameleon);
        for s in chameleons.squares() {
            if lines(s) & leaping != 0 {
                all |= Bits::bit(s);
            }
        }
        self.generate_pseudo_to(all, !0, out);
        let rest = movers & !all;
        let pawns = rest & b.by_role(Role::Pawn);
        self.generate_pseudo_to(pawns, squares | near, out);
        let coordinators = rest & b.by_role(Role::Coordinator);
        if coordinators.any() {
            self.generate_pseudo_to(coordinators, squares | coordinated(victims), out);
        }
        let chameleons = rest & b.by_role(Role::Chameleon);
        if chameleons.any() {
            let targets = squares
                | around(victims & b.by_role(Role::Pawn))
                | coordinated(victims & b.by_role(Role::Coordinator));
            self.generate_pseudo_to(chameleons, targets, out);
        }
        self.generate_pseudo_to(rest & !pawns & !coordinators & !chameleons, squares, out);
    }

    /// The pieces of the side to move that are not frozen.
    #[inline]
    pub fn movers(&self) -> Bits {
        self.board.by_color(self.turn) & !frozen(&self.board, self.turn, self.rules.freezing())
    }

    /// Whether a pseudo-legal move leaves the mover's King safe.
    #[inline]
    pub fn is_safe(&self, mv: &Move) -> bool {
        self.safe_after(mv, None)
    }

    /// [`Position::is_safe`], reusing the enemy's unfrozen pieces of the guard where the move
    /// leaves them as they were (less its captures).
    #[inline]
    fn is_safe_with(&self, mv: &Move, guard: &Guard) -> bool {
        self.safe_after(mv, guard.live_after(mv))
    }

    /// Whether the mover's King is safe after `mv`; `live`, the enemy's unfrozen pieces after it
    /// when known (else they are worked out).
    #[inline]
    fn safe_after(&self, mv: &Move, live: Option<Bits>) -> bool {
        let us = self.turn;
        let mut b = self.board;
        match mv.kind {
            MoveKind::Normal => b.trial_move(us, mv.role, mv.from, mv.to, mv.captures),
            MoveKind::Suicide => b.toggle(mv.from, super::piece::Piece::new(us, mv.role)),
        }
        let Some(k) = b.king(us) else { return true };
        match live {
            Some(live) => !capturable_by(&b, k, us.other(), live, &self.rules),
            None => !capturable(&b, k, us.other(), &self.rules),
        }
    }

    /// Whether a move (of any origin) is legal here: the single-move legality check.
    pub fn is_legal(&self, mv: &Move) -> bool {
        let mut buf = Vec::new();
        self.generate_pseudo_from(mv.from, &mut buf);
        buf.iter().any(|m| m == mv) && self.is_safe(mv)
    }

    /// The legal move that takes the piece of `like` (a move of any position) from its square to
    /// the same destination here, with what it captures here; `None` when that piece is not
    /// there, is frozen, or cannot legally make that move. Only that piece's moves are generated.
    pub fn legal_move_like(&self, like: &Move) -> Option<Move> {
        self.pseudo_move_like(like).filter(|m| self.is_safe(m))
    }

    /// [`Position::legal_move_like`] before the legality test: the pseudo-legal move of the
    /// piece of `like`, unfrozen, to the same destination.
    #[inline(always)]
    fn pseudo_move_like(&self, like: &Move) -> Option<Move> {
        if like.kind != MoveKind::Normal
            || !self.movers().has(like.from)
            || self.board.role_at(like.from) != Some(like.role)
        {
            return None;
        }
        let mut sink = Reaching {
            to: like.to,
            found: None,
        };
        self.generate_pseudo_to(Bits::bit(like.from), Bits::bit(like.to), &mut sink);
        sink.found
    }

    /// [`Position::legal_move_like`], when the move made does not give check: what refutes "every
    /// move mates" (the last move of a selfmate). Both tests are made on one trial board: the
    /// mover's King must not be capturable after the move (legality), the opponent's King must not
    /// be either (no check, as [`Position::is_check`] asks of the position after it).
    pub fn quiet_move_like(&self, like: &Move) -> Option<Move> {
        let m = self.pseudo_move_like(like)?;
        let us = self.turn;
        let mut b = self.board;
        b.trial_move(us, m.role, m.from, m.to, m.captures);
        let capturable_king = |side: Color| {
            b.king(side)
                .is_some_and(|k| capturable(&b, k, side.other(), &self.rules))
        };
        (!capturable_king(us) && !capturable_king(us.other())).then_some(m)
    }

    /// Whether a move of this position gives check: whether the mover could take the enemy King
    /// after it, tested on the board alone (the same test as [`Position::is_check`] of the
    /// position after it, without making that position).
    #[inline]
    pub fn gives_check(&self, mv: &Move) -> bool {
        let us = self.turn;
        let mut b = self.board;
        match mv.kind {
            MoveKind::Normal => b.trial_move(us, mv.role, mv.from, mv.to, mv.captures),
            MoveKind::Suicide => b.toggle(mv.from, super::piece::Piece::new(us, mv.role)),
        }
        b.king(us.other())
            .is_some_and(|k| capturable(&b, k, us, &self.rules))
    }

    /// Pseudo-legal moves of the piece on `from` (of the side to move), frozen or not, suicides of
    /// frozen pieces included when the rules allow them.
    pub fn generate_pseudo_from(&self, from: u8, out: &mut MoveList) {
        out.clear();
        if !self.board.by_color(self.turn).has(from) {
            return;
        }
        let movers = self.movers();
        if movers.has(from) {
            self.generate_pseudo(Bits::bit(from), out);
        } else {
            self.generate_suicides(out);
            out.retain(|m| m.from == from);
        }
    }

    /// Pseudo-legal moves of the piece on `from` as if it were not frozen (for error messages).
    pub(crate) fn generate_ignoring_freeze(&self, from: u8, out: &mut MoveList) {
        out.clear();
        if self.board.by_color(self.turn).has(from) {
            self.generate_pseudo(Bits::bit(from), out);
        }
    }

    fn generate_suicides<S: Sink>(&self, out: &mut S) {
        if !self.rules.suicide {
            return;
        }
        let us = self.turn;
        let stuck = self.board.by_color(us)
            & frozen(&self.board, us, self.rules.freezing())
            & !self.board.by_role(Role::King);
        for s in stuck.squares() {
            if let Some(role) = self.board.role_at(s) {
                out.add(Move {
                    from: s,
                    to: s,
                    role,
                    kind: MoveKind::Suicide,
                    captures: 0,
                });
            }
        }
    }

    /// Pseudo-legal normal moves of the pieces of the side to move in `movers`.
    #[inline]
    fn generate_pseudo<S: Sink>(&self, movers: Bits, out: &mut S) {
        self.generate_pseudo_to(movers, !0, out);
    }

    /// Pseudo-legal normal moves of the pieces of the side to move in `movers` that end on
    /// `targets` (a King taken by a King or a Chameleon: on its square).
    fn generate_pseudo_to<S: Sink>(&self, movers: Bits, targets: Bits, out: &mut S) {
        let b = &self.board;
        let us = self.turn;
        let ours = b.by_color(us);
        let theirs = b.by_color(us.other());
        let occ = ours | theirs;
        let cx = Ctx {
            occ,
            dest: !occ & targets,
            king: b.king(us),
            single: self.rules.leaper == Leaper::Single,
        };
        let t = G8::t();
        let m = movers & ours;

        for s in (m & b.by_role(Role::King)).squares() {
            for to in (t.neighbours[s as usize] & !ours & targets).squares() {
                push(out, s, to, Role::King, Bits::bit(to) & theirs);
            }
        }
        for s in (m & b.by_role(Role::Pawn)).squares() {
            for d in ORTHOGONAL {
                for to in (G8::slide(s, d, occ) & cx.dest).squares() {
                    let after = ours ^ Bits::bit(s) ^ Bits::bit(to);
                    let caps = pincer(to, d, theirs, after);
                    push(out, s, to, Role::Pawn, caps);
                }
            }
        }
        for s in (m & b.by_role(Role::Withdrawer)).squares() {
            for d in ALL_DIRS {
                let behind = t.step[opposite(d)][s as usize];
                let caps = if behind != NO_SQUARE {
                    Bits::bit(behind) & theirs
                } else {
                    0
                };
                for to in (G8::slide(s, d, occ) & cx.dest).squares() {
                    push(out, s, to, Role::Withdrawer, caps);
                }
            }
        }
        for s in (m & b.by_role(Role::LongLeaper)).squares() {
            for d in ALL_DIRS {
                leaps(&cx, s, d, theirs, |to, caps| {
                    push(out, s, to, Role::LongLeaper, caps)
                });
            }
        }
        for s in (m & b.by_role(Role::Coordinator)).squares() {
            for to in (G8::queen_reach(s, occ) & cx.dest).squares() {
                let caps = coordination(to, cx.king) & theirs;
                push(out, s, to, Role::Coordinator, caps);
            }
        }
        for s in (m & b.by_role(Role::Immobilizer)).squares() {
            for to in (G8::queen_reach(s, occ) & cx.dest).squares() {
                push(out, s, to, Role::Immobilizer, 0);
            }
        }
        let chameleons = m & b.by_role(Role::Chameleon);
        if chameleons.any() {
            let their = |r: Role| b.pieces(us.other(), r);
            let (e_withdrawers, e_leapers, e_pawns, e_coords) = (
                their(Role::Withdrawer),
                their(Role::LongLeaper),
                their(Role::Pawn),
                their(Role::Coordinator),
            );
            let combines = self.rules.chameleon_combines();
            let e_king = their(Role::King);
            for s in chameleons.squares() {
                for d in ALL_DIRS {
                    let behind = t.step[opposite(d)][s as usize];
                    let withdraw = if behind != NO_SQUARE {
                        Bits::bit(behind) & e_withdrawers
                    } else {
                        0
                    };
                    leaps(&cx, s, d, e_leapers, |to, leapt| {
                        let caps = if leapt != 0 && !combines {
                            leapt
                        } else {
                            let after = ours ^ Bits::bit(s) ^ Bits::bit(to);
                            let pinced = if is_orthogonal(d) {
                                pincer(to, d, e_pawns, after)
                            } else {
                                0
                            };
                            leapt | withdraw | pinced | (coordination(to, cx.king) & e_coords)
                        };
                        push(out, s, to, Role::Chameleon, caps);
                    });
                    // The King is taken the King's way: by stepping onto it.
                    let k = t.step[d][s as usize];
                    if k != NO_SQUARE && e_king.has(k) && targets.has(k) {
                        push(out, s, k, Role::Chameleon, Bits::bit(k));
                    }
                }
            }
        }
    }
}

#[inline(always)]
fn push<S: Sink>(out: &mut S, from: u8, to: u8, role: Role, captures: Bits) {
    out.add(Move {
        from,
        to,
        role,
        kind: MoveKind::Normal,
        captures,
    });
}

/// Where the generator puts the moves it finds: a list, or a count of the legal ones.
trait Sink {
    fn add(&mut self, m: Move);
}

/// A legal move of the opponent that gives no check (its *reply*), with what shows, without
/// making them, that moves of the side to move leave it so: what refutes most last moves of a
/// selfmate at once, where the opponent must be left only mating moves. See
/// [`Position::quiet_reply`].
#[derive(Clone, Copy, Debug)]
pub struct QuietReply {
    /// The squares whose contents decide whether the reply can be made and what it captures:
    /// those it leaves, passes over, reaches and captures on, those its capture kind looks at,
    /// and the opponent's King.
    deps: Bits,
    /// The opponent's Immobilizers and Chameleons (under Cambridge freezing, one next to an
    /// Immobilizer of ours cancels its power: taking it may let that Immobilizer freeze the
    /// reply's piece).
    cancellers: Bits,
    /// The squares next to the reply's piece (an Immobilizer of ours arriving there may freeze
    /// it).
    around: Bits,
    /// After the reply, with us to move: the squares a move of ours must touch to give check
    /// (`None`: none can), and the guard of our King.
    checks: Option<Bits>,
    guard: Guard,
}

/// The squares a move from `from` to `to` passes over, and `to` (a step: `to` alone).
fn path(from: u8, to: u8) -> Bits {
    let t = G8::t();
    ALL_DIRS
        .into_iter()
        .find(|&d| t.ray[d][from as usize].has(to))
        .map_or(Bits::bit(to), |d| {
            t.ray[d][from as usize] & !t.ray[d][to as usize]
        })
}

/// The squares whose contents decide whether a normal move `m` of a Pawn, Withdrawer, Long
/// Leaper, Coordinator or King, its piece not frozen, can be made and what it captures (`king`:
/// the mover's King): the squares it leaves and passes over, where it ends, what it captures,
/// and where its capture kind looks: a Pawn the squares next to where it ends and those beyond
/// them, a Withdrawer those next to where it leaves from, a Long Leaper the line it passes (the
/// pieces it leaps and the squares it lands on), a Coordinator where its file and rank meet its
/// King's rank and file, a King where it ends. Every square for the other kinds (not handled).
fn move_deps(m: &Move, king: Option<u8>) -> Bits {
    let t = G8::t();
    let looks = match m.role {
        Role::Pawn => ORTHOGONAL.into_iter().fold(0, |set, d| {
            let n = t.step[d][m.to as usize];
            if n == NO_SQUARE {
                return set;
            }
            let beyond = t.step[d][n as usize];
            set | Bits::bit(n)
                | if beyond == NO_SQUARE {
                    0
                } else {
                    Bits::bit(beyond)
                }
        }),
        Role::Withdrawer => t.neighbours[m.from as usize],
        Role::LongLeaper | Role::King => 0,
        Role::Coordinator => king.map_or(0, |k| coordination(m.to, Some(k))),
        _ => return !0,
    };
    Bits::bit(m.from) | path(m.from, m.to) | m.captures | looks
}

impl Position {
    /// `reply`, a move of the opponent (a move of another position, made here for the opponent),
    /// as a [`QuietReply`]: when it is a legal move of the opponent in this position that gives
    /// no check, by a Pawn, Withdrawer, Long Leaper, Coordinator or King, taking no Immobilizer or
    /// Chameleon; else `None`. Our King must not be in check (the opponent then has no move to
    /// make in our place).
    ///
    /// A move of ours that [`Position::keeps_quiet_reply`] passes leaves the reply legal and
    /// without check after it, so the opponent is not left only moves that mate.
    pub fn quiet_reply(&self, reply: &Move) -> Option<QuietReply> {
        let them = self.null_move()?;
        let q = them.quiet_move_like(reply)?;
        let cancellers = |c: Color| {
            self.board.pieces(c, Role::Immobilizer) | self.board.pieces(c, Role::Chameleon)
        };
        if q.captures & cancellers(self.turn) != 0
            || matches!(q.role, Role::Immobilizer | Role::Chameleon)
        {
            return None;
        }
        // The opponent's King too: only a move that takes it could touch it.
        let king = self.board.king(them.turn);
        let deps = move_deps(&q, king) | king.map_or(0, Bits::bit);
        let after = them.after(&q);
        Some(QuietReply {
            deps,
            cancellers: cancellers(them.turn),
            around: G8::t().neighbours[q.from as usize],
            checks: after.check_squares(),
            guard: after.guard(),
        })
    }

    /// Whether the reply surely stays a legal move of the opponent that gives no check after
    /// `m`, a legal move of ours here (false when that is not shown: a King's move, a suicide,
    /// and the moves that meet the conditions below are not judged).
    ///
    /// Why: `m` leaves the reply's squares and those it depends on as they are, so the reply
    /// makes the same move after `m`, with the same captures, and as the two change the board on
    /// squares apart, the board after both is that after the reply with `m`'s changes made on
    /// it (whether or not `m` could be played there). The reply's piece is not
    /// frozen after `m`: only our Immobilizers freeze it (it is no Immobilizer), whose power
    /// only an Immobilizer or Chameleon of the opponent next to them cancels; `m` takes none of
    /// those and brings no Immobilizer next to the reply's piece. The reply is by a kind that
    /// freezes nothing and takes no Immobilizer or Chameleon of ours. So after `m` the reply can
    /// be made, and it is legal and gives no check exactly when, after the reply, `m` would give
    /// no check (the opponent's King safe on that board) and would keep our King safe: what the
    /// squares a check needs and the guard of our King, worked out after the reply (where both
    /// Kings are safe), show without making `m`, from the squares its changes touch and its kind
    /// alone.
    pub fn keeps_quiet_reply(&self, reply: &QuietReply, m: &Move) -> bool {
        // The guard judges no move of our King.
        m.role != Role::King && self.keeps_reply(reply, m) && reply.guard.passes(m)
    }

    /// Whether the reply surely stays a legal move of the opponent after `m`, a legal move of
    /// ours here, check or not: what a stalemate asks (the opponent is not stalemated after `m`).
    /// [`Position::keeps_quiet_reply`] without what keeps the reply from giving check (our
    /// King's guard), so that our King's moves are judged too.
    ///
    /// Why: as for [`Position::keeps_quiet_reply`], the reply can be made after `m`, and it is
    /// legal exactly when, after the reply, `m` would give no check, which the squares a check
    /// needs show from the squares `m` touches alone, whatever piece makes it (a King arriving
    /// next to the opponent's King, or on its rank or file beside a Coordinator of ours, touches
    /// them). Our King's safety is not the reply's legality, and our King freezes nothing.
    pub fn keeps_reply(&self, reply: &QuietReply, m: &Move) -> bool {
        let touched = Bits::bit(m.from) | Bits::bit(m.to) | m.captures;
        m.kind == MoveKind::Normal
            && m.captures & reply.cancellers == 0
            && !(m.role == Role::Immobilizer && reply.around.has(m.to))
            && touched & reply.deps == 0
            && reply.checks.is_none_or(|c| touched & c == 0)
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts the legal moves as they are generated, without storing them (perft's last ply).
struct LegalCount<'a> {
    pos: &'a Position,
    guard: Guard,
    n: u64,
}

impl Sink for LegalCount<'_> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if self.guard.passes(&m) || self.pos.is_safe_with(&m, &self.guard) {
            self.n += 1;
        }
    }
}

/// Keeps the first move generated that reaches `to` (see [`Position::legal_move_like`]).
struct Reaching {
    to: u8,
    found: Option<Move>,
}

impl Sink for Reaching {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if m.to == self.to && self.found.is_none() {
            self.found = Some(m);
        }
    }
}

/// Looks, among the moves generated, for a legal one that touches none of the squares a check
/// needs (see [`Position::legal_quiet_move`]).
struct QuietLegal<'a> {
    pos: &'a Position,
    relevant: Bits,
    /// The mover's King guard, made when the first quiet move is met.
    guard: Option<Guard>,
    found: Option<Move>,
    /// A move not to find (one found before).
    skip: Option<Move>,
}

impl<'a> QuietLegal<'a> {
    /// A sink that keeps the first legal move of `pos` touching none of `relevant`.
    fn new(pos: &'a Position, relevant: Bits) -> Self {
        QuietLegal {
            pos,
            relevant,
            guard: None,
            found: None,
            skip: None,
        }
    }
}

impl Sink for QuietLegal<'_> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if self.found.is_some() || touches(&m, self.relevant) || self.skip == Some(m) {
            return;
        }
        let pos = self.pos;
        let guard = self.guard.get_or_insert_with(|| pos.guard());
        if guard.passes(&m) || pos.is_safe_with(&m, guard) {
            self.found = Some(m);
        }
    }
}

/// The square a Withdrawer of `withdrawers` standing next to `k` in direction `d` would withdraw
/// to (to take the piece on `k`), if there is one: as a set.
#[inline(always)]
fn withdrawal(k: u8, d: Dir, withdrawers: Bits) -> Bits {
    let t = G8::t();
    let w = t.step[d][k as usize];
    if w == NO_SQUARE || !withdrawers.has(w) {
        return 0;
    }
    let away = t.step[d][w as usize];
    if away == NO_SQUARE {
        0
    } else {
        Bits::bit(away)
    }
}

/// Whether a move leaves, reaches or captures on one of `squares`.
#[inline(always)]
fn touches(m: &Move, squares: Bits) -> bool {
    (Bits::bit(m.from) | Bits::bit(m.to) | m.captures) & squares != 0
}

/// Custodian capture by a piece arriving on `to` by a move in direction `d`: every piece of
/// `victims` orthogonally next to `to` with a piece of `partners` right beyond it.
#[inline(always)]
fn pincer(to: u8, d: Dir, victims: Bits, partners: Bits) -> Bits {
    let t = G8::t();
    // Most arrivals have no victim next to them at all.
    if t.neighbours[to as usize] & victims == 0 {
        return 0;
    }
    let mut caps = 0;
    for e in ORTHOGONAL {
        if e == opposite(d) {
            continue; // the square the piece came through is empty
        }
        let n = t.step[e][to as usize];
        if n != NO_SQUARE && victims.has(n) {
            let beyond = t.step[e][n as usize];
            if beyond != NO_SQUARE && partners.has(beyond) {
                caps |= Bits::bit(n);
            }
        }
    }
    caps
}

/// The two squares a Coordinator arriving on `to` captures on: where its file meets its King's rank
/// and its rank meets its King's file.
#[inline(always)]
fn coordination(to: u8, king: Option<u8>) -> Bits {
    match king {
        Some(k) => {
            Bits::bit(G8::square(G8::file_of(to), G8::rank_of(k)))
                | Bits::bit(G8::square(G8::file_of(k), G8::rank_of(to)))
        }
        None => 0,
    }
}

/// Walks a queen line from `s` in direction `d`, jumping pieces of `jumpable` (each followed by an
/// empty square), and calls `land` with every empty square reached and the pieces jumped so far.
/// Under `leaper: single` a leap takes only the first piece and lands right behind it.
#[inline(always)]
fn leaps(cx: &Ctx, s: u8, d: Dir, jumpable: Bits, mut land: impl FnMut(u8, Bits)) {
    let t = G8::t();
    let mut cur = s;
    let mut caps: Bits = 0;
    loop {
        let reach = G8::slide(cur, d, cx.occ);
        for to in (reach & cx.dest).squares() {
            land(to, caps);
        }
        let blockers = reach & cx.occ;
        if blockers == 0 {
            return;
        }
        let q = blockers.lowest(); // a slide holds at most one blocker
        let beyond = t.step[d][q as usize];
        if !jumpable.has(q) || beyond == NO_SQUARE || cx.occ.has(beyond) {
            return;
        }
        caps |= Bits::bit(q);
        if cx.single {
            if cx.dest.has(beyond) {
                land(beyond, caps);
            }
            return;
        }
        cur = q;
    }
}
