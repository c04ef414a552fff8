//! The generator a holder of a leased identity runs: [`FencedGenerator`], a
//! [`Generator`](crate::Generator) with a ceiling, a floor and a halt, so that it issues
//! only inside the time its lease covers. `snowflake-lease` is such a holder.
//!
//! An application that owns its identity outright (a datacenter and machine that nothing
//! else uses, unleased) never needs this module: its plain [`Generator`](crate::Generator)
//! has none of these hooks, so that no code can halt it, and pays nothing for them.
//!
//! Every hook is a plain atomic store or read beside the one the generator issues from, so
//! a fenced generator issues as a plain one does, plus the one read of its ceiling.
//!
//! ```
//! use snowflake_kit::fence::FencedGenerator;
//! use snowflake_kit::{GenerateError, Identity};
//!
//! let generator = FencedGenerator::new(Identity::new(1, 1)?);
//! // What a holder does once it has committed a high-water mark `hwm` in its store:
//! let hwm = generator.try_next_id()?.timestamp_ms() + 2_000;
//! generator.set_ceiling(Some(hwm));
//! assert!(generator.try_next_id().is_ok());
//! // ...and when it loses its lease:
//! generator.halt();
//! assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
#[cfg(not(loom))]
use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;

#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering};

use crate::clock::{Clock, SystemClock};
use crate::error::GenerateError;
use crate::format::TWITTER_EPOCH_MS;
use crate::identity::Identity;
use crate::sequencer::{Bound, END, Sequencer};
use crate::snowflake::Snowflake;

/// A [`Generator`](crate::Generator) that a lease holder fences: past its
/// [ceiling](FencedGenerator::set_ceiling) it refuses at once, below its
/// [floor](FencedGenerator::raise_floor) it never issues, and [halted](FencedGenerator::halt)
/// it issues nothing. It keeps every guarantee of the plain generator (no duplicate, no
/// decreasing ID, whatever the clock does), from the same code.
///
/// It has the plain generator's fallible calls only: a holder answers a refusal, never
/// panics on one.
///
/// ```
/// use snowflake_kit::fence::FencedGenerator;
/// use snowflake_kit::{GenerateError, Identity};
///
/// let generator = FencedGenerator::new(Identity::new(1, 1)?);
/// let before = generator.try_next_id()?;
/// generator.halt();
/// assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
/// generator.resume();
/// assert!(generator.try_next_id()? > before);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FencedGenerator<C: Clock = SystemClock> {
    sequencer: Sequencer<C, Ceiling>,
}

/// The last Unix ms a fenced generator may stamp an ID with (`u64::MAX` for none), and the
/// end of the milliseconds the hot path may issue in, which it makes.
pub(crate) struct Ceiling {
    ms: AtomicU64,
    end: AtomicU64,
}

impl Ceiling {
    #[cfg(not(loom))]
    const fn none() -> Ceiling {
        Ceiling {
            ms: AtomicU64::new(u64::MAX),
            end: AtomicU64::new(END),
        }
    }

    #[cfg(loom)]
    fn none() -> Ceiling {
        Ceiling {
            ms: AtomicU64::new(u64::MAX),
            end: AtomicU64::new(END),
        }
    }
}

impl Bound for Ceiling {
    #[inline]
    fn end(&self) -> u64 {
        // Relaxed: read after `next`'s Acquire, which brings whatever a `resume` published.
        self.end.load(Ordering::Relaxed)
    }

    #[inline]
    fn ceiling_ms(&self) -> u64 {
        // Acquire: read after `next`, so that a `resume` seen there brings this too.
        self.ms.load(Ordering::Acquire)
    }
}

impl FencedGenerator {
    /// A fenced generator for `identity` on the [`SystemClock`], with no ceiling, no floor
    /// and the default tolerance (1 s).
    ///
    /// ```
    /// use snowflake_kit::fence::FencedGenerator;
    /// use snowflake_kit::Identity;
    ///
    /// let generator = FencedGenerator::new(Identity::new(11, 26)?);
    /// assert_eq!(generator.identity(), Identity::new(11, 26)?);
    /// assert_eq!(generator.ceiling(), None);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    // Loom's atomics cannot be built in a `const fn`: under `--cfg loom` it is a plain one.
    #[cfg(not(loom))]
    pub const fn new(identity: Identity) -> FencedGenerator {
        FencedGenerator {
            sequencer: Sequencer::new(identity, SystemClock, Ceiling::none()),
        }
    }

    /// The same under loom (not `const`).
    #[cfg(loom)]
    pub fn new(identity: Identity) -> FencedGenerator {
        FencedGenerator {
            sequencer: Sequencer::new(identity, SystemClock, Ceiling::none()),
        }
    }
}

