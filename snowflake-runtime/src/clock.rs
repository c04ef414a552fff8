//! Where a [`Generator`](crate::Generator) reads the time: the [`Clock`] trait and the [`SystemClock`].

use core::time::Duration;
use std::sync::{Arc, OnceLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// A source of Unix time in milliseconds, for a [`Generator`](crate::Generator).
///
/// [`SystemClock`] is the one to use in services; tests implement their own
/// to step time back and forth:
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use snowflake_kit::{Clock, Generator, Identity};
///
/// struct Fixed(AtomicU64);
/// impl Clock for Fixed {
///     fn now_ms(&self) -> u64 {
///         self.0.load(Ordering::Relaxed)
///     }
/// }
///
/// let generator = Generator::new(Identity::new(1, 1)?).with_clock(Fixed(AtomicU64::new(1_288_834_975_657)));
/// assert_eq!(generator.next_id().as_u64(), 4_194_439_168);
/// assert_eq!(generator.next_id().as_u64(), 4_194_439_169);
/// # Ok::<(), snowflake_kit::FieldRangeError>(())
/// ```
pub trait Clock: Send + Sync {
    /// The current Unix time in milliseconds.
    ///
    /// ```
    /// use snowflake_kit::{Clock, SystemClock};
    ///
    /// let now = SystemClock.now_ms();
    /// assert!(now > snowflake_kit::layout::TWITTER_EPOCH_MS);
    /// ```
    fn now_ms(&self) -> u64;
}

impl<C: Clock + ?Sized> Clock for &C {
    fn now_ms(&self) -> u64 {
        (**self).now_ms()
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    fn now_ms(&self) -> u64 {
        (**self).now_ms()
    }
}

/// The wall clock, read once per process, then advanced by the monotonic clock.
///
/// Steps of the wall clock after the first reading (NTP corrections, a person
/// setting the time) cannot move IDs backwards, and every generator of the
/// process shares one timeline. The price: over days, the result drifts from
/// the wall clock as much as the monotonic clock does from NTP's time.
///
/// ```
/// use snowflake_kit::{Clock, SystemClock};
///
/// let a = SystemClock.now_ms();
/// let b = SystemClock.now_ms();
/// assert!(a <= b);
/// assert!(a > 1_700_000_000_000); // after 2023
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[inline]
    fn now_ms(&self) -> u64 {
        // (Unix ms of the first reading, the monotonic instant at which that millisecond began)
        static ANCHOR: OnceLock<(u64, Instant)> = OnceLock::new();
        let (wall_ms, start) = ANCHOR.get_or_init(|| {
            let wall = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default();
            let now = Instant::now();
            // Line the monotonic millisecond boundaries up with the wall clock's.
            let into_ms = Duration::from_nanos(u64::from(wall.subsec_nanos() % 1_000_000));
            let wall_ms = u64::try_from(wall.as_millis()).unwrap_or(u64::MAX);
            (wall_ms, now.checked_sub(into_ms).unwrap_or(now))
        });
        // Whole milliseconds in u64 arithmetic: cheaper than `Duration` sums and `u128`.
        // Plain sums: a process would need 584 million years of uptime to overflow them.
        let elapsed = start.elapsed();
        wall_ms + elapsed.as_secs() * 1000 + u64::from(elapsed.subsec_millis())
    }
}
