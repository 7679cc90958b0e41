//! The wire types of `POST /v1/solve`: its request and its answer, built from the use case's
//! [`SolveReport`] for the HTTP API and for `baroque solve --json`
//! alike.

use crate::api::common::{
    position_request, GameName, PositionView, ResolvedRules, SquarePiece, Warning,
};
use crate::app::solve::{AskedBudget, SolveInput, SolveReport, Solved};
use crate::rules::prelude::*;
use crate::rules::VariantMove;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

position_request! {
/// `POST /v1/solve`: a position and a stipulation (`#N`, "mate in N", by default).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({
    "fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
    "mate_in": 2,
    "rules": "abbott",
    "limits": {"nodes": 1_000_000, "millis": 2000},
    "key": "Xg6-e6-c6"
}), json!({
    "fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0",
    "mate_in": 1,
    "game": "rococo",
    "coords": "page",
    "key": "Ld3xd8"
}), json!({
    "fen": "8/8/8/8/1K6/1M1k4/8/8 b 0",
    "stipulation": "h#1"
}), json!({
    "fen": "8/8/8/6M1/6m1/3B1K2/8/4k3 w 0",
    "stipulation": "s#1"
})))]
pub struct SolveRequest {
    /// The position, as for `/v1/analyze`.
    #[schema(example = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0")]
    pub fen: String,
    /// N: the side to move must force checkmate with its Nth move at the latest (Rococo: force the
    /// capture of the enemy King: after its Nth move at the latest the defender has lost its King
    /// or has no move that keeps it). From 1 to the server's maximum (`--solve-max-mate-in`,
    /// default 8; 422 above).
    /// Leave it out when `stipulation` is given (both given: they must agree, 422 otherwise).
    #[schema(example = 2, minimum = 1, maximum = 12)]
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    pub mate_in: Option<u32>,
    /// The stipulation, as problemists write it: `#N` (the same as `mate_in: N`), `s#N`
    /// (selfmate: White, to move, forces Black to mate it within N moves), `h#N` (helpmate: Black
    /// starts, both sides cooperate, White's Nth move mates) or `h#N.5` (White starts, White's
    /// move N+1 mates); or the same with a stalemate for goal: `=N`, `s=N`, `h=N`, `h=N.5` (the
    /// side to be beaten is to move, its King not capturable, and has no legal move); or a
    /// reflexmate, `r#N` (`s#N` where a side that can mate in one must) or `semi-r#N` (Black
    /// only bound); or a series mover, where one side plays N moves in a row while the other
    /// passes, none but the last giving check: `ser-#N` (White's Nth mates), `ser-=N` (it
    /// stalemates), `ser-s#N` (after it every Black move mates White) or `ser-h#N` (Black plays
    /// the series, then White mates in one). The side to
    /// move must be the one the stipulation starts with (422 `stipulation-side`). N as for
    /// `mate_in` (`h#0.5` is White mating in one move). A helpmate's or series mover's answer is
    /// its solution lines (a series line holds the series' moves, the passes left out).
    #[serde(default)]
    #[schema(example = "h#2")]
    pub stipulation: Option<String>,
    /// For a helpmate: the number of solutions its composer intends (default 1); `sound` then
    /// means exactly this many solutions and no shorter helpmate.
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 1, minimum = 1, maximum = 1000)]
    pub intended_solutions: Option<u32>,
    @position_fields,
    /// The search budget; an absent member takes the server's maximum, a larger one is clamped to it.
    #[serde(default, deserialize_with = "crate::api::common::object_option")]
    pub limits: Option<SearchLimits>,
    /// The intended key, in any notation `/v1/verify` reads (`Xg6-e6-c6`, `Bg6xc6`, `g6c6`): the
    /// cooks are then the other first moves that mate in N. It must be a legal move (422 otherwise).
    #[serde(default)]
    #[schema(example = "Xg6-e6-c6")]
    pub key: Option<String>,
    /// Most moves in the solution trees of the answer, the diagram's and its twins' together,
    /// filled in that order (default and ceiling: the server's `--solve-max-tree-nodes`; a larger
    /// value is clamped to it). A tree cut by it says `tree_truncated`.
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 500, minimum = 1, maximum = 9_223_372_036_854_775_807_u64)]
    pub max_tree_nodes: Option<u64>,
    /// For `#N` and `s#N`: the most refutations a listed try may have (default 1, at most 3; 0
    /// lists none). A try with one refutation is what composers call a try.
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 1, minimum = 0, maximum = 3)]
    pub max_refutations: Option<u32>,
    /// For a helpmate or series mover: the most lines answered in `solutions`, and in
    /// `short_solutions` and the set play's `solutions`, for the diagram and each twin (default
    /// 100, at most 10,000). The whole answer holds at most 10,000 lines of 60,000 moves in all,
    /// its lists filled in
    /// its order: the diagram's `solutions`, `short_solutions` and set play, then each twin's.
    /// `count` still says how many solutions there are, and `solutions_truncated` that lines
    /// were left out.
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 100, minimum = 1, maximum = 10_000)]
    pub max_solutions: Option<u32>,
    /// Whether to answer the set play too (`set_play`): what would follow if the other side
    /// were to move first, the stipulation shortened by half a move. Not for series movers
    /// (422 `invalid-stipulation`; a twin that is one is answered without it). It does not
    /// change soundness.
    #[serde(default)]
    #[schema(example = false)]
    pub set_play: bool,
    /// Twins: positions derived from the diagram, each solved with the same stipulation (or the
    /// one it sets) and answered in order in `twins`, labelled `b)`, `c)`, ... (the diagram is
    /// `a)`). A twin is one or more commands separated by `;`: `move d4 e5`, `exchange d4 e5`,
    /// `remove d4`, `add wPa3` (colour, the game's FEN letter, square), `rotate 90|180|270`
    /// (clockwise as White sees the board), `mirror a1<->h1|a1<->a8|a1<->h8` (the game's
    /// corners), `shift a1 b2`, `polish` (colours swapped), `stipulation h#3`; one starting
    /// with `continued` applies to the previous twin. At most 25; one that cannot be made is
    /// 422 `invalid-twin`, with `twin` its label.
    #[serde(default)]
    #[schema(example = json!(["move e5 d4", "continued polish"]))]
    pub twins: Vec<String>,
    /// `json` (the default) or `text`: the solution as problem magazines print it (the key with
    /// `!`, the threat in parentheses, defences and replies, duals, tries with `?` and their
    /// refutations with `!`, set play first, numbered lines for helpmates and series movers,
    /// twins under `a)`, `b)`; docs/src/api/solving.md, "The solution in problem notation"), answered as
    /// `text/plain`. Without it, `Accept: text/plain` asks for the text too.
    #[serde(default)]
    pub format: Option<SolveFormat>,
    /// How the text answer writes pieces: `letters` (the game's, the default) or `figurine`
    /// (Unicode's chess figurines where it has them: ♔ King, ♕ Withdrawer, ♖ Coordinator,
    /// ♗ Chameleon, ♘ Long Leaper, ♙ Pawn and Cannon Pawn; letters for the others). The JSON
    /// answer keeps the letters.
    #[serde(default)]
    pub notation: Option<MoveNotation>,
}
}

