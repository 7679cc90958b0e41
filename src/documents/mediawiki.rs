//! MediaWiki source: `{{Chess diagram}}` and `{{Chess diagram small}}` templates.
//!
//! A template's fields, separated by `|`: the name, the alignment (`tright`), the title, 64 cells
//! from a8 to h1 rank by rank, and the caption. A cell is blank (an empty square), two letters
//! (a piece in the chess-style letters `k q r b n p` and `m` for the Immobilizer, then `l` for
//! White or `d` for Black: `kl` is the White King), or a mark on an empty square (`xx`, `ox`,
//! `xo`, `oo`, `xl`, `xd`, `ol`, `od`). A template laid out over several lines must keep each rank
//! on whole lines: a line of cells that is not whole ranks is a misplaced row.

use super::{collapse, Content, Found, Lines, Located};
use crate::rules::GameKind;

/// The marks of an empty square.
const MARKS: [&str; 8] = ["xx", "ox", "xo", "oo", "xl", "xd", "ol", "od"];

pub(super) fn read(text: &str) -> Vec<Found> {
    let lines = Lines::new(text);
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(rel) = lower[from..].find("{{chess diagram") {
        let start = from + rel;
        let at = lines.place(start);
        let Some(end) = closing(text, start) else {
            out.push(Found::unreadable(
                at,
                "the template is not closed: no `}}` after `{{Chess diagram`",
            ));
            break;
        };
        from = end + 2;
        let fields = split_fields(text, start + 2, end);
        let name = fields[0].1.trim().to_ascii_lowercase();
        if name != "chess diagram" && name != "chess diagram small" {
            continue;
        }
        let next = lower[from..].find("{{").map_or(text.len(), |i| from + i);
        let after = wiki_plain(&text[from..next]);
        let caption = fields.last().map(|f| wiki_plain(f.1)).unwrap_or_default();
        out.push(Found {
            at,
            caption,
            after,
            game: GameKind::Baroque,
            rules: None,
            content: board(&fields, &lines, at),
        });
    }
    out
}

/// The offset of the `}}` closing the template opened at `start`, counting nested templates.
fn closing(text: &str, start: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = start;
    while i + 1 < b.len() {
        if b[i] == b'{' && b[i + 1] == b'{' {
            depth += 1;
            i += 2;
        } else if b[i] == b'}' && b[i + 1] == b'}' {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    None
}

/// The fields between `from` and `to`, split on `|` outside nested `{{ }}` and `[[ ]]`, each with
/// its byte offset.
fn split_fields(text: &str, from: usize, to: usize) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut fields = Vec::new();
    let (mut depth, mut start, mut i) = (0i32, from, from);
    while i < to {
        let pair = |c: u8| i + 1 < to && b[i] == c && b[i + 1] == c;
        if pair(b'{') || pair(b'[') {
            depth += 1;
            i += 2;
        } else if pair(b'}') || pair(b']') {
            depth -= 1;
            i += 2;
        } else {
            if b[i] == b'|' && depth == 0 {
                fields.push((start, &text[start..i]));
                start = i + 1;
            }
            i += 1;
        }
    }
    fields.push((start, &text[start..to]));
    fields
}

/// The FEN of a template's fields.
fn board(fields: &[(usize, &str)], lines: &Lines, at: super::Place) -> Result<Content, Located> {
    // name, alignment, title, 64 cells, caption.
    let cells = fields.len().saturating_sub(4);
    if fields.len() < 4 || cells != 64 {
        return Err(Located::new(
            at,
            format!(
                "the template has {cells} cells between its title and its caption; a board has 64 (8 ranks of 8)"
            ),
        ));
    }
    let cells = &fields[3..67];
    // A template over several lines keeps whole ranks on each line.
    let first_line = lines.line(cells[0].0);
    if cells.iter().any(|c| lines.line(c.0) != first_line) {
        let mut i = 0;
        while i < 64 {
            let line = lines.line(cells[i].0);
            let n = cells[i..]
                .iter()
                .take_while(|c| lines.line(c.0) == line)
                .count();
            if i % 8 != 0 || n % 8 != 0 {
                let rank = 8 - i / 8;
                return Err(Located::new(
                    lines.place(cells[i].0),
                    format!(
                        "a misplaced row: this line holds {n} cells starting in rank {rank} (cell {} of the rank); each line of cells must hold whole ranks of 8",
                        i % 8 + 1
                    ),
                ));
            }
            i += n;
        }
    }
    let mut letters = Vec::with_capacity(64);
    for rank in 0..8 {
        for file in 0..8 {
            let (offset, raw) = cells[rank * 8 + file];
            let cell = raw.trim().to_ascii_lowercase();
            let letter = match piece(&cell) {
                Ok(l) => l,
                Err(()) => {
                    let lead = raw.len() - raw.trim_start().len();
                    return Err(Located::new(
                        lines.place(offset + lead),
                        format!(
                            "cell {}{} `{}` is neither a piece (k q r b n p m, then l for White or d for Black, as `kl`) nor a mark (`xx`)",
                            (b'a' + file as u8) as char,
                            8 - rank,
                            raw.trim()
                        ),
                    ));
                }
            };
            letters.push(letter);
        }
    }
    let mut fen = super::board_fen(letters.chunks(8).map(|rank| rank.iter().copied()));
    fen.push_str(" w");
    Ok(Content::Board { fen, placed: None })
}

/// A cell's FEN letter (`None` for an empty square), or `Err` for a cell that is neither.
fn piece(cell: &str) -> Result<Option<char>, ()> {
    if cell.is_empty() || MARKS.contains(&cell) {
        return Ok(None);
    }
    let mut chars = cell.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some(p), Some(colour), None) if "kqrbnpm".contains(p) => match colour {
            'l' => Ok(Some(p.to_ascii_uppercase())),
            'd' => Ok(Some(p)),
            _ => Err(()),
        },
        _ => Err(()),
    }
}

