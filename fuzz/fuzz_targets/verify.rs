//! The verify use case as `POST /v1/verify` runs it, without HTTP or JSON: the first byte picks
//! the game and the square names, the rest is a FEN and then the moves, a line each (at most 64).
//! Never panics; the answer is consistent: moves before the first illegal one are legal and each
//! one's position reads back to the same FEN, nothing after it is played, and the final FEN is the
//! last legal move's.
#![no_main]
use baroque_app::line::{verify, LineMove, VerifyQuery};
use baroque_app::position::PositionInput;
use baroque_rules::rococo::Coords;
use baroque_rules::{GameKind, GameNotation, GameRules};
use baroque_solver::Cancel;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut lines = text.split('\n');
    let fen = lines.next().unwrap_or_default().to_string();
    let moves: Vec<String> = lines.take(64).map(String::from).collect();
    let input = PositionInput {
        fen,
        game: if flags & 1 == 1 {
            GameKind::Rococo
        } else {
            GameKind::Baroque
        },
        coords: (flags & 2 == 2).then_some(Coords::Page),
        rules: None,
    };
    let Ok(position) = input.read() else {
        return;
    };
    let query = VerifyQuery { position, moves };
    let answer = verify(&query, &Cancel::new());
    let stop = answer
        .first_illegal
        .as_ref()
        .map_or(answer.moves.len(), |f| f.index);
    assert!(stop <= query.moves.len());
    assert_eq!(
        answer.moves.len(),
        stop + usize::from(answer.first_illegal.is_some())
    );
    let mut last_fen = None;
    for (i, m) in answer.moves.iter().enumerate() {
        match m {
            LineMove::Legal { input, played, .. } => {
                assert!(i < stop, "move {i}");
                assert_eq!(input, &query.moves[i]);
                // Each position after a legal move reads back, in the request's naming.
                let (variant, naming) =
                    (query.position.position.variant(), query.position.naming);
                let back = variant
                    .read_fen(&played.fen_after, naming)
                    .expect("own FEN reads");
                assert_eq!(back.fen(naming), played.fen_after);
                last_fen = Some(played.fen_after.clone());
            }
            LineMove::Illegal { input } => {
                assert_eq!(i, stop, "move {i}");
                assert_eq!(input, &query.moves[i]);
            }
        }
    }
    if let Some(fen) = last_fen {
        assert_eq!(fen, answer.final_fen);
    }
});