/// The form of a solve's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "text")]
pub enum SolveFormat {
    /// The JSON document (`SolveResponse`).
    Json,
    /// The solution in problem notation, as `text/plain`.
    Text,
}

/// How the text answer writes pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "figurine")]
pub enum MoveNotation {
    /// The game's piece letters.
    Letters,
    /// Unicode's chess figurines where it has them, letters elsewhere.
    Figurine,
}

/// The solution lines of a helpmate answered by default (`max_solutions`).
pub const DEFAULT_MAX_SOLUTIONS: usize = 100;

/// A search budget: positions visited and wall-clock time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"nodes": 1_000_000, "millis": 2000})))]
pub struct SearchLimits {
    /// Positions visited, all threads together (at least 1; above the server's
    /// `--solve-max-nodes` it is clamped to it).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(
        example = 1_000_000,
        minimum = 1,
        maximum = 9_223_372_036_854_775_807_u64
    )]
    pub nodes: Option<u64>,
    /// Wall-clock milliseconds (at least 1; above the server's `--solve-max-millis` it is clamped
    /// to it). The answer comes within this time plus 200 ms or 10 %, whichever is more.
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 2000, minimum = 1, maximum = 9_223_372_036_854_775_807_u64)]
    pub millis: Option<u64>,
}

/// A limit of a search budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "time")]
pub enum BudgetLimit {
    /// The node limit (`limits.nodes`).
    Nodes,
    /// The time limit (`limits.millis`).
    Time,
    /// The search was stopped from outside (the client went away, the server is stopping).
    Cancelled,
}

impl From<crate::solver::Exhausted> for BudgetLimit {
    fn from(e: crate::solver::Exhausted) -> BudgetLimit {
        match e {
            crate::solver::Exhausted::Nodes => BudgetLimit::Nodes,
            crate::solver::Exhausted::Time => BudgetLimit::Time,
            crate::solver::Exhausted::Cancelled => BudgetLimit::Cancelled,
        }
    }
}

