//! Board diagrams as SVG: pure rendering over [`crate::rules`], no web or database code.
//!
//! A [`Diagram`] is a board of either game (8x8 Baroque, 10x10 Rococo) with a piece or nothing on
//! each square; [`render`] draws it with [`Options`]: the image's size in pixels, marked squares,
//! move arrows, coordinates (Rococo's in the standard or the page's names) and the side at the
//! bottom. The output is deterministic (the same input gives the same bytes) and self-contained: the
//! pieces are drawn with paths, the only text is the coordinates and the titles.
//!
//! Each square is a `<rect class="square" data-square="e1">`, each piece a
//! `<g class="piece" data-square="e1" data-piece="K">` with a `<title>`: the square
//! in the diagram's coordinates, the piece's letter as the API writes it (chess-style letters for
//! Baroque, Rococo's own set for Rococo), upper case White. Marks are `<rect class="mark"
//! data-square=...>` and arrows `<g class="arrow" data-from=... data-to=...>`.
//!
//! The glyphs, drawn on a 100x100 square (White light with dark lines, Black dark with light lines):
//!
//! | piece | glyph |
//! |---|---|
//! | King | a crown with a cross |
//! | Pawn (Pincer) | a pawn: a ball on a flared body |
//! | Withdrawer | a block arrow pointing down, away from the ring it leaves |
//! | Long Leaper | an arch, the path of a leap, over a dot, ending in an arrowhead |
//! | Coordinator | a tower with a crosshair |
//! | Immobilizer | an octagon (a stop sign) with a snowflake |
//! | Chameleon | a diamond with a two-tone eye |
//! | Advancer | a spear pointing up |
//! | Swapper | two arrows pointing opposite ways, one above the other |
//! | Cannon Pawn | the pawn on a gun carriage's two wheels |
//! | Pushme-Pullyu | a double-headed arrow on a stand |

use crate::rules::prelude::*;
use crate::rules::rococo::Coords;
use crate::rules::{Color, GameKind, Naming, Piece, Role, Variant, VariantPosition};
use baroque_rules as rules;
use std::fmt::Write;

/// The smallest image, in pixels.
pub const MIN_SIZE: u32 = 64;
/// The largest image, in pixels.
pub const MAX_SIZE: u32 = 2048;
/// The image size when none is asked for.
pub const DEFAULT_SIZE: u32 = 480;
/// The most marked squares.
pub const MAX_MARKS: usize = 100;
/// The most arrows.
pub const MAX_ARROWS: usize = 32;

/// A board to draw: a position of either game (squares numbered `rank * width + file` from a1, as
/// in [`crate::rules::Geometry`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    position: VariantPosition,
}

/// An option of the coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Labels {
    /// Files a-h (a-j), ranks 1-8 (1-10).
    #[default]
    Standard,
    /// Rococo's page names: files x, a-h, y; ranks 0, 1-8, 00 (a Baroque board is drawn with the
    /// standard names).
    Page,
}

/// How to draw a diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Width and height of the image in pixels (clamped to [`MIN_SIZE`]..=[`MAX_SIZE`]).
    pub size: u32,
    /// Whether to write the coordinates around the board.
    pub coordinates: bool,
    /// The names of the squares, in the labels and the `data-square` attributes.
    pub labels: Labels,
    /// Black at the bottom.
    pub flipped: bool,
    /// Squares to highlight (squares off the board are ignored).
    pub marks: Vec<u8>,
    /// Arrows from a square to a square; an arrow from a square to itself is a ring.
    pub arrows: Vec<(u8, u8)>,
    /// The image's title (a default one names the game and the side to move).
    pub title: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            size: DEFAULT_SIZE,
            coordinates: true,
            labels: Labels::Standard,
            flipped: false,
            marks: Vec::new(),
            arrows: Vec::new(),
            title: None,
        }
    }
}

/// A square list or arrow list that cannot be read; the message says why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

impl Diagram {
    /// The board of a position.
    pub fn new(position: VariantPosition) -> Diagram {
        Diagram { position }
    }

