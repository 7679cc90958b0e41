//! `baroque import` and `baroque export`: a collection of the puzzle store from and to PGN,
//! Lichess's puzzle CSV and JSON lines (see [`crate::formats`]).

use super::{fail, out};
use crate::app::export::Export;
use crate::app::import::{ImportError, Imported};
use crate::app::library::{valid_name, Database};
use crate::app::Library;
use crate::formats::{self, Format};
use crate::solver::{Limits, SolveOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// A file format `import` reads.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportFormat {
    /// PGN, a game per puzzle.
    Pgn,
    /// Lichess's puzzle CSV.
    Csv,
}

/// A format `export` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExportFormat {
    /// One JSON puzzle per line, as `GET /v1/collections/{name}/export` gives them.
    #[default]
    Jsonl,
    /// PGN, a game per puzzle.
    Pgn,
    /// Lichess's puzzle CSV.
    Csv,
}

impl From<ExportFormat> for Format {
    fn from(f: ExportFormat) -> Format {
        match f {
            ExportFormat::Jsonl => Format::Jsonl,
            ExportFormat::Pgn => Format::Pgn,
            ExportFormat::Csv => Format::Csv,
        }
    }
}

/// The flags of `baroque import`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The file: PGN (`.pgn`) or Lichess's puzzle CSV (`.csv`), told by its extension unless
    /// `--format` says; `-` reads standard input (with `--format`). Anything else that is not a
    /// regular file (a FIFO, a device) is refused.
    pub file: PathBuf,
    /// The collection the puzzles go into (1 to 64 letters, digits, `-`, `_`, `.`): made when
    /// absent, else appended to.
    #[arg(long)]
    pub collection: String,
    /// The file's format, whatever its extension.
    #[arg(long, value_enum)]
    pub format: Option<ImportFormat>,
    /// The puzzle store: a SQLite file (created when missing) or a `postgres://` URL (TLS options
    /// in the URL: `sslmode`, `sslrootcert`, `sslcert`, `sslkey`).
    #[arg(long, env = "BAROQUE_DB", default_value = crate::api::configuration::DEFAULT_DB, value_name = "PATH|URL", value_parser = crate::api::configuration::DatabaseParser)]
    pub db: Database,
    /// The solver's node budget for each puzzle (a puzzle it cannot settle is rejected).
    #[arg(long, default_value_t = 50_000_000)]
    pub nodes: u64,
    /// The solver's time budget for each puzzle, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub millis: u64,
    /// Search threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The most bytes read: a larger input is refused before anything is stored.
    #[arg(long, default_value_t = DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,
}

/// The default of `--max-input-bytes`: 64 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 << 20;

/// The most characters of a field an error repeats.
const ECHOED_CHARS: usize = 200;

/// The bytes of `path` (`-`: standard input), at most `most` of them.
fn read_input(path: &Path, most: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let name = path.display();
    let mut bytes = Vec::new();
    let read = if path == Path::new("-") {
        std::io::stdin()
            .lock()
            .take(most.saturating_add(1))
            .read_to_end(&mut bytes)
    } else {
        let f = crate::documents::open_regular(path).map_err(|e| format!("{name}: {e}"))?;
        f.take(most.saturating_add(1)).read_to_end(&mut bytes)
    };
    read.map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > most {
        return Err(format!(
            "{name}: larger than {most} bytes (--max-input-bytes): nothing read"
        ));
    }
    Ok(bytes)
}

/// The flags of `baroque export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The collection to write.
    #[arg(long)]
    pub collection: String,
    /// The format: `jsonl` (the HTTP export's body), `pgn` or `csv`.
    #[arg(long, value_enum, default_value_t = ExportFormat::Jsonl)]
    pub format: ExportFormat,
    /// The puzzle store: a SQLite file (it must exist) or a `postgres://` URL (TLS options in the
    /// URL: `sslmode`, `sslrootcert`, `sslcert`, `sslkey`).
    #[arg(long, env = "BAROQUE_DB", default_value = crate::api::configuration::DEFAULT_DB, value_name = "PATH|URL", value_parser = crate::api::configuration::DatabaseParser)]
    pub db: Database,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The format of a file to import: `--format`, else its extension.
fn format_of(path: &Path, asked: Option<ImportFormat>) -> Result<ImportFormat, String> {
    if let Some(f) = asked {
        return Ok(f);
    }
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("pgn") => Ok(ImportFormat::Pgn),
        Some("csv") => Ok(ImportFormat::Csv),
        _ => Err(format!(
            "{}: cannot tell the format from the extension (.pgn or .csv): give --format pgn or \
             --format csv",
            path.display()
        )),
    }
}

