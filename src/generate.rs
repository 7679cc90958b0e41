//! Generating collections of sound puzzles: direct mates (`#N`), selfmates (`s#N`) and
//! helpmates (`h#N`, `h#N.5`).
//!
//! Candidates come from two sources, alternately: random legal positions within a piece budget, and
//! positions reached by random play-outs of games from the start position (captures preferred, so
//! that material thins out to the budget). Each candidate is screened by the solver
//! ([`crate::solver::screen`], or [`crate::solver::help::screen_help`] for a helpmate) under a
//! per-candidate node and time budget, and kept only when it is sound: for `#N` and `s#N` exactly
//! one first move reaches the goal in N, none sooner; for a helpmate exactly one line, and no
//! shorter helpmate. A candidate of a stipulation that names the side to move (White for `s#N`
//! and `h#N.5`, Black for `h#N`) has that side to move. Near-duplicates
//! are rejected: the same position, or one of its mirror images (the rules of Baroque have no
//! direction: every rotation and reflection of the board, and the exchange of the colours, maps
//! games to games, so a mirrored puzzle has the same key idea).
//!
//! Everything follows from the seed: candidate `i` is made from a generator seeded with the
//! collection's seed and `i` alone, candidates are screened in parallel batches, and accepted in
//! index order, so the same seed and options give the same collection on any number of threads.
//! The screening's node budget decides what a candidate is; its time limit is only a safety net,
//! set well above what the node budget takes, and a run where it bites may not be reproduced.

use crate::rules::{Color, GamePosition, Piece, Position, Role, Variant};
use crate::solver::help::{screen_help, HelpSolution};
use crate::solver::{screen, Cancel, Limits, Outcome, Solution, SolveOptions, Stipulation};
use rayon::prelude::*;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// A small, fast, reproducible random number generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator of candidate `index` of a collection with this seed.
    pub fn for_candidate(seed: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ index.wrapping_mul(0xD134_2543_DE82_EF95));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A seed from the clock, below 2^53 so that JSON clients (JavaScript numbers) keep it exact.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        & ((1 << 53) - 1)
}

/// Where a candidate came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Pieces placed at random.
    Random,
    /// A random play-out of a game from the start position.
    Playout,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Random => "random",
            Source::Playout => "playout",
        }
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// The game and its rules; [`generate`] is called with its position type (the store runs it
    /// on `variant.start()`'s concrete type, see [`crate::rules::Visit`]).
    pub variant: Variant,
    /// The stipulation of the puzzles (`#N`, `s#N`, `h#N`, `h#N.5`).
    pub stipulation: Stipulation,
    /// Puzzles wanted.
    pub count: usize,
    /// The collection's seed: the same seed and options give the same puzzles.
    pub seed: u64,
    /// Most pieces on the board, Kings included (at least 3).
    pub max_pieces: usize,
    /// Whether the side to move may start in check.
    pub allow_check: bool,
    /// The solver's budget for one candidate; a candidate it cannot settle is rejected. The nodes
    /// decide (the same on any machine); the time is a safety net.
    pub candidate_limits: Limits,
    /// The whole run's budget: candidates tried and time.
    pub max_candidates: u64,
    pub max_time: Duration,
    /// Threads screening candidates in parallel.
    pub threads: usize,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            variant: Variant::default(),
            stipulation: Stipulation::Mate(2),
            count: 10,
            seed: 1,
            max_pieces: 10,
            allow_check: false,
            candidate_limits: Limits {
                nodes: 2_000_000,
                time: Duration::from_secs(10),
            },
            max_candidates: 1_000_000,
            max_time: Duration::from_secs(600),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// What the screening of a sound puzzle proved.
#[derive(Clone, Debug)]
pub enum Proof<M> {
    /// `#N`, `s#N`: the key, with the solution tree.
    Keys(Solution<M>),
    /// A helpmate: its one line.
    Help(HelpSolution<M>),
}

impl<M> Proof<M> {
    /// The first move of the solution: the key, or the first move of the helpmate's line.
    pub fn first_move(&self) -> Option<&M> {
        match self {
            Proof::Keys(s) => s.keys.first().map(|k| &k.mv),
            Proof::Help(h) => h.solutions.first().and_then(|l| l.first()),
        }
    }
}

/// A sound puzzle found.
#[derive(Clone, Debug)]
pub struct Generated<P: GamePosition = Position> {
    pub position: P,
    pub source: Source,
    /// The candidate's index: with the seed, it remakes the position.
    pub candidate: u64,
    pub solution: Proof<P::Move>,
    /// Themes of the solution (see [`themes`]).
    pub themes: Vec<String>,
}

