//! Seeding at start-up: every diagram case of `<fixtures>/diagrams/*.json` and every mate puzzle of
//! `<fixtures>/puzzles/*.json` is verified, then all are stored in one transaction, idempotently
//! (the content hash). A fixture the engine or the solver contradicts stops start-up with a message
//! naming its file and id; nothing is written then.
//!
//! Rococo diagram cases and mate puzzles are seeded like the Baroque ones (their FEN is stored
//! canonical, a diagram's moves as written; a mate is solved: forcing the capture of the King).

use crate::cases::Destinations;
use crate::outcome::PuzzleOutcome;
use crate::puzzle::{
    verify, About, Claim, DiagramClaim, Kind, MateClaim, NewPuzzle, VerifiedPuzzle, VerifyError,
};
use crate::solver::SolveOptions;
use crate::store::{Store, StoredPuzzle};
use std::path::{Path, PathBuf};

/// What seeding did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeedReport {
    /// Fixtures verified (diagram cases and mate puzzles).
    pub verified: usize,
    /// Rows new to the database.
    pub inserted: usize,
}

/// Where the fixtures that seed the store come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fixtures {
    /// The document fixtures compiled into the binary (this package's `fixtures/diagrams` and
    /// `fixtures/puzzles`), so that it starts from any directory.
    Embedded,
    /// A directory with `diagrams/*.json` and `puzzles/*.json`.
    Dir(PathBuf),
}

impl std::fmt::Display for Fixtures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fixtures::Embedded => f.write_str("the fixtures built in"),
            Fixtures::Dir(dir) => write!(f, "{}", dir.display()),
        }
    }
}

/// The fixture files compiled in, named by their path under `fixtures/` (a test checks the list
/// against the directory).
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "diagrams/rococo.json",
        include_str!("../../../fixtures/diagrams/rococo.json"),
    ),
    (
        "diagrams/vchess.json",
        include_str!("../../../fixtures/diagrams/vchess.json"),
    ),
    (
        "diagrams/wikipedia.json",
        include_str!("../../../fixtures/diagrams/wikipedia.json"),
    ),
    (
        "puzzles/rococo.json",
        include_str!("../../../fixtures/puzzles/rococo.json"),
    ),
    (
        "puzzles/wikipedia.json",
        include_str!("../../../fixtures/puzzles/wikipedia.json"),
    ),
];

/// One fixture file: its name (the path it is reported by) and its text.
struct FixtureFile {
    path: PathBuf,
    text: String,
}

/// The fixture files of a source: diagram files, then puzzle files, each sorted by name.
fn fixture_files(source: &Fixtures) -> Result<(Vec<FixtureFile>, Vec<FixtureFile>), String> {
    match source {
        Fixtures::Embedded => {
            let of = |prefix: &str| {
                EMBEDDED
                    .iter()
                    .filter(|(name, _)| name.starts_with(prefix))
                    .map(|(name, text)| FixtureFile {
                        path: PathBuf::from("fixtures").join(name),
                        text: (*text).to_string(),
                    })
                    .collect()
            };
            Ok((of("diagrams/"), of("puzzles/")))
        }
        Fixtures::Dir(dir) => {
            let diagrams = dir.join("diagrams");
            let puzzles = dir.join("puzzles");
            if !diagrams.is_dir() && !puzzles.is_dir() {
                return Err(format!(
                    "no fixtures in {}: it needs a diagrams/ or puzzles/ directory (set --fixtures or BAROQUE_FIXTURES, or leave it out for the fixtures built in)",
                    dir.display()
                ));
            }
            let read = |sub: &Path| -> Result<Vec<FixtureFile>, String> {
                if !sub.is_dir() {
                    return Ok(Vec::new());
                }
                crate::cases::files_in(sub)?
                    .into_iter()
                    .map(|path| {
                        let text = std::fs::read_to_string(&path)
                            .map_err(|e| format!("{}: {e}", path.display()))?;
                        Ok(FixtureFile { path, text })
                    })
                    .collect()
            };
            Ok((read(&diagrams)?, read(&puzzles)?))
        }
    }
}

