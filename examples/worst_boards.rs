//! Searches for the positions that cost the service most to analyse and to verify moves on, as an
//! attacker would: hill-climbing over crowded boards of both games, keeping a change to the board
//! when the request it makes takes longer. What it finds is printed as JSON, in the form of
//! `fixtures/worst/boards.json` (which keeps the costliest boards of its runs), which
//! `benches/bounds.rs` measures and `tests/bounds.rs` sends to the server.
//!
//! ```text
//! cargo run --release --example worst_boards -- [SECONDS_PER_SEARCH] [SEED]
//! ```
//!
//! Each search (a game and an operation) starts from several random crowded boards and mutates one
//! square or the side to move at a time, keeping positions the API accepts. The cost is the least
//! of three timings of the same function the handler runs. A verify request is 500 moves: a cycle
//! of four reversible moves (each side moves a piece and moves it back) repeated, so a position
//! stays costly through the whole request.

use baroque::app::analysis::analyze;
use baroque::app::line::{verify, VerifyQuery};
use baroque::app::position::{CheckedPosition, PositionInput};
use baroque::rules::rococo::{Coords, RococoKind, RococoPosition};
use baroque::rules::GameKind;
use baroque::rules::{Letters, Position, Role};
use baroque::solver::Cancel;
use std::time::{Duration, Instant};

/// A small, seedable generator (xorshift*), enough for a search.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Game {
    Baroque,
    Rococo,
}

impl Game {
    fn name(self) -> &'static str {
        match self {
            Game::Baroque => "baroque",
            Game::Rococo => "rococo",
        }
    }
    fn size(self) -> usize {
        match self {
            Game::Baroque => 8,
            Game::Rococo => 10,
        }
    }
    /// Piece letters of one side (upper case), the King first.
    fn letters(self) -> Vec<char> {
        match self {
            Game::Baroque => Role::BAROQUE
                .iter()
                .map(|r| r.letter(Letters::Chess))
                .collect(),
            Game::Rococo => "KPIWALXSU".chars().collect(),
        }
    }
}

/// A board as cells (rank 0 is the top row of the FEN), and the side to move.
#[derive(Clone)]
struct Board {
    game: Game,
    cells: Vec<Option<char>>,
    black: bool,
}

impl Board {
    fn random(game: Game, rng: &mut Rng) -> Board {
        let n = game.size();
        let letters = game.letters();
        let fill = 60 + rng.below(40); // percent of squares occupied
        let mut cells: Vec<Option<char>> = (0..n * n)
            .map(|_| {
                (rng.below(100) < fill).then(|| {
                    let c = letters[1 + rng.below(letters.len() - 1)];
                    if rng.below(2) == 0 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    }
                })
            })
            .collect();
        let a = rng.below(n * n);
        let mut b = rng.below(n * n);
        while b == a {
            b = rng.below(n * n);
        }
        cells[a] = Some('K');
        cells[b] = Some('k');
        Board {
            game,
            cells,
            black: rng.below(2) == 0,
        }
    }

    fn fen(&self) -> String {
        let n = self.game.size();
        let mut fen = String::new();
        for rank in 0..n {
            let mut empty = 0;
            for file in 0..n {
                match self.cells[rank * n + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank + 1 < n {
                fen.push('/');
            }
        }
        fen.push_str(if self.black { " b 0" } else { " w 0" });
        if self.game == Game::Rococo {
            fen.push_str(" -");
        }
        fen
    }

    /// One change: a square emptied or given another piece, two squares exchanged, or the side to
    /// move flipped. Kings stay one a side.
    fn mutate(&self, rng: &mut Rng) -> Board {
        let mut b = self.clone();
        let n = b.cells.len();
        let letters = self.game.letters();
        match rng.below(10) {
            0 => b.black = !b.black,
            1..=3 => {
                let (i, j) = (rng.below(n), rng.below(n));
                b.cells.swap(i, j);
            }
            _ => {
                let i = rng.below(n);
                if matches!(b.cells[i], Some('K' | 'k')) {
                    return b;
                }
                b.cells[i] = if rng.below(6) == 0 {
                    None
                } else {
                    let c = letters[1 + rng.below(letters.len() - 1)];
                    Some(if rng.below(2) == 0 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    })
                };
            }
        }
        b
    }
}

/// A board read as a request reads it, when the service accepts it.
fn position(game: Game, fen: &str) -> Option<CheckedPosition> {
    PositionInput {
        fen: fen.to_string(),
        game: match game {
            Game::Baroque => GameKind::Baroque,
            Game::Rococo => GameKind::Rococo,
        },
        coords: None,
        rules: None,
    }
    .read()
    .ok()
}

