//! [`LeasedGenerator`]: a [`FencedGenerator`](snowflake_runtime::fence::FencedGenerator)
//! that issues only while its identity is leased, and only up to the time it reserved.
//! Acquiring is in `acquire.rs`, the background task in `holder.rs`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

#[cfg(doc)]
use snowflake_runtime::Generator;
use snowflake_runtime::fence::FencedGenerator;
use snowflake_runtime::typed::{Id, Kind};
use snowflake_runtime::{Clock, GenerateError, Snowflake, SystemClock};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::acquire::{Trust, acquire, millis};
use crate::error::LeaseError;
use crate::events::event;
use crate::holder::Holder;
use crate::options::{Choice, LeaseOptions};
use crate::status::{Shared, State, Status};
use crate::store::{Identity, Store};

/// Issues IDs like a [`Generator`], for an identity leased from a [`Store`].
///
/// # The guarantee
///
/// **No two holders of an identity ever issue IDs in the same millisecond**,
/// whatever pauses, clock skew, clock steps and restarts do, and a holder that
/// lost its lease issues nothing more:
///
/// - every ID's timestamp is at most a high-water mark (HWM) that its holder
///   committed, in a transaction that checked it still owned the identity;
/// - a new holder reads the HWM in the transaction that makes it the owner, and
///   issues only above it (waiting up to [`LeaseOptions::max_clock_wait`] for a
///   clock that is behind);
/// - a holder paused past its lease wakes to a clock past its ceiling (the last
///   committed HWM, and the lease's end): it refuses, and its background task
///   finds the lease gone and halts the generator.
///
/// The preconditions, which the fence cannot check for itself (one store and one prefix
/// for every holder of an identity, no plain [`Generator`] with a leased pair, high-water
/// marks never lowered): [the protocol](https://github.com/snowflake-kit/snowflake-kit/blob/main/docs/lease-protocol.md#the-guarantee-and-its-preconditions).
///
/// # The hot path
///
/// [`try_next_id`](LeasedGenerator::try_next_id) is the [`Generator`]'s: one clock
/// reading, one compare-and-swap, and the ceiling read beside them; no lock, no
/// I/O. Past the ceiling or without a lease it returns an error at once, never
/// waiting on the network.
///
/// ```
/// use snowflake_lease::{Identity, LeaseOptions, LeasedGenerator, MemStore};
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let options = LeaseOptions::default().exact(Identity::new(1, 1)?);
/// let generator = LeasedGenerator::start(MemStore::new(), options).await?;
/// let (a, b) = (generator.try_next_id()?, generator.try_next_id()?);
/// assert!(a < b);
/// assert_eq!((b.datacenter(), b.machine()), (1, 1));
/// generator.release().await;
/// assert!(generator.try_next_id().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
/// ```
pub struct LeasedGenerator<C: Clock + 'static = SystemClock> {
    shared: Arc<Shared<C>>,
    choice: Choice,
    stop: watch::Sender<bool>,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl<C: Clock + 'static> std::fmt::Debug for LeasedGenerator<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LeasedGenerator")
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

impl LeasedGenerator<SystemClock> {
    /// Claims an identity from `store` as `options` say, waits until the clock is
    /// above its high-water mark, reserves the first window, and starts the
    /// background task (on the current tokio runtime) that keeps the lease and the
    /// ceiling ahead.
    ///
    /// # Errors
    ///
    /// A [`LeaseError`]: invalid options, the store failing, every identity held,
    /// an exact identity held for longer than the claim wait, or the clock too far
    /// behind the high-water mark.
    pub async fn start<S: Store>(store: S, options: LeaseOptions) -> Result<Self, LeaseError> {
        LeasedGenerator::start_with_clock(store, options, SystemClock).await
    }
}

