//! Rococo: the page's prose examples, the edge rule, swaps, mutual destruction, promotion, suicide;
//! mates, helpmates and selfmates against brute force.

mod oracle;

use baroque::rules::rococo::{Coords, RococoKind, RococoMove, RococoPosition, ROCOCO_START_FEN};
use baroque::rules::{BitSet, Status};

fn pos(fen: &str) -> RococoPosition {
    RococoPosition::from_fen(fen, Coords::Standard).unwrap()
}

fn named(p: &RococoPosition, coords: Coords) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| p.move_name(m, coords))
        .collect();
    v.sort();
    v
}

fn from<'a>(p: &RococoPosition, moves: &'a [RococoMove], sq: &str) -> Vec<&'a RococoMove> {
    let s = Coords::Standard.parse(sq).unwrap();
    let _ = p;
    moves.iter().filter(|m| m.from == s).collect()
}

fn caps(p: &RococoPosition, m: &RococoMove) -> Vec<String> {
    p.square_pieces(m.captures, Coords::Standard)
        .into_iter()
        .map(|x| format!("{}{}", x.piece, x.square))
        .collect()
}

#[test]
fn chameleon_combines_leap_withdrawal_and_approach() {
    // Page: white Withdrawer a1, black Chameleon a2, white Long Leaper a3, white Advancer a5 (page
    // squares; ours b2, b3, b4, b6). The Chameleon leaps to a4 (our b5).
    let p = pos("10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0");
    let moves = p.legal_moves();
    let m = moves
        .iter()
        .find(|m| Coords::Page.name(m.to) == "a4" && Coords::Page.name(m.from) == "a2")
        .expect("the leap a2-a4");
    assert_eq!(caps(&p, m), vec!["Wb2", "Lb4", "Ab6"]);
}

#[test]
fn withdrawer_takes_only_the_piece_it_leaves() {
    // Page: a Withdrawer moving d2-g2 takes only c2, not c3/d3/e3/c1/d1/e1.
    let mut p = pos("10/10/10/10/10/10/3ppp4/3pW5/3ppp4/10 w 0");
    let m = p
        .legal_moves()
        .into_iter()
        .find(|m| Coords::Page.name(m.from) == "d2" && Coords::Page.name(m.to) == "g2")
        .unwrap();
    assert_eq!(caps(&p, &m), vec!["pd3"]);
    p = p.after(&m);
    assert_eq!(p.board().occupied().count(), 7);
}

#[test]
fn long_leaper_on_the_edge_takes_with_the_fewest_edge_squares() {
    // Page: a Long Leaper on x00 may take x3 only by landing on x2 (x8-x4 empty).
    let p = pos("L9/10/10/10/10/10/p9/10/10/10 w 0");
    let moves = p.legal_moves();
    let down_the_edge: Vec<String> = from(&p, &moves, "a10")
        .into_iter()
        .filter(|m| Coords::Standard.name(m.to).starts_with('a'))
        .map(|m| p.move_name(m, Coords::Page))
        .collect();
    assert_eq!(down_the_edge, vec!["Lx00xx2"]);
    // Off the edge it moves freely into the inner board, never along the edge without a capture.
    assert!(moves
        .iter()
        .all(|m| m.captures != 0 || !Coords::Standard.name(m.to).starts_with('a')));
    assert!(moves.iter().any(|m| Coords::Standard.name(m.to) == "b9"));
    assert!(!moves.iter().any(|m| Coords::Standard.name(m.to) == "b10"));
}

