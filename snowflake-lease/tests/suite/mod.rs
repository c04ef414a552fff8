//! The store suite: each scenario of the leased generator on a store written once, generic
//! over the store's [`Fixture`], and stamped into a store's test file by one
//! [`store_suite!`], a `#[test]` per scenario named as the scenario. Scenarios that kill,
//! stop or cut off a holder in a process of its own need a store such a process reaches
//! ([`Processes`]); the others run on any store, the in-memory one too.
#![allow(
    dead_code,
    reason = "the in-memory store runs only the scenarios of one process"
)]

use std::collections::HashSet;
use std::time::Duration;

use snowflake_kit::{Clock, Snowflake, SystemClock};
use snowflake_lease::{Identity, LeaseOptions, Store};
use snowflake_test_support::StoreServer;

pub(crate) mod one_process;
pub(crate) mod processes;

/// A store's life in a scenario: started, taken out of its holders' reach, brought back.
/// A server the test runs has it from [`StoreServer`]; the in-memory store, its own.
pub(crate) trait Lifecycle: Sized {
    /// Starts one, empty.
    fn fresh() -> Self;

    /// Takes the store out of its holders' reach: a server crashes, cutting every
    /// connection, and keeps its data.
    fn take_down(&mut self);

    /// Brings it back, with all it had.
    fn bring_back(&mut self);
}

impl<S: StoreServer> Lifecycle for S {
    fn fresh() -> S {
        S::start()
    }

    fn take_down(&mut self) {
        self.crash();
    }

    fn bring_back(&mut self) {
        self.recover();
    }
}

/// A store of the test's own, started for one scenario: what the suite asks of it.
pub(crate) trait Fixture: Lifecycle {
    /// What a holder is given.
    type Store: Store + Clone;

    /// A store for a new holder, connected as the holder's own would be.
    async fn store(&self, options: &LeaseOptions) -> Self::Store;

    /// How many identities have an owner on a live lease, read from the store's own record
    /// (not through [`Store`], whose answers are what the scenarios check).
    async fn owners(&self) -> usize;

    /// The high-water mark of `identity` in the store's own record (0 where none was
    /// written), read as [`owners`](Fixture::owners) is, where `options` put it.
    async fn mark(&self, identity: Identity, options: &LeaseOptions) -> u64;

    /// Ends the lease `identity` is held on behind its holder's back, as another client or
    /// a person would.
    async fn end_lease(&self, identity: Identity, options: &LeaseOptions);
}

/// A store that holders in other processes reach (`snowflake-lease-holder`), at the
/// address [`StoreServer::url_on`] gives: the scenarios that kill, stop and cut off a
/// holder process. A store in the test's own memory has none.
pub(crate) trait Processes: Fixture + StoreServer {}

impl<S: Fixture + StoreServer> Processes for S {}

/// Holding `dc`/`machine` exactly, with a TTL of `ttl_secs` and a window of 1 s.
pub(crate) fn options(dc: u64, machine: u64, ttl_secs: u64) -> LeaseOptions {
    let mut options = LeaseOptions::default().exact(Identity::new(dc, machine).unwrap());
    options.ttl = Duration::from_secs(ttl_secs);
    options.window = Duration::from_secs(1);
    options
}

/// The millisecond of each ID.
pub(crate) fn millis(ids: &[u64]) -> HashSet<u64> {
    ids.iter()
        .map(|&id| Snowflake::try_from_u64(id).unwrap().timestamp_ms())
        .collect()
}

/// The system clock moved by a fixed offset: a host whose clock is off.
#[derive(Clone)]
pub(crate) struct Offset(pub(crate) i64);

impl Clock for Offset {
    fn now_ms(&self) -> u64 {
        SystemClock.now_ms().checked_add_signed(self.0).unwrap()
    }
}

/// The suite on the store whose fixture is `$fixture`, a `#[test]` per scenario:
///
/// - `store_suite!(F)`: a store in this process, the scenarios of one process;
/// - `store_suite!(F, needs: "...", partition needs: "...")`: a store holder processes
///   reach ([`Processes`]), every scenario, each `#[ignore]`d for the service it needs
///   (the partition also for root and iproute2), which the test command's
///   `--include-ignored` runs.
macro_rules! store_suite {
    ($fixture:ty) => {
        $crate::suite::store_suite!(@one_process $fixture, []);
    };
    ($fixture:ty, needs: $needs:literal, partition needs: $partition:literal) => {
        $crate::suite::store_suite!(@one_process $fixture, [#[ignore = $needs]]);
        $crate::suite::store_suite!(@tests $fixture, processes, [#[ignore = $needs]], [
            a_killed_holder_frees_its_identity_within_the_ttl,
            a_paused_holder_issues_nothing_its_successor_can_issue,
        ]);
        $crate::suite::store_suite!(@tests $fixture, processes, [#[ignore = $partition]], [
            a_partitioned_holder_stops_and_comes_back_above_its_successor,
        ]);
    };
    (@one_process $fixture:ty, $attrs:tt) => {
        $crate::suite::store_suite!(@tests $fixture, one_process, $attrs, [
            each_call_answers_as_the_holder_relies_on,
            claims_are_exclusive,
            a_lease_revoked_behind_its_back_halts_the_holder_at_once,
            a_store_down_stops_issuing_by_the_lease_then_it_claims_again_above_the_mark,
            after_a_release_the_next_holder_claims_at_once_above_the_hwm,
            a_claim_on_a_lease_gone_is_that_kind_of_error,
            a_clock_behind_waits_within_the_bound_and_fails_beyond_it,
            a_datacenter_of_32_machines_then_a_33rd,
        ]);
    };
    (@tests $fixture:ty, $module:ident, $attrs:tt, [$($scenario:ident),* $(,)?]) => {
        $($crate::suite::store_suite!(@test $fixture, $module, $attrs, $scenario);)*
    };
    (@test $fixture:ty, $module:ident, [$(#[$attr:meta])*], $scenario:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        $(#[$attr])*
        async fn $scenario() {
            $crate::suite::$module::$scenario::<$fixture>().await;
        }
    };
}

pub(crate) use store_suite;