/// The budget a solve ran under, after clamping to the server's maxima.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"nodes": 1_000_000, "millis": 2000, "max_tree_nodes": 2000})))]
pub struct AppliedLimits {
    pub nodes: u64,
    pub millis: u64,
    pub max_tree_nodes: u64,
}

/// The overall answer of a solve. `mate` and `no_mate` say whether the stipulation's goal is
/// forced: a mate, or for `=N` and `s=N` a stalemate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "mate")]
pub enum SolveResult {
    /// Some first move forces mate within N (proven).
    Mate,
    /// No first move forces mate within N (proven).
    NoMate,
    /// The budget ran out before either was proven.
    Unknown,
}

impl From<crate::solver::Outcome> for SolveResult {
    fn from(o: crate::solver::Outcome) -> SolveResult {
        match o {
            crate::solver::Outcome::Mate => SolveResult::Mate,
            crate::solver::Outcome::NoMate => SolveResult::NoMate,
            crate::solver::Outcome::Unknown => SolveResult::Unknown,
        }
    }
}

/// A move of a solution: canonical notation, from and to squares, captures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"notation": "Kc4-d5", "uci": "c4d5", "captures": []})))]
pub struct SolutionMove {
    #[schema(example = "Kc4-d5")]
    pub notation: String,
    #[schema(example = "c4d5")]
    pub uci: String,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
}

impl From<&crate::rules::MoveInfo> for SolutionMove {
    fn from(m: &crate::rules::MoveInfo) -> SolutionMove {
        SolutionMove {
            notation: m.notation.clone(),
            uci: m.uci.clone(),
            captures: m.captures.iter().cloned().map(SquarePiece::from).collect(),
        }
    }
}

/// A first move that forces mate, with the length of its forced mate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::key_move))]
pub struct KeyMove {
    /// Canonical notation (the Chameleon's `Xg6-e6-c6` is `Bg6xc6`).
    #[schema(example = "Bg6xc6")]
    pub notation: String,
    #[schema(example = "g6c6")]
    pub uci: String,
    /// Attacker moves of the forced mate, this one included.
    #[schema(example = 2)]
    pub mate_in: u32,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
}

impl From<&crate::solver::NamedKey> for KeyMove {
    fn from(k: &crate::solver::NamedKey) -> KeyMove {
        let m = SolutionMove::from(&k.info);
        KeyMove {
            notation: m.notation,
            uci: m.uci,
            mate_in: k.mate_in,
            captures: m.captures,
        }
    }
}

/// An attacker move of the solution tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::attack_node))]
pub struct AttackNode {
    #[schema(example = "Bg6xc6")]
    pub notation: String,
    #[schema(example = "g6c6")]
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    /// The forced mate's length from here, this move included.
    pub mate_in: u32,
    /// Whether this move mates (checkmate, or a stalemate the rules count as a loss).
    pub mates: bool,
    /// The threat: attacker moves that would mate in time were the defender allowed to pass;
    /// absent when the defender is in check (passing is not legal then) or at the mating move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<Vec<SolutionMove>>,
    /// Every defence, with the attacker moves that still mate in time.
    pub defences: Vec<DefenceNode>,
}

/// A defender move of the solution tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::defence_node))]
pub struct DefenceNode {
    #[schema(example = "Kb7xc8")]
    pub notation: String,
    #[schema(example = "b7c8")]
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    /// This defence mates the attacker: in a selfmate, the goal reached (always false in a
    /// direct mate).
    pub mates: bool,
    /// More than one attacker move mates in time after this defence.
    pub dual: bool,
    /// The attacker moves that mate in time, each with its subtree.
    #[schema(no_recursion)]
    pub replies: Vec<AttackNode>,
}

impl From<&crate::solver::tree::NamedAttack> for AttackNode {
    fn from(n: &crate::solver::tree::NamedAttack) -> AttackNode {
        let m = SolutionMove::from(&n.info);
        AttackNode {
            notation: m.notation,
            uci: m.uci,
            captures: m.captures,
            mate_in: n.mate_in,
            mates: n.mates,
            threat: n
                .threat
                .as_ref()
                .map(|t| t.iter().map(SolutionMove::from).collect()),
            defences: n
                .defences
                .iter()
                .map(|d| {
                    let m = SolutionMove::from(&d.info);
                    DefenceNode {
                        notation: m.notation,
                        uci: m.uci,
                        captures: m.captures,
                        mates: d.mates,
                        dual: d.dual,
                        replies: d.replies.iter().map(AttackNode::from).collect(),
                    }
                })
                .collect(),
        }
    }
}

