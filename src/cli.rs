//! The command line: `baroque <subcommand>`.

mod check;
mod extract;
mod formats;
mod generate;
mod solve;

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
    Solve(solve::SolveArgs),
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
        Command::Solve(args) => solve::run(args),
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
