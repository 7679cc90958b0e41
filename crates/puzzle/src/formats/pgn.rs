//! PGN (Portable Game Notation, the 1994 standard): a stored puzzle as one game, and games read
//! back into puzzles.
//!
//! A puzzle is written as:
//!
//! ```text
//! [Event "Chameleon: seven captures"]
//! [Site "Wikipedia: Baroque chess"]
//! [Date "????.??.??"]
//! [Round "-"]
//! [White "?"]
//! [Black "?"]
//! [Result "1-0"]
//! [Variant "Baroque"]
//! [SetUp "1"]
//! [FEN "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0"]
//! [Stipulation "#2"]
//! [Rules "abbott"]
//! [Tags "chameleon"]
//! [Rating "1300"]
//! [RatingDeviation "350"]
//! [NbPlays "0"]
//! [BaroqueId "3"]
//!
//! 1. Bg6xc6 Kb7xc8 2. Nc4-g8 (2. Bc6-c7) 1-0
//! ```
//!
//! `Event` is the title (`baroque puzzle <id>` without one), `Site` the source (`?` without one);
//! `Result` is the side that mates in the solution (`1-0` White, `0-1` Black: the side to move in
//! `#N`, Black in `s#N`, White in a helpmate), and the movetext ends with it. `Variant` is
//! `Baroque` or `Rococo`, `FEN` the stored canonical FEN (10x10 for Rococo), `Stipulation` `#N`,
//! `s#N`, `h#N` or `h#N.5`; `Rules` (Baroque only) the rule set as the API writes it
//! (`abbott,leaper=single`), `Caption` the caption, `Tags` the tags separated by spaces,
//! `Rating`, `RatingDeviation` and `NbPlays` the puzzle's Glicko-2 rating and deviation, rounded,
//! and its attempts (PGN has no tag for them: these are the names of Lichess's CSV columns), and
//! `BaroqueId` the store's id (for reference: a store that reads the game gives it its own id and
//! its own first rating, as it ignores the rating tags).
//! A problem's history adds `Composer` (the authors, separated by `; `), `Award`, `Keywords`
//! (separated by `; `) and `Notes` after `Tags`, and its publication date fills `Date`
//! (`1999.??.??` for a year, `1999.06.21` for a day), as problem databases write them; a puzzle
//! without a history is written as before.
//! A tag value escapes `"` and `\` with a backslash; a line break in it is written as a space.
//!
//! The movetext is the main line of [`super::solution`] in canonical notation, numbered from 1
//! (the FEN counts plies, not chess's move numbers; a line that starts with Black starts `1...`),
//! with every other defence, dual, key or helpmate solution as a variation `( ... )` in the place
//! of the move it replaces, each with its own continuation. Lines are at most 79 characters.
//!
//! The reader takes standard PGN, tolerantly: tag pairs (several on one line too), movetext with
//! move numbers (`1.`, `1...`, `1.Bg6xc6`), variations (skipped: only the main line is read),
//! comments `{...}` (over lines) and `;` (to the end of the line), NAGs `$n`, suffixes `!`, `?`,
//! `+`, `#`, results, and `%` escape lines; moves in any notation the move reader takes. A game
//! needs `Variant` (`Baroque`, also `Ultima` or `Baroque chess`, or `Rococo`; any case) and `FEN`
//! (`SetUp`, when given, must be `1`); `Rules` (Baroque only) defaults to `abbott`. Its claim is
//! its `Stipulation`; without one, a main line that ends in mate stands for `#N`, N being the
//! moves of the side to move in it. `Event` is read as the title and `Site` as the source (`?`
//! and `baroque puzzle <id>` read as none), `Caption` and `Tags` as written, `Composer`, `Date`,
//! `Award`, `Keywords` and `Notes` as the history (checked as a post's). Errors name the game
//! (counted from 1) and the line.

use super::{Place, ReadError, ReadPuzzle, Solution, Step};
use crate::rules::{Color, GameKind, Rules, Variant};
use crate::solver::Stipulation;
use crate::StoredPuzzle;
use crate::{About, Claim, History, MateClaim, NewPuzzle};

/// The media type of PGN.
pub const CONTENT_TYPE: &str = "application/x-chess-pgn";

