//! The layers of the workspace, checked from what Cargo resolves (`cargo tree`, normal
//! dependencies, transitive): the crates below the service never depend on the ones above them,
//! nor on web, async, database, JSON or command-line crates.

use std::collections::BTreeSet;
use std::process::Command;

/// Every package `package` depends on through normal dependencies (itself included), by name.
fn dependencies(package: &str) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--offline", "-p", package, "-e", "normal"])
        .args(["--prefix", "none", "--format", "{p}"])
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// What the engine crates must not depend on.
const OUTSIDE_THE_ENGINE: [&str; 13] = [
    "actix-web",
    "actix-rt",
    "actix-http",
    "tokio",
    "rusqlite",
    "postgres",
    "r2d2",
    "utoipa",
    "serde_json",
    "metrics",
    "clap",
    "tracing",
    "libsqlite3-sys",
];

fn workspace_crates(deps: &BTreeSet<String>) -> Vec<&str> {
    deps.iter()
        .map(String::as_str)
        .filter(|d| *d == "baroque" || d.starts_with("baroque-"))
        .collect()
}

#[test]
fn the_rules_depend_on_no_other_crate_of_the_workspace_nor_on_the_service_s_crates() {
    let deps = dependencies("baroque-rules");
    assert_eq!(workspace_crates(&deps), ["baroque-rules"]);
    for banned in OUTSIDE_THE_ENGINE {
        assert!(!deps.contains(banned), "baroque-rules depends on {banned}");
    }
}

#[test]
fn the_solver_depends_only_on_the_rules_within_the_workspace() {
    let deps = dependencies("baroque-solver");
    assert_eq!(workspace_crates(&deps), ["baroque-rules", "baroque-solver"]);
    for banned in OUTSIDE_THE_ENGINE {
        assert!(!deps.contains(banned), "baroque-solver depends on {banned}");
    }
}

#[test]
fn the_puzzle_crate_depends_on_the_engine_and_nothing_above_it() {
    let deps = dependencies("baroque-puzzle");
    assert_eq!(
        workspace_crates(&deps),
        ["baroque-puzzle", "baroque-rules", "baroque-solver"]
    );
    // What the engine may not use, but JSON: its formats and stored outcome are JSON.
    for banned in OUTSIDE_THE_ENGINE.iter().filter(|c| **c != "serde_json") {
        assert!(
            !deps.contains(*banned),
            "baroque-puzzle depends on {banned}"
        );
    }
}

/// The non-test code of a crate's source files: each file up to its `#[cfg(test)]` module.
fn non_test_code(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            non_test_code(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("\n#[cfg(test)]").next().unwrap_or_default();
            out.push((path, code.to_string()));
        }
    }
}

#[test]
fn the_store_depends_on_the_puzzle_layer_and_no_web_or_command_line_crate() {
    let deps = dependencies("baroque-store");
    assert_eq!(
        workspace_crates(&deps),
        [
            "baroque-puzzle",
            "baroque-rules",
            "baroque-solver",
            "baroque-store"
        ]
    );
    for banned in ["actix-web", "actix-rt", "actix-http", "utoipa", "clap"] {
        assert!(!deps.contains(banned), "baroque-store depends on {banned}");
    }
}

/// Fails when the non-test code of crate `dir` (under `crates/`) holds untyped JSON.
fn no_untyped_json(dir: &str, at_least: usize) {
    let mut files = Vec::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates")
        .join(dir)
        .join("src");
    non_test_code(&src, &mut files);
    assert!(files.len() >= at_least, "{files:?}");
    for (path, code) in &files {
        for untyped in [
            "serde_json::Value",
            "serde_json::value::Value",
            "to_value",
            "from_value",
            "json!",
            "serde_json::Map",
            "use serde_json::{",
        ] {
            assert!(
                !code.contains(untyped),
                "{} uses {untyped} outside its tests",
                path.display()
            );
        }
    }
}

#[test]
fn the_puzzle_crate_types_its_json_no_untyped_value_outside_tests() {
    no_untyped_json("puzzle", 8);
}

/// The store keeps the application's documents (a job's request and view, a collection's summary)
/// as checked JSON text it does not read, and everything else typed.
#[test]
fn the_store_holds_no_untyped_value_outside_tests() {
    no_untyped_json("store", 5);
}

#[test]
fn the_service_is_built_on_the_engine_crates() {
    let deps = dependencies("baroque");
    for layer in [
        "baroque-rules",
        "baroque-solver",
        "baroque-puzzle",
        "baroque-store",
        "baroque-app",
        "baroque-documents",
        "baroque-diagram",
    ] {
        assert!(deps.contains(layer), "baroque does not use {layer}");
    }
}

/// Whether `code` names the store crate or module: a path through it (`crate::store`,
/// `baroque::store`, `baroque_store`, under any alias), or `store` in a grouped import of the crate
/// (`use crate::{app, store}`). `baroque_store_` (a metric's name) is not the crate.
fn names_the_store(code: &str) -> Option<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for (at, _) in code.match_indices("baroque_store") {
        if !code[at + "baroque_store".len()..].starts_with(|c: char| word(c)) {
            return Some("baroque_store".into());
        }
    }
    for path in ["crate::store", "baroque::store", "store::Store"] {
        if code.contains(path) {
            return Some(path.into());
        }
    }
    for prefix in ["crate::{", "baroque::{"] {
        for (at, _) in code.match_indices(prefix) {
            let group = &code[at + prefix.len()..];
            let group = &group[..group.find('}').unwrap_or(group.len())];
            if group.split(|c: char| !word(c)).any(|w| w == "store") {
                return Some(format!("store in {prefix}...}}"));
            }
        }
    }
    None
}

