//! Stipulations beyond the direct mate, against oracles written from their definitions with the
//! rules engine alone (legal moves and the status of a position), on random sparse Baroque
//! positions: `h#0.5` is White's mates in one; `h#1` every Black move followed by a mating White
//! move; `h#2` and `h#1.5` every line of legal moves of that length whose last move mates, with
//! the shorter helpmates as their short solutions; `s#1` every White move after which Black has a
//! move and every Black move mates; every key of `s#2` holds against every defence; every
//! helpmate solution replays as legal moves ending in mate. The solution tree of `#2` and `#3`
//! too (every defence, the replies that mate in time, duals, threats, exact lengths), against a
//! brute-force minimax. And the stipulations read and print as problemists write them.

mod oracle;

use baroque_rules::prelude::*;
use baroque_rules::symmetry::{Pattern, Symmetry};
use baroque_rules::VariantPosition;
use baroque_rules::{Board, Board8, Color, Move, Piece, Position, Role, Rules, Stalemate, Status};
use baroque_solver::help::solve_help;
use baroque_solver::{solve, Limits, SolveOptions, Stipulation};
use proptest::prelude::*;
use std::collections::HashSet;

/// A sparse position with both Kings and up to `extra` other pieces, `turn` to move, that can
/// arise.
fn sparse(turn: Color, extra: usize) -> impl Strategy<Value = Position> {
    // Every Baroque piece but the King.
    let roles = &Role::BAROQUE[1..];
    (
        0u8..64,
        0u8..64,
        prop::collection::vec((0u8..64, 0usize..6, any::<bool>()), 0..=extra),
    )
        .prop_filter_map(
            "both Kings, a position that can arise",
            move |(wk, bk, cells)| {
                if wk == bk {
                    return None;
                }
                let mut b = Board::<Board8>::empty();
                b.put(wk, Piece::new(Color::White, Role::King));
                b.put(bk, Piece::new(Color::Black, Role::King));
                for (sq, r, white) in cells {
                    if b.piece_at(sq).is_none() {
                        let c = if white { Color::White } else { Color::Black };
                        b.put(sq, Piece::new(c, roles[r]));
                    }
                }
                let p = Position::from_board(b, turn, Rules::default());
                p.validate().iter().all(|x| !x.is_error()).then_some(p)
            },
        )
}

fn options(stipulation: Stipulation) -> SolveOptions {
    SolveOptions {
        stipulation,
        limits: Limits {
            nodes: 50_000_000,
            time: std::time::Duration::from_secs(60),
        },
        table_mib: 4,
        threads: 1,
        ..SolveOptions::default()
    }
}

fn mated(p: &Position) -> bool {
    p.status() == Status::Checkmate
}

/// Every helpmate line of `plies` legal moves from `p` ending in mate, by definition (`h#0.5`:
/// White's mates at once; `h#1`: a Black move that does not end the game, then a mating one).
fn oracle_help_lines(p: &Position, plies: u32) -> HashSet<Vec<Move>> {
    oracle::help_lines(p, plies, &|q: &Position| q.legal_moves(), &mated)
}

/// Whether, Black to move, Black has a move and every Black move mates White.
fn black_forced_to_mate(p: &Position) -> bool {
    let moves = p.legal_moves();
    !moves.is_empty() && moves.iter().all(|b| mated(&p.play(b)))
}

/// `s#1`, by definition: White's moves after which Black must mate.
fn oracle_self_one(p: &Position) -> HashSet<Move> {
    p.legal_moves()
        .into_iter()
        .filter(|w| black_forced_to_mate(&p.play(w)))
        .collect()
}

/// Whether a White move of `s#2` holds: Black has a move, and every Black move either mates White
/// or leaves White an `s#1`.
fn self_two_key_holds(p: &Position, key: &Move) -> bool {
    let after = p.play(key);
    let moves = after.legal_moves();
    !moves.is_empty()
        && moves.iter().all(|b| {
            let next = after.play(b);
            mated(&next) || !oracle_self_one(&next).is_empty()
        })
}

