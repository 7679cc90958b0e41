//! A solution printed the way problem magazines and Popeye print it (`Accept: text/plain`,
//! `"format": "text"`, `baroque solve --text`).
//!
//! The layout, a block per position (the diagram, then each twin), here a `#2` with its set play
//! (`solve '8/2P5/8/K4M2/2k2pP1/p4PP1/8/7n w 0' 2 --set-play --text`) and, after it, one with
//! tries and a threat (`6K1/2N5/8/6k1/8/5B2/8/8 w 0`):
//!
//! ```text
//! #2                            the stipulation (after `a) diagram`, `b) move e5 f6` with twins)
//! set play:                     when asked for (`set play: none` when there is none)
//!   1...Kc4-d4                  each Black move of the set play ...
//!     2.Mf5-e4#                 ... with each White reply
//!   ...
//! 1.Mf5-c5+!                    each key with `!` (a checking key has no threat)
//!   1...Pa3-c3 (dual)           each defence, `(dual)` when more than one reply fulfils the rest
//!     2.Ka5-b4#                 each reply, and so on down the tree
//!     2.Ka5-b5#
//!
//! #2
//! 1.Bf3-f4+?                    each try, with its refutations
//!   1...Kg5-g6!
//! 1.Bf3-f5+?
//!   1...Kg5xf5!
//! 1.Nc7-h7! (2.Bf3-f5#)         a key's shortest threats in parentheses
//!   1...Kg5-f6
//!     2.Bf3-f5#
//! ```
//!
//! Each ply of a tree is indented two spaces more than the one it answers; defences and replies
//! are in canonical order (their notation's). White's moves are numbered `1.`, Black's `1...`
//! (the number of the White move they answer). A key that does not give check and needs more
//! than its own move has its threat in parentheses, or `(zugzwang)` when it threatens nothing.
//! Keys that need fewer moves than the stipulation follow under `short solutions:`, indented.
//!
//! Helpmates and series movers print a numbered line per solution, shorter solutions under
//! `short solutions:`, indented: `1.Kb7-a7 Bg6xc6 2.Ka7-b8 Rc8-c7#` (`h#2`: Black's move, then
//! White's); `1...Nc4-d6 2.Kb7-a7 Rc8-c7#` (`h#1.5`: White starts); `1.Kf1-e2 2.Ke2-d3
//! 3.Kd3-c4#` (`ser-#3`); `1.Kb2-a1 2.Ka1-b1 Qc2-c1#` (`ser-h#2`: White's mate unnumbered);
//! `1.Kf1-e2 2.Ke2-d3 Kh8-g8#/Kh8-h7#` (`ser-s#2`: after the series, every Black move, each
//! mating, joined by `/`).
//!
//! Every move carries the mark of the position it leaves: `#` (the side to move is mated: in
//! Rococo, its King is taken or cannot be kept), `=` (stalemated: no legal move, the King not
//! capturable) or `+` (check: the King is capturable). The moves are the game's canonical notation
//! in the coordinates asked for; with [`Style::figurine`], a piece letter becomes the figurine of
//! [`Role::figurine`] where Unicode has one.
//!
//! Notes close a block, each on a line in parentheses, in this order: the position's warnings
//! (`(warning: ...)`); of the set play, `(K set play lines, M shown)` and `(the set play may be
//! incomplete: the budget ran out)`; then `(no solution)`, `(K solutions, M shown)`, `(K short
//! solutions, M shown)`, `(tries may be missing: the budget ran out)`, `(the solution tree is cut
//! short)` and what the budget left unproven (`(the budget ran out: ...)`). Nothing varies
//! between runs of the same answer (no times, no node counts).

use crate::rules::prelude::*;
use crate::rules::{MoveInfo, Naming, Role, Status, Variant, VariantPosition};
use crate::solver::help::NamedHelpSolution;
use crate::solver::series::SeriesLine;
use crate::solver::set_play::NamedSetPlay;
use crate::solver::tree::NamedAttack;
use crate::solver::{NamedSolution, Outcome, Stipulation};
use std::fmt::Write as _;

/// The media type of the text solution.
pub const CONTENT_TYPE: &str = "text/plain; charset=utf-8";

/// How moves are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Figurines instead of piece letters, where Unicode has them ([`Role::figurine`]).
    pub figurine: bool,
}

/// What a solve found for one position, named (every line, not only those shown: the text says
/// how many it leaves out).
#[derive(Clone, Debug)]
pub enum Found {
    /// Keys with their solution tree, tries and threats (`#N`, `s#N`, `r#N`, `=N`, ...).
    Tree(NamedSolution),
    /// Solution lines (helpmates and series movers).
    Lines(NamedHelpSolution),
}

