//! Mate-in-N solving with proof of soundness: every key, cooks, short solutions, and the solution tree.
//!
//! The stipulation "mate in N" (#N): the side to move forces checkmate with its Nth move at the
//! latest against every defence. Stalemate is a win only under `stalemate: loss`.
//!
//! Method: iterative deepening over n = 1..=N at the root; each first move not yet proven is tried
//! with a depth-first proof search ([`search`]) sharing a lockless transposition table ([`tt`]).
//! Root moves are split over the cores with rayon. Every answer is proven: a root move gets its exact
//! mate length, or is proven not to mate within N, or is left unknown when the budget runs out.
//!
//! Why depth-first: [`pns`] implements proof-number search for comparison. On "is there a mate in N"
//! it is 2-3 times faster where a mate exists (Chameleon diagram #2: 0.22 against 0.49 ms; a sound #3:
//! 3.7 against 11 ms) but 6-7 times slower where none does (midgame #3 with 24 and 26 pieces: 120
//! against 21 ms, 279 against 41 ms; `cargo bench --bench solver -- "mate exists"`). Soundness needs
//! every first move settled, nearly all of them disproofs, so the solver uses the depth-first search.
//!
//! The rules engine knows nothing of this crate; this crate knows nothing of the web or the store.
//!
//! Solving the Wikipedia article's Chameleon mate in 2, whose key takes seven pieces:
//!
//! ```
//! use baroque_rules::{GamePosition, Naming, Rules, Variant};
//! use baroque_solver::{solve_any, SolveOptions, Stipulation};
//!
//! let variant = Variant::Baroque(Rules::default());
//! let (pos, _) = variant
//!     .position("2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0", Naming::default())
//!     .unwrap();
//! let opts = SolveOptions {
//!     stipulation: Stipulation::Mate(2),
//!     ..SolveOptions::default()
//! };
//! let solution = solve_any(&pos, &opts).named(&pos, Naming::default());
//! assert_eq!(solution.sound, Some(true));
//! assert_eq!(solution.keys[0].info.notation, "Bg6xc6");
//! assert_eq!(solution.keys[0].info.captures.len(), 7);
//! ```

pub mod help;
pub mod play;
pub mod pns;
pub mod search;
pub mod series;
pub mod set_play;
pub mod stipulation;
pub mod tree;
pub mod tries;
pub mod tt;

use crate::rules::{GamePosition, MoveInfo, Naming, VariantMove, VariantPosition, Visit};
/// The games searched (paths within this crate read `crate::rules::...`).
use baroque_rules as rules;
use search::{Goal, Searcher, Stopped};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub use stipulation::{Inapplicable, Stipulation, StipulationError, Target};
use tt::Table;

/// The largest N accepted.
pub const MAX_MATE_IN: u32 = 12;

/// What a search may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Positions visited, all threads together.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            nodes: 50_000_000,
            time: Duration::from_secs(10),
        }
    }
}

/// A flag another thread raises to stop work early: a client that went away, a cancelled job, a
/// server shutting down. Cloning shares the flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not raised yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }
    /// Raises the flag: work holding it stops at its next check. Answers whether it was raised
    /// before.
    pub fn cancel(&self) -> bool {
        self.0.swap(true, Ordering::Relaxed)
    }
    /// Whether the flag was raised.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    /// The flag itself, for code that waits on an `AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// Why a budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Exhausted {
    /// The node limit was passed.
    Nodes,
    /// The time limit was passed.
    Time,
    /// The work was cancelled (see [`Cancel`]).
    Cancelled,
}

/// A flag alone on its cache line, so that threads reading it on every node do not share a line
/// with the node counter that they add to.
#[repr(align(64))]
#[derive(Debug, Default)]
struct Line<T>(T);

/// The budget shared by the threads of one search: a node count, a deadline, a cancel flag and the
/// stop flag they raise.
///
/// How often each is looked at: the stop flag on every node and every unit of work between nodes
/// (move ordering, the solution tree's probes), the clock and the cancel flag every
/// [`search::CLOCK_EVERY`] of those, the node count every [`search::CHECK_EVERY`] nodes of a thread.
/// What a unit of work costs is bounded in every game (a move generation and a legality test of
/// each move), so the clock is read every few milliseconds at worst, whatever a node costs.
#[derive(Debug)]
pub struct Budget {
    limits: Limits,
    start: Instant,
    deadline: Option<Instant>,
    cancel: Cancel,
    nodes: AtomicU64,
    stopped: Line<AtomicBool>,
    /// Why it ran out: 0 not yet, else 1 + the [`Exhausted`] index.
    reason: AtomicU64,
    /// A budget this one's spending counts against too, which stops it when it runs out (a
    /// request's budget shared by the searches of its several puzzles).
    parent: Option<Arc<Budget>>,
}

