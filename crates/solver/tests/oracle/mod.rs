//! Oracles shared by the stipulation and notation tests of both games, written from the
//! definitions with the rules engine alone.
#![allow(dead_code)]

// The notation oracle (the move reader behind `/v1/verify`), shared with the rules crate's tests.
#[path = "../../../rules/tests/oracle/mod.rs"]
mod notation;
#[allow(unused_imports)]
pub use notation::{every_uci_names_one_move, replay_texts};

use baroque_rules::{Color, GamePosition, Naming, Status};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

/// Every helpmate line of `plies` moves from `p`: moves one after the other, each one of
/// `playable` (a side mated has none, which ends the play), the last leaving Black `mated`.
pub fn help_lines<P: GamePosition>(
    p: &P,
    plies: u32,
    playable: &impl Fn(&P) -> Vec<P::Move>,
    mated: &impl Fn(&P) -> bool,
) -> HashSet<Vec<P::Move>> {
    fn walk<P: GamePosition>(
        p: &P,
        plies: u32,
        playable: &impl Fn(&P) -> Vec<P::Move>,
        mated: &impl Fn(&P) -> bool,
        line: &mut Vec<P::Move>,
        out: &mut HashSet<Vec<P::Move>>,
    ) {
        for m in playable(p) {
            let after = p.play(&m);
            line.push(m);
            if plies == 1 {
                if after.turn() == Color::Black && mated(&after) {
                    out.insert(line.clone());
                }
            } else {
                walk(&after, plies - 1, playable, mated, line, out);
            }
            line.pop();
        }
    }
    let mut out = HashSet::new();
    walk(p, plies, playable, mated, &mut Vec::new(), &mut out);
    out
}

/// Whether a solve's lines are `want`: all of them, or, when more were found than are kept
/// (`truncated`), as many counted and those kept among them; no line twice.
pub fn same_lines<M: Clone + Eq + Hash + Debug>(
    lines: &[Vec<M>],
    count: usize,
    truncated: bool,
    want: &HashSet<Vec<M>>,
    what: &str,
) -> Result<(), TestCaseError> {
    let got: HashSet<Vec<M>> = lines.iter().cloned().collect();
    prop_assert_eq!(got.len(), lines.len(), "no line twice: {}", what);
    prop_assert_eq!(count, want.len(), "{}", what);
    if truncated {
        prop_assert!(got.is_subset(want), "{}", what);
    } else {
        prop_assert_eq!(&got, want, "{}", what);
    }
    Ok(())
}

/// The options of the agreement checks: one thread, a small table, the default budget.
fn agreement_options(stipulation: baroque_solver::Stipulation) -> baroque_solver::SolveOptions {
    baroque_solver::SolveOptions {
        stipulation,
        threads: 1,
        table_mib: 4,
        ..Default::default()
    }
}

/// The judgement behind `/v1/play` of `line` from `p`.
pub fn judge<P: GamePosition>(
    p: &P,
    stipulation: baroque_solver::Stipulation,
    line: &[P::Move],
) -> baroque_solver::play::Verdict {
    use baroque_solver::play::{play, NoProof, PlayOptions};
    let opts = PlayOptions {
        stipulation,
        limits: baroque_solver::Limits::default(),
        table_mib: 4,
        cancel: baroque_solver::Cancel::new(),
        naming: baroque_rules::Naming::default(),
        hint: false,
        proof: &NoProof,
        search: true,
    };
    play(p, line, &opts).verdict
}

