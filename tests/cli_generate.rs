//! `baroque generate` through the real binary: a collection of sound puzzles in the store,
//! reproducible from its seed, with its errors and limits.

use baroque::rules::{Position, Rules};
use baroque::solver::{solve, SolveOptions};
use baroque::store::Store;
use std::process::Command;

mod common;

fn generate(db: &std::path::Path, name: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(["generate", "--collection", name])
        .args(["--seed", "42"])
        .arg("--db")
        .arg(db)
        .args(extra)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn generate_stores_a_reproducible_collection_of_sound_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    let flags = [
        "--game",
        "baroque",
        "--rules",
        "abbott",
        "--mate-in",
        "2",
        "--count",
        "3",
        "--max-pieces",
        "8",
    ];
    let (code, out, err) = generate(&db, "first", &flags);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("collection first: 3 of 3 puzzles"), "{out}");
    assert!(out.contains("puzzles/min"), "{out}");

    // The same name again is refused, and nothing changes.
    let (code, _, err) = generate(&db, "first", &["--count", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("exists already"), "{err}");

    // The same seed under another name makes the same puzzles (stored once, listed in both).
    let (code, out, err) = generate(
        &db,
        "again",
        &[
            "--count",
            "3",
            "--max-pieces",
            "8",
            "--json",
            "--threads",
            "1",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(summary["stored"], 3);
    assert_eq!(summary["stop"], "done");

    let store = Store::open(&db).unwrap();
    let (first, puzzles) = store.collection("first").unwrap().unwrap();
    let (_, again) = store.collection("again").unwrap().unwrap();
    assert_eq!(first.seed, 42);
    assert_eq!(first.state, "done");
    let ids = |ps: &[baroque::store::StoredPuzzle]| ps.iter().map(|p| p.id).collect::<Vec<_>>();
    assert_eq!(ids(&puzzles), ids(&again));
    assert_eq!(store.count().unwrap(), 3);

    // Each one is a sound mate in 2 by an independent solve, with the stored key and themes.
    for p in &puzzles {
        let pos = Position::from_fen_validated(&p.fen, Rules::default()).unwrap();
        assert!(pos.board().occupied().count_ones() <= 8);
        assert!(!pos.is_check(), "{}", p.fen);
        let s = solve(
            &pos,
            &SolveOptions {
                stipulation: baroque::solver::Stipulation::Mate(2),
                ..SolveOptions::default()
            },
        );
        assert_eq!(s.sound, Some(true), "{}", p.fen);
        assert_eq!(
            outcome(p)["keys"][0]["notation"],
            pos.move_name(&s.keys[0].mv, baroque::rules::Letters::Chess)
        );
        assert!(p.tags.contains(&"mate-in-2".to_string()), "{:?}", p.tags);
        assert_eq!(p.source.as_deref(), Some("generated"));
    }
}

#[test]
fn generate_refuses_bad_flags_and_reports_a_limit() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    for (flags, message) in [
        (&["--count", "0"][..], "count"),
        (&["--mate-in", "0"][..], "mate_in"),
        (&["--max-pieces", "2"][..], "max_pieces"),
        (&["--rules", "nonsense"][..], "nonsense"),
    ] {
        let (code, _, err) = generate(&db, "bad", flags);
        assert_eq!(code, 2, "{flags:?}");
        assert!(err.contains(message), "{flags:?}: {err}");
    }
    let (code, _, err) = generate(&db, "bad name", &["--count", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a collection name"), "{err}");
    // Ten candidates cannot give fifty puzzles: exit 3, and the collection says why.
    let (code, out, err) = generate(&db, "short", &["--count", "50", "--max-candidates", "10"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("--max-candidates"), "{err}");
    let (c, _) = Store::open(&db)
        .unwrap()
        .collection("short")
        .unwrap()
        .unwrap();
    assert_eq!(c.state, "stopped");
    assert_eq!(baroque::app::value(&c.summary)["stop"], "candidate_limit");
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_keeps_what_it_found_and_is_marked_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args([
            "generate",
            "--collection",
            "long",
            "--seed",
            "5",
            "--mate-in",
            "3",
        ])
        .args(["--count", "100000", "--max-pieces", "12"])
        .arg("--db")
        .arg(&db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The collection's row exists once the interrupt handler is in place.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let made = db.exists()
            && Store::open(&db)
                .ok()
                .and_then(|s| s.collection("long").ok().flatten())
                .is_some();
        if made {
            break;
        }
        // A run that ended already (it could not open the store, say) says why.
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut e, &mut err);
            }
            panic!("the run ended before its collection row was seen ({status}): {err}");
        }
        assert!(std::time::Instant::now() < deadline, "no collection row");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // A server starting on the same store meanwhile leaves the live run alone (it stops only
    // runs whose process has ended).
    assert_eq!(
        collection_state_seen_by_a_new_server(&db, "long"),
        "running"
    );
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid with SIGINT; no memory is involved.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let (c, puzzles) = Store::open(&db)
        .unwrap()
        .collection("long")
        .unwrap()
        .unwrap();
    assert_eq!(c.state, "stopped");
    assert_eq!(baroque::app::value(&c.summary)["stop"], "cancelled");
    assert_eq!(c.puzzles as usize, puzzles.len());
}

/// Starts `baroque serve` on `db`, reads the state of collection `name` over HTTP, stops it.
#[cfg(unix)]
fn collection_state_seen_by_a_new_server(db: &std::path::Path, name: &str) -> String {
    use std::io::{BufRead, BufReader};
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut server = Command::new(env!("CARGO_BIN_EXE_baroque"))
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "1"])
        .arg("--db")
        .arg(db)
        .arg("--fixtures")
        .arg(fixtures)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = server.stdout.take().unwrap();
    let addr = BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|line| common::listening_addr(&format!("{line}\n")))
        .expect("the server says where it listens");
    let text = ureq::get(format!("http://{addr}/v1/collections/{name}"))
        .call()
        .expect("the collection is there")
        .body_mut()
        .read_to_string()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["state"].as_str().unwrap_or_default().to_string()
}

