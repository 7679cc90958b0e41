//! The SQLite store (bundled), the default: an r2d2 pool of connections, versioned migrations applied at
//! open, WAL journal with `synchronous = FULL` (an acknowledged write is on disk), foreign keys on,
//! a busy timeout so that concurrent writers wait instead of
//! failing with "database is locked".
//!
//! The content hash (unique) makes the same puzzle stored twice one row: writers take the database
//! lock at the start of their transaction (`BEGIN IMMEDIATE`), so they are serialised.

use super::collections::read_collection;
use super::collections::{self, Collection, NewCollection};
use super::jobs::{
    count_shards, read_job, read_shard, JobRow, ShardCounts, ShardRow, JOB_COLUMNS, SHARD_COLUMNS,
};
use super::{
    decode, game_name, After, Backend, Columns, Filter, Readiness, StoreError, StoredPuzzle,
    VerifiedPuzzle,
};
use crate::schema::Dialect;
use crate::search::{self, SearchIndex};
use crate::Json;
use crate::Result;
use crate::{
    attempt_on, attempt_sql, insert_row, insert_sql, near_sql, rating_follows_difficulty, Bind,
    NearWalk, NextFilter, SqlValue, ATTEMPT_COLUMNS,
};
use crate::{read_history, HistoryCorrection, HISTORY_COLUMNS};
use crate::{search_row, Entries, JobEnd, NewJob, SearchPage, SEARCH_BUDGET};
use crate::{CollectionStore, FactStore, JobStore, PuzzleStore};
use baroque_puzzle::rating::{Attempted, Rating};
use baroque_puzzle::HistoryPatch;
use r2d2_sqlite::SqliteConnectionManager;
use rusqlite::{params, OptionalExtension};
use rusqlite_migration::{Migrations, M};
use std::path::Path;
use std::time::Duration;

/// How long a connection waits for another writer's lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections in the pool.
pub const POOL_SIZE: u32 = 8;

/// The migrations, in order ([`crate::schema`]); the database's `user_version` records how many
/// are applied.
fn migrations() -> Migrations<'static> {
    static SQL: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let sql = SQL.get_or_init(|| crate::schema::migrations(crate::schema::Dialect::Sqlite));
    Migrations::new(sql.iter().map(|m| M::up(m)).collect())
}

/// An error opening the store, with what to check for the usual causes.
fn open_error(what: &str, e: &rusqlite::Error) -> StoreError {
    use rusqlite::ErrorCode as C;
    let hint = match e.sqlite_error_code() {
        Some(C::CannotOpen) => " (does its directory exist, and may this user write in it?)",
        Some(C::ReadOnly) => {
            " (may this user write the file, and create files in its directory, for the WAL?)"
        }
        Some(C::DiskFull | C::SystemIoFailure) => " (is the disk full, or the file size limited?)",
        Some(C::NotADatabase) => " (the file is not a SQLite database)",
        Some(C::DatabaseBusy | C::DatabaseLocked) => " (another process holds it locked)",
        _ => "",
    };
    StoreError::Open(format!("{what}: {e}{hint}"))
}

/// Switches the database to WAL and says the journal mode it is in. The switch needs the file to
/// itself, and SQLite answers "locked" at once rather than calling the busy handler: another
/// process opening the same new file at that moment (a server and a `generate` started together)
/// is waited for, up to [`BUSY_TIMEOUT`].
fn switch_to_wal(c: &rusqlite::Connection) -> rusqlite::Result<String> {
    use rusqlite::ErrorCode as C;
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        match c.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)) {
            Err(e)
                if matches!(
                    e.sqlite_error_code(),
                    Some(C::DatabaseBusy | C::DatabaseLocked)
                ) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

/// The settings of every connection: the busy timeout, foreign keys, and `synchronous = FULL` (in
/// WAL mode, each commit syncs the WAL: acknowledged writes are durable).
fn init(c: &mut rusqlite::Connection) -> rusqlite::Result<()> {
    c.busy_timeout(BUSY_TIMEOUT)?;
    c.execute_batch("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL;")
}

/// The store: a pool of connections to one database file.
#[derive(Clone, Debug)]
pub struct SqliteStore {
    pool: r2d2::Pool<SqliteConnectionManager>,
}

/// The `user_version` of a database with every migration of this build applied (found once, on an
/// in-memory database).
fn latest_schema_version() -> i64 {
    static LATEST: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *LATEST.get_or_init(|| {
        let applied = rusqlite::Connection::open_in_memory().and_then(|mut c| {
            migrations()
                .to_latest(&mut c)
                .map_err(|_| rusqlite::Error::InvalidQuery)?;
            c.query_row("PRAGMA user_version", [], |r| r.get(0))
        });
        applied.unwrap_or(-1)
    })
}

impl SqliteStore {
    /// Runs one statement of a job's shards on a connection whose commit does not wait for the
    /// disk (`synchronous = NORMAL`, in WAL mode): a shard's row lost in a crash is only made,
    /// claimed or screened again (the collection's puzzles are written durably, as every other
    /// row). The connection goes back to `FULL` before it returns to the pool.
    fn unsynced<T>(
        &self,
        statement: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>,
    ) -> Result<T> {
        let conn = self.pool.get()?;
        conn.execute_batch("PRAGMA synchronous = NORMAL")?;
        let answer = statement(&conn);
        conn.execute_batch("PRAGMA synchronous = FULL")?;
        Ok(answer?)
    }

    /// Opens (creating if needed) the database at `path`, switches it to WAL and applies the
    /// migrations. Connections run with `synchronous = FULL`: a commit returns once the WAL is on
    /// disk, so a write the service acknowledged survives a killed process and a power cut.
    ///
    /// The file is opened once outside the pool first, so that what keeps the store from working
    /// (a missing or unwritable directory, a read-only file, a full disk, a file that is not a
    /// database) is reported at once, in words, rather than as a pool timeout.
    ///
    /// # Errors
    /// [`StoreError::Open`] when the file cannot be opened, created or written, or a migration
    /// fails.
    pub fn open(path: &Path) -> Result<SqliteStore> {
        let mut conn = rusqlite::Connection::open(path)
            .map_err(|e| open_error("cannot open or create the database file", &e))?;
        init(&mut conn).map_err(|e| open_error("cannot use the database file", &e))?;
        if conn.is_readonly(rusqlite::MAIN_DB).unwrap_or(false) {
            return Err(StoreError::Open(
                "the database file is read-only, and the service writes to it: check the \
                 permissions of the file and of its directory"
                    .into(),
            ));
        }
        let mode = switch_to_wal(&conn)
            .map_err(|e| open_error("cannot use the database in WAL mode", &e))?;
        if !mode.eq_ignore_ascii_case("wal") {
            tracing::warn!(mode = %mode, "the database did not switch to WAL");
        }
        if let Err(e) = migrations().to_latest(&mut conn) {
            // Two processes opening a new store at once both start to migrate it; the one that
            // loses the race fails, and finds the schema the other one made complete.
            let version: Option<i64> = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).ok();
            if version != Some(latest_schema_version()) {
                return Err(match &e {
                    rusqlite_migration::Error::RusqliteError { err, .. } => {
                        open_error("cannot apply the migrations", err)
                    }
                    other => StoreError::Open(format!("cannot apply the migrations: {other}")),
                });
            }
        }
        drop(conn);
        let manager = SqliteConnectionManager::file(path).with_init(init);
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(Duration::from_secs(30))
            .build(manager)?;
        Ok(SqliteStore { pool })
    }
}

