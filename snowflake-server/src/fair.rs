//! Fair issuing. An ID to be had now is taken at once; a request that must wait for the
//! clock (its millisecond used up) waits on a timer, never on a thread, and in a queue:
//! first come, first served, one turn at a time. Without the queue, requests for 4,096 IDs
//! take every new millisecond the moment it begins, and a request for one ID waits behind
//! all of them, for as long as they keep coming.
//!
//! Requests for one ID have a lane of their own, served first in each millisecond: the
//! batch whose turn it is lets them take their ID before it takes the rest. One ID costs a
//! batch a 4,096th of a millisecond, where a turn behind the batches cost the one ID a
//! millisecond for each batch queued before it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use snowflake_kit::{Clock, GenerateError};
use tokio::sync::Mutex;

use crate::issuer::Unavailable;

/// How long a turn yields for the next millisecond before it falls back to the timer; and
/// how long a batch lets single IDs go first, at most, before it takes its own.
const SPIN: Duration = Duration::from_millis(2);

/// The queue of requests that wait for the clock.
#[derive(Default)]
pub(crate) struct Queue {
    /// Held by the batch whose turn it is: tokio's mutex serves in arrival order.
    turn: Mutex<()>,
    /// How many batches wait: while any do, newcomers queue too, rather than take the
    /// millisecond the first in line waits for.
    waiting: AtomicUsize,
    /// Held by the single ID whose turn it is, in the lane served first.
    single_turn: Mutex<()>,
    /// How many single IDs wait: while any do, the batch whose turn it is takes nothing.
    singles_waiting: AtomicUsize,
}

/// Counts a request in the queue while it lives.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Queue {
    /// How many batches wait.
    #[cfg(test)]
    pub(crate) fn batches_waiting(&self) -> usize {
        self.waiting.load(Ordering::Acquire)
    }

    /// One ID through `take`, in the lane served first; as [`Queue::issue`] otherwise.
    pub(crate) async fn issue_one<T>(
        &self,
        take: impl FnMut() -> Result<T, GenerateError>,
        check_wait: impl Fn(u64, u64, Duration) -> Result<(), GenerateError>,
        clock: &impl Clock,
    ) -> Result<T, Unavailable> {
        let lane = Lane {
            turn: &self.single_turn,
            waiting: &self.singles_waiting,
            yields_to: None,
        };
        lane.issue(take, check_wait, clock).await
    }

    /// `take` until it is done: it issues what it can at once and says
    /// [`GenerateError::WouldWait`] for the rest. Whether the clock has stalled meanwhile
    /// is the generator's to say (`check_wait`), which says so only of a clock that did
    /// not reach the millisecond, never of a wait behind other requests.
    pub(crate) async fn issue<T>(
        &self,
        take: impl FnMut() -> Result<T, GenerateError>,
        check_wait: impl Fn(u64, u64, Duration) -> Result<(), GenerateError>,
        clock: &impl Clock,
    ) -> Result<T, Unavailable> {
        let lane = Lane {
            turn: &self.turn,
            waiting: &self.waiting,
            yields_to: Some(&self.singles_waiting),
        };
        lane.issue(take, check_wait, clock).await
    }
}

/// One of the queue's lanes.
struct Lane<'a> {
    turn: &'a Mutex<()>,
    waiting: &'a AtomicUsize,
    /// The waiting count of the lane served first, if this is not it.
    yields_to: Option<&'a AtomicUsize>,
}

impl Lane<'_> {
    async fn issue<T>(
        &self,
        mut take: impl FnMut() -> Result<T, GenerateError>,
        check_wait: impl Fn(u64, u64, Duration) -> Result<(), GenerateError>,
        clock: &impl Clock,
    ) -> Result<T, Unavailable> {
        let first = |waiting: &AtomicUsize| waiting.load(Ordering::Acquire) == 0;
        if first(self.waiting) && self.yields_to.is_none_or(first) {
            match take() {
                Err(GenerateError::WouldWait { .. }) => {}
                other => return Ok(other?),
            }
        }
        self.waiting.fetch_add(1, Ordering::AcqRel);
        let _waiting = Waiting(self.waiting);
        let _turn = self.turn.lock().await;
        // Timed from the first wait on the clock in this turn, not from the queue.
        let mut started = None;
        let mut spin = None;
        // Since when this turn has let single IDs go first: at most `SPIN` in a row, so
        // that a stream of them cannot hold a batch off for ever.
        let mut yielding = None;
        loop {
            if let Some(singles) = self.yields_to
                && !first(singles)
                && yielding
                    .get_or_insert_with(std::time::Instant::now)
                    .elapsed()
                    < SPIN
            {
                tokio::task::yield_now().await;
                continue;
            }
            yielding = None;
            let until_ms = match take() {
                Err(GenerateError::WouldWait { until_ms }) => until_ms,
                other => return Ok(other?),
            };
            let now_ms = clock.now_ms();
            let (started, from_ms) =
                *started.get_or_insert_with(|| (tokio::time::Instant::now(), now_ms));
            check_wait(from_ms, until_ms, started.elapsed())?;
            // tokio's timer fires on its own millisecond ticks, up to one late: a turn
            // that slept for the next millisecond would lose half of the milliseconds to
            // that. Within the last millisecond the turn yields instead, letting the
            // worker's other tasks run between its looks at the clock.
            // A clock that does not come (stalled, or a test's) gets the timer after two
            // milliseconds of real time.
            let spinning = spin.get_or_insert_with(std::time::Instant::now);
            match until_ms.saturating_sub(now_ms) {
                0 | 1 if spinning.elapsed() < SPIN => tokio::task::yield_now().await,
                wait_ms => {
                    spin = None;
                    tokio::time::sleep(Duration::from_millis(wait_ms.saturating_sub(1).max(1)))
                        .await;
                }
            }
        }
    }
}
