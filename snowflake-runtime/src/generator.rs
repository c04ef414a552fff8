use core::fmt;
use core::time::Duration;

use crate::clock::{Clock, SystemClock};
use crate::error::GenerateError;
use crate::identity::Identity;
use crate::sequencer::{Sequencer, Unbounded};
use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// Issues unique, increasing IDs for one datacenter and machine, up to 4,096 a millisecond.
///
/// ```
/// use snowflake_kit::{Generator, Identity};
///
/// static IDS: Generator = match Identity::new(1, 7) {
///     Ok(identity) => Generator::new(identity),
///     Err(_) => panic!("datacenter and machine are 0..=31"),
/// };
///
/// let a = IDS.next_id();
/// let b = IDS.next_id();
/// assert!(a < b);
/// assert_eq!((b.datacenter(), b.machine()), (1, 7));
/// ```
///
/// # Guarantees
///
/// Whatever the clock does, one generator:
/// - never issues the same ID twice, from any number of threads;
/// - issues strictly increasing IDs, in the order it issues them;
/// - never stamps an ID later than the clock's reading, except while it
///   recovers from a step back of the clock (below);
/// - never wraps around: past 2080-07-10T17:30:30.208Z it returns an error.
///
/// It is lock-free: threads share it through `&self` (a `static`, an `Arc`), and
/// each ID costs one clock reading and one compare-and-swap. Run one generator
/// per [`Identity`]: two generators with the same identity, in one process or
/// in two, can issue the same ID (`snowflake-lease` hands identities out).
///
/// It has nothing of a lease: no ceiling and no halt, so that no code that can name it
/// can stop it, and its hot path pays for neither. A holder of a leased identity runs a
/// [`FencedGenerator`](crate::fence::FencedGenerator), the same generator with those.
///
/// # When the clock misbehaves
///
/// - **The sequence runs out** (4,096 IDs in one millisecond): the generator
///   spins until the clock reaches the next millisecond, without sleeping. On purpose: a
///   caller of a blocking API holds its thread for the ID either way, and a sleep (a
///   tenth of a millisecond or more, to the kernel's timer) would lose much of the next
///   millisecond's 4,096. In async code, [`next_id_async`](Generator::next_id_async)
///   (feature `tokio`) sleeps until the millisecond begins instead, spending no CPU on it.
/// - **The clock steps back** by at most the tolerance (1 s unless set with
///   [`with_tolerance`](Generator::with_tolerance)): the generator keeps issuing
///   in the last millisecond it used while its sequence lasts, then waits for the
///   clock to catch up.
/// - **The clock steps back further**: [`GenerateError::ClockMovedBackwards`], at once.
/// - **The clock stops**: a wait for a new millisecond gives up after the
///   tolerance plus the time it expected to wait, with [`GenerateError::ClockStalled`].
pub struct Generator<C: Clock = SystemClock> {
    // Unbounded: nothing can fence a plain generator, and its hot path reads one atomic.
    sequencer: Sequencer<C, Unbounded>,
}

impl Generator {
    /// A generator for `identity` on the [`SystemClock`], with the default tolerance (1 s).
    /// `const`, so it can sit in a `static`; [`with_clock`](Generator::with_clock) and
    /// [`with_tolerance`](Generator::with_tolerance) change the two.
    ///
    /// ```
    /// use snowflake_kit::{Generator, Identity};
    ///
    /// static IDS: Generator = match Identity::new(11, 26) {
    ///     Ok(identity) => Generator::new(identity),
    ///     Err(_) => panic!("datacenter and machine are 0..=31"),
    /// };
    /// assert_eq!(IDS.next_id().datacenter(), 11);
    ///
    /// let generator = Generator::new(Identity::new(1, 2)?);
    /// assert_eq!(generator.identity(), Identity::new(1, 2)?);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    // Loom's atomics cannot be built in a `const fn`: under `--cfg loom` it is a plain one.
    #[cfg(not(loom))]
    pub const fn new(identity: Identity) -> Generator {
        Generator {
            sequencer: Sequencer::new(identity, SystemClock, Unbounded),
        }
    }

    /// The same under loom (not `const`).
    #[cfg(loom)]
    pub fn new(identity: Identity) -> Generator {
        Generator {
            sequencer: Sequencer::new(identity, SystemClock, Unbounded),
        }
    }
}