impl Backend for SqliteStore {
    fn engine(&self) -> &'static str {
        "sqlite"
    }

    fn readiness(&self, wait: Duration) -> Result<Readiness> {
        let conn = self.pool.get_timeout(wait)?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        // A query of the table that costs the same whatever the store holds.
        conn.query_row("SELECT EXISTS (SELECT 1 FROM puzzles)", [], |r| {
            r.get::<_, i64>(0)
        })?;
        let latest = latest_schema_version();
        if version != latest {
            return Err(StoreError::Open(format!(
                "the database is at schema version {version}, this build needs {latest}"
            )));
        }
        Ok(Readiness {
            backend: "sqlite",
            tls: None,
        })
    }
}

impl PuzzleStore for SqliteStore {
    fn near_walk(
        &self,
        rating: f64,
        above: bool,
        walk: NearWalk,
        filter: &NextFilter,
        count: u32,
    ) -> Result<Vec<StoredPuzzle>> {
        let conn = self.pool.get()?;
        let exclude = serde_json::to_string(&filter.exclude).unwrap_or_else(|_| "[]".into());
        let (sql, binds) = near_sql(
            above,
            walk,
            filter,
            |i| format!("?{i}"),
            |p| format!("p.id NOT IN (SELECT value FROM json_each({p}))"),
            &columns(false),
        );
        let game = filter.game.map(game_name);
        let limit = i64::from(count);
        let values: Vec<&dyn rusqlite::ToSql> = binds
            .iter()
            .map(|b| -> &dyn rusqlite::ToSql {
                match b {
                    Bind::Rating => &rating,
                    Bind::Game => &game,
                    Bind::Stipulation => &filter.stipulation,
                    Bind::Tag => &filter.tag,
                    Bind::Collection => &filter.collection,
                    Bind::Limit => &limit,
                    Bind::Exclude => &exclude,
                }
            })
            .collect();
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query(values.as_slice())?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(decode(r)?);
        }
        Ok(out)
    }

    fn set_size(&self, filter: &NextFilter, cap: u32) -> Result<Option<u64>> {
        let conn = self.pool.get()?;
        let [tags, collections] = crate::set_size_sql(|i| format!("?{i}"));
        let mut size: Option<u64> = None;
        for (sql, name) in [(tags, &filter.tag), (collections, &filter.collection)] {
            if let Some(name) = name {
                let n: i64 = conn
                    .prepare_cached(&sql)?
                    .query_row(params![name, i64::from(cap)], |r| r.get(0))?;
                let n = u64::try_from(n).unwrap_or(0);
                size = Some(size.map_or(n, |s| s.min(n)));
            }
        }
        Ok(size)
    }

    fn stipulations(&self) -> Result<Vec<String>> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(crate::STIPULATIONS_SQL)?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    fn record_attempt(&self, id: i64, player: Rating, solved: bool) -> Result<Option<Attempted>> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let sql = format!("SELECT {ATTEMPT_COLUMNS} FROM puzzles WHERE id = ?1");
        let done = {
            let mut statement = tx.prepare(&sql)?;
            let mut rows = statement.query(params![id])?;
            match rows.next()? {
                Some(row) => attempt_on(row, player, solved)?,
                None => None,
            }
        };
        if let Some(a) = &done {
            let r = a.puzzle.rating;
            tx.execute(
                &attempt_sql(|i| format!("?{i}")),
                params![id, r.value, r.deviation, r.volatility],
            )?;
        }
        tx.commit()?;
        Ok(done)
    }

    fn insert(&self, p: &VerifiedPuzzle) -> Result<(StoredPuzzle, bool)> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let inserted = insert_in(&tx, p)?;
        tx.commit()?;
        let id = id_of_hash(&conn, &p.content_hash)?
            .ok_or_else(|| StoreError::Corrupt("a row vanished after its insert".into()))?;
        let stored = get_in(&conn, id)?
            .ok_or_else(|| StoreError::Corrupt("a row vanished after its insert".into()))?;
        Ok((stored, inserted))
    }

    fn insert_all(&self, puzzles: &[VerifiedPuzzle]) -> Result<usize> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut new = 0;
        for p in puzzles {
            if insert_in(&tx, p)? {
                new += 1;
            }
        }
        tx.commit()?;
        Ok(new)
    }

    fn get(&self, id: i64) -> Result<Option<StoredPuzzle>> {
        let conn = self.pool.get()?;
        get_in(&conn, id)
    }

    fn get_lean(&self, id: i64) -> Result<Option<StoredPuzzle>> {
        let conn = self.pool.get()?;
        let sql = format!("SELECT {} FROM puzzles p WHERE p.id = ?1", columns(false));
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query([id])?;
        match rows.next()? {
            Some(r) => decode(r).map(Some),
            None => Ok(None),
        }
    }

    fn get_by_hash(&self, hash: &str) -> Result<Option<StoredPuzzle>> {
        let conn = self.pool.get()?;
        match id_of_hash(&conn, hash)? {
            Some(id) => get_in(&conn, id),
            None => Ok(None),
        }
    }

    fn set_content_hash(&self, id: i64, hash: &str) -> Result<bool> {
        let conn = self.pool.get()?;
        Ok(conn.execute(
            "UPDATE puzzles SET content_hash = ?2, revision = revision + 1 WHERE id = ?1
             AND NOT EXISTS (SELECT 1 FROM puzzles WHERE content_hash = ?2)",
            rusqlite::params![id, hash],
        )? > 0)
    }

    fn delete(&self, id: i64) -> Result<bool> {
        let conn = self.pool.get()?;
        Ok(conn.execute("DELETE FROM puzzles WHERE id = ?1", [id])? > 0)
    }

    fn search(&self, filter: &Filter, after: After, limit: u32) -> Result<SearchPage> {
        let conn = self.pool.get()?;
        let columns = columns(!filter.lean);
        let (sql, values) = search::list_sql(Dialect::Sqlite, filter, &after, limit, &columns);
        // The statement is given up once its budget is spent, checked every thousand steps.
        let deadline = std::time::Instant::now() + SEARCH_BUDGET;
        conn.progress_handler(1000, Some(move || std::time::Instant::now() > deadline))?;
        let run = || -> Result<SearchPage> {
            let mut stmt = conn.prepare_cached(&sql)?;
            let mut rows =
                stmt.query(rusqlite::params_from_iter(values.iter().map(|v| match v {
                    search::Value::Int(n) => rusqlite::types::Value::Integer(*n),
                    search::Value::Real(x) => rusqlite::types::Value::Real(*x),
                    search::Value::Text(t) => rusqlite::types::Value::Text(t.clone()),
                })))?;
            let relevance = search::orders_by_relevance(filter, &after);
            let mut read = Vec::new();
            while let Some(r) = rows.next()? {
                read.push(search_row(r, relevance)?);
            }
            Ok(SearchPage::of(read, limit))
        };
        let page = run();
        conn.progress_handler(0, None::<fn() -> bool>)?;
        match page {
            Err(StoreError::Sql(e))
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted) =>
            {
                Err(StoreError::Budget {
                    millis: SEARCH_BUDGET.as_millis() as u64,
                })
            }
            page => page,
        }
    }

    fn set_difficulty(&self, id: i64, difficulty: Option<u8>) -> Result<bool> {
        let conn = self.pool.get()?;
        Ok(conn.execute(
            &format!(
                "UPDATE puzzles SET difficulty = ?2, {}, revision = revision + 1 WHERE id = ?1",
                rating_follows_difficulty("?2")
            ),
            params![id, difficulty],
        )? > 0)
    }

    fn set_outcome(
        &self,
        id: i64,
        outcome: &baroque_puzzle::outcome::PuzzleOutcome,
        difficulty: Option<u8>,
    ) -> Result<bool> {
        let conn = self.pool.get()?;
        Ok(conn.execute(
            &format!(
                "UPDATE puzzles SET outcome = ?2, difficulty = ?3, {}, revision = revision + 1
                 WHERE id = ?1",
                rating_follows_difficulty("?3")
            ),
            params![id, outcome.to_json(), difficulty],
        )? > 0)
    }

    fn correct_history(&self, id: i64, patch: &HistoryPatch) -> Result<HistoryCorrection> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let sql = format!("SELECT {HISTORY_COLUMNS} FROM puzzles WHERE id = ?1");
        let mut stmt = tx.prepare_cached(&sql)?;
        let mut rows = stmt.query([id])?;
        let Some(row) = rows.next()? else {
            return Ok(HistoryCorrection::Missing);
        };
        let (stored, source) = read_history(row, 0)?;
        drop(rows);
        drop(stmt);
        let (history, source) = match patch.clone().apply(&stored, source.as_deref()) {
            Ok(h) => h,
            Err(e) => return Ok(HistoryCorrection::Invalid(e)),
        };
        tx.execute(
            "UPDATE puzzles SET authors = ?2, published = ?3, award = ?4, keywords = ?5,
             notes = ?6, source = ?7, revision = revision + 1 WHERE id = ?1",
            params![
                id,
                super::json_list(&history.authors),
                history.published,
                history.award,
                super::json_list(&history.keywords),
                history.notes,
                source,
            ],
        )?;
        tx.execute(super::HISTORY_FEATURES_DELETE, [id])?;
        add_features(&tx, id, &search::history_features(&history))?;
        tx.commit()?;
        Ok(HistoryCorrection::Done)
    }

    fn anticipation_candidates(
        &self,
        keys: &[i64],
        limit: u32,
    ) -> Result<(Vec<StoredPuzzle>, bool)> {
        let keys = &keys[..keys.len().min(super::MAX_ANTICIPATION_KEYS)];
        if keys.is_empty() {
            return Ok((Vec::new(), false));
        }
        let conn = self.pool.get()?;
        let list: Vec<String> = (1..=keys.len()).map(|i| format!("?{i}")).collect();
        let list = list.join(", ");
        let sql = format!(
            "SELECT {} FROM puzzles p WHERE p.kind = 'mate' AND (p.position_key IN ({list})
             OR p.id IN (SELECT n.puzzle_id FROM puzzle_near_keys n WHERE n.near_key IN ({list})))
             ORDER BY p.id LIMIT {}",
            columns(false),
            i64::from(limit) + 1
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(keys.iter()))?;
        let mut items = Vec::new();
        while let Some(r) = rows.next()? {
            items.push(decode(r)?);
        }
        let more = items.len() > limit as usize;
        items.truncate(limit as usize);
        Ok((items, more))
    }

    fn same_position(&self, key: i64, limit: u32) -> Result<Vec<StoredPuzzle>> {
        let conn = self.pool.get()?;
        let sql = format!(
            "SELECT {} FROM puzzles p WHERE p.position_key = ?1 AND p.kind = 'mate'
             ORDER BY p.id LIMIT ?2",
            columns(false)
        );
        let mut stmt = conn.prepare_cached(&sql)?;
        let mut rows = stmt.query(params![key, limit])?;
        let mut items = Vec::new();
        while let Some(r) = rows.next()? {
            items.push(decode(r)?);
        }
        Ok(items)
    }

    fn set_search_index(&self, id: i64, index: &SearchIndex) -> Result<bool> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let found = tx.execute(
            "UPDATE puzzles SET position_key = ?2, family = ?3, length = ?4 WHERE id = ?1",
            params![
                id,
                index.keys.as_ref().map(|k| k.position),
                index.family,
                index.length
            ],
        )? > 0;
        if found {
            tx.execute("DELETE FROM puzzle_near_keys WHERE puzzle_id = ?1", [id])?;
            tx.execute("DELETE FROM puzzle_features WHERE puzzle_id = ?1", [id])?;
            add_index(&tx, id, index)?;
        }
        tx.commit()?;
        Ok(found)
    }

    fn count(&self) -> Result<u64> {
        let conn = self.pool.get()?;
        Ok(conn.query_row("SELECT count(*) FROM puzzles", [], |r| r.get::<_, i64>(0))? as u64)
    }
}

