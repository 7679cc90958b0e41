//! The README and the book under `docs/` stay true to the service.
//!
//! - Every console example of `README.md` and of each chapter of `docs/src/SUMMARY.md` gives what
//!   the document shows, run against a freshly started server (one per document, with a new store),
//!   in the order a reader reads them.
//! - The endpoint table of the API guide lists exactly the operations of the OpenAPI document (and
//!   the two pages beside it), its table of problem types exactly the problems the API sends, and
//!   the configuration table of Operations exactly the flags of `baroque serve`.
//! - Every relative link of the README, `ARCHITECTURE.md` and the book leads to a file, and its
//!   `#anchor` to a heading there; every chapter is listed in `SUMMARY.md`.
//! - The README's picture is what the binary draws now.
//!
//! In a console example, `$ ` starts a command (continued over lines ending in `\` or inside
//! quotes) and the lines up to the next command are its standard output. `...` in an output line
//! stands for any text (ids, timings and other values that vary, or parts left out); a line that is
//! only `...` stands for any number of lines.
#![cfg(unix)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The text of a file of the repository, by its path from the root.
fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The chapters of the book, in the order of `docs/src/SUMMARY.md`, as paths from the root.
fn chapters() -> Vec<String> {
    read("docs/src/SUMMARY.md")
        .lines()
        .filter_map(|l| {
            let target = l.split("](").nth(1)?.split(')').next()?;
            target
                .ends_with(".md")
                .then(|| format!("docs/src/{target}"))
        })
        .collect()
}

/// The documents whose examples are run: the README, then the chapters of the book.
fn documents() -> Vec<String> {
    let mut docs = vec!["README.md".to_string()];
    docs.extend(chapters());
    docs
}

/// The rows of the tables of `text` whose first cell is in backquotes, as their cells (trimmed,
/// the backquotes of each cell kept).
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.trim().trim_matches('|').split(" | ").collect();
            cells.iter().map(|c| c.trim().to_string()).collect()
        })
        .collect()
}

/// `` `x` `` without its backquotes.
fn unquote(cell: &str) -> Option<&str> {
    cell.strip_prefix('`')?.strip_suffix('`')
}

#[test]
fn the_endpoint_table_lists_every_operation() {
    let text = read("docs/src/api.md");
    let mut table: Vec<String> = Vec::new();
    for row in table_rows(&text) {
        let (Some(method), Some(path)) = (unquote(&row[0]), row.get(1).and_then(|c| unquote(c)))
        else {
            continue;
        };
        if method.chars().all(|c| c.is_ascii_uppercase()) && path.starts_with('/') {
            table.push(format!("{method} {path}"));
        }
    }
    let listed: BTreeSet<String> = table.iter().cloned().collect();
    assert_eq!(listed.len(), table.len(), "a row twice: {table:?}");
    let doc: serde_json::Value = serde_json::from_str(&baroque::api::openapi_json()).unwrap();
    let mut ops: BTreeSet<String> = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            ops.insert(format!("{} {path}", method.to_uppercase()));
        }
    }
    ops.insert("GET /openapi.json".into());
    ops.insert("GET /docs/".into());
    assert_eq!(
        listed, ops,
        "the endpoint table of docs/src/api.md against the OpenAPI document"
    );
}

/// The query parameters (`?a=&b=`) and the request body's fields (the keys of a `{"a", "b": ...}`
/// written in code) that a cell of the endpoint table names.
fn named_fields(cell: &str) -> (Vec<String>, Vec<String>) {
    let mut query = Vec::new();
    let mut body = Vec::new();
    for code in cell.split('`').skip(1).step_by(2) {
        if let Some(q) = code.strip_prefix('?') {
            query.extend(
                q.split('&')
                    .filter_map(|p| p.split_once('=').map(|(n, _)| n.to_string())),
            );
        }
        // The keys at the first level of braces: quoted names not after a colon.
        let mut depth = 0;
        let mut after_colon = false;
        let mut chars = code.chars();
        while let Some(c) = chars.next() {
            match c {
                '{' => {
                    depth += 1;
                    after_colon = false;
                }
                '}' => depth -= 1,
                ':' => after_colon = true,
                ',' => after_colon = false,
                '"' => {
                    let name: String = chars.by_ref().take_while(|&c| c != '"').collect();
                    if depth == 1 && !after_colon {
                        body.push(name);
                    }
                }
                _ => {}
            }
        }
    }
    (query, body)
}

