//! Rule documents read where they live: the diagrams of a MediaWiki source, an HTML page, a
//! Markdown file or a plain-text page of `+---+` boards, each found with its place in the document
//! (1-based line and column, the column counted in characters), its caption and the position it
//! shows.
//!
//! Reading is pure (document text in, diagrams out) and never refuses a whole document for one bad
//! diagram: a diagram that cannot be read is kept with the place and the reason
//! ([`Located`]). Positions are checked by [`crate::rules`] ([`crate::rules::Variant::read_fen`]
//! and `validate`): this module only turns each format's notation into a FEN.
//!
//! | format | what is a diagram | its text |
//! |---|---|---|
//! | MediaWiki ([`Format::MediaWiki`]) | every `{{Chess diagram}}` and `{{Chess diagram small}}` template: alignment, title, 64 cells of two letters (piece `k q r b n p m`, then `l` White or `d` Black; `xx` and the like mark an empty square), caption | the caption; the text after the template up to the next template is kept for [`crate::Diagram::after`] |
//! | HTML ([`Format::Html`]) | every element with a `data-fen` attribute, read by an HTML5 tokenizer (character references decoded; nothing in comments, `<script>`, `<style>`, `<textarea>` or `<template>`) | the `<figcaption>` of the element's `<figure>`, or else the paragraph before it |
//! | Markdown ([`Format::Markdown`]) | every fenced code block whose info string is `fen` (one FEN; `rules=` and `game=` may follow on the info line), and every `data-fen` in inline HTML | the paragraph after the block, or else the one before it |
//! | text ([`Format::Text`]) | every grid of `+---+` rows (also when rows were flattened onto one line), labelled (rank labels before the rows) or not | the section title before it (a line `![]() Name` or `# Name`) and the text after the grid on its last line |
//!
//! A labelled 10x10 text board is a Rococo position, a labelled 8x8 one a Baroque position; an
//! unlabelled grid is kept as a [`Grid`] for a case to place ([`Grid::place`]). A board drawn in a
//! document says nothing of the side to move: it is White's turn (the FEN's `w`), as in every
//! diagram of the seed documents.

pub mod claims;
pub mod extract;
mod html;
mod markdown;
mod mediawiki;
pub mod resolve;
mod text;

pub use text::{Cell, Grid, GridCell, Placed};

use crate::rules::prelude::*;
use crate::rules::{FenError, GameKind, Naming, Problem, Rules, Variant};
use baroque_puzzle::fixtures::cases;
use baroque_rules as rules;
use baroque_solver as solver;
use serde::Serialize;
use std::path::Path;

/// The largest document read, in bytes: rule documents are far smaller; a bigger file is refused
/// with a message rather than read.
pub const MAX_DOCUMENT_BYTES: u64 = 4 << 20;

/// A document format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// MediaWiki source (`.wiki`, `.mediawiki`).
    MediaWiki,
    /// HTML (`.html`, `.htm`).
    Html,
    /// Markdown (`.md`).
    Markdown,
    /// Plain text with `+---+` boards (`.txt`).
    Text,
}

impl Format {
    /// The format's name: `mediawiki`, `html`, `markdown`, `text`.
    pub fn name(self) -> &'static str {
        match self {
            Format::MediaWiki => "mediawiki",
            Format::Html => "html",
            Format::Markdown => "markdown",
            Format::Text => "text",
        }
    }

    /// The format of a name as [`Format::name`] writes it.
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "mediawiki" => Some(Format::MediaWiki),
            "html" => Some(Format::Html),
            "markdown" => Some(Format::Markdown),
            "text" => Some(Format::Text),
            _ => None,
        }
    }

    /// The format a file's extension names (`.wiki`/`.mediawiki`, `.html`/`.htm`, `.md`, `.txt`).
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "wiki" | "mediawiki" => Some(Format::MediaWiki),
            "html" | "htm" => Some(Format::Html),
            "md" => Some(Format::Markdown),
            "txt" => Some(Format::Text),
            _ => None,
        }
    }
}