#[test]
fn swapper_swaps_destroys_and_may_not_swap_back() {
    // White Swapper e5, black Swapper e8 (clear line), black pawn f6 next to e5.
    let p = pos("10/10/4s5/10/5p4/4S5/10/10/10/10 w 0");
    let moves = p.legal_moves();
    let swap = moves
        .iter()
        .find(|m| m.kind == RococoKind::Swap && Coords::Standard.name(m.to) == "e8")
        .unwrap();
    let md = moves
        .iter()
        .find(|m| m.kind == RococoKind::MutualDestruction)
        .unwrap();
    assert_eq!(caps(&p, md), vec!["pf6"]);
    assert_eq!(p.after(md).board().occupied().count(), 1);
    let after = p.after(swap);
    assert!(after.fen(Coords::Standard).ends_with(" b 1 e5e8"));
    // Black may not swap straight back...
    assert!(!after
        .legal_moves()
        .iter()
        .any(|m| m.kind == RococoKind::Swap && Coords::Standard.name(m.to) == "e8"));
    // ... but may after any other move.
    let cleared = RococoPosition::from_fen(
        &after.fen(Coords::Standard).replace("e5e8", "-"),
        Coords::Standard,
    )
    .unwrap();
    assert!(cleared
        .legal_moves()
        .iter()
        .any(|m| m.kind == RococoKind::Swap && Coords::Standard.name(m.to) == "e8"));
}

#[test]
fn promotion_is_optional_and_to_missing_pieces_only() {
    // A white pawn on e8 steps to e9: it may stay a pawn or become any of the missing army pieces
    // (White has only its King besides the pawn: I, W, L, X, A, S are missing).
    let p = pos("10/10/4P5/10/10/10/10/10/9K/10 w 0");
    let names = named(&p, Coords::Standard);
    for n in [
        "Pe8-e9", "Pe8-e9=I", "Pe8-e9=W", "Pe8-e9=L", "Pe8-e9=X", "Pe8-e9=A", "Pe8-e9=S",
    ] {
        assert!(names.contains(&n.to_string()), "{n} in {names:?}");
    }
    assert!(!names.iter().any(|n| n.ends_with("=K") || n.ends_with("=P")));
}

#[test]
fn frozen_pieces_may_commit_suicide_but_not_the_king() {
    // White Leaper e5 and King f5 next to a black Immobilizer e6.
    let p = pos("10/10/10/10/4i5/4LK4/10/10/10/10 w 0");
    let moves = p.legal_moves();
    let suicides: Vec<String> = moves
        .iter()
        .filter(|m| m.kind == RococoKind::Suicide)
        .map(|m| p.move_name(m, Coords::Standard))
        .collect();
    assert_eq!(suicides, vec!["Le5-e5"]);
    assert!(moves.iter().all(|m| m.kind == RococoKind::Suicide));
}

#[test]
fn kings_may_stand_side_by_side_and_the_status_says_who_keeps_the_king() {
    let p = pos("10/10/10/10/4kK4/10/10/10/10/10 w 0");
    assert!(p.validate().iter().all(|x| !x.is_error()));
    assert!(p.can_capture_king());
    assert_eq!(p.status(), Status::Check);
}

#[test]
fn start_position_has_only_inner_moves() {
    let p = RococoPosition::from_fen(ROCOCO_START_FEN, Coords::Standard).unwrap();
    let moves = p.legal_moves();
    assert!(moves.iter().all(|m| m.captures == 0));
    assert!(!moves.is_empty());
    assert_eq!(p.status(), Status::Ongoing);
}

mod properties {
    use super::*;
    use baroque::rules::geometry::{Board10, Geometry};
    use baroque::rules::{Board, Color, Piece, Role};
    use proptest::prelude::*;

    const ROLES: [Role; 9] = [
        Role::King,
        Role::CannonPawn,
        Role::Immobilizer,
        Role::Withdrawer,
        Role::Advancer,
        Role::LongLeaper,
        Role::Chameleon,
        Role::Swapper,
        Role::PushmePullyu,
    ];

    fn position() -> impl Strategy<Value = RococoPosition> {
        position_of(1..30)
    }

    /// Positions of up to `cells` pieces besides the Kings (crowded boards with 60 to 98).
    pub(super) fn position_of(
        cells: std::ops::Range<usize>,
    ) -> impl Strategy<Value = RococoPosition> {
        position_in(cells, 10)
    }

