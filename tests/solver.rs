//! The solver against a brute-force minimax, on the documents' diagrams and positions made to have
//! each property (found by random search, then fixed here; their answers are checked by brute force).

use baroque::rules::prelude::*;
use baroque::rules::{Letters, Naming, Position, Rules, Stalemate};
use baroque::solver::{solve, Limits, NamedSolution as Solution, Outcome, SolveOptions};
use std::time::{Duration, Instant};

/// Brute force: can the side to move force mate within `n` moves? No table, no ordering, no pruning
/// beyond the short-circuit of "any" and "all".
fn mates_within(pos: &Position, n: u32) -> bool {
    n > 0
        && pos
            .legal_moves()
            .iter()
            .any(|m| all_defences_lose(&pos.after(m), n - 1))
}

fn all_defences_lose(pos: &Position, n: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.is_check() || pos.rules().stalemate == Stalemate::Loss;
    }
    n > 0 && moves.iter().all(|d| mates_within(&pos.after(d), n))
}

/// Every first move that mates within `n`, with its exact length, sorted as the solver sorts.
fn brute_keys(pos: &Position, n: u32) -> Vec<(String, u32)> {
    let mut keys: Vec<(String, u32)> = pos
        .legal_moves()
        .iter()
        .filter_map(|m| {
            let after = pos.after(m);
            (1..=n)
                .find(|&k| all_defences_lose(&after, k - 1))
                .map(|k| (pos.move_name(m, Letters::Chess), k))
        })
        .collect();
    keys.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    keys
}

fn run(fen: &str, rules: &str, n: u32) -> (Position, Solution) {
    let pos = Position::from_fen_validated(fen, rules.parse::<Rules>().unwrap()).unwrap();
    let s = solve(
        &pos,
        &SolveOptions {
            stipulation: baroque::solver::Stipulation::Mate(n),
            ..SolveOptions::default()
        },
    )
    .named(&pos, Naming::default());
    (pos, s)
}

fn keys(s: &Solution) -> Vec<(String, u32)> {
    s.keys
        .iter()
        .map(|k| (k.info.notation.clone(), k.mate_in))
        .collect()
}

fn check_against_brute_force(fen: &str, rules: &str, n: u32) -> Solution {
    let (pos, s) = run(fen, rules, n);
    assert!(!s.budget_exhausted, "{fen}: budget ran out");
    assert_eq!(keys(&s), brute_keys(&pos, n), "{fen} under {rules}, #{n}");
    assert_eq!(
        s.result,
        if s.keys.is_empty() {
            Outcome::NoMate
        } else {
            Outcome::Mate
        }
    );
    s
}

fn names(v: &[baroque::solver::NamedKey]) -> Vec<&str> {
    v.iter().map(|k| k.info.notation.as_str()).collect()
}

const KING_DIAGRAM: &str = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
const CHAMELEON_DIAGRAM: &str = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0";

#[test]
fn king_diagram_is_a_sound_mate_in_one_and_an_unsound_mate_in_two() {
    let s = check_against_brute_force(KING_DIAGRAM, "abbott", 1);
    assert_eq!(s.sound, Some(true));
    assert_eq!(names(&s.keys), vec!["Kc4-d5"]);
    assert_eq!(s.mate_in, Some(1));
    assert!(s.tree[0].mates);

    let s = check_against_brute_force(KING_DIAGRAM, "abbott", 2);
    assert_eq!(s.sound, Some(false));
    assert_eq!(names(&s.short_solutions), vec!["Kc4-d5"]);
    assert_eq!(s.mate_in, Some(1));
}

