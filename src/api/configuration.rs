//! Typed configuration of the service: every setting has a flag and an environment variable.
//!
//! The table of every setting (flag, variable, default and meaning) is in the book's Operations
//! chapter, `docs/src/operations.md` (its Configuration section); `baroque serve --help` lists
//! them too.

use crate::app::library::Database;

/// A `--replica-name`: 1 to 64 ASCII letters, digits, `.`, `-`, `_` or `:`.
fn replica_name(s: &str) -> Result<String, String> {
    let fine = |c: char| c.is_ascii_alphanumeric() || ".-_:".contains(c);
    if (1..=64).contains(&s.len()) && s.chars().all(fine) {
        Ok(s.to_string())
    } else {
        Err("a replica name is 1 to 64 ASCII letters, digits, `.`, `-`, `_` or `:`".into())
    }
}
use std::path::PathBuf;

/// The default puzzle store file (`--db`, `BAROQUE_DB`: a SQLite file or a PostgreSQL URL, for the
/// server and the commands alike).
pub const DEFAULT_DB: &str = "baroque.db";

/// Reads `--db` / `BAROQUE_DB` without ever repeating the value: clap's own message quotes what
/// it was given, a URL's password with it. A path that is not UTF-8 is a SQLite file.
#[derive(Clone, Copy, Debug)]
pub struct DatabaseParser;

impl clap::builder::TypedValueParser for DatabaseParser {
    type Value = Database;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Database, clap::Error> {
        let Some(text) = value.to_str() else {
            return Ok(Database::Sqlite(PathBuf::from(value)));
        };
        text.parse().map_err(|e| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value for --db: {e}\n"),
            )
            .with_cmd(cmd)
        })
    }
}

/// The default listening address.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// The default body limit: 64 KiB.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 64 * 1024;
/// The default limit on the moves of one verify request.
pub const DEFAULT_MAX_MOVES: u64 = 500;
/// The default time a request body may take to arrive, in milliseconds.
pub const DEFAULT_BODY_TIMEOUT_MS: u64 = 10_000;
/// The default number of costly analyses in flight: each costs at most tens of milliseconds, so
/// the backlog of a full set is well under a second on two cores.
pub const DEFAULT_ANALYSIS_CONCURRENCY: u64 = 64;
/// The default node budget ceiling of one solve.
pub const DEFAULT_SOLVE_MAX_NODES: u64 = 50_000_000;
/// The default time budget ceiling of one solve, in milliseconds.
pub const DEFAULT_SOLVE_MAX_MILLIS: u64 = 10_000;
/// The default largest N of a solve.
pub const DEFAULT_SOLVE_MAX_MATE_IN: u32 = 8;
/// The default largest solution tree.
pub const DEFAULT_SOLVE_MAX_TREE_NODES: u64 = 2_000;
/// The default transposition table of one search, in MiB.
pub const DEFAULT_SOLVE_TABLE_MIB: u64 = 64;
/// The default number of searches at once.
pub const DEFAULT_SOLVE_CONCURRENCY: u64 = 2;

/// The default most collection exports streamed at once.
pub const DEFAULT_MAX_EXPORTS: u64 = 4;
/// The default seconds a response waits for its client to read more of it.
pub const DEFAULT_WRITE_TIMEOUT: u64 = 30;
/// The default most plays of stored puzzles judged at once.
pub const DEFAULT_MAX_STORED_PLAYS: u64 = 16;
/// The default memory for parsed proofs of stored puzzles, in MiB.
pub const DEFAULT_PROOF_CACHE_MIB: u64 = 64;

/// The default seconds given to in-flight work at shutdown.
pub const DEFAULT_SHUTDOWN_TIMEOUT: u64 = 30;

/// The default costly requests a client gets back per minute.
pub const DEFAULT_RATE_LIMIT_PER_MINUTE: u64 = 60;
/// The default costly requests a client may send at once.
pub const DEFAULT_RATE_LIMIT_BURST: u64 = 10;

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable `key=value` lines.
    #[default]
    Text,
    /// One JSON object per line.
    Json,
}