impl Budget {
    pub fn new(limits: Limits) -> Budget {
        Budget::with_cancel(limits, Cancel::new())
    }

    /// A budget that also stops when `cancel` is raised.
    pub fn with_cancel(limits: Limits, cancel: Cancel) -> Budget {
        Budget::within(None, limits, cancel)
    }

    /// [`Budget::with_cancel`], whose nodes count against `parent` too and which stops when
    /// `parent` runs out (for the reason `parent` ran out).
    pub fn within(parent: Option<Arc<Budget>>, limits: Limits, cancel: Cancel) -> Budget {
        let start = Instant::now();
        Budget {
            limits,
            start,
            deadline: start.checked_add(limits.time),
            cancel,
            nodes: AtomicU64::new(0),
            stopped: Line(AtomicBool::new(false)),
            reason: AtomicU64::new(0),
            parent,
        }
    }

    /// Stops this budget when its parent has run out; whether it has.
    fn parent_out(&self) -> bool {
        match &self.parent {
            Some(p) if p.exhausted() => {
                self.stop(p.exhausted_by().unwrap_or(Exhausted::Nodes));
                true
            }
            _ => false,
        }
    }

    fn stop(&self, why: Exhausted) {
        let code = 1 + why as u64;
        let _ = self
            .reason
            .compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
        self.stopped.0.store(true, Ordering::Relaxed);
    }

    /// Adds `n` visited nodes and checks every limit; false once the budget has run out (then it
    /// stays out).
    pub fn spend(&self, n: u64) -> bool {
        if self.exhausted() {
            return false;
        }
        if let Some(p) = &self.parent {
            p.spend(n);
            if self.parent_out() {
                return false;
            }
        }
        let total = self.nodes.fetch_add(n, Ordering::Relaxed) + n;
        if total > self.limits.nodes {
            self.stop(Exhausted::Nodes);
            return false;
        }
        self.on_time()
    }

    /// Checks the clock and the cancel flag; false once the budget has run out.
    pub fn on_time(&self) -> bool {
        if self.exhausted() {
            return false;
        }
        if let Some(p) = &self.parent {
            p.on_time();
            if self.parent_out() {
                return false;
            }
        }
        if self.cancel.is_cancelled() {
            self.stop(Exhausted::Cancelled);
            return false;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop(Exhausted::Time);
            return false;
        }
        true
    }

    /// Whether the budget has run out (the stop flag alone: cheap enough for every node).
    #[inline]
    pub fn exhausted(&self) -> bool {
        self.stopped.0.load(Ordering::Relaxed)
    }

    /// Why the budget ran out, once it has.
    pub fn exhausted_by(&self) -> Option<Exhausted> {
        match self.reason.load(Ordering::Relaxed) {
            1 => Some(Exhausted::Nodes),
            2 => Some(Exhausted::Time),
            3 => Some(Exhausted::Cancelled),
            _ => None,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Settings of one solve.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// What to prove (`#N`).
    pub stipulation: Stipulation,
    pub limits: Limits,
    /// Transposition table size in MiB (0: no table).
    pub table_mib: usize,
    /// Threads for the root split (1: no parallelism).
    pub threads: usize,
    /// Most nodes (moves) in the solution tree; the tree says when it was cut.
    pub max_tree_nodes: usize,
    /// The intended key, if the puzzle names one (a move of the solved position's game): cooks are
    /// then the other keys.
    pub intended_key: Option<VariantMove>,
    /// Raised by another thread to stop the solve (it then answers what it proved so far).
    pub cancel: Cancel,
    /// Most refutations of a try (first moves refuted by more are not listed); 0: no tries.
    pub max_refutations: usize,
    /// What an earlier solve of the same position proved (see [`Proven`]): the solve starts from
    /// it instead of an empty table when the position, its rules and the stipulation match.
    pub proven: Option<Arc<Proven>>,
    /// A budget the solve's spending counts against too (see [`Budget::within`]): a request's
    /// budget shared by the solves of its several puzzles. `None`: the solve's own alone.
    pub within: Option<Arc<Budget>>,
}

/// The table of an earlier solve (a screening, see [`screen_proven`]), handed to one later solve
/// of the same position, rules and stipulation through [`SolveOptions::proven`].
///
/// Every entry of the table is a proven bound ("mates within n", "does not mate within n") of
/// some position for this stipulation's goal under these rules, whatever search stored it (a
/// search cut short stores nothing; the narrowed search of generation has a table of its own): a
/// solve that starts from it reaches the same answers (keys, tree, threats, tries) while no
/// budget runs out, with other node counts: fewer for the keys and the tree, sometimes more for
/// the tries, whose hints come from the first moves' searches that the table now spares. It is
/// used once (the first solve that matches takes it), and only by a solve whose table may be as
/// large ([`SolveOptions::table_mib`]).
pub struct Proven {
    variant: crate::rules::Variant,
    key: u64,
    stipulation: Stipulation,
    table: std::sync::Mutex<Option<Table>>,
}

impl Proven {
    /// The table, for a solve of `pos` for `stipulation`, if it was proven for them and is still
    /// there.
    fn take_for<P: GamePosition>(&self, pos: &P, stipulation: Stipulation) -> Option<Table> {
        if self.variant != pos.variant() || self.key != pos.key() || self.stipulation != stipulation
        {
            return None;
        }
        self.table.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

impl std::fmt::Debug for Proven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proven")
            .field("variant", &self.variant)
            .field("stipulation", &self.stipulation)
            .finish_non_exhaustive()
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            stipulation: Stipulation::Mate(2),
            limits: Limits::default(),
            table_mib: 64,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_tree_nodes: 2_000,
            intended_key: None,
            cancel: Cancel::new(),
            max_refutations: 1,
            proven: None,
            within: None,
        }
    }
}

/// The overall answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Some first move forces mate within N.
    Mate,
    /// No first move forces mate within N (proven).
    NoMate,
    /// The budget ran out before either was proven.
    Unknown,
}

