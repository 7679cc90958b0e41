//! `baroque-store`: the puzzle store. One interface ([`Backend`]) with two implementations, chosen
//! by the database location ([`Database`]): SQLite (embedded, one file, the default; [`sqlite`])
//! and PostgreSQL (one server shared by several replicas of the service; [`postgres`]).
//!
//! Either applies its versioned migrations at open (the same numbered steps, one SQL dialect
//! each), keeps the content hash unique (the same puzzle stored twice, even by two replicas at
//! once, is one row), makes an acknowledged write durable, pages by cursor, and tells a fault of
//! the environment (a full disk, a server gone away) from a bug ([`StoreError::unavailable`]).
//!
//! It persists and reads typed puzzles ([`baroque_puzzle::StoredPuzzle`]), nothing more: what to
//! store is decided above it ([`baroque_puzzle::verify()`] confirms every puzzle; the use cases of
//! the application layer store them). A row that does not read back is [`StoreError::Corrupt`].
//! Every call blocks: the HTTP handlers run them on the blocking pool. It depends on no web or
//! command-line crate.
//!
//! ```
//! use baroque_puzzle::{verify, About, Claim, MateClaim, NewPuzzle};
//! use baroque_solver::{SolveOptions, Stipulation};
//! use baroque_store::Store;
//!
//! let dir = tempfile::tempdir()?;
//! let store = Store::open(&dir.path().join("puzzles.db"))?;
//! // The Chameleon mate in 2 of the Wikipedia article, verified, stored once and read back.
//! let puzzle = NewPuzzle {
//!     variant: Default::default(),
//!     fen: "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0".into(),
//!     claim: Claim::Mate(MateClaim { stipulation: Stipulation::Mate(2), ..Default::default() }),
//!     about: About::default(),
//! };
//! let verified = verify(puzzle, &SolveOptions::default()).unwrap();
//! let (stored, new) = store.insert(&verified)?;
//! assert!(new);
//! assert_eq!(store.insert(&verified)?.1, false); // the same content is one row
//! let read = store.get(stored.id)?.expect("stored");
//! assert_eq!(read.stipulation, Some(Stipulation::Mate(2)));
//! assert_eq!(read.outcome, stored.outcome);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod collections;
pub mod database;
pub mod jobs;
pub mod postgres;
mod postgres_pool;
mod schema;
pub mod search;
pub mod sqlite;
pub mod tls;

use baroque_puzzle::outcome::PuzzleOutcome;
use baroque_puzzle::rating::{Attempted, PuzzleRating, Rating};
use baroque_puzzle::{History, HistoryPatch};
pub use baroque_puzzle::{Kind, VerifiedPuzzle};
use baroque_rules::GameKind;
use baroque_rules::Variant;
use baroque_solver::Stipulation;
use collections::{Collection, NewCollection};
pub use database::Database;
use jobs::JobRow;
pub use jobs::{JobEnd, NewJob, ShardCounts, ShardRow};
pub use sqlite::{BUSY_TIMEOUT, POOL_SIZE};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// A JSON document the store keeps for the application layer without reading it: a job's request
/// and view, a collection's summary. It is checked to be JSON when written and read, nothing more:
/// the application layer owns its shape, and rows written by earlier releases keep theirs.
pub type Json = serde_json::value::RawValue;

/// What the readiness probe found of the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Readiness {
    /// `sqlite` or `postgres`.
    pub backend: &'static str,
    /// The TLS of the connection that answered, on PostgreSQL.
    pub tls: Option<TlsState>,
}

/// The TLS of a PostgreSQL connection, as the server's `pg_stat_ssl` sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsState {
    /// The URL's `sslmode`.
    pub sslmode: tls::SslMode,
    /// Whether the connection is encrypted.
    pub active: bool,
    /// The protocol version (`TLSv1.3`), when encrypted.
    pub version: Option<String>,
    /// The cipher suite, when encrypted.
    pub cipher: Option<String>,
}

/// A page of a collection's puzzles in order, each with its position in the collection.
pub type Entries = Vec<(i64, StoredPuzzle)>;

/// What the store's operations return: a value or a [`StoreError`].
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// A store error: the pool, SQLite, PostgreSQL or a migration. Callers log it and answer 500, or
/// 503 when [`StoreError::unavailable`] says the environment is at fault.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the database pool: {0}")]
    Pool(#[from] r2d2::Error),
    #[error("SQLite: {0}")]
    Sql(#[from] rusqlite::Error),
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] ::postgres::Error),
    #[error("migrating the database: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("a stored row is unreadable: {0}")]
    Corrupt(String),
    /// The store cannot be opened; the message says why and what to check.
    #[error("{0}")]
    Open(String),
    /// A search needed longer than its budget: its filters are too broad for the indexes.
    #[error("the search needed more than its budget of {millis} ms in the database")]
    Budget { millis: u64 },
}

impl StoreError {
    /// When the error is a fault of the environment rather than of the code or the data, what it
    /// is, in words: the disk is full, the file or its directory is read-only, another process
    /// holds the lock past the busy timeout, an I/O error, or no pooled connection came in time.
    /// The service answers these with 503 and keeps running.
    pub fn unavailable(&self) -> Option<&'static str> {
        use rusqlite::ErrorCode as C;
        let code = match self {
            StoreError::Pool(_) => return Some("no database connection came free in time"),
            StoreError::Open(_) => return Some("the database cannot be opened"),
            StoreError::Postgres(e) => return postgres::unavailable(e),
            StoreError::Sql(e) => e.sqlite_error_code(),
            StoreError::Migration(rusqlite_migration::Error::RusqliteError { err, .. }) => {
                err.sqlite_error_code()
            }
            StoreError::Migration(_) | StoreError::Corrupt(_) | StoreError::Budget { .. } => None,
        };
        Some(match code? {
            C::DiskFull => "the disk is full",
            C::SystemIoFailure => "the disk refused a write (is it full?)",
            C::ReadOnly => "the database file is read-only",
            C::DatabaseBusy | C::DatabaseLocked => "another process holds the database locked",
            C::CannotOpen => "the database file cannot be opened",
            C::OutOfMemory => "the server is out of memory",
            _ => return None,
        })
    }
}

pub use baroque_puzzle::StoredPuzzle;

