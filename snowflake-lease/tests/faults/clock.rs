//! Each holder's clock: tokio's paused time, plus a skew the chaos moves. The skews are
//! remembered, so that the deadline check can allow for a clock set back since its holder
//! last published a ceiling.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use snowflake_kit::Clock;
/// Unix ms when a run starts.
pub(crate) use snowflake_test_support::T;
use tokio::time::Instant;

#[derive(Clone)]
pub(crate) struct SkewedClock {
    start: Instant,
    skew_ms: Arc<AtomicI64>,
    /// Every skew set, and since when.
    history: Arc<Mutex<Vec<(Instant, i64)>>>,
}

impl SkewedClock {
    pub(crate) fn new(skew_ms: i64) -> SkewedClock {
        let start = Instant::now();
        SkewedClock {
            start,
            skew_ms: Arc::new(AtomicI64::new(skew_ms)),
            history: Arc::new(Mutex::new(vec![(start, skew_ms)])),
        }
    }

    pub(crate) fn skew_ms(&self) -> i64 {
        self.skew_ms.load(Ordering::SeqCst)
    }

    /// Steps the clock to `skew_ms` off tokio's time: ahead, or back.
    pub(crate) fn set_skew_ms(&self, skew_ms: i64) {
        self.skew_ms.store(skew_ms, Ordering::SeqCst);
        let mut history = self.history.lock().unwrap_or_else(PoisonError::into_inner);
        history.push((Instant::now(), skew_ms));
    }

    /// What the clock reads at `at`, in the future or the past, with the highest skew
    /// it had over the last `span`: a ceiling published then at a lease's end, as the
    /// clock read it, is at most this.
    pub(crate) fn reading_at(&self, at: Instant, span: Duration) -> u64 {
        let since = Instant::now().checked_sub(span).unwrap_or(self.start);
        let mut history = self.history.lock().unwrap_or_else(PoisonError::into_inner);
        // Skews that ended before `since` count for nothing: forget all but the last.
        let ended = history.iter().take_while(|(at, _)| *at <= since).count();
        if ended > 1 {
            history.drain(..ended - 1);
        }
        let highest = history.iter().map(|(_, skew)| *skew).max();
        let elapsed = at.saturating_duration_since(self.start).as_millis();
        (T + u64::try_from(elapsed).expect("a short run"))
            .checked_add_signed(highest.unwrap_or_else(|| self.skew_ms()))
            .expect("skews are seconds, not years")
    }
}

impl Clock for SkewedClock {
    fn now_ms(&self) -> u64 {
        let elapsed = u64::try_from(self.start.elapsed().as_millis()).expect("a short run");
        (T + elapsed)
            .checked_add_signed(self.skew_ms())
            .expect("skews are seconds, not years")
    }
}