/// The fixtures of `source`, verified. Errors name the fixture.
pub fn verified_fixtures(
    source: &Fixtures,
    solve: &SolveOptions,
) -> Result<Vec<VerifiedPuzzle>, String> {
    let mut out = Vec::new();
    let (diagrams, puzzles) = fixture_files(source)?;
    let named = |path: &Path, id: &str, e: VerifyError| {
        format!("fixture {id} of {} is contradicted: {e}", path.display())
    };
    for FixtureFile { path, text } in &diagrams {
        let file: crate::cases::CaseFile =
            serde_json::from_str(text).map_err(|e| format!("{}: {e}", path.display()))?;
        for case in &file.cases {
            let rules = case
                .rules()
                .map_err(|e| format!("fixture {} of {}: rules: {e}", case.id, path.display()))?;
            let p = NewPuzzle {
                variant: variant_of(file.game, rules, path, &case.id)?,
                fen: case.fen.clone(),
                claim: Claim::Diagram(DiagramClaim::of_case(case)),
                about: About {
                    title: case.title.clone().or_else(|| case.section.clone()),
                    source: Some(file.document.clone()),
                    caption: case.note.clone(),
                    tags: case
                        .section
                        .iter()
                        .map(|s| s.to_lowercase())
                        .chain(["fixture".to_string()])
                        .collect(),
                    fixture: Some(case.id.clone()),
                    history: Default::default(),
                },
            };
            out.push(verify(p, solve).map_err(|e| named(path, &case.id, e))?);
        }
    }
    for FixtureFile { path, text } in &puzzles {
        let file: crate::puzzles::PuzzleFile =
            serde_json::from_str(text).map_err(|e| format!("{}: {e}", path.display()))?;
        for pz in &file.puzzles {
            let rules = pz
                .rules()
                .map_err(|e| format!("fixture {} of {}: rules: {e}", pz.id, path.display()))?;
            let p = NewPuzzle {
                variant: variant_of(file.game, rules, path, &pz.id)?,
                fen: pz.fen.clone(),
                claim: Claim::Mate(MateClaim {
                    stipulation: crate::solver::Stipulation::Mate(pz.mate_in),
                    keys: Some(pz.keys.clone()),
                    short_solutions: pz.short_solutions.clone(),
                    sound: Some(pz.sound),
                    ..MateClaim::default()
                }),
                about: About {
                    title: pz.title.clone(),
                    source: Some(file.document.clone()),
                    caption: pz.note.clone(),
                    tags: vec!["fixture".into()],
                    fixture: Some(pz.id.clone()),
                    history: Default::default(),
                },
            };
            out.push(verify(p, solve).map_err(|e| named(path, &pz.id, e))?);
        }
    }
    Ok(out)
}

/// The variant of a fixture: its file's game with the fixture's rule set where the game has rule
/// sets.
fn variant_of(
    game: crate::rules::GameKind,
    rules: crate::rules::Rules,
    path: &Path,
    id: &str,
) -> Result<crate::rules::Variant, String> {
    crate::rules::Variant::of(
        game,
        crate::rules::Variant::has_rule_sets(game).then_some(rules),
    )
    .map_err(|e| format!("fixture {id} of {}: {e}", path.display()))
}