impl FactStore for SqliteStore {
    fn fact(&self, name: &str) -> Result<Option<String>> {
        let conn = self.pool.get()?;
        Ok(conn
            .query_row(
                "SELECT value FROM store_facts WHERE name = ?1",
                [name],
                |r| r.get(0),
            )
            .optional()?)
    }

    fn set_fact(&self, name: &str, value: &str) -> Result<()> {
        let conn = self.pool.get()?;
        conn.execute(
            "INSERT INTO store_facts (name, value) VALUES (?1, ?2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            [name, value],
        )?;
        Ok(())
    }
}

impl CollectionStore for SqliteStore {
    fn create_collection(&self, name: &str, c: &NewCollection) -> Result<bool> {
        let conn = self.pool.get()?;
        let n = conn.execute(
            "INSERT INTO collections (name, game, rules, mate_in, seed, max_pieces, state, summary,
                                      created_at, runner, stipulation)
             VALUES (?1, ?7, ?2, ?3, ?4, ?5, 'running', ?6,
                     strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?8, ?9)
             ON CONFLICT (name) DO NOTHING",
            params![
                name,
                c.rules,
                c.stipulation.moves(),
                c.seed as i64,
                c.max_pieces as i64,
                format!("{{\"count\":{}}}", c.count),
                c.game.name(),
                c.runner,
                c.stipulation.to_string(),
            ],
        )?;
        Ok(n == 1)
    }

    fn append_to_collection(
        &self,
        name: &str,
        puzzle: &super::VerifiedPuzzle,
    ) -> Result<StoredPuzzle> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        insert_in(&tx, puzzle)?;
        let id: i64 = tx.query_row(
            "SELECT id FROM puzzles WHERE content_hash = ?1",
            [&puzzle.content_hash],
            |r| r.get(0),
        )?;
        // A puzzle stored before (by another collection, or posted) gets this run's themes too.
        let mut tagged = 0;
        for tag in &puzzle.tags {
            tagged += tx.execute(
                "INSERT OR IGNORE INTO puzzle_tags (puzzle_id, tag) VALUES (?1, ?2)",
                params![id, tag],
            )?;
        }
        if tagged > 0 {
            tx.execute(
                "UPDATE puzzles SET revision = revision + 1 WHERE id = ?1",
                [id],
            )?;
        }
        tx.execute(
            "INSERT OR IGNORE INTO collection_puzzles (collection, position, puzzle_id)
             VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM collection_puzzles
                          WHERE collection = ?1), ?2)",
            params![name, id],
        )?;
        let stored = get_in(&tx, id)?
            .ok_or_else(|| StoreError::Corrupt(format!("puzzle {id} vanished in its insert")))?;
        tx.commit()?;
        Ok(stored)
    }

    fn add_to_collection(&self, name: &str, puzzle_id: i64) -> Result<bool> {
        let conn = self.pool.get()?;
        Ok(conn.execute(
            "INSERT OR IGNORE INTO collection_puzzles (collection, position, puzzle_id)
             VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM collection_puzzles
                          WHERE collection = ?1), ?2)",
            params![name, puzzle_id],
        )? == 1)
    }

    fn finish_collection(&self, name: &str, state: &str, summary: &Json) -> Result<()> {
        let conn = self.pool.get()?;
        conn.execute(
            "UPDATE collections SET state = ?2, summary = ?3 WHERE name = ?1",
            params![name, state, summary.to_string()],
        )?;
        Ok(())
    }

    fn collections(&self) -> Result<Vec<Collection>> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare(&format!("{} ORDER BY c.name", collections::SELECT))?;
        let mut rows = stmt.query([])?;
        let mut all = Vec::new();
        while let Some(r) = rows.next()? {
            all.push(read_collection(r)?);
        }
        Ok(all)
    }

    fn collection_info(&self, name: &str) -> Result<Option<Collection>> {
        let conn = self.pool.get()?;
        let mut stmt =
            conn.prepare_cached(&format!("{} WHERE c.name = ?1", collections::SELECT))?;
        let mut rows = stmt.query([name])?;
        match rows.next()? {
            Some(r) => Ok(Some(read_collection(r)?)),
            None => Ok(None),
        }
    }

    fn collection_page(&self, name: &str, after: i64, limit: u32, full: bool) -> Result<Entries> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {}, c.position FROM collection_puzzles c JOIN puzzles p ON p.id = c.puzzle_id
             WHERE c.collection = ?1 AND c.position > ?2 ORDER BY c.position LIMIT ?3",
            columns(full)
        ))?;
        let mut rows = stmt.query(params![name, after, limit])?;
        let mut page = Vec::new();
        while let Some(r) = rows.next()? {
            page.push((r.get(super::POSITION_COLUMN)?, decode(r)?));
        }
        Ok(page)
    }

    fn collection_version(&self, name: &str) -> Result<Option<String>> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(collections::VERSION)?;
        let mut rows = stmt.query([name])?;
        match rows.next()? {
            Some(r) => Ok(Some(format!(
                "{}/{}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?
            ))),
            None => Ok(None),
        }
    }

    fn stop_abandoned_collections(
        &self,
        is_running: &dyn Fn(Option<&str>) -> bool,
    ) -> Result<usize> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let running: Vec<(String, Option<String>)> = tx
            .prepare(
                "SELECT name, runner FROM collections c WHERE state = 'running'
                 AND NOT EXISTS (SELECT 1 FROM jobs j
                                 WHERE j.collection = c.name AND j.state = 'running')",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        let mut stopped = 0;
        for (name, runner) in running {
            if !is_running(runner.as_deref()) {
                stopped += tx.execute(
                    "UPDATE collections SET state = 'stopped',
                         summary = json_set(summary, '$.stop', 'interrupted')
                     WHERE name = ?1 AND state = 'running'",
                    [&name],
                )?;
            }
        }
        tx.commit()?;
        Ok(stopped)
    }
}

