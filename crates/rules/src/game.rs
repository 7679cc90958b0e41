//! One model of a game: a [`Variant`] says which game (and, for Baroque, which rule set), and
//! [`GamePosition`] is what a position of any game offers, so that the solver, the generator and
//! the edges are written once.
//!
//! - [`Position`] (Baroque, 8x8) and [`RococoPosition`] (10x10) implement [`GamePosition`]; code that
//!   runs many positions (the solver, the generator, perft) is generic over it and monomorphised.
//! - [`VariantPosition`] and [`VariantMove`] forward to the concrete types: they are what the edges
//!   (HTTP, command line, files) hold once a request's game is read into a [`Variant`]. A generic
//!   function runs on the concrete type of a `VariantPosition` through [`VariantPosition::visit`],
//!   so nothing above this module matches on the game.
//! - [`Naming`] is how a caller writes squares and pieces (Baroque's two letter sets, Rococo's two
//!   square namings); moves are read and named in the caller's naming.
//!
//! The policies that differ between the games live here, once: which games take a rule set
//! ([`Variant::has_rule_sets`]), which name squares the Rococo page's way
//! ([`Variant::has_page_coords`]), how a game is won ([`Variant::wins_by_king_capture`]) and what a
//! mate search needs ([`Variant::mate_needs_both_kings`]).

use super::bitset::BitSet;
use super::descriptions::{MoveInfo, SquarePiece};
use super::fen::ParseFenError;
use super::movegen::QuietReply;
use super::notation::MoveError;
use super::piece::{Color, Letters, Piece, Role};
use super::position::{FenError, Move, MoveKind, Position, PositionError, Problem, Status};
use super::rococo::{Coords, RococoKind, RococoMove, RococoPosition};
use super::ruleset::{Rules, Stalemate};
use super::Geometry;

/// Which game, without its rule set (`baroque`, `rococo` in files and requests).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Baroque chess (Ultima), 8x8.
    #[default]
    Baroque,
    /// Rococo, 10x10 with an edge ring, won by capturing the King.
    Rococo,
}

impl GameKind {
    /// Both games.
    pub const ALL: [GameKind; 2] = [GameKind::Baroque, GameKind::Rococo];

    /// The name requests and files use: `baroque`, `rococo`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Baroque => "baroque",
            GameKind::Rococo => "rococo",
        }
    }

    /// Reads a name of [`GameKind::name`].
    pub fn parse(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The game's name for people: `Baroque chess`, `Rococo`.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Baroque => "Baroque chess",
            GameKind::Rococo => "Rococo",
        }
    }

    /// The game's name in a PGN `Variant` tag: `Baroque`, `Rococo`.
    pub fn pgn_variant(self) -> &'static str {
        match self {
            GameKind::Baroque => "Baroque",
            GameKind::Rococo => "Rococo",
        }
    }

    /// Reads a PGN `Variant` tag's value: [`GameKind::pgn_variant`] in any case, or Baroque's
    /// other names (`Baroque chess`, `Ultima`).
    pub fn from_pgn_variant(value: &str) -> Option<GameKind> {
        let value = value.trim();
        GameKind::ALL
            .into_iter()
            .find(|g| g.pgn_variant().eq_ignore_ascii_case(value))
            .or_else(|| {
                ["baroque chess", "ultima"]
                    .iter()
                    .any(|alias| alias.eq_ignore_ascii_case(value))
                    .then_some(GameKind::Baroque)
            })
    }

    /// The kinds of piece of the game, the King included.
    pub fn piece_kinds(self) -> usize {
        1 + match self {
            GameKind::Baroque => super::symmetry::BAROQUE_KINDS.len(),
            GameKind::Rococo => super::symmetry::ROCOCO_KINDS.len(),
        }
    }

    /// The board's width (and height) in squares.
    pub fn files(self) -> u8 {
        match self {
            GameKind::Baroque => super::Board8::FILES,
            GameKind::Rococo => super::Board10::FILES,
        }
    }

    /// The game whose board is `files` by `ranks` squares (8x8 Baroque, 10x10 Rococo).
    pub fn of_board(files: usize, ranks: usize) -> Option<GameKind> {
        GameKind::ALL
            .into_iter()
            .find(|g| usize::from(g.files()) == files && usize::from(g.files()) == ranks)
    }

    /// The game a FEN belongs to, read from its board's ranks: ten are Rococo's, anything else
    /// is taken for Baroque (whose reading then says what is wrong).
    pub fn of_fen(fen: &str) -> GameKind {
        let board = fen.split_whitespace().next().unwrap_or("");
        if board.split('/').count() == usize::from(GameKind::Rococo.files()) {
            GameKind::Rococo
        } else {
            GameKind::Baroque
        }
    }

    /// The role a FEN letter names in this game, in either case (Baroque reads both of its
    /// letter sets).
    pub fn role_of_letter(self, letter: char) -> Option<Role> {
        match self {
            GameKind::Baroque => Role::from_baroque_letter(letter),
            GameKind::Rococo => Role::from_rococo_letter(letter),
        }
    }

    /// Every upper-case letter [`GameKind::role_of_letter`] reads, in alphabetical order:
    /// `BCIKLMNPQRWX` (both of Baroque's letter sets), `AIKLPSUWX`.
    pub fn letters(self) -> String {
        ('A'..='Z')
            .filter(|&c| self.role_of_letter(c).is_some())
            .collect()
    }

    /// The game of most of `games`: Rococo only when more than half are Rococo's (Baroque for
    /// none).
    pub fn most_common(games: impl IntoIterator<Item = GameKind>) -> GameKind {
        let (mut rococo, mut all) = (0usize, 0usize);
        for g in games {
            all += 1;
            rococo += usize::from(g == GameKind::Rococo);
        }
        if rococo * 2 > all {
            GameKind::Rococo
        } else {
            GameKind::Baroque
        }
    }

    /// Whether a square is on the board's edge ring, where a piece may only pass or stop when it
    /// captures (Rococo's outer ring; Baroque has none).
    pub fn is_edge(self, square: u8) -> bool {
        match self {
            GameKind::Baroque => false,
            GameKind::Rococo => super::Board10::t().edge.has(square),
        }
    }
}

/// A game with its rules: Baroque under a rule set, or Rococo (which has one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Baroque under a rule set.
    Baroque(Rules),
    /// Rococo.
    Rococo,
}

impl Default for Variant {
    fn default() -> Variant {
        Variant::Baroque(Rules::default())
    }
}

impl Variant {
    /// The variant of a game: Baroque takes `rules` (the default rule set when `None`); Rococo
    /// takes none.
    ///
    /// # Errors
    /// A rule set given for a game without rule sets (the message says so).
    pub fn of(kind: GameKind, rules: Option<Rules>) -> Result<Variant, String> {
        match (kind, rules) {
            (GameKind::Baroque, r) => Ok(Variant::Baroque(r.unwrap_or_default())),
            (GameKind::Rococo, None) => Ok(Variant::Rococo),
            (GameKind::Rococo, Some(_)) => {
                Err("Rococo has no rule presets or options: `rules` does not apply to it".into())
            }
        }
    }

    /// The game.
    pub fn kind(self) -> GameKind {
        match self {
            Variant::Baroque(_) => GameKind::Baroque,
            Variant::Rococo => GameKind::Rococo,
        }
    }

