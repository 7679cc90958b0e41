//! `baroque solve`: the flags read into the app's solve request ([`crate::app::solve`]), run, and
//! printed: the JSON `/v1/solve` answers (`--json`), problem notation (`--text`), or a line per
//! field.

use super::{fail, CoordsArg, GameArg, NotationArg};
use crate::api::wire::solve::SolveResponse;
use crate::app::position::PositionInput;
use crate::app::solve::{
    AskedBudget, SolveError, SolveInput, SolveLimits, SolveQuery, SolveReport, Solved,
    ANSWER_MAX_LINES, DEFAULT_MAX_SOLUTIONS,
};
use crate::rules::prelude::*;
use crate::rules::{GameKind, Rules, Variant};
use crate::solver::StipulationError;
use std::process::ExitCode;

/// Writes a line into a `String`.
macro_rules! w {
    ($o:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($o, $($arg)*);
    }};
}

/// `baroque solve`'s flags.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// A FEN.
    fen: String,
    /// N: the attacker's moves to mate in (`#N`); leave it out with `--stipulation`.
    n: Option<u32>,
    /// The stipulation, as problemists write it: `#N` (direct mate, the default with N),
    /// `s#N` (selfmate: White forces Black to mate), `h#N` (helpmate: Black starts, White's
    /// Nth move mates), `h#N.5` (White starts), `=N`, `s=N`, `h=N`, `h=N.5`, `r#N`,
    /// `semi-r#N`, or a series mover: `ser-#N`, `ser-=N`, `ser-s#N` (White plays) or
    /// `ser-h#N` (Black plays, then White mates). The side to move must be the one the
    /// stipulation starts with.
    #[arg(long, value_name = "STIPULATION")]
    stipulation: Option<String>,
    /// Rule set, as for perft.
    #[arg(long, default_value = "abbott")]
    rules: String,
    /// Node budget.
    #[arg(long, default_value_t = 50_000_000)]
    nodes: u64,
    /// Time budget in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    millis: u64,
    /// Transposition table size in MiB (0: none).
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
    /// Search threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Most moves in the printed solution tree.
    #[arg(long, default_value_t = 2000)]
    max_tree: usize,
    /// For `#N` and `s#N`: the most refutations of a listed try (0: no tries; at most 3).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=3))]
    max_refutations: u8,
    /// The game. For Rococo, mate in N means that after the Nth move the defender cannot keep
    /// its King.
    #[arg(long, value_enum, default_value_t = GameArg::Baroque)]
    game: GameArg,
    /// Print JSON instead of text.
    #[arg(long, conflicts_with = "text")]
    json: bool,
    /// Print the solution as problem magazines print it (the book's "The solution in
    /// problem notation", docs/src/api/solving.md): the key with `!`, the threat in parentheses, defences and replies,
    /// duals, tries with `?` and their refutations with `!`, numbered lines.
    #[arg(long)]
    text: bool,
    /// How `--text` writes pieces: `letters` (the game's) or `figurine` (Unicode's chess
    /// figurines where it has them).
    #[arg(long, value_enum, default_value_t = NotationArg::Letters, requires = "text")]
    notation: NotationArg,
    /// The most lines answered of each list (solutions, short solutions, set play lines), as
    /// `/v1/solve`'s `max_solutions`: 100 by default with `--json` and `--text` (the text says
    /// how many it leaves out), every line the search keeps otherwise.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    max_solutions: Option<u32>,
    /// How Rococo squares are named, in the FEN, the twins and the answer: `standard` (files
    /// a-j, ranks 1-10) or `page` (the chessvariants.com page's x, a-h, y and 0, 1-8, 00).
    #[arg(long, value_enum, default_value_t = CoordsArg::Standard)]
    coords: CoordsArg,
    /// Also print the set play: what would follow if the other side were to move first, the
    /// stipulation shortened by half a move (not for series movers).
    #[arg(long)]
    set_play: bool,
    /// A twin, solved after the diagram and labelled `b)`, `c)`, ... in order (repeat the
    /// flag for more): commands separated by `;` (`move d4 e5`, `exchange d4 e5`, `remove
    /// d4`, `add wPa3`, `rotate 90`, `mirror a1<->h1`, `shift a1 b2`, `polish`,
    /// `stipulation h#3`), `continued` first to start from the previous twin.
    #[arg(long, value_name = "COMMANDS")]
    twin: Vec<String>,
}