#[test]
fn chameleon_diagram_has_one_key_in_two() {
    let s = check_against_brute_force(CHAMELEON_DIAGRAM, "abbott", 2);
    assert_eq!(s.sound, Some(true));
    assert_eq!(names(&s.keys), vec!["Bg6xc6"]);
    assert_eq!(s.keys[0].info.captures.len(), 7);
    let tree = &s.tree[0];
    assert_eq!(tree.mate_in, 2);
    assert!(!tree.defences.is_empty());
    // Every defence is answered by at least one mate, and each listed reply mates.
    for d in &tree.defences {
        assert!(!d.replies.is_empty(), "{} has no reply", d.info.notation);
        assert_eq!(d.dual, d.replies.len() > 1);
        assert!(d.replies.iter().all(|r| r.mates && r.mate_in == 1));
    }
    // The key gives check, so there is no threat to ask for.
    assert!(tree.threat.is_none());
}

#[test]
fn a_cooked_mate_in_two() {
    let s = check_against_brute_force("1k2K3/8/5BQ1/8/8/4P3/8/7N w 0", "abbott", 2);
    assert_eq!(names(&s.keys), vec!["Bf6-b6", "Bf6-c6"]);
    assert_eq!(s.sound, Some(false));
    assert_eq!(names(&s.cooks), vec!["Bf6-c6"]);
    assert!(s.short_solutions.is_empty());

    // Screening (the generator's solve) stops at the second key: unsound, both keys, no tree, and
    // no more work than the full solve, on one thread and on two.
    let pos =
        Position::from_fen_validated("1k2K3/8/5BQ1/8/8/4P3/8/7N w 0", Rules::default()).unwrap();
    for threads in [1, 2] {
        let opts = SolveOptions {
            stipulation: baroque::solver::Stipulation::Mate(2),
            threads,
            ..SolveOptions::default()
        };
        let full = solve(&pos, &opts);
        let screened = baroque::solver::screen(&pos, &opts).named(&pos, Naming::default());
        assert_eq!(screened.sound, Some(false));
        assert_eq!(screened.result, Outcome::Mate);
        assert!(!screened.budget_exhausted);
        assert_eq!(names(&screened.keys), vec!["Bf6-b6", "Bf6-c6"]);
        assert!(screened.tree.is_empty());
        if threads == 1 {
            assert!(
                screened.nodes <= full.nodes,
                "{} > {}",
                screened.nodes,
                full.nodes
            );
        }
    }
}

#[test]
fn a_sound_mate_in_three_with_a_dual() {
    let fen = "3K4/8/8/8/6k1/8/3NBM2/8 w 0";
    let s = check_against_brute_force(fen, "abbott", 3);
    assert_eq!(s.sound, Some(true));
    assert_eq!(names(&s.keys), vec!["Be2-e5"]);
    fn has_dual(n: &baroque::solver::tree::NamedAttack) -> bool {
        n.defences
            .iter()
            .any(|d| d.dual || d.replies.iter().any(has_dual))
    }
    assert!(has_dual(&s.tree[0]));
    assert!(!s.tree_truncated);
}

#[test]
fn a_stalemate_is_no_mate_unless_the_rules_say_loss() {
    let fen = "6K1/8/8/3R2R1/3R3k/3n3R/8/1N6 w 0";
    let s = check_against_brute_force(fen, "abbott", 1);
    assert_eq!(s.result, Outcome::NoMate);
    let s = check_against_brute_force(fen, "abbott,stalemate=loss", 1);
    assert_eq!(s.result, Outcome::Mate);
    assert_eq!(names(&s.keys), vec!["Nb1xh7"]);
    assert!(s.tree[0].mates);
}

#[test]
fn a_mate_that_needs_the_single_leaper() {
    let fen = "1N1BP3/8/M2n4/8/4P3/4k3/7K/2M5 w 0";
    let s = check_against_brute_force(fen, "abbott,leaper=single", 2);
    assert_eq!(s.sound, Some(true));
    assert_eq!(names(&s.keys), vec!["Ma6-e2"]);
    let s = check_against_brute_force(fen, "abbott", 2);
    assert_eq!(s.result, Outcome::NoMate);
}