/// The widest movetext line written.
const WIDTH: usize = 79;

/// A tag value with `"` and `\` escaped and line breaks as spaces.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The result token of a puzzle: the side that mates.
fn result(p: &StoredPuzzle, stipulation: Stipulation) -> &'static str {
    match super::mating_side(stipulation, super::side_to_move(&p.fen)) {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

/// The tokens of a line and its variations, numbered; `ply` counts from the puzzle's first move.
fn line_tokens(out: &mut Vec<String>, line: &[Step], ply: usize, white_first: bool) {
    let mut numbered = false;
    for (i, s) in line.iter().enumerate() {
        let at = ply + i;
        let white = (at % 2 == 0) == white_first;
        let number = (at + usize::from(!white_first)) / 2 + 1;
        // A move number stays on the line of its move.
        out.push(if white {
            format!("{number}. {}", s.notation)
        } else if !numbered {
            format!("{number}... {}", s.notation)
        } else {
            s.notation.clone()
        });
        numbered = true;
        for alt in &s.alternatives {
            if alt.is_empty() {
                continue;
            }
            let start = out.len();
            line_tokens(out, alt, at, white_first);
            out[start].insert(0, '(');
            if let Some(last) = out.last_mut() {
                last.push(')');
            }
            // The main line goes on after a variation: its next move is numbered again.
            numbered = false;
        }
    }
}

/// Tokens joined by spaces in lines of at most [`WIDTH`] characters.
fn wrap(tokens: &[String]) -> String {
    let mut text = String::new();
    let mut width = 0;
    for t in tokens {
        if width > 0 && width + 1 + t.len() > WIDTH {
            text.push('\n');
            width = 0;
        } else if width > 0 {
            text.push(' ');
            width += 1;
        }
        text.push_str(t);
        width += t.len();
    }
    text.push('\n');
    text
}

/// A stored puzzle as a PGN game (ending with a blank line), or `None` for a diagram
/// ([`super::exportable`]).
pub fn write_puzzle(p: &StoredPuzzle) -> Option<String> {
    if !super::exportable(p) {
        return None;
    }
    let stipulation = p.stipulation?;
    let result = result(p, stipulation);
    let mut tags: Vec<(&str, String)> = vec![
        (
            "Event",
            p.title
                .clone()
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| format!("baroque puzzle {}", p.id)),
        ),
        (
            "Site",
            p.source
                .clone()
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(|| "?".into()),
        ),
        ("Date", pgn_date(p.history.published.as_deref())),
        ("Round", "-".into()),
        ("White", "?".into()),
        ("Black", "?".into()),
        ("Result", result.into()),
        ("Variant", p.game().pgn_variant().into()),
        ("SetUp", "1".into()),
        ("FEN", p.fen.clone()),
        ("Stipulation", stipulation.to_string()),
    ];
    if let Some(rules) = p.variant.rules() {
        tags.push(("Rules", rules.to_string()));
    }
    if let Some(c) = p.caption.as_ref().filter(|c| !c.trim().is_empty()) {
        tags.push(("Caption", c.clone()));
    }
    if !p.tags.is_empty() {
        tags.push(("Tags", p.tags.join(" ")));
    }
    let h = &p.history;
    if !h.authors.is_empty() {
        tags.push(("Composer", h.authors.join("; ")));
    }
    if let Some(award) = &h.award {
        tags.push(("Award", award.clone()));
    }
    if !h.keywords.is_empty() {
        tags.push(("Keywords", h.keywords.join("; ")));
    }
    if let Some(notes) = &h.notes {
        tags.push(("Notes", notes.clone()));
    }
    // PGN has no tag for a puzzle's rating: Lichess's CSV columns lend their names.
    let rating = p.rating.unwrap_or(crate::rating::PuzzleRating {
        rating: crate::rating::Rating::of_difficulty(p.difficulty),
        attempts: 0,
    });
    tags.push(("Rating", format!("{:.0}", rating.rating.value)));
    tags.push(("RatingDeviation", format!("{:.0}", rating.rating.deviation)));
    tags.push(("NbPlays", rating.attempts.to_string()));
    tags.push(("BaroqueId", p.id.to_string()));
    let mut text = String::new();
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(&value)));
    }
    text.push('\n');
    let Solution { line } = super::solution(p);
    let mut tokens = Vec::new();
    let white_first = super::side_to_move(&p.fen) == Color::White;
    line_tokens(&mut tokens, &line, 0, white_first);
    tokens.push(result.to_string());
    text.push_str(&wrap(&tokens));
    text.push('\n');
    Some(text)
}

