//! The puzzle player in a real browser: starts `baroque serve`, then runs the Playwright
//! scenarios of tests/browser/player.test.mjs in Debian's Chromium (`node --test`).
//!
//! Needs node, Chromium (`CHROMIUM`, else `/usr/bin/chromium`) and `npm ci` in tests/browser, so
//! it is ignored by a plain `cargo test` (the summary counts it, with the reason) and run by
//! `cargo test --test browser -- --ignored` (as CI does), which fails without them.

mod common;
use common::Served;
use std::path::{Path, PathBuf};

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    path.exists().then_some(path)
}

#[test]
#[ignore = "needs node, Chromium and `npm ci` in tests/browser: cargo test --test browser -- --ignored"]
fn the_player_plays_in_chromium() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let node = std::process::Command::new("node").arg("--version").output();
    let ready = node.is_ok_and(|o| o.status.success())
        && dir.join("node_modules/playwright-core").is_dir()
        && chromium().is_some();
    assert!(
        ready,
        "the browser tests need node, Chromium (/usr/bin/chromium or CHROMIUM) and `npm ci` in \
         tests/browser"
    );
    // A write token, for the scenarios that generate a collection and post attempts as a site
    // would.
    let token = "browser-write-token-0123";
    let store = tempfile::tempdir().expect("a temporary directory");
    let served = Served::start_at(
        store.path().join("baroque.db"),
        &[],
        &[("BAROQUE_WRITE_TOKEN", token)],
        store,
    );
    let (status, list) = served.get("/v1/puzzles?limit=200");
    assert_eq!(status, 200);
    let ids: serde_json::Map<String, serde_json::Value> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| Some((p["fixture"].as_str()?.to_string(), p["id"].clone())))
        .collect();
    let out = std::process::Command::new("node")
        .args(["--test", "--test-reporter=spec", "player.test.mjs"])
        .current_dir(&dir)
        .env("BAROQUE_URL", &served.base)
        .env(
            "BAROQUE_PUZZLES",
            serde_json::Value::Object(ids).to_string(),
        )
        .env("BAROQUE_TOKEN", token)
        .env("CHROMIUM", chromium().unwrap())
        .output()
        .expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(out.status.success(), "{text}");
    // node's summary: every scenario ran and passed (at least the seventeen written today).
    let count = |label: &str| -> usize {
        text.lines()
            .find_map(|l| l.trim_start_matches(['ℹ', '#', ' ']).strip_prefix(label))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    };
    assert!(count("tests ") >= 17, "{text}");
    assert_eq!(count("pass "), count("tests "), "{text}");
}
