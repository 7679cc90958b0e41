//! Hand-checked positions for each capture kind, freezing rule, option, error and validation code.

use baroque_rules::{
    FenError, FenField, Letters, MoveErrorKind, MoveKind, Position, Preset, Rules, Status,
};

fn pos(fen: &str, rules: &str) -> Position {
    Position::from_fen_validated(fen, rules.parse().unwrap()).unwrap()
}

fn status(fen: &str, rules: &str) -> Status {
    pos(fen, rules).status()
}

fn captures(p: &Position, mv: &str) -> Vec<String> {
    let m = p.parse_move(mv).unwrap();
    p.captured_pieces(&m)
        .into_iter()
        .map(|(s, pc)| {
            format!(
                "{}{}",
                pc.letter(Letters::Chess),
                <baroque_rules::Board8 as baroque_rules::Geometry>::name(s)
            )
        })
        .collect()
}

fn reason(p: &Position, mv: &str) -> MoveErrorKind {
    p.parse_move(mv).unwrap_err().kind
}

#[test]
fn coordinator_checks_along_the_kings_lines_unless_frozen() {
    // White King a5 shares rank 5 with the black King e5; the Coordinator h1 reaches e1.
    assert_eq!(status("8/8/8/K3k3/8/8/8/7R b 0", "abbott"), Status::Check);
    // A black Immobilizer on g2 freezes it.
    assert_eq!(
        status("8/8/8/K3k3/8/8/6m1/7R b 0", "abbott"),
        Status::Ongoing
    );
    // No shared line: no threat.
    assert_eq!(status("8/8/8/4k3/K7/8/8/7R b 0", "abbott"), Status::Ongoing);
}

#[test]
fn pawn_checks_only_with_a_partner_beyond_the_king() {
    assert_eq!(status("8/8/P7/4k3/4P3/8/8/K7 b 0", "abbott"), Status::Check);
    assert_eq!(status("8/8/P7/4k3/8/8/8/K7 b 0", "abbott"), Status::Ongoing);
    // A diagonal partner does not count.
    assert_eq!(
        status("8/8/P7/4k3/3P4/8/8/K7 b 0", "abbott"),
        Status::Ongoing
    );
}

#[test]
fn withdrawer_checks_only_with_room_to_withdraw() {
    assert_eq!(status("8/8/8/4k3/3Q4/8/8/K7 b 0", "abbott"), Status::Check);
    assert_eq!(
        status("8/8/8/4k3/3Q4/2P5/8/K7 b 0", "abbott"),
        Status::Ongoing
    );
}

#[test]
fn long_leaper_checks_over_gaps_and_single_leaper_does_not() {
    assert_eq!(status("8/8/8/4k3/8/8/4N3/K7 b 0", "abbott"), Status::Check);
    // Two pieces in a row cannot be jumped.
    assert_eq!(
        status("8/8/8/4k3/4p3/8/4N3/K7 b 0", "abbott"),
        Status::Ongoing
    );
    // e3 then e5, each followed by an empty square.
    assert_eq!(
        status("8/8/8/4k3/8/4p3/4N3/K7 b 0", "abbott"),
        Status::Check
    );
    assert_eq!(
        status("8/8/8/4k3/8/4p3/4N3/K7 b 0", "abbott,leaper=single"),
        Status::Ongoing
    );
    // No landing square behind the King.
    assert_eq!(
        status("4k3/8/8/8/8/8/4N3/K7 b 0", "abbott"),
        Status::Ongoing
    );
}

#[test]
fn chameleon_checks_only_from_next_to_the_king() {
    assert_eq!(status("8/8/8/4k3/3B4/8/8/K7 b 0", "abbott"), Status::Check);
    assert_eq!(
        status("8/8/8/4k3/8/2B5/8/K7 b 0", "abbott"),
        Status::Ongoing
    );
}

#[test]
fn cambridge_cancellation_lets_a_king_take_an_immobilizer() {
    let fen = "7k/8/5B2/4m3/3K4/8/8/8 w 0";
    let c = pos(fen, "cambridge");
    assert_eq!(captures(&c, "Kd4xe5"), vec!["me5"]);
    // Under abbott the King is frozen next to the Immobilizer.
    let a = pos(fen, "abbott");
    assert_eq!(reason(&a, "Kd4xe5"), MoveErrorKind::Frozen);
    // Under cambridge the cancelling Chameleon itself stays frozen (it is the only helper).
    assert_eq!(reason(&c, "Bf6-g7"), MoveErrorKind::Frozen);
}

