//! Proof-number search (Allis), depth-limited, for comparison with the depth-first proof search of
//! [`super::search`]. It answers the same question, "does the side to move mate within n moves?",
//! growing an explicit tree and always expanding a most-proving node. The bench `solver` measures
//! both; the solver uses the faster (the depth-first search with its table: see the module docs of
//! [`super`]).

use super::search::Stopped;
use super::Budget;
use crate::rules::GamePosition;

const INF: u32 = u32::MAX / 4;

struct Node<P: GamePosition> {
    pos: P,
    /// Attacker moves left.
    n: u32,
    /// OR node (attacker to move) or AND node (defender to move).
    or: bool,
    pn: u32,
    dn: u32,
    parent: usize,
    children: Vec<usize>,
}

/// Whether the attacker to move in `root` mates within `n` moves.
pub fn mates_within<P: GamePosition>(root: &P, n: u32, budget: &Budget) -> Result<bool, Stopped> {
    let mut tree = vec![leaf(*root, n, true, usize::MAX)];
    let mut pending = 0u64;
    while tree[0].pn != 0 && tree[0].dn != 0 {
        // Select a most-proving node.
        let mut i = 0;
        while !tree[i].children.is_empty() {
            let node = &tree[i];
            i = *node
                .children
                .iter()
                .min_by_key(|&&c| if node.or { tree[c].pn } else { tree[c].dn })
                .unwrap_or(&node.children[0]);
        }
        // Expand it.
        let mut moves = Vec::new();
        tree[i].pos.search_moves(&mut moves);
        // A direct mate: moves that lose at once change nothing (see `search`'s doc).
        tree[i].pos.drop_moves_losing_at_once(&mut moves);
        let (pos, n, or) = (tree[i].pos, tree[i].n, tree[i].or);
        for m in &moves {
            let child = if or {
                leaf(pos.play(m), n - 1, false, i)
            } else {
                leaf(pos.play(m), n, true, i)
            };
            tree.push(child);
            let c = tree.len() - 1;
            tree[i].children.push(c);
        }
        pending += moves.len() as u64;
        if pending >= 1024 {
            if !budget.spend(pending) {
                return Err(Stopped);
            }
            pending = 0;
        }
        if moves.is_empty() {
            // No move: an OR node cannot mate; an AND node is lost or drawn.
            let lost = !or && pos.lost();
            tree[i].pn = if lost { 0 } else { INF };
            tree[i].dn = if lost { INF } else { 0 };
        }
        // Back up the numbers.
        let mut j = i;
        loop {
            let (pn, dn) = {
                let node = &tree[j];
                if node.children.is_empty() {
                    (node.pn, node.dn)
                } else if node.or {
                    let pn = node
                        .children
                        .iter()
                        .map(|&c| tree[c].pn)
                        .min()
                        .unwrap_or(INF);
                    let dn = node
                        .children
                        .iter()
                        .map(|&c| tree[c].dn)
                        .fold(0u32, |a, b| a.saturating_add(b))
                        .min(INF);
                    (pn, dn)
                } else {
                    let pn = node
                        .children
                        .iter()
                        .map(|&c| tree[c].pn)
                        .fold(0u32, |a, b| a.saturating_add(b))
                        .min(INF);
                    let dn = node
                        .children
                        .iter()
                        .map(|&c| tree[c].dn)
                        .min()
                        .unwrap_or(INF);
                    (pn, dn)
                }
            };
            tree[j].pn = pn;
            tree[j].dn = dn;
            if j == 0 {
                break;
            }
            j = tree[j].parent;
        }
    }
    let _ = budget.spend(pending);
    Ok(tree[0].pn == 0)
}

/// A new node, settled at once when it is terminal.
fn leaf<P: GamePosition>(pos: P, n: u32, or: bool, parent: usize) -> Node<P> {
    let (pn, dn) = if or {
        if n == 0 {
            (INF, 0)
        } else {
            (1, 1)
        }
    } else if pos.lost() {
        (0, INF)
    } else if n == 0 {
        (INF, 0)
    } else {
        (1, 1)
    };
    Node {
        pos,
        n,
        or,
        pn,
        dn,
        parent,
        children: Vec::new(),
    }
}