/// How far a run has got.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Progress {
    /// Candidates made and screened.
    pub tried: u64,
    /// Sound puzzles kept.
    pub found: u64,
    /// Sound puzzles dropped as near-duplicates of one kept.
    pub duplicates: u64,
    /// Candidates the solver could not settle within the candidate budget.
    pub unsettled: u64,
    /// Solver nodes spent.
    pub nodes: u64,
    pub millis: u64,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// As many puzzles as asked were found.
    Done,
    /// The candidate limit was reached first.
    CandidateLimit,
    /// The time limit was reached first.
    TimeLimit,
    /// The caller asked to stop.
    Cancelled,
}

/// The outcome of a run.
#[derive(Clone, Debug)]
pub struct Report<P: GamePosition = Position> {
    pub puzzles: Vec<Generated<P>>,
    pub progress: Progress,
    pub stop: Stop,
}

/// Why options cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error("mate_in must be between 1 and {max}, not {0}", max = crate::solver::MAX_MATE_IN)]
    MateIn(u32),
    #[error("the N of {0} must be at most {max}", max = crate::solver::MAX_MATE_IN)]
    Stipulation(Stipulation),
    #[error("max_pieces must be between 3 and 32, not {0}")]
    MaxPieces(usize),
    #[error("count must be at least 1")]
    Count,
}

impl GenerateOptions {
    /// The N of the stipulation.
    pub fn mate_in(&self) -> u32 {
        self.stipulation.moves()
    }

    /// Checks the options.
    ///
    /// # Errors
    /// When N, the piece budget or the count is out of range.
    pub fn validate(&self) -> Result<(), OptionsError> {
        let n = self.stipulation.moves();
        match self.stipulation {
            Stipulation::Mate(_) if n == 0 || n > crate::solver::MAX_MATE_IN => {
                return Err(OptionsError::MateIn(n));
            }
            s if n > crate::solver::MAX_MATE_IN || (n == 0 && !s.is_help()) => {
                return Err(OptionsError::Stipulation(s));
            }
            _ => {}
        }
        if !(3..=32).contains(&self.max_pieces) {
            return Err(OptionsError::MaxPieces(self.max_pieces));
        }
        if self.count == 0 {
            return Err(OptionsError::Count);
        }
        Ok(())
    }
}

/// What the caller made of a puzzle handed to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// Kept: it counts toward `count`.
    Kept,
    /// Not kept (a later check refused it): the run goes on without counting it.
    Skipped,
    /// Stop the run now.
    Stop,
}

/// Generates puzzles. `take` is handed each sound, new puzzle (`Some`) and says whether it was
/// kept, or asks to stop; it also sees the progress after each batch (`None`, where `Stop` ends the
/// run). `cancel`, when set by another thread, stops the run within one candidate's screening:
/// candidates not yet screened are skipped.
///
/// # Errors
/// When the options are out of range.
pub fn generate<P: GamePosition>(
    opts: &GenerateOptions,
    cancel: &Cancel,
    mut take: impl FnMut(&Progress, Option<&Generated<P>>) -> Take,
) -> Result<Report<P>, OptionsError> {
    opts.validate()?;
    let start = Instant::now();
    let threads = opts.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok();
    let batch = (threads * 8) as u64;
    let mut seen: HashSet<String> = HashSet::new();
    let mut report = Report {
        puzzles: Vec::new(),
        progress: Progress::default(),
        stop: Stop::Done,
    };
    // Set when the run must end: a cancel, or the time limit reached inside a batch.
    let halted = || cancel.is_cancelled() || start.elapsed() >= opts.max_time;
    let mut next = 0u64;
    'run: while report.puzzles.len() < opts.count {
        if cancel.is_cancelled() {
            report.stop = Stop::Cancelled;
            break;
        }
        if next >= opts.max_candidates {
            report.stop = Stop::CandidateLimit;
            break;
        }
        if start.elapsed() >= opts.max_time {
            report.stop = Stop::TimeLimit;
            break;
        }
        let end = (next + batch).min(opts.max_candidates);
        // Each candidate's search stops at the run's deadline or its cancel too.
        let screen_one = |i: u64| {
            let left = opts.max_time.saturating_sub(start.elapsed());
            (!halted()).then(|| screen_candidate::<P>(opts, i, left, cancel))
        };
        let results: Vec<Option<Screened<P>>> = match &pool {
            Some(pool) => pool.install(|| (next..end).into_par_iter().map(screen_one).collect()),
            None => (next..end).map(screen_one).collect(),
        };
        next = end;
        for r in results {
            // A candidate skipped by a halt: the checks at the top of the loop say why.
            let Some(r) = r else { continue 'run };
            report.progress.tried += 1;
            report.progress.nodes += r.nodes;
            match r.verdict {
                Verdict::Rejected => {}
                Verdict::Unsettled => report.progress.unsettled += 1,
                Verdict::Sound(found) => {
                    if !seen.insert(GamePosition::canonical_key(&found.position)) {
                        report.progress.duplicates += 1;
                        continue;
                    }
                    report.progress.millis = start.elapsed().as_millis() as u64;
                    match take(&report.progress, Some(&found)) {
                        Take::Kept => {
                            report.progress.found += 1;
                            report.puzzles.push(*found);
                            if report.puzzles.len() == opts.count {
                                break 'run;
                            }
                        }
                        Take::Skipped => {}
                        Take::Stop => {
                            report.stop = Stop::Cancelled;
                            break 'run;
                        }
                    }
                }
            }
        }
        report.progress.millis = start.elapsed().as_millis() as u64;
        if take(&report.progress, None) == Take::Stop {
            report.stop = Stop::Cancelled;
            break;
        }
    }
    report.progress.millis = start.elapsed().as_millis() as u64;
    if report.puzzles.len() == opts.count {
        report.stop = Stop::Done;
    }
    Ok(report)
}

