//! The PostgreSQL store, for several replicas of the service sharing one database: a blocking r2d2
//! pool of `postgres` clients, beside the SQLite one (the handlers already run store calls on
//! actix's blocking pool, so both backends are driven the same way).
//!
//! The migrations are the SQLite ones step for step, in PostgreSQL's dialect; the table
//! `schema_migrations` records which are applied, and a transaction-scoped advisory lock lets one
//! replica at a time apply them, so replicas may start together. Writes use `ON CONFLICT DO
//! NOTHING` on the unique content hash: the same puzzle posted to two replicas at once is one row,
//! and the second writer waits for the first and then finds its row. Commits are durable under
//! PostgreSQL's defaults (`synchronous_commit = on`). Text is ordered byte-wise (`COLLATE "C"`),
//! as SQLite orders it, whatever the database's locale.

use super::collections::read_collection;
use super::collections::{self, Collection, NewCollection};
use super::database::PostgresUrl;
use super::jobs::{
    count_shards, read_job, read_shard, JobRow, ShardCounts, ShardRow, JOB_COLUMNS, SHARD_COLUMNS,
};
use super::{
    decode, game_name, After, Backend, Columns, Filter, Readiness, StoreError, StoredPuzzle,
    TlsState, VerifiedPuzzle, POOL_SIZE,
};
use crate::postgres_pool::{Manager, Sql, Tx};
use crate::schema::Dialect;
use crate::search::{self, SearchIndex};
use crate::tls::{self, MakeRustlsConnect};
use crate::Json;
use crate::Result;
use crate::{
    attempt_on, attempt_sql, insert_row, insert_sql, near_sql, rating_follows_difficulty, Bind,
    NearWalk, NextFilter, SqlValue, ATTEMPT_COLUMNS,
};
use crate::{read_history, HistoryCorrection, HISTORY_COLUMNS};
use crate::{search_row, SearchPage, SEARCH_BUDGET};
use crate::{CollectionStore, FactStore, JobStore, PuzzleStore};
use crate::{Entries, JobEnd, NewJob};
use baroque_puzzle::rating::{Attempted, Rating};
use baroque_puzzle::HistoryPatch;
use postgres::error::SqlState;
use postgres::types::ToSql;
use r2d2_postgres::PostgresConnectionManager;
use std::str::FromStr;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

/// How long connecting to the server may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a request waits for a pooled connection before it gets 503: short, so that a server
/// gone away answers quickly rather than holding every request.
pub const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(5);

/// The key of the advisory lock held while migrating (any constant; "baroque" in ASCII).
const MIGRATION_LOCK: i64 = 0x0062_6172_6f71_7565;

/// The time of a write, as SQLite writes it (`2026-11-24T14:16:22.123Z`).
const NOW: &str =
    "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";

/// The columns a puzzle is read from (table `p`), its tags as one JSON array.
static PUZZLE_COLUMNS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    super::puzzle_columns(
        r#"(SELECT coalesce(json_agg(t.tag ORDER BY t.tag COLLATE "C"), '[]')::text
        FROM puzzle_tags t WHERE t.puzzle_id = p.id)"#,
    )
});

/// The columns of a puzzle, its outcome read as null unless `outcomes`.
fn columns(outcomes: bool) -> std::borrow::Cow<'static, str> {
    super::columns(
        std::sync::LazyLock::force(&PUZZLE_COLUMNS).as_str(),
        outcomes,
    )
}

type Pool = r2d2::Pool<Manager<MakeRustlsConnect>>;

/// The PostgreSQL store.
pub struct PgStore {
    /// Always `Some` but in `drop`.
    pool: Option<Pool>,
    url: PostgresUrl,
    /// Statements prepared by the pool's connections.
    prepared: std::sync::Arc<AtomicU64>,
}

impl Drop for PgStore {
    /// A `postgres` client blocks on its own runtime when it closes, which panics on a thread
    /// that drives an async runtime (an HTTP worker dropping the last handle at shutdown): the
    /// pool is closed on a thread of its own then.
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                let _ = std::thread::Builder::new()
                    .name("close-postgres".into())
                    .spawn(move || drop(pool));
            }
        }
    }
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PgStore({})", self.url)
    }
}

/// When a PostgreSQL error is a fault of the environment (the server gone away, shutting down,
/// out of disk or connections), what it is, in words.
pub(super) fn unavailable(e: &postgres::Error) -> Option<&'static str> {
    if e.is_closed() {
        return Some("the connection to the database server was lost");
    }
    if let Some(code) = e.code() {
        let code = code.code();
        return Some(match code {
            "53100" => "the database server's disk is full",
            "53200" => "the database server is out of memory",
            "53300" => "the database server has no connection free",
            "57P01" | "57P02" => "the database server is shutting down",
            "57P03" => "the database server is starting up",
            "25006" => "the database is read-only (is this a standby?)",
            "40001" | "40P01" => "a concurrent write got in the way; retry",
            _ if code.starts_with("08") => "the connection to the database server failed",
            _ => return None,
        });
    }
    // Not a database error: an I/O error means the server cannot be reached.
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if s.is::<std::io::Error>() {
            return Some("the database server cannot be reached");
        }
        source = s.source();
    }
    None
}