    /// The game's name: `baroque`, `rococo`.
    pub fn name(self) -> &'static str {
        self.kind().name()
    }

    /// The rule set, for a game that has rule sets.
    pub fn rules(self) -> Option<Rules> {
        match self {
            Variant::Baroque(r) => Some(r),
            Variant::Rococo => None,
        }
    }

    /// Whether the game has rule presets and options (a request's `rules` applies).
    pub fn has_rule_sets(kind: GameKind) -> bool {
        kind == GameKind::Baroque
    }

    /// Whether the game's squares can be named the Rococo page's way (`coords: page`).
    pub fn has_page_coords(kind: GameKind) -> bool {
        kind == GameKind::Rococo
    }

    /// Whether the game's FEN and moves come in two letter sets (chess-style and Baroque's).
    pub fn has_letter_sets(kind: GameKind) -> bool {
        kind == GameKind::Baroque
    }

    /// Whether the game is won by capturing the King (rather than by checkmate).
    pub fn wins_by_king_capture(kind: GameKind) -> bool {
        kind == GameKind::Rococo
    }

    /// Whether a mate search needs both Kings on the board: in a game won by capturing the King,
    /// mate means forcing that capture.
    pub fn mate_needs_both_kings(kind: GameKind) -> bool {
        Variant::wins_by_king_capture(kind)
    }

    /// Whether analysing any position of the game (every legal move with whether it checks or
    /// mates) costs well under a millisecond, so that a server may do it on its request threads:
    /// Baroque's costliest board found takes 0.4 ms, Rococo's 16 ms (`benches/bounds.rs`).
    pub fn analysis_is_light(kind: GameKind) -> bool {
        kind == GameKind::Baroque
    }

    /// The start position.
    pub fn start(self) -> VariantPosition {
        match self {
            Variant::Baroque(rules) => VariantPosition::Baroque(Position::start(rules)),
            Variant::Rococo => VariantPosition::Rococo(RococoPosition::start()),
        }
    }

    /// Reads a FEN of this game (squares of its last-swap field in `naming`), without checking that
    /// the position can arise.
    ///
    /// # Errors
    /// When the text is not a FEN of the game.
    pub fn read_fen(self, text: &str, naming: Naming) -> Result<VariantPosition, ParseFenError> {
        match self {
            Variant::Baroque(rules) => {
                Position::from_fen(text, rules).map(VariantPosition::Baroque)
            }
            Variant::Rococo => {
                RococoPosition::from_fen(text, naming.coords).map(VariantPosition::Rococo)
            }
        }
    }

    /// Reads a FEN and checks that the position can arise: the position and its warnings.
    ///
    /// # Errors
    /// An unreadable FEN, or a position with an error among its problems (every problem listed).
    pub fn position(
        self,
        text: &str,
        naming: Naming,
    ) -> Result<(VariantPosition, Vec<Problem>), FenError> {
        let pos = self.read_fen(text, naming)?;
        let problems = pos.validate();
        if problems.iter().any(|p| p.is_error()) {
            return Err(FenError::Position(PositionError { problems }));
        }
        Ok((pos, problems))
    }
}

/// How squares and pieces are written: Baroque's letter set (its FEN and notation) and Rococo's
/// square names. Each game uses the part that applies to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Naming {
    /// The piece letters of a Baroque FEN (moves are named in chess-style letters).
    pub letters: Letters,
    /// How Rococo squares are named.
    pub coords: Coords,
}

impl Naming {
    /// The naming with Rococo squares in `coords`.
    pub fn coords(coords: Coords) -> Naming {
        Naming {
            coords,
            ..Naming::default()
        }
    }
}

/// A set of squares of any board (bit `i` is square `i`).
pub type SquareSet = u128;

/// The rules of a game on a position: the side to move, legal moves and play, captures, status.
///
/// "Legal" is in the game's own meaning: in Baroque a move may not leave the mover's King
/// capturable; in Rococo every move is legal, and one that leaves the King capturable loses.
pub trait GameRules:
    Copy + Send + Sync + PartialEq + Eq + std::hash::Hash + std::fmt::Debug + 'static
{
    /// A move with everything it does.
    type Move: Copy + Send + Sync + PartialEq + Eq + std::hash::Hash + std::fmt::Debug + 'static;

    /// The game and its rules.
    fn variant(&self) -> Variant;
    /// The side to move.
    fn turn(&self) -> Color;
    /// Plies played (the FEN's ply count).
    fn plies(&self) -> u32;
    /// Every problem of the position (errors refuse it; the others are warnings).
    fn validate(&self) -> Vec<Problem>;
    /// A hash of everything that decides the future (placement, side to move, restrictions).
    fn key(&self) -> u64;
    /// The piece on a square.
    fn piece_at(&self, square: u8) -> Option<Piece>;
    /// The square of a side's King.
    fn king(&self, color: Color) -> Option<u8>;
    /// Whether both Kings are on the board.
    fn has_both_kings(&self) -> bool {
        self.king(Color::White).is_some() && self.king(Color::Black).is_some()
    }

    /// Every legal move, written into `out` (cleared first).
    fn legal_moves_into(&self, out: &mut Vec<Self::Move>);
    /// The number of legal moves (`buf` is a scratch list).
    fn count_legal(&self, buf: &mut Vec<Self::Move>) -> u64 {
        self.legal_moves_into(buf);
        buf.len() as u64
    }
    /// Every legal move.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut v = Vec::new();
        self.legal_moves_into(&mut v);
        v
    }
    /// The position after a move of this position (unchecked).
    fn play(&self, m: &Self::Move) -> Self;
    /// The position after a move, if it is a legal move of this position.
    fn play_checked(&self, m: &Self::Move) -> Option<Self> {
        self.legal_moves().contains(m).then(|| self.play(m))
    }
    /// The status of the side to move, in the game's meaning.
    fn status(&self) -> Status;
    /// The status of the side to move, given its legal moves (which some games need no more than).
    fn status_with(&self, legal: &[Self::Move]) -> Status {
        let _ = legal;
        self.status()
    }
    /// The status of the side to move after `m` (`after` is the position it leads to).
    fn status_after(&self, m: &Self::Move, after: &Self) -> Status {
        let _ = m;
        after.status()
    }
    /// Whether a move ends the game at once, whatever follows (in Rococo, taking the King).
    fn ends_game(&self, m: &Self::Move) -> bool {
        let _ = m;
        false
    }
    /// Whether a move of this position mates (`after` is the position it leads to): checkmate, or
    /// in a game won by capturing the King, a move that takes it or leaves no move keeping it.
    fn mates(&self, m: &Self::Move, after: &Self) -> bool {
        self.status_after(m, after) == Status::Checkmate
    }
    /// The pieces that cannot move, of both sides.
    fn frozen(&self) -> SquareSet;
    /// The squares of the pieces a move captures.
    fn captures(m: &Self::Move) -> SquareSet;
    /// The square a move leaves and the one it ends on (the same for a suicide).
    fn squares(m: &Self::Move) -> (u8, u8);
    /// The kind of piece that moves.
    fn role(m: &Self::Move) -> Role;
    /// The kind of move where the game has several (`normal`, `swap`, `mutual_destruction`,
    /// `suicide`), for the games that report it.
    fn kind_name(m: &Self::Move) -> Option<&'static str>;
    /// The kind a moving piece becomes.
    fn promotion(m: &Self::Move) -> Option<Role>;
    /// The move in the forwarding type.
    fn to_variant(m: &Self::Move) -> VariantMove;
    /// The move of this game a forwarding move holds.
    fn from_variant(m: &VariantMove) -> Option<Self::Move>;
    /// Whether a move captures.
    fn is_capture(m: &Self::Move) -> bool {
        Self::captures(m) != 0
    }
    /// Whether the King moves.
    fn is_king_move(m: &Self::Move) -> bool {
        Self::role(m) == Role::King
    }
    /// Whether the side to move is in check (its King could be taken now).
    fn in_check(&self) -> bool;
    /// Whether a search move of this position gives check: `self.play(m).in_check()`, which a
    /// game may answer without making the whole position.
    fn gives_check(&self, m: &Self::Move) -> bool {
        self.play(m).in_check()
    }

    /// The pieces on the board.
    fn piece_count(&self) -> u32;
}