/// The edges (the HTTP API, the command line, the binary's `main`) reach the store only through
/// the application layer (`app::Library` and the use cases): none of their files names it.
#[test]
fn the_api_and_the_cli_reach_the_store_only_through_the_application_layer() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for edge in ["src/api", "src/cli"] {
        non_test_code(&root.join(edge), &mut files);
    }
    for file in ["src/cli.rs", "src/main.rs"] {
        files.push((
            root.join(file),
            std::fs::read_to_string(root.join(file)).unwrap(),
        ));
    }
    assert!(files.len() >= 20, "{files:?}");
    for (path, code) in &files {
        if let Some(named) = names_the_store(code) {
            panic!("{} names {named}: go through crate::app", path.display());
        }
    }
    // The check sees what it is meant to.
    assert!(names_the_store("use baroque_store as s;").is_some());
    assert!(names_the_store("use crate::{app, store};").is_some());
    assert!(names_the_store("let s: crate::store::Store;").is_some());
    assert!(names_the_store("counter!(\"baroque_store_errors_total\")").is_none());
    assert!(names_the_store("use crate::app::library::StoreError;").is_none());
}

/// The command line's subcommands use no HTTP module but the two the edges share: the wire types
/// ([`baroque::api::wire`]: what both the service and the command line write, such as a stored
/// puzzle as JSON) and the configuration's `--db` flag. Only `cli.rs` names the rest, for `serve`
/// and `openapi`.
#[test]
fn the_subcommands_name_no_http_module_but_the_wire_types_and_the_configuration() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    non_test_code(&root.join("src/cli"), &mut files);
    assert!(files.len() >= 4, "{files:?}");
    let names_api = |code: &str| {
        let shared = ["crate::api::wire::", "crate::api::configuration::"];
        let mut rest = code.to_string();
        for s in shared {
            rest = rest.replace(s, "");
        }
        rest.contains("crate::api")
            || rest.contains("baroque::api")
            || rest.contains("super::api")
            || rest.contains("actix")
    };
    for (path, code) in &files {
        assert!(!names_api(code), "{} names the HTTP layer", path.display());
    }
    assert!(names_api(
        "let json = crate::api::routes::collections::json_line;"
    ));
    assert!(!names_api("let json = crate::api::wire::json_line;"));
}

/// The application layer and the crates it stands on hold no web, command-line or OpenAPI code:
/// the edges adapt its typed requests and reports.
#[test]
fn the_application_layer_depends_on_no_web_command_line_or_schema_crate() {
    let deps = dependencies("baroque-app");
    assert_eq!(
        workspace_crates(&deps),
        [
            "baroque-app",
            "baroque-puzzle",
            "baroque-rules",
            "baroque-solver",
            "baroque-store"
        ]
    );
    for banned in [
        "actix-web",
        "actix-rt",
        "actix-http",
        "utoipa",
        "clap",
        "hyper",
    ] {
        assert!(!deps.contains(banned), "baroque-app depends on {banned}");
    }
}

/// Reading rule documents and drawing diagrams need the games and the case files, nothing else of
/// the workspace, and no web, database, async or command-line crate.
#[test]
fn the_documents_and_the_diagrams_stand_on_the_engine_alone() {
    for (krate, inside) in [
        ("baroque-diagram", vec!["baroque-diagram", "baroque-rules"]),
        (
            "baroque-documents",
            vec![
                "baroque-documents",
                "baroque-puzzle",
                "baroque-rules",
                "baroque-solver",
            ],
        ),
    ] {
        let deps = dependencies(krate);
        assert_eq!(workspace_crates(&deps), inside);
        for banned in OUTSIDE_THE_ENGINE.iter().filter(|c| **c != "serde_json") {
            assert!(!deps.contains(*banned), "{krate} depends on {banned}");
        }
    }
}

/// The benchmarks, the examples and the fuzz targets call the use cases and the engine, never the
/// HTTP layer: what they measure and fuzz is what both edges run.
#[test]
fn benches_examples_and_fuzz_targets_name_no_http_module() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["benches", "examples", "fuzz/fuzz_targets"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                let code = std::fs::read_to_string(&path).unwrap();
                files.push((path, code));
            }
        }
    }
    assert!(files.len() >= 8, "{}", files.len());
    for (path, code) in &files {
        assert!(
            !code.contains("baroque::api"),
            "{} names the HTTP layer",
            path.display()
        );
    }
}

/// The handlers stay thin: the use cases are the application layer's, the request and answer
/// types `api::wire`'s, so `src/api/routes` holds the handlers, their documentation and little
/// else.
#[test]
fn the_handlers_are_thin() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/api/routes");
    let lines: usize = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            std::fs::read_to_string(e.unwrap().path())
                .unwrap()
                .lines()
                .count()
        })
        .sum();
    assert!(lines <= 3_500, "src/api/routes holds {lines} lines");
}
