//! The lease model checked exhaustively (breadth first): the protocol as coded lets no
//! two holders issue in one millisecond, and single changes to it either break that,
//! with a counterexample, or show that the part they change does not carry it alone.
//!
//! Figures: `cargo test -p snowflake-lease-model -- --nocapture --test-threads 1`.

use std::time::Instant;

use snowflake_lease_model::{Bounds, INVARIANT, LeaseModel, Mutation};
use stateright::{Checker, HasDiscoveries, Model};

/// Explores every state of `bounds` and asserts the invariant and every coverage property,
/// and that at least `floor` states were seen (a model that collapses explores fewer).
fn holds(bounds: Bounds, mutation: Mutation, floor: usize) {
    let start = Instant::now();
    let checker = LeaseModel::new(bounds, mutation)
        .checker()
        .spawn_bfs()
        .join();
    println!(
        "{mutation:?}, {} holders x {} grants, TTL {}: {} states, depth {}, {:.1} s",
        bounds.holders,
        bounds.grants,
        bounds.ttl,
        checker.unique_state_count(),
        checker.max_depth(),
        start.elapsed().as_secs_f64()
    );
    assert!(checker.is_done(), "the check did not finish");
    checker.assert_properties();
    assert!(
        checker.unique_state_count() >= floor,
        "{} states, fewer than {floor}: has the model collapsed?",
        checker.unique_state_count()
    );
}

/// Explores `bounds` under `mutation` until the invariant fails, asserts that it does,
/// and prints the counterexample (a shortest one: breadth first).
fn breaks(bounds: Bounds, mutation: Mutation) {
    // No operator in these runs: the protocol's own steps and failures break it.
    let bounds = Bounds {
        revoke: false,
        ..bounds
    };
    let start = Instant::now();
    let checker = LeaseModel::new(bounds, mutation)
        .without_symmetry()
        .checker()
        .finish_when(HasDiscoveries::AnyFailures)
        .spawn_bfs()
        .join();
    let Some(path) = checker.discovery(INVARIANT) else {
        panic!(
            "{mutation:?}: no counterexample in {} states",
            checker.unique_state_count()
        );
    };
    let steps = path.into_vec();
    println!(
        "{mutation:?}: a counterexample of {} actions, after {} states, {:.1} s",
        steps.len() - 1,
        checker.unique_state_count(),
        start.elapsed().as_secs_f64()
    );
    for (state, action) in steps {
        println!("  {state}");
        if let Some(action) = action {
            println!("{action:?}");
        }
    }
}

#[test]
fn two_holders_reclaiming() {
    holds(Bounds::checked(2, 2), Mutation::None, 1_000_000);
}

#[test]
fn three_holders() {
    holds(Bounds::checked(3, 1), Mutation::None, 1_700_000);
}

/// The code's own durations (TTL 10 s, window 2 s, margin 1 s): some 90 s in a debug
/// build, so only on demand (`-- --ignored`).
#[test]
#[ignore = "about 90 s"]
fn two_holders_at_the_code_durations() {
    holds(Bounds::code_durations(2, 2), Mutation::None, 6_000_000);
}

#[test]
fn counting_a_timed_out_reservation_as_committed_duplicates() {
    breaks(Bounds::checked(2, 1), Mutation::TimeoutAsCommitted);
}

#[test]
fn reserving_without_the_mark_compare_duplicates() {
    breaks(Bounds::checked(2, 1), Mutation::ReserveWithoutMarkCheck);
}

#[test]
fn issuing_at_or_below_the_claimed_mark_duplicates() {
    breaks(Bounds::checked(2, 1), Mutation::NoFloor);
}

/// Every ID is at most a committed mark, and the next holder starts above the mark it
/// read when it became the owner, which is at least every mark committed before: the
/// deadline is a second fence, not the one uniqueness rests on.
#[test]
fn ignoring_the_deadline_alone_duplicates_nothing() {
    holds(Bounds::checked(2, 2), Mutation::IgnoreDeadline, 800_000);
}

/// The mark's compare alone serializes reservations: of two that expect one mark, one
/// commits.
#[test]
fn reserving_without_the_lease_compare_alone_duplicates_nothing() {
    holds(
        Bounds::checked(2, 1),
        Mutation::ReserveWithoutLeaseCheck,
        80_000,
    );
}

/// While a lease is on the owner key only its holder's reservations move the mark, so a
/// mark found moved then is one it asked for.
#[test]
fn adopting_any_moved_mark_alone_duplicates_nothing() {
    holds(Bounds::checked(2, 1), Mutation::AdoptAnyMovedMark, 55_000);
}