enum Verdict<P: GamePosition> {
    Rejected,
    Unsettled,
    Sound(Box<Generated<P>>),
}

struct Screened<P: GamePosition> {
    verdict: Verdict<P>,
    nodes: u64,
}

/// Makes candidate `index` and screens it, within `left` of the run's time and until `cancel`.
fn screen_candidate<P: GamePosition>(
    opts: &GenerateOptions,
    index: u64,
    left: Duration,
    cancel: &Cancel,
) -> Screened<P> {
    let rejected = Screened {
        verdict: Verdict::Rejected,
        nodes: 0,
    };
    let Some((position, source)) = candidate::<P>(opts, index) else {
        return rejected;
    };
    let solve = SolveOptions {
        stipulation: opts.stipulation,
        limits: Limits {
            time: opts.candidate_limits.time.min(left),
            ..opts.candidate_limits
        },
        table_mib: 16,
        threads: 1,
        max_tree_nodes: 500,
        intended_key: None,
        cancel: cancel.clone(),
        max_refutations: 0,
    };
    let (nodes, settled, sound, proof) = if opts.stipulation.is_help() {
        let h = screen_help(&position, &solve, 1);
        let sound = h.sound == Some(true) && h.count == 1;
        (h.nodes, h.sound.is_some(), sound, Proof::Help(h))
    } else {
        let s = screen(&position, &solve);
        let settled =
            !(s.result == Outcome::Unknown || (s.result == Outcome::Mate && s.sound.is_none()));
        let sound =
            s.result == Outcome::Mate && s.sound == Some(true) && s.mate_in == Some(opts.mate_in());
        (s.nodes, settled, sound, Proof::Keys(s))
    };
    let verdict = if sound {
        let themes = themes(&position, &proof);
        Verdict::Sound(Box::new(Generated {
            position,
            source,
            candidate: index,
            solution: proof,
            themes,
        }))
    } else if !settled {
        Verdict::Unsettled
    } else {
        Verdict::Rejected
    };
    Screened { verdict, nodes }
}

/// Candidate `index` of a run: a position the side to move may try to mate from, or `None` when
/// the attempt made none (a play-out that ended, a placement that cannot arise).
pub fn candidate<P: GamePosition>(opts: &GenerateOptions, index: u64) -> Option<(P, Source)> {
    let mut rng = Rng::for_candidate(opts.seed, index);
    let (position, source) = if index % 2 == 0 {
        (random_position::<P>(&mut rng, opts), Source::Random)
    } else {
        (playout_position::<P>(&mut rng, opts)?, Source::Playout)
    };
    let side = opts.stipulation.starts();
    (acceptable(&position, opts) && side.is_none_or(|c| position.turn() == c))
        .then_some((position, source))
}

