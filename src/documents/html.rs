//! HTML, read by an HTML5 tokenizer (`html5ever`'s, the one behind Servo and `scraper`): a
//! diagram is an element with a `data-fen` attribute, its value read after character-reference
//! decoding, as a browser's DOM holds it.
//!
//! Nothing counts that a browser would not show as an element: comments (an old diagram commented
//! out), the text of `<script>`, `<style>`, `<textarea>`, `<title>`, `<xmp>`, `<iframe>`,
//! `<noembed>`, `<noframes>` and `<plaintext>` (the tokenizer reads them as text, as the HTML
//! standard's tree construction tells it to), and anything inside a `<template>` (inert content).
//! `<noscript>` is read as markup, as a browser without scripts shows it.
//!
//! A `data-rules` or `data-game` attribute of the same element names the rule set or the game;
//! without `data-game`, a FEN of ten ranks is Rococo's. The text of a diagram inside a `<figure>`
//! with a `<figcaption>` is that caption's decoded text; otherwise the paragraph (`<p>`) before
//! the element (or the one holding it), within [`CAPTION_WINDOW`] bytes.
//!
//! Places are the source's: the tokenizer is fed the document a tag at a time (each piece ends at
//! a `>`), so each tag's end is known, and the attribute is found in the tag's source text. A tag
//! the document's end leaves open is no element for a browser; one holding a `data-fen` is
//! reported as unreadable, at the attribute.

use super::{collapse, game_of_fen, Content, Found, Lines, Located, CAPTION_WINDOW};
use crate::rules::GameKind;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::cell::{Cell, RefCell};

/// A token, as far as diagrams need one.
enum Tok<'t> {
    /// A start tag: its name, its attributes (decoded) and the offset just after its `>`.
    Start {
        name: String,
        attrs: Vec<(String, String)>,
        end: usize,
    },
    /// An end tag's name and the offset just after its `>`.
    End(String, usize),
    /// Text, decoded.
    Text(&'t str),
    /// The document ended inside a tag.
    OpenAtEnd,
}

/// Hands each token to the reader as it comes (nothing is kept but what the diagrams need), and
/// switches the tokenizer to raw text after the elements whose content is text (the HTML
/// standard's "generic raw text" and "RCDATA" elements, `<script>` and `<plaintext>`).
struct Sink<'a> {
    reader: RefCell<Reader<'a>>,
    /// Where the piece being fed ends.
    end: Cell<usize>,
}

impl TokenSink for Sink<'_> {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut reader = self.reader.borrow_mut();
        match token {
            Token::TagToken(tag) => {
                let name = tag.name.to_string();
                if tag.kind == TagKind::EndTag {
                    reader.take(Tok::End(name, self.end.get()));
                    return TokenSinkResult::Continue;
                }
                let then = match name.as_str() {
                    "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                        TokenSinkResult::RawData(RawKind::Rawtext)
                    }
                    "textarea" | "title" => TokenSinkResult::RawData(RawKind::Rcdata),
                    "plaintext" => TokenSinkResult::Plaintext,
                    _ => TokenSinkResult::Continue,
                };
                let attrs = tag
                    .attrs
                    .iter()
                    .map(|a| (a.name.local.to_string(), a.value.to_string()))
                    .collect();
                reader.take(Tok::Start {
                    name,
                    attrs,
                    end: self.end.get(),
                });
                then
            }
            Token::CharacterTokens(t) => {
                reader.take(Tok::Text(&t));
                TokenSinkResult::Continue
            }
            Token::ParseError(e) if e.starts_with("Saw EOF in state") && in_tag(&e) => {
                reader.take(Tok::OpenAtEnd);
                TokenSinkResult::Continue
            }
            _ => TokenSinkResult::Continue,
        }
    }
}

/// Whether the tokenizer's message for the document's end names a state inside a tag.
fn in_tag(message: &str) -> bool {
    ["TagName", "Attribute", "SelfClosingStartTag"]
        .iter()
        .any(|s| message.contains(s))
}

