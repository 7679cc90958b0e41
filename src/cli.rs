//! The command line: `baroque <subcommand>`.

mod check;
mod extract;
mod formats;
mod generate;

pub use check::{CheckArgs, FormatArg, ReportArg};
pub use extract::ExtractArgs;
pub use formats::{ExportArgs, ExportFormat, ImportArgs, ImportFormat};

use crate::api::configuration::DEFAULT_ADDR;
use crate::rules::prelude::*;
use crate::rules::{perft, GameKind, GamePosition, Naming, Rules, Variant, Visit};
use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;

/// Prints a line to standard output, ignoring a closed pipe (as when piped into `head`).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}
pub(crate) use out;
use std::time::{Duration, Instant};

/// How `solve` names Rococo's squares.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CoordsArg {
    /// Files a-j, ranks 1-10.
    #[default]
    Standard,
    /// The chessvariants.com Rococo page's names.
    Page,
}

/// How `solve --text` writes pieces.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NotationArg {
    /// The game's piece letters.
    #[default]
    Letters,
    /// Unicode's chess figurines where it has them, letters elsewhere.
    Figurine,
}

/// What `solve` shows beside the form: the coordinates and, in `--text`, the lines of a list.
#[derive(Clone, Copy, Debug)]
struct Show {
    naming: Naming,
    max_solutions: usize,
}

/// How `solve` prints its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The line-per-field report.
    Report,
    /// One JSON document.
    Json,
    /// Problem notation (`--text`).
    Text(crate::puzzle::formats::text::Style),
}

/// Which game a position belongs to.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GameArg {
    /// Baroque chess (Ultima), 8x8.
    #[default]
    Baroque,
    /// Rococo, 10x10 with edge squares (rules options do not apply).
    Rococo,
}

