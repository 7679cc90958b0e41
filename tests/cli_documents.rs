//! `baroque check` on rule documents, through the real binary: the project's test documents
//! (fixtures/documents/) in the four formats, with every diagram's answer known, the case files
//! that point at their diagrams, the four reports, bad input, and the seed documents (their copies
//! under `fixtures/documents/seeds`).

use serde_json::Value;
use std::path::{Path, PathBuf};

mod common;
use common::{baroque, run};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/documents")
        .join(name)
}

/// The JSON report of a check: one object per line.
fn report(args: &[&str]) -> (i32, Vec<Value>, String) {
    let (code, out, err) = run(baroque().arg("check").args(["--report", "json"]).args(args));
    let lines = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (code, lines, err)
}

/// Each diagram as (status, line, column of its first problem or 0, first problem code or "").
fn summary(lines: &[Value]) -> Vec<(String, u64, u64, String)> {
    lines
        .iter()
        .map(|d| {
            let first = d["problems"].as_array().and_then(|p| p.first());
            (
                d["status"].as_str().unwrap().to_string(),
                d["line"].as_u64().unwrap(),
                first.map_or(0, |p| p["column"].as_u64().unwrap()),
                first.map_or(String::new(), |p| p["code"].as_str().unwrap().to_string()),
            )
        })
        .collect()
}

fn s(status: &str, line: u64, column: u64, code: &str) -> (String, u64, u64, String) {
    (status.into(), line, column, code.into())
}

#[test]
fn the_wiki_document_every_diagram_and_problem_located() {
    let path = fixture("rules.wiki");
    let (code, lines, err) = report(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        summary(&lines),
        [
            s("ok", 5, 0, ""),
            s("impossible", 21, 1, "two_kings"),
            s("unreadable", 37, 2, "unreadable"),
            s("unreadable", 53, 1, "unreadable"),
            s("unreadable", 69, 8, "unreadable"),
        ]
    );
    // The misplaced row is located on its line (43), the bad cell on its own (77).
    assert_eq!(lines[2]["problems"][0]["line"], 43);
    assert!(lines[2]["problems"][0]["message"]
        .as_str()
        .unwrap()
        .contains("misplaced row"));
    assert!(lines[3]["problems"][0]["message"]
        .as_str()
        .unwrap()
        .contains("63 cells"));
    assert_eq!(lines[4]["problems"][0]["line"], 77);
    assert_eq!(lines[0]["fen"], "8/8/8/4k3/2K2M2/3q4/8/8 w 0");
    assert_eq!(
        lines[0]["caption"],
        "The white king moves Kc4-d5 delivering checkmate; not Kc4-d4."
    );
}

#[test]
fn the_html_document_every_diagram_and_problem_located() {
    let path = fixture("rules.html");
    let (code, lines, err) = report(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        summary(&lines),
        [
            s("ok", 7, 0, ""),
            s("unreadable", 11, 38, "unreadable"),
            s("impossible", 13, 18, "two_kings"),
            s("ok", 17, 0, ""),
        ]
    );
    assert_eq!(lines[3]["game"], "rococo");
    assert_eq!(
        lines[1]["caption"],
        "A misprinted FEN: its fifth rank has six squares."
    );
}

#[test]
fn the_markdown_document_every_diagram_and_problem_located() {
    let path = fixture("rules.md");
    let (code, lines, err) = report(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        summary(&lines),
        [
            s("ok", 5, 0, ""),
            s("unreadable", 13, 9, "unreadable"),
            s("impossible", 18, 16, "opponent_in_check"),
            s("ok", 20, 1, "no_king"),
        ]
    );
    assert_eq!(
        lines[0]["caption"],
        "1.Qa5, 1.Qb5 or 1.Qc5 captures the black rook."
    );
    assert_eq!(
        lines[1]["problems"][0]["line"], 14,
        "the FEN's line, in its block"
    );
    assert_eq!(lines[3]["problems"][0]["error"], false);
}