pub(super) fn read(text: &str) -> Vec<Found> {
    let sink = Sink {
        reader: RefCell::new(Reader::new(text)),
        end: Cell::new(0),
    };
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let queue = BufferQueue::default();
    // A piece per `>`: a start tag's token comes while the piece its `>` ends is read.
    let mut from = 0;
    for (i, _) in text.match_indices('>') {
        tokenizer.sink.end.set(i + 1);
        queue.push_back(StrTendril::from_slice(&text[from..=i]));
        let _ = tokenizer.feed(&queue);
        from = i + 1;
    }
    tokenizer.sink.end.set(text.len());
    if from < text.len() {
        queue.push_back(StrTendril::from_slice(&text[from..]));
        let _ = tokenizer.feed(&queue);
    }
    tokenizer.end();
    tokenizer.sink.reader.into_inner().finish()
}

/// Elements whose tags do not end a line of text (their text runs on).
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "tt",
    "u", "var",
];

/// A paragraph's text and the offset where it starts.
struct Paragraph {
    text: String,
    at: usize,
}

/// An open `<figure>`: its caption's text when it has one, and its diagrams (indices of `out`).
#[derive(Default)]
struct Figure {
    caption: Option<String>,
    diagrams: Vec<usize>,
}

/// The reading of a document, token by token.
struct Reader<'a> {
    text: &'a str,
    lines: Lines<'a>,
    out: Vec<Found>,
    /// How many `<template>`s are open.
    template: usize,
    figures: Vec<Figure>,
    /// The text of an open `<figcaption>`.
    figcaption: Option<String>,
    open_p: Option<Paragraph>,
    last_p: Option<Paragraph>,
    /// Where the last tag ended: the start tag read next begins after it.
    after_last_tag: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text,
            lines: Lines::new(text),
            out: Vec::new(),
            template: 0,
            figures: Vec::new(),
            figcaption: None,
            open_p: None,
            last_p: None,
            after_last_tag: 0,
        }
    }

    fn take(&mut self, tok: Tok<'_>) {
        match tok {
            Tok::Text(t) => {
                if self.template > 0 {
                    return;
                }
                if let Some(c) = &mut self.figcaption {
                    c.push_str(t);
                }
                if let Some(p) = &mut self.open_p {
                    p.text.push_str(t);
                }
            }
            Tok::Start { name, attrs, end } => self.start(&name, &attrs, end),
            Tok::End(name, end) => self.end(&name, end),
            Tok::OpenAtEnd => {
                let text = self.text;
                if let Some(name_at) = attribute_name(text, self.after_last_tag, text.len()) {
                    self.out.push(Found::unreadable(
                        self.lines.place(name_at),
                        "the tag holding `data-fen` is not closed: no `>` ends it (is a quote \
                         left open?), so a browser reads no element",
                    ));
                }
            }
        }
    }

    fn start(&mut self, name: &str, attrs: &[(String, String)], end: usize) {
        let tag_start = start_of_tag(self.text, name, self.after_last_tag, end);
        self.after_last_tag = end;
        if name == "template" {
            self.template += 1;
        }
        if self.template > 0 {
            return;
        }
        if !INLINE.contains(&name) {
            if let Some(c) = &mut self.figcaption {
                c.push(' ');
            }
        }
        if closes_paragraph(name) {
            self.last_p = self.open_p.take().or(self.last_p.take());
        }
        match name {
            "p" => {
                self.open_p = Some(Paragraph {
                    text: String::new(),
                    at: tag_start,
                })
            }
            "figure" => self.figures.push(Figure::default()),
            "figcaption" => self.figcaption = Some(String::new()),
            _ => {}
        }
        let Some((_, value)) = attrs.iter().find(|(n, _)| n == "data-fen") else {
            return;
        };
        let caption = self
            .open_p
            .as_ref()
            .or(self.last_p.as_ref())
            .filter(|p| p.at + CAPTION_WINDOW >= tag_start)
            .map(|p| collapse(&p.text))
            .unwrap_or_default();
        let attr = |n: &str| attrs.iter().find(|(a, _)| a == n).map(|(_, v)| v);
        let at = self.lines.place(value_offset(self.text, tag_start, end));
        let fen = value.trim();
        let content = if fen.is_empty() {
            Err(Located::new(
                at,
                "`data-fen` has no value: write a FEN in it",
            ))
        } else {
            Ok(Content::Fen {
                text: fen.to_string(),
                at,
            })
        };
        if let Some(f) = self.figures.last_mut() {
            f.diagrams.push(self.out.len());
        }
        self.out.push(Found {
            at,
            caption,
            after: String::new(),
            game: attr("data-game")
                .and_then(|g| GameKind::parse(g.trim()))
                .unwrap_or_else(|| game_of_fen(fen)),
            rules: attr("data-rules").map(|r| r.trim().to_string()),
            content,
        });
    }

    fn end(&mut self, name: &str, end: usize) {
        self.after_last_tag = end;
        if name == "template" && self.template > 0 {
            self.template -= 1;
            return;
        }
        if self.template > 0 {
            return;
        }
        if !INLINE.contains(&name) {
            self.last_p = self.open_p.take().or(self.last_p.take());
            if let Some(c) = &mut self.figcaption {
                c.push(' ');
            }
        }
        match name {
            "figcaption" => self.close_figcaption(),
            "figure" => {
                self.close_figcaption();
                if let Some(f) = self.figures.pop() {
                    caption_figure(&mut self.out, f);
                }
            }
            _ => {}
        }
    }

    /// The open `<figcaption>`'s text becomes its figure's caption.
    fn close_figcaption(&mut self) {
        if let (Some(c), Some(f)) = (self.figcaption.take(), self.figures.last_mut()) {
            f.caption = Some(collapse(&c));
        }
    }

    /// The diagrams, once the document has ended (figures left open caption theirs).
    fn finish(mut self) -> Vec<Found> {
        self.close_figcaption();
        while let Some(f) = self.figures.pop() {
            caption_figure(&mut self.out, f);
        }
        self.out
    }
}