/// A first move that forces mate, with its exact length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyMove<M> {
    pub mv: M,
    /// The number of attacker moves, this one included, of the forced mate.
    pub mate_in: u32,
}

/// A key, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedKey {
    #[serde(flatten)]
    pub info: MoveInfo,
    /// The number of attacker moves, this one included, of the forced mate.
    pub mate_in: u32,
}

/// The threat of a key: what the attacker would play next were the defender allowed to pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threat<M> {
    /// The key.
    pub key: M,
    /// Every attacker move that would reach the goal within the key's length less one after a
    /// pass; empty when the key gives check (no pass is legal) or needs one move.
    pub moves: Vec<M>,
    /// The length of each threat of `moves`, in its order: the attacker moves of its fastest
    /// way to the goal after the pass, this one included (1: it mates at once); `None` when the
    /// budget ran out before they were known.
    pub lengths: Option<Vec<u32>>,
}

/// A first move that is not a key and fails to at most the asked number of defences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Try<M> {
    pub mv: M,
    /// The defences that refute it, in canonical notation's order.
    pub refutations: Vec<M>,
}

/// A threat, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedThreat {
    pub key: MoveInfo,
    pub moves: Vec<MoveInfo>,
    /// The length of each of `moves` (see [`Threat::lengths`]).
    pub lengths: Option<Vec<u32>>,
}

impl NamedThreat {
    /// The threats of the shortest length, in their order (all of them when the lengths are not
    /// known).
    pub fn shortest(&self) -> Vec<MoveInfo> {
        let Some(lengths) = &self.lengths else {
            return self.moves.clone();
        };
        let least = lengths.iter().copied().min().unwrap_or(0);
        self.moves
            .iter()
            .zip(lengths)
            .filter(|(_, &k)| k == least)
            .map(|(m, _)| m.clone())
            .collect()
    }
}

/// A try, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedTry {
    #[serde(flatten)]
    pub info: MoveInfo,
    pub refutations: Vec<MoveInfo>,
}

/// What is known of each first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RootState {
    /// Forces mate in exactly this many moves.
    Mates(u32),
    /// Proven not to force mate within this many moves.
    NoMateWithin(u32),
}

/// A solve's report: moves, not names ([`Solution::named`] names them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    pub result: Outcome,
    /// The shortest forced mate found (when `result` is `mate`).
    pub mate_in: Option<u32>,
    /// Exactly one first move forces mate within N, and it needs all N moves. `None` when unknown.
    pub sound: Option<bool>,
    /// Every first move proven to force mate within N, shortest first (then in canonical
    /// notation's order).
    pub keys: Vec<KeyMove<M>>,
    /// Keys that needlessly duplicate the intended (or first) key: other first moves mating in N.
    pub cooks: Vec<KeyMove<M>>,
    /// Keys that mate in fewer than N moves.
    pub short_solutions: Vec<KeyMove<M>>,
    /// The solution tree of each key (see [`tree`]); empty for a selfmate (not built yet).
    pub tree: Vec<tree::AttackNode<M>>,
    /// Whether the tree was cut at its size limit or by the budget.
    pub tree_truncated: bool,
    /// The threat of each key, in the order of `keys` (a key whose threat the budget cut short
    /// has none).
    pub threats: Vec<Threat<M>>,
    /// The tries, in canonical notation's order.
    pub tries: Vec<Try<M>>,
    /// Whether the tries are incomplete: the budget ran out before every first move was settled.
    pub tries_truncated: bool,
    /// Nodes visited.
    pub nodes: u64,
    pub millis: u64,
    /// Whether the node or time budget ran out (or the solve was cancelled).
    pub budget_exhausted: bool,
    /// Which limit ran out, when one did.
    pub exhausted_by: Option<Exhausted>,
    /// How deep every first move was searched without a mate (the proven part of an unknown result).
    pub proven_no_mate_within: u32,
}

