//! The store's promises on both backends. The same operations on a SQLite file and on a fresh
//! PostgreSQL database (of a throwaway cluster the test starts, `tests/common/postgres.rs`) give
//! the same answers; concurrent writes of one puzzle make one row; PostgreSQL's start-up errors are
//! one line without the password; a server gone away is `unavailable` (503 above) and the store
//! recovers when it returns. Without the PostgreSQL server binaries the PostgreSQL halves are
//! skipped with a message (CI installs them, and checks they ran).

#[path = "common/postgres.rs"]
mod pg;

use baroque::app::seed::{verified_fixtures, Fixtures};
use baroque::outcome::{KeysOutcome, PuzzleOutcome};
use baroque::solver::SolveOptions;
use baroque::store::collections::NewCollection;
use baroque::store::prelude::*;
use baroque::store::{After, Database, Filter, Kind, Store, StoredPuzzle, VerifiedPuzzle};
use std::sync::OnceLock;
use std::time::Duration;

fn fixtures() -> &'static [VerifiedPuzzle] {
    static ALL: OnceLock<Vec<VerifiedPuzzle>> = OnceLock::new();
    ALL.get_or_init(|| verified_fixtures(&Fixtures::Embedded, &SolveOptions::default()).unwrap())
}

fn postgres_store() -> Store {
    let url: Database = pg::cluster().fresh_database().parse().unwrap();
    Store::connect(&url).unwrap()
}

/// A collection to make of three Baroque `#2` of at most 7 pieces, from `seed`.
fn collection_of_three(seed: u64) -> NewCollection {
    NewCollection {
        game: baroque::rules::GameKind::Baroque,
        rules: "abbott".into(),
        stipulation: baroque::solver::Stipulation::Mate(2),
        seed,
        max_pieces: 7,
        count: 3,
        runner: baroque::app::processes::this_process(),
    }
}

/// A puzzle as compared across backends: everything but the time it was written.
fn comparable(mut p: StoredPuzzle) -> StoredPuzzle {
    assert!(
        p.created_at.len() == 24 && p.created_at.ends_with('Z'),
        "{}",
        p.created_at
    );
    p.created_at.clear();
    p
}

fn page(store: &Store, f: &Filter, after: After, limit: u32) -> (Vec<StoredPuzzle>, bool) {
    let (items, more) = store.list_page(f, after, limit).unwrap();
    (items.into_iter().map(comparable).collect(), more)
}

/// Every page of a listing, walked by its cursor.
fn walk(store: &Store, f: &Filter, by_difficulty: bool, limit: u32) -> Vec<StoredPuzzle> {
    let mut all = Vec::new();
    let mut after = if by_difficulty {
        After::Difficulty(None)
    } else {
        After::Id(0)
    };
    loop {
        let (items, more) = page(store, f, after, limit);
        let Some(last) = items.last() else { break };
        after = if by_difficulty {
            After::Difficulty(Some((last.difficulty.unwrap(), last.id)))
        } else {
            After::Id(last.id)
        };
        all.extend(items);
        if !more {
            break;
        }
    }
    all
}

/// Everything a store answers about what it holds, for the comparison.
fn answers(store: &Store) -> Vec<String> {
    let sample = fixtures()
        .iter()
        .find(|p| p.kind == Kind::Mate && !p.tags.is_empty())
        .expect("a mate fixture with tags");
    let filters = [
        Filter::default(),
        Filter {
            kind: Some(Kind::Mate),
            ..Filter::default()
        },
        Filter {
            kind: Some(Kind::Diagram),
            game: Some(baroque::rules::GameKind::Rococo),
            ..Filter::default()
        },
        Filter {
            preset: Some("vchess".into()),
            ..Filter::default()
        },
        Filter {
            mate_in: Some(2),
            stipulation: Some("#2".into()),
            ..Filter::default()
        },
        Filter {
            tag: Some(sample.tags[0].clone()),
            ..Filter::default()
        },
        Filter {
            source: sample.source.clone(),
            ..Filter::default()
        },
        Filter {
            difficulty_min: Some(20),
            difficulty_max: Some(70),
            ..Filter::default()
        },
        Filter {
            tag: Some("no-such-tag".into()),
            ..Filter::default()
        },
    ];
    let mut out = vec![format!("count {}", store.count().unwrap())];
    for f in &filters {
        for limit in [1, 7, 500] {
            out.push(format!("{f:?} {limit} {:?}", walk(store, f, false, limit)));
            out.push(format!("{f:?} {limit} {:?}", walk(store, f, true, limit)));
        }
        out.push(format!("{:?}", page(store, f, After::Id(5), 3)));
        out.push(format!(
            "{:?}",
            page(store, f, After::Difficulty(Some((30, 4))), 3)
        ));
    }
    for id in [0, 1, 2, 9, 10_000] {
        out.push(format!("{id} {:?}", store.get(id).unwrap().map(comparable)));
    }
    out
}