/// An error connecting, in one line with what to check; never the password.
fn connect_error(
    config: &postgres::Config,
    options: &tls::TlsOptions,
    e: &postgres::Error,
) -> StoreError {
    if let Some(why) = tls::explain(e, config, options) {
        return StoreError::Open(format!("PostgreSQL: {why}"));
    }
    let user = config.get_user().unwrap_or("?");
    let db = config.get_dbname().unwrap_or("?");
    let why = match e.code() {
        Some(c) if *c == SqlState::INVALID_PASSWORD => {
            format!("the server refused the password of user `{user}`")
        }
        Some(c) if *c == SqlState::INVALID_AUTHORIZATION_SPECIFICATION => {
            let message = e.as_db_error().map_or("", |d| d.message());
            // pg_hba.conf has only `hostssl` lines for this connection.
            let hint =
                if message.ends_with("no encryption") && options.mode == tls::SslMode::Disable {
                    ": the server takes this connection over TLS only, which sslmode=disable \
                 forbids (write sslmode=verify-full, or require)"
                } else {
                    ""
                };
            format!("the server refused user `{user}` ({message}){hint}")
        }
        Some(c) if *c == SqlState::INVALID_CATALOG_NAME => {
            format!("the database `{db}` does not exist (create it: createdb -O {user} {db})")
        }
        _ => match e.as_db_error() {
            Some(d) => d.message().to_string(),
            None if e.to_string().contains("timed out") => format!(
                "no answer within {} s (is the server running, and reachable?)",
                CONNECT_TIMEOUT.as_secs()
            ),
            None => format!(
                "cannot reach the server: {} (is it running, and listening there?)",
                root_cause(e)
            ),
        },
    };
    StoreError::Open(format!("PostgreSQL: {why}"))
}

/// The innermost error's words (`Connection refused (os error 111)`).
fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut inner = e;
    while let Some(s) = inner.source() {
        inner = s;
    }
    inner.to_string()
}

impl PgStore {
    /// Connects to the database, applies the migrations (one replica at a time) and opens a pool.
    /// The first connection is made outside the pool, so that what keeps the store from working
    /// (an unreachable server, a refused password, a missing database) is said at once, in one
    /// line, rather than as a pool timeout.
    ///
    /// # Errors
    /// [`StoreError::Open`] with the cause; the password never appears in it.
    pub fn connect(url: &PostgresUrl) -> Result<PgStore> {
        let mut config = postgres::Config::from_str(url.client_url())
            .map_err(|_| StoreError::Open(format!("`{url}` is not a PostgreSQL URL")))?;
        tls::configure(&mut config, url.tls());
        let connector = tls::connector(url.tls())?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("baroque");
        }
        let mut client = config
            .connect(connector.clone())
            .map_err(|e| connect_error(&config, url.tls(), &e))?;
        migrate(&mut client).map_err(|e| {
            StoreError::Open(format!(
                "PostgreSQL: cannot apply the migrations: {}",
                e.as_db_error()
                    .map_or_else(|| e.to_string(), |d| d.message().to_string())
            ))
        })?;
        drop(client);
        let manager = Manager::new(PostgresConnectionManager::new(config, connector));
        let prepared = manager.prepared();
        let pool = r2d2::Pool::builder()
            .max_size(POOL_SIZE)
            .min_idle(Some(1))
            .connection_timeout(CHECKOUT_TIMEOUT)
            .build_unchecked(manager);
        Ok(PgStore {
            pool: Some(pool),
            url: url.clone(),
            prepared,
        })
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<Manager<MakeRustlsConnect>>> {
        Ok(self.pool().get()?)
    }

    /// Runs one statement of a job's shards in a transaction whose commit does not wait for the
    /// disk (`synchronous_commit` off): a shard's row lost in a crash is only made, claimed or
    /// screened again (the collection's puzzles are written durably, as every other row).
    fn unsynced<T>(
        &self,
        statement: impl FnOnce(&mut Tx<'_>) -> std::result::Result<T, postgres::Error>,
    ) -> Result<T> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        tx.execute("SET LOCAL synchronous_commit TO OFF", &[])?;
        let answer = statement(&mut tx)?;
        tx.commit()?;
        Ok(answer)
    }

    /// How many statements the pool's connections have prepared, over their lives: each
    /// statement the store uses is prepared once per connection, so this stops growing once every
    /// connection has run each.
    pub fn statements_prepared(&self) -> u64 {
        self.prepared.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn pool(&self) -> &Pool {
        self.pool
            .as_ref()
            .expect("the pool is there until the store is dropped")
    }
}

/// Applies the missing migrations in one transaction under the advisory lock.
fn migrate(client: &mut postgres::Client) -> Result<(), postgres::Error> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY,
            applied_at TEXT NOT NULL
        )",
    )?;
    let applied: i64 = tx
        .query_one(
            "SELECT coalesce(max(version), 0) FROM schema_migrations",
            &[],
        )?
        .get(0);
    let migrations = crate::schema::migrations(crate::schema::Dialect::Postgres);
    for (i, sql) in migrations.iter().enumerate() {
        let version = i as i64 + 1;
        if version <= applied {
            continue;
        }
        tx.batch_execute(sql)?;
        tx.execute(
            &format!("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, {NOW})"),
            &[&version],
        )?;
    }
    tx.commit()
}

