//! [`Sequencer`]: the lock-free reservation of `timestamp << 12 | sequence` that
//! [`Generator`](crate::Generator) and [`FencedGenerator`](crate::fence::FencedGenerator)
//! both issue from. The one copy of the algorithm, generic over its [`Bound`]: a plain
//! generator's bound is none, and compiles away from its hot path.

#[cfg(not(loom))]
use core::sync::atomic::{AtomicU64, Ordering};
use core::time::Duration;
use std::time::Instant;

// Under `--cfg loom` the atomics are loom's, whose model checker then tries every
// interleaving of the threads in `tests/loom.rs`.
#[cfg(loom)]
use loom::sync::atomic::{AtomicU64, Ordering};

use crate::clock::Clock;
use crate::error::GenerateError;
use crate::format::{
    MAX_SEQUENCE, MAX_TIMESTAMP_DELTA, MAX_TIMESTAMP_MS, SEQUENCE_BITS, TIMESTAMP_SHIFT,
    TWITTER_EPOCH_MS,
};
use crate::identity::Identity;
use crate::snowflake::Snowflake;

/// How far a clock may step back and be waited for, unless set otherwise: 1 s.
pub(crate) const DEFAULT_TOLERANCE_MS: u64 = 1000;

/// The sequence's bits of `next`, as the `u64` that the hot path masks with.
const SEQUENCE_MASK: u64 = MAX_SEQUENCE as u64;

/// The bit of `next` that halts a fenced generator. `next` itself never reaches it: 41
/// bits of timestamp and 12 of sequence. A plain generator never sets it.
const HALTED: u64 = 1 << 63;

/// How far a sequencer may issue: a plain generator to the format's end, a fenced one to
/// its ceiling too.
pub(crate) trait Bound: Send + Sync {
    /// One past the last millisecond (since the epoch) that the hot path may issue in: the
    /// format's end, or the ceiling's, whichever comes first. One comparison for both.
    fn end(&self) -> u64;
    /// The ceiling as set, in Unix ms; `u64::MAX` for none. What the slow path judges by
    /// and names in its error.
    fn ceiling_ms(&self) -> u64;
}

/// One past the format's last millisecond since the epoch.
pub(crate) const END: u64 = MAX_TIMESTAMP_DELTA + 1;

/// No bound: a plain generator's. Its end is a constant, so that the hot path reads one
/// atomic, not two.
pub(crate) struct Unbounded;

impl Bound for Unbounded {
    #[inline]
    fn end(&self) -> u64 {
        END
    }

    #[inline]
    fn ceiling_ms(&self) -> u64 {
        u64::MAX
    }
}

/// The reservation state of one identity's IDs, and how it reads the clock.
pub(crate) struct Sequencer<C, B> {
    /// The smallest `timestamp << 12 | sequence` that may be issued next, and [`HALTED`]
    /// while halted: one atomic, so that a halt is seen by every compare-and-swap that
    /// comes after it.
    next: AtomicU64,
    pub(crate) bound: B,
    /// The identity's datacenter and machine bits, already in place: a `u32`, so that the
    /// compiler sees they cannot reach the sign bit of an ID.
    identity_bits: u32,
    identity: Identity,
    /// How far behind the last issued ID the clock may fall and be waited for.
    tolerance_ms: u64,
    clock: C,
}

impl<C, B> Sequencer<C, B> {
    /// Nothing issued yet, for `identity` on `clock`, with the default tolerance.
    // Loom's atomics cannot be built in a `const fn`: under `--cfg loom` it is a plain one.
    #[cfg(not(loom))]
    pub(crate) const fn new(identity: Identity, clock: C, bound: B) -> Sequencer<C, B> {
        Sequencer {
            next: AtomicU64::new(0),
            bound,
            identity_bits: identity.bits(),
            identity,
            tolerance_ms: DEFAULT_TOLERANCE_MS,
            clock,
        }
    }

    /// The same under loom (not `const`).
    #[cfg(loom)]
    pub(crate) fn new(identity: Identity, clock: C, bound: B) -> Sequencer<C, B> {
        Sequencer {
            next: AtomicU64::new(0),
            bound,
            identity_bits: identity.bits(),
            identity,
            tolerance_ms: DEFAULT_TOLERANCE_MS,
            clock,
        }
    }