/// Whether White, to move, mates at once.
fn mates_in_one(p: &Position) -> bool {
    p.legal_moves().iter().any(|w| mated(&p.play(w)))
}

/// The refutations of White's first move `w` in a `#2`, by definition: Black's moves after which
/// White has no mate in one.
fn oracle_refutations_two(p: &Position, w: &Move) -> Vec<Move> {
    let after = p.play(w);
    after
        .legal_moves()
        .into_iter()
        .filter(|b| !mates_in_one(&after.play(b)))
        .collect()
}

/// The tries of a `#2` with at most `max` refutations, by definition, each with its refutations
/// (as sets): first moves that do not mate in one, whose refutations number 1 to `max`.
fn oracle_tries_two(p: &Position, max: usize) -> HashSet<(Move, Vec<Move>)> {
    p.legal_moves()
        .into_iter()
        .filter(|w| !mated(&p.play(w)))
        .filter_map(|w| {
            let mut r = oracle_refutations_two(p, &w);
            r.sort_by_key(|m| format!("{m:?}"));
            (1..=max).contains(&r.len()).then_some((w, r))
        })
        .collect()
}

/// The tries a solve reports, refutations as sorted sets.
fn reported_tries(s: &baroque_solver::Solution<Move>) -> HashSet<(Move, Vec<Move>)> {
    s.tries
        .iter()
        .map(|t| {
            let mut r = t.refutations.clone();
            r.sort_by_key(|m| format!("{m:?}"));
            (t.mv, r)
        })
        .collect()
}

/// Whether the side to move has lost: no legal move, and in check or under rules that count a
/// stalemate as a loss.
fn lost(p: &Position) -> bool {
    p.legal_moves().is_empty() && (p.is_check() || p.rules().stalemate == Stalemate::Loss)
}

/// Brute force: does the side to move mate within `n` of its moves?
fn mates_within(p: &Position, n: u32) -> bool {
    n > 0
        && p.legal_moves()
            .iter()
            .any(|m| loses_within(&p.play(m), n - 1))
}

/// Brute force: has the side to move lost, now or whatever it plays within `n` of the other
/// side's moves?
fn loses_within(p: &Position, n: u32) -> bool {
    lost(p) || {
        let moves = p.legal_moves();
        n > 0 && !moves.is_empty() && moves.iter().all(|d| mates_within(&p.play(d), n))
    }
}

/// A node of a direct mate's solution tree, moves in a fixed order (the tree's own order is the
/// generator's): an attacker move, its exact mate length, whether it mates, its threat, and every
/// defence with whether it allows a dual and the attacker moves that still mate in time.
#[derive(Debug, PartialEq, Eq)]
struct TreeNode {
    mv: Move,
    mate_in: u32,
    mates: bool,
    threat: Option<Vec<Move>>,
    defences: Vec<(Move, bool, Vec<TreeNode>)>,
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| format!("{m:?}"));
    moves
}

/// The tree below attacker move `mv` of `p`, which mates within `within` moves, by definition:
/// after a mating move or the last one, nothing; else the threat (the attacker's moves that
/// would mate in time were the defender to pass, when it may: not in check), and each defence
/// with the attacker moves that mate within the moves left.
fn oracle_tree(p: &Position, mv: &Move, within: u32) -> TreeNode {
    let after = p.play(mv);
    let mate_in = (1..=within)
        .find(|&k| loses_within(&after, k - 1))
        .expect("a move of the tree mates in time");
    let mates = lost(&after);
    let mut node = TreeNode {
        mv: *mv,
        mate_in,
        mates,
        threat: None,
        defences: Vec::new(),
    };
    if mates || within <= 1 {
        return node;
    }
    let in_time = |q: &Position| {
        sorted(
            q.legal_moves()
                .into_iter()
                .filter(|m| loses_within(&q.play(m), within - 2))
                .collect(),
        )
    };
    node.threat = after.null_move().map(|null| in_time(&null));
    for d in sorted(after.legal_moves()) {
        let after_d = after.play(&d);
        let mating = in_time(&after_d);
        let replies = mating
            .iter()
            .map(|m| oracle_tree(&after_d, m, within - 1))
            .collect();
        node.defences.push((d, mating.len() > 1, replies));
    }
    node
}