/// The schema version of a database with every migration of this build applied.
pub fn latest_schema_version() -> i64 {
    crate::schema::VERSION as i64
}

/// The database's clock, in milliseconds since 1970.
const NOW_MS: &str = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Columns for postgres::Row {
    fn text(&self, i: usize) -> Result<String> {
        Ok(self.try_get(i)?)
    }
    fn opt_text(&self, i: usize) -> Result<Option<String>> {
        Ok(self.try_get(i)?)
    }
    fn int(&self, i: usize) -> Result<i64> {
        Ok(self.try_get(i)?)
    }
    fn opt_int(&self, i: usize) -> Result<Option<i64>> {
        Ok(self.try_get(i)?)
    }
    fn opt_real(&self, i: usize) -> Result<Option<f64>> {
        Ok(self.try_get(i)?)
    }
}

fn opt_i64<T: Into<i64>>(v: Option<T>) -> Option<i64> {
    v.map(Into::into)
}

fn get_in(c: &mut impl Sql, id: i64) -> Result<Option<StoredPuzzle>> {
    let sql = format!("SELECT {} FROM puzzles p WHERE p.id = $1", *PUZZLE_COLUMNS);
    c.query_opt(&sql, &[&id])?.as_ref().map(decode).transpose()
}

fn id_of_hash(c: &mut impl Sql, hash: &str) -> Result<Option<i64>> {
    Ok(
        c.query_opt("SELECT id FROM puzzles WHERE content_hash = $1", &[&hash])?
            .map(|r| r.get(0)),
    )
}

/// Inserts unless the content hash is there; whether it inserted. A concurrent insert of the same
/// content makes this one wait for it, then do nothing.
fn insert_in(tx: &mut Tx<'_>, p: &VerifiedPuzzle) -> Result<bool> {
    // Looked for first, so that a puzzle already stored takes no id of the sequence.
    if id_of_hash(tx, &p.content_hash)?.is_some() {
        return Ok(false);
    }
    let index = SearchIndex::of_verified(p);
    let row = insert_row(p, &index);
    let sql = insert_sql(&row, |i| format!("${i}"), NOW) + " RETURNING id";
    let params: Vec<&(dyn postgres::types::ToSql + Sync)> = row
        .iter()
        .map(|(_, value)| -> &(dyn postgres::types::ToSql + Sync) {
            match value {
                SqlValue::Text(t) => t,
                SqlValue::OptText(t) => t,
                SqlValue::OptInt(n) => n,
                SqlValue::OptReal(x) => x,
            }
        })
        .collect();
    let row = tx.query_opt(&sql, &params)?;
    let Some(row) = row else { return Ok(false) };
    let id: i64 = row.get(0);
    add_tags(tx, id, &p.tags)?;
    add_index(tx, id, &index)?;
    Ok(true)
}

/// Records a puzzle's near keys and features (those it has already stay).
fn add_index(tx: &mut Tx<'_>, id: i64, index: &SearchIndex) -> Result<()> {
    let near: Vec<i64> = index.keys.iter().flat_map(|k| k.near.clone()).collect();
    if !near.is_empty() {
        tx.execute(
            "INSERT INTO puzzle_near_keys (near_key, puzzle_id)
             SELECT k, $2 FROM unnest($1::bigint[]) AS k ON CONFLICT DO NOTHING",
            &[&near, &id],
        )?;
    }
    add_features(tx, id, &index.features)
}

/// Records features of a puzzle (those it has already stay).
fn add_features(tx: &mut Tx<'_>, id: i64, features: &[String]) -> Result<()> {
    if !features.is_empty() {
        tx.execute(
            "INSERT INTO puzzle_features (feature, puzzle_id)
             SELECT f, $2 FROM unnest($1::text[]) AS f ON CONFLICT DO NOTHING",
            &[&features, &id],
        )?;
    }
    Ok(())
}

/// Adds tags to a puzzle; how many it did not have.
fn add_tags(tx: &mut Tx<'_>, id: i64, tags: &[String]) -> Result<u64> {
    let mut added = 0;
    for tag in tags {
        added += tx.execute(
            "INSERT INTO puzzle_tags (puzzle_id, tag) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&id, tag],
        )?;
    }
    Ok(added)
}

/// Appends puzzle `id` to collection `name` unless it is in it; whether it was appended. The
/// collection's row is locked first, so that two appends never take the same position.
fn append_in(tx: &mut Tx<'_>, name: &str, id: i64) -> Result<bool> {
    tx.query_opt(
        "SELECT 1 FROM collections WHERE name = $1 FOR UPDATE",
        &[&name],
    )?;
    Ok(tx.execute(
        "INSERT INTO collection_puzzles (collection, position, puzzle_id)
         VALUES ($1, (SELECT coalesce(max(position), 0) + 1 FROM collection_puzzles
                      WHERE collection = $1), $2)
         ON CONFLICT DO NOTHING",
        &[&name, &id],
    )? == 1)
}

