//! The JSON request bodies, without HTTP: the first byte picks an operation (analyze, verify,
//! solve, a puzzle post, a collection job), the rest is its body. The body is read as the handler
//! reads it and checked into the handler's query; a query is then run where that is cheap and
//! bounded (analyze, verify, a solve and a puzzle's verification under a tiny budget, the options of
//! a job). Never panics; every refusal is a client error (4xx) whose problem document names a
//! detail; every solve keeps to its node and time budget and says whether it ran out (and which
//! limit), an `unknown` result only when it did.
#![no_main]
use baroque::api::common::Object;
use baroque::api::configuration::{Limits, SolveLimits};
use baroque::api::problem::ApiError;
use baroque::api::routes::analyze::{AnalyzeQuery, AnalyzeRequest};
use baroque::api::routes::collections::{options, CollectionRequest};
use baroque::api::routes::puzzles::PuzzleRequest;
use baroque::api::routes::solve::{SolveQuery, SolveRequest, SolveResult};
use baroque::api::routes::verify::{VerifyQuery, VerifyRequest};
use baroque::api::routes::{analyze_checked, solve_query, verify_moves};
use baroque::api::Settings;
use baroque::solver::Cancel;
use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use std::sync::OnceLock;

/// The server's limits with a search budget small enough for a fuzz target.
fn limits() -> &'static Limits {
    static LIMITS: OnceLock<Limits> = OnceLock::new();
    LIMITS.get_or_init(|| {
        let mut limits = Limits::from(&Settings::default());
        limits.solve = SolveLimits {
            max_nodes: 2_000,
            max_millis: 20,
            max_tree_nodes: 50,
            table_mib: 0,
            threads: 1,
            ..limits.solve
        };
        limits
    })
}

/// A refusal must be a client error with words in it.
fn refused(e: ApiError) {
    let p = e.problem();
    assert!((400..500).contains(&p.status), "{} for {e}", p.status);
    assert!(!p.detail.is_empty());
}

fn body<T: DeserializeOwned>(json: &[u8]) -> Option<T> {
    serde_json::from_slice::<Object<T>>(json)
        .ok()
        .map(|Object(t)| t)
}

fuzz_target!(|data: &[u8]| {
    let Some((&op, json)) = data.split_first() else {
        return;
    };
    let limits = limits();
    match op % 5 {
        0 => {
            let Some(r) = body::<AnalyzeRequest>(json) else {
                return;
            };
            match AnalyzeQuery::try_from(r) {
                Ok(q) => drop(analyze_checked(&q.position, &Cancel::new())),
                Err(e) => refused(e),
            }
        }
        1 => {
            let Some(r) = body::<VerifyRequest>(json) else {
                return;
            };
            if r.moves.len() > limits.max_moves.min(64) {
                return;
            }
            match VerifyQuery::try_from(r) {
                Ok(q) => drop(verify_moves(&q)),
                Err(e) => refused(e),
            }
        }
        2 => {
            let Some(r) = body::<SolveRequest>(json) else {
                return;
            };
            match SolveQuery::parse(r, &limits.solve) {
                Ok(q) => {
                    let answer = solve_query(&q);
                    // The node count is checked every 1,024 nodes of each thread (one here).
                    assert!(
                        answer.nodes <= limits.solve.max_nodes + 4096,
                        "{}",
                        answer.nodes
                    );
                    // The clock in every phase: the budget plus the promised 200 ms (plus slack
                    // for an instrumented build).
                    assert!(answer.millis <= q.limits.millis + 1000, "{}", answer.millis);
                    assert_eq!(
                        answer.budget_exhausted,
                        answer.budget_exhausted_by.is_some(),
                        "{:?}",
                        answer.budget_exhausted_by
                    );
                    if answer.result == SolveResult::Unknown {
                        assert!(answer.budget_exhausted);
                    }
                }
                Err(e) => refused(e),
            }
        }
        3 => {
            let Some(r) = body::<PuzzleRequest>(json) else {
                return;
            };
            match r.into_new_puzzle() {
                Ok(new) => {
                    let few_moves = match &new.claim {
                        baroque::puzzle::Claim::Diagram(d) => d.moves.len() <= 64,
                        baroque::puzzle::Claim::Mate(_) => true,
                    };
                    if few_moves {
                        if let Err(e) = baroque::puzzle::verify(new, &limits.solve.options()) {
                            refused(ApiError::from(e));
                        }
                    }
                }
                Err(e) => refused(e),
            }
        }
        _ => {
            let Some(r) = body::<CollectionRequest>(json) else {
                return;
            };
            if let Err(e) = options(&r, limits) {
                refused(e);
            }
        }
    }
});