#[test]
fn the_text_document_every_board_found() {
    let path = fixture("boards.txt");
    let (code, lines, err) = report(&[path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        summary(&lines),
        [
            s("ok", 5, 0, ""),
            s("unplaced", 32, 0, ""),
            s("unreadable", 36, 1, "unreadable"),
            s("ok", 44, 0, ""),
        ]
    );
    assert_eq!(
        lines[0]["fen"],
        "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0 -"
    );
    assert_eq!(lines[2]["problems"][0]["line"], 39, "the ragged row");
    assert_eq!(lines[3]["fen"], "4k3/8/8/8/8/8/8/4K3 w 0");
}

#[test]
fn cases_point_at_the_documents_diagrams() {
    let (code, out, err) = run(baroque().arg("check").arg(fixture("cases.json")));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.ends_with("6 passed, 0 failed\n"), "{out}");
}

#[test]
fn a_case_fails_when_its_diagram_changes_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let doc = std::fs::read_to_string(fixture("rules.md")).unwrap();
    // The Withdrawer's rook moves from e5 to f5: Qa5 no longer captures it.
    std::fs::write(
        dir.path().join("rules.md"),
        doc.replace("7k/8/8/3Qr3/8/8/8/K7 w 0", "7k/8/8/3Q1r2/8/8/8/K7 w 0"),
    )
    .unwrap();
    let cases = r#"{"document": "t", "cases": [{"id": "qa5", "diagram": {"document": "rules.md", "caption_contains": "Qa5"}, "rules": "vchess", "moves": ["Qa5"], "captures": [{"square": "e5", "piece": "r"}]},
      {"id": "missing", "diagram": {"document": "rules.md", "index": 9}, "moves": ["Qa5"], "captures": []}]}"#;
    let path = dir.path().join("cases.json");
    std::fs::write(&path, cases).unwrap();
    let (code, out, err) = run(baroque().arg("check").arg(&path));
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("FAIL qa5: diagram 1 (rules.md:5): "), "{out}");
    assert!(
        out.contains("FAIL missing: rules.md has 4 diagrams: there is no diagram 9"),
        "{out}"
    );
    // In GitHub's report the failure shows on the case's line and on the diagram's.
    let (_, out, _) = run(baroque().args(["check", "--report", "github"]).arg(&path));
    let doc = dir.path().join("rules.md").display().to_string();
    assert!(
        out.contains(&format!("::error file={},line=1,col=1,", path.display())),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "::error file={doc},line=5,title=baroque check%3A case qa5::"
        )),
        "{out}"
    );
}

#[test]
fn format_in_reads_a_document_saved_with_another_extension() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rules.source");
    std::fs::copy(fixture("rules.wiki"), &path).unwrap();
    let (code, _, err) = run(baroque().arg("check").arg(&path));
    assert_eq!(code, 2);
    assert!(err.contains("--format-in"), "{err}");
    let (code, lines, err) = report(&["--format-in", "mediawiki", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(lines.len(), 5);
}

#[test]
fn the_junit_report_has_a_testcase_per_diagram_and_per_case() {
    let (code, out, err) = run(baroque()
        .args(["check", "--report", "junit"])
        .args([fixture("rules.html"), fixture("cases.json")]));
    assert_eq!(code, 1, "{err}");
    let doc = roxmltree::Document::parse(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), 4 + 6);
    let failures: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .collect();
    assert_eq!(failures.len(), 2);
    assert!(failures[0].text().unwrap().contains("rules.html:11:38:"));
    let root = doc.root_element();
    assert_eq!(root.attribute("tests"), Some("10"));
    assert_eq!(root.attribute("failures"), Some("2"));
}

#[test]
fn the_github_report_puts_errors_on_the_documents_lines() {
    let path = fixture("rules.html");
    let (code, out, err) = run(baroque().args(["check", "--report", "github"]).arg(&path));
    assert_eq!(code, 1, "{err}");
    let file = path.display().to_string();
    assert!(
        out.contains(&format!("::error file={file},line=11,col=38,title=")),
        "{out}"
    );
    assert!(
        out.contains(&format!("::error file={file},line=13,col=18,")),
        "{out}"
    );
    assert!(out.ends_with("2 passed, 2 failed\n"), "{out}");
}