impl Backend for PgStore {
    fn engine(&self) -> &'static str {
        "postgresql"
    }

    fn readiness(&self, wait: Duration) -> Result<Readiness> {
        let mut conn = self.pool().get_timeout(wait)?;
        let version: i64 = conn
            .query_one(
                "SELECT coalesce(max(version), 0) FROM schema_migrations",
                &[],
            )?
            .get(0);
        conn.query_one("SELECT EXISTS (SELECT 1 FROM puzzles)", &[])?;
        let latest = latest_schema_version();
        if version != latest {
            return Err(StoreError::Open(format!(
                "the database is at schema version {version}, this build needs {latest}"
            )));
        }
        let row = conn.query_one(
            "SELECT ssl, version, cipher FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
            &[],
        )?;
        let tls = TlsState {
            sslmode: self.url.tls().mode,
            active: row.try_get(0)?,
            version: row.try_get(1)?,
            cipher: row.try_get(2)?,
        };
        Ok(Readiness {
            backend: "postgres",
            tls: Some(tls),
        })
    }
}

impl PuzzleStore for PgStore {
    fn near_walk(
        &self,
        rating: f64,
        above: bool,
        walk: NearWalk,
        filter: &NextFilter,
        count: u32,
    ) -> Result<Vec<StoredPuzzle>> {
        let mut conn = self.conn()?;
        let (sql, binds) = near_sql(
            above,
            walk,
            filter,
            |i| format!("${i}"),
            |p| format!("NOT (p.id = ANY({p}::bigint[]))"),
            &columns(false),
        );
        let game = filter.game.map(game_name);
        let limit = i64::from(count);
        let values: Vec<&(dyn postgres::types::ToSql + Sync)> = binds
            .iter()
            .map(|b| -> &(dyn postgres::types::ToSql + Sync) {
                match b {
                    Bind::Rating => &rating,
                    Bind::Game => &game,
                    Bind::Stipulation => &filter.stipulation,
                    Bind::Tag => &filter.tag,
                    Bind::Collection => &filter.collection,
                    Bind::Limit => &limit,
                    Bind::Exclude => &filter.exclude,
                }
            })
            .collect();
        let rows = conn.query(&sql, &values)?;
        rows.iter().map(decode).collect()
    }

    fn set_size(&self, filter: &NextFilter, cap: u32) -> Result<Option<u64>> {
        let mut conn = self.conn()?;
        let [tags, collections] = crate::set_size_sql(|i| format!("${i}"));
        let mut size: Option<u64> = None;
        for (sql, name) in [(tags, &filter.tag), (collections, &filter.collection)] {
            if let Some(name) = name {
                let n: i64 = conn.query_one(&sql, &[name, &i64::from(cap)])?.try_get(0)?;
                let n = u64::try_from(n).unwrap_or(0);
                size = Some(size.map_or(n, |s| s.min(n)));
            }
        }
        Ok(size)
    }

    fn stipulations(&self) -> Result<Vec<String>> {
        let mut conn = self.conn()?;
        let rows = conn.query(crate::STIPULATIONS_SQL, &[])?;
        rows.iter()
            .map(|r| Ok(r.try_get::<_, String>(0)?))
            .collect()
    }