#[test]
fn the_endpoint_table_names_only_real_fields_and_every_stipulation_field() {
    let doc: serde_json::Value = serde_json::from_str(&baroque::api::openapi_json()).unwrap();
    let schema = |s: &serde_json::Value| -> serde_json::Value {
        match s["$ref"].as_str() {
            Some(r) => doc["components"]["schemas"][r.rsplit('/').next().unwrap()].clone(),
            None => s.clone(),
        }
    };
    let mut checked = 0;
    for row in table_rows(&read("docs/src/api.md")) {
        let (Some(method), Some(path)) = (unquote(&row[0]), row.get(1).and_then(|c| unquote(c)))
        else {
            continue;
        };
        let op = &doc["paths"][path][method.to_lowercase()];
        if op.is_null() {
            continue;
        }
        let params: BTreeSet<String> = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|p| p["in"] == "query")
            .map(|p| p["name"].as_str().unwrap().to_string())
            .collect();
        let body = schema(&op["requestBody"]["content"]["application/json"]["schema"]);
        let fields: BTreeSet<String> = body["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k.clone())
            .collect();
        let what = &row[2];
        let (query, keys) = named_fields(what);
        for q in &query {
            assert!(
                params.contains(q),
                "{method} {path}: no query parameter `{q}` ({params:?})"
            );
        }
        if !fields.is_empty() {
            for k in &keys {
                assert!(
                    fields.contains(k),
                    "{method} {path}: no body field `{k}` ({fields:?})"
                );
            }
        }
        if params.contains("stipulation") || fields.contains("stipulation") {
            assert!(
                what.contains("stipulation"),
                "{method} {path} takes a stipulation, its row does not say so: {what}"
            );
        }
        checked += query.len() + keys.len();
    }
    assert!(
        checked > 50,
        "only {checked} fields named in the endpoint table"
    );
}

#[test]
fn the_problem_types_are_all_listed() {
    let text = read("docs/src/api.md");
    let table: BTreeMap<String, String> = table_rows(&text)
        .into_iter()
        .filter_map(|row| {
            let t = unquote(&row[0])?.strip_prefix("/problems/")?.to_string();
            Some((t, row.get(1)?.clone()))
        })
        .collect();
    let mut sent: BTreeMap<String, String> = BTreeMap::new();
    for e in baroque::api::problem::ApiError::samples() {
        let p = e.problem();
        let slug = p.problem_type.trim_start_matches("/problems/").to_string();
        sent.insert(slug, p.status.to_string());
    }
    assert_eq!(
        table, sent,
        "the problem types of docs/src/api.md (type and status) against the API's"
    );
}

