//! Generating collections of sound puzzles: direct mates (`#N`), selfmates (`s#N`) and
//! helpmates (`h#N`, `h#N.5`).
//!
//! Candidates come from two sources, alternately: random legal positions within a piece budget, and
//! positions reached by random play-outs of games from the start position (captures preferred, so
//! that material thins out to the budget). Each candidate is screened by the solver
//! ([`crate::solver::screen`], or [`crate::solver::screen_lines`] for a helpmate or a series mover) under a
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

use crate::rules::prelude::*;
use crate::rules::{Color, GamePosition, Piece, Position, Role, Variant};
use crate::solver::help::{focused_help, HelpSolution};
use crate::solver::{
    focused_mate, screen_proven, Cancel, Limits, Narrowed, Outcome, Solution, SolveOptions,
    Stipulation,
};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
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
    /// The stipulation of the puzzles (any [`Stipulation`]).
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
    /// What keeps the collection varied: the share of one key piece kind, the defender's pieces.
    pub variety: Variety,
    /// For direct mates (`#N`) and helpmates (`h#N`, `h#N.5`): a candidate is fully screened
    /// only when a narrowed search mates it, one whose moves before the mating move land near
    /// the King of the side mated (the first within `focus` King steps, the later ones within
    /// one step more): in a direct mate the attacker's moves, in a helpmate both sides'. 0: every
    /// candidate is fully screened. Most candidates have no mate at all, and proving that takes
    /// most of a run; the narrowed search proves it for a small share of the work, and most
    /// sound puzzles play near the King. The puzzles whose solution plays farther away are not
    /// found (see [`DEFAULT_FOCUS`]). A helpmate's narrowed search also drops a candidate with
    /// two narrow solutions, which cannot be sound. Selfmates are always fully screened.
    pub focus: u32,
    /// Candidates between two updates of the steering (see [`generate`]): part of what a seed
    /// reproduces, so a run taken over by another process keeps the epoch it started with.
    pub steer_epoch: u64,
}

/// The default [`GenerateOptions::focus`]: 2 King steps. Over the first 12,000 candidates of seed
/// 1 (`cargo run --release --example focus`), it keeps 81% of the sound Baroque `#3` and 94% of
/// the `#2` (Rococo: 56% and 90%), and sound puzzles come 2.2 to 2.7 times as fast. Of the
/// `h#2`, over 16,000 candidates, it keeps 78% (Rococo, over 6,000: 42%), and the generator
/// makes 2.6 (Rococo) to 3.6 times as many sound ones a minute.
pub const DEFAULT_FOCUS: u32 = 2;

/// The largest [`GenerateOptions::focus`] (beyond the widest board's King steps).
pub const MAX_FOCUS: u32 = 16;

/// What keeps a collection from feeling like one puzzle many times (see [`generate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variety {
    /// The largest share of the puzzles whose key is made by one kind of piece (above 0, at most
    /// 1; see [`Variety::key_cap`]).
    pub max_key_share: f64,
    /// Pieces besides its King the defender keeps in at least `min_defenders_share` of the
    /// puzzles (0: no such rule).
    pub min_defenders: usize,
    /// The share of the puzzles whose defender keeps `min_defenders` pieces (0 to 1).
    pub min_defenders_share: f64,
}

impl Default for Variety {
    fn default() -> Self {
        Variety {
            max_key_share: 0.4,
            min_defenders: 2,
            min_defenders_share: 0.8,
        }
    }
}

/// The default `min_defenders` under a piece budget: 2, or fewer when `max_pieces` leaves no
/// room (both Kings and a piece to mate with take 3).
pub fn default_min_defenders(max_pieces: usize) -> usize {
    Variety::default()
        .min_defenders
        .min(max_pieces.saturating_sub(3))
}

impl Variety {
    /// The rules a stipulation has when none is asked for: the default ones for a direct mate;
    /// none for a selfmate or a helpmate (sound ones are rare among random positions, so the
    /// rules are kept for when they are asked for), with `min_defenders` within `max_pieces`.
    pub fn defaults(stipulation: Stipulation, max_pieces: usize) -> Variety {
        match stipulation {
            Stipulation::Mate(_) => Variety {
                min_defenders: default_min_defenders(max_pieces),
                ..Variety::default()
            },
            _ => Variety {
                min_defenders_share: Variety::default().min_defenders_share,
                ..Variety::NONE
            },
        }
    }

    /// No rule: any key, any defender (the generator as it was before these rules).
    pub const NONE: Variety = Variety {
        max_key_share: 1.0,
        min_defenders: 0,
        min_defenders_share: 0.0,
    };

    /// The most puzzles of a collection of `count` one key kind may have: from 10 puzzles,
    /// `max_key_share` of the count rounded down (so the share is never exceeded), at least 1;
    /// below 10, no limit (a share of a handful of puzzles says little, and would cost a search
    /// for each rare kind).
    pub fn key_cap(&self, count: usize) -> usize {
        if count < 10 {
            return count;
        }
        ((self.max_key_share * count as f64 + 1e-9).floor() as usize).clamp(1, count)
    }

    /// The puzzles of a collection of `count` whose defender must keep `min_defenders` pieces:
    /// `min_defenders_share` of the count, rounded up (none when `min_defenders` is 0).
    pub fn defenders_needed(&self, count: usize) -> usize {
        if self.min_defenders == 0 {
            return 0;
        }
        ((self.min_defenders_share * count as f64 - 1e-9)
            .ceil()
            .max(0.0) as usize)
            .min(count)
    }
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
            variety: Variety::default(),
            focus: DEFAULT_FOCUS,
            steer_epoch: STEER_EPOCH,
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
    /// The move whose piece is the puzzle's key piece: the key of `#N` and `s#N`, the mating move
    /// (the last of the line) of a helpmate.
    pub fn key_move(&self) -> Option<&M> {
        match self {
            Proof::Keys(s) => s.keys.first().map(|k| &k.mv),
            Proof::Help(h) => h.solutions.first().and_then(|l| l.last()),
        }
    }

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
    /// The kind of the key piece: the piece that makes the key of `#N` and `s#N`, the mating
    /// piece of a helpmate.
    pub key: Option<Role>,
    /// The defender's pieces besides its King (see [`defender`]).
    pub defenders: usize,
    /// What the screening proved (`#N` and `s#N`), for the full solve that confirms the puzzle
    /// (see [`crate::solver::Proven`]); dropped once the puzzle is prepared.
    pub proven: Option<std::sync::Arc<crate::solver::Proven>>,
}

