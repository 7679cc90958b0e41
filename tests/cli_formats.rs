//! `baroque export` and `baroque import` through the real binary: generated collections (a
//! direct mate, a helpmate and a Rococo mate) written as PGN and CSV, read into fresh stores, give
//! the same puzzles; JSON lines are the HTTP export's body; every refusal has its exit code.

use baroque::store::Store;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

mod common;
use common::{baroque, run, Served};

fn generate(db: &Path, name: &str, flags: &[&str]) {
    let (code, out, err) = run(baroque()
        .args(["generate", "--collection", name, "--db"])
        .arg(db)
        .args(flags));
    assert_eq!(code, 0, "{out}{err}");
}

fn export(db: &Path, name: &str, format: &str) -> String {
    let (code, out, err) = run(baroque()
        .args(["export", "--collection", name, "--format", format, "--db"])
        .arg(db));
    assert_eq!(code, 0, "{err}");
    out
}

fn import(db: &Path, file: &Path, name: &str) -> (i32, String, String) {
    run(baroque()
        .arg("import")
        .arg(file)
        .args(["--collection", name, "--db"])
        .arg(db))
}

/// The puzzles of a JSON lines export, each as what makes it the same puzzle: its content hash
/// (kind, game, FEN, rules, stipulation), FEN and stipulation; with its tags and source.
fn puzzles(jsonl: &str) -> BTreeSet<(String, String, String, String, String)> {
    jsonl
        .lines()
        .map(|l| {
            let p: Value = serde_json::from_str(l).unwrap();
            let s = |k: &str| p[k].as_str().unwrap_or("").to_string();
            (
                s("content_hash"),
                s("fen"),
                s("stipulation"),
                p["tags"].to_string(),
                s("source"),
            )
        })
        .collect()
}

#[test]
fn collections_round_trip_through_pgn_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("original.db");
    let common = ["--seed", "42", "--threads", "1"];
    generate(
        &original,
        "twos",
        &[
            &common[..],
            &["--mate-in", "2", "--count", "3", "--max-pieces", "8"],
        ]
        .concat(),
    );
    generate(
        &original,
        "helps",
        &[
            &common[..],
            &["--stipulation", "h#2", "--count", "2", "--max-pieces", "5"],
        ]
        .concat(),
    );
    generate(
        &original,
        "rococo",
        &[
            &common[..],
            &["--game", "rococo", "--mate-in", "2", "--count", "2"],
        ]
        .concat(),
    );
    generate(
        &original,
        "singles",
        &[
            &common[..],
            &[
                "--rules",
                "abbott,leaper=single",
                "--mate-in",
                "2",
                "--count",
                "2",
                "--max-pieces",
                "8",
            ],
        ]
        .concat(),
    );
    let mut want = BTreeSet::new();
    for name in ["twos", "helps", "rococo", "singles"] {
        want.extend(puzzles(&export(&original, name, "jsonl")));
    }
    assert_eq!(want.len(), 9);

    for format in ["pgn", "csv"] {
        let back = dir.path().join(format!("back-{format}.db"));
        let mut created = 0;
        for name in ["twos", "helps", "rococo", "singles"] {
            let text = export(&original, name, format);
            let file = dir.path().join(format!("{name}.{format}"));
            std::fs::write(&file, &text).unwrap();
            let (code, out, err) = import(&back, &file, "back");
            assert_eq!(code, 0, "{format} {name}: {out}{err}");
            let unit = if format == "pgn" { "game" } else { "row" };
            let lines: Vec<&str> = out.lines().collect();
            for (i, line) in lines[..lines.len() - 1].iter().enumerate() {
                assert!(
                    line.starts_with(&format!("{unit} {} (line ", i + 1))
                        && line.contains("): created puzzle "),
                    "{line}"
                );
                created += 1;
            }
            let n = lines.len() - 1;
            assert_eq!(
                lines[n],
                format!("collection back: {n} read, {n} created, 0 existing, 0 rejected")
            );
        }
        assert_eq!(created, 9);
        let got = puzzles(&export(&back, "back", "jsonl"));
        // Both keep the content, the tags and the source (CSV has no column for the title and
        // the caption).
        assert_eq!(got, want, "{format}");
        // The collection made by the first import says so; the later ones appended to it.
        let store = Store::open(&back).unwrap();
        let (c, items) = store.collection("back").unwrap().unwrap();
        assert_eq!(items.len(), 9);
        assert_eq!(c.state, "done");
        let summary = baroque::app::value(&c.summary);
        assert_eq!(summary["source"], "import");
        assert_eq!(summary["format"], format);
        assert_eq!((c.stipulation.as_str(), c.game.as_str()), ("#2", "baroque"));
        // Importing again finds every puzzle stored.
        let file = dir.path().join(format!("twos.{format}"));
        let (code, out, _) = import(&back, &file, "back");
        assert_eq!(code, 0);
        assert!(
            out.ends_with("collection back: 3 read, 0 created, 3 existing, 0 rejected\n"),
            "{out}"
        );
    }

    // The rule set is written where it is not the default (and everywhere for Baroque).
    assert!(export(&original, "singles", "pgn").contains("[Rules \"abbott,leaper=single\"]"));
    assert!(
        export(&original, "singles", "csv").contains("rules:abbott,leaper=single stipulation:#2")
    );
    assert!(!export(&original, "rococo", "pgn").contains("[Rules "));

    // PGN keeps the title and the caption as well.
    let pgn = export(&original, "twos", "pgn");
    assert!(
        pgn.contains("[Caption \"collection twos: seed 42, candidate "),
        "{pgn}"
    );
    let back = dir.path().join("back-pgn.db");
    let again = export(&back, "back", "jsonl");
    for line in again.lines().take(3) {
        let p: Value = serde_json::from_str(line).unwrap();
        assert!(
            p["caption"]
                .as_str()
                .unwrap()
                .starts_with("collection twos: seed 42"),
            "{p}"
        );
        assert_eq!(p["title"], Value::Null);
    }
}

