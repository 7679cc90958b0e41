//! The verify path as `POST /v1/verify` takes it, without HTTP: a JSON body (any bytes) is read
//! into a request, checked into a query (either game, either coordinates), and its moves are played
//! by the handler's own `verify_moves`. Never panics; the answer is consistent: moves before the
//! first illegal one are legal and each one's position reads back to the same FEN, nothing after
//! it is played, and the final FEN is the last legal move's.
#![no_main]
use baroque::api::common::Object;
use baroque::api::routes::verify::verify_moves;
use baroque::api::routes::verify::{VerifyQuery, VerifyRequest};
use baroque::rules::{GameNotation, GameRules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(Object(request)) = serde_json::from_slice::<Object<VerifyRequest>>(data) else {
        return;
    };
    if request.moves.len() > 64 {
        return;
    }
    let Ok(query) = VerifyQuery::try_from(request) else {
        return;
    };
    let answer = verify_moves(&query);
    let stop = answer
        .first_illegal
        .as_ref()
        .map_or(answer.moves.len(), |f| f.index);
    assert!(stop <= query.moves.len());
    assert_eq!(
        answer.moves.len(),
        stop + usize::from(answer.first_illegal.is_some())
    );
    for (i, m) in answer.moves.iter().enumerate() {
        assert_eq!(m.legal, i < stop, "move {i}");
        assert_eq!(m.input, query.moves[i]);
        let Some(fen) = &m.fen_after else {
            assert!(!m.legal);
            continue;
        };
        // Each position after a legal move reads back, in the request's naming.
        let (variant, naming) = (query.position.position.variant(), query.position.naming);
        let back = variant.read_fen(fen, naming).expect("own FEN reads");
        assert_eq!(&back.fen(naming), fen);
    }
    if stop > 0 {
        assert_eq!(
            answer.moves[stop - 1].fen_after.as_ref(),
            Some(&answer.final_fen)
        );
    }
});
