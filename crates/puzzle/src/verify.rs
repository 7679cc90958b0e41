//! The one verification of a puzzle, which the fixtures, the store and the generator share. A
//! diagram is replayed with the rules engine (the logic of
//! [`crate::fixtures::cases::Case::verify`]); a mate is solved with the solver ([`check_mate`]).
//! Nothing here touches the database.

use crate::fixtures::cases::{play_text, Case, Destinations, RulesSpec, SquarePiece};
use crate::model::{Claim, DiagramClaim, Kind, MateClaim, NewPuzzle, VerifiedPuzzle, VerifyError};
use crate::outcome::{DiagramOutcome, HelpOutcome, KeysOutcome, LegalMove, PuzzleOutcome};
use crate::rules::{GameKind, Naming, Rules, Variant, VariantPosition};
use crate::solver::{Outcome, SolveOptions, Stipulation};
use baroque_rules::prelude::*;
use serde::Serialize;
use sha2::{Digest, Sha256};

fn contradicted(reason: impl Into<String>) -> VerifyError {
    VerifyError::Contradicted(vec![reason.into()])
}

/// Verifies a puzzle; `solve` is the solver's budget, table and threads (its `mate_in`, tree size
/// and intended key are set here).
pub fn verify(p: NewPuzzle, solve: &SolveOptions) -> Result<VerifiedPuzzle, VerifyError> {
    let (pos, _) = p
        .variant
        .position(&p.fen, Naming::default())
        .map_err(|e| contradicted(format!("fen: {e}")))?;
    let fen = pos.fen(Naming::default());
    let game = p.variant.kind();
    let rules = p.variant.rules().unwrap_or_default();
    let (moves, stipulation, destinations) = match &p.claim {
        Claim::Diagram(d) => (d.moves.clone(), None, d.destinations.clone()),
        Claim::Mate(m) => (Vec::new(), Some(m.stipulation), None),
    };
    let mate_in = stipulation.map(Stipulation::moves);
    let (moves_key, outcome, captures) = match &p.claim {
        Claim::Diagram(d) => verify_diagram(d, &p, &pos)?,
        Claim::Mate(m) => {
            if let Err(e) = m.stipulation.check_kings(&pos) {
                return Err(contradicted(e.to_string()));
            }
            verify_mate(m, &pos, solve)?
        }
    };
    let content_hash = content_hash(
        p.claim.kind(),
        game,
        &fen,
        &rules,
        &moves_key,
        destinations.as_ref(),
        stipulation,
    );
    let about = p.about;
    let mut tags: Vec<String> = about
        .tags
        .iter()
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect();
    tags.sort();
    tags.dedup();
    let difficulty = stipulation.and_then(|s| crate::difficulty::difficulty(s, &fen, &outcome));
    let history = about
        .history
        .checked()
        .map_err(|e| VerifyError::Contradicted(vec![e.to_string()]))?;
    Ok(VerifiedPuzzle {
        history,
        difficulty,
        kind: p.claim.kind(),
        game,
        fen,
        rules,
        title: about.title,
        source: about.source,
        caption: about.caption,
        tags,
        moves,
        captures,
        mate_in,
        stipulation,
        outcome,
        fixture: about.fixture,
        content_hash,
    })
}

/// The content hash a mate puzzle will be stored under, found without solving it, when its claim
/// states its stipulation alone (a claim of keys, solutions, short solutions or soundness must be
/// checked by a solve): what lets a post of a stored puzzle be answered from the store. `None`
/// for a diagram, a claim that states more, or a FEN that does not read.
pub fn stored_content_hash(p: &NewPuzzle) -> Option<String> {
    let Claim::Mate(m) = &p.claim else {
        return None;
    };
    let states_more = m.keys.is_some()
        || m.short_solutions.is_some()
        || m.solutions.is_some()
        || m.intended_solutions.is_some()
        || m.sound.is_some();
    if states_more {
        return None;
    }
    let (pos, _) = p.variant.position(&p.fen, Naming::default()).ok()?;
    let rules = p.variant.rules().unwrap_or_default();
    Some(content_hash(
        Kind::Mate,
        p.variant.kind(),
        &pos.fen(Naming::default()),
        &rules,
        &[],
        None,
        Some(m.stipulation),
    ))
}

