//! Playing a stored puzzle: its verified proof (the solution tree of `#N` and `s#N`, the solution
//! lines of a helpmate) read as the solver's [`Proof`], so that a line along the solution is
//! judged without a new search. Lines that leave the proof (a wrong move and its refutation, the
//! alternatives after a short key) are searched as for any position.

use crate::outcome::{Attack, Defence, PuzzleOutcome, StoredMove};
use crate::solver::play::Proof;
use crate::solver::{Outcome, Stipulation};

/// A stored puzzle's proof.
#[derive(Clone, Debug)]
pub enum StoredProof {
    /// `#N`, `s#N`: every key with its length, and the solution tree of each (absent when it was
    /// cut short: it may then lack defences and replies).
    Keys {
        n: u32,
        keys: Vec<(String, u32)>,
        tree: Option<Vec<Attack>>,
    },
    /// A helpmate: every line that ends in mate within the stipulation.
    Lines(Vec<Vec<String>>),
    /// Nothing usable (an outcome written by another version, or cut short).
    None,
}

/// The notations of a line of moves.
fn notations(line: &[StoredMove]) -> Vec<String> {
    line.iter().map(|m| m.notation.clone()).collect()
}

impl StoredProof {
    /// The proof in a stored mate puzzle's outcome.
    pub fn of_outcome(stipulation: Stipulation, outcome: &PuzzleOutcome) -> StoredProof {
        match outcome {
            PuzzleOutcome::Help(h) if stipulation.lists_lines() => {
                if h.result != Some(Outcome::Mate) || h.solutions_truncated != Some(false) {
                    return StoredProof::None;
                }
                StoredProof::Lines(
                    h.solutions
                        .iter()
                        .chain(&h.short_solutions)
                        .map(|l| notations(l))
                        .collect(),
                )
            }
            PuzzleOutcome::Keys(k) if !stipulation.lists_lines() => {
                if k.result != Some(Outcome::Mate) {
                    return StoredProof::None;
                }
                StoredProof::Keys {
                    n: stipulation.moves(),
                    keys: k
                        .keys
                        .iter()
                        .map(|k| (k.notation.clone(), k.mate_in))
                        .collect(),
                    tree: (k.tree_truncated == Some(false)).then(|| k.tree.clone()),
                }
            }
            _ => StoredProof::None,
        }
    }
}

/// The heap a string takes, with its header.
fn text_weight(s: &str) -> usize {
    std::mem::size_of::<String>() + s.len()
}

fn attack_weight(a: &Attack) -> usize {
    std::mem::size_of::<Attack>()
        + text_weight(&a.notation)
        + text_weight(&a.uci)
        + a.defences
            .iter()
            .map(|d| {
                std::mem::size_of::<Defence>()
                    + text_weight(&d.notation)
                    + text_weight(&d.uci)
                    + d.replies.iter().map(attack_weight).sum::<usize>()
            })
            .sum::<usize>()
}

impl StoredProof {
    /// About how many bytes the proof holds: what a cache of proofs counts against its budget.
    pub fn weight(&self) -> usize {
        std::mem::size_of::<StoredProof>()
            + match self {
                StoredProof::None => 0,
                StoredProof::Lines(lines) => lines
                    .iter()
                    .map(|l| {
                        std::mem::size_of::<Vec<String>>()
                            + l.iter().map(|m| text_weight(m)).sum::<usize>()
                    })
                    .sum(),
                StoredProof::Keys { keys, tree, .. } => {
                    keys.iter().map(|(k, _)| text_weight(k) + 8).sum::<usize>()
                        + tree.iter().flatten().map(attack_weight).sum::<usize>()
                }
            }
    }
}

