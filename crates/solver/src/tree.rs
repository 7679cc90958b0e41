//! The solution tree: after a key, every defence, and for each defence every attacker move that still
//! mates in time; a defence answered by more than one such move is marked as a dual.
//!
//! A selfmate's tree reads the same way, "mates in time" meaning "forces the defender to mate in
//! time": after White's last move every defence is listed, and each mates White (`mates` on the
//! defence).
//!
//! The tree holds moves, not names: [`AttackNode::named`] names it in a caller's notation, replaying
//! the moves from the position the tree starts in.

use super::search::{keep_duty, reached, Duty, Goal, Searcher};
use super::tt::Table;
use super::Budget;
use crate::rules::{GamePosition, MoveInfo, Naming};
use serde::Serialize;

/// An attacker move of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackNode<M> {
    pub mv: M,
    /// The forced mate's length from here, this move included.
    pub mate_in: u32,
    /// Whether this move mates (checkmate, or a stalemate that the rules count as a loss).
    pub mates: bool,
    /// Attacker moves that would mate in time were the defender allowed to pass ("the threat"); absent
    /// when the defender is in check (passing is not legal then) or at the mating move.
    pub threat: Option<Vec<M>>,
    /// Every defence, with the attacker moves that still mate in time.
    pub defences: Vec<DefenceNode<M>>,
}

/// A defender move of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefenceNode<M> {
    pub mv: M,
    /// This defence mates the attacker (in a selfmate: the goal reached).
    pub mates: bool,
    /// More than one attacker move mates in time after this defence.
    pub dual: bool,
    pub replies: Vec<AttackNode<M>>,
}

/// An attacker move of the tree, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedAttack {
    #[serde(flatten)]
    pub info: MoveInfo,
    /// The forced mate's length from here, this move included.
    pub mate_in: u32,
    /// Whether this move mates (checkmate, or a stalemate that the rules count as a loss).
    pub mates: bool,
    /// Attacker moves that would mate in time were the defender allowed to pass ("the threat"); absent
    /// when the defender is in check (passing is not legal then) or at the mating move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<Vec<MoveInfo>>,
    /// Every defence, with the attacker moves that still mate in time.
    pub defences: Vec<NamedDefence>,
}

/// A defender move of the tree, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NamedDefence {
    #[serde(flatten)]
    pub info: MoveInfo,
    /// This defence mates the attacker (in a selfmate: the goal reached).
    pub mates: bool,
    /// More than one attacker move mates in time after this defence.
    pub dual: bool,
    pub replies: Vec<NamedAttack>,
}

impl<M: Copy> AttackNode<M> {
    /// The tree in another move type (another game's forwarding type).
    pub fn map<N>(&self, f: &impl Fn(&M) -> N) -> AttackNode<N> {
        AttackNode {
            mv: f(&self.mv),
            mate_in: self.mate_in,
            mates: self.mates,
            threat: self.threat.as_ref().map(|t| t.iter().map(f).collect()),
            defences: self
                .defences
                .iter()
                .map(|d| DefenceNode {
                    mv: f(&d.mv),
                    mates: d.mates,
                    dual: d.dual,
                    replies: d.replies.iter().map(|r| r.map(f)).collect(),
                })
                .collect(),
        }
    }

    /// The tree named in `naming`; `pos` is the position this node's move is played in.
    pub fn named<P: GamePosition<Move = M>>(&self, pos: &P, naming: Naming) -> NamedAttack {
        let after = pos.play(&self.mv);
        let threat = self.threat.as_ref().map(|t| {
            let null = after.null_move().unwrap_or(after);
            t.iter().map(|m| null.move_info(m, naming)).collect()
        });
        NamedAttack {
            info: pos.move_info(&self.mv, naming),
            mate_in: self.mate_in,
            mates: self.mates,
            threat,
            defences: self
                .defences
                .iter()
                .map(|d| {
                    let after_d = after.play(&d.mv);
                    NamedDefence {
                        info: after.move_info(&d.mv, naming),
                        mates: d.mates,
                        dual: d.dual,
                        replies: d
                            .replies
                            .iter()
                            .map(|r| r.named(&after_d, naming))
                            .collect(),
                    }
                })
                .collect(),
        }
    }
}

/// Builds trees under a node budget (the tree size) and the search budget.
pub struct Builder<'a, P: GamePosition> {
    searcher: Searcher<'a, P>,
    goal: Goal,
    max: usize,
    count: usize,
    /// Whether something was left out.
    pub truncated: bool,
}