/// Reading and writing a game: FEN, square and move names in a [`Naming`].
pub trait GameNotation: GameRules {
    /// The FEN, in `naming`.
    fn fen(&self, naming: Naming) -> String;
    /// The name of a square, in `naming`.
    fn square_name(&self, square: u8, naming: Naming) -> String;
    /// Reads a square's name in `naming`.
    fn parse_square(&self, name: &str, naming: Naming) -> Option<u8>;

    /// Reads a move in any accepted form, squares in `naming`.
    ///
    /// # Errors
    /// A [`MoveError`] with a reason code and a message.
    fn parse_move(&self, text: &str, naming: Naming) -> Result<Self::Move, MoveError>;
    /// The canonical name of a move of this position, in `naming`.
    fn move_name(&self, m: &Self::Move, naming: Naming) -> String;
    /// The from and to squares of a move (`d2d8`), in `naming`.
    fn move_uci(&self, m: &Self::Move, naming: Naming) -> String;
    /// Writes [`GameNotation::move_name`] and [`GameNotation::move_uci`] into `name` and `uci`
    /// (for callers that name many moves: a game may do it without allocating).
    fn write_names(
        &self,
        m: &Self::Move,
        naming: Naming,
        name: &mut impl std::fmt::Write,
        uci: &mut impl std::fmt::Write,
    ) {
        let _ = name.write_str(&self.move_name(m, naming));
        let _ = uci.write_str(&self.move_uci(m, naming));
    }

    /// The pieces on the squares of a set, lowest square first, in `naming`.
    fn square_pieces(&self, set: SquareSet, naming: Naming) -> Vec<SquarePiece> {
        set.squares()
            .filter_map(|s| {
                self.piece_at(s).map(|p| SquarePiece {
                    square: self.square_name(s, naming),
                    piece: self.piece_letter(p, naming).to_string(),
                })
            })
            .collect()
    }
    /// The letter of a piece in `naming` (upper case White).
    fn piece_letter(&self, p: Piece, naming: Naming) -> char;
    /// The role of a piece letter of the game's FEN (any letter set it reads, either case).
    fn role_of_letter(&self, letter: char) -> Option<Role>;
    /// A move named: notation, from and to squares, captures.
    fn move_info(&self, m: &Self::Move, naming: Naming) -> MoveInfo {
        MoveInfo {
            notation: self.move_name(m, naming),
            uci: self.move_uci(m, naming),
            captures: self.square_pieces(Self::captures(m), naming),
        }
    }
}

/// What the solver asks of a game beyond its rules: the moves in play, when a side has lost, which
/// moves lose at once, and the narrowed and quiet moves that order and prune its search. The rule
/// of victory lives here, and every stipulation, play judgement and verification uses it alone.
pub trait SearchHooks: GameRules {
    /// The moves of the side to move in play, what every stipulation searches: its legal moves,
    /// none once its King has been taken (in a game won by taking the King, a position reached by
    /// play from one with both Kings), written into `out` (cleared first). The solver counts
    /// these moves and no others; [`SearchHooks::drop_moves_losing_at_once`] is the one pruning
    /// it may apply, where the goal makes it exact.
    fn search_moves(&self, out: &mut Vec<Self::Move>);
    /// The search moves that end on `targets` (the end [`GameRules::squares`] gives), written
    /// into `out` (cleared first): [`SearchHooks::search_moves`] less the others, which a game
    /// may find without making them (the default makes them all).
    fn search_moves_to(&self, targets: SquareSet, out: &mut Vec<Self::Move>) {
        self.search_moves(out);
        out.retain(|m| targets.has(Self::squares(m).1));
    }
    /// Whether a move of this position loses at once: after it the opponent can take the mover's
    /// King, and it does not take the opponent's King. No legal move of Baroque does (a move that
    /// leaves one's King in check is illegal); in Rococo such a move is legal, and loses.
    fn loses_at_once(&self, m: &Self::Move) -> bool {
        let _ = m;
        false
    }
    /// Drops, of `moves` (moves of this position), those that [lose at
    /// once](SearchHooks::loses_at_once). Where the goal is reached by taking the King, this
    /// changes no answer of a direct mate (see `solver::search`); every other stipulation counts
    /// them.
    fn drop_moves_losing_at_once(&self, moves: &mut Vec<Self::Move>) {
        moves.retain(|m| !self.loses_at_once(m));
    }
    /// Whether the side to move has a search move that does not [lose at
    /// once](SearchHooks::loses_at_once) (may stop at the first).
    fn has_safe_move(&self) -> bool;
    /// [`SearchHooks::has_safe_move`] when whether the side to move is in check is known
    /// (`in_check` must be [`GameRules::in_check`]).
    fn has_safe_move_in(&self, in_check: bool) -> bool {
        let _ = in_check;
        self.has_safe_move()
    }
    /// Whether the side to move has lost, the goal of every mate stipulation: it is mated (the
    /// status `checkmate`: in Baroque, in check without a legal move; in Rococo, its King was
    /// taken, or it has a move and every one [loses at once](SearchHooks::loses_at_once)), or it
    /// has no move and the rules count that as a loss (Baroque's `stalemate: loss`).
    fn lost(&self) -> bool {
        self.lost_in(self.in_check())
    }
    /// [`SearchHooks::lost`] when whether the side to move is in check is known (`in_check` must
    /// be [`GameRules::in_check`]).
    fn lost_in(&self, in_check: bool) -> bool;
    /// Whether the side to move is stalemated, the goal of every stalemate stipulation (`=N`,
    /// `h=N`, `s=N`): it has no legal move and its King is on the board and not capturable. A
    /// position, whatever the rule set makes of it (Baroque's `stalemate: loss` included).
    fn stalemated(&self) -> bool {
        self.stalemated_in(self.in_check())
    }
    /// [`SearchHooks::stalemated`] when whether the side to move is in check is known
    /// (`in_check` must be [`GameRules::in_check`]).
    fn stalemated_in(&self, in_check: bool) -> bool;
    /// The search move of this position that moves the piece of `like` (a move of another
    /// position) between the same squares, whatever it captures here; `None` when there is none,
    /// or when the game does not answer without generating every move (the default). What tries a
    /// killer move (one that refuted elsewhere) before the others are generated.
    fn search_move_like(&self, like: &Self::Move) -> Option<Self::Move> {
        let _ = like;
        None
    }
    /// [`SearchHooks::search_move_like`], when the move made does not give check (a game may
    /// answer without playing it).
    fn quiet_move_like(&self, like: &Self::Move) -> Option<Self::Move> {
        self.search_move_like(like)
            .filter(|m| !self.play(m).in_check())
    }
    /// Whether only checking moves can win on the attacker's last move.
    fn only_checks_mate(&self) -> bool;
    /// Keeps, of moves of this position, those that may give check: at least every one that does
    /// (a game may keep them all). For the attacker's last move where
    /// [`SearchHooks::only_checks_mate`].
    fn retain_possible_checks(&self, moves: &mut Vec<Self::Move>) {
        let _ = moves;
    }
    /// A search move that cannot give check: one that
    /// [`SearchHooks::retain_possible_checks`] drops (a game may answer without generating every
    /// search move), if there is one. What refutes "every move mates" at once.
    fn quiet_search_move(&self) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.search_moves(&mut moves);
        let mut checks = moves.clone();
        self.retain_possible_checks(&mut checks);
        moves.into_iter().find(|m| !checks.contains(m))
    }
    /// Drops, of `moves` (search moves of this position), some after which the opponent surely
    /// has a search move that gives no check, shown without making them; `like`: moves of the
    /// opponent (of other positions) to try as that move first. What spares most of the last
    /// moves of a selfmate where [`SearchHooks::only_checks_mate`]: each of those leaves the
    /// opponent a move that does not mate (a stalemate asks less:
    /// [`SearchHooks::drop_moves_leaving_a_reply`]). The default drops none.
    fn drop_moves_leaving_a_quiet_reply(
        &self,
        moves: &mut Vec<Self::Move>,
        like: &[Option<Self::Move>],
    ) {
        let _ = (moves, like);
    }
    /// Drops, of `moves` (search moves of this position), some after which the opponent surely
    /// has a search move, check or not, shown without making them; `like` as for
    /// [`SearchHooks::drop_moves_leaving_a_quiet_reply`]. What spares most of the last moves of a
    /// stalemate (`=N`, `h=N`, `ser-=N`): a move that leaves the opponent a move stalemates
    /// nobody. The default drops what
    /// [`SearchHooks::drop_moves_leaving_a_quiet_reply`] drops (a quiet reply is a reply).
    fn drop_moves_leaving_a_reply(&self, moves: &mut Vec<Self::Move>, like: &[Option<Self::Move>]) {
        self.drop_moves_leaving_a_quiet_reply(moves, like);
    }
    /// The search moves that give check: [`SearchHooks::search_moves`] kept by
    /// [`SearchHooks::retain_possible_checks`] and [`GameRules::gives_check`] (a game may find
    /// them faster).
    fn search_checks(&self, out: &mut Vec<Self::Move>) {
        self.search_moves(out);
        self.retain_possible_checks(out);
        out.retain(|m| self.gives_check(m));
    }
    /// The position with the other side to move, when the side to move is not in check.
    fn null_move(&self) -> Option<Self>;
}

