//! Named collections of generated puzzles: a collection records how it was made (game, rules, N,
//! seed, piece budget) and lists its puzzles in the order they were found. Its puzzles are ordinary
//! stored puzzles (verified again by the full solver before they are written, tagged with their
//! themes), so every puzzle endpoint serves them.

use super::StoreError;
use crate::Json;
use crate::Result;
use serde::Serialize;

/// This process, as `host/pid:start` (its start time in clock ticks since boot, from `/proc`, so
/// that a reused process id is told apart; the host, so that replicas on several machines sharing
/// one PostgreSQL store do not judge each other's processes), or `host/pid` where `/proc` is
/// missing.
pub fn this_process() -> String {
    let pid = std::process::id();
    let host = host_name();
    match process_start(pid) {
        Some(start) => format!("{host}/{pid}:{start}"),
        None => format!("{host}/{pid}"),
    }
}

/// This machine's name (`/proc/sys/kernel/hostname`, else `HOSTNAME`, else `localhost`), without
/// `/`.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().replace('/', "-"))
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// The start time of process `pid` (field 22 of `/proc/<pid>/stat`).
pub(super) fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process a collection's `runner` names is still running. A process of another
/// machine is taken to be running: this one cannot tell.
pub(super) fn is_running(runner: Option<&str>) -> bool {
    let Some(runner) = runner else { return false };
    // Rows written before the host was recorded name a process of this machine.
    let runner = match runner.split_once('/') {
        Some((host, _)) if host != host_name() => return true,
        Some((_, process)) => process,
        None => runner,
    };
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
#[derive(Clone, Debug, Serialize)]
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
    pub summary: Box<Json>,
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

pub(super) const SELECT: &str =
    "SELECT c.name, c.game, c.rules, c.mate_in, c.seed, c.max_pieces, c.state,
        c.summary, (SELECT count(*) FROM collection_puzzles p WHERE p.collection = c.name),
        c.created_at, c.stipulation
    FROM collections c";

/// The stored version of collection `?1` (see [`super::Backend::collection_version`]): its
/// creation time, and the count, last position, sum of ids and sum of revisions of its puzzles.
pub(super) const VERSION: &str = "SELECT c.created_at,
        (SELECT count(*) || '/' || coalesce(max(m.position), 0) || '/'
             || coalesce(sum(m.puzzle_id), 0) || '/' || coalesce(sum(p.revision), 0)
         FROM collection_puzzles m JOIN puzzles p ON p.id = m.puzzle_id
         WHERE m.collection = c.name)
    FROM collections c WHERE c.name = ?1";

/// A collection from a row of [`SELECT`].
pub(super) fn read_collection(r: &impl super::Columns) -> Result<Collection> {
    let name = r.text(0)?;
    let corrupt = |what: &str| StoreError::Corrupt(format!("collection {name}: {what}"));
    let mate_in = r.int(3)?;
    Ok(Collection {
        game: r.text(1)?,
        rules: r.text(2)?,
        mate_in: u32::try_from(mate_in).map_err(|_| corrupt("mate_in"))?,
        stipulation: r.opt_text(10)?.unwrap_or_else(|| format!("#{mate_in}")),
        seed: r.int(4)? as u64,
        max_pieces: u32::try_from(r.int(5)?).map_err(|_| corrupt("max_pieces"))?,
        state: r.text(6)?,
        summary: serde_json::from_str(&r.text(7)?)
            .map_err(|e| corrupt(&format!("summary: {e}")))?,
        puzzles: r.int(8)? as u64,
        created_at: r.text(9)?,
        name,
    })
}

/// A collection about to be filled: how its puzzles are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewCollection {
    pub game: baroque_rules::GameKind,
    /// The rule set as the `rules` column holds it (`abbott`; the game's name for Rococo).
    pub rules: String,
    pub stipulation: baroque_solver::Stipulation,
    pub seed: u64,
    pub max_pieces: usize,
    /// Puzzles asked for.
    pub count: usize,
}