/// A figure's caption given to its diagrams.
fn caption_figure(out: &mut [Found], f: Figure) {
    if let Some(c) = f.caption {
        for i in f.diagrams {
            out[i].caption.clone_from(&c);
        }
    }
}

/// Whether a start tag closes an open `<p>` (the HTML standard's list: a paragraph ends where a
/// block begins).
fn closes_paragraph(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "center"
            | "details"
            | "dialog"
            | "dir"
            | "div"
            | "dl"
            | "dd"
            | "dt"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "li"
            | "listing"
            | "main"
            | "menu"
            | "nav"
            | "ol"
            | "p"
            | "plaintext"
            | "pre"
            | "search"
            | "section"
            | "summary"
            | "table"
            | "ul"
            | "xmp"
    )
}

/// Where the start tag `<name ...>` ending at `end` begins: the last `<name` after `from` (its
/// source text, matched without regard to case), or `from` when none is found.
fn start_of_tag(text: &str, name: &str, from: usize, end: usize) -> usize {
    let bytes = text.as_bytes();
    let n = name.len();
    (from..end.saturating_sub(n + 1))
        .rev()
        .find(|&i| {
            bytes[i] == b'<'
                && bytes
                    .get(i + 1..i + 1 + n)
                    .is_some_and(|s| s.eq_ignore_ascii_case(name.as_bytes()))
        })
        .unwrap_or(from)
}

/// The offset of the `data-fen` attribute's name in `text[from..to]`: the word standing after
/// white space or `/`, not followed by more of a name.
fn attribute_name(text: &str, from: usize, to: usize) -> Option<usize> {
    let lower = text[from..to].to_ascii_lowercase();
    lower
        .match_indices("data-fen")
        .map(|(i, _)| from + i)
        .find(|&i| {
            let after = text.as_bytes().get(i + "data-fen".len()).copied();
            i > 0
                && (text.as_bytes()[i - 1].is_ascii_whitespace() || text.as_bytes()[i - 1] == b'/')
                && after.is_none_or(|c| c.is_ascii_whitespace() || matches!(c, b'=' | b'/' | b'>'))
        })
}