/// What the puzzle generator needs to set a game up: its pieces, squares, start and a key that
/// is the same for a position and its mirror images.
pub trait GeneratorSetup: GameRules {
    /// For positions made at random: the kinds a side starts with besides the King, the
    /// pawn-like kind first, each with how many a side starts with.
    fn setup_kinds() -> &'static [(Role, u32)];
    /// The squares a random setup may place pieces on.
    fn setup_squares() -> SquareSet;
    /// A position of `variant` with these pieces and this side to move, before any move.
    fn from_setup(variant: Variant, pieces: &[(u8, Piece)], turn: Color) -> Self;
    /// The start position of `variant`, a game of this type.
    fn start_position(variant: Variant) -> Self;
    /// The same text for this position and each of its images under the game's symmetries (see
    /// [`super::symmetry`]), the move counter aside.
    fn canonical_key(&self) -> String;
}

/// A position of a game: what the solver, the generator and the edges need of it, by concern
/// ([`GameRules`], [`GameNotation`], [`SearchHooks`], [`GeneratorSetup`]). Every position of a
/// game implements the four, and so this one.
pub trait GamePosition: GameRules + GameNotation + SearchHooks + GeneratorSetup {}

impl<P: GameRules + GameNotation + SearchHooks + GeneratorSetup> GamePosition for P {}

/// The [`GameRules`] methods every position answers the same way from its own inherent methods,
/// its board and its moves' fields.
macro_rules! forwarded_rules {
    ($position:ident, $move:ident) => {
        fn turn(&self) -> Color {
            $position::turn(self)
        }
        fn plies(&self) -> u32 {
            $position::plies(self)
        }
        fn validate(&self) -> Vec<Problem> {
            $position::validate(self)
        }
        fn key(&self) -> u64 {
            self.hash()
        }
        fn piece_at(&self, square: u8) -> Option<Piece> {
            self.board().piece_at(square)
        }
        fn king(&self, color: Color) -> Option<u8> {
            self.board().king(color)
        }
        fn piece_count(&self) -> u32 {
            self.board().occupied().count()
        }
        fn legal_moves(&self) -> Vec<$move> {
            $position::legal_moves(self)
        }
        fn play(&self, m: &$move) -> $position {
            self.after(m)
        }
        fn squares(m: &$move) -> (u8, u8) {
            (m.from, m.to)
        }
        fn role(m: &$move) -> Role {
            m.role
        }
    };
}

impl GameRules for Position {
    type Move = Move;
    forwarded_rules!(Position, Move);

    fn variant(&self) -> Variant {
        Variant::Baroque(*self.rules())
    }
    fn legal_moves_into(&self, out: &mut Vec<Move>) {
        self.generate_legal(out);
    }
    fn count_legal(&self, buf: &mut Vec<Move>) -> u64 {
        Position::count_legal(self, buf)
    }
    fn play_checked(&self, m: &Move) -> Option<Position> {
        self.is_legal(m).then(|| self.after(m))
    }
    fn status(&self) -> Status {
        Position::status(self)
    }
    fn status_with(&self, legal: &[Move]) -> Status {
        match (self.is_check(), legal.is_empty()) {
            (true, true) => Status::Checkmate,
            (false, true) => Status::Stalemate,
            (true, false) => Status::Check,
            (false, false) => Status::Ongoing,
        }
    }
    /// Only a checking move can mate, so the reply search runs only after one.
    fn mates(&self, _: &Move, after: &Position) -> bool {
        after.is_check() && !after.has_legal_move()
    }
    fn frozen(&self) -> SquareSet {
        u128::from(Position::frozen(self))
    }
    fn captures(m: &Move) -> SquareSet {
        u128::from(m.captures)
    }
    fn kind_name(_: &Move) -> Option<&'static str> {
        None
    }
    fn promotion(_: &Move) -> Option<Role> {
        None
    }
    fn to_variant(m: &Move) -> VariantMove {
        VariantMove::Baroque(*m)
    }
    fn from_variant(m: &VariantMove) -> Option<Move> {
        match m {
            VariantMove::Baroque(m) => Some(*m),
            VariantMove::Rococo(_) => None,
        }
    }
    fn is_capture(m: &Move) -> bool {
        m.is_capture()
    }
    fn in_check(&self) -> bool {
        self.is_check()
    }
    fn gives_check(&self, m: &Move) -> bool {
        Position::gives_check(self, m)
    }
}

impl GameNotation for Position {
    fn fen(&self, naming: Naming) -> String {
        Position::fen(self, naming.letters)
    }
    fn square_name(&self, square: u8, _: Naming) -> String {
        super::Board8::name(square)
    }
    fn parse_square(&self, name: &str, _: Naming) -> Option<u8> {
        super::Board8::parse_square(name)
    }
    fn parse_move(&self, text: &str, _: Naming) -> Result<Move, MoveError> {
        Position::parse_move(self, text)
    }
    fn move_name(&self, m: &Move, _: Naming) -> String {
        Position::move_name(self, m, Letters::Chess)
    }
    fn move_uci(&self, m: &Move, _: Naming) -> String {
        m.uci()
    }
    /// Written a character at a time: formatting through temporary strings was half the cost of
    /// an analysis.
    fn write_names(
        &self,
        m: &Move,
        _: Naming,
        name: &mut impl std::fmt::Write,
        uci: &mut impl std::fmt::Write,
    ) {
        fn square(out: &mut impl std::fmt::Write, sq: u8) {
            let _ = out.write_char(char::from(b'a' + super::Board8::file_of(sq)));
            let _ = out.write_char(char::from(b'1' + super::Board8::rank_of(sq)));
        }
        square(uci, m.from);
        square(uci, m.to);
        let _ = name.write_char(m.role.letter(Letters::Chess));
        square(name, m.from);
        let _ = name.write_char(if m.is_capture() { 'x' } else { '-' });
        square(name, m.to);
    }
    fn piece_letter(&self, p: Piece, _: Naming) -> char {
        p.letter(Letters::Chess)
    }
    fn role_of_letter(&self, letter: char) -> Option<Role> {
        Role::from_baroque_letter(letter)
    }
}