    /// Positions of up to `cells` pieces besides the Kings, all in the `side` by `side` block at
    /// the board's centre (the whole board with 10).
    pub(super) fn position_in(
        cells: std::ops::Range<usize>,
        side: u8,
    ) -> impl Strategy<Value = RococoPosition> {
        let n = side * side;
        let corner = (10 - side) / 2;
        let at = move |i: u8| Board10::square(corner + i % side, corner + i / side);
        (
            prop::collection::vec((0u8..n, 1usize..9, any::<bool>()), cells),
            any::<bool>(),
            0u8..n,
            0u8..n,
        )
            .prop_map(move |(cells, black, wk, bk)| {
                let mut b = Board::<Board10>::empty();
                b.put(at(wk), Piece::new(Color::White, Role::King));
                if bk != wk {
                    b.put(at(bk), Piece::new(Color::Black, Role::King));
                }
                for (sq, r, white) in cells {
                    if b.piece_at(at(sq)).is_none() {
                        let c = if white { Color::White } else { Color::Black };
                        b.put(at(sq), Piece::new(c, ROLES[r]));
                    }
                }
                let mut fen = String::new();
                for rank in (0..10).rev() {
                    let mut empty = 0;
                    for file in 0..10 {
                        match b.piece_at(Board10::square(file, rank)) {
                            Some(p) => {
                                if empty > 0 {
                                    fen.push_str(&empty.to_string());
                                    empty = 0;
                                }
                                fen.push(p.rococo_letter());
                            }
                            None => empty += 1,
                        }
                    }
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                    }
                    if rank > 0 {
                        fen.push('/');
                    }
                }
                fen.push_str(if black { " b 0 -" } else { " w 0 -" });
                RococoPosition::from_fen(&fen, Coords::Standard).unwrap()
            })
    }

    proptest! {
        #[test]
        fn fen_round_trips_in_both_coordinates(p in position()) {
            for c in [Coords::Standard, Coords::Page] {
                prop_assert_eq!(RococoPosition::from_fen(&p.fen(c), c).unwrap(), p);
            }
        }

        #[test]
        fn every_move_reads_back_and_removes_exactly_its_captures(p in position()) {
            let edge = Board10::t().edge;
            for m in p.legal_moves() {
                for c in [Coords::Standard, Coords::Page] {
                    prop_assert_eq!(p.parse_move(&p.move_name(&m, c), c), Ok(m), "{}", p.move_name(&m, c));
                }
                let after = p.after(&m);
                let before = p.board().occupied().count();
                let lost = m.captures.count()
                    + matches!(m.kind, RococoKind::MutualDestruction | RococoKind::Suicide) as u32;
                prop_assert_eq!(after.board().occupied().count(), before - lost);
                // The edge rule: ending on the edge needs a capture or a swap.
                if edge.has(m.to) && m.kind == RococoKind::Normal && m.from != m.to {
                    prop_assert!(m.captures != 0, "{}", p.move_name(&m, Coords::Standard));
                }
                // Fresh hash equals the kept one.
                let mut fresh = Board::<Board10>::empty();
                for (sq, pc) in after.board().iter() {
                    fresh.put(sq, pc);
                }
                prop_assert_eq!(fresh.hash(), after.board().hash());
            }
        }

        /// The count of perft's last ply (most moves counted in bulk, the Cannon Pawns' for all of
        /// them at once) is the length of the move list.
        #[test]
        fn the_counted_moves_are_the_listed_ones(
            p in prop_oneof![position_of(1..30), position_of(30..60), position_of(60..98)]
        ) {
            let listed = p.legal_moves().len() as u64;
            prop_assert_eq!(p.count_moves(&mut Vec::new()), listed, "{}", p.fen(Coords::Standard));
        }

        /// The backward King-capture test agrees with the capturing moves of the generator, on
        /// sparse and crowded boards, for both sides.
        #[test]
        fn king_capture_test_agrees_with_the_generated_captures(
            p in prop_oneof![position_of(1..30), position_of(60..98)]
        ) {
            for side in [Color::White, Color::Black] {
                let Some(k) = p.board().king(side) else { continue };
                let fen = p.fen(Coords::Standard);
                let mut fields: Vec<&str> = fen.split(' ').collect();
                fields[1] = if side == Color::White { "b" } else { "w" };
                let other = RococoPosition::from_fen(&fields.join(" "), Coords::Standard).unwrap();
                let generated = other.legal_moves().iter().any(|m| m.captures.has(k));
                prop_assert_eq!(p.king_capturable(side), generated, "{} {:?}", fen, side);
            }
        }

        /// The quick judgement of a move's King safety agrees with playing it, and the moves kept
        /// are those that keep the King.
        #[test]
        fn keeping_moves_are_those_that_keep_the_king(
            p in prop_oneof![position_of(1..30), position_of(30..60), position_of(60..98)]
        ) {
            let watch = p.king_watch();
            for m in p.legal_moves() {
                prop_assert_eq!(
                    p.keeps_king_with(&m, &watch),
                    p.takes_king(&m) || !p.after(&m).king_capturable(p.turn()),
                    "{} {}", p.fen(Coords::Standard), p.move_name(&m, Coords::Standard)
                );
            }
            let mut kept = Vec::new();
            p.keeping_moves(&mut kept);
            let want: Vec<RococoMove> = p.legal_moves().into_iter().filter(|m| p.keeps_king(m)).collect();
            prop_assert_eq!(p.has_keeping_move(), !want.is_empty());
            prop_assert_eq!(kept, want);
            prop_assert_eq!(p.has_move(), !p.legal_moves().is_empty());
        }

        /// A move of another position made for this one (what the search's killer moves rest
        /// on) is the keeping move of the same piece between the same squares in the same way,
        /// whatever it captured there.
        #[test]
        fn a_move_made_like_another_is_the_keeping_move_of_that_piece(
            p in prop_oneof![position_of(1..30), position_of(60..98)],
            other in prop_oneof![position_of(1..30), position_of(60..98)]
        ) {
            let mut kept = Vec::new();
            p.keeping_moves(&mut kept);
            for m in &kept {
                let like = RococoMove { captures: !m.captures, ..*m };
                prop_assert_eq!(p.keeping_move_like(&like), Some(*m));
            }
            for like in other.legal_moves() {
                let expected = kept.iter().find(|m| {
                    m.from == like.from && m.to == like.to && m.role == like.role
                        && m.kind == like.kind && m.promotion == like.promotion
                }).copied();
                prop_assert_eq!(p.keeping_move_like(&like), expected);
            }
        }

        #[test]
        fn parsers_never_panic(p in position(), s in "[0-9.]{0,2}[KPIWALXSUQ]?[a-jxy]?[0-9]{0,3}(-|x|<>|\\*)?[a-jxy]?[0-9]{0,3}(=[A-Z])?") {
            let _ = p.parse_move(&s, Coords::Standard);
            let _ = p.parse_move(&s, Coords::Page);
            let _ = RococoPosition::from_fen(&s, Coords::Standard);
        }
    }
}