impl JobStore for SqliteStore {
    fn create_job(&self, job: &NewJob<'_>) -> Result<i64> {
        let conn = self.pool.get()?;
        Ok(conn.query_row(
            &format!(
                "INSERT INTO jobs (collection, request, state, view, owner, lease_until, created_at)
                 VALUES (?1, ?2, 'running', ?3, ?4, {NOW_MS} + ?5,
                         strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                 RETURNING id"
            ),
            params![
                job.collection,
                job.request.to_string(),
                job.view.to_string(),
                job.owner,
                millis(job.lease)
            ],
            |r| r.get(0),
        )?)
    }

    fn job(&self, id: i64) -> Result<Option<JobRow>> {
        let conn = self.pool.get()?;
        job_in(&conn, id)
    }

    fn renew_job(
        &self,
        id: i64,
        owner: &str,
        lease: Duration,
        view: &Json,
    ) -> Result<Option<bool>> {
        let conn = self.pool.get()?;
        Ok(conn
            .query_row(
                &format!(
                    "UPDATE jobs SET lease_until = {NOW_MS} + ?3, view = ?4
                     WHERE id = ?1 AND owner = ?2 AND state = 'running' AND lease_until > 0
                     RETURNING cancel"
                ),
                params![id, owner, millis(lease), view.to_string()],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .map(|c| c != 0))
    }

    fn release_job(&self, id: i64, owner: &str, view: &Json) -> Result<bool> {
        let conn = self.pool.get()?;
        Ok(conn.execute(
            "UPDATE jobs SET lease_until = 0, view = ?3
             WHERE id = ?1 AND owner = ?2 AND state = 'running'",
            params![id, owner, view.to_string()],
        )? == 1)
    }

    fn finish_job(&self, id: i64, owner: &str, end: &JobEnd<'_>) -> Result<bool> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let ended = tx.execute(
            "UPDATE jobs SET state = ?3, view = ?4
             WHERE id = ?1 AND owner = ?2 AND state = 'running'",
            params![id, owner, end.state, end.view.to_string()],
        )?;
        if ended == 1 {
            tx.execute(
                "UPDATE collections SET state = ?2, summary = ?3
                 WHERE name = (SELECT collection FROM jobs WHERE id = ?1)",
                params![id, end.state, end.summary.to_string()],
            )?;
            tx.execute("DELETE FROM job_shards WHERE job = ?1", [id])?;
        }
        tx.commit()?;
        Ok(ended == 1)
    }

    fn cancel_job(&self, id: i64) -> Result<Option<JobRow>> {
        let conn = self.pool.get()?;
        conn.execute(
            "UPDATE jobs SET cancel = 1 WHERE id = ?1 AND state = 'running'",
            [id],
        )?;
        job_in(&conn, id)
    }

    fn claim_job(&self, owner: &str, lease: Duration) -> Result<Option<JobRow>> {
        let conn = self.pool.get()?;
        // One statement: SQLite runs writers one at a time, so two claimers never take one job.
        let mut stmt = conn.prepare_cached(&format!(
            "UPDATE jobs SET owner = ?1, lease_until = {NOW_MS} + ?2, attempts = attempts + 1
             WHERE id = (SELECT id FROM jobs WHERE state = 'running' AND lease_until < {NOW_MS}
                         ORDER BY id LIMIT 1)
             RETURNING {JOB_COLUMNS}"
        ))?;
        let mut rows = stmt.query(params![owner, millis(lease)])?;
        match rows.next()? {
            Some(r) => read_job(r).map(Some),
            None => Ok(None),
        }
    }

    fn add_shards(&self, job: i64, from: i64, to: i64, steer: &Json) -> Result<()> {
        // (`WHERE true`: SQLite's parser needs it before an upsert's ON CONFLICT.)
        self.unsynced(|c| {
            c.execute(
                "WITH RECURSIVE i(n) AS (SELECT ?2 WHERE ?2 < ?3
                                         UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?3)
                 INSERT INTO job_shards (job, idx, state, steer)
                 SELECT ?1, n, 'pending', ?4 FROM i WHERE true
                 ON CONFLICT DO NOTHING",
                params![job, from, to, steer.to_string()],
            )
        })?;
        Ok(())
    }