/// A place in a document: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Place {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Place {
    /// The place `chars` characters to the right on the same line.
    pub fn right(self, chars: usize) -> Place {
        Place {
            line: self.line,
            column: self.column + chars,
        }
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Something wrong at a place of a document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Located {
    /// Where.
    pub at: Place,
    /// What, for a person.
    pub message: String,
}

impl Located {
    pub(crate) fn new(at: Place, message: impl Into<String>) -> Located {
        Located {
            at,
            message: message.into(),
        }
    }
}

/// Byte offsets to places. Readers ask for places mostly in increasing order, so the last answer
/// is kept and a column is counted from it when the next offset is further on the same line: a
/// document flattened onto one long line costs one pass, not one per diagram.
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// The last offset asked for, with its place.
    last: std::cell::Cell<(usize, Place)>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines {
            text,
            starts,
            last: std::cell::Cell::new((0, Place { line: 1, column: 1 })),
        }
    }

    /// The 1-based line of a byte offset.
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset)
    }

    /// The place of a byte offset (a char boundary).
    pub(crate) fn place(&self, offset: usize) -> Place {
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let (last, at) = self.last.get();
        let (from, column) = if at.line == line && last <= offset {
            (last, at.column)
        } else {
            (start, 1)
        };
        let column = column + self.text.get(from..offset).map_or(0, |s| s.chars().count());
        let place = Place { line, column };
        self.last.set((offset, place));
        place
    }
}

/// The char boundary at or before `at`, at most `window` bytes back from it: where a bounded
/// backward search starts.
pub(crate) fn window_start(text: &str, at: usize, window: usize) -> usize {
    let mut s = at.saturating_sub(window);
    while !text.is_char_boundary(s) {
        s -= 1;
    }
    s
}

/// How far readers look around a diagram for its caption, in bytes.
pub(crate) const CAPTION_WINDOW: usize = 1024;

/// What a diagram shows, as found in the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// A FEN written in the document; `at` is where its first character stands (a FEN on one
    /// line: its errors are located by their character position).
    Fen {
        /// The FEN as written.
        text: String,
        /// Where it starts.
        at: Place,
    },
    /// A board drawn cell by cell (a wiki template, a labelled text board), written as a FEN by
    /// the reader.
    Board {
        /// The FEN of the board.
        fen: String,
        /// The marks drawn on it, if any.
        placed: Option<Placed>,
    },
    /// A grid without labels: a case places it ([`Grid::place`]).
    Grid(Grid),
}

/// A diagram found in a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Where the diagram starts.
    pub at: Place,
    /// Its caption, or the text standing for one (see the module's table).
    pub caption: String,
    /// Text after the diagram (MediaWiki: up to the next template), where its moves are named.
    pub after: String,
    /// The game.
    pub game: GameKind,
    /// A rule set named by the document (Markdown's `rules=`), as text.
    pub rules: Option<String>,
    /// The board, or why it cannot be read.
    pub content: Result<Content, Located>,
}

impl Found {
    /// A diagram found at `at` that cannot be read, for `message`.
    pub(crate) fn unreadable(at: Place, message: impl Into<String>) -> Found {
        Found {
            at,
            caption: String::new(),
            after: String::new(),
            game: GameKind::Baroque,
            rules: None,
            content: Err(Located::new(at, message)),
        }
    }
}