/// How far a run (a generation job) has got: candidates `tried`, sound puzzles `found`, sound ones
/// dropped as near-`duplicates` (the same position or a mirror image of one kept), candidates left
/// `unsettled` by the candidate budget, puzzles passed over to keep the collection `varied` (with
/// `focus`, candidates whose key would be of a kind that has its share count here before they are
/// proven), solver `nodes` and `millis` spent.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    pub tried: u64,
    pub found: u64,
    pub duplicates: u64,
    pub unsettled: u64,
    pub varied: u64,
    pub nodes: u64,
    pub millis: u64,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionsError {
    #[error("mate_in must be between 1 and {max}, not {0}", max = crate::solver::MAX_MATE_IN)]
    MateIn(u32),
    #[error("the N of {0} must be at most {max}", max = crate::solver::MAX_MATE_IN)]
    Stipulation(Stipulation),
    #[error("max_pieces must be between 3 and 32, not {0}")]
    MaxPieces(usize),
    #[error("count must be at least 1")]
    Count,
    #[error("max_key_share must be above 0 and at most 1 (a fraction, or a percentage such as 40%), not {0}")]
    KeyShare(f64),
    #[error("max_key_share {share} lets one kind of piece make the key of at most {cap} of {count} puzzles, and {kinds} kinds of piece cannot fill {count}: raise max_key_share")]
    KeyShareUnreachable {
        share: f64,
        cap: usize,
        count: usize,
        kinds: usize,
    },
    #[error("min_defenders {min} leaves no room within max_pieces {max_pieces} (both Kings and a piece to mate with): at most {}", max_pieces.saturating_sub(3))]
    MinDefenders { min: usize, max_pieces: usize },
    #[error("min_defenders_share must be between 0 and 1 (a fraction, or a percentage such as 80%), not {0}")]
    DefendersShare(f64),
    #[error("focus must be between 0 (none) and {MAX_FOCUS} King steps, not {0}")]
    Focus(u32),
    #[error("steer_epoch must be at least 1")]
    SteerEpoch,
}

impl GenerateOptions {
    /// The solver's options for screening one candidate of this run: its stipulation and
    /// candidate budget, one thread, a table of up to 16 MiB, no tries.
    pub fn screening(&self) -> SolveOptions {
        SolveOptions {
            stipulation: self.stipulation,
            limits: self.candidate_limits,
            table_mib: 16,
            threads: 1,
            max_tree_nodes: 500,
            intended_key: None,
            cancel: Cancel::default(),
            max_refutations: 0,
            proven: None,
            within: None,
        }
    }

    /// The reach of the narrowed search this run uses: `focus` for a direct mate or stalemate and
    /// a helpmate or helpstalemate, 0 (none) for a selfmate or selfstalemate.
    pub fn effective_focus(&self) -> u32 {
        if self.stipulation.is_self() || self.stipulation.is_series() {
            0
        } else {
            self.focus
        }
    }

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
            s if n > crate::solver::MAX_MATE_IN || n < s.least_moves() => {
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
        if self.focus > MAX_FOCUS {
            return Err(OptionsError::Focus(self.focus));
        }
        if self.steer_epoch == 0 {
            return Err(OptionsError::SteerEpoch);
        }
        let v = &self.variety;
        if !(v.max_key_share > 0.0 && v.max_key_share <= 1.0) {
            return Err(OptionsError::KeyShare(v.max_key_share));
        }
        let kinds = self.variant.kind().piece_kinds();
        let cap = v.key_cap(self.count);
        if cap * kinds < self.count {
            return Err(OptionsError::KeyShareUnreachable {
                share: v.max_key_share,
                cap,
                count: self.count,
                kinds,
            });
        }
        if !(0.0..=1.0).contains(&v.min_defenders_share) {
            return Err(OptionsError::DefendersShare(v.min_defenders_share));
        }
        if v.min_defenders > 0 && v.min_defenders + 3 > self.max_pieces {
            return Err(OptionsError::MinDefenders {
                min: v.min_defenders,
                max_pieces: self.max_pieces,
            });
        }
        Ok(())
    }
}

/// A share written as a fraction (`0.4`) or a percentage (`40%`), from 0 to 1.
///
/// # Errors
/// A message when the text is neither, or the share is outside 0 to 1.
pub fn parse_share(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let share = match t.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().map(|p| p / 100.0),
        None => t.parse::<f64>(),
    }
    .map_err(|_| {
        format!("{text:?} is not a share: write a fraction (0.4) or a percentage (40%)")
    })?;
    if (0.0..=1.0).contains(&share) {
        Ok(share)
    } else {
        Err(format!(
            "{text:?} is not a share between 0 and 1 (0% and 100%)"
        ))
    }
}

/// The side that defends in a puzzle of `stipulation` with `turn` to move: the side not to move
/// in `#N`, `s#N` and the series movers but `ser-h#N` (the one that answers the key, or
/// passes), the side mated (Black) in a helpmate and in `ser-h#N`.
pub fn defender(stipulation: Stipulation, turn: Color) -> Color {
    if stipulation.is_help() || matches!(stipulation, Stipulation::SeriesHelpMate(_)) {
        Color::Black
    } else {
        turn.other()
    }
}