/// A solve's report, named in a caller's notation: what reports and the store show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedSolution {
    pub result: Outcome,
    pub mate_in: Option<u32>,
    pub sound: Option<bool>,
    pub keys: Vec<NamedKey>,
    pub cooks: Vec<NamedKey>,
    pub short_solutions: Vec<NamedKey>,
    pub tree: Vec<tree::NamedAttack>,
    pub tree_truncated: bool,
    pub threats: Vec<NamedThreat>,
    pub tries: Vec<NamedTry>,
    pub tries_truncated: bool,
    pub nodes: u64,
    pub millis: u64,
    pub budget_exhausted: bool,
    pub exhausted_by: Option<Exhausted>,
    pub proven_no_mate_within: u32,
}

impl<M: Copy> Solution<M> {
    /// The report in another move type (another game's forwarding type).
    pub fn map<N>(&self, f: impl Fn(&M) -> N) -> Solution<N> {
        let keys = |v: &[KeyMove<M>]| {
            v.iter()
                .map(|k| KeyMove {
                    mv: f(&k.mv),
                    mate_in: k.mate_in,
                })
                .collect()
        };
        Solution {
            result: self.result,
            mate_in: self.mate_in,
            sound: self.sound,
            keys: keys(&self.keys),
            cooks: keys(&self.cooks),
            short_solutions: keys(&self.short_solutions),
            tree: self.tree.iter().map(|n| n.map(&f)).collect(),
            tree_truncated: self.tree_truncated,
            threats: self
                .threats
                .iter()
                .map(|t| Threat {
                    key: f(&t.key),
                    moves: t.moves.iter().map(&f).collect(),
                    lengths: t.lengths.clone(),
                })
                .collect(),
            tries: self
                .tries
                .iter()
                .map(|t| Try {
                    mv: f(&t.mv),
                    refutations: t.refutations.iter().map(&f).collect(),
                })
                .collect(),
            tries_truncated: self.tries_truncated,
            nodes: self.nodes,
            millis: self.millis,
            budget_exhausted: self.budget_exhausted,
            exhausted_by: self.exhausted_by,
            proven_no_mate_within: self.proven_no_mate_within,
        }
    }

    /// The report named in `naming`; `pos` is the position that was solved.
    pub fn named<P: GamePosition<Move = M>>(&self, pos: &P, naming: Naming) -> NamedSolution {
        let keys = |v: &[KeyMove<M>]| {
            v.iter()
                .map(|k| NamedKey {
                    info: pos.move_info(&k.mv, naming),
                    mate_in: k.mate_in,
                })
                .collect()
        };
        NamedSolution {
            result: self.result,
            mate_in: self.mate_in,
            sound: self.sound,
            keys: keys(&self.keys),
            cooks: keys(&self.cooks),
            short_solutions: keys(&self.short_solutions),
            tree: self.tree.iter().map(|n| n.named(pos, naming)).collect(),
            tree_truncated: self.tree_truncated,
            threats: self
                .threats
                .iter()
                .map(|t| {
                    let after = pos.play(&t.key);
                    let null = after.null_move().unwrap_or(after);
                    NamedThreat {
                        key: pos.move_info(&t.key, naming),
                        moves: t.moves.iter().map(|m| null.move_info(m, naming)).collect(),
                        lengths: t.lengths.clone(),
                    }
                })
                .collect(),
            tries: self
                .tries
                .iter()
                .map(|t| {
                    let after = pos.play(&t.mv);
                    NamedTry {
                        info: pos.move_info(&t.mv, naming),
                        refutations: t
                            .refutations
                            .iter()
                            .map(|m| after.move_info(m, naming))
                            .collect(),
                    }
                })
                .collect(),
            tries_truncated: self.tries_truncated,
            nodes: self.nodes,
            millis: self.millis,
            budget_exhausted: self.budget_exhausted,
            exhausted_by: self.exhausted_by,
            proven_no_mate_within: self.proven_no_mate_within,
        }
    }
}