/// The board field of a FEN from its ranks, top first, each a file-ordered list of FEN letters
/// (`None` for an empty square).
pub(crate) fn board_fen<R, C>(ranks: R) -> String
where
    R: IntoIterator<Item = C>,
    C: IntoIterator<Item = Option<char>>,
{
    let mut fen = String::new();
    for (i, rank) in ranks.into_iter().enumerate() {
        if i > 0 {
            fen.push('/');
        }
        let mut empty = 0;
        for cell in rank {
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
    }
    fen
}

/// Exchanges the colours of a FEN's board (upper case and lower case).
pub(crate) fn exchange_colours(fen: &str) -> String {
    let (board, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let swapped: String = board
        .chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect();
    if rest.is_empty() {
        swapped
    } else {
        format!("{swapped} {rest}")
    }
}

/// The most diagrams read from one document: rule documents hold dozens; past this, the document
/// is refused at the first diagram not read.
pub const MAX_DIAGRAMS: usize = 10_000;

/// Every diagram of a document's text, in document order (at most [`MAX_DIAGRAMS`], then one
/// that says the rest was not read).
pub fn find(format: Format, text: &str) -> Vec<Found> {
    let mut found = match format {
        Format::MediaWiki => mediawiki::read(text),
        Format::Html => html::read(text),
        Format::Markdown => markdown::read(text),
        Format::Text => text::read(text),
    };
    if found.len() > MAX_DIAGRAMS {
        let at = found[MAX_DIAGRAMS].at;
        found.truncate(MAX_DIAGRAMS);
        found.push(Found::unreadable(
            at,
            format!("more than {MAX_DIAGRAMS} diagrams: the rest of the document is not read"),
        ));
    }
    found
}

/// A document that cannot be used at all: unreadable, not text, empty or too big.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct DocumentError {
    /// The file as named.
    pub file: String,
    /// The line concerned (1 when the whole file is).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a document file as text: at most [`MAX_DOCUMENT_BYTES`], UTF-8 with no NUL byte, not
/// empty.
///
/// # Errors
/// A file that cannot be read, is too big, is binary (a NUL byte or bytes that are not UTF-8,
/// with the line where they are) or holds only white space.
pub fn read_text(path: &Path) -> Result<String, DocumentError> {
    use std::io::Read;
    let file = path.display().to_string();
    let err = |line: usize, message: String| DocumentError {
        file: file.clone(),
        line,
        message,
    };
    let f = open_regular(path).map_err(|e| err(1, e))?;
    let mut bytes = Vec::new();
    f.take(MAX_DOCUMENT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(1, e.to_string()))?;
    text_of_bytes(bytes).map_err(|(line, message)| err(line, message))
}

/// Opens a file for reading when it is a regular file: a FIFO, a device or a directory is refused
/// before it is opened (opening a FIFO waits for a writer; a device may never end).
///
/// # Errors
/// Why it cannot be read, in words.
pub fn open_regular(path: &Path) -> Result<std::fs::File, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(if meta.is_dir() {
            "a directory, not a file".to_string()
        } else {
            "not a regular file (a FIFO, a socket or a device): give a file".to_string()
        });
    }
    std::fs::File::open(path).map_err(|e| e.to_string())
}

/// `message` with every run of more than `most` characters without white space (a FEN, a field
/// of a file) cut to its first `most`, saying how long it was: what an error may repeat of its
/// input, whatever that input holds.
pub fn clipped(message: &str, most: usize) -> String {
    let mut out = String::with_capacity(message.len().min(4 * most));
    let mut rest = message;
    while !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        match word.char_indices().nth(most) {
            Some((cut, _)) => {
                out.push_str(&word[..cut]);
                out.push_str(&format!("... ({} bytes)", word.len()));
            }
            None => out.push_str(word),
        }
        let space = after.len() - after.trim_start().len();
        out.push_str(&after[..space]);
        rest = &after[space..];
    }
    out
}

/// The text of a document's bytes, or the line and reason it is not a usable text.
pub fn text_of_bytes(bytes: Vec<u8>) -> Result<String, (usize, String)> {
    if bytes.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err((
            1,
            format!(
                "the file is larger than {} MiB: not a rule document (nothing read)",
                MAX_DOCUMENT_BYTES >> 20
            ),
        ));
    }
    let line_of = |bytes: &[u8], at: usize| bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err((
            line_of(&bytes, at),
            "a NUL byte: a binary file, not a text document".into(),
        ));
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = line_of(e.as_bytes(), at);
            return Err((
                line,
                format!(
                    "the byte at offset {at} (counted from 0) is not UTF-8: a binary file or \
                     another encoding (save it as UTF-8)"
                ),
            ));
        }
    };
    if text.trim().is_empty() {
        return Err((1, "the document is empty".into()));
    }
    // A byte order mark is no character of the document: columns on its first line count from
    // what follows it.
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// How a diagram's position read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// A position that can arise, with its warnings.
    Position {
        /// The canonical FEN.
        fen: String,
        /// Warnings (no King and the like).
        warnings: Vec<Problem>,
    },
    /// A readable board whose position cannot arise.
    Impossible {
        /// The canonical FEN of the board as read.
        fen: String,
        /// Every problem, errors and warnings.
        problems: Vec<Problem>,
    },
    /// A board that cannot be read, with the place in the document.
    Unreadable(Located),
    /// A grid without labels, waiting for a case to place it.
    Unplaced,
}

/// A diagram of a document, numbered and read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// 1-based, in document order.
    pub index: usize,
    /// What the reader found.
    pub found: Found,
    /// The position read.
    pub reading: Reading,
    /// Remarks that are neither problems nor warnings of the position, such as a start position
    /// drawn with the colours exchanged.
    pub notes: Vec<String>,
    /// The claims its caption (and the text after it) states about it, each verified
    /// ([`claims::claims`]); none for a board that did not read as a possible position.
    pub claims: Vec<claims::Claim>,
}