#[test]
fn the_configuration_table_has_every_flag_of_serve() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    // The option lines: `  --name <VALUE>` or `  -x, --name`.
    let flags: BTreeSet<String> = help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("--") || (l.starts_with('-') && l.contains(", --")))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .filter(|w| *w != "--help")
        .map(|w| w.split('<').next().unwrap().to_string())
        .collect();
    assert!(flags.len() > 20, "{flags:?}");
    let text = read("docs/src/operations.md");
    let table: BTreeSet<String> = table_rows(&text)
        .into_iter()
        .filter_map(|row| {
            let flag = unquote(&row[0])?;
            (flag.starts_with("--") && row.len() == 4).then(|| flag.to_string())
        })
        .collect();
    assert_eq!(
        table, flags,
        "the configuration table of docs/src/operations.md against `baroque serve --help`"
    );
    // Each flag's variable and default, as the help prints them under it (`[env: NAME=]`,
    // `[default: VALUE]`): the table's second and third cells. A flag without a default shows
    // words (`none`, `one per CPU core`) or the flag it follows, not a value in code.
    let mut help_of: BTreeMap<String, (Option<String>, Option<String>)> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in help.lines().map(str::trim) {
        if line.starts_with("--") || (line.starts_with('-') && line.contains(", --")) {
            current = line
                .split_whitespace()
                .find(|w| w.starts_with("--"))
                .map(|w| w.split('<').next().unwrap().to_string());
            if let Some(flag) = &current {
                help_of.insert(flag.clone(), (None, None));
            }
        } else if let (Some(flag), Some(inner)) = (
            &current,
            line.strip_prefix('[').and_then(|l| l.strip_suffix(']')),
        ) {
            let entry = help_of.get_mut(flag).unwrap();
            if let Some(env) = inner.strip_prefix("env: ") {
                entry.0 = Some(env.split('=').next().unwrap().to_string());
            } else if let Some(default) = inner.strip_prefix("default: ") {
                entry.1 = Some(default.to_string());
            }
        }
    }
    let mut compared = 0;
    for row in table_rows(&text) {
        let Some(flag) = unquote(&row[0]) else {
            continue;
        };
        if !(flag.starts_with("--") && row.len() == 4) {
            continue;
        }
        let (env, default) = &help_of[flag];
        assert_eq!(
            unquote(&row[1]),
            env.as_deref(),
            "{flag}: the variable in docs/src/operations.md against `baroque serve --help`"
        );
        match default {
            Some(d) => assert_eq!(
                unquote(&row[2]),
                Some(d.as_str()),
                "{flag}: the default in docs/src/operations.md against `baroque serve --help`"
            ),
            None => assert!(
                !row[2].starts_with('`') || row[2].starts_with("`--"),
                "{flag}: `baroque serve --help` gives no default, the table gives {}",
                row[2]
            ),
        }
        compared += 1;
    }
    assert_eq!(compared, flags.len());
}

/// A command of a console example and the output the document shows for it.
#[derive(Debug)]
struct Example {
    command: String,
    output: Vec<String>,
}

/// The console examples of a document, in order.
fn console_examples(text: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut in_block = false;
    let mut pending: Option<String> = None;
    for line in text.lines() {
        if !in_block {
            in_block = line.trim() == "```console";
            continue;
        }
        if line.trim() == "```" {
            in_block = false;
            pending = None;
            continue;
        }
        if let Some(cmd) = pending.as_mut() {
            cmd.push('\n');
            cmd.push_str(line);
            if complete(cmd) {
                examples.push(Example {
                    command: pending.take().unwrap(),
                    output: Vec::new(),
                });
            }
        } else if let Some(cmd) = line.strip_prefix("$ ") {
            if complete(cmd) {
                examples.push(Example {
                    command: cmd.to_string(),
                    output: Vec::new(),
                });
            } else {
                pending = Some(cmd.to_string());
            }
        } else if let Some(last) = examples.last_mut() {
            last.output.push(line.to_string());
        }
    }
    examples
}

/// Whether a command's text is whole: no quote left open and no `\` at its end.
fn complete(cmd: &str) -> bool {
    let (mut single, mut double, mut escaped) = (false, false, false);
    for c in cmd.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ => {}
        }
    }
    !single && !double && !cmd.trim_end().ends_with('\\')
}

/// Whether an output line matches a document's line (`...` stands for any text).
fn line_matches(want: &str, got: &str) -> bool {
    let parts: Vec<&str> = want.split("...").collect();
    if parts.len() == 1 {
        return want == got;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !got.starts_with(first) || got.len() < first.len() + last.len() || !got.ends_with(last) {
        return false;
    }
    let mut rest = &got[first.len()..got.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether output lines match the document's (a line `...` stands for any number of lines).
fn lines_match(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w == "..." => (0..=got.len()).any(|k| lines_match(rest, &got[k..])),
        Some((w, rest)) => {
            !got.is_empty() && line_matches(w, got[0]) && lines_match(rest, &got[1..])
        }
    }
}

/// The files a command writes with `-o NAME` (not `/dev/null`).
fn written_files(command: &str) -> Vec<String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[0] == "-o" && w[1] != "/dev/null")
        .map(|w| w[1].to_string())
        .collect()
}