#[test]
fn sound_under_cambridge_and_cooked_under_abbott() {
    let fen = "8/6B1/3k4/8/1m6/R1N1MR2/8/2K5 w 0";
    let s = check_against_brute_force(fen, "cambridge", 2);
    assert_eq!(s.sound, Some(true));
    assert_eq!(names(&s.keys), vec!["Me3-e6"]);
    let s = check_against_brute_force(fen, "abbott", 2);
    assert_eq!(s.sound, Some(false));
    assert_eq!(names(&s.keys), vec!["Me3-e5", "Me3-e6"]);
}

#[test]
fn results_do_not_depend_on_table_or_threads() {
    let pos =
        Position::from_fen_validated("3K4/8/8/8/6k1/8/3NBM2/8 w 0", Rules::default()).unwrap();
    let mut answers = Vec::new();
    for (table_mib, threads) in [(0, 1), (16, 1), (16, 2)] {
        let s = solve(
            &pos,
            &SolveOptions {
                stipulation: baroque::solver::Stipulation::Mate(3),
                table_mib,
                threads,
                // The tries too: their search learns from the refutations found by every thread.
                max_refutations: 2,
                ..SolveOptions::default()
            },
        )
        .named(&pos, Naming::default());
        let tries: Vec<(String, Vec<String>)> = s
            .tries
            .iter()
            .map(|t| {
                let refutations = t.refutations.iter().map(|r| r.notation.clone()).collect();
                (t.info.notation.clone(), refutations)
            })
            .collect();
        answers.push((keys(&s), s.sound, tries));
    }
    assert!(!answers[0].2.is_empty(), "the position has tries");
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
}

#[test]
fn a_small_budget_gives_unknown_promptly() {
    let start = Position::start(Rules::default());
    let t = Instant::now();
    let s = solve(
        &start,
        &SolveOptions {
            stipulation: baroque::solver::Stipulation::Mate(5),
            limits: Limits {
                nodes: u64::MAX,
                time: Duration::from_millis(100),
            },
            ..SolveOptions::default()
        },
    );
    assert_eq!(s.result, Outcome::Unknown);
    assert!(s.budget_exhausted);
    assert_eq!(s.sound, None);
    assert!(
        t.elapsed() < Duration::from_millis(100 + 2000),
        "{:?}",
        t.elapsed()
    );

    let s = solve(
        &start,
        &SolveOptions {
            stipulation: baroque::solver::Stipulation::Mate(4),
            limits: Limits {
                nodes: 5_000,
                time: Duration::from_secs(60),
            },
            ..SolveOptions::default()
        },
    );
    assert_eq!(s.result, Outcome::Unknown);
    assert!(s.nodes < 5_000 + 4 * 1024, "{} nodes", s.nodes);
}

#[test]
fn proof_number_search_agrees_with_the_depth_first_search() {
    use baroque::solver::search::Searcher;
    use baroque::solver::{pns, tt::Table, Budget};
    for (fen, rules, n) in [
        (CHAMELEON_DIAGRAM, "abbott", 2),
        (KING_DIAGRAM, "abbott", 1),
        ("1k2K3/8/5BQ1/8/8/4P3/8/7N w 0", "abbott", 2),
        ("3K4/8/8/8/6k1/8/3NBM2/8 w 0", "abbott", 3),
        ("1N1BP3/8/M2n4/8/4P3/4k3/7K/2M5 w 0", "abbott", 2),
        (
            "6K1/8/8/3R2R1/3R3k/3n3R/8/1N6 w 0",
            "abbott,stalemate=loss",
            1,
        ),
        ("6K1/8/8/3R2R1/3R3k/3n3R/8/1N6 w 0", "abbott", 2),
    ] {
        let pos = Position::from_fen_validated(fen, rules.parse().unwrap()).unwrap();
        let budget = Budget::new(Limits::default());
        let table = Table::new(4);
        let dfs = Searcher::new(&table, &budget).attack(&pos, n, 0).unwrap();
        let pn = pns::mates_within(&pos, n, &budget).unwrap();
        assert_eq!(pn, dfs, "{fen} #{n}");
        assert_eq!(dfs, mates_within(&pos, n));
    }
}