    fn record_attempt(&self, id: i64, player: Rating, solved: bool) -> Result<Option<Attempted>> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let sql = format!("SELECT {ATTEMPT_COLUMNS} FROM puzzles WHERE id = $1 FOR UPDATE");
        let done = match tx.query_opt(&sql, &[&id])? {
            Some(row) => attempt_on(&row, player, solved)?,
            None => None,
        };
        if let Some(a) = &done {
            let r = a.puzzle.rating;
            tx.execute(
                &attempt_sql(|i| format!("${i}")),
                &[&id, &r.value, &r.deviation, &r.volatility],
            )?;
        }
        tx.commit()?;
        Ok(done)
    }

    fn insert(&self, p: &VerifiedPuzzle) -> Result<(StoredPuzzle, bool)> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let inserted = insert_in(&mut tx, p)?;
        tx.commit()?;
        let id = id_of_hash(&mut *conn, &p.content_hash)?
            .ok_or_else(|| StoreError::Corrupt("a row vanished after its insert".into()))?;
        let stored = get_in(&mut *conn, id)?
            .ok_or_else(|| StoreError::Corrupt("a row vanished after its insert".into()))?;
        Ok((stored, inserted))
    }

    fn insert_all(&self, puzzles: &[VerifiedPuzzle]) -> Result<usize> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let mut new = 0;
        for p in puzzles {
            new += usize::from(insert_in(&mut tx, p)?);
        }
        tx.commit()?;
        Ok(new)
    }

    fn get(&self, id: i64) -> Result<Option<StoredPuzzle>> {
        get_in(&mut *self.conn()?, id)
    }

    fn get_lean(&self, id: i64) -> Result<Option<StoredPuzzle>> {
        let sql = format!("SELECT {} FROM puzzles p WHERE p.id = $1", columns(false));
        self.conn()?
            .query_opt(&sql, &[&id])?
            .as_ref()
            .map(decode)
            .transpose()
    }

    fn get_by_hash(&self, hash: &str) -> Result<Option<StoredPuzzle>> {
        let mut conn = self.conn()?;
        match id_of_hash(&mut *conn, hash)? {
            Some(id) => get_in(&mut *conn, id),
            None => Ok(None),
        }
    }

    fn set_content_hash(&self, id: i64, hash: &str) -> Result<bool> {
        let changed = self.conn()?.execute(
            "UPDATE puzzles SET content_hash = $2, revision = revision + 1 WHERE id = $1
             AND NOT EXISTS (SELECT 1 FROM puzzles WHERE content_hash = $2)",
            &[&id, &hash],
        );
        match changed {
            Ok(n) => Ok(n > 0),
            // Another replica gave a puzzle that hash at the same moment.
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    fn delete(&self, id: i64) -> Result<bool> {
        Ok(self
            .conn()?
            .execute("DELETE FROM puzzles WHERE id = $1", &[&id])?
            > 0)
    }

    fn search(&self, filter: &Filter, after: After, limit: u32) -> Result<SearchPage> {
        let columns = columns(!filter.lean);
        let (sql, values) = search::list_sql(Dialect::Postgres, filter, &after, limit, &columns);
        let params: Vec<Box<dyn ToSql + Sync>> = values
            .into_iter()
            .map(|v| -> Box<dyn ToSql + Sync> {
                match v {
                    search::Value::Int(n) => Box::new(n),
                    search::Value::Real(x) => Box::new(x),
                    search::Value::Text(t) => Box::new(t),
                }
            })
            .collect();
        let refs: Vec<&(dyn ToSql + Sync)> = params.iter().map(|b| b.as_ref()).collect();
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        // The statement is given up once its budget is spent.
        let budget = SEARCH_BUDGET.as_millis().to_string();
        tx.query(
            "SELECT set_config('statement_timeout', $1, true)",
            &[&budget],
        )?;
        let rows = match tx.query(&sql, &refs) {
            Ok(rows) => rows,
            Err(e) if e.code() == Some(&SqlState::QUERY_CANCELED) => {
                return Err(StoreError::Budget {
                    millis: SEARCH_BUDGET.as_millis() as u64,
                })
            }
            Err(e) => return Err(e.into()),
        };
        tx.commit()?;
        let relevance = search::orders_by_relevance(filter, &after);
        let read = rows
            .iter()
            .map(|r| search_row(r, relevance))
            .collect::<Result<Vec<_>>>()?;
        Ok(SearchPage::of(read, limit))
    }

    fn set_difficulty(&self, id: i64, difficulty: Option<u8>) -> Result<bool> {
        Ok(self.conn()?.execute(
            &format!(
                "UPDATE puzzles SET difficulty = $2, {}, revision = revision + 1 WHERE id = $1",
                rating_follows_difficulty("$2::bigint")
            ),
            &[&id, &opt_i64(difficulty)],
        )? > 0)
    }

    fn set_outcome(
        &self,
        id: i64,
        outcome: &baroque_puzzle::outcome::PuzzleOutcome,
        difficulty: Option<u8>,
    ) -> Result<bool> {
        Ok(self.conn()?.execute(
            &format!(
                "UPDATE puzzles SET outcome = $2, difficulty = $3, {}, revision = revision + 1
                 WHERE id = $1",
                rating_follows_difficulty("$3::bigint")
            ),
            &[&id, &outcome.to_json(), &opt_i64(difficulty)],
        )? > 0)
    }

    fn count(&self) -> Result<u64> {
        let n: i64 = self
            .conn()?
            .query_one("SELECT count(*) FROM puzzles", &[])?
            .get(0);
        Ok(n as u64)
    }

    fn correct_history(&self, id: i64, patch: &HistoryPatch) -> Result<HistoryCorrection> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let sql = format!("SELECT {HISTORY_COLUMNS} FROM puzzles WHERE id = $1 FOR UPDATE");
        let Some(row) = tx.query_opt(&sql, &[&id])? else {
            return Ok(HistoryCorrection::Missing);
        };
        let (stored, source) = read_history(&row, 0)?;
        let (history, source) = match patch.clone().apply(&stored, source.as_deref()) {
            Ok(h) => h,
            Err(e) => return Ok(HistoryCorrection::Invalid(e)),
        };
        tx.execute(
            "UPDATE puzzles SET authors = $2, published = $3, award = $4, keywords = $5,
             notes = $6, source = $7, revision = revision + 1 WHERE id = $1",
            &[
                &id,
                &super::json_list(&history.authors),
                &history.published,
                &history.award,
                &super::json_list(&history.keywords),
                &history.notes,
                &source,
            ],
        )?;
        tx.execute(super::HISTORY_FEATURES_DELETE, &[&id])?;
        add_features(&mut tx, id, &search::history_features(&history))?;
        tx.commit()?;
        Ok(HistoryCorrection::Done)
    }

    fn anticipation_candidates(
        &self,
        keys: &[i64],
        limit: u32,
    ) -> Result<(Vec<StoredPuzzle>, bool)> {
        let keys: Vec<i64> = keys
            .iter()
            .take(super::MAX_ANTICIPATION_KEYS)
            .copied()
            .collect();
        if keys.is_empty() {
            return Ok((Vec::new(), false));
        }
        let sql = format!(
            "SELECT {} FROM puzzles p WHERE p.kind = 'mate' AND (p.position_key = ANY($1)
             OR p.id IN (SELECT n.puzzle_id FROM puzzle_near_keys n WHERE n.near_key = ANY($1)))
             ORDER BY p.id LIMIT $2",
            columns(false)
        );
        let rows = self
            .conn()?
            .query(&sql, &[&keys, &(i64::from(limit) + 1)])?;
        let mut items = rows.iter().map(decode).collect::<Result<Vec<_>, _>>()?;
        let more = items.len() > limit as usize;
        items.truncate(limit as usize);
        Ok((items, more))
    }

    fn same_position(&self, key: i64, limit: u32) -> Result<Vec<StoredPuzzle>> {
        let sql = format!(
            "SELECT {} FROM puzzles p WHERE p.position_key = $1 AND p.kind = 'mate'
             ORDER BY p.id LIMIT $2",
            columns(false)
        );
        let rows = self.conn()?.query(&sql, &[&key, &i64::from(limit)])?;
        rows.iter().map(decode).collect()
    }

    fn set_search_index(&self, id: i64, index: &SearchIndex) -> Result<bool> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let found = tx.execute(
            "UPDATE puzzles SET position_key = $2, family = $3, length = $4 WHERE id = $1",
            &[
                &id,
                &index.keys.as_ref().map(|k| k.position),
                &index.family,
                &index.length,
            ],
        )? > 0;
        if found {
            tx.execute("DELETE FROM puzzle_near_keys WHERE puzzle_id = $1", &[&id])?;
            tx.execute("DELETE FROM puzzle_features WHERE puzzle_id = $1", &[&id])?;
            add_index(&mut tx, id, index)?;
        }
        tx.commit()?;
        Ok(found)
    }
}