/// Runs the console examples of one document against a server of its own, in order.
fn run_examples(doc: &str, examples: &[Example]) {
    let work = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(root().join("fixtures"), work.path().join("fixtures")).unwrap();
    let token = "readme-token";
    // The examples run back to back, faster than anyone types them: more costly requests than the
    // default burst of the rate limit (10 at once) would be refused, so the limit is lifted.
    let server = common::Served::start_in(
        work.path().join("baroque.db"),
        &[],
        &[
            ("BAROQUE_WRITE_TOKEN", token),
            ("BAROQUE_RATE_LIMIT_PER_MINUTE", "0"),
        ],
        tempfile::tempdir().unwrap(),
        work.path(),
    );
    let bin = env!("CARGO_BIN_EXE_baroque");
    for ex in examples {
        let command = ex
            .command
            .replace("http://127.0.0.1:8080", &server.base)
            .replace("cargo run --release --", bin);
        // A GET may show a state reached later (a job done): it is asked again for a while.
        let retry =
            !command.contains(" -X ") && !command.contains(" -d ") && !command.contains(bin);
        let deadline = Instant::now() + Duration::from_secs(if retry { 60 } else { 0 });
        loop {
            let out = std::process::Command::new("bash")
                .arg("-c")
                .arg(&command)
                .current_dir(work.path())
                .env("BAROQUE_WRITE_TOKEN", token)
                .env("NO_COLOR", "1")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout).to_string();
            let got: Vec<&str> = stdout.lines().collect();
            if lines_match(&ex.output, &got) {
                break;
            }
            if Instant::now() > deadline {
                panic!(
                    "{doc}: the example\n$ {}\nshows\n{}\nbut gives (exit {:?})\n{}\n{}",
                    ex.command,
                    ex.output.join("\n"),
                    out.status.code(),
                    stdout,
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        for file in written_files(&ex.command) {
            assert!(
                work.path().join(&file).is_file(),
                "{doc}: `$ {}` wrote no {file}",
                ex.command
            );
        }
    }
}

#[test]
fn every_console_example_gives_what_the_documents_show() {
    let mut count = 0;
    for doc in documents() {
        let examples = console_examples(&read(&doc));
        count += examples.len();
        if !examples.is_empty() {
            run_examples(&doc, &examples);
        }
    }
    assert!(
        count >= 70,
        "only {count} console examples in the README and the book"
    );
}

#[test]
fn the_readme_has_the_tour() {
    let examples = console_examples(&read("README.md"));
    assert!(examples.len() >= 5, "{examples:#?}");
    for doc in chapters() {
        if doc.starts_with("docs/src/api/") {
            let n = console_examples(&read(&doc)).len();
            assert!(n >= 1, "{doc} has no console example");
        }
    }
}

/// The documents whose links are checked: the README, `ARCHITECTURE.md` and every Markdown file
/// of the book.
fn linked_documents() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut docs = vec![
        root().join("README.md"),
        root().join("ARCHITECTURE.md"),
        root().join("CHANGELOG.md"),
    ];
    walk(&root().join("docs/src"), &mut docs);
    docs.sort();
    docs
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> Vec<&str> {
    let mut fence: Option<&str> = None;
    let mut lines = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        match fence {
            Some(f) if t.starts_with(f) => fence = None,
            Some(_) => {}
            None if t.starts_with("```") => fence = Some("```"),
            None if t.starts_with("~~~") => fence = Some("~~~"),
            None => lines.push(line),
        }
    }
    lines
}

/// The text of a Markdown file with mdBook's `{{#include PATH}}` replaced by the file it names.
fn expanded(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = String::new();
    for line in text.lines() {
        match line
            .trim()
            .strip_prefix("{{#include ")
            .and_then(|r| r.strip_suffix("}}"))
        {
            Some(included) => out.push_str(&expanded(&path.parent().unwrap().join(included))),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The anchor GitHub and mdBook give a heading: lower case, spaces to `-`, every character but
/// letters, digits, `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, ...).
fn anchors(path: &Path) -> BTreeSet<String> {
    let text = expanded(path);
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    for line in prose_lines(&text) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let s = slug(&line[hashes..]);
        let n = seen.entry(s.clone()).or_insert(0);
        anchors.insert(if *n == 0 {
            s.clone()
        } else {
            format!("{s}-{n}")
        });
        *n += 1;
    }
    anchors
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside code.
fn links(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        // Code spans hold no links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, p)| p)
            .collect::<Vec<_>>()
            .join(" ");
        for part in prose.split("](").skip(1) {
            if let Some(end) = part.find(')') {
                let target = part[..end].split_whitespace().next().unwrap_or("");
                targets.push(target.to_string());
            }
        }
    }
    targets
}

#[test]
fn every_internal_link_resolves() {
    let mut broken = Vec::new();
    for doc in linked_documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = doc.strip_prefix(root()).unwrap().display().to_string();
        for target in links(&text) {
            if target.is_empty()
                || target.starts_with("http://")
                || target.starts_with("https://")
                || target.starts_with("mailto:")
            {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(file)
            };
            if !path.exists() {
                broken.push(format!("{name}: {target}: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                if path.extension().is_some_and(|e| e == "md") && !anchors(&path).contains(anchor) {
                    broken.push(format!("{name}: {target}: no heading with that anchor"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_chapter_is_in_the_summary() {
    let listed: BTreeSet<PathBuf> = chapters().iter().map(|c| root().join(c)).collect();
    for chapter in &listed {
        assert!(
            chapter.is_file(),
            "SUMMARY.md lists {}, which is missing",
            chapter.display()
        );
    }
    for doc in linked_documents() {
        if doc.starts_with(root().join("docs/src")) && !doc.ends_with("SUMMARY.md") {
            assert!(
                listed.contains(&doc),
                "{} is not listed in docs/src/SUMMARY.md",
                doc.display()
            );
        }
    }
}

#[test]
fn the_link_checker_reads_markdown() {
    assert_eq!(
        slug(" Several replicas with Compose (`compose.yaml`)"),
        "several-replicas-with-compose-composeyaml"
    );
    assert_eq!(
        slug(" PostgreSQL: one store for several replicas"),
        "postgresql-one-store-for-several-replicas"
    );
    assert_eq!(
        slug(" Health, readiness and request_ids"),
        "health-readiness-and-request_ids"
    );
    let text = "See [a](b.md#c) and `[not](a link)`.\n```\n[nor](this.md)\n```\n[x](https://e.org) [y](#z)";
    assert_eq!(links(text), ["b.md#c", "https://e.org", "#z"]);
}

/// The picture of the README: the Chameleon mate in 2 of the seed fixtures, as the service draws it.
const PICTURE: &str = "docs/src/images/chameleon.svg";
const PICTURE_QUERY: &str =
    "/v1/diagram.svg?fen=2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5%20w%200&size=360";

#[test]
fn the_readme_picture_is_what_the_binary_draws() {
    let server = common::Served::start(&["--no-seed"]);
    let mut res = server
        .agent
        .get(format!("{}{PICTURE_QUERY}", server.base))
        .call()
        .expect("the server answers");
    assert_eq!(res.status().as_u16(), 200);
    let drawn = res.body_mut().read_to_string().unwrap();
    let path = root().join(PICTURE);
    if std::env::var_os("BAROQUE_BLESS").is_some() {
        std::fs::write(&path, &drawn).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == drawn,
        "{PICTURE} is not what the binary draws now; draw it again with\n  \
         BAROQUE_BLESS=1 cargo test --test readme the_readme_picture\n\
         or, with `cargo run --release -- serve` running,\n  \
         curl -s 'http://127.0.0.1:8080{PICTURE_QUERY}' -o {PICTURE}"
    );
    assert!(
        read("README.md").contains(PICTURE),
        "the README shows {PICTURE}"
    );
}

#[test]
fn the_example_matcher_reads_placeholders() {
    assert!(line_matches("a...c", "abbbc"));
    assert!(line_matches("{\"id\":...,\"x\":1}", "{\"id\":65,\"x\":1}"));
    assert!(!line_matches("a...c", "abbbd"));
    assert!(line_matches("...", "anything"));
    assert!(!line_matches("abc", "abcd"));
    let want: Vec<String> = ["ok   a", "...", "3 passed"].map(String::from).to_vec();
    assert!(lines_match(
        &want,
        &["ok   a", "ok   b", "ok   c", "3 passed"]
    ));
    assert!(lines_match(&want, &["ok   a", "3 passed"]));
    assert!(!lines_match(&want, &["ok   a", "3 passed", "more"]));
    assert!(complete("curl -d '{\"a\": 1}'"));
    assert!(!complete("curl -d '{\"a\":"));
    assert!(!complete("curl \\"));
}