/// The pieces of `color` besides its King.
pub fn side_pieces<P: GamePosition>(pos: &P, color: Color) -> usize {
    let fen = pos.fen(crate::rules::Naming::default());
    fen.split_whitespace()
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| {
            c.is_ascii_alphabetic()
                && !c.eq_ignore_ascii_case(&'k')
                && c.is_ascii_uppercase() == (color == Color::White)
        })
        .count()
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
/// run). `cancel`, when set by another thread, stops the run within one candidate's screening
/// (and, with [`generate_prepared`], its preparation): candidates not yet screened are skipped.
///
/// # Errors
/// When the options are out of range.
pub fn generate<P: GamePosition>(
    opts: &GenerateOptions,
    cancel: &Cancel,
    mut take: impl FnMut(&Progress, Option<&Generated<P>>) -> Take,
) -> Result<Report<P>, OptionsError> {
    generate_prepared(
        opts,
        cancel,
        |_| (),
        |p, found| take(p, found.map(|(g, ())| g)),
    )
}

/// [`generate`], where `prepare` is run on each sound puzzle as soon as it is found, on the thread
/// that screened it (so in parallel, where `take` runs on the caller's thread one puzzle after
/// the other), and its answer handed to `take` with the puzzle. What the caller does to each
/// puzzle before keeping it (a store verifies it again with the full solver) belongs there. A
/// puzzle that is then a duplicate or passed over has been prepared for nothing.
///
/// # Errors
/// When the options are out of range.
pub fn generate_prepared<P: GamePosition, X: Send>(
    opts: &GenerateOptions,
    cancel: &Cancel,
    prepare: impl Fn(&Generated<P>) -> X + Sync,
    mut take: impl FnMut(&Progress, Option<(&Generated<P>, X)>) -> Take,
) -> Result<Report<P>, OptionsError> {
    opts.validate()?;
    let screener = Screener::new(opts, cancel);
    let epoch = opts.steer_epoch;
    let mut assembly = Assembly::new(opts);
    let mut puzzles: Vec<Generated<P>> = Vec::new();
    let mut stop = Stop::Done;
    let mut steer = Steer::default();
    let mut next = 0u64;
    'run: while !assembly.complete() {
        if let Some(why) = screener.stopped(next) {
            stop = why;
            break;
        }
        // Candidates are steered by what the puzzles kept before their epoch (a run of `epoch`
        // candidates that no batch crosses), so that the same seed makes the same candidates on
        // any number of threads: once every remaining puzzle must keep the defender's pieces,
        // every candidate is made with them.
        if next % epoch == 0 {
            steer = assembly.steer();
        }
        let end = (next + screener.batch())
            .min(opts.max_candidates)
            .min((next / epoch + 1) * epoch);
        let results = screener.screen::<P, X>(next..end, &steer, &prepare);
        next = end;
        for r in results {
            // A cancel during the batch may have cut any of its searches short (a sound
            // candidate found unsettled, or its confirmation stopped) while later ones finished:
            // nothing more of the batch is taken, so that what was taken is what an uninterrupted
            // run takes, in its order, and a run that goes on after a hand-over takes the rest.
            if cancel.is_cancelled() {
                continue 'run;
            }
            // A candidate skipped by a halt: the checks at the top of the loop say why.
            let Some(r) = r else {
                continue 'run;
            };
            assembly.progress.millis = screener.millis();
            let flow = assembly.offer(r, |progress, (found, prepared)| {
                let taken = take(progress, Some((&found, prepared)));
                if taken == Take::Kept {
                    puzzles.push(*found);
                }
                taken
            });
            match flow {
                Flow::Go => {}
                Flow::Complete => break 'run,
                Flow::Stop => {
                    stop = Stop::Cancelled;
                    break 'run;
                }
            }
        }
        assembly.progress.millis = screener.millis();
        if take(&assembly.progress, None) == Take::Stop {
            stop = Stop::Cancelled;
            break;
        }
    }
    assembly.progress.millis = screener.millis();
    if assembly.complete() {
        stop = Stop::Done;
    }
    Ok(Report {
        puzzles,
        progress: assembly.progress,
        stop,
    })
}

/// A sound puzzle as the assembly of a run sees it (see [`Assembly::offer`]): what tells
/// near-duplicates apart, its key kind and the defender's pieces, with the caller's `puzzle`.
#[derive(Clone, Debug)]
pub struct Sound<T> {
    /// The position's canonical key ([`crate::rules::GeneratorSetup::canonical_key`]): the same
    /// for all its mirror images.
    pub canonical: String,
    pub key: Option<Role>,
    pub defenders: usize,
    pub puzzle: T,
}

/// What the screening of one candidate found.
#[derive(Clone, Debug)]
pub enum Verdict<T> {
    Rejected,
    /// Dropped before its full screening for a key of a kind at its cap: were it sound, it would
    /// be passed over.
    Varied,
    Unsettled,
    Sound(T),
}

/// One candidate's verdict and the solver nodes it took.
#[derive(Clone, Debug)]
pub struct Screened<T> {
    pub verdict: Verdict<T>,
    pub nodes: u64,
}

/// A sound puzzle screened by a [`Screener`], with what `prepare` made of it.
pub type Prepared<P, X> = Sound<(Box<Generated<P>>, X)>;

/// Screens ranges of a run's candidates on the run's threads, within its time limit and until
/// its cancel.
pub struct Screener<'a> {
    opts: &'a GenerateOptions,
    cancel: &'a Cancel,
    pool: Option<rayon::ThreadPool>,
    start: Instant,
}

impl<'a> Screener<'a> {
    /// A screener for a run of `opts` starting now.
    pub fn new(opts: &'a GenerateOptions, cancel: &'a Cancel) -> Self {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(opts.threads.max(1))
            .build()
            .ok();
        Screener {
            opts,
            cancel,
            pool,
            start: Instant::now(),
        }
    }