/// The offset of the first character of the `data-fen` value in the start tag `text[start..end]`
/// (after a quote and leading white space), or of the attribute's name when it has no value.
fn value_offset(text: &str, start: usize, end: usize) -> usize {
    let Some(name_at) = attribute_name(text, start, end) else {
        return start;
    };
    let rest = &text[name_at + "data-fen".len()..end];
    let Some(eq) = rest.trim_start().strip_prefix('=') else {
        return name_at;
    };
    let value = eq.trim_start();
    let value = value
        .strip_prefix(['"', '\''])
        .unwrap_or(value)
        .trim_start();
    end - value.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::Place;

    fn fens(f: &[Found]) -> Vec<String> {
        f.iter()
            .map(|d| match &d.content {
                Ok(Content::Fen { text, .. }) => text.clone(),
                Ok(other) => panic!("{other:?}"),
                Err(e) => format!("error: {}", e.message),
            })
            .collect()
    }

    #[test]
    fn the_word_in_prose_is_no_diagram_an_open_quote_is_one() {
        assert!(read("Every `data-fen` attribute; my-data-fen=x; data-fen: x").is_empty());
        let f = read("<p>x</p>\n<div data-fen='8/8 w>");
        assert_eq!(f.len(), 1);
        let e = f[0].content.clone().unwrap_err();
        assert_eq!(e.at, Place { line: 2, column: 6 });
        assert!(e.message.contains("not closed"), "{}", e.message);
    }

    #[test]
    fn figures_and_paragraphs_give_the_text() {
        let t = "<p>Before &amp; <b>bold</b>.</p>\n<div class=\"diag\"\n  data-fen='7k/8/8/8/8/8/8/K7 w 0'>\n</div>\n<figure><div data-fen=\"8/8 w\" data-rules=\"vchess\"></div><figcaption>1.Qa5 wins</figcaption></figure>";
        let f = read(t);
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].caption, "Before & bold.");
        assert_eq!(
            f[0].at,
            Place {
                line: 3,
                column: 13
            }
        );
        assert_eq!(f[1].caption, "1.Qa5 wins");
        assert_eq!(f[1].rules.as_deref(), Some("vchess"));
        assert_eq!(fens(&f), ["7k/8/8/8/8/8/8/K7 w 0", "8/8 w"]);
    }

    #[test]
    fn comments_scripts_and_inert_text_hold_no_diagram() {
        let t = concat!(
            "<!-- <div data-fen='8/8/8/8/8/8/8/K6k w 0'></div> -->\n",
            "<script>let s = \"<div data-fen='8/8/8/8/8/8/8/K6k w 0'>\";</script>\n",
            "<style>div[data-fen='x'] { color: red }</style>\n",
            "<textarea><div data-fen='8/8/8/8/8/8/8/K6k w 0'></div></textarea>\n",
            "<title><div data-fen='x'></title>\n",
            "<template><figure><div data-fen='8/8/8/8/8/8/8/K6k w 0'></div></figure></template>\n",
            "<xmp><div data-fen='x'></xmp><iframe><div data-fen='x'></iframe>\n",
            "<p>Only this.</p><div data-fen=\"7k/8/8/8/8/8/8/K7 w 0\"></div>\n",
        );
        let f = read(t);
        assert_eq!(fens(&f), ["7k/8/8/8/8/8/8/K7 w 0"]);
        assert_eq!(
            f[0].at,
            Place {
                line: 8,
                column: 33
            }
        );
        assert_eq!(f[0].caption, "Only this.");
    }

    #[test]
    fn character_references_are_decoded_places_stay_the_sources() {
        let t = "<figure>\n <div data-game=rococo data-fen=\"7k/8/8/3Qr3/8/8/8/K7&#32;w&#x20;0\"></div>\n <figcaption>Caf&eacute; &amp; <i>co</i>&nbsp;&lt;1&gt;</figcaption>\n</figure>";
        let f = read(t);
        assert_eq!(fens(&f), ["7k/8/8/3Qr3/8/8/8/K7 w 0"]);
        assert_eq!(f[0].caption, "Café & co <1>");
        assert_eq!(f[0].game, GameKind::Rococo);
        assert_eq!(
            f[0].at,
            Place {
                line: 2,
                column: 34
            }
        );
    }

    #[test]
    fn a_figure_caption_before_or_after_and_unquoted_values() {
        let t = "<p>Far away.</p><FIGURE><FigCaption>Above</FigCaption><DIV DATA-FEN=8/8/8/8/8/8/8/K6k\nclass=x></DIV><div data-fen=''></div></FIGURE><div data-fen = ' k7/8/8/8/8/8/8/K7 w 0 '/>";
        let f = read(t);
        assert_eq!(
            fens(&f),
            [
                "8/8/8/8/8/8/8/K6k".to_string(),
                "error: `data-fen` has no value: write a FEN in it".to_string(),
                "k7/8/8/8/8/8/8/K7 w 0".to_string()
            ]
        );
        assert_eq!(f[0].caption, "Above");
        assert_eq!(f[1].caption, "Above");
        assert_eq!(
            f[0].at,
            Place {
                line: 1,
                column: 69
            }
        );
        assert_eq!(f[2].caption, "Far away.");
        assert_eq!(
            f[2].at,
            Place {
                line: 2,
                column: 65
            }
        );
    }
}
