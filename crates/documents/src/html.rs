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

use super::{collapse, Content, Found, Lines, Located, CAPTION_WINDOW};
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
    /// A comment (or a bogus one, `<!...>`), with the offset just after its `>`.
    Comment(usize),
}

/// Hands each token to the reader as it comes (nothing is kept but what the diagrams need), and
/// switches the tokenizer to raw text after the elements whose content is text (the HTML
/// standard's "generic raw text" and "RCDATA" elements, `<script>` and `<plaintext>`).
struct Sink<'a> {
    reader: RefCell<Reader<'a>>,
    /// Where the piece being fed ends.
    end: Cell<usize>,
    /// How many `<svg>` and `<math>` elements are open: inside them (foreign content) `<style>`
    /// and the like hold markup, and `<![CDATA[...]]>` is text.
    foreign: Cell<usize>,
}

impl TokenSink for Sink<'_> {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut reader = self.reader.borrow_mut();
        match token {
            Token::TagToken(tag) => {
                let name = tag.name.to_string();
                let foreign = self.foreign.get();
                if matches!(name.as_str(), "svg" | "math") {
                    match tag.kind {
                        TagKind::StartTag if !tag.self_closing => self.foreign.set(foreign + 1),
                        TagKind::EndTag => self.foreign.set(foreign.saturating_sub(1)),
                        TagKind::StartTag => {}
                    }
                }
                if tag.kind == TagKind::EndTag {
                    reader.take(Tok::End(name, self.end.get()));
                    return TokenSinkResult::Continue;
                }
                let then = match name.as_str() {
                    _ if foreign > 0 => TokenSinkResult::Continue,
                    "script" => TokenSinkResult::RawData(RawKind::ScriptData),
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                        TokenSinkResult::RawData(RawKind::Rawtext)
                    }
                    "textarea" | "title" => TokenSinkResult::RawData(RawKind::Rcdata),
                    "plaintext" => TokenSinkResult::Plaintext,
                    _ => TokenSinkResult::Continue,
                };
                reader.raw = !matches!(then, TokenSinkResult::Continue);
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
            Token::CommentToken(_) => {
                reader.take(Tok::Comment(self.end.get()));
                TokenSinkResult::Continue
            }
            _ => TokenSinkResult::Continue,
        }
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.foreign.get() > 0
    }
}

/// The most attributes a tag is read with: the tokenizer compares each attribute of a tag with
/// the ones before it, so a tag of many thousands would cost seconds. A tag with more is left
/// out (reported when it holds a `data-fen`).
pub(super) const MAX_ATTRIBUTES: usize = 512;

pub(super) fn read(text: &str) -> Vec<Found> {
    let crowded = crowded_tags(text);
    let mut reader = Reader::new(text);
    reader.crowded.clone_from(&crowded);
    // The tokenizer reads the document with its crowded tags blanked, byte for byte, so that
    // offsets stay the source's.
    let blanked: std::borrow::Cow<'_, str> = if crowded.is_empty() {
        text.into()
    } else {
        let mut bytes = text.as_bytes().to_vec();
        for r in &crowded {
            if let Some(at) = attribute_name(text, r.start, r.end) {
                reader.out.push(Found::unreadable(
                    reader.lines.place(at),
                    format!(
                        "the tag holding this `data-fen` has more than {MAX_ATTRIBUTES} \
                         attributes: not read"
                    ),
                ));
            }
            for b in &mut bytes[r.clone()] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
        String::from_utf8_lossy(&bytes).into_owned().into()
    };
    let sink = Sink {
        reader: RefCell::new(reader),
        end: Cell::new(0),
        foreign: Cell::new(0),
    };
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let queue = BufferQueue::default();
    // A piece per `>`: a start tag's token comes while the piece its `>` ends is read.
    let mut from = 0;
    for (i, _) in blanked.match_indices('>') {
        tokenizer.sink.end.set(i + 1);
        queue.push_back(StrTendril::from_slice(&blanked[from..=i]));
        let _ = tokenizer.feed(&queue);
        from = i + 1;
    }
    tokenizer.sink.end.set(blanked.len());
    if from < blanked.len() {
        queue.push_back(StrTendril::from_slice(&blanked[from..]));
        let _ = tokenizer.feed(&queue);
    }
    tokenizer.end();
    let mut out = tokenizer.sink.reader.into_inner().finish();
    out.sort_by_key(|f| f.at);
    out
}