impl Found {
    /// What a solve of `pos` under `opts` finds, named in `naming` (a helpmate or series
    /// mover's lines, with `intended` solutions for soundness; else keys and their tree).
    pub fn solve(
        pos: &VariantPosition,
        opts: &crate::solver::SolveOptions,
        intended: usize,
        naming: Naming,
    ) -> Found {
        if opts.stipulation.lists_lines() {
            Found::Lines(crate::solver::solve_lines_any(pos, opts, intended).named(pos, naming))
        } else {
            Found::Tree(crate::solver::solve_any(pos, opts).named(pos, naming))
        }
    }
}

/// One position's part of the text: the diagram or a twin.
#[derive(Clone, Copy, Debug)]
pub struct Block<'a> {
    /// The twin's label and commands (`("b)", "move e5 f6")`; `("a)", "diagram")` for the diagram
    /// when there are twins), or none.
    pub label: Option<(&'a str, &'a str)>,
    /// The position solved.
    pub position: &'a VariantPosition,
    /// How its moves are named.
    pub naming: Naming,
    /// The stipulation solved.
    pub stipulation: Stipulation,
    /// What the solve found.
    pub found: &'a Found,
    /// The set play: `None` when not asked for, `Some(None)` when there is none.
    pub set_play: Option<Option<&'a NamedSetPlay>>,
    /// For lines: how many are shown of each list.
    pub shown: Shown,
}

/// How many lines of each list a block shows (the rest are counted in a note).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Of the solutions.
    pub solutions: usize,
    /// Of the short solutions.
    pub short_solutions: usize,
    /// Of the set play's lines.
    pub set_play: usize,
}

impl Shown {
    /// `n` lines of each list.
    pub fn each(n: usize) -> Shown {
        Shown {
            solutions: n,
            short_solutions: n,
            set_play: n,
        }
    }
}

/// The label of the diagram when there are twins.
pub const DIAGRAM_LABEL: (&str, &str) = ("a)", "diagram");

/// A block of text for one position, each line ending in `\n`.
pub fn block(b: &Block<'_>, style: Style) -> String {
    let mut w = Writer {
        out: String::new(),
        notes: Vec::new(),
        style,
        naming: b.naming,
    };
    for p in b.position.validate() {
        w.notes.push(format!("(warning: {})", p.message));
    }
    if let Some((label, text)) = b.label {
        w.line(0, &format!("{label} {text}"));
    }
    w.line(0, &b.stipulation.to_string());
    if let Some(set) = b.set_play {
        w.set_play(b.position, set, b.shown.set_play);
    }
    match b.found {
        Found::Tree(s) => w.tree(b.position, s, b.stipulation.moves()),
        Found::Lines(s) => w.lines(b.position, s, b.shown),
    }
    let notes = std::mem::take(&mut w.notes);
    for n in notes {
        w.line(0, &n);
    }
    w.out
}

/// `(K name, M shown)` when a list of `count` was cut to `shown`.
fn cut(notes: &mut Vec<String>, name: &str, count: usize, shown: usize) {
    if count > shown {
        notes.push(format!("({count} {name}, {shown} shown)"));
    }
}

/// `k moves` (`1 move`).
fn moves(k: u32) -> String {
    if k == 1 {
        "1 move".into()
    } else {
        format!("{k} moves")
    }
}

/// Builds the text.
struct Writer {
    out: String,
    /// The notes that close the block, in order.
    notes: Vec<String>,
    style: Style,
    naming: Naming,
}

/// The mark of the position a move leaves: `#`, `=`, `+` or nothing.
fn mark(status: Status) -> &'static str {
    match status {
        Status::Checkmate => "#",
        Status::Stalemate => "=",
        Status::Check => "+",
        Status::Ongoing => "",
    }
}

impl Writer {
    fn line(&mut self, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{:width$}{text}", "", width = 2 * depth);
    }

    /// A move of `pos` as printed, with its mark, and the position it leaves (`None` when the
    /// move is not one of `pos`, which a solver's answer never has).
    fn name(
        &self,
        pos: Option<&VariantPosition>,
        m: &MoveInfo,
    ) -> (String, Option<VariantPosition>) {
        let mut text = self.letters(pos, &m.notation);
        let Some(pos) = pos else {
            return (text, None);
        };
        let Ok(mv) = pos.parse_move(&m.uci, self.naming) else {
            return (text, None);
        };
        let after = pos.play(&mv);
        text.push_str(mark(pos.status_after(&mv, &after)));
        (text, Some(after))
    }

