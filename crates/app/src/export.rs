//! Exporting a collection in bounded memory: the HTTP export and `baroque export` both read the
//! collection a page of [`PAGE`] puzzles at a time and write each page as one chunk, so that what
//! an export holds is one page, whatever the size of the collection.
//!
//! PGN and CSV carry stipulated problems only: the diagrams they leave out are found first, by
//! one pass over the collection that reads no outcome, so that they can be named before the
//! first game (in a header, in PGN's `%` lines).

use crate::formats::{csv, exportable, pgn, Format};
use crate::store::{Store, StoreError, StoredPuzzle};

/// Puzzles read and written at a time.
pub const PAGE: u32 = 16;

/// Puzzles read at a time by the pass that finds the diagrams (no outcome is read).
const LEAN_PAGE: u32 = 1_000;

/// How a puzzle becomes a JSON line (the edge's JSON form of a stored puzzle, with its outcome).
pub type JsonLine = fn(StoredPuzzle, &mut Vec<u8>) -> Result<(), String>;

/// An export under way: [`Export::next_chunk`] gives its bytes, a chunk at a time. Every call
/// blocks on the store.
pub struct Export {
    store: Store,
    name: String,
    format: Format,
    json: JsonLine,
    skipped: Vec<i64>,
    games: usize,
    /// The position of the last puzzle written; `None` before the head.
    after: Option<i64>,
    done: bool,
}

impl std::fmt::Debug for Export {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Export")
            .field("name", &self.name)
            .field("format", &self.format)
            .field("skipped", &self.skipped.len())
            .field("after", &self.after)
            .finish_non_exhaustive()
    }
}

impl Export {
    /// Starts an export of the collection `name`: `None` when there is none. For PGN and CSV,
    /// reads the kinds of its puzzles (not their outcomes) to find the diagrams left out.
    ///
    /// # Errors
    /// The store's.
    pub fn open(
        store: Store,
        name: &str,
        format: Format,
        json: JsonLine,
    ) -> Result<Option<Export>, StoreError> {
        if store.collection_info(name)?.is_none() {
            return Ok(None);
        }
        let (mut skipped, mut games) = (Vec::new(), 0);
        if format != Format::Jsonl {
            for page in store.collection_pages(name, LEAN_PAGE, false) {
                for p in page? {
                    if exportable(&p) {
                        games += 1;
                    } else {
                        skipped.push(p.id);
                    }
                }
            }
        }
        Ok(Some(Export {
            store,
            name: name.to_string(),
            format,
            json,
            skipped,
            games,
            after: None,
            done: false,
        }))
    }

    /// The ids of the puzzles the export leaves out (diagrams, in PGN and CSV), in order.
    pub fn skipped(&self) -> &[i64] {
        &self.skipped
    }

    /// The next chunk of the export: the head (PGN's `%` lines, CSV's header row), then a page of
    /// puzzles at a time; `None` at the end. A chunk may be empty (a page of diagrams only).
    ///
    /// # Errors
    /// The store's failure, or a puzzle that cannot be written as JSON (never expected), in
    /// words.
    pub fn next_chunk(&mut self) -> Result<Option<Vec<u8>>, String> {
        if self.done {
            return Ok(None);
        }
        let Some(after) = self.after else {
            self.after = Some(0);
            return Ok(Some(match self.format {
                Format::Jsonl => Vec::new(),
                Format::Pgn => pgn::head(&self.skipped, self.games > 0).into_bytes(),
                Format::Csv => csv::head().into_bytes(),
            }));
        };
        let page = self
            .store
            .collection_page(&self.name, after, PAGE, true)
            .map_err(|e| format!("reading collection {}: {e}", self.name))?;
        let Some(&(last, _)) = page.last() else {
            self.done = true;
            return Ok(None);
        };
        self.after = Some(last);
        let mut chunk = Vec::new();
        for (_, p) in page {
            match self.format {
                Format::Jsonl => {
                    (self.json)(p, &mut chunk)?;
                    chunk.push(b'\n');
                }
                Format::Pgn => {
                    if let Some(game) = pgn::write_puzzle(&p) {
                        chunk.extend_from_slice(game.as_bytes());
                    }
                }
                Format::Csv => {
                    if let Some(row) = csv::write_puzzle(&p) {
                        chunk.extend_from_slice(row.as_bytes());
                    }
                }
            }
        }
        Ok(Some(chunk))
    }
}