#[test]
fn generate_makes_rococo_puzzles_too() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    let (code, out, err) = generate(
        &db,
        "rococo-twos",
        &[
            "--game",
            "rococo",
            "--mate-in",
            "2",
            "--count",
            "2",
            "--max-pieces",
            "8",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("(mate in 2, rococo)"), "{out}");
    let (c, puzzles) = Store::open(&db)
        .unwrap()
        .collection("rococo-twos")
        .unwrap()
        .unwrap();
    assert_eq!((c.game.as_str(), c.rules.as_str()), ("rococo", "rococo"));
    assert_eq!(puzzles.len(), 2);
    for p in &puzzles {
        assert_eq!(p.game(), baroque::rules::GameKind::Rococo);
        assert_eq!(outcome(p)["sound"], true, "{}", p.fen);
        let pos = baroque::rules::rococo::RococoPosition::from_fen(
            &p.fen,
            baroque::rules::rococo::Coords::Standard,
        )
        .unwrap();
        let opts = SolveOptions {
            stipulation: baroque::solver::Stipulation::Mate(2),
            ..SolveOptions::default()
        };
        let s = solve(&pos, &opts);
        assert_eq!(s.sound, Some(true), "{}", p.fen);
    }
}

#[test]
fn the_run_time_limit_bounds_every_candidate_search() {
    // Crowded Rococo candidates, each allowed a budget far beyond the run's: the run still ends
    // at its own limit, with what it found kept.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    let t = std::time::Instant::now();
    let (code, out, err) = generate(
        &db,
        "crowded",
        &[
            "--game",
            "rococo",
            "--mate-in",
            "4",
            "--count",
            "50",
            "--max-pieces",
            "32",
            "--candidate-nodes",
            "1000000000000",
            "--candidate-millis",
            "600000",
            "--max-seconds",
            "2",
        ],
    );
    let elapsed = t.elapsed();
    assert_eq!(code, 3, "a limit stopped it: {out}{err}");
    assert!(
        format!("{out}{err}").contains("--max-seconds"),
        "{out}{err}"
    );
    assert!(
        elapsed < std::time::Duration::from_secs(2 + 2),
        "took {elapsed:?}: {out}{err}"
    );
}