impl SearchHooks for Position {
    fn search_moves(&self, out: &mut Vec<Move>) {
        self.generate_legal(out);
    }
    fn search_moves_to(&self, targets: SquareSet, out: &mut Vec<Move>) {
        // The board's 64 squares are the set's low bits.
        self.generate_legal_to(targets as super::position::Bits, out);
    }
    fn has_safe_move(&self) -> bool {
        self.has_legal_move()
    }
    fn lost_in(&self, in_check: bool) -> bool {
        let without_moves_loses = in_check || self.rules().stalemate == Stalemate::Loss;
        without_moves_loses && !self.has_legal_move()
    }
    fn stalemated_in(&self, in_check: bool) -> bool {
        !in_check && self.board().king(self.turn()).is_some() && !self.has_legal_move()
    }
    fn search_move_like(&self, like: &Move) -> Option<Move> {
        self.legal_move_like(like)
    }
    fn quiet_move_like(&self, like: &Move) -> Option<Move> {
        Position::quiet_move_like(self, like)
    }
    fn only_checks_mate(&self) -> bool {
        self.rules().stalemate == Stalemate::Draw
    }
    fn retain_possible_checks(&self, moves: &mut Vec<Move>) {
        Position::retain_possible_checks(self, moves);
    }
    fn drop_moves_losing_at_once(&self, _: &mut Vec<Move>) {
        // No legal move of Baroque leaves the mover's King capturable: nothing to walk.
    }
    fn search_checks(&self, out: &mut Vec<Move>) {
        self.generate_legal_checks(out);
    }
    fn drop_moves_leaving_a_quiet_reply(&self, moves: &mut Vec<Move>, like: &[Option<Move>]) {
        drop_keeping(self, moves, like, Position::keeps_quiet_reply);
    }
    fn drop_moves_leaving_a_reply(&self, moves: &mut Vec<Move>, like: &[Option<Move>]) {
        drop_keeping(self, moves, like, Position::keeps_reply);
    }
    fn quiet_search_move(&self) -> Option<Move> {
        self.legal_quiet_move()
    }
    fn null_move(&self) -> Option<Position> {
        Position::null_move(self)
    }
}

/// Drops, of `moves` (moves of `pos`), those that `keeps` shows to keep one of up to two quiet
/// replies of the opponent: the opponent moves `like` first, else two quiet moves of its own, by
/// two pieces where it can (a move of ours seldom touches both).
fn drop_keeping(
    pos: &Position,
    moves: &mut Vec<Move>,
    like: &[Option<Move>],
    keeps: fn(&Position, &QuietReply, &Move) -> bool,
) {
    let mut replies = like.iter().flatten().filter_map(|k| pos.quiet_reply(k));
    let [first, second] = match replies.next() {
        Some(first) => [Some(first), replies.next()],
        None => {
            let own = pos
                .null_move()
                .map_or([None; 2], |them| them.two_legal_quiet_moves());
            let mut own = own.iter().flatten().filter_map(|q| pos.quiet_reply(q));
            [own.next(), own.next()]
        }
    };
    let Some(first) = first else { return };
    match second {
        Some(second) => moves.retain(|m| !keeps(pos, &first, m) && !keeps(pos, &second, m)),
        None => moves.retain(|m| !keeps(pos, &first, m)),
    }
}

impl GeneratorSetup for Position {
    fn setup_kinds() -> &'static [(Role, u32)] {
        &super::symmetry::BAROQUE_KINDS
    }
    fn setup_squares() -> SquareSet {
        u128::from(u64::MAX)
    }
    fn from_setup(variant: Variant, pieces: &[(u8, Piece)], turn: Color) -> Position {
        let mut board = super::Board::empty();
        for &(sq, p) in pieces {
            board.put(sq, p);
        }
        Position::from_board(board, turn, variant.rules().unwrap_or_default())
    }
    fn start_position(variant: Variant) -> Position {
        Position::start(variant.rules().unwrap_or_default())
    }
    fn canonical_key(&self) -> String {
        super::symmetry::baroque_key(self)
    }
}

/// Rococo's victory (`../shared/RULES.md`, last point): every move is legal, one that leaves the
/// mover's King capturable too, and the search counts them all; once a King is taken the game is
/// over (no search move). A side whose King is gone has lost; a side with moves but none that
/// keeps its King (or takes the enemy King) has lost too (the King falls next move): the status
/// `checkmate`; a side with no move at all draws.
impl GameRules for RococoPosition {
    type Move = RococoMove;
    forwarded_rules!(RococoPosition, RococoMove);

    fn variant(&self) -> Variant {
        Variant::Rococo
    }
    fn legal_moves_into(&self, out: &mut Vec<RococoMove>) {
        self.generate(out);
    }
    fn count_legal(&self, buf: &mut Vec<RococoMove>) -> u64 {
        self.count_moves(buf)
    }
    fn status(&self) -> Status {
        RococoPosition::status(self)
    }
    fn status_after(&self, m: &RococoMove, after: &RococoPosition) -> Status {
        RococoPosition::status_after(self, m, after)
    }
    fn ends_game(&self, m: &RococoMove) -> bool {
        self.takes_king(m)
    }
    fn frozen(&self) -> SquareSet {
        RococoPosition::frozen(self)
    }
    fn captures(m: &RococoMove) -> SquareSet {
        m.captures
    }
    fn kind_name(m: &RococoMove) -> Option<&'static str> {
        Some(match m.kind {
            RococoKind::Normal => "normal",
            RococoKind::Swap => "swap",
            RococoKind::MutualDestruction => "mutual_destruction",
            RococoKind::Suicide => "suicide",
        })
    }
    fn promotion(m: &RococoMove) -> Option<Role> {
        m.promotion
    }
    fn to_variant(m: &RococoMove) -> VariantMove {
        VariantMove::Rococo(*m)
    }
    fn from_variant(m: &VariantMove) -> Option<RococoMove> {
        match m {
            VariantMove::Rococo(m) => Some(*m),
            VariantMove::Baroque(_) => None,
        }
    }
    fn in_check(&self) -> bool {
        self.king_capturable(self.turn())
    }
}

impl GameNotation for RococoPosition {
    fn fen(&self, naming: Naming) -> String {
        RococoPosition::fen(self, naming.coords)
    }
    fn square_name(&self, square: u8, naming: Naming) -> String {
        naming.coords.name(square)
    }
    fn parse_square(&self, name: &str, naming: Naming) -> Option<u8> {
        naming.coords.parse(name)
    }
    fn parse_move(&self, text: &str, naming: Naming) -> Result<RococoMove, MoveError> {
        RococoPosition::parse_move(self, text, naming.coords)
    }
    fn move_name(&self, m: &RococoMove, naming: Naming) -> String {
        RococoPosition::move_name(self, m, naming.coords)
    }
    fn move_uci(&self, m: &RococoMove, naming: Naming) -> String {
        RococoPosition::uci(m, naming.coords)
    }
    fn piece_letter(&self, p: Piece, _: Naming) -> char {
        p.rococo_letter()
    }
    fn role_of_letter(&self, letter: char) -> Option<Role> {
        Role::from_rococo_letter(letter)
    }
}