#[test]
fn abbott_immobilizer_and_chameleon_freeze_each_other() {
    let p = pos("7k/8/8/8/3mB3/8/8/K7 w 0", "abbott");
    let frozen: Vec<String> = baroque_rules::BitSet::squares(p.frozen())
        .map(<baroque_rules::Board8 as baroque_rules::Geometry>::name)
        .collect();
    assert_eq!(frozen, vec!["d4", "e4"]);
    assert_eq!(reason(&p, "Be4-e6"), MoveErrorKind::Frozen);
}

#[test]
fn suicide_only_with_the_option_and_only_for_frozen_pieces() {
    let fen = "7k/8/8/8/3mN3/8/8/K7 w 0";
    let on = pos(fen, "abbott,suicide=on");
    let m = on.parse_move("Ne4e4").unwrap();
    assert_eq!(m.kind, MoveKind::Suicide);
    assert_eq!(m.captures, 0);
    assert_eq!(on.move_name(&m, Letters::Chess), "Ne4-e4");
    assert_eq!(
        on.legal_moves()
            .iter()
            .filter(|m| m.kind == MoveKind::Suicide)
            .count(),
        1
    );
    assert_eq!(on.after(&m).fen(Letters::Chess), "7k/8/8/8/3m4/8/8/K7 b 1");
    assert_eq!(reason(&on, "Ka1a1"), MoveErrorKind::NotAMove);
    let off = pos(fen, "abbott");
    assert_eq!(reason(&off, "Ne4e4"), MoveErrorKind::NotAMove);
    assert!(off.legal_moves().iter().all(|m| m.kind == MoveKind::Normal));
}

#[test]
fn coordinator_without_a_king_captures_nothing() {
    let p = pos("7k/8/8/8/2p5/8/8/R7 w 0", "abbott");
    assert!(p.legal_moves().iter().all(|m| m.captures == 0));
}

#[test]
fn stalemate_loss_option_keeps_the_status_name() {
    // The King diagram after Kc4xd3 (see fixtures): Black has no move.
    let p = pos("8/8/8/4k3/2K2M2/3q4/8/8 w 0", "abbott,stalemate=loss");
    let m = p.parse_move("Kc4xd3").unwrap();
    assert_eq!(p.after(&m).status(), Status::Stalemate);
}

#[test]
fn notation_errors_say_what_is_wrong() {
    let start = Position::start(Rules::preset(Preset::Vchess));
    assert_eq!(reason(&start, "zz"), MoveErrorKind::Unparsable);
    assert_eq!(reason(&start, "Ke2"), MoveErrorKind::NotAMove);
    assert_eq!(reason(&start, "Qd1-d3"), MoveErrorKind::NotAMove);
    assert_eq!(reason(&start, "Pa2-a7"), MoveErrorKind::NotAMove);
    assert_eq!(reason(&start, "Pa3-a4"), MoveErrorKind::NoPiece);
    assert_eq!(reason(&start, "Na2-a4"), MoveErrorKind::NoPiece);
    assert_eq!(reason(&start, "Pa7-a6"), MoveErrorKind::NoPiece);
    assert_eq!(reason(&start, "Pa2xa4"), MoveErrorKind::NotAMove);
    assert!(start.parse_move("Pa2-a4").is_ok());
    assert!(start.parse_move("a2a4").is_ok());
    assert!(start.parse_move("1. Pa4").is_ok());

    let two = pos("7k/8/8/8/8/8/8/N3K1N1 w 0", "abbott");
    let e = two.parse_move("Nd4").unwrap_err();
    assert_eq!(e.kind, MoveErrorKind::Ambiguous);
    assert_eq!(e.candidates, vec!["Na1-d4", "Ng1-d4"]);
    assert!(
        two.parse_move("Lg1-d4").is_ok(),
        "Baroque letters are read too"
    );

    let leaper = pos("8/3r4/8/3n4/5q2/2Pp2k1/Mp1N1pp1/3b4 w 0", "abbott");
    assert_eq!(captures(&leaper, "Ld2-d4-d6-d8"), vec!["pd3", "nd5", "rd7"]);
    assert_eq!(reason(&leaper, "Ld2-e3-d8"), MoveErrorKind::NotAMove);
    assert_eq!(reason(&leaper, "Ld2-d6-d4-d8"), MoveErrorKind::NotAMove);
    assert_eq!(
        leaper.move_name(
            &leaper.parse_move("Ld2-d4-d6-d8").unwrap(),
            Letters::Baroque
        ),
        "Ld2xd8"
    );
}