/// Solves the diagram and its twins (`--twin`) within one budget (`--nodes`, `--millis`): with
/// `--json` the answer of `/v1/solve` for the same request; with `--text` the problem notation
/// (the twins under `a)`, `b)`, ...); otherwise the diagram's report, then each twin's under its
/// label (`b) move e5 f6`, its FEN and stipulation).
pub fn run(a: SolveArgs) -> ExitCode {
    if a.coords == CoordsArg::Page && a.game != GameArg::Rococo {
        return fail("--coords page names Rococo's squares: give --game rococo");
    }
    let kind = GameKind::from(a.game);
    let rules = if Variant::has_rule_sets(kind) {
        match a.rules.parse::<Rules>() {
            Ok(r) => Some(r),
            Err(e) => return fail(e),
        }
    } else {
        None
    };
    let max = SolveLimits {
        max_nodes: a.nodes,
        max_millis: a.millis,
        max_mate_in: crate::solver::MAX_MATE_IN,
        max_tree_nodes: a.max_tree,
        table_mib: a.tt_mib,
        threads: a
            .threads
            .unwrap_or_else(|| crate::solver::SolveOptions::default().threads),
        concurrency: 1,
    };
    let shown = if a.json || a.text {
        DEFAULT_MAX_SOLUTIONS
    } else {
        ANSWER_MAX_LINES
    };
    let input = SolveInput {
        position: PositionInput {
            fen: a.fen,
            game: kind,
            coords: Some(match a.coords {
                CoordsArg::Standard => crate::rules::rococo::Coords::Standard,
                CoordsArg::Page => crate::rules::rococo::Coords::Page,
            }),
            rules,
        },
        mate_in: a.n,
        stipulation: a.stipulation,
        intended_solutions: None,
        max_solutions: Some(a.max_solutions.unwrap_or(shown as u32)),
        max_refutations: Some(u32::from(a.max_refutations)),
        set_play: a.set_play,
        twins: a.twin,
        key: None,
        budget: AskedBudget::default(),
        text: a.text.then_some(crate::puzzle::formats::text::Style {
            figurine: a.notation == NotationArg::Figurine,
        }),
    };
    let query = match SolveQuery::parse(input, &max) {
        Ok(q) => q,
        Err(e) => return fail(message(e)),
    };
    let report = crate::app::solve::run(&query);
    let o = if a.json {
        match serde_json::to_string(&SolveResponse::from(&report)) {
            Ok(json) => json + "\n",
            Err(e) => return fail(e),
        }
    } else if let Some(text) = &report.text {
        text.clone()
    } else {
        let mut o = String::new();
        print_report(&mut o, &report);
        for t in &report.twins {
            w!(o, "{} {}", t.twin.label, t.twin.text);
            w!(o, "fen {}", t.twin.position.fen(report.position.naming));
            w!(o, "stipulation {}", t.twin.stipulation);
            print_report(&mut o, &t.report);
        }
        o
    };
    {
        use std::io::Write as _;
        let _ = std::io::stdout().lock().write_all(o.as_bytes());
    }
    ExitCode::SUCCESS
}

/// A refused request in the command line's words (its flags for the request's members).
fn message(e: SolveError) -> String {
    match e {
        SolveError::Stipulation(StipulationError::Unreadable(t)) => format!(
            "--stipulation {t:?}: write {} (such as #2, s#3, h#2, h#2.5, =2)",
            crate::solver::Stipulation::FORMS
        ),
        SolveError::Stipulation(StipulationError::Disagree(n, s)) => {
            format!("N {n} (#{n}) and --stipulation {s} disagree: give one")
        }
        SolveError::Stipulation(StipulationError::Missing) => {
            "give N (mate in N) or --stipulation".into()
        }
        SolveError::SetPlayOfSeries(s) => {
            format!("--set-play does not apply to {s}: a series mover has no other side to start")
        }
        SolveError::Request(e) => e.to_string(),
    }
}

/// The report of one position (the diagram or a twin): its set play first, as problemists
/// print it, then its solution.
fn print_report(o: &mut String, r: &SolveReport) {
    let (pos, naming) = (&r.position.position, r.position.naming);
    if let Some(set) = &r.set_play {
        print_set_play(o, r.stipulation, set.set.as_ref());
    }
    match &r.solved {
        Solved::Lines(l) => print_help_solution(o, &l.named(pos, naming)),
        Solved::Tree(t) => {
            // The stipulation without its N before each length: `#`, `s#`, `=`, `s=`, `r#`.
            let text = r.stipulation.to_string();
            let prefix = text.trim_end_matches(|c: char| c.is_ascii_digit());
            print_solution(o, &t.named(pos, naming), prefix)
        }
    }
}

