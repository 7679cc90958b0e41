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
fn the_service_is_built_on_the_engine_crates() {
    let deps = dependencies("baroque");
    for layer in ["baroque-rules", "baroque-solver"] {
        assert!(deps.contains(layer), "baroque does not use {layer}");
    }
}
