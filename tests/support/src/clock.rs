//! The wall clock ([`wall_ms`]), and clocks the tests drive by hand, for the generators
//! that take any [`Clock`]: one that stands still, one that moves when told, one whose every
//! reading is scripted, and one on tokio's time (feature `tokio`).

use std::sync::Arc;
#[cfg(feature = "tokio")]
use std::sync::atomic::AtomicI64;
use std::sync::atomic::{AtomicU64, Ordering};

use snowflake_runtime::Clock;

/// The wall clock now, in Unix milliseconds: what a test compares the IDs of a real clock
/// with.
///
/// ```
/// assert!(snowflake_test_support::clock::wall_ms() > snowflake_test_support::T);
/// ```
///
/// # Panics
///
/// When the wall clock stands before 1970.
pub fn wall_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a wall clock after 1970");
    u64::try_from(since.as_millis()).expect("a time in the format's range")
}

/// A clock stopped at a Unix millisecond.
///
/// ```
/// use snowflake_runtime::Clock;
/// use snowflake_test_support::clock::StoppedClock;
///
/// assert_eq!(StoppedClock(1_000).now_ms(), 1_000);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct StoppedClock(pub u64);

impl Clock for StoppedClock {
    fn now_ms(&self) -> u64 {
        self.0
    }
}

/// A clock that moves only when told to, shared between a generator and the test that
/// moves it.
///
/// ```
/// use snowflake_runtime::Clock;
/// use snowflake_test_support::{T, clock::ManualClock};
///
/// let clock = ManualClock::at(T);
/// clock.advance(5);
/// assert_eq!(clock.now_ms(), T + 5);
/// clock.set(T - 1);
/// assert_eq!(clock.now_ms(), T - 1);
/// ```
#[derive(Debug)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    /// One standing at `ms`.
    pub fn at(ms: u64) -> Arc<ManualClock> {
        Arc::new(ManualClock(AtomicU64::new(ms)))
    }

    /// Puts it at `ms`, ahead or back.
    pub fn set(&self, ms: u64) {
        self.0.store(ms, Ordering::SeqCst);
    }

    /// Moves it `ms` ahead.
    pub fn advance(&self, ms: u64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// A clock whose n-th reading (from 0) is `script(n)`: a clock that steps, stalls or
/// goes back at a chosen reading.
///
/// ```
/// use snowflake_runtime::Clock;
/// use snowflake_test_support::{T, clock::ScriptClock};
///
/// // A millisecond every 100 readings.
/// let clock = ScriptClock::new(|n| T + n / 100);
/// assert_eq!(clock.now_ms(), T);
/// assert_eq!((1..100).map(|_| clock.now_ms()).max(), Some(T));
/// assert_eq!(clock.now_ms(), T + 1);
/// assert_eq!(clock.reads(), 101);
/// ```
#[derive(Debug)]
pub struct ScriptClock<F> {
    reads: AtomicU64,
    script: F,
}

impl<F: Fn(u64) -> u64 + Send + Sync> ScriptClock<F> {
    /// One at its first reading.
    pub fn new(script: F) -> ScriptClock<F> {
        ScriptClock {
            reads: AtomicU64::new(0),
            script,
        }
    }

    /// How many times it has been read.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::SeqCst)
    }
}

impl<F: Fn(u64) -> u64 + Send + Sync> Clock for ScriptClock<F> {
    fn now_ms(&self) -> u64 {
        (self.script)(self.reads.fetch_add(1, Ordering::SeqCst))
    }
}

/// [`T`](crate::T) when made, then tokio's time, plus a step the test may set: on tokio's
/// paused clock (`start_paused`, `tokio::time::advance`), a clock that moves only as the
/// test says, and with every timer of the code under test.
///
/// ```
/// use snowflake_runtime::Clock;
/// use snowflake_test_support::{T, clock::TokioClock};
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build().unwrap().block_on(async {
/// let clock = TokioClock::new();
/// tokio::time::advance(std::time::Duration::from_millis(7)).await;
/// assert_eq!(clock.now_ms(), T + 7);
/// clock.step(-5);
/// assert_eq!(clock.now_ms(), T + 2);
/// # });
/// ```
#[cfg(feature = "tokio")]
#[derive(Clone, Debug)]
pub struct TokioClock {
    start: tokio::time::Instant,
    step_ms: Arc<AtomicI64>,
}

#[cfg(feature = "tokio")]
impl TokioClock {
    /// One at `T` now, with no step.
    pub fn new() -> TokioClock {
        TokioClock {
            start: tokio::time::Instant::now(),
            step_ms: Arc::new(AtomicI64::new(0)),
        }
    }

    /// Sets the step: the clock reads `ms` more (or less) than `T` plus tokio's time since
    /// it was made.
    pub fn step(&self, ms: i64) {
        self.step_ms.store(ms, Ordering::SeqCst);
    }
}

#[cfg(feature = "tokio")]
impl Default for TokioClock {
    fn default() -> TokioClock {
        TokioClock::new()
    }
}

#[cfg(feature = "tokio")]
impl Clock for TokioClock {
    fn now_ms(&self) -> u64 {
        let elapsed = u64::try_from(self.start.elapsed().as_millis()).expect("a short test");
        crate::T
            .checked_add_signed(self.step_ms.load(Ordering::SeqCst))
            .expect("a step within the format")
            + elapsed
    }
}