    /// The same state on another clock; what was issued is kept.
    pub(crate) fn with_clock<D>(self, clock: D) -> Sequencer<D, B> {
        Sequencer {
            next: AtomicU64::new(self.next.load(Ordering::Relaxed)),
            bound: self.bound,
            identity_bits: self.identity_bits,
            identity: self.identity,
            tolerance_ms: self.tolerance_ms,
            clock,
        }
    }

    /// Sets the tolerance, rounded down to whole milliseconds, clamped to `u64::MAX` ms.
    pub(crate) const fn set_tolerance(&mut self, tolerance: Duration) {
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
    }

    pub(crate) const fn tolerance(&self) -> Duration {
        Duration::from_millis(self.tolerance_ms)
    }

    pub(crate) const fn tolerance_ms(&self) -> u64 {
        self.tolerance_ms
    }

    pub(crate) const fn clock(&self) -> &C {
        &self.clock
    }

    pub(crate) const fn identity(&self) -> Identity {
        self.identity
    }

    /// Issues nothing at or below `timestamp_ms` from now on; never lowers what was
    /// issued, keeps a halt.
    pub(crate) fn raise_floor(&self, timestamp_ms: u64) {
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

    /// Sets the halt bit: every compare-and-swap after this fails, and every reservation
    /// sees it.
    pub(crate) fn halt(&self) {
        self.next.fetch_or(HALTED, Ordering::Relaxed);
    }

    pub(crate) fn resume(&self) {
        // Release: whoever sees the generator running again sees the ceiling and floor
        // set before this (the memory model says so, not the network's delay).
        self.next.fetch_and(!HALTED, Ordering::AcqRel);
    }

    pub(crate) fn is_halted(&self) -> bool {
        self.next.load(Ordering::Relaxed) & HALTED != 0
    }

    /// The ID for a reserved `timestamp << 12 | sequence`.
    #[inline]
    fn id(&self, next: u64) -> Snowflake {
        let timestamp = next >> SEQUENCE_BITS;
        Snowflake::from_valid(
            (timestamp << TIMESTAMP_SHIFT) | u64::from(self.identity_bits) | (next & SEQUENCE_MASK),
        )
    }
}

impl<C: Clock, B: Bound> Sequencer<C, B> {
    /// One ID; `WAIT` says whether to wait for the clock or answer
    /// [`GenerateError::WouldWait`]. The common case (the clock in the format's span and
    /// in a millisecond with IDs left, no halt, under the bound) is decided by one test and
    /// one CAS, here inlined into the caller; every other case, and a CAS that lost a race,
    /// goes to [`reserve_from`](Sequencer::reserve_from), which judges it afresh. The reads
    /// and their orders are those of its first round, so the two agree on every
    /// interleaving.
    #[inline]
    pub(crate) fn next_one<const WAIT: bool>(&self) -> Result<Snowflake, GenerateError> {
        let now_ms = self.clock.now_ms();
        // `next` first, with Acquire: a `resume` seen there brings the ceiling set before it.
        let current = self.next.load(Ordering::Acquire);
        let end = self.bound.end();
        // Before the epoch, this wraps to past the span, and fails the test below.
        let now = now_ms.wrapping_sub(TWITTER_EPOCH_MS);
        let candidate = current.max(now << SEQUENCE_BITS);
        // The candidate is in the clock's own millisecond: not ahead of it (a used-up
        // millisecond, a clock stepped back), and not halted (the halt bit would put it
        // far past); and that millisecond is within the span and under the ceiling.
        if candidate >> SEQUENCE_BITS == now
            && now < end
            // Relaxed on success, Acquire on failure: as in `reserve_from`.
            && self
                .next
                .compare_exchange_weak(current, candidate + 1, Ordering::Relaxed, Ordering::Acquire)
                .is_ok()
        {
            return Ok(self.id(candidate));
        }
        self.next_one_slowly::<WAIT>(now_ms)
    }

    /// [`next_one`](Sequencer::next_one) outside its common case, on the clock reading it
    /// took.
    #[cold]
    #[inline(never)]
    fn next_one_slowly<const WAIT: bool>(&self, now_ms: u64) -> Result<Snowflake, GenerateError> {
        let (first, _) = self.reserve_from::<WAIT>(1, now_ms)?;
        Ok(self.id(first))
    }