impl Proof for StoredProof {
    fn lookup(&self, line: &[String], left: u32) -> Option<Option<u32>> {
        match self {
            StoredProof::None => None,
            StoredProof::Lines(lines) => {
                let ends = lines
                    .iter()
                    .filter(|l| l.len() >= line.len() && l[..line.len()] == *line)
                    .map(|l| (l.len() - line.len()) as u32)
                    .filter(|&k| k <= left)
                    .min();
                Some(ends)
            }
            StoredProof::Keys { n, keys, tree } => {
                if line.len() % 2 == 0 {
                    return None;
                }
                let j = (line.len() / 2) as u32;
                if j + 1 > *n || left != n - j - 1 {
                    return None;
                }
                if j == 0 {
                    return Some(
                        keys.iter()
                            .find(|(k, _)| *k == line[0])
                            .map(|(_, length)| length - 1),
                    );
                }
                // The tree of a key lists every reply that still wins in time only when the key
                // itself needs all N moves (a short key's tree is built for its own length).
                let mut node = tree.as_ref()?.iter().find(|t| t.notation == line[0])?;
                if node.mate_in != *n {
                    return None;
                }
                for (t, pair) in line[1..].chunks(2).enumerate() {
                    let defence = node.defences.iter().find(|d| d.notation == pair[0])?;
                    match defence.replies.iter().find(|r| r.notation == pair[1]) {
                        Some(reply) => node = reply,
                        // Every reply that wins in time is listed: this one does not.
                        None if t + 1 == j as usize => return Some(None),
                        None => return None,
                    }
                }
                Some(Some(node.mate_in.checked_sub(1)?))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn read(stipulation: Stipulation, outcome: &Value) -> StoredProof {
        let outcome = PuzzleOutcome::read(Some(stipulation), &outcome.to_string()).unwrap();
        StoredProof::of_outcome(stipulation, &outcome)
    }

    fn mv(n: &str) -> Value {
        json!({"notation": n, "uci": "a1a2", "captures": []})
    }

    fn line(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_helpmates_lines_settle_every_prefix() {
        let outcome = json!({"result": "mate", "solutions": [[mv("Kd3-c2"), mv("Kb4-c3")]],
            "short_solutions": [], "solutions_truncated": false, "count": 1});
        let h1 = Stipulation::HelpMate {
            moves: 1,
            half: false,
        };
        let p = read(h1, &outcome);
        assert_eq!(p.lookup(&line(&["Kd3-c2"]), 1), Some(Some(1)));
        assert_eq!(p.lookup(&line(&["Kd3-c2", "Kb4-c3"]), 0), Some(Some(0)));
        assert_eq!(p.lookup(&line(&["Kd3-e2"]), 1), Some(None));
        let cut = json!({"result": "mate", "solutions": [], "short_solutions": [],
            "solutions_truncated": true});
        assert_eq!(read(h1, &cut).lookup(&line(&["Kd3-c2"]), 1), None);
    }

    #[test]
    fn a_tree_settles_lines_only_below_a_key_of_full_length() {
        let reply = json!({"notation": "Nc4-g8", "uci": "c4g8", "mate_in": 1, "mates": true, "defences": []});
        let key = json!({"notation": "Bg6xc6", "uci": "g6c6", "mate_in": 2, "mates": false,
            "defences": [{"notation": "Kb7xc8", "uci": "b7c8", "mates": false, "dual": false, "replies": [reply]}]});
        let short = json!({"notation": "Ka1-a2", "uci": "a1a2", "mate_in": 1, "mates": true, "defences": []});
        let outcome = json!({"result": "mate",
            "keys": [{"notation": "Ka1-a2", "uci": "a1a2", "mate_in": 1}, {"notation": "Bg6xc6", "uci": "g6c6", "mate_in": 2}],
            "tree": [short, key], "tree_truncated": false});
        let p = read(Stipulation::Mate(2), &outcome);
        assert_eq!(p.lookup(&line(&["Bg6xc6"]), 1), Some(Some(1)));
        assert_eq!(p.lookup(&line(&["Ka1-a2"]), 1), Some(Some(0)));
        assert_eq!(p.lookup(&line(&["Ka1-b1"]), 1), Some(None));
        assert_eq!(
            p.lookup(&line(&["Bg6xc6", "Kb7xc8", "Nc4-g8"]), 0),
            Some(Some(0))
        );
        assert_eq!(
            p.lookup(&line(&["Bg6xc6", "Kb7xc8", "Bc6-c5"]), 0),
            Some(None)
        );
        // Below a short key the tree was built for its own length: not settled.
        assert_eq!(p.lookup(&line(&["Ka1-a2", "Kb7-b8", "Bc6-c7"]), 0), None);
        // A defence the tree does not hold is not settled either.
        assert_eq!(p.lookup(&line(&["Bg6xc6", "Kb7-a7", "Nc4-g8"]), 0), None);
    }
}
