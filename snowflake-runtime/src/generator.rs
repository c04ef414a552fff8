use core::fmt;
#[cfg(not(loom))]
use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;
use std::time::Instant;

// Under `--cfg loom` the one atomic of the generator is loom's, whose model checker
// then tries every interleaving of the threads in `tests/loom.rs`.
#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering};

use crate::fence::Fence;
use crate::layout::{
    MAX_SEQUENCE, MAX_TIMESTAMP_DELTA, MAX_TIMESTAMP_MS, SEQUENCE_BITS, TIMESTAMP_SHIFT,
    TWITTER_EPOCH_MS,
};
use crate::{Clock, GenerateError, Identity, Snowflake, SystemClock};

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
/// # When the clock misbehaves
///
/// - **The sequence runs out** (4,096 IDs in one millisecond): the generator
///   spins until the clock reaches the next millisecond, without sleeping.
/// - **The clock steps back** by at most the tolerance (1 s unless set with
///   [`with_tolerance`](Generator::with_tolerance)): the generator keeps issuing
///   in the last millisecond it used while its sequence lasts, then waits for the
///   clock to catch up.
/// - **The clock steps back further**: [`GenerateError::ClockMovedBackwards`], at once.
/// - **The clock stops**: a wait for a new millisecond gives up after the
///   tolerance plus the time it expected to wait, with [`GenerateError::ClockStalled`].
pub struct Generator<C: Clock = SystemClock> {
    /// The smallest `timestamp << 12 | sequence` that may be issued next, and
    /// [`HALTED`] while halted: one atomic, so that a halt is seen by every
    /// compare-and-swap that comes after it.
    next: AtomicU64,
    /// The last Unix ms the generator may stamp an ID with; `u64::MAX` for none.
    ceiling: AtomicU64,
    /// The identity's datacenter and machine bits, already in place.
    identity_bits: u64,
    identity: Identity,
    /// How far behind the last issued ID the clock may fall and be waited for.
    tolerance_ms: u64,
    clock: C,
}

const DEFAULT_TOLERANCE_MS: u64 = 1000;

/// The sequence's bits of `next`, as the `u64` that the hot path masks with.
const SEQUENCE_MASK: u64 = MAX_SEQUENCE as u64;