/// Four moves that bring the position back (each side moves a piece away and back), when there
/// are such moves: a non-capturing, non-swapping move of the side to move whose reverse is legal
/// afterwards, then one of the other side.
fn cycle(game: Game, fen: &str) -> Option<Vec<String>> {
    match game {
        Game::Rococo => {
            let p = RococoPosition::from_fen(fen, Coords::Standard).ok()?;
            let back_and_forth = |p: &RococoPosition| {
                p.legal_moves().into_iter().find_map(|m| {
                    if m.kind != RococoKind::Normal || m.captures != 0 || m.promotion.is_some() {
                        return None;
                    }
                    let a = p.after(&m);
                    Some((m, a))
                })
            };
            let (m1, a1) = back_and_forth(&p)?;
            let (m2, a2) = back_and_forth(&a1)?;
            let name = |p: &RococoPosition, from: u8, to: u8| {
                let m = p
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.from == from && m.to == to && m.kind == RococoKind::Normal)?;
                (m.captures == 0).then(|| p.move_name(&m, Coords::Standard))
            };
            let back1 = name(&a2, m1.to, m1.from)?;
            let a3 = a2.after(&a2.parse_move(&back1, Coords::Standard).ok()?);
            let back2 = name(&a3, m2.to, m2.from)?;
            Some(vec![
                p.move_name(&m1, Coords::Standard),
                a1.move_name(&m2, Coords::Standard),
                back1,
                back2,
            ])
        }
        Game::Baroque => {
            let p = Position::from_fen_validated(fen, Default::default()).ok()?;
            let quiet = |p: &Position| {
                p.legal_moves()
                    .into_iter()
                    .find(|m| !m.is_capture() && m.role != Role::Pawn)
            };
            let m1 = quiet(&p)?;
            let a1 = p.after(&m1);
            let m2 = quiet(&a1)?;
            let a2 = a1.after(&m2);
            let back = |p: &Position, from: u8, to: u8| {
                p.legal_moves()
                    .into_iter()
                    .find(|m| m.from == from && m.to == to && !m.is_capture())
            };
            let b1 = back(&a2, m1.to, m1.from)?;
            let a3 = a2.after(&b1);
            let b2 = back(&a3, m2.to, m2.from)?;
            Some(
                [(&p, m1), (&a1, m2), (&a2, b1), (&a3, b2)]
                    .iter()
                    .map(|(p, m)| p.move_name(m, Letters::Chess))
                    .collect(),
            )
        }
    }
}

fn verify_query(game: Game, fen: &str, moves: &[String]) -> Option<VerifyQuery> {
    Some(VerifyQuery {
        position: position(game, fen)?,
        moves: moves.to_vec(),
    })
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Analyze,
    Verify,
}

/// The request's cost in microseconds (the least of three runs), or `None` when the API refuses
/// the board (or, for verify, it has no cycle of moves).
fn cost(game: Game, op: Op, fen: &str) -> Option<(f64, Vec<String>)> {
    let time = |f: &dyn Fn()| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e6
            })
            .fold(f64::INFINITY, f64::min)
    };
    match op {
        Op::Analyze => {
            let p = position(game, fen)?;
            let us = time(&|| drop(std::hint::black_box(analyze(&p, &Cancel::new()))));
            Some((us, Vec::new()))
        }
        Op::Verify => {
            let four = cycle(game, fen)?;
            let moves: Vec<String> = four.iter().cycle().take(500).cloned().collect();
            let q = verify_query(game, fen, &moves)?;
            let answer = verify(&q, &Cancel::new());
            if answer.first_illegal.is_some() {
                return None;
            }
            let us = time(&|| drop(std::hint::black_box(verify(&q, &Cancel::new()))));
            Some((us, moves))
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(60);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut found = Vec::new();
    for game in [Game::Baroque, Game::Rococo] {
        for op in [Op::Analyze, Op::Verify] {
            let deadline = Instant::now() + Duration::from_secs(seconds);
            let mut best: Option<(f64, Board, Vec<String>)> = None;
            let mut restarts = 0;
            while Instant::now() < deadline {
                restarts += 1;
                let mut cur = Board::random(game, &mut rng);
                let Some((mut c, _)) = cost(game, op, &cur.fen()) else {
                    continue;
                };
                let mut stale = 0;
                // Climb until 300 changes in a row bring nothing.
                while stale < 300 && Instant::now() < deadline {
                    let next = cur.mutate(&mut rng);
                    match cost(game, op, &next.fen()) {
                        Some((nc, _)) if nc > c => {
                            cur = next;
                            c = nc;
                            stale = 0;
                        }
                        _ => stale += 1,
                    }
                }
                if best.as_ref().is_none_or(|(b, _, _)| c > *b) {
                    let moves = cost(game, op, &cur.fen())
                        .map(|(_, m)| m)
                        .unwrap_or_default();
                    best = Some((c, cur, moves));
                }
            }
            if let Some((c, board, moves)) = best {
                let fen = board.fen();
                eprintln!(
                    "{} {:?}: {:.0} us after {restarts} climbs: {fen}",
                    game.name(),
                    op,
                    c
                );
                let mut entry = serde_json::json!({
                    "game": game.name(),
                    "operation": format!("{op:?}").to_lowercase(),
                    "fen": fen,
                    "micros_when_found": c.round(),
                });
                if op == Op::Verify {
                    entry["moves"] = serde_json::json!(moves);
                }
                found.push(entry);
            }
        }
    }
    let doc = serde_json::json!({
        "about": "The costliest boards found by `cargo run --release --example worst_boards`; measured by benches/bounds.rs and sent to the server by tests/bounds.rs.",
        "seed": seed,
        "seconds_per_search": seconds,
        "boards": found,
    });
    println!("{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
}