/// Verifies positions and puzzles of Baroque chess (Ultima).
#[derive(Parser, Debug)]
#[command(name = "baroque", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Counts the leaf nodes of the legal-move tree (a move generator's signature).
    Perft {
        /// A FEN, or `startpos` for the start position.
        fen: String,
        /// Depth in plies.
        depth: u32,
        /// Rule set: a preset (abbott, cambridge, vchess), optionally with options, as in
        /// `abbott,leaper=single,suicide=on,stalemate=loss`.
        #[arg(long, default_value = "abbott")]
        rules: String,
        /// Show the count below each first move.
        #[arg(long)]
        divide: bool,
        /// Threads, splitting the work at the first move (the counts do not depend on it).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: u32,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        /// The game (`startpos` is then that game's start position).
        #[arg(long, value_enum, default_value_t = GameArg::Baroque)]
        game: GameArg,
    },
    /// Solves "mate in N" for the side to move: every key, cooks, short solutions, soundness and the
    /// solution tree; with `--stipulation`, a selfmate (`s#N`: keys, cooks, short solutions,
    /// soundness), a helpmate (`h#N`, `h#N.5`: every solution line) or any other stipulation of
    /// `/v1/solve` (stalemates, reflexmates, series movers: `ser-#N`, `ser-=N`, `ser-s#N`,
    /// `ser-h#N`, every solution line).
    Solve {
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
        /// With `--text`: the most lines shown of each list (solutions, short solutions, set
        /// play lines), as `/v1/solve`'s `max_solutions`; the text says how many it leaves out.
        #[arg(long, default_value_t = 100, requires = "text",
              value_parser = clap::value_parser!(u32).range(1..=10_000))]
        max_solutions: u32,
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
    },
    /// Verifies diagram case files (the format of fixtures/README.md) and the diagrams of rule
    /// documents (MediaWiki, HTML, Markdown, text boards): a line per case or diagram, exit 1 when
    /// one fails, 2 when an input cannot be used.
    Check(check::CheckArgs),
    /// Writes a case file skeleton for a document: one case per diagram, its FEN and the moves its
    /// caption names, for the author to complete (`--merge` keeps an existing case file's cases).
    Extract(extract::ExtractArgs),
    /// Generates sound puzzles of any stipulation (`#N` by default; `--stipulation` for the others)
    /// into a new named collection of the puzzle store, with a progress bar and a summary (exit 3
    /// when a limit stopped it before `--count` puzzles).
    Generate(generate::GenerateArgs),
    /// Reads puzzles from PGN or Lichess's puzzle CSV into a collection of the puzzle store, each
    /// verified by the solver like a posted puzzle: a line per game or row and a summary (exit 1
    /// when one was rejected, 2 when the input cannot be used).
    Import(formats::ImportArgs),
    /// Writes a collection of the puzzle store as JSON lines, PGN or Lichess's puzzle CSV.
    Export(formats::ExportArgs),
    /// Runs the HTTP service (endpoints under /v1, docs at /docs/, the OpenAPI document at
    /// /openapi.json). Every flag can also be set by its environment variable.
    Serve(crate::api::Settings),
    /// Prints the OpenAPI document the service serves (`baroque openapi > openapi/openapi.json`).
    Openapi,
    /// Asks a running service for GET /health and exits 0 when it answers 200 (the container
    /// health check; needs no curl).
    Health {
        /// The service's address; an unspecified host (`0.0.0.0`, `[::]`) means this machine.
        #[arg(long, env = "BAROQUE_ADDR", default_value = DEFAULT_ADDR, value_name = "HOST:PORT")]
        addr: String,
        /// Seconds to wait for the connection and for the answer.
        #[arg(long, default_value_t = 3)]
        timeout: u64,
    },
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    if !matches!(cli.command, Command::Serve(_)) {
        end_quietly_on_a_closed_pipe();
    }
    match cli.command {
        Command::Perft {
            fen,
            depth,
            rules,
            divide,
            threads,
            json,
            game,
        } => match variant_of(game, &rules) {
            Ok(variant) => run_perft(variant, &fen, depth, divide, threads as usize, json),
            Err(e) => fail(e),
        },
        Command::Check(args) => check::run(args),
        Command::Extract(args) => extract::run(args),
        Command::Solve {
            fen,
            n,
            stipulation,
            rules,
            nodes,
            millis,
            tt_mib,
            threads,
            max_tree,
            max_refutations,
            json,
            text,
            notation,
            max_solutions,
            coords,
            game,
            set_play,
            twin,
        } => {
            if coords == CoordsArg::Page && game != GameArg::Rococo {
                return fail("--coords page names Rococo's squares: give --game rococo");
            }
            let show = Show {
                naming: Naming::coords(match coords {
                    CoordsArg::Standard => crate::rules::rococo::Coords::Standard,
                    CoordsArg::Page => crate::rules::rococo::Coords::Page,
                }),
                max_solutions: max_solutions as usize,
            };
            use crate::solver::{Stipulation, StipulationError};
            let stipulation = match Stipulation::from_parts(n, stipulation.as_deref()) {
                Ok(s) => s,
                Err(StipulationError::Unreadable(t)) => {
                    return fail(format!(
                        "--stipulation {t:?}: write {} (such as #2, s#3, h#2, h#2.5, =2)",
                        crate::solver::Stipulation::FORMS
                    ))
                }
                Err(StipulationError::Disagree(n, s)) => {
                    return fail(format!(
                        "N {n} (#{n}) and --stipulation {s} disagree: give one"
                    ))
                }
                Err(StipulationError::Missing) => {
                    return fail("give N (mate in N) or --stipulation")
                }
            };
            let mut opts = crate::solver::SolveOptions {
                stipulation,
                limits: crate::solver::Limits {
                    nodes,
                    time: std::time::Duration::from_millis(millis),
                },
                table_mib: tt_mib,
                max_tree_nodes: max_tree,
                max_refutations: usize::from(max_refutations),
                ..Default::default()
            };
            if let Some(t) = threads {
                opts.threads = t;
            }
            let n = stipulation.moves();
            if n < stipulation.least_moves() || n > crate::solver::MAX_MATE_IN {
                return fail(format!(
                    "N must be between 1 and {}",
                    crate::solver::MAX_MATE_IN
                ));
            }
            if set_play && stipulation.is_series() {
                return fail(format!(
                    "--set-play does not apply to {stipulation}: a series mover has no other side \
                     to start"
                ));
            }
            match variant_of(game, &rules) {
                Ok(variant) => {
                    let mode = match (json, text) {
                        (true, _) => Mode::Json,
                        (false, true) => Mode::Text(crate::puzzle::formats::text::Style {
                            figurine: notation == NotationArg::Figurine,
                        }),
                        (false, false) => Mode::Report,
                    };
                    run_solve(variant, &fen, &opts, mode, show, set_play, &twin)
                }
                Err(e) => fail(e),
            }
        }
        Command::Serve(settings) => run_serve(settings),
        Command::Generate(args) => generate::run(args),
        Command::Import(args) => formats::run_import(args),
        Command::Export(args) => formats::run_export(args),
        Command::Openapi => {
            print!("{}", crate::api::openapi_json());
            ExitCode::SUCCESS
        }
        Command::Health { addr, timeout } => run_health(&addr, Duration::from_secs(timeout.max(1))),
    }
}