impl SearchHooks for RococoPosition {
    fn search_moves(&self, out: &mut Vec<RococoMove>) {
        out.clear();
        if self.board().king(self.turn()).is_some() {
            self.generate(out);
        }
    }
    fn loses_at_once(&self, m: &RococoMove) -> bool {
        !self.keeps_king(m)
    }
    fn drop_moves_losing_at_once(&self, moves: &mut Vec<RococoMove>) {
        let watch = self.king_watch();
        moves.retain(|m| self.keeps_king_with(m, &watch));
    }
    fn has_safe_move(&self) -> bool {
        self.board().king(self.turn()).is_some() && self.has_keeping_move()
    }
    fn has_safe_move_in(&self, in_check: bool) -> bool {
        self.board().king(self.turn()).is_some() && self.has_keeping_move_in(in_check)
    }
    fn lost_in(&self, in_check: bool) -> bool {
        // Its King taken; or moves, none of which keeps it.
        self.board().king(self.turn()).is_none()
            || (!self.has_keeping_move_in(in_check) && self.has_move())
    }
    /// Every Rococo move is legal: stalemated is no move at all, the King on the board and not
    /// capturable.
    fn stalemated_in(&self, in_check: bool) -> bool {
        !in_check && self.board().king(self.turn()).is_some() && !self.has_move()
    }
    fn search_move_like(&self, like: &RococoMove) -> Option<RococoMove> {
        // Without its King a side has no search move (see `search_moves`).
        self.board().king(self.turn())?;
        self.move_like(like)
    }
    fn only_checks_mate(&self) -> bool {
        false
    }
    fn null_move(&self) -> Option<RococoPosition> {
        RococoPosition::null_move(self)
    }
}

impl GeneratorSetup for RococoPosition {
    fn setup_kinds() -> &'static [(Role, u32)] {
        &super::symmetry::ROCOCO_KINDS
    }
    fn setup_squares() -> SquareSet {
        super::symmetry::rococo_setup_squares()
    }
    fn from_setup(_: Variant, pieces: &[(u8, Piece)], turn: Color) -> RococoPosition {
        super::symmetry::rococo_setup(pieces, turn)
    }
    fn start_position(_: Variant) -> RococoPosition {
        RococoPosition::start()
    }
    fn canonical_key(&self) -> String {
        super::symmetry::rococo_key(self)
    }
}

/// A position of either game: what the edges hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantPosition {
    /// A Baroque chess position (8x8 board, with its rule set).
    Baroque(Position),
    /// A Rococo position (10x10 board).
    Rococo(RococoPosition),
}

/// A move of either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariantMove {
    /// A move of Baroque chess.
    Baroque(Move),
    /// A move of Rococo.
    Rococo(RococoMove),
}

/// A computation generic over the game, run on the concrete position of a [`VariantPosition`] by
/// [`VariantPosition::visit`] (monomorphised for each game).
pub trait Visit {
    /// What it gives.
    type Output;
    /// Runs on a position of one game.
    fn visit<P: GamePosition>(self, position: &P) -> Self::Output;
}

impl VariantPosition {
    /// Runs a generic computation on the concrete position.
    pub fn visit<V: Visit>(&self, v: V) -> V::Output {
        match self {
            VariantPosition::Baroque(p) => v.visit(p),
            VariantPosition::Rococo(p) => v.visit(p),
        }
    }

    /// The game.
    pub fn kind(&self) -> GameKind {
        self.variant().kind()
    }

    /// The position after move `m`, which must be of the same game (it need not be legal: see
    /// [`GameRules::play_checked`]).
    ///
    /// # Errors
    /// [`WrongGame`] for a move of the other game.
    pub fn try_play(&self, m: &VariantMove) -> Result<VariantPosition, WrongGame> {
        match (self, m) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m)) => {
                Ok(VariantPosition::Baroque(p.after(m)))
            }
            (VariantPosition::Rococo(p), VariantMove::Rococo(m)) => {
                Ok(VariantPosition::Rococo(p.after(m)))
            }
            (p, m) => Err(WrongGame {
                position: p.kind(),
                mv: m.kind(),
            }),
        }
    }
}

/// Forwards a call to the concrete position.
macro_rules! forward {
    ($self:ident, $p:ident => $e:expr) => {
        match $self {
            VariantPosition::Baroque($p) => $e,
            VariantPosition::Rococo($p) => $e,
        }
    };
}

/// Forwards a call with a move to the concrete position. A move of the other game is a bug of the
/// caller, which panics with [`WrongGame`]'s message: never a silent answer about another position
/// ([`VariantPosition::try_play`] is the checked form).
macro_rules! forward_move {
    ($self:ident, $m:ident, $p:ident, $mv:ident => $e:expr) => {
        match ($self, $m) {
            (VariantPosition::Baroque($p), VariantMove::Baroque($mv)) => $e,
            (VariantPosition::Rococo($p), VariantMove::Rococo($mv)) => $e,
            (p, m) => wrong_game(p, m),
        }
    };
}

/// A move of one game given to a position of the other: a bug of the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a move of {} given to a position of {}", .mv.name(), .position.name())]
pub struct WrongGame {
    /// The position's game.
    pub position: GameKind,
    /// The move's game.
    pub mv: GameKind,
}

#[cold]
#[inline(never)]
fn wrong_game(p: &VariantPosition, m: &VariantMove) -> ! {
    panic!(
        "{}",
        WrongGame {
            position: p.kind(),
            mv: m.kind()
        }
    )
}

/// [`wrong_game`] for a call given a position, a move and the position after it: whichever of the
/// move and the position after it is not of the position's game.
#[cold]
#[inline(never)]
fn wrong_game_after(p: &VariantPosition, m: &VariantMove, after: &VariantPosition) -> ! {
    match p.kind() == m.kind() {
        true => wrong_game(after, m),
        false => wrong_game(p, m),
    }
}

impl VariantMove {
    /// The game the move is of.
    pub fn kind(&self) -> GameKind {
        match self {
            VariantMove::Baroque(_) => GameKind::Baroque,
            VariantMove::Rococo(_) => GameKind::Rococo,
        }
    }
}

/// Forwards a call about a move alone.
macro_rules! on_move {
    ($m:ident, $mv:ident => $b:expr, $r:expr) => {
        match $m {
            VariantMove::Baroque($mv) => $b,
            VariantMove::Rococo($mv) => $r,
        }
    };
}

impl GameRules for VariantPosition {
    type Move = VariantMove;

