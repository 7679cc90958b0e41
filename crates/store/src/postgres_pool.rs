//! The PostgreSQL pool's connections, each with the statements it has prepared: a statement is
//! prepared once per connection (a `Parse` and a `Describe`, one round trip) and then only bound
//! and executed, where the `postgres` crate's text queries prepare anew each time and so cost two
//! round trips.
//!
//! [`Manager`] wraps `r2d2_postgres`'s manager, so that connecting, TLS and the health checks stay
//! its own; [`Conn`] and [`Tx`] (a transaction of a [`Conn`]) answer the four calls the store
//! makes ([`Sql`]) from the connection's cache. The cache holds the SQL texts the store writes
//! (a fixed set: every value is a bound parameter) and is emptied, should it ever pass
//! [`MAX_STATEMENTS`]. A statement the server no longer knows or can no longer run as prepared
//! (a `DISCARD ALL` by a connection pooler, a column's type changed by a later release's
//! migration) is prepared again once outside a transaction, and forgotten inside one (the
//! transaction has failed; the next use prepares it again).

use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{GenericClient, Row, Statement};
use r2d2_postgres::PostgresConnectionManager;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The most statements one connection keeps.
pub const MAX_STATEMENTS: usize = 256;

/// A statement's parameters.
pub type Params<'a> = &'a [&'a (dyn ToSql + Sync)];

/// The pool's manager: `r2d2_postgres`'s, with a statement cache per connection.
#[derive(Debug)]
pub struct Manager<T> {
    inner: PostgresConnectionManager<T>,
    /// Statements prepared by all its connections, over their lives.
    prepared: Arc<AtomicU64>,
}

impl<T> Manager<T> {
    pub fn new(inner: PostgresConnectionManager<T>) -> Manager<T> {
        Manager {
            inner,
            prepared: Arc::default(),
        }
    }

    /// The count of statements the pool's connections have prepared, over their lives.
    pub fn prepared(&self) -> Arc<AtomicU64> {
        self.prepared.clone()
    }
}

impl<T> r2d2::ManageConnection for Manager<T>
where
    PostgresConnectionManager<T>:
        r2d2::ManageConnection<Connection = postgres::Client, Error = postgres::Error>,
{
    type Connection = Conn;
    type Error = postgres::Error;

    fn connect(&self) -> Result<Conn, postgres::Error> {
        Ok(Conn {
            client: self.inner.connect()?,
            statements: Statements {
                by_sql: HashMap::new(),
                prepared: self.prepared.clone(),
            },
        })
    }

    fn is_valid(&self, conn: &mut Conn) -> Result<(), postgres::Error> {
        self.inner.is_valid(&mut conn.client)
    }

    fn has_broken(&self, conn: &mut Conn) -> bool {
        self.inner.has_broken(&mut conn.client)
    }
}

/// The statements a connection has prepared, by SQL text.
struct Statements {
    by_sql: HashMap<String, Statement>,
    /// The pool's count of statements prepared.
    prepared: Arc<AtomicU64>,
}

impl Statements {
    /// The statement of `sql`, prepared on `client` the first time.
    fn get(
        &mut self,
        client: &mut impl GenericClient,
        sql: &str,
    ) -> Result<Statement, postgres::Error> {
        if let Some(statement) = self.by_sql.get(sql) {
            return Ok(statement.clone());
        }
        let statement = client.prepare(sql)?;
        self.prepared.fetch_add(1, Ordering::Relaxed);
        if self.by_sql.len() >= MAX_STATEMENTS {
            self.by_sql.clear();
        }
        self.by_sql.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    fn forget(&mut self, sql: &str) {
        self.by_sql.remove(sql);
    }
}

/// A pooled connection.
pub struct Conn {
    client: postgres::Client,
    statements: Statements,
}

impl Conn {
    /// Begins a transaction, whose statements come from this connection's cache.
    pub fn transaction(&mut self) -> Result<Tx<'_>, postgres::Error> {
        Ok(Tx {
            tx: self.client.transaction()?,
            statements: &mut self.statements,
        })
    }

    /// Runs `call` with the statement of `sql`; when the server says the statement is gone or
    /// stale, prepares it again and runs `call` once more.
    fn with<R>(
        &mut self,
        sql: &str,
        call: impl Fn(&mut postgres::Client, &Statement) -> Result<R, postgres::Error>,
    ) -> Result<R, postgres::Error> {
        let statement = self.statements.get(&mut self.client, sql)?;
        match call(&mut self.client, &statement) {
            Err(e) if stale(&e) => {
                self.statements.forget(sql);
                let statement = self.statements.get(&mut self.client, sql)?;
                call(&mut self.client, &statement)
            }
            result => result,
        }
    }
}

/// Whether a statement's error says it must be prepared again: the server knows no statement of
/// its name (a pooler's `DISCARD ALL`), or its plan's result changed (a column's type changed by
/// a migration). Told by the error's code and the server's routine, never by its words, which
/// the server's `lc_messages` may translate.
fn stale(e: &postgres::Error) -> bool {
    match e.code() {
        Some(c) if *c == SqlState::INVALID_SQL_STATEMENT_NAME => true,
        Some(c) if *c == SqlState::FEATURE_NOT_SUPPORTED => e
            .as_db_error()
            .is_some_and(|d| d.routine() == Some("RevalidateCachedQuery")),
        _ => false,
    }
}

/// A transaction of a pooled connection.
pub struct Tx<'a> {
    tx: postgres::Transaction<'a>,
    statements: &'a mut Statements,
}