/// Everything the server reads at start-up (the flags of `baroque serve`). Its `Debug` form
/// hides the write token.
#[derive(Clone, PartialEq, Eq, clap::Args)]
pub struct Settings {
    /// Address to listen on, as HOST:PORT (port 0 picks a free port).
    #[arg(long, env = "BAROQUE_ADDR", default_value = DEFAULT_ADDR, value_name = "HOST:PORT")]
    pub addr: String,
    /// The puzzle store: a SQLite file (created when missing; WAL, so `PATH-wal` and `PATH-shm`
    /// sit beside it) or a `postgres://` URL (also `postgresql://`; TLS options in the URL:
    /// `sslmode`, `sslrootcert`, `sslcert`, `sslkey`), for a database several replicas share; the
    /// password is never logged.
    #[arg(long, env = "BAROQUE_DB", default_value = DEFAULT_DB, value_name = "PATH|URL", value_parser = DatabaseParser)]
    pub db: Database,
    /// A fixtures directory to seed the store from instead of the fixtures built in (this
    /// package's document diagrams and puzzles): its diagrams/*.json and puzzles/*.json are
    /// verified and stored at start-up (idempotently); one the engine contradicts stops start-up.
    #[arg(long, env = "BAROQUE_FIXTURES", value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
    /// Start without seeding the store (neither the fixtures built in nor --fixtures).
    #[arg(long, env = "BAROQUE_NO_SEED", value_name = "BOOL",
          default_value_t = false, num_args = 0..=1, default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new(), conflicts_with = "fixtures")]
    pub no_seed: bool,
    /// The bearer token that POST and DELETE /v1/puzzles need; without one, writes get 403. Prefer
    /// the environment variable (a flag shows in the process list).
    #[arg(
        long,
        env = "BAROQUE_WRITE_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    pub write_token: Option<String>,
    /// Largest request body accepted, in bytes (larger bodies get 413).
    #[arg(long, env = "BAROQUE_MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES,
          value_parser = clap::value_parser!(u64).range(1..=64 * 1024 * 1024), value_name = "BYTES")]
    pub max_body_bytes: u64,
    /// Most moves accepted in one /v1/verify request (more get 422).
    #[arg(long, env = "BAROQUE_MAX_MOVES", default_value_t = DEFAULT_MAX_MOVES,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000), value_name = "N")]
    pub max_moves: u64,
    /// Milliseconds a request body may take to arrive after its headers (408 after it).
    #[arg(long, env = "BAROQUE_BODY_TIMEOUT_MS", default_value_t = DEFAULT_BODY_TIMEOUT_MS,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000), value_name = "MS")]
    pub body_timeout_ms: u64,
    /// Costly analyses in flight (Rococo /v1/analyze, /v1/verify), run by one thread per core or
    /// waiting for one; one more gets 503 with Retry-After.
    #[arg(long, env = "BAROQUE_ANALYSIS_CONCURRENCY", default_value_t = DEFAULT_ANALYSIS_CONCURRENCY,
          value_parser = clap::value_parser!(u64).range(1..=4096), value_name = "K")]
    pub analysis_concurrency: u64,
    /// HTTP worker threads (default: one per CPU core).
    #[arg(long, env = "BAROQUE_WORKERS", value_parser = clap::value_parser!(u64).range(1..=512), value_name = "N")]
    pub workers: Option<u64>,
    /// Log format; the `RUST_LOG` variable filters (default `info`).
    #[arg(long, env = "BAROQUE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// Most nodes one /v1/solve may visit; a request asking more is clamped to it.
    #[arg(long, env = "BAROQUE_SOLVE_MAX_NODES", default_value_t = DEFAULT_SOLVE_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..), value_name = "N")]
    pub solve_max_nodes: u64,
    /// Most milliseconds one /v1/solve may search; a request asking more is clamped to it.
    #[arg(long, env = "BAROQUE_SOLVE_MAX_MILLIS", default_value_t = DEFAULT_SOLVE_MAX_MILLIS,
          value_parser = clap::value_parser!(u64).range(1..=3_600_000), value_name = "MS")]
    pub solve_max_millis: u64,
    /// Largest N of a /v1/solve (more gets 422); at most 12.
    #[arg(long, env = "BAROQUE_SOLVE_MAX_MATE_IN", default_value_t = DEFAULT_SOLVE_MAX_MATE_IN,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::solver::MAX_MATE_IN)), value_name = "N")]
    pub solve_max_mate_in: u32,
    /// Most moves in a solution tree; a request asking more is clamped to it.
    #[arg(long, env = "BAROQUE_SOLVE_MAX_TREE_NODES", default_value_t = DEFAULT_SOLVE_MAX_TREE_NODES,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000), value_name = "N")]
    pub solve_max_tree_nodes: u64,
    /// Transposition table of each search, in MiB (0: none).
    #[arg(long, env = "BAROQUE_SOLVE_TABLE_MIB", default_value_t = DEFAULT_SOLVE_TABLE_MIB,
          value_parser = clap::value_parser!(u64).range(0..=16_384), value_name = "MIB")]
    pub solve_table_mib: u64,
    /// Searches at once; a request beyond them gets 503 with Retry-After.
    #[arg(long, env = "BAROQUE_SOLVE_CONCURRENCY", default_value_t = DEFAULT_SOLVE_CONCURRENCY,
          value_parser = clap::value_parser!(u64).range(1..=256), value_name = "K")]
    pub solve_concurrency: u64,
    /// Generation jobs at once (POST /v1/collections); one more gets 503 with Retry-After.
    #[arg(long, env = "BAROQUE_MAX_JOBS", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=64), value_name = "K")]
    pub max_jobs: u64,
    /// Collection exports streamed at once (GET /v1/collections/{name}/export); one more gets
    /// 503 with Retry-After.
    #[arg(long, env = "BAROQUE_MAX_EXPORTS", default_value_t = DEFAULT_MAX_EXPORTS,
          value_parser = clap::value_parser!(u64).range(1..=1_024), value_name = "K")]
    pub max_exports: u64,
    /// Collection exports one client (its address, or the last of X-Forwarded-For under
    /// --trust-forwarded-for) may stream at once; one more gets 503 with Retry-After (default:
    /// half of --max-exports, rounded up).
    #[arg(long, env = "BAROQUE_MAX_EXPORTS_PER_CLIENT",
          value_parser = clap::value_parser!(u64).range(1..=1_024), value_name = "K")]
    pub max_exports_per_client: Option<u64>,
    /// Seconds a response may wait for its client to read more of it: a connection whose client
    /// has read nothing of a large answer or an export for that long is closed and the answer
    /// freed.
    #[arg(long, env = "BAROQUE_WRITE_TIMEOUT", default_value_t = DEFAULT_WRITE_TIMEOUT,
          value_parser = clap::value_parser!(u64).range(1..=3_600), value_name = "S")]
    pub write_timeout: u64,
    /// Plays of stored puzzles judged at once (POST /v1/puzzles/{id}/play); one more gets 503
    /// with Retry-After.
    #[arg(long, env = "BAROQUE_MAX_STORED_PLAYS", default_value_t = DEFAULT_MAX_STORED_PLAYS,
          value_parser = clap::value_parser!(u64).range(1..=1_024), value_name = "K")]
    pub max_stored_plays: u64,
    /// Memory for the parsed proofs of stored puzzles kept for stored play, in MiB (0: none kept).
    #[arg(long, env = "BAROQUE_PROOF_CACHE_MIB", default_value_t = DEFAULT_PROOF_CACHE_MIB,
          value_parser = clap::value_parser!(u64).range(0..=16_384), value_name = "MIB")]
    pub proof_cache_mib: u64,
    /// Longest run of one generation job, in seconds (it stops there, keeping what it found).
    #[arg(long, env = "BAROQUE_JOB_MAX_SECONDS", default_value_t = 600,
          value_parser = clap::value_parser!(u64).range(1..=86_400), value_name = "S")]
    pub job_max_seconds: u64,
    /// Seconds a generation job's lease lasts without renewal (its runner renews it every quarter
    /// of that): a job whose replica died is taken over by another replica (or by this one,
    /// restarted) once it runs out.
    #[arg(long, env = "BAROQUE_JOB_LEASE_SECONDS", default_value_t = 15,
          value_parser = clap::value_parser!(u64).range(1..=3_600), value_name = "S")]
    pub job_lease_seconds: u64,
    /// Threads a generation job runs on this replica, wherever it was started (default: as
    /// many as `--solve-threads`, one per CPU core unless set).
    #[arg(long, env = "BAROQUE_JOB_THREADS", value_parser = clap::value_parser!(u64).range(1..=256), value_name = "N")]
    pub job_threads: Option<u64>,
    /// This replica's name in the jobs it runs (their `workers`): default the host's name and
    /// the port it listens on (`db-1:8080`).
    #[arg(long, env = "BAROQUE_REPLICA_NAME", value_name = "NAME",
          value_parser = replica_name)]
    pub replica_name: Option<String>,
    /// Most puzzles one generation job may be asked for (more gets 422).
    #[arg(long, env = "BAROQUE_JOB_MAX_COUNT", default_value_t = 200,
          value_parser = clap::value_parser!(u64).range(1..=100_000), value_name = "N")]
    pub job_max_count: u64,
    /// Threads of one search, split at the root (default: one per CPU core).
    #[arg(long, env = "BAROQUE_SOLVE_THREADS", value_parser = clap::value_parser!(u64).range(1..=256), value_name = "N")]
    pub solve_threads: Option<u64>,
    /// Costly requests one client gets back per minute: /v1/solve, /v1/play, a play of a stored
    /// puzzle that needs a search, a mate posted to /v1/puzzles, POST /v1/collections and a
    /// collection export. One beyond them gets 429 with Retry-After. 0 turns the limit off.
    #[arg(long, env = "BAROQUE_RATE_LIMIT_PER_MINUTE", default_value_t = DEFAULT_RATE_LIMIT_PER_MINUTE,
          value_parser = clap::value_parser!(u64).range(0..=1_000_000), value_name = "N")]
    pub rate_limit_per_minute: u64,
    /// Costly requests one client may send at once (the size of its token bucket).
    #[arg(long, env = "BAROQUE_RATE_LIMIT_BURST", default_value_t = DEFAULT_RATE_LIMIT_BURST,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000), value_name = "N")]
    pub rate_limit_burst: u64,
    /// Count requests against the last address of X-Forwarded-For rather than the peer address.
    /// Only behind a reverse proxy that sets the header: otherwise clients choose their address.
    #[arg(long, env = "BAROQUE_TRUST_FORWARDED_FOR", value_name = "BOOL",
          default_value_t = false, num_args = 0..=1, default_missing_value = "true",
          value_parser = clap::builder::BoolishValueParser::new())]
    pub trust_forwarded_for: bool,
    /// Seconds in-flight requests get to finish (and running generation jobs to hand themselves
    /// over to another replica) after SIGTERM or SIGINT, before the process exits.
    #[arg(long, env = "BAROQUE_SHUTDOWN_TIMEOUT", default_value_t = DEFAULT_SHUTDOWN_TIMEOUT,
          value_parser = clap::value_parser!(u64).range(0..=3600), value_name = "S")]
    pub shutdown_timeout: u64,
    /// An origin (`https://puzzles.example`) whose web pages may call the API (CORS); repeatable,
    /// comma-separated in the variable. `*` lets any origin call the endpoints that need no token
    /// (the write token's `Authorization` header is then not allowed across origins). None by
    /// default: browsers keep other origins out.
    #[arg(
        long,
        env = "BAROQUE_CORS_ALLOW_ORIGIN",
        value_delimiter = ',',
        value_name = "ORIGIN"
    )]
    pub cors_allow_origin: Vec<String>,
    /// The sites that may show the puzzle player (`/embed`) in a frame: the `frame-ancestors` of
    /// its Content-Security-Policy. `*` (the default) lets any site embed it, `'none'` none;
    /// otherwise origins (`https://puzzles.example`), schemes (`https:`) and `'self'`, separated
    /// by spaces.
    #[arg(
        long,
        env = "BAROQUE_EMBED_FRAME_ANCESTORS",
        default_value = "*",
        value_name = "SOURCES"
    )]
    pub embed_frame_ancestors: String,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("addr", &self.addr)
            .field("db", &self.db)
            .field("fixtures", &self.fixtures)
            .field("no_seed", &self.no_seed)
            .field(
                "write_token",
                &self.write_token.as_ref().map(|_| "<hidden>"),
            )
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_moves", &self.max_moves)
            .field("body_timeout_ms", &self.body_timeout_ms)
            .field("analysis_concurrency", &self.analysis_concurrency)
            .field("workers", &self.workers)
            .field("log_format", &self.log_format)
            .field("solve_max_nodes", &self.solve_max_nodes)
            .field("solve_max_millis", &self.solve_max_millis)
            .field("solve_max_mate_in", &self.solve_max_mate_in)
            .field("solve_max_tree_nodes", &self.solve_max_tree_nodes)
            .field("solve_table_mib", &self.solve_table_mib)
            .field("solve_concurrency", &self.solve_concurrency)
            .field("solve_threads", &self.solve_threads)
            .field("max_jobs", &self.max_jobs)
            .field("max_exports", &self.max_exports)
            .field("max_exports_per_client", &self.max_exports_per_client)
            .field("write_timeout", &self.write_timeout)
            .field("max_stored_plays", &self.max_stored_plays)
            .field("proof_cache_mib", &self.proof_cache_mib)
            .field("job_max_seconds", &self.job_max_seconds)
            .field("job_lease_seconds", &self.job_lease_seconds)
            .field("job_max_count", &self.job_max_count)
            .field("job_threads", &self.job_threads)
            .field("replica_name", &self.replica_name)
            .field("rate_limit_per_minute", &self.rate_limit_per_minute)
            .field("rate_limit_burst", &self.rate_limit_burst)
            .field("trust_forwarded_for", &self.trust_forwarded_for)
            .field("shutdown_timeout", &self.shutdown_timeout)
            .field("cors_allow_origin", &self.cors_allow_origin)
            .field("embed_frame_ancestors", &self.embed_frame_ancestors)
            .finish()
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            addr: DEFAULT_ADDR.into(),
            db: Database::Sqlite(DEFAULT_DB.into()),
            fixtures: None,
            no_seed: false,
            write_token: None,
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_moves: DEFAULT_MAX_MOVES,
            body_timeout_ms: DEFAULT_BODY_TIMEOUT_MS,
            analysis_concurrency: DEFAULT_ANALYSIS_CONCURRENCY,
            workers: None,
            log_format: LogFormat::Text,
            solve_max_nodes: DEFAULT_SOLVE_MAX_NODES,
            solve_max_millis: DEFAULT_SOLVE_MAX_MILLIS,
            solve_max_mate_in: DEFAULT_SOLVE_MAX_MATE_IN,
            solve_max_tree_nodes: DEFAULT_SOLVE_MAX_TREE_NODES,
            solve_table_mib: DEFAULT_SOLVE_TABLE_MIB,
            solve_concurrency: DEFAULT_SOLVE_CONCURRENCY,
            solve_threads: None,
            max_jobs: 1,
            max_exports: DEFAULT_MAX_EXPORTS,
            max_exports_per_client: None,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
            max_stored_plays: DEFAULT_MAX_STORED_PLAYS,
            proof_cache_mib: DEFAULT_PROOF_CACHE_MIB,
            job_max_seconds: 600,
            job_lease_seconds: 15,
            job_max_count: 200,
            job_threads: None,
            replica_name: None,
            rate_limit_per_minute: DEFAULT_RATE_LIMIT_PER_MINUTE,
            rate_limit_burst: DEFAULT_RATE_LIMIT_BURST,
            trust_forwarded_for: false,
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT,
            cors_allow_origin: Vec::new(),
            embed_frame_ancestors: "*".into(),
        }
    }
}

