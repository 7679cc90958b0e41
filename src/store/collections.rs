//! Named collections of generated puzzles: a collection records how it was made (game, rules, N,
//! seed, piece budget) and lists its puzzles in the order they were found. Its puzzles are ordinary
//! stored puzzles (verified again by the full solver before they are written, tagged with their
//! themes), so every puzzle endpoint serves them.

use super::{get_in, insert_in, StoreError, StoredPuzzle};
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

/// The migration that adds collections (applied after the puzzle tables).
pub(super) const MIGRATION: &str = "CREATE TABLE collections (
        name TEXT PRIMARY KEY,
        game TEXT NOT NULL CHECK (game IN ('baroque', 'rococo')),
        rules TEXT NOT NULL,
        mate_in INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        max_pieces INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done', 'stopped', 'failed')),
        summary TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE collection_puzzles (
        collection TEXT NOT NULL REFERENCES collections (name) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        puzzle_id INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        PRIMARY KEY (collection, position),
        UNIQUE (collection, puzzle_id)
    ) WITHOUT ROWID;";

pub(super) const MIGRATION_RUNNER: &str = "ALTER TABLE collections ADD COLUMN runner TEXT;";

/// The stipulation a collection's puzzles have; the collections made before were direct mates.
pub(super) const MIGRATION_STIPULATION: &str =
    "ALTER TABLE collections ADD COLUMN stipulation TEXT;
    UPDATE collections SET stipulation = '#' || mate_in WHERE stipulation IS NULL;";

/// This process, as `pid:start` (its start time in clock ticks since boot, from `/proc`, so that a
/// reused process id is told apart), or `pid` where `/proc` is missing.
fn this_process() -> String {
    let pid = std::process::id();
    match process_start(pid) {
        Some(start) => format!("{pid}:{start}"),
        None => pid.to_string(),
    }
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`).
fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process a collection's `runner` names is still running.
fn is_running(runner: Option<&str>) -> bool {
    let Some(runner) = runner else { return false };
    let (pid, start) = match runner.split_once(':') {
        Some((pid, start)) => (pid, start.parse::<u64>().ok()),
        None => (runner, None),
    };
    let Ok(pid) = pid.parse::<u32>() else {
        return false;
    };
    if pid == std::process::id() {
        // This process is starting up: nothing of it runs yet.
        return false;
    }
    match (process_start(pid), start) {
        (Some(now), Some(then)) => now == then,
        (Some(_), None) => true,
        (None, _) => {
            // No `/proc`: ask the kernel whether the process exists.
            #[cfg(unix)]
            {
                libc::pid_t::try_from(pid).is_ok_and(|p| {
                    // SAFETY: signal 0 only checks that the process exists.
                    unsafe { libc::kill(p, 0) == 0 }
                })
            }
            #[cfg(not(unix))]
            {
                false
            }
        }
    }
}

/// The longest collection name.
pub const MAX_NAME: usize = 64;

/// A collection as stored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Collection {
    pub name: String,
    pub game: String,
    /// The rule set as `Rules` displays it.
    pub rules: String,
    /// The N of the stipulation.
    pub mate_in: u32,
    /// The stipulation of its puzzles (`#2`, `s#2`, `h#2`, `h#2.5`).
    pub stipulation: String,
    pub seed: u64,
    pub max_pieces: u32,
    /// `running`, `done` (as many puzzles as asked), `stopped` (a limit or a cancel came first) or
    /// `failed`.
    pub state: String,
    /// The run's figures: `progress`, `stop`, `count` asked, `error` when it failed.
    pub summary: serde_json::Value,
    pub puzzles: u64,
    pub created_at: String,
}

/// Whether a text may name a collection: 1 to 64 letters, digits, `-`, `_` and `.`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

fn read_collection(r: &rusqlite::Row<'_>) -> rusqlite::Result<(Collection, String)> {
    Ok((
        Collection {
            name: r.get(0)?,
            game: r.get(1)?,
            rules: r.get(2)?,
            mate_in: r.get(3)?,
            stipulation: r
                .get::<_, Option<String>>(10)?
                .unwrap_or_else(|| format!("#{}", r.get::<_, u32>(3).unwrap_or(0))),
            seed: r.get::<_, i64>(4)? as u64,
            max_pieces: r.get(5)?,
            state: r.get(6)?,
            summary: serde_json::Value::Null,
            puzzles: r.get::<_, i64>(8)? as u64,
            created_at: r.get(9)?,
        },
        r.get(7)?,
    ))
}

const SELECT: &str = "SELECT c.name, c.game, c.rules, c.mate_in, c.seed, c.max_pieces, c.state,
        c.summary, (SELECT count(*) FROM collection_puzzles p WHERE p.collection = c.name),
        c.created_at, c.stipulation
    FROM collections c";

fn with_summary((mut c, summary): (Collection, String)) -> Result<Collection, StoreError> {
    c.summary = serde_json::from_str(&summary)
        .map_err(|e| StoreError::Corrupt(format!("collection {}: summary: {e}", c.name)))?;
    Ok(c)
}

/// A collection about to be filled: how its puzzles are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewCollection {
    pub game: crate::rules::GameKind,
    /// The rule set as the `rules` column holds it (`abbott`; the game's name for Rococo).
    pub rules: String,
    pub stipulation: crate::solver::Stipulation,
    pub seed: u64,
    pub max_pieces: usize,
    /// Puzzles asked for.
    pub count: usize,
}