    fn variant(&self) -> Variant {
        forward!(self, p => p.variant())
    }
    fn turn(&self) -> Color {
        forward!(self, p => GameRules::turn(p))
    }
    fn plies(&self) -> u32 {
        forward!(self, p => GameRules::plies(p))
    }
    fn validate(&self) -> Vec<Problem> {
        forward!(self, p => GameRules::validate(p))
    }
    fn key(&self) -> u64 {
        forward!(self, p => p.key())
    }
    fn piece_at(&self, square: u8) -> Option<Piece> {
        forward!(self, p => GameRules::piece_at(p, square))
    }
    fn king(&self, color: Color) -> Option<u8> {
        forward!(self, p => GameRules::king(p, color))
    }
    fn legal_moves_into(&self, out: &mut Vec<VariantMove>) {
        out.clear();
        match self {
            VariantPosition::Baroque(p) => out.extend(
                Position::legal_moves(p)
                    .into_iter()
                    .map(VariantMove::Baroque),
            ),
            VariantPosition::Rococo(p) => out.extend(
                RococoPosition::legal_moves(p)
                    .into_iter()
                    .map(VariantMove::Rococo),
            ),
        }
    }
    /// Panics on a move of the other game (a bug of the caller; [`VariantPosition::try_play`] is
    /// the checked form).
    fn play(&self, m: &VariantMove) -> VariantPosition {
        match (self, m) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m)) => {
                VariantPosition::Baroque(p.after(m))
            }
            (VariantPosition::Rococo(p), VariantMove::Rococo(m)) => {
                VariantPosition::Rococo(p.after(m))
            }
            (p, m) => wrong_game(p, m),
        }
    }
    fn play_checked(&self, m: &VariantMove) -> Option<VariantPosition> {
        match (self, m) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m)) => {
                p.play_checked(m).map(VariantPosition::Baroque)
            }
            (VariantPosition::Rococo(p), VariantMove::Rococo(m)) => {
                p.play_checked(m).map(VariantPosition::Rococo)
            }
            _ => None,
        }
    }
    fn status(&self) -> Status {
        forward!(self, p => GameRules::status(p))
    }
    fn status_with(&self, legal: &[VariantMove]) -> Status {
        match self {
            VariantPosition::Baroque(p) => {
                let moves: Vec<Move> = legal.iter().filter_map(Position::from_variant).collect();
                p.status_with(&moves)
            }
            VariantPosition::Rococo(p) => GameRules::status(p),
        }
    }
    fn status_after(&self, m: &VariantMove, after: &VariantPosition) -> Status {
        match (self, m, after) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m), VariantPosition::Baroque(a)) => {
                GameRules::status_after(p, m, a)
            }
            (VariantPosition::Rococo(p), VariantMove::Rococo(m), VariantPosition::Rococo(a)) => {
                GameRules::status_after(p, m, a)
            }
            _ => wrong_game_after(self, m, after),
        }
    }
    fn ends_game(&self, m: &VariantMove) -> bool {
        forward_move!(self, m, p, mv => p.ends_game(mv))
    }
    fn mates(&self, m: &VariantMove, after: &VariantPosition) -> bool {
        match (self, m, after) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m), VariantPosition::Baroque(a)) => {
                p.mates(m, a)
            }
            (VariantPosition::Rococo(p), VariantMove::Rococo(m), VariantPosition::Rococo(a)) => {
                p.mates(m, a)
            }
            _ => wrong_game_after(self, m, after),
        }
    }
    fn frozen(&self) -> SquareSet {
        forward!(self, p => GameRules::frozen(p))
    }
    fn captures(m: &VariantMove) -> SquareSet {
        on_move!(m, mv => Position::captures(mv), RococoPosition::captures(mv))
    }
    fn squares(m: &VariantMove) -> (u8, u8) {
        on_move!(m, mv => (mv.from, mv.to), (mv.from, mv.to))
    }
    fn role(m: &VariantMove) -> Role {
        on_move!(m, mv => mv.role, mv.role)
    }
    fn kind_name(m: &VariantMove) -> Option<&'static str> {
        on_move!(m, mv => Position::kind_name(mv), RococoPosition::kind_name(mv))
    }
    fn promotion(m: &VariantMove) -> Option<Role> {
        on_move!(m, mv => Position::promotion(mv), RococoPosition::promotion(mv))
    }
    fn to_variant(m: &VariantMove) -> VariantMove {
        *m
    }
    fn from_variant(m: &VariantMove) -> Option<VariantMove> {
        Some(*m)
    }
    fn in_check(&self) -> bool {
        forward!(self, p => p.in_check())
    }
    fn piece_count(&self) -> u32 {
        forward!(self, p => p.piece_count())
    }
}

impl GameNotation for VariantPosition {
    fn fen(&self, naming: Naming) -> String {
        forward!(self, p => GameNotation::fen(p, naming))
    }
    fn square_name(&self, square: u8, naming: Naming) -> String {
        forward!(self, p => p.square_name(square, naming))
    }
    fn parse_square(&self, name: &str, naming: Naming) -> Option<u8> {
        forward!(self, p => p.parse_square(name, naming))
    }
    fn parse_move(&self, text: &str, naming: Naming) -> Result<VariantMove, MoveError> {
        match self {
            VariantPosition::Baroque(p) => {
                GameNotation::parse_move(p, text, naming).map(VariantMove::Baroque)
            }
            VariantPosition::Rococo(p) => {
                GameNotation::parse_move(p, text, naming).map(VariantMove::Rococo)
            }
        }
    }
    fn move_name(&self, m: &VariantMove, naming: Naming) -> String {
        forward_move!(self, m, p, mv => GameNotation::move_name(p, mv, naming))
    }
    fn move_uci(&self, m: &VariantMove, naming: Naming) -> String {
        forward_move!(self, m, p, mv => p.move_uci(mv, naming))
    }
    fn write_names(
        &self,
        m: &VariantMove,
        naming: Naming,
        name: &mut impl std::fmt::Write,
        uci: &mut impl std::fmt::Write,
    ) {
        forward_move!(self, m, p, mv => p.write_names(mv, naming, name, uci))
    }
    fn piece_letter(&self, p: Piece, naming: Naming) -> char {
        forward!(self, pos => pos.piece_letter(p, naming))
    }
    fn role_of_letter(&self, letter: char) -> Option<Role> {
        forward!(self, pos => pos.role_of_letter(letter))
    }
}

impl SearchHooks for VariantPosition {
    fn search_moves(&self, out: &mut Vec<VariantMove>) {
        out.clear();
        match self {
            VariantPosition::Baroque(p) => {
                let mut v = Vec::new();
                p.search_moves(&mut v);
                out.extend(v.into_iter().map(VariantMove::Baroque));
            }
            VariantPosition::Rococo(p) => {
                let mut v = Vec::new();
                p.search_moves(&mut v);
                out.extend(v.into_iter().map(VariantMove::Rococo));
            }
        }
    }
    fn has_safe_move(&self) -> bool {
        forward!(self, p => p.has_safe_move())
    }
    fn has_safe_move_in(&self, in_check: bool) -> bool {
        forward!(self, p => p.has_safe_move_in(in_check))
    }
    fn lost_in(&self, in_check: bool) -> bool {
        forward!(self, p => p.lost_in(in_check))
    }
    fn stalemated_in(&self, in_check: bool) -> bool {
        forward!(self, p => p.stalemated_in(in_check))
    }
    fn loses_at_once(&self, m: &VariantMove) -> bool {
        match (self, m) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m)) => p.loses_at_once(m),
            (VariantPosition::Rococo(p), VariantMove::Rococo(m)) => p.loses_at_once(m),
            _ => wrong_game(self, m),
        }
    }
    fn only_checks_mate(&self) -> bool {
        forward!(self, p => p.only_checks_mate())
    }
    fn search_move_like(&self, like: &VariantMove) -> Option<VariantMove> {
        match (self, like) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m)) => {
                p.search_move_like(m).map(VariantMove::Baroque)
            }
            (VariantPosition::Rococo(p), VariantMove::Rococo(m)) => {
                p.search_move_like(m).map(VariantMove::Rococo)
            }
            _ => None,
        }
    }
    fn quiet_move_like(&self, like: &VariantMove) -> Option<VariantMove> {
        match (self, like) {
            (VariantPosition::Baroque(p), VariantMove::Baroque(m)) => {
                SearchHooks::quiet_move_like(p, m).map(VariantMove::Baroque)
            }
            (VariantPosition::Rococo(p), VariantMove::Rococo(m)) => {
                p.quiet_move_like(m).map(VariantMove::Rococo)
            }
            _ => None,
        }
    }
    fn quiet_search_move(&self) -> Option<VariantMove> {
        match self {
            VariantPosition::Baroque(p) => p.quiet_search_move().map(VariantMove::Baroque),
            VariantPosition::Rococo(p) => p.quiet_search_move().map(VariantMove::Rococo),
        }
    }
    fn null_move(&self) -> Option<VariantPosition> {
        match self {
            VariantPosition::Baroque(p) => SearchHooks::null_move(p).map(VariantPosition::Baroque),
            VariantPosition::Rococo(p) => SearchHooks::null_move(p).map(VariantPosition::Rococo),
        }
    }
}