/// A publication date (`YYYY` or `YYYY-MM-DD`) as PGN's `Date` writes one (`1999.??.??`,
/// `1999.06.21`; `????.??.??` when unknown).
fn pgn_date(published: Option<&str>) -> String {
    match published {
        Some(d) if d.len() == 4 => format!("{d}.??.??"),
        Some(d) => d.replace('-', "."),
        None => "????.??.??".into(),
    }
}

/// PGN's `Date` as a publication date: `1999.??.??` is `1999`, `1999.06.21` is `1999-06-21`; an
/// unknown year (or a month without its day) reads as the year alone or none.
fn read_date(date: &str) -> Option<String> {
    let parts: Vec<&str> = date.trim().split('.').collect();
    let known = |p: &&str| p.bytes().all(|b| b.is_ascii_digit()) && !p.is_empty();
    match parts[..] {
        [y, m, d] if known(&y) && known(&m) && known(&d) => Some(format!("{y}-{m}-{d}")),
        [y, ..] if known(&y) => Some(y.to_string()),
        _ => None,
    }
}

/// Puzzles as one PGN text, a game each in order; diagrams are left out, each named in a `%` line
/// at the top (a line PGN readers skip). Also the ids left out.
pub fn write_all<'a>(puzzles: impl IntoIterator<Item = &'a StoredPuzzle>) -> (String, Vec<i64>) {
    let mut games = String::new();
    let mut skipped = Vec::new();
    for p in puzzles {
        match write_puzzle(p) {
            Some(g) => games.push_str(&g),
            None => skipped.push(p.id),
        }
    }
    let mut text = head(&skipped, !games.is_empty());
    text.push_str(&games);
    (text, skipped)
}

/// What a PGN export starts with: a `%` line for each diagram left out (`skipped`), then a blank
/// line when games follow.
pub fn head(skipped: &[i64], games_follow: bool) -> String {
    let mut text = String::new();
    for id in skipped {
        text.push_str(&format!(
            "% baroque: puzzle {id} is a diagram (a move and its outcome, not a stipulated \
             problem): left out; the JSON lines export has it\n"
        ));
    }
    if !skipped.is_empty() && games_follow {
        text.push('\n');
    }
    text
}

/// A tag pair of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: String,
    pub value: String,
    /// Its line, from 1.
    pub line: usize,
}