    /// The notation with figurines for the piece letters, when asked for: the first letter and a
    /// promotion's (`=L`).
    fn letters(&self, pos: Option<&VariantPosition>, notation: &str) -> String {
        let Some(pos) = pos.filter(|_| self.style.figurine) else {
            return notation.to_string();
        };
        let glyph = |c: char| pos.role_of_letter(c).and_then(Role::figurine).unwrap_or(c);
        let mut out = String::with_capacity(notation.len() + 4);
        let mut after_equals = true;
        for c in notation.chars() {
            if after_equals && c.is_ascii_uppercase() {
                out.push(glyph(c));
            } else {
                out.push(c);
            }
            after_equals = c == '=';
        }
        out
    }

    /// The set play block.
    fn set_play(&mut self, pos: &VariantPosition, set: Option<&NamedSetPlay>, max_lines: usize) {
        let Some(s) = set else {
            self.line(0, "set play: none");
            return;
        };
        let start = pos.null_move();
        let empty = s.solutions.is_empty() && s.defences.is_empty();
        if empty {
            // None found: none there is, or none found before the budget ran out.
            self.line(
                0,
                if s.complete {
                    "set play: none"
                } else {
                    "set play:"
                },
            );
        } else {
            self.line(0, "set play:");
        }
        if s.stipulation.is_help() {
            for l in s.solutions.iter().take(max_lines) {
                let text = self.numbered_line(start.as_ref(), s.stipulation, l);
                self.line(1, &text);
            }
            cut(
                &mut self.notes,
                "set play lines",
                s.count,
                s.solutions.len().min(max_lines),
            );
        } else {
            // In a game won by taking the King, a Black move that leaves its King to be taken is
            // answered by taking it: the rules' mate, but no set play a problemist prints. The
            // JSON keeps them; the text counts them in a note.
            let takes_king =
                |m: &MoveInfo| m.captures.iter().any(|c| c.piece.eq_ignore_ascii_case("k"));
            let by_capture = Variant::wins_by_king_capture(pos.variant().kind());
            let mut left_out = 0;
            for (black, replies) in &s.defences {
                if by_capture && replies.iter().any(|(white, _)| takes_king(white)) {
                    left_out += 1;
                    continue;
                }
                let (name, after) = self.name(start.as_ref(), black);
                self.line(1, &format!("1...{name}"));
                for (white, _) in replies {
                    let (name, _) = self.name(after.as_ref(), white);
                    self.line(2, &format!("2.{name}"));
                }
            }
            if left_out > 0 {
                self.notes.push(format!(
                    "({left_out} Black {} leaving the King to be taken, each answered by taking \
                     it, left out of the set play)",
                    if left_out == 1 { "move" } else { "moves" }
                ));
            }
        }
        if !s.complete {
            self.notes
                .push("(the set play may be incomplete: the budget ran out)".into());
        }
    }

    /// Tries, keys and their trees, and the notes.
    fn tree(&mut self, pos: &VariantPosition, s: &NamedSolution, n: u32) {
        for t in &s.tries {
            let (name, after) = self.name(Some(pos), &t.info);
            self.line(0, &format!("1.{name}?"));
            for r in &t.refutations {
                let (name, _) = self.name(after.as_ref(), r);
                self.line(1, &format!("1...{name}!"));
            }
        }
        let full = |k: &&crate::solver::NamedKey| k.mate_in >= n;
        let short: Vec<_> = s.keys.iter().filter(|k| !full(k)).collect();
        for key in s.keys.iter().filter(full) {
            self.key(pos, s, key, 0);
        }
        if !short.is_empty() {
            self.line(0, "short solutions:");
            for key in short {
                self.key(pos, s, key, 1);
            }
        }
        if s.result == Outcome::NoMate {
            self.notes.push("(no solution)".into());
        }
        if s.tries_truncated {
            self.notes
                .push("(tries may be missing: the budget ran out)".into());
        }
        if s.tree_truncated {
            self.notes.push("(the solution tree is cut short)".into());
        }
        match s.result {
            Outcome::Unknown if s.proven_no_mate_within > 0 => self.notes.push(format!(
                "(the budget ran out: no first move but those shown fulfils the stipulation in {} \
                 or fewer)",
                moves(s.proven_no_mate_within)
            )),
            Outcome::Unknown => self
                .notes
                .push("(the budget ran out: nothing is proven)".into()),
            Outcome::Mate if s.budget_exhausted => self
                .notes
                .push("(the budget ran out: other keys may be missing)".into()),
            _ => {}
        }
    }

