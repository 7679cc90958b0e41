//! MediaWiki source: `{{Chess diagram}}` and `{{Chess diagram small}}` templates.
//!
//! A template's fields, separated by `|`: the name, the alignment (`tright`), the title, 64 cells
//! from a8 to h1 rank by rank, and the caption. A cell is blank (an empty square), two letters
//! (a piece in the chess-style letters `k q r b n p` and `m` for the Immobilizer, then `l` for
//! White or `d` for Black: `kl` is the White King), or a mark on an empty square (`xx`, `ox`,
//! `xo`, `oo`, `xl`, `xd`, `ol`, `od`). A template laid out over several lines must keep each rank
//! on whole lines: a line of cells that is not whole ranks is a misplaced row.
//!
//! What MediaWiki does not render as wikitext holds no diagram: `<!-- -->` comments (an unclosed
//! one runs to the end), and the text of `<nowiki>`, `<pre>`, `<syntaxhighlight>` and `<source>`
//! elements (any case, attributes allowed). Templates nest (`{{Chess diagram|...{{Other}}...}}`
//! closes at its own `}}`), and a field splits on `|` outside nested templates and links
//! (`[[Pawn (chess)|pawns]]` and `[[a|b=c]]` stay one field).

use super::{collapse, Content, Found, Lines, Located};
use crate::rules::GameKind;

/// The marks of an empty square.
const MARKS: [&str; 8] = ["xx", "ox", "xo", "oo", "xl", "xd", "ol", "od"];

pub(super) fn read(source: &str) -> Vec<Found> {
    // Places from the source; templates from the source with what is not wikitext blanked
    // (byte for byte, line ends kept, so every offset stays the source's).
    let lines = Lines::new(source);
    let masked = masked(source);
    let text = masked.as_str();
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

/// The source with comments and the text of `<nowiki>`, `<pre>`, `<syntaxhighlight>` and
/// `<source>` elements blanked: each of their bytes a space but line ends, so that offsets are
/// the source's (a blanked multi-byte character becomes as many spaces as it has bytes).
fn masked(source: &str) -> String {
    let lower = source.to_ascii_lowercase();
    let mut bytes = source.as_bytes().to_vec();
    let mut blank = |from: usize, to: usize| {
        for b in &mut bytes[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    let mut i = 0;
    while let Some(rel) = lower[i..].find('<') {
        let at = i + rel;
        let rest = &lower[at..];
        if rest.starts_with("<!--") {
            let end = lower[at + 4..]
                .find("-->")
                .map_or(lower.len(), |j| at + 4 + j + 3);
            blank(at, end);
            i = end;
            continue;
        }
        let element = ["nowiki", "pre", "syntaxhighlight", "source"]
            .into_iter()
            .find(|name| {
                rest[1..].starts_with(name)
                    && rest[1 + name.len()..]
                        .starts_with(|c: char| c == '>' || c == '/' || c.is_ascii_whitespace())
            });
        let Some(name) = element else {
            i = at + 1;
            continue;
        };
        let Some(open_end) = rest.find('>').map(|j| at + j + 1) else {
            i = at + 1;
            continue;
        };
        if lower[..open_end].ends_with("/>") {
            // Self-closing (`<nowiki/>`): nothing inside.
            i = open_end;
            continue;
        }
        let close = format!("</{name}");
        let end = lower[open_end..].find(&close).map_or(lower.len(), |j| {
            let c = open_end + j;
            lower[c..].find('>').map_or(lower.len(), |k| c + k + 1)
        });
        blank(at, end);
        i = end;
    }
    // Only ASCII bytes were rewritten, whole characters at a time.
    String::from_utf8(bytes).unwrap_or_else(|_| source.to_string())
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
    use crate::Place;

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

    /// Comments, `<nowiki>`, `<pre>`, `<syntaxhighlight>` and `<source>` hold no diagram; a
    /// comment inside a template is left out of its cells; nested templates and links with `|`
    /// and `=` keep their fields; places stay the source's after a blanked multi-byte text.
    #[test]
    fn what_is_not_wikitext_holds_no_diagram() {
        let mut cells = vec![""; 64];
        cells[3] = "kd";
        cells[60] = "kl<!-- the King -->";
        let t = template(&cells);
        let hidden = [
            format!("<!-- {t} -->"),
            format!("<nowiki>{t}</nowiki>"),
            format!("<PRE class=\"x\">\n{t}\n</pre>"),
            format!("<syntaxhighlight lang=\"text\">{t}</syntaxhighlight>"),
            format!("<source>{t}</source>"),
            format!("<!-- unclosed é {t}"),
        ];
        for h in &hidden {
            assert!(read(h).is_empty(), "{h}");
        }
        let doc = format!(
            "<!-- é -->{t}\n<nowiki/>{{{{Chess diagram small|x|{{{{nested|a}}}}|{}|[[a|b=c]]}}}}",
            vec![""; 64].join("|")
        );
        let found = read(&doc);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(
            found[0].at,
            Place {
                line: 1,
                column: 11
            }
        );
        assert_eq!(
            found[0].content,
            Ok(Content::Board {
                fen: "3k4/8/8/8/8/8/8/4K3 w".into(),
                placed: None
            })
        );
        assert_eq!(found[1].at.column, 10, "{:?}", found[1]);
        assert_eq!(found[1].caption, "b=c");
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