/// The same writes on a store; what it answers after each step.
fn exercise(store: &Store) -> Vec<String> {
    let all = fixtures();
    let mut out = vec![store.engine().to_string()];
    out.push(format!(
        "new {}",
        store.insert_all(&all[..all.len() / 2]).unwrap()
    ));
    // Insert the rest one by one (and the first half again: nothing new).
    for p in all {
        let (stored, new) = store.insert(p).unwrap();
        out.push(format!("{} {new}", stored.id));
    }
    out.push(format!("again {}", store.insert_all(all).unwrap()));
    out.extend(answers(store));
    // Facts, difficulties, hashes, deletions.
    out.push(format!("{:?}", store.fact("f").unwrap()));
    store.set_fact("f", "1").unwrap();
    store.set_fact("f", "2").unwrap();
    out.push(format!("{:?}", store.fact("f").unwrap()));
    out.push(format!("{:?}", store.set_difficulty(3, Some(99)).unwrap()));
    out.push(format!("{:?}", store.set_difficulty(3, None).unwrap()));
    out.push(format!(
        "{:?}",
        store.set_difficulty(99_999, Some(1)).unwrap()
    ));
    let taken = store.get(2).unwrap().unwrap().content_hash;
    out.push(format!("{:?}", store.set_content_hash(1, &taken).unwrap()));
    out.push(format!("{:?}", store.set_content_hash(1, "fresh").unwrap()));
    out.push(format!("{:?}", store.delete(4).unwrap()));
    out.push(format!("{:?}", store.delete(4).unwrap()));
    out.extend(answers(store));
    // Collections: made, filled (a new puzzle and stored ones), listed, finished.
    let new = collection_of_three(u64::MAX >> 1);
    out.push(format!(
        "{:?}",
        store.create_collection("b-twos", &new).unwrap()
    ));
    out.push(format!(
        "{:?}",
        store.create_collection("b-twos", &new).unwrap()
    ));
    out.push(format!(
        "{:?}",
        store.create_collection("A.twos", &new).unwrap()
    ));
    let mates: Vec<&VerifiedPuzzle> = all.iter().filter(|p| p.kind == Kind::Mate).collect();
    for p in [mates[0], mates[1], mates[0]] {
        let mut tagged = p.clone();
        tagged.tags.push("collected".into());
        let stored = store.append_to_collection("b-twos", &tagged).unwrap();
        out.push(format!("{:?}", comparable(stored)));
    }
    out.push(format!(
        "{:?}",
        store.add_to_collection("b-twos", 5).unwrap()
    ));
    out.push(format!(
        "{:?}",
        store.add_to_collection("b-twos", 5).unwrap()
    ));
    store
        .finish_collection(
            "b-twos",
            "done",
            &baroque::app::document(&serde_json::json!({"count": 3, "stop": "done"})),
        )
        .unwrap();
    let strip = |mut c: baroque::store::collections::Collection| {
        c.created_at.clear();
        c
    };
    for c in store.collections().unwrap() {
        out.push(format!("{:?}", strip(c)));
    }
    let (c, puzzles) = store.collection("b-twos").unwrap().unwrap();
    out.push(format!(
        "{:?} {:?}",
        strip(c),
        puzzles.into_iter().map(comparable).collect::<Vec<_>>()
    ));
    out.push(format!("{:?}", store.collection("nothing").unwrap()));
    // The run of this very process is not running yet (it is starting up): stopped.
    out.push(format!(
        "{:?}",
        store
            .stop_abandoned_collections(&baroque::app::processes::is_running)
            .unwrap()
    ));
    let (c, _) = store.collection("A.twos").unwrap().unwrap();
    out.push(format!("{} {}", c.state, baroque::app::value(&c.summary)));
    out.extend(answers(store));
    // Jobs: made, renewed, claimed when their lease ran out, cancelled, finished by their holder.
    let view = baroque::app::document(&serde_json::json!({"progress": {"tried": 0}}));
    let request = baroque::app::document(&serde_json::json!({"seed": 7}));
    let id = store
        .create_job(&baroque::store::NewJob {
            collection: "b-twos",
            request: &request,
            view: &view,
            owner: "one",
            lease: Duration::from_secs(60),
        })
        .unwrap();
    let row = |store: &Store| format!("{:?}", store.job(id).unwrap());
    out.push(row(store));
    let later = baroque::app::document(&serde_json::json!({"progress": {"tried": 5}}));
    out.push(format!(
        "{:?}",
        store
            .renew_job(id, "one", Duration::from_secs(60), &later)
            .unwrap()
    ));
    out.push(format!(
        "{:?}",
        store
            .renew_job(id, "two", Duration::from_secs(60), &later)
            .unwrap()
    ));
    // Held: nobody claims it. Its lease run out: another runner claims it, once.
    out.push(format!(
        "{:?}",
        store.claim_job("two", Duration::from_secs(60)).unwrap()
    ));
    store.renew_job(id, "one", Duration::ZERO, &later).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    out.push(format!(
        "{:?}",
        store.claim_job("two", Duration::from_secs(60)).unwrap()
    ));
    out.push(format!(
        "{:?}",
        store.claim_job("three", Duration::from_secs(60)).unwrap()
    ));
    // The first runner lost it: its renewal and its end are refused.
    out.push(format!(
        "{:?}",
        store
            .renew_job(id, "one", Duration::from_secs(60), &later)
            .unwrap()
    ));
    let summary = baroque::app::document(&serde_json::json!({"count": 3, "stop": "done"}));
    out.push(format!(
        "{:?}",
        store
            .finish_job(
                id,
                "one",
                &baroque::store::JobEnd {
                    state: "done",
                    view: &later,
                    summary: &summary
                }
            )
            .unwrap()
    ));
    out.push(format!("{:?}", store.cancel_job(id).unwrap()));
    out.push(format!(
        "{:?}",
        store
            .renew_job(id, "two", Duration::from_secs(60), &later)
            .unwrap()
    ));
    out.push(format!(
        "{:?}",
        store
            .finish_job(
                id,
                "two",
                &baroque::store::JobEnd {
                    state: "stopped",
                    view: &later,
                    summary: &summary
                }
            )
            .unwrap()
    ));
    out.push(row(store));
    out.push(format!("{:?}", store.cancel_job(id).unwrap()));
    out.push(format!("{:?}", store.cancel_job(99).unwrap()));
    let (c, _) = store.collection("b-twos").unwrap().unwrap();
    out.push(format!("{} {}", c.state, baroque::app::value(&c.summary)));
    // What the answers must be, on either backend.
    let n = out.len();
    let tail: Vec<&str> = out[n - 15..].iter().map(String::as_str).collect();
    assert!(tail[0].contains("state: \"running\"") && tail[0].contains("attempts: 1"));
    assert_eq!(&tail[1..4], ["Some(false)", "None", "None"]);
    assert!(tail[4].starts_with("Some(JobRow") && tail[4].contains("owner: Some(\"two\")"));
    assert!(tail[4].contains("attempts: 2"), "{}", tail[4]);
    assert_eq!(&tail[5..8], ["None", "None", "false"]);
    assert!(tail[8].contains("cancel: true"), "{}", tail[8]);
    assert_eq!(&tail[9..11], ["Some(true)", "true"]);
    assert!(tail[11].contains("state: \"stopped\""), "{}", tail[11]);
    assert!(tail[12].contains("state: \"stopped\""), "{}", tail[12]);
    assert_eq!(tail[13], "None");
    assert!(tail[14].starts_with("stopped "), "{}", tail[14]);
    // A job handed over at shutdown: its lease released is claimable at once, and a renewal by
    // its old holder (racing the release) neither undoes it nor writes its view.
    let id = store
        .create_job(&baroque::store::NewJob {
            collection: "A.twos",
            request: &request,
            view: &view,
            owner: "one",
            lease: Duration::from_secs(60),
        })
        .unwrap();
    assert!(store.release_job(id, "one", &later).unwrap());
    assert_eq!(
        store
            .renew_job(id, "one", Duration::from_secs(60), &view)
            .unwrap(),
        None
    );
    assert!(!store.release_job(id, "two", &later).unwrap());
    let claimed = store
        .claim_job("two", Duration::from_secs(60))
        .unwrap()
        .expect("a released job is claimed at once");
    assert_eq!((claimed.id, claimed.attempts), (id, 2));
    assert_eq!(claimed.state, "running");
    assert!(
        claimed.view.get().contains("\"tried\":5"),
        "{}",
        claimed.view.get()
    );
    assert!(!store.release_job(id, "one", &later).unwrap());
    store.readiness(Duration::from_secs(5)).unwrap();
    out
}

