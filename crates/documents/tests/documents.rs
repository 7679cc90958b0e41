//! The document readers on the seed documents (copies of `../shared/seeds` under
//! `fixtures/documents/seeds`, so that these tests always run; the project's own test documents
//! are read through the binary in tests/cli_documents.rs).

use baroque_documents::{self as documents, Content, Format, Reading};
use baroque_rules::Rules;
use proptest::prelude::*;
use std::path::Path;

fn seed(prefix: &str) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/documents/seeds");
    let entry = std::fs::read_dir(dir)
        .expect("fixtures/documents/seeds is read")
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with(prefix))
        .unwrap_or_else(|| panic!("no seed document {prefix}*"));
    std::fs::read_to_string(entry.path()).expect("the seed document is read")
}

#[test]
fn the_wiki_source_has_seven_diagrams_all_possible() {
    let text = seed("001_");
    let d = documents::diagrams(Format::MediaWiki, &text, Rules::default());
    assert_eq!(d.len(), 7);
    assert!(d.iter().all(|x| x.passes()), "{d:#?}");
    // Each is the position of a case written by hand from the article (fixtures/diagrams).
    let cases = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/diagrams/wikipedia.json"),
    )
    .unwrap();
    for x in &d {
        let fen = x.fen().unwrap();
        assert!(cases.contains(fen), "diagram {} {fen}", x.index);
    }
}

#[test]
fn the_vchess_page_has_seven_figures_and_the_king_fen_is_unreadable() {
    let text = seed("002_");
    let d = documents::diagrams(Format::Html, &text, Rules::default());
    assert_eq!(d.len(), 7);
    let bad: Vec<_> = d.iter().filter(|x| !x.passes()).collect();
    assert_eq!(bad.len(), 1, "{bad:#?}");
    let Reading::Unreadable(e) = &bad[0].reading else {
        panic!("{:?}", bad[0].reading)
    };
    let line = text
        .lines()
        .position(|l| l.contains("7k/8/8/p4r/4K3"))
        .unwrap()
        + 1;
    assert_eq!(e.at.line, line);
    assert!(bad[0].caption().contains("Ke5"), "{}", bad[0].caption());
}

#[test]
fn the_rococo_page_has_its_start_board_and_four_illustrations() {
    let text = seed("003_");
    let d = documents::diagrams(Format::Text, &text, Rules::default());
    assert_eq!(d.len(), 5);
    let grids = d
        .iter()
        .filter(|x| matches!(x.found.content, Ok(Content::Grid(_))))
        .count();
    assert_eq!(grids, 4);
}

/// Pieces of every format's syntax, and characters of several bytes, run together at random.
fn document_strategy() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "{{Chess diagram small",
        "{{Chess diagram",
        "}}",
        "{{",
        "|",
        "| ",
        "kl",
        "xx",
        "qd",
        "[[a|b]]",
        "''",
        "+---+",
        "+---+---+",
        "---+",
        ":::",
        ":p:",
        "[p]",
        " * ",
        " + ",
        "K",
        "10",
        "8",
        "\n",
        "\n\n",
        " ",
        "data-fen='",
        "data-fen=\"",
        "data-fen=",
        "'",
        "\"",
        ">",
        "<p>",
        "</p>",
        "<figcaption>",
        "</figure>",
        "```fen",
        "```",
        "~~~",
        "rules=vchess",
        "game=rococo",
        "7k/8/8/8/8/8/8/K7 w 0",
        "/",
        "w",
        "é",
        "ß字",
        "![]() Name",
        "# T",
    ]);
    prop::collection::vec(piece, 0..120).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(400),
        ..ProptestConfig::default()
    })]

    /// No document makes a reader panic, and every place it gives is in the document.
    #[test]
    fn any_text_reads_without_panic_at_places_in_the_document(text in document_strategy()) {
        let lines = text.split('\n').collect::<Vec<_>>();
        for format in [Format::MediaWiki, Format::Html, Format::Markdown, Format::Text] {
            for d in documents::diagrams(format, &text, Rules::default()) {
                let mut places = vec![d.at()];
                if let Reading::Unreadable(e) = &d.reading {
                    places.push(e.at);
                }
                for p in places {
                    prop_assert!(p.line >= 1 && p.line <= lines.len(), "{format:?} {p:?}");
                    let width = lines[p.line - 1].chars().count();
                    prop_assert!(p.column >= 1 && p.column <= width + 1, "{format:?} {p:?} {width}");
                }
            }
        }
    }
}

/// A corpus document's diagrams as the test compares them: where each starts, its FEN and where
/// the FEN stands (or the error), its caption, game and rules.
fn corpus_diagrams(format: Format, text: &str) -> Vec<serde_json::Value> {
    baroque_documents::find(format, text)
        .iter()
        .map(|f| {
            let (fen, fen_at) = match &f.content {
                Ok(baroque_documents::Content::Fen { text, at }) => (text.clone(), at.to_string()),
                Ok(baroque_documents::Content::Board { fen, .. }) => (fen.clone(), String::new()),
                Ok(other) => (format!("{other:?}"), String::new()),
                Err(e) => (format!("error: {}", e.message), e.at.to_string()),
            };
            serde_json::json!({
                "at": f.at.to_string(),
                "fen": fen,
                "fen_at": fen_at,
                "caption": f.caption,
                "game": format!("{:?}", f.game).to_lowercase(),
                "rules": f.rules,
            })
        })
        .collect()
}

/// Each document of `fixtures/documents/corpus` gives the diagrams of its `.json` beside it, and
/// so does the same document with CRLF line ends and a byte order mark (read as `check` reads a
/// file).
#[test]
fn the_corpus_documents_give_their_expected_diagrams() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/documents/corpus");
    let mut read = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(format) = Format::of_path(&path) else {
            continue;
        };
        let text = std::fs::read_to_string(&path).unwrap();
        let expected: Vec<serde_json::Value> = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension(format!(
                "{}.json",
                path.extension().unwrap().to_str().unwrap()
            )))
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            corpus_diagrams(format, &text),
            expected,
            "{}",
            path.display()
        );
        let crlf = format!("\u{feff}{}", text.replace('\n', "\r\n"));
        let decoded = baroque_documents::text_of_bytes(crlf.into_bytes()).unwrap();
        assert_eq!(
            corpus_diagrams(format, &decoded),
            expected,
            "{} with CRLF and a BOM",
            path.display()
        );
        read += 1;
    }
    assert!(read >= 1);
}

/// Prints a corpus document's diagrams as its `.json` holds them (run with `--ignored` and
/// `CORPUS=path` to write a new document's expectations, then check them by hand).
#[test]
#[ignore]
fn print_corpus_diagrams() {
    let path = std::path::PathBuf::from(std::env::var("CORPUS").unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    for d in corpus_diagrams(Format::of_path(&path).unwrap(), &text) {
        println!("{d}");
    }
}
