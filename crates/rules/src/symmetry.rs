//! What a game knows of its own symmetries and armies: the symmetries that keep its rules
//! ([`Symmetry`]: a position's images have the images of its legal moves, and so of its
//! solutions), a position as a pattern of pieces compared up to them ([`Pattern`], what
//! anticipation and the generator's duplicate removal compare), the kinds a side starts with, and
//! where a random setup may place pieces.
//!
//! - Baroque: the 8 symmetries of the square board (quarter turns, file and rank reflections and
//!   the two diagonal ones), each with the colours kept or exchanged (the side to move with them):
//!   the rules look the same from every side.
//! - Rococo: the mirror of the files, and the exchange of the colours with the mirror of the
//!   ranks. Cannon Pawns promote on the far rank, so the ranks have a direction and the board may
//!   not be turned. A position whose last move was a swap has the swap's squares mapped too.

use super::board::Board;
use super::game::{GameKind, GameRules, VariantPosition};
use super::geometry::{Board10, Board8, Geometry};
use super::piece::{Color, Letters, Piece, Role};
use super::position::Position;
use super::rococo::RococoPosition;

/// Baroque's kinds besides the King, the Pawn first, with how many a side starts with.
pub const BAROQUE_KINDS: [(Role, u32); 6] = [
    (Role::Pawn, 8),
    (Role::Withdrawer, 1),
    (Role::LongLeaper, 2),
    (Role::Coordinator, 1),
    (Role::Immobilizer, 1),
    (Role::Chameleon, 2),
];

/// Rococo's kinds besides the King, the Cannon Pawn first, with how many a side starts with.
pub const ROCOCO_KINDS: [(Role, u32); 7] = [
    (Role::CannonPawn, 8),
    (Role::Immobilizer, 1),
    (Role::Withdrawer, 1),
    (Role::LongLeaper, 2),
    (Role::Chameleon, 1),
    (Role::Advancer, 1),
    (Role::Swapper, 1),
];

/// A symmetry of a game's board and colours that keeps its rules: a transformation of the
/// square (one of the eight of the dihedral group), then the exchange of the colours (the side to
/// move with them) when `polish`.
///
/// The board part is coded as `t`: bit 4 transposes (the file becomes the rank), then bit 1
/// reverses the files and bit 2 the ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry {
    t: u8,
    polish: bool,
}

impl Symmetry {
    /// The symmetry that changes nothing.
    pub const IDENTITY: Symmetry = Symmetry {
        t: 0,
        polish: false,
    };

