//! Lichess's puzzle CSV: a collection as rows of
//! `PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags`, and
//! rows read back into puzzles.
//!
//! What each column holds here:
//!
//! | column | written | read |
//! |---|---|---|
//! | `PuzzleId` | the store's id | for reference only |
//! | `FEN` | the stored canonical FEN (10x10 for Rococo) | the position |
//! | `Moves` | the main line of [`super::solution`], each move as its from and to squares (`g6c6`), separated by spaces | the main line (any notation the move reader takes) |
//! | `Rating` | the puzzle's Glicko-2 rating ([`crate::rating`]), rounded: before any attempt, the one its difficulty gives | ignored |
//! | `RatingDeviation` | its deviation, rounded (350 before any attempt) | ignored |
//! | `Popularity` | 0 (no measure of it) | ignored |
//! | `NbPlays` | the attempts recorded | ignored |
//! | `Themes` | the puzzle's tags, separated by spaces | its tags |
//! | `GameUrl` | the puzzle's source (empty without one) | its source |
//! | `OpeningTags` | `game:baroque` or `game:rococo`, `rules:<rule set>` (Baroque), `stipulation:<#2, s#2, h#2, h#2.5>`, separated by spaces | the game (default Baroque), rule set (default `abbott`) and stipulation |
//!
//! Lichess puts the opponent's last move first in `Moves` (the puzzle starts after it); a
//! composed puzzle has no move before it, so here the first move is the key (a helpmate's: its
//! first move). Lichess has no column for a variant or a stipulation: `OpeningTags` carries them
//! (a row without a stipulation whose line ends in mate stands for `#N`, as in PGN). The title and
//! the caption have no column and are not written. The `csv` crate reads and writes the rows:
//! fields are quoted as RFC 4180 says (a field holding `,`, `"` or a line break is put in double
//! quotes, a `"` doubled), both ways; rows are written ending with a line feed, and read ending
//! with a line feed, a carriage return and line feed, or a carriage return alone; an error names
//! the row, its line and the field.

use super::{Place, ReadError, ReadPuzzle};
use crate::rules::{GameKind, Rules, Variant};
use crate::solver::Stipulation;
use crate::StoredPuzzle;
use crate::{About, Claim, MateClaim, NewPuzzle};

/// The media type of CSV.
pub const CONTENT_TYPE: &str = "text/csv; charset=utf-8";

/// The header line, exactly as Lichess's puzzle database has it.
pub const HEADER: [&str; 10] = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
];

/// A row of fields, written by the `csv` crate: a field is quoted when it must be (it holds a
/// `,`, a `"` or a line break; a `"` is doubled), and the row ends with a line feed.
fn row<S: AsRef<str>>(fields: &[S]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .quote_style(csv::QuoteStyle::Necessary)
        .from_writer(Vec::new());
    // Writing to memory cannot fail, and the fields are UTF-8 with quotes escaped, so the
    // bytes are UTF-8.
    let written = writer
        .write_record(fields.iter().map(AsRef::as_ref))
        .ok()
        .and_then(|()| writer.into_inner().ok())
        .and_then(|bytes| String::from_utf8(bytes).ok());
    written.unwrap_or_default()
}

/// A stored puzzle as a CSV row, or `None` for a diagram ([`super::exportable`]); its `Rating`,
/// `RatingDeviation` and `NbPlays` are its rating's ([`crate::rating`]).
pub fn write_puzzle(p: &StoredPuzzle) -> Option<String> {
    let rating = p.rating.unwrap_or(crate::rating::PuzzleRating {
        rating: crate::rating::Rating::of_difficulty(p.difficulty),
        attempts: 0,
    });
    if !super::exportable(p) {
        return None;
    }
    let stipulation = p.stipulation?;
    let mut opening = vec![format!("game:{}", p.game().name())];
    if let Some(rules) = p.variant.rules() {
        opening.push(format!("rules:{rules}"));
    }
    opening.push(format!("stipulation:{stipulation}"));
    Some(row(&[
        p.id.to_string(),
        p.fen.clone(),
        super::solution(p).main_uci().join(" "),
        format!("{:.0}", rating.rating.value),
        format!("{:.0}", rating.rating.deviation),
        "0".into(),
        rating.attempts.to_string(),
        p.tags.join(" "),
        p.source.clone().unwrap_or_default(),
        opening.join(" "),
    ]))
}

/// Puzzles as CSV: the header, then a row each in order; diagrams are left out (their ids are
/// returned).
pub fn write_all<'a>(puzzles: impl IntoIterator<Item = &'a StoredPuzzle>) -> (String, Vec<i64>) {
    let mut text = head();
    let mut skipped = Vec::new();
    for p in puzzles {
        match write_puzzle(p) {
            Some(r) => text.push_str(&r),
            None => skipped.push(p.id),
        }
    }
    (text, skipped)
}

/// What a CSV export starts with: the header row.
pub fn head() -> String {
    row(&HEADER)
}