/// The content hash of a puzzle: SHA-256 (hex) of its kind, game, canonical FEN, rules, canonical
/// moves, destinations claim and stipulation. Two posts of one puzzle, whatever notation they use,
/// are one row. A direct mate hashes its N alone, as stores written before stipulations hashed it
/// (so their rows still deduplicate); another stipulation hashes its text as well, so that the
/// same position as `#2` and as `s#2` are two puzzles.
pub fn content_hash(
    kind: Kind,
    game: GameKind,
    fen: &str,
    rules: &Rules,
    moves: &[String],
    destinations: Option<&Destinations>,
    stipulation: Option<Stipulation>,
) -> String {
    // A game without rule sets hashes the default rule set's name, as stores written before its
    // rules were recorded hashed it, so that their rows still deduplicate.
    let hashed_rules = if Variant::has_rule_sets(game) {
        rules.to_string()
    } else {
        Rules::default().to_string()
    };
    // The members in alphabetical order: the text hashed since the first release.
    #[derive(Serialize)]
    struct Content<'a> {
        destinations: Option<crate::outcome::StoredDestinations>,
        fen: &'a str,
        game: GameKind,
        kind: &'static str,
        mate_in: Option<u32>,
        moves: &'a [String],
        rules: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        stipulation: Option<String>,
    }
    let content = Content {
        destinations: destinations.map(Into::into),
        fen,
        game,
        kind: kind.name(),
        mate_in: stipulation.map(Stipulation::moves),
        moves,
        rules: hashed_rules,
        stipulation: stipulation
            .filter(|s| !matches!(s, Stipulation::Mate(_)))
            .map(|s| s.to_string()),
    };
    let content = serde_json::to_string(&content).unwrap_or_default();
    Sha256::digest(content.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The moves of a line in canonical notation, as far as they can be played from `pos`; the rest as
/// written (trimmed).
pub fn canonical_moves(pos: &VariantPosition, moves: &[String]) -> Vec<String> {
    let mut canonical = Vec::with_capacity(moves.len());
    let mut at = Some(*pos);
    for text in moves {
        match at.as_ref().map(|a| play_text(a, text, Naming::default())) {
            Some(Ok((_, played, after))) => {
                canonical.push(played.notation);
                at = Some(after);
            }
            _ => {
                canonical.push(text.trim().to_string());
                at = None;
            }
        }
    }
    canonical
}

/// The content hash a stored diagram of `variant` has under today's rule (its moves canonical),
/// from what the row keeps: its FEN, its moves as written and its destinations claim. `None` when
/// the FEN no longer reads.
pub fn current_diagram_hash(
    variant: Variant,
    fen: &str,
    moves: &[String],
    destinations: Option<&Destinations>,
) -> Option<String> {
    let pos = variant.read_fen(fen, Naming::default()).ok()?;
    Some(content_hash(
        Kind::Diagram,
        variant.kind(),
        &pos.fen(Naming::default()),
        &variant.rules().unwrap_or_default(),
        &canonical_moves(&pos, moves),
        destinations,
        None,
    ))
}

type Verified = (Vec<String>, PuzzleOutcome, Vec<SquarePiece>);

fn verify_diagram(
    d: &DiagramClaim,
    p: &NewPuzzle,
    pos: &VariantPosition,
) -> Result<Verified, VerifyError> {
    let case = Case {
        id: p.about.fixture.clone().unwrap_or_else(|| "posted".into()),
        section: None,
        title: p.about.title.clone(),
        fen: p.fen.clone(),
        rules: p.variant.rules().as_ref().map(RulesSpec::from_rules),
        moves: d.moves.clone(),
        legal: d.legal,
        reason: d.reason.clone(),
        captures: d.captures.clone(),
        status: d.status.clone(),
        frozen: d.frozen.clone(),
        destinations: d.destinations.clone(),
        note: None,
        diagram: None,
        placement: None,
        marks: None,
    };
    let checked = case.verify(p.variant.kind());
    if !checked.ok() {
        return Err(VerifyError::Contradicted(checked.problems));
    }
    // The moves in canonical notation (the content hash does not depend on how they were written).
    let canonical = canonical_moves(pos, &d.moves);
    let destinations = d.destinations.as_ref();
    let (outcome, captures) = match &checked.last_move {
        _ if d.moves.is_empty() => (DiagramOutcome::no_move(destinations), Vec::new()),
        Some(m) => (
            DiagramOutcome::legal(
                LegalMove {
                    notation: &m.notation,
                    uci: &m.uci,
                    captures: &m.captures,
                    status: m.status_after.name(),
                    frozen: &m.frozen_after,
                    fen_after: &m.fen_after,
                },
                destinations,
            ),
            m.captures.clone(),
        ),
        None => (
            DiagramOutcome::illegal(d.reason.as_deref(), destinations),
            Vec::new(),
        ),
    };
    let outcome = PuzzleOutcome::Diagram(outcome);
    Ok((canonical, outcome, captures))
}

/// What a solve of a mate claim answered, named in the standard naming.
#[derive(Clone, Debug)]
pub enum Solved {
    /// `#N` or `s#N`.
    Keys(crate::solver::NamedSolution),
    /// A helpmate.
    Help(crate::solver::help::NamedHelpSolution),
}

/// What solving a mate claim found.
#[derive(Clone, Debug)]
pub enum MateCheck {
    /// The solve settled the claim: every way it differs (none when it holds), and the solution
    /// named in the standard naming.
    Settled {
        problems: Vec<String>,
        solution: Box<Solved>,
    },
    /// The budget ran out before the claim was confirmed or refuted.
    Unsettled {
        nodes: u64,
        millis: u64,
        proven: u32,
        solution: Box<Solved>,
    },
}

/// The names of a set of moves for messages (`none` for no move).
fn listed(v: &std::collections::BTreeSet<String>) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.iter().cloned().collect::<Vec<_>>().join(", ")
    }
}