/// A crowded Rococo board: each node costs thousands of times a Baroque one.
const CROWDED_ROCOCO: &str =
    "ssssXxS2s/S1sXs3sS/xXSXXxs1xX/Xss1XXXxsX/xksX1sxSsS/xxx1SsXXXx/sxxSXxxSsS/SsS1SSX1XX/S1SsxxsSSK/1SsX1XxXSS w 0 -";

#[test]
fn the_time_budget_holds_in_every_phase_on_crowded_rococo_boards() {
    use baroque::rules::rococo::{Coords, RococoPosition};
    use baroque::solver::Exhausted;
    let pos = RococoPosition::from_fen(CROWDED_ROCOCO, Coords::Standard).unwrap();
    for (mate_in, millis) in [(8, 300), (2, 200), (3, 100)] {
        let t = Instant::now();
        let s = solve(
            &pos,
            &SolveOptions {
                stipulation: baroque::solver::Stipulation::Mate(mate_in),
                limits: Limits {
                    nodes: u64::MAX,
                    time: Duration::from_millis(millis),
                },
                ..SolveOptions::default()
            },
        );
        let elapsed = t.elapsed();
        assert!(
            elapsed < Duration::from_millis(millis + 1000),
            "#{mate_in} in {millis} ms took {elapsed:?}"
        );
        // The King can be taken at once: proven before the budget ran out, and kept.
        assert_eq!(s.result, Outcome::Mate);
        assert_eq!(s.mate_in, Some(1));
        // What the budget cut short says so: the tree, or (when the time ran out after it, as
        // on a loaded machine) the threats or the tries.
        if s.budget_exhausted {
            assert_eq!(s.exhausted_by, Some(Exhausted::Time));
            assert!(
                s.tree_truncated || s.threats.len() < s.keys.len() || s.tries_truncated,
                "#{mate_in}: {} keys, {} threats, tree and tries complete",
                s.keys.len(),
                s.threats.len()
            );
        }
    }
}

#[test]
fn a_cancelled_solve_stops_and_says_so() {
    use baroque::rules::rococo::{Coords, RococoPosition};
    use baroque::solver::{Cancel, Exhausted};
    let pos = RococoPosition::from_fen(CROWDED_ROCOCO, Coords::Standard).unwrap();
    let cancel = Cancel::new();
    let opts = SolveOptions {
        stipulation: baroque::solver::Stipulation::Mate(8),
        cancel: cancel.clone(),
        ..SolveOptions::default()
    };
    let t = Instant::now();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        cancel.cancel()
    });
    let s = solve(&pos, &opts);
    assert!(!canceller.join().unwrap(), "raised once");
    assert!(
        t.elapsed() < Duration::from_millis(200 + 1000),
        "{:?}",
        t.elapsed()
    );
    assert!(s.budget_exhausted);
    assert_eq!(s.exhausted_by, Some(Exhausted::Cancelled));
}

