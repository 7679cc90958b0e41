//! The command line: `baroque <subcommand>`.

use crate::rules::{perft, Letters, Position, Rules};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

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
    }
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