    /// The symmetries of the board and the colours that keep the rules of `kind`, the identity
    /// first: what the generator's duplicate removal compares.
    ///
    /// - Baroque: all sixteen. Every piece moves and captures alike in every direction (the
    ///   Coordinator's two squares are its file and rank crossed with its King's rank and file,
    ///   which a transposition exchanges), nothing promotes, and the rules treat the colours
    ///   alike.
    /// - Rococo: four. A Cannon Pawn promotes on the far rank, so the ranks keep their direction
    ///   for each side: the files may be reversed, and the ranks reversed only with the colours
    ///   exchanged (White's pawns then head where Black's did). No quarter turn or diagonal
    ///   mirror keeps them.
    pub fn with_colours(kind: GameKind) -> &'static [Symmetry] {
        const fn s(t: u8, polish: bool) -> Symmetry {
            Symmetry { t, polish }
        }
        const BAROQUE: [Symmetry; 16] = [
            s(0, false),
            s(1, false),
            s(2, false),
            s(3, false),
            s(4, false),
            s(5, false),
            s(6, false),
            s(7, false),
            s(0, true),
            s(1, true),
            s(2, true),
            s(3, true),
            s(4, true),
            s(5, true),
            s(6, true),
            s(7, true),
        ];
        const ROCOCO: [Symmetry; 4] = [s(0, false), s(1, false), s(2, true), s(3, true)];
        match kind {
            GameKind::Baroque => &BAROQUE,
            GameKind::Rococo => &ROCOCO,
        }
    }

    /// The symmetries of the board alone (the colours kept) that keep the rules of `kind`, the
    /// identity first: what anticipation compares, "the same position up to the board's
    /// symmetries".
    ///
    /// - Baroque: the eight of the square (quarter turns, the file and rank mirrors, the two
    ///   diagonal mirrors).
    /// - Rococo: two, the identity and the files reversed: a Cannon Pawn promotes on the far rank,
    ///   so a turn or a mirror of the ranks would send each side's pawns the other way.
    pub fn of_game(kind: GameKind) -> &'static [Symmetry] {
        let all = Symmetry::with_colours(kind);
        let board = all.iter().take_while(|s| !s.polish).count();
        &all[..board]
    }

    /// Every symmetry of a square board with the colours kept or exchanged (sixteen), whether it
    /// keeps a game's rules or not: what the tests search for the ones that do.
    pub fn all() -> &'static [Symmetry] {
        Symmetry::with_colours(GameKind::Baroque)
    }

    /// Whether it changes nothing.
    pub fn is_identity(self) -> bool {
        self == Symmetry::IDENTITY
    }

    /// Whether it exchanges the colours (and the side to move).
    pub fn exchanges_colours(self) -> bool {
        self.polish
    }

    /// The image of `square` on a board of `files` x `files` squares.
    pub fn square(self, square: u8, files: u8) -> u8 {
        let last = files - 1;
        let (mut f, mut r) = (square % files, square / files);
        if self.t & 4 != 0 {
            std::mem::swap(&mut f, &mut r);
        }
        if self.t & 1 != 0 {
            f = last - f;
        }
        if self.t & 2 != 0 {
            r = last - r;
        }
        r * files + f
    }

    /// The image of a piece: its colour exchanged when the symmetry exchanges colours.
    pub fn piece(self, p: Piece) -> Piece {
        match self.polish {
            true => Piece::new(p.color.other(), p.role),
            false => p,
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        // Quarter turns (transpose then one reversal) are each other's inverse; every other
        // element of the group undoes itself.
        let t = match self.t {
            5 => 6,
            6 => 5,
            t => t,
        };
        Symmetry {
            t,
            polish: self.polish,
        }
    }

    /// The symmetry as a twin's commands name it (`rotate 90`, `mirror a1<->h1`, `polish`,
    /// several joined by `; `; `none` for the identity), with the game's corners (`a1<->j1` in
    /// Rococo). Quarter turns are clockwise as White sees the board; `polish` exchanges the colours
    /// and the side to move.
    pub fn name(self, files: u8) -> String {
        let last_file = char::from(b'a' + files - 1);
        let board = match self.t {
            0 => None,
            1 => Some(format!("mirror a1<->{last_file}1")),
            2 => Some(format!("mirror a1<->a{files}")),
            3 => Some("rotate 180".to_string()),
            4 => Some(format!("mirror a1<->{last_file}{files}")),
            5 => Some("rotate 270".to_string()),
            6 => Some("rotate 90".to_string()),
            _ => Some(format!("mirror a1<->{last_file}{files}; rotate 180")),
        };
        let parts: Vec<String> = self
            .polish
            .then(|| "polish".to_string())
            .into_iter()
            .chain(board)
            .collect();
        match parts.is_empty() {
            true => "none".into(),
            false => parts.join("; "),
        }
    }

    /// The image of a Baroque position.
    pub fn baroque(self, pos: &Position) -> Position {
        let mut board: Board<Board8> = Board::empty();
        for (sq, p) in pos.board().iter() {
            board.put(self.square(sq, 8), self.piece(p));
        }
        let turn = self.turn(pos.turn());
        let mut image = Position::from_board(board, turn, *pos.rules());
        image.plies = pos.plies;
        image
    }

    /// The image of a Rococo position (with the squares of its last swap).
    pub fn rococo(self, pos: &RococoPosition) -> RococoPosition {
        let mut board: Board<Board10> = Board::empty();
        for (sq, p) in pos.board().iter() {
            board.put(self.square(sq, 10), self.piece(p));
        }
        RococoPosition {
            board,
            turn: self.turn(pos.turn()),
            plies: pos.plies,
            last_swap: pos
                .last_swap
                .map(|(a, b)| (self.square(a, 10), self.square(b, 10))),
        }
    }

    /// The image of a position of either game.
    pub fn position(self, pos: &VariantPosition) -> VariantPosition {
        match pos {
            VariantPosition::Baroque(p) => VariantPosition::Baroque(self.baroque(p)),
            VariantPosition::Rococo(p) => VariantPosition::Rococo(self.rococo(p)),
        }
    }

    fn turn(self, turn: Color) -> Color {
        match self.polish {
            true => turn.other(),
            false => turn,
        }
    }
}

/// A position as a pattern of pieces: what anticipation compares (the game, each square's piece,
/// the side to move and, in Rococo, the squares of a swap the next move may not undo), without
/// the move counter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    kind: GameKind,
    squares: Vec<Option<Piece>>,
    turn: Color,
    swap: Option<(u8, u8)>,
}

impl Pattern {
    /// The pattern of a position.
    pub fn of(pos: &VariantPosition) -> Pattern {
        let kind = pos.kind();
        let n = kind.files();
        let squares = (0..n * n).map(|sq| pos.piece_at(sq)).collect();
        let swap = match pos {
            VariantPosition::Rococo(p) => p.last_swap,
            VariantPosition::Baroque(_) => None,
        };
        Pattern {
            kind,
            squares,
            turn: pos.turn(),
            swap,
        }
    }

    /// The game.
    pub fn kind(&self) -> GameKind {
        self.kind
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The pieces with their squares, by square.
    pub fn pieces(&self) -> impl Iterator<Item = (u8, Piece)> + '_ {
        (0u8..)
            .zip(&self.squares)
            .filter_map(|(sq, p)| p.map(|p| (sq, p)))
    }