#[test]
fn export_writes_jsonl_as_the_service_serves_it_and_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("baroque.db");
    generate(
        &db,
        "twos",
        &[
            "--seed",
            "42",
            "--mate-in",
            "2",
            "--count",
            "2",
            "--max-pieces",
            "8",
        ],
    );
    let cli = export(&db, "twos", "jsonl");
    let served = Served::start_at(&db, &[], &[], tempfile::tempdir().unwrap());
    for format in ["jsonl", "pgn", "csv"] {
        let mut res = served
            .agent
            .get(format!(
                "{}/v1/collections/twos/export?format={format}",
                served.base
            ))
            .call()
            .unwrap();
        assert_eq!(res.status().as_u16(), 200);
        let body = res.body_mut().read_to_string().unwrap();
        let file = dir.path().join(format!("out.{format}"));
        let (code, out, err) = run(baroque()
            .args(["export", "--collection", "twos", "--format", format, "--db"])
            .arg(&db)
            .arg("--out")
            .arg(&file));
        assert_eq!((code, out.as_str()), (0, ""), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), body, "{format}");
        if format == "jsonl" {
            assert_eq!(cli, body);
        }
    }
}

#[test]
fn bad_input_gets_a_message_and_an_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    // A file with a good game and two bad ones: each reported, exit 1.
    let good = "[Event \"Chameleon\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
                [FEN \"2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0\"]\n[Stipulation \"#2\"]\n\n\
                1. Bg6xc6 Kb7xc8 2. Nc4-g8 1-0\n\n";
    let file = write(
        "mixed.pgn",
        &format!(
            "{good}[Event \"x\"]\n[Variant \"Baroque\"]\n[FEN \"k7/8/8/8/8/8/8/K7 w 0\"]\n\
             [Stipulation \"#1\"]\n\n*\n\n[Event \"y\"]\n[Variant \"Xiangqi\"]\n*\n"
        ),
    );
    let (code, out, err) = import(&db, &file, "mixed");
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("game 1 (line 1): created puzzle 1 (#2 "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("game 2 (line 9): rejected: the side to move has no forced mate in 1"),
        "{out}"
    );
    assert_eq!(
        lines[2],
        "game 3 (line 16): rejected: line 17: [Variant \"Xiangqi\"] is not a game of this \
         service: write \"Baroque\" or \"Rococo\""
    );
    assert_eq!(
        lines[3],
        "collection mixed: 3 read, 1 created, 0 existing, 2 rejected"
    );

    // A CSV row whose first move is not a key.
    let csv = write(
        "bad.csv",
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
         1,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,a6a7,1500,500,0,0,,,stipulation:#2\n",
    );
    let (code, out, _) = import(&db, &csv, "mixed");
    assert_eq!(code, 1);
    assert!(
        out.starts_with("row 1 (line 2): rejected: the main line's first move `Pa6-a7` is not a key of #2; its keys: Bg6xc6"),
        "{out}"
    );
    // Rows the reader refuses name their field; a quoted field keeps its comma and line break.
    let csv = write(
        "fields.csv",
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\r\n\
         1,k7/8 w 0,,,,,,,,stipulation:#2\r\n\
         \r\n\
         2,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,g6c6 h1h2,,,,,\"a, b\",\"x\r\ny\",stipulation:#2\r\n",
    );
    let (code, out, _) = import(&db, &csv, "mixed");
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("row 1 (line 2): rejected: line 2: field 2 (FEN): FEN \"k7/8 w 0\""),
        "{out}"
    );
    assert!(
        lines[1].starts_with("row 2 (line 4): rejected: line 4: field 3 (Moves): move 2 "),
        "{out}"
    );

    // Unusable input: exit 2 with a message on standard error, nothing stored.
    let empty = write("empty.pgn", "\n\n");
    let header = write("wrong.csv", "Id,FEN\n1,x\n");
    let text = write("notes.txt", good);
    let binary = write("binary.pgn", "");
    std::fs::write(&binary, b"[Event \"\xff\"]\n").unwrap();
    for (file, words) in [
        (dir.path().join("missing.pgn"), "missing.pgn: "),
        (empty, "holds no PGN game"),
        (header, "not Lichess's puzzle header"),
        (text.clone(), "cannot tell the format"),
        (binary, "line 1: the file is not UTF-8 text"),
    ] {
        let (code, out, err) = import(&db, &file, "other");
        assert_eq!(code, 2, "{file:?}: {out}{err}");
        assert!(err.contains(words), "{err}");
        assert!(out.is_empty(), "{out}");
    }
    let (code, _, err) = import(&db, &file, "no good");
    assert_eq!(code, 2);
    assert!(err.contains("is not a collection name"), "{err}");
    // `--format` reads a file whatever its extension.
    let (code, out, err) = run(baroque()
        .arg("import")
        .arg(&text)
        .args(["--format", "pgn", "--collection", "notes", "--db"])
        .arg(&db));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("game 1 (line 1): existing puzzle 1 "),
        "{out}"
    );

    let (code, _, err) = run(baroque()
        .args(["export", "--collection", "none", "--db"])
        .arg(&db));
    assert_eq!(code, 2);
    assert!(err.contains("no collection named `none`"), "{err}");
    let (code, _, err) = run(baroque()
        .args(["export", "--collection", "mixed", "--db"])
        .arg(dir.path().join("nowhere.db")));
    assert_eq!(code, 2);
    assert!(err.contains("no such puzzle store"), "{err}");
    assert!(!dir.path().join("nowhere.db").exists());
    let (code, _, err) = run(baroque()
        .args(["export", "--collection", "mixed", "--format", "xml", "--db"])
        .arg(&db));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("xml"), "{err}");
}