/// Whether a position may be a puzzle: both Kings, a position that can arise, the side to move not
/// in check unless allowed, within the piece budget, and a move to make.
fn acceptable<P: GamePosition>(pos: &P, opts: &GenerateOptions) -> bool {
    pos.has_both_kings()
        && pos.piece_count() as usize <= opts.max_pieces
        && !pos.validate().iter().any(|p| p.is_error())
        && (opts.allow_check || !pos.in_check())
        && pos.has_search_move()
}

/// Both Kings and up to `max_pieces - 2` other pieces on random squares of the game's setup
/// squares, no side with more of a kind than it starts with; the side to move is random. The
/// pawn-like kind is drawn 40% of the time (pawns are half of a side's pieces at the start).
fn random_position<P: GamePosition>(rng: &mut Rng, opts: &GenerateOptions) -> P {
    let mut free: Vec<u8> = crate::rules::BitSet::squares(P::setup_squares()).collect();
    let mut pieces: Vec<(u8, Piece)> = Vec::with_capacity(opts.max_pieces);
    let mut place = |rng: &mut Rng, pieces: &mut Vec<(u8, Piece)>, piece: Piece| {
        let i = rng.below(free.len() as u64) as usize;
        pieces.push((free.swap_remove(i), piece));
    };
    place(rng, &mut pieces, Piece::new(Color::White, Role::King));
    place(rng, &mut pieces, Piece::new(Color::Black, Role::King));
    let kinds = P::setup_kinds();
    let extra = 1 + rng.below((opts.max_pieces - 2) as u64) as usize;
    let mut counts = vec![[0u32; 2]; kinds.len()];
    for _ in 0..extra {
        let color = if rng.chance(55) {
            Color::White
        } else {
            Color::Black
        };
        let k = if rng.chance(40) {
            0
        } else {
            1 + rng.below(kinds.len() as u64 - 1) as usize
        };
        let (role, max) = kinds[k];
        let n = &mut counts[k][color.index()];
        if *n < max {
            *n += 1;
            place(rng, &mut pieces, Piece::new(color, role));
        }
    }
    let turn = if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    };
    // The side the stipulation starts with, when it names one (the draw above is kept, so that a
    // direct mate's candidates stay what they were).
    let turn = opts.stipulation.starts().unwrap_or(turn);
    P::from_setup(opts.variant, &pieces, turn)
}

/// A position of a random game from the start: captures are chosen when there are some (most of
/// the time), until at most `max_pieces` remain; then a few more random moves. `None` when the game
/// ends first or takes too long to thin out.
fn playout_position<P: GamePosition>(rng: &mut Rng, opts: &GenerateOptions) -> Option<P> {
    let mut pos = P::start_position(opts.variant);
    let extra = rng.below(6);
    let mut after_budget = 0;
    let mut moves = Vec::new();
    // The longest play-out: 400 plies on the 64 squares of Baroque, 500 on the 100 of Rococo.
    let files = u32::from(opts.variant.kind().files());
    let plies = 400 + (files * files - 64) * 100 / 36;
    for _ in 0..plies {
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            return None;
        }
        let captures: Vec<_> = moves.iter().filter(|m| P::is_capture(m)).collect();
        let mv = if !captures.is_empty() && rng.chance(85) {
            *captures[rng.below(captures.len() as u64) as usize]
        } else {
            moves[rng.below(moves.len() as u64) as usize]
        };
        if pos.ends_game(&mv) {
            return None;
        }
        pos = pos.play(&mv);
        if !pos.has_both_kings() {
            return None;
        }
        if pos.piece_count() as usize <= opts.max_pieces {
            if after_budget >= extra {
                return Some(pos);
            }
            after_budget += 1;
        }
    }
    None
}

/// A kind's name as a tag word: `long-leaper`.
fn slug(role: Role) -> String {
    role.name().to_ascii_lowercase().replace(' ', "-")
}

/// How a piece of this kind captures; a Chameleon captures each kind the way that kind does.
fn capture_kind(by: Role, taken: Role) -> &'static str {
    match if by == Role::Chameleon { taken } else { by } {
        Role::King => "displacement",
        Role::Pawn => "custodian",
        Role::Withdrawer => "withdrawal",
        Role::LongLeaper => "leap",
        Role::Coordinator => "coordination",
        Role::Advancer => "approach",
        Role::CannonPawn => "cannon",
        Role::Swapper => "mutual-destruction",
        Role::PushmePullyu => "approach-withdrawal",
        Role::Immobilizer => "other",
        Role::Chameleon => "chameleon",
    }
}