#[test]
fn both_backends_answer_the_same_queries_the_same_way() {
    if !pg::here_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open(&dir.path().join("s.db")).unwrap();
    let postgres = postgres_store();
    let (a, b) = (exercise(&sqlite), exercise(&postgres));
    assert_eq!(a.len(), b.len());
    assert_eq!((a[0].as_str(), b[0].as_str()), ("sqlite", "postgresql"));
    for (x, y) in a.iter().zip(&b).skip(1) {
        assert_eq!(x, y);
    }
}

/// Fifty threads store one puzzle at once: one row, one `true`, the same id for all.
fn one_row_from_concurrent_inserts(store: &Store) {
    let p = &fixtures()[0];
    let before = store.count().unwrap();
    let results: Vec<(i64, bool)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..50)
            .map(|_| {
                s.spawn(|| {
                    let (stored, new) = store.insert(p).unwrap();
                    (stored.id, new)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.iter().filter(|(_, new)| *new).count(), 1);
    assert!(results.iter().all(|(id, _)| *id == results[0].0));
    assert_eq!(store.count().unwrap(), before + 1);
}

#[test]
fn concurrent_inserts_of_one_puzzle_make_one_row() {
    let dir = tempfile::tempdir().unwrap();
    one_row_from_concurrent_inserts(&Store::open(&dir.path().join("c.db")).unwrap());
    if pg::here_or_skip() {
        one_row_from_concurrent_inserts(&postgres_store());
    }
}

/// A collection's version changes with every change of its puzzles, and only then; its pages
/// walk it in order, with or without outcomes.
fn versions_and_pages(store: &Store) {
    let new = collection_of_three(1);
    assert_eq!(store.collection_version("v").unwrap(), None);
    assert!(store.create_collection("v", &new).unwrap());
    let mates: Vec<&VerifiedPuzzle> = fixtures().iter().filter(|p| p.kind == Kind::Mate).collect();
    let mut seen = std::collections::HashSet::new();
    let version = || store.collection_version("v").unwrap().unwrap();
    let mut changed = |what: &str| assert!(seen.insert(version()), "{what}: the same version");
    changed("empty");
    let a = store.append_to_collection("v", mates[0]).unwrap();
    changed("one puzzle");
    let b = store.append_to_collection("v", mates[1]).unwrap();
    changed("two puzzles");
    assert_eq!(version(), version(), "nothing changed");
    // A puzzle of another collection, or not in one, changes nothing here.
    let before = version();
    store.insert(mates[2]).unwrap();
    let mut other = mates[2].clone();
    other.tags.push("elsewhere".into());
    store.append_to_collection("w", &other).ok();
    assert_eq!(version(), before, "another puzzle changed the version");
    // Every change of a member does.
    let mut tagged = mates[1].clone();
    tagged.tags.push("again".into());
    store.append_to_collection("v", &tagged).unwrap();
    changed("a tag added");
    let bare = PuzzleOutcome::Keys(KeysOutcome {
        result: Some(baroque::solver::Outcome::Mate),
        ..KeysOutcome::default()
    });
    store.set_outcome(a.id, &bare, Some(3)).unwrap();
    changed("an outcome");
    store.set_difficulty(a.id, Some(4)).unwrap();
    changed("a difficulty");
    store.set_content_hash(b.id, "another hash").unwrap();
    changed("a content hash");
    store.delete(b.id).unwrap();
    changed("a puzzle deleted");
    let c = store.append_to_collection("v", mates[3]).unwrap();
    changed("a puzzle in its place");
    // Pages, in order, with outcomes or without.
    let full = store.collection_page("v", 0, 10, true).unwrap();
    let lean = store.collection_page("v", 0, 10, false).unwrap();
    let ids = |page: &[(i64, StoredPuzzle)]| page.iter().map(|(_, p)| p.id).collect::<Vec<_>>();
    assert_eq!(ids(&full), [a.id, c.id]);
    assert_eq!(ids(&lean), [a.id, c.id]);
    assert!(full[0].0 < full[1].0);
    assert_eq!(full[0].1.outcome, Some(bare));
    assert_eq!(full[1].1.outcome, store.get(c.id).unwrap().unwrap().outcome);
    assert!(lean.iter().all(|(_, p)| p.outcome.is_none()));
    assert_eq!(
        ids(&store.collection_page("v", full[0].0, 10, true).unwrap()),
        [c.id]
    );
    assert!(store
        .collection_page("v", full[1].0, 10, true)
        .unwrap()
        .is_empty());
    assert!(store
        .collection_page("none", 0, 10, true)
        .unwrap()
        .is_empty());
    assert_eq!(
        ids(&store.collection_page("v", 0, 1, false).unwrap()),
        [a.id]
    );
    // A lean listing reads no outcome either.
    let filter = Filter {
        lean: true,
        ..Filter::default()
    };
    let (listed, _) = store.list(&filter, 0, 50).unwrap();
    assert!(!listed.is_empty() && listed.iter().all(|p| p.outcome.is_none()));
}

#[test]
fn collection_versions_and_pages_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    versions_and_pages(&Store::open(&dir.path().join("v.db")).unwrap());
    if pg::here_or_skip() {
        versions_and_pages(&postgres_store());
    }
}

#[test]
fn processes_opening_a_new_sqlite_store_together_all_open_it() {
    // Two processes started at once on a new file (a server and a `generate`, say) both migrate
    // it; the one that loses the race must open the store the other made, not fail.
    for round in 0..20 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.db");
        let opened: Vec<Result<Store, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| Store::open(&path).map_err(|e| e.to_string())))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for store in opened {
            let store = store.unwrap_or_else(|e| panic!("round {round}: {e}"));
            store.readiness(Duration::from_secs(5)).unwrap();
            assert!(page(&store, &Filter::default(), After::Id(0), 10)
                .0
                .is_empty());
        }
    }
}