/// A solve's tree node in the oracle's form.
fn reported_tree(n: &baroque_solver::tree::AttackNode<Move>) -> TreeNode {
    let mut defences: Vec<(Move, bool, Vec<TreeNode>)> = n
        .defences
        .iter()
        .map(|d| {
            let mut replies: Vec<TreeNode> = d.replies.iter().map(reported_tree).collect();
            replies.sort_by_key(|r| format!("{:?}", r.mv));
            (d.mv, d.dual, replies)
        })
        .collect();
    defences.sort_by_key(|(d, ..)| format!("{d:?}"));
    TreeNode {
        mv: n.mv,
        mate_in: n.mate_in,
        mates: n.mates,
        threat: n.threat.clone().map(sorted),
        defences,
    }
}

/// The keys of `#n` in `p` and their trees, against the definitions.
fn check_tree(p: &Position, n: u32) -> Result<(), TestCaseError> {
    let opts = SolveOptions {
        max_tree_nodes: usize::MAX,
        ..options(Stipulation::Mate(n))
    };
    let s = solve(p, &opts);
    prop_assert!(!s.budget_exhausted && !s.tree_truncated);
    let keys: HashSet<Move> = s.keys.iter().map(|k| k.mv).collect();
    let want: HashSet<Move> = p
        .legal_moves()
        .into_iter()
        .filter(|m| loses_within(&p.play(m), n - 1))
        .collect();
    prop_assert_eq!(&keys, &want, "{}", p.fen(Default::default()));
    prop_assert_eq!(s.tree.len(), s.keys.len());
    for (node, key) in s.tree.iter().zip(&s.keys) {
        // A key's tree is built for its own length (a short solution's for the shorter one),
        // which the oracle checks as the exact length.
        let want = oracle_tree(p, &key.mv, key.mate_in);
        prop_assert_eq!(reported_tree(node), want, "{}", p.fen(Default::default()));
    }
    Ok(())
}