impl<'a, P: GamePosition> Builder<'a, P> {
    /// A builder of trees of `goal`, of at most `max` moves.
    pub fn new(table: &'a Table, budget: &'a Budget, max: usize, goal: Goal) -> Builder<'a, P> {
        Builder {
            searcher: Searcher::new(table, budget)
                .aiming(goal.target())
                .bound(goal.duty()),
            goal,
            max,
            count: 0,
            truncated: false,
        }
    }

    /// Adds the builder's uncounted nodes to the budget.
    pub fn finish(&mut self) {
        let _ = self.searcher.flush();
    }

    /// Whether another node may be added: the tree is below its size and the budget has not run
    /// out (else the tree is marked truncated).
    fn room(&mut self) -> bool {
        if self.count >= self.max || self.out_of_budget() {
            self.truncated = true;
            return false;
        }
        self.count += 1;
        true
    }

    /// Whether the search budget has run out (every loop of the builder asks before its next
    /// probe, so a tree stops growing as soon as it does).
    fn out_of_budget(&mut self) -> bool {
        if self.searcher.poll().is_err() {
            self.truncated = true;
            return true;
        }
        false
    }

    /// The exact mate length (at most `within`) after attacker move `mv` in `pos`, if it mates.
    /// Each probe is counted as work, so the clock is read however cheap or dear the probes are.
    fn mate_length(&mut self, pos: &P, mv: &P::Move, within: u32) -> Option<u32> {
        if within == 0 || self.out_of_budget() {
            return None;
        }
        let after = pos.play(mv);
        // Whether it mates in time at all first: most moves do not, and for them the shorter
        // lengths need no probe. A move that mates in time is then probed from the shortest
        // length up (a mate in k is a mate within any longer length, so the first found is exact).
        if !self.mates_in(&after, within)? {
            return None;
        }
        for k in 1..within {
            if self.mates_in(&after, k)? {
                return Some(k);
            }
        }
        Some(within)
    }

    /// Whether the attacker reaches the goal within `k` moves counting the one that led to
    /// `after`; `None` (the tree marked truncated) when the budget runs out.
    fn mates_in(&mut self, after: &P, k: u32) -> Option<bool> {
        let r = self.searcher.after_attack(self.goal, after, k - 1, 1).ok();
        self.truncated |= r.is_none();
        r
    }

    /// The tree below attacker move `mv` in `pos`, which mates within `within` moves.
    pub fn attack_node(
        &mut self,
        pos: &P,
        mv: &P::Move,
        within: u32,
    ) -> Option<AttackNode<P::Move>> {
        if !self.room() {
            return None;
        }
        let after = pos.play(mv);
        let mate_in = self.mate_length(pos, mv, within).unwrap_or(within);
        // The attacker's own move ends a direct mate; a selfmate ends on the defender's move.
        let mates = self.goal.is_direct() && reached(self.goal.target(), &after);
        let mut node = AttackNode {
            mv: *mv,
            mate_in,
            mates,
            threat: None,
            defences: Vec::new(),
        };
        if mates || (within <= 1 && self.goal.is_direct()) {
            return Some(node);
        }
        let null = if within >= 2 { after.null_move() } else { None };
        if let Some(null) = null {
            let mut threat = Vec::new();
            for m in self.replies_of(&null, within - 1) {
                if self.out_of_budget() {
                    break;
                }
                if self.mate_length(&null, &m, within - 1).is_some() {
                    threat.push(m);
                }
            }
            // A threat cut short by the budget would name too few moves: none is given then.
            if !self.out_of_budget() {
                node.threat = Some(threat);
            }
        }
        let mut defences = moves_of(&after);
        // A reflexmate's defender mates when it can: those are then its only moves.
        keep_duty(&after, self.goal.duty() != Duty::None, &mut defences);
        for d in defences {
            if !self.room() {
                break;
            }
            let after_d = after.play(&d);
            if !self.goal.is_direct() && reached(self.goal.target(), &after_d) {
                node.defences.push(DefenceNode {
                    mv: d,
                    mates: true,
                    dual: false,
                    replies: Vec::new(),
                });
                continue;
            }
            let mut mating: Vec<P::Move> = Vec::new();
            for m in self.replies_of(&after_d, within - 1) {
                if self.out_of_budget() {
                    break;
                }
                if self.mate_length(&after_d, &m, within - 1).is_some() {
                    mating.push(m);
                }
            }
            let replies = mating
                .iter()
                .filter_map(|m| self.attack_node(&after_d, m, within - 1))
                .collect();
            node.defences.push(DefenceNode {
                mv: d,
                mates: false,
                dual: mating.len() > 1,
                replies,
            });
        }
        Some(node)
    }

    /// The attacker moves of `pos` that may reach the goal within `within` moves, in the order of
    /// [`baroque_rules::SearchHooks::search_moves`]: all of them, but in a direct mate not those that lose at
    /// once (they never mate in time, see `search`'s doc), and at its last move where only a
    /// check can mate, only those that may give check (the others cannot mate in one); in a
    /// direct stalemate's last move, not those that surely leave the defender a move (they
    /// stalemate nobody).
    fn replies_of(&self, pos: &P, within: u32) -> Vec<P::Move> {
        let mut moves = moves_of(pos);
        if self.goal.drops_losing() {
            pos.drop_moves_losing_at_once(&mut moves);
            if within == 1 && pos.only_checks_mate() {
                pos.retain_possible_checks(&mut moves);
            }
        }
        if within == 1 && self.goal == Goal::Stalemate {
            pos.drop_moves_leaving_a_reply(&mut moves, &[]);
        }
        moves
    }
}

fn moves_of<P: GamePosition>(pos: &P) -> Vec<P::Move> {
    let mut v = Vec::new();
    pos.search_moves(&mut v);
    v
}
