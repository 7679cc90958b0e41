//! Playing a stored puzzle: its verified proof (the solution tree of `#N` and `s#N`, the solution
//! lines of a helpmate) read as the solver's [`Proof`], so that a line along the solution is
//! judged without a new search. Lines that leave the proof (a wrong move and its refutation, the
//! alternatives after a short key) are searched as for any position.

use crate::solver::play::Proof;
use crate::solver::Stipulation;
use serde_json::Value;

/// A stored puzzle's proof.
#[derive(Clone, Debug)]
pub enum StoredProof {
    /// `#N`, `s#N`: every key with its length, and the solution tree of each (absent when it was
    /// cut short: it may then lack defences and replies).
    Keys {
        n: u32,
        keys: Vec<(String, u32)>,
        tree: Option<Vec<Value>>,
    },
    /// A helpmate: every line that ends in mate within the stipulation.
    Lines(Vec<Vec<String>>),
    /// Nothing usable (an outcome written by another version, or cut short).
    None,
}

/// The notations of a JSON list of moves.
fn notations(v: &Value) -> Option<Vec<String>> {
    v.as_array()?
        .iter()
        .map(|m| m["notation"].as_str().map(str::to_string))
        .collect()
}

impl StoredProof {
    /// The proof in a stored mate puzzle's outcome (see
    /// [`crate::puzzle::VerifiedPuzzle::outcome`]).
    pub fn of_outcome(stipulation: Stipulation, outcome: &Value) -> StoredProof {
        if outcome["result"] != "mate" {
            return StoredProof::None;
        }
        if stipulation.is_help() {
            if outcome["solutions_truncated"] != false {
                return StoredProof::None;
            }
            let mut lines = Vec::new();
            for list in ["solutions", "short_solutions"] {
                let Some(found) = outcome[list].as_array() else {
                    return StoredProof::None;
                };
                for line in found {
                    match notations(line) {
                        Some(l) => lines.push(l),
                        None => return StoredProof::None,
                    }
                }
            }
            return StoredProof::Lines(lines);
        }
        let Some(keys) = outcome["keys"].as_array() else {
            return StoredProof::None;
        };
        let keys: Option<Vec<(String, u32)>> = keys
            .iter()
            .map(|k| {
                Some((
                    k["notation"].as_str()?.to_string(),
                    u32::try_from(k["mate_in"].as_u64()?).ok()?,
                ))
            })
            .collect();
        let Some(keys) = keys else {
            return StoredProof::None;
        };
        let tree = match (&outcome["tree"], &outcome["tree_truncated"]) {
            (Value::Array(t), Value::Bool(false)) => Some(t.clone()),
            _ => None,
        };
        StoredProof::Keys {
            n: stipulation.moves(),
            keys,
            tree,
        }
    }
}

/// The item of `list` whose `notation` is `name`.
fn find<'a>(list: &'a Value, name: &str) -> Option<&'a Value> {
    list.as_array()?.iter().find(|m| m["notation"] == name)
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
                let tree = tree.as_ref()?;
                let mut node = tree.iter().find(|t| t["notation"] == line[0].as_str())?;
                if node["mate_in"].as_u64() != Some(u64::from(*n)) {
                    return None;
                }
                for (t, pair) in line[1..].chunks(2).enumerate() {
                    let defence = find(&node["defences"], &pair[0])?;
                    match find(&defence["replies"], &pair[1]) {
                        Some(reply) => node = reply,
                        // Every reply that wins in time is listed: this one does not.
                        None if t + 1 == j as usize => return Some(None),
                        None => return None,
                    }
                }
                let length = u32::try_from(node["mate_in"].as_u64()?).ok()?;
                Some(Some(length.checked_sub(1)?))
            }
        }
    }
}
