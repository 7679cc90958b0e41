//! HTML: every element with a `data-fen` attribute (quoted with `'` or `"`, or unquoted); the
//! word `data-fen` without white space before it or `=` after it is prose, not an attribute.
//!
//! The text of a diagram is the first `<figcaption>` after the attribute, when it comes before the
//! next `data-fen` and the figure's end; otherwise the last paragraph (`<p>`) before the element. A
//! `data-rules` or `data-game` attribute in the same tag names the rule set or the game; without
//! `data-game`, a FEN of ten ranks is Rococo's.

use super::{game_of_fen, plain, window_start, Content, Found, Lines, CAPTION_WINDOW};
use crate::rules::GameKind;

pub(super) fn read(text: &str) -> Vec<Found> {
    let lines = Lines::new(text);
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(rel) = lower[from..].find("data-fen") {
        let name_at = from + rel;
        from = name_at + "data-fen".len();
        // An attribute: its name stands after white space and `=` follows it (the word in prose,
        // as in this module's own docs, is no diagram).
        let after_name = text[from..].trim_start();
        if !after_name.starts_with('=')
            || !text[..name_at]
                .chars()
                .next_back()
                .is_some_and(char::is_whitespace)
        {
            continue;
        }
        let at = lines.place(name_at);
        let Some((value_at, value, end)) = attribute_value(text, from) else {
            out.push(Found::unreadable(
                at,
                "`data-fen=` has no value, or its quote is not closed",
            ));
            continue;
        };
        from = end;
        let back = window_start(text, name_at, CAPTION_WINDOW);
        let tag_start = lower[back..name_at]
            .rfind('<')
            .map_or(name_at, |i| back + i);
        let next_fen = lower[end..]
            .find("data-fen")
            .map_or(text.len(), |i| end + i);
        let tag_end = lower[end..next_fen].find('>').map_or(next_fen, |i| end + i);
        let tag = &text[tag_start..tag_end];
        let game = attribute(tag, "data-game")
            .and_then(|g| GameKind::parse(&g))
            .unwrap_or_else(|| game_of_fen(value));
        let fen = value.trim();
        let lead = value.len() - value.trim_start().len();
        out.push(Found {
            at: lines.place(value_at),
            caption: caption(text, &lower, tag_start, end),
            after: String::new(),
            game,
            rules: attribute(tag, "data-rules"),
            content: Ok(Content::Fen {
                text: fen.to_string(),
                at: lines.place(value_at + lead),
            }),
        });
    }
    out
}

/// The value of an attribute whose name ends at `from`: its offset, its text and the offset after
/// it.
fn attribute_value(text: &str, from: usize) -> Option<(usize, &str, usize)> {
    let rest = &text[from..];
    let eq = rest.len() - rest.trim_start().len();
    let rest = rest.trim_start().strip_prefix('=')?;
    let ws = rest.len() - rest.trim_start().len();
    let rest = rest.trim_start();
    let start = from + eq + 1 + ws;
    match rest.chars().next()? {
        q @ ('\'' | '"') => {
            let len = rest[1..].find(q)?;
            Some((start + 1, &rest[1..1 + len], start + 1 + len + 1))
        }
        _ => {
            let len = rest
                .find(|c: char| c.is_whitespace() || c == '>')
                .unwrap_or(rest.len());
            Some((start, &rest[..len], start + len))
        }
    }
}

/// An attribute of a tag's text, if present.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let i = lower.find(name)?;
    attribute_value(tag, i + name.len()).map(|(_, v, _)| v.trim().to_string())
}

/// The caption of the diagram whose tag starts at `tag_start` (its `data-fen` value ends at `end`).
fn caption(text: &str, lower: &str, tag_start: usize, end: usize) -> String {
    // Searches stay between this diagram and the next one, and within a window behind it.
    let next_fen = lower[end..]
        .find("data-fen")
        .map_or(text.len(), |i| end + i);
    let ahead = &lower[end..next_fen];
    let figure_end = ahead.find("</figure").map_or(next_fen, |i| end + i);
    if let Some(i) = ahead.find("<figcaption") {
        let start = end + i;
        if start < figure_end {
            let stop = lower[start..next_fen]
                .find("</figcaption")
                .map_or(next_fen, |j| start + j);
            return plain(&text[start..stop]);
        }
    }
    let back = window_start(text, tag_start, CAPTION_WINDOW);
    let before = &lower[back..tag_start];
    let p = before
        .match_indices("<p")
        .filter(|(i, _)| {
            before[i + 2..]
                .chars()
                .next()
                .is_some_and(|c| c == '>' || c.is_whitespace())
        })
        .last();
    match p {
        Some((i, _)) => {
            let i = back + i;
            let stop = lower[i..tag_start].find("</p").map_or(tag_start, |j| i + j);
            plain(&text[i..stop])
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::Place;

    #[test]
    fn the_word_in_prose_is_no_diagram_an_open_quote_is_one() {
        assert!(read("Every `data-fen` attribute; my-data-fen=x; data-fen: x").is_empty());
        let f = read("<p>x</p>\n<div data-fen='8/8 w>");
        assert_eq!(f.len(), 1);
        let e = f[0].content.clone().unwrap_err();
        assert_eq!(e.at, Place { line: 2, column: 6 });
    }

    #[test]
    fn figures_and_paragraphs_give_the_text() {
        let t = "<p>Before &amp; <b>bold</b>.</p>\n<div class=\"diag\"\n  data-fen='7k/8/8/8/8/8/8/K7 w 0'>\n</div>\n<figure><div data-fen=\"8/8 w\" data-rules=\"vchess\"></div><figcaption>1.Qa5 wins</figcaption></figure>";
        let f = read(t);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].caption, "Before & bold .");
        assert_eq!(
            f[0].at,
            Place {
                line: 3,
                column: 13
            }
        );
        assert_eq!(f[1].caption, "1.Qa5 wins");
        assert_eq!(f[1].rules.as_deref(), Some("vchess"));
        match &f[1].content {
            Ok(Content::Fen { text, .. }) => assert_eq!(text, "8/8 w"),
            other => panic!("{other:?}"),
        }
    }
}