/// A game as read: its tags, its main line's moves (each with its line) and its result.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// From 1.
    pub number: usize,
    /// The line it starts on.
    pub line: usize,
    pub tags: Vec<Tag>,
    /// The moves of the main line as written, with their lines; variations are skipped.
    pub moves: Vec<(String, usize)>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`, when the movetext ends with one.
    pub result: Option<String>,
}

impl Game {
    /// The value of a tag and its line.
    pub fn tag(&self, name: &str) -> Option<(&str, usize)> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| (t.value.as_str(), t.line))
    }
}

/// A token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Tag(Tag),
    Open,
    Close,
    Result(String),
    Move(String),
    /// What the reader cannot read; it goes on at the next line that starts with `[`.
    Error(String),
}

/// Reads PGN text into tokens, each with its line.
struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    line: usize,
    /// Whether nothing but white space came before on this line.
    line_start: bool,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            chars: text.char_indices().peekable(),
            line: 1,
            line_start: true,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.line_start = true;
        } else if !c.is_whitespace() {
            self.line_start = false;
        }
        Some(c)
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    /// After an error: on to the next line that starts with `[` (the next tag pair); whether a
    /// line of something else (movetext) was passed on the way.
    fn recover(&mut self) -> bool {
        let mut passed = false;
        loop {
            self.skip_line();
            if self.bump().is_none() {
                return passed;
            }
            while self.peek().is_some_and(|c| c != '\n' && c.is_whitespace()) {
                self.bump();
            }
            match self.peek() {
                Some('[') | None => return passed,
                Some('\n') => {}
                Some(_) => passed = true,
            }
        }
    }

    /// A tag pair after its `[`: `Name "value"]`.
    fn tag(&mut self, line: usize) -> Result<Tag, String> {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err("a tag pair is `[Name \"value\"]`: the name is missing".into());
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(format!(
                "tag `{name}`: its value must be in double quotes, as in [{name} \"value\"]"
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => {
                    return Err(format!(
                        "tag `{name}`: its value is not closed by `\"` on its line"
                    ))
                }
                Some('\\') => {
                    self.bump();
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => {
                            value.push(c);
                            self.bump();
                        }
                        _ => value.push('\\'),
                    }
                }
                Some('"') => {
                    self.bump();
                    break;
                }
                Some(c) => {
                    value.push(c);
                    self.bump();
                }
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some(']') {
            return Err(format!("tag `{name}`: `]` must follow its value"));
        }
        self.bump();
        Ok(Tag { name, value, line })
    }

    /// The next token and its line.
    fn next_token(&mut self) -> Option<(Token, usize)> {
        loop {
            let at_start = self.line_start;
            let c = self.peek()?;
            let line = self.line;
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '\u{feff}' => {
                    self.bump();
                }
                '%' if at_start => self.skip_line(),
                ';' => self.skip_line(),
                '{' => {
                    self.bump();
                    loop {
                        match self.bump() {
                            Some('}') => break,
                            Some(_) => {}
                            None => {
                                return Some((
                                    Token::Error(format!(
                                        "the comment opened on line {line} is not closed by `}}`"
                                    )),
                                    line,
                                ))
                            }
                        }
                    }
                }
                '[' => {
                    self.bump();
                    return Some((
                        match self.tag(line) {
                            Ok(t) => Token::Tag(t),
                            Err(e) => Token::Error(e),
                        },
                        line,
                    ));
                }
                '(' => {
                    self.bump();
                    return Some((Token::Open, line));
                }
                ')' => {
                    self.bump();
                    return Some((Token::Close, line));
                }
                '$' => {
                    self.bump();
                    let mut digits = 0;
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.bump();
                        digits += 1;
                    }
                    if digits == 0 {
                        return Some((
                            Token::Error(
                                "`$` must be followed by a number (a NAG such as $1)".into(),
                            ),
                            line,
                        ));
                    }
                }
                _ => {
                    let mut word = String::new();
                    while let Some(c) = self.peek() {
                        if c.is_whitespace() || "[]{}();".contains(c) {
                            break;
                        }
                        word.push(c);
                        self.bump();
                    }
                    if word.is_empty() {
                        // A `]` or `}` that closes nothing.
                        self.bump();
                        return Some((Token::Error(format!("`{c}` closes nothing here")), line));
                    }
                    if let Some(t) = classify(&word) {
                        return Some((t, line));
                    }
                }
            }
        }
    }
}

/// What a word of movetext is: a result, a move (after any move number glued to it), or nothing
/// (a move number, an annotation such as `!?`).
fn classify(word: &str) -> Option<Token> {
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Some(Token::Result(word.to_string()));
    }
    // A move number: digits, then dots (`1.`, `1...`, `12`), possibly glued to the move.
    let rest = word
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches(['.', '…']);
    let mv = rest.trim_end_matches(['!', '?']);
    if mv.is_empty() {
        return None;
    }
    Some(Token::Move(mv.to_string()))
}

/// A game being read.
#[derive(Default)]
struct Building {
    game: Game,
    in_moves: bool,
    depth: usize,
    /// The line of each variation still open.
    open: Vec<usize>,
    error: Option<(usize, String)>,
    /// Whether anything was read into it.
    started: bool,
}

impl Building {
    fn fail(&mut self, line: usize, message: String) {
        if self.error.is_none() {
            self.error = Some((line, message));
        }
    }