fn run_serve(settings: crate::api::Settings) -> ExitCode {
    crate::api::telemetry::init(settings.log_format);
    let app = match crate::api::Application::build(settings.clone()) {
        Ok(app) => app,
        Err(e) => return fail(format!("cannot start: {e}")),
    };
    let addr = app
        .local_addr()
        .map_or_else(|_| settings.addr.clone(), |a| a.to_string());
    let served = actix_web::rt::System::new().block_on(async move {
        // Signals are a graceful stop from here on, before anyone hears that the server listens.
        let stop = crate::api::startup::shutdown_signal();
        say_listening(&settings, &app, &addr);
        app.run_until(stop).await
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format!("the server stopped: {e}")),
    }
}

/// The start-up lines of `serve`: where it listens, and what its store holds.
fn say_listening(settings: &crate::api::Settings, app: &crate::api::Application, addr: &str) {
    tracing::info!(
        addr = %addr,
        max_body_bytes = settings.max_body_bytes,
        max_moves = settings.max_moves,
        "baroque {} listening on http://{addr} (docs at http://{addr}/docs/)",
        env!("CARGO_PKG_VERSION"),
    );
    let seeded = app.seeded();
    tracing::info!(
        db = %settings.db,
        seed = %settings.seed_source().map_or_else(|| "none (--no-seed)".to_string(), |f| f.to_string()),
        verified = seeded.verified,
        inserted = seeded.inserted,
        writes = if settings.write_token.as_deref().is_some_and(|t| !t.is_empty()) { "enabled" } else { "disabled (set BAROQUE_WRITE_TOKEN)" },
        "puzzle store opened and seeded"
    );
}

/// Lets a closed standard output end the process as Unix tools end (by SIGPIPE, with no message),
/// as when the output is piped into `head`: Rust ignores SIGPIPE, so every write would fail and
/// `println!` would panic. Not for `serve`, whose closed connections must not end it.
fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to its default at start-up, before any thread runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The address to connect to for a listening address: an unspecified host means loopback.
fn connect_addr(addr: &str) -> Result<SocketAddr, String> {
    let mut a = addr
        .to_socket_addrs()
        .map_err(|e| format!("{addr}: {e}"))?
        .next()
        .ok_or_else(|| format!("{addr} resolves to no address"))?;
    if a.ip().is_unspecified() {
        a.set_ip(match a.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        });
    }
    Ok(a)
}

fn run_health(addr: &str, timeout: Duration) -> ExitCode {
    match health_status(addr, timeout) {
        Ok((200, body)) => {
            out!("{}", body.trim());
            ExitCode::SUCCESS
        }
        Ok((status, body)) => {
            eprintln!("unhealthy: status {status}: {}", body.trim());
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("unhealthy: {e}");
            ExitCode::from(1)
        }
    }
}