impl<C: Clock> FencedGenerator<C> {
    /// The same generator on another clock, such as a test's; see
    /// [`Generator::with_clock`](crate::Generator::with_clock). Its fences are kept.
    ///
    /// ```
    /// use snowflake_kit::fence::FencedGenerator;
    /// use snowflake_kit::{Clock, Identity};
    ///
    /// struct Fixed(u64);
    /// impl Clock for Fixed {
    ///     fn now_ms(&self) -> u64 {
    ///         self.0
    ///     }
    /// }
    ///
    /// let generator = FencedGenerator::new(Identity::new(1, 1)?).with_clock(Fixed(1_288_834_975_657));
    /// assert_eq!(generator.try_next_id()?.as_u64(), 4_194_439_168);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_clock<D: Clock>(self, clock: D) -> FencedGenerator<D> {
        FencedGenerator {
            sequencer: self.sequencer.with_clock(clock),
        }
    }

    /// Sets how far the clock may step back and be waited for (default 1 s); see
    /// [`Generator::with_tolerance`](crate::Generator::with_tolerance).
    ///
    /// ```
    /// use std::time::Duration;
    /// use snowflake_kit::fence::FencedGenerator;
    ///
    /// let generator = FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?)
    ///     .with_tolerance(Duration::from_millis(50));
    /// assert_eq!(generator.tolerance(), Duration::from_millis(50));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    #[must_use]
    pub const fn with_tolerance(mut self, tolerance: Duration) -> Self {
        self.sequencer.set_tolerance(tolerance);
        self
    }

    /// How far the clock may step back and be waited for.
    ///
    /// ```
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert_eq!(generator.tolerance(), std::time::Duration::from_secs(1));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn tolerance(&self) -> Duration {
        self.sequencer.tolerance()
    }

    /// The clock the generator reads.
    ///
    /// ```
    /// use snowflake_kit::Clock;
    ///
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert!(generator.clock().now_ms() > 0);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn clock(&self) -> &C {
        self.sequencer.clock()
    }

    /// The identity of the IDs it issues.
    ///
    /// ```
    /// use snowflake_kit::{fence::FencedGenerator, Identity};
    ///
    /// assert_eq!(FencedGenerator::new(Identity::new(11, 26)?).identity(), Identity::new(11, 26)?);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn identity(&self) -> Identity {
        self.sequencer.identity()
    }

    /// The next ID, or why there is none; as
    /// [`Generator::try_next_id`](crate::Generator::try_next_id), and refused at once past
    /// the ceiling ([`GenerateError::AboveCeiling`]) or while halted
    /// ([`GenerateError::Halted`]).
    ///
    /// ```
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// let id = generator.try_next_id()?;
    /// assert_eq!((id.datacenter(), id.machine()), (1, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`GenerateError`]: the plain generator's, [`GenerateError::AboveCeiling`] and
    /// [`GenerateError::Halted`].
    #[inline]
    pub fn try_next_id(&self) -> Result<Snowflake, GenerateError> {
        self.sequencer.next_one::<true>()
    }

    /// The next ID if it can be issued at once; as
    /// [`Generator::try_next_id_now`](crate::Generator::try_next_id_now), for async callers.
    ///
    /// ```
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert!(generator.try_next_id_now().is_ok());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`GenerateError::WouldWait`] where [`try_next_id`](FencedGenerator::try_next_id)
    /// would wait for the clock; otherwise as `try_next_id`.
    #[inline]
    pub fn try_next_id_now(&self) -> Result<Snowflake, GenerateError> {
        self.sequencer.next_one::<false>()
    }

    /// Fills `out` with new IDs; as [`Generator::try_fill`](crate::Generator::try_fill).
    ///
    /// ```
    /// use snowflake_kit::{fence::FencedGenerator, Identity, Snowflake};
    ///
    /// let generator = FencedGenerator::new(Identity::new(1, 1)?);
    /// let mut ids = [Snowflake::MAX; 100];
    /// generator.try_fill(&mut ids)?;
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`try_next_id`](FencedGenerator::try_next_id); the IDs written before the error
    /// are valid and issued, the rest of `out` is left as it was.
    pub fn try_fill(&self, out: &mut [Snowflake]) -> Result<(), GenerateError> {
        self.sequencer.fill(out)
    }

    /// Fills the front of `out` with IDs that can be issued at once, and returns how many;
    /// as [`Generator::try_fill_now`](crate::Generator::try_fill_now).
    ///
    /// ```
    /// use snowflake_kit::{fence::FencedGenerator, Identity, Snowflake};
    ///
    /// let generator = FencedGenerator::new(Identity::new(1, 1)?);
    /// let mut ids = [Snowflake::MAX; 10];
    /// assert!(generator.try_fill_now(&mut ids)? > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`try_next_id_now`](FencedGenerator::try_next_id_now), with nothing written.
    pub fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        self.sequencer.fill_now(out)
    }

    /// Sets the last Unix ms the generator may stamp an ID with, or none. Past it, calls
    /// return [`GenerateError::AboveCeiling`] at once, without waiting. A holder of a
    /// leased identity raises it as it reserves time ahead; the check costs one acquire
    /// load (a plain load on x86) beside the clock reading.
    ///
    /// A call that read the ceiling before a concurrent `set_ceiling` lowered it may still
    /// issue up to the old ceiling; [`halt`](FencedGenerator::halt) stops at once.
    ///
    /// ```
    /// use snowflake_kit::fence::FencedGenerator;
    /// use snowflake_kit::{GenerateError, Identity};
    ///
    /// let generator = FencedGenerator::new(Identity::new(1, 1)?);
    /// generator.set_ceiling(Some(1_288_834_975_657)); // long past
    /// assert!(matches!(generator.try_next_id(), Err(GenerateError::AboveCeiling { .. })));
    /// generator.set_ceiling(None);
    /// assert!(generator.try_next_id().is_ok());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub fn set_ceiling(&self, timestamp_ms: Option<u64>) {
        let ms = timestamp_ms.unwrap_or(u64::MAX);
        // The millisecond after the ceiling's, since the epoch: 0 below the epoch (nothing
        // is under it), the format's end past it.
        let end = ms
            .saturating_add(1)
            .saturating_sub(TWITTER_EPOCH_MS)
            .min(END);
        // Release: a call that sees a later `resume` sees this ceiling too.
        let ceiling = &self.sequencer.bound;
        ceiling.ms.store(ms, Ordering::Release);
        ceiling.end.store(end, Ordering::Release);
    }

    /// The last Unix ms the generator may stamp an ID with, if there is a ceiling.
    ///
    /// ```
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert_eq!(generator.ceiling(), None);
    /// generator.set_ceiling(Some(1_700_000_000_000));
    /// assert_eq!(generator.ceiling(), Some(1_700_000_000_000));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub fn ceiling(&self) -> Option<u64> {
        match self.sequencer.bound.ceiling_ms() {
            u64::MAX => None,
            ms => Some(ms),
        }
    }

    /// Issues nothing at or below `timestamp_ms` from now on: the next ID is in a later
    /// millisecond, waited for within the tolerance if the clock is behind it. A leased
    /// holder raises it to the high-water mark it read, so that a clock stepping back
    /// cannot reach into milliseconds an earlier holder used. Never lowers what was
    /// issued; keeps a [halt](FencedGenerator::halt).
    ///
    /// ```
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// let now = generator.try_next_id()?.timestamp_ms();
    /// generator.raise_floor(now);
    /// assert!(generator.try_next_id()?.timestamp_ms() > now);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn raise_floor(&self, timestamp_ms: u64) {
        self.sequencer.raise_floor(timestamp_ms);
    }

    /// Stops issuing: every call returns [`GenerateError::Halted`] until
    /// [`resume`](FencedGenerator::resume). No ID is issued after `halt` returns, from any
    /// thread: the halt is a bit of the one atomic every ID is reserved from.
    ///
    /// ```
    /// use snowflake_kit::fence::FencedGenerator;
    /// use snowflake_kit::{GenerateError, Identity};
    ///
    /// let generator = FencedGenerator::new(Identity::new(1, 1)?);
    /// generator.halt();
    /// assert!(generator.is_halted());
    /// assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub fn halt(&self) {
        self.sequencer.halt();
    }

    /// Issues again after [`halt`](FencedGenerator::halt), never below what was issued
    /// before.
    ///
    /// ```
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// generator.halt();
    /// generator.resume();
    /// assert!(!generator.is_halted());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub fn resume(&self) {
        self.sequencer.resume();
    }

    /// Whether the generator is [halted](FencedGenerator::halt).
    ///
    /// ```
    /// let generator = snowflake_kit::fence::FencedGenerator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert!(!generator.is_halted());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub fn is_halted(&self) -> bool {
        self.sequencer.is_halted()
    }
}

impl<C: Clock + fmt::Debug> fmt::Debug for FencedGenerator<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FencedGenerator")
            .field("identity", &self.identity())
            .field("tolerance_ms", &self.sequencer.tolerance_ms())
            .field("ceiling", &self.ceiling())
            .field("halted", &self.is_halted())
            .field("clock", self.clock())
            .finish_non_exhaustive()
    }
}