/// The threat of a key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::threat))]
pub struct Threat {
    /// The key.
    pub key: SolutionMove,
    /// Every attacker move that would reach the goal (mate; in a selfmate, being mated) within
    /// the key's length less one, were the defender allowed to pass after the key, each with its
    /// own length (`mate_in`: the text form prints only the shortest, as problemists do). Empty
    /// when the key gives check (no pass is legal then) or needs a single move.
    pub moves: Vec<ThreatMove>,
}

/// A threat of a key: the move, and its length.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"notation": "Bc6-c7", "uci": "c6c7", "captures": [], "mate_in": 1})))]
pub struct ThreatMove {
    #[schema(example = "Bc6-c7")]
    pub notation: String,
    #[schema(example = "c6c7")]
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    /// The attacker moves, this one included, of its fastest way to the goal after the pass
    /// (1: it mates at once); null when the budget ran out before it was known.
    #[schema(example = 1)]
    pub mate_in: Option<u32>,
}

/// A try: a first move that is not a key and fails to at most `max_refutations` defences.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::try_move))]
pub struct TryMove {
    #[schema(example = "Bg1-g8")]
    pub notation: String,
    #[schema(example = "g1g8")]
    pub uci: String,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
    /// The defences after which the attacker no longer reaches the goal in time, in canonical
    /// notation's order.
    pub refutations: Vec<SolutionMove>,
}

/// The intended key of a request, as the engine read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"notation": "Bg6xc6", "uci": "g6c6", "mate_in": 2})))]
pub struct IntendedKey {
    #[schema(example = "Bg6xc6")]
    pub notation: String,
    #[schema(example = "g6c6")]
    pub uci: String,
    /// The length of its forced mate when it is one of the `keys`; null when it is not (proven
    /// when `result` is not `unknown`).
    pub mate_in: Option<u32>,
}

/// `POST /v1/solve`: what is proven of the stipulation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(examples::solve_response, examples::solve_response_rococo))]
pub struct SolveResponse {
    pub game: GameName,
    /// The stipulation solved (`#2`, `s#3`, `h#2`, `h#2.5`, `=2`, `s=2`, `h=2`, `h=2.5`).
    #[schema(example = "#2")]
    pub stipulation: String,
    /// `mate`, `no_mate` (both proven) or `unknown` (the budget ran out first).
    pub result: SolveResult,
    /// The shortest forced mate found (null unless `result` is `mate`).
    #[schema(example = 2)]
    pub mate_in: Option<u32>,
    /// Exactly one first move forces mate within N, and it needs all N moves; null when the budget
    /// ran out before that was settled.
    pub sound: Option<bool>,
    /// Every first move proven to force mate within N, shortest first.
    pub keys: Vec<KeyMove>,
    /// First moves other than the intended key (or the first key) that also mate in exactly N.
    pub cooks: Vec<KeyMove>,
    /// `#N`, `s#N`: the keys that need fewer than N moves (each a `KeyMove`). `h#N`, `h#N.5`:
    /// every solution of a shorter helpmate of the same start, each a line of moves (an array of
    /// `SolutionMove`).
    #[schema(value_type = Vec<serde_json::Value>)]
    pub short_solutions: ShortSolutions,
    /// For a helpmate: every solution, each the line of moves from the position (Black's first
    /// for `h#N`), in the order of their notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<Vec<SolutionMove>>>,
    /// For a helpmate: the number of solutions (all counted, even when `solutions` keeps only the
    /// first `max_solutions`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// For a helpmate: whether `solutions` or `short_solutions` keep only the first lines of a
    /// length (`max_solutions`, default 100, and at most 10,000 lines or 60,000 moves in the
    /// whole answer, twins
    /// and set play included; the search keeps at most 10,000).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions_truncated: Option<bool>,
    /// For a helpmate: the helpmates of this start searched to the end without a solution, up to
    /// this N.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven_no_solution_within: Option<u32>,
    /// The solution tree of each key (empty for helpmates). In a selfmate, "mates" means "forces
    /// the defender to mate": after White's last move every defence is listed, each with
    /// `mates: true`.
    pub tree: Vec<AttackNode>,
    /// Whether the tree was cut at `max_tree_nodes` or by the budget. A cut tree may lack defences,
    /// replies and threats, and a `dual` of it may count only the replies found.
    pub tree_truncated: bool,
    /// For `#N` and `s#N`: the threat of each key, in the order of `keys` (a key whose threat the
    /// budget cut short is left out). Empty for helpmates.
    pub threats: Vec<Threat>,
    /// For `#N` and `s#N`: every first move that is not a key and fails to at most
    /// `max_refutations` defences, each with its refutations, in canonical notation's order.
    /// Empty for helpmates.
    pub tries: Vec<TryMove>,
    /// Whether `tries` may be incomplete: the budget ran out before every first move was settled.
    pub tries_truncated: bool,
    /// Positions visited.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub millis: u64,
    /// Whether the node or time budget ran out.
    pub budget_exhausted: bool,
    /// Which limit ran out first: `nodes` or `time` (null when none did; `cancelled` never reaches a
    /// client, whose search is stopped only once it has gone).
    pub budget_exhausted_by: Option<BudgetLimit>,
    /// Every first move is proven not to mate within this many moves unless it is a key (the
    /// proven part of an `unknown` result).
    pub proven_no_mate_within: u32,
    /// The request's `key`, as the engine read it (null when none was sent).
    pub intended_key: Option<IntendedKey>,
    /// The budget the search ran under.
    pub limits: AppliedLimits,
    /// The request members lowered to the server's maxima: `limits.nodes`, `limits.millis`,
    /// `max_tree_nodes`.
    pub clamped: Vec<String>,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    /// Remarks on the position (`no_king`, `too_many_pieces`).
    pub warnings: Vec<Warning>,
    /// The set play, when asked for (`"set_play": true`; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_play: Option<SetPlayView>,
    /// The twins asked for, in order, each with the fields of a solve of its position (absent
    /// when none was asked for).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(no_recursion)]
    pub twins: Vec<TwinAnswer>,
}

