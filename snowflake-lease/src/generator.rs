//! [`LeasedGenerator`]: a [`Generator`] that issues only while its identity is
//! leased, and only up to the time it reserved; the background task that keeps both.

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use snowflake_runtime::{Clock, GenerateError, Generator, Snowflake, SystemClock};
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::{Instant, sleep, timeout};

use crate::error::LeaseError;
use crate::options::{Choice, LeaseOptions, OnLoss, host_name};
use crate::store::{Claim, Identity, LeaseId, Reservation, Store};

/// What a [`LeasedGenerator`] is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum State {
    /// It holds its identity and issues IDs.
    Holding,
    /// It lost its lease (the reason) and is claiming its identity again; it issues nothing.
    Reclaiming(String),
    /// It stopped for good (the reason); it issues nothing.
    Stopped(String),
    /// It was released: the lease is revoked, the high-water mark stays.
    Released,
}

/// What can be seen of a [`LeasedGenerator`]: [`LeasedGenerator::status`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Status {
    /// The identity it holds or held.
    pub identity: Identity,
    /// What it is doing.
    pub state: State,
    /// Until when the lease counts as valid, in Unix ms of the generator's clock
    /// (projected from the monotonic clock, which it is measured on).
    pub lease_valid_until_ms: u64,
    /// The last Unix ms it may stamp an ID with.
    pub ceiling_ms: u64,
    /// The high-water mark it last committed, Unix ms.
    pub hwm_ms: u64,
    /// How many times it lost its lease.
    pub lease_losses: u64,
    /// How many calls it refused (past the ceiling, or without a lease).
    pub refusals: u64,
}

struct Shared<C: Clock> {
    generator: Generator<C>,
    identity: Identity,
    status: Mutex<Status>,
    lease_losses: AtomicU64,
    refusals: AtomicU64,
    /// Set by `release`: a reclaim in flight must not resume the generator.
    stopping: AtomicBool,
}

