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
//! | `Rating` | [`super::lichess_rating`] of the puzzle's difficulty (1500 without one) | ignored |
//! | `RatingDeviation` | 500 (no play has measured it) | ignored |
//! | `Popularity`, `NbPlays` | 0 | ignored |
//! | `Themes` | the puzzle's tags, separated by spaces | its tags |
//! | `GameUrl` | the puzzle's source (empty without one) | its source |
//! | `OpeningTags` | `game:baroque` or `game:rococo`, `rules:<rule set>` (Baroque), `stipulation:<#2, s#2, h#2, h#2.5>`, separated by spaces | the game (default Baroque), rule set (default `abbott`) and stipulation |
//!
//! Lichess puts the opponent's last move first in `Moves` (the puzzle starts after it); a
//! composed puzzle has no move before it, so here the first move is the key (a helpmate's: its
//! first move). Lichess has no column for a variant or a stipulation: `OpeningTags` carries them
//! (a row without a stipulation whose line ends in mate stands for `#N`, as in PGN). The title and
//! the caption have no column and are not written. Fields are quoted as RFC 4180 says (a field
//! holding `,`, `"` or a line break is put in double quotes, a `"` doubled), both ways; rows end
//! with a line feed (a carriage return before it is read too).

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

/// The rating deviation written: a rating computed, not measured by play.
pub const RATING_DEVIATION: u32 = 500;

/// A field, quoted when it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A row of fields.
fn row(fields: &[String]) -> String {
    let mut line = fields
        .iter()
        .map(|f| field(f))
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}

/// A stored puzzle as a CSV row, or `None` for a diagram ([`super::exportable`]); its `Rating`
/// comes from its difficulty ([`super::lichess_rating`]).
pub fn write_puzzle(p: &StoredPuzzle) -> Option<String> {
    let difficulty = p.difficulty;
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
        super::lichess_rating(difficulty).to_string(),
        RATING_DEVIATION.to_string(),
        "0".into(),
        "0".into(),
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
    row(&HEADER.map(String::from))
}

/// A record of CSV text: its fields and the line it starts on.
type Record = (Vec<String>, usize);

/// Reads CSV text (RFC 4180: fields in double quotes may hold commas, line breaks and doubled
/// quotes) into records; blank lines are skipped.
///
/// # Errors
/// A quote that is not closed, or text after a closing quote, at its line.
pub fn records(text: &str) -> Result<Vec<Record>, (usize, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        let start = line;
        let mut fields = Vec::new();
        let mut cur = String::new();
        let mut quoted_field = false;
        loop {
            match chars.next() {
                None => {
                    fields.push(std::mem::take(&mut cur));
                    break;
                }
                Some('"') if cur.is_empty() && !quoted_field => {
                    quoted_field = true;
                    let open = line;
                    loop {
                        match chars.next() {
                            None => {
                                return Err((
                                    open,
                                    "a field opened by `\"` here is not closed".into(),
                                ))
                            }
                            Some('"') if chars.peek() == Some(&'"') => {
                                chars.next();
                                cur.push('"');
                            }
                            Some('"') => break,
                            Some(c) => {
                                if c == '\n' {
                                    line += 1;
                                }
                                cur.push(c);
                            }
                        }
                    }
                    match chars.peek() {
                        None | Some(',' | '\n' | '\r') => {}
                        Some(c) => {
                            return Err((
                                line,
                                format!(
                                "`{c}` after the closing `\"` of a field: a field is quoted whole"
                            ),
                            ))
                        }
                    }
                }
                Some(',') => {
                    fields.push(std::mem::take(&mut cur));
                    quoted_field = false;
                }
                Some('\r') if chars.peek() == Some(&'\n') => {}
                Some('\n') => {
                    line += 1;
                    fields.push(std::mem::take(&mut cur));
                    break;
                }
                Some('"') => {
                    return Err((
                        line,
                        "a `\"` inside a field that is not quoted: quote the field and double the \
                         `\"`"
                            .into(),
                    ))
                }
                Some(c) => cur.push(c),
            }
        }
        if !(fields.len() == 1 && fields[0].trim().is_empty() && !quoted_field) {
            out.push((fields, start));
        }
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
        return Err(fail(format!(
            "{} fields where the header has {}",
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
    .map_err(|(_, m)| fail(m))?;
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
    }

    #[test]
    fn broken_quotes_are_errors_at_their_lines() {
        assert_eq!(records("a,\"open\n\n").unwrap_err().0, 1);
        assert!(records("a,\"x\"y\n")
            .unwrap_err()
            .1
            .contains("after the closing"));
        assert!(records("a\nb,c\"d\n").unwrap_err().0 == 2);
    }

    const HEAD: &str =
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n";

    #[test]
    fn rows_give_their_claims_and_errors() {
        let text = format!(
            "{HEAD}3,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,g6c6 b7c8 c4g8,1500,500,0,0,chameleon mate-in-2,wikipedia,game:baroque rules:abbott stipulation:#2\n\
             4,2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0,g6c6,1500,500,0,0,,,game:chess\n\
             5,too,few\n"
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