#[test]
fn the_json_flag_is_the_json_report() {
    let (code, out, err) = run(baroque()
        .args(["check", "--json"])
        .arg(fixture("cases.json")));
    assert_eq!(code, 0, "{err}");
    let first: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["id"], "doc-wiki-king-mate");
    assert_eq!(first["ok"], true);
}

#[test]
fn bad_input_gets_a_message_with_file_and_line_never_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("binary.md");
    std::fs::write(&binary, b"# Title\n\nsome text\n\x00\x01\x02\xff").unwrap();
    let empty = dir.path().join("empty.wiki");
    std::fs::write(&empty, "\n  \n").unwrap();
    let big = dir.path().join("big.txt");
    std::fs::write(&big, "+---+\n| K |\n+---+\n".repeat(600_000)).unwrap();
    let latin1 = dir.path().join("latin1.html");
    std::fs::write(&latin1, b"<p>\n\nd\xe9j\xe0</p>").unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\n  \"document\": 1\n").unwrap();
    for (path, line, words) in [
        (&binary, 4, "binary"),
        (&empty, 1, "empty"),
        (&big, 1, "larger than"),
        (&latin1, 3, "byte at offset 6 (counted from 0) is not UTF-8"),
        (&broken, 2, "not a case file"),
    ] {
        let (code, out, err) = run(baroque().arg("check").arg(path));
        assert_eq!(code, 2, "{}: {out}{err}", path.display());
        let want = format!("error: {}:{line}: ", path.display());
        assert!(err.starts_with(&want), "{want} in {err}");
        assert!(err.contains(words), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A directory: its documents and case files are all read, the unusable ones reported.
    let (code, _, err) = run(baroque().arg("check").arg(dir.path()));
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 5, "{err}");
}

fn seeds() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/documents/seeds")
}

fn seed(prefix: &str) -> PathBuf {
    let dir = seeds();
    std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .unwrap()
}