impl FactStore for PgStore {
    fn fact(&self, name: &str) -> Result<Option<String>> {
        Ok(self
            .conn()?
            .query_opt("SELECT value FROM store_facts WHERE name = $1", &[&name])?
            .map(|r| r.get(0)))
    }

    fn set_fact(&self, name: &str, value: &str) -> Result<()> {
        self.conn()?.execute(
            "INSERT INTO store_facts (name, value) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            &[&name, &value],
        )?;
        Ok(())
    }
}

impl CollectionStore for PgStore {
    fn create_collection(&self, name: &str, c: &NewCollection) -> Result<bool> {
        let sql = format!(
            "INSERT INTO collections (name, game, rules, mate_in, seed, max_pieces, state, summary,
                                      created_at, runner, stipulation)
             VALUES ($1, $7, $2, $3, $4, $5, 'running', $6, {NOW}, $8, $9)
             ON CONFLICT (name) DO NOTHING"
        );
        let n = self.conn()?.execute(
            &sql,
            &[
                &name,
                &c.rules,
                &i64::from(c.stipulation.moves()),
                &(c.seed as i64),
                &(c.max_pieces as i64),
                &format!("{{\"count\":{}}}", c.count),
                &c.game.name(),
                &c.runner,
                &c.stipulation.to_string(),
            ],
        )?;
        Ok(n == 1)
    }

    fn append_to_collection(&self, name: &str, puzzle: &VerifiedPuzzle) -> Result<StoredPuzzle> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        insert_in(&mut tx, puzzle)?;
        let id = id_of_hash(&mut tx, &puzzle.content_hash)?
            .ok_or_else(|| StoreError::Corrupt("a puzzle vanished in its insert".into()))?;
        // A puzzle stored before (by another collection, or posted) gets this run's themes too.
        if add_tags(&mut tx, id, &puzzle.tags)? > 0 {
            tx.execute(
                "UPDATE puzzles SET revision = revision + 1 WHERE id = $1",
                &[&id],
            )?;
        }
        append_in(&mut tx, name, id)?;
        let stored = get_in(&mut tx, id)?
            .ok_or_else(|| StoreError::Corrupt(format!("puzzle {id} vanished in its insert")))?;
        tx.commit()?;
        Ok(stored)
    }

    fn add_to_collection(&self, name: &str, puzzle_id: i64) -> Result<bool> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let appended = append_in(&mut tx, name, puzzle_id)?;
        tx.commit()?;
        Ok(appended)
    }

    fn finish_collection(&self, name: &str, state: &str, summary: &Json) -> Result<()> {
        self.conn()?.execute(
            "UPDATE collections SET state = $2, summary = $3 WHERE name = $1",
            &[&name, &state, &summary.to_string()],
        )?;
        Ok(())
    }

    fn collections(&self) -> Result<Vec<Collection>> {
        let sql = format!("{} ORDER BY c.name COLLATE \"C\"", collections::SELECT);
        let rows = self.conn()?.query(&sql, &[])?;
        rows.iter().map(read_collection).collect()
    }

    fn collection_info(&self, name: &str) -> Result<Option<Collection>> {
        let sql = format!("{} WHERE c.name = $1", collections::SELECT);
        self.conn()?
            .query_opt(&sql, &[&name])?
            .as_ref()
            .map(read_collection)
            .transpose()
    }

    fn collection_page(&self, name: &str, after: i64, limit: u32, full: bool) -> Result<Entries> {
        let sql = format!(
            "SELECT {}, c.position FROM collection_puzzles c JOIN puzzles p ON p.id = c.puzzle_id
             WHERE c.collection = $1 AND c.position > $2 ORDER BY c.position LIMIT $3",
            columns(full)
        );
        let limit = i64::from(limit);
        self.conn()?
            .query(&sql, &[&name, &after, &limit])?
            .iter()
            .map(|r| Ok((r.get(super::POSITION_COLUMN), decode(r)?)))
            .collect()
    }

    fn collection_version(&self, name: &str) -> Result<Option<String>> {
        let sql = collections::VERSION.replace("?1", "$1");
        let row = self.conn()?.query_opt(&sql, &[&name])?;
        Ok(row.map(|r| format!("{}/{}", r.get::<_, String>(0), r.get::<_, String>(1))))
    }

    fn stop_abandoned_collections(
        &self,
        is_running: &dyn Fn(Option<&str>) -> bool,
    ) -> Result<usize> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let running: Vec<(String, Option<String>)> = tx
            .query(
                "SELECT name, runner FROM collections c WHERE state = 'running'
                 AND NOT EXISTS (SELECT 1 FROM jobs j
                                 WHERE j.collection = c.name AND j.state = 'running')
                 FOR UPDATE",
                &[],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let mut stopped = 0;
        for (name, runner) in running {
            if !is_running(runner.as_deref()) {
                stopped += tx.execute(
                    "UPDATE collections SET state = 'stopped',
                         summary = jsonb_set(summary::jsonb, '{stop}', '\"interrupted\"')::text
                     WHERE name = $1 AND state = 'running'",
                    &[&name],
                )? as usize;
            }
        }
        tx.commit()?;
        Ok(stopped)
    }
}