impl Diagram {
    /// Where the diagram starts.
    pub fn at(&self) -> Place {
        self.found.at
    }

    /// The caption.
    pub fn caption(&self) -> &str {
        &self.found.caption
    }

    /// The text after the diagram.
    pub fn after(&self) -> &str {
        &self.found.after
    }

    /// Whether the diagram passes: readable and possible (an unplaced grid passes: its case checks
    /// it), and no claim of its caption is wrong.
    pub fn passes(&self) -> bool {
        matches!(self.reading, Reading::Position { .. } | Reading::Unplaced)
            && !self.claims.iter().any(claims::Claim::is_wrong)
    }

    /// The canonical FEN, when the board was read.
    pub fn fen(&self) -> Option<&str> {
        match &self.reading {
            Reading::Position { fen, .. } | Reading::Impossible { fen, .. } => Some(fen),
            _ => None,
        }
    }
}

/// Documents read once each, by path: what case files point at.
#[derive(Default)]
pub struct Library {
    read: std::collections::HashMap<std::path::PathBuf, Result<Vec<Diagram>, String>>,
}

impl Library {
    /// The diagrams of a document (its format from `format`, else its extension).
    ///
    /// # Errors
    /// A document that cannot be read, or whose format is unknown.
    pub fn diagrams(&mut self, path: &Path, format: Option<Format>) -> Result<&[Diagram], String> {
        let entry = self.read.entry(path.to_path_buf()).or_insert_with(|| {
            let format = format.or_else(|| Format::of_path(path)).ok_or_else(|| {
                format!(
                    "{}: the extension names no document format (.wiki, .mediawiki, .html, .htm, .md, .txt): give `format`",
                    path.display()
                )
            })?;
            let text = read_text(path).map_err(|e| e.to_string())?;
            Ok(diagrams(format, &text, Rules::default()))
        });
        match entry {
            Ok(v) => Ok(v.as_slice()),
            Err(e) => Err(e.clone()),
        }
    }
}

/// Finds and reads every diagram of a document's text; `rules` is the rule set of diagrams that
/// name none.
pub fn diagrams(format: Format, text: &str, rules: Rules) -> Vec<Diagram> {
    find(format, text)
        .into_iter()
        .enumerate()
        .map(|(i, found)| {
            let reading = read_found(&found, rules);
            let notes = notes(found.game, &reading);
            let claims = claims_of(&found, &reading, rules);
            Diagram {
                index: i + 1,
                found,
                reading,
                notes,
                claims,
            }
        })
        .collect()
}

/// The remarks on a diagram read: a board that is the game's start position with the colours
/// exchanged (as the Rococo page draws it, upper case on the top ranks) says so, since a reader
/// takes upper case for White.
fn notes(game: GameKind, reading: &Reading) -> Vec<String> {
    let Reading::Position { fen, .. } = reading else {
        return Vec::new();
    };
    let board = |f: &str| f.split_whitespace().next().unwrap_or("").to_string();
    let start = board(
        &Variant::of(game, None)
            .map_or_else(|_| String::new(), |v| v.start().fen(Naming::default())),
    );
    let swapped = exchange_colours(&start);
    if board(fen) == swapped && swapped != start {
        vec![format!(
            "the {} start position with the colours exchanged: upper case (White) stands where Black starts; a case can read it with `\"placement\": {{\"exchange_colours\": true}}`",
            game.name()
        )]
    } else {
        Vec::new()
    }
}

/// The rule set of a diagram: its own, or `default`.
fn rules_of(found: &Found, default: Rules) -> Result<Rules, String> {
    match &found.rules {
        None => Ok(default),
        Some(text) => text.parse::<Rules>(),
    }
}

fn read_found(found: &Found, default: Rules) -> Reading {
    let content = match &found.content {
        Ok(c) => c,
        Err(e) => return Reading::Unreadable(e.clone()),
    };
    let (fen, at) = match content {
        Content::Grid(_) => return Reading::Unplaced,
        Content::Fen { text, at } => (text.as_str(), Some(*at)),
        Content::Board { fen, .. } => (fen.as_str(), None),
    };
    let rules = match rules_of(found, default) {
        Ok(r) => r,
        Err(e) => return Reading::Unreadable(Located::new(found.at, format!("rules: {e}"))),
    };
    read_fen(
        found.game,
        fen,
        Some(rules),
        at.unwrap_or(found.at),
        at.is_some(),
    )
}