impl super::Store {
    /// Creates an empty collection in state `running`; `Ok(false)` when the name is taken.
    pub fn create_collection(&self, name: &str, c: &NewCollection) -> Result<bool, StoreError> {
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
                serde_json::json!({"count": c.count}).to_string(),
                c.game.name(),
                this_process(),
                c.stipulation.to_string(),
            ],
        )?;
        Ok(n == 1)
    }

    /// Stores a verified puzzle (or finds the same one stored) and appends it to a collection, in
    /// one transaction.
    pub fn append_to_collection(
        &self,
        name: &str,
        puzzle: &super::VerifiedPuzzle,
    ) -> Result<StoredPuzzle, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        insert_in(&tx, puzzle)?;
        let id: i64 = tx.query_row(
            "SELECT id FROM puzzles WHERE content_hash = ?1",
            [&puzzle.content_hash],
            |r| r.get(0),
        )?;
        // A puzzle stored before (by another collection, or posted) gets this run's themes too.
        for tag in &puzzle.tags {
            tx.execute(
                "INSERT OR IGNORE INTO puzzle_tags (puzzle_id, tag) VALUES (?1, ?2)",
                params![id, tag],
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

    /// Appends a stored puzzle to a collection unless it is in it already; whether it was
    /// appended.
    pub fn add_to_collection(&self, name: &str, puzzle_id: i64) -> Result<bool, StoreError> {
        let conn = self.pool.get()?;
        Ok(conn.execute(
            "INSERT OR IGNORE INTO collection_puzzles (collection, position, puzzle_id)
             VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM collection_puzzles
                          WHERE collection = ?1), ?2)",
            params![name, puzzle_id],
        )? == 1)
    }

    /// Records how a collection's run ended.
    pub fn finish_collection(
        &self,
        name: &str,
        state: &str,
        summary: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let conn = self.pool.get()?;
        conn.execute(
            "UPDATE collections SET state = ?2, summary = ?3 WHERE name = ?1",
            params![name, state, summary.to_string()],
        )?;
        Ok(())
    }

    /// Every collection, by name.
    pub fn collections(&self) -> Result<Vec<Collection>, StoreError> {
        let conn = self.pool.get()?;
        let mut stmt = conn.prepare(&format!("{SELECT} ORDER BY c.name"))?;
        let rows = stmt
            .query_map([], read_collection)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(with_summary).collect()
    }

    /// One collection and its puzzles in order.
    pub fn collection(
        &self,
        name: &str,
    ) -> Result<Option<(Collection, Vec<StoredPuzzle>)>, StoreError> {
        let conn = self.pool.get()?;
        let Some(row) = conn
            .query_row(
                &format!("{SELECT} WHERE c.name = ?1"),
                [name],
                read_collection,
            )
            .optional()?
        else {
            return Ok(None);
        };
        let collection = with_summary(row)?;
        let mut stmt = conn.prepare_cached(
            "SELECT puzzle_id FROM collection_puzzles WHERE collection = ?1 ORDER BY position",
        )?;
        let ids = stmt
            .query_map([name], |r| r.get::<_, i64>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let mut puzzles = Vec::with_capacity(ids.len());
        for id in ids {
            puzzles.extend(get_in(&conn, id)?);
        }
        Ok(Some((collection, puzzles)))
    }

    /// Marks collections left `running` by a process that ended (a crash, a restart) as `stopped`;
    /// how many. Called at start-up, before any new run; a run of another live process (a
    /// `baroque generate` beside the server) is left alone.
    pub fn stop_abandoned_collections(&self) -> Result<usize, StoreError> {
        let mut conn = self.pool.get()?;
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let running: Vec<(String, Option<String>)> = tx
            .prepare("SELECT name, runner FROM collections WHERE state = 'running'")?
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn new(count: usize) -> NewCollection {
        NewCollection {
            game: crate::rules::GameKind::Baroque,
            rules: "abbott".into(),
            stipulation: crate::solver::Stipulation::Mate(2),
            seed: 1,
            max_pieces: 7,
            count,
        }
    }

    #[test]
    fn runs_whose_process_ended_are_marked_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db")).unwrap();
        store.create_collection("left", &new(1)).unwrap();
        // One run of a process still going (the parent of this test, say), one of a process
        // whose id came back for another program, one of a process that ended.
        let parent = std::os::unix::process::parent_id();
        let alive = match process_start(parent) {
            Some(start) => format!("{parent}:{start}"),
            None => parent.to_string(),
        };
        for (name, runner) in [
            ("beside", alive.clone()),
            ("reused", format!("{parent}:1")),
            ("ended", "999999999:5".to_string()),
        ] {
            store.create_collection(name, &new(1)).unwrap();
            store
                .pool
                .get()
                .unwrap()
                .execute(
                    "UPDATE collections SET runner = ?2 WHERE name = ?1",
                    [name, runner.as_str()],
                )
                .unwrap();
        }
        assert_eq!(store.stop_abandoned_collections().unwrap(), 3);
        let (c, _) = store.collection("beside").unwrap().unwrap();
        assert_eq!(c.state, "running");
        for name in ["reused", "ended"] {
            let (c, _) = store.collection(name).unwrap().unwrap();
            assert_eq!(c.state, "stopped", "{name}");
        }
        let (c, _) = store.collection("left").unwrap().unwrap();
        assert_eq!(
            (c.state.as_str(), &c.summary["stop"]),
            ("stopped", &serde_json::json!("interrupted"))
        );
    }
}