/// A twin's answer: its label, position and the fields of a solve of it (`stipulation` its own).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"label": "b)", "twin": "move e5 f6", "fen": "7k/8/5M2/8/8/8/8/K7 w 0",
    "game": "baroque", "stipulation": "=1", "result": "mate", "mate_in": 1, "sound": true,
    "keys": [{"notation": "Mf6-g7", "uci": "f6g7", "captures": [], "mate_in": 1}]})))]
pub struct TwinAnswer {
    /// `b)`, `c)`, ...
    #[schema(example = "b)")]
    pub label: String,
    /// The twin's commands, as sent.
    #[schema(example = "move e5 d4")]
    pub twin: String,
    /// The twin as problemists print it (and the text answer shows it): pieces named by colour
    /// and the game's letter (`wMe5-->d4`, `wKc6<-->bAe2`, `+wPa3`, `-bPa3`), the other commands
    /// as sent, several joined by `, `.
    #[schema(example = "wMe5-->d4")]
    pub notation: String,
    /// The twin's position.
    #[schema(example = "7k/8/8/8/3M4/8/8/K7 w 0")]
    pub fen: String,
    /// The answer of a solve of the twin.
    #[serde(flatten)]
    #[schema(no_recursion)]
    pub answer: SolveResponse,
}

/// The set play of a diagram: what would follow if the other side were to move first, the
/// stipulation shortened by half a move (under the request's budget, shared with the solve).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"fen": "7k/8/8/4M3/8/8/8/K7 b 1", "stipulation": "=2",
    "defences": [{"notation": "Kh8-g7", "uci": "h8g7", "captures": [],
                  "replies": [{"notation": "Me5-f6", "uci": "e5f6", "captures": [], "mate_in": 1}]}],
    "solutions": [], "count": 0, "complete": true})))]
pub struct SetPlayView {
    /// The diagram with the other side to move; null when there is no set play (the side to
    /// move is in check and cannot pass, or the stipulation is `h#0.5` or `h=0.5`).
    pub fen: Option<String>,
    /// The stipulation played from there: the same for `#N`, `s#N`, `r#N`, `=N`, `s=N`; for
    /// a helpmate the one half a move shorter with the other side starting (`h#1.5` for `h#2`,
    /// `h#2` for `h#2.5`).
    #[schema(example = "#2")]
    pub stipulation: String,
    /// For a forced stipulation: every Black move after which some White move fulfils the
    /// stipulation within White's N - 1 moves (the reply the first; in `#2` the set mates), in
    /// canonical order, with those White moves; none for N = 1.
    pub defences: Vec<SetDefence>,
    /// For a helpmate: the solutions of the shortened helpmate (at most `max_solutions`, and what
    /// the answer's 10,000 lines and 60,000 moves leave).
    pub solutions: Vec<Vec<SolutionMove>>,
    /// For a helpmate: how many solutions the shortened helpmate has.
    pub count: usize,
    /// Present (true) when `solutions` keeps only some of the lines found (`max_solutions`, or
    /// the answer's 10,000 lines and 60,000 moves in all).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub solutions_truncated: bool,
    /// Whether every move was settled (false: the budget ran out first, and the lists may lack
    /// some).
    pub complete: bool,
}

/// A Black move of the set play and its replies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"notation": "Kh8-g7", "uci": "h8g7", "captures": [],
    "replies": [{"notation": "Me5-f6", "uci": "e5f6", "captures": [], "mate_in": 1}]})))]