impl Tx<'_> {
    /// Commits the transaction.
    pub fn commit(self) -> Result<(), postgres::Error> {
        self.tx.commit()
    }

    /// Runs `call` with the statement of `sql`. A stale statement is forgotten (the transaction
    /// has failed with it: the next use prepares it again), not retried.
    fn with<R>(
        &mut self,
        sql: &str,
        call: impl FnOnce(&mut postgres::Transaction<'_>, &Statement) -> Result<R, postgres::Error>,
    ) -> Result<R, postgres::Error> {
        let statement = self.statements.get(&mut self.tx, sql)?;
        let result = call(&mut self.tx, &statement);
        if result.as_ref().is_err_and(stale) {
            self.statements.forget(sql);
        }
        result
    }
}

/// The calls the store makes, on a connection or in a transaction, with the same meaning as the
/// `postgres` crate's.
pub trait Sql {
    /// The rows of `sql`.
    fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<Row>, postgres::Error>;
    /// The one row of `sql` (an error if there is none or more).
    fn query_one(&mut self, sql: &str, params: Params<'_>) -> Result<Row, postgres::Error>;
    /// The row of `sql`, if any (an error if there are more).
    fn query_opt(&mut self, sql: &str, params: Params<'_>) -> Result<Option<Row>, postgres::Error>;
    /// The rows `sql` changed.
    fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64, postgres::Error>;
}

/// [`Sql`] for a type with a `with(sql, call)` that runs `call` on its client and the statement.
macro_rules! sql_through_with {
    ($type:ty) => {
        impl Sql for $type {
            fn query(
                &mut self,
                sql: &str,
                params: Params<'_>,
            ) -> Result<Vec<Row>, postgres::Error> {
                self.with(sql, |c, s| c.query(s, params))
            }
            fn query_one(&mut self, sql: &str, params: Params<'_>) -> Result<Row, postgres::Error> {
                self.with(sql, |c, s| c.query_one(s, params))
            }
            fn query_opt(
                &mut self,
                sql: &str,
                params: Params<'_>,
            ) -> Result<Option<Row>, postgres::Error> {
                self.with(sql, |c, s| c.query_opt(s, params))
            }
            fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64, postgres::Error> {
                self.with(sql, |c, s| c.execute(s, params))
            }
        }
    };
}

sql_through_with!(Conn);
sql_through_with!(Tx<'_>);
