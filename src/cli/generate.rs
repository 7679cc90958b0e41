//! `baroque generate`: fills a named collection of the puzzle store with sound puzzles of a
//! stipulation.

use super::{fail, GameArg};
use crate::app::collections::CollectionError;
use crate::app::library::Database;
use crate::app::Library;
use crate::generate::{GenerateOptions, Progress, Stop};
use crate::solver::{Cancel, Limits, SolveOptions};
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The flags of `baroque generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// The game. For Rococo, mate in N means forcing the capture of the King, candidates are placed
    /// on the inner board, and `--rules` does not apply.
    #[arg(long, value_enum, default_value_t = GameArg::Baroque)]
    pub game: GameArg,
    /// Rule set, as for perft (Baroque only).
    #[arg(long, default_value = "abbott")]
    pub rules: String,
    /// N of "mate in N" (`#N`; default 2 unless `--stipulation` is given).
    #[arg(long)]
    pub mate_in: Option<u32>,
    /// The stipulation of the puzzles: `#N` (as `--mate-in N`), `s#N`, `h#N`, `h#N.5`, `=N`,
    /// `s=N`, `h=N`, `h=N.5`, `r#N`, `semi-r#N`, `ser-#N`, `ser-=N`, `ser-s#N` or `ser-h#N`.
    /// Candidates have the side to move the stipulation starts with; a helpmate is sound with
    /// exactly one solution and no shorter helpmate.
    #[arg(long, value_name = "STIPULATION")]
    pub stipulation: Option<String>,
    /// Puzzles wanted.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// The collection to create (1 to 64 letters, digits, `-`, `_`, `.`); it must not exist yet.
    #[arg(long)]
    pub collection: String,
    /// Seed of the random candidates: the same seed and flags make the same collection. Default:
    /// from the clock (printed, and stored with the collection). At most 2^63 - 1, as over HTTP.
    #[arg(long, value_parser = clap::value_parser!(u64).range(..=i64::MAX as u64))]
    pub seed: Option<u64>,
    /// Most pieces on the board, Kings included (3 to 32).
    #[arg(long, default_value_t = 10)]
    pub max_pieces: usize,
    /// Allow positions where the side to move starts in check.
    #[arg(long)]
    pub allow_check: bool,
    /// The largest share of the puzzles whose key piece is of one kind: a fraction (0.4) or a
    /// percentage (40%); never exceeded, in collections of 10 puzzles or more (below 10 there
    /// is no limit). The key piece makes the key (a helpmate: the mating move). Default 0.4 for
    /// `#N`, none (1) for every other stipulation.
    #[arg(long, value_name = "SHARE", value_parser = crate::generate::parse_share)]
    pub max_key_share: Option<f64>,
    /// Pieces besides its King the defender (the side that answers the key; in a helpmate the
    /// side mated) keeps in at least --min-defenders-share of the puzzles (0: no such rule).
    /// Default for `#N` 2, or max-pieces − 3 when that is less; 0 for every other stipulation.
    #[arg(long)]
    pub min_defenders: Option<usize>,
    /// The share of the puzzles whose defender keeps --min-defenders pieces: a fraction (0.8) or
    /// a percentage (80%).
    #[arg(long, value_name = "SHARE", value_parser = crate::generate::parse_share)]
    pub min_defenders_share: Option<f64>,
    /// For `#N`, `=N` and the help stipulations (`h#N`, `h#N.5`, `h=N`, `h=N.5`): screen fully only
    /// the candidates mated (or stalemated) by a search whose moves before the last land near the
    /// King mated (or stalemated), the first within this many King steps and the later ones within
    /// one more (0: screen every candidate fully, so that puzzles whose solution plays far from the
    /// King are found too, at a fraction of the speed). Selfmates, selfstalemates, reflexmates and
    /// series movers are always screened fully.
    #[arg(long, value_name = "STEPS", default_value_t = crate::generate::DEFAULT_FOCUS)]
    pub focus: u32,
    /// The solver's node budget for one candidate (a candidate it cannot settle is dropped).
    #[arg(long, default_value_t = 2_000_000)]
    pub candidate_nodes: u64,
    /// The solver's time limit for one candidate, in milliseconds: a safety net above what the node
    /// budget takes (a run where it bites may not be reproduced by its seed).
    #[arg(long, default_value_t = 10_000)]
    pub candidate_millis: u64,
    /// Stop after this many candidates.
    #[arg(long, default_value_t = 10_000_000)]
    pub max_candidates: u64,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 3_600)]
    pub max_seconds: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The puzzle store: a SQLite file (created when missing) or a `postgres://` URL (TLS options
    /// in the URL: `sslmode`, `sslrootcert`, `sslcert`, `sslkey`).
    #[arg(long, env = "BAROQUE_DB", default_value = crate::api::configuration::DEFAULT_DB, value_name = "PATH|URL", value_parser = crate::api::configuration::DatabaseParser)]
    pub db: Database,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `name count, ...`, most first (then by name); `none` when empty.
fn by_count(counts: &std::collections::BTreeMap<String, u64>) -> String {
    let mut v: Vec<(&String, &u64)> = counts.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    if v.is_empty() {
        return "none".into();
    }
    v.iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `baroque generate`: exit 0 when the collection got every puzzle asked for, 3 when a limit
/// stopped the run first (what was found is stored), 2 on an error.
pub fn run(args: GenerateArgs) -> ExitCode {
    let variant = match super::variant_of(args.game, &args.rules) {
        Ok(v) => v,
        Err(e) => return fail(e),
    };
    let seed = args.seed.unwrap_or_else(crate::generate::clock_seed);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    use crate::solver::{Stipulation, StipulationError};
    let stipulation = match Stipulation::from_parts(args.mate_in, args.stipulation.as_deref()) {
        Ok(s) => s,
        Err(StipulationError::Missing) => Stipulation::Mate(2),
        Err(StipulationError::Unreadable(t)) => {
            return fail(format!(
                "--stipulation {t:?}: write {} (such as #2, s#3, h#2, h#2.5, =2)",
                Stipulation::FORMS
            ))
        }
        Err(StipulationError::Disagree(n, s)) => {
            return fail(format!(
                "--mate-in {n} (#{n}) and --stipulation {s} disagree: give one"
            ))
        }
    };
    let opts = GenerateOptions {
        variant,
        stipulation,
        count: args.count,
        seed,
        max_pieces: args.max_pieces,
        allow_check: args.allow_check,
        candidate_limits: Limits {
            nodes: args.candidate_nodes,
            time: Duration::from_millis(args.candidate_millis),
        },
        max_candidates: args.max_candidates,
        max_time: Duration::from_secs(args.max_seconds),
        threads,
        variety: {
            let d = crate::generate::Variety::defaults(stipulation, args.max_pieces);
            crate::generate::Variety {
                max_key_share: args.max_key_share.unwrap_or(d.max_key_share),
                min_defenders: args.min_defenders.unwrap_or(d.min_defenders),
                min_defenders_share: args.min_defenders_share.unwrap_or(d.min_defenders_share),
            }
        },
        focus: args.focus,
        steer_epoch: crate::generate::STEER_EPOCH,
    };
    if let Err(e) = opts.validate() {
        return fail(e);
    }
    let library = match Library::open(&args.db) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.db)),
    };
    // Mate rows of an older store get their difficulty, as at a server's start-up.
    if let Err(e) = library.fill_difficulties() {
        return fail(format!("{}: {e}", args.db));
    }
    // The full solve that confirms each puzzle before it is stored.
    let solve = SolveOptions {
        stipulation,
        limits: Limits {
            nodes: args.candidate_nodes.saturating_mul(10),
            time: Duration::from_millis(args.candidate_millis.saturating_mul(10)),
        },
        table_mib: 64,
        threads,
        max_tree_nodes: 2_000,
        intended_key: None,
        cancel: Default::default(),
        // Generation does not look for tries (they are for the solve of a single puzzle).
        max_refutations: 0,
        proven: None,
        within: None,
    };
    let bar = ProgressBar::new(args.count as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} puzzles  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let show = |p: &Progress| {
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        bar.set_position(p.found);
        bar.set_message(format!(
            "{} candidates ({:.0}/s), {} duplicates, {} unsettled",
            p.tried,
            p.tried as f64 / secs,
            p.duplicates,
            p.unsettled
        ));
    };
    // Ctrl-C (or SIGTERM) stops the run after the candidate being screened: what was found stays
    // stored and the collection is marked `stopped`. A second one ends the process at once.
    let cancel = Cancel::new();
    {
        let cancel = cancel.clone();
        let _ = ctrlc::set_handler(move || {
            if cancel.cancel() {
                std::process::exit(130);
            }
        });
    }
    let result = library.generate(&args.collection, &opts, &solve, &cancel, |p, _| {
        show(p);
        true
    });
    bar.finish_and_clear();
    let run = match result {
        Ok(run) => run,
        Err(CollectionError::Store(e)) => return fail(format!("{}: {e}", args.db)),
        Err(e) => return fail(e),
    };
    let secs = started.elapsed().as_secs_f64();
    let per_minute = run.stored as f64 * 60.0 / secs.max(1e-3);
    if args.json {
        super::out!(
            "{}",
            serde_json::json!({
                "collection": args.collection,
                "seed": seed,
                "stored": run.stored,
                "puzzle_ids": run.puzzle_ids,
                "progress": run.progress,
                "stop": run.stop,
                "variety": run.distributions.variety,
                "key_pieces": run.distributions.key_pieces,
                "themes": run.distributions.themes,
                "difficulty": run.distributions.difficulty,
                "focus": run.distributions.focus,
                "seconds": secs,
                "puzzles_per_minute": per_minute,
            })
        );
    } else {
        let p = &run.progress;
        super::out!(
            "collection {}: {} of {} puzzles ({}, {}), seed {seed}",
            args.collection,
            run.stored,
            args.count,
            match stipulation {
                Stipulation::Mate(n) => format!("mate in {n}"),
                other => other.to_string(),
            },
            variant
                .rules()
                .map_or_else(|| variant.name().to_string(), |r| r.to_string())
        );
        super::out!(
            "{} candidates in {secs:.1} s: {} sound, {} near-duplicates dropped, {} unsettled by the budget, {} passed over for variety; {per_minute:.1} puzzles/min",
            p.tried,
            p.found,
            p.duplicates,
            p.unsettled,
            p.varied
        );
        super::out!(
            "puzzle ids: {}",
            run.puzzle_ids
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let d = &run.distributions;
        super::out!(
            "key pieces: {} (at most {} of a kind)",
            by_count(&d.key_pieces),
            d.variety.key_cap
        );
        if d.variety.min_defenders > 0 {
            super::out!(
                "defenders: {} of {} keep at least {} pieces besides the King (at least {}% asked)",
                d.variety.defenders_kept,
                run.stored,
                d.variety.min_defenders,
                (d.variety.min_defenders_share * 100.0).round()
            );
        }
        let diff = &d.difficulty;
        let number = |v: Option<u8>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        super::out!(
            "difficulty: min {}, median {}, max {} ({})",
            number(diff.min),
            number(diff.median),
            number(diff.max),
            diff.buckets
                .iter()
                .map(|(b, n)| format!("{b}: {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        super::out!("themes: {}", by_count(&d.themes));
    }
    match run.stop {
        Stop::Done => ExitCode::SUCCESS,
        stop => {
            eprintln!(
                "stopped before {} puzzles: {}",
                args.count,
                match stop {
                    Stop::CandidateLimit => "the candidate limit (--max-candidates) was reached",
                    Stop::TimeLimit => "the time limit (--max-seconds) was reached",
                    _ => "interrupted",
                }
            );
            ExitCode::from(3)
        }
    }
}