/// The bench sets are what their `about` says: every mate in 4 and 5 of
/// `fixtures/bench/deep_mates.json` is sound (one key, no shorter mate) at its length, and every
/// helpmate of `fixtures/bench/stipulations.json` has exactly one solution and no shorter one.
#[test]
fn the_bench_sets_are_sound() {
    use baroque::solver::help::solve_help;
    use baroque::solver::Stipulation;
    let read = |name: &str| -> serde_json::Value {
        let path = format!("{}/fixtures/bench/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    let fens = |doc: &serde_json::Value, field: &str| -> Vec<Position> {
        doc[field]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| Position::from_fen_validated(f.as_str().unwrap(), Rules::default()).unwrap())
            .collect()
    };
    let unbounded = Limits {
        nodes: u64::MAX,
        time: Duration::from_secs(600),
    };
    let deep = read("deep_mates.json");
    for (field, n) in [("mate_in_4", 4), ("mate_in_5", 5)] {
        let set = fens(&deep, field);
        assert!(set.len() >= 9, "{field}");
        for pos in set {
            let opts = SolveOptions {
                stipulation: baroque::solver::Stipulation::Mate(n),
                limits: unbounded,
                max_tree_nodes: 0,
                ..SolveOptions::default()
            };
            let s = solve(&pos, &opts);
            assert_eq!(s.result, Outcome::Mate, "{}", pos.fen(Letters::Chess));
            assert_eq!(s.mate_in, Some(n), "{}", pos.fen(Letters::Chess));
            assert_eq!(s.sound, Some(true), "{}", pos.fen(Letters::Chess));
        }
    }
    let stips = read("stipulations.json");
    for (field, stip) in [("helpmates", "h#2"), ("helpmates_3", "h#3")] {
        for pos in fens(&stips, field) {
            let opts = SolveOptions {
                stipulation: Stipulation::parse(stip).unwrap(),
                limits: unbounded,
                ..SolveOptions::default()
            };
            let h = solve_help(&pos, &opts, 1);
            assert_eq!(h.sound, Some(true), "{stip} {}", pos.fen(Letters::Chess));
            assert_eq!(h.count, 1, "{stip} {}", pos.fen(Letters::Chess));
        }
    }
}

/// The generator's narrowed search (`focused_mate`): the attacker's moves before its last land
/// near the defender's King. What it finds is a real mate, and its first move the key of a sound
/// puzzle; a key landing farther away is missed, and found again with a longer reach.
#[test]
fn a_narrowed_search_finds_keys_near_the_king_and_only_real_mates() {
    use baroque::solver::{focused_mate, Narrowed, Stipulation};
    let opts = |n| SolveOptions {
        stipulation: Stipulation::Mate(n),
        threads: 1,
        ..SolveOptions::default()
    };
    let named = |pos: &Position, r: Narrowed<baroque::rules::Move>| match r {
        Narrowed::Mate(m) => Some(pos.move_name(&m, Letters::Chess)),
        _ => None,
    };
    // #2, key Nh5-h8: h8 is 3 King steps from the King on e8.
    let fen = "4k3/8/p2Q4/7N/8/8/8/7K w 0";
    let (pos, s) = run(fen, "vchess", 2);
    assert_eq!(s.sound, Some(true), "{fen}");
    assert_eq!(keys(&s), vec![("Nh5-h8".to_string(), 2)], "{fen}");
    assert_eq!(focused_mate(&pos, 2, &opts(2)).0, Narrowed::NoMate, "{fen}");
    assert_eq!(
        named(&pos, focused_mate(&pos, 3, &opts(2)).0).as_deref(),
        Some("Nh5-h8"),
        "{fen}"
    );
    // #3 whose key lands next to the King: found, and it is the key.
    let fen = "p2R4/4p2k/8/8/6KM/8/8/8 w 0";
    let (pos, s) = run(fen, "vchess", 3);
    assert_eq!(s.sound, Some(true), "{fen}");
    assert_eq!(
        named(&pos, focused_mate(&pos, 2, &opts(3)).0),
        Some(s.keys[0].info.notation.clone()),
        "{fen}"
    );
    // #3 whose key (Nd3-h7) lands 4 steps from the King on d6.
    let fen = "3P4/8/3k4/1Q6/3P4/3NK3/8/8 w 0";
    let (pos, s) = run(fen, "vchess", 3);
    assert_eq!(s.sound, Some(true), "{fen}");
    assert_eq!(s.keys[0].info.notation, "Nd3-h7", "{fen}");
    assert_eq!(focused_mate(&pos, 2, &opts(3)).0, Narrowed::NoMate, "{fen}");

    // Over generation candidates of up to 6 pieces: a narrowed mate is a mate by brute force.
    let gen = baroque::generate::GenerateOptions::default();
    let (mut mates, mut checked) = (0, 0);
    for i in 0..12000 {
        let Some((pos, _)) = baroque::generate::candidate::<Position>(&gen, i) else {
            continue;
        };
        if pos.piece_count() > 6 {
            continue;
        }
        checked += 1;
        match focused_mate(&pos, 2, &opts(2)).0 {
            Narrowed::Mate(m) => {
                mates += 1;
                assert!(
                    all_defences_lose(&pos.after(&m), 1),
                    "{}: {} does not mate in 2",
                    pos.fen(Letters::Chess),
                    pos.move_name(&m, Letters::Chess)
                );
            }
            Narrowed::NoMate => {}
            Narrowed::Stopped => panic!("{}: stopped", pos.fen(Letters::Chess)),
        }
        if checked == 1500 {
            break;
        }
    }
    assert!(
        mates >= 20,
        "{mates} narrowed mates in {checked} candidates"
    );
}