pub struct SetDefence {
    #[schema(example = "Kb7-a7")]
    pub notation: String,
    #[schema(example = "b7a7")]
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    /// The White moves that fulfil the stipulation after it, in canonical order.
    pub replies: Vec<SetReply>,
}

/// A White reply of the set play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"notation": "Me5-f6", "uci": "e5f6", "captures": [], "mate_in": 1})))]
pub struct SetReply {
    #[schema(example = "Bg6xc6")]
    pub notation: String,
    #[schema(example = "g6c6")]
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    /// The White moves the stipulation takes from the reply on (1: the reply mates, or, in a
    /// selfmate, leaves every Black move mating).
    #[schema(example = 1)]
    pub mate_in: u32,
}

impl SetPlayView {
    /// The view of a named set play (`None`: there is none) of `stipulation`.
    pub fn of(
        stipulation: crate::solver::Stipulation,
        s: Option<&crate::solver::set_play::NamedSetPlay>,
        max_solutions: usize,
    ) -> SetPlayView {
        let Some(s) = s else {
            return SetPlayView {
                fen: None,
                stipulation: stipulation.to_string(),
                defences: Vec::new(),
                solutions: Vec::new(),
                count: 0,
                solutions_truncated: false,
                complete: true,
            };
        };
        SetPlayView {
            fen: Some(s.fen.clone()),
            stipulation: s.stipulation.to_string(),
            defences: s
                .defences
                .iter()
                .map(|(b, replies)| {
                    let b = SolutionMove::from(b);
                    SetDefence {
                        notation: b.notation,
                        uci: b.uci,
                        captures: b.captures,
                        replies: replies
                            .iter()
                            .map(|(w, k)| {
                                let w = SolutionMove::from(w);
                                SetReply {
                                    notation: w.notation,
                                    uci: w.uci,
                                    captures: w.captures,
                                    mate_in: *k,
                                }
                            })
                            .collect(),
                    }
                })
                .collect(),
            solutions: s
                .solutions
                .iter()
                .take(max_solutions)
                .map(|l| l.iter().map(SolutionMove::from).collect())
                .collect(),
            count: s.count,
            solutions_truncated: s.solutions.len().max(s.count) > max_solutions,
            complete: s.complete,
        }
    }
}

/// `short_solutions`: keys of `#N` and `s#N`, lines of a helpmate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ShortSolutions {
    /// The keys that mate (or selfmate) in fewer than N moves.
    Keys(Vec<KeyMove>),
    /// The solutions of a shorter helpmate, each a line of moves.
    Lines(Vec<Vec<SolutionMove>>),
}

impl SolveRequest {
    /// The request, typed for the use case; `text` says whether the answer is asked in problem
    /// notation (the member `format`, or the edge's own way of asking).
    pub fn input(self, text: bool) -> SolveInput {
        let text = (text || self.format == Some(SolveFormat::Text)).then_some(
            crate::puzzle::formats::text::Style {
                figurine: self.notation == Some(MoveNotation::Figurine),
            },
        );
        let limits = self.limits.unwrap_or_default();
        SolveInput {
            position: self.position_input(),
            mate_in: self.mate_in,
            stipulation: self.stipulation,
            intended_solutions: self.intended_solutions,
            max_solutions: self.max_solutions,
            max_refutations: self.max_refutations,
            set_play: self.set_play,
            twins: self.twins,
            key: self.key,
            budget: AskedBudget {
                nodes: limits.nodes,
                millis: limits.millis,
                max_tree_nodes: self.max_tree_nodes,
            },
            text,
        }
    }
}

impl From<crate::app::solve::AppliedLimits> for AppliedLimits {
    fn from(l: crate::app::solve::AppliedLimits) -> AppliedLimits {
        AppliedLimits {
            nodes: l.nodes,
            millis: l.millis,
            max_tree_nodes: l.max_tree_nodes,
        }
    }
}

impl From<&SolveReport> for SolveResponse {
    /// The answer of a solve: the diagram's, its set play and its twins'.
    fn from(r: &SolveReport) -> SolveResponse {
        let mut response = match &r.solved {
            Solved::Lines(s) => SolveResponse::help(r, s),
            Solved::Tree(s) => SolveResponse::tree(r, s),
        };
        if let Some(set) = &r.set_play {
            response.set_play = Some(SetPlayView::of(r.stipulation, set.set.as_ref(), set.shown));
            if let Some(s) = set.set.as_ref().filter(|s| !s.complete) {
                response.budget_exhausted = true;
                response.budget_exhausted_by = s.exhausted_by.map(BudgetLimit::from);
            }
        }
        response.twins = r
            .twins
            .iter()
            .map(|t| TwinAnswer {
                label: t.twin.label.clone(),
                twin: t.twin.text.clone(),
                notation: t.twin.notation.clone(),
                fen: t.twin.position.fen(r.position.naming),
                answer: SolveResponse::from(&t.report),
            })
            .collect();
        response
    }
}