/// `run` on every item, by `threads` workers taking the next item as they finish one (root moves
/// differ widely in cost): the calling thread and `threads - 1` scoped helpers of its own, which
/// inherit its scheduling priority. A search's helpers never take up another search's work (as the
/// threads of a shared pool would while they wait), so each search keeps to its own budget. Each
/// worker keeps one state made by `init` for all its items (a searcher, whose killer moves carry
/// from one root move to the next). With one thread (or one item) the items are run in order on
/// the calling thread. The results come in any order.
fn in_parallel<S, T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    init: impl Fn() -> S + Sync,
    run: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    if threads <= 1 || items.len() <= 1 {
        let mut state = init();
        return items.iter().map(|item| run(&mut state, item)).collect();
    }
    let next = AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::with_capacity(items.len()));
    let work = || {
        let mut state = init();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(k) else { break };
            let r = run(&mut state, item);
            results.lock().unwrap_or_else(|e| e.into_inner()).push(r);
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.min(items.len()) {
            // A helper that cannot be started leaves its share to the others.
            let _ = std::thread::Builder::new()
                .name("search-helper".into())
                .spawn_scoped(scope, work);
        }
        work();
    });
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The table a search starts with, in MiB (unless it is handed one, [`Proven`]); it grows to
/// `table_mib` as the search does.
const START_TABLE_MIB: usize = 1;
/// The least factor by which an iteration of the deepening is expected to outgrow the one before.
const GROWTH: u64 = 16;

/// Solves a direct mate (`#N`) or a selfmate (`s#N`) for the side to move: keys, cooks, short
/// solutions, soundness and (for `#N`) the solution tree. A helpmate is [`help::solve_help`]'s.
pub fn solve<P: GamePosition>(pos: &P, opts: &SolveOptions) -> Solution<P::Move> {
    solve_with(pos, opts, false).0
}

/// The solution lines of a helpmate ([`help::solve_help`]) or a series mover
/// ([`series::solve_series`]), whichever `opts.stipulation` is.
pub fn solve_lines<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
) -> help::HelpSolution<P::Move> {
    if opts.stipulation.is_series() {
        series::solve_series(pos, opts, intended)
    } else {
        help::solve_help(pos, opts, intended)
    }
}

/// [`solve_lines`] for screening ([`help::screen_help`], [`series::screen_series`]).
pub fn screen_lines<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    intended: usize,
) -> help::HelpSolution<P::Move> {
    if opts.stipulation.is_series() {
        series::screen_series(pos, opts, intended)
    } else {
        help::screen_help(pos, opts, intended)
    }
}

/// [`solve_lines`] for a position of either game, run on its concrete type.
pub fn solve_lines_any(
    pos: &VariantPosition,
    opts: &SolveOptions,
    intended: usize,
) -> help::HelpSolution<VariantMove> {
    struct Run<'a>(&'a SolveOptions, usize);
    impl Visit for Run<'_> {
        type Output = help::HelpSolution<VariantMove>;
        fn visit<P: GamePosition>(self, p: &P) -> help::HelpSolution<VariantMove> {
            solve_lines(p, self.0, self.1).map(P::to_variant)
        }
    }
    pos.visit(Run(opts, intended))
}

/// [`solve`] for a position of either game, run on its concrete type (monomorphised), with the
/// answer's moves in the forwarding type.
pub fn solve_any(pos: &VariantPosition, opts: &SolveOptions) -> Solution<VariantMove> {
    struct Run<'a>(&'a SolveOptions);
    impl Visit for Run<'_> {
        type Output = Solution<VariantMove>;
        fn visit<P: GamePosition>(self, p: &P) -> Solution<VariantMove> {
            solve(p, self.0).map(P::to_variant)
        }
    }
    pos.visit(Run(opts))
}

/// Like [`solve`], but for screening candidate puzzles: the search stops as soon as a mate in
/// fewer than N moves is proven, or a second key of N moves (the puzzle is then unsound whatever
/// else holds: the first moves left are not searched), and the solution tree is built only for a
/// sound puzzle. What it answers is proven; it may leave out keys and
/// cooks of an unsound position (`sound` is then `Some(false)`).
pub fn screen<P: GamePosition>(pos: &P, opts: &SolveOptions) -> Solution<P::Move> {
    solve_with(pos, opts, true).0
}

/// [`screen`], with what it proved kept for a full solve of the same position (see [`Proven`]).
pub fn screen_proven<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
) -> (Solution<P::Move>, Arc<Proven>) {
    let (solution, table) = solve_with(pos, opts, true);
    let proven = Proven {
        variant: pos.variant(),
        key: pos.key(),
        stipulation: opts.stipulation,
        table: std::sync::Mutex::new(Some(table)),
    };
    (solution, Arc::new(proven))
}

