//! Anticipation: the stored problems that anticipate a posted position (the same position, a near
//! one, or the same key) up to the symmetries of its game, answered from the store's keys
//! ([`crate::puzzle::anticipation`]), never by solving a stored problem.

use crate::puzzle::anticipation::{compare, pattern_key, Keys, Relation};
use crate::puzzle::twins;
use crate::puzzle::{Claim, NewPuzzle};
use crate::rules::symmetry::Pattern;
use crate::rules::{Naming, VariantPosition};
use crate::solver::Stipulation;
use crate::store::search::SearchIndex;
use crate::store::{Store, StoreError, StoredPuzzle};

/// The most candidates one lookup reads from the store.
pub const MAX_CANDIDATES: u32 = 1_000;

/// A stored problem that anticipates the posted position.
#[derive(Clone, Debug)]
pub struct Anticipation {
    /// The stored problem, without its outcome.
    pub puzzle: StoredPuzzle,
    pub relation: Relation,
    /// The symmetry that turns the stored position into the posted one (or its nearest image),
    /// as a twin names it (`rotate 90`, `mirror a1<->a8`, `none`).
    pub transform: String,
    /// What the posted position has that the stored one's image has not, as twins write it
    /// (`+wPa3`, `-bNc4`, `wKc7-->d7`); empty for the same position.
    pub difference: Vec<String>,
    /// Whether the stored problem has the stipulation asked for (always, when none was).
    pub same_stipulation: bool,
}

/// The stored problems anticipating a position.
#[derive(Clone, Debug, Default)]
pub struct AnticipationReport {
    /// The same positions first, then the near ones; those of the stipulation asked for first
    /// within each; then by id.
    pub matches: Vec<Anticipation>,
    /// Whether more candidates than [`MAX_CANDIDATES`] shared a key with the position (a sparse
    /// position near many stored ones): the matches are those of the first candidates by id.
    pub truncated: bool,
}

/// The stored problems that anticipate `pos`, squares named by `naming`: the same position
/// and the near ones (a piece added, removed, moved or changed), each up to the game's symmetries
/// ([`crate::rules::symmetry::Symmetry::of_game`]); with `stipulation`, those of that stipulation
/// come first.
///
/// # Errors
/// The store's.
pub fn anticipate(
    store: &Store,
    pos: &VariantPosition,
    stipulation: Option<Stipulation>,
    naming: Naming,
) -> Result<AnticipationReport, StoreError> {
    let posted = Pattern::of(pos);
    let keys = Keys::of_pattern(&posted);
    let mut lookup = vec![keys.position];
    lookup.extend(&keys.near);
    let (candidates, truncated) = store.anticipation_candidates(&lookup, MAX_CANDIDATES)?;
    let mut matches: Vec<Anticipation> = candidates
        .into_iter()
        .filter_map(|puzzle| compared(puzzle, pos, &posted, naming, stipulation))
        .collect();
    matches.sort_by_key(|m| (m.relation, !m.same_stipulation, m.puzzle.id));
    Ok(AnticipationReport { matches, truncated })
}

/// How a stored puzzle anticipates the posted position `pos` (its pattern `posted`), squares
/// named by `naming`; `None` when it does not (a hash collision, or a FEN that no longer reads).
fn compared(
    puzzle: StoredPuzzle,
    pos: &VariantPosition,
    posted: &Pattern,
    naming: Naming,
    stipulation: Option<Stipulation>,
) -> Option<Anticipation> {
    let stored = Pattern::of(
        &puzzle
            .variant
            .read_fen(&puzzle.fen, Naming::default())
            .ok()?,
    );
    let name = |p, sq: u8| twins::named(pos, Some(p), usize::from(sq), naming);
    let c = compare(&stored, posted, name)?;
    Some(Anticipation {
        transform: c.symmetry.name(pos.kind().files()),
        relation: c.relation,
        difference: c.difference,
        same_stipulation: stipulation.is_none_or(|s| puzzle.stipulation == Some(s)),
        puzzle,
    })
}

/// What every stored puzzle written before them is found by (anticipation's keys, its
/// stipulation's family and length, its features: see [`crate::store::search::SearchIndex`]),
/// once (a store fact records it); the number of rows filled.
///
/// # Errors
/// The store's, as text.
pub fn fill_search_index(store: &Store) -> Result<usize, String> {
    crate::seed::upgrade_rows(
        store,
        "indexing stored puzzles for search and anticipation",
        ("search_index", "1"),
        None,
        500,
        |row| {
            let index = SearchIndex::of(
                row.kind,
                row.variant,
                &row.fen,
                row.stipulation,
                &row.history,
            );
            store.set_search_index(row.id, &index)
        },
    )
}

/// The stored problem holding the same position as `new` (up to a symmetry of its game) with the
/// same stipulation and rule set, when there is one: what a post with `"anticipation": "refuse"` refuses. A
/// diagram, or a FEN that does not read, has none.
///
/// # Errors
/// The store's.
pub fn anticipated_by(store: &Store, new: &NewPuzzle) -> Result<Option<Anticipation>, StoreError> {
    let Claim::Mate(claim) = &new.claim else {
        return Ok(None);
    };
    same_problem(store, new.variant, &new.fen, claim.stipulation)
}

/// The stored problem of `stipulation` and `variant` (the game and its rule set) whose position
/// is the one at `fen` up to a symmetry of its game, when there is one (the identical one
/// included).
///
/// # Errors
/// The store's.
pub fn same_problem(
    store: &Store,
    variant: crate::rules::Variant,
    fen: &str,
    stipulation: Stipulation,
) -> Result<Option<Anticipation>, StoreError> {
    let Ok(pos) = variant.read_fen(fen, Naming::default()) else {
        return Ok(None);
    };
    let posted = Pattern::of(&pos);
    // Read by the position's key alone, so that no number of near positions hides it.
    let candidates = store.same_position(pattern_key(&posted), MAX_CANDIDATES)?;
    // The same rule set too: under other rules the same position is another problem.
    Ok(candidates
        .into_iter()
        .filter(|p| p.stipulation == Some(stipulation) && p.variant == variant)
        .filter_map(|p| compared(p, &pos, &posted, Naming::default(), Some(stipulation)))
        .find(|a| a.relation == Relation::Same))
}