impl SolveResponse {
    /// The answer of a helpmate or series mover (its lines already cut to the answer's share).
    fn help(r: &SolveReport, s: &crate::solver::help::HelpSolution<VariantMove>) -> SolveResponse {
        let named = s.named(&r.position.position, r.position.naming);
        let lines = |v: &[Vec<crate::rules::MoveInfo>]| -> Vec<Vec<SolutionMove>> {
            v.iter()
                .map(|l| l.iter().map(SolutionMove::from).collect())
                .collect()
        };
        let result = if named.count > 0 {
            SolveResult::Mate
        } else if named.complete {
            SolveResult::NoMate
        } else {
            SolveResult::Unknown
        };
        SolveResponse {
            game: r.position.game(),
            stipulation: named.stipulation.to_string(),
            result,
            mate_in: (named.count > 0).then(|| named.stipulation.moves()),
            sound: named.sound,
            keys: Vec::new(),
            cooks: Vec::new(),
            short_solutions: ShortSolutions::Lines(lines(&named.short_solutions)),
            solutions: Some(lines(&named.solutions)),
            count: Some(named.count),
            solutions_truncated: Some(named.lines_truncated),
            proven_no_solution_within: Some(named.proven_no_solution_within),
            tree: Vec::new(),
            tree_truncated: false,
            threats: Vec::new(),
            tries: Vec::new(),
            tries_truncated: false,
            nodes: named.nodes,
            millis: named.millis,
            budget_exhausted: named.budget_exhausted,
            budget_exhausted_by: named.exhausted_by.map(BudgetLimit::from),
            proven_no_mate_within: 0,
            intended_key: None,
            limits: r.limits.into(),
            clamped: r.clamped.clone(),
            rules: r.position.rules(),
            warnings: r.position.wire_warnings(),
            set_play: None,
            twins: Vec::new(),
        }
    }

    /// The answer of a stipulation solved as a tree of keys.
    fn tree(r: &SolveReport, s: &crate::solver::Solution<VariantMove>) -> SolveResponse {
        let pos = &r.position.position;
        let naming = r.position.naming;
        let named = s.named(pos, naming);
        let intended_key = r.intended_key.map(|mv| {
            let info = pos.move_info(&mv, naming);
            IntendedKey {
                notation: info.notation,
                uci: info.uci,
                mate_in: s.keys.iter().find(|k| k.mv == mv).map(|k| k.mate_in),
            }
        });
        let keys = |v: &[crate::solver::NamedKey]| v.iter().map(KeyMove::from).collect();
        SolveResponse {
            game: r.position.game(),
            stipulation: r.stipulation.to_string(),
            result: named.result.into(),
            mate_in: named.mate_in,
            sound: named.sound,
            keys: keys(&named.keys),
            cooks: keys(&named.cooks),
            short_solutions: ShortSolutions::Keys(keys(&named.short_solutions)),
            solutions: None,
            count: None,
            solutions_truncated: None,
            proven_no_solution_within: None,
            tree: named.tree.iter().map(AttackNode::from).collect(),
            tree_truncated: named.tree_truncated,
            threats: named
                .threats
                .iter()
                .map(|t| Threat {
                    key: SolutionMove::from(&t.key),
                    moves: t
                        .moves
                        .iter()
                        .enumerate()
                        .map(|(i, m)| {
                            let m = SolutionMove::from(m);
                            ThreatMove {
                                notation: m.notation,
                                uci: m.uci,
                                captures: m.captures,
                                mate_in: t.lengths.as_ref().and_then(|l| l.get(i).copied()),
                            }
                        })
                        .collect(),
                })
                .collect(),
            tries: named
                .tries
                .iter()
                .map(|t| {
                    let m = SolutionMove::from(&t.info);
                    TryMove {
                        notation: m.notation,
                        uci: m.uci,
                        captures: m.captures,
                        refutations: t.refutations.iter().map(SolutionMove::from).collect(),
                    }
                })
                .collect(),
            tries_truncated: named.tries_truncated,
            nodes: named.nodes,
            millis: named.millis,
            budget_exhausted: named.budget_exhausted,
            budget_exhausted_by: named.exhausted_by.map(BudgetLimit::from),
            proven_no_mate_within: named.proven_no_mate_within,
            intended_key,
            limits: r.limits.into(),
            clamped: r.clamped.clone(),
            rules: r.position.rules(),
            warnings: r.position.wire_warnings(),
            set_play: None,
            twins: Vec::new(),
        }
    }
}