#[test]
fn a_selfmate_is_written_with_black_mating_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    // The selfmate of docs/src/api/solving.md: the White Chameleon offered on e2 must be taken, and mates.
    let file = dir.path().join("s.pgn");
    std::fs::write(
        &file,
        "[Event \"Offered Chameleon\"]\n[Site \"README\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
         [FEN \"8/8/8/6M1/6m1/3B1K2/8/4k3 w 0\"]\n[Stipulation \"s#1\"]\n\n1. Bd3-e2 Ke1xe2 0-1\n",
    )
    .unwrap();
    let (code, out, err) = import(&db, &file, "selfmates");
    assert_eq!(code, 0, "{out}{err}");
    let pgn = export(&db, "selfmates", "pgn");
    assert!(
        pgn.starts_with("[Event \"Offered Chameleon\"]\n[Site \"README\"]\n"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"0-1\"]"), "Black mates: {pgn}");
    assert!(pgn.contains("[Stipulation \"s#1\"]"), "{pgn}");
    assert!(pgn.contains("\n\n1. Bd3-e2 Ke1xe2 0-1\n"), "{pgn}");
    let csv = export(&db, "selfmates", "csv");
    assert!(csv.contains(",d3e2 e1e2,"), "{csv}");
    // Read back into another store: the same puzzle.
    let again = dir.path().join("again.db");
    let written = dir.path().join("written.pgn");
    std::fs::write(&written, &pgn).unwrap();
    let (code, out, err) = import(&again, &written, "selfmates");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        puzzles(&export(&again, "selfmates", "jsonl")),
        puzzles(&export(&db, "selfmates", "jsonl"))
    );
    // A selfmate line that goes past its stipulation is refused.
    let long = dir.path().join("long.pgn");
    std::fs::write(&long, pgn.replace("Ke1xe2 0-1", "Ke1xe2 Kf3-f2 0-1")).unwrap();
    let (code, out, _) = import(&again, &long, "selfmates");
    assert_eq!(code, 1);
    assert!(out.contains("rejected: line "), "{out}");
    assert!(out.contains("follows the mate that ends the line"), "{out}");
}