    /// The candidates of one batch: enough to keep every thread busy.
    pub fn batch(&self) -> u64 {
        (self.opts.threads.max(1) * 128) as u64
    }

    /// Milliseconds since the run started.
    pub fn millis(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Why a run whose next candidate is `next` must stop: a cancel, the candidate limit or the
    /// time limit.
    pub fn stopped(&self, next: u64) -> Option<Stop> {
        if self.cancel.is_cancelled() {
            Some(Stop::Cancelled)
        } else if next >= self.opts.max_candidates {
            Some(Stop::CandidateLimit)
        } else if self.start.elapsed() >= self.opts.max_time {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }

    /// Whether the run must stop at once: its cancel, or its time limit.
    pub fn halted(&self) -> bool {
        self.cancel.is_cancelled() || self.start.elapsed() >= self.opts.max_time
    }

    /// Screens candidates `range` under `steer`, in parallel, each under the run's deadline and
    /// cancel; `prepare` is run on each sound one on the thread that screened it. In candidate
    /// order; `None` for a candidate skipped because the run halted.
    #[allow(clippy::type_complexity)]
    pub fn screen<P: GamePosition, X: Send>(
        &self,
        range: std::ops::Range<u64>,
        steer: &Steer,
        prepare: &(impl Fn(&Generated<P>) -> X + Sync),
    ) -> Vec<Option<Screened<Prepared<P, X>>>> {
        let opts = self.opts;
        let screen_one = |i: u64| {
            let left = opts.max_time.saturating_sub(self.start.elapsed());
            (!self.halted()).then(|| {
                let screened = screen_candidate::<P>(opts, i, left, self.cancel, steer);
                let verdict = match screened.verdict {
                    Verdict::Sound(mut found) => {
                        let prepared = prepare(&found);
                        // The screening's table is for the preparation only.
                        found.proven = None;
                        Verdict::Sound(Sound {
                            canonical: GeneratorSetup::canonical_key(&found.position),
                            key: found.key,
                            defenders: found.defenders,
                            puzzle: (found, prepared),
                        })
                    }
                    Verdict::Rejected => Verdict::Rejected,
                    Verdict::Varied => Verdict::Varied,
                    Verdict::Unsettled => Verdict::Unsettled,
                };
                Screened {
                    verdict,
                    nodes: screened.nodes,
                }
            })
        };
        match &self.pool {
            Some(pool) => pool.install(|| {
                // One candidate a task: a sound one costs a hundred times a rejected one, and
                // the batch waits for its slowest thread.
                range
                    .collect::<Vec<u64>>()
                    .into_par_iter()
                    .with_max_len(1)
                    .map(screen_one)
                    .collect()
            }),
            None => range.map(screen_one).collect(),
        }
    }
}

/// What a run's [`Assembly::offer`] says next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Offer the next candidate.
    Go,
    /// The collection has its count.
    Complete,
    /// The caller asked to stop.
    Stop,
}

/// The assembly of a run: screened candidates offered in candidate order, near-duplicates
/// dropped, the variety rules applied, the progress counted, and the steering of the next epoch
/// told. What it keeps depends only on what it was offered, in that order: a run whose
/// candidates were screened by several processes, in any order, keeps what one run keeps.
#[derive(Clone, Debug)]
pub struct Assembly {
    count: usize,
    min_defenders: usize,
    /// Each key kind's cap, and the puzzles whose defender must keep its pieces.
    cap: usize,
    needed: usize,
    seen: HashSet<String>,
    keys: BTreeMap<Role, usize>,
    /// The puzzles kept whose defender keeps `min_defenders` pieces.
    met: usize,
    kept: usize,
    /// The run's progress (its `millis` set by the caller).
    pub progress: Progress,
}

impl Assembly {
    /// The assembly of a run of `opts`, before any candidate.
    pub fn new(opts: &GenerateOptions) -> Assembly {
        Assembly {
            count: opts.count,
            min_defenders: opts.variety.min_defenders,
            cap: opts.variety.key_cap(opts.count),
            needed: opts.variety.defenders_needed(opts.count),
            seen: HashSet::new(),
            keys: BTreeMap::new(),
            met: 0,
            kept: 0,
            progress: Progress::default(),
        }
    }

    /// Whether the collection has its count.
    pub fn complete(&self) -> bool {
        self.kept >= self.count
    }

    /// The puzzles kept.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// How an epoch starting now is steered: every candidate keeps the defender's pieces once
    /// every remaining puzzle must keep them (from then on, always), and a candidate whose key
    /// kind has its cap is dropped early (the kinds capped only grow).
    pub fn steer(&self) -> Steer {
        Steer {
            all_keep_defenders: self.needed > 0
                && self.met + (self.count - self.kept.min(self.count)) <= self.needed,
            capped: self
                .keys
                .iter()
                .filter(|&(_, &n)| n >= self.cap)
                .map(|(&k, _)| k)
                .collect(),
        }
    }