/// A record of CSV text: its fields and the line it starts on.
type Record = (Vec<String>, usize);

/// Reads CSV text into records with the `csv` crate (RFC 4180: fields in double quotes may hold
/// commas, line breaks and doubled quotes; a byte order mark is skipped); blank lines are skipped.
/// The crate reads as spreadsheets do: text after a closing quote joins the field, and a quote
/// left open runs on to the next quote (the row then has too few fields, and its error says a
/// field holds a line break).
///
/// # Errors
/// Text the crate refuses, at its line.
pub fn records(text: &str) -> Result<Vec<Record>, (usize, String)> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    // The crate's line numbers leave out blank lines, so the line is counted here, from the first
    // byte of the record after the line ends the crate skipped.
    let bytes = text.as_bytes();
    // A line ends at a line feed, or at a carriage return not followed by one (as the crate
    // ends a record).
    let ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter_map(|(i, &b)| {
            (b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))).then_some(i)
        })
        .collect();
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let line = |p: Option<&csv::Position>| {
        let mut at = p.map_or(0, |p| usize::try_from(p.byte()).unwrap_or(bytes.len()));
        at = at.max(bom);
        while matches!(bytes.get(at), Some(b'\r' | b'\n')) {
            at += 1;
        }
        ends.partition_point(|&e| e < at) + 1
    };
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| (line(e.position()), e.to_string()))?;
        let fields: Vec<String> = record.iter().map(str::to_string).collect();
        if fields.len() == 1 && fields[0].trim().is_empty() {
            continue;
        }
        out.push((fields, line(record.position())));
    }
    Ok(out)
}

/// A row's puzzle, to verify; `number` counts the rows after the header from 1.
///
/// # Errors
/// A wrong number of fields, an unknown game, rule set or stipulation in `OpeningTags`, an
/// unreadable FEN, a move that is not legal, no stipulation: each naming the row and the line.
pub fn puzzle(fields: &[String], number: usize, line: usize) -> Result<ReadPuzzle, ReadError> {
    let fail = |message: String| ReadError {
        unit: "row",
        start: line,
        place: Place {
            number: Some(number),
            line,
        },
        message,
    };
    if fields.len() != HEADER.len() {
        let open = fields
            .iter()
            .position(|f| f.contains('\n'))
            .map(|i| {
                format!(
                    " (field {} holds a line break: is a quote left open?)",
                    i + 1
                )
            })
            .unwrap_or_default();
        return Err(fail(format!(
            "{} fields where the header has {}{open}",
            fields.len(),
            HEADER.len()
        )));
    }
    let (mut kind, mut rules, mut stated) = (GameKind::default(), None, None);
    for item in fields[9].split_whitespace() {
        if let Some(g) = item.strip_prefix("game:") {
            kind = GameKind::parse(g).ok_or_else(|| {
                fail(format!(
                    "OpeningTags `{item}`: the game is `baroque` or `rococo`"
                ))
            })?;
        } else if let Some(r) = item.strip_prefix("rules:") {
            rules = Some(
                r.parse::<Rules>()
                    .map_err(|e| fail(format!("OpeningTags `{item}`: {e}")))?,
            );
        } else if let Some(s) = item.strip_prefix("stipulation:") {
            stated = Some(Stipulation::parse(s).ok_or_else(|| {
                fail(format!(
                    "OpeningTags `{item}`: write {} (such as stipulation:#2)",
                    Stipulation::FORMS
                ))
            })?);
        }
    }
    let variant = Variant::of(kind, rules).map_err(|e| fail(format!("OpeningTags: {e}")))?;
    let moves: Vec<(String, usize)> = fields[2]
        .split_whitespace()
        .map(|m| (m.to_string(), line))
        .collect();
    let read = super::read_puzzle(
        variant,
        fields[1].trim(),
        line,
        &moves,
        stated,
        "no `stipulation:` in OpeningTags",
    )
    .map_err(|(_, part, m)| {
        let column = match part {
            super::Part::Fen => 2,
            super::Part::Moves => 3,
            super::Part::Stipulation => 10,
        };
        fail(format!("field {column} ({}): {m}", HEADER[column - 1]))
    })?;
    let text = |i: usize| Some(fields[i].trim().to_string()).filter(|t| !t.is_empty());
    Ok(ReadPuzzle {
        place: Place {
            number: Some(number),
            line,
        },
        puzzle: NewPuzzle {
            variant,
            fen: read.fen,
            claim: Claim::Mate(MateClaim {
                stipulation: read.stipulation,
                ..MateClaim::default()
            }),
            about: About {
                source: text(8),
                tags: fields[7].split_whitespace().map(str::to_string).collect(),
                ..About::default()
            },
        },
        line: read.played.line,
    })
}