/// Examples for the OpenAPI document, computed by the engine (see [`crate::api::common::examples`]).
pub mod examples {
    #[allow(unused_imports)]
    use super::*;
    #[allow(unused_imports)]
    use crate::api::common::examples::*;
    use crate::api::problem::ApiError;
    #[allow(unused_imports)]
    use crate::rules::rococo::Coords;
    #[allow(unused_imports)]
    use crate::rules::{Preset, Rules};
    use serde_json::Value;

    /// The Wikipedia Chameleon diagram: `Xg6-e6-c6` (`Bg6xc6`) captures seven pieces, the only key
    /// of a mate in 2.
    pub const CHAMELEON_FEN: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";

    /// `POST /v1/solve` of [`CHAMELEON_FEN`], mate in 2, with the intended key `Xg6-e6-c6`; one
    /// thread, so the node count is the same every time, and `millis` fixed at 12 (it varies).
    pub fn solve_response() -> Value {
        solve(super::SolveRequest {
            mate_in: Some(2),
            key: Some("Xg6-e6-c6".into()),
            ..request(CHAMELEON_FEN)
        })
    }

    /// `POST /v1/solve` of [`ROCOCO_MATE_FEN`], mate in 1, in page coordinates with the key
    /// `Ld3xd8`.
    pub fn solve_response_rococo() -> Value {
        solve(super::SolveRequest {
            mate_in: Some(1),
            game: Some(crate::api::common::GameName::Rococo),
            coords: Some(crate::api::common::CoordsName::Page),
            key: Some("Ld3xd8".into()),
            ..request(ROCOCO_MATE_FEN)
        })
    }

    /// A request of `fen` with every other member left out.
    fn request(fen: &str) -> super::SolveRequest {
        super::SolveRequest {
            fen: fen.into(),
            mate_in: None,
            stipulation: None,
            intended_solutions: None,
            rules: None,
            game: None,
            coords: None,
            limits: None,
            key: None,
            max_tree_nodes: None,
            max_refutations: None,
            max_solutions: None,
            set_play: false,
            twins: Vec::new(),
            format: None,
            notation: None,
        }
    }

    /// A request read under the server's default maxima, on one thread (so the node count is
    /// the same every time), and run.
    fn run(request: super::SolveRequest) -> Result<SolveReport, ApiError> {
        let settings = crate::api::Settings {
            solve_threads: Some(1),
            solve_table_mib: 1,
            ..crate::api::Settings::default()
        };
        let query = crate::app::solve::SolveQuery::parse(
            request.input(false),
            &crate::app::solve::SolveLimits::from(&settings),
        )?;
        Ok(crate::app::solve::run(&query))
    }

    /// A solve's JSON answer, `millis` fixed at 12.
    fn solve(request: super::SolveRequest) -> Value {
        match run(request) {
            Ok(report) => {
                let mut v = value(SolveResponse::from(&report));
                v["millis"] = Value::from(12);
                v
            }
            Err(e) => value(e.problem()),
        }
    }

    /// The text answer of a `=1` with a twin: the problem notation of docs/src/api/solving.md.
    pub fn solve_text() -> String {
        let request = super::SolveRequest {
            stipulation: Some("=1".into()),
            twins: vec!["move e5 f6".into()],
            format: Some(super::SolveFormat::Text),
            ..request("7k/8/8/4M3/8/8/8/K7 w 0")
        };
        match run(request) {
            Ok(report) => report.text.unwrap_or_default(),
            Err(e) => e.to_string(),
        }
    }

    /// The key `Bg6xc6` of the Chameleon diagram.
    pub fn key_move() -> Value {
        solve_response()["keys"][0].clone()
    }

    /// The tree below the key `Bg6xc6`.
    pub fn attack_node() -> Value {
        solve_response()["tree"][0].clone()
    }

    /// The threat of the key `Bg6xc6`.
    pub fn threat() -> Value {
        solve_response()["threats"][0].clone()
    }

    /// A generated mate in 2 with one try, `Bg1-g8`, refuted by `Kh7xh6` alone.
    pub const TRY_FEN: &str = "N7/5N1k/3r3R/8/7P/1K6/8/6B1 w 0";

    /// The try of [`TRY_FEN`].
    pub fn try_move() -> Value {
        solve(super::SolveRequest {
            mate_in: Some(2),
            ..request(TRY_FEN)
        })["tries"][0]
            .clone()
    }

    /// The only defence to `Bg6xc6`, `Kb7xc8`, answered by two mates (a dual).
    pub fn defence_node() -> Value {
        attack_node()["defences"][0].clone()
    }
}