    /// The game.
    pub fn game(&self) -> GameKind {
        self.position.kind()
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: u8) -> Option<Piece> {
        (sq < self.squares())
            .then(|| self.position.piece_at(sq))
            .flatten()
    }

    /// The number of squares.
    fn squares(&self) -> u8 {
        let n = self.game().files();
        n * n
    }

    /// The letter the API writes for a piece of this game, upper case White.
    pub fn letter(&self, piece: Piece) -> char {
        self.position.piece_letter(piece, Naming::default())
    }

    fn naming(labels: Labels) -> Naming {
        Naming::coords(match labels {
            Labels::Standard => Coords::Standard,
            Labels::Page => Coords::Page,
        })
    }

    /// The name of a square in the given coordinates (a game without page names uses its own).
    pub fn square_name(&self, sq: u8, labels: Labels) -> String {
        self.position.square_name(sq, Diagram::naming(labels))
    }

    /// Reads a square name in the given coordinates.
    pub fn parse_square(&self, name: &str, labels: Labels) -> Option<u8> {
        self.position
            .parse_square(name, Diagram::naming(labels))
            .filter(|&sq| sq < self.squares())
    }

    /// Reads a comma-separated list of squares (`d4,d6`; spaces around names are allowed, an
    /// empty list is no squares). A square named twice is marked once.
    ///
    /// # Errors
    /// A name that is not a square of the board, or more than [`MAX_MARKS`] squares.
    pub fn parse_marks(&self, text: &str, labels: Labels) -> Result<Vec<u8>, ParseError> {
        let mut out: Vec<u8> = Vec::new();
        for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let sq = self.parse_square(name, labels).ok_or_else(|| {
                ParseError(format!(
                    "{} is not a square of the {} board{}",
                    quoted(name),
                    self.game().name(),
                    self.hint(labels)
                ))
            })?;
            if !out.contains(&sq) {
                out.push(sq);
            }
            if out.len() > MAX_MARKS {
                return Err(ParseError(format!(
                    "more than {MAX_MARKS} squares are marked"
                )));
            }
        }
        Ok(out)
    }

    /// Reads a comma-separated list of arrows, each two square names with an optional `-` between
    /// (`d2d8,e7-e5`; Rococo's `a10j1`, or with page names `x00y0`).
    ///
    /// # Errors
    /// An arrow that is not two squares of the board, or more than [`MAX_ARROWS`] arrows.
    pub fn parse_arrows(&self, text: &str, labels: Labels) -> Result<Vec<(u8, u8)>, ParseError> {
        let n = self.game().files();
        let mut out = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || {
                ParseError(format!(
                    "{} is not an arrow: write two squares of the {} board such as d2d8 or {}-{}{}",
                    quoted(item),
                    self.game().name(),
                    self.square_name(self.corner(0, n - 1), labels),
                    self.square_name(self.corner(n - 1, 0), labels),
                    self.hint(labels)
                ))
            };
            // The second square starts at the second letter.
            let split = item
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_alphabetic())
                .map(|(i, _)| i)
                .ok_or_else(bad)?;
            let first = item[..split].strip_suffix('-').unwrap_or(&item[..split]);
            let from = self.parse_square(first, labels).ok_or_else(bad)?;
            let to = self.parse_square(&item[split..], labels).ok_or_else(bad)?;
            out.push((from, to));
            if out.len() > MAX_ARROWS {
                return Err(ParseError(format!("more than {MAX_ARROWS} arrows")));
            }
        }
        Ok(out)
    }

    /// The square on a file and a rank (both counted from 0).
    fn corner(&self, file: u8, rank: u8) -> u8 {
        rank * self.game().files() + file
    }

    /// How the board's squares are named, for messages: ` (files a-h, ranks 1-8)`.
    fn hint(&self, labels: Labels) -> String {
        let n = self.game().files();
        let file = |f: u8| {
            let name = self.square_name(self.corner(f, 0), labels);
            name.trim_end_matches(|c: char| c.is_ascii_digit())
                .to_string()
        };
        let rank = |r: u8| {
            let name = self.square_name(self.corner(0, r), labels);
            name.trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .to_string()
        };
        if labels == Labels::Page && Variant::has_page_coords(self.game()) {
            format!(
                " (page names: files {}, {}-{}, {}; ranks {}, {}-{}, {})",
                file(0),
                file(1),
                file(n - 2),
                file(n - 1),
                rank(0),
                rank(1),
                rank(n - 2),
                rank(n - 1)
            )
        } else {
            format!(
                " (files {}-{}, ranks {}-{})",
                file(0),
                file(n - 1),
                rank(0),
                rank(n - 1)
            )
        }
    }
}