#[test]
fn fen_errors_name_the_field_and_position() {
    let rules = Rules::default();
    let e =
        Position::from_fen("rnbkqbnm/pppppppp/9/8/8/8/PPPPPPPP/MNBQKBNR w 0", rules).unwrap_err();
    assert_eq!((e.field, e.position), (FenField::Board, 19));
    let e =
        Position::from_fen("rnbkqbnm/pppppppp/7/8/8/8/PPPPPPPP/MNBQKBNR w 0", rules).unwrap_err();
    assert_eq!(e.field, FenField::Board);
    let e = Position::from_fen("8/8/8/8/8/8/8/8 x 0", rules).unwrap_err();
    assert_eq!((e.field, e.position), (FenField::Turn, 17));
    let e = Position::from_fen("8/8/8/8/8/8/8/8 w z", rules).unwrap_err();
    assert_eq!((e.field, e.position), (FenField::Plies, 19));
    assert!(e.message.contains("whole number"), "{}", e.message);
    let e = Position::from_fen("8/8/8/8/8/8/8/8 w 4294967296", rules).unwrap_err();
    assert_eq!((e.field, e.position), (FenField::Plies, 19));
    assert!(
        e.message.contains("too large (at most 4294967295)"),
        "{}",
        e.message
    );
    let e = Position::from_fen("8/8/8 w", rules).unwrap_err();
    assert_eq!(e.field, FenField::Board);
    let e = Position::from_fen("8/8/8/8/8/8/8/7z w", rules).unwrap_err();
    assert_eq!((e.field, e.position), (FenField::Board, 16));
    let e = Position::from_fen("8/8/8/8/8/8/8/8", rules).unwrap_err();
    assert_eq!(e.field, FenField::Turn);
    let e = Position::from_fen("8/8/8/8/8/8/8/8 w 0 extra", rules).unwrap_err();
    assert_eq!(e.field, FenField::Extra);
    assert!(Position::from_fen("", rules).is_err());
    // Both letter sets, and the ply count is optional.
    let p =
        Position::from_fen("rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/IL XWK XLC w", rules).unwrap_err();
    assert_eq!(p.field, FenField::Board);
    let p = Position::from_fen("rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/ILXWKXLC w", rules).unwrap();
    assert_eq!(
        p.fen(Letters::Chess),
        "rnbkqbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNR w 0"
    );
    assert_eq!(
        p.fen(Letters::Baroque),
        "clxkwxli/pppppppp/8/8/8/8/PPPPPPPP/ILXWKXLC w 0"
    );
}

#[test]
fn validation_reports_every_problem_with_its_code() {
    let rules = Rules::default();
    let p = Position::from_fen("k7/8/8/8/8/8/8/K6K w 0", rules).unwrap();
    let codes: Vec<&str> = p.validate().iter().map(|p| p.code()).collect();
    assert_eq!(codes, vec!["two_kings"]);
    // Black (not to move) is in check from the Chameleon, White has no King, three Leapers.
    let p = Position::from_fen("8/8/8/4k3/3B4/8/NNN5/8 w 0", rules).unwrap();
    let problems = p.validate();
    let codes: Vec<(&str, bool)> = problems.iter().map(|p| (p.code(), p.is_error())).collect();
    assert_eq!(
        codes,
        vec![
            ("no_king", false),
            ("opponent_in_check", true),
            ("too_many_pieces", false)
        ]
    );
    match Position::from_fen_validated("8/8/8/4k3/3B4/8/NNN5/8 w 0", rules) {
        Err(FenError::Position(e)) => assert_eq!(e.problems.len(), 3),
        other => panic!("expected a position error, got {other:?}"),
    }
    // A side without a King is never in check.
    assert_eq!(
        status("8/8/8/8/3B4/8/8/K7 b 0", "abbott"),
        Status::Stalemate
    );
}