/// A solve handed what a screening proved (`SolveOptions::proven`) answers exactly as a fresh
/// solve (keys, cooks, tree, threats, tries), with fewer nodes when the screening proved a sound
/// puzzle; a table is not used for another stipulation or position, nor twice, nor by a solve
/// that may have no table.
#[test]
fn a_solve_from_a_screenings_table_answers_as_a_fresh_one() {
    use baroque::solver::{screen_proven, Solution as Moves, Stipulation};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/bench/stipulations.json"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut fens: Vec<String> = doc["direct_mates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    // A sound #3 with a dual, and a cooked #2.
    fens.push("3K4/8/8/8/6k1/8/3NBM2/8 w 0".into());
    fens.push("8/8/8/1k3B2/8/1K6/8/8 w 0".into());
    let answers = |s: &Moves<baroque::rules::Move>| {
        let mut s = s.clone();
        (s.nodes, s.millis) = (0, 0);
        s
    };
    // A solve handed `proven`.
    let from = |pos: &Position, opts: &SolveOptions, proven| {
        solve(
            pos,
            &SolveOptions {
                proven: Some(proven),
                ..opts.clone()
            },
        )
    };
    let (mut fewer, mut sound) = (0, 0);
    for fen in &fens {
        let pos = Position::from_fen_validated(fen, Rules::default()).unwrap();
        for stipulation in [
            Stipulation::Mate(2),
            Stipulation::Mate(3),
            Stipulation::SelfMate(2),
        ] {
            let opts = SolveOptions {
                stipulation,
                threads: 1,
                max_refutations: 1,
                ..SolveOptions::default()
            };
            let fresh = solve(&pos, &opts);
            let (screened, proven) = screen_proven(&pos, &opts);
            let warm = from(&pos, &opts, proven.clone());
            assert_eq!(answers(&warm), answers(&fresh), "{fen} {stipulation}");
            if screened.sound == Some(true) {
                // Without tries (as generation confirms its puzzles; the tries' hints come from
                // the proof's searches, which a warm table skips, so they may take more nodes).
                let opts = SolveOptions {
                    max_refutations: 0,
                    ..opts.clone()
                };
                let (_, proven) = screen_proven(&pos, &opts);
                let warm = from(&pos, &opts, proven);
                sound += 1;
                fewer += usize::from(warm.nodes < solve(&pos, &opts).nodes);
            }
            // Taken once: a second solve starts afresh, and answers the same.
            let again = from(&pos, &opts, proven);
            assert_eq!(again.nodes, fresh.nodes, "{fen} {stipulation}");
            // Proven for `#2`: not used for another stipulation.
            let (_, other) = screen_proven(
                &pos,
                &SolveOptions {
                    stipulation: Stipulation::Mate(2),
                    ..opts.clone()
                },
            );
            if stipulation != Stipulation::Mate(2) {
                let s = from(&pos, &opts, other);
                assert_eq!(s.nodes, fresh.nodes, "{fen} {stipulation}");
            }
        }
    }
    // Proven for another position: not used.
    let opts = SolveOptions {
        threads: 1,
        ..SolveOptions::default()
    };
    let [a, b] =
        [&fens[0], &fens[1]].map(|f| Position::from_fen_validated(f, Rules::default()).unwrap());
    let (_, proven) = screen_proven(&a, &opts);
    let s = from(&b, &opts, proven);
    assert_eq!(s.nodes, solve(&b, &opts).nodes);
    // Nor by a solve that may have no table.
    let (_, proven) = screen_proven(&a, &opts);
    let none = SolveOptions {
        table_mib: 0,
        ..opts.clone()
    };
    let s = from(&a, &none, proven);
    assert_eq!(s.nodes, solve(&a, &none).nodes);
    assert!(sound >= 10, "{sound} sound screenings");
    assert_eq!(fewer, sound, "every sound screening spared nodes");
}