impl JobStore for PgStore {
    fn create_job(&self, job: &NewJob<'_>) -> Result<i64> {
        let sql = format!(
            "INSERT INTO jobs (collection, request, state, view, owner, lease_until, created_at)
             VALUES ($1, $2, 'running', $3, $4, {NOW_MS} + $5, {NOW})
             RETURNING id"
        );
        Ok(self
            .conn()?
            .query_one(
                &sql,
                &[
                    &job.collection,
                    &job.request.to_string(),
                    &job.view.to_string(),
                    &job.owner,
                    &millis(job.lease),
                ],
            )?
            .get(0))
    }

    fn job(&self, id: i64) -> Result<Option<JobRow>> {
        let sql = format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = $1");
        self.conn()?
            .query_opt(&sql, &[&id])?
            .as_ref()
            .map(read_job)
            .transpose()
    }

    fn renew_job(
        &self,
        id: i64,
        owner: &str,
        lease: Duration,
        view: &Json,
    ) -> Result<Option<bool>> {
        let sql = format!(
            "UPDATE jobs SET lease_until = {NOW_MS} + $3, view = $4
             WHERE id = $1 AND owner = $2 AND state = 'running' AND lease_until > 0
             RETURNING cancel"
        );
        Ok(self
            .conn()?
            .query_opt(&sql, &[&id, &owner, &millis(lease), &view.to_string()])?
            .map(|r| r.get::<_, i64>(0) != 0))
    }

    fn release_job(&self, id: i64, owner: &str, view: &Json) -> Result<bool> {
        Ok(self.conn()?.execute(
            "UPDATE jobs SET lease_until = 0, view = $3
             WHERE id = $1 AND owner = $2 AND state = 'running'",
            &[&id, &owner, &view.to_string()],
        )? == 1)
    }

