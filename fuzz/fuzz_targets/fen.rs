//! FEN parsing never panics, and every position it accepts writes back to a FEN that reads the same.
#![no_main]
use baroque_rules::{Letters, Position, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = Position::from_fen(text, Rules::default()) {
        let _ = pos.validate();
        for letters in [Letters::Chess, Letters::Baroque] {
            let back =
                Position::from_fen(&pos.fen(letters), Rules::default()).expect("own FEN reads");
            assert_eq!(back, pos);
        }
    }
});
