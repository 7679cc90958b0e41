//! Property tests of the rules engine over random positions of every rule set.

use baroque_rules::symmetry::{Pattern, Symmetry};
use baroque_rules::{
    BitSet, Board, Board8, Color, Letters, Move, Piece, Position, Preset, Role, Rules,
};
use baroque_rules::{GameKind, VariantPosition};
use proptest::prelude::*;

mod oracle;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (0usize..3, any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(p, single, suicide, loss)| {
            let mut r = Rules::preset(Preset::ALL[p]);
            if single {
                r.set_option("leaper", "single").unwrap();
            }
            if suicide {
                r.set_option("suicide", "on").unwrap();
            }
            if loss {
                r.set_option("stalemate", "loss").unwrap();
            }
            r
        },
    )
}

/// A random placement: up to one King per side, any other pieces, weighted towards the pieces whose
/// interactions are rich (Immobilizers, Chameleons).
fn board_strategy() -> impl Strategy<Value = (Board<Board8>, Color)> {
    let piece = (0usize..14, any::<bool>());
    (
        prop::collection::vec((0u8..64, piece), 2..28),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0u8..64,
        0u8..64,
    )
        .prop_map(|(cells, black, wk, bk, wks, bks)| {
            let mut b = Board::<Board8>::empty();
            let mut used = 0u64;
            for (sq, c) in [(wks, Color::White), (bks, Color::Black)]
                .into_iter()
                .zip([wk, bk])
                .filter_map(|(x, keep)| keep.then_some(x))
            {
                if !used.has(sq) {
                    b.put(sq, Piece::new(c, Role::King));
                    used |= 1 << sq;
                }
            }
            for (sq, (kind, white)) in cells {
                if used.has(sq) {
                    continue;
                }
                let role = [
                    Role::Pawn,
                    Role::Pawn,
                    Role::Pawn,
                    Role::Withdrawer,
                    Role::LongLeaper,
                    Role::LongLeaper,
                    Role::Coordinator,
                    Role::Immobilizer,
                    Role::Immobilizer,
                    Role::Chameleon,
                    Role::Chameleon,
                    Role::Withdrawer,
                    Role::Coordinator,
                    Role::Pawn,
                ][kind];
                let color = if white { Color::White } else { Color::Black };
                b.put(sq, Piece::new(color, role));
                used |= 1 << sq;
            }
            (b, if black { Color::Black } else { Color::White })
        })
}

/// A position that can arise (no validation error), under random rules.
fn position_strategy() -> impl Strategy<Value = Position> {
    (board_strategy(), rules_strategy())
        .prop_map(|((b, turn), rules)| Position::from_board(b, turn, rules))
        .prop_filter("the position must be valid", |p| {
            p.validate().iter().all(|problem| !problem.is_error())
        })
}

/// A position reached by random legal moves from the start.
fn playout_strategy() -> impl Strategy<Value = Position> {
    (rules_strategy(), prop::collection::vec(any::<u16>(), 0..40)).prop_map(|(rules, picks)| {
        let mut pos = Position::start(rules);
        for pick in picks {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.after(&moves[pick as usize % moves.len()]);
        }
        pos
    })
}

fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![position_strategy(), playout_strategy()]
}

/// The oracle for check, independent of the backwards King test: does any pseudo-legal move of the
/// side to move capture the other side's King?
fn opponent_king_capturable_by_moves(pos: &Position) -> bool {
    match pos.board().king(pos.turn().other()) {
        Some(k) => pos.pseudo_legal_moves().iter().any(|m| m.captures.has(k)),
        None => false,
    }
}