/// A solution line of `stipulation` read from `pos` (each move in any notation; in a series
/// mover the other side passes between the series' moves), in canonical notation, separated by
/// spaces.
fn canonical_line(
    pos: &VariantPosition,
    stipulation: crate::solver::Stipulation,
    line: &[&str],
) -> Result<String, String> {
    let mut at = *pos;
    let mut names = Vec::with_capacity(line.len());
    for (i, text) in line.iter().enumerate() {
        let mv = at.parse_move(text, Naming::default()).map_err(|e| {
            format!(
                "`{text}` of the line `{}` is not a legal move: {e}",
                line.join(" ")
            )
        })?;
        names.push(at.move_name(&mv, Naming::default()));
        at = crate::solver::help::next_in_line(&at, stipulation, &mv, i, line.len()).ok_or_else(
            || {
                format!(
                    "`{text}` of the line `{}` leaves the other side in check, which cannot pass",
                    line.join(" ")
                )
            },
        )?;
    }
    Ok(names.join(" "))
}

/// Solves a mate claim on a position of either game and compares: the one check of a mate
/// puzzle, for the fixtures' puzzle files, the store and the generator alike.
///
/// # Errors
/// A message when the claim itself is unusable: N out of range, a side to move that is not the
/// one the stipulation starts with, a stated key or line that is not made of legal moves.
pub fn check_mate(
    pos: &VariantPosition,
    claim: &MateClaim,
    solve: &SolveOptions,
) -> Result<MateCheck, String> {
    let stipulation = claim.stipulation;
    stipulation
        .check_length(crate::solver::MAX_MATE_IN)
        .and_then(|()| stipulation.check_side(pos))
        .map_err(|e| e.to_string())?;
    let opts = SolveOptions {
        stipulation,
        intended_key: None,
        ..solve.clone()
    };
    if stipulation.lists_lines() {
        return check_help(pos, claim, &opts);
    }
    let canonical = |texts: &Option<Vec<String>>| -> Result<Option<std::collections::BTreeSet<String>>, String> {
        texts
            .as_ref()
            .map(|v| {
                v.iter()
                    .map(|text| {
                        pos.parse_move(text, Naming::default())
                            .map(|mv| pos.move_name(&mv, Naming::default()))
                            .map_err(|e| format!("key `{text}` is not a legal move: {e}"))
                    })
                    .collect()
            })
            .transpose()
    };
    let (want_keys, want_short) = (canonical(&claim.keys)?, canonical(&claim.short_solutions)?);
    let s = crate::solver::solve_any(pos, &opts).named(pos, Naming::default());
    if s.result == Outcome::Unknown || (claim.sound.is_some() && s.sound.is_none()) {
        return Ok(MateCheck::Unsettled {
            nodes: opts.limits.nodes,
            millis: opts.limits.time.as_millis() as u64,
            proven: s.proven_no_mate_within,
            solution: Box::new(Solved::Keys(s)),
        });
    }
    let mut problems = Vec::new();
    if s.result == Outcome::NoMate && want_keys.as_ref().is_none_or(|k| !k.is_empty()) {
        problems.push(no_forced(stipulation));
    }
    let names = |keys: &[crate::solver::NamedKey]| -> std::collections::BTreeSet<String> {
        keys.iter().map(|k| k.info.notation.clone()).collect()
    };
    if let Some(want) = &want_keys {
        let got = names(&s.keys);
        if got != *want {
            problems.push(format!(
                "the keys of {stipulation} are {}, expected {}",
                listed(&got),
                listed(want)
            ));
        }
    }
    if let Some(want) = &want_short {
        let got = names(&s.short_solutions);
        if got != *want {
            problems.push(format!(
                "the short solutions are {}, expected {}",
                listed(&got),
                listed(want)
            ));
        }
    }
    sound_problem(&mut problems, claim.sound, s.sound);
    Ok(MateCheck::Settled {
        problems,
        solution: Box::new(Solved::Keys(s)),
    })
}

