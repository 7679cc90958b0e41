//! `baroque check`: case files and rule documents, reported as text, JSON lines, JUnit XML or
//! GitHub Actions workflow commands. Exit 0 when every check passes, 1 when one fails, 2 when an
//! input cannot be used (a file that cannot be read, is not text, is empty or too big, a case file
//! that is not one, a format that cannot be told).

use super::out;
use crate::cases::{self, CaseOutcome};
use crate::documents::claims::{Claim, Finding as ClaimFinding};
use crate::documents::{self, Diagram, Format, Library, Place, Reading};
use crate::rules::{GameKind, Rules};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A document format, as `--format-in` names it.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    /// MediaWiki source (`{{Chess diagram}}` templates).
    Mediawiki,
    /// HTML (`data-fen` attributes).
    Html,
    /// Markdown (`fen` code blocks, inline `data-fen`).
    Markdown,
    /// Plain text with `+---+` boards.
    Text,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Mediawiki => Format::MediaWiki,
            FormatArg::Html => Format::Html,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Text => Format::Text,
        }
    }
}

/// How `check` reports.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReportArg {
    /// A line per case or diagram and a summary.
    #[default]
    Text,
    /// One JSON object per case or diagram.
    Json,
    /// JUnit XML: a test suite per file, a test case per diagram and per case.
    Junit,
    /// GitHub Actions workflow commands (`::error file=...,line=...::message`) and a summary.
    Github,
}

/// The arguments of `baroque check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Case files (`*.json`), documents (`.wiki`, `.mediawiki`, `.html`, `.htm`, `.md`, `.txt`),
    /// or directories whose such files are read (not their subdirectories).
    #[arg(required = true, value_name = "FILE_OR_DIR")]
    pub files: Vec<PathBuf>,
    /// Read every file that is not `.json` as a document of this format, whatever its extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format_in: Option<FormatArg>,
    /// The report's form.
    #[arg(long, value_enum, default_value_t = ReportArg::Text)]
    pub report: ReportArg,
    /// The same as `--report json` (one JSON object per case or diagram).
    #[arg(long, conflicts_with = "report")]
    pub json: bool,
    /// The rule set of documents' diagrams that name none (a preset with options, as for perft).
    #[arg(long, default_value = "abbott")]
    pub rules: String,
}

/// One checked thing.
enum Item {
    /// A case of a case file.
    Case {
        file: String,
        line: Option<usize>,
        outcome: Box<CaseOutcome>,
        source: Option<String>,
        /// The document and line of the case's diagram, if it has one.
        diagram_at: Option<(String, usize)>,
    },
    /// A diagram of a document.
    Diagram { file: String, diagram: Box<Diagram> },
    /// A document with no diagram.
    Empty { file: String },
    /// An input that cannot be used.
    Unusable {
        file: String,
        line: usize,
        message: String,
    },
}

/// A finding about a diagram: an error or a warning, its code, message and place.
struct Finding {
    error: bool,
    code: String,
    message: String,
    at: Place,
}

fn findings(d: &Diagram) -> Vec<Finding> {
    let at = d.at();
    let problem = |p: &crate::rules::Problem| Finding {
        error: p.is_error(),
        code: p.code().to_string(),
        message: p.message.clone(),
        at,
    };
    match &d.reading {
        Reading::Position { warnings, .. } => warnings.iter().map(problem).collect(),
        Reading::Impossible { problems, .. } => problems.iter().map(problem).collect(),
        Reading::Unreadable(e) => vec![Finding {
            error: true,
            code: "unreadable".into(),
            message: e.message.clone(),
            at: e.at,
        }],
        Reading::Unplaced => Vec::new(),
    }
}

impl Item {
    fn ok(&self) -> bool {
        match self {
            Item::Case { outcome, .. } => outcome.ok(),
            Item::Diagram { diagram, .. } => diagram.passes(),
            Item::Empty { .. } => true,
            Item::Unusable { .. } => false,
        }
    }