/// Whether the side to move mates within the stipulation's N moves when its moves before the
/// last land near the defender's King, the first within `within` King steps (see
/// [`Searcher::focused`]), under `opts`' limits and cancel (one thread, a table of
/// [`FOCUSED_TABLE_ENTRIES`] at most), with the nodes it took.
///
/// A first move found here is the only key of a sound `#N`: any other key would be a cook, and
/// a mate shorter than N a short solution.
pub fn focused_mate<P: GamePosition>(
    pos: &P,
    within: u32,
    opts: &SolveOptions,
) -> (Narrowed<P::Move>, u64) {
    let budget = Budget::with_cancel(opts.limits, opts.cancel.clone());
    let table = if opts.table_mib == 0 {
        Table::new(0)
    } else {
        Table::with_room_for(FOCUSED_TABLE_ENTRIES)
    };
    let mut s = Searcher::<P>::new(&table, &budget)
        .focused(within)
        .aiming(opts.stipulation.target());
    let r = s.attack(pos, opts.stipulation.moves(), 0);
    let _ = s.flush();
    let answer = match (r, s.first_win) {
        (Ok(true), Some(m)) => Narrowed::Mate(m),
        // A win from the root is always by a move of its own list (the table starts empty).
        (Ok(_), _) => Narrowed::NoMate,
        (Err(Stopped), _) => Narrowed::Stopped,
    };
    (answer, s.nodes)
}

/// The entries of [`focused_mate`]'s table (256 KiB): a narrowed `#3` takes a few thousand nodes
/// (most candidates have no narrowed mate, so this is the table cleared most often).
pub const FOCUSED_TABLE_ENTRIES: usize = 1 << 14;

/// What a narrowed search ([`focused_mate`], [`help::focused_help`]) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Narrowed<M> {
    /// A mate: of [`focused_mate`], within N, starting with this move; of
    /// [`help::focused_help`], these solution lines (one at least).
    Mate(M),
    /// No mate of the narrowed search (one with moves farther from the King may exist).
    NoMate,
    /// The budget ran out first.
    Stopped,
}