/// At most 12 characters of user text, for messages.
fn quoted(s: &str) -> String {
    let short: String = s.chars().take(12).collect();
    if short.len() < s.len() {
        format!("{short:?}...")
    } else {
        format!("{short:?}")
    }
}

/// One square's side in drawing units.
const SQ: i32 = 100;
/// The margin holding the coordinates.
const MARGIN: i32 = 44;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
/// Rococo's edge squares: cooler and paler, so the ring stands out.
const EDGE_LIGHT: &str = "#dfe6ec";
const EDGE_DARK: &str = "#a9b7c4";
const FRAME: &str = "#5b4636";
const LABEL: &str = "#3b2f25";
const MARK: &str = "#f2c12e";
const MARK_LINE: &str = "#c0392b";
const ARROW: &str = "#2e7d32";

/// Draws a diagram as a standalone SVG document.
pub fn render(d: &Diagram, o: &Options) -> String {
    let n = i32::from(d.game().files());
    let margin = if o.coordinates { MARGIN } else { 0 };
    let board = n * SQ;
    let full = board + 2 * margin;
    let size = o.size.clamp(MIN_SIZE, MAX_SIZE);
    let labels = o.labels;
    // The top-left corner of a square, and its centre.
    let corner = |sq: u8| -> (i32, i32) {
        let (f, r) = (i32::from(sq) % n, i32::from(sq) / n);
        let (col, row) = if o.flipped {
            (n - 1 - f, r)
        } else {
            (f, n - 1 - r)
        };
        (margin + col * SQ, margin + row * SQ)
    };
    let centre = |sq: u8| {
        let (x, y) = corner(sq);
        (x + SQ / 2, y + SQ / 2)
    };
    let on_board = |sq: u8| i32::from(sq) < n * n;
    let title = match &o.title {
        Some(t) => t.clone(),
        None => format!("{} diagram, {} to move", d.game().title(), d.turn().name()),
    };

    let mut s = String::with_capacity(48 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {full} {full}" role="img" aria-labelledby="diagram-title" data-game="{game}" data-turn="{turn}" data-flipped="{flipped}">"#,
        game = d.game().name(),
        turn = d.turn().name(),
        flipped = o.flipped,
    );
    let _ = write!(s, r#"<title id="diagram-title">{}</title>"#, escape(&title));
    let _ = write!(
        s,
        r##"<rect class="background" x="0" y="0" width="{full}" height="{full}" fill="#f7f3ec"/>"##
    );

    // Squares, from the top-left as drawn.
    s.push_str(r#"<g class="squares">"#);
    for sq in 0..(n * n) as u8 {
        let (x, y) = corner(sq);
        let (f, r) = (i32::from(sq) % n, i32::from(sq) / n);
        let light = (f + r) % 2 == 1;
        let edge = d.game().is_edge(sq);
        let fill = match (edge, light) {
            (false, true) => LIGHT,
            (false, false) => DARK,
            (true, true) => EDGE_LIGHT,
            (true, false) => EDGE_DARK,
        };
        let _ = write!(
            s,
            r#"<rect class="square" data-square="{name}" x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{fill}"/>"#,
            name = escape(&d.square_name(sq, labels)),
        );
    }
    s.push_str("</g>");
    if d.game().is_edge(0) {
        // The line between the edge ring and the inner board.
        let _ = write!(
            s,
            r#"<rect class="edge-line" x="{x}" y="{x}" width="{w}" height="{w}" fill="none" stroke="{FRAME}" stroke-width="3" stroke-opacity="0.6"/>"#,
            x = margin + SQ,
            w = board - 2 * SQ
        );
    }
    let _ = write!(
        s,
        r#"<rect class="frame" x="{margin}" y="{margin}" width="{board}" height="{board}" fill="none" stroke="{FRAME}" stroke-width="4"/>"#
    );

    if o.coordinates {
        s.push_str(&format!(
            r#"<g class="coordinates" font-family="DejaVu Sans, Verdana, Arial, sans-serif" font-size="28" font-weight="bold" fill="{LABEL}" text-anchor="middle">"#
        ));
        for i in 0..n {
            // A file's name is its square's name on the first rank, less the rank.
            let file_sq = i as u8;
            let file = d.square_name(file_sq, labels);
            let file = file.trim_end_matches(|c: char| c.is_ascii_digit());
            let (x, _) = centre(file_sq);
            for y in [margin / 2 + 10, full - margin / 2 + 10] {
                let _ = write!(s, r#"<text x="{x}" y="{y}">{}</text>"#, escape(file));
            }
            let rank_sq = (i * n) as u8;
            let rank = d.square_name(rank_sq, labels);
            let rank = rank.trim_start_matches(|c: char| c.is_ascii_alphabetic());
            let (_, y) = centre(rank_sq);
            for x in [margin / 2, full - margin / 2] {
                let _ = write!(s, r#"<text x="{x}" y="{}">{}</text>"#, y + 10, escape(rank));
            }
        }
        s.push_str("</g>");
    }

    // Marks, under the pieces.
    if o.marks.iter().any(|&m| on_board(m)) {
        s.push_str(r#"<g class="marks">"#);
        for &m in o.marks.iter().filter(|&&m| on_board(m)) {
            let (x, y) = corner(m);
            let _ = write!(
                s,
                r#"<rect class="mark" data-square="{name}" x="{x0}" y="{y0}" width="{w}" height="{w}" fill="{MARK}" fill-opacity="0.55" stroke="{MARK_LINE}" stroke-width="7" stroke-opacity="0.85"/>"#,
                name = escape(&d.square_name(m, labels)),
                x0 = x + 4,
                y0 = y + 4,
                w = SQ - 8,
            );
        }
        s.push_str("</g>");
    }

    // Pieces.
    s.push_str(r#"<g class="pieces">"#);
    for sq in 0..(n * n) as u8 {
        let Some(p) = d.piece_at(sq) else { continue };
        let (x, y) = corner(sq);
        let name = d.square_name(sq, labels);
        let _ = write!(
            s,
            r#"<g class="piece" data-square="{sqname}" data-piece="{letter}" transform="translate({x} {y})"><title>{desc} on {sqname}</title>"#,
            sqname = escape(&name),
            letter = d.letter(p),
            desc = p.describe(),
        );
        glyph(&mut s, p);
        s.push_str("</g>");
    }
    s.push_str("</g>");

    // Arrows, over everything.
    let arrows: Vec<(u8, u8)> = o
        .arrows
        .iter()
        .copied()
        .filter(|&(a, b)| on_board(a) && on_board(b))
        .collect();
    if !arrows.is_empty() {
        let _ = write!(
            s,
            r#"<g class="arrows" fill="{ARROW}" stroke="{ARROW}" opacity="0.8">"#
        );
        for (a, b) in arrows {
            let _ = write!(
                s,
                r#"<g class="arrow" data-from="{}" data-to="{}">"#,
                escape(&d.square_name(a, labels)),
                escape(&d.square_name(b, labels))
            );
            arrow(&mut s, centre(a), centre(b));
            s.push_str("</g>");
        }
        s.push_str("</g>");
    }
    s.push_str("</svg>\n");
    s
}

/// An arrow from centre to centre: a shaft and a head whose tip stops short of the centre.
fn arrow(s: &mut String, (x1, y1): (i32, i32), (x2, y2): (i32, i32)) {
    if (x1, y1) == (x2, y2) {
        let _ = write!(
            s,
            r#"<circle cx="{x1}" cy="{y1}" r="38" fill="none" stroke-width="10"/>"#
        );
        return;
    }
    let (dx, dy) = (f64::from(x2 - x1), f64::from(y2 - y1));
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    let (px, py) = (-uy, ux);
    let head = 40.0_f64.min(len * 0.6);
    let half = 24.0;
    let tip = (
        f64::from(x2) - ux * 12.0 * (head / 40.0),
        f64::from(y2) - uy * 12.0 * (head / 40.0),
    );
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    let start = (f64::from(x1) + ux * 10.0, f64::from(y1) + uy * 10.0);
    let _ = write!(
        s,
        r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke-width="14" stroke-linecap="round"/>"#,
        start.0,
        start.1,
        base.0 + ux * 2.0,
        base.1 + uy * 2.0
    );
    let _ = write!(
        s,
        r#"<path d="M{:.1} {:.1} L{:.1} {:.1} L{:.1} {:.1} Z" stroke="none"/>"#,
        tip.0,
        tip.1,
        base.0 + px * half,
        base.1 + py * half,
        base.0 - px * half,
        base.1 - py * half
    );
}

/// Writes a piece's shapes on a 100x100 square.
fn glyph(s: &mut String, p: Piece) {
    // The body, its outline, and the lines drawn on it.
    let (fill, line, detail) = match p.color {
        Color::White => ("#fbfaf5", "#1c1c1c", "#1c1c1c"),
        Color::Black => ("#262626", "#0a0a0a", "#f1efe8"),
    };
    let body = format!(r#"fill="{fill}" stroke="{line}" stroke-width="4" stroke-linejoin="round""#);
    let lines = format!(
        r#"fill="none" stroke="{detail}" stroke-width="5" stroke-linecap="round" stroke-linejoin="round""#
    );
    let thin = format!(r#"fill="none" stroke="{detail}" stroke-width="3" stroke-linecap="round""#);
    let dot = format!(r#"fill="{detail}""#);
    let stand = format!(r#"<path {body} d="M18 90 H82 V86 Q82 79 74 79 H26 Q18 79 18 86 Z"/>"#);
    let pawn = format!(
        r#"<path {body} d="M30 82 C30 68 41 60 44.5 51.5 A14 14 0 1 1 55.5 51.5 C59 60 70 68 70 82 Z"/>"#
    );
    let g = match p.role {
        Role::King => format!(
            r#"<path {body} d="M46 6 H54 V12 H60 V20 H54 V28 H46 V20 H40 V12 H46 Z"/><path {body} d="M25 80 L15 38 L35 54 L50 28 L65 54 L85 38 L75 80 Z"/><circle {body} cx="15" cy="36" r="5"/><circle {body} cx="85" cy="36" r="5"/><path {lines} d="M27 68 H73"/>{stand}"#
        ),
        Role::Pawn => format!(r#"{pawn}{stand}"#),
        Role::CannonPawn => format!(
            r#"{pawn}<path {body} d="M14 82 H86"/><circle {body} cx="27" cy="80" r="12"/><circle {body} cx="73" cy="80" r="12"/><path {thin} d="M27 70 V90 M17 80 H37 M73 70 V90 M63 80 H83"/>"#
        ),
        Role::Withdrawer => format!(
            r#"<circle {body} cx="50" cy="15" r="10"/><path {body} d="M35 32 H65 V54 H86 L50 93 L14 54 H35 Z"/><path {lines} d="M50 40 V64"/>"#
        ),
        Role::Advancer => format!(
            r#"<path {body} d="M50 4 L78 48 L58 41 V80 H42 V41 L22 48 Z"/><path {lines} d="M50 20 V36"/>{stand}"#
        ),
        Role::LongLeaper => format!(
            r#"<path {body} d="M10 88 V68 A35 35 0 0 1 80 68 H91 L74 92 L57 68 H66 A21 21 0 0 0 24 68 V88 Z"/><circle {dot} cx="45" cy="78" r="9"/>"#
        ),
        Role::Coordinator => format!(
            r#"<path {body} d="M20 90 H80 V80 H71 V42 H79 V14 H67 V24 H56 V14 H44 V24 H33 V14 H21 V42 H29 V80 H20 Z"/><path {lines} d="M50 46 V74 M36 60 H64"/><circle {lines} cx="50" cy="60" r="8"/>"#
        ),
        Role::Immobilizer => format!(
            r#"<path {body} d="M34.7 8.5 H65.3 L91.5 34.7 V65.3 L65.3 91.5 H34.7 L8.5 65.3 V34.7 Z"/><path {lines} d="M50 22 V78 M25.8 36 L74.2 64 M74.2 36 L25.8 64 M43 25 L50 32 L57 25 M43 75 L50 68 L57 75 M26 44 L35 41 L33 32 M74 44 L65 41 L67 32 M26 56 L35 59 L33 68 M74 56 L65 59 L67 68"/>"#
        ),
        Role::Chameleon => format!(
            r#"<path {body} d="M50 6 L92 50 L50 94 L8 50 Z"/><circle {body} cx="50" cy="50" r="17"/><path {dot} d="M50 33 A17 17 0 0 1 50 67 Z"/><circle {thin} cx="50" cy="50" r="17"/>"#
        ),
        Role::Swapper => format!(
            r#"<path {body} d="M12 26 H64 V12 L90 34 L64 56 V42 H12 Z"/><path {body} d="M88 58 H36 V44 L10 66 L36 88 V74 H88 Z"/>"#
        ),
        Role::PushmePullyu => format!(
            r#"<path {body} d="M6 42 L30 18 V32 H70 V18 L94 42 L70 66 V52 H30 V66 Z"/><path {body} d="M44 52 H56 V80 H44 Z"/><path {lines} d="M50 36 V48"/>{stand}"#
        ),
    };
    s.push_str(&g);
}

/// Text for XML content and attribute values: the five special characters escaped, characters XML
/// 1.0 does not allow dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::rococo::ROCOCO_START_FEN;
    use crate::rules::START_FEN;
    use std::collections::BTreeMap;

    fn baroque(fen: &str) -> Diagram {
        Diagram::new(Variant::default().read_fen(fen, Naming::default()).unwrap())
    }

    fn rococo(fen: &str) -> Diagram {
        Diagram::new(Variant::Rococo.read_fen(fen, Naming::default()).unwrap())
    }

    /// The `data-square` -> `data-piece` of every piece element, checking that the SVG is XML.
    fn pieces(svg: &str) -> BTreeMap<String, String> {
        let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(
            root.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let mut out = BTreeMap::new();
        for n in root
            .descendants()
            .filter(|n| n.attribute("class") == Some("piece"))
        {
            let sq = n.attribute("data-square").unwrap().to_string();
            let p = n.attribute("data-piece").unwrap().to_string();
            assert!(n.children().any(|c| c.has_tag_name("title")), "{sq}");
            assert!(out.insert(sq, p).is_none(), "a square holds two pieces");
        }
        out
    }

    fn with_class<'a>(
        doc: &'a roxmltree::Document<'a>,
        class: &str,
    ) -> Vec<roxmltree::Node<'a, 'a>> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect()
    }

    #[test]
    fn the_baroque_start_position_has_every_piece_on_its_square() {
        let svg = render(&baroque(START_FEN), &Options::default());
        let got = pieces(&svg);
        assert_eq!(got.len(), 32);
        let back = ["M", "N", "B", "Q", "K", "B", "N", "R"];
        for (i, f) in "abcdefgh".chars().enumerate() {
            assert_eq!(got[&format!("{f}1")], back[i]);
            assert_eq!(got[&format!("{f}2")], "P");
            assert_eq!(got[&format!("{f}7")], "p");
            // Black's back rank mirrors White's: the Kings and Withdrawers change files.
            assert_eq!(
                got[&format!("{f}8")],
                ["r", "n", "b", "k", "q", "b", "n", "m"][i]
            );
        }
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some("480"));
        assert_eq!(root.attribute("viewBox"), Some("0 0 888 888"));
        assert_eq!(root.attribute("data-game"), Some("baroque"));
        let title = root.children().find(|n| n.has_tag_name("title")).unwrap();
        assert_eq!(title.text(), Some("Baroque chess diagram, white to move"));
        // Coordinates: a-h twice and 1-8 twice.
        let labels: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(labels.len(), 32);
        for l in ["a", "h", "1", "8"] {
            assert_eq!(labels.iter().filter(|&&x| x == l).count(), 2, "{l}");
        }
    }

    #[test]
    fn a_rococo_position_has_its_pieces_and_edge_squares() {
        let fen = "u9/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/9U w 0 -";
        let d = rococo(fen);
        let svg = render(&d, &Options::default());
        let got = pieces(&svg);
        assert_eq!(got.len(), 34);
        for (i, f) in "bcdefghi".chars().enumerate() {
            assert_eq!(
                got[&format!("{f}2")],
                ["I", "W", "L", "K", "X", "L", "A", "S"][i]
            );
            assert_eq!(got[&format!("{f}3")], "P");
            assert_eq!(got[&format!("{f}8")], "p");
            assert_eq!(
                got[&format!("{f}9")],
                ["i", "w", "l", "k", "x", "l", "a", "s"][i]
            );
        }
        assert_eq!(got["j1"], "U");
        assert_eq!(got["a10"], "u");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let squares = with_class(&doc, "squares")[0];
        let fills: Vec<&str> = squares
            .children()
            .filter_map(|n| n.attribute("fill"))
            .collect();
        assert_eq!(fills.len(), 100);
        let edge = fills
            .iter()
            .filter(|f| [EDGE_LIGHT, EDGE_DARK].contains(f))
            .count();
        assert_eq!(edge, 36);
        // In the page's names the same pieces stand on other names.
        let page = Options {
            labels: Labels::Page,
            ..Options::default()
        };
        let got = pieces(&render(&d, &page));
        assert_eq!(got["a1"], "I");
        assert_eq!(got["y0"], "U");
        assert_eq!(got["x00"], "u");
    }

    #[test]
    fn marks_and_arrows_are_drawn_on_their_squares() {
        let d = baroque(START_FEN);
        let marks = d.parse_marks(" d4, d6 ,d4,", Labels::Standard).unwrap();
        assert_eq!(marks.len(), 2);
        let arrows = d.parse_arrows("d2d8,e7-e5,c3c3", Labels::Standard).unwrap();
        let svg = render(
            &d,
            &Options {
                marks,
                arrows,
                size: 200,
                ..Options::default()
            },
        );
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let marks: Vec<&str> = with_class(&doc, "mark")
            .iter()
            .filter_map(|n| n.attribute("data-square"))
            .collect();
        assert_eq!(marks, ["d4", "d6"]);
        let arrows: Vec<(&str, &str)> = with_class(&doc, "arrow")
            .iter()
            .map(|n| {
                (
                    n.attribute("data-from").unwrap(),
                    n.attribute("data-to").unwrap(),
                )
            })
            .collect();
        assert_eq!(arrows, [("d2", "d8"), ("e7", "e5"), ("c3", "c3")]);
        assert_eq!(doc.root_element().attribute("height"), Some("200"));
    }

    #[test]
    fn rococo_squares_and_arrows_read_in_either_coordinates() {
        let d = rococo(ROCOCO_START_FEN);
        assert_eq!(
            d.parse_arrows("a10j1,b2-i9", Labels::Standard).unwrap(),
            [(90, 9), (11, 88)]
        );
        assert_eq!(
            d.parse_arrows("x00y0,a1-h8", Labels::Page).unwrap(),
            [(90, 9), (11, 88)]
        );
        assert_eq!(d.parse_marks("x0,y00", Labels::Page).unwrap(), [0, 99]);
        assert!(d.parse_marks("k1", Labels::Standard).is_err());
        assert!(d.parse_marks("a10", Labels::Page).is_err());
        let b = baroque(START_FEN);
        for bad in ["i1", "a9", "a0", "d", "", "4d", "a01"] {
            if !bad.is_empty() {
                assert!(b.parse_marks(bad, Labels::Standard).is_err(), "{bad}");
            }
        }
        for bad in ["d2", "d2d9", "d2-", "d2--d4", "dd", "2d4d", "d2d4d6"] {
            assert!(b.parse_arrows(bad, Labels::Standard).is_err(), "{bad}");
        }
        let many = vec!["a1b2"; MAX_ARROWS + 1].join(",");
        assert!(b.parse_arrows(&many, Labels::Standard).is_err());
    }

    #[test]
    fn flipping_puts_black_at_the_bottom() {
        let d = baroque(START_FEN);
        let y_of = |svg: &str, sq: &str| -> String {
            let doc = roxmltree::Document::parse(svg).unwrap();
            let n = doc
                .descendants()
                .find(|n| {
                    n.attribute("data-square") == Some(sq) && n.attribute("class") == Some("piece")
                })
                .unwrap();
            n.attribute("transform").unwrap().to_string()
        };
        let normal = render(&d, &Options::default());
        let flipped = render(
            &d,
            &Options {
                flipped: true,
                ..Options::default()
            },
        );
        assert_eq!(y_of(&normal, "a1"), "translate(44 744)");
        assert_eq!(y_of(&flipped, "a1"), "translate(744 44)");
        assert_eq!(y_of(&flipped, "h8"), "translate(44 744)");
    }

    #[test]
    fn every_glyph_differs_and_the_output_is_deterministic() {
        let mut seen = BTreeMap::new();
        for role in Role::ALL {
            for color in [Color::White, Color::Black] {
                let mut s = String::new();
                glyph(&mut s, Piece::new(color, role));
                assert!(roxmltree::Document::parse(&format!(
                    r#"<g xmlns="http://www.w3.org/2000/svg">{s}</g>"#
                ))
                .is_ok());
                if let Some(other) = seen.insert(s, (color, role)) {
                    panic!("{role:?} {color:?} looks like {other:?}");
                }
            }
        }
        let d = rococo(ROCOCO_START_FEN);
        assert_eq!(
            render(&d, &Options::default()),
            render(&d, &Options::default())
        );
    }

    #[test]
    fn user_text_is_escaped_and_sizes_are_clamped() {
        let d = baroque(START_FEN);
        let svg = render(
            &d,
            &Options {
                title: Some("<script>\"x\" & 'y'\u{0}\u{1b}</script>]]>".into()),
                size: 1,
                coordinates: false,
                ..Options::default()
            },
        );
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let title = doc.root_element().first_element_child().unwrap();
        assert_eq!(title.text(), Some("<script>\"x\" & 'y'</script>]]>"));
        assert_eq!(doc.root_element().attribute("width"), Some("64"));
        assert_eq!(doc.root_element().attribute("viewBox"), Some("0 0 800 800"));
        assert!(!doc.descendants().any(|n| n.has_tag_name("text")));
        // Squares off the board are ignored rather than drawn.
        let svg = render(
            &d,
            &Options {
                marks: vec![64, 200],
                arrows: vec![(0, 64)],
                size: 99_999,
                ..Options::default()
            },
        );
        assert!(!svg.contains("class=\"mark\""));
        assert!(!svg.contains("class=\"arrow\""));
        assert!(svg.contains("width=\"2048\""));
    }

    proptest::proptest! {
        #[test]
        fn any_text_and_any_squares_give_xml_or_an_error(
            text in "\\PC{0,24}",
            marks in proptest::collection::vec(0u8..=255, 0..6),
            arrows in proptest::collection::vec((0u8..=255, 0u8..=255), 0..4),
            size in 0u32..5000,
            flipped in proptest::bool::ANY,
            page in proptest::bool::ANY,
        ) {
            let labels = if page { Labels::Page } else { Labels::Standard };
            for d in [baroque(START_FEN), rococo(ROCOCO_START_FEN)] {
                let _ = d.parse_marks(&text, labels);
                let _ = d.parse_arrows(&text, labels);
                let svg = render(&d, &Options {
                    size,
                    flipped,
                    labels,
                    marks: marks.clone(),
                    arrows: arrows.clone(),
                    title: Some(text.clone()),
                    coordinates: true,
                });
                proptest::prop_assert!(roxmltree::Document::parse(&svg).is_ok());
            }
        }
    }
}