    /// A key and its tree, at `depth`.
    fn key(
        &mut self,
        pos: &VariantPosition,
        s: &NamedSolution,
        key: &crate::solver::NamedKey,
        depth: usize,
    ) {
        // The key's threats of the shortest length, as problemists print them (the tree's
        // threat lists every length).
        let shortest = s
            .threats
            .iter()
            .find(|t| t.key.uci == key.info.uci)
            .map(crate::solver::NamedThreat::shortest);
        if let Some(node) = s.tree.iter().find(|n| n.info.uci == key.info.uci) {
            let threat = node.threat.as_ref().map(|t| shortest.as_ref().unwrap_or(t));
            self.attack(Some(pos), node, threat, depth, 1, "!");
            return;
        }
        // A key the tree was cut before: its threat, when one is known (a key that gives check
        // or needs one move has none; one the budget cut short, none known).
        let (name, after) = self.name(Some(pos), &key.info);
        let quiet = !name.ends_with(['+', '#', '=']);
        let threat = shortest
            .filter(|_| quiet && key.mate_in > 1)
            .map(|moves| self.threat(after.as_ref(), &moves, 2))
            .unwrap_or_default();
        self.line(depth, &format!("1.{name}!{threat}"));
    }

    /// An attacker's move, with `threat` (the node's, or the key's shortest), and what follows.
    fn attack(
        &mut self,
        pos: Option<&VariantPosition>,
        node: &NamedAttack,
        threat: Option<&Vec<MoveInfo>>,
        depth: usize,
        number: u32,
        suffix: &str,
    ) {
        let (name, after) = self.name(pos, &node.info);
        let threat = threat
            .map(|t| self.threat(after.as_ref(), t, number + 1))
            .unwrap_or_default();
        self.line(depth, &format!("{number}.{name}{suffix}{threat}"));
        let mut defences: Vec<_> = node.defences.iter().collect();
        defences.sort_by(|a, b| a.info.notation.cmp(&b.info.notation));
        for d in defences {
            let (name, below) = self.name(after.as_ref(), &d.info);
            let dual = if d.dual { " (dual)" } else { "" };
            self.line(depth + 1, &format!("{number}...{name}{dual}"));
            let mut replies: Vec<_> = d.replies.iter().collect();
            replies.sort_by(|a, b| a.info.notation.cmp(&b.info.notation));
            for r in replies {
                self.attack(
                    below.as_ref(),
                    r,
                    r.threat.as_ref(),
                    depth + 2,
                    number + 1,
                    "",
                );
            }
        }
    }

    /// ` (2.Rc8-c7# 2.Rc8-c6#)`, or ` (zugzwang)` when there is no threat; the moves are played
    /// from `after` with the defender passing.
    fn threat(&self, after: Option<&VariantPosition>, moves: &[MoveInfo], number: u32) -> String {
        if moves.is_empty() {
            return " (zugzwang)".into();
        }
        let passed = after.and_then(|p| p.null_move());
        let names: Vec<String> = moves
            .iter()
            .map(|m| format!("{number}.{}", self.name(passed.as_ref(), m).0))
            .collect();
        format!(" ({})", names.join(" "))
    }

    /// A helpmate's or series mover's lines and notes.
    fn lines(&mut self, pos: &VariantPosition, s: &NamedHelpSolution, shown: Shown) {
        for l in s.solutions.iter().take(shown.solutions) {
            let text = self.numbered_line(Some(pos), s.stipulation, l);
            self.line(0, &text);
        }
        if !s.short_solutions.is_empty() && shown.short_solutions > 0 {
            self.line(0, "short solutions:");
            for l in s.short_solutions.iter().take(shown.short_solutions) {
                let text = self.numbered_line(Some(pos), s.stipulation, l);
                self.line(1, &text);
            }
        }
        if s.complete && s.count == 0 && s.short_solutions.is_empty() {
            self.notes.push("(no solution)".into());
        }
        cut(
            &mut self.notes,
            "solutions",
            s.count,
            s.solutions.len().min(shown.solutions),
        );
        cut(
            &mut self.notes,
            "short solutions",
            s.short_solutions.len(),
            shown.short_solutions,
        );
        if !s.complete {
            self.notes.push(match s.proven_no_solution_within {
                0 => "(the budget ran out: the lines may be incomplete)".into(),
                k => format!(
                    "(the budget ran out: the lines may be incomplete; none of {} or fewer \
                     missed)",
                    moves(k)
                ),
            });
        }
    }