/// The threats a solve lists beside its keys (read from the keys' trees when those were built
/// whole) are, key by key and in order, what [`baroque::solver::tries::threat`] finds searching
/// alone with a fresh table, for every goal the threats are given for, in both games.
#[test]
fn the_listed_threats_are_those_a_search_alone_finds() {
    use baroque::rules::rococo::{Coords, RococoPosition};
    use baroque::rules::GamePosition;
    use baroque::solver::search::{Goal, Searcher};
    use baroque::solver::tt::Table;
    use baroque::solver::{tries, Budget, Stipulation};

    fn check<P: GamePosition>(pos: &P, stipulation: Stipulation) -> usize {
        let limits = Limits {
            nodes: u64::MAX,
            time: Duration::from_secs(600),
        };
        let opts = SolveOptions {
            stipulation,
            max_refutations: 0,
            threads: 1,
            limits,
            ..SolveOptions::default()
        };
        let s = solve(pos, &opts);
        // (A tree cut short by its size leaves some keys' threats to the search.)
        assert!(!s.budget_exhausted, "{stipulation:?}");
        assert_eq!(s.threats.len(), s.keys.len(), "{stipulation:?}");
        let goal = Goal::of(stipulation).unwrap();
        let (table, budget) = (Table::new(16), Budget::new(limits));
        let mut alone = Searcher::<P>::new(&table, &budget)
            .aiming(goal.target())
            .bound(goal.duty());
        let mut moves = 0;
        for (threat, key) in s.threats.iter().zip(&s.keys) {
            assert_eq!(threat.key, key.mv);
            let found = tries::threat(&mut alone, goal, pos, &key.mv, key.mate_in).unwrap();
            assert_eq!(threat.moves, found, "{stipulation:?}, key {:?}", key.mv);
            moves += found.len();
        }
        moves
    }

    let bench: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/bench/stipulations.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let mut moves = 0;
    for fen in bench["direct_mates"].as_array().unwrap() {
        let pos = Position::from_fen_validated(fen.as_str().unwrap(), Rules::default()).unwrap();
        for st in ["#2", "=2", "s#2", "r#2", "semi-r#2", "s=2"] {
            moves += check(&pos, Stipulation::parse(st).unwrap());
        }
    }
    for fen in [
        "10/10/2I7/10/10/3k6/1x4W3/1a8/3K6/10 w 0",
        "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0",
    ] {
        let pos = RococoPosition::from_fen(fen, Coords::Standard).unwrap();
        for st in ["#2", "=2", "s#2", "r#2"] {
            moves += check(&pos, Stipulation::parse(st).unwrap());
        }
    }
    assert!(moves > 20, "the threats compared hold only {moves} moves");
}