    fn file(&self) -> &str {
        match self {
            Item::Case { file, .. }
            | Item::Diagram { file, .. }
            | Item::Empty { file }
            | Item::Unusable { file, .. } => file,
        }
    }

    /// The test's name in reports.
    fn name(&self) -> String {
        match self {
            Item::Case { outcome, .. } => outcome.id.clone(),
            Item::Diagram { diagram, .. } => {
                format!("diagram {} (line {})", diagram.index, diagram.at().line)
            }
            Item::Empty { .. } => "no diagram".into(),
            Item::Unusable { .. } => "unusable input".into(),
        }
    }

    /// The problems of a failed case, each with its diagram when it has one.
    fn case_problems(outcome: &CaseOutcome, source: &Option<String>) -> Vec<String> {
        outcome
            .problems
            .iter()
            .map(|p| match source {
                Some(s) => format!("{s}: {p}"),
                None => p.clone(),
            })
            .collect()
    }
}

/// Runs `baroque check`.
pub fn run(args: CheckArgs) -> ExitCode {
    let report = if args.json {
        ReportArg::Json
    } else {
        args.report
    };
    let rules = match args.rules.parse::<Rules>() {
        Ok(r) => r,
        Err(e) => return super::fail(format!("--rules: {e}")),
    };
    let format_in = args.format_in.map(Format::from);
    let mut items = Vec::new();
    let mut paths = Vec::new();
    for p in &args.files {
        if p.is_dir() {
            match files_in(p) {
                Ok(v) => paths.extend(v),
                Err(e) => items.push(Item::Unusable {
                    file: p.display().to_string(),
                    line: 1,
                    message: e,
                }),
            }
        } else {
            paths.push(p.clone());
        }
    }
    let mut library = Library::default();
    for path in &paths {
        check_file(path, format_in, rules, &mut library, &mut items);
    }
    match report {
        ReportArg::Text => text(&items),
        ReportArg::Json => json(&items),
        ReportArg::Junit => junit(&items),
        ReportArg::Github => github(&items),
    }
    if items.iter().any(|i| matches!(i, Item::Unusable { .. })) {
        ExitCode::from(2)
    } else if items.iter().any(|i| !i.ok()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn is_case_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("json"))
}

/// The case files and documents of a directory, sorted by name.
fn files_in(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && (is_case_file(p) || Format::of_path(p).is_some()))
        .collect();
    v.sort();
    Ok(v)
}

fn check_file(
    path: &Path,
    format_in: Option<Format>,
    rules: Rules,
    library: &mut Library,
    items: &mut Vec<Item>,
) {
    let file = path.display().to_string();
    let unusable = |line: usize, message: String| Item::Unusable {
        file: file.clone(),
        line,
        message,
    };
    if is_case_file(path) {
        let text = match crate::documents::read_text(path) {
            Ok(t) => t,
            Err(e) => return items.push(unusable(e.line, e.message)),
        };
        let cases: cases::CaseFile = match serde_json::from_str(&text) {
            Ok(c) => c,
            Err(e) => {
                return items.push(unusable(e.line().max(1), format!("not a case file: {e}")))
            }
        };
        let base = path.parent().unwrap_or(Path::new("."));
        for case in &cases.cases {
            let line = text
                .find(&format!("\"{}\"", case.id))
                .map(|at| text[..at].matches('\n').count() + 1);
            let (outcome, source, diagram_at) =
                match crate::documents::resolve::resolve(case, cases.game, base, library) {
                    Ok(r) => (
                        r.case.verify(r.game),
                        r.source,
                        r.at.map(|(p, l)| (p.display().to_string(), l)),
                    ),
                    Err(e) => (
                        CaseOutcome {
                            id: case.id.clone(),
                            problems: vec![e],
                            last_move: None,
                        },
                        None,
                        None,
                    ),
                };
            items.push(Item::Case {
                file: file.clone(),
                line,
                outcome: Box::new(outcome),
                source,
                diagram_at,
            });
        }
        return;
    }
    let Some(format) = format_in.or_else(|| Format::of_path(path)) else {
        return items.push(unusable(
            1,
            "the extension names no format: case files are .json; documents .wiki, .mediawiki, .html, .htm, .md or .txt, or give --format-in".into(),
        ));
    };
    let text = match documents::read_text(path) {
        Ok(t) => t,
        Err(e) => return items.push(unusable(e.line, e.message)),
    };
    let diagrams = documents::diagrams(format, &text, rules);
    if diagrams.is_empty() {
        items.push(Item::Empty { file });
        return;
    }
    for d in diagrams {
        items.push(Item::Diagram {
            file: file.clone(),
            diagram: Box::new(d),
        });
    }
}