proptest! {
    // 600 cases each by default; set PROPTEST_CASES for a longer run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(600),
        ..ProptestConfig::default()
    })]

    #[test]
    fn fen_round_trips_in_both_letter_sets(pos in any_position()) {
        for letters in [Letters::Chess, Letters::Baroque] {
            let text = pos.fen(letters);
            let back = Position::from_fen(&text, *pos.rules()).unwrap();
            prop_assert_eq!(back, pos, "{}", text);
            prop_assert_eq!(back.hash(), pos.hash());
        }
    }

    #[test]
    fn legal_moves_are_exactly_the_pseudo_moves_that_leave_the_king_safe(pos in any_position()) {
        let legal = pos.legal_moves();
        for m in pos.pseudo_legal_moves() {
            let after = pos.after(&m);
            let exposed = opponent_king_capturable_by_moves(&after);
            prop_assert_eq!(legal.contains(&m), !exposed,
                "{} {:?} in {}", pos.move_name(&m, Letters::Chess), m, pos.fen(Letters::Chess));
            // The backwards test agrees with the move-based oracle.
            prop_assert_eq!(after.king_capturable(pos.turn()), exposed);
        }
        // Check as reported agrees with the oracle too.
        let flipped = Position::from_board(*pos.board(), pos.turn().other(), *pos.rules());
        prop_assert_eq!(pos.is_check(), opponent_king_capturable_by_moves(&flipped));
        // The counting path (perft's last ply) and the any-move test agree with the list.
        prop_assert_eq!(pos.count_legal(&mut Vec::new()), legal.len() as u64);
        prop_assert_eq!(pos.has_legal_move(), !legal.is_empty());
    }

    #[test]
    fn the_legal_moves_to_some_squares_are_those_of_the_list_that_end_there(
        pos in any_position(),
        targets in any::<u64>(),
        king_steps in 0u32..4,
    ) {
        use baroque_rules::SearchHooks;
        // Sets of every shape: random ones, and the squares near a King (the narrowed searches').
        let near = pos.board().king(pos.turn().other()).map_or(!0u64, |k| {
            (0u8..64)
                .filter(|&s| (s % 8).abs_diff(k % 8).max((s / 8).abs_diff(k / 8)) <= king_steps as u8)
                .fold(0, |set, s| set | 1 << s)
        });
        for set in [targets, near, 0, !0] {
            let want: Vec<Move> = pos.legal_moves().into_iter().filter(|m| set.has(m.to)).collect();
            let mut got = Vec::new();
            pos.generate_legal_to(set, &mut got);
            prop_assert_eq!(&got, &want, "{:x} in {}", set, pos.fen(Letters::Chess));
            pos.search_moves_to(u128::from(set), &mut got);
            prop_assert_eq!(&got, &want, "{:x} in {}", set, pos.fen(Letters::Chess));
        }
    }

    /// A quiet reply (a legal move of the opponent that gives no check) that a move of ours is
    /// said to keep is still one after that move: legal, with the same captures, and no check.
    #[test]
    fn a_quiet_reply_kept_by_a_move_is_still_legal_and_quiet_after_it(pos in any_position()) {
        let Some(them) = pos.null_move() else { return Ok(()) };
        for q in them.legal_moves() {
            let Some(reply) = pos.quiet_reply(&q) else { continue };
            prop_assert!(!them.after(&q).is_check(), "{} {}", pos.fen(Letters::Chess), them.move_name(&q, Letters::Chess));
            for m in pos.legal_moves() {
                if !pos.keeps_quiet_reply(&reply, &m) {
                    continue;
                }
                let after = pos.after(&m);
                let what = format!(
                    "{} then {} in {}",
                    pos.move_name(&m, Letters::Chess),
                    them.move_name(&q, Letters::Chess),
                    pos.fen(Letters::Chess)
                );
                prop_assert!(after.legal_moves().contains(&q), "not legal: {}", what);
                prop_assert!(!after.after(&q).is_check(), "check: {}", what);
            }
        }
        // What the selfmate and stalemate searches ask: every move dropped leaves the opponent a
        // legal move that gives no check (so it stalemates nobody). The replies tried first: the
        // opponent's moves of this position, then none (the opponent's own quiet moves).
        use baroque_rules::SearchHooks;
        let mut like: Vec<Option<Move>> = them.legal_moves().into_iter().take(2).map(Some).collect();
        for mut kept in [pos.legal_moves(), pos.legal_moves()] {
            let all = kept.clone();
            pos.drop_moves_leaving_a_quiet_reply(&mut kept, &like);
            for m in all.iter().filter(|m| !kept.contains(m)) {
                let after = pos.after(m);
                prop_assert!(
                    after.legal_moves().iter().any(|b| !after.after(b).is_check()),
                    "{} leaves no quiet reply in {}", pos.move_name(m, Letters::Chess), pos.fen(Letters::Chess)
                );
            }
            like.clear();
        }
    }

    /// What the stalemate searches ask of the reply hook: a quiet reply kept by a move (the
    /// mover's King's moves included) is still a legal move after it, check or not, and every
    /// move dropped leaves the opponent a legal move (so it stalemates nobody).
    #[test]
    fn a_reply_kept_by_a_move_is_still_legal_after_it(pos in any_position()) {
        let Some(them) = pos.null_move() else { return Ok(()) };
        for q in them.legal_moves() {
            let Some(reply) = pos.quiet_reply(&q) else { continue };
            for m in pos.legal_moves() {
                if !pos.keeps_reply(&reply, &m) {
                    continue;
                }
                prop_assert!(
                    pos.after(&m).legal_moves().contains(&q),
                    "not legal: {} then {} in {}",
                    pos.move_name(&m, Letters::Chess),
                    them.move_name(&q, Letters::Chess),
                    pos.fen(Letters::Chess)
                );
            }
        }
        use baroque_rules::SearchHooks;
        let mut like: Vec<Option<Move>> = them.legal_moves().into_iter().take(2).map(Some).collect();
        for mut kept in [pos.legal_moves(), pos.legal_moves()] {
            let all = kept.clone();
            pos.drop_moves_leaving_a_reply(&mut kept, &like);
            for m in all.iter().filter(|m| !kept.contains(m)) {
                prop_assert!(
                    pos.after(m).has_legal_move(),
                    "{} leaves no reply in {}", pos.move_name(m, Letters::Chess), pos.fen(Letters::Chess)
                );
            }
            like.clear();
        }
    }

    /// The quiet replies the stalemate and selfmate searches try when they know none: two
    /// different legal moves that give no check, neither by an Immobilizer nor a Chameleon, and
    /// the second only with the first.
    #[test]
    fn quiet_moves_of_two_pieces_are_legal_quiet_and_two(pos in any_position()) {
        let [a, b] = pos.two_legal_quiet_moves();
        prop_assert!(a.is_some() || b.is_none());
        let legal = pos.legal_moves();
        for m in [a, b].into_iter().flatten() {
            let what = format!("{} in {}", pos.move_name(&m, Letters::Chess), pos.fen(Letters::Chess));
            prop_assert!(legal.contains(&m), "not legal: {}", what);
            prop_assert!(!pos.after(&m).is_check(), "check: {}", what);
            prop_assert!(!matches!(m.role, Role::Immobilizer | Role::Chameleon), "{}", what);
        }
        if let (Some(a), Some(b)) = (a, b) {
            prop_assert_ne!(a, b, "one move twice in {}", pos.fen(Letters::Chess));
        }
    }

    #[test]
    fn the_check_filter_keeps_every_move_that_gives_check(pos in any_position()) {
        // The opponent is not in check (as in every position that can arise with us to move).
        let flipped = Position::from_board(*pos.board(), pos.turn().other(), *pos.rules());
        prop_assume!(!flipped.is_check());
        let mut kept = pos.pseudo_legal_moves();
        pos.retain_possible_checks(&mut kept);
        // The legal ones among them that give check, found with legality tested last, are the
        // same moves as the legal checks.
        let legal = pos.legal_moves();
        let mut checks = Vec::new();
        pos.generate_legal_checks(&mut checks);
        let possible: Vec<Move> = kept.iter().filter(|m| legal.contains(m)).copied().collect();
        let expected: Vec<Move> =
            possible.iter().filter(|m| pos.after(m).is_check()).copied().collect();
        // A legal move the filter drops exists exactly when the quiet-move test (which tests
        // the legality of dropped moves only) says so.
        let quiet = pos.legal_quiet_move();
        prop_assert_eq!(quiet.is_some(), legal.len() > possible.len());
        // And the move it names is one of them.
        if let Some(q) = quiet {
            prop_assert!(legal.contains(&q) && !kept.contains(&q));
        }
        // The same moves (in any order: pieces that may give check are generated first).
        let order = |v: &mut Vec<Move>| v.sort_by_key(|m| (m.from, m.to, m.captures));
        let (mut checks, mut expected) = (checks, expected);
        order(&mut checks);
        order(&mut expected);
        prop_assert_eq!(checks, expected);
        // A move made like another that does not give check: the same as making it and playing it.
        for like in pos.pseudo_legal_moves() {
            let made = pos.legal_move_like(&like);
            let quiet = made.filter(|m| !pos.after(m).is_check());
            prop_assert_eq!(pos.quiet_move_like(&like), quiet);
        }
        for m in pos.pseudo_legal_moves() {
            let after = pos.after(&m);
            // The move-based oracle: could we, to move again, take the opponent's King?
            let again = Position::from_board(*after.board(), pos.turn(), *pos.rules());
            let checks = opponent_king_capturable_by_moves(&again);
            // The board-only test of check agrees with the oracle and with the position after.
            prop_assert_eq!(pos.gives_check(&m), checks);
            prop_assert_eq!(after.is_check(), checks);
            if checks {
                prop_assert!(kept.contains(&m),
                    "{} gives check in {} but was filtered out", pos.move_name(&m, Letters::Chess),
                    pos.fen(Letters::Chess));
            }
        }
    }

    #[test]
    fn every_symmetry_maps_the_legal_moves_and_the_status(pos in any_position()) {
        // Each of the sixteen images of a position has the images of its moves: the positions
        // after them, compared square by square (captures included), and the same status.
        use baroque_rules::GameRules as _;
        let vp = VariantPosition::Baroque(pos);
        let after = |p: &VariantPosition| -> Vec<String> {
            let mut v: Vec<String> = p
                .legal_moves()
                .iter()
                .map(|m| Pattern::of(&p.play(m)).text())
                .collect();
            v.sort();
            v
        };
        let before = after(&vp);
        for &s in Symmetry::with_colours(GameKind::Baroque) {
            let image = s.position(&vp);
            let mut mapped: Vec<String> = vp
                .legal_moves()
                .iter()
                .map(|m| Pattern::of(&vp.play(m)).image(s).text())
                .collect();
            mapped.sort();
            prop_assert_eq!(after(&image), mapped, "{} of {}", s.name(8), pos.fen(Letters::Chess));
            prop_assert_eq!(image.status(), vp.status());
            prop_assert_eq!(s.inverse().position(&image), vp);
            prop_assert_eq!(
                Pattern::of(&image).canonical_with_colours().0,
                Pattern::of(&vp).canonical_with_colours().0
            );
            if !s.exchanges_colours() {
                prop_assert_eq!(Pattern::of(&image).canonical().0, Pattern::of(&vp).canonical().0);
            }
        }
        prop_assert_eq!(before.len(), vp.legal_moves().len());
    }

    #[test]
    fn play_then_unplay_restores_the_position(pos in any_position()) {
        for m in pos.legal_moves() {
            let mut p = pos;
            let undo = p.play(&m);
            prop_assert_eq!(p, pos.after(&m));
            p.unplay(&m, undo);
            prop_assert_eq!(p, pos);
        }
    }

    #[test]
    fn single_move_legality_agrees_with_the_list(pos in any_position(), from in 0u8..64, to in 0u8..64) {
        let legal = pos.legal_moves();
        for m in pos.pseudo_legal_moves() {
            prop_assert_eq!(pos.is_legal(&m), legal.contains(&m));
        }
        // Made-up moves are legal only when listed.
        for role in Role::BAROQUE {
            let m = Move { from, to, role, kind: baroque_rules::MoveKind::Normal, captures: 0 };
            prop_assert_eq!(pos.is_legal(&m), legal.contains(&m));
        }
    }

    #[test]
    fn a_move_made_like_another_is_the_legal_move_between_the_same_squares(
        pos in any_position(), from in 0u8..64, to in 0u8..64, captures in any::<u64>()
    ) {
        // What the search's killer moves rest on: a move of another position (any captures) made
        // for this one is the legal move of the same piece between the same squares, or nothing
        // when there is none.
        let legal = pos.legal_moves();
        for role in Role::BAROQUE {
            let like = Move { from, to, role, kind: baroque_rules::MoveKind::Normal, captures };
            let expected = legal
                .iter()
                .find(|m| m.from == from && m.to == to && m.role == role && m.kind == like.kind)
                .copied();
            prop_assert_eq!(pos.legal_move_like(&like), expected);
        }
        for m in &legal {
            let like = Move { captures: !m.captures, ..*m };
            if m.kind == baroque_rules::MoveKind::Normal {
                prop_assert_eq!(pos.legal_move_like(&like), Some(*m));
            }
        }
    }

    #[test]
    fn every_legal_move_reads_back_from_its_names(pos in any_position()) {
        for m in pos.legal_moves() {
            for letters in [Letters::Chess, Letters::Baroque] {
                let name = pos.move_name(&m, letters);
                prop_assert_eq!(pos.parse_move(&name), Ok(m), "{}", name);
            }
            prop_assert_eq!(pos.parse_move(&m.uci()), Ok(m));
        }
    }

    #[test]
    fn every_uci_names_one_move_and_plays_back_through_verify(pos in any_position()) {
        oracle::every_uci_names_one_move(&pos, baroque_rules::Naming::default())?;
    }

    #[test]
    fn hash_matches_a_fresh_board(pos in any_position()) {
        let mut fresh = Board::<Board8>::empty();
        for (sq, p) in pos.board().iter() {
            fresh.put(sq, p);
        }
        prop_assert_eq!(fresh.hash(), pos.board().hash());
    }

    #[test]
    fn fen_parser_never_panics(s in "[rnbkqpmwlcixRNBKQPMWLCIX1-9/ wb0-9]{0,80}") {
        let _ = Position::from_fen(&s, Rules::default());
    }

    #[test]
    fn move_parser_never_panics(pos in playout_strategy(), s in "[0-9.]{0,3}[KPQNRMBWLCIXZ]?[a-j]?[0-9]{0,2}[-x:]?[a-j]?[0-9]{0,3}[-x]?[a-i]?[0-9]?[+#!?]?") {
        let _ = pos.parse_move(&s);
    }

    #[test]
    fn status_agrees_with_the_move_list(pos in any_position()) {
        use baroque_rules::Status;
        let n = pos.legal_moves().len();
        let st = pos.status();
        let check = pos.is_check();
        prop_assert_eq!(st, match (check, n) {
            (true, 0) => Status::Checkmate,
            (false, 0) => Status::Stalemate,
            (true, _) => Status::Check,
            (false, _) => Status::Ongoing,
        });
        prop_assert_eq!(pos.has_legal_move(), n > 0);
    }
}