    /// Offers the next candidate's screening; `take` is handed a sound puzzle that is new and
    /// fits the variety rules, and says whether it was kept.
    pub fn offer<T>(
        &mut self,
        screened: Screened<Sound<T>>,
        take: impl FnOnce(&Progress, T) -> Take,
    ) -> Flow {
        let p = &mut self.progress;
        p.tried += 1;
        p.nodes += screened.nodes;
        let sound = match screened.verdict {
            Verdict::Rejected => return Flow::Go,
            Verdict::Varied => {
                p.varied += 1;
                return Flow::Go;
            }
            Verdict::Unsettled => {
                p.unsettled += 1;
                return Flow::Go;
            }
            Verdict::Sound(sound) => sound,
        };
        if self.seen.contains(&sound.canonical) {
            p.duplicates += 1;
            return Flow::Go;
        }
        // Passed over (and not remembered: a mirror image may come when it fits): a key kind at
        // its cap, or a defender without its pieces when every remaining puzzle must have them.
        let keeps = sound.defenders >= self.min_defenders;
        let full = sound
            .key
            .is_some_and(|k| self.keys.get(&k).copied().unwrap_or(0) >= self.cap);
        let left = self.count.saturating_sub(self.kept + 1);
        if full || (!keeps && self.met + left < self.needed) {
            p.varied += 1;
            return Flow::Go;
        }
        self.seen.insert(sound.canonical);
        match take(p, sound.puzzle) {
            Take::Kept => {
                p.found += 1;
                if let Some(k) = sound.key {
                    *self.keys.entry(k).or_default() += 1;
                }
                self.met += usize::from(keeps);
                self.kept += 1;
                if self.complete() {
                    Flow::Complete
                } else {
                    Flow::Go
                }
            }
            Take::Skipped => Flow::Go,
            Take::Stop => Flow::Stop,
        }
    }
}

/// The default [`GenerateOptions::steer_epoch`]. Each batch of candidates ends within an epoch,
/// and waits for its slowest candidate: a longer epoch keeps all threads busy longer (256
/// against the 64 of runs before 2026-11-25 gave 12% more `#3` puzzles a minute for a
/// collection of 100).
pub const STEER_EPOCH: u64 = 256;

/// How candidates are made so that what the collection lacks comes up more often.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Steer {
    /// Every candidate gives the defender its pieces (every remaining puzzle needs them), not
    /// only the share `min_defenders_share` of them.
    pub all_keep_defenders: bool,
    /// The key kinds at their cap: a candidate whose key would be of one of them is dropped as
    /// soon as that is known.
    pub capped: Vec<Role>,
}

/// Makes candidate `index` and screens it, within `left` of the run's time and until `cancel`.
fn screen_candidate<P: GamePosition>(
    opts: &GenerateOptions,
    index: u64,
    left: Duration,
    cancel: &Cancel,
    steer: &Steer,
) -> Screened<Box<Generated<P>>> {
    let rejected = Screened {
        verdict: Verdict::Rejected,
        nodes: 0,
    };
    let Some((position, source)) = steered_candidate::<P>(opts, index, steer) else {
        return rejected;
    };
    let solve = SolveOptions {
        limits: Limits {
            time: opts.candidate_limits.time.min(left),
            ..opts.candidate_limits
        },
        cancel: cancel.clone(),
        ..opts.screening()
    };
    // The narrowed search first (see `GenerateOptions::focus`): without a mate there, the
    // candidate is dropped; its nodes count as the candidate's. The first move of a mate found
    // there is the key if the puzzle is sound: when its kind is at its cap, the puzzle would be
    // passed over, so it is not screened further.
    let (mut probed, probe_start) = (0, Instant::now());
    if opts.effective_focus() > 0 {
        // The kind of the key piece if the puzzle is sound: of the first move of a mate, of the
        // mating move of a helpmate's line. A helpmate's narrowed search goes on to a second
        // line, which is a second solution: the candidate is then unsound (one is intended).
        let (found, nodes, second_solution) = if opts.stipulation.is_help() {
            let (found, nodes) = focused_help(&position, opts.focus, &solve, 1);
            let second = matches!(&found, Narrowed::Mate(lines) if lines.len() > 1);
            let kind = |lines: &Vec<Vec<P::Move>>| lines[0].last().map(P::role);
            (mate_kind(found, kind), nodes, second)
        } else {
            let (found, nodes) = focused_mate(&position, opts.focus, &solve);
            (mate_kind(found, |first| Some(P::role(first))), nodes, false)
        };
        let verdict = match found {
            _ if second_solution => Some(Verdict::Rejected),
            Narrowed::Mate(Some(kind)) if steer.capped.contains(&kind) => Some(Verdict::Varied),
            Narrowed::Mate(_) => None,
            Narrowed::NoMate => Some(Verdict::Rejected),
            Narrowed::Stopped => Some(Verdict::Unsettled),
        };
        if let Some(verdict) = verdict {
            return Screened { verdict, nodes };
        }
        probed = nodes;
    }
    // What the narrowed search spent is the candidate's: nodes and time.
    let solve = SolveOptions {
        limits: Limits {
            nodes: solve.limits.nodes.saturating_sub(probed),
            time: solve.limits.time.saturating_sub(probe_start.elapsed()),
        },
        ..solve
    };
    let (nodes, settled, sound, proof, proven) = if opts.stipulation.lists_lines() {
        let h = crate::solver::screen_lines(&position, &solve, 1);
        let sound = h.sound == Some(true) && h.count == 1;
        (h.nodes, h.sound.is_some(), sound, Proof::Help(h), None)
    } else {
        let (s, proven) = screen_proven(&position, &solve);
        let settled =
            !(s.result == Outcome::Unknown || (s.result == Outcome::Mate && s.sound.is_none()));
        let sound =
            s.result == Outcome::Mate && s.sound == Some(true) && s.mate_in == Some(opts.mate_in());
        (s.nodes, settled, sound, Proof::Keys(s), Some(proven))
    };
    let verdict = if sound {
        let themes = themes(&position, &proof, opts.stipulation);
        let key = proof.key_move().map(P::role);
        let defenders = side_pieces(&position, defender(opts.stipulation, position.turn()));
        Verdict::Sound(Box::new(Generated {
            position,
            source,
            candidate: index,
            solution: proof,
            themes,
            key,
            defenders,
            proven,
        }))
    } else if !settled {
        Verdict::Unsettled
    } else {
        Verdict::Rejected
    };
    Screened {
        verdict,
        nodes: nodes + probed,
    }
}

/// What a narrowed search found, its mate replaced by the kind of piece `kind` says it has.
fn mate_kind<M>(found: Narrowed<M>, kind: impl Fn(&M) -> Option<Role>) -> Narrowed<Option<Role>> {
    match found {
        Narrowed::Mate(m) => Narrowed::Mate(kind(&m)),
        Narrowed::NoMate => Narrowed::NoMate,
        Narrowed::Stopped => Narrowed::Stopped,
    }
}