/// GET /health over a plain TCP connection: the status code and the body.
fn health_status(addr: &str, timeout: Duration) -> Result<(u16, String), String> {
    let to = connect_addr(addr)?;
    let mut stream =
        TcpStream::connect_timeout(&to, timeout).map_err(|e| format!("connect to {to}: {e}"))?;
    let io = |e: std::io::Error| format!("{to}: {e}");
    stream.set_read_timeout(Some(timeout)).map_err(io)?;
    stream.set_write_timeout(Some(timeout)).map_err(io)?;
    write!(
        stream,
        "GET /health HTTP/1.1\r\nHost: {to}\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    )
    .map_err(io)?;
    let mut answer = Vec::new();
    stream
        .take(64 * 1024)
        .read_to_end(&mut answer)
        .map_err(io)?;
    let text = String::from_utf8_lossy(&answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| format!("{to} did not answer HTTP"))?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Ok((status, body.to_string()))
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn run_perft(
    variant: Variant,
    fen: &str,
    depth: u32,
    divide: bool,
    threads: usize,
    json: bool,
) -> ExitCode {
    let naming = Naming::default();
    let pos = if fen == "startpos" {
        variant.start()
    } else {
        match variant.position(fen, naming) {
            Ok((p, _)) => p,
            Err(e) => return fail(e),
        }
    };
    if depth > 12 {
        return fail("depth must be at most 12");
    }
    /// Perft on the concrete position: the count and, for a divide, each first move named with its
    /// count.
    struct Perft {
        depth: u32,
        divide: bool,
        threads: usize,
        naming: Naming,
    }
    impl Visit for Perft {
        type Output = (u64, Vec<(String, String, u64)>);
        fn visit<P: GamePosition>(self, pos: &P) -> Self::Output {
            if !self.divide {
                return (
                    perft::perft_threads(pos, self.depth, self.threads),
                    Vec::new(),
                );
            }
            let split: Vec<_> = perft::divide_threads(pos, self.depth, self.threads)
                .into_iter()
                .map(|(m, n)| {
                    (
                        pos.move_name(&m, self.naming),
                        pos.move_uci(&m, self.naming),
                        n,
                    )
                })
                .collect();
            (split.iter().map(|(_, _, n)| n).sum(), split)
        }
    }
    let start = Instant::now();
    let (nodes, split) = pos.visit(Perft {
        depth,
        divide,
        threads,
        naming,
    });
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    if json {
        let split: Vec<_> = split
            .iter()
            .map(|(m, uci, n)| serde_json::json!({"move": m, "uci": uci, "nodes": n}))
            .collect();
        let out = serde_json::json!({
            "game": variant.name(),
            "fen": pos.fen(naming),
            "rules": variant.rules().map(|r| r.to_string()),
            "depth": depth,
            "threads": threads,
            "nodes": nodes,
            "millis": (secs * 1000.0).round() as u64,
            "nodes_per_second": nps.round() as u64,
            "divide": split,
        });
        out!("{out}");
    } else {
        for (m, _, n) in &split {
            out!("{m} {n}");
        }
        out!("time {:.3} s, {:.0} nodes/s", secs, nps);
        out!("nodes {nodes}");
    }
    ExitCode::SUCCESS
}

/// The variant of a command: the game, under `rules` for a game with rule sets (`--rules` is
/// ignored for the others, whose rules are fixed).
fn variant_of(game: GameArg, rules: &str) -> Result<Variant, String> {
    let kind = GameKind::from(game);
    let rules = if Variant::has_rule_sets(kind) {
        Some(rules.parse::<Rules>()?)
    } else {
        None
    };
    Variant::of(kind, rules)
}

impl From<GameArg> for GameKind {
    fn from(g: GameArg) -> GameKind {
        match g {
            GameArg::Baroque => GameKind::Baroque,
            GameArg::Rococo => GameKind::Rococo,
        }
    }
}

/// Writes a line of text into a report being built.
macro_rules! w {
    ($o:expr, $($arg:tt)*) => {{
        use std::fmt::Write as _;
        let _ = writeln!($o, $($arg)*);
    }};
}

/// Solves the diagram and its twins (`--twin`): the diagram's report, then each twin's under its
/// label (`b) move e5 f6`, its FEN and stipulation); with `--json` one document whose `twins`
/// holds the twins' (each with `label`, `twin` and `fen`); with `--text` the problem notation's
/// blocks (`a) diagram`, `b) move e5 f6`, ...).
fn run_solve(
    variant: Variant,
    fen: &str,
    opts: &crate::solver::SolveOptions,
    mode: Mode,
    show: Show,
    set_play: bool,
    twins: &[String],
) -> ExitCode {
    let json = mode == Mode::Json;
    let naming = show.naming;
    let pos = match variant.position(fen, naming) {
        Ok((p, _)) => p,
        Err(e) => return fail(e),
    };
    let twins = match crate::puzzle::twins::derive(&pos, opts.stipulation, twins, naming) {
        Ok(t) => t,
        Err(e) => return fail(e),
    };
    for t in &twins {
        // The twin's stipulation sets its side to move: its length and Kings are checked.
        let checked = t
            .stipulation
            .check_length(crate::solver::MAX_MATE_IN)
            .and_then(|()| t.stipulation.check_kings(&t.position));
        if let Err(e) = checked {
            return fail(format!("twin {} `{}`: {e}", t.label, t.text));
        }
    }
    // The diagram, its set play and its twins share one budget: `--nodes` and `--millis` bound
    // the whole run.
    let shared = std::sync::Arc::new(crate::solver::Budget::within(
        opts.within.clone(),
        opts.limits,
        opts.cancel.clone(),
    ));
    let opts = &crate::solver::SolveOptions {
        within: Some(shared),
        ..opts.clone()
    };
    let mut o = String::new();
    let label = (!twins.is_empty()).then_some(crate::puzzle::formats::text::DIAGRAM_LABEL);
    let code = solve_one(&mut o, &pos, opts, mode, show, set_play, label);
    if code != ExitCode::SUCCESS {
        return code;
    }
    let mut docs = Vec::new();
    for t in &twins {
        let twin_opts = crate::solver::SolveOptions {
            stipulation: t.stipulation,
            intended_key: None,
            ..opts.clone()
        };
        let mut text = String::new();
        let label = Some((t.label.as_str(), t.notation.as_str()));
        // A twin that is a series mover has no set play.
        let set_play = set_play && !t.stipulation.is_series();
        let code = solve_one(
            &mut text,
            &t.position,
            &twin_opts,
            mode,
            show,
            set_play,
            label,
        );
        if code != ExitCode::SUCCESS {
            return code;
        }
        let fen = t.position.fen(naming);
        if let Mode::Text(_) = mode {
            o.push_str(&text);
        } else if json {
            let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
            doc["label"] = t.label.clone().into();
            doc["twin"] = t.text.clone().into();
            doc["notation"] = t.notation.clone().into();
            doc["fen"] = fen.into();
            doc["stipulation"] = t.stipulation.to_string().into();
            docs.push(doc);
        } else {
            w!(o, "{} {}", t.label, t.text);
            w!(o, "fen {fen}");
            w!(o, "stipulation {}", t.stipulation);
            o.push_str(&text);
        }
    }
    if json && !twins.is_empty() {
        let mut doc: serde_json::Value = serde_json::from_str(&o).unwrap_or_default();
        doc["twins"] = docs.into();
        o = format!("{doc}\n");
    }
    {
        use std::io::Write as _;
        let _ = std::io::stdout().lock().write_all(o.as_bytes());
    }
    ExitCode::SUCCESS
}

/// The report of one position (the diagram or a twin), written into `o`; `label` heads its
/// block in problem notation.
fn solve_one(
    o: &mut String,
    pos: &crate::rules::VariantPosition,
    opts: &crate::solver::SolveOptions,
    mode: Mode,
    show: Show,
    set_play: bool,
    label: Option<(&str, &str)>,
) -> ExitCode {
    let json = mode == Mode::Json;
    let pos = *pos;
    if let Err(e) = opts.stipulation.check_position(&pos) {
        return fail(e.to_string());
    }
    // The diagram first, then its set play (the order of /v1/solve, which matters when the
    // budget runs out); the set play is printed first, as problemists print it.
    use crate::puzzle::formats::text::{self, Found};
    let naming = show.naming;
    let found = Found::solve(&pos, opts, 1, naming);
    let set = set_play.then(|| crate::solver::set_play::set_play_any(&pos, opts, naming));
    if let Mode::Text(style) = mode {
        o.push_str(&text::block(
            &text::Block {
                label,
                position: &pos,
                naming,
                stipulation: opts.stipulation,
                found: &found,
                set_play: set.as_ref().map(Option::as_ref),
                shown: text::Shown::each(show.max_solutions),
            },
            style,
        ));
        return ExitCode::SUCCESS;
    }
    let set_json = set
        .as_ref()
        .map(|s| set_play_json(opts.stipulation, s.as_ref()));
    if let (Some(s), false) = (&set, json) {
        print_set_play(o, opts.stipulation, s.as_ref());
    }
    match found {
        Found::Lines(l) => print_help_solution(o, &l, json, set_json),
        Found::Tree(t) => {
            // The stipulation without its N before each length: `#`, `s#`, `=`, `s=`, `r#`.
            let text = opts.stipulation.to_string();
            let prefix = text.trim_end_matches(|c: char| c.is_ascii_digit());
            print_solution(o, &t, prefix, json, set_json)
        }
    }
}

/// The set play as JSON: the set position's FEN (null when there is none), the stipulation
/// played from it, Black's moves with their replies or the shortened helpmate's lines.
fn set_play_json(
    stipulation: crate::solver::Stipulation,
    s: Option<&crate::solver::set_play::NamedSetPlay>,
) -> serde_json::Value {
    let Some(s) = s else {
        return serde_json::json!({"fen": null, "stipulation": stipulation.to_string()});
    };
    let defences: Vec<serde_json::Value> = s
        .defences
        .iter()
        .map(|(b, replies)| {
            serde_json::json!({
                "notation": b.notation,
                "uci": b.uci,
                "replies": replies
                    .iter()
                    .map(|(w, k)| serde_json::json!({"notation": w.notation, "uci": w.uci, "mate_in": k}))
                    .collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "fen": s.fen,
        "stipulation": s.stipulation.to_string(),
        "defences": defences,
        "solutions": s.solutions,
        "count": s.count,
        "complete": s.complete,
    })
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
fn print_help_solution(
    o: &mut String,
    s: &crate::solver::help::NamedHelpSolution,
    json: bool,
    set_play: Option<serde_json::Value>,
) -> ExitCode {
    let line = |l: &[crate::rules::MoveInfo]| {
        l.iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if json {
        let lines = |v: &[Vec<crate::rules::MoveInfo>]| {
            v.iter()
                .map(|l| serde_json::to_value(l).unwrap_or_default())
                .collect::<Vec<_>>()
        };
        let mut doc = serde_json::json!({
            "stipulation": s.stipulation.to_string(),
            "solutions": lines(&s.solutions),
            "count": s.count,
            "short_solutions": lines(&s.short_solutions),
            "sound": s.sound,
            "complete": s.complete,
            "proven_no_solution_within": s.proven_no_solution_within,
            "nodes": s.nodes,
            "millis": s.millis,
            "budget_exhausted": s.budget_exhausted,
        });
        if let Some(set) = set_play {
            doc["set_play"] = set;
        }
        w!(o, "{doc}");
        return ExitCode::SUCCESS;
    }
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
    ExitCode::SUCCESS
}

/// Prints a direct mate's or a selfmate's report; `prefix` (`#`, `s#`) labels each key's length.
fn print_solution(
    o: &mut String,
    s: &crate::solver::NamedSolution,
    prefix: &str,
    json: bool,
    set_play: Option<serde_json::Value>,
) -> ExitCode {
    if json {
        let text = match set_play {
            None => serde_json::to_string(s),
            Some(set) => serde_json::to_value(s).map(|mut doc| {
                doc["set_play"] = set;
                doc.to_string()
            }),
        };
        match text {
            Ok(text) => w!(o, "{text}"),
            Err(e) => return fail(e),
        }
        return ExitCode::SUCCESS;
    }
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
    ExitCode::SUCCESS
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
