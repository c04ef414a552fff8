//! Where a [`Generator`](crate::Generator) reads the time: the [`Clock`] trait and the
//! [`SystemClock`], which follows the wall clock forward and never back.

use core::sync::atomic::{AtomicU64, Ordering};
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

    /// How long until this clock reads `ms`, if it can tell to less than a millisecond:
    /// zero once it does. The async waits ([`Generator::next_id_async`] and
    /// [`Generator::fill_async`], with the `tokio` feature) sleep until just then. The
    /// default, `None`, says the clock cannot tell, and they look again each millisecond on
    /// tokio's timer instead, which fires up to a millisecond late: right for a test's
    /// clock, which moves when the test says, but a millisecond lost each time for a clock
    /// that keeps time. [`SystemClock`] tells.
    ///
    /// ```
    /// use std::time::Duration;
    /// use snowflake_kit::{Clock, SystemClock};
    ///
    /// let now = SystemClock.now_ms();
    /// assert_eq!(SystemClock.time_until_ms(now), Some(Duration::ZERO));
    /// let left = SystemClock.time_until_ms(now + 10).expect("the system's clock tells");
    /// assert!(left <= Duration::from_millis(10));
    /// ```
    ///
    /// [`Generator::next_id_async`]: crate::Generator::next_id_async
    /// [`Generator::fill_async`]: crate::Generator::fill_async
    fn time_until_ms(&self, ms: u64) -> Option<Duration> {
        let _ = ms;
        None
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    fn now_ms(&self) -> u64 {
        (**self).now_ms()
    }

    fn time_until_ms(&self, ms: u64) -> Option<Duration> {
        (**self).time_until_ms(ms)
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    fn now_ms(&self) -> u64 {
        (**self).now_ms()
    }

    fn time_until_ms(&self, ms: u64) -> Option<Duration> {
        (**self).time_until_ms(ms)
    }
}

/// The wall clock, followed forward and never back: the monotonic clock's reading,
/// shifted to the wall clock's time.
///
/// - **Forward**: the wall clock is looked at once in each millisecond of the monotonic
///   clock, and when it reads ahead, the shift moves up to it. After a suspend (which the
///   monotonic clock does not count on Linux), a paused VM, or a clock set late (a
///   container started before NTP answered), the time is the wall clock's again within a
///   millisecond of the process running on.
/// - **Back**: a wall clock stepped back is not followed: the time goes on from where it
///   was at the monotonic clock's pace, with no error and no wait, until the wall clock
///   reads ahead of it again.
///
/// Every generator of the process shares one timeline. Where the monotonic clock runs
/// fast against the wall clock (not on Linux, where NTP disciplines both alike), the time
/// keeps the lead it gains, since it never goes back.
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
        // The timeline's millisecond, computed once a millisecond per thread: a reading
        // within it costs the monotonic clock, two comparisons of instants and one load,
        // where turning an instant into a number alone costs more than the rest of an ID.
        let now = Instant::now();
        let cached = THIS_MILLISECOND.get();
        match cached {
            Some(cached) if now < cached.until && cached.shift_ns == TIMELINE.shift_ns() => {
                cached.ms
            }
            _ => {
                let (ms, left, shift_ns) = TIMELINE.reading(&Host(now));
                THIS_MILLISECOND.set(Some(Cached {
                    ms,
                    until: now + left,
                    shift_ns,
                }));
                ms
            }
        }
    }

    fn time_until_ms(&self, ms: u64) -> Option<Duration> {
        let (now_ms, left, _) = TIMELINE.reading(&Host(Instant::now()));
        Some(match ms.checked_sub(now_ms) {
            None | Some(0) => Duration::ZERO,
            // The rest of this millisecond, then the whole ones between.
            Some(ahead) => left + Duration::from_millis(ahead - 1),
        })
    }
}

/// The one timeline of the process.
static TIMELINE: Timeline = Timeline::new();

std::thread_local! {
    /// The millisecond this thread last read, until when it lasts, and the shift it was
    /// read with: a raised shift (the wall clock jumped ahead) voids it at once.
    static THIS_MILLISECOND: core::cell::Cell<Option<Cached>> = const { core::cell::Cell::new(None) };
}

#[derive(Clone, Copy)]
struct Cached {
    ms: u64,
    until: Instant,
    shift_ns: u64,
}

/// Nanoseconds in a millisecond.
const MS: u64 = 1_000_000;

