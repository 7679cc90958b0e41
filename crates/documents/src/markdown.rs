//! Markdown, read by a CommonMark parser (`pulldown-cmark`, with tables, footnotes,
//! strikethrough and task lists): a diagram is a fenced code block (```` ``` ```` or `~~~`) whose
//! info string starts with `fen`, such as ```` ```fen rules=vchess game=baroque ````, holding one
//! FEN, wherever CommonMark finds one (in lists, blockquotes and nested containers; an indented
//! code block that shows a fence is text, not a diagram); and every `data-fen` of the document's
//! HTML (its HTML blocks and inline HTML, read as [`super::html`] reads it, at their places in the
//! source: nothing in a code block or a code span counts).
//!
//! A block's caption is the paragraph right after it (a caption under the diagram), or else the
//! paragraph right before it, as plain text.

use super::{collapse, Content, Found, Lines, Located, Place};
use crate::rules::GameKind;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// A `fen` block: where its opening fence starts, its info string, its lines of text (each with
/// the byte offset of its first character in the source), and the paragraphs around it.
struct Block {
    fence: usize,
    info: String,
    body: Vec<(usize, String)>,
    before: Option<String>,
    after: Option<String>,
}

/// What the reader is inside of.
enum State {
    Outside,
    /// A `fen` block being read (its index).
    Fen(usize),
    /// A paragraph, its text so far.
    Paragraph(String),
    /// Another code block, or anything else whose text does not count.
    Other,
}

/// The deepest nesting of blockquotes read: a document nesting deeper is refused at the line,
/// since the parser's memory grows with the depth (rule documents nest a few levels).
pub(super) const MAX_QUOTE_DEPTH: usize = 100;

/// A line whose blockquotes nest deeper than [`MAX_QUOTE_DEPTH`], outside fenced code: the
/// document is refused there. The markers are counted in the line's leading run of `>`, white
/// space and list markers (`-`, `*`, `+`, `1.`, `1)`); a line opening or closing a fence (its
/// text after that run starts with ```` ``` ```` or `~~~`) turns fenced code on or off.
fn too_deep(text: &str) -> Option<Found> {
    let mut offset = 0;
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        let lead = line
            .find(|c: char| {
                !matches!(
                    c,
                    '>' | ' ' | '\t' | '-' | '*' | '+' | '.' | ')' | '0'..='9'
                )
            })
            .unwrap_or(line.len());
        let rest = &line[lead..];
        if rest.starts_with("```") || rest.starts_with("~~~") {
            fenced = !fenced;
        }
        let depth = line[..lead].matches('>').count();
        if depth > MAX_QUOTE_DEPTH && !fenced {
            return Some(Found::unreadable(
                Lines::new(text).place(offset),
                format!(
                    "blockquotes nest {depth} deep here, more than {MAX_QUOTE_DEPTH}: the \
                     document is not read"
                ),
            ));
        }
        offset += line.len();
    }
    None
}

pub(super) fn read(text: &str) -> Vec<Found> {
    if let Some(found) = too_deep(text) {
        return vec![found];
    }
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS;
    let mut blocks: Vec<Block> = Vec::new();
    // The document's HTML, as byte ranges of the source.
    let mut html: Vec<Range<usize>> = Vec::new();
    // The last block-level thing that ended: a paragraph (its text) or anything else (`None`),
    // and whether a `fen` block waits for the paragraph after it.
    let mut last_paragraph: Option<String> = None;
    let mut waiting: Option<usize> = None;
    let mut state = State::Outside;
    let mut depth = 0usize;
    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Html(_) | Event::InlineHtml(_) => html.push(range.clone()),
            _ => {}
        }
        match (&mut state, event) {
            (State::Outside, Event::Start(Tag::CodeBlock(kind))) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                if info.split_whitespace().next() == Some("fen") {
                    blocks.push(Block {
                        fence: range.start,
                        info,
                        body: Vec::new(),
                        before: last_paragraph.take(),
                        after: None,
                    });
                    state = State::Fen(blocks.len() - 1);
                } else {
                    state = State::Other;
                    depth = 1;
                }
                waiting = None;
            }
            (State::Outside, Event::Start(Tag::Paragraph)) => {
                state = State::Paragraph(String::new());
            }
            (State::Outside, Event::Start(_)) => {
                // A container (a list, a blockquote, an item) holds blocks of its own: stay.
                // The paragraph before a block is the one right before it.
                last_paragraph = None;
            }
            (State::Outside, Event::Rule | Event::End(_)) => {
                // A rule, or the end of a container: a caption stays in the diagram's container.
                last_paragraph = None;
                waiting = None;
            }
            (State::Outside, _) => {}
            (State::Fen(i), Event::Text(t)) => {
                // The text of the block, a line (or several) at a time, at `range` in the source.
                let b = &mut blocks[*i];
                let mut at = range.start;
                for line in t.split_inclusive('\n') {
                    b.body
                        .push((at, line.trim_end_matches(['\n', '\r']).to_string()));
                    at += line.len();
                }
            }
            (State::Fen(i), Event::End(TagEnd::CodeBlock)) => {
                waiting = Some(*i);
                last_paragraph = None;
                state = State::Outside;
            }
            (State::Fen(_), _) => {}
            (State::Paragraph(p), Event::Text(t) | Event::Code(t)) => p.push_str(&t),
            (State::Paragraph(p), Event::SoftBreak | Event::HardBreak) => p.push(' '),
            (State::Paragraph(p), Event::End(TagEnd::Paragraph)) => {
                let para = collapse(p);
                if let Some(i) = waiting.take() {
                    blocks[i].after = Some(para.clone());
                }
                last_paragraph = Some(para);
                state = State::Outside;
            }
            (State::Paragraph(_), _) => {}
            (State::Other, Event::Start(_)) => depth += 1,
            (State::Other, Event::End(_)) => {
                depth -= 1;
                if depth == 0 {
                    state = State::Outside;
                    last_paragraph = None;
                    waiting = None;
                }
            }
            (State::Other, _) => {}
        }
    }
    let lines = Lines::new(text);
    let mut out: Vec<Found> = blocks.iter().map(|b| found(b, &lines)).collect();
    // The HTML: everything else blanked (line ends kept), so its places stay the source's.
    if !html.is_empty() {
        let mut kept = vec![false; text.len()];
        for r in &html {
            kept[r.clone()].iter_mut().for_each(|k| *k = true);
        }
        let outside: String = text
            .char_indices()
            .map(|(i, c)| if kept[i] || c == '\n' { c } else { ' ' })
            .collect();
        out.extend(super::html::read(&outside));
    }
    out.sort_by_key(|f| f.at);
    out
}