impl GeneratorSetup for VariantPosition {
    /// The forwarding type has no kinds of its own: a setup is made on a concrete game (see
    /// [`VariantPosition::visit`]).
    fn setup_kinds() -> &'static [(Role, u32)] {
        &[]
    }
    fn setup_squares() -> SquareSet {
        0
    }
    fn from_setup(variant: Variant, pieces: &[(u8, Piece)], turn: Color) -> VariantPosition {
        match variant {
            Variant::Baroque(_) => {
                VariantPosition::Baroque(Position::from_setup(variant, pieces, turn))
            }
            Variant::Rococo => {
                VariantPosition::Rococo(RococoPosition::from_setup(variant, pieces, turn))
            }
        }
    }
    fn start_position(variant: Variant) -> VariantPosition {
        variant.start()
    }
    fn canonical_key(&self) -> String {
        forward!(self, p => p.canonical_key())
    }
}

impl From<Position> for VariantPosition {
    fn from(p: Position) -> VariantPosition {
        VariantPosition::Baroque(p)
    }
}

impl From<RococoPosition> for VariantPosition {
    fn from(p: RococoPosition) -> VariantPosition {
        VariantPosition::Rococo(p)
    }
}

/// Whether a Baroque move is a suicide (for callers that report the kind of Baroque moves).
pub fn is_suicide(m: &Move) -> bool {
    m.kind == MoveKind::Suicide
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_game_is_known_by_its_board_its_fen_and_its_letters() {
        assert_eq!(GameKind::of_board(8, 8), Some(GameKind::Baroque));
        assert_eq!(GameKind::of_board(10, 10), Some(GameKind::Rococo));
        assert_eq!(GameKind::of_board(8, 10), None);
        assert_eq!(GameKind::of_fen("k7/8/8/8/8/8/8/7K w 0"), GameKind::Baroque);
        assert_eq!(
            GameKind::of_fen("10/10/4k5/10/10/10/4L5/10/1K8/10 w 0"),
            GameKind::Rococo
        );
        assert_eq!(GameKind::Baroque.letters(), "BCIKLMNPQRWX");
        assert_eq!(GameKind::Rococo.letters(), "AIKLPSUWX");
        assert_eq!(GameKind::Rococo.role_of_letter('p'), Some(Role::CannonPawn));
        assert_eq!(
            GameKind::Baroque.role_of_letter('q'),
            Some(Role::Withdrawer)
        );
        use GameKind::{Baroque as B, Rococo as R};
        assert_eq!(GameKind::most_common([]), B);
        assert_eq!(GameKind::most_common([R, B]), B);
        assert_eq!(GameKind::most_common([R, R, B]), R);
    }
    use super::*;

    /// A move of the other game is a typed error from `try_play`, and a loud bug (a panic naming
    /// both games) from `play`: never the position unchanged.
    #[test]
    fn a_move_of_the_other_game_is_an_error_never_a_no_op() {
        let (baroque, rococo) = (Variant::default().start(), Variant::Rococo.start());
        let (b, r) = (baroque.legal_moves()[0], rococo.legal_moves()[0]);
        assert_eq!(b.kind(), GameKind::Baroque);
        assert_eq!(baroque.try_play(&b), Ok(baroque.play(&b)));
        assert_ne!(baroque.try_play(&b), Ok(baroque));
        let err = baroque.try_play(&r).unwrap_err();
        assert_eq!(
            err,
            WrongGame {
                position: GameKind::Baroque,
                mv: GameKind::Rococo
            }
        );
        assert_eq!(
            err.to_string(),
            "a move of rococo given to a position of baroque"
        );
        assert_eq!(rococo.try_play(&b).unwrap_err().mv, GameKind::Baroque);
        let panic = std::panic::catch_unwind(|| rococo.play(&b)).unwrap_err();
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert_eq!(message, "a move of baroque given to a position of rococo");
        assert!(std::panic::catch_unwind(|| baroque.ends_game(&r)).is_err());
        // The position after the move is the one of the other game: that one is named.
        let panic = std::panic::catch_unwind(|| baroque.mates(&b, &rococo)).unwrap_err();
        let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
        assert_eq!(message, "a move of baroque given to a position of rococo");
        assert!(std::panic::catch_unwind(|| baroque.move_name(&r, Naming::default())).is_err());
    }

    #[test]
    fn pgn_variant_names_read_back_in_any_case() {
        for g in GameKind::ALL {
            assert_eq!(GameKind::from_pgn_variant(g.pgn_variant()), Some(g));
            let upper = g.pgn_variant().to_uppercase();
            assert_eq!(GameKind::from_pgn_variant(&upper), Some(g));
        }
        assert_eq!(
            GameKind::from_pgn_variant(" Ultima "),
            Some(GameKind::Baroque)
        );
        assert_eq!(
            GameKind::from_pgn_variant("Baroque Chess"),
            Some(GameKind::Baroque)
        );
        assert_eq!(GameKind::from_pgn_variant("chess"), None);
    }

    #[test]
    fn the_variant_policies_are_each_games_own() {
        assert!(Variant::has_rule_sets(GameKind::Baroque));
        assert!(!Variant::has_rule_sets(GameKind::Rococo));
        assert!(Variant::mate_needs_both_kings(GameKind::Rococo));
        assert!(!Variant::mate_needs_both_kings(GameKind::Baroque));
        assert!(Variant::of(GameKind::Rococo, Some(Rules::default())).is_err());
        assert_eq!(
            Variant::of(GameKind::Baroque, None).unwrap(),
            Variant::Baroque(Rules::default())
        );
        for g in GameKind::ALL {
            assert_eq!(GameKind::parse(g.name()), Some(g));
        }
    }

    #[test]
    fn the_forwarding_position_agrees_with_the_concrete_ones() {
        for variant in [Variant::default(), Variant::Rococo] {
            let start = variant.start();
            let moves = start.legal_moves();
            assert!(!moves.is_empty());
            for m in moves.iter().take(20) {
                let name = start.move_name(m, Naming::default());
                assert_eq!(start.parse_move(&name, Naming::default()).unwrap(), *m);
                let after = start.play(m);
                assert_eq!(after.turn(), start.turn().other());
                assert_eq!(start.play_checked(m), Some(after));
            }
            let fen = start.fen(Naming::default());
            let (again, warnings) = variant.position(&fen, Naming::default()).unwrap();
            assert_eq!(again, start);
            assert!(warnings.iter().all(|w| !w.is_error()));
        }
    }

    /// A computation written once, run on either game.
    struct CountMoves;
    impl Visit for CountMoves {
        type Output = usize;
        fn visit<P: GamePosition>(self, p: &P) -> usize {
            let mut v = Vec::new();
            p.legal_moves_into(&mut v);
            v.len()
        }
    }

    #[test]
    fn a_visit_runs_on_the_concrete_position() {
        assert_eq!(Variant::default().start().visit(CountMoves), 32);
        let rococo = Variant::Rococo.start();
        assert_eq!(rococo.visit(CountMoves), rococo.legal_moves().len());
    }
}

#[cfg(test)]
mod naming_tests {
    use super::*;

    /// `write_names` writes what `move_name` and `move_uci` answer, in both games and namings.
    #[test]
    fn written_names_are_the_named_ones() {
        let mut checked = 0;
        for (variant, coords) in [
            (Variant::default(), Coords::Standard),
            (Variant::Rococo, Coords::Standard),
            (Variant::Rococo, Coords::Page),
        ] {
            let naming = Naming::coords(coords);
            let start = variant.start();
            let mut positions = vec![start];
            positions.extend(start.legal_moves().iter().map(|m| start.play(m)));
            for pos in positions {
                for m in pos.legal_moves() {
                    let (mut name, mut uci) = (String::new(), String::new());
                    pos.write_names(&m, naming, &mut name, &mut uci);
                    assert_eq!(name, pos.move_name(&m, naming));
                    assert_eq!(uci, pos.move_uci(&m, naming));
                    checked += 1;
                }
            }
        }
        assert!(checked > 2_000, "{checked}");
    }
}