/// What [`Timeline`] reads: the monotonic clock, and the wall clock. The host's in
/// [`SystemClock`]; a test's own in the unit tests below.
trait Readings {
    /// The monotonic clock, in ns from some start of its own.
    fn monotonic_ns(&self) -> u64;
    /// The wall clock (ns since 1970, 0 before it), then the monotonic clock read right
    /// after it: the wall clock first, so that the gap between the two readings can only
    /// make the wall clock seem behind, never ahead.
    fn wall_then_monotonic_ns(&self) -> (u64, u64);
}

/// The host's clocks, through std: the monotonic clock as read at the instant it holds.
struct Host(Instant);

/// Nanoseconds from the process's first reading to `instant`.
fn monotonic_ns(instant: Instant) -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    let elapsed = instant.saturating_duration_since(*START.get_or_init(|| instant));
    // Plain sums: a process would need 584 years of uptime to overflow them.
    elapsed.as_secs() * 1_000_000_000 + u64::from(elapsed.subsec_nanos())
}

impl Readings for Host {
    fn monotonic_ns(&self) -> u64 {
        monotonic_ns(self.0)
    }

    fn wall_then_monotonic_ns(&self) -> (u64, u64) {
        let wall = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| {
                u64::try_from(since.as_nanos()).unwrap_or(u64::MAX)
            });
        (wall, monotonic_ns(Instant::now()))
    }
}

/// The monotonic clock shifted to the wall clock's time, the shift only ever raised.
struct Timeline {
    /// What the monotonic reading is shifted by, in ns: how far the wall clock read ahead
    /// of it at most.
    shift_ns: AtomicU64,
    /// The monotonic reading (ns) from which on the wall clock is looked at again: the
    /// start of the millisecond after the last look. 0 before the first.
    look_at_ns: AtomicU64,
}

impl Timeline {
    const fn new() -> Timeline {
        Timeline {
            shift_ns: AtomicU64::new(0),
            look_at_ns: AtomicU64::new(0),
        }
    }

    fn shift_ns(&self) -> u64 {
        // Relaxed: a value in its own right; a reading with an older one is a reading
        // from a moment earlier, and the generator reads the clock again before it calls
        // a reading behind another thread's a step back.
        self.shift_ns.load(Ordering::Relaxed)
    }

    /// Unix ms now, how long that millisecond lasts from now, and the shift it was read
    /// with. In a new millisecond of the monotonic clock, it looks at the wall clock too.
    fn reading<R: Readings>(&self, readings: &R) -> (u64, Duration, u64) {
        let monotonic_ns = readings.monotonic_ns();
        if monotonic_ns >= self.look_at_ns.load(Ordering::Relaxed) {
            self.look(readings);
        }
        let shift_ns = self.shift_ns();
        let ns = monotonic_ns + shift_ns;
        (ns / MS, Duration::from_nanos(MS - ns % MS), shift_ns)
    }