    fn steer_pending_shards(&self, job: i64, from: i64, steer: &Json) -> Result<()> {
        self.unsynced(|c| {
            c.execute(
                "UPDATE job_shards SET steer = ?3
                 WHERE job = ?1 AND idx >= ?2 AND state = 'pending'",
                params![job, from, steer.to_string()],
            )
        })?;
        Ok(())
    }

    fn reset_shard(&self, job: i64, index: i64, steer: &Json) -> Result<()> {
        let sql = format!(
            "UPDATE job_shards SET state = 'pending', steer = ?3, result = NULL, owner = NULL,
                 replica = NULL, screened = 0, lease_until = 0
             WHERE job = ?1 AND idx = ?2 AND (state <> 'running' OR lease_until < {NOW_MS})"
        );
        self.unsynced(|c| c.execute(&sql, params![job, index, steer.to_string()]))?;
        Ok(())
    }

    fn shard(&self, job: i64, index: i64) -> Result<Option<ShardRow>> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT {SHARD_COLUMNS} FROM job_shards WHERE job = ?1 AND idx = ?2"
        ))?;
        let mut rows = stmt.query(params![job, index])?;
        match rows.next()? {
            Some(r) => read_shard(r).map(Some),
            None => Ok(None),
        }
    }

    fn shard_counts(&self, job: i64) -> Result<ShardCounts> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT state, lease_until > {NOW_MS}, replica, screened FROM job_shards WHERE job = ?1"
        ))?;
        let rows = stmt
            .query_map([job], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<std::result::Result<Vec<(String, bool, Option<String>, i64)>, _>>()?;
        Ok(count_shards(rows.into_iter()))
    }

    fn claim_shard(
        &self,
        job: i64,
        indices: std::ops::Range<i64>,
        owner: &str,
        replica: &str,
        lease: Duration,
    ) -> Result<Option<ShardRow>> {
        let sql = format!(
            "UPDATE job_shards SET state = 'running', owner = ?4, replica = ?5,
                 lease_until = {NOW_MS} + ?6
             WHERE (job, idx) = (
                 SELECT job, idx FROM job_shards
                 WHERE job = ?1 AND idx >= ?2 AND idx < ?3
                   AND (state = 'pending' OR (state = 'running' AND lease_until < {NOW_MS}))
                 ORDER BY idx LIMIT 1)
             RETURNING {SHARD_COLUMNS}"
        );
        let args = params![
            job,
            indices.start,
            indices.end,
            owner,
            replica,
            millis(lease)
        ];
        self.unsynced(|c| claimed(c, &sql, args))
    }

    fn claim_any_shard(
        &self,
        owner: &str,
        replica: &str,
        lease: Duration,
    ) -> Result<Option<ShardRow>> {
        // One statement: SQLite runs writers one at a time, so two claimers never take one shard.
        let sql = format!(
            "UPDATE job_shards SET state = 'running', owner = ?1, replica = ?2,
                 lease_until = {NOW_MS} + ?3
             WHERE (job, idx) = (
                 SELECT s.job, s.idx FROM job_shards s JOIN jobs j ON j.id = s.job
                 WHERE j.state = 'running' AND j.cancel = 0 AND j.lease_until > {NOW_MS}
                   AND j.owner <> ?1
                   AND (s.state = 'pending' OR (s.state = 'running' AND s.lease_until < {NOW_MS}))
                 ORDER BY s.job, s.idx DESC LIMIT 1)
             RETURNING {SHARD_COLUMNS}"
        );
        self.unsynced(|c| claimed(c, &sql, params![owner, replica, millis(lease)]))
    }

    fn renew_shard(&self, job: i64, index: i64, owner: &str, lease: Duration) -> Result<bool> {
        let sql = format!(
            "UPDATE job_shards SET lease_until = {NOW_MS} + ?4
             WHERE job = ?1 AND idx = ?2 AND owner = ?3 AND state = 'running'
               AND EXISTS (SELECT 1 FROM jobs WHERE id = ?1 AND state = 'running' AND cancel = 0)"
        );
        Ok(self.unsynced(|c| c.execute(&sql, params![job, index, owner, millis(lease)]))? == 1)
    }

    fn finish_shard(
        &self,
        job: i64,
        index: i64,
        owner: &str,
        screened: u64,
        result: &Json,
    ) -> Result<bool> {
        let screened = i64::try_from(screened).unwrap_or(i64::MAX);
        let done = self.unsynced(|c| {
            c.execute(
                "UPDATE job_shards SET state = 'done', result = ?5, screened = ?4, lease_until = 0
                 WHERE job = ?1 AND idx = ?2 AND owner = ?3 AND state = 'running'",
                params![job, index, owner, screened, result.to_string()],
            )
        })?;
        Ok(done == 1)
    }

    fn release_shard(&self, job: i64, index: i64, owner: &str) -> Result<()> {
        self.unsynced(|c| {
            c.execute(
                "UPDATE job_shards SET state = 'pending', owner = NULL, lease_until = 0
                 WHERE job = ?1 AND idx = ?2 AND owner = ?3 AND state = 'running'",
                params![job, index, owner],
            )
        })?;
        Ok(())
    }

    fn drop_ended_shards(&self) -> Result<usize> {
        Ok(self.pool.get()?.execute(
            "DELETE FROM job_shards
             WHERE job IN (SELECT id FROM jobs WHERE state <> 'running')",
            [],
        )?)
    }
}