    /// The squares of a swap the next move may not undo (Rococo).
    pub fn swap(&self) -> Option<(u8, u8)> {
        self.swap
    }

    /// The piece on `square`.
    pub fn at(&self, square: u8) -> Option<Piece> {
        self.squares.get(usize::from(square)).copied().flatten()
    }

    /// The pattern without the piece on `square`.
    pub fn without(&self, square: u8) -> Pattern {
        let mut p = self.clone();
        if let Some(s) = p.squares.get_mut(usize::from(square)) {
            *s = None;
        }
        p
    }

    /// Its image under `sym`.
    pub fn image(&self, sym: Symmetry) -> Pattern {
        let n = self.kind.files();
        let mut squares = vec![None; self.squares.len()];
        for (sq, p) in self.pieces() {
            squares[usize::from(sym.square(sq, n))] = Some(sym.piece(p));
        }
        Pattern {
            kind: self.kind,
            squares,
            turn: sym.turn(self.turn),
            swap: self.swap.map(|(a, b)| (sym.square(a, n), sym.square(b, n))),
        }
    }

    /// The pattern as text: a letter or `.` for each square from a1 by ranks, the side to move
    /// and the swap's squares.
    pub fn text(&self) -> String {
        let mut text: String = self
            .squares
            .iter()
            .map(|p| match p {
                Some(p) => p.rococo_letter(),
                None => '.',
            })
            .collect();
        text.push(' ');
        text.push(if self.turn == Color::White { 'w' } else { 'b' });
        if let Some((a, b)) = self.swap {
            text.push_str(&format!(" {a}-{b}"));
        }
        text
    }

    /// The least text of its images under the game's board symmetries ([`Symmetry::of_game`]),
    /// and the symmetry giving it: two patterns are the same up to those symmetries exactly when
    /// these texts are equal.
    pub fn canonical(&self) -> (String, Symmetry) {
        self.least(Symmetry::of_game(self.kind))
    }

    /// [`Pattern::canonical`] under the symmetries with the colours exchanged too
    /// ([`Symmetry::with_colours`]).
    pub fn canonical_with_colours(&self) -> (String, Symmetry) {
        self.least(Symmetry::with_colours(self.kind))
    }

    fn least(&self, group: &[Symmetry]) -> (String, Symmetry) {
        group
            .iter()
            .map(|&s| (self.image(s).text(), s))
            .min()
            .unwrap_or_else(|| (self.text(), Symmetry::IDENTITY))
    }
}

/// The least of the FENs (without the move counter) of a Baroque position's images: the same for
/// a position and its images under [`Symmetry::with_colours`].
pub fn baroque_key(pos: &Position) -> String {
    Symmetry::with_colours(GameKind::Baroque)
        .iter()
        .map(|s| {
            let mut fen = s.baroque(pos).fen(Letters::Chess);
            // The move counter plays no part in a puzzle.
            if let Some(i) = fen.rfind(' ') {
                fen.truncate(i);
            }
            fen
        })
        .min()
        .unwrap_or_default()
}

/// The least of the board-and-turn texts of a Rococo position's images (with its last swap's
/// squares): the same for a position and its images under [`Symmetry::with_colours`].
pub fn rococo_key(pos: &RococoPosition) -> String {
    Pattern::of(&VariantPosition::Rococo(*pos))
        .canonical_with_colours()
        .0
}

/// The Rococo squares a random setup uses: the inner 8x8 board (a piece stands on an edge square
/// only after a capture that needed it).
pub fn rococo_setup_squares() -> u128 {
    (1..9)
        .flat_map(|r| (1..9).map(move |f| Board10::square(f, r)))
        .fold(0, |acc, sq| acc | (1u128 << sq))
}

/// A Rococo position with these pieces and this side to move, before any move.
pub fn rococo_setup(pieces: &[(u8, Piece)], turn: Color) -> RococoPosition {
    let mut board: Board<Board10> = Board::empty();
    for &(sq, p) in pieces {
        board.put(sq, p);
    }
    RococoPosition {
        board,
        turn,
        plies: 0,
        last_swap: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn every_image_has_as_many_legal_moves() {
        for fen in [
            "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0",
            "8/8/8/4k3/2K2M2/3q4/8/8 w 0",
        ] {
            let pos = Position::from_fen(fen, Rules::default()).unwrap();
            let n = pos.legal_moves().len();
            let images: Vec<Position> = Symmetry::with_colours(GameKind::Baroque)
                .iter()
                .map(|s| s.baroque(&pos))
                .collect();
            assert_eq!(images.len(), 16);
            for image in &images {
                assert_eq!(
                    image.legal_moves().len(),
                    n,
                    "{}",
                    image.fen(Letters::Chess)
                );
                assert_eq!(baroque_key(image), baroque_key(&pos));
            }
        }
    }
}