/// Says when the claimed soundness differs from the proven one.
fn sound_problem(problems: &mut Vec<String>, want: Option<bool>, got: Option<bool>) {
    if let (Some(want), Some(got)) = (want, got) {
        if want != got {
            let word = |b: bool| if b { "sound" } else { "not sound" };
            problems.push(format!(
                "the puzzle is {}, expected {}",
                word(got),
                word(want)
            ));
        }
    }
}

/// [`check_mate`] of a helpmate: every solution line.
fn check_help(
    pos: &VariantPosition,
    claim: &MateClaim,
    opts: &SolveOptions,
) -> Result<MateCheck, String> {
    use std::collections::BTreeSet;
    let stipulation = claim.stipulation;
    let want_lines = claim
        .solutions
        .as_ref()
        .map(|v| {
            v.iter()
                .map(|l| {
                    let moves: Vec<&str> = l.iter().map(String::as_str).collect();
                    canonical_line(pos, stipulation, &moves)
                })
                .collect::<Result<BTreeSet<String>, String>>()
        })
        .transpose()?;
    let want_short = claim
        .short_solutions
        .as_ref()
        .map(|v| {
            v.iter()
                .map(|l| {
                    canonical_line(pos, stipulation, &l.split_whitespace().collect::<Vec<_>>())
                })
                .collect::<Result<BTreeSet<String>, String>>()
        })
        .transpose()?;
    let want_keys = claim
        .keys
        .as_ref()
        .map(|v| {
            v.iter()
                .map(|k| canonical_line(pos, stipulation, &[k.as_str()]))
                .collect::<Result<BTreeSet<String>, String>>()
        })
        .transpose()?;
    let intended = claim.intended_solutions.unwrap_or(1).max(1);
    let h = crate::solver::solve_lines_any(pos, opts, intended).named(pos, Naming::default());
    if !h.complete {
        return Ok(MateCheck::Unsettled {
            nodes: opts.limits.nodes,
            millis: opts.limits.time.as_millis() as u64,
            proven: h.proven_no_solution_within,
            solution: Box::new(Solved::Help(h)),
        });
    }
    let line = |l: &[crate::rules::MoveInfo]| {
        l.iter()
            .map(|m| m.notation.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut problems = Vec::new();
    if h.count == 0 && want_lines.as_ref().is_none_or(|l| !l.is_empty()) {
        problems.push(format!("{stipulation} has no solution"));
    }
    if let Some(want) = &want_lines {
        if h.lines_truncated {
            if h.count != want.len() {
                problems.push(format!(
                    "{stipulation} has {} solutions, expected {}",
                    h.count,
                    want.len()
                ));
            }
        } else {
            let got: BTreeSet<String> = h.solutions.iter().map(|l| line(l)).collect();
            if got != *want {
                problems.push(format!(
                    "the solutions of {stipulation} are {}, expected {}",
                    listed(&got),
                    listed(want)
                ));
            }
        }
    }
    if let Some(want) = &want_keys {
        let got: BTreeSet<String> = h
            .solutions
            .iter()
            .filter_map(|l| l.first().map(|m| m.notation.clone()))
            .collect();
        if got != *want && !h.lines_truncated {
            problems.push(format!(
                "the first moves of the solutions are {}, expected {}",
                listed(&got),
                listed(want)
            ));
        }
    }
    if let Some(want) = &want_short {
        let got: BTreeSet<String> = h.short_solutions.iter().map(|l| line(l)).collect();
        if got != *want && !h.lines_truncated {
            problems.push(format!(
                "the short solutions are {}, expected {}",
                listed(&got),
                listed(want)
            ));
        }
    }
    sound_problem(&mut problems, claim.sound, h.sound);
    Ok(MateCheck::Settled {
        problems,
        solution: Box::new(Solved::Help(h)),
    })
}

/// Solves a mate puzzle of either game ([`check_mate`]).
fn verify_mate(
    claim: &MateClaim,
    pos: &VariantPosition,
    solve: &SolveOptions,
) -> Result<Verified, VerifyError> {
    let solved = match check_mate(pos, claim, solve).map_err(contradicted)? {
        MateCheck::Unsettled {
            nodes,
            millis,
            proven,
            ..
        } => {
            return Err(VerifyError::BudgetExhausted {
                nodes,
                millis,
                proven,
            })
        }
        MateCheck::Settled { problems, .. } if !problems.is_empty() => {
            return Err(VerifyError::Contradicted(problems))
        }
        MateCheck::Settled { solution, .. } => solution,
    };
    let stipulation = claim.stipulation.to_string();
    // A stored mate puzzle has a mate, whatever it claims.
    match &*solved {
        Solved::Keys(s) if s.result == Outcome::NoMate => {
            return Err(contradicted(no_forced(claim.stipulation)));
        }
        Solved::Help(h) if h.count == 0 => {
            return Err(contradicted(format!("{stipulation} has no solution")));
        }
        _ => {}
    }
    Ok((
        Vec::new(),
        mate_outcome(claim.stipulation, &solved),
        Vec::new(),
    ))
}

/// The most solution lines of each length a helpmate's stored outcome keeps, as a solve answers
/// by default: `count` says how many solutions there are, and `solutions_truncated` that lines
/// were left out (a sound helpmate has one). The solution tree of `#N` and `s#N` is bounded by
/// the solve's `max_tree_nodes`, so that no stored outcome grows with the number of solutions.
pub const MAX_STORED_LINES: usize = 100;

/// The stored outcome of a mate puzzle of `stipulation` that `solved` answers (see
/// [`VerifiedPuzzle::outcome`]); a helpmate keeps at most [`MAX_STORED_LINES`] lines of each
/// length.
pub fn mate_outcome(stipulation: Stipulation, solved: &Solved) -> PuzzleOutcome {
    match solved {
        Solved::Keys(s) => PuzzleOutcome::Keys(KeysOutcome::of(stipulation, s)),
        Solved::Help(h) => PuzzleOutcome::Help(HelpOutcome::of(stipulation, h, MAX_STORED_LINES)),
    }
}

/// What a stipulation that is not forced is said to lack: "White cannot force s#2" for a selfmate
/// (or selfstalemate), "the side to move has no forced mate in 2" ("stalemate") otherwise.
fn no_forced(stipulation: Stipulation) -> String {
    if stipulation.is_self() {
        format!("White cannot force {stipulation}")
    } else {
        let goal = match stipulation.target() {
            crate::solver::Target::Mate => "mate",
            crate::solver::Target::Stalemate => "stalemate",
        };
        format!(
            "the side to move has no forced {goal} in {}",
            stipulation.moves()
        )
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::cases::Destination;

    /// The content hash as the first releases wrote it, from a JSON value (sorted members).
    fn hashed_as_before(
        kind: Kind,
        game: GameKind,
        fen: &str,
        rules: &Rules,
        moves: &[String],
        destinations: Option<&Destinations>,
        stipulation: Option<Stipulation>,
    ) -> String {
        let hashed_rules = if Variant::has_rule_sets(game) {
            rules.to_string()
        } else {
            Rules::default().to_string()
        };
        let mut content = serde_json::json!({
            "kind": kind.name(), "game": game, "fen": fen, "rules": hashed_rules, "moves": moves,
            "destinations": destinations, "mate_in": stipulation.map(Stipulation::moves),
        });
        if let Some(s) = stipulation.filter(|s| !matches!(s, Stipulation::Mate(_))) {
            content["stipulation"] = s.to_string().into();
        }
        Sha256::digest(content.to_string().as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn the_content_hash_is_the_one_stores_hold() {
        let dest = Destinations {
            from: "d3".into(),
            quiet: vec!["d2".into(), "e3".into()],
            captures: vec![Destination {
                to: "d5".into(),
                captures: vec![SquarePiece {
                    square: "d4".into(),
                    piece: "p".into(),
                }],
            }],
        };
        let fen = "8/8/8/4k3/2K2M2/3q4/8/8 w 0";
        let moves = ["Kc4-d5".to_string()];
        let rules = Rules::default();
        for (kind, game, moves, dest, s) in [
            (
                Kind::Diagram,
                GameKind::Baroque,
                &moves[..],
                Some(&dest),
                None,
            ),
            (Kind::Diagram, GameKind::Rococo, &moves[..], None, None),
            (
                Kind::Mate,
                GameKind::Baroque,
                &[][..],
                None,
                Stipulation::parse("#2"),
            ),
            (
                Kind::Mate,
                GameKind::Baroque,
                &[][..],
                None,
                Stipulation::parse("h#2.5"),
            ),
            (
                Kind::Mate,
                GameKind::Rococo,
                &[][..],
                None,
                Stipulation::parse("s#3"),
            ),
        ] {
            assert_eq!(
                content_hash(kind, game, fen, &rules, moves, dest, s),
                hashed_as_before(kind, game, fen, &rules, moves, dest, s)
            );
        }
    }
}
