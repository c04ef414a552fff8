//! The lease model checked exhaustively (breadth first): the protocol as coded lets no
//! two holders issue in one millisecond, and single changes to it either break that,
//! with a counterexample, or show that the part they change does not carry it alone.
//!
//! Figures: `cargo test -p snowflake-lease-model -- --nocapture --test-threads 1`. The
//! code's own durations, some 70 s more, are checked by `tests/code_durations.rs`, on
//! demand only.

mod check;

use std::time::Instant;

use check::holds;
use snowflake_lease_model::{Bounds, INVARIANT, LAPSED, LeaseModel, Mutation};
use stateright::{Checker, HasDiscoveries, Model};

/// Explores `bounds` under `mutation` until `invariant` fails, asserts that it does, and
/// prints a shortest counterexample.
///
/// Breadth first alone does not give the shortest: stateright keeps the last failure it
/// records, and failures are sticky (a run that duplicated stays so), so the states below
/// the first one fail too. So the search deepens one action at a time, until the first
/// depth with a failure, or until a depth adds no state (nothing fails anywhere).
fn breaks(bounds: Bounds, mutation: Mutation, invariant: &'static str) {
    // No operator in these runs: the protocol's own steps and failures break it.
    let bounds = Bounds {
        revoke: false,
        ..bounds
    };
    let start = Instant::now();
    let mut seen = 0;
    // The initial state is at depth 1, and a checker with a target depth `d` looks at
    // states of depth below `d`: paths of up to `d - 2` actions.
    for depth in 2.. {
        let checker = LeaseModel::new(bounds, mutation)
            .without_symmetry()
            .checker()
            .target_max_depth(depth)
            .finish_when(HasDiscoveries::AnyFailures)
            .spawn_bfs()
            .join();
        if let Some(path) = checker.discovery(invariant) {
            let steps = path.into_vec();
            assert_eq!(steps.len(), depth - 1, "not the shallowest failure");
            println!(
                "{mutation:?}, margin {}: {invariant:?} broken in {} actions, in {} states, \
                 {:.1} s",
                bounds.margin,
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
            return;
        }
        assert!(
            checker.unique_state_count() > seen,
            "{mutation:?}: no counterexample to {invariant:?} in all {seen} states"
        );
        seen = checker.unique_state_count();
    }
}

/// Both invariants, with reclaims.
#[test]
fn two_holders_reclaiming() {
    holds(
        Bounds::checked(2, 2),
        Mutation::None,
        1_000_000,
        &[INVARIANT, LAPSED],
    );
}

/// On PostgreSQL (`PgStore`): a claim takes over a run-out lease in its own transaction, a
/// reservation with a run-out lease is refused. Both invariants, with reclaims.
#[test]
fn two_holders_reclaiming_on_postgres() {
    holds(
        Bounds::checked(2, 2).on_postgres(0),
        Mutation::None,
        1_000_000,
        &[INVARIANT, LAPSED],
    );
}

/// The database's clock set forward: leases end before their holders' deadlines count, so
/// a holder can issue past its lease's end at the database (`LAPSED`), as a margin under
/// twice the skew does...
#[test]
fn a_database_clock_stepping_ahead_ends_a_lease_before_its_holder_stops() {
    breaks(Bounds::checked(2, 1).on_postgres(1), Mutation::None, LAPSED);
}

/// ...but never in a millisecond another holder issues in: the marks fence the IDs. (Two
/// steps, each a tick: twice the margin's share of the skew. Checked once beyond the tests:
/// 2 x 2 with one step, 5,872,540 states; with two, 13,588,580.)
#[test]
fn a_database_clock_stepping_ahead_duplicates_nothing() {
    holds(
        Bounds::checked(2, 1).on_postgres(2),
        Mutation::None,
        500_000,
        &[INVARIANT],
    );
}

#[test]
fn three_holders() {
    holds(
        Bounds::checked(3, 1),
        Mutation::None,
        2_000_000,
        &[INVARIANT, LAPSED],
    );
}

#[test]
fn counting_a_timed_out_reservation_as_committed_duplicates() {
    breaks(
        Bounds::checked(2, 1),
        Mutation::TimeoutAsCommitted,
        INVARIANT,
    );
}

#[test]
fn reserving_without_the_mark_compare_duplicates() {
    breaks(
        Bounds::checked(2, 1),
        Mutation::ReserveWithoutMarkCheck,
        INVARIANT,
    );
}

#[test]
fn issuing_at_or_below_the_claimed_mark_duplicates() {
    breaks(Bounds::checked(2, 1), Mutation::NoFloor, INVARIANT);
}

/// A holder cut off from the store goes on issuing up to its committed mark, past the
/// lease's end at the store, when its ceiling ignores the local deadline.
#[test]
fn a_holder_ignoring_its_deadline_issues_past_its_lease() {
    breaks(Bounds::checked(2, 1), Mutation::IgnoreDeadline, LAPSED);
}

/// The ceiling takes the deadline to the holder's clock when it is published: a clock
/// that then falls behind by `2 * skew` issues that long past the local deadline, so a
/// margin under twice the skew lets a holder issue past its lease's end. The bound on
/// clocks that `LAPSED` needs, found by the checker; uniqueness does not need it.
#[test]
fn a_margin_under_twice_the_skew_lets_a_slowing_clock_issue_past_the_lease() {
    let bounds = Bounds {
        margin: 1,
        ..Bounds::checked(2, 1)
    };
    breaks(bounds, Mutation::None, LAPSED);
}

/// Uniqueness with a margin under twice the skew (the code's own ratio is a tenth).
#[test]
fn a_margin_under_twice_the_skew_duplicates_nothing() {
    holds(
        Bounds {
            margin: 1,
            ..Bounds::checked(2, 2)
        },
        Mutation::None,
        1_500_000,
        &[INVARIANT],
    );
}

/// Every ID is at most a committed mark, and the next holder starts above the mark it
/// read when it became the owner, which is at least every mark committed before: the
/// deadline is a second fence, not the one uniqueness rests on.
#[test]
fn ignoring_the_deadline_alone_duplicates_nothing() {
    holds(
        Bounds::checked(2, 2),
        Mutation::IgnoreDeadline,
        800_000,
        &[INVARIANT],
    );
}

/// The mark's compare alone serializes reservations: of two that expect one mark, one
/// commits.
#[test]
fn reserving_without_the_lease_compare_alone_duplicates_nothing() {
    holds(
        Bounds::checked(2, 1),
        Mutation::ReserveWithoutLeaseCheck,
        80_000,
        &[INVARIANT, LAPSED],
    );
}

/// While a lease is on the owner key only its holder's reservations move the mark, so a
/// mark found moved then is one it asked for.
#[test]
fn adopting_any_moved_mark_alone_duplicates_nothing() {
    holds(
        Bounds::checked(2, 1),
        Mutation::AdoptAnyMovedMark,
        55_000,
        &[INVARIANT, LAPSED],
    );
}