/// Whether `line` from `p` plays through the move reader behind `/v1/verify` (each move sent as
/// its `uci`), every move legal, and ends with the side to move mated (`checkmate`) or, for a
/// stalemate stipulation, stalemated (`stalemate`), that side being `loser`.
fn replays_to_goal<P: GamePosition>(
    p: &P,
    stipulation: baroque_solver::Stipulation,
    line: &[P::Move],
    loser: Color,
) -> Result<(), TestCaseError> {
    let naming = Naming::default();
    let mut at = *p;
    let mut texts = Vec::new();
    for m in line {
        texts.push(at.move_uci(m, naming));
        at = at.play(m);
    }
    let what = format!("{} from {}", texts.join(" "), p.fen(naming));
    let replayed = replay_texts(p, naming, &texts);
    prop_assert!(replayed.is_ok(), "{:?}: {}", replayed, what);
    let (played, _, final_status) = replayed.unwrap();
    prop_assert_eq!(&played, &line.to_vec(), "{}", what);
    match stipulation.target() {
        // A mate is `checkmate`, or under Baroque's `stalemate: loss` a stalemate that loses.
        baroque_solver::Target::Mate => prop_assert!(
            final_status == Status::Checkmate || (final_status == Status::Stalemate && at.lost()),
            "{:?}: {}",
            final_status,
            what
        ),
        baroque_solver::Target::Stalemate => {
            prop_assert_eq!(final_status, Status::Stalemate, "{}", what)
        }
    }
    prop_assert_eq!(at.turn(), loser, "{}", what);
    Ok(())
}

/// Each of `lines` from `p` replays through `/v1/verify`'s move reader to `loser` mated (or
/// stalemated), and
/// `/v1/play`'s judgement calls it solved.
fn lines_replay_and_solve<P: GamePosition>(
    p: &P,
    stipulation: baroque_solver::Stipulation,
    lines: &[Vec<P::Move>],
    loser: Color,
) -> Result<(), TestCaseError> {
    use baroque_solver::play::Verdict;
    for line in lines {
        replays_to_goal(p, stipulation, line, loser)?;
        let verdict = judge(p, stipulation, line);
        let fen = p.fen(baroque_rules::Naming::default());
        prop_assert_eq!(verdict, Verdict::Solved, "{:?} of {}", line, fen);
    }
    Ok(())
}

/// Every line of a solution tree below `node` (played in `pos`), each from the first move.
fn tree_lines<M: Copy>(
    node: &baroque_solver::tree::AttackNode<M>,
    prefix: &mut Vec<M>,
    out: &mut Vec<Vec<M>>,
) {
    prefix.push(node.mv);
    if node.mates {
        out.push(prefix.clone());
    }
    for d in &node.defences {
        prefix.push(d.mv);
        if d.mates {
            out.push(prefix.clone());
        }
        for r in &d.replies {
            tree_lines(r, prefix, out);
        }
        prefix.pop();
    }
    prefix.pop();
}

/// The service agrees with itself on `p` under `stipulation`: every line the solve reports (the
/// helpmate's solutions, every line of a direct mate's or selfmate's tree) replays through the
/// verification behind `/v1/verify` and ends with the right side mated, and the judgement
/// behind `/v1/play` calls it solved; the first moves play calls correct are the keys; and, for
/// a helpmate of two plies, the lines play calls solved are exactly the solutions.
pub fn solve_verify_and_play_agree<P: GamePosition>(
    p: &P,
    stipulation: baroque_solver::Stipulation,
) -> Result<(), TestCaseError> {
    use baroque_solver::play::Verdict;
    let fen = p.fen(baroque_rules::Naming::default());
    let opts = agreement_options(stipulation);
    if let Some(plies) = stipulation.help_plies() {
        let h = baroque_solver::help::solve_help(p, &opts, 1);
        prop_assume!(h.complete && !h.lines_truncated);
        lines_replay_and_solve(p, stipulation, &h.solutions, Color::Black)?;
        if plies == 2 {
            let solutions: HashSet<&Vec<P::Move>> = h.solutions.iter().collect();
            for first in p.legal_moves() {
                let after = p.play(&first);
                let mut seconds = Vec::new();
                after.search_moves(&mut seconds);
                for second in seconds {
                    let line = vec![first, second];
                    let solved = judge(p, stipulation, &line) == Verdict::Solved;
                    prop_assert_eq!(solved, solutions.contains(&line), "{:?} of {}", line, fen);
                }
            }
        }
        return Ok(());
    }
    let s = baroque_solver::solve(p, &opts);
    prop_assume!(s.result != baroque_solver::Outcome::Unknown && !s.tree_truncated);
    // A direct mate (stalemate) beats the side not to move; a selfmate (selfstalemate), the
    // side to move.
    let loser = if stipulation.is_self() {
        p.turn()
    } else {
        p.turn().other()
    };
    let mut lines = Vec::new();
    for node in &s.tree {
        tree_lines(node, &mut Vec::new(), &mut lines);
    }
    lines_replay_and_solve(p, stipulation, &lines, loser)?;
    let keys: HashSet<P::Move> = s.keys.iter().map(|k| k.mv).collect();
    for first in p.legal_moves() {
        let verdict = judge(p, stipulation, &[first]);
        let wins = matches!(verdict, Verdict::Correct | Verdict::Solved);
        prop_assert_eq!(
            wins,
            keys.contains(&first),
            "{:?} of {} in {}",
            first,
            stipulation,
            fen
        );
    }
    Ok(())
}