mod mates {
    use super::*;
    use baroque::rules::Color;
    use baroque::solver::help::solve_help;
    use baroque::solver::{solve, Outcome, SolveOptions, Stipulation};
    use proptest::prelude::*;
    use std::collections::HashSet;

    /// Brute force with Rococo's victory: a move is worth considering when it keeps the mover's King
    /// (or takes the enemy King); a side that has moves but none keeping its King has lost.
    fn keep_moves(p: &RococoPosition) -> Vec<RococoMove> {
        p.legal_moves()
            .into_iter()
            .filter(|m| p.keeps_king(m))
            .collect()
    }

    fn lost(p: &RococoPosition) -> bool {
        p.board().king(p.turn()).is_none()
            || (keep_moves(p).is_empty() && !p.legal_moves().is_empty())
    }

    fn mates_within(p: &RococoPosition, n: u32) -> bool {
        n > 0 && keep_moves(p).iter().any(|m| all_lose(&p.after(m), n - 1))
    }

    fn all_lose(p: &RococoPosition, n: u32) -> bool {
        if lost(p) {
            return true;
        }
        let moves = keep_moves(p);
        n > 0 && !moves.is_empty() && moves.iter().all(|d| mates_within(&p.after(d), n))
    }

    fn brute_keys(p: &RococoPosition, n: u32) -> Vec<(String, u32)> {
        let mut v: Vec<(String, u32)> = keep_moves(p)
            .iter()
            .filter_map(|m| {
                let after = p.after(m);
                (1..=n)
                    .find(|&k| all_lose(&after, k - 1))
                    .map(|k| (p.move_name(m, Coords::Standard), k))
            })
            .collect();
        v.sort_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        v
    }