/// Themes of a sound puzzle, as tags.
///
/// - `#N`, `s#N`: the key's piece (`key-chameleon`), whether the key captures (`quiet-key`, or
///   `key-captures-2` and one `capture-<kind>` per kind of capture it makes: `custodian`,
///   `withdrawal`, `leap`, `coordination`, `displacement`), the pieces that give the mates of the
///   solution (`mate-by-coordinator`; in a selfmate, the defender's), and `mate-in-N` or
///   `selfmate-in-N`.
/// - `h#N`, `h#N.5`: `helpmate-in-N` (`helpmate-in-2.5`), `h-solutions-<k>`, the kinds of piece
///   that move in the solution (`h-moves-king`), the mating piece (`mate-by-<kind>`), and the
///   capture kinds of the mating move (`mate-capture-<kind>`, or `quiet-mate`).
///
/// Rococo adds the capture kinds `approach`, `cannon`, `mutual-destruction` and
/// `approach-withdrawal`.
pub fn themes<P: GamePosition>(pos: &P, proof: &Proof<P::Move>) -> Vec<String> {
    let mut tags = match proof {
        Proof::Keys(s) => key_themes(pos, s),
        Proof::Help(h) => help_themes(pos, h),
    };
    tags.sort();
    tags.dedup();
    tags
}

/// The kinds of the pieces move `mv` captures in `pos`, by the way it captures them.
fn captured_kinds<P: GamePosition>(pos: &P, mv: &P::Move) -> Vec<&'static str> {
    let mover = P::role(mv);
    crate::rules::BitSet::squares(P::captures(mv))
        .filter_map(|sq| pos.piece_at(sq).map(|p| capture_kind(mover, p.role)))
        .collect()
}

fn key_themes<P: GamePosition>(pos: &P, solution: &Solution<P::Move>) -> Vec<String> {
    let n = solution.mate_in.unwrap_or(0);
    let selfmate = solution
        .tree
        .iter()
        .any(|k| k.defences.iter().any(|d| d.mates));
    let mut tags = vec![if selfmate {
        format!("selfmate-in-{n}")
    } else {
        format!("mate-in-{n}")
    }];
    let Some(key) = solution.keys.first() else {
        return tags;
    };
    let mover = P::role(&key.mv);
    tags.push(format!("key-{}", slug(mover)));
    let taken = captured_kinds(pos, &key.mv);
    if taken.is_empty() {
        tags.push("quiet-key".into());
    } else {
        tags.push(format!("key-captures-{}", taken.len()));
        for kind in taken {
            tags.push(format!("capture-{kind}"));
        }
    }
    let mut stack: Vec<&crate::solver::tree::AttackNode<P::Move>> = solution.tree.iter().collect();
    while let Some(node) = stack.pop() {
        if node.mates {
            tags.push(format!("mate-by-{}", slug(P::role(&node.mv))));
        }
        for d in &node.defences {
            if d.mates {
                tags.push(format!("mate-by-{}", slug(P::role(&d.mv))));
            }
            stack.extend(d.replies.iter());
        }
    }
    tags
}

fn help_themes<P: GamePosition>(pos: &P, h: &HelpSolution<P::Move>) -> Vec<String> {
    let mut tags = vec![
        format!("helpmate-in-{}", &h.stipulation.to_string()[2..]),
        format!("h-solutions-{}", h.count),
    ];
    for line in &h.solutions {
        let mut at = *pos;
        for (i, m) in line.iter().enumerate() {
            tags.push(format!("h-moves-{}", slug(P::role(m))));
            if i + 1 == line.len() {
                tags.push(format!("mate-by-{}", slug(P::role(m))));
                let taken = captured_kinds(&at, m);
                if taken.is_empty() {
                    tags.push("quiet-mate".into());
                }
                for kind in taken {
                    tags.push(format!("mate-capture-{kind}"));
                }
            }
            at = at.play(m);
        }
    }
    tags
}