impl<C: Clock> Generator<C> {
    /// The same generator on another clock, such as a test's. Meant right after
    /// [`new`](Generator::new): what the generator issued is kept, its tolerance too.
    ///
    /// ```
    /// use snowflake_kit::{Clock, Generator, Identity};
    ///
    /// struct Fixed(u64);
    /// impl Clock for Fixed {
    ///     fn now_ms(&self) -> u64 {
    ///         self.0
    ///     }
    /// }
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?).with_clock(Fixed(1_288_834_975_657));
    /// assert_eq!(generator.next_id().as_u64(), 4_194_439_168);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    #[must_use]
    pub fn with_clock<D: Clock>(self, clock: D) -> Generator<D> {
        Generator {
            sequencer: self.sequencer.with_clock(clock),
        }
    }

    /// Sets how far the clock may step back and be waited for (default 1 s),
    /// rounded down to whole milliseconds. Zero makes every step back an error.
    ///
    /// ```
    /// use std::time::Duration;
    /// use snowflake_kit::{Generator, Identity};
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?).with_tolerance(Duration::from_millis(50));
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
    /// let generator = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert_eq!(generator.tolerance(), std::time::Duration::from_secs(1));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn tolerance(&self) -> Duration {
        self.sequencer.tolerance()
    }

    /// The clock the generator reads.
    ///
    /// ```
    /// use snowflake_kit::{Clock, Generator, Identity};
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?);
    /// assert!(generator.clock().now_ms() > 0);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn clock(&self) -> &C {
        self.sequencer.clock()
    }

    /// The identity of the IDs it issues.
    ///
    /// ```
    /// use snowflake_kit::{Generator, Identity};
    ///
    /// assert_eq!(Generator::new(Identity::new(11, 26)?).identity(), Identity::new(11, 26)?);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn identity(&self) -> Identity {
        self.sequencer.identity()
    }

    /// The datacenter id of the IDs it issues.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Generator::new(snowflake_kit::Identity::new(11, 26)?).datacenter(), 11);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn datacenter(&self) -> u8 {
        self.sequencer.identity().datacenter()
    }

    /// The machine id of the IDs it issues.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Generator::new(snowflake_kit::Identity::new(11, 26)?).machine(), 26);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn machine(&self) -> u8 {
        self.sequencer.identity().machine()
    }

    /// The next ID, or why there is none. Spins for at most the rest of the
    /// current millisecond when its 4,096 IDs are used up, and waits for a clock
    /// that stepped back by at most the [tolerance](Generator::with_tolerance).
    ///
    /// ```
    /// let generator = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// let id = generator.try_next_id()?;
    /// assert_eq!((id.datacenter(), id.machine()), (1, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// A [`GenerateError`]: the clock is before the epoch or after 2080, stepped
    /// back further than the tolerance, or stopped.
    #[inline]
    pub fn try_next_id(&self) -> Result<Snowflake, GenerateError> {
        self.sequencer.next_one::<true>()
    }

    /// The next ID if it can be issued at once: never sleeps and never spins, for
    /// callers that must not block a thread, such as an async task, which can wait
    /// for the clock on a timer and ask again.
    ///
    /// ```
    /// use std::time::Duration;
    /// use snowflake_kit::{GenerateError, Generator, Identity, Snowflake};
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?);
    /// let mut ids = [Snowflake::MAX; 4096];
    /// generator.try_fill(&mut ids)?; // a whole millisecond, most likely the current one
    /// let id = loop {
    ///     match generator.try_next_id_now() {
    ///         Err(GenerateError::WouldWait { .. }) => std::thread::sleep(Duration::from_millis(1)),
    ///         other => break other?,
    ///     }
    /// };
    /// assert!(id > ids[4095]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`GenerateError::WouldWait`] where [`try_next_id`](Generator::try_next_id) would
    /// wait for the clock; otherwise as `try_next_id`.
    #[inline]
    pub fn try_next_id_now(&self) -> Result<Snowflake, GenerateError> {
        self.sequencer.next_one::<false>()
    }

    /// The next ID as one of kind `K` ([`typed`](crate::typed)): [`next_id`](Generator::next_id),
    /// at its cost, for IDs of every kind from one generator.
    ///
    /// ```
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub User);
    /// let ids = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// let user: Id<User> = ids.next_id_of();
    /// assert_eq!(user.snowflake().machine(), 1);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    ///
    /// # Blocks, Panics
    ///
    /// As `next_id`.
    #[inline]
    pub fn next_id_of<K: Kind>(&self) -> Id<K> {
        Id::from_snowflake(self.next_id())
    }

    /// The next ID as one of kind `K`, or why there is none:
    /// [`try_next_id`](Generator::try_next_id), typed.
    ///
    /// ```
    /// use snowflake_kit::typed::{Id, kind};
    ///
    /// kind!(pub Order);
    /// let ids = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// let order: Id<Order> = ids.try_next_id_of()?;
    /// assert_eq!(order.snowflake().datacenter(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As `try_next_id`.
    #[inline]
    pub fn try_next_id_of<K: Kind>(&self) -> Result<Id<K>, GenerateError> {
        self.try_next_id().map(Id::from_snowflake)
    }

    /// The next ID; see [`try_next_id`](Generator::try_next_id).
    ///
    /// ```
    /// let generator = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// assert!(generator.next_id() < generator.next_id());
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    ///
    /// # Blocks
    ///
    /// Spins until the next millisecond when the current one's 4,096 IDs are
    /// used up; sleeps and spins for up to the tolerance (1 s by default) while a
    /// clock that stepped back catches up.
    ///
    /// # Panics
    ///
    /// Where `try_next_id` returns an error: when the clock reads before
    /// 2010-11-04T01:42:54.657Z or after 2080-07-10T17:30:30.208Z, has stepped back
    /// further than the tolerance, or has stopped. With the [`SystemClock`] only the
    /// first two can happen.
    #[inline]
    pub fn next_id(&self) -> Snowflake {
        match self.try_next_id() {
            Ok(id) => id,
            Err(e) => panic!("snowflake generator: {e}"),
        }
    }

    /// Fills `out` with new IDs, reserving up to a millisecond's 4,096 at a time
    /// with one clock reading and one compare-and-swap. The IDs are increasing;
    /// IDs issued meanwhile by other threads may fall between them.
    ///
    /// ```
    /// use snowflake_kit::{Generator, Identity, Snowflake};
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?);
    /// let mut ids = [Snowflake::MAX; 100];
    /// generator.try_fill(&mut ids)?;
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`try_next_id`](Generator::try_next_id); the IDs written before the
    /// error are valid and issued, the rest of `out` is left as it was.
    pub fn try_fill(&self, out: &mut [Snowflake]) -> Result<(), GenerateError> {
        self.sequencer.fill(out)
    }

    /// Fills the front of `out` with IDs that can be issued at once, and returns how many:
    /// never sleeps and never spins, like [`try_next_id_now`](Generator::try_next_id_now).
    /// An async caller waits for the clock on a timer and asks again for the rest.
    ///
    /// ```
    /// use std::time::Duration;
    /// use snowflake_kit::{GenerateError, Generator, Identity, Snowflake};
    ///
    /// let generator = Generator::new(Identity::new(1, 1)?);
    /// let mut ids = vec![Snowflake::MAX; 10_000];
    /// let mut done = 0;
    /// while done < ids.len() {
    ///     match generator.try_fill_now(&mut ids[done..]) {
    ///         Ok(count) => done += count,
    ///         Err(GenerateError::WouldWait { .. }) => std::thread::sleep(Duration::from_millis(1)),
    ///         Err(e) => return Err(e.into()),
    ///     }
    /// }
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`GenerateError::WouldWait`] when not one ID can be issued without waiting for the
    /// clock; otherwise as [`try_next_id`](Generator::try_next_id), with nothing written.
    /// An error after some IDs were written is left for the next call: those are returned.
    pub fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        self.sequencer.fill_now(out)
    }

    /// Fills `out` with new IDs; see [`try_fill`](Generator::try_fill).
    ///
    /// ```
    /// let generator = snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1)?);
    /// let mut ids = vec![snowflake_kit::Snowflake::MAX; 10_000];
    /// generator.fill(&mut ids);
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    ///
    /// # Blocks
    ///
    /// As [`next_id`](Generator::next_id).
    ///
    /// # Panics
    ///
    /// Where `try_fill` returns an error; see [`next_id`](Generator::next_id).
    pub fn fill(&self, out: &mut [Snowflake]) {
        if let Err(e) = self.try_fill(out) {
            panic!("snowflake generator: {e}");
        }
    }
}

impl<C: Clock + fmt::Debug> fmt::Debug for Generator<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("identity", &self.identity())
            .field("tolerance_ms", &self.sequencer.tolerance_ms())
            .field("clock", self.clock())
            .finish_non_exhaustive()
    }
}