/// How a diagram read, in a word.
fn status(d: &Diagram) -> &'static str {
    match d.reading {
        Reading::Position { .. } if !d.passes() => "wrong_claim",
        Reading::Position { .. } => "ok",
        Reading::Impossible { .. } => "impossible",
        Reading::Unreadable(_) => "unreadable",
        Reading::Unplaced => "unplaced",
    }
}

fn game_name(d: &Diagram) -> Option<&'static str> {
    match d.reading {
        Reading::Unplaced => None,
        _ => Some(GameKind::name(d.found.game)),
    }
}

fn counts(items: &[Item]) -> (usize, usize) {
    let counted = items
        .iter()
        .filter(|i| !matches!(i, Item::Empty { .. } | Item::Unusable { .. }));
    let (ok, failed): (Vec<_>, Vec<_>) = counted.partition(|i| i.ok());
    (ok.len(), failed.len())
}

fn text(items: &[Item]) {
    for item in items {
        match item {
            Item::Case {
                outcome, source, ..
            } => {
                if outcome.ok() {
                    out!("ok   {}", outcome.id);
                } else {
                    let from = source.as_ref().map_or(String::new(), |s| format!("{s}: "));
                    out!("FAIL {}: {from}{}", outcome.id, outcome.problems.join("; "));
                }
            }
            Item::Diagram { file, diagram } => {
                let d = diagram;
                let line = d.at().line;
                let found = findings(d);
                match &d.reading {
                    Reading::Position { fen, .. } => {
                        let warn = if found.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " (warnings: {})",
                                found
                                    .iter()
                                    .map(|f| f.message.as_str())
                                    .collect::<Vec<_>>()
                                    .join("; ")
                            )
                        };
                        let notes: String =
                            d.notes.iter().map(|n| format!(" (note: {n})")).collect();
                        let word = if d.passes() { "ok  " } else { "FAIL" };
                        out!(
                            "{word} {file}:{line} diagram {}: {fen}{warn}{notes}",
                            d.index
                        );
                        for claim in &d.claims {
                            out!("     {}", claim_text(claim));
                        }
                    }
                    Reading::Unplaced => {
                        let size = match &d.found.content {
                            Ok(documents::Content::Grid(g)) => format!("{}x{}", g.width, g.height),
                            _ => String::new(),
                        };
                        out!(
                            "ok   {file}:{line} diagram {}: an unlabelled {size} grid (a case places it)",
                            d.index
                        );
                    }
                    Reading::Impossible { fen, .. } => out!(
                        "FAIL {file}:{line} diagram {}: impossible position {fen}: {}",
                        d.index,
                        found
                            .iter()
                            .filter(|f| f.error)
                            .map(|f| format!("{} ({})", f.message, f.code))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                    Reading::Unreadable(e) => {
                        let (line, col, message) = placed(d, e.at, e.message.clone());
                        out!(
                            "FAIL {file}:{line}:{col} diagram {}: unreadable: {message}",
                            d.index
                        )
                    }
                }
            }
            Item::Empty { file } => out!("note {file}: no diagram found"),
            Item::Unusable {
                file,
                line,
                message,
            } => eprintln!("error: {file}:{line}: {message}"),
        }
    }
    let (passed, failed) = counts(items);
    out!("{passed} passed, {failed} failed");
}