/// The positions after `moves` from `p`, each as its image under `s` would be written.
fn images_after(p: &Position, moves: &[Move], s: Symmetry) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|m| {
            Pattern::of(&VariantPosition::Baroque(p.play(m)))
                .image(s)
                .text()
        })
        .collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// A position's image under each of Baroque's sixteen symmetries has the images of its
    /// solutions: the keys of `#2` and `s#2`, and every line of `h#2`, compared by the positions
    /// they reach.
    #[test]
    fn an_image_has_the_images_of_the_solutions(p in sparse(Color::White, 4), pick in 0usize..16) {
        let s = Symmetry::with_colours(baroque_rules::GameKind::Baroque)[pick];
        let image = match s.position(&VariantPosition::Baroque(p)) {
            VariantPosition::Baroque(i) => i,
            VariantPosition::Rococo(_) => unreachable!(),
        };
        let what = format!("{} of {}", s.name(8), p.fen(baroque_rules::Letters::Chess));
        for stipulation in [Stipulation::Mate(2), Stipulation::SelfMate(2)] {
            let keys = |q: &Position| -> Vec<Move> {
                solve(q, &options(stipulation)).keys.iter().map(|k| k.mv).collect()
            };
            prop_assert_eq!(
                images_after(&image, &keys(&image), Symmetry::IDENTITY),
                images_after(&p, &keys(&p), s),
                "{} {}", stipulation, &what
            );
        }
        // A helpmate from the position as it stands (`h#1.5`: the side to move starts; in a
        // polish image that is the other colour, the same problem with the colours exchanged):
        // the positions each solution ends in.
        let help = Stipulation::HelpMate { moves: 1, half: true };
        let ends = |q: &Position, s: Symmetry| -> Vec<String> {
            let mut v: Vec<String> = solve_help(q, &options(help), 1)
                .solutions
                .iter()
                .map(|line| {
                    let end = line.iter().fold(*q, |pos, m| pos.play(m));
                    Pattern::of(&VariantPosition::Baroque(end)).image(s).text()
                })
                .collect();
            v.sort();
            v
        };
        prop_assert_eq!(ends(&image, Symmetry::IDENTITY), ends(&p, s), "h#1.5 {}", &what);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn the_tries_of_a_mate_in_two_are_those_of_the_definition(
        p in sparse(Color::White, 4),
        max in 1usize..=3,
    ) {
        let s = solve(&p, &SolveOptions { max_refutations: max, ..options(Stipulation::Mate(2)) });
        prop_assert!(!s.tries_truncated);
        let keys: HashSet<Move> = s.keys.iter().map(|k| k.mv).collect();
        let want: HashSet<(Move, Vec<Move>)> = oracle_tries_two(&p, max)
            .into_iter()
            .filter(|(w, _)| !keys.contains(w))
            .collect();
        prop_assert_eq!(reported_tries(&s), want, "{}", p.fen(baroque_rules::Letters::Chess));
        // A key's threat, by definition: after the key and a pass, White's mates in one.
        for (k, t) in s.keys.iter().zip(&s.threats) {
            prop_assert_eq!(k.mv, t.key);
            let after = p.play(&k.mv);
            let want: HashSet<Move> = match after.null_move() {
                Some(null) if k.mate_in == 2 => null
                    .legal_moves()
                    .into_iter()
                    .filter(|m| mated(&null.play(m)))
                    .collect(),
                _ => HashSet::new(),
            };
            prop_assert_eq!(t.moves.iter().copied().collect::<HashSet<Move>>(), want);
        }
    }

    #[test]
    fn the_tree_of_a_mate_in_two_is_that_of_the_definition(p in sparse(Color::White, 5)) {
        check_tree(&p, 2)?;
    }

    /// Where a stalemate is a loss, quiet moves may mate too (the tree's last move is not
    /// narrowed to checks there).
    #[test]
    fn the_tree_of_a_mate_in_two_with_stalemate_a_loss_is_that_of_the_definition(
        p in sparse(Color::White, 5)
    ) {
        let rules: Rules = "abbott,stalemate=loss".parse().unwrap();
        let p = Position::from_fen_validated(&p.fen(Default::default()), rules).unwrap();
        check_tree(&p, 2)?;
    }

    #[test]
    fn a_selfmate_in_one_tree_lists_every_defence_as_mating(p in sparse(Color::White, 6)) {
        let s = solve(&p, &options(Stipulation::SelfMate(1)));
        prop_assert_eq!(s.tree.len(), s.keys.len());
        for node in &s.tree {
            let after = p.play(&node.mv);
            let want: HashSet<Move> = after.legal_moves().into_iter().collect();
            let got: HashSet<Move> = node.defences.iter().map(|d| d.mv).collect();
            prop_assert_eq!(got, want);
            prop_assert!(node.defences.iter().all(|d| d.mates && d.replies.is_empty()));
            prop_assert!(!node.mates);
        }
        // s#1 tries: White moves after which Black has from one to `max` moves that do not mate
        // (and a move at all).
        let keys: HashSet<Move> = s.keys.iter().map(|k| k.mv).collect();
        let want: HashSet<(Move, Vec<Move>)> = p
            .legal_moves()
            .into_iter()
            .filter(|w| !keys.contains(w))
            .filter_map(|w| {
                let after = p.play(&w);
                let mut r: Vec<Move> = after
                    .legal_moves()
                    .into_iter()
                    .filter(|b| !mated(&after.play(b)))
                    .collect();
                r.sort_by_key(|m| format!("{m:?}"));
                (r.len() == 1).then_some((w, r))
            })
            .collect();
        prop_assert_eq!(reported_tries(&s), want);
    }

    #[test]
    fn half_move_helpmates_are_the_mates_in_one(p in sparse(Color::White, 6)) {
        let help = solve_help(&p, &options(Stipulation::HelpMate { moves: 0, half: true }), 1);
        prop_assert!(help.complete);
        let got: HashSet<Vec<Move>> = help.solutions.iter().cloned().collect();
        prop_assert_eq!(got.len(), help.solutions.len(), "no line twice");
        prop_assert_eq!(&got, &oracle_help_lines(&p, 1), "{}", p.fen(baroque_rules::Letters::Chess));
        // The direct mate in one finds the same moves.
        let direct = solve(&p, &options(Stipulation::Mate(1)));
        let keys: HashSet<Vec<Move>> = direct.keys.iter().map(|k| vec![k.mv]).collect();
        prop_assert_eq!(keys, got);
    }

    #[test]
    fn one_move_helpmates_are_every_cooperating_line(p in sparse(Color::Black, 5)) {
        let help = solve_help(&p, &options(Stipulation::HelpMate { moves: 1, half: false }), 1);
        prop_assert!(help.complete);
        let got: HashSet<Vec<Move>> = help.solutions.iter().cloned().collect();
        prop_assert_eq!(&got, &oracle_help_lines(&p, 2), "{}", p.fen(baroque_rules::Letters::Chess));
        // Every solution replays: legal moves, mate at the end and not before.
        for line in &help.solutions {
            let mut at = p;
            for (i, m) in line.iter().enumerate() {
                prop_assert!(at.legal_moves().contains(m));
                at = at.play(m);
                prop_assert_eq!(mated(&at), i + 1 == line.len());
            }
        }
        prop_assert!(help.short_solutions.is_empty(), "h#1 has no shorter helpmate of its start");
        prop_assert_eq!(help.count, help.solutions.len());
        prop_assert_eq!(help.sound, Some(help.solutions.len() == 1));
    }

    #[test]
    fn two_move_helpmates_are_every_cooperating_line(p in sparse(Color::Black, 4)) {
        let help = solve_help(&p, &options(Stipulation::HelpMate { moves: 2, half: false }), 1);
        prop_assert!(help.complete);
        let fen = p.fen(baroque_rules::Letters::Chess);
        let want = oracle_help_lines(&p, 4);
        // Past the first lines found, they are counted, not kept.
        let what = format!("h#2 of {fen}");
        oracle::same_lines(&help.solutions, help.count, help.lines_truncated, &want, &what)?;
        let short: HashSet<Vec<Move>> = help.short_solutions.iter().cloned().collect();
        prop_assert_eq!(&short, &oracle_help_lines(&p, 2), "h#1 of {}", fen);
        prop_assert_eq!(help.sound, Some(short.is_empty() && want.len() == 1));
    }

    #[test]
    fn one_and_a_half_move_helpmates_are_every_cooperating_line(p in sparse(Color::White, 3)) {
        let help = solve_help(&p, &options(Stipulation::HelpMate { moves: 1, half: true }), 1);
        prop_assert!(help.complete);
        let fen = p.fen(baroque_rules::Letters::Chess);
        let want = oracle_help_lines(&p, 3);
        let what = format!("h#1.5 of {fen}");
        oracle::same_lines(&help.solutions, help.count, help.lines_truncated, &want, &what)?;
        let short: HashSet<Vec<Move>> = help.short_solutions.iter().cloned().collect();
        prop_assert_eq!(&short, &oracle_help_lines(&p, 1), "h#0.5 of {}", fen);
    }

    #[test]
    fn one_move_selfmates_leave_black_only_mating_moves(p in sparse(Color::White, 6)) {
        let s = solve(&p, &options(Stipulation::SelfMate(1)));
        let keys: HashSet<Move> = s.keys.iter().map(|k| k.mv).collect();
        prop_assert_eq!(&keys, &oracle_self_one(&p), "{}", p.fen(baroque_rules::Letters::Chess));
        prop_assert_eq!(s.sound, Some(keys.len() == 1));
    }

    #[test]
    fn every_key_of_a_selfmate_in_two_holds_against_every_defence(p in sparse(Color::White, 4)) {
        let s = solve(&p, &options(Stipulation::SelfMate(2)));
        for k in &s.keys {
            if k.mate_in == 1 {
                prop_assert!(black_forced_to_mate(&p.play(&k.mv)));
            } else {
                prop_assert!(self_two_key_holds(&p, &k.mv));
            }
        }
        // The first moves that are not keys do not hold.
        let keys: HashSet<Move> = s.keys.iter().map(|k| k.mv).collect();
        for w in p.legal_moves().iter().filter(|w| !keys.contains(w)) {
            prop_assert!(!self_two_key_holds(&p, w));
        }
    }
}

