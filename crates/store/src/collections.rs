//! Named collections of generated puzzles: a collection records how it was made (game, rules, N,
//! seed, piece budget) and lists its puzzles in the order they were found. Its puzzles are ordinary
//! stored puzzles (verified again by the full solver before they are written, tagged with their
//! themes), so every puzzle endpoint serves them.

use super::StoreError;
use crate::Json;
use crate::Result;
use serde::Serialize;

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

/// The stored version of collection `?1` (see [`super::CollectionStore::collection_version`]): its
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
    /// The process that runs it, as the application names processes (it tells, at start-up,
    /// whether that process still runs: see `CollectionStore::stop_abandoned_collections`).
    pub runner: String,
}
