//! What the workspace's tests and benchmarks share, written once: the test time [`T`],
//! test clocks ([`clock`]), [`free_port`], and real services on loopback, each with its
//! own data directory and ports, waited for and stopped when dropped: [`Postgres`], and
//! [`Etcd`] (feature `etcd`). Not published: no crate's API depends on it.
//!
//! A test that needs a service is marked `#[ignore = "needs ..."]`, and the test command
//! (`bash scripts/test.sh`) runs it with `--include-ignored`: run, it fails without the
//! service, saying what to install; it never passes for having skipped.

mod certificates;
pub mod clock;
#[cfg(feature = "etcd")]
mod etcd;
mod postgres;

#[cfg(feature = "etcd")]
pub use crate::etcd::{Etcd, LeaderWatch};
pub use crate::postgres::Postgres;

/// A lease store's server that a test runs, [`Etcd`] or [`Postgres`], in the same words
/// for both: what the lease's store suite asks of either beyond its own record.
pub trait StoreServer: Sized {
    /// One, empty, on loopback.
    fn start() -> Self;

    /// One, empty, listening on `host` (a test host's address) besides loopback.
    fn start_on(host: &str) -> Self;

    /// What a client at `host` connects to: an etcd endpoint, a PostgreSQL URL.
    fn url_on(&self, host: &str) -> String;

    /// Stopped as a crash: every connection cut, the data kept.
    fn crash(&mut self);

    /// Started again, with all it had.
    fn recover(&mut self);
}

/// 2022-06-28T16:07:40.105Z as Unix milliseconds: the time the tests' hand-driven clocks
/// stand at, a time with nothing special about it (not a second's start, no leap second).
///
/// ```
/// let id = snowflake_runtime::compose(snowflake_test_support::T, 1, 1, 0).unwrap();
/// assert_eq!(id.timestamp_ms(), snowflake_test_support::T);
/// ```
pub const T: u64 = 1_656_432_460_105;

/// A port on 127.0.0.1 that was free a moment ago.
///
/// ```
/// let port = snowflake_test_support::free_port();
/// assert!(std::net::TcpListener::bind(("127.0.0.1", port)).is_ok());
/// ```
///
/// # Panics
///
/// When no port on loopback can be bound.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port on loopback")
}