/// The bit of `next` that halts the generator. `next` itself never reaches it:
/// 41 bits of timestamp and 12 of sequence.
const HALTED: u64 = 1 << 63;

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
            next: AtomicU64::new(0),
            ceiling: AtomicU64::new(u64::MAX),
            identity_bits: identity.bits(),
            identity,
            tolerance_ms: DEFAULT_TOLERANCE_MS,
            clock: SystemClock,
        }
    }

    /// The same under loom (not `const`).
    #[cfg(loom)]
    pub fn new(identity: Identity) -> Generator {
        Generator {
            next: AtomicU64::new(0),
            ceiling: AtomicU64::new(u64::MAX),
            identity_bits: identity.bits(),
            identity,
            tolerance_ms: DEFAULT_TOLERANCE_MS,
            clock: SystemClock,
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
            next: AtomicU64::new(self.next.load(Ordering::Relaxed)),
            ceiling: AtomicU64::new(self.ceiling.load(Ordering::Relaxed)),
            identity_bits: self.identity_bits,
            identity: self.identity,
            tolerance_ms: self.tolerance_ms,
            clock,
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
        let ms = tolerance.as_millis();
        #[expect(
            clippy::cast_possible_truncation,
            reason = "checked against u64::MAX first"
        )]
        let ms = if ms > u64::MAX as u128 {
            u64::MAX
        } else {
            ms as u64
        };
        self.tolerance_ms = ms;
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
        Duration::from_millis(self.tolerance_ms)
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
        &self.clock
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
        self.identity
    }

    /// The datacenter id of the IDs it issues.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Generator::new(snowflake_kit::Identity::new(11, 26)?).datacenter(), 11);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn datacenter(&self) -> u8 {
        self.identity.datacenter()
    }

    /// The machine id of the IDs it issues.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Generator::new(snowflake_kit::Identity::new(11, 26)?).machine(), 26);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn machine(&self) -> u8 {
        self.identity.machine()
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
        self.next_one::<true>()
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
        self.next_one::<false>()
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
        let mut rest = out;
        while !rest.is_empty() {
            let wanted = u64::try_from(rest.len()).unwrap_or(u64::MAX);
            let (first, count) = self.reserve::<true>(wanted)?;
            // `count` is at most 4,096 and at most `rest.len()`.
            let (batch, tail) = rest.split_at_mut(usize::try_from(count).unwrap_or(usize::MAX));
            for (slot, next) in batch.iter_mut().zip(first..) {
                *slot = self.id(next);
            }
            rest = tail;
        }
        Ok(())
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
        let mut done = 0;
        while done < out.len() {
            let wanted = u64::try_from(out.len() - done).unwrap_or(u64::MAX);
            let (first, count) = match self.reserve::<false>(wanted) {
                Ok(reserved) => reserved,
                Err(e) if done == 0 => return Err(e),
                Err(_) => break,
            };
            let count = usize::try_from(count).unwrap_or(usize::MAX);
            for (slot, next) in out[done..done + count].iter_mut().zip(first..) {
                *slot = self.id(next);
            }
            done += count;
        }
        Ok(done)
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

    /// The ID for a reserved `timestamp << 12 | sequence`.
    #[inline]
    fn id(&self, next: u64) -> Snowflake {
        let timestamp = next >> SEQUENCE_BITS;
        Snowflake::from_valid(
            (timestamp << TIMESTAMP_SHIFT) | self.identity_bits | (next & SEQUENCE_MASK),
        )
    }

    /// One ID. The common case (the clock in the format's span and in a millisecond with
    /// IDs left, no halt, no ceiling in the way) is decided by one test and one CAS, here
    /// inlined into the caller; every other case, and a CAS that lost a race, goes to
    /// [`reserve`](Generator::reserve), which judges it afresh. The reads and their orders
    /// are those of `reserve`'s first round, so the two agree on every interleaving.
    #[inline]
    fn next_one<const WAIT: bool>(&self) -> Result<Snowflake, GenerateError> {
        let now_ms = self.clock.now_ms();
        // `next` first, with Acquire: a `resume` seen there brings the ceiling set before it.
        let current = self.next.load(Ordering::Acquire);
        let ceiling_ms = self.ceiling.load(Ordering::Acquire);
        // Before the epoch, this wraps to past the span, and fails the test below.
        let now = now_ms.wrapping_sub(TWITTER_EPOCH_MS);
        let candidate = current.max(now << SEQUENCE_BITS);
        // The candidate is in the clock's own millisecond: not ahead of it (a used-up
        // millisecond, a clock stepped back), and not halted (the halt bit would put it
        // far past); and that millisecond is within the span and under the ceiling.
        if candidate >> SEQUENCE_BITS == now
            && now <= MAX_TIMESTAMP_DELTA
            && now_ms <= ceiling_ms
            // Relaxed on success, Acquire on failure: as in `reserve`.
            && self
                .next
                .compare_exchange_weak(current, candidate + 1, Ordering::Relaxed, Ordering::Acquire)
                .is_ok()
        {
            return Ok(self.id(candidate));
        }
        self.next_one_slowly::<WAIT>(now_ms)
    }

    /// [`next_one`](Generator::next_one) outside its common case, on the clock reading
    /// it took.
    #[cold]
    #[inline(never)]
    fn next_one_slowly<const WAIT: bool>(&self, now_ms: u64) -> Result<Snowflake, GenerateError> {
        let (first, _) = self.reserve_from::<WAIT>(1, now_ms)?;
        Ok(self.id(first))
    }

    /// The clock's reading as milliseconds since the epoch.
    #[inline]
    fn now(&self) -> Result<u64, GenerateError> {
        Self::since_epoch(self.clock.now_ms())
    }

    /// A clock reading (Unix ms) as milliseconds since the epoch, if an ID can carry it.
    #[inline]
    fn since_epoch(now_ms: u64) -> Result<u64, GenerateError> {
        if now_ms < TWITTER_EPOCH_MS {
            Err(GenerateError::ClockBeforeEpoch { now_ms })
        } else if now_ms > MAX_TIMESTAMP_MS {
            Err(GenerateError::ClockAfterMax { now_ms })
        } else {
            Ok(now_ms - TWITTER_EPOCH_MS)
        }
    }

    /// Reserves up to `wanted` (at least 1) consecutive IDs of one millisecond:
    /// returns the first `timestamp << 12 | sequence` and how many. Waits for the
    /// clock when it has to if `WAIT`, and returns [`GenerateError::WouldWait`] if not.
    #[inline]
    fn reserve<const WAIT: bool>(&self, wanted: u64) -> Result<(u64, u64), GenerateError> {
        self.reserve_from::<WAIT>(wanted, self.clock.now_ms())
    }

    /// [`reserve`](Generator::reserve) from a clock reading already taken, `now_ms`.
    #[inline]
    fn reserve_from<const WAIT: bool>(
        &self,
        wanted: u64,
        now_ms: u64,
    ) -> Result<(u64, u64), GenerateError> {
        let mut now = Self::since_epoch(now_ms)?;
        // `next` first, with Acquire: a `resume` seen there brings the ceiling set
        // before it.
        let mut current = self.next.load(Ordering::Acquire);
        let mut ceiling_ms = self.ceiling.load(Ordering::Acquire);
        loop {
            if current & HALTED != 0 {
                return Err(GenerateError::Halted);
            }
            // Never below what was issued, never below the clock.
            let candidate = current.max(now << SEQUENCE_BITS);
            let timestamp = candidate >> SEQUENCE_BITS;
            let sequence = candidate & SEQUENCE_MASK;
            if timestamp + TWITTER_EPOCH_MS > ceiling_ms {
                return Err(GenerateError::AboveCeiling {
                    timestamp_ms: timestamp + TWITTER_EPOCH_MS,
                    ceiling_ms,
                });
            }
            if timestamp > now {
                // Ahead of our reading: another thread may have read a later clock.
                let fresh = self.now()?;
                if fresh > now {
                    now = fresh;
                    continue;
                }
                // Sequence 0 of a millisecond ahead: the last one used is full.
                let last_used = if sequence == 0 {
                    timestamp - 1
                } else {
                    timestamp
                };
                let by_ms = last_used - now;
                if by_ms > self.tolerance_ms {
                    return Err(GenerateError::ClockMovedBackwards {
                        by_ms,
                        tolerance_ms: self.tolerance_ms,
                    });
                }
                if sequence == 0 {
                    if !WAIT {
                        return Err(GenerateError::WouldWait {
                            until_ms: timestamp + TWITTER_EPOCH_MS,
                        });
                    }
                    now = self.wait_for(timestamp, now)?;
                    current = self.next.load(Ordering::Acquire);
                    ceiling_ms = self.ceiling.load(Ordering::Acquire);
                    continue;
                }
                // Recovering from a step back: the last millisecond still has IDs.
            }
            let count = wanted.min(SEQUENCE_MASK + 1 - sequence);
            // Relaxed on success: uniqueness and order come from this one atomic's
            // modification order, and an ID carries no other memory with it. Acquire on
            // failure: the value seen may be a `resume`, which brings its ceiling.
            match self.next.compare_exchange_weak(
                current,
                candidate + count,
                Ordering::Relaxed,
                Ordering::Acquire,
            ) {
                Ok(_) => return Ok((candidate, count)),
                Err(actual) => {
                    current = actual;
                    ceiling_ms = self.ceiling.load(Ordering::Acquire);
                }
            }
        }
    }

    /// Whether a wait for the clock has gone on too long: the clock counts as stalled when
    /// it still reads before `until_ms` after `waited`, longer than the wait expected
    /// from `from_ms` (where the clock stood when the wait began) plus the tolerance.
    /// [`try_next_id`](Generator::try_next_id) judges its own waits so, and so does a
    /// caller that waits on a timer after [`GenerateError::WouldWait`] (`next_id_async`,
    /// the server's queue), so that all say "stalled" alike, and only of a clock that did
    /// not advance. Not API: the server reaches it through `__private::check_wait`.
    pub(crate) fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError> {
        let now = self.now()?;
        self.judge_wait(now, from_ms, until_ms, waited)
    }

    /// [`check_wait`](Generator::check_wait) on a clock reading the caller already took
    /// (`now`, ms since the epoch): the rule itself, for the generator's own waits too.
    fn judge_wait(
        &self,
        now: u64,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError> {
        let budget_ms = until_ms
            .saturating_sub(from_ms)
            .saturating_add(self.tolerance_ms)
            .max(1);
        let waited_ms = u64::try_from(waited.as_millis()).unwrap_or(u64::MAX);
        if now + TWITTER_EPOCH_MS < until_ms && waited_ms > budget_ms {
            return Err(GenerateError::ClockStalled { waited_ms });
        }
        Ok(())
    }

    /// Waits until the clock reaches `target` (ms since the epoch); returns the reading.
    /// Sleeps while more than a millisecond away, then spins.
    #[cold]
    fn wait_for(&self, target: u64, mut now: u64) -> Result<u64, GenerateError> {
        let started = Instant::now();
        let (from_ms, until_ms) = (now + TWITTER_EPOCH_MS, target + TWITTER_EPOCH_MS);
        while now < target {
            if target - now > 1 {
                std::thread::sleep(Duration::from_millis(target - now - 1));
            } else {
                core::hint::spin_loop();
            }
            // One clock reading a round, for the loop and for the judgement.
            now = self.now()?;
            self.judge_wait(now, from_ms, until_ms, started.elapsed())?;
        }
        Ok(now)
    }
}