/// Runs `baroque import`: a line per game or row and a summary; exit 0 when every one was stored
/// (created or found stored), 1 when some were rejected, 2 when the input cannot be used.
pub fn run_import(args: ImportArgs) -> ExitCode {
    let format = match format_of(&args.file, args.format) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let bytes = match read_input(&args.file, args.max_input_bytes) {
        Ok(b) => b,
        Err(e) => return fail(e),
    };
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            return fail(format!(
                "{}: line {line}: the file is not UTF-8 text",
                args.file.display()
            ));
        }
    };
    let (name, reads) = match format {
        ImportFormat::Pgn => ("pgn", formats::pgn::read(&text)),
        ImportFormat::Csv => ("csv", formats::csv::read(&text)),
    };
    let reads = match reads {
        Ok(r) => r,
        Err(e) => {
            let e = crate::documents::clipped(&e.to_string(), ECHOED_CHARS);
            return fail(format!("{}: {e}", args.file.display()));
        }
    };
    if !valid_name(&args.collection) {
        return fail(format!(
            "`{}` is not a collection name: use 1 to 64 letters, digits, `-`, `_` or `.`",
            args.collection
        ));
    }
    let library = match Library::open(&args.db) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.db)),
    };
    let mut solve = SolveOptions {
        limits: Limits {
            nodes: args.nodes,
            time: Duration::from_millis(args.millis),
        },
        ..SolveOptions::default()
    };
    if let Some(t) = args.threads {
        solve.threads = t.max(1);
    }
    let file = args.file.display().to_string();
    let result = library.import(
        &args.collection,
        reads,
        &solve,
        (name, &file),
        |place, outcome| {
            let unit = match format {
                ImportFormat::Pgn => "game",
                ImportFormat::Csv => "row",
            };
            let at = match place.number {
                Some(n) => format!("{unit} {n} (line {})", place.line),
                None => format!("line {}", place.line),
            };
            let said = |p: &crate::puzzle::StoredPuzzle| {
                format!(
                    "puzzle {} ({} {})",
                    p.id,
                    p.stipulation.map_or("?".into(), |s| s.to_string()),
                    p.fen
                )
            };
            match outcome {
                Imported::Created(p) => out!("{at}: created {}", said(p)),
                Imported::Existing(p) => out!("{at}: existing {}", said(p)),
                Imported::Duplicate { of, transform } => out!(
                    "{at}: duplicate of {} (the same problem after `{transform}`), not stored",
                    said(of)
                ),
                Imported::Rejected(why) => out!(
                    "{at}: rejected: {}",
                    crate::documents::clipped(why, ECHOED_CHARS)
                ),
            }
        },
    );
    let summary = match result {
        Ok(s) => s,
        Err(ImportError::Store(e)) => return fail(format!("{}: {e}", args.db)),
        Err(e) => return fail(e),
    };
    out!(
        "collection {}: {} read, {} created, {} existing, {} rejected",
        args.collection,
        summary.read,
        summary.created,
        summary.existing,
        summary.rejected
    );
    if summary.duplicates > 0 {
        out!(
            "{} duplicates of stored puzzles up to a symmetry, not stored",
            summary.duplicates
        );
    }
    if summary.rejected > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `baroque export`: the collection in the format asked, to standard output or `--out`;
/// diagram puzzles, which PGN and CSV cannot carry, are named on standard error. Exit 0, or 2 when
/// the store or the collection is missing or the output cannot be written.
pub fn run_export(args: ExportArgs) -> ExitCode {
    if let Database::Sqlite(path) = &args.db {
        if !path.exists() {
            return fail(format!(
                "{}: no such puzzle store (give --db PATH or URL)",
                path.display()
            ));
        }
    }
    let library = match Library::open(&args.db) {
        Ok(s) => s,
        Err(e) => return fail(format!("{}: {e}", args.db)),
    };
    let format = Format::from(args.format);
    let json = crate::api::wire::json_line;
    let mut export = match library.export(&args.collection, format, json) {
        Ok(Some(e)) => e,
        Ok(None) => {
            return fail(format!(
                "no collection named `{}` in {}",
                args.collection, args.db
            ))
        }
        Err(e) => return fail(format!("{}: {e}", args.db)),
    };
    for id in export.skipped() {
        eprintln!(
            "note: puzzle {id} is a diagram (a move and its outcome, not a stipulated problem): \
             left out of the {}",
            format.name()
        );
    }
    // A page at a time, to the file or to standard output.
    let written = match &args.out {
        Some(path) => write_file(path, |out| copy_export(&mut export, out)),
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            copy_export(&mut export, &mut stdout)
                .and_then(|()| stdout.flush().map_err(|e| e.to_string()))
                .map_err(|e| format!("standard output: {e}"))
        }
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}

/// Writes every chunk of an export.
fn copy_export(export: &mut Export, out: &mut impl std::io::Write) -> Result<(), String> {
    while let Some(chunk) = export.next_chunk()? {
        out.write_all(&chunk).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Writes a file through `write`, a chunk at a time.
fn write_file(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> Result<(), String>,
) -> Result<(), String> {
    use std::io::Write;
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    write(&mut out)
        .and_then(|()| out.flush().map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", path.display()))
}