    fn finish(mut self) -> Result<Game, ReadError> {
        if let Some(&line) = self.open.last() {
            self.fail(
                line,
                "the variation opened here by `(` is not closed by `)`".into(),
            );
        }
        let g = &self.game;
        if self.error.is_none() && g.tags.is_empty() {
            let first = g.moves.first().map_or("", |(m, _)| m.as_str());
            self.fail(
                g.line,
                format!(
                    "a game starts with its tag pairs, such as [Variant \"Baroque\"]; found \
                     `{first}`: this is not PGN"
                ),
            );
        }
        match self.error {
            Some((line, message)) => Err(ReadError {
                unit: "game",
                start: self.game.line,
                place: Place {
                    number: Some(self.game.number),
                    line,
                },
                message,
            }),
            None => Ok(self.game),
        }
    }
}

/// Reads PGN text into games, each read or refused on its own (an error names its game and line).
/// Text with no game at all gives none.
pub fn games(text: &str) -> Vec<Result<Game, ReadError>> {
    let mut lexer = Lexer::new(text);
    let mut out = Vec::new();
    let mut cur = Building::default();
    let start = |cur: &mut Building, out: &mut Vec<Result<Game, ReadError>>, line: usize| {
        if !cur.started {
            cur.started = true;
            cur.game.number = out.len() + 1;
            cur.game.line = line;
        }
    };
    while let Some((token, line)) = lexer.next_token() {
        match token {
            Token::Tag(tag) => {
                // A tag pair after movetext starts the next game (the one before may have left a
                // variation open: its error).
                if cur.in_moves {
                    out.push(std::mem::take(&mut cur).finish());
                }
                start(&mut cur, &mut out, line);
                if cur.game.tags.iter().any(|t| t.name == tag.name) {
                    cur.fail(line, format!("tag `{}` is given twice", tag.name));
                } else {
                    cur.game.tags.push(tag);
                }
            }
            Token::Error(message) => {
                start(&mut cur, &mut out, line);
                cur.fail(line, message);
                // What follows is the next line that starts with `[`: a tag of this game when no
                // movetext came between, else the next game's.
                if lexer.recover() {
                    cur.in_moves = true;
                }
                cur.depth = 0;
                cur.open.clear();
            }
            Token::Open => {
                start(&mut cur, &mut out, line);
                cur.in_moves = true;
                cur.depth += 1;
                cur.open.push(line);
            }
            Token::Close => {
                start(&mut cur, &mut out, line);
                cur.in_moves = true;
                if cur.depth == 0 {
                    cur.fail(line, "`)` closes no variation".into());
                } else {
                    cur.depth -= 1;
                    cur.open.pop();
                }
            }
            Token::Move(m) => {
                start(&mut cur, &mut out, line);
                cur.in_moves = true;
                if cur.depth == 0 {
                    cur.game.moves.push((m, line));
                }
            }
            Token::Result(r) => {
                start(&mut cur, &mut out, line);
                cur.in_moves = true;
                if cur.depth == 0 {
                    cur.game.result = Some(r);
                    out.push(std::mem::take(&mut cur).finish());
                }
            }
        }
    }
    if cur.started {
        out.push(cur.finish());
    }
    out
}

