//! `baroque extract DOCUMENT [--merge CASEFILE]`: a case file skeleton on standard output.

use super::check::FormatArg;
use super::out;
use crate::documents::{self, Format};
use crate::rules::Rules;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The arguments of `baroque extract`.
#[derive(clap::Args, Debug)]
pub struct ExtractArgs {
    /// The document (`.wiki`, `.mediawiki`, `.html`, `.htm`, `.md`, `.txt`).
    pub document: PathBuf,
    /// An existing case file: its cases are kept as they are, and a case is added for each
    /// diagram none of them covers (same id, FEN or diagram).
    #[arg(long, value_name = "CASEFILE")]
    pub merge: Option<PathBuf>,
    /// Read the document as this format, whatever its extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format_in: Option<FormatArg>,
    /// The rule set moves are read under.
    #[arg(long, default_value = "abbott")]
    pub rules: String,
}

/// How a case file in `dir` names `document`: relative to `dir` when it lies below it.
fn relative(document: &Path, dir: &Path) -> String {
    let (Ok(doc), Ok(dir)) = (document.canonicalize(), dir.canonicalize()) else {
        return document.display().to_string();
    };
    match doc.strip_prefix(&dir) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => doc.display().to_string(),
    }
}

/// Runs `baroque extract`.
pub fn run(args: ExtractArgs) -> ExitCode {
    let rules = match args.rules.parse::<Rules>() {
        Ok(r) => r,
        Err(e) => return super::fail(format!("--rules: {e}")),
    };
    let path = &args.document;
    let Some(format) = args
        .format_in
        .map(Format::from)
        .or_else(|| Format::of_path(path))
    else {
        return super::fail(format!(
            "{}:1: the extension names no document format (.wiki, .mediawiki, .html, .htm, .md, .txt): give --format-in",
            path.display()
        ));
    };
    let text = match documents::read_text(path) {
        Ok(t) => t,
        Err(e) => return super::fail(e),
    };
    let diagrams = documents::diagrams(format, &text, rules);
    let existing = match &args.merge {
        None => None,
        Some(m) => match crate::cases::read_file(m) {
            Ok(f) => Some(f),
            Err(e) => return super::fail(e),
        },
    };
    let name = match &args.merge {
        Some(m) => relative(path, m.parent().unwrap_or(Path::new("."))),
        None => path.display().to_string(),
    };
    let stem = path
        .file_stem()
        .map_or_else(|| "diagram".into(), |s| s.to_string_lossy().into_owned());
    let skeleton = crate::extract::skeleton(&name, &stem, &diagrams, rules);
    let file = match existing {
        Some(e) => crate::extract::merge(e, skeleton),
        None => skeleton,
    };
    match serde_json::to_string_pretty(&file) {
        Ok(json) => {
            out!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => super::fail(e),
    }
}