/// Runs `change` on every stored puzzle of `kind`, `per_page` rows read at a time, unless the
/// store fact `fact` says `done` already; then records it. `change` says whether it changed the
/// row; the number of rows changed. Errors are said with `what` (the upgrade's name).
pub(crate) fn upgrade_rows(
    store: &Store,
    what: &str,
    (fact, done): (&str, &str),
    kind: Option<Kind>,
    per_page: u32,
    mut change: impl FnMut(&StoredPuzzle) -> Result<bool, crate::store::StoreError>,
) -> Result<usize, String> {
    let failed = |e: crate::store::StoreError| format!("{what}: {e}");
    if store.fact(fact).map_err(failed)?.as_deref() == Some(done) {
        return Ok(0);
    }
    let filter = crate::store::Filter {
        kind,
        ..Default::default()
    };
    let (mut after, mut changed) = (0, 0);
    loop {
        let (rows, more) = store.list(&filter, after, per_page).map_err(failed)?;
        for row in &rows {
            changed += usize::from(change(row).map_err(failed)?);
        }
        match rows.last() {
            Some(last) if more => after = last.id,
            _ => break,
        }
    }
    store.set_fact(fact, done).map_err(failed)?;
    Ok(changed)
}

/// The store fact saying that every stored diagram's hash is made from its canonical moves.
const CANONICAL_HASHES: &str = "diagram_hashes";

/// Gives the stored diagrams the content hash of today's rule (moves in canonical notation: a
/// store written before it kept some games' moves as written), so that the same puzzle posted
/// again (a fixture at the next start-up among them) is found rather than stored twice. Done once
/// per store (a fact records it); the number of rows changed.
pub fn upgrade_hashes(store: &Store) -> Result<usize, String> {
    let fact = (CANONICAL_HASHES, "canonical");
    upgrade_rows(
        store,
        "upgrading content hashes",
        fact,
        Some(Kind::Diagram),
        200,
        |row| {
            let destinations = match &row.outcome {
                Some(PuzzleOutcome::Diagram(d)) => d.destinations.as_ref().map(Destinations::from),
                _ => None,
            };
            let hash = crate::puzzle::current_diagram_hash(
                row.variant,
                &row.fen,
                &row.moves,
                destinations.as_ref(),
            );
            match hash.filter(|h| *h != row.content_hash) {
                Some(hash) => store.set_content_hash(row.id, &hash),
                None => Ok(false),
            }
        },
    )
}

/// The store fact naming the version of the difficulty formula its mate rows were computed with.
const DIFFICULTY_FORMULA: &str = "difficulty_formula";

/// Computes the difficulty of every stored mate puzzle from its stored outcome
/// ([`crate::difficulty`]) when the store's rows were computed with another version of the
/// formula, or before difficulties (a store written by an older build). Done once per formula (a
/// fact records it); the number of rows changed.
pub fn fill_difficulties(store: &Store) -> Result<usize, String> {
    let version = crate::difficulty::FORMULA.to_string();
    let fact = (DIFFICULTY_FORMULA, version.as_str());
    upgrade_rows(
        store,
        "computing difficulties",
        fact,
        Some(Kind::Mate),
        200,
        |row| {
            let stipulation = row.stipulation;
            let d = row
                .outcome
                .as_ref()
                .and_then(|o| crate::difficulty::of_stored(stipulation, &row.fen, o));
            Ok(d != row.difficulty && store.set_difficulty(row.id, d)?)
        },
    )
}

/// The store fact naming the most lines a stored helpmate outcome keeps.
const OUTCOME_LINES: &str = "outcome_lines";

/// Cuts the helpmate outcomes stored before their size was capped to
/// [`crate::puzzle::MAX_STORED_LINES`] lines of each length (`solutions_truncated` then says so),
/// once per cap (a fact records it); the number of rows changed.
pub fn cap_outcomes(store: &Store) -> Result<usize, String> {
    let cap = crate::puzzle::MAX_STORED_LINES;
    let done = cap.to_string();
    let fact = (OUTCOME_LINES, done.as_str());
    upgrade_rows(
        store,
        "capping stored outcomes",
        fact,
        Some(Kind::Mate),
        50,
        |row| {
            let Some(PuzzleOutcome::Help(mut help)) = row.outcome.clone() else {
                return Ok(false);
            };
            if !help.cap(cap) {
                return Ok(false);
            }
            store.set_outcome(row.id, &PuzzleOutcome::Help(help), row.difficulty)
        },
    )
}