    fn check(fen: &str, n: u32) -> baroque::solver::NamedSolution {
        let p = pos(fen);
        let s = solve(
            &p,
            &SolveOptions {
                stipulation: baroque::solver::Stipulation::Mate(n),
                ..SolveOptions::default()
            },
        )
        .named(&p, baroque::rules::Naming::default());
        let keys: Vec<(String, u32)> = s
            .keys
            .iter()
            .map(|k| (k.info.notation.clone(), k.mate_in))
            .collect();
        assert_eq!(keys, brute_keys(&p, n), "{fen} #{n}");
        s
    }

    #[test]
    fn a_sound_mate_in_one_leaves_black_unable_to_keep_its_king() {
        let s = check("10/10/10/3K6/10/4k1I3/10/10/3W1A4/10 w 0 -", 1);
        assert_eq!(s.result, Outcome::Mate);
        assert_eq!(s.sound, Some(true));
        assert_eq!(s.keys[0].info.notation, "Wd2-d4");
        let after = pos("10/10/10/3K6/10/4k1I3/10/10/3W1A4/10 w 0 -");
        let m = after.parse_move("Wd2-d4", Coords::Standard).unwrap();
        assert_eq!(after.after(&m).status(), Status::Checkmate);
    }

    #[test]
    fn a_sound_mate_in_two() {
        let s = check("10/4k5/1W8/5K4/10/10/10/1I2i1L3/10/10 w 0 -", 2);
        assert_eq!(s.sound, Some(true));
        assert_eq!(s.keys[0].info.notation, "Lg3xd3");
        assert!(!s.tree[0].defences.is_empty());
    }

    #[test]
    fn the_start_position_has_no_quick_mate() {
        let s = check(ROCOCO_START_FEN, 1);
        assert_eq!(s.result, Outcome::NoMate);
    }

    /// The moves a side plays in these brute forces: none once its King is gone, else those that
    /// keep it.
    fn playable(p: &RococoPosition) -> Vec<RococoMove> {
        if p.board().king(p.turn()).is_none() {
            return Vec::new();
        }
        keep_moves(p)
    }

    /// Every helpmate line of `plies` moves from `p`, by definition: each move keeps its side's
    /// King, and the last one leaves Black lost (its King taken, or no move that keeps it).
    fn help_lines(p: &RococoPosition, plies: u32) -> HashSet<Vec<RococoMove>> {
        crate::oracle::help_lines(p, plies, &playable, &lost)
    }

    /// `s#1`, by definition: White's moves after which Black has a move, and every Black move
    /// leaves White lost (takes its King, or leaves it none that keeps it).
    fn self_one(p: &RococoPosition) -> HashSet<RococoMove> {
        playable(p)
            .into_iter()
            .filter(|w| {
                let after = p.after(w);
                let replies = playable(&after);
                !lost(&after)
                    && !replies.is_empty()
                    && replies.iter().all(|b| lost(&after.after(b)))
            })
            .collect()
    }