fn id_of_hash(conn: &rusqlite::Connection, hash: &str) -> Result<Option<i64>> {
    Ok(conn
        .query_row(
            "SELECT id FROM puzzles WHERE content_hash = ?1",
            [hash],
            |r| r.get(0),
        )
        .optional()?)
}

/// The shard a claiming statement (`sql`, with `args`) took, if any.
fn claimed(
    conn: &rusqlite::Connection,
    sql: &str,
    args: &[&dyn rusqlite::ToSql],
) -> rusqlite::Result<Option<ShardRow>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(args)?;
    match rows.next()? {
        // A row that does not read is reported as the store's error by the caller.
        Some(r) => Ok(Some(read_shard(r).map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(
                0,
                rusqlite::types::Type::Text,
                Box::new(std::io::Error::other(e.to_string())),
            )
        })?)),
        None => Ok(None),
    }
}

/// The database's clock, in milliseconds since 1970.
const NOW_MS: &str = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

fn job_in(conn: &rusqlite::Connection, id: i64) -> Result<Option<JobRow>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?1"))?;
    let mut rows = stmt.query([id])?;
    match rows.next()? {
        Some(r) => read_job(r).map(Some),
        None => Ok(None),
    }
}

/// Inserts unless the content hash is there; whether it inserted.
fn insert_in(tx: &rusqlite::Transaction<'_>, p: &VerifiedPuzzle) -> Result<bool> {
    // Looked for first, so that a puzzle already stored takes no id of the sequence (an ignored
    // insert would, and ids would jump after every start-up's seeding).
    let stored: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM puzzles WHERE content_hash = ?1)",
        [&p.content_hash],
        |r| r.get(0),
    )?;
    if stored {
        return Ok(false);
    }
    let index = SearchIndex::of_verified(p);
    let row = insert_row(p, &index);
    let sql = insert_sql(
        &row,
        |i| format!("?{i}"),
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
    );
    let n = tx.execute(
        &sql,
        rusqlite::params_from_iter(row.iter().map(|(_, value)| {
            match value {
                SqlValue::Text(t) => rusqlite::types::Value::Text(t.clone()),
                SqlValue::OptText(t) => t
                    .clone()
                    .map_or(rusqlite::types::Value::Null, rusqlite::types::Value::Text),
                SqlValue::OptInt(n) => n.map_or(
                    rusqlite::types::Value::Null,
                    rusqlite::types::Value::Integer,
                ),
                SqlValue::OptReal(x) => {
                    x.map_or(rusqlite::types::Value::Null, rusqlite::types::Value::Real)
                }
            }
        })),
    )?;
    if n == 0 {
        return Ok(false);
    }
    let id = tx.last_insert_rowid();
    for tag in &p.tags {
        tx.execute(
            "INSERT OR IGNORE INTO puzzle_tags (puzzle_id, tag) VALUES (?1, ?2)",
            params![id, tag],
        )?;
    }
    add_index(tx, id, &index)?;
    Ok(true)
}