    /// Looks at the wall clock: raises the shift if the wall clock reads ahead, and says
    /// when to look again. A shift too large would stamp IDs ahead of the wall clock for
    /// the process's life, since it never comes down: the wall clock is read first, so that
    /// the time between the readings (a thread preempted between them) makes it smaller.
    fn look<R: Readings>(&self, readings: &R) {
        let (wall_ns, monotonic_ns) = readings.wall_then_monotonic_ns();
        let ahead_ns = wall_ns.saturating_sub(monotonic_ns);
        self.shift_ns.fetch_max(ahead_ns, Ordering::Relaxed);
        // The next millisecond of the monotonic clock, never before 1 ns: 0 means "not yet".
        self.look_at_ns
            .store((monotonic_ns / MS + 1) * MS, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use core::cell::Cell;

    use super::*;

    impl Timeline {
        fn now_ms<R: Readings>(&self, readings: &R) -> u64 {
            self.reading(readings).0
        }

        fn ms_and_left<R: Readings>(&self, readings: &R) -> (u64, Duration) {
            let (ms, left, _) = self.reading(readings);
            (ms, left)
        }
    }

    /// Clocks a test sets: the monotonic and the wall reading, in ms, and how often the
    /// wall clock was read.
    struct Set {
        monotonic_ms: Cell<u64>,
        wall_ms: Cell<u64>,
        wall_reads: Cell<u32>,
    }

    impl Set {
        fn at(monotonic_ms: u64, wall_ms: u64) -> Set {
            Set {
                monotonic_ms: Cell::new(monotonic_ms),
                wall_ms: Cell::new(wall_ms),
                wall_reads: Cell::new(0),
            }
        }

        /// Both clocks run on by `ms`.
        fn run(&self, ms: u64) {
            self.monotonic_ms.set(self.monotonic_ms.get() + ms);
            self.wall_ms.set(self.wall_ms.get() + ms);
        }
    }

    impl Readings for Set {
        fn monotonic_ns(&self) -> u64 {
            self.monotonic_ms.get() * MS
        }

        fn wall_then_monotonic_ns(&self) -> (u64, u64) {
            self.wall_reads.set(self.wall_reads.get() + 1);
            (self.wall_ms.get() * MS, self.monotonic_ns())
        }
    }

    const WALL: u64 = 1_700_000_000_000;
    const HOUR: u64 = 3_600_000;

    #[test]
    fn the_first_reading_is_the_wall_clocks() {
        let timeline = Timeline::new();
        assert_eq!(timeline.now_ms(&Set::at(0, WALL)), WALL);
        let timeline = Timeline::new();
        assert_eq!(timeline.now_ms(&Set::at(5_000, WALL)), WALL);
    }

    #[test]
    fn the_wall_clock_is_read_once_a_millisecond() {
        let timeline = Timeline::new();
        let clocks = Set::at(10, WALL);
        for _ in 0..100 {
            assert_eq!(timeline.now_ms(&clocks), WALL);
        }
        assert_eq!(clocks.wall_reads.get(), 1);
        clocks.run(1);
        for _ in 0..100 {
            assert_eq!(timeline.now_ms(&clocks), WALL + 1);
        }
        assert_eq!(clocks.wall_reads.get(), 2);
    }

    /// The monotonic clock's milliseconds line up with the wall clock's: a wall clock
    /// 0.4 ms into its millisecond turns with the monotonic clock 0.6 ms later.
    #[test]
    fn milliseconds_turn_with_the_wall_clocks() {
        struct Ns(Cell<u64>, u64);
        impl Readings for Ns {
            fn monotonic_ns(&self) -> u64 {
                self.0.get()
            }
            fn wall_then_monotonic_ns(&self) -> (u64, u64) {
                (self.0.get() + self.1, self.0.get())
            }
        }
        let timeline = Timeline::new();
        let clocks = Ns(Cell::new(7 * MS), WALL * MS + 400_000);
        // The millisecond, and how long it lasts: what a thread keeps it for.
        assert_eq!(
            timeline.ms_and_left(&clocks),
            (WALL + 7, Duration::from_micros(600))
        );
        clocks.0.set(7 * MS + 599_999);
        assert_eq!(
            timeline.ms_and_left(&clocks),
            (WALL + 7, Duration::from_nanos(1))
        );
        clocks.0.set(7 * MS + 600_000);
        assert_eq!(
            timeline.ms_and_left(&clocks),
            (WALL + 8, Duration::from_millis(1))
        );
    }

    #[test]
    fn a_forward_jump_is_followed_in_the_next_millisecond() {
        let timeline = Timeline::new();
        let clocks = Set::at(10, WALL);
        assert_eq!(timeline.now_ms(&clocks), WALL);
        // The wall clock is set an hour ahead within this millisecond of the monotonic
        // clock: followed once that millisecond is over.
        clocks.wall_ms.set(WALL + HOUR);
        assert_eq!(timeline.now_ms(&clocks), WALL);
        clocks.run(1);
        assert_eq!(timeline.now_ms(&clocks), WALL + HOUR + 1);
        clocks.run(5);
        assert_eq!(timeline.now_ms(&clocks), WALL + HOUR + 6);
    }

    /// A suspend: the wall clock runs on, the monotonic clock stands still (Linux's
    /// `CLOCK_MONOTONIC`). The first millisecond after it is the wall clock's again.
    #[test]
    fn a_suspend_is_followed_once_the_process_runs_on() {
        let timeline = Timeline::new();
        let clocks = Set::at(10, WALL);
        assert_eq!(timeline.now_ms(&clocks), WALL);
        clocks.wall_ms.set(WALL + HOUR);
        clocks.run(1);
        assert_eq!(timeline.now_ms(&clocks), WALL + HOUR + 1);
    }

    #[test]
    fn a_step_back_is_not_followed_and_time_goes_on() {
        let timeline = Timeline::new();
        let clocks = Set::at(10, WALL);
        assert_eq!(timeline.now_ms(&clocks), WALL);
        clocks.wall_ms.set(WALL - HOUR);
        for ms in 1..=100 {
            clocks.run(1);
            // At the monotonic clock's pace from where it was: no wait, no repeat.
            assert_eq!(timeline.now_ms(&clocks), WALL + ms);
        }
    }

    #[test]
    fn back_then_forward_past_where_it_was() {
        let timeline = Timeline::new();
        let clocks = Set::at(10, WALL);
        assert_eq!(timeline.now_ms(&clocks), WALL);
        clocks.wall_ms.set(WALL - HOUR);
        clocks.run(10);
        assert_eq!(timeline.now_ms(&clocks), WALL + 10);
        // Set right again (an hour forward): still behind the timeline, which it was never
        // behind of; then a jump past it, which is followed.
        clocks.wall_ms.set(WALL + 10);
        clocks.run(1);
        assert_eq!(timeline.now_ms(&clocks), WALL + 11);
        clocks.wall_ms.set(WALL + 2 * HOUR);
        clocks.run(1);
        assert_eq!(timeline.now_ms(&clocks), WALL + 2 * HOUR + 1);
    }

    #[test]
    fn forward_then_back() {
        let timeline = Timeline::new();
        let clocks = Set::at(10, WALL);
        assert_eq!(timeline.now_ms(&clocks), WALL);
        clocks.wall_ms.set(WALL + HOUR);
        clocks.run(1);
        assert_eq!(timeline.now_ms(&clocks), WALL + HOUR + 1);
        // An hour back, as a person undoing a mistake would: the IDs' time stays ahead.
        clocks.wall_ms.set(WALL + 2);
        clocks.run(1);
        assert_eq!(timeline.now_ms(&clocks), WALL + HOUR + 2);
    }

    /// A thread preempted between its two readings of a look: the monotonic clock read
    /// 5 ms after the wall clock. The time may fall that far behind, never ahead, and the
    /// next look without a gap sets it right.
    #[test]
    fn a_gap_between_the_readings_never_puts_the_time_ahead() {
        struct Preempted {
            monotonic_ms: Cell<u64>,
            gap_ms: Cell<u64>,
        }
        impl Readings for Preempted {
            fn monotonic_ns(&self) -> u64 {
                self.monotonic_ms.get() * MS
            }
            fn wall_then_monotonic_ns(&self) -> (u64, u64) {
                // The wall clock is exactly WALL ahead of the monotonic one.
                let wall = (WALL + self.monotonic_ms.get()) * MS;
                self.monotonic_ms
                    .set(self.monotonic_ms.get() + self.gap_ms.get());
                (wall, self.monotonic_ns())
            }
        }
        let timeline = Timeline::new();
        let clocks = Preempted {
            monotonic_ms: Cell::new(10),
            gap_ms: Cell::new(5),
        };
        assert_eq!(timeline.now_ms(&clocks), WALL + 5);
        clocks.gap_ms.set(0);
        clocks.monotonic_ms.set(20);
        assert_eq!(timeline.now_ms(&clocks), WALL + 20);
    }

    #[test]
    fn a_wall_clock_before_1970_changes_nothing() {
        struct Before(u64);
        impl Readings for Before {
            fn monotonic_ns(&self) -> u64 {
                self.0
            }
            fn wall_then_monotonic_ns(&self) -> (u64, u64) {
                (0, self.0)
            }
        }
        let timeline = Timeline::new();
        assert_eq!(timeline.now_ms(&Before(5 * MS)), 5);
        assert_eq!(timeline.now_ms(&Before(9 * MS)), 9);
    }

    /// Over a million readings from two threads, none ahead of the wall clock read right
    /// after it: a shift raised past the true one would put every later reading ahead.
    #[test]
    fn the_system_clock_is_never_ahead_of_the_wall_clock() {
        let wall = || {
            u64::try_from(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap()
                    .as_millis(),
            )
            .unwrap()
        };
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    for _ in 0..500_000 {
                        let now = SystemClock.now_ms();
                        let after = wall();
                        assert!(now <= after, "{now} ahead of the wall clock's {after}");
                    }
                });
            }
        });
    }

    #[test]
    fn the_system_clock_is_the_wall_clock() {
        let wall = || {
            u64::try_from(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap()
                    .as_millis(),
            )
            .unwrap()
        };
        let before = wall();
        let now = SystemClock.now_ms();
        let after = wall();
        assert!((before..=after).contains(&now), "{before} {now} {after}");
    }
}
