//! The listing's query, built once for both databases: only the filters a request has are in its
//! statement (every value bound, never written into the text), so that each set of filters is a
//! statement of its own and the database serves it from the index that fits it. And what a
//! puzzle is found by besides its columns: its features (the pieces it has, a piece on a square,
//! the words of its authors, keywords and award), each a row of `puzzle_features` indexed by
//! feature, and its stipulation's family and length.

use crate::schema::Dialect;
use crate::{After, Filter};
use baroque_puzzle::anticipation::Keys;
use baroque_puzzle::{History, Kind, VerifiedPuzzle};
use baroque_rules::{
    Color, GameKind, GameNotation, GameRules, Naming, Piece, Variant, VariantPosition,
};
use baroque_solver::Stipulation;

/// A value a listing binds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Int(i64),
    Real(f64),
    Text(String),
}

/// A text query of the full-text filter, read by [`TextQuery::parse`]: words, `"phrases"` and
/// `-word` (a word the puzzle must not have), at least one that it must have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextQuery {
    /// Each term: a word or a phrase (its words), and whether it is excluded.
    terms: Vec<(Vec<String>, bool)>,
}

/// The most terms of a text query.
pub const MAX_TEXT_TERMS: usize = 16;

impl TextQuery {
    /// Reads a query: words, `"phrases"` and `-word` or `-"phrase"`, separated by blanks; letters
    /// and digits make the words (anything else separates them), compared without case.
    ///
    /// # Errors
    /// A quote left open, no term that a puzzle must have, or more than [`MAX_TEXT_TERMS`].
    pub fn parse(text: &str) -> Result<TextQuery, String> {
        let mut terms = Vec::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            let (negated, body) = match rest.strip_prefix('-') {
                Some(b) => (true, b),
                None => (false, rest),
            };
            let (term, after) = match body.strip_prefix('"') {
                Some(quoted) => {
                    let end = quoted
                        .find('"')
                        .ok_or_else(|| "a quote is left open: close each \"phrase\"".to_string())?;
                    (&quoted[..end], &quoted[end + 1..])
                }
                None => {
                    let end = body.find(char::is_whitespace).unwrap_or(body.len());
                    (&body[..end], &body[end..])
                }
            };
            let words = words(term);
            if !words.is_empty() {
                terms.push((words, negated));
            }
            rest = after.trim_start();
        }
        if terms.len() > MAX_TEXT_TERMS {
            return Err(format!("at most {MAX_TEXT_TERMS} words or phrases"));
        }
        if !terms.iter().any(|(_, negated)| !negated) {
            return Err(
                "name a word or a phrase the puzzles must have (`-word` alone excludes \
                        from nothing)"
                    .into(),
            );
        }
        Ok(TextQuery { terms })
    }

    /// The query in SQLite FTS5's syntax: each term quoted, the excluded ones after `NOT`.
    fn fts5(&self) -> String {
        let quoted = |w: &[String]| format!("\"{}\"", w.join(" "));
        let mut out: Vec<String> = self
            .terms
            .iter()
            .filter(|(_, n)| !n)
            .map(|(w, _)| quoted(w))
            .collect();
        for (w, _) in self.terms.iter().filter(|(_, n)| *n) {
            out.push(format!("NOT {}", quoted(w)));
        }
        out.join(" ")
    }

    /// The query in PostgreSQL's `websearch_to_tsquery` syntax: every term quoted, so that no
    /// word (`or`) is read as an operator.
    fn websearch(&self) -> String {
        self.terms
            .iter()
            .map(|(w, n)| {
                let t = format!("\"{}\"", w.join(" "));
                if *n {
                    format!("-{t}")
                } else {
                    t
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The words of a text, lower case: runs of letters and digits.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The feature of a piece anywhere on the board: `baroque:p:immobilizer:w`.
pub fn piece_feature(game: GameKind, piece: Piece) -> String {
    let colour = if piece.color == Color::White {
        'w'
    } else {
        'b'
    };
    format!("{}:p:{:?}:{colour}", game.name(), piece.role).to_lowercase()
}

/// The feature of a piece on a square (standard coordinates): `baroque:at:b4:king:w`.
pub fn square_feature(game: GameKind, piece: Piece, square: &str) -> String {
    let colour = if piece.color == Color::White {
        'w'
    } else {
        'b'
    };
    format!("{}:at:{square}:{:?}:{colour}", game.name(), piece.role).to_lowercase()
}

/// The feature of a piece on the square named `square` in `game`'s standard coordinates, read
/// as the game reads squares; `None` when the game has no such square.
pub fn square_feature_named(game: GameKind, piece: Piece, square: &str) -> Option<String> {
    let start = Variant::of(game, None).ok()?.start();
    let sq = start.parse_square(square, Naming::default())?;
    Some(square_feature(
        game,
        piece,
        &start.square_name(sq, Naming::default()),
    ))
}

/// Whether a listing of `filter` from `after` is ordered by relevance to a text (its rows then
/// carry their relevance after the puzzle's columns).
pub(crate) fn orders_by_relevance(filter: &Filter, after: &After) -> bool {
    matches!(after, After::Relevance(_)) && filter.text.is_some()
}

/// The features of a history's words: `author:abbott`, `keyword:grimshaw`, `award:prize`.
pub(crate) fn history_features(h: &History) -> Vec<String> {
    let mut out = Vec::new();
    for a in &h.authors {
        out.extend(words(a).into_iter().map(|w| format!("author:{w}")));
    }
    for k in &h.keywords {
        out.extend(words(k).into_iter().map(|w| format!("keyword:{w}")));
    }
    if let Some(a) = &h.award {
        out.extend(words(a).into_iter().map(|w| format!("award:{w}")));
    }
    out.sort();
    out.dedup();
    out
}

/// What a puzzle is found by besides its columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchIndex {
    /// Anticipation's keys (a mate puzzle's).
    pub keys: Option<Keys>,
    /// The stipulation's family (`h#`) and length (`h#2.5`: 2.5).
    pub family: Option<String>,
    pub length: Option<f64>,
    /// The rows of `puzzle_features`.
    pub features: Vec<String>,
}

impl SearchIndex {
    /// The index of a puzzle of `kind` and `variant` at `fen` with this stipulation and
    /// history (a FEN that no longer reads gives the history's features alone).
    pub fn of(
        kind: Kind,
        variant: Variant,
        fen: &str,
        stipulation: Option<Stipulation>,
        history: &History,
    ) -> SearchIndex {
        let mut features = history_features(history);
        let pos = variant.read_fen(fen, Naming::default()).ok();
        if let Some(pos) = &pos {
            features.extend(position_features(pos));
        }
        features.sort();
        features.dedup();
        SearchIndex {
            keys: pos.filter(|_| kind == Kind::Mate).map(|p| Keys::of(&p)),
            family: stipulation.map(|s| s.family().to_string()),
            length: stipulation.map(|s| s.length()),
            features,
        }
    }

    /// The index of a verified puzzle.
    pub fn of_verified(p: &VerifiedPuzzle) -> SearchIndex {
        match p.variant() {
            Some(variant) => SearchIndex::of(p.kind, variant, &p.fen, p.stipulation, &p.history),
            None => SearchIndex::default(),
        }
    }
}

/// A position's features: each piece, and each piece on its square.
fn position_features(pos: &VariantPosition) -> Vec<String> {
    let game = pos.kind();
    let n = game.files();
    let mut out = Vec::new();
    for sq in 0..n * n {
        if let Some(p) = pos.piece_at(sq) {
            out.push(piece_feature(game, p));
            out.push(square_feature(
                game,
                p,
                &pos.square_name(sq, Naming::default()),
            ));
        }
    }
    out
}

/// The statement of a listing page in `dialect`: the puzzle columns `columns` of the puzzles
/// `filter` allows, after `after` in its order, at most `limit + 1` (one more tells whether more
/// follow); and the values it binds in the order of its placeholders.
pub(crate) fn list_sql(
    dialect: Dialect,
    filter: &Filter,
    after: &After,
    limit: u32,
    columns: &str,
) -> (String, Vec<Value>) {
    let mut q = Query {
        dialect,
        values: Vec::new(),
        conditions: Vec::new(),
    };
    let text = |s: &Option<String>| s.clone().map(Value::Text);
    q.test(
        "p.kind",
        "=",
        filter.kind.map(|k| Value::Text(k.name().into())),
    );
    q.test(
        "p.game",
        "=",
        filter.game.map(|g| Value::Text(g.name().into())),
    );
    q.test("p.preset", "=", text(&filter.preset));
    q.test(
        "p.mate_in",
        "=",
        filter.mate_in.map(|n| Value::Int(n.into())),
    );
    q.test("p.source", "=", text(&filter.source));
    q.test("p.stipulation", "=", text(&filter.stipulation));
    q.test("p.family", "=", text(&filter.family));
    let int = |d: Option<u8>| d.map(|d| Value::Int(d.into()));
    q.test("p.difficulty", ">=", int(filter.difficulty_min));
    q.test("p.difficulty", "<=", int(filter.difficulty_max));
    q.test("p.rating_value", ">=", filter.rating_min.map(Value::Real));
    q.test("p.rating_value", "<=", filter.rating_max.map(Value::Real));
    q.test("p.length", ">=", filter.moves_min.map(Value::Real));
    q.test("p.length", "<=", filter.moves_max.map(Value::Real));
    // Years as the texts they start: `1999` and `1999-06-21` are both at or above `1999`, and
    // at or below `1999-12-31`.
    let year_min = filter.year_min.map(|y| Value::Text(format!("{y:04}")));
    let year_max = filter
        .year_max
        .map(|y| Value::Text(format!("{y:04}-12-31")));
    q.test("p.published", ">=", year_min);
    q.test("p.published", "<=", year_max);
    if let Some(tag) = &filter.tag {
        let tag = q.bind(Value::Text(tag.clone()));
        q.conditions.push(format!(
            "EXISTS (SELECT 1 FROM puzzle_tags t WHERE t.puzzle_id = p.id AND t.tag = {tag})"
        ));
    }
    // Each feature wanted: one of its spellings (a piece letter may mean a piece of either game).
    for any_of in &filter.features {
        let list: Vec<String> = any_of
            .iter()
            .map(|f| q.bind(Value::Text(f.clone())))
            .collect();
        q.conditions.push(format!(
            "p.id IN (SELECT f.puzzle_id FROM puzzle_features f WHERE f.feature IN ({}))",
            list.join(", ")
        ));
    }
    // The full text: a join with the text index when the order is its relevance, else a test.
    let mut from = "puzzles p".to_string();
    let relevance = orders_by_relevance(filter, after);
    if let Some(text) = &filter.text {
        match (dialect, relevance) {
            (Dialect::Sqlite, true) => {
                let m = q.bind(Value::Text(text.fts5()));
                from = format!(
                    "puzzles p JOIN (SELECT rowid AS id, bm25(puzzle_text) AS relevance \
                     FROM puzzle_text WHERE puzzle_text MATCH {m}) t ON t.id = p.id"
                );
            }
            (Dialect::Sqlite, false) => {
                let m = q.bind(Value::Text(text.fts5()));
                q.conditions.push(format!(
                    "p.id IN (SELECT rowid FROM puzzle_text WHERE puzzle_text MATCH {m})"
                ));
            }
            (Dialect::Postgres, true) => {
                let m = q.bind(Value::Text(text.websearch()));
                from = format!(
                    "puzzles p CROSS JOIN websearch_to_tsquery('simple', {m}) tq \
                     CROSS JOIN LATERAL (SELECT -ts_rank(p.search_text, tq)::double precision \
                     AS relevance) t"
                );
                q.conditions.push("p.search_text @@ tq".into());
            }
            (Dialect::Postgres, false) => {
                let m = q.bind(Value::Text(text.websearch()));
                q.conditions.push(format!(
                    "p.search_text @@ websearch_to_tsquery('simple', {m})"
                ));
            }
        }
    }
    // The order, and where the page starts in it.
    let order = match after {
        After::Id(id) => {
            q.test("p.id", ">", Some(Value::Int(*id)));
            "p.id".to_string()
        }
        After::Difficulty(from) => {
            let from = from.map(|(d, id)| (Value::Int(d.into()), id));
            q.keyed("p.difficulty", from)
        }
        After::Rating(from) => q.keyed("p.rating_value", from.map(|(r, id)| (Value::Real(r), id))),
        After::Published(from) => q.keyed(
            "p.published",
            from.clone().map(|(d, id)| (Value::Text(d), id)),
        ),
        After::Relevance(from) if relevance => {
            q.keyed("t.relevance", from.map(|(r, id)| (Value::Real(r), id)))
        }
        After::Relevance(_) => "p.id".to_string(),
    };
    let limit = q.bind(Value::Int(i64::from(limit) + 1));
    let select = match relevance {
        true => format!("{columns}, t.relevance"),
        false => columns.to_string(),
    };
    let filters = match q.conditions.is_empty() {
        true => "TRUE".to_string(),
        false => q.conditions.join(" AND "),
    };
    (
        format!("SELECT {select} FROM {from} WHERE {filters} ORDER BY {order} LIMIT {limit}"),
        q.values,
    )
}

/// A statement being built: its conditions and the values they bind.
struct Query {
    dialect: Dialect,
    values: Vec<Value>,
    conditions: Vec<String>,
}

impl Query {
    /// The placeholder of a new value.
    fn bind(&mut self, v: Value) -> String {
        self.values.push(v);
        match self.dialect {
            Dialect::Sqlite => format!("?{}", self.values.len()),
            Dialect::Postgres => format!("${}", self.values.len()),
        }
    }

    /// `expr op value`, when there is a value.
    fn test(&mut self, expr: &str, op: &str, v: Option<Value>) {
        if let Some(v) = v {
            let p = self.bind(v);
            self.conditions.push(format!("{expr} {op} {p}"));
        }
    }

    /// The order by `expr` then id, rows without `expr` left out, after `from` (a value and an
    /// id) when given; the `ORDER BY` list.
    fn keyed(&mut self, expr: &str, from: Option<(Value, i64)>) -> String {
        self.conditions.push(format!("{expr} IS NOT NULL"));
        if let Some((v, id)) = from {
            let (v, id) = (self.bind(v), self.bind(Value::Int(id)));
            self.conditions
                .push(format!("({expr} > {v} OR ({expr} = {v} AND p.id > {id}))"));
        }
        format!("{expr}, p.id")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_queries_read_words_phrases_and_exclusions() {
        let q = TextQuery::parse(r#"Grimshaw "white king" -Novotny"#).unwrap();
        assert_eq!(q.fts5(), r#""grimshaw" "white king" NOT "novotny""#);
        assert_eq!(q.websearch(), r#""grimshaw" "white king" -"novotny""#);
        assert!(TextQuery::parse("-alone").is_err());
        assert!(TextQuery::parse("\"open").is_err());
        assert!(TextQuery::parse("   ").is_err());
        // Punctuation separates words and cannot reach the query's syntax.
        let q = TextQuery::parse(r#"a*b OR(c) NEAR"#).unwrap();
        assert_eq!(q.fts5(), r#""a b" "or c" "near""#);
    }

    #[test]
    fn only_the_filters_given_are_in_the_statement() {
        let filter = Filter {
            family: Some("h#".into()),
            moves_min: Some(2.0),
            ..Filter::default()
        };
        let (sql, values) = list_sql(Dialect::Postgres, &filter, &After::Id(0), 10, "p.id");
        assert_eq!(
            sql,
            "SELECT p.id FROM puzzles p WHERE p.family = $1 AND p.length >= $2 AND p.id > $3 \
             ORDER BY p.id LIMIT $4"
        );
        assert_eq!(values.len(), 4);
    }
}