/// Reads CSV text into puzzles to verify, each row read or refused on its own.
///
/// # Errors
/// Text that is not CSV, or whose header is not Lichess's puzzle header.
pub fn read(text: &str) -> Result<Vec<Result<ReadPuzzle, ReadError>>, ReadError> {
    let whole = |line: usize, message: String| ReadError {
        unit: "row",
        start: 1,
        place: Place { number: None, line },
        message,
    };
    let records = records(text).map_err(|(line, m)| whole(line, m))?;
    let Some(((header, line), rows)) = records.split_first() else {
        return Err(whole(
            1,
            format!(
                "the text is empty: a puzzle CSV starts with its header, {}",
                HEADER.join(",")
            ),
        ));
    };
    if header.iter().map(|h| h.trim()).ne(HEADER) {
        return Err(whole(
            *line,
            format!(
                "the header is `{}`, not Lichess's puzzle header `{}`",
                header.join(","),
                HEADER.join(",")
            ),
        ));
    }
    Ok(rows
        .iter()
        .enumerate()
        .map(|(i, (fields, line))| puzzle(fields, i + 1, *line))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_as_rfc_4180_says_and_read_back() {
        let fields = [
            "plain".to_string(),
            "a,b".into(),
            "say \"hi\"".into(),
            "two\nlines".into(),
            String::new(),
        ];
        let text = row(&fields);
        assert_eq!(text, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\n");
        let back = records(&format!("{text}\r\nx,y\r\n")).unwrap();
        assert_eq!(back[0], (fields.to_vec(), 1));
        assert_eq!(back[1], (vec!["x".to_string(), "y".into()], 4));
        // A byte order mark, CRLF line ends and blank lines: each record at its own line.
        let back = records("\u{feff}a\r\n\r\n\r\nb,\"c\r\nd\"\r\n\ne\r\n").unwrap();
        let lines: Vec<usize> = back.iter().map(|r| r.1).collect();
        assert_eq!(lines, [1, 4, 7]);
        assert_eq!(back[0].0, ["a"]);
        assert_eq!(back[1].0, ["b", "c\r\nd"]);
        // A byte order mark before a blank line; old Mac line ends (a carriage return alone).
        let back = records("\u{feff}\na,b\rc,d\r\re\r").unwrap();
        let lines: Vec<usize> = back.iter().map(|r| r.1).collect();
        assert_eq!(lines, [2, 3, 5]);
    }

    #[test]
    fn broken_quotes_are_read_as_the_csv_crate_reads_them() {
        // Text after a closing quote joins the field; a quote inside an unquoted field is text.
        let back = records("a,\"x\"y\nb,c\"d\n").unwrap();
        assert_eq!(back[0], (vec!["a".to_string(), "xy".into()], 1));
        assert_eq!(back[1], (vec!["b".to_string(), "c\"d".into()], 2));
        // A quote left open runs on: its row has too few fields, and says so.
        let text =
            format!("{HEAD}1,\"2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,g6c6,1,2,3,4,,,\n2,x\n");
        let rows = read(&text).unwrap();
        assert_eq!(rows.len(), 1);
        let e = rows[0].as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            "row 1, line 2: 2 fields where the header has 10 (field 2 holds a line break: is a \
             quote left open?)"
        );
    }

    const HEAD: &str =
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n";

    #[test]
    fn rows_give_their_claims_and_errors() {
        let text = format!(
            "{HEAD}3,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,g6c6 b7c8 c4g8,1500,500,0,0,chameleon mate-in-2,wikipedia,game:baroque rules:abbott stipulation:#2\n\
             4,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,g6c6,1500,500,0,0,,,game:chess\n\
             5,too,few\n\
             6,k7/8/8 w 0,,,,,,,,stipulation:#2\n\
             7,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,a1a8,,,,,,,stipulation:#2\n\
             8,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,,,,,,,,\n"
        );
        let rows = read(&text).unwrap();
        let p = rows[0].as_ref().unwrap();
        assert_eq!(p.line, ["Bg6xc6", "Kb7xc8", "Nc4-g8"]);
        assert_eq!(p.puzzle.about.tags, ["chameleon", "mate-in-2"]);
        assert_eq!(p.puzzle.about.source.as_deref(), Some("wikipedia"));
        let e = rows[1].as_ref().unwrap_err();
        assert_eq!(
            e.place,
            Place {
                number: Some(2),
                line: 3
            }
        );
        assert!(e.message.contains("game:chess"), "{e}");
        let e = rows[3].as_ref().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("row 4, line 5: field 2 (FEN): FEN"),
            "{e}"
        );
        let e = rows[4].as_ref().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("row 5, line 6: field 3 (Moves): "),
            "{e}"
        );
        let e = rows[5].as_ref().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("row 6, line 7: field 10 (OpeningTags): "),
            "{e}"
        );
        let e = rows[2].as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            "row 3, line 4: 3 fields where the header has 10"
        );
        assert!(read("a,b\n1,2\n")
            .unwrap_err()
            .message
            .contains("not Lichess's"));
        assert!(read("").is_err());
    }
}
