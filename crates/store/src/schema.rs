//! The schema: one list of numbered migrations, written once and rendered in the dialect of each
//! backend ([`Dialect`]). A store records how many it has applied (SQLite's `user_version`,
//! PostgreSQL's `schema_migrations`); a migration, once released, never changes meaning.

/// The SQL dialect a migration is rendered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

/// The migrations in order, with `{id}` (a row id that numbers itself), `{int}` (a 64-bit integer),
/// `{real}` (a 64-bit float) and `{compact}` (a table keyed by its primary key alone) to render per
/// dialect.
const MIGRATIONS: [&str; 15] = [
    "CREATE TABLE puzzles (
        id {id},
        kind TEXT NOT NULL CHECK (kind IN ('diagram', 'mate')),
        game TEXT NOT NULL CHECK (game IN ('baroque', 'rococo')),
        fen TEXT NOT NULL,
        rules TEXT NOT NULL,
        preset TEXT NOT NULL,
        moves TEXT NOT NULL,
        captures TEXT NOT NULL,
        mate_in {int},
        outcome TEXT NOT NULL,
        title TEXT,
        source TEXT,
        caption TEXT,
        fixture TEXT,
        created_at TEXT NOT NULL,
        content_hash TEXT NOT NULL UNIQUE
    );
    CREATE INDEX puzzles_kind ON puzzles (kind, id);
    CREATE INDEX puzzles_preset ON puzzles (preset, id);
    CREATE INDEX puzzles_source ON puzzles (source, id);
    CREATE TABLE puzzle_tags (
        puzzle_id {int} NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        tag TEXT NOT NULL,
        PRIMARY KEY (puzzle_id, tag)
    ){compact};
    CREATE INDEX puzzle_tags_tag ON puzzle_tags (tag, puzzle_id);",
    // Rococo has no Baroque rule set: its rows said `abbott` as a placeholder; they now say
    // `rococo` in `rules` and `preset` (so a `rules=abbott` listing holds Baroque puzzles only).
    "UPDATE puzzles SET rules = 'rococo', preset = 'rococo' WHERE game = 'rococo';
    CREATE INDEX puzzles_game ON puzzles (game, id);",
    // Collections of generated (or imported) puzzles, in the order they were found.
    "CREATE TABLE collections (
        name TEXT PRIMARY KEY,
        game TEXT NOT NULL CHECK (game IN ('baroque', 'rococo')),
        rules TEXT NOT NULL,
        mate_in {int} NOT NULL,
        seed {int} NOT NULL,
        max_pieces {int} NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done', 'stopped', 'failed')),
        summary TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE TABLE collection_puzzles (
        collection TEXT NOT NULL REFERENCES collections (name) ON DELETE CASCADE,
        position {int} NOT NULL,
        puzzle_id {int} NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        PRIMARY KEY (collection, position),
        UNIQUE (collection, puzzle_id)
    ){compact};",
    // The process filling a running collection, so that a server starting up stops only the
    // runs whose process has ended (not a `baroque generate` running beside it).
    "ALTER TABLE collections ADD COLUMN runner TEXT;",
    // Facts about the store itself (which upgrades of its rows are done).
    "CREATE TABLE store_facts (name TEXT PRIMARY KEY, value TEXT NOT NULL){compact};",
    // Stipulations beyond the direct mate: every mate row names its own; the rows stored before
    // were all direct mates, `#N`.
    "ALTER TABLE puzzles ADD COLUMN stipulation TEXT;
    UPDATE puzzles SET stipulation = '#' || mate_in WHERE kind = 'mate' AND mate_in IS NOT NULL;
    CREATE INDEX puzzles_stipulation ON puzzles (stipulation, id);",
    // The stipulation a collection's puzzles have; the collections made before were direct mates.
    "ALTER TABLE collections ADD COLUMN stipulation TEXT;
    UPDATE collections SET stipulation = '#' || mate_in WHERE stipulation IS NULL;",
    // The difficulty of a mate puzzle (0 to 100; NULL for a diagram), computed above the store
    // (see `baroque_puzzle::difficulty`): rows stored before are filled at start-up.
    "ALTER TABLE puzzles ADD COLUMN difficulty {int};
    CREATE INDEX puzzles_difficulty ON puzzles (difficulty, id);",
    // Generation jobs as rows (see `crate::jobs`): leases in milliseconds since 1970.
    "CREATE TABLE jobs (
        id {id},
        collection TEXT NOT NULL REFERENCES collections (name) ON DELETE CASCADE,
        request TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'done', 'stopped', 'failed')),
        view TEXT NOT NULL,
        owner TEXT,
        lease_until {int} NOT NULL,
        cancel {int} NOT NULL DEFAULT 0,
        attempts {int} NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL
    );
    CREATE INDEX jobs_running ON jobs (state, lease_until);",
    // A puzzle's revision, raised by every change of a stored row (its outcome, difficulty,
    // content hash, tags), so that a collection's version is known from its rows alone.
    "ALTER TABLE puzzles ADD COLUMN revision {int} NOT NULL DEFAULT 0;",
    // The shards of a generation job (see `crate::jobs`): ranges of its candidates that any
    // replica screens under a lease of its own; leases in milliseconds since 1970.
    "CREATE TABLE job_shards (
        job {int} NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
        idx {int} NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done')),
        steer TEXT NOT NULL,
        owner TEXT,
        replica TEXT,
        lease_until {int} NOT NULL DEFAULT 0,
        screened {int} NOT NULL DEFAULT 0,
        result TEXT,
        PRIMARY KEY (job, idx)
    );
    CREATE INDEX job_shards_claim ON job_shards (state, lease_until);",
    // A mate puzzle's Glicko-2 rating from players' attempts (see `baroque_puzzle::rating`):
    // before the first attempt, the one its difficulty gives (`1000 + 15 × difficulty`, 1750
    // without one, deviation 350, volatility 0.06), kept so while no attempt is counted; null for
    // a diagram. Indexed for the listing's rating filter and the next puzzle near a rating.
    "ALTER TABLE puzzles ADD COLUMN rating_value {real};
    ALTER TABLE puzzles ADD COLUMN rating_deviation {real};
    ALTER TABLE puzzles ADD COLUMN rating_volatility {real};
    ALTER TABLE puzzles ADD COLUMN rating_attempts {int} NOT NULL DEFAULT 0;
    UPDATE puzzles SET rating_value = 1000 + 15 * COALESCE(difficulty, 50), rating_deviation = 350,
        rating_volatility = 0.06 WHERE kind = 'mate';
    CREATE INDEX puzzles_rating ON puzzles (rating_value, id);",
    // The next puzzle of a stipulation or a game near a rating: a walk of the rating within the
    // stipulation's (or the game's) rows, however few of the store's they are.
    "CREATE INDEX puzzles_stipulation_rating ON puzzles (stipulation, rating_value, id);
    CREATE INDEX puzzles_game_rating ON puzzles (game, rating_value, id);",
    // A problem's history (see `baroque_puzzle::history`): `authors` and `keywords` are JSON
    // arrays, null when empty; `published` is `YYYY` or `YYYY-MM-DD`, indexed for the years'
    // filters. And what anticipation looks a mate puzzle up by (see
    // `baroque_puzzle::anticipation`): the key of its position up to the symmetries of its game,
    // and the keys of its position without each of its pieces; rows stored before are filled at
    // start-up.
    "ALTER TABLE puzzles ADD COLUMN authors TEXT;
    ALTER TABLE puzzles ADD COLUMN published TEXT;
    ALTER TABLE puzzles ADD COLUMN award TEXT;
    ALTER TABLE puzzles ADD COLUMN keywords TEXT;
    ALTER TABLE puzzles ADD COLUMN notes TEXT;
    ALTER TABLE puzzles ADD COLUMN position_key {int};
    CREATE INDEX puzzles_published ON puzzles (published, id);
    CREATE INDEX puzzles_position_key ON puzzles (position_key);
    CREATE TABLE puzzle_near_keys (
        near_key {int} NOT NULL,
        puzzle_id {int} NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        PRIMARY KEY (near_key, puzzle_id)
    ){compact};
    CREATE INDEX puzzle_near_keys_puzzle ON puzzle_near_keys (puzzle_id);",
    // The search (see `crate::search`): a mate puzzle's stipulation family and length; the
    // features a puzzle is found by (its pieces, its pieces on their squares, the words of its
    // authors, keywords and award); and the full text of its title, caption, authors, source,
    // award, keywords and notes ({text_index}: SQLite's FTS5 table kept by triggers, PostgreSQL's
    // generated `tsvector` under a GIN index). Rows stored before get their family, length and
    // features at start-up.
    "ALTER TABLE puzzles ADD COLUMN family TEXT;
    ALTER TABLE puzzles ADD COLUMN length {real};
    CREATE INDEX puzzles_family_length ON puzzles (family, length, id);
    CREATE TABLE puzzle_features (
        feature TEXT NOT NULL,
        puzzle_id {int} NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        PRIMARY KEY (feature, puzzle_id)
    ){compact};
    CREATE INDEX puzzle_features_puzzle ON puzzle_features (puzzle_id);
    {text_index}",
];

