//! Rococo: the page's prose examples, the edge rule, swaps, mutual destruction, promotion, suicide;
//! mates, helpmates and selfmates against brute force.

mod oracle;

use baroque_rules::prelude::*;
use baroque_rules::rococo::{Coords, RococoKind, RococoMove, RococoPosition, ROCOCO_START_FEN};
use baroque_rules::{BitSet, Status};

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
    use baroque_rules::geometry::{Board10, Geometry};
    use baroque_rules::symmetry::{Pattern, Symmetry};
    use baroque_rules::{Board, Color, GameKind, Piece, Role, VariantPosition};
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

    /// The positions after each legal move of `p`, as their images under `s` are written.
    fn images_after(p: &VariantPosition, s: Symmetry) -> Vec<String> {
        use baroque_rules::GameRules as _;
        let mut v: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| Pattern::of(&p.play(m)).image(s).text())
            .collect();
        v.sort();
        v
    }

    /// Whether `s` maps the moves of `p` onto those of its image.
    fn keeps_the_moves(p: &RococoPosition, s: Symmetry) -> bool {
        let vp = VariantPosition::Rococo(*p);
        images_after(&s.position(&vp), Symmetry::IDENTITY) == images_after(&vp, s)
    }

    #[test]
    fn the_symmetries_of_rococo_are_the_four_that_keep_the_pawns_direction() {
        // A White Cannon Pawn one step from Black's back rank promotes by moving up (to the
        // pieces missing from the board); turned a quarter, or mirrored across the ranks without
        // the colours exchanged, it would promote sideways or backwards: those images have other
        // moves. The four of `Symmetry::with_colours` keep them; of the board's alone, the files
        // reversed.
        let p = pos("10/10/5k4/4P5/10/10/10/4K5/10/10 w 0 -");
        let keeping: Vec<String> = Symmetry::all()
            .iter()
            .filter(|&&s| keeps_the_moves(&p, s))
            .map(|s| s.name(10))
            .collect();
        let with_colours: Vec<String> = Symmetry::with_colours(GameKind::Rococo)
            .iter()
            .map(|s| s.name(10))
            .collect();
        assert_eq!(keeping, with_colours);
        assert_eq!(
            with_colours,
            [
                "none",
                "mirror a1<->j1",
                "polish; mirror a1<->a10",
                "polish; rotate 180"
            ]
        );
        let board: Vec<String> = Symmetry::of_game(GameKind::Rococo)
            .iter()
            .map(|s| s.name(10))
            .collect();
        assert_eq!(board, ["none", "mirror a1<->j1"]);
    }

    proptest! {
        #[test]
        fn every_symmetry_of_rococo_maps_the_moves_and_the_status(p in position()) {
            for &s in Symmetry::with_colours(GameKind::Rococo) {
                prop_assert!(keeps_the_moves(&p, s), "{} of {}", s.name(10), p.fen(Coords::Standard));
                let vp = VariantPosition::Rococo(p);
                let image = s.position(&vp);
                use baroque_rules::GameRules as _;
                prop_assert_eq!(image.status(), vp.status());
                prop_assert_eq!(s.inverse().position(&image), vp);
                prop_assert_eq!(
                    Pattern::of(&image).canonical_with_colours().0,
                    Pattern::of(&vp).canonical_with_colours().0
                );
            }
        }

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
        fn a_move_made_like_another_is_the_legal_move_of_that_piece(
            p in prop_oneof![position_of(1..30), position_of(60..98)],
            other in prop_oneof![position_of(1..30), position_of(60..98)]
        ) {
            let legal = p.legal_moves();
            for like in legal.iter().chain(other.legal_moves().iter()) {
                let expected = legal.iter().find(|m| {
                    m.from == like.from && m.to == like.to && m.role == like.role
                        && m.kind == like.kind && m.promotion == like.promotion
                }).copied();
                let like = RococoMove { captures: !like.captures, ..*like };
                prop_assert_eq!(p.move_like(&like), expected);
            }
        }

        #[test]
        fn every_uci_names_one_move_and_plays_back_through_verify(
            p in prop_oneof![position_of(1..30), position_of(60..98)],
        ) {
            for coords in [Coords::Standard, Coords::Page] {
                let naming = baroque_rules::Naming { coords, ..Default::default() };
                crate::oracle::every_uci_names_one_move(&p, naming)?;
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
    //! Every stipulation against its definition (`../shared/RULES.md`, Rococo's last point),
    //! written with the rules engine's legal moves and status alone: every move is legal, one that
    //! leaves the mover's King capturable too; a game is over once a King is taken; a side is
    //! mated when its King was taken or its status is `checkmate`.
    use super::*;
    use baroque_rules::Color;
    use baroque_solver::help::solve_help;
    use baroque_solver::{solve, Outcome, SolveOptions, Stipulation};
    use proptest::prelude::*;
    use std::collections::HashSet;

    /// The moves of the side to move: its legal moves, none once its King was taken.
    fn playable(p: &RococoPosition) -> Vec<RococoMove> {
        if p.board().king(p.turn()).is_none() {
            return Vec::new();
        }
        p.legal_moves()
    }

    /// The side to move is mated: its King was taken (these positions start with both), or its
    /// status is `checkmate`.
    fn mated(p: &RococoPosition) -> bool {
        p.board().king(p.turn()).is_none() || p.status() == Status::Checkmate
    }

    /// `#n`, White to move in `p`: some move leaves Black mated within `n` White moves.
    fn mates_within(p: &RococoPosition, n: u32) -> bool {
        n > 0 && playable(p).iter().any(|m| black_lost(&p.after(m), n - 1))
    }

    /// Black to move in `p`: mated now, or every move of its allows a mate within `n`.
    fn black_lost(p: &RococoPosition, n: u32) -> bool {
        if mated(p) {
            return true;
        }
        let moves = playable(p);
        n > 0 && !moves.is_empty() && moves.iter().all(|d| mates_within(&p.after(d), n))
    }

    /// `s#n`, White to move in `p`: some move after which Black must mate White within `n`
    /// White moves in all.
    fn self_mates_within(p: &RococoPosition, n: u32) -> bool {
        n > 0
            && playable(p)
                .iter()
                .any(|w| black_must_mate(&p.after(w), n - 1))
    }

    /// Black to move in `p`: it has a move, and every move of its mates White, or leaves White a
    /// selfmate within `n` more White moves.
    fn black_must_mate(p: &RococoPosition, n: u32) -> bool {
        let moves = playable(p);
        !moves.is_empty()
            && moves.iter().all(|b| {
                let q = p.after(b);
                mated(&q) || self_mates_within(&q, n)
            })
    }

    /// The first moves of White in `p` after which `wins` (Black to move, White moves left
    /// after the first), each with the fewest White moves in all: the keys of `#n` or `s#n`.
    fn keys_by(
        p: &RococoPosition,
        n: u32,
        wins: impl Fn(&RococoPosition, u32) -> bool,
    ) -> HashSet<(RococoMove, u32)> {
        playable(p)
            .into_iter()
            .filter_map(|m| {
                let after = p.after(&m);
                (1..=n).find(|&k| wins(&after, k - 1)).map(|k| (m, k))
            })
            .collect()
    }

    /// A try with its refutations, by definition: each White first move of `p` not among `keys`
    /// after which Black has from one to `max` moves to a position where `refutes`.
    fn tries_by(
        p: &RococoPosition,
        keys: &HashSet<RococoMove>,
        max: usize,
        refutes: impl Fn(&RococoPosition) -> bool,
    ) -> HashSet<(RococoMove, Vec<RococoMove>)> {
        playable(p)
            .into_iter()
            .filter(|w| !keys.contains(w))
            .filter_map(|w| {
                let after = p.after(&w);
                let mut r: Vec<RococoMove> = playable(&after)
                    .into_iter()
                    .filter(|b| refutes(&after.after(b)))
                    .collect();
                r.sort_by_key(|m| after.move_name(m, Coords::Standard));
                (1..=max).contains(&r.len()).then_some((w, r))
            })
            .collect()
    }

    /// Every helpmate line of `plies` moves from `p`, by definition.
    fn help_lines(p: &RococoPosition, plies: u32) -> HashSet<Vec<RococoMove>> {
        crate::oracle::help_lines(p, plies, &playable, &mated)
    }

    /// The tries a solve reports, each with its refutations.
    fn reported_tries(
        s: &baroque_solver::Solution<RococoMove>,
    ) -> HashSet<(RococoMove, Vec<RococoMove>)> {
        s.tries
            .iter()
            .map(|t| (t.mv, t.refutations.clone()))
            .collect()
    }

    fn reported_keys(s: &baroque_solver::Solution<RococoMove>) -> HashSet<(RococoMove, u32)> {
        s.keys.iter().map(|k| (k.mv, k.mate_in)).collect()
    }

    fn options(stipulation: Stipulation, max_refutations: usize) -> SolveOptions {
        SolveOptions {
            stipulation,
            threads: 1,
            table_mib: 4,
            max_refutations,
            ..SolveOptions::default()
        }
    }

    /// Solves `#n` of `fen` and checks its keys against the definition.
    fn check(fen: &str, n: u32) -> baroque_solver::NamedSolution {
        let p = pos(fen);
        let s = solve(&p, &options(Stipulation::Mate(n), 1));
        assert_eq!(reported_keys(&s), keys_by(&p, n, black_lost), "{fen} #{n}");
        s.named(&p, baroque_rules::Naming::default())
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

    /// A first move that leaves the White King capturable is legal, and a try when the King's
    /// capture is its only refutation (the example).
    #[test]
    fn a_first_move_leaving_the_king_capturable_is_a_try() {
        let fen = "10/5k4/2A7/4K5/10/10/10/10/6P3/10 w 0";
        let p = pos(fen);
        let s = solve(&p, &options(Stipulation::Mate(2), 2))
            .named(&p, baroque_rules::Naming::default());
        let t = s
            .tries
            .iter()
            .find(|t| t.info.notation == "Ke7-f8")
            .expect("Ke7-f8 is a try");
        let refutations: Vec<&str> = t.refutations.iter().map(|r| r.notation.as_str()).collect();
        assert_eq!(refutations, ["Kf9xf8"]);
    }

    /// A helpmate's Black move may leave its King capturable, and White's last move may take it.
    #[test]
    fn a_helpmate_may_expose_and_take_the_king() {
        let p = pos("10/10/3K6/10/10/1k2S5/3A6/10/10/10 b 0");
        let h = solve_help(
            &p,
            &options(
                Stipulation::HelpMate {
                    moves: 1,
                    half: false,
                },
                1,
            ),
            1,
        );
        let lines: HashSet<Vec<String>> = h
            .named(&p, baroque_rules::Naming::default())
            .solutions
            .iter()
            .map(|l| l.iter().map(|m| m.notation.clone()).collect())
            .collect();
        let want: HashSet<Vec<String>> = [["Kb5-b4", "Ad4xc4"], ["Kb5-b6", "Ad4xc5"]]
            .iter()
            .map(|l| l.iter().map(|m| m.to_string()).collect())
            .collect();
        assert_eq!(lines, want);
        assert_eq!(help_lines(&p, 2).len(), 2);
        let p = pos("10/10/10/10/3k6/3iI5/6P3/5K4/10/10 b 0");
        let h = solve_help(
            &p,
            &options(
                Stipulation::HelpMate {
                    moves: 2,
                    half: false,
                },
                1,
            ),
            1,
        )
        .named(&p, baroque_rules::Naming::default());
        let lines: Vec<Vec<&str>> = h
            .solutions
            .iter()
            .map(|l| l.iter().map(|m| m.notation.as_str()).collect())
            .collect();
        assert!(
            lines.contains(&vec!["Id5-d5", "Ie5-f5", "Kd6-e6", "Pg4xe6"]),
            "{lines:?}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(120))]

        #[test]
        fn helpmates_are_every_cooperating_line(
            p in super::properties::position_in(1..5, 5),
            plies in 2u32..=4,
        ) {
            prop_assume!(p.has_both_kings());
            // h#1, h#1.5 and h#2: White starts the odd ones.
            let (moves, half) = (plies / 2, plies % 2 == 1);
            let turn = if half { Color::White } else { Color::Black };
            prop_assume!(p.turn() == turn);
            let stipulation = Stipulation::HelpMate { moves, half };
            let help = solve_help(&p, &options(stipulation, 1), 1);
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
        fn mates_in_one_and_two_have_the_keys_tries_and_threats_of_the_definition(
            p in super::properties::position_in(1..4, 5),
            n in 1u32..=2,
            max in 1usize..=2,
        ) {
            prop_assume!(p.turn() == Color::White && p.has_both_kings());
            let s = solve(&p, &options(Stipulation::Mate(n), max));
            prop_assert!(!s.tries_truncated);
            let fen = p.fen(Coords::Standard);
            let want = keys_by(&p, n, black_lost);
            prop_assert_eq!(reported_keys(&s), want.clone(), "keys of #{} of {}", n, fen);
            let keys: HashSet<RococoMove> = want.iter().map(|k| k.0).collect();
            // A try: after it, Black has from one to `max` moves that leave White no mate in time.
            let tries = tries_by(&p, &keys, max, |q| !mates_within(q, n - 1));
            prop_assert_eq!(reported_tries(&s), tries, "tries of #{} of {}", n, fen);
            // The threat of a key of two moves: with Black passing (not in check), White's
            // moves that mate at once.
            for t in &s.threats {
                let after = p.after(&t.key);
                let length = want.iter().find(|k| k.0 == t.key).map(|k| k.1);
                let threat: HashSet<RococoMove> = match (length, after.null_move()) {
                    (Some(2), Some(null)) => playable(&null)
                        .into_iter()
                        .filter(|m| mated(&null.after(m)))
                        .collect(),
                    _ => HashSet::new(),
                };
                let got: HashSet<RococoMove> = t.moves.iter().copied().collect();
                prop_assert_eq!(got, threat, "threat of a key of #{} of {}", n, fen);
            }
        }

        /// Every line `/v1/solve` reports replays through `/v1/verify` to the goal, and
        /// `/v1/play` agrees with the solve.
        #[test]
        fn solve_verify_and_play_agree_on_every_stipulation(
            p in super::properties::position_in(1..4, 4),
            which in 0usize..7,
        ) {
            prop_assume!(p.has_both_kings());
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
            crate::oracle::solve_verify_and_play_agree(&p, stipulation)?;
        }

        #[test]
        fn selfmates_in_one_and_two_have_the_keys_and_tries_of_the_definition(
            p in super::properties::position_in(1..5, 4),
            n in 1u32..=2,
        ) {
            prop_assume!(p.turn() == Color::White && p.has_both_kings());
            let s = solve(&p, &options(Stipulation::SelfMate(n), 1));
            prop_assert!(!s.tries_truncated);
            let fen = p.fen(Coords::Standard);
            let want = keys_by(&p, n, black_must_mate);
            prop_assert_eq!(reported_keys(&s), want.clone(), "keys of s#{} of {}", n, fen);
            let keys: HashSet<RococoMove> = want.iter().map(|k| k.0).collect();
            // A try: after it, Black has exactly one move that neither mates White nor leaves
            // White a selfmate in time.
            let tries = tries_by(&p, &keys, 1, |q| !mated(q) && !self_mates_within(q, n - 1));
            prop_assert_eq!(reported_tries(&s), tries, "tries of s#{} of {}", n, fen);
        }
    }
}