mod rococo;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Letters;

    fn keep(_: &Progress, _: Option<&Generated>) -> Take {
        Take::Kept
    }

    fn quick(seed: u64, count: usize) -> GenerateOptions {
        GenerateOptions {
            stipulation: Stipulation::Mate(2),
            count,
            seed,
            max_pieces: 7,
            threads: 2,
            max_candidates: 200_000,
            max_time: Duration::from_secs(120),
            candidate_limits: Limits {
                nodes: 300_000,
                time: Duration::from_secs(2),
            },
            ..GenerateOptions::default()
        }
    }

    #[test]
    fn every_image_has_as_many_legal_moves() {
        let opts = quick(7, 1);
        let mut checked = 0;
        for i in 0..400 {
            let Some((pos, _)) = candidate::<Position>(&opts, i) else {
                continue;
            };
            let n = pos.legal_moves().len();
            for image in crate::rules::symmetry::baroque_images(&pos) {
                assert_eq!(
                    image.legal_moves().len(),
                    n,
                    "{}",
                    image.fen(Letters::Chess)
                );
                assert_eq!(image.canonical_key(), pos.canonical_key());
            }
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn candidates_respect_the_budget_and_can_arise() {
        let opts = quick(3, 1);
        let mut made = [0; 2];
        for i in 0..300 {
            if let Some((pos, source)) = candidate::<Position>(&opts, i) {
                assert!(pos.board().occupied().count_ones() <= 7);
                assert!(!pos.is_check());
                assert!(!pos.validate().iter().any(|p| p.is_error()));
                made[(source == Source::Playout) as usize] += 1;
            }
        }
        assert!(made[0] > 30 && made[1] > 30, "{made:?}");
    }

    #[test]
    fn found_puzzles_are_sound_distinct_and_reproducible() {
        let first = generate::<Position>(&quick(11, 3), &Cancel::new(), keep).unwrap();
        assert_eq!(first.stop, Stop::Done);
        assert_eq!(first.puzzles.len(), 3);
        let mut keys = HashSet::new();
        for p in &first.puzzles {
            // An independent full solve agrees: a sound mate in 2 with one key.
            let full = crate::solver::solve(
                &p.position,
                &SolveOptions {
                    stipulation: crate::solver::Stipulation::Mate(2),
                    ..SolveOptions::default()
                },
            );
            assert_eq!(full.sound, Some(true), "{}", p.position.fen(Letters::Chess));
            assert_eq!(full.keys.len(), 1);
            assert_eq!(Some(&full.keys[0].mv), p.solution.first_move());
            assert!(p.themes.contains(&"mate-in-2".to_string()));
            assert!(p.themes.iter().any(|t| t.starts_with("key-")));
            assert!(p.themes.iter().any(|t| t.starts_with("mate-by-")));
            assert!(keys.insert(p.position.canonical_key()));
        }
        let again = generate::<Position>(
            &GenerateOptions {
                threads: 1,
                ..quick(11, 3)
            },
            &Cancel::new(),
            keep,
        )
        .unwrap();
        let fens = |r: &Report| -> Vec<String> {
            r.puzzles
                .iter()
                .map(|p| p.position.fen(Letters::Chess))
                .collect()
        };
        assert_eq!(fens(&first), fens(&again));
    }

    #[test]
    fn limits_and_cancelling_stop_a_run() {
        let go = Cancel::new();
        let few = GenerateOptions {
            max_candidates: 20,
            ..quick(5, 50)
        };
        let r = generate::<Position>(&few, &go, keep).unwrap();
        assert_eq!(r.stop, Stop::CandidateLimit);
        assert!(r.progress.tried <= 20);
        // Stop asked by the caller at the first puzzle: nothing counted.
        let r = generate::<Position>(&quick(5, 50), &go, |_, _| Take::Stop).unwrap();
        assert_eq!(r.stop, Stop::Cancelled);
        assert!(r.puzzles.is_empty());
        // A cancel flag already set: no candidate is screened.
        let stopped = Cancel::new();
        stopped.cancel();
        let r = generate::<Position>(&quick(5, 50), &stopped, keep).unwrap();
        assert_eq!((r.stop, r.progress.tried), (Stop::Cancelled, 0));
        // Puzzles the caller skips do not count.
        let mut offered = 0;
        let r = generate::<Position>(&quick(11, 2), &go, |_, p| match p {
            Some(_) => {
                offered += 1;
                if offered % 2 == 1 {
                    Take::Skipped
                } else {
                    Take::Kept
                }
            }
            None => Take::Kept,
        })
        .unwrap();
        assert_eq!((r.stop, r.puzzles.len(), offered), (Stop::Done, 2, 4));
        for bad in [
            GenerateOptions {
                stipulation: Stipulation::Mate(0),
                ..quick(5, 1)
            },
            GenerateOptions {
                max_pieces: 2,
                ..quick(5, 1)
            },
        ] {
            assert!(generate::<Position>(&bad, &go, keep).is_err());
        }
    }
}
