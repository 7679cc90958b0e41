//! Helpmate oracles shared by the stipulation tests of both games, written from the definition
//! with the rules engine alone.

use baroque::rules::{Color, GamePosition};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;

/// Every helpmate line of `plies` moves from `p`: moves one after the other, each one of
/// `playable` (a side mated has none, which ends the play), the last leaving Black `mated`.
pub fn help_lines<P: GamePosition>(
    p: &P,
    plies: u32,
    playable: &impl Fn(&P) -> Vec<P::Move>,
    mated: &impl Fn(&P) -> bool,
) -> HashSet<Vec<P::Move>> {
    fn walk<P: GamePosition>(
        p: &P,
        plies: u32,
        playable: &impl Fn(&P) -> Vec<P::Move>,
        mated: &impl Fn(&P) -> bool,
        line: &mut Vec<P::Move>,
        out: &mut HashSet<Vec<P::Move>>,
    ) {
        for m in playable(p) {
            let after = p.play(&m);
            line.push(m);
            if plies == 1 {
                if after.turn() == Color::Black && mated(&after) {
                    out.insert(line.clone());
                }
            } else {
                walk(&after, plies - 1, playable, mated, line, out);
            }
            line.pop();
        }
    }
    let mut out = HashSet::new();
    walk(p, plies, playable, mated, &mut Vec::new(), &mut out);
    out
}

/// Whether a solve's lines are `want`: all of them, or, when more were found than are kept
/// (`truncated`), as many counted and those kept among them; no line twice.
pub fn same_lines<M: Clone + Eq + Hash + Debug>(
    lines: &[Vec<M>],
    count: usize,
    truncated: bool,
    want: &HashSet<Vec<M>>,
    what: &str,
) -> Result<(), TestCaseError> {
    let got: HashSet<Vec<M>> = lines.iter().cloned().collect();
    prop_assert_eq!(got.len(), lines.len(), "no line twice: {}", what);
    prop_assert_eq!(count, want.len(), "{}", what);
    if truncated {
        prop_assert!(got.is_subset(want), "{}", what);
    } else {
        prop_assert_eq!(&got, want, "{}", what);
    }
    Ok(())
}