/// Sparse random boards of both games, made by a fixed random walk (the same every run).
pub mod boards {
    use baroque_rules::rococo::{Coords, RococoPosition};
    use baroque_rules::{Board, Board8, Color, Piece, Position, Role, Rules, Stalemate};

    /// A small fixed random walk (xorshift).
    pub struct Walk(pub u64);

    impl Walk {
        pub fn next(&mut self, below: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % below
        }
    }

    /// A Baroque position with both Kings and up to `extra` other pieces, `turn` to move, that can
    /// arise; every third under `stalemate: loss`.
    pub fn baroque(walk: &mut Walk, turn: Color, extra: u64) -> Option<Position> {
        baroque_of(walk, turn, extra, false)
    }

    /// [`baroque`]; `lopsided`: three pieces in four Black's, one in three an Immobilizer (what a
    /// selfstalemate needs: a White side that runs out of moves).
    pub fn baroque_of(
        walk: &mut Walk,
        turn: Color,
        extra: u64,
        lopsided: bool,
    ) -> Option<Position> {
        // Every Baroque piece but the King.
        let roles = &Role::BAROQUE[1..];
        let (wk, bk) = (walk.next(64) as u8, walk.next(64) as u8);
        if wk == bk {
            return None;
        }
        let mut b = Board::<Board8>::empty();
        b.put(wk, Piece::new(Color::White, Role::King));
        b.put(bk, Piece::new(Color::Black, Role::King));
        for _ in 0..=walk.next(extra + 1) {
            let sq = walk.next(64) as u8;
            let role = if lopsided && walk.next(3) == 0 {
                Role::Immobilizer
            } else {
                roles[walk.next(roles.len() as u64) as usize]
            };
            let white = if lopsided {
                walk.next(4) == 0
            } else {
                walk.next(2) == 0
            };
            let color = if white { Color::White } else { Color::Black };
            if b.piece_at(sq).is_none() {
                b.put(sq, Piece::new(color, role));
            }
        }
        let mut rules = Rules::default();
        if walk.next(3) == 0 {
            rules.stalemate = Stalemate::Loss;
        }
        let p = Position::from_board(b, turn, rules);
        p.validate().iter().all(|x| !x.is_error()).then_some(p)
    }

    /// A Rococo position with both Kings and up to `extra` other pieces in the 6 by 6 block at the
    /// board's centre, `turn` to move.
    pub fn rococo(walk: &mut Walk, turn: Color, extra: u64) -> Option<RococoPosition> {
        rococo_of(walk, turn, extra, false)
    }