/// Prints the set play: each Black move with its replies (`Kb7-a7: Bg6xc6 (#1)`), or the
/// shortened helpmate's lines.
fn print_set_play(
    o: &mut String,
    stipulation: crate::solver::Stipulation,
    s: Option<&crate::solver::set_play::NamedSetPlay>,
) {
    let Some(s) = s else {
        w!(o, "set play none");
        return;
    };
    let text = stipulation.to_string();
    let prefix = text.trim_end_matches(|c: char| c.is_ascii_digit());
    if stipulation.is_help() {
        w!(o, "set play {} {}", s.stipulation, s.count);
        for l in &s.solutions {
            let names: Vec<&str> = l.iter().map(|m| m.notation.as_str()).collect();
            w!(o, "  {}", names.join(" "));
        }
    } else {
        w!(o, "set play {}", s.defences.len());
        for (b, replies) in &s.defences {
            let names: Vec<String> = replies
                .iter()
                .map(|(w, k)| format!("{} ({prefix}{k})", w.notation))
                .collect();
            w!(o, "  {}: {}", b.notation, names.join(", "));
        }
    }
    if !s.complete {
        w!(o, "set play cut short by the budget");
    }
}

/// Prints a helpmate's solutions: a line each, then the shorter ones, soundness and the counts.
fn print_help_solution(o: &mut String, s: &crate::solver::help::NamedHelpSolution) {
    let line = |l: &[crate::rules::MoveInfo]| {
        l.iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    w!(o, "stipulation {}", s.stipulation);
    w!(o, "solutions {}", s.count);
    for l in &s.solutions {
        w!(o, "  {}", line(l));
    }
    w!(o, "short_solutions {}", s.short_solutions.len());
    for l in &s.short_solutions {
        w!(o, "  {}", line(l));
    }
    w!(
        o,
        "sound {}",
        s.sound.map_or("unknown".to_string(), |b| b.to_string())
    );
    if !s.complete {
        w!(o, "budget ran out: the lists may be incomplete");
    }
    w!(o, "nodes {} millis {}", s.nodes, s.millis);
}

/// Prints a direct mate's or a selfmate's report; `prefix` (`#`, `s#`) labels each key's length.
fn print_solution(o: &mut String, s: &crate::solver::NamedSolution, prefix: &str) {
    let names = |v: &[crate::solver::NamedKey]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|k| format!("{} ({prefix}{})", k.info.notation, k.mate_in))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    w!(
        o,
        "result {}",
        serde_json::to_value(s.result)
            .unwrap_or_default()
            .as_str()
            .unwrap_or("")
    );
    if let Some(m) = s.mate_in {
        w!(o, "mate_in {m}");
    }
    w!(
        o,
        "sound {}",
        s.sound.map_or("unknown".to_string(), |b| b.to_string())
    );
    w!(o, "keys {}", names(&s.keys));
    w!(o, "cooks {}", names(&s.cooks));
    w!(o, "short_solutions {}", names(&s.short_solutions));
    let moves = |v: &[crate::rules::MoveInfo]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.iter()
                .map(|m| m.notation.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    for t in &s.threats {
        w!(o, "threat of {}: {}", t.key.notation, moves(&t.moves));
    }
    w!(
        o,
        "tries {}",
        if s.tries.is_empty() {
            "none".to_string()
        } else {
            s.tries
                .iter()
                .map(|t| format!("{}? {}!", t.info.notation, moves(&t.refutations)))
                .collect::<Vec<_>>()
                .join("; ")
        }
    );
    if s.tries_truncated {
        w!(o, "(tries incomplete: the budget ran out)");
    }
    // The goal a tree's last moves reach: `mate`, or `stalemate` for `=N` and `s=N`.
    let goal = if prefix.ends_with('=') {
        "stalemate"
    } else {
        "mate"
    };
    for node in &s.tree {
        print_tree(o, node, 0, goal);
    }
    if s.tree_truncated {
        w!(o, "(tree cut at its size or budget limit)");
    }
    if s.budget_exhausted {
        w!(
            o,
            "budget ran out: no mate within {} proven for every first move",
            s.proven_no_mate_within
        );
    }
    w!(o, "nodes {} millis {}", s.nodes, s.millis);
}

fn print_tree(o: &mut String, node: &crate::solver::tree::NamedAttack, depth: usize, goal: &str) {
    let pad = "  ".repeat(depth * 2);
    if node.mates {
        w!(o, "{pad}{} {goal}", node.info.notation);
    } else {
        w!(o, "{pad}{}", node.info.notation);
    }
    if let Some(threat) = &node.threat {
        let t: Vec<&str> = threat.iter().map(|m| m.notation.as_str()).collect();
        w!(
            o,
            "{pad}  (threat: {})",
            if t.is_empty() {
                "none".into()
            } else {
                t.join(", ")
            }
        );
    }
    for d in &node.defences {
        let dual = if d.dual { " (dual)" } else { "" };
        if d.mates {
            w!(o, "{pad}  ... {} {goal}{dual}", d.info.notation);
        } else {
            w!(o, "{pad}  ... {}{dual}", d.info.notation);
        }
        for r in &d.replies {
            print_tree(o, r, depth + 1, goal);
        }
    }
}