impl<C: Clock + 'static> LeasedGenerator<C> {
    /// [`start`](LeasedGenerator::start) with another clock for the IDs (and the
    /// high-water marks, which are on the same clock), such as a test's.
    ///
    /// # Errors
    ///
    /// As [`start`](LeasedGenerator::start).
    pub async fn start_with_clock<S: Store>(
        store: S,
        options: LeaseOptions,
        clock: C,
    ) -> Result<Self, LeaseError> {
        LeasedGenerator::start_reporting(store, options, clock, &|_| {}).await
    }

    /// [`start_with_clock`](LeasedGenerator::start_with_clock), telling `report` each
    /// refusal that the start waits out: an exact identity held by another
    /// ([`LeaseError::Held`]), every machine of a datacenter held
    /// ([`LeaseError::DatacenterFull`]). A server says so while it waits.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use std::time::Duration;
    /// use snowflake_kit::SystemClock;
    /// use snowflake_lease::{Identity, LeaseOptions, LeasedGenerator, MemStore};
    ///
    /// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
    /// let store = MemStore::new();
    /// let identity = Identity::new(3, 3)?;
    /// let lease = snowflake_lease::Store::grant(&store, Duration::from_secs(10)).await?;
    /// snowflake_lease::Store::claim(&store, identity, lease, "another").await?;
    ///
    /// let mut options = LeaseOptions::default().exact(identity);
    /// options.claim_wait = Duration::from_millis(200);
    /// let heard = Mutex::new(Vec::new());
    /// let report = |e: &snowflake_lease::LeaseError| heard.lock().unwrap().push(e.to_string());
    /// let started = LeasedGenerator::start_reporting(store, options, SystemClock, &report).await;
    /// assert!(started.is_err());
    /// assert_eq!(heard.lock().unwrap()[0], "identity 03/03 is held by \"another\"");
    /// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
    /// ```
    ///
    /// # Errors
    ///
    /// As [`start`](LeasedGenerator::start).
    pub async fn start_reporting<S: Store>(
        store: S,
        options: LeaseOptions,
        clock: C,
        report: &(dyn Fn(&LeaseError) + Send + Sync),
    ) -> Result<Self, LeaseError> {
        options.check()?;
        let store = Arc::new(store);
        let mut trust = Trust::default();
        let started = tokio::time::Instant::now();
        // Boxed: the claim's store calls make a large future for every caller to hold.
        let acquired = Box::pin(acquire(
            &*store,
            &options,
            options.choice,
            &clock,
            &mut trust,
            &mut None,
            report,
        ))
        .await?;
        event!(
            INFO,
            datacenter = acquired.identity.datacenter(),
            machine = acquired.identity.machine(),
            above_ms = acquired.floor_ms,
            reserved_to_ms = acquired.hwm_ms,
            waited_ms = millis(started.elapsed()),
            ttl_s = options.ttl.as_secs(),
            window_ms = millis(options.window),
            "identity claimed"
        );
        let _ = started;
        let generator = FencedGenerator::new(acquired.identity).with_clock(clock);
        // Nothing at or below the HWM, even if the clock steps back later.
        generator.raise_floor(acquired.floor_ms);
        let shared = Arc::new(Shared {
            generator,
            status: Mutex::new(Status {
                identity: acquired.identity,
                state: State::Holding,
                lease_valid_until_ms: 0,
                ceiling_ms: 0,
                hwm_ms: acquired.hwm_ms,
                lease_losses: 0,
                refusals: 0,
            }),
            lease_losses: AtomicU64::new(0),
            refusals: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
        });
        let choice = options.choice;
        let holder = Holder::new(store, Arc::clone(&shared), options, &acquired, trust);
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(holder.run(stopped));
        Ok(LeasedGenerator {
            shared,
            choice,
            stop,
            task: Mutex::new(Some(task)),
        })
    }

    /// The next ID, or why there is none: the [`Generator`]'s errors, and
    /// [`GenerateError::AboveCeiling`] past the reserved time or the lease's end,
    /// [`GenerateError::Halted`] without a lease. Never waits on the network.
    ///
    /// # Errors
    ///
    /// A [`GenerateError`], counted in [`Status::refusals`].
    #[inline]
    pub fn try_next_id(&self) -> Result<Snowflake, GenerateError> {
        self.shared.generator.try_next_id().inspect_err(|_| {
            self.shared.refusals.fetch_add(1, Ordering::Relaxed);
        })
    }

    /// The next ID as one of kind `K` ([`typed`](snowflake_runtime::typed)):
    /// [`try_next_id`](LeasedGenerator::try_next_id), at its cost.
    ///
    /// # Errors
    ///
    /// As `try_next_id`.
    #[inline]
    pub fn try_next_id_of<K: Kind>(&self) -> Result<Id<K>, GenerateError> {
        self.try_next_id().map(Id::from_snowflake)
    }

    /// The next ID if it can be issued at once; see [`Generator::try_next_id_now`]. For
    /// async callers: neither the network nor the clock is waited for.
    ///
    /// # Errors
    ///
    /// As [`try_next_id`](LeasedGenerator::try_next_id), and
    /// [`GenerateError::WouldWait`] where it would wait for the clock; a `WouldWait` is
    /// not counted as a refusal.
    #[inline]
    pub fn try_next_id_now(&self) -> Result<Snowflake, GenerateError> {
        self.shared.generator.try_next_id_now().inspect_err(|e| {
            if !matches!(e, GenerateError::WouldWait { .. }) {
                self.shared.refusals.fetch_add(1, Ordering::Relaxed);
            }
        })
    }

    /// Fills `out` with IDs; see [`Generator::try_fill`].
    ///
    /// # Errors
    ///
    /// As [`try_next_id`](LeasedGenerator::try_next_id); the IDs written before
    /// the error are issued.
    pub fn try_fill(&self, out: &mut [Snowflake]) -> Result<(), GenerateError> {
        self.shared.generator.try_fill(out).inspect_err(|_| {
            self.shared.refusals.fetch_add(1, Ordering::Relaxed);
        })
    }

    /// Fills the front of `out` with IDs that can be issued at once, and returns how many;
    /// see [`Generator::try_fill_now`]. For async callers, which wait on a timer.
    ///
    /// # Errors
    ///
    /// As [`try_next_id_now`](LeasedGenerator::try_next_id_now).
    pub fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        self.shared.generator.try_fill_now(out).inspect_err(|e| {
            if !matches!(e, GenerateError::WouldWait { .. }) {
                self.shared.refusals.fetch_add(1, Ordering::Relaxed);
            }
        })
    }

    /// The clock the IDs are stamped with.
    pub fn clock(&self) -> &C {
        self.shared.generator.clock()
    }

    /// How far the clock may step back and be waited for; see [`Generator::tolerance`].
    pub fn tolerance(&self) -> Duration {
        self.shared.generator.tolerance()
    }

    /// How the identity was chosen: exactly, any free machine of a datacenter, or any.
    pub fn choice(&self) -> Choice {
        self.choice
    }

    /// The identity held (or last held).
    pub fn identity(&self) -> Identity {
        self.shared.identity()
    }

    /// What it is doing, and its counters.
    pub fn status(&self) -> Status {
        let mut status = self
            .shared
            .status
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        status.lease_losses = self.shared.lease_losses.load(Ordering::Relaxed);
        status.refusals = self.shared.refusals.load(Ordering::Relaxed);
        status
    }

    /// Stops issuing at once, then revokes the lease so that the identity is free
    /// for the next holder (the high-water mark stays). Returns when both are done.
    pub async fn release(&self) {
        self.shared.stopping.store(true, Ordering::SeqCst);
        self.shared.generator.halt();
        let _ = self.stop.send(true);
        let task = self
            .task
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(task) = task {
            let _ = task.await;
        }
    }
}

impl<C: Clock + 'static> Drop for LeasedGenerator<C> {
    fn drop(&mut self) {
        // The task revokes the lease on its own, if the runtime still runs.
        self.shared.generator.halt();
        let _ = self.stop.send(true);
    }
}