    /// A try with its refutation, by definition: each White first move of `p` not among `keys`
    /// after which Black has exactly one move to a position where `refutes`.
    fn single_refutations(
        p: &RococoPosition,
        keys: &HashSet<RococoMove>,
        refutes: impl Fn(&RococoPosition) -> bool,
    ) -> HashSet<(RococoMove, Vec<RococoMove>)> {
        playable(p)
            .into_iter()
            .filter(|w| !keys.contains(w))
            .filter_map(|w| {
                let after = p.after(&w);
                let r: Vec<RococoMove> = playable(&after)
                    .into_iter()
                    .filter(|b| refutes(&after.after(b)))
                    .collect();
                (r.len() == 1).then_some((w, r))
            })
            .collect()
    }

    /// The tries a solve reports, each with its refutations.
    fn reported_tries(
        s: &baroque::solver::Solution<RococoMove>,
    ) -> HashSet<(RococoMove, Vec<RococoMove>)> {
        s.tries
            .iter()
            .map(|t| (t.mv, t.refutations.clone()))
            .collect()
    }

    /// The keys of a direct mate in `n`, by brute force.
    fn keys_of(p: &RococoPosition, n: u32) -> HashSet<RococoMove> {
        brute_keys(p, n)
            .iter()
            .filter_map(|(name, _)| p.parse_move(name, Coords::Standard).ok())
            .collect()
    }

    fn options(stipulation: Stipulation) -> SolveOptions {
        SolveOptions {
            stipulation,
            threads: 1,
            table_mib: 4,
            ..SolveOptions::default()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        #[test]
        fn helpmates_are_every_cooperating_line(
            p in super::properties::position_in(1..5, 5),
            plies in 2u32..=4,
        ) {
            // h#1, h#1.5 and h#2: White starts the odd ones.
            let (moves, half) = (plies / 2, plies % 2 == 1);
            let turn = if half { Color::White } else { Color::Black };
            prop_assume!(p.turn() == turn);
            let stipulation = Stipulation::HelpMate { moves, half };
            let help = solve_help(&p, &options(stipulation), 1);
            prop_assert!(help.complete);
            let fen = p.fen(Coords::Standard);
            let want = help_lines(&p, plies);
            let what = format!("{stipulation} of {fen}");
            crate::oracle::same_lines(&help.solutions, help.count, help.lines_truncated, &want, &what)?;
            let short: HashSet<Vec<RococoMove>> = help.short_solutions.iter().cloned().collect();
            let shorter: HashSet<Vec<RococoMove>> = (1..plies)
                .filter(|k| k % 2 == plies % 2)
                .flat_map(|k| help_lines(&p, k))
                .collect();
            prop_assert_eq!(&short, &shorter, "shorter than {} of {}", stipulation, fen);
        }

        #[test]
        fn the_tries_of_a_mate_in_two_are_those_of_the_definition(
            p in super::properties::position_in(1..4, 5),
        ) {
            prop_assume!(p.turn() == Color::White);
            let s = solve(&p, &options(Stipulation::Mate(2)));
            prop_assert!(!s.tries_truncated);
            let fen = p.fen(Coords::Standard);
            let keys: HashSet<RococoMove> = s.keys.iter().map(|k| k.mv).collect();
            prop_assert_eq!(&keys, &keys_of(&p, 2), "keys of {}", fen);
            // A try: after it, Black has exactly one move that leaves White no mate in one.
            let want = single_refutations(&p, &keys, |q| !mates_within(q, 1));
            prop_assert_eq!(reported_tries(&s), want, "tries of {}", fen);
        }

        #[test]
        fn one_move_selfmates_leave_black_only_moves_that_lose_the_white_king(
            p in super::properties::position_in(2..6, 4),
        ) {
            prop_assume!(p.turn() == Color::White);
            let s = solve(&p, &options(Stipulation::SelfMate(1)));
            let keys: HashSet<RococoMove> = s.keys.iter().map(|k| k.mv).collect();
            prop_assert_eq!(&keys, &self_one(&p), "{}", p.fen(Coords::Standard));
            // Its tries: after one, Black has exactly one move that does not lose White its King.
            let want = single_refutations(&p, &keys, |q| !lost(q));
            prop_assert_eq!(reported_tries(&s), want, "tries of {}", p.fen(Coords::Standard));
        }
    }
}