/// Candidate `index` of a run before any puzzle is kept: a position the side to move may try to
/// mate from, or `None` when the attempt made none (a play-out that ended, a placement that
/// cannot arise).
pub fn candidate<P: GamePosition>(opts: &GenerateOptions, index: u64) -> Option<(P, Source)> {
    steered_candidate(opts, index, &Steer::default())
}

/// Salt of the draw that says whether a candidate keeps the defender's pieces.
const DEFENDERS_SALT: u64 = 0x5EED_DEFE_DE25_0001;

/// Candidate `index` of a run, steered by what the collection lacks: a share
/// `min_defenders_share` of the candidates (all of them with `steer.all_keep_defenders`) give the
/// defender at least `min_defenders` pieces besides its King (a random placement places them
/// first; a play-out that leaves fewer is dropped before any search). With no rule to follow, the
/// candidate is the one the generator made before these rules.
pub fn steered_candidate<P: GamePosition>(
    opts: &GenerateOptions,
    index: u64,
    steer: &Steer,
) -> Option<(P, Source)> {
    let v = &opts.variety;
    let keep = v.min_defenders > 0
        && (steer.all_keep_defenders
            || Rng::for_candidate(opts.seed ^ DEFENDERS_SALT, index).below(1000)
                < (v.min_defenders_share * 1000.0).round() as u64);
    let rules = Rules {
        defenders: if keep { v.min_defenders } else { 0 },
    };
    let mut rng = Rng::for_candidate(opts.seed, index);
    let (position, source) = if index % 2 == 0 {
        (random_position::<P>(&mut rng, opts, &rules), Source::Random)
    } else {
        (playout_position::<P>(&mut rng, opts)?, Source::Playout)
    };
    let side = opts.stipulation.starts();
    (acceptable(&position, opts)
        && side.is_none_or(|c| position.turn() == c)
        && rules.followed(&position, opts.stipulation))
    .then_some((position, source))
}

/// What one candidate must follow.
struct Rules {
    /// The defender's pieces besides its King, at least.
    defenders: usize,
}

impl Rules {
    fn none(&self) -> bool {
        self.defenders == 0
    }

    fn followed<P: GamePosition>(&self, pos: &P, stipulation: Stipulation) -> bool {
        self.none() || side_pieces(pos, defender(stipulation, pos.turn())) >= self.defenders
    }
}

/// Whether a position may be a puzzle: both Kings, a position that can arise, the side to move not
/// in check unless allowed, within the piece budget, and a move to make that does not lose at once.
fn acceptable<P: GamePosition>(pos: &P, opts: &GenerateOptions) -> bool {
    pos.has_both_kings()
        && pos.piece_count() as usize <= opts.max_pieces
        && !pos.validate().iter().any(|p| p.is_error())
        && (opts.allow_check || !pos.in_check())
        && pos.has_safe_move()
}