/// The diagram of a `fen` block.
fn found(b: &Block, lines: &Lines<'_>) -> Found {
    let at = {
        let p = lines.place(b.fence);
        Place {
            line: p.line,
            column: p.column,
        }
    };
    let mut words = b.info.split_whitespace();
    words.next();
    let (mut rules, mut game) = (None, None);
    for w in words {
        if let Some(r) = w.strip_prefix("rules=") {
            rules = Some(r.to_string());
        } else if let Some(g) = w.strip_prefix("game=") {
            game = Some(g.to_string());
        }
    }
    let caption = b
        .after
        .clone()
        .or_else(|| b.before.clone())
        .unwrap_or_default();
    let filled: Vec<&(usize, String)> = b
        .body
        .iter()
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let content = match filled.as_slice() {
        [] => Err(Located::new(
            at,
            "the `fen` block is empty: write one FEN in it",
        )),
        [(offset, l)] => {
            let lead = l.len() - l.trim_start().len();
            Ok(Content::Fen {
                text: l.trim().to_string(),
                at: lines.place(offset + lead),
            })
        }
        [_, (offset, _), ..] => Err(Located::new(
            Place {
                line: lines.line(*offset),
                column: 1,
            },
            "a `fen` block holds one FEN: this is a second line",
        )),
    };
    let game_kind = match &game {
        Some(g) => match GameKind::parse(g) {
            Some(k) => k,
            None => {
                return Found {
                    at,
                    caption,
                    after: String::new(),
                    game: GameKind::Baroque,
                    rules,
                    content: Err(Located::new(
                        at,
                        format!("game={g}: the games are baroque and rococo"),
                    )),
                }
            }
        },
        None => match &content {
            Ok(Content::Fen { text, .. }) => GameKind::of_fen(text),
            _ => GameKind::Baroque,
        },
    };
    Found {
        at,
        caption,
        after: String::new(),
        game: game_kind,
        rules,
        content,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_blocks_and_inline_html() {
        let t = "# Title\n\nBefore.\n\n```fen rules=vchess\n  7k/8/8/8/8/8/8/K7 w 0\n```\n\nKa1-a2 is a move.\n\n```rust\nlet x = 1;\n```\n<div data-fen=\"8/8/8/8/8/8/8/K6k w\"></div>\n\n```fen\n```\n";
        let f = read(t);
        assert_eq!(f.len(), 3, "{f:?}");
        assert_eq!(f[0].caption, "Ka1-a2 is a move.");
        assert_eq!(f[0].rules.as_deref(), Some("vchess"));
        match &f[0].content {
            Ok(Content::Fen { at, .. }) => assert_eq!(*at, Place { line: 6, column: 3 }),
            other => panic!("{other:?}"),
        }
        assert_eq!(f[1].at.line, 14);
        assert_eq!(f[2].at.line, 16);
        assert!(f[2].content.is_err());
    }

    #[test]
    fn blockquotes_nested_too_deep_are_refused_at_their_line() {
        let fine = format!(
            "{}```fen\n{}7k/8/8/8/8/8/8/K7 w 0\n",
            "> ".repeat(100),
            "> ".repeat(100)
        );
        assert_eq!(read(&fine).len(), 1);
        let deep = format!("# Title\n\n{}\n", ">".repeat(5_000));
        let f = read(&deep);
        assert_eq!(f.len(), 1);
        let e = f[0].content.clone().unwrap_err();
        assert_eq!(e.at, Place { line: 3, column: 1 });
        assert!(e.message.contains("5000 deep"), "{}", e.message);
        // In fenced code such a line is text; ordered lists count as well.
        let code = format!(
            "```\n{}\n```\n\n```fen\n7k/8/8/8/8/8/8/K7 w 0\n```\n",
            ">".repeat(500)
        );
        assert_eq!(read(&code).len(), 1);
        assert!(read(&code)[0].content.is_ok());
        let listed = format!("1. {}\n", "> 1. ".repeat(200));
        assert!(read(&listed)[0]
            .content
            .clone()
            .unwrap_err()
            .message
            .contains("200 deep"));
    }
}