/// The byte ranges of the start tags with more than [`MAX_ATTRIBUTES`] attributes, found by a
/// scan that reads tags as the tokenizer does (names, `=`, quoted and unquoted values; comments
/// skipped), from a `<` to the `>` that ends the tag.
fn crowded_tags(text: &str) -> Vec<std::ops::Range<usize>> {
    let b = text.as_bytes();
    // The offset of the first byte at or after `j` that `keep` does not take.
    let skip = |mut j: usize, keep: &dyn Fn(u8) -> bool| {
        while j < b.len() && keep(b[j]) {
            j += 1;
        }
        j
    };
    let space = |c: u8| c.is_ascii_whitespace();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(start) = first_tag_start(text, i) {
        // The name, then attribute after attribute up to the `>`.
        let mut j = skip(start + 1, &|c| !space(c) && !matches!(c, b'/' | b'>'));
        let mut attributes = 0;
        loop {
            j = skip(j, &|c| space(c) || c == b'/');
            if j >= b.len() || b[j] == b'>' {
                break;
            }
            attributes += 1;
            j = skip(j + 1, &|c| !space(c) && !matches!(c, b'/' | b'>' | b'='));
            j = skip(j, &space);
            if b.get(j) == Some(&b'=') {
                j = skip(j + 1, &space);
                j = match b.get(j) {
                    Some(&q @ (b'"' | b'\'')) => skip(j + 1, &|c| c != q) + 1,
                    _ => skip(j, &|c| !space(c) && c != b'>'),
                };
            }
        }
        let end = (j + 1).min(b.len());
        if attributes > MAX_ATTRIBUTES {
            out.push(start..end);
        }
        i = end.max(start + 1);
    }
    out
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
    /// Where the last tag or comment ended: the start tag read next begins after it.
    after_last_tag: usize,
    /// Whether the text read is an element's raw text (`<script>`, `<style>`, ...), no prose.
    raw: bool,
    /// The tags left out for their attributes ([`crowded_tags`]).
    crowded: Vec<std::ops::Range<usize>>,
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
            raw: false,
            crowded: Vec::new(),
        }
    }

    fn take(&mut self, tok: Tok<'_>) {
        match tok {
            Tok::Text(t) => {
                if self.template > 0 || self.raw {
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
            Tok::Comment(end) => self.after_last_tag = end,
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
        // The paragraph holding the element, or else (it has no text yet) the one before.
        let caption = self
            .open_p
            .as_ref()
            .filter(|p| !p.text.trim().is_empty())
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
                .unwrap_or_else(|| GameKind::of_fen(fen)),
            rules: attr("data-rules").map(|r| r.trim().to_string()),
            content,
        });
    }

    fn end(&mut self, name: &str, end: usize) {
        self.after_last_tag = end;
        self.raw = false;
        if name == "template" && self.template > 0 {
            self.template -= 1;
            return;
        }
        if self.template > 0 {
            return;
        }
        if !INLINE.contains(&name) {
            if let Some(c) = &mut self.figcaption {
                c.push(' ');
            }
        }
        if name == "p" || closes_paragraph(name) || BLOCK_ENDS.contains(&name) {
            self.last_p = self.open_p.take().or(self.last_p.take());
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

    /// The diagrams, once the document has ended (figures left open caption theirs). A tag the
    /// end left open is the first one after the last tag or comment read (had it been closed, the
    /// tokenizer would have read it): when it holds a `data-fen`, it is reported.
    fn finish(mut self) -> Vec<Found> {
        if !self.raw {
            let start = first_tag_start(self.text, self.after_last_tag)
                .filter(|s| !self.crowded.iter().any(|r| r.contains(s)));
            if let Some(start) = start {
                if let Some(name_at) = attribute_name(self.text, start, self.text.len()) {
                    self.out.push(Found::unreadable(
                        self.lines.place(name_at),
                        "the tag holding `data-fen` is not closed: no `>` ends it (is a quote \
                         left open?), so a browser reads no element",
                    ));
                }
            }
        }
        self.close_figcaption();
        while let Some(f) = self.figures.pop() {
            caption_figure(&mut self.out, f);
        }
        self.out
    }
}

/// End tags that close an open `<p>` besides the blocks of [`closes_paragraph`]: the elements a
/// paragraph stands in.
const BLOCK_ENDS: &[&str] = &[
    "body", "html", "td", "th", "tr", "tbody", "thead", "tfoot", "caption", "object", "button",
    "template",
];

/// The first `<` starting a tag name at or after `from`, comments skipped.
fn first_tag_start(text: &str, from: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = from;
    while i < b.len() {
        if b[i..].starts_with(b"<!--") {
            i = text[i + 4..].find("-->").map_or(b.len(), |j| i + 4 + j + 3);
        } else if b[i] == b'<' && b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
            return Some(i);
        } else {
            i += 1;
        }
    }
    None
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
                && (text.as_bytes()[i - 1].is_ascii_whitespace()
                    || matches!(text.as_bytes()[i - 1], b'/' | b'"' | b'\''))
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
    use crate::Place;

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

    #[test]
    fn review_cases_prose_comments_captions_and_foreign_content() {
        const F: &str = "7k/8/8/8/8/8/8/K7 w 0";
        // A tag left open is the one reported, not prose or a comment before it.
        assert!(
            read("<p>x</p>\nEach board is a div with a data-fen attribute.\n<img alt=\"u")
                .is_empty()
        );
        assert!(read("<p>x</p><!-- note <div data-fen=x -->\n<img alt=\"u").is_empty());
        // Script text is no caption; an inline end tag does not end the paragraph; an empty
        // paragraph holding the diagram gives the one before.
        let f = read(&format!(
            "<p>Ka1 wins <script>track(\"x\")</script></p><div data-fen=\"{F}\">"
        ));
        assert_eq!(f[0].caption, "Ka1 wins");
        let f = read(&format!(
            "<p>See <label>this</label> here.</p><div data-fen=\"{F}\">"
        ));
        assert_eq!(f[0].caption, "See this here.");
        let f = read(&format!(
            "<p>The withdrawer captures.</p>\n<p><img data-fen=\"{F}\"></p>"
        ));
        assert_eq!(f[0].caption, "The withdrawer captures.");
        // Inside <svg> and <math>, <style> holds markup and CDATA is text.
        assert_eq!(
            fens(&read(&format!("<svg><style/></svg><div data-fen=\"{F}\">"))),
            [F]
        );
        assert!(read(&format!(
            "<svg><![CDATA[ a > b <div data-fen=\"{F}\"> ]]></svg>"
        ))
        .is_empty());
        // An attribute right after a quoted value is placed at its value.
        let f = read(&format!("<div class=\"x\"data-fen=\"{F}\">"));
        assert_eq!(
            f[0].at,
            Place {
                line: 1,
                column: 25
            }
        );
    }

    #[test]
    fn a_tag_of_too_many_attributes_is_left_out_in_linear_time() {
        let many: String = (0..100_000).map(|i| format!(" a{i}")).collect();
        let t = format!("<p>x</p><div{many} data-fen=\"8/8 w\"></div>\n<div data-fen='k7/8/8/8/8/8/8/K7 w 0'></div>");
        // Left open at the end, it is still reported once.
        let open = format!("<div{many} data-fen=x");
        assert_eq!(read(&open).len(), 1, "{:?}", read(&open));
        let f = read(&t);
        assert_eq!(f.len(), 2, "{f:?}");
        let e = f[0].content.clone().unwrap_err();
        assert!(
            e.message.contains("more than 512 attributes"),
            "{}",
            e.message
        );
        assert_eq!(fens(&f[1..]), ["k7/8/8/8/8/8/8/K7 w 0"]);
        assert_eq!(f[1].at.line, 2);
        // Just under the limit, read as usual.
        let some: String = (0..MAX_ATTRIBUTES - 1).map(|i| format!(" a{i}")).collect();
        let f = read(&format!(
            "<div{some} data-fen=\"k7/8/8/8/8/8/8/K7 w 0\"></div>"
        ));
        assert_eq!(fens(&f), ["k7/8/8/8/8/8/8/K7 w 0"]);
    }
}