/// The store fact naming the reading of Rococo's rules its Rococo mate puzzles were solved under.
const ROCOCO_READING: &str = "rococo_reading";
/// The reading of this build: every legal move counts in every stipulation, one that leaves the
/// mover's King capturable too (`../shared/RULES.md`, Rococo's last point). Stores written before
/// it solved selfmates, helpmates and tries with only the moves that keep the King.
pub const ROCOCO_READING_NOW: &str = "every-legal-move";

/// What verifying the stored Rococo puzzles again did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reverified {
    /// Rococo mate puzzles solved again.
    pub checked: usize,
    /// Those whose answer changed (their outcome and difficulty rewritten).
    pub changed: usize,
    /// Those the solve's budget did not settle (kept as they were, tried again at the next start).
    pub unsettled: usize,
}

/// Solves every stored Rococo mate puzzle again when the store's were solved under an older
/// reading of the rules (a fact records the reading), rewrites the outcome (and difficulty) of
/// each whose answer changed, and logs each of those. A puzzle that no longer holds is kept, with
/// the outcome that says so (`no_mate`, not sound). The fact is recorded once every puzzle was
/// settled; puzzles left unsettled by the budget are tried again at the next start.
pub fn reverify_rococo(store: &Store, solve: &SolveOptions) -> Result<Reverified, String> {
    use crate::puzzle::{check_mate, mate_outcome, MateCheck};
    let failed = |e: crate::store::StoreError| format!("verifying Rococo puzzles again: {e}");
    if store.fact(ROCOCO_READING).map_err(failed)?.as_deref() == Some(ROCOCO_READING_NOW) {
        return Ok(Reverified::default());
    }
    let filter = crate::store::Filter {
        kind: Some(Kind::Mate),
        game: Some(crate::rules::GameKind::Rococo),
        ..Default::default()
    };
    let mut report = Reverified::default();
    let mut after = 0;
    loop {
        let (rows, more) = store.list(&filter, after, 200).map_err(failed)?;
        for row in &rows {
            let Some(stipulation) = row.stipulation else {
                continue;
            };
            let Ok((pos, _)) =
                crate::rules::Variant::Rococo.position(&row.fen, crate::rules::Naming::default())
            else {
                tracing::warn!(id = row.id, fen = %row.fen, "a stored Rococo puzzle's FEN no longer reads");
                continue;
            };
            // A helpmate stored as sound had as many solutions as it meant to.
            let sound_before = row.outcome.as_ref().and_then(PuzzleOutcome::sound);
            let intended = match row.outcome.as_ref().and_then(PuzzleOutcome::help) {
                Some(h) if sound_before == Some(true) && stipulation.lists_lines() => Some(h.count),
                _ => None,
            };
            let claim = MateClaim {
                stipulation,
                intended_solutions: intended,
                ..Default::default()
            };
            report.checked += 1;
            let solution = match check_mate(&pos, &claim, solve) {
                Ok(MateCheck::Settled { solution, .. }) => solution,
                Ok(MateCheck::Unsettled { .. }) => {
                    report.unsettled += 1;
                    tracing::warn!(id = row.id, %stipulation, "a stored Rococo puzzle was not settled within the solve budget: kept as it was");
                    continue;
                }
                Err(e) => {
                    report.unsettled += 1;
                    tracing::warn!(id = row.id, %stipulation, error = %e, "a stored Rococo puzzle cannot be solved again: kept as it was");
                    continue;
                }
            };
            let outcome = mate_outcome(stipulation, &solution);
            if row.outcome.as_ref() == Some(&outcome) {
                continue;
            }
            let difficulty = crate::difficulty::difficulty(stipulation, &row.fen, &outcome);
            if store
                .set_outcome(row.id, &outcome, difficulty)
                .map_err(failed)?
            {
                report.changed += 1;
                tracing::warn!(
                    id = row.id,
                    %stipulation,
                    fen = %row.fen,
                    sound_before = ?sound_before,
                    sound_now = ?outcome.sound(),
                    result_now = ?outcome.result(),
                    "a stored Rococo puzzle's answer changed under the rules' reading of this build: its outcome is rewritten"
                );
            }
        }
        match rows.last() {
            Some(last) if more => after = last.id,
            _ => break,
        }
    }
    if report.unsettled == 0 {
        store
            .set_fact(ROCOCO_READING, ROCOCO_READING_NOW)
            .map_err(failed)?;
    }
    Ok(report)
}