fn json(items: &[Item]) {
    use serde_json::json;
    for item in items {
        let v = match item {
            Item::Case {
                file,
                line,
                outcome,
                source,
                ..
            } => {
                let mut v = json!({"file": file, "id": outcome.id, "ok": outcome.ok(), "problems": outcome.problems, "last_move": outcome.last_move});
                if let Some(l) = line {
                    v["line"] = json!(l);
                }
                if let Some(s) = source {
                    v["diagram"] = json!(s);
                }
                v
            }
            Item::Diagram { file, diagram } => {
                let d = diagram;
                let problems: Vec<_> = findings(d)
                    .into_iter()
                    .map(|f| json!({"code": f.code, "error": f.error, "message": f.message, "line": f.at.line, "column": f.at.column}))
                    .collect();
                json!({
                    "file": file,
                    "diagram": d.index,
                    "line": d.at().line,
                    "column": d.at().column,
                    "caption": d.caption(),
                    "game": game_name(d),
                    "fen": d.fen(),
                    "ok": d.passes(),
                    "status": status(d),
                    "problems": problems,
                    "notes": d.notes,
                    "claims": d.claims.iter().map(claim_json).collect::<Vec<_>>(),
                })
            }
            Item::Empty { file } => {
                json!({"file": file, "ok": true, "status": "no_diagram", "problems": []})
            }
            Item::Unusable {
                file,
                line,
                message,
            } => {
                json!({"file": file, "line": line, "ok": false, "status": "unusable", "problems": [{"code": "unusable", "error": true, "message": message, "line": line, "column": 1}]})
            }
        };
        out!("{v}");
    }
}

/// A claim of a caption in a line: what it says of which moves, and what the engine finds.
fn claim_text(c: &Claim) -> String {
    let what = match &c.says {
        Some(says) => format!("{} {says}", c.line.join(" ")),
        None => String::new(),
    };
    match &c.finding {
        ClaimFinding::Verified => format!("claim {:?}: {what}: verified", c.sentence),
        ClaimFinding::Wrong(why) => format!("claim {:?}: {what}: wrong: {why}", c.sentence),
        ClaimFinding::NotUnderstood(why) => {
            format!("info: claim {:?}: not understood: {why}", c.sentence)
        }
    }
}

/// A claim of a caption as JSON.
fn claim_json(c: &Claim) -> serde_json::Value {
    let (result, detail) = match &c.finding {
        ClaimFinding::Verified => ("verified", None),
        ClaimFinding::Wrong(why) => ("wrong", Some(why)),
        ClaimFinding::NotUnderstood(why) => ("not_understood", Some(why)),
    };
    serde_json::json!({
        "sentence": c.sentence,
        "moves": c.line,
        "says": c.says.as_ref().map(ToString::to_string),
        "result": result,
        "detail": detail,
    })
}

/// Where a finding of `diagram` is reported: every report gives a diagram one line, its first
/// (the one its title names); a finding there keeps its column, one elsewhere in the diagram (a
/// FEN on a later line) says its own line and column in its message instead.
fn placed(diagram: &Diagram, at: Place, message: String) -> (usize, usize, String) {
    let line = diagram.at().line;
    if at.line == line {
        (line, at.column, message)
    } else {
        (
            line,
            1,
            format!("{message} (at line {}, column {})", at.line, at.column),
        )
    }
}

/// The failure messages of an item, each with its place (`file:line[:column]: message`).
fn failures(item: &Item) -> Vec<(usize, usize, String)> {
    match item {
        Item::Case {
            line,
            outcome,
            source,
            ..
        } => Item::case_problems(outcome, source)
            .into_iter()
            .map(|p| (line.unwrap_or(1), 1, p))
            .collect(),
        Item::Diagram { diagram, .. } => findings(diagram)
            .into_iter()
            .filter(|f| f.error)
            .map(|f| placed(diagram, f.at, format!("{} ({})", f.message, f.code)))
            .chain(
                diagram
                    .claims
                    .iter()
                    .filter(|c| c.is_wrong())
                    .map(|c| (diagram.at().line, diagram.at().column, claim_text(c))),
            )
            .collect(),
        Item::Empty { .. } => Vec::new(),
        Item::Unusable { line, message, .. } => vec![(*line, 1, message.clone())],
    }
}