/// Both Kings and up to `max_pieces - 2` other pieces on random squares of the game's setup
/// squares, no side with more of a kind than it starts with; the side to move is random. The
/// pawn-like kind is drawn 40% of the time (pawns are half of a side's pieces at the start).
///
/// With `rules` to follow, the side to move is drawn first; the defender gets the first
/// `rules.defenders` pieces, and there is at least one more piece.
fn random_position<P: GamePosition>(rng: &mut Rng, opts: &GenerateOptions, rules: &Rules) -> P {
    let mut free: Vec<u8> = crate::rules::BitSet::squares(P::setup_squares()).collect();
    let mut pieces: Vec<(u8, Piece)> = Vec::with_capacity(opts.max_pieces);
    let mut place = |rng: &mut Rng, pieces: &mut Vec<(u8, Piece)>, piece: Piece| {
        let i = rng.below(free.len() as u64) as usize;
        pieces.push((free.swap_remove(i), piece));
    };
    place(rng, &mut pieces, Piece::new(Color::White, Role::King));
    place(rng, &mut pieces, Piece::new(Color::Black, Role::King));
    let kinds = P::setup_kinds();
    let draw_kind = |rng: &mut Rng| {
        if rng.chance(40) {
            0
        } else {
            1 + rng.below(kinds.len() as u64 - 1) as usize
        }
    };
    let mut counts = vec![[0u32; 2]; kinds.len()];
    if rules.none() {
        let extra = 1 + rng.below((opts.max_pieces - 2) as u64) as usize;
        for _ in 0..extra {
            let color = if rng.chance(55) {
                Color::White
            } else {
                Color::Black
            };
            let k = draw_kind(rng);
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
        // The side the stipulation starts with, when it names one (the draw above is kept, so
        // that a direct mate's candidates stay what they were).
        let turn = opts.stipulation.starts().unwrap_or(turn);
        return P::from_setup(opts.variant, &pieces, turn);
    }
    let turn = if rng.chance(50) {
        Color::White
    } else {
        Color::Black
    };
    let turn = opts.stipulation.starts().unwrap_or(turn);
    let defender = defender(opts.stipulation, turn);
    // The defender's pieces first, then pieces of either side; at least one more than the
    // defender's (validated: `min_defenders + 3 <= max_pieces`).
    let least = rules.defenders + 1;
    let extra = least + rng.below((opts.max_pieces - 2 - least + 1) as u64) as usize;
    for i in 0..extra {
        let color = if i < rules.defenders || rng.chance(45) {
            defender
        } else {
            defender.other()
        };
        let k = draw_kind(rng);
        let (role, max) = kinds[k];
        let n = &mut counts[k][color.index()];
        if *n < max {
            *n += 1;
            place(rng, &mut pieces, Piece::new(color, role));
        }
    }
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
        // A capture (85% of the time when there is one), else any move: the captures are
        // counted and the one drawn found again, so that no list is made at each ply.
        let captures = moves.iter().filter(|m| P::is_capture(m)).count();
        let capture = if captures > 0 && rng.chance(85) {
            let i = rng.below(captures as u64) as usize;
            moves.iter().filter(|m| P::is_capture(m)).nth(i).copied()
        } else {
            None
        };
        let mv = match capture {
            Some(m) => m,
            None => moves[rng.below(moves.len() as u64) as usize],
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
pub fn slug(role: Role) -> String {
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
/// `approach-withdrawal`. A stalemate stipulation says `stalemate` where these say `mate`:
/// `stalemate-in-N`, `selfstalemate-in-N`, `helpstalemate-in-N`, `stalemate-by-<kind>`,
/// `stalemate-capture-<kind>`, `quiet-stalemate`; a reflexmate is `reflexmate-in-N` or
/// `semi-reflexmate-in-N`. A series mover is `seriesmate-in-N`, `series-stalemate-in-N`,
/// `series-selfmate-in-N` or `series-helpmate-in-N`, with `ser-solutions-<k>`,
/// `ser-moves-<kind>` and, but in `ser-s#N`, the mating piece and its captures as a helpmate's.
pub fn themes<P: GamePosition>(
    pos: &P,
    proof: &Proof<P::Move>,
    stipulation: Stipulation,
) -> Vec<String> {
    let goal = match stipulation.target() {
        crate::solver::Target::Mate => "mate",
        crate::solver::Target::Stalemate => "stalemate",
    };
    // The name of the stipulation's form before `-in-N`: `mate`, `selfmate`, `reflexmate`,
    // `semi-reflexmate`, `stalemate`, `selfstalemate`.
    let form = match stipulation {
        Stipulation::ReflexMate(_) => "reflexmate".to_string(),
        Stipulation::SemiReflexMate(_) => "semi-reflexmate".to_string(),
        s if s.is_self() => format!("self{goal}"),
        _ => goal.to_string(),
    };
    let mut tags = match proof {
        Proof::Keys(s) => key_themes(pos, s, &form, goal),
        Proof::Help(h) => help_themes(pos, h, goal),
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

fn key_themes<P: GamePosition>(
    pos: &P,
    solution: &Solution<P::Move>,
    form: &str,
    goal: &str,
) -> Vec<String> {
    let n = solution.mate_in.unwrap_or(0);
    let mut tags = vec![format!("{form}-in-{n}")];
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
            tags.push(format!("{goal}-by-{}", slug(P::role(&node.mv))));
        }
        for d in &node.defences {
            if d.mates {
                tags.push(format!("{goal}-by-{}", slug(P::role(&d.mv))));
            }
            stack.extend(d.replies.iter());
        }
    }
    tags
}

/// The themes of a helpmate (`helpmate-in-N`, `h-solutions-k`, `h-moves-<piece>`) or a series
/// mover (`seriesmate-in-N`, `series-stalemate-in-N`, `series-selfmate-in-N`,
/// `series-helpmate-in-N`, `ser-solutions-k`, `ser-moves-<piece>`), with the mating piece and
/// what it takes (none for `ser-s#N`, whose mate is Black's reply).
fn help_themes<P: GamePosition>(pos: &P, h: &HelpSolution<P::Move>, goal: &str) -> Vec<String> {
    let stipulation = h.stipulation;
    let (form, prefix) = match stipulation {
        Stipulation::SeriesMate(n) => (format!("seriesmate-in-{n}"), "ser"),
        Stipulation::SeriesStalemate(n) => (format!("series-stalemate-in-{n}"), "ser"),
        Stipulation::SeriesSelfMate(n) => (format!("series-selfmate-in-{n}"), "ser"),
        Stipulation::SeriesHelpMate(n) => (format!("series-helpmate-in-{n}"), "ser"),
        s => (format!("help{goal}-in-{}", &s.to_string()[2..]), "h"),
    };
    let mut tags = vec![form, format!("{prefix}-solutions-{}", h.count)];
    let mated_by_line = stipulation != Stipulation::SeriesSelfMate(stipulation.moves());
    for line in &h.solutions {
        let mut at = *pos;
        for (i, m) in line.iter().enumerate() {
            tags.push(format!("{prefix}-moves-{}", slug(P::role(m))));
            if i + 1 == line.len() && mated_by_line {
                tags.push(format!("{goal}-by-{}", slug(P::role(m))));
                let taken = captured_kinds(&at, m);
                if taken.is_empty() {
                    tags.push(format!("quiet-{goal}"));
                }
                for kind in taken {
                    tags.push(format!("{goal}-capture-{kind}"));
                }
            }
            at =
                crate::solver::help::next_in_line(&at, stipulation, m, i, line.len()).unwrap_or(at);
        }
    }
    tags
}

#[cfg(test)]
mod rococo_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Letters;

    /// The FENs of a run's puzzles, in order.
    fn fens(r: &Report) -> Vec<String> {
        r.puzzles
            .iter()
            .map(|p| p.position.fen(Letters::Chess))
            .collect()
    }

    fn keep(_: &Progress, _: Option<&Generated>) -> Take {
        Take::Kept
    }

    /// The run of `opts` on one thread, keeping every puzzle.
    fn on_one_thread(opts: &GenerateOptions) -> Report {
        let opts = GenerateOptions {
            threads: 1,
            ..opts.clone()
        };
        generate::<Position>(&opts, &Cancel::new(), keep).unwrap()
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
            for image in
                crate::rules::symmetry::Symmetry::with_colours(crate::rules::GameKind::Baroque)
                    .iter()
                    .map(|s| s.baroque(&pos))
            {
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
        let again = on_one_thread(&quick(11, 3));
        assert_eq!(fens(&first), fens(&again));
    }

    #[test]
    fn a_collection_is_varied_and_the_same_on_any_number_of_threads() {
        let opts = quick(7, 10);
        let first = generate::<Position>(&opts, &Cancel::new(), keep).unwrap();
        assert_eq!(first.stop, Stop::Done);
        let mut kinds: BTreeMap<Role, usize> = BTreeMap::new();
        for p in &first.puzzles {
            *kinds.entry(p.key.unwrap()).or_default() += 1;
            let defender = defender(opts.stipulation, p.position.turn());
            assert_eq!(p.defenders, side_pieces(&p.position, defender));
        }
        assert!(kinds.values().all(|&n| n <= 4), "{kinds:?}");
        let kept = first.puzzles.iter().filter(|p| p.defenders >= 2).count();
        assert!(kept >= 8, "{kept}");
        let again = on_one_thread(&opts);
        assert_eq!(fens(&first), fens(&again));
        assert_eq!(first.progress.varied, again.progress.varied);
    }

    /// `#3` with the narrowed search (the default) and a key cap that bites: the same puzzles on
    /// one thread and two, each sound by a full solve with the key the screening found; each
    /// prepared value reaches `take` with its own puzzle.
    #[test]
    fn narrowed_mates_in_3_are_sound_and_the_same_on_any_number_of_threads() {
        let opts = GenerateOptions {
            stipulation: Stipulation::Mate(3),
            ..quick(5, 10)
        };
        assert_eq!(opts.effective_focus(), DEFAULT_FOCUS);
        let paired = |_: &Progress, found: Option<(&Generated, u64)>| {
            if let Some((g, candidate)) = found {
                assert_eq!(g.candidate, candidate);
            }
            Take::Kept
        };
        let first =
            generate_prepared::<Position, _>(&opts, &Cancel::new(), |g| g.candidate, paired)
                .unwrap();
        assert_eq!(first.stop, Stop::Done);
        assert!(first.progress.varied > 0, "{:?}", first.progress);
        for p in &first.puzzles {
            let full = crate::solver::solve(
                &p.position,
                &SolveOptions {
                    stipulation: Stipulation::Mate(3),
                    ..SolveOptions::default()
                },
            );
            assert_eq!(full.sound, Some(true), "{}", p.position.fen(Letters::Chess));
            assert_eq!(Some(&full.keys[0].mv), p.solution.first_move());
        }
        let again = on_one_thread(&opts);
        assert_eq!(fens(&first), fens(&again));
        let counts = |p: &Progress| (p.tried, p.found, p.varied, p.unsettled, p.nodes);
        assert_eq!(counts(&first.progress), counts(&again.progress));
    }

    #[test]
    fn variety_rules_are_read_and_checked() {
        let v = Variety::default();
        assert_eq!(
            [1, 3, 5, 9, 10, 11, 25, 50].map(|n| v.key_cap(n)),
            [1, 3, 5, 9, 4, 4, 10, 20]
        );
        assert_eq!([1, 3, 10, 11].map(|n| v.defenders_needed(n)), [1, 3, 8, 9]);
        assert_eq!(Variety::NONE.key_cap(10), 10);
        assert_eq!(Variety::NONE.defenders_needed(10), 0);
        assert_eq!(parse_share("0.4"), Ok(0.4));
        assert_eq!(parse_share("40%"), Ok(0.4));
        assert_eq!(parse_share(" 100 % "), Ok(1.0));
        for bad in ["", "x", "1.5", "-0.1", "140%", "NaN"] {
            assert!(parse_share(bad).is_err(), "{bad}");
        }
        assert_eq!(default_min_defenders(10), 2);
        assert_eq!(default_min_defenders(4), 1);
        assert_eq!(default_min_defenders(3), 0);
        assert_eq!(
            Variety::defaults(Stipulation::Mate(2), 10),
            Variety::default()
        );
        assert_eq!(
            Variety::defaults(Stipulation::SelfMate(1), 10).min_defenders,
            0
        );
        let with = |variety: Variety, count: usize| GenerateOptions {
            variety,
            count,
            ..quick(1, 10)
        };
        assert!(with(Variety::default(), 10).validate().is_ok());
        let share = |s: f64| Variety {
            max_key_share: s,
            ..Variety::default()
        };
        assert_eq!(
            with(share(0.0), 10).validate(),
            Err(OptionsError::KeyShare(0.0))
        );
        // Seven kinds of piece, one key each at most, cannot fill ten puzzles.
        assert!(matches!(
            with(share(0.1), 10).validate(),
            Err(OptionsError::KeyShareUnreachable {
                cap: 1,
                kinds: 7,
                ..
            })
        ));
        let defenders = Variety {
            min_defenders: 5,
            ..Variety::default()
        };
        // Seven pieces: both Kings and a piece to mate with leave four for the defender.
        assert_eq!(
            with(defenders, 10).validate(),
            Err(OptionsError::MinDefenders {
                min: 5,
                max_pieces: 7
            })
        );
    }

    /// A run cancelled from another thread at any moment (a replica handing its job over) has
    /// taken a prefix of what the uninterrupted run takes: never a later puzzle before an earlier
    /// one whose search the cancel cut short.
    #[test]
    fn a_cancelled_run_takes_a_prefix_of_the_whole_run() {
        let opts = GenerateOptions {
            stipulation: Stipulation::Mate(3),
            ..quick(12, 12)
        };
        let whole = fens(&generate::<Position>(&opts, &Cancel::new(), keep).unwrap());
        assert_eq!(whole.len(), 12);
        for millis in [5, 40, 120, 300, 700] {
            let cancel = Cancel::new();
            let stop = cancel.clone();
            let timer = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(millis));
                stop.cancel();
            });
            let cut = generate::<Position>(&opts, &cancel, keep).unwrap();
            timer.join().unwrap();
            let taken = fens(&cut);
            assert_eq!(
                taken[..],
                whole[..taken.len()],
                "cancelled after {millis} ms"
            );
        }
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