/// Who may call the API from web pages of another origin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorsPolicy {
    /// Nobody (no CORS headers are sent).
    None,
    /// These origins, for every endpoint (the write token's header included).
    Origins(Vec<String>),
    /// Any origin, for the endpoints that need no token.
    Anyone,
}

impl Settings {
    /// The CORS policy of `--cors-allow-origin`.
    ///
    /// # Errors
    /// An origin that is not `http(s)://host[:port]`, or `*` together with named origins.
    pub fn cors(&self) -> Result<CorsPolicy, String> {
        let origins: Vec<&str> = self
            .cors_allow_origin
            .iter()
            .map(|o| o.trim())
            .filter(|o| !o.is_empty())
            .collect();
        if origins.is_empty() {
            return Ok(CorsPolicy::None);
        }
        if origins.contains(&"*") {
            if origins.len() > 1 {
                return Err(
                    "--cors-allow-origin: `*` cannot be combined with named origins".into(),
                );
            }
            return Ok(CorsPolicy::Anyone);
        }
        for o in &origins {
            let rest = o
                .strip_prefix("https://")
                .or_else(|| o.strip_prefix("http://"))
                .unwrap_or("");
            let host_ok = !rest.is_empty()
                && rest.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']')
                });
            if !host_ok {
                return Err(format!(
                    "--cors-allow-origin: `{o}` is not an origin: write it as scheme://host[:port], such as https://puzzles.example (no path, no trailing slash)"
                ));
            }
        }
        Ok(CorsPolicy::Origins(
            origins.into_iter().map(str::to_string).collect(),
        ))
    }

    /// Where the store's seed comes from, or `None` with `--no-seed`.
    pub fn seed_source(&self) -> Option<crate::app::seed::Fixtures> {
        use crate::app::seed::Fixtures;
        if self.no_seed {
            return None;
        }
        Some(
            self.fixtures
                .clone()
                .map_or(Fixtures::Embedded, Fixtures::Dir),
        )
    }

    /// Settings for tests: the defaults on a free port of 127.0.0.1, two workers, 16 MiB tables, no
    /// rate limit (tests of it set one), a new database file in the temporary directory and the
    /// fixtures built in.
    pub fn for_tests() -> Settings {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let db = std::env::temp_dir().join(format!(
            "baroque-test-{}-{}-{nanos}.db",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        Settings {
            addr: "127.0.0.1:0".into(),
            db: Database::Sqlite(db),
            workers: Some(2),
            solve_table_mib: 16,
            rate_limit_per_minute: 0,
            ..Settings::default()
        }
    }
}

/// The limits handlers enforce, shared with them as application data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_body_bytes: usize,
    pub max_moves: usize,
    /// How long a request body may take to arrive.
    pub body_timeout: std::time::Duration,
    /// Costly analyses in flight.
    pub analysis_concurrency: usize,
    pub solve: SolveLimits,
    pub max_jobs: usize,
    /// Collection exports streamed at once.
    pub max_exports: usize,
    /// Collection exports one client streams at once.
    pub max_exports_per_client: usize,
    /// How long a response waits for its client to read more of it.
    pub write_timeout: std::time::Duration,
    /// Plays of stored puzzles judged at once.
    pub max_stored_plays: usize,
    /// The proof cache of stored play, in bytes.
    pub proof_cache_bytes: usize,
    pub job_max_seconds: u64,
    pub job_max_count: u64,
    /// Threads of a generation job on this replica.
    pub job_threads: usize,
}