/// Filters of a listing; `None` matches everything.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub kind: Option<Kind>,
    pub game: Option<GameKind>,
    /// A preset name: puzzles under that preset, with any options.
    pub preset: Option<String>,
    pub mate_in: Option<u32>,
    /// A stipulation, as [`baroque_solver::Stipulation`] prints it.
    pub stipulation: Option<String>,
    pub tag: Option<String>,
    pub source: Option<String>,
    /// Puzzles of at least this difficulty (which have one: not diagrams).
    pub difficulty_min: Option<u8>,
    /// Puzzles of at most this difficulty (which have one: not diagrams).
    pub difficulty_max: Option<u8>,
    /// Puzzles rated at least this (mate puzzles: diagrams have no rating).
    pub rating_min: Option<f64>,
    /// Puzzles rated at most this.
    pub rating_max: Option<f64>,
    /// Mate puzzles of this family of stipulations (`h#`; see
    /// [`baroque_solver::Stipulation::family`]).
    pub family: Option<String>,
    /// Mate puzzles at least this long (`h#2.5` is 2.5 long).
    pub moves_min: Option<f64>,
    /// Mate puzzles at most this long.
    pub moves_max: Option<f64>,
    /// Puzzles published in this year or later.
    pub year_min: Option<u32>,
    /// Puzzles published in this year or earlier.
    pub year_max: Option<u32>,
    /// Features each puzzle has (one of each inner list's; see [`search`]): pieces, pieces on
    /// squares, words of the authors, keywords and award.
    pub features: Vec<Vec<String>>,
    /// Words and phrases of the full text (title, caption, authors, source, award, keywords,
    /// notes).
    pub text: Option<search::TextQuery>,
    /// Read each puzzle without its outcome (as null): a listing, which shows none, reads and
    /// parses no proof.
    pub lean: bool,
}

/// What the next puzzle for a player may be: a mate puzzle of these (each absent: any).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NextFilter {
    pub game: Option<GameKind>,
    /// A stipulation (`h#2`), or a family of them (`h#`: every `h#N`).
    pub stipulation: Option<String>,
    /// A tag (a theme).
    pub tag: Option<String>,
    /// A collection's name.
    pub collection: Option<String>,
    /// Ids never to give.
    pub exclude: Vec<i64>,
}

/// A value a query of [`near_sql`] binds, in the order of its placeholders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bind {
    Rating,
    Game,
    Stipulation,
    Tag,
    Collection,
    Limit,
    Exclude,
}

/// The query of the puzzles nearest a rating on one side of it (`above`: at or above, by
/// increasing rating; else below, by decreasing rating), in a dialect, with the values it binds
/// in the order of its placeholders (`placeholder(n)` names the n-th, from 1; `exclude` is the
/// dialect's test that `p.id` is not among the ids its placeholder holds). Only the filters
/// `filter` has are in the query, so that each set of filters is its own statement and the
/// database walks the index that serves it (the game's or the stipulation's rows by rating)
/// rather than one plan for every set. The stipulation is an exact one.
pub(crate) fn near_sql(
    above: bool,
    walk: NearWalk,
    filter: &NextFilter,
    placeholder: impl Fn(usize) -> String,
    exclude: impl Fn(&str) -> String,
    columns: &str,
) -> (String, Vec<Bind>) {
    let mut binds = Vec::new();
    let mut next = |b: Bind| {
        binds.push(b);
        placeholder(binds.len())
    };
    let (side, order) = if above { (">=", "ASC") } else { ("<", "DESC") };
    // Ties by increasing id on both sides, as the nearest are chosen ([`nearest`]); the databases
    // walk the index by rating and sort each run of equal ratings alone.
    let order_by = format!("ORDER BY p.rating_value {order}, p.id");
    let mut rows = format!("p.rating_value {side} {}", next(Bind::Rating));
    if filter.game.is_some() {
        rows.push_str(&format!(" AND p.game = {}", next(Bind::Game)));
    }
    if filter.stipulation.is_some() {
        rows.push_str(&format!(" AND p.stipulation = {}", next(Bind::Stipulation)));
    }
    // A theme or a collection: a test of each row the walk reads, or (`NearWalk::Set`) the set of
    // its rows that the walk starts from.
    let mut tests = String::new();
    if filter.tag.is_some() {
        let tag = next(Bind::Tag);
        tests.push_str(&match walk {
            NearWalk::Set => format!(
                " AND p.id IN (SELECT t.puzzle_id FROM puzzle_tags t WHERE t.tag = {tag})"
            ),
            _ => format!(
                " AND EXISTS (SELECT 1 FROM puzzle_tags t WHERE t.puzzle_id = p.id AND t.tag = {tag})"
            ),
        });
    }
    if filter.collection.is_some() {
        let collection = next(Bind::Collection);
        tests.push_str(&match walk {
            NearWalk::Set => format!(
                " AND p.id IN (SELECT cp.puzzle_id FROM collection_puzzles cp \
                 WHERE cp.collection = {collection})"
            ),
            _ => format!(
                " AND EXISTS (SELECT 1 FROM collection_puzzles cp WHERE cp.puzzle_id = p.id \
                 AND cp.collection = {collection})"
            ),
        });
    }
    if !filter.exclude.is_empty() {
        tests.push_str(&format!(" AND {}", exclude(&next(Bind::Exclude))));
    }
    let limit = next(Bind::Limit);
    let sql = match walk {
        // The window streams in the walk's order, so that the outer query stops at its limit.
        NearWalk::Window(rows_read) => format!(
            "SELECT {columns} FROM (SELECT * FROM puzzles p WHERE p.kind = 'mate' AND {rows} \
             {order_by} LIMIT {rows_read}) p WHERE TRUE{tests} {order_by} LIMIT {limit}"
        ),
        NearWalk::Index | NearWalk::Set => format!(
            "SELECT {columns} FROM puzzles p WHERE p.kind = 'mate' AND {rows}{tests} \
             {order_by} LIMIT {limit}"
        ),
    };
    (sql, binds)
}

/// How a walk near a rating reads the puzzles ([`PuzzleStore::near_walk`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NearWalk {
    /// Along the rating index (the game's or the stipulation's when the filter has one), testing
    /// each row until enough pass.
    Index,
    /// The same, reading at most this many rows: enough when the filter's theme or collection is
    /// common, a bounded cost when it is not.
    Window(u32),
    /// From the rows of the filter's theme or collection, sorted by rating: for a theme or a
    /// collection few puzzles have.
    Set,
}

/// The rows a walk near a rating reads before a theme's or a collection's own rows are read
/// instead ([`NearWalk::Window`]).
pub const NEAR_WINDOW: u32 = 400;

/// A theme or a collection of fewer puzzles than this is read from its own rows, sorted by
/// rating ([`NearWalk::Set`]), without a walk of the rating index first.
pub const NEAR_SET: u32 = 1_000;

/// The queries of [`PuzzleStore::set_size`]: the rows of a theme, and of a collection, counted up
/// to a cap (one placeholder each for the name and the cap, named by `placeholder`).
pub(crate) fn set_size_sql(placeholder: impl Fn(usize) -> String) -> [String; 2] {
    let (name, cap) = (placeholder(1), placeholder(2));
    [
        format!(
            "SELECT count(*) FROM (SELECT 1 FROM puzzle_tags WHERE tag = {name} LIMIT {cap}) s"
        ),
        format!(
            "SELECT count(*) FROM (SELECT 1 FROM collection_puzzles WHERE collection = {name} \
             LIMIT {cap}) s"
        ),
    ]
}