#[test]
fn replicas_starting_together_migrate_once() {
    if !pg::here_or_skip() {
        return;
    }
    let url: Database = pg::cluster().fresh_database().parse().unwrap();
    let stores: Vec<Store> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| Store::connect(&url).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for store in &stores {
        store.readiness(Duration::from_secs(5)).unwrap();
    }
    let Database::Postgres(u) = &url else {
        unreachable!()
    };
    let mut c = postgres::Client::connect(u.secret(), postgres::NoTls).unwrap();
    let versions: Vec<i64> = c
        .query(
            "SELECT version FROM schema_migrations ORDER BY version",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        versions,
        (1..=baroque::store::postgres::latest_schema_version()).collect::<Vec<_>>()
    );
}

#[test]
fn start_up_errors_are_one_line_and_never_show_the_password() {
    if !pg::here_or_skip() {
        return;
    }
    let cluster = pg::cluster();
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cases = [
        (
            format!("postgres://u:hunter2@127.0.0.1:{free}/x"),
            "cannot reach the server",
        ),
        (
            format!(
                "postgres://postgres:hunter2@127.0.0.1:{}/no_such_db",
                cluster.port()
            ),
            "`no_such_db` does not exist",
        ),
    ];
    for (url, expected) in cases {
        let db: Database = url.parse().unwrap();
        let e = Store::connect(&db).unwrap_err();
        let line = format!("{db}: {e}");
        assert!(line.contains(expected), "{line}");
        assert!(!line.contains("hunter2"), "{line}");
        assert!(!line.contains('\n'), "{line}");
        assert!(e.unavailable().is_some(), "{line}");
    }
}

