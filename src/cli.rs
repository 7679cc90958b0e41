//! The command line: `baroque <subcommand>`.

use crate::api::configuration::DEFAULT_ADDR;
use crate::rules::{perft, Letters, Position, Rules};
use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::{Duration, Instant};

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
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Verifies files of diagram cases (the format of fixtures/README.md): a line per case, and a
    /// non-zero exit when any case fails.
    Check {
        /// Case files, or directories whose `*.json` files are case files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Print one JSON object per case instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Runs the HTTP service (endpoints under /v1, docs at /docs/, the OpenAPI document at
    /// /openapi.json). Every flag can also be set by its environment variable.
    Serve(crate::api::Settings),
    /// Prints the OpenAPI document the service serves (`baroque openapi > openapi/openapi.json`).
    Openapi,
    /// Asks a running service for GET /health and exits 0 when it answers 200 (the container
    /// health check; needs no curl).
    Health {
        /// The service's address; an unspecified host (0.0.0.0, [::]) means this machine.
        #[arg(long, env = "BAROQUE_ADDR", default_value = DEFAULT_ADDR, value_name = "HOST:PORT")]
        addr: String,
        /// Seconds to wait for the connection and for the answer.
        #[arg(long, default_value_t = 3)]
        timeout: u64,
    },
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command {
        Command::Perft {
            fen,
            depth,
            rules,
            divide,
            json,
        } => run_perft(&fen, depth, &rules, divide, json),
        Command::Check { files, json } => run_check(&files, json),
        Command::Serve(settings) => run_serve(settings),
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
        Err(e) => return fail(format!("cannot listen on {}: {e}", settings.addr)),
    };
    let addr = app
        .local_addr()
        .map_or_else(|_| settings.addr.clone(), |a| a.to_string());
    tracing::info!(
        addr = %addr,
        max_body_bytes = settings.max_body_bytes,
        max_moves = settings.max_moves,
        "baroque {} listening on http://{addr} (docs at http://{addr}/docs/)",
        env!("CARGO_PKG_VERSION"),
    );
    tracing::info!(
        db = %settings.db.display(),
        "puzzle store path; not opened yet: the store arrives with the store endpoints"
    );
    match actix_web::rt::System::new().block_on(app.run_until_stopped()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(format!("the server stopped: {e}")),
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
            println!("{}", body.trim());
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

fn run_check(paths: &[std::path::PathBuf], json: bool) -> ExitCode {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            match crate::cases::files_in(p) {
                Ok(v) => files.extend(v),
                Err(e) => return fail(e),
            }
        } else {
            files.push(p.clone());
        }
    }
    let (mut passed, mut failed, mut unreadable) = (0, 0, 0);
    for path in &files {
        let file = match crate::cases::read_file(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: {e}");
                unreadable += 1;
                continue;
            }
        };
        for case in &file.cases {
            let outcome = case.verify(file.game);
            if json {
                println!(
                    "{}",
                    serde_json::json!({"file": path.display().to_string(), "id": outcome.id, "ok": outcome.ok(), "problems": outcome.problems, "last_move": outcome.last_move})
                );
            } else if outcome.ok() {
                println!("ok   {}", case.id);
            } else {
                println!("FAIL {}: {}", case.id, outcome.problems.join("; "));
            }
            if outcome.ok() {
                passed += 1;
            } else {
                failed += 1;
            }
        }
    }
    if !json {
        println!("{passed} passed, {failed} failed");
    }
    if failed > 0 || unreadable > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn run_perft(fen: &str, depth: u32, rules: &str, divide: bool, json: bool) -> ExitCode {
    let rules: Rules = match rules.parse() {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    let fen = if fen == "startpos" {
        crate::rules::START_FEN
    } else {
        fen
    };
    let pos = match Position::from_fen_validated(fen, rules) {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if depth > 12 {
        return fail("depth must be at most 12");
    }
    let start = Instant::now();
    let (nodes, split) = if divide {
        let d = perft::divide(&pos, depth);
        (d.iter().map(|(_, n)| n).sum(), d)
    } else {
        (perft::perft(&pos, depth), Vec::new())
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    if json {
        let split: Vec<_> = split
            .iter()
            .map(|(m, n)| {
                serde_json::json!({"move": pos.move_name(m, Letters::Chess), "uci": m.uci(), "nodes": n})
            })
            .collect();
        let out = serde_json::json!({
            "fen": pos.fen(Letters::Chess),
            "rules": rules.to_string(),
            "depth": depth,
            "nodes": nodes,
            "millis": (secs * 1000.0).round() as u64,
            "nodes_per_second": nps.round() as u64,
            "divide": split,
        });
        println!("{out}");
    } else {
        for (m, n) in &split {
            println!("{} {}", pos.move_name(m, Letters::Chess), n);
        }
        println!("time {:.3} s, {:.0} nodes/s", secs, nps);
        println!("nodes {nodes}");
    }
    ExitCode::SUCCESS
}