/// The distinct stipulations of the stored puzzles, read by one probe of the stipulation index
/// each (a loose index scan: a store holds few distinct stipulations however many puzzles).
pub(crate) const STIPULATIONS_SQL: &str = "WITH RECURSIVE s(v) AS (
        SELECT min(stipulation) FROM puzzles WHERE stipulation IS NOT NULL
        UNION ALL
        SELECT (SELECT min(stipulation) FROM puzzles WHERE stipulation > s.v)
        FROM s WHERE s.v IS NOT NULL)
    SELECT v FROM s WHERE v IS NOT NULL";

/// Whether stipulation `s` is of `family` (`h#` holds `h#2` and `h#2.5`, not `hs#2`).
fn of_family(s: &str, family: &str) -> bool {
    s.strip_prefix(family)
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Whether a stipulation filter names a family (`h#`) rather than one stipulation (`h#2`).
fn is_family(stipulation: &str) -> bool {
    !stipulation.ends_with(|c: char| c.is_ascii_digit())
}

/// The nearest of two lists of puzzles on either side of `rating` (each nearest first): at most
/// `count`, nearest first.
pub(crate) fn nearest(
    rating: f64,
    above: Vec<StoredPuzzle>,
    below: Vec<StoredPuzzle>,
    count: usize,
) -> Vec<StoredPuzzle> {
    let distance = |p: &StoredPuzzle| {
        p.rating
            .map_or(f64::INFINITY, |r| (r.rating.value - rating).abs())
    };
    let mut all: Vec<StoredPuzzle> = above.into_iter().chain(below).collect();
    all.sort_by(|a, b| distance(a).total_cmp(&distance(b)).then(a.id.cmp(&b.id)));
    // The two walks are two statements: an attempt between them may move a puzzle across the
    // rating, and it is then found twice.
    let mut seen = std::collections::HashSet::new();
    all.retain(|p| seen.insert(p.id));
    all.truncate(count);
    all
}

/// Where a page of a listing starts, and its order.
#[derive(Clone, Debug, PartialEq)]
pub enum After {
    /// By increasing id, after this id (0: from the first).
    Id(i64),
    /// By increasing difficulty then id, after this difficulty and id (`None`: from the first);
    /// puzzles without a difficulty (diagrams) are left out.
    Difficulty(Option<(u8, i64)>),
    /// By increasing rating then id, after this rating and id (`None`: from the first); puzzles
    /// without a rating (diagrams) are left out.
    Rating(Option<(f64, i64)>),
    /// By publication date then id, after this date and id (`None`: from the first); puzzles
    /// without one are left out.
    Published(Option<(String, i64)>),
    /// By relevance to the filter's text (the best first) then id, after this relevance and id
    /// (`None`: from the first); without a text, by id.
    Relevance(Option<(f64, i64)>),
}

fn json_text<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".into())
}

/// The `rules` and `preset` columns of a puzzle of `game`: its rule set and preset, or the game's
/// name for a game that has one rule set.
pub fn rules_columns(game: GameKind, rules: &baroque_rules::Rules) -> (String, &'static str) {
    let preset = match baroque_rules::Variant::has_rule_sets(game) {
        true => rules.preset.name(),
        false => game.name(),
    };
    (baroque_puzzle::rules_text(game, rules), preset)
}

pub(crate) fn game_name(g: GameKind) -> &'static str {
    g.name()
}

/// A value of an inserted column, typed for both backends (each binds it as its own parameter).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SqlValue {
    Text(String),
    OptText(Option<String>),
    OptInt(Option<i64>),
    OptReal(Option<f64>),
}