    /// A line of a helpmate or series mover of `stipulation` (or of a shorter one of the same
    /// kind), numbered as problemists number it.
    fn numbered_line(
        &self,
        start: Option<&VariantPosition>,
        stipulation: Stipulation,
        line: &[MoveInfo],
    ) -> String {
        let mut parts: Vec<String> = Vec::with_capacity(line.len() + 1);
        let mut pos = start.copied();
        if stipulation.is_series() {
            let helped = matches!(stipulation, Stipulation::SeriesHelpMate(_));
            let series = line.len() - usize::from(helped);
            let mut steps = SeriesLine::new(with_moves(stipulation, series as u32));
            for (i, m) in line.iter().enumerate() {
                let (name, after) = self.name(pos.as_ref(), m);
                if i < series {
                    parts.push(format!("{}.{name}", i + 1));
                    pos = after.map(|a| steps.step(a));
                } else {
                    parts.push(name);
                    pos = after;
                }
            }
            if matches!(stipulation, Stipulation::SeriesSelfMate(_)) {
                if let Some(p) = pos {
                    let replies: Vec<String> = p
                        .legal_moves()
                        .iter()
                        .map(|mv| self.name(Some(&p), &p.move_info(mv, self.naming)).0)
                        .collect();
                    if !replies.is_empty() {
                        parts.push(replies.join("/"));
                    }
                }
            }
        } else {
            // A helpmate: Black's move opens each numbered pair; White's first move of `h#N.5`
            // is `1...`.
            let white_first = start.map_or(stipulation.starts(), |p| Some(p.turn()))
                == Some(crate::rules::Color::White);
            for (i, m) in line.iter().enumerate() {
                let (name, after) = self.name(pos.as_ref(), m);
                let ply = i + usize::from(white_first);
                parts.push(if ply % 2 == 0 {
                    format!("{}.{name}", ply / 2 + 1)
                } else if i == 0 {
                    format!("1...{name}")
                } else {
                    name
                });
                pos = after;
            }
        }
        parts.join(" ")
    }
}

/// The series mover of `stipulation`'s kind with `n` moves (a short solution's own length).
fn with_moves(stipulation: Stipulation, n: u32) -> Stipulation {
    match stipulation {
        Stipulation::SeriesMate(_) => Stipulation::SeriesMate(n),
        Stipulation::SeriesStalemate(_) => Stipulation::SeriesStalemate(n),
        Stipulation::SeriesSelfMate(_) => Stipulation::SeriesSelfMate(n),
        Stipulation::SeriesHelpMate(_) => Stipulation::SeriesHelpMate(n),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn solve_block(fen: &str, stipulation: Stipulation, style: Style) -> String {
        let naming = Naming::default();
        let (pos, _) = Variant::default().position(fen, naming).unwrap();
        let opts = crate::solver::SolveOptions {
            stipulation,
            threads: 1,
            ..crate::solver::SolveOptions::default()
        };
        let found = Found::solve(&pos, &opts, 1, naming);
        block(
            &Block {
                label: None,
                position: &pos,
                naming,
                stipulation,
                found: &found,
                set_play: None,
                shown: Shown::each(100),
            },
            style,
        )
    }

    /// The Chameleon mate in 2 of the Wikipedia article: the key, its threat, the one defence and
    /// its two mates (a dual).
    #[test]
    fn a_direct_mate_prints_key_threat_defences_and_duals() {
        let text = solve_block(
            "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
            Stipulation::Mate(2),
            Style::default(),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "#2");
        assert!(lines[1].starts_with("1.Bg6xc6"), "{text}");
        assert!(lines[1].contains('!'), "{text}");
        assert!(
            lines.iter().any(|l| l.starts_with("  1...Kb7xc8")),
            "{text}"
        );
        assert!(
            lines
                .iter()
                .filter(|l| l.starts_with("    2.") && l.ends_with('#'))
                .count()
                >= 2,
            "{text}"
        );
    }

    /// Figurines replace the letters Unicode has a figurine for.
    #[test]
    fn figurines_replace_the_letters_unicode_has() {
        let text = solve_block(
            "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
            Stipulation::Mate(2),
            Style { figurine: true },
        );
        assert!(text.contains("1.\u{2657}g6xc6"), "{text}");
        assert!(text.contains("1...\u{2654}b7xc8"), "{text}");
        assert!(!text.contains("Bg6"), "{text}");
    }

    /// A series mover: the King walk `Kf1-e2 Ke2-d3 Kd3-c4`, numbered, the last move mating.
    #[test]
    fn a_series_mover_prints_numbered_moves() {
        let text = solve_block(
            "8/8/8/8/8/1k3p2/2M5/5K2 w 0",
            Stipulation::SeriesMate(3),
            Style::default(),
        );
        assert_eq!(text, "ser-#3\n1.Kf1-e2 2.Ke2-d3 3.Kd3-c4#\n");
    }
}