/// The solve, and the table it leaves.
fn solve_with<P: GamePosition>(
    pos: &P,
    opts: &SolveOptions,
    screening: bool,
) -> (Solution<P::Move>, Table) {
    let budget = Budget::within(opts.within.clone(), opts.limits, opts.cancel.clone());
    let proven = opts
        .proven
        .as_ref()
        .and_then(|p| p.take_for(pos, opts.stipulation))
        .filter(|t| t.fits_in(opts.table_mib));
    let warm = proven.is_some();
    let mut table = proven.unwrap_or_else(|| Table::new(opts.table_mib.min(START_TABLE_MIB)));
    let mut roots = Vec::new();
    pos.search_moves(&mut roots);
    // The attacker's moves of the stipulation (`#N`, `s#N`: N).
    let mate_in = opts.stipulation.moves();
    let goal = Goal::of(opts.stipulation).unwrap_or(Goal::Mate);
    let target = goal.target();
    // Every first move counts (the tries among them). In a direct mate one that loses at once
    // fails without a search (see `search`'s doc); its refutations are the tries' to find.
    // In `r#N` a White that can mate at once must, and fails: every first move does.
    let bound_to_mate =
        goal.duty() == search::Duty::Both && roots.iter().any(|m| pos.play(m).lost());
    let doomed: Vec<bool> = roots
        .iter()
        .map(|m| bound_to_mate || (goal.drops_losing() && pos.loses_at_once(m)))
        .collect();
    let mut states: Vec<Option<RootState>> = doomed
        .iter()
        .map(|&d| d.then_some(RootState::NoMateWithin(mate_in)))
        .collect();
    // The defence that refuted each first move last (a hint for the tries: where to look first).
    let mut refuted_by: Vec<Option<P::Move>> = vec![None; roots.len()];
    let mut completed = 0;
    // Nodes of the search before this iteration, and of the iteration before the last.
    let (mut before, mut previous) = (0u64, 1u64);
    for n in 1..=mate_in {
        let open: Vec<usize> = (0..roots.len())
            .filter(|&i| !matches!(states[i], Some(RootState::Mates(_))))
            .filter(|&i| !doomed[i])
            .collect();
        // Screening: first moves that mate in this iteration, to stop at the second.
        let mating = AtomicUsize::new(0);
        let run = |s: &mut Searcher<P>, &i: &usize| {
            if screening && mating.load(Ordering::Relaxed) >= 2 {
                return (i, Err(Stopped), None);
            }
            let after = pos.play(&roots[i]);
            let before = s.nodes;
            let r = s
                .tick()
                .and_then(|_| s.after_attack(goal, &after, n - 1, 1));
            let _ = s.flush();
            if r == Ok(true) {
                mating.fetch_add(1, Ordering::Relaxed);
            }
            // The newest killer after a refuted first move: most often its refutation. Not when
            // a table proven before answered the move without a search: the killer is then
            // another first move's.
            let searched = !warm || s.nodes > before + 1;
            let refutation = if r == Ok(false) && searched {
                s.killers_at(1)[0]
            } else {
                None
            };
            (i, r, refutation)
        };
        let results = in_parallel(
            &open,
            opts.threads,
            || {
                Searcher::<P>::new(&table, &budget)
                    .aiming(target)
                    .bound(goal.duty())
            },
            run,
        );
        let mut stopped = false;
        for (i, r, refutation) in results {
            // (An earlier iteration's refutation stays when this one found none.)
            if refutation.is_some() {
                refuted_by[i] = refutation;
            }
            match r {
                Ok(true) => states[i] = Some(RootState::Mates(n)),
                Ok(false) => states[i] = Some(RootState::NoMateWithin(n)),
                Err(Stopped) => stopped = true,
            }
        }
        if stopped {
            break;
        }
        completed = n;
        if screening
            && n < mate_in
            && states
                .iter()
                .any(|s| matches!(s, Some(RootState::Mates(_))))
        {
            break;
        }
        if n < mate_in {
            // Room for the next iteration: it visits many times the nodes of the last one (at
            // least GROWTH times, or as many times more as the last grew over the one before).
            let seen = budget.nodes();
            let last = seen - before;
            let growth = (last / previous.max(1)).max(GROWTH);
            let want = seen.saturating_add(last.saturating_mul(growth));
            table.grow(usize::try_from(want).unwrap_or(usize::MAX), opts.table_mib);
            previous = last.max(1);
        }
        before = budget.nodes();
    }
    // Shortest first, then in the order of the canonical notation.
    let mut named: Vec<(String, KeyMove<P::Move>)> = roots
        .iter()
        .zip(&states)
        .filter_map(|(m, s)| match s {
            Some(RootState::Mates(k)) => Some((
                pos.move_name(m, Naming::default()),
                KeyMove {
                    mv: *m,
                    mate_in: *k,
                },
            )),
            _ => None,
        })
        .collect();
    named.sort_by(|(a_name, a), (b_name, b)| {
        a.mate_in.cmp(&b.mate_in).then_with(|| a_name.cmp(b_name))
    });
    let keys: Vec<KeyMove<P::Move>> = named.into_iter().map(|(_, k)| k).collect();
    let finished = completed == mate_in;
    let result = if !keys.is_empty() {
        Outcome::Mate
    } else if finished {
        Outcome::NoMate
    } else {
        Outcome::Unknown
    };
    let short_solutions: Vec<KeyMove<P::Move>> = keys
        .iter()
        .filter(|k| k.mate_in < mate_in)
        .cloned()
        .collect();
    let full: Vec<&KeyMove<P::Move>> = keys.iter().filter(|k| k.mate_in == mate_in).collect();
    let intended = opts
        .intended_key
        .as_ref()
        .and_then(P::from_variant)
        .and_then(|m| full.iter().position(|k| k.mv == m))
        .unwrap_or(0);
    let cooks: Vec<KeyMove<P::Move>> = full
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != intended)
        .map(|(_, k)| **k)
        .collect();
    let sound = if finished {
        Some(keys.len() == 1 && keys[0].mate_in == mate_in)
    } else {
        // Two keys, or a short one, settle unsoundness even without finishing.
        (keys.len() > 1 || !short_solutions.is_empty()).then_some(false)
    };
    let mut builder = tree::Builder::<P>::new(&table, &budget, opts.max_tree_nodes, goal);
    let tree: Vec<tree::AttackNode<P::Move>> = keys
        .iter()
        .filter(|_| !screening || sound == Some(true))
        .filter_map(|k| builder.attack_node(pos, &k.mv, k.mate_in))
        .collect();
    builder.finish();
    let tree_truncated = builder.truncated || tree.len() < keys.len();
    let threats = if screening {
        Vec::new()
    } else {
        let mut s = Searcher::<P>::new(&table, &budget)
            .aiming(target)
            .bound(goal.duty());
        // A key's tree holds its threat when it was built whole (the same moves, in the same
        // order: see `tree`); the others are searched.
        let threats = keys
            .iter()
            .map_while(|k| {
                let in_tree = tree
                    .iter()
                    .find(|node| node.mv == k.mv)
                    .and_then(|node| node.threat.clone());
                in_tree
                    .map(Ok)
                    .unwrap_or_else(|| tries::threat(&mut s, goal, pos, &k.mv, k.mate_in))
                    .ok()
                    .map(|moves| {
                        // Lengths the budget cut short are unknown; the threat stays.
                        let lengths =
                            tries::threat_lengths(&mut s, goal, pos, &k.mv, &moves, k.mate_in).ok();
                        Threat {
                            key: k.mv,
                            moves,
                            lengths,
                        }
                    })
            })
            .collect();
        let _ = s.flush();
        threats
    };
    let (tries, tries_truncated) = if screening || opts.max_refutations == 0 {
        (Vec::new(), false)
    } else {
        find_tries(
            pos,
            &roots,
            &states,
            &refuted_by,
            &table,
            &budget,
            goal,
            mate_in,
            opts,
        )
    };
    let solution = Solution {
        result,
        mate_in: keys.first().map(|k| k.mate_in),
        sound,
        keys,
        cooks,
        short_solutions,
        tree,
        tree_truncated,
        threats,
        tries,
        tries_truncated,
        nodes: budget.nodes(),
        millis: budget.elapsed().as_millis() as u64,
        budget_exhausted: budget.exhausted(),
        exhausted_by: budget.exhausted_by(),
        proven_no_mate_within: completed,
    };
    (solution, table)
}

