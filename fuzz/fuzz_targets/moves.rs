//! The verify path: a FEN line, then moves one per line, played as `/v1/verify` plays them. Never
//! panics; every accepted move is in the legal list.
#![no_main]
use baroque_rules::{Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.lines();
    let fen = lines.next().unwrap_or("");
    let rules: Rules = match lines.next().map(str::parse) {
        Some(Ok(r)) => r,
        _ => Rules::default(),
    };
    let Ok(mut pos) = Position::from_fen_validated(fen, rules) else {
        return;
    };
    for line in lines.take(64) {
        match pos.parse_move(line) {
            Ok(m) => {
                assert!(pos.legal_moves().contains(&m));
                pos = pos.after(&m);
                let _ = pos.status();
            }
            Err(_) => break,
        }
    }
});