fn junit(items: &[Item]) {
    let mut files: Vec<&str> = Vec::new();
    for i in items {
        if !files.contains(&i.file()) {
            files.push(i.file());
        }
    }
    let (passed, failed) = counts(items);
    let errors = items
        .iter()
        .filter(|i| matches!(i, Item::Unusable { .. }))
        .count();
    out!(r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    out!(
        r#"<testsuites name="baroque check" tests="{}" failures="{failed}" errors="{errors}">"#,
        passed + failed + errors
    );
    for file in files {
        let mine: Vec<&Item> = items
            .iter()
            .filter(|i| i.file() == file && !matches!(i, Item::Empty { .. }))
            .collect();
        let f = mine
            .iter()
            .filter(|i| !i.ok() && !matches!(i, Item::Unusable { .. }))
            .count();
        let e = mine
            .iter()
            .filter(|i| matches!(i, Item::Unusable { .. }))
            .count();
        out!(
            r#"  <testsuite name="{}" tests="{}" failures="{f}" errors="{e}">"#,
            crate::diagram::escape(file),
            mine.len()
        );
        for item in mine {
            let line = match item {
                Item::Case { line, .. } => line.unwrap_or(1),
                Item::Diagram { diagram, .. } => diagram.at().line,
                Item::Unusable { line, .. } => *line,
                Item::Empty { .. } => 1,
            };
            let open = format!(
                r#"    <testcase name="{}" classname="{}" file="{}" line="{line}""#,
                crate::diagram::escape(&item.name()),
                crate::diagram::escape(file),
                crate::diagram::escape(file)
            );
            let tag = if matches!(item, Item::Unusable { .. }) {
                "error"
            } else {
                "failure"
            };
            if item.ok() {
                out!("{open}/>");
                continue;
            }
            out!("{open}>");
            for (l, c, message) in failures(item) {
                out!(
                    r#"      <{tag} message="{}">{}:{l}:{c}: {}</{tag}>"#,
                    crate::diagram::escape(&message),
                    crate::diagram::escape(file),
                    crate::diagram::escape(&message)
                );
            }
            out!("    </testcase>");
        }
        out!("  </testsuite>");
    }
    out!("</testsuites>");
}

/// A workflow command's data escaped (`%`, CR, LF).
fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property escaped (also `:` and `,`).
fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

fn github(items: &[Item]) {
    for item in items {
        let file = gh_property(item.file());
        for (line, col, message) in failures(item) {
            out!(
                "::error file={file},line={line},col={col},title={}::{}",
                gh_property(&format!("baroque check: {}", item.name())),
                gh_data(&message)
            );
        }
        // A failed case about a document's diagram shows on the diagram's line too.
        if let Item::Case {
            outcome,
            diagram_at: Some((doc, line)),
            ..
        } = item
        {
            if !outcome.ok() {
                out!(
                    "::error file={},line={line},title={}::{}",
                    gh_property(doc),
                    gh_property(&format!("baroque check: case {}", outcome.id)),
                    gh_data(&outcome.problems.join("; "))
                );
            }
        }
        if let Item::Diagram { diagram, .. } = item {
            for n in &diagram.notes {
                out!(
                    "::notice file={file},line={},col={},title={}::{}",
                    diagram.at().line,
                    diagram.at().column,
                    gh_property(&format!("baroque check: {}", item.name())),
                    gh_data(n)
                );
            }
            for f in findings(diagram).into_iter().filter(|f| !f.error) {
                let (line, col, message) =
                    placed(diagram, f.at, format!("{} ({})", f.message, f.code));
                out!(
                    "::warning file={file},line={line},col={col},title={}::{}",
                    gh_property(&format!("baroque check: {}", item.name())),
                    gh_data(&message)
                );
            }
        }
    }
    let (passed, failed) = counts(items);
    out!("{passed} passed, {failed} failed");
}
