//! The `PostgreSQL` the database tests share: the workspace's test support's (its own
//! `initdb` data directory, a free port, run as the `postgres` user when we are root, stopped
//! when dropped, also when a test panics), one per process while any test holds it.

use std::sync::{Arc, Mutex, PoisonError, Weak};

pub(crate) use snowflake_test_support::Postgres as Pg;

/// The server the tests of this process share while any of them holds it.
static SHARED: Mutex<Weak<Pg>> = Mutex::new(Weak::new());

/// The server of this process, started if none runs; it stops when the last test holding
/// it lets go.
///
/// A test that needs it is marked `#[ignore = "needs PostgreSQL: ..."]` and run by the test
/// command with `--include-ignored`; run, it fails without `PostgreSQL`, saying what to
/// install.
pub(crate) fn shared() -> Arc<Pg> {
    let mut shared = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(pg) = shared.upgrade() {
        return pg;
    }
    let pg = Arc::new(Pg::start());
    *shared = Arc::downgrade(&pg);
    pg
}