/// Records a puzzle's near keys and features (those it has already stay).
fn add_index(c: &rusqlite::Connection, id: i64, index: &SearchIndex) -> Result<()> {
    let mut stmt = c.prepare_cached(
        "INSERT OR IGNORE INTO puzzle_near_keys (near_key, puzzle_id) VALUES (?1, ?2)",
    )?;
    for k in index.keys.iter().flat_map(|k| &k.near) {
        stmt.execute(params![k, id])?;
    }
    add_features(c, id, &index.features)
}

/// Records features of a puzzle (those it has already stay).
fn add_features(c: &rusqlite::Connection, id: i64, features: &[String]) -> Result<()> {
    let mut stmt = c.prepare_cached(
        "INSERT OR IGNORE INTO puzzle_features (feature, puzzle_id) VALUES (?1, ?2)",
    )?;
    for f in features {
        stmt.execute(params![f, id])?;
    }
    Ok(())
}

impl Columns for rusqlite::Row<'_> {
    fn text(&self, i: usize) -> Result<String> {
        Ok(self.get(i)?)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>> {
        Ok(self.get(i)?)
    }
    fn int(&self, i: usize) -> Result<i64> {
        Ok(self.get(i)?)
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>> {
        Ok(self.get(i)?)
    }
    fn opt_real(&self, i: usize) -> Result<Option<f64>> {
        Ok(self.get(i)?)
    }
}

/// The columns a puzzle is read from (table `p`), its tags as one JSON array: one statement reads
/// a puzzle or a whole page of them.
static PUZZLE_COLUMNS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    super::puzzle_columns(
        r#"(SELECT json_group_array(tag) FROM
        (SELECT tag FROM puzzle_tags t WHERE t.puzzle_id = p.id ORDER BY tag))"#,
    )
});