/// The most frequent refutations (of the proof, and those found for the first moves settled so
/// far, tries or not) tried on each first move before its defences are generated (see
/// [`find_tries`]).
const HINTS: usize = 3;

/// Counts `moves` into `counts` (each move with how often it was met), most frequent first.
fn tally<'a, M: PartialEq + Copy + 'a>(
    counts: &mut Vec<(usize, M)>,
    moves: impl IntoIterator<Item = &'a M>,
) {
    for m in moves {
        match counts.iter_mut().find(|(_, f)| f == m) {
            Some((count, _)) => *count += 1,
            None => counts.push((1, *m)),
        }
    }
    counts.sort_by_key(|&(count, _)| std::cmp::Reverse(count));
}

/// The tries among the first moves proven not to reach `goal` within `n` moves, in canonical
/// notation's order, and whether some first move was left unsettled (by the search or by the
/// budget while looking for refutations).
#[allow(clippy::too_many_arguments)]
fn find_tries<P: GamePosition>(
    pos: &P,
    roots: &[P::Move],
    states: &[Option<RootState>],
    refuted_by: &[Option<P::Move>],
    table: &Table,
    budget: &Budget,
    goal: Goal,
    n: u32,
    opts: &SolveOptions,
) -> (Vec<Try<P::Move>>, bool) {
    let failing: Vec<usize> = (0..roots.len())
        .filter(|&i| states[i] == Some(RootState::NoMateWithin(n)))
        .collect();
    let mut unsettled = states.iter().any(Option::is_none);
    // The defences that refuted first moves in the proof, the most frequent first (each first
    // move's own refutation before them): what most likely refutes another first move.
    let mut frequent: Vec<(usize, P::Move)> = Vec::new();
    tally(&mut frequent, refuted_by.iter().flatten());
    // The refutations found so far for the first moves settled (tries or not), the most frequent
    // first: most first moves have more than `max_refutations` refutations, and to show it the
    // second (third, fourth) is needed, which the proof did not look for; it is most often one
    // that refuted the first moves settled before. (Shared by the threads: with more than one,
    // which first moves came before varies, so the work does; the answer does not, unless the
    // budget runs out, which then leaves other first moves unsettled.)
    let learned = std::sync::Mutex::new(frequent);
    let run = |s: &mut Searcher<P>, &i: &usize| -> Result<Option<Try<P::Move>>, Stopped> {
        let hints: Vec<P::Move> = {
            let learned = learned.lock().unwrap_or_else(|e| e.into_inner());
            refuted_by[i]
                .into_iter()
                .chain(learned.iter().take(HINTS).map(|&(_, m)| m))
                .collect()
        };
        let r = tries::refutations(s, goal, pos, &roots[i], &hints, n, opts.max_refutations);
        if let Ok(found) = &r {
            tally(
                &mut learned.lock().unwrap_or_else(|e| e.into_inner()),
                found,
            );
        }
        let _ = s.flush();
        let refutations = r?;
        let is_try = (1..=opts.max_refutations).contains(&refutations.len());
        Ok(is_try.then(|| Try {
            mv: roots[i],
            refutations,
        }))
    };
    let results = in_parallel(
        &failing,
        opts.threads,
        || {
            Searcher::<P>::new(table, budget)
                .aiming(goal.target())
                .bound(goal.duty())
        },
        run,
    );
    let mut tries = Vec::new();
    for r in results {
        match r {
            Ok(Some(t)) => tries.push(t),
            Ok(None) => {}
            Err(Stopped) => unsettled = true,
        }
    }
    let name = |m: &P::Move, p: &P| p.move_name(m, Naming::default());
    for t in &mut tries {
        let after = pos.play(&t.mv);
        t.refutations.sort_by_cached_key(|m| name(m, &after));
    }
    tries.sort_by_cached_key(|t| name(&t.mv, pos));
    (tries, unsettled)
}