/// The text a puzzle's full-text index holds, of the row `row` (`new.`, `p.`, or `` for the row
/// itself).
fn text_body(row: &str) -> String {
    [
        "title", "caption", "authors", "source", "award", "keywords", "notes",
    ]
    .iter()
    .map(|c| format!("coalesce({row}{c}, '')"))
    .collect::<Vec<_>>()
    .join(" || ' ' || ")
}

/// The full-text index in a dialect. Both split the text into words as the query is split
/// (`crate::search::words`: punctuation separates, `2.5` is two words) and fold case without
/// removing accents.
fn text_index(dialect: Dialect) -> String {
    match dialect {
        Dialect::Sqlite => format!(
            "CREATE VIRTUAL TABLE puzzle_text USING fts5(body, tokenize = 'unicode61 remove_diacritics 0');
    CREATE TRIGGER puzzles_text_insert AFTER INSERT ON puzzles BEGIN
        INSERT INTO puzzle_text (rowid, body) VALUES (new.id, {new});
    END;
    CREATE TRIGGER puzzles_text_update
        AFTER UPDATE OF title, caption, source, authors, award, keywords, notes ON puzzles BEGIN
        DELETE FROM puzzle_text WHERE rowid = old.id;
        INSERT INTO puzzle_text (rowid, body) VALUES (new.id, {new});
    END;
    CREATE TRIGGER puzzles_text_delete AFTER DELETE ON puzzles BEGIN
        DELETE FROM puzzle_text WHERE rowid = old.id;
    END;
    INSERT INTO puzzle_text (rowid, body) SELECT p.id, {p} FROM puzzles p;",
            new = text_body("new."),
            p = text_body("p."),
        ),
        Dialect::Postgres => format!(
            "ALTER TABLE puzzles ADD COLUMN search_text tsvector
        GENERATED ALWAYS AS (to_tsvector('simple'::regconfig,
            regexp_replace({p}, '[[:punct:][:space:]]+', ' ', 'g'))) STORED;
    CREATE INDEX puzzles_search_text ON puzzles USING GIN (search_text);",
            p = text_body("")
        ),
    }
}