/// Generates a collection of `stipulation` in `game` and checks each stored puzzle by an
/// independent full solve: the side to move the stipulation starts with, sound, and the stored
/// first move or line is the solver's.
fn generated_puzzles_are_sound(
    game: &str,
    stipulation: &str,
    count: usize,
    max_pieces: &str,
    extra: &[&str],
) {
    use baroque::rules::{GameNotation, GameRules, Naming, Variant};
    use baroque::solver::Stipulation;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    let name = format!("{game}-{}", stipulation.replace(['#', '.', '='], "x"));
    let n = count.to_string();
    let mut flags = vec![
        "--game",
        game,
        "--stipulation",
        stipulation,
        "--count",
        &n,
        "--max-pieces",
        max_pieces,
    ];
    flags.extend_from_slice(extra);
    let (code, out, err) = generate(&db, &name, &flags);
    assert_eq!(code, 0, "{out}{err}");
    // A direct mate is written out: `mate in 3`.
    let label = match stipulation.strip_prefix('#') {
        Some(n) => format!("mate in {n}"),
        None => stipulation.to_string(),
    };
    assert!(
        out.contains(&format!("{count} of {count} puzzles ({label}, ")),
        "{out}"
    );
    let stip = Stipulation::parse(stipulation).unwrap();
    let (c, puzzles) = Store::open(&db)
        .unwrap()
        .collection(&name)
        .unwrap()
        .unwrap();
    assert_eq!(c.stipulation, stipulation);
    assert_eq!(c.mate_in, stip.moves());
    assert_eq!(puzzles.len(), count);
    let variant = if game == "rococo" {
        Variant::Rococo
    } else {
        Variant::default()
    };
    for p in &puzzles {
        assert_eq!(p.stipulation, Some(stip), "{}", p.fen);
        assert_eq!(outcome(p)["sound"], true, "{}", p.fen);
        let pos = variant.read_fen(&p.fen, Naming::default()).unwrap();
        if let Some(side) = stip.starts() {
            assert_eq!(pos.turn(), side, "{}", p.fen);
        }
        let opts = SolveOptions {
            stipulation: stip,
            ..SolveOptions::default()
        };
        if stip.lists_lines() {
            let h = baroque::solver::solve_lines_any(&pos, &opts, 1);
            assert_eq!((h.sound, h.count), (Some(true), 1), "{}", p.fen);
            assert!(h.short_solutions.is_empty(), "{}", p.fen);
            let line: Vec<String> = h.named(&pos, Naming::default()).solutions[0]
                .iter()
                .map(|m| m.notation.clone())
                .collect();
            let stored: Vec<String> = outcome(p)["solutions"][0]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["notation"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(line, stored, "{}", p.fen);
            let solutions = if stip.is_series() {
                "ser-solutions-1"
            } else {
                "h-solutions-1"
            };
            assert!(p.tags.contains(&solutions.to_string()), "{:?}", p.tags);
            // `mate-by-<kind>`, `stalemate-by-<kind>` for a helpstalemate (a series selfmate's
            // mate is Black's, any of its moves).
            let by = match stip.target() {
                baroque::solver::Target::Mate => "mate-by-",
                baroque::solver::Target::Stalemate => "stalemate-by-",
            };
            if !matches!(stip, Stipulation::SeriesSelfMate(_)) {
                assert!(p.tags.iter().any(|t| t.starts_with(by)), "{:?}", p.tags);
            }
        } else {
            let s = baroque::solver::solve_any(&pos, &opts);
            assert_eq!(s.sound, Some(true), "{}", p.fen);
            assert_eq!(
                outcome(p)["keys"][0]["notation"],
                pos.move_name(&s.keys[0].mv, Naming::default()),
                "{}",
                p.fen
            );
            // The stored answer (its confirming solve started from the screening's table) is
            // the fresh solve's: keys, cooks, short solutions, the whole tree and the threats.
            let mut fresh = serde_json::to_value(s.named(&pos, Naming::default())).unwrap();
            assert_eq!(fresh["tree"].as_array().map(Vec::len), Some(1), "{}", p.fen);
            // A stored outcome keeps the threats' moves, not their lengths (its format is that
            // of every release).
            for t in fresh["threats"].as_array_mut().into_iter().flatten() {
                t.as_object_mut().unwrap().remove("lengths");
            }
            for field in ["keys", "cooks", "short_solutions", "tree", "threats"] {
                assert_eq!(outcome(p)[field], fresh[field], "{field} of {}", p.fen);
            }
        }
    }
}

/// Series movers of both games: every puzzle kept is sound by a full solve (one line, no shorter
/// series), its stored line the solve's, its themes the series'.
#[test]
fn generate_makes_series_movers() {
    generated_puzzles_are_sound("baroque", "ser-#2", 2, "6", &[]);
    generated_puzzles_are_sound("baroque", "ser-h#2", 2, "6", &[]);
    generated_puzzles_are_sound("baroque", "ser-=2", 1, "6", &[]);
    generated_puzzles_are_sound("rococo", "ser-#2", 1, "6", &[]);
    generated_puzzles_are_sound("rococo", "ser-h#1", 1, "6", &[]);
}

/// Helpmates with the narrowed search first (the default) and without it, and selfmates (which
/// have none): every puzzle kept is sound by a full solve.
#[test]
fn generate_makes_helpmates_and_selfmates() {
    generated_puzzles_are_sound("baroque", "h#2", 3, "6", &[]);
    generated_puzzles_are_sound("baroque", "h#2", 2, "7", &["--focus", "0"]);
    generated_puzzles_are_sound("baroque", "h#1.5", 2, "7", &[]);
    generated_puzzles_are_sound("rococo", "h#2", 1, "6", &[]);
    // Sound selfmates are rare among random positions: seed 42 finds one within 8,098 candidates.
    generated_puzzles_are_sound("baroque", "s#1", 1, "12", &[]);
}

/// Stalemates of both games: direct, help and (Baroque; a Rococo side other than a lone King can
/// always move, a frozen piece by suicide, so random boards hold none) self; every puzzle kept is
/// sound by a full solve, and its themes say `stalemate`.
#[test]
fn generate_makes_stalemates() {
    generated_puzzles_are_sound("baroque", "=2", 2, "8", &[]);
    generated_puzzles_are_sound("baroque", "h=2", 2, "6", &[]);
    generated_puzzles_are_sound("baroque", "h=1.5", 2, "7", &[]);
    generated_puzzles_are_sound("baroque", "s=1", 1, "12", &[]);
    generated_puzzles_are_sound("rococo", "=2", 1, "8", &[]);
    generated_puzzles_are_sound("rococo", "h=2", 1, "6", &[]);
}

/// Reflexmates of both games: every puzzle kept is sound by a full solve (its keys, tree and
/// threats those of a fresh solve).
#[test]
fn generate_makes_reflexmates() {
    generated_puzzles_are_sound("baroque", "r#1", 2, "8", &[]);
    generated_puzzles_are_sound("baroque", "semi-r#2", 1, "6", &[]);
    generated_puzzles_are_sound("rococo", "semi-r#1", 1, "8", &[]);
}

/// Direct mates, with the narrowed search first (the default) and without it (`--focus 0`), in
/// both games: every puzzle kept is sound by a full solve.
#[test]
fn generate_makes_sound_direct_mates_with_and_without_the_narrowed_search() {
    generated_puzzles_are_sound("baroque", "#3", 3, "8", &[]);
    generated_puzzles_are_sound("baroque", "#2", 3, "8", &["--focus", "0"]);
    generated_puzzles_are_sound("rococo", "#2", 2, "8", &["--focus", "3"]);
}

#[test]
fn generate_refuses_a_bad_stipulation() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    let (code, _, err) = generate(&db, "bad", &["--stipulation", "x#2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--stipulation \"x#2\""), "{err}");
    let (code, _, err) = generate(&db, "bad", &["--stipulation", "h#2", "--mate-in", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("disagree"), "{err}");
    let (code, _, err) = generate(&db, "bad", &["--stipulation", "s#13"]);
    assert_eq!(code, 2);
    assert!(err.contains("s#13"), "{err}");
}

/// `baroque generate` as a new user runs it: ten mates in 2 of seed 7 are varied by default (no
/// kind of key piece makes more than 40% of the keys, the defender keeps two pieces besides its
/// King in at least 80% of the puzzles), as the stored puzzles show and the summary says; the
/// same rules written as percentages make the same puzzles; rules that cannot be met are refused.
#[test]
fn a_generated_collection_is_varied_by_default() {
    use baroque::rules::{Color, GameRules, Naming, Variant};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("gen.db");
    let run = |name: &str, extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_baroque"))
            .args(["generate", "--mate-in", "2", "--count", "10", "--seed", "7"])
            .args(["--collection", name])
            .arg("--db")
            .arg(&db)
            .args(extra)
            .output()
            .expect("the binary runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, err) = run("varied", &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("collection varied: 10 of 10 puzzles"), "{out}");
    assert!(out.contains("(at most 4 of a kind)"), "{out}");
    assert!(
        out.contains("keep at least 2 pieces besides the King (at least 80% asked)"),
        "{out}"
    );
    assert!(out.contains("difficulty: min "), "{out}");
    assert!(out.contains("themes: mate-in-2 10"), "{out}");

    let store = Store::open(&db).unwrap();
    let (c, puzzles) = store.collection("varied").unwrap().unwrap();
    assert_eq!(puzzles.len(), 10);
    let mut keys = std::collections::BTreeMap::<String, u64>::new();
    let mut kept = 0;
    for p in &puzzles {
        let key: Vec<&String> = p
            .tags
            .iter()
            .filter(|t| t.starts_with("key-") && !t.starts_with("key-captures-"))
            .collect();
        assert_eq!(key.len(), 1, "{:?}", p.tags);
        *keys.entry(key[0]["key-".len()..].to_string()).or_default() += 1;
        let pos = Variant::default()
            .read_fen(&p.fen, Naming::default())
            .unwrap();
        let defender = if pos.turn() == Color::White {
            Color::Black
        } else {
            Color::White
        };
        let pieces = baroque::generate::side_pieces(&pos, defender);
        kept += usize::from(pieces >= 2);
        assert!(p.difficulty.is_some_and(|d| d <= 100), "{}", p.fen);
    }
    assert!(keys.values().all(|&n| n <= 4), "{keys:?}");
    assert!(kept >= 8, "{kept} of 10: {out}");
    // The summary the collection records says the same.
    assert_eq!(
        baroque::app::value(&c.summary)["key_pieces"],
        serde_json::json!(keys)
    );
    assert_eq!(
        baroque::app::value(&c.summary)["variety"]["defenders_kept"],
        kept
    );
    assert_eq!(baroque::app::value(&c.summary)["variety"]["key_cap"], 4);
    for (k, n) in &keys {
        assert!(out.contains(&format!("{k} {n}")), "{k} {n}: {out}");
    }

    // The defaults written out, as percentages: the same puzzles (stored once, in both).
    let (code, out, err) = run(
        "percent",
        &[
            "--max-key-share",
            "40%",
            "--min-defenders",
            "2",
            "--min-defenders-share",
            "80%",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let ids: Vec<i64> = puzzles.iter().map(|p| p.id).collect();
    assert_eq!(summary["puzzle_ids"], serde_json::json!(ids));
    assert_eq!(summary["key_pieces"], serde_json::json!(keys));

    // Rules no collection can meet, and unreadable shares.
    for (flags, message) in [
        (&["--max-key-share", "0.1"][..], "max_key_share"),
        (&["--max-key-share", "0"][..], "max_key_share"),
        (&["--max-key-share", "abc"][..], "--max-key-share"),
        (&["--max-key-share", "140%"][..], "--max-key-share"),
        (&["--min-defenders", "8"][..], "min_defenders"),
        (&["--min-defenders-share", "2"][..], "--min-defenders-share"),
        (&["--focus", "17"][..], "focus"),
        (&["--focus", "near"][..], "--focus"),
    ] {
        let (code, _, err) = run("bad", flags);
        assert_eq!(code, 2, "{flags:?}");
        assert!(err.contains(message), "{flags:?}: {err}");
    }
}

#[test]
fn runs_started_together_on_a_new_store_all_store_their_collections() {
    // Each run creates the store's tables if the file is new; started at once, they race to
    // do so, and every one must still run (not fail with "table already exists").
    for round in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("new.db");
        let names: Vec<String> = (0..4).map(|i| format!("c{i}")).collect();
        let outcomes: Vec<(i32, String, String)> = std::thread::scope(|s| {
            let handles: Vec<_> = names
                .iter()
                .map(|name| {
                    let db = &db;
                    s.spawn(move || {
                        generate(
                            db,
                            name,
                            &["--mate-in", "1", "--count", "1", "--max-pieces", "5"],
                        )
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (code, out, err) in &outcomes {
            assert_eq!(*code, 0, "round {round}: {out}{err}");
        }
        let store = Store::open(&db).unwrap();
        for name in &names {
            assert!(store.collection(name).unwrap().is_some(), "{name}");
        }
    }
}

/// A stored puzzle's outcome as JSON.
fn outcome(p: &baroque::store::StoredPuzzle) -> serde_json::Value {
    serde_json::to_value(&p.outcome).unwrap()
}