/// Wiki text as plain text: links as their label, no quote marks, no templates or tags.
fn wiki_plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("[[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find("]]") {
            Some(j) => {
                let link = &after[..j];
                out.push_str(link.rsplit('|').next().unwrap_or(link));
                rest = &after[j + 2..];
            }
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    collapse(&super::plain(&out.replace("'''", "").replace("''", "")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::Place;

    fn template(cells: &[&str]) -> String {
        format!(
            "{{{{Chess diagram small\n| tright\n|\n|{}\n| A caption with [[Pawn (chess)|pawns]]\n}}}}",
            cells.join("|")
        )
    }

    #[test]
    fn a_one_line_template_reads_its_cells() {
        let mut cells = vec![""; 64];
        cells[3] = "kd";
        cells[60] = "kl";
        cells[34] = "ml";
        cells[35] = "xx";
        let t = template(&cells);
        let found = read(&t);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].caption, "A caption with pawns");
        assert_eq!(
            found[0].content,
            Ok(Content::Board {
                fen: "3k4/8/8/8/2M5/8/8/4K3 w".into(),
                placed: None
            })
        );
    }

    #[test]
    fn a_missing_cell_and_a_bad_cell_are_located() {
        let cells = vec![""; 63];
        let found = read(&format!("x\n{}", template(&cells)));
        let e = found[0].content.clone().unwrap_err();
        assert_eq!(e.at, Place { line: 2, column: 1 });
        assert!(e.message.contains("63 cells"), "{}", e.message);
        let mut cells = vec![""; 64];
        cells[9] = "zz";
        let e = read(&template(&cells)).remove(0).content.unwrap_err();
        assert!(e.message.contains("cell b7 `zz`"), "{}", e.message);
        assert_eq!(e.at.line, 4);
    }

    #[test]
    fn a_row_split_over_lines_is_a_misplaced_row() {
        let mut rows: Vec<String> = (0..8).map(|_| [" "; 8].join("|")).collect();
        rows[2] = [" "; 7].join("|");
        rows[3] = [" "; 9].join("|");
        let t = format!(
            "{{{{Chess diagram\n| tright\n|\n|{}\n| caption\n}}}}",
            rows.join("\n|")
        );
        let e = read(&t).remove(0).content.unwrap_err();
        assert_eq!(e.at.line, 6, "{}", e.message);
        assert!(e.message.contains("misplaced row"), "{}", e.message);
    }
}
