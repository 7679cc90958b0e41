//! Markdown: fenced code blocks (```` ``` ```` or `~~~`) whose info string starts with `fen`, such
//! as ```` ```fen rules=vchess game=baroque ````, each holding one FEN; and every `data-fen` of
//! inline HTML outside code blocks (read as [`super::html`] reads it).
//!
//! A block's text is the paragraph right after it (a caption under the diagram), or else the
//! paragraph before it.

use super::{collapse, game_of_fen, Content, Found, Located, Place};
use crate::rules::GameKind;

/// A fenced block: the fence line, the info string, the lines inside (number and text), and the
/// line after the closing fence.
struct Block<'a> {
    fence: usize,
    info: &'a str,
    body: Vec<(usize, &'a str)>,
    end: usize,
}

pub(super) fn read(text: &str) -> Vec<Found> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        let fence = ["```", "~~~"].into_iter().find(|f| line.starts_with(f));
        let Some(fence) = fence else {
            i += 1;
            continue;
        };
        let marker: String = line
            .chars()
            .take_while(|&c| c == fence.as_bytes()[0] as char)
            .collect();
        let info = line[marker.len()..].trim();
        let mut body = Vec::new();
        let mut j = i + 1;
        while j < lines.len() && !lines[j].trim_start().starts_with(marker.as_str()) {
            body.push((j + 1, lines[j]));
            j += 1;
        }
        blocks.push(Block {
            fence: i + 1,
            info,
            body,
            end: j + 1,
        });
        i = j + 1;
    }
    let mut out: Vec<Found> = Vec::new();
    for b in &blocks {
        let mut words = b.info.split_whitespace();
        if words.next() != Some("fen") {
            continue;
        }
        let (mut rules, mut game) = (None, None);
        for w in words {
            if let Some(r) = w.strip_prefix("rules=") {
                rules = Some(r.to_string());
            } else if let Some(g) = w.strip_prefix("game=") {
                game = Some(g.to_string());
            }
        }
        let at = Place {
            line: b.fence,
            column: 1,
        };
        let caption = paragraph(&lines, b.end, true)
            .or_else(|| paragraph(&lines, b.fence.saturating_sub(1), false))
            .unwrap_or_default();
        let filled: Vec<&(usize, &str)> = b
            .body
            .iter()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let content = match filled.as_slice() {
            [] => Err(Located::new(
                at,
                "the `fen` block is empty: write one FEN in it",
            )),
            [(n, l)] => {
                let lead = l.chars().count() - l.trim_start().chars().count();
                Ok(Content::Fen {
                    text: l.trim().to_string(),
                    at: Place {
                        line: *n,
                        column: lead + 1,
                    },
                })
            }
            [_, (n, _), ..] => Err(Located::new(
                Place {
                    line: *n,
                    column: 1,
                },
                "a `fen` block holds one FEN: this is a second line",
            )),
        };
        let game_kind = match &game {
            Some(g) => match GameKind::parse(g) {
                Some(k) => k,
                None => {
                    out.push(Found {
                        at,
                        caption,
                        after: String::new(),
                        game: GameKind::Baroque,
                        rules,
                        content: Err(Located::new(
                            at,
                            format!("game={g}: the games are baroque and rococo"),
                        )),
                    });
                    continue;
                }
            },
            None => match &content {
                Ok(Content::Fen { text, .. }) => game_of_fen(text),
                _ => GameKind::Baroque,
            },
        };
        out.push(Found {
            at,
            caption,
            after: String::new(),
            game: game_kind,
            rules,
            content,
        });
    }
    // Inline HTML outside the blocks: the blocks' text blanked, lines kept.
    let mut outside: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    for b in &blocks {
        for n in b.fence..=b.end.min(lines.len()) {
            outside[n - 1] = String::new();
        }
    }
    out.extend(super::html::read(&outside.join("\n")));
    out.sort_by_key(|f| f.at);
    out
}

/// The paragraph starting at 1-based line `from` (forward) or ending there (backward), if that
/// line is text.
fn paragraph(lines: &[&str], from: usize, forward: bool) -> Option<String> {
    let is_text = |n: usize| {
        n >= 1
            && n <= lines.len()
            && !lines[n - 1].trim().is_empty()
            && !lines[n - 1].trim_start().starts_with("```")
            && !lines[n - 1].trim_start().starts_with("~~~")
    };
    // Skip one blank line between the block and its paragraph.
    let mut n = from;
    if forward {
        n += 1;
        if !is_text(n) {
            n += 1;
        }
    } else if !is_text(n) {
        n = n.saturating_sub(1);
    }
    if !is_text(n) {
        return None;
    }
    let mut para = Vec::new();
    while is_text(n) {
        para.push(lines[n - 1]);
        n = if forward { n + 1 } else { n - 1 };
    }
    if !forward {
        para.reverse();
    }
    Some(collapse(&para.join(" ")))
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
}