    /// [`rococo`]; `lopsided` as for [`baroque_of`].
    pub fn rococo_of(
        walk: &mut Walk,
        turn: Color,
        extra: u64,
        lopsided: bool,
    ) -> Option<RococoPosition> {
        // Letters of the Rococo FEN, White's; Black's are the lower case.
        const ROLES: [char; 8] = ['P', 'I', 'W', 'A', 'L', 'X', 'S', 'U'];
        let mut board = [[None::<char>; 10]; 10];
        let mut place = |walk: &mut Walk, letter: char| {
            let (file, rank) = (2 + walk.next(6) as usize, 2 + walk.next(6) as usize);
            if board[rank][file].is_none() {
                board[rank][file] = Some(letter);
                true
            } else {
                false
            }
        };
        if !place(walk, 'K') || !place(walk, 'k') {
            return None;
        }
        for _ in 0..=walk.next(extra + 1) {
            let letter = if lopsided && walk.next(3) == 0 {
                'I'
            } else {
                ROLES[walk.next(8) as usize]
            };
            let white = if lopsided {
                walk.next(4) == 0
            } else {
                walk.next(2) == 0
            };
            let letter = if white {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            place(walk, letter);
        }
        let ranks: Vec<String> = (0..10)
            .rev()
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for cell in board[rank] {
                    match cell {
                        Some(c) => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            text.push(c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let side = if turn == Color::White { "w" } else { "b" };
        let fen = format!("{} {side} 0 -", ranks.join("/"));
        let p = RococoPosition::from_fen(&fen, Coords::Standard).ok()?;
        p.validate().iter().all(|x| !x.is_error()).then_some(p)
    }
}

/// What the series and set-play oracles ask of each game, from legal moves and status alone:
/// the moves in play, a lost side, a side in check (its King capturable), a stalemated side, and
/// a pass (the FEN's side to move rewritten).
pub mod games {
    use baroque_rules::prelude::*;
    use baroque_rules::rococo::{Coords, RococoPosition};
    use baroque_rules::{Naming, Position, Stalemate, Status};

    /// The moves of the side to move: its legal moves, none once its King was taken.
    pub fn playable<P: GamePosition>(p: &P) -> Vec<P::Move> {
        if p.king(p.turn()).is_none() {
            return Vec::new();
        }
        p.legal_moves()
    }

    /// What the oracle asks of a game: whether the side to move has lost, whether it is in check
    /// (its King capturable), and the position after its pass.
    pub struct Game<P> {
        pub lost: fn(&P) -> bool,
        pub in_check: fn(&P) -> bool,
        pub pass: fn(&P) -> P,
    }

    /// The side to move is stalemated: no legal move, its King on the board and not capturable.
    pub fn stalemated<P: GamePosition>(game: &Game<P>, p: &P) -> bool {
        p.king(p.turn()).is_some() && p.legal_moves().is_empty() && !(game.in_check)(p)
    }

    pub fn check_baroque(p: &Position) -> bool {
        matches!(p.status(), Status::Check | Status::Checkmate)
    }

    /// Rococo: the side to move's King is gone, or the other side, were it to move, could take it.
    pub fn check_rococo(p: &RococoPosition) -> bool {
        let Some(king) = p.king(p.turn()) else {
            return true;
        };
        playable(&pass_rococo(p))
            .iter()
            .any(|m| RococoPosition::captures(m) & (1 << king) != 0)
    }

    pub const BAROQUE: Game<Position> = Game {
        lost: lost_baroque,
        in_check: check_baroque,
        pass: pass_baroque,
    };

    pub const ROCOCO: Game<RococoPosition> = Game {
        lost: lost_rococo,
        in_check: check_rococo,
        pass: pass_rococo,
    };

    /// Baroque: the side to move has lost (checkmate, or no move under `stalemate: loss`).
    pub fn lost_baroque(p: &Position) -> bool {
        p.legal_moves().is_empty() && (p.is_check() || p.rules().stalemate == Stalemate::Loss)
    }

    /// Rococo: the side to move has lost (its King taken, or the status `checkmate`).
    pub fn lost_rococo(p: &RococoPosition) -> bool {
        p.board().king(p.turn()).is_none() || p.status() == Status::Checkmate
    }

    /// The FEN of `p` with the other side to move (and, in Rococo, no swap restriction): a pass.
    pub fn passed_fen<P: GamePosition>(p: &P) -> String {
        let fen = p.fen(Naming::default());
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[1] = if fields[1] == "w" { "b" } else { "w" };
        if fields.len() > 3 {
            fields[3] = "-";
        }
        fields.join(" ")
    }

    pub fn pass_baroque(p: &Position) -> Position {
        Position::from_fen(&passed_fen(p), *p.rules()).unwrap()
    }

    pub fn pass_rococo(p: &RococoPosition) -> RococoPosition {
        RococoPosition::from_fen(&passed_fen(p), Coords::Standard).unwrap()
    }
}