// The fence's hooks, documented on the trait: what a lease holder sets on its generator.
impl<C: Clock> crate::fence::sealed::Sealed for Generator<C> {}

impl<C: Clock> Fence for Generator<C> {
    fn set_ceiling(&self, timestamp_ms: Option<u64>) {
        // Release: a call that sees a later `resume` sees this ceiling too.
        self.ceiling
            .store(timestamp_ms.unwrap_or(u64::MAX), Ordering::Release);
    }

    fn ceiling(&self) -> Option<u64> {
        match self.ceiling.load(Ordering::Acquire) {
            u64::MAX => None,
            ms => Some(ms),
        }
    }

    fn raise_floor(&self, timestamp_ms: u64) {
        let floor = (timestamp_ms
            .saturating_add(1)
            .saturating_sub(TWITTER_EPOCH_MS))
        .min(MAX_TIMESTAMP_MS - TWITTER_EPOCH_MS + 1)
            << SEQUENCE_BITS;
        let mut current = self.next.load(Ordering::Relaxed);
        loop {
            let raised = (current & HALTED) | (current & !HALTED).max(floor);
            if raised == current {
                return;
            }
            match self.next.compare_exchange_weak(
                current,
                raised,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return,
                Err(actual) => current = actual,
            }
        }
    }

    fn halt(&self) {
        self.next.fetch_or(HALTED, Ordering::Relaxed);
    }

    fn resume(&self) {
        // Release: whoever sees the generator running again sees the ceiling and floor
        // set before this (the memory model says so, not the network's delay).
        self.next.fetch_and(!HALTED, Ordering::AcqRel);
    }

    fn is_halted(&self) -> bool {
        self.next.load(Ordering::Relaxed) & HALTED != 0
    }
}

impl<C: Clock + fmt::Debug> fmt::Debug for Generator<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("identity", &self.identity)
            .field("tolerance_ms", &self.tolerance_ms)
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}