#[test]
fn a_server_gone_away_is_unavailable_and_the_store_recovers() {
    if !pg::here_or_skip() {
        return;
    }
    let cluster = pg::private_cluster();
    let url: Database = cluster.fresh_database().parse().unwrap();
    let store = Store::connect(&url).unwrap();
    let all = fixtures();
    store.insert(&all[0]).unwrap();
    cluster.stop();
    for _ in 0..3 {
        let e = store.insert(&all[1]).unwrap_err();
        assert!(e.unavailable().is_some(), "{e}");
        let e = store.get(1).unwrap_err();
        assert!(e.unavailable().is_some(), "{e}");
        assert!(store.readiness(Duration::from_millis(500)).is_err());
    }
    cluster.start();
    // Pooled connections to the old server are found broken and replaced.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        match store.insert(&all[1]) {
            Ok((_, new)) => {
                assert!(new);
                break;
            }
            Err(e) => {
                assert!(e.unavailable().is_some(), "{e}");
                assert!(std::time::Instant::now() < deadline, "no recovery: {e}");
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
    assert_eq!(store.count().unwrap(), 2);
    store.readiness(Duration::from_secs(5)).unwrap();
}

#[test]
fn a_refused_password_is_said_without_the_password() {
    if !pg::here_or_skip() {
        return;
    }
    // A cluster of its own that asks for passwords over TCP (the shared one trusts everyone).
    let cluster = pg::private_cluster();
    let trusted = cluster.fresh_database();
    let mut admin = postgres::Client::connect(&trusted, postgres::NoTls).unwrap();
    admin
        .batch_execute("CREATE ROLE app LOGIN PASSWORD 'right-one'")
        .unwrap();
    let hba = cluster.dir().join("data/pg_hba.conf");
    std::fs::write(
        &hba,
        "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\n",
    )
    .unwrap();
    admin.batch_execute("SELECT pg_reload_conf()").unwrap();
    let name = trusted.rsplit('/').next().unwrap();
    let port = cluster.port();
    let wrong: Database = format!("postgres://app:hunter2@127.0.0.1:{port}/{name}")
        .parse()
        .unwrap();
    let e = Store::connect(&wrong).unwrap_err();
    let line = format!("{wrong}: {e}");
    assert!(
        line.contains("refused the password of user `app`"),
        "{line}"
    );
    assert!(!line.contains("hunter2") && !line.contains('\n'), "{line}");
    // The right password opens it.
    admin
        .batch_execute(&format!(
            "GRANT ALL ON SCHEMA public TO app; ALTER DATABASE \"{name}\" OWNER TO app"
        ))
        .unwrap();
    let right: Database = format!("postgres://app:right-one@127.0.0.1:{port}/{name}")
        .parse()
        .unwrap();
    Store::connect(&right)
        .unwrap()
        .readiness(Duration::from_secs(5))
        .unwrap();
}

#[test]
fn postgres_prepares_each_statement_once_per_connection() {
    if !pg::here_or_skip() {
        return;
    }
    let url = pg::cluster().fresh_database().parse().unwrap();
    let Database::Postgres(url) = url else {
        unreachable!()
    };
    let store = baroque::store::postgres::PgStore::connect(&url).unwrap();
    let puzzle = &fixtures()[0];
    let (stored, _) = store.insert(puzzle).unwrap();
    let rounds = 200;
    let before = store.statements_prepared();
    // Each round runs a read, a write (a repeated insert) and two pages: six statements.
    for _ in 0..rounds {
        assert_eq!(store.get(stored.id).unwrap().unwrap().id, stored.id);
        assert!(!store.insert(puzzle).unwrap().1);
        assert_eq!(store.count().unwrap(), 1);
        let (items, more) = store
            .list_page(&Filter::default(), After::Id(0), 10)
            .unwrap();
        assert_eq!((items.len(), more), (1, false));
    }
    let prepared = store.statements_prepared() - before;
    // Without the cache every call prepares its statements: at least 6 x 200. With it, each
    // connection of the pool prepares each statement once at most.
    assert!(
        prepared <= 6 * u64::from(baroque::store::POOL_SIZE),
        "{prepared} statements prepared for {rounds} rounds"
    );
}

/// A job's shards on `store`: made once each, claimed by one runner at a time (the job's own
/// runner never claims through `claim_any_shard`), renewed, finished, released, reset, counted,
/// and dropped with the job's end; every answer as a line, to compare the backends.
fn shards(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    let new = collection_of_three(3);
    assert!(store.create_collection("sharded", &new).unwrap());
    let doc = |v: serde_json::Value| baroque::app::document(&v);
    let id = store
        .create_job(&baroque::store::NewJob {
            collection: "sharded",
            request: &doc(serde_json::json!({})),
            view: &doc(serde_json::json!({})),
            owner: "runner",
            lease: Duration::from_secs(60),
        })
        .unwrap();
    let lease = Duration::from_secs(60);
    let steer = doc(serde_json::json!({"all_keep_defenders": false}));
    store.add_shards(id, 0, 3, &steer).unwrap();
    // Made once: adding again keeps what is there.
    store
        .add_shards(id, 1, 4, &doc(serde_json::json!({"other": 1})))
        .unwrap();
    let show = |r: Option<baroque::store::ShardRow>| {
        r.map(|r| {
            format!(
                "{} {} {} {} {:?} {:?}",
                r.job == id,
                r.index,
                r.state,
                r.steer.get(),
                r.owner,
                r.result.map(|j| j.get().to_string())
            )
        })
    };
    for k in 0..5 {
        out.push(format!("{:?}", show(store.shard(id, k).unwrap())));
    }
    // The runner claims shard 0 (the first claimable of 0..2); through `claim_any_shard` it never
    // claims from its own job; helpers claim from the last shard made.
    let claim = |job_range: std::ops::Range<i64>, owner: &str| {
        show(
            store
                .claim_shard(id, job_range, owner, owner, lease)
                .unwrap(),
        )
    };
    out.push(format!("{:?}", claim(0..2, "runner")));
    out.push(format!("{:?}", claim(0..1, "helper")));
    out.push(format!(
        "{:?}",
        show(store.claim_any_shard("runner", "r", lease).unwrap())
    ));
    out.push(format!(
        "{:?}",
        show(store.claim_any_shard("helper", "h", lease).unwrap())
    ));
    out.push(format!(
        "{:?}",
        show(store.claim_any_shard("other", "o", lease).unwrap())
    ));
    out.push(format!(
        "{:?}",
        store.renew_shard(id, 3, "helper", lease).unwrap()
    ));
    out.push(format!(
        "{:?}",
        store.renew_shard(id, 3, "other", lease).unwrap()
    ));
    let result = doc(serde_json::json!({"verdicts": "rrs"}));
    out.push(format!(
        "{:?}",
        store.finish_shard(id, 3, "other", 3, &result).unwrap()
    ));
    out.push(format!(
        "{:?}",
        store.finish_shard(id, 3, "helper", 256, &result).unwrap()
    ));
    out.push(format!(
        "{:?}",
        store.finish_shard(id, 0, "runner", 100, &result).unwrap()
    ));
    store.release_shard(id, 2, "other").unwrap();
    out.push(format!("{:?}", store.shard_counts(id).unwrap()));
    // A lease that ran out lets another claim it; a released one is pending at once.
    out.push(format!("{:?}", claim(2..3, "other")));
    store.renew_shard(id, 2, "other", Duration::ZERO).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    out.push(format!("{:?}", claim(2..3, "helper")));
    out.push(format!(
        "{:?}",
        store.renew_shard(id, 2, "other", lease).unwrap()
    ));
    store.release_shard(id, 2, "helper").unwrap();
    out.push(format!("{:?}", show(store.shard(id, 2).unwrap())));
    // The runner's steering changes: pending ones take it, a done one is reset to it, a held
    // one is left to its holder.
    let keep = doc(serde_json::json!({"all_keep_defenders": true}));
    store.steer_pending_shards(id, 2, &keep).unwrap();
    store.reset_shard(id, 3, &keep).unwrap();
    store.claim_shard(id, 1..2, "helper", "h", lease).unwrap();
    store.reset_shard(id, 1, &keep).unwrap();
    for k in 0..4 {
        out.push(format!("{:?}", show(store.shard(id, k).unwrap())));
    }
    // A cancel: renewals fail, nothing more is claimed.
    store.cancel_job(id).unwrap();
    out.push(format!(
        "{:?}",
        store.renew_shard(id, 3, "helper", lease).unwrap()
    ));
    out.push(format!(
        "{:?}",
        show(store.claim_any_shard("helper", "h", lease).unwrap())
    ));
    out.push(format!("{:?}", store.shard_counts(id).unwrap()));
    // The job's end drops its shards.
    let end = baroque::store::JobEnd {
        state: "stopped",
        view: &doc(serde_json::json!({})),
        summary: &doc(serde_json::json!({})),
    };
    out.push(format!(
        "{:?}",
        store.finish_job(id, "runner", &end).unwrap()
    ));
    out.push(format!("{:?}", store.shard_counts(id).unwrap()));
    // Shards made after the job ended (by a runner that lost it and has not noticed yet) are
    // dropped by the cleanup, once.
    store.add_shards(id, 0, 2, &steer).unwrap();
    out.push(format!("{:?}", store.drop_ended_shards().unwrap()));
    out.push(format!("{:?}", store.drop_ended_shards().unwrap()));
    out
}

/// Many helpers claiming the shards of one job at once: each shard goes to one of them.
fn one_claimer_a_shard(store: &Store) {
    let new = collection_of_three(3);
    assert!(store.create_collection("claimed", &new).unwrap());
    let doc = |v: serde_json::Value| baroque::app::document(&v);
    let id = store
        .create_job(&baroque::store::NewJob {
            collection: "claimed",
            request: &doc(serde_json::json!({})),
            view: &doc(serde_json::json!({})),
            owner: "runner",
            lease: Duration::from_secs(60),
        })
        .unwrap();
    store
        .add_shards(id, 0, 40, &doc(serde_json::json!({})))
        .unwrap();
    let claimed: Vec<i64> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|t| {
                s.spawn(move || {
                    let mut mine = Vec::new();
                    let name = format!("helper-{t}");
                    while let Some(r) = store
                        .claim_any_shard(&name, &name, Duration::from_secs(60))
                        .unwrap()
                    {
                        mine.push(r.index);
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut sorted = claimed.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..40).collect::<Vec<i64>>());
    let counts = store.shard_counts(id).unwrap();
    assert_eq!((counts.total, counts.done, counts.running), (40, 0, 40));
}

#[test]
fn both_backends_keep_shards_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let sqlite = Store::open(&dir.path().join("s.db")).unwrap();
    let a = shards(&sqlite);
    one_claimer_a_shard(&sqlite);
    // What SQLite answers, checked here; PostgreSQL must answer the same.
    assert!(a[0].contains("0 pending"), "{a:?}");
    assert_eq!(a[4], "None", "{a:?}");
    assert!(
        a[5].contains(" 0 running") && a[5].contains("runner"),
        "{a:?}"
    );
    assert_eq!((a[6].as_str(), a[7].as_str()), ("None", "None"), "{a:?}");
    assert!(
        a[8].contains(" 3 running"),
        "helpers claim from the end: {a:?}"
    );
    assert!(a[9].contains(" 2 running"), "{a:?}");
    assert_eq!(a[a.len() - 2..], ["2", "0"], "{a:?}");
    if !pg::here_or_skip() {
        return;
    }
    let postgres = postgres_store();
    let b = shards(&postgres);
    one_claimer_a_shard(&postgres);
    assert_eq!(a, b);
}

/// The three ways of walking near a rating agree ([`NearWalk`]): reading a theme's or a
/// collection's own rows finds what the walk along the rating index finds, and a window of the
/// walk finds the start of it; the trait's `near_rating`, which picks among them, finds the
/// nearest of the index walk's. Each filter, each side, several windows.
fn near_walks_agree(store: &Store) {
    use baroque::store::{NearWalk, NextFilter};
    let mates: Vec<&VerifiedPuzzle> = fixtures().iter().filter(|p| p.kind == Kind::Mate).collect();
    assert!(mates.len() >= 5);
    let new = collection_of_three(1);
    assert!(store.create_collection("some", &new).unwrap());
    for (i, p) in mates.iter().enumerate() {
        let mut p = (*p).clone();
        if i % 2 == 0 {
            p.tags.push("even".into());
        }
        if i % 3 == 0 {
            store.append_to_collection("some", &p).unwrap();
        } else {
            store.insert(&p).unwrap();
        }
    }
    let ids = |v: Vec<StoredPuzzle>| v.into_iter().map(|p| p.id).collect::<Vec<_>>();
    let filters = [
        NextFilter::default(),
        NextFilter {
            tag: Some("even".into()),
            ..NextFilter::default()
        },
        NextFilter {
            collection: Some("some".into()),
            ..NextFilter::default()
        },
        NextFilter {
            tag: Some("even".into()),
            collection: Some("some".into()),
            game: Some(baroque::rules::GameKind::Baroque),
            ..NextFilter::default()
        },
        NextFilter {
            tag: Some("fixture".into()),
            exclude: vec![1, 2, 3],
            ..NextFilter::default()
        },
    ];
    for filter in &filters {
        for rating in [900.0, 1500.0, 1750.0, 2600.0] {
            for above in [true, false] {
                let index = ids(store
                    .near_walk(rating, above, NearWalk::Index, filter, 50)
                    .unwrap());
                let set = ids(store
                    .near_walk(rating, above, NearWalk::Set, filter, 50)
                    .unwrap());
                if filter.tag.is_some() || filter.collection.is_some() {
                    assert_eq!(set, index, "{filter:?} {rating} {above}");
                }
                for window in [1, 2, 5, 1000] {
                    let w = ids(store
                        .near_walk(rating, above, NearWalk::Window(window), filter, 50)
                        .unwrap());
                    assert!(
                        index.starts_with(&w),
                        "{filter:?} {rating} {above} window {window}: {w:?} is not the start of {index:?}"
                    );
                }
                let few = ids(store
                    .near_walk(rating, above, NearWalk::Index, filter, 2)
                    .unwrap());
                assert!(index.starts_with(&few), "{filter:?}");
            }
            let near = ids(store.near_rating(rating, filter, 3).unwrap());
            let mut both = store
                .near_walk(rating, true, NearWalk::Index, filter, 50)
                .unwrap();
            both.extend(
                store
                    .near_walk(rating, false, NearWalk::Index, filter, 50)
                    .unwrap(),
            );
            let distance = |p: &StoredPuzzle| (p.rating.unwrap().rating.value - rating).abs();
            both.sort_by(|a, b| distance(a).total_cmp(&distance(b)).then(a.id.cmp(&b.id)));
            let expected: Vec<i64> = both.into_iter().map(|p| p.id).take(3).collect();
            assert_eq!(near, expected, "{filter:?} {rating}");
        }
    }
}

#[test]
fn near_walks_agree_on_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    near_walks_agree(&Store::open(&dir.path().join("n.db")).unwrap());
    if pg::here_or_skip() {
        near_walks_agree(&postgres_store());
    }
}