/// Brings a store written by an older build up to this one's readings, before it serves: the
/// Rococo puzzles solved again ([`reverify_rococo`]), then every difficulty
/// ([`fill_difficulties`]) and search index ([`crate::anticipation::fill_search_index`]). Logs what
/// it changed.
pub fn upgrade(store: &Store, solve: &SolveOptions) -> Result<(), String> {
    let r = reverify_rococo(store, solve)?;
    if r.checked > 0 {
        tracing::info!(
            checked = r.checked,
            changed = r.changed,
            unsettled = r.unsettled,
            "stored Rococo puzzles verified again under this build's reading of the rules"
        );
    }
    let filled = fill_difficulties(store)?;
    if filled > 0 {
        tracing::info!(filled, "difficulties of stored mate puzzles computed");
    }
    let indexed = crate::anticipation::fill_search_index(store)?;
    if indexed > 0 {
        tracing::info!(
            indexed,
            "stored puzzles indexed for search and anticipation"
        );
    }
    let capped = cap_outcomes(store)?;
    if capped > 0 {
        tracing::info!(
            capped,
            max_lines = crate::puzzle::MAX_STORED_LINES,
            "stored helpmate outcomes cut to the most solution lines kept"
        );
    }
    Ok(())
}

/// Verifies the fixtures of `source` and stores them (one transaction), after upgrading the hashes
/// of rows stored under an older rule ([`upgrade_hashes`]).
pub fn seed(store: &Store, source: &Fixtures, solve: &SolveOptions) -> Result<SeedReport, String> {
    let upgraded = upgrade_hashes(store)?;
    if upgraded > 0 {
        tracing::info!(
            upgraded,
            "content hashes of stored diagrams made from canonical moves"
        );
    }
    let puzzles = verified_fixtures(source, solve)?;
    let inserted = store
        .insert_all(&puzzles)
        .map_err(|e| format!("storing the fixtures: {e}"))?;
    Ok(SeedReport {
        verified: puzzles.len(),
        inserted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GameKind;

    fn fixtures_dir() -> Fixtures {
        Fixtures::Dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"))
    }

    fn solve() -> SolveOptions {
        SolveOptions {
            threads: 1,
            table_mib: 4,
            ..SolveOptions::default()
        }
    }

    /// A store written when Rococo diagrams were hashed with their moves as written: seeding it
    /// again finds its rows instead of storing every such fixture a second time.
    #[test]
    fn rows_hashed_under_the_old_rule_are_found_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("old.db")).unwrap();
        let mut fixtures = verified_fixtures(&fixtures_dir(), &solve()).unwrap();
        let mut legacy = 0;
        for p in fixtures
            .iter_mut()
            .filter(|p| p.game == GameKind::Rococo && p.kind == Kind::Diagram)
        {
            let old = crate::puzzle::content_hash(
                p.kind,
                p.game,
                &p.fen,
                &p.rules,
                &p.moves
                    .iter()
                    .map(|m| m.trim().to_string())
                    .collect::<Vec<_>>(),
                match &p.outcome {
                    PuzzleOutcome::Diagram(d) => d.destinations.as_ref().map(Destinations::from),
                    _ => None,
                }
                .as_ref(),
                None,
            );
            if old != p.content_hash {
                legacy += 1;
                p.content_hash = old;
            }
        }
        assert!(
            legacy >= 3,
            "fixtures whose moves are not canonical: {legacy}"
        );
        let total = fixtures.len();
        assert_eq!(store.insert_all(&fixtures).unwrap(), total);
        let report = seed(&store, &fixtures_dir(), &solve()).unwrap();
        assert_eq!(report.inserted, 0, "nothing stored twice");
        // And again: the upgrade is done once.
        assert_eq!(upgrade_hashes(&store).unwrap(), 0);
        let (rows, _) = store.list(&Default::default(), 0, 200).unwrap();
        assert_eq!(rows.len(), total);
    }

    /// A helpmate outcome stored before the cap keeps its first lines and says it was cut, once;
    /// other outcomes are left as they are.
    #[test]
    fn stored_helpmate_outcomes_are_capped_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("old.db")).unwrap();
        let fixtures = verified_fixtures(&fixtures_dir(), &solve()).unwrap();
        // A helpmate's outcome as an older build stored it: 150 solutions, none left out.
        let mut wide = fixtures
            .iter()
            .find(|p| p.kind == Kind::Mate)
            .expect("a mate fixture")
            .clone();
        let line = serde_json::json!([{"notation": "Kd3-c2", "uci": "d3c2", "captures": []}]);
        wide.stipulation = Some(crate::solver::Stipulation::HelpMate {
            moves: 1,
            half: false,
        });
        let wide_outcome = serde_json::json!({"result": "mate", "stipulation": "h#1", "sound": false,
            "solutions": vec![line; 150], "count": 150, "short_solutions": [],
            "solutions_truncated": false});
        wide.outcome = PuzzleOutcome::read(wide.stipulation, &wide_outcome.to_string()).unwrap();
        wide.content_hash = "wide".into();
        store.insert_all(&fixtures).unwrap();
        store.insert_all(std::slice::from_ref(&wide)).unwrap();
        let before = store.list(&Default::default(), 0, 200).unwrap().0;
        assert_eq!(cap_outcomes(&store).unwrap(), 1);
        assert_eq!(cap_outcomes(&store).unwrap(), 0, "done once");
        for (then, now) in before
            .iter()
            .zip(store.list(&Default::default(), 0, 200).unwrap().0)
        {
            if then.content_hash == "wide" {
                let help = |p: &StoredPuzzle| p.outcome.as_ref().unwrap().help().unwrap().clone();
                assert_eq!(help(&now).solutions.len(), 100);
                assert_eq!(help(&now).solutions_truncated, Some(true));
                assert_eq!(help(&now).count, help(then).count);
                assert_eq!(now.difficulty, then.difficulty);
            } else {
                assert_eq!(now.outcome, then.outcome);
            }
        }
    }

    /// Mate rows without a difficulty (a store written before difficulties, or under another
    /// formula) get the one their outcome gives, once; diagrams keep none.
    #[test]
    fn stored_mates_get_their_difficulty_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("old.db")).unwrap();
        let fixtures = verified_fixtures(&fixtures_dir(), &solve()).unwrap();
        store.insert_all(&fixtures).unwrap();
        let (rows, _) = store.list(&Default::default(), 0, 200).unwrap();
        let want: Vec<Option<u8>> = rows.iter().map(|r| r.difficulty).collect();
        let mates = want.iter().filter(|d| d.is_some()).count();
        assert!(mates >= 6, "{want:?}");
        for r in &rows {
            assert_eq!(r.difficulty.is_some(), r.kind == Kind::Mate, "{}", r.fen);
            store.set_difficulty(r.id, None).unwrap();
        }
        // The fact of another formula's version (or none): every mate is computed again.
        store.set_fact(DIFFICULTY_FORMULA, "0").unwrap();
        assert_eq!(fill_difficulties(&store).unwrap(), mates);
        let (rows, _) = store.list(&Default::default(), 0, 200).unwrap();
        assert_eq!(rows.iter().map(|r| r.difficulty).collect::<Vec<_>>(), want);
        assert_eq!(fill_difficulties(&store).unwrap(), 0);
    }

    /// Rococo puzzles stored under the old reading (only moves that keep the King counted) are
    /// solved again once: an `h#1` that lacked the lines whose Black move leaves its King
    /// capturable, and a `#1` stored with another soundness, are rewritten and counted; a Baroque
    /// puzzle and an unchanged Rococo one are not.
    #[test]
    fn rococo_puzzles_of_the_old_reading_are_solved_again_once() {
        use crate::puzzle::{verify, About, Claim, MateClaim, NewPuzzle};
        use crate::rules::Variant;
        use crate::solver::Stipulation;
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("old.db")).unwrap();
        let puzzle = |variant: Variant, fen: &str, stipulation: Stipulation| {
            let p = NewPuzzle {
                variant,
                fen: fen.into(),
                claim: Claim::Mate(MateClaim {
                    stipulation,
                    ..Default::default()
                }),
                about: About::default(),
            };
            verify(p, &solve()).unwrap()
        };
        // Today's outcomes, then the outcome the old reading stored.
        let mut help = puzzle(
            Variant::Rococo,
            "10/10/3K6/10/10/1k2S5/3A6/10/10/10 b 0",
            Stipulation::HelpMate {
                moves: 1,
                half: false,
            },
        );
        let fresh_help = help.outcome.clone();
        let PuzzleOutcome::Help(h) = &mut help.outcome else {
            panic!("a helpmate's outcome: {fresh_help:?}");
        };
        assert_eq!(h.count, 2, "{fresh_help:?}");
        h.count = 0;
        h.solutions.clear();
        let mut mate = puzzle(
            Variant::Rococo,
            "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0",
            Stipulation::Mate(1),
        );
        let fresh_mate = mate.outcome.clone();
        let PuzzleOutcome::Keys(k) = &mut mate.outcome else {
            panic!("a mate's outcome: {fresh_mate:?}");
        };
        k.sound = Some(false);
        let unchanged = puzzle(
            Variant::Rococo,
            "10/10/4k5/10/10/10/4L5/10/2K7/10 w 0",
            Stipulation::Mate(1),
        );
        let baroque = puzzle(
            Variant::default(),
            "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
            Stipulation::Mate(2),
        );
        let stored_baroque = baroque.outcome.clone();
        store.insert_all(&[help, mate, unchanged, baroque]).unwrap();
        store.set_fact(ROCOCO_READING, "keeping-moves").unwrap();
        let r = reverify_rococo(&store, &solve()).unwrap();
        assert_eq!(
            r,
            Reverified {
                checked: 3,
                changed: 2,
                unsettled: 0
            }
        );
        let (rows, _) = store.list(&Default::default(), 0, 200).unwrap();
        assert_eq!(rows[0].outcome, Some(fresh_help));
        assert_eq!(rows[1].outcome, Some(fresh_mate));
        assert_eq!(rows[3].outcome, Some(stored_baroque));
        assert!(rows[0].difficulty.is_some());
        // Done once.
        assert_eq!(
            reverify_rococo(&store, &solve()).unwrap(),
            Reverified::default()
        );
    }

    /// The fixtures built in are exactly the files of the package's fixture directories, byte for
    /// byte, and verify as the directory does.
    #[test]
    fn the_fixtures_built_in_are_the_directory() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        let mut on_disk = Vec::new();
        for sub in ["diagrams", "puzzles"] {
            for path in crate::cases::files_in(&root.join(sub)).unwrap() {
                let name = format!("{sub}/{}", path.file_name().unwrap().to_string_lossy());
                on_disk.push((name, std::fs::read_to_string(&path).unwrap()));
            }
        }
        let built_in: Vec<(String, String)> = EMBEDDED
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        assert_eq!(
            built_in, on_disk,
            "crates/app/src/seed.rs EMBEDDED lists every fixture file"
        );
        let a = verified_fixtures(&Fixtures::Embedded, &solve()).unwrap();
        let b = verified_fixtures(&fixtures_dir(), &solve()).unwrap();
        assert_eq!(a.len(), b.len());
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| x.content_hash == y.content_hash));
    }
}