/// Mates in two made by the generator (the stipulation bench's), whose trees are crowded, and a
/// sound mate in three with a dual (found by random search), whose tree has threats and replies
/// of two lengths.
#[test]
fn the_trees_of_generated_mates_are_those_of_the_definition() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/bench/stipulations.json"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for fen in doc["direct_mates"].as_array().unwrap() {
        let pos = Position::from_fen_validated(fen.as_str().unwrap(), Rules::default()).unwrap();
        check_tree(&pos, 2).unwrap();
    }
    let pos =
        Position::from_fen_validated("3K4/8/8/8/6k1/8/3NBM2/8 w 0", Rules::default()).unwrap();
    check_tree(&pos, 3).unwrap();
}

/// Whether a helpmate line from `p` is as narrow as the generator's narrowed search keeps: each
/// move before the mating one lands within `within` King steps of the mated side's King (the one
/// to move at the start of an `h#N`) in the position it is played from, one step more after the
/// first move.
fn narrow_line(p: &Position, line: &[Move], within: u32) -> bool {
    let mated = p.turn();
    let mut at = *p;
    line.iter().enumerate().all(|(i, m)| {
        let king = at.king(mated).expect("a King of Baroque is never taken");
        let (k, to) = (u32::from(king), u32::from(m.to));
        let reach = within + u32::from(i > 0);
        let near = (k % 8).abs_diff(to % 8) <= reach && (k / 8).abs_diff(to / 8) <= reach;
        at = at.play(m);
        i + 1 == line.len() || near
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// The generator's narrowed helpmate search: with no cap it answers exactly the solutions of
    /// the definition whose moves before the mating one land near the mated King; with a cap of
    /// one it stops at two of them, and says `NoMate` only when there is none.
    #[test]
    fn the_narrowed_helpmate_search_finds_exactly_the_narrow_solutions(
        p in sparse(Color::Black, 4),
        within in 1u32..=2,
    ) {
        use baroque_solver::help::{focused_help, MAX_LINES};
        use baroque_solver::Narrowed;
        let fen = p.fen(baroque_rules::Letters::Chess);
        let want: HashSet<Vec<Move>> = oracle_help_lines(&p, 4)
            .into_iter()
            .filter(|l| narrow_line(&p, l, within))
            .collect();
        let opts = options(Stipulation::HelpMate { moves: 2, half: false });
        let lines = |r: Narrowed<Vec<Vec<Move>>>| match r {
            Narrowed::Mate(lines) => Ok(lines),
            Narrowed::NoMate => Ok(Vec::new()),
            Narrowed::Stopped => Err(TestCaseError::fail(format!("stopped: {fen}"))),
        };
        let all = lines(focused_help(&p, within, &opts, usize::MAX).0)?;
        let got: HashSet<Vec<Move>> = all.iter().cloned().collect();
        prop_assert_eq!(got.len(), all.len(), "no line twice: {}", fen);
        if want.len() <= MAX_LINES {
            prop_assert_eq!(&got, &want, "{} within {}", fen, within);
        } else {
            prop_assert!(got.is_subset(&want) && got.len() == MAX_LINES, "{}", fen);
        }
        let two = lines(focused_help(&p, within, &opts, 1).0)?;
        prop_assert_eq!(two.len(), want.len().min(2), "{} within {}", fen, within);
        prop_assert!(two.iter().all(|l| want.contains(l)), "{}", fen);
    }

    #[test]
    fn the_tree_of_a_mate_in_three_in_a_sparse_position_is_that_of_the_definition(
        p in sparse(Color::White, 3)
    ) {
        check_tree(&p, 3)?;
    }
}

/// Hand-checked: White King b4, Immobilizer b3; Black King d3. Black steps next to the
/// Immobilizer (Kd3-c2, frozen there) and the White King comes next to it (Kb4-c3): check, and the
/// frozen King cannot move. No other line mates.
#[test]
fn a_king_that_walks_into_the_immobilizer_is_helpmated_in_one() {
    let p = Position::from_fen("8/8/8/8/1K6/1M1k4/8/8 b 0", Rules::default()).unwrap();
    let help = solve_help(
        &p,
        &options(Stipulation::HelpMate {
            moves: 1,
            half: false,
        }),
        1,
    );
    let named: Vec<Vec<String>> = help
        .named(&p, baroque_rules::Naming::default())
        .solutions
        .into_iter()
        .map(|l| l.into_iter().map(|m| m.notation).collect())
        .collect();
    assert_eq!(named, [["Kd3-c2", "Kb4-c3"]]);
    assert_eq!(help.sound, Some(true));
    assert!(help.short_solutions.is_empty());
}

/// Hand-checked: after the key Bd3-e2 (the White Chameleon next to the Black King on e1), every
/// King step but one lands next to the Chameleon, which takes a King as a King does; the Black
/// Immobilizer on g4 is frozen by the White one on g5. So Black's one move is Kxe2, next to the
/// White King on f3, which the Black Immobilizer freezes, with every White piece frozen: mate.
#[test]
fn a_chameleon_offered_to_the_king_is_a_selfmate_in_one() {
    let p = Position::from_fen("8/8/8/6M1/6m1/3B1K2/8/4k3 w 0", Rules::default()).unwrap();
    let s = solve(&p, &options(Stipulation::SelfMate(1)));
    let keys: Vec<String> = s
        .keys
        .iter()
        .map(|k| p.move_name(&k.mv, baroque_rules::Letters::Chess))
        .collect();
    assert_eq!(keys, ["Bd3-e2"]);
    assert_eq!(s.sound, Some(true));
    let after = p.play(&s.keys[0].mv);
    let replies = after.legal_moves();
    assert_eq!(replies.len(), 1);
    assert_eq!(after.play(&replies[0]).status(), Status::Checkmate);
}

/// A generated `#2` (White: Long Leapers a8 and f7, Coordinator h6, Pawn h4, King b3, Chameleon
/// g1; Black: King h7, Coordinator d6): the key Bg1-g6 and the try Bg1-g8, which only Kh7xh6
/// refutes. The try and its one refutation are checked against the definition as well.
#[test]
fn a_mate_in_two_with_a_try_refuted_by_one_defence() {
    let p = Position::from_fen("N7/5N1k/3r3R/8/7P/1K6/8/6B1 w 0", Rules::default()).unwrap();
    let s = solve(&p, &options(Stipulation::Mate(2)));
    let name = |pos: &Position, m: &Move| pos.move_name(m, baroque_rules::Letters::Chess);
    let keys: Vec<String> = s.keys.iter().map(|k| name(&p, &k.mv)).collect();
    assert_eq!(keys, ["Bg1-g6"]);
    let tries: Vec<(String, Vec<String>)> = s
        .tries
        .iter()
        .map(|t| {
            let after = p.play(&t.mv);
            (
                name(&p, &t.mv),
                t.refutations.iter().map(|r| name(&after, r)).collect(),
            )
        })
        .collect();
    assert_eq!(tries, [("Bg1-g8".to_string(), vec!["Kh7xh6".to_string()])]);
    assert_eq!(reported_tries(&s), oracle_tries_two(&p, 1));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Every line `/v1/solve` reports replays through `/v1/verify` to the goal, and `/v1/play`
    /// agrees with the solve (Baroque; `tests/rococo.rs` has Rococo's).
    #[test]
    fn solve_verify_and_play_agree_on_every_stipulation(
        p in prop_oneof![sparse(Color::White, 4), sparse(Color::Black, 4)],
        which in 0usize..7,
    ) {
        let stipulation = [
            Stipulation::Mate(1),
            Stipulation::Mate(2),
            Stipulation::SelfMate(1),
            Stipulation::SelfMate(2),
            Stipulation::HelpMate { moves: 1, half: false },
            Stipulation::HelpMate { moves: 1, half: true },
            Stipulation::HelpMate { moves: 2, half: false },
        ][which];
        prop_assume!(stipulation.starts().is_none_or(|side| side == p.turn()));
        oracle::solve_verify_and_play_agree(&p, stipulation)?;
    }
}