/// The claims of a diagram's caption and the text after it, verified against its position.
fn claims_of(found: &Found, reading: &Reading, default: Rules) -> Vec<claims::Claim> {
    let Reading::Position { fen, .. } = reading else {
        return Vec::new();
    };
    let rules = rules_of(found, default).ok();
    let position = Variant::of(
        found.game,
        rules.filter(|_| Variant::has_rule_sets(found.game)),
    )
    .ok()
    .and_then(|v| v.read_fen(fen, Naming::default()).ok());
    match position {
        Some(p) => claims::claims(&p, &format!("{}\n{}", found.caption, found.after)),
        None => Vec::new(),
    }
}

/// Reads a FEN of a diagram: a FEN written in the document (`in_text`) is located character by
/// character from `at`; a FEN written by a reader is located at the diagram.
pub(crate) fn read_fen(
    game: GameKind,
    fen: &str,
    rules: Option<Rules>,
    at: Place,
    in_text: bool,
) -> Reading {
    let rules = rules.filter(|_| Variant::has_rule_sets(game));
    let variant = match Variant::of(game, rules) {
        Ok(v) => v,
        Err(e) => return Reading::Unreadable(Located::new(at, e)),
    };
    match variant.position(fen, Naming::default()) {
        Ok((pos, warnings)) => Reading::Position {
            fen: pos.fen(Naming::default()),
            warnings,
        },
        Err(FenError::Parse(e)) => {
            let place = if in_text && !fen.contains('\n') {
                // The FEN reader counts positions over the text's bytes: as characters here.
                let mut end = e.position.saturating_sub(1).min(fen.len());
                while !fen.is_char_boundary(end) {
                    end -= 1;
                }
                at.right(fen[..end].chars().count())
            } else {
                at
            };
            Reading::Unreadable(Located::new(
                place,
                format!("{} FEN `{fen}`: {e}", game.name()),
            ))
        }
        Err(FenError::Position(e)) => {
            let fen = variant
                .read_fen(fen, Naming::default())
                .map_or_else(|_| fen.to_string(), |p| p.fen(Naming::default()));
            Reading::Impossible {
                fen,
                problems: e.problems,
            }
        }
    }
}

/// Text with tags removed, the common entities decoded and white space collapsed.
pub(crate) fn plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    collapse(&out)
}

/// White space runs as one space, trimmed; at most 500 characters.
pub(crate) fn collapse(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().collect();
    let joined = words.join(" ");
    match joined.char_indices().nth(500) {
        Some((i, _)) => format!("{}...", &joined[..i]),
        None => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_count_lines_and_characters() {
        let l = Lines::new("ab\nçd\n\nx");
        assert_eq!(l.place(0), Place { line: 1, column: 1 });
        assert_eq!(l.place(3), Place { line: 2, column: 1 });
        assert_eq!(l.place(5), Place { line: 2, column: 2 });
        assert_eq!(l.place(8), Place { line: 4, column: 1 });
    }

    #[test]
    fn bad_bytes_are_refused_with_their_line() {
        assert_eq!(text_of_bytes(b"a\nb\0".to_vec()).unwrap_err().0, 2);
        assert_eq!(text_of_bytes("\u{feff}<p>x".into()).unwrap(), "<p>x");
        assert_eq!(text_of_bytes(b"a\n\nb\xff".to_vec()).unwrap_err().0, 3);
        assert!(text_of_bytes(b"  \n".to_vec())
            .unwrap_err()
            .1
            .contains("empty"));
        let big = vec![b'a'; MAX_DOCUMENT_BYTES as usize + 1];
        assert!(text_of_bytes(big).unwrap_err().1.contains("larger"));
    }

    #[test]
    fn formats_by_extension() {
        assert_eq!(
            Format::of_path(Path::new("a/b.WIKI")),
            Some(Format::MediaWiki)
        );
        assert_eq!(Format::of_path(Path::new("b.htm")), Some(Format::Html));
        assert_eq!(Format::of_path(Path::new("b.json")), None);
    }
}