#[test]
fn stalemate_puzzles_of_both_games_round_trip_through_pgn_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("s.db");
    let file = dir.path().join("s.pgn");
    std::fs::write(
        &file,
        "[Event \"Frozen King\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
         [FEN \"7k/8/8/4M3/8/8/8/K7 w 0\"]\n[Stipulation \"=1\"]\n\n1. Me5-g7 1-0\n\n\
         [Event \"Frozen Rococo King\"]\n[Variant \"Rococo\"]\n[SetUp \"1\"]\n\
         [FEN \"10/8k1/10/10/5I4/10/10/10/1K8/10 w 0 -\"]\n[Stipulation \"=1\"]\n\n1. If6-h8 1-0\n\n\
         [Event \"Helped\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
         [FEN \"7k/8/8/4M3/8/8/8/K7 b 0\"]\n[Stipulation \"h=1\"]\n\n1... Kh8-g8 2. Me5-h8 1-0\n",
    )
    .unwrap();
    let (code, out, err) = import(&db, &file, "stalemates");
    assert_eq!(code, 0, "{out}{err}");
    let pgn = export(&db, "stalemates", "pgn");
    assert_eq!(pgn.matches("[Stipulation \"=1\"]").count(), 2, "{pgn}");
    assert!(pgn.contains("[Stipulation \"h=1\"]"), "{pgn}");
    assert!(pgn.contains("\n\n1. Me5-g7 1-0\n"), "{pgn}");
    let csv = export(&db, "stalemates", "csv");
    assert!(csv.contains("stipulation:=1"), "{csv}");
    // Read back into other stores, from each format: the same puzzles.
    for (format, text) in [("pgn", &pgn), ("csv", &csv)] {
        let again = dir.path().join(format!("again-{format}.db"));
        let written = dir.path().join(format!("written.{format}"));
        std::fs::write(&written, text).unwrap();
        let (code, out, err) = import(&again, &written, "stalemates");
        assert_eq!(code, 0, "{format}: {out}{err}");
        assert_eq!(
            puzzles(&export(&again, "stalemates", "jsonl")),
            puzzles(&export(&db, "stalemates", "jsonl")),
            "{format}"
        );
    }
    // A full-length line that does not end in stalemate is refused, naming the goal.
    let wrong = dir.path().join("wrong.pgn");
    std::fs::write(&wrong, pgn.replace("1. Me5-g7 1-0", "1. Me5-e6 1-0")).unwrap();
    let (code, out, _) = import(&db, &wrong, "wrong");
    assert_eq!(code, 1);
    assert!(out.contains("does not end in stalemate"), "{out}");
}

/// Runs `cmd` with standard input `input`, killed after 60 s (a hang fails the test rather than
/// the run): its exit code and output.
fn run_bounded(cmd: &mut std::process::Command, input: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{cmd:?} still runs after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `import` and `check` read bounded input: a FIFO and a device are refused at once (no hang),
/// a file over `--max-input-bytes` is refused before anything is stored, a 100 KB FEN is not
/// echoed whole, and `-` reads standard input.
#[test]
fn import_and_check_read_bounded_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bounded.db");
    let fifo = dir.path().join("pipe.pgn");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let (code, _, err) = run_bounded(
        baroque()
            .arg("import")
            .arg(&fifo)
            .args(["--collection", "c", "--db"])
            .arg(&db),
        b"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a regular file"), "{err}");
    let doc = dir.path().join("pipe.md");
    assert!(std::process::Command::new("mkfifo")
        .arg(&doc)
        .status()
        .expect("mkfifo")
        .success());
    let (code, out, err) = run_bounded(baroque().arg("check").arg(&doc), b"");
    assert_ne!(code, 0, "{out}{err}");
    assert!(
        format!("{out}{err}").contains("not a regular file"),
        "{out}{err}"
    );
    let (code, _, err) = run_bounded(
        baroque()
            .args([
                "import",
                "/dev/zero",
                "--format",
                "pgn",
                "--collection",
                "c",
                "--db",
            ])
            .arg(&db),
        b"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a regular file"), "{err}");

    // Over the limit: refused, nothing stored.
    let big = dir.path().join("big.pgn");
    std::fs::write(&big, "[Event \"?\"]\n".repeat(1_000)).unwrap();
    let (code, _, err) = run_bounded(
        baroque()
            .arg("import")
            .arg(&big)
            .args(["--max-input-bytes", "1000", "--collection", "c", "--db"])
            .arg(&db),
        b"",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--max-input-bytes"), "{err}");

    // A huge FEN in a CSV row is cut in what is said of it.
    let csv = dir.path().join("long.csv");
    let fen = "p".repeat(100_000);
    std::fs::write(
        &csv,
        format!("PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n1,{fen} w 0,a1a2,1500,75,0,0,,,\n"),
    )
    .unwrap();
    let (code, out, err) = run_bounded(
        baroque()
            .arg("import")
            .arg(&csv)
            .args(["--collection", "c", "--db"])
            .arg(&db),
        b"",
    );
    assert_ne!(code, 0);
    assert!(
        out.len() + err.len() < 5_000,
        "{} bytes said",
        out.len() + err.len()
    );
    assert!(format!("{out}{err}").contains("bytes)"), "{out}{err}");

    // Standard input, with --format.
    let pgn = "[Event \"?\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n[FEN \"2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0\"]\n[Stipulation \"#2\"]\n\n1. Bg6xc6 *\n";
    let (code, out, err) = run_bounded(
        baroque()
            .args([
                "import",
                "-",
                "--format",
                "pgn",
                "--collection",
                "stdin",
                "--db",
            ])
            .arg(&db),
        pgn.as_bytes(),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("created puzzle"), "{out}");
}

