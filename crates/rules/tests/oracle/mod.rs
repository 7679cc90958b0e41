//! The notation oracle shared by the tests of both games: every move's name reads back, through
//! the move reader behind `/v1/verify`, to that very move; written with the rules engine alone.
#![allow(dead_code)]

use baroque_rules::{GamePosition, Naming, Status};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Plays `texts` from `p` through the move reader behind `/v1/verify` (`parse_move`), as it does:
/// the moves read, the position reached and its status, `checkmate` once a move ends the game (in
/// Rococo, takes the King), after which no move is read. An unread move is an error naming it.
/// (The route itself is held to this reader by the HTTP tests.)
pub fn replay_texts<P: GamePosition>(
    p: &P,
    naming: Naming,
    texts: &[String],
) -> Result<(Vec<P::Move>, P, Status), String> {
    let mut at = *p;
    let mut played = Vec::new();
    let mut ended = false;
    for t in texts {
        if ended {
            return Err(format!("`{t}`: the game is over"));
        }
        let mv = at
            .parse_move(t, naming)
            .map_err(|e| format!("`{t}`: {}", e.message))?;
        ended = at.ends_game(&mv);
        at = at.play(&mv);
        played.push(mv);
    }
    let status = if ended {
        Status::Checkmate
    } else {
        at.status()
    };
    Ok((played, at, status))
}

/// Within the moves in play of `p`, each move's `uci` (in `naming`) names it alone, and plays back
/// through the move reader behind `/v1/verify` to that very move.
pub fn every_uci_names_one_move<P: GamePosition>(
    p: &P,
    naming: baroque_rules::Naming,
) -> Result<(), TestCaseError> {
    let moves = p.legal_moves();
    let mut seen = std::collections::HashMap::new();
    for m in &moves {
        let uci = p.move_uci(m, naming);
        if let Some(other) = seen.insert(uci.clone(), *m) {
            prop_assert!(
                false,
                "`{}` names {} and {} in {}",
                uci,
                p.move_name(&other, naming),
                p.move_name(m, naming),
                p.fen(naming)
            );
        }
        let replayed = replay_texts(p, naming, std::slice::from_ref(&uci));
        prop_assert!(replayed.is_ok(), "{:?} in {}", replayed, p.fen(naming));
        let (played, _, _) = replayed.unwrap();
        prop_assert_eq!(played, vec![*m], "`{}` in {}", uci, p.fen(naming));
    }
    Ok(())
}