/// A game's puzzle, to verify: its position, stipulation and main line.
///
/// # Errors
/// A missing or unusable tag, an unreadable FEN, a move that is not legal, no stipulation: each
/// naming the game and the line.
pub fn puzzle(game: &Game) -> Result<ReadPuzzle, ReadError> {
    let fail = |line: usize, message: String| ReadError {
        unit: "game",
        start: game.line,
        place: Place {
            number: Some(game.number),
            line,
        },
        message,
    };
    let (variant_text, variant_line) = game.tag("Variant").ok_or_else(|| {
        fail(
            game.line,
            "the [Variant] tag is missing: write [Variant \"Baroque\"] or [Variant \"Rococo\"]"
                .into(),
        )
    })?;
    let kind = GameKind::from_pgn_variant(variant_text).ok_or_else(|| {
        fail(
            variant_line,
            format!(
                "[Variant {variant_text:?}] is not a game of this service: write \"Baroque\" or \
                 \"Rococo\""
            ),
        )
    })?;
    let rules = match game.tag("Rules") {
        Some((text, line)) if Variant::has_rule_sets(kind) => Some(
            text.parse::<Rules>()
                .map_err(|e| fail(line, format!("[Rules {text:?}]: {e}")))?,
        ),
        Some((_, line)) => {
            return Err(fail(
                line,
                format!(
                    "[Rules] does not apply to {}, which has one rule set",
                    kind.title()
                ),
            ))
        }
        None => None,
    };
    let variant = Variant::of(kind, rules).map_err(|e| fail(variant_line, e))?;
    if let Some((setup, line)) = game.tag("SetUp") {
        if setup.trim() != "1" {
            return Err(fail(
                line,
                format!(
                    "[SetUp {setup:?}]: a puzzle starts from its own position: [SetUp \"1\"] \
                     and [FEN \"...\"]"
                ),
            ));
        }
    }
    let (fen, fen_line) = game.tag("FEN").ok_or_else(|| {
        fail(
            game.line,
            "the [FEN] tag is missing: a puzzle needs its position ([SetUp \"1\"] and [FEN \
             \"...\"])"
                .into(),
        )
    })?;
    let stated = match game.tag("Stipulation") {
        Some((text, line)) => Some(Stipulation::parse(text).ok_or_else(|| {
            fail(
                line,
                format!(
                    "[Stipulation {text:?}] is not one: write {} (such as #2)",
                    Stipulation::FORMS
                ),
            )
        })?),
        None => None,
    };
    let read = super::read_puzzle(
        variant,
        fen,
        fen_line,
        &game.moves,
        stated,
        "no [Stipulation] tag",
    )
    .map_err(|(line, _, m)| fail(line, m))?;
    let text = |name: &str| {
        game.tag(name)
            .map(|(v, _)| v.trim().to_string())
            .filter(|v| !v.is_empty() && v != "?")
    };
    // Several composers or keywords in one tag are separated by `;`.
    let list = |value: Option<String>| -> Vec<String> {
        value
            .map(|v| v.split(';').map(|a| a.trim().to_string()).collect())
            .unwrap_or_default()
    };
    let title = text("Event").filter(|t| {
        !t.strip_prefix("baroque puzzle ")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    Ok(ReadPuzzle {
        place: Place {
            number: Some(game.number),
            line: game.line,
        },
        puzzle: NewPuzzle {
            variant,
            fen: read.fen,
            claim: Claim::Mate(MateClaim {
                stipulation: read.stipulation,
                ..MateClaim::default()
            }),
            about: About {
                title,
                source: text("Site"),
                caption: text("Caption"),
                tags: text("Tags")
                    .map(|t| t.split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default(),
                fixture: None,
                history: History {
                    authors: list(text("Composer")),
                    published: text("Date").and_then(|d| read_date(&d)),
                    award: text("Award"),
                    keywords: list(text("Keywords")),
                    notes: text("Notes"),
                },
            },
        },
        line: read.played.line,
    })
}

/// Reads PGN text into puzzles to verify, each game read or refused on its own.
///
/// # Errors
/// Text that holds no game at all (empty, or only comments).
pub fn read(text: &str) -> Result<Vec<Result<ReadPuzzle, ReadError>>, ReadError> {
    let games = games(text);
    if games.is_empty() {
        return Err(ReadError {
            unit: "game",
            start: 1,
            place: Place {
                number: None,
                line: 1,
            },
            message: "the text holds no PGN game: a game is tag pairs such as [Variant \
                      \"Baroque\"] and [FEN \"...\"], then its moves"
                .into(),
        });
    }
    Ok(games
        .into_iter()
        .map(|g| g.and_then(|g| puzzle(&g)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAMELEON: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";

    fn moves(g: &Game) -> Vec<&str> {
        g.moves.iter().map(|(m, _)| m.as_str()).collect()
    }

    #[test]
    fn comments_variations_nags_and_numbers_are_skipped() {
        let text = "[Event \"a \\\"quoted\\\" title \\\\ here\"] [Site \"?\"]\n\
                    [Variant \"Baroque\"]\n\
                    % an escape line\n\
                    \n\
                    {A comment\nover lines} 1.Bg6xc6! $1 ; rest of line\n\
                    Kb7xc8 (1... Kb7-a8 {inner (not a paren} 2. Nc4-b6 (2. Bc6-c7)) 2. Nc4-g8#?! 1-0\n";
        let games = games(text);
        assert_eq!(games.len(), 1);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some(("a \"quoted\" title \\ here", 1)));
        assert_eq!(g.tag("Site"), Some(("?", 1)));
        assert_eq!(moves(g), ["Bg6xc6", "Kb7xc8", "Nc4-g8#"]);
        assert_eq!(g.moves[1].1, 7);
        assert_eq!(g.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn several_games_are_read_each_on_its_own() {
        let text = "[Event \"one\"]\n\n1. a 1-0\n\n[Event \"two\"\n1. b *\n\n\
                    [Event \"three\"]\n1... c (d\n\n[Event \"four\"]\nx )\n";
        let games = games(text);
        assert_eq!(games.len(), 4, "{games:?}");
        assert_eq!(moves(games[0].as_ref().unwrap()), ["a"]);
        let e = games[1].as_ref().unwrap_err();
        assert_eq!(
            e.place,
            Place {
                number: Some(2),
                line: 5
            }
        );
        assert!(e.message.contains("`]` must follow"), "{e}");
        let e = games[2].as_ref().unwrap_err();
        assert_eq!(
            e.place,
            Place {
                number: Some(3),
                line: 9
            }
        );
        assert!(e.message.contains("not closed"), "{e}");
        let e = games[3].as_ref().unwrap_err();
        assert_eq!(e.place.number, Some(4));
        assert!(e.message.contains("closes no variation"), "{e}");
        assert_eq!(e.to_string(), "game 4, line 12: `)` closes no variation");
    }

    #[test]
    fn bad_tags_and_text_that_is_not_pgn_are_errors_with_their_lines() {
        let g = games("[Event \"x\"]\n[ \"no name\"]\n1. a *");
        assert!(g[0]
            .as_ref()
            .unwrap_err()
            .message
            .contains("name is missing"));
        let g = games("[Event unquoted]\n");
        assert_eq!(g[0].as_ref().unwrap_err().place.line, 1);
        let g = games("[Event \"open\n1. a *");
        assert!(g[0].as_ref().unwrap_err().message.contains("not closed"));
        let g = games("hello world\n");
        let e = g[0].as_ref().unwrap_err();
        assert!(e.message.contains("not PGN"), "{e}");
        assert_eq!(e.place.line, 1);
        let g = games("[Event \"x\"]\n{ never closed\n");
        assert!(g[0]
            .as_ref()
            .unwrap_err()
            .message
            .contains("comment opened on line 2"));
        let g = games("[Event \"x\"]\n1. a } b *");
        assert!(g[0]
            .as_ref()
            .unwrap_err()
            .message
            .contains("`}` closes nothing"));
        let g = games("[A \"1\"]\n[A \"2\"]\n*");
        assert!(g[0].as_ref().unwrap_err().message.contains("given twice"));
        assert!(read("  \n% only an escape\n").is_err());
        assert!(games("").is_empty());
    }

    fn chameleon_game(extra: &str, movetext: &str) -> String {
        format!(
            "[Event \"Chameleon\"]\n[Site \"?\"]\n[Variant \"Baroque\"]\n[SetUp \"1\"]\n\
             [FEN \"{CHAMELEON}\"]\n{extra}\n{movetext}\n"
        )
    }

    #[test]
    fn a_game_gives_its_claim_and_main_line() {
        let text = chameleon_game("[Stipulation \"#2\"]", "1. Xg6-e6-c6 Kb7xc8 2. Nc4-g8 1-0");
        let read = read(&text).unwrap();
        let p = read[0].as_ref().unwrap();
        assert_eq!(p.line, ["Bg6xc6", "Kb7xc8", "Nc4-g8"]);
        assert_eq!(p.puzzle.about.title.as_deref(), Some("Chameleon"));
        assert_eq!(p.puzzle.about.source, None);
        let Claim::Mate(m) = &p.puzzle.claim else {
            panic!("a mate")
        };
        assert_eq!(m.stipulation, Stipulation::Mate(2));
        assert_eq!(
            m.keys, None,
            "the line is checked after the proof, not as every key"
        );
        // Without a stipulation, a line that ends in mate stands for #N.
        let read = super::read(&chameleon_game("", "1. Bg6xc6 Kb7xc8 2. Nc4-g8 *")).unwrap();
        let Claim::Mate(m) = &read[0].as_ref().unwrap().puzzle.claim else {
            panic!("a mate")
        };
        assert_eq!(m.stipulation, Stipulation::Mate(2));
    }

    #[test]
    fn unusable_games_name_what_is_wrong_and_where() {
        let cases = [
            (chameleon_game("", "1. Bg6xc6 *"), 5, "does not end in mate"),
            (
                chameleon_game("[Stipulation \"#2\"]", "1. Bg6xc6 Kb7xc8 2. Nc4-g7 *"),
                7,
                "move 3 is not a legal move: `Nc4-g7`",
            ),
            (chameleon_game("[Stipulation \"x2\"]", "*"), 6, "is not one"),
            (
                chameleon_game(
                    "[Stipulation \"#2\"]",
                    "1. Bg6xc6 Kb7xc8 2. Bc6-c7 Kc8-b8 *",
                ),
                7,
                "follows the mate",
            ),
            (
                chameleon_game("[Stipulation \"h#2\"]", "*"),
                5,
                "starts with black to move",
            ),
            (
                "[Variant \"Chess\"]\n[FEN \"8/8/8/8/8/8/8/8 w 0\"]\n*".to_string(),
                1,
                "not a game of this service",
            ),
            (
                "[Event \"e\"]\n[FEN \"k7/8/8/8/8/8/8/K7 w 0\"]\n*".to_string(),
                1,
                "[Variant] tag is missing",
            ),
            (
                "[Variant \"Baroque\"]\n*".to_string(),
                1,
                "[FEN] tag is missing",
            ),
            (
                "[Variant \"Baroque\"]\n[SetUp \"0\"]\n[FEN \"k7/8/8/8/8/8/8/K7 w 0\"]\n*"
                    .to_string(),
                2,
                "[SetUp \"0\"]",
            ),
            (
                "[Variant \"Rococo\"]\n[Rules \"abbott\"]\n[FEN \"k7/8/8/8/8/8/8/K7 w 0\"]\n*"
                    .to_string(),
                2,
                "does not apply to Rococo",
            ),
            (
                "[Variant \"Baroque\"]\n[Rules \"nonsense\"]\n[FEN \"k7/8/8/8/8/8/8/K7 w 0\"]\n*"
                    .to_string(),
                2,
                "[Rules \"nonsense\"]",
            ),
            (
                "[Variant \"Baroque\"]\n\n[FEN \"k7/8/8/8/8/8/8/K8 w 0\"]\n*".to_string(),
                3,
                "FEN",
            ),
        ];
        for (text, line, words) in cases {
            let read = read(&text).unwrap();
            let e = read[0].as_ref().unwrap_err();
            assert_eq!(
                e.place,
                Place {
                    number: Some(1),
                    line
                },
                "{e} in {text}"
            );
            assert!(e.message.contains(words), "{e} in {text}");
        }
    }

    #[test]
    fn tag_values_are_escaped() {
        assert_eq!(escape("a \"b\" \\ c\nd"), "a \\\"b\\\" \\\\ c d");
        let text = format!("[Event \"{}\"]\n*", escape("say \"hi\" \\o/"));
        let g = games(&text);
        assert_eq!(
            g[0].as_ref().unwrap().tag("Event"),
            Some(("say \"hi\" \\o/", 1))
        );
    }

    #[test]
    fn variations_are_numbered_in_their_place() {
        let s = |n: &str, alts: Vec<Vec<Step>>| Step {
            notation: n.into(),
            uci: String::new(),
            alternatives: alts,
        };
        let line = vec![
            s("K1", vec![vec![s("C1", vec![])]]),
            s("D1", vec![vec![s("D2", vec![]), s("R2", vec![])]]),
            s("R1", vec![]),
        ];
        let mut tokens = Vec::new();
        line_tokens(&mut tokens, &line, 0, true);
        assert_eq!(
            tokens.join(" "),
            "1. K1 (1. C1) 1... D1 (1... D2 2. R2) 2. R1"
        );
        let mut tokens = Vec::new();
        line_tokens(&mut tokens, &line, 0, false);
        assert_eq!(
            tokens.join(" "),
            "1... K1 (1... C1) 2. D1 (2. D2 R2) 2... R1"
        );
    }
}