/// The columns of a puzzle, its outcome read as null unless `outcomes`.
fn columns(outcomes: bool) -> std::borrow::Cow<'static, str> {
    super::columns(
        std::sync::LazyLock::force(&PUZZLE_COLUMNS).as_str(),
        outcomes,
    )
}

fn get_in(conn: &rusqlite::Connection, id: i64) -> Result<Option<StoredPuzzle>> {
    let sql = format!("SELECT {} FROM puzzles p WHERE p.id = ?1", *PUZZLE_COLUMNS);
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut rows = stmt.query([id])?;
    match rows.next()? {
        Some(r) => decode(r).map(Some),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;
    use baroque_rules::GameKind;
    use baroque_solver::Stipulation;

    #[test]
    fn the_second_migration_records_rococo_rows_as_rococo() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            // A store as the first migration left it, with a Rococo row under the old placeholder.
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            migrations().to_version(&mut conn, 1).unwrap();
            for (game, rules, hash) in [("rococo", "abbott", "h1"), ("baroque", "vchess", "h2")] {
                conn.execute(
                    "INSERT INTO puzzles (kind, game, fen, rules, preset, moves, captures, outcome,
                                          created_at, content_hash)
                     VALUES ('diagram', ?1, 'f', ?2, ?2, '[]', '[]', '{}', 'now', ?3)",
                    params![game, rules, hash],
                )
                .unwrap();
            }
        }
        let store = Store::open(&path).unwrap();
        let all = |f: Filter| {
            store
                .list(&f, 0, 10)
                .unwrap()
                .0
                .into_iter()
                .map(|p| (p.game(), p.rules_text()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            all(Filter::default()),
            [
                (GameKind::Rococo, "rococo".to_string()),
                (GameKind::Baroque, "vchess".to_string())
            ]
        );
        let abbott = Filter {
            preset: Some("abbott".into()),
            ..Filter::default()
        };
        assert!(all(abbott).is_empty());
        let rococo = Filter {
            game: Some(GameKind::Rococo),
            ..Filter::default()
        };
        assert_eq!(all(rococo), [(GameKind::Rococo, "rococo".to_string())]);
    }

    #[test]
    fn mate_rows_stored_before_stipulations_read_as_direct_mates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            migrations().to_version(&mut conn, 5).unwrap();
            conn.execute(
                "INSERT INTO puzzles (kind, game, fen, rules, preset, moves, captures, mate_in,
                                      outcome, created_at, content_hash)
                 VALUES ('mate', 'baroque', 'f', 'abbott', 'abbott', '[]', '[]', 3, '{}', 'now',
                         'h1')",
                [],
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let threes = Filter {
            stipulation: Some("#3".into()),
            ..Filter::default()
        };
        let (rows, _) = store.list(&threes, 0, 10).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].stipulation, Some(Stipulation::Mate(3)));
        let selfmates = Filter {
            stipulation: Some("s#3".into()),
            ..Filter::default()
        };
        assert!(store.list(&selfmates, 0, 10).unwrap().0.is_empty());
        // Stored before difficulties: none until one is set; the listing by difficulty leaves it
        // out until then.
        assert_eq!(rows[0].difficulty, None);
        let by_difficulty = |store: &Store| {
            store
                .list_page(&Filter::default(), After::Difficulty(None), 10)
                .unwrap()
                .0
        };
        assert!(by_difficulty(&store).is_empty());
        assert!(store.set_difficulty(rows[0].id, Some(40)).unwrap());
        assert_eq!(by_difficulty(&store)[0].difficulty, Some(40));
        let easy = Filter {
            difficulty_max: Some(39),
            ..Filter::default()
        };
        assert!(store.list(&easy, 0, 10).unwrap().0.is_empty());
    }
}
