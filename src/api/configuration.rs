//! Typed configuration of the service: every setting has a flag and an environment variable.
//!
//! | flag | variable | default | meaning |
//! |---|---|---|---|
//! | `--addr` | `BAROQUE_ADDR` | `127.0.0.1:8080` | address to listen on (`HOST:PORT`; port 0 picks a free port) |
//! | `--db` | `BAROQUE_DB` | `baroque.db` | the SQLite puzzle store (opened by the store endpoints, which come later) |
//! | `--max-body-bytes` | `BAROQUE_MAX_BODY_BYTES` | `65536` | largest request body accepted (413 above it) |
//! | `--max-moves` | `BAROQUE_MAX_MOVES` | `500` | most moves in one `/v1/verify` request (422 above it) |
//! | `--workers` | `BAROQUE_WORKERS` | one per CPU core | HTTP worker threads |
//! | `--log-format` | `BAROQUE_LOG_FORMAT` | `text` | `text` or `json` (one line per event); `RUST_LOG` filters |

use std::path::PathBuf;

/// The default listening address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// The default puzzle store file.
pub const DEFAULT_DB: &str = "baroque.db";
/// The default body limit: 64 KiB.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 64 * 1024;
/// The default limit on the moves of one verify request.
pub const DEFAULT_MAX_MOVES: u64 = 500;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable `key=value` lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Everything the server reads at start-up (the flags of `baroque serve`).
#[derive(Clone, Debug, PartialEq, Eq, clap::Args)]
pub struct Settings {
    /// Address to listen on, as HOST:PORT (port 0 picks a free port).
    #[arg(long, env = "BAROQUE_ADDR", default_value = DEFAULT_ADDR, value_name = "HOST:PORT")]
    pub addr: String,
    /// The SQLite puzzle store. Accepted and shown at start-up; the store endpoints that open it
    /// arrive in a later release.
    #[arg(long, env = "BAROQUE_DB", default_value = DEFAULT_DB, value_name = "PATH")]
    pub db: PathBuf,
    /// Largest request body accepted, in bytes (larger bodies get 413).
    #[arg(long, env = "BAROQUE_MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=64 * 1024 * 1024), value_name = "BYTES")]
    pub max_body_bytes: u64,
    /// Most moves accepted in one /v1/verify request (more get 422).
    #[arg(long, env = "BAROQUE_MAX_MOVES", default_value_t = DEFAULT_MAX_MOVES,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000), value_name = "N")]
    pub max_moves: u64,
    /// HTTP worker threads (default: one per CPU core).
    #[arg(long, env = "BAROQUE_WORKERS", value_parser = clap::value_parser!(u64).range(1..=512), value_name = "N")]
    pub workers: Option<u64>,
    /// Log format; the `RUST_LOG` variable filters (default `info`).
    #[arg(long, env = "BAROQUE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            addr: DEFAULT_ADDR.into(),
            db: DEFAULT_DB.into(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_moves: DEFAULT_MAX_MOVES,
            workers: None,
            log_format: LogFormat::Text,
        }
    }
}

impl Settings {
    /// Settings for tests: the defaults on a free port of 127.0.0.1, two workers.
    pub fn for_tests() -> Settings {
        Settings {
            addr: "127.0.0.1:0".into(),
            workers: Some(2),
            ..Settings::default()
        }
    }
}

/// The limits handlers enforce, shared with them as application data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_body_bytes: usize,
    pub max_moves: usize,
}

impl From<&Settings> for Limits {
    fn from(s: &Settings) -> Limits {
        Limits {
            max_body_bytes: usize::try_from(s.max_body_bytes).unwrap_or(usize::MAX),
            max_moves: usize::try_from(s.max_moves).unwrap_or(usize::MAX),
        }
    }
}