impl<C: Clock> Shared<C> {
    fn update(&self, change: impl FnOnce(&mut Status)) {
        change(&mut self.status.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

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
/// Preconditions: nobody deletes or lowers the HWM keys (`{prefix}/hwm/..`), and
/// etcd is not restored from a snapshot older than the HWMs in use.
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
/// let options = LeaseOptions::default().fixed(Identity::new(1, 1)?);
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
    /// a fixed identity held for longer than the claim wait, or the clock too far
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
        options.check()?;
        let store = Arc::new(store);
        let lease = store.grant(options.ttl).await?;
        let margin = options.ttl / 10;
        // Boxed: the claim's store calls make a large future for every caller to hold.
        let started = Box::pin(async {
            let (identity, hwm_ms) = claim(&*store, &options, &clock, lease).await?;
            let (ttl, bound) = (options.ttl, options.max_clock_wait);
            wait_above(&*store, lease, ttl, &clock, identity, hwm_ms, bound).await?;
            let generator = Generator::with_clock(
                u64::from(identity.datacenter),
                u64::from(identity.machine),
                clock,
            )
            .map_err(|e| LeaseError::InvalidOption(e.to_string()))?;
            // Nothing at or below the HWM, even if the clock steps back later;
            // nothing at all before the first reservation.
            generator.raise_floor(hwm_ms);
            generator.set_ceiling(Some(0));
            let valid_until = renew(&*store, lease, options.ttl, margin).await?;
            Ok::<_, LeaseError>((identity, hwm_ms, generator, valid_until))
        })
        .await;
        let (identity, hwm_ms, generator, valid_until) = match started {
            Ok(started) => started,
            Err(e) => {
                let _ = store.release(lease).await;
                return Err(e);
            }
        };
        let shared = Arc::new(Shared {
            generator,
            identity,
            status: Mutex::new(Status {
                identity,
                state: State::Holding,
                lease_valid_until_ms: 0,
                ceiling_ms: 0,
                hwm_ms,
                lease_losses: 0,
                refusals: 0,
            }),
            lease_losses: AtomicU64::new(0),
            refusals: AtomicU64::new(0),
            stopping: AtomicBool::new(false),
        });
        let now = Instant::now();
        let mut holder = Holder {
            store,
            shared: Arc::clone(&shared),
            margin,
            tick: (options.ttl / 10)
                .min(options.window / 4)
                .min(Duration::from_millis(250)),
            next_keep_alive: now + options.ttl / 3,
            options,
            lease,
            hwm_ms,
            valid_until,
            anchor: None,
            ahead_since: None,
            unanswered: Vec::new(),
        };
        if let Err(reason) = Box::pin(holder.first_reservation()).await {
            let _ = holder.store.release(lease).await;
            return Err(LeaseError::Store(crate::StoreError(reason)));
        }
        let (stop, stopped) = watch::channel(false);
        let task = tokio::spawn(holder.run(stopped));
        Ok(LeasedGenerator {
            shared,
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

    /// How far the clock may step back and be waited for; see [`Generator::tolerance`].
    pub fn tolerance(&self) -> Duration {
        self.shared.generator.tolerance()
    }

    /// The identity held (or last held).
    pub fn identity(&self) -> Identity {
        self.shared.identity
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

/// Claims the identity that `options` choose: its high-water mark.
async fn claim<S: Store, C: Clock>(
    store: &S,
    options: &LeaseOptions,
    clock: &C,
    lease: LeaseId,
) -> Result<(Identity, u64), LeaseError> {
    let ttl = options.ttl;
    match options.choice {
        Choice::Fixed(identity) => {
            let deadline = Instant::now() + options.claim_wait;
            loop {
                match within(ttl, store.claim(identity, lease, &options.holder)).await? {
                    Claim::Won { hwm_ms } => return Ok((identity, hwm_ms)),
                    Claim::Held { by } if Instant::now() >= deadline => {
                        return Err(LeaseError::Held { identity, by });
                    }
                    Claim::Held { .. } => {
                        sleep((ttl / 20).max(Duration::from_millis(50))).await;
                        // Our own lease must outlive the wait.
                        within(ttl, store.keep_alive(lease)).await?;
                    }
                }
            }
        }
        Choice::Auto => {
            let poisoned_after = clock
                .now_ms()
                .saturating_add(millis(options.max_clock_wait));
            let first = start_index(&host_name());
            // Those free at one read first, in the order of the scan, then the rest:
            // one claim each for what looked free, not for the whole fleet.
            let held = within(ttl, store.held()).await?;
            let (free, taken): (Vec<Identity>, Vec<Identity>) = (0..Identity::COUNT)
                .map(|i| Identity::from_index(first.wrapping_add(i)))
                .partition(|identity| !held.contains(identity));
            for (i, identity) in free.into_iter().chain(taken).enumerate() {
                // A long scan must not outlive the lease it claims with.
                if i % 64 == 63 {
                    within(ttl, store.keep_alive(lease)).await?;
                }
                match within(ttl, store.claim(identity, lease, &options.holder)).await? {
                    // A holder with a clock far ahead once pushed it: skip, do not wait.
                    Claim::Won { hwm_ms } if hwm_ms > poisoned_after => {
                        within(ttl, store.unclaim(identity, lease)).await?;
                    }
                    Claim::Won { hwm_ms } => return Ok((identity, hwm_ms)),
                    Claim::Held { .. } => {}
                }
            }
            Err(LeaseError::AllHeld)
        }
    }
}

/// Where `auto` starts looking: a hash of the host name (FNV-1a), so that the
/// hosts of a fleet spread over the identities instead of racing for the first.
fn start_index(host: &str) -> u16 {
    let hash = host.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    u16::try_from(hash % u64::from(Identity::COUNT)).unwrap_or(0)
}

/// A store call bounded by a third of the TTL: a silent store is an error, never a hang.
async fn within<T>(
    ttl: Duration,
    call: impl Future<Output = Result<T, crate::StoreError>>,
) -> Result<T, crate::StoreError> {
    timeout(ttl / 3, call)
        .await
        .unwrap_or_else(|_| Err(crate::StoreError(format!("no answer within {:?}", ttl / 3))))
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// Waits until `clock` is past `hwm_ms`, if that is at most `bound` away, keeping
/// `lease` alive meanwhile (the wait may be longer than its TTL).
async fn wait_above<S: Store, C: Clock>(
    store: &S,
    lease: LeaseId,
    ttl: Duration,
    clock: &C,
    identity: Identity,
    hwm_ms: u64,
    bound: Duration,
) -> Result<(), LeaseError> {
    // Bounded in real time too, for a clock that does not move.
    let deadline = Instant::now() + bound + Duration::from_secs(1);
    loop {
        let now_ms = clock.now_ms();
        if now_ms > hwm_ms {
            return Ok(());
        }
        if hwm_ms - now_ms > millis(bound) || Instant::now() >= deadline {
            return Err(LeaseError::ClockBehind {
                identity,
                now_ms,
                hwm_ms,
                bound,
            });
        }
        sleep(Duration::from_millis(hwm_ms - now_ms + 1).min(ttl / 3)).await;
        within(ttl, store.keep_alive(lease)).await?;
    }
}

/// Renews `lease` now: until when it counts as valid (`sent + TTL - margin`).
async fn renew<S: Store>(
    store: &S,
    lease: LeaseId,
    ttl: Duration,
    margin: Duration,
) -> Result<Instant, LeaseError> {
    let sent = Instant::now();
    match within(ttl, store.keep_alive(lease)).await? {
        Some(granted) => Ok(sent + granted.min(ttl).saturating_sub(margin)),
        None => Err(LeaseError::Store(crate::StoreError(
            "the lease was lost while claiming".to_owned(),
        ))),
    }
}

/// Why the background task stopped issuing.
enum Loss {
    /// The lease is gone (or its ownership check failed): claim again, or stop.
    Lease(String),
    /// The clock has run ahead of real time for longer than the task tolerates.
    ClockAhead(String),
}

/// The background task's state: the lease, the committed high-water mark.
struct Holder<S: Store, C: Clock> {
    store: Arc<S>,
    shared: Arc<Shared<C>>,
    options: LeaseOptions,
    lease: LeaseId,
    /// The high-water mark last committed, Unix ms of the generator's clock.
    hwm_ms: u64,
    /// Until when the lease counts as valid: `sent + TTL - margin` of the last keep-alive.
    valid_until: Instant,
    next_keep_alive: Instant,
    margin: Duration,
    tick: Duration,
    /// The generator's clock at the first reservation, and the monotonic instant
    /// of that reading: reservations never run ahead of `anchor + real time
    /// elapsed + 1 s`, so that a clock that jumps ahead, or runs fast, cannot
    /// push the HWM far ahead for every later holder. Kept across reclaims.
    anchor: Option<(u64, Instant)>,
    /// Since when the clock has read past what real time allows.
    ahead_since: Option<Instant>,
    /// The marks this lease asked for whose answers never came (a timeout, a dropped
    /// connection): any of them may have been committed. Only these are taken as
    /// committed when a reservation finds the mark moved; any other mark was written
    /// by someone else, and fences this holder off.
    unanswered: Vec<u64>,
}

/// How many unanswered marks are remembered: a store silent for long sends many, and
/// forgetting an old one costs at worst a reclaim, never a duplicate.
const UNANSWERED: usize = 64;

/// Halts the generator if the background task ends without a stop: cancelled,
/// or its runtime shut down. Without it, nothing would say so.
struct HaltOnDrop<C: Clock>(Arc<Shared<C>>);

impl<C: Clock> Drop for HaltOnDrop<C> {
    fn drop(&mut self) {
        self.0.generator.halt();
        self.0.update(|s| {
            if matches!(s.state, State::Holding | State::Reclaiming(_)) {
                s.state = State::Stopped("the background task ended".to_owned());
            }
        });
    }
}

impl<S: Store, C: Clock> Holder<S, C> {
    fn clock(&self) -> &C {
        self.shared.generator.clock()
    }

    /// The clock as far as it can be trusted: at most the anchor plus the real
    /// time since it, plus a second.
    fn trusted_ms(&mut self, now_ms: u64) -> u64 {
        let (anchor_ms, at) = *self.anchor.get_or_insert((now_ms, Instant::now()));
        let allowed_ms = anchor_ms + millis(at.elapsed()) + 1000;
        if now_ms > allowed_ms {
            self.ahead_since.get_or_insert_with(Instant::now);
            allowed_ms
        } else {
            self.ahead_since = None;
            now_ms
        }
    }

    /// The first window, above the high-water mark read at the claim.
    async fn first_reservation(&mut self) -> Result<(), String> {
        let now_ms = self.clock().now_ms();
        if now_ms <= self.hwm_ms {
            return Err("the clock stepped back to the high-water mark while claiming".to_owned());
        }
        let reserve_ms = self.trusted_ms(now_ms).max(self.hwm_ms) + millis(self.options.window);
        let reserve = self
            .store
            .reserve(self.shared.identity, self.lease, self.hwm_ms, reserve_ms);
        match within(self.options.ttl, reserve).await {
            Ok(Reservation::Committed) => {
                self.hwm_ms = reserve_ms;
                self.publish();
                Ok(())
            }
            Ok(Reservation::NotOwner) => Err("the identity was lost while claiming".to_owned()),
            // Nothing of ours can have moved it yet.
            Ok(Reservation::Moved { hwm_ms }) => Err(format!(
                "the high-water mark moved while claiming, from {} to {hwm_ms} ms",
                self.hwm_ms
            )),
            Err(e) => Err(e.to_string()),
        }
    }

    async fn run(mut self, mut stop: watch::Receiver<bool>) {
        let _halt = HaltOnDrop(Arc::clone(&self.shared));
        loop {
            tokio::select! {
                () = sleep(self.tick) => {}
                _ = stop.changed() => return self.release().await,
            }
            let Err(loss) = self.step().await else {
                continue;
            };
            self.shared.generator.halt();
            // Free it at once if the store still knows the lease.
            let _ = within(self.options.ttl, self.store.release(self.lease)).await;
            let reason = match loss {
                Loss::ClockAhead(reason) => {
                    self.shared.update(|s| s.state = State::Stopped(reason));
                    return;
                }
                Loss::Lease(reason) => reason,
            };
            self.shared.lease_losses.fetch_add(1, Ordering::Relaxed);
            if self.options.on_loss == OnLoss::Stop {
                self.shared.update(|s| s.state = State::Stopped(reason));
                return;
            }
            self.shared
                .update(|s| s.state = State::Reclaiming(reason.clone()));
            // Held by another, the store down, a clock behind: try again, backing off.
            let mut backoff = self.tick;
            loop {
                tokio::select! {
                    () = sleep(backoff) => {}
                    _ = stop.changed() => return self.release().await,
                }
                let reclaimed = tokio::select! {
                    reclaimed = self.reclaim() => reclaimed,
                    _ = stop.changed() => return self.release().await,
                };
                match reclaimed {
                    Ok(()) => break,
                    Err(e) => {
                        self.shared
                            .update(|s| s.state = State::Reclaiming(format!("{reason}; {e}")));
                        backoff = (backoff * 2).min(self.options.ttl / 3);
                    }
                }
            }
        }
    }

    /// Keeps the lease, reserves time ahead, moves the ceiling.
    async fn step(&mut self) -> Result<(), Loss> {
        let ttl = self.options.ttl;
        if Instant::now() >= self.next_keep_alive {
            let sent = Instant::now();
            match within(ttl, self.store.keep_alive(self.lease)).await {
                Ok(Some(granted)) => {
                    self.valid_until = sent + granted.min(ttl).saturating_sub(self.margin);
                    self.next_keep_alive = sent + ttl / 3;
                }
                Ok(None) => {
                    return Err(Loss::Lease(
                        "the lease is gone: the keep-alive found no lease".to_owned(),
                    ));
                }
                // Silent or failing: try again soon; the lease runs out on its own.
                Err(_) => self.next_keep_alive = Instant::now() + self.tick,
            }
        }
        if Instant::now() >= self.valid_until {
            return Err(Loss::Lease(
                "the lease ran out while the store was silent".to_owned(),
            ));
        }
        let now_ms = self.clock().now_ms();
        let trusted_ms = self.trusted_ms(now_ms);
        if let Some(since) = self.ahead_since
            && since.elapsed() > ttl * 3
        {
            return Err(Loss::ClockAhead(format!(
                "the clock has read ahead of real time for {:?}, by {} ms",
                since.elapsed(),
                now_ms - trusted_ms
            )));
        }
        let window = millis(self.options.window);
        let reserve_ms = trusted_ms + window;
        if self.hwm_ms.saturating_sub(trusted_ms) < window / 2 && reserve_ms > self.hwm_ms {
            let reserve =
                self.store
                    .reserve(self.shared.identity, self.lease, self.hwm_ms, reserve_ms);
            match within(ttl, reserve).await {
                Ok(Reservation::Committed) => {
                    self.hwm_ms = reserve_ms;
                    // Each asked to move the mark from where it no longer is: none can
                    // commit now.
                    self.unanswered.clear();
                }
                Ok(Reservation::NotOwner) => {
                    return Err(Loss::Lease(
                        "the ownership check failed: the lease is off the owner key".to_owned(),
                    ));
                }
                // Our own earlier reservation, committed though its answer was lost:
                // committed is all the fence asks. The next tick reserves above it.
                Ok(Reservation::Moved { hwm_ms }) if self.unanswered.contains(&hwm_ms) => {
                    self.hwm_ms = hwm_ms;
                    self.unanswered.clear();
                }
                Ok(Reservation::Moved { hwm_ms }) => {
                    return Err(Loss::Lease(format!(
                        "the high-water mark was changed behind this holder's back, from {} \
                         to {hwm_ms} ms",
                        self.hwm_ms
                    )));
                }
                // Try again at the next tick; the ceiling stays where it is.
                Err(_) => {
                    if self.unanswered.len() == UNANSWERED {
                        self.unanswered.remove(0);
                    }
                    self.unanswered.push(reserve_ms);
                }
            }
        }
        self.publish();
        Ok(())
    }

    /// Sets the generator's ceiling: the committed HWM, and never past the lease's end.
    fn publish(&self) {
        let now_ms = self.clock().now_ms();
        let left = self.valid_until.saturating_duration_since(Instant::now());
        let valid_until_ms = now_ms + millis(left);
        let ceiling_ms = self.hwm_ms.min(valid_until_ms.saturating_sub(1));
        self.shared.generator.set_ceiling(Some(ceiling_ms));
        let hwm_ms = self.hwm_ms;
        self.shared.update(|s| {
            s.lease_valid_until_ms = valid_until_ms;
            s.ceiling_ms = ceiling_ms;
            s.hwm_ms = hwm_ms;
        });
    }

    /// A new lease on the same identity, above its high-water mark; then issues again.
    async fn reclaim(&mut self) -> Result<(), LeaseError> {
        let ttl = self.options.ttl;
        // The old lease may have outlived a store that was down (etcd restores
        // leases on restart): revoke it, or our own owner key holds us off.
        within(ttl, self.store.release(self.lease)).await?;
        let lease = within(ttl, self.store.grant(ttl)).await?;
        let identity = self.shared.identity;
        let claimed = within(ttl, self.store.claim(identity, lease, &self.options.holder)).await;
        let hwm_ms = match claimed {
            Ok(Claim::Won { hwm_ms }) => hwm_ms,
            Ok(Claim::Held { by }) => {
                let _ = within(ttl, self.store.release(lease)).await;
                return Err(LeaseError::Held { identity, by });
            }
            Err(e) => {
                let _ = within(ttl, self.store.release(lease)).await;
                return Err(e.into());
            }
        };
        // Nothing at or below what the holders in between may have used.
        self.shared.generator.raise_floor(hwm_ms);
        let bound = self.options.max_clock_wait;
        let waited = wait_above(
            &*self.store,
            lease,
            ttl,
            self.clock(),
            identity,
            hwm_ms,
            bound,
        )
        .await;
        let valid_until = match waited {
            Ok(()) => renew(&*self.store, lease, ttl, self.margin).await,
            Err(e) => Err(e),
        };
        let valid_until = match valid_until {
            Ok(valid_until) => valid_until,
            Err(e) => {
                let _ = within(ttl, self.store.release(lease)).await;
                return Err(e);
            }
        };
        self.lease = lease;
        self.hwm_ms = hwm_ms;
        // Asked under the old lease, which is off the owner key now: none can commit.
        self.unanswered.clear();
        self.valid_until = valid_until;
        self.next_keep_alive = Instant::now() + ttl / 3;
        if let Err(reason) = self.first_reservation().await {
            let _ = within(ttl, self.store.release(lease)).await;
            return Err(LeaseError::Store(crate::StoreError(reason)));
        }
        if self.shared.stopping.load(Ordering::SeqCst) {
            return Err(LeaseError::Store(crate::StoreError("released".to_owned())));
        }
        self.shared.update(|s| s.state = State::Holding);
        self.shared.generator.resume();
        Ok(())
    }

    async fn release(self) {
        self.shared.generator.halt();
        let _ = within(self.options.ttl, self.store.release(self.lease)).await;
        self.shared.update(|s| s.state = State::Released);
    }
}