/// The columns a new puzzle is inserted with and their values: the one list both backends render
/// ([`insert_sql`]) and bind. `created_at` is the database's clock; `id` and `revision` are the
/// database's.
pub(crate) fn insert_row(
    p: &VerifiedPuzzle,
    index: &search::SearchIndex,
) -> [(&'static str, SqlValue); 27] {
    use SqlValue::{OptInt, OptReal, OptText, Text};
    let (rules, preset) = rules_columns(p.game, &p.rules);
    // A mate puzzle's first rating, from its difficulty; none for a diagram.
    let rating = (p.kind == Kind::Mate).then(|| Rating::of_difficulty(p.difficulty));
    [
        ("kind", Text(p.kind.name().into())),
        ("game", Text(game_name(p.game).into())),
        ("fen", Text(p.fen.clone())),
        ("rules", Text(rules)),
        ("preset", Text(preset.into())),
        ("moves", Text(json_text(&p.moves))),
        ("captures", Text(json_text(&p.captures))),
        ("mate_in", OptInt(p.mate_in.map(i64::from))),
        ("outcome", Text(p.outcome.to_json())),
        ("title", OptText(p.title.clone())),
        ("source", OptText(p.source.clone())),
        ("caption", OptText(p.caption.clone())),
        ("fixture", OptText(p.fixture.clone())),
        ("content_hash", Text(p.content_hash.clone())),
        ("stipulation", OptText(p.stipulation.map(|s| s.to_string()))),
        ("difficulty", OptInt(p.difficulty.map(i64::from))),
        ("rating_value", OptReal(rating.map(|r| r.value))),
        ("rating_deviation", OptReal(rating.map(|r| r.deviation))),
        ("rating_volatility", OptReal(rating.map(|r| r.volatility))),
        ("authors", OptText(json_list(&p.history.authors))),
        ("published", OptText(p.history.published.clone())),
        ("award", OptText(p.history.award.clone())),
        ("keywords", OptText(json_list(&p.history.keywords))),
        ("notes", OptText(p.history.notes.clone())),
        (
            "position_key",
            OptInt(index.keys.as_ref().map(|k| k.position)),
        ),
        ("family", OptText(index.family.clone())),
        ("length", OptReal(index.length)),
    ]
}

/// A list as the store keeps it: a JSON array, or null when empty.
pub(crate) fn json_list(items: &[String]) -> Option<String> {
    (!items.is_empty()).then(|| json_text(&items))
}

/// What a change of a puzzle's difficulty does to its rating (SQL, after `SET`): while no
/// attempt is counted, a mate puzzle's rating is the one its difficulty gives
/// ([`Rating::of_difficulty`]), its deviation and volatility filled if a row written by an older
/// build left them empty; the new difficulty is the parameter `difficulty`.
pub(crate) fn rating_follows_difficulty(difficulty: &str) -> String {
    let (base, per, unknown) = (
        Rating::FIRST_BASE,
        Rating::FIRST_PER_DIFFICULTY,
        Rating::FIRST_UNKNOWN_DIFFICULTY,
    );
    let new = Rating::NEW_PLAYER;
    format!(
        "rating_value = CASE WHEN kind = 'mate' AND rating_attempts = 0 \
             THEN {base} + {per} * COALESCE({difficulty}, {unknown}) ELSE rating_value END, \
         rating_deviation = CASE WHEN kind = 'mate' \
             THEN COALESCE(rating_deviation, {}) ELSE rating_deviation END, \
         rating_volatility = CASE WHEN kind = 'mate' \
             THEN COALESCE(rating_volatility, {}) ELSE rating_volatility END",
        new.deviation, new.volatility
    )
}

/// The insert of a puzzle row in a dialect: `placeholder(i)` names the `i`th parameter (from 1),
/// `now` is the dialect's clock for `created_at`; a puzzle whose content hash is stored already
/// is left alone.
pub(crate) fn insert_sql(
    row: &[(&'static str, SqlValue)],
    placeholder: impl Fn(usize) -> String,
    now: &str,
) -> String {
    let names: Vec<&str> = row.iter().map(|(name, _)| *name).collect();
    let values: Vec<String> = (1..=row.len()).map(placeholder).collect();
    format!(
        "INSERT INTO puzzles ({}, created_at) VALUES ({}, {now}) \
         ON CONFLICT (content_hash) DO NOTHING",
        names.join(", "),
        values.join(", ")
    )
}

/// The columns a puzzle is read from, in the order of a row: the one list both backends render
/// (`puzzle_columns`) and [`decode`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Col {
    Id,
    Kind,
    Game,
    Fen,
    Rules,
    Moves,
    Captures,
    MateIn,
    Outcome,
    Title,
    Source,
    Caption,
    Fixture,
    CreatedAt,
    ContentHash,
    /// Not a column: the puzzle's tags as one JSON array, read by the dialect's subquery.
    Tags,
    Stipulation,
    Difficulty,
    Revision,
    RatingValue,
    RatingDeviation,
    RatingVolatility,
    RatingAttempts,
    Authors,
    Published,
    Award,
    Keywords,
    Notes,
}

impl Col {
    const ALL: [Col; 28] = [
        Col::Id,
        Col::Kind,
        Col::Game,
        Col::Fen,
        Col::Rules,
        Col::Moves,
        Col::Captures,
        Col::MateIn,
        Col::Outcome,
        Col::Title,
        Col::Source,
        Col::Caption,
        Col::Fixture,
        Col::CreatedAt,
        Col::ContentHash,
        Col::Tags,
        Col::Stipulation,
        Col::Difficulty,
        Col::Revision,
        Col::RatingValue,
        Col::RatingDeviation,
        Col::RatingVolatility,
        Col::RatingAttempts,
        Col::Authors,
        Col::Published,
        Col::Award,
        Col::Keywords,
        Col::Notes,
    ];

    /// The column of table `puzzles` (`None` for the tags, which are a table of their own).
    fn name(self) -> Option<&'static str> {
        Some(match self {
            Col::Id => "id",
            Col::Kind => "kind",
            Col::Game => "game",
            Col::Fen => "fen",
            Col::Rules => "rules",
            Col::Moves => "moves",
            Col::Captures => "captures",
            Col::MateIn => "mate_in",
            Col::Outcome => "outcome",
            Col::Title => "title",
            Col::Source => "source",
            Col::Caption => "caption",
            Col::Fixture => "fixture",
            Col::CreatedAt => "created_at",
            Col::ContentHash => "content_hash",
            Col::Tags => return None,
            Col::Stipulation => "stipulation",
            Col::Difficulty => "difficulty",
            Col::Revision => "revision",
            Col::RatingValue => "rating_value",
            Col::RatingDeviation => "rating_deviation",
            Col::RatingVolatility => "rating_volatility",
            Col::RatingAttempts => "rating_attempts",
            Col::Authors => "authors",
            Col::Published => "published",
            Col::Award => "award",
            Col::Keywords => "keywords",
            Col::Notes => "notes",
        })
    }

    /// Its index in a row.
    const fn at(self) -> usize {
        self as usize
    }
}

/// The select list of a puzzle row (table `p`) in a backend's dialect: `tags` is its subquery
/// giving the puzzle's tags as one JSON array.
pub(crate) fn puzzle_columns(tags: &str) -> String {
    Col::ALL
        .iter()
        .map(|c| match c.name() {
            Some(name) => format!("p.{name}"),
            None => tags.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A backend's puzzle columns (whose outcome is `p.outcome`), the outcome read as null unless
/// `outcomes`: a listing reads and parses no proof.
pub(crate) fn columns(all: &'static str, outcomes: bool) -> std::borrow::Cow<'static, str> {
    if outcomes {
        all.into()
    } else {
        all.replacen("p.outcome", "'null'", 1).into()
    }
}

/// The index of the column that follows a puzzle's columns in a collection page: its position.
pub(crate) const POSITION_COLUMN: usize = Col::ALL.len();

/// A row as either backend reads it, by column index: the store's columns are text and integers
/// (JSON is stored as text), so one reader of each row serves both.
pub(crate) trait Columns {
    fn text(&self, i: usize) -> Result<String>;
    fn opt_text(&self, i: usize) -> Result<Option<String>>;
    fn int(&self, i: usize) -> Result<i64>;
    fn opt_int(&self, i: usize) -> Result<Option<i64>>;
    fn opt_real(&self, i: usize) -> Result<Option<f64>>;
}

/// A puzzle from a row of the backend's puzzle columns ([`Col`]).
pub(crate) fn decode(r: &impl Columns) -> Result<StoredPuzzle> {
    let id = r.int(Col::Id.at())?;
    let corrupt = |what: &str| StoreError::Corrupt(format!("puzzle {id}: {what}"));
    let kind = Kind::parse(&r.text(Col::Kind.at())?).ok_or_else(|| corrupt("kind"))?;
    let game = GameKind::parse(&r.text(Col::Game.at())?).ok_or_else(|| corrupt("game"))?;
    let rules = match Variant::has_rule_sets(game) {
        true => Some(
            r.text(Col::Rules.at())?
                .parse()
                .map_err(|_| corrupt("rules"))?,
        ),
        false => None,
    };
    let variant = Variant::of(game, rules).map_err(|e| corrupt(&e))?;
    let mate_in = r
        .opt_int(Col::MateIn.at())?
        .map(|n| u32::try_from(n).map_err(|_| corrupt("mate_in")))
        .transpose()?;
    // A mate row stored before stipulations is a direct mate in its N.
    let stipulation = match r.opt_text(Col::Stipulation.at())? {
        Some(s) => Some(Stipulation::parse(&s).ok_or_else(|| corrupt("stipulation"))?),
        None if kind == Kind::Mate => mate_in.map(Stipulation::Mate),
        None => None,
    };
    let outcome = match r.text(Col::Outcome.at())?.as_str() {
        "null" => None,
        text => Some(PuzzleOutcome::read(stipulation, text).map_err(|e| corrupt(&e.to_string()))?),
    };
    let difficulty = r
        .opt_int(Col::Difficulty.at())?
        .map(|d| u8::try_from(d).map_err(|_| corrupt("difficulty")))
        .transpose()?;
    Ok(StoredPuzzle {
        id,
        kind,
        variant,
        fen: r.text(Col::Fen.at())?,
        moves: serde_json::from_str(&r.text(Col::Moves.at())?).map_err(|_| corrupt("moves"))?,
        captures: serde_json::from_str(&r.text(Col::Captures.at())?)
            .map_err(|_| corrupt("captures"))?,
        mate_in,
        stipulation,
        outcome,
        difficulty,
        title: r.opt_text(Col::Title.at())?,
        source: r.opt_text(Col::Source.at())?,
        caption: r.opt_text(Col::Caption.at())?,
        fixture: r.opt_text(Col::Fixture.at())?,
        created_at: r.text(Col::CreatedAt.at())?,
        content_hash: r.text(Col::ContentHash.at())?,
        tags: serde_json::from_str(&r.text(Col::Tags.at())?).map_err(|_| corrupt("tags"))?,
        revision: r.int(Col::Revision.at())?,
        rating: rating_of(r, kind, difficulty, &corrupt)?,
        history: History {
            authors: list_of(r.opt_text(Col::Authors.at())?).ok_or_else(|| corrupt("authors"))?,
            published: r.opt_text(Col::Published.at())?,
            award: r.opt_text(Col::Award.at())?,
            keywords: list_of(r.opt_text(Col::Keywords.at())?)
                .ok_or_else(|| corrupt("keywords"))?,
            notes: r.opt_text(Col::Notes.at())?,
        },
    })
}

/// A list the store keeps as a JSON array or null ([`json_list`]); `None` when it does not read.
fn list_of(text: Option<String>) -> Option<Vec<String>> {
    match text {
        Some(t) => serde_json::from_str(&t).ok(),
        None => Some(Vec::new()),
    }
}

/// The puzzles of a store: inserted once by content hash, read, listed, corrected and removed.
pub trait PuzzleStore {
    /// Records an attempt at mate puzzle `id` by a player rated `player`, solved or not: the
    /// puzzle's rating and the player's after this one game (Glicko-2,
    /// [`baroque_puzzle::rating::attempt`]). The row is read and written in one transaction that
    /// holds it, so that attempts at once lose none; the attempt is counted and the revision
    /// raised. `None` when no mate puzzle has that id (none, or a diagram).
    fn record_attempt(&self, id: i64, player: Rating, solved: bool) -> Result<Option<Attempted>>;

    /// The `count` mate puzzles whose ratings are nearest `rating` (nearest first, ties by id)
    /// that `filter` allows, read without their outcomes: two walks of a rating index, one on
    /// each side; for a family of stipulations (`h#`), two for each of its stipulations in the
    /// store.
    fn near_rating(
        &self,
        rating: f64,
        filter: &NextFilter,
        count: u32,
    ) -> Result<Vec<StoredPuzzle>> {
        let exact: Vec<NextFilter> = match filter.stipulation.as_deref() {
            Some(family) if is_family(family) => self
                .stipulations()?
                .into_iter()
                .filter(|s| of_family(s, family))
                .map(|s| NextFilter {
                    stipulation: Some(s),
                    ..filter.clone()
                })
                .collect(),
            _ => vec![filter.clone()],
        };
        // A theme or a collection may be few puzzles' of many: a small one is read from its own
        // rows; a large one by a window of the walk, and from its own rows when the window holds
        // too few of them.
        let walk = match self.set_size(filter, NEAR_SET)? {
            None => NearWalk::Index,
            Some(size) if size < u64::from(NEAR_SET) => NearWalk::Set,
            Some(_) => NearWalk::Window(NEAR_WINDOW),
        };
        let (mut above, mut below) = (Vec::new(), Vec::new());
        for f in &exact {
            for (up, side) in [(true, &mut above), (false, &mut below)] {
                let mut near = self.near_walk(rating, up, walk, f, count)?;
                if matches!(walk, NearWalk::Window(_)) && near.len() < count as usize {
                    near = self.near_walk(rating, up, NearWalk::Set, f, count)?;
                }
                side.extend(near);
            }
        }
        Ok(nearest(rating, above, below, count as usize))
    }

    /// Up to `count` mate puzzles that `filter` allows (its stipulation exact, not a family), from
    /// `rating` on one side (`above`: at or above it, by increasing rating; else below, by
    /// decreasing rating), read without their outcomes.
    fn near_walk(
        &self,
        rating: f64,
        above: bool,
        walk: NearWalk,
        filter: &NextFilter,
        count: u32,
    ) -> Result<Vec<StoredPuzzle>>;

    /// The distinct stipulations of the stored puzzles.
    fn stipulations(&self) -> Result<Vec<String>>;

    /// How many puzzles the filter's theme and collection hold (the fewer of the two), counted up
    /// to `cap`; `None` when it has neither.
    fn set_size(&self, filter: &NextFilter, cap: u32) -> Result<Option<u64>>;

    /// Stores a verified puzzle unless its content is already there: `(puzzle, true)` when it was
    /// inserted, `(the existing one, false)` otherwise (also when another writer stored the same
    /// content at the same moment). One transaction.
    fn insert(&self, p: &VerifiedPuzzle) -> Result<(StoredPuzzle, bool)>;

    /// Stores many verified puzzles in one transaction (seeding); returns how many were new.
    fn insert_all(&self, puzzles: &[VerifiedPuzzle]) -> Result<usize>;

    /// The puzzle with this id.
    fn get(&self, id: i64) -> Result<Option<StoredPuzzle>>;

    /// The puzzle with this id, its outcome read as null: what a listing shows, and what tells
    /// whether a proof read before is still the stored one (its revision), without reading or
    /// parsing the proof.
    fn get_lean(&self, id: i64) -> Result<Option<StoredPuzzle>>;

    /// The puzzle stored with this content hash.
    fn get_by_hash(&self, hash: &str) -> Result<Option<StoredPuzzle>>;

    /// Gives a puzzle another content hash (when the rule that makes hashes changed), unless
    /// another puzzle has that hash already; whether it changed.
    fn set_content_hash(&self, id: i64, hash: &str) -> Result<bool>;

    /// Deletes a puzzle (and its tags); whether it existed.
    fn delete(&self, id: i64) -> Result<bool>;

    /// Up to `limit` puzzles matching `filter` with an id above `after`, by increasing id; and
    /// whether more follow.
    fn list(&self, filter: &Filter, after: i64, limit: u32) -> Result<(Vec<StoredPuzzle>, bool)> {
        self.list_page(filter, After::Id(after), limit)
    }

    /// Up to `limit` puzzles matching `filter` after `after`, in its order; and whether more
    /// follow.
    fn list_page(
        &self,
        filter: &Filter,
        after: After,
        limit: u32,
    ) -> Result<(Vec<StoredPuzzle>, bool)> {
        let page = self.search(filter, after, limit)?;
        Ok((page.items, page.more))
    }

    /// Sets a puzzle's difficulty (filling rows stored before difficulties, or after a change of
    /// the formula); whether the puzzle exists.
    fn set_difficulty(&self, id: i64, difficulty: Option<u8>) -> Result<bool>;

    /// Sets a puzzle's verified outcome and the difficulty computed from it, in one statement (a
    /// puzzle verified again under a changed reading of the rules); whether the puzzle exists.
    fn set_outcome(&self, id: i64, outcome: &PuzzleOutcome, difficulty: Option<u8>)
        -> Result<bool>;

    /// The number of stored puzzles.
    fn count(&self) -> Result<u64>;

    /// Applies a correction to a puzzle's history and source in one transaction that holds the
    /// row (corrections at once lose none), raising its revision; nothing else of it changes.
    fn correct_history(&self, id: i64, patch: &HistoryPatch) -> Result<HistoryCorrection>;

    /// The mate puzzles whose position key is one of `keys`, or that have a near key among them
    /// (see [`baroque_puzzle::anticipation`]), read without their outcomes, by increasing id: at
    /// most `limit`, and whether more match.
    fn anticipation_candidates(
        &self,
        keys: &[i64],
        limit: u32,
    ) -> Result<(Vec<StoredPuzzle>, bool)>;

    /// The mate puzzles whose position key is `key` (the same position up to a symmetry, or a
    /// collision of the key), read without their outcomes, by increasing id, at most `limit`.
    fn same_position(&self, key: i64, limit: u32) -> Result<Vec<StoredPuzzle>>;

    /// Sets what a puzzle is found by (a row stored before it: see [`search::SearchIndex`]),
    /// replacing what it had; whether it exists.
    fn set_search_index(&self, id: i64, index: &search::SearchIndex) -> Result<bool>;

    /// One page of a listing, with the relevance of its last puzzle when the order is the
    /// relevance to a text (for the next page's cursor). At most `limit`, and whether more
    /// follow; [`StoreError::Budget`] when the database needs longer than the search's budget.
    fn search(&self, filter: &Filter, after: After, limit: u32) -> Result<SearchPage>;
}

/// What became of a correction of a puzzle's history ([`PuzzleStore::correct_history`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HistoryCorrection {
    Done,
    /// No puzzle has that id.
    Missing,
    /// The history corrected would not be one: nothing was written.
    Invalid(baroque_puzzle::HistoryError),
}

/// The history and source of a puzzle read from the columns `authors, published, award,
/// keywords, notes, source` (in that order) of `r`, from column `at`.
pub(crate) fn read_history(r: &impl Columns, at: usize) -> Result<(History, Option<String>)> {
    let corrupt = |what: &str| StoreError::Corrupt(format!("a puzzle's {what}"));
    Ok((
        History {
            authors: list_of(r.opt_text(at)?).ok_or_else(|| corrupt("authors"))?,
            published: r.opt_text(at + 1)?,
            award: r.opt_text(at + 2)?,
            keywords: list_of(r.opt_text(at + 3)?).ok_or_else(|| corrupt("keywords"))?,
            notes: r.opt_text(at + 4)?,
        },
        r.opt_text(at + 5)?,
    ))
}

/// The columns [`read_history`] reads, in its order.
pub(crate) const HISTORY_COLUMNS: &str = "authors, published, award, keywords, notes, source";

/// A page of a listing ([`PuzzleStore::search`]).
#[derive(Clone, Debug, Default)]
pub struct SearchPage {
    pub items: Vec<StoredPuzzle>,
    /// Whether more follow.
    pub more: bool,
    /// In the order of relevance: the last item's.
    pub last_relevance: Option<f64>,
}

impl SearchPage {
    /// The page of the rows a listing read (one more than `limit` tells that more follow), each
    /// with its relevance when the order has one.
    pub(crate) fn of(mut rows: Vec<(StoredPuzzle, Option<f64>)>, limit: u32) -> SearchPage {
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        // The relevance of the last item kept, not of the one more read.
        let last_relevance = rows.last().and_then(|(_, r)| *r);
        SearchPage {
            items: rows.into_iter().map(|(p, _)| p).collect(),
            more,
            last_relevance,
        }
    }
}

/// A row of a listing: the puzzle, and its relevance (the column after the puzzle's) when
/// `relevance`.
pub(crate) fn search_row(r: &impl Columns, relevance: bool) -> Result<(StoredPuzzle, Option<f64>)> {
    let score = match relevance {
        true => r.opt_real(POSITION_COLUMN)?,
        false => None,
    };
    Ok((decode(r)?, score))
}

/// How long a listing may run in the database before it is given up
/// ([`StoreError::Budget`]): a filter the indexes cannot serve answers at once rather than
/// holding a connection.
pub const SEARCH_BUDGET: Duration = Duration::from_secs(2);

/// Deletes the features a puzzle's history gives it (its authors', keywords' and award's words),
/// of the puzzle that the first parameter names: the same text in both dialects' placeholders.
pub(crate) const HISTORY_FEATURES_DELETE: &str =
    "DELETE FROM puzzle_features WHERE puzzle_id = $1 \
     AND (feature LIKE 'author:%' OR feature LIKE 'keyword:%' OR feature LIKE 'award:%')";

/// The most keys one anticipation lookup binds: a position's and one for each of its pieces.
pub const MAX_ANTICIPATION_KEYS: usize = 128;

/// Facts about the store itself (a name and a value each).
pub trait FactStore {
    /// A fact recorded about the store (see [`FactStore::set_fact`]).
    fn fact(&self, name: &str) -> Result<Option<String>>;

    /// Records a fact about the store (which upgrade of its rows is done, say).
    fn set_fact(&self, name: &str, value: &str) -> Result<()>;
}

/// The collections of a store: named, ordered lists of puzzles, each with the runner that fills it.
pub trait CollectionStore {
    /// Creates an empty collection in state `running`; `Ok(false)` when the name is taken.
    fn create_collection(&self, name: &str, c: &NewCollection) -> Result<bool>;

    /// Stores a verified puzzle (or finds the same one stored) and appends it to a collection
    /// unless it is in it already, in one transaction; the stored puzzle.
    fn append_to_collection(&self, name: &str, puzzle: &VerifiedPuzzle) -> Result<StoredPuzzle>;

    /// Appends a stored puzzle to a collection unless it is in it already; whether it was
    /// appended.
    fn add_to_collection(&self, name: &str, puzzle_id: i64) -> Result<bool>;

    /// Records how a collection's run ended.
    fn finish_collection(&self, name: &str, state: &str, summary: &Json) -> Result<()>;

    /// Every collection, by name.
    fn collections(&self) -> Result<Vec<Collection>>;

    /// One collection and its puzzles in order (every page of [`CollectionStore::collection_page`], with
    /// outcomes).
    fn collection(&self, name: &str) -> Result<Option<(Collection, Vec<StoredPuzzle>)>> {
        let Some(collection) = self.collection_info(name)? else {
            return Ok(None);
        };
        let mut puzzles = Vec::new();
        for page in CollectionPages::new(self, name, 500, true) {
            puzzles.extend(page?);
        }
        Ok(Some((collection, puzzles)))
    }

    /// One collection, without its puzzles.
    fn collection_info(&self, name: &str) -> Result<Option<Collection>>;

    /// Up to `limit` puzzles of a collection whose position is above `after`, in order, each with
    /// its position (empty past the last, or when there is no such collection). Without
    /// `full`, each puzzle's outcome is read as null (a listing, a pass over the kinds), so
    /// that no proof is read or parsed.
    fn collection_page(&self, name: &str, after: i64, limit: u32, full: bool) -> Result<Entries>;

    /// The stored facts that decide what a collection's puzzles are, in one line: its creation
    /// time, the number of its puzzles, their last position, the sum of their ids and of their
    /// revisions (a puzzle's revision grows with every change of a stored puzzle: outcome,
    /// difficulty, content hash, tags). Any change of the collection's puzzles changes it;
    /// `None` when there is no such collection. One aggregate query over the collection's rows
    /// (no puzzle is read), so that an export's `ETag` is known without the export.
    fn collection_version(&self, name: &str) -> Result<Option<String>>;

    /// Marks collections left `running` by a runner that `is_running` says ended (a crash, a
    /// restart) as `stopped`; how many. Called at start-up, before any new run; a run of another
    /// live process (a `baroque generate` beside the server) is left alone, and so is a
    /// collection a generation job fills (the job's lease decides who goes on with it).
    fn stop_abandoned_collections(
        &self,
        is_running: &dyn Fn(Option<&str>) -> bool,
    ) -> Result<usize>;
}

/// The generation jobs of a store and their shards: leased to one runner at a time.
pub trait JobStore {
    /// Records a running generation job filling `collection`, held by `owner` for `lease` (the
    /// database's clock); its id.
    fn create_job(&self, job: &NewJob<'_>) -> Result<i64>;

    /// The job with this id.
    fn job(&self, id: i64) -> Result<Option<JobRow>>;

    /// Extends `owner`'s lease on a running job and records its view: `Some(cancel asked)`, or
    /// `None` when the job is no longer `owner`'s (another runner took it over, or it ended) or
    /// its lease was released (a release is never undone by a renewal that raced it).
    fn renew_job(&self, id: i64, owner: &str, lease: Duration, view: &Json)
        -> Result<Option<bool>>;

    /// Gives up `owner`'s lease on a running job at once, recording its view: the job stays
    /// `running` and any runner may claim it now (a replica shutting down hands its jobs over);
    /// `false` when the job is no longer `owner`'s.
    fn release_job(&self, id: i64, owner: &str, view: &Json) -> Result<bool>;

    /// Ends a running job of `owner`: its state and view, and its collection's state and
    /// summary, in one transaction; `false` (and nothing written) when the job is no longer
    /// `owner`'s.
    fn finish_job(&self, id: i64, owner: &str, end: &JobEnd<'_>) -> Result<bool>;

    /// Asks a running job to stop (its runner sees it at its next renewal); the job, or `None`
    /// when there is no such job.
    fn cancel_job(&self, id: i64) -> Result<Option<JobRow>>;

    /// Claims the oldest running job whose lease ran out, for `owner`, for `lease`: another
    /// runner waiting on the same job skips it (`FOR UPDATE SKIP LOCKED` on PostgreSQL).
    fn claim_job(&self, owner: &str, lease: Duration) -> Result<Option<JobRow>>;

    /// Makes shards `from..to` of job `job`, pending, with `steer`, where absent.
    fn add_shards(&self, job: i64, from: i64, to: i64, steer: &Json) -> Result<()>;

    /// Sets the steer of job `job`'s pending shards from `from` on.
    fn steer_pending_shards(&self, job: i64, from: i64, steer: &Json) -> Result<()>;

    /// Makes shard `index` of job `job` pending again with `steer`, its result dropped, unless a
    /// runner holds it under a lease that has not run out.
    fn reset_shard(&self, job: i64, index: i64, steer: &Json) -> Result<()>;

    /// Shard `index` of job `job`.
    fn shard(&self, job: i64, index: i64) -> Result<Option<ShardRow>>;

    /// Where job `job`'s shards are.
    fn shard_counts(&self, job: i64) -> Result<ShardCounts>;

    /// Claims the first shard of `indices` of job `job` that is pending or whose lease ran out,
    /// for `owner` (named `replica`) for `lease`: another claimer skips it (`FOR UPDATE SKIP
    /// LOCKED` on PostgreSQL).
    fn claim_shard(
        &self,
        job: i64,
        indices: std::ops::Range<i64>,
        owner: &str,
        replica: &str,
        lease: Duration,
    ) -> Result<Option<ShardRow>>;

    /// Claims, for `owner` (named `replica`) for `lease`, the last claimable shard (pending, or
    /// its lease ran out) made so far of the oldest running job, not cancelled, whose runner is
    /// alive and is not `owner` (the runner screens the shards in order from the first: a helper
    /// works from the other end): another claimer skips it (`FOR UPDATE SKIP LOCKED` on
    /// PostgreSQL).
    fn claim_any_shard(
        &self,
        owner: &str,
        replica: &str,
        lease: Duration,
    ) -> Result<Option<ShardRow>>;

    /// Extends `owner`'s lease on a shard it holds; `false` when it no longer holds it, or its
    /// job is no longer running or was cancelled.
    fn renew_shard(&self, job: i64, index: i64, owner: &str, lease: Duration) -> Result<bool>;

    /// Records the result of a shard `owner` holds, with the candidates it screened: the shard
    /// is done; `false` (and nothing written) when it no longer holds it.
    fn finish_shard(
        &self,
        job: i64,
        index: i64,
        owner: &str,
        screened: u64,
        result: &Json,
    ) -> Result<bool>;

    /// Gives up `owner`'s lease on a shard at once: pending again, for any runner.
    fn release_shard(&self, job: i64, index: i64, owner: &str) -> Result<()>;

    /// Drops the shards of jobs that are no longer running (left by a runner that lost its job,
    /// or by a release that did not know shards); how many.
    fn drop_ended_shards(&self) -> Result<usize>;
}

/// A mate puzzle's rating from its row: the one its attempts made, or before any the one its
/// difficulty gives; none for a diagram.
fn rating_of(
    r: &impl Columns,
    kind: Kind,
    difficulty: Option<u8>,
    corrupt: &dyn Fn(&str) -> StoreError,
) -> Result<Option<PuzzleRating>> {
    rating_in(
        r,
        [
            Col::RatingValue.at(),
            Col::RatingDeviation.at(),
            Col::RatingVolatility.at(),
            Col::RatingAttempts.at(),
        ],
        kind,
        difficulty,
        corrupt,
    )
}

/// A mate puzzle's rating from the row's columns at `at` (value, deviation, volatility,
/// attempts).
fn rating_in(
    r: &impl Columns,
    at: [usize; 4],
    kind: Kind,
    difficulty: Option<u8>,
    corrupt: &dyn Fn(&str) -> StoreError,
) -> Result<Option<PuzzleRating>> {
    if kind != Kind::Mate {
        return Ok(None);
    }
    let attempts = u64::try_from(r.int(at[3])?).map_err(|_| corrupt("rating_attempts"))?;
    let rating = match (r.opt_real(at[0])?, r.opt_real(at[1])?, r.opt_real(at[2])?) {
        (Some(value), Some(deviation), Some(volatility)) => Rating {
            value,
            deviation,
            volatility,
        },
        (None, None, None) => Rating::of_difficulty(difficulty),
        _ => return Err(corrupt("rating")),
    };
    Ok(Some(PuzzleRating { rating, attempts }))
}

/// The columns an attempt reads of its puzzle's row, in order ([`attempt_on`]).
pub(crate) const ATTEMPT_COLUMNS: &str =
    "id, kind, difficulty, rating_value, rating_deviation, rating_volatility, rating_attempts";

/// An attempt applied to a puzzle's row read with [`ATTEMPT_COLUMNS`]: the puzzle's rating and
/// the player's after it; `None` for a diagram.
pub(crate) fn attempt_on(
    r: &impl Columns,
    player: Rating,
    solved: bool,
) -> Result<Option<Attempted>> {
    let id = r.int(0)?;
    let corrupt = |what: &str| StoreError::Corrupt(format!("puzzle {id}: {what}"));
    let kind = Kind::parse(&r.text(1)?).ok_or_else(|| corrupt("kind"))?;
    let difficulty = r
        .opt_int(2)?
        .map(|d| u8::try_from(d).map_err(|_| corrupt("difficulty")))
        .transpose()?;
    let Some(now) = rating_in(r, [3, 4, 5, 6], kind, difficulty, &corrupt)? else {
        return Ok(None);
    };
    let (puzzle, player) = baroque_puzzle::rating::attempt(now.rating, player, solved);
    Ok(Some(Attempted {
        puzzle: PuzzleRating {
            rating: puzzle,
            attempts: now.attempts + 1,
        },
        player,
    }))
}

/// The update an attempt makes of its puzzle's row, parameters `id`, value, deviation,
/// volatility named by `placeholder` (from 1): the attempt counted and the revision raised.
pub(crate) fn attempt_sql(placeholder: impl Fn(usize) -> String) -> String {
    format!(
        "UPDATE puzzles SET rating_value = {}, rating_deviation = {}, rating_volatility = {}, \
         rating_attempts = rating_attempts + 1, revision = revision + 1 WHERE id = {}",
        placeholder(2),
        placeholder(3),
        placeholder(4),
        placeholder(1)
    )
}

/// What a store does: the puzzles, facts about the store itself, collections and generation jobs.
/// Every guarantee holds on both implementations; `tests/store.rs` runs one suite against each.
pub trait Backend:
    PuzzleStore + FactStore + CollectionStore + JobStore + Send + Sync + std::fmt::Debug
{
    /// `sqlite` or `postgresql`.
    fn engine(&self) -> &'static str;

    /// Whether the store can serve: a connection comes within `wait`, answers a query, and the
    /// database has every migration of this build applied. The readiness probe.
    ///
    /// # Errors
    /// The store's error, or [`StoreError::Open`] naming the schema version when migrations are
    /// missing.
    fn readiness(&self, wait: Duration) -> Result<Readiness>;
}

/// A collection's puzzles in order, a page at a time ([`CollectionStore::collection_page`]): each item a
/// page (never empty), until the last or the first error.
pub struct CollectionPages<'a, B: CollectionStore + ?Sized> {
    store: &'a B,
    name: &'a str,
    limit: u32,
    outcomes: bool,
    /// The position of the last puzzle given; `None` once done.
    after: Option<i64>,
}

impl<'a, B: CollectionStore + ?Sized> CollectionPages<'a, B> {
    /// The pages of `limit` puzzles of collection `name`, read with their outcomes or without.
    pub fn new(store: &'a B, name: &'a str, limit: u32, outcomes: bool) -> Self {
        CollectionPages {
            store,
            name,
            limit,
            outcomes,
            after: Some(0),
        }
    }
}

impl<B: CollectionStore + ?Sized> Iterator for CollectionPages<'_, B> {
    type Item = Result<Vec<StoredPuzzle>>;

    fn next(&mut self) -> Option<Self::Item> {
        let after = self.after?;
        match self
            .store
            .collection_page(self.name, after, self.limit, self.outcomes)
        {
            Ok(page) => {
                self.after = page.last().map(|&(last, _)| last);
                (!page.is_empty()).then(|| Ok(page.into_iter().map(|(_, p)| p).collect()))
            }
            Err(e) => {
                self.after = None;
                Some(Err(e))
            }
        }
    }
}

/// The store's traits, to call a [`Store`]'s methods: `use baroque_store::prelude::*`.
pub mod prelude {
    pub use crate::{Backend, CollectionStore, FactStore, JobStore, PuzzleStore};
}

/// The store: a shared handle on one of the two implementations. It dereferences to [`Backend`].
#[derive(Clone, Debug)]
pub struct Store {
    backend: Arc<dyn Backend>,
}

impl std::ops::Deref for Store {
    type Target = dyn Backend;
    fn deref(&self) -> &Self::Target {
        &*self.backend
    }
}

impl Store {
    /// A collection's puzzles in order, `limit` at a time (see [`CollectionPages`]).
    pub fn collection_pages<'a>(
        &'a self,
        name: &'a str,
        limit: u32,
        outcomes: bool,
    ) -> CollectionPages<'a, dyn Backend> {
        CollectionPages::new(&*self.backend, name, limit, outcomes)
    }

    /// Opens (creating if needed) the SQLite store at `path` (see [`sqlite::SqliteStore::open`]).
    ///
    /// # Errors
    /// [`StoreError::Open`] when the file cannot be opened, created or written, or a migration
    /// fails.
    pub fn open(path: &Path) -> Result<Store> {
        Ok(Store::from(sqlite::SqliteStore::open(path)?))
    }

    /// Opens the store at `db`: a SQLite file, or a PostgreSQL database (whose migrations are
    /// applied at once, by one replica at a time).
    ///
    /// # Errors
    /// [`StoreError::Open`] with the cause in one line (a missing directory, an unreachable
    /// server, a refused password, a missing database); never the password.
    pub fn connect(db: &Database) -> Result<Store> {
        match db {
            Database::Sqlite(path) => Store::open(path),
            Database::Postgres(url) => Ok(Store::from(postgres::PgStore::connect(url)?)),
        }
    }
}

impl<B: Backend + 'static> From<B> for Store {
    fn from(backend: B) -> Store {
        Store {
            backend: Arc::new(backend),
        }
    }
}