    fn finish_job(&self, id: i64, owner: &str, end: &JobEnd<'_>) -> Result<bool> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        let ended = tx.execute(
            "UPDATE jobs SET state = $3, view = $4
             WHERE id = $1 AND owner = $2 AND state = 'running'",
            &[&id, &owner, &end.state, &end.view.to_string()],
        )?;
        if ended == 1 {
            tx.execute(
                "UPDATE collections SET state = $2, summary = $3
                 WHERE name = (SELECT collection FROM jobs WHERE id = $1)",
                &[&id, &end.state, &end.summary.to_string()],
            )?;
            tx.execute("DELETE FROM job_shards WHERE job = $1", &[&id])?;
        }
        tx.commit()?;
        Ok(ended == 1)
    }

    fn cancel_job(&self, id: i64) -> Result<Option<JobRow>> {
        self.conn()?.execute(
            "UPDATE jobs SET cancel = 1 WHERE id = $1 AND state = 'running'",
            &[&id],
        )?;
        self.job(id)
    }

    fn claim_job(&self, owner: &str, lease: Duration) -> Result<Option<JobRow>> {
        let sql = format!(
            "UPDATE jobs SET owner = $1, lease_until = {NOW_MS} + $2, attempts = attempts + 1
             WHERE id = (SELECT id FROM jobs WHERE state = 'running' AND lease_until < {NOW_MS}
                         ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
             RETURNING {JOB_COLUMNS}"
        );
        self.conn()?
            .query_opt(&sql, &[&owner, &millis(lease)])?
            .as_ref()
            .map(read_job)
            .transpose()
    }

    fn add_shards(&self, job: i64, from: i64, to: i64, steer: &Json) -> Result<()> {
        self.unsynced(|c| {
            c.execute(
                "INSERT INTO job_shards (job, idx, state, steer)
                 SELECT $1, i, 'pending', $4 FROM generate_series($2::BIGINT, $3::BIGINT - 1) AS i
                 ON CONFLICT DO NOTHING",
                &[&job, &from, &to, &steer.to_string()],
            )
        })?;
        Ok(())
    }

    fn steer_pending_shards(&self, job: i64, from: i64, steer: &Json) -> Result<()> {
        self.unsynced(|c| {
            c.execute(
                "UPDATE job_shards SET steer = $3
                 WHERE job = $1 AND idx >= $2 AND state = 'pending'",
                &[&job, &from, &steer.to_string()],
            )
        })?;
        Ok(())
    }

    fn reset_shard(&self, job: i64, index: i64, steer: &Json) -> Result<()> {
        let sql = format!(
            "UPDATE job_shards SET state = 'pending', steer = $3, result = NULL, owner = NULL,
                 replica = NULL, screened = 0, lease_until = 0
             WHERE job = $1 AND idx = $2 AND (state <> 'running' OR lease_until < {NOW_MS})"
        );
        self.unsynced(|c| c.execute(&sql, &[&job, &index, &steer.to_string()]))?;
        Ok(())
    }

    fn shard(&self, job: i64, index: i64) -> Result<Option<ShardRow>> {
        let sql = format!("SELECT {SHARD_COLUMNS} FROM job_shards WHERE job = $1 AND idx = $2");
        self.conn()?
            .query_opt(&sql, &[&job, &index])?
            .as_ref()
            .map(read_shard)
            .transpose()
    }

    fn shard_counts(&self, job: i64) -> Result<ShardCounts> {
        let sql = format!(
            "SELECT state, lease_until > {NOW_MS}, replica, screened FROM job_shards WHERE job = $1"
        );
        let rows = self.conn()?.query(&sql, &[&job])?;
        Ok(count_shards(
            rows.iter()
                .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3))),
        ))
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
            "UPDATE job_shards SET state = 'running', owner = $4, replica = $5,
                 lease_until = {NOW_MS} + $6
             WHERE (job, idx) = (
                 SELECT job, idx FROM job_shards
                 WHERE job = $1 AND idx >= $2 AND idx < $3
                   AND (state = 'pending' OR (state = 'running' AND lease_until < {NOW_MS}))
                 ORDER BY idx LIMIT 1 FOR UPDATE SKIP LOCKED)
             RETURNING {SHARD_COLUMNS}"
        );
        let (from, to) = (indices.start, indices.end);
        self.unsynced(|c| c.query_opt(&sql, &[&job, &from, &to, &owner, &replica, &millis(lease)]))?
            .as_ref()
            .map(read_shard)
            .transpose()
    }

    fn claim_any_shard(
        &self,
        owner: &str,
        replica: &str,
        lease: Duration,
    ) -> Result<Option<ShardRow>> {
        let sql = format!(
            "UPDATE job_shards SET state = 'running', owner = $1, replica = $2,
                 lease_until = {NOW_MS} + $3
             WHERE (job, idx) = (
                 SELECT s.job, s.idx FROM job_shards s JOIN jobs j ON j.id = s.job
                 WHERE j.state = 'running' AND j.cancel = 0 AND j.lease_until > {NOW_MS}
                   AND j.owner <> $1
                   AND (s.state = 'pending' OR (s.state = 'running' AND s.lease_until < {NOW_MS}))
                 ORDER BY s.job, s.idx DESC LIMIT 1 FOR UPDATE OF s SKIP LOCKED)
             RETURNING {SHARD_COLUMNS}"
        );
        self.unsynced(|c| c.query_opt(&sql, &[&owner, &replica, &millis(lease)]))?
            .as_ref()
            .map(read_shard)
            .transpose()
    }

    fn renew_shard(&self, job: i64, index: i64, owner: &str, lease: Duration) -> Result<bool> {
        let sql = format!(
            "UPDATE job_shards SET lease_until = {NOW_MS} + $4
             WHERE job = $1 AND idx = $2 AND owner = $3 AND state = 'running'
               AND EXISTS (SELECT 1 FROM jobs WHERE id = $1 AND state = 'running' AND cancel = 0)"
        );
        Ok(self.unsynced(|c| c.execute(&sql, &[&job, &index, &owner, &millis(lease)]))? == 1)
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
                "UPDATE job_shards SET state = 'done', result = $5, screened = $4, lease_until = 0
                 WHERE job = $1 AND idx = $2 AND owner = $3 AND state = 'running'",
                &[&job, &index, &owner, &screened, &result.to_string()],
            )
        })?;
        Ok(done == 1)
    }

    fn release_shard(&self, job: i64, index: i64, owner: &str) -> Result<()> {
        self.unsynced(|c| {
            c.execute(
                "UPDATE job_shards SET state = 'pending', owner = NULL, lease_until = 0
                 WHERE job = $1 AND idx = $2 AND owner = $3 AND state = 'running'",
                &[&job, &index, &owner],
            )
        })?;
        Ok(())
    }

    fn drop_ended_shards(&self) -> Result<usize> {
        Ok(self.conn()?.execute(
            "DELETE FROM job_shards
             WHERE job IN (SELECT id FROM jobs WHERE state <> 'running')",
            &[],
        )? as usize)
    }
}