/// Every migration, in order, in `dialect`.
pub(crate) fn migrations(dialect: Dialect) -> Vec<String> {
    let (id, int, real, compact) = match dialect {
        Dialect::Sqlite => (
            "INTEGER PRIMARY KEY AUTOINCREMENT",
            "INTEGER",
            "REAL",
            " WITHOUT ROWID",
        ),
        Dialect::Postgres => (
            "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
            "BIGINT",
            "DOUBLE PRECISION",
            "",
        ),
    };
    MIGRATIONS
        .iter()
        .map(|m| {
            m.replace("{text_index}", &text_index(dialect))
                .replace("{id}", id)
                .replace("{int}", int)
                .replace("{real}", real)
                .replace("{compact}", compact)
        })
        .collect()
}

/// How many migrations this build applies: the schema version of an up-to-date store.
pub(crate) const VERSION: usize = MIGRATIONS.len();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_rendered_in_both_dialects() {
        for dialect in [Dialect::Sqlite, Dialect::Postgres] {
            let all = migrations(dialect);
            assert_eq!(all.len(), VERSION);
            assert!(all.iter().all(|m| !m.contains('{') && !m.contains('}')));
        }
        let sqlite = migrations(Dialect::Sqlite);
        assert!(sqlite[0].contains("id INTEGER PRIMARY KEY AUTOINCREMENT"));
        assert!(sqlite[4].ends_with("NOT NULL) WITHOUT ROWID;"));
        let pg = migrations(Dialect::Postgres);
        assert!(pg[8].contains("lease_until BIGINT NOT NULL"));
        assert!(!pg.iter().any(|m| m.contains("ROWID")));
    }
}