pub use crate::app::solve::SolveLimits;

/// The server's ceilings on a solve, from its settings.
impl From<&Settings> for SolveLimits {
    fn from(s: &Settings) -> SolveLimits {
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        SolveLimits {
            max_nodes: s.solve_max_nodes,
            max_millis: s.solve_max_millis,
            max_mate_in: s.solve_max_mate_in.clamp(1, crate::solver::MAX_MATE_IN),
            max_tree_nodes: size(s.solve_max_tree_nodes),
            table_mib: size(s.solve_table_mib),
            threads: s.solve_threads.map_or_else(
                || std::thread::available_parallelism().map_or(1, |n| n.get()),
                size,
            ),
            concurrency: size(s.solve_concurrency).max(1),
        }
    }
}

impl From<&Settings> for Limits {
    fn from(s: &Settings) -> Limits {
        Limits {
            max_body_bytes: usize::try_from(s.max_body_bytes).unwrap_or(usize::MAX),
            max_moves: usize::try_from(s.max_moves).unwrap_or(usize::MAX),
            body_timeout: std::time::Duration::from_millis(s.body_timeout_ms),
            analysis_concurrency: usize::try_from(s.analysis_concurrency).unwrap_or(1).max(1),
            solve: SolveLimits::from(s),
            max_jobs: usize::try_from(s.max_jobs).unwrap_or(1).max(1),
            max_exports: usize::try_from(s.max_exports).unwrap_or(1).max(1),
            max_exports_per_client: usize::try_from(
                s.max_exports_per_client
                    .unwrap_or_else(|| s.max_exports.div_ceil(2)),
            )
            .unwrap_or(1)
            .max(1),
            write_timeout: std::time::Duration::from_secs(s.write_timeout.max(1)),
            max_stored_plays: usize::try_from(s.max_stored_plays).unwrap_or(1).max(1),
            proof_cache_bytes: usize::try_from(s.proof_cache_mib << 20).unwrap_or(usize::MAX),
            job_max_seconds: s.job_max_seconds,
            job_max_count: s.job_max_count,
            // As many as a search's, unless set: jobs ran on `--solve-threads` before.
            job_threads: s.job_threads.map_or_else(
                || SolveLimits::from(s).threads,
                |n| usize::try_from(n).unwrap_or(1),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Settings;

    #[test]
    fn debug_hides_the_write_token() {
        let s = Settings {
            write_token: Some("hunter2-secret".into()),
            ..Settings::default()
        };
        let text = format!("{s:?}");
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("<hidden>"), "{text}");
    }
}