    /// Fills `out`, waiting for the clock where it must; see `Generator::try_fill`.
    pub(crate) fn fill(&self, out: &mut [Snowflake]) -> Result<(), GenerateError> {
        let mut rest = out;
        while !rest.is_empty() {
            let wanted = u64::try_from(rest.len()).unwrap_or(u64::MAX);
            let (first, count) = self.reserve_from::<true>(wanted, self.clock.now_ms())?;
            // `count` is at most 4,096 and at most `rest.len()`.
            let (batch, tail) = rest.split_at_mut(usize::try_from(count).unwrap_or(usize::MAX));
            self.write_batch(batch, first);
            rest = tail;
        }
        Ok(())
    }

    /// Fills the front of `out` with what can be issued at once; see
    /// `Generator::try_fill_now`.
    pub(crate) fn fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        let mut done = 0;
        while done < out.len() {
            let wanted = u64::try_from(out.len() - done).unwrap_or(u64::MAX);
            let (first, count) = match self.reserve_from::<false>(wanted, self.clock.now_ms()) {
                Ok(reserved) => reserved,
                Err(e) if done == 0 => return Err(e),
                Err(_) => break,
            };
            let count = usize::try_from(count).unwrap_or(usize::MAX);
            self.write_batch(&mut out[done..done + count], first);
            done += count;
        }
        Ok(done)
    }

    /// Writes the IDs of a reservation from `first` on into `batch`, as long as it is: one
    /// millisecond's, so one check of the first serves them all.
    #[inline]
    fn write_batch(&self, batch: &mut [Snowflake], first: u64) {
        let first = self.id(first);
        for (slot, n) in batch.iter_mut().zip(0..) {
            *slot = first.later_in_batch(n);
        }
    }

    /// The clock's reading as milliseconds since the epoch.
    #[inline]
    fn now(&self) -> Result<u64, GenerateError> {
        since_epoch(self.clock.now_ms())
    }

    /// Reserves up to `wanted` (at least 1) consecutive IDs of one millisecond from a
    /// clock reading already taken, `now_ms`: returns the first `timestamp << 12 |
    /// sequence` and how many. Waits for the clock when it has to if `WAIT`, and returns
    /// [`GenerateError::WouldWait`] if not.
    #[inline]
    fn reserve_from<const WAIT: bool>(
        &self,
        wanted: u64,
        now_ms: u64,
    ) -> Result<(u64, u64), GenerateError> {
        let mut now = since_epoch(now_ms)?;
        // `next` first, with Acquire: a `resume` seen there brings the ceiling set
        // before it.
        let mut current = self.next.load(Ordering::Acquire);
        let mut ceiling_ms = self.bound.ceiling_ms();
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
                    ceiling_ms = self.bound.ceiling_ms();
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
                    ceiling_ms = self.bound.ceiling_ms();
                }
            }
        }
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
            judge_wait(
                now + TWITTER_EPOCH_MS,
                from_ms,
                until_ms,
                started.elapsed(),
                self.tolerance_ms,
            )?;
        }
        Ok(now)
    }
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

/// Whether a wait for the clock has gone on too long: the clock counts as stalled when it
/// still reads (`now_ms`) before `until_ms` after `waited`, longer than the wait expected
/// from `from_ms` (where the clock stood when the wait began) plus the tolerance. The
/// generators judge their own waits so, and so does a caller that waits on a timer after
/// [`GenerateError::WouldWait`] (`next_id_async`, the server's queue, through
/// `__private::check_wait`), so that all say "stalled" alike, and only of a clock that did
/// not advance.
pub(crate) fn judge_wait(
    now_ms: u64,
    from_ms: u64,
    until_ms: u64,
    waited: Duration,
    tolerance_ms: u64,
) -> Result<(), GenerateError> {
    // A clock that cannot be an ID's says so first.
    since_epoch(now_ms)?;
    let budget_ms = until_ms
        .saturating_sub(from_ms)
        .saturating_add(tolerance_ms)
        .max(1);
    let waited_ms = u64::try_from(waited.as_millis()).unwrap_or(u64::MAX);
    if now_ms < until_ms && waited_ms > budget_ms {
        return Err(GenerateError::ClockStalled { waited_ms });
    }
    Ok(())
}
