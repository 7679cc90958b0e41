//! The README stays true to the service: every console example gives what the README shows, run
//! against a freshly started server; its endpoint table lists exactly the operations of the
//! OpenAPI document (and the two pages beside it), its list of problem types holds every kind the
//! API sends, and its configuration table every flag of `baroque serve`.
//!
//! In a README console example, `$ ` starts a command (continued over lines ending in `\` or
//! inside quotes) and the lines up to the next command are its standard output. `...` in an output
//! line stands for any text (ids, timings and other values that vary, or parts left out); a line
//! that is only `...` stands for any number of lines.
#![cfg(unix)]

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

mod common;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn the_endpoint_table_lists_every_operation() {
    let text = readme();
    let table: BTreeSet<String> = text
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let method = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            let path = cells.get(2)?.strip_prefix('`')?.strip_suffix('`')?;
            (method.chars().all(|c| c.is_ascii_uppercase()) && path.starts_with('/'))
                .then(|| format!("{method} {path}"))
        })
        .collect();
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
        table, ops,
        "README endpoint table against the OpenAPI document"
    );
}

#[test]
fn the_problem_types_are_all_listed() {
    let text = readme();
    let start = text
        .find("The problem types")
        .expect("the list of problem types");
    let list = &text[start..start + text[start..].find("\n\n").unwrap()];
    for e in baroque::api::problem::ApiError::samples() {
        let t = e.problem().problem_type;
        let slug = t.trim_start_matches("/problems/");
        assert!(
            list.contains(&format!("`{slug}`")),
            "README lacks `{slug}`: {list}"
        );
    }
}

#[test]
fn the_configuration_table_has_every_flag_of_serve() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    let text = readme();
    // The option lines: `  --name <VALUE>` or `  -x, --name`.
    let flags: Vec<&str> = help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("--") || (l.starts_with('-') && l.contains(", --")))
        .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("--")))
        .filter(|w| *w != "--help")
        .collect();
    assert!(flags.len() > 20, "{flags:?}");
    for flag in flags {
        let flag = flag.split('<').next().unwrap();
        assert!(
            text.contains(&format!("| `{flag}` |")),
            "README's configuration table lacks {flag}"
        );
    }
}

/// A command of a console example and the output the README shows for it.
#[derive(Debug)]
struct Example {
    command: String,
    output: Vec<String>,
}

/// The console examples of the README, in order.
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

/// Whether an output line matches a README line (`...` stands for any text).
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

/// Whether output lines match the README's (a line `...` stands for any number of lines).
fn lines_match(want: &[String], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w == "..." => (0..=got.len()).any(|k| lines_match(rest, &got[k..])),
        Some((w, rest)) => {
            !got.is_empty() && line_matches(w, got[0]) && lines_match(rest, &got[1..])
        }
    }
}

#[test]
fn every_console_example_gives_what_the_readme_shows() {
    let examples = console_examples(&readme());
    assert!(examples.len() >= 15, "{examples:#?}");
    let work = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        work.path().join("fixtures"),
    )
    .unwrap();
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
    for ex in &examples {
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
                    "README example\n$ {}\nshows\n{}\nbut gives (exit {:?})\n{}\n{}",
                    ex.command,
                    ex.output.join("\n"),
                    out.status.code(),
                    stdout,
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }
    // The diagrams went to the scratch directory.
    assert!(work.path().join("start.svg").is_file());
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
