//! What the model's test targets share: a whole check of one set of bounds.

use std::time::Instant;

use snowflake_lease_model::{Bounds, LeaseModel, Mutation};
use stateright::{Checker, Expectation, Model};

/// Explores every state of `bounds`, asserts that none breaks the named `invariants`, that
/// every coverage property happens, and that at least `floor` states were seen (a model
/// that collapses explores fewer).
pub(crate) fn holds(bounds: Bounds, mutation: Mutation, floor: usize, invariants: &[&'static str]) {
    let start = Instant::now();
    let model = LeaseModel::new(bounds, mutation);
    let properties: Vec<_> = model
        .properties()
        .iter()
        .map(|property| (property.expectation.clone(), property.name))
        .collect();
    let checker = model.checker().spawn_bfs().join();
    println!(
        "{mutation:?}, {} holders x {} grants, TTL {}, margin {}: {} states, depth {}, {:.1} s",
        bounds.holders,
        bounds.grants,
        bounds.ttl,
        bounds.margin,
        checker.unique_state_count(),
        checker.max_depth(),
        start.elapsed().as_secs_f64()
    );
    assert!(checker.is_done(), "the check did not finish");
    for name in invariants {
        assert!(
            properties.contains(&(Expectation::Always, name)),
            "no invariant named {name:?}"
        );
    }
    for (expectation, name) in properties {
        let found = checker.discovery(name);
        match expectation {
            Expectation::Always if invariants.contains(&name) => {
                if let Some(path) = found {
                    panic!("{name}: counterexample\n{path}");
                }
            }
            Expectation::Always => {}
            _ => assert!(found.is_some(), "{name}: never happened"),
        }
    }
    assert!(
        checker.unique_state_count() >= floor,
        "{} states, fewer than {floor}: has the model collapsed?",
        checker.unique_state_count()
    );
}