/// `baroque import` reports a game whose position is a stored problem's up to a symmetry (same
/// stipulation, same rules) as a duplicate, names the stored puzzle and the symmetry, and does not
/// store it.
#[test]
fn an_import_names_a_stored_problem_s_mirror_image_as_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dup.db");
    let game = |fen: &str, key: &str| {
        format!(
            "[Event \"Chameleon\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\
             [Stipulation \"#2\"]\n\n1. {key} *\n\n"
        )
    };
    // The Wikipedia's Chameleon mate with its ranks reversed and the colours exchanged (Black to
    // move), then that one's files reversed too.
    let first = "k1R5/8/8/2n5/2P5/pP1N1Nbq/1KP5/2r5 b 0";
    let second = "5R1k/8/8/5n2/5P2/qbN1N1Pp/5PK1/5r2 b 0";
    let pgn = dir.path().join("two.pgn");
    std::fs::write(
        &pgn,
        [game(first, "Bg3xc3"), game(second, "Bb3xf3")].concat(),
    )
    .unwrap();
    let (code, out, err) = import(&db, &pgn, "two");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("game 1 (line 1): created puzzle"), "{out}");
    assert!(
        out.contains("game 2 (line 9): duplicate of puzzle")
            && out.contains("(the same problem after `mirror a1<->h1`), not stored"),
        "{out}"
    );
    assert!(
        out.contains("1 duplicates of stored puzzles up to a symmetry, not stored"),
        "{out}"
    );
    let store = Store::open(&db).unwrap();
    let (c, puzzles) = store.collection("two").unwrap().unwrap();
    assert_eq!(c.puzzles, 1);
    assert_eq!(puzzles[0].fen, first);
}