#[test]
fn the_seed_documents_are_read_where_they_live() {
    let (code, wiki, err) = report(&["--format-in", "mediawiki", seed("001_").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(wiki.len(), 7);
    let path = seed("002_");
    let (code, html, err) = report(&["--format-in", "html", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(html.len(), 7);
    let text = std::fs::read_to_string(&path).unwrap();
    let king_line = text
        .lines()
        .position(|l| l.contains("data-fen='7k/8/8/p4r/4K3/8/8/8 w 0'"))
        .unwrap()
        + 1;
    let bad: Vec<_> = html.iter().filter(|d| d["ok"] == false).collect();
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0]["status"], "unreadable");
    assert_eq!(bad[0]["problems"][0]["line"], king_line);
    let (code, boards, err) = report(&[seed("003_").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let statuses: Vec<_> = boards
        .iter()
        .map(|d| d["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["ok", "unplaced", "unplaced", "unplaced", "unplaced"]
    );
    for (d, name) in
        boards[1..]
            .iter()
            .zip(["Advancer", "Long Leaper", "Withdrawer", "Cannon Pawn"])
    {
        assert!(d["caption"].as_str().unwrap().starts_with(name), "{d}");
    }
    // The page's start board has upper case on ranks 8-9: read as drawn, it is the start
    // position with the colours exchanged (fixtures/README.md).
    assert_eq!(
        boards[0]["fen"],
        "10/1IWLKXLAS1/1PPPPPPPP1/10/10/10/10/1pppppppp1/1iwlkxlas1/10 w 0 -"
    );
    assert!(boards[0]["notes"][0]
        .as_str()
        .unwrap()
        .contains("start position with the colours exchanged"));
    // Our own start board, drawn the usual way, has no such note.
    let (_, own, _) = report(&[fixture("boards.txt").to_str().unwrap()]);
    assert_eq!(own[0]["notes"], serde_json::json!([]));
}

#[test]
fn the_seed_cases_check_the_pages_marks_against_our_moves() {
    let (code, out, err) = run(baroque().arg("check").arg(fixture("seeds.json")));
    assert_eq!(code, 1, "{out}{err}");
    // Every mark of the Advancer, Long Leaper and Withdrawer illustrations is a move and every
    // move is marked; the Cannon Pawn's g6 is the page's misprint (fixtures/diagrams/rococo.json).
    for id in [
        "seed-rc-advancer-marks",
        "seed-rc-leaper-marks",
        "seed-rc-withdrawer-marks",
        "seed-rc-start-cannon-pawn-e3",
        "seed-wp-king-mate",
        "seed-vc-pawn-c2c4",
    ] {
        assert!(out.contains(&format!("ok   {id}\n")), "{id}: {out}");
    }
    let cannon = out
        .lines()
        .find(|l| l.starts_with("FAIL seed-rc-cannon-pawn-marks"))
        .unwrap();
    assert!(cannon.contains("diagram 5 ("), "{cannon}");
    assert!(cannon.contains("such moves not marked: g6"), "{cannon}");
    assert!(cannon.contains("marked but not such moves: g6"), "{cannon}");
}

#[test]
fn extract_writes_a_case_per_diagram_with_the_moves_its_caption_names() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("rules.wiki");
    std::fs::copy(fixture("rules.wiki"), &doc).unwrap();
    let (code, out, err) = run(baroque().arg("extract").arg(&doc));
    assert_eq!(code, 0, "{err}");
    let file: Value = serde_json::from_str(&out).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 6);
    assert_eq!(cases[0]["id"], "rules-1");
    assert_eq!(cases[0]["fen"], "8/8/8/4k3/2K2M2/3q4/8/8 w 0");
    // "Kc4-d5 delivering checkmate ... Not Kc4-d4": two first moves, two cases.
    assert_eq!(cases[0]["moves"], serde_json::json!(["Kc4-d5"]));
    assert_eq!(cases[1]["id"], "rules-1-2");
    assert_eq!(cases[1]["fen"], cases[0]["fen"]);
    assert_eq!(cases[1]["moves"], serde_json::json!(["Kc4-d4"]));
    assert!(cases[3]["note"].as_str().unwrap().contains("misplaced row"));

    // --merge keeps what the case file claims and adds the diagrams it lacks.
    let mut first = cases[0].clone();
    first["moves"] = serde_json::json!(["Kc4-d5"]);
    first["captures"] = serde_json::json!([]);
    first["status"] = serde_json::json!("checkmate");
    let existing = serde_json::json!({"document": "rules", "cases": [first]});
    let case_file = dir.path().join("cases.json");
    std::fs::write(&case_file, existing.to_string()).unwrap();
    let (code, out, err) = run(baroque()
        .arg("extract")
        .arg(&doc)
        .arg("--merge")
        .arg(&case_file));
    assert_eq!(code, 0, "{err}");
    let merged: Value = serde_json::from_str(&out).unwrap();
    let cases = merged["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 5);
    assert_eq!(cases[0]["moves"], serde_json::json!(["Kc4-d5"]));
    assert_eq!(cases[0]["status"], "checkmate");
    assert_eq!(cases[1]["id"], "rules-2");
    // Written back, the merged file checks: the completed case passes.
    std::fs::write(&case_file, &out).unwrap();
    let (_, out, _) = run(baroque().arg("check").arg(&case_file));
    assert!(out.starts_with("ok   rules-1\n"), "{out}");
}

/// A fence's options stay in the skeleton (`rules=vchess`), and moves the text gives as
/// alternatives (`1.Qa5, 1.Qb5 or 1.Qc5`) are one case each, which check as they are.
#[test]
fn extract_keeps_fence_options_and_reads_alternatives_as_alternatives() {
    let (code, out, err) = run(baroque().arg("extract").arg(fixture("rules.md")));
    assert_eq!(code, 0, "{err}");
    let file: Value = serde_json::from_str(&out).unwrap();
    let cases = file["cases"].as_array().unwrap();
    let withdrawer: Vec<&Value> = cases
        .iter()
        .filter(|c| c["fen"] == "7k/8/8/3Qr3/8/8/8/K7 w 0")
        .collect();
    let lines: Vec<&Value> = withdrawer.iter().map(|c| &c["moves"]).collect();
    assert_eq!(
        lines,
        [
            &serde_json::json!(["Qa5"]),
            &serde_json::json!(["Qb5"]),
            &serde_json::json!(["Qc5"])
        ],
        "{out}"
    );
    for c in &withdrawer {
        assert_eq!(c["rules"], "vchess", "{c}");
    }
    let ids: Vec<&str> = withdrawer
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["rules-1", "rules-1-2", "rules-1-3"]);
    // Completed with what each move captures, the three cases check.
    let dir = tempfile::tempdir().unwrap();
    let mut completed = file.clone();
    completed["cases"] = serde_json::Value::Array(
        withdrawer
            .iter()
            .map(|c| {
                let mut c = (*c).clone();
                c["captures"] = serde_json::json!([{"square": "e5", "piece": "r"}]);
                c
            })
            .collect(),
    );
    let path = dir.path().join("cases.json");
    std::fs::write(&path, completed.to_string()).unwrap();
    let (code, out, err) = run(baroque().arg("check").arg(&path));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("3 passed, 0 failed"), "{out}");
}

#[test]
fn extract_names_grids_by_their_diagram() {
    let (code, out, err) = run(baroque().arg("extract").arg(fixture("boards.txt")));
    assert_eq!(code, 0, "{err}");
    let file: Value = serde_json::from_str(&out).unwrap();
    let grid = &file["cases"][1];
    assert_eq!(grid["diagram"]["index"], 2);
    assert!(grid.get("fen").is_none(), "{grid}");
    let (code, _, err) = run(baroque().arg("extract").arg(fixture("cases.json")));
    assert_eq!(code, 2);
    assert!(err.contains("--format-in"), "{err}");
}

#[test]
fn a_big_document_flattened_onto_one_line_is_read_in_one_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("flat.txt");
    let board = "+---+---+ | K |:::| +---+---+ |[p]| * | +---+---+ text ";
    std::fs::write(&path, board.repeat(1_500_000 / board.len())).unwrap();
    let start = std::time::Instant::now();
    let (code, out, err) = run(baroque().arg("check").arg(&path));
    assert_eq!(code, 1, "{err}");
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
    let file = path.display().to_string();
    assert!(
        out.contains(&format!(
            "FAIL {file}:1:{} diagram 10001: unreadable: more than 10000 diagrams",
            1 + 10_000 * board.len()
        )),
        "{}",
        out.lines().rev().take(3).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn documents_that_only_mention_diagrams_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = run(baroque()
        .arg("check")
        .arg(root.join("README.md"))
        .arg(root.join("fixtures/README.md")));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("README.md: no diagram found"), "{out}");
}

/// Every report gives a diagram one line, its first: a GitHub annotation's `line` is the one its
/// title names, and the JUnit test case's; a problem found further down says its own place in its
/// message (`rules.md`'s diagram 2 starts on line 13, its FEN's bad letter is on line 14).
#[test]
fn a_diagram_has_one_line_in_every_report() {
    for name in ["rules.wiki", "rules.md", "boards.txt", "rules.html"] {
        let path = fixture(name);
        let (_, out, _) = run(baroque().args(["check", "--report", "github"]).arg(&path));
        let mut annotations = 0;
        for line in out.lines().filter(|l| l.starts_with("::")) {
            let at: &str = line
                .split(",line=")
                .nth(1)
                .and_then(|r| r.split([',', ':']).next())
                .unwrap_or_else(|| panic!("{line}"));
            let named = line
                .split("(line ")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .unwrap_or_else(|| panic!("{line}"));
            assert_eq!(at, named, "{name}: {line}");
            annotations += 1;
        }
        assert!(annotations > 0, "{name}: {out}");
        let (_, xml, _) = run(baroque().args(["check", "--report", "junit"]).arg(&path));
        for case in xml
            .lines()
            .filter(|l| l.contains("<testcase name=\"diagram"))
        {
            let named = case
                .split("(line ")
                .nth(1)
                .unwrap()
                .split(')')
                .next()
                .unwrap();
            assert!(
                case.contains(&format!(" line=\"{named}\"")),
                "{name}: {case}"
            );
        }
    }
    let (_, out, _) = run(baroque()
        .args(["check", "--report", "github"])
        .arg(fixture("rules.md")));
    assert!(
        out.contains("line=13,col=1,title=baroque check%3A diagram 2 (line 13)::"),
        "{out}"
    );
    assert!(out.contains("(at line 14, column 9)"), "{out}");
}

/// The claims of a JSON report, counted by result, and the (moves, says) of the verified ones.
fn claims(lines: &[Value]) -> (usize, usize, usize, Vec<(String, String)>) {
    let all: Vec<&Value> = lines
        .iter()
        .flat_map(|l| l["claims"].as_array().into_iter().flatten())
        .collect();
    let count = |r: &str| all.iter().filter(|c| c["result"] == r).count();
    let verified = all
        .iter()
        .filter(|c| c["result"] == "verified")
        .map(|c| {
            let moves: Vec<&str> = c["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            (moves.join(" "), c["says"].as_str().unwrap().to_string())
        })
        .collect();
    (
        count("verified"),
        count("wrong"),
        count("not_understood"),
        verified,
    )
}

/// The claims of the seed documents' captions, read in their own notation and verified: the
/// Wikipedia source's 12 (checkmate, stalemate, illegal moves, captures by piece), the vchess
/// page's 5 (captures by piece, by square, and by chess names: "the black rook" is the
/// Coordinator); none wrong. What the reader does not understand is reported, never failed.
#[test]
fn the_seed_documents_captions_claims_are_verified() {
    let (code, wiki, err) = report(&["--format-in", "mediawiki", seed("001_").to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (verified, wrong, not_understood, said) = claims(&wiki);
    assert_eq!((verified, wrong, not_understood), (12, 0, 8), "{said:?}");
    for want in [
        ("Kc4-d5", "checkmate"),
        ("Kc4-d4", "illegal"),
        ("Kc4xd3", "stalemate"),
        ("Kc4xd3", "captures withdrawer"),
        ("Pg4-d4", "captures pawn, immobilizer"),
        ("Ld2-h2", "illegal"),
        ("Xg6-e6-c6", "check"),
    ] {
        assert!(
            said.contains(&(want.0.to_string(), want.1.to_string())),
            "{want:?} in {said:?}"
        );
    }
    let (_, vchess, err) = report(&["--format-in", "html", seed("002_").to_str().unwrap()]);
    assert!(err.is_empty(), "{err}");
    let (verified, wrong, not_understood, said) = claims(&vchess);
    assert_eq!((verified, wrong, not_understood), (5, 0, 2), "{said:?}");
    assert!(said.contains(&("Pc2c4".into(), "captures long leaper, coordinator".into())));
    assert!(said.contains(&("Rc5".into(), "captures on c7, h5".into())));
    assert!(said.contains(&("Qb5".into(), "captures coordinator".into())));
}

/// A wrong claim fails its diagram as a bad board does, with what the engine finds, in the text,
/// JSON and GitHub reports; a claim not understood is an info line.
#[test]
fn a_wrong_claim_in_a_caption_fails_the_check() {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("claims.md");
    std::fs::write(
        &doc,
        "# Claims\n\n```fen\n8/8/8/4k3/2K2M2/3q4/8/8 w 0\n```\n\nKc4-d3 delivers checkmate. \
         Kc4-d5 is illegal. The King is mated.\n",
    )
    .unwrap();
    let (code, out, _) = run(baroque().arg("check").arg(&doc));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL"), "{out}");
    assert!(
        out.contains(
            "Kc4-d3 checkmate: wrong: after Kc4-d3 the engine finds stalemate, not checkmate"
        ),
        "{out}"
    );
    assert!(
        out.contains("Kc4-d5 illegal: wrong: Kc4-d5 is a legal move"),
        "{out}"
    );
    assert!(
        out.contains("info: claim \"The King is mated.\": not understood"),
        "{out}"
    );
    let (code, lines, _) = report(&[doc.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(lines[0]["ok"], false);
    assert_eq!(lines[0]["status"], "wrong_claim");
    let (verified, wrong, not_understood, _) = claims(&lines);
    assert_eq!((verified, wrong, not_understood), (0, 2, 1));
    let (_, out, _) = run(baroque()
        .arg("check")
        .args(["--report", "github"])
        .arg(&doc));
    assert_eq!(out.matches("::error").count(), 2, "{out}");
}
