//! Acquiring an identity, the one way both the start and a reclaim take: grant a lease,
//! claim, wait for the clock to pass the high-water mark, renew, reserve the first
//! window. A failure at any step releases the new lease, here and nowhere else.

use std::future::Future;
use std::time::Duration;

use snowflake_runtime::Clock;
use tokio::time::{Instant, sleep, timeout};

use crate::error::LeaseError;
use crate::events::event;
use crate::options::{Choice, LeaseOptions, host_name};
use crate::store::{Claim, Identity, LeaseId, Reservation, Store, StoreError, StoreErrorKind};
use crate::uptime;

/// What a successful [`acquire`] holds.
pub(crate) struct Acquired {
    pub(crate) identity: Identity,
    pub(crate) lease: LeaseId,
    /// The high-water mark read at the claim: nothing at or below it may be issued.
    pub(crate) floor_ms: u64,
    /// The high-water mark committed by the first reservation: the first ceiling.
    pub(crate) hwm_ms: u64,
    /// Until when the lease counts as valid: `sent + TTL - margin` of the last keep-alive,
    /// on the clock that counts a suspend ([`uptime::now`]).
    pub(crate) valid_until: Instant,
}

/// The clock as far as it can be trusted: the generator's clock at the first
/// reservation, and the monotonic instant of that reading. Reservations never run ahead
/// of `anchor + real time elapsed + 1 s`, so that a clock that jumps ahead, or runs
/// fast, cannot push the HWM far ahead for every later holder. Kept across reclaims.
#[derive(Default)]
pub(crate) struct Trust {
    anchor: Option<(u64, Instant)>,
    /// Since when the clock has read past what real time allows.
    pub(crate) ahead_since: Option<Instant>,
}

impl Trust {
    /// `now_ms`, or what real time allows if the clock reads further ahead.
    pub(crate) fn trusted_ms(&mut self, now_ms: u64) -> u64 {
        // Real time counts a suspend, as the wall clock does.
        let (anchor_ms, at) = *self.anchor.get_or_insert((now_ms, uptime::now()));
        let allowed_ms = anchor_ms + millis(uptime::now().saturating_duration_since(at)) + 1000;
        if now_ms > allowed_ms {
            self.ahead_since.get_or_insert_with(Instant::now);
            allowed_ms
        } else {
            self.ahead_since = None;
            now_ms
        }
    }
}

/// Acquires the identity `choice` names, as `options` say. `pending` holds the new lease
/// from its grant until this returns: a caller that drops this future half-way (a stop
/// signal) finds the lease there, to release it. `report` hears each refusal that is
/// waited out (an identity held, a datacenter full).
pub(crate) async fn acquire<S: Store, C: Clock>(
    store: &S,
    options: &LeaseOptions,
    choice: Choice,
    clock: &C,
    trust: &mut Trust,
    pending: &mut Option<LeaseId>,
    report: Report<'_>,
) -> Result<Acquired, LeaseError> {
    let ttl = options.ttl;
    let lease = within(ttl, store.grant(ttl)).await?;
    *pending = Some(lease);
    let acquired = steps(store, options, choice, clock, trust, lease, report).await;
    if acquired.is_err() {
        let _ = within(ttl, store.release(lease)).await;
    }
    *pending = None;
    acquired
}

/// Who hears the refusals a claim waits out.
pub(crate) type Report<'a> = &'a (dyn Fn(&LeaseError) + Send + Sync);

/// The steps after the grant.
async fn steps<S: Store, C: Clock>(
    store: &S,
    options: &LeaseOptions,
    choice: Choice,
    clock: &C,
    trust: &mut Trust,
    lease: LeaseId,
    report: Report<'_>,
) -> Result<Acquired, LeaseError> {
    let ttl = options.ttl;
    let (identity, floor_ms) = claim(store, options, choice, clock, lease, report).await?;
    wait_above(store, options, clock, lease, identity, floor_ms).await?;
    let valid_until = renew(store, options, lease, identity).await?;
    // The first window, above the mark read at the claim.
    let now_ms = clock.now_ms();
    if now_ms <= floor_ms {
        // The clock stepped back to the mark while claiming.
        return Err(LeaseError::ClockBehind {
            identity,
            now_ms,
            hwm_ms: floor_ms,
            bound: options.max_clock_wait,
        });
    }
    let hwm_ms = trust.trusted_ms(now_ms).max(floor_ms) + millis(options.window);
    match within(ttl, store.reserve(identity, lease, floor_ms, hwm_ms)).await? {
        Reservation::Committed => Ok(Acquired {
            identity,
            lease,
            floor_ms,
            hwm_ms,
            valid_until,
        }),
        Reservation::NotOwner => Err(LeaseError::Lost { identity }),
        // Nothing of ours can have moved it yet (a store that asks two members answers a
        // run that found the other's write as unanswered, not as this).
        Reservation::MarkMoved { found_ms } => Err(LeaseError::MarkMoved {
            identity,
            expected_ms: floor_ms,
            found_ms,
        }),
    }
}

/// Claims the identity `choice` names: it and its high-water mark. An exact identity, or
/// a datacenter whose machines are all held, is tried again until the claim wait has
/// passed, with this lease kept alive meanwhile; `auto` takes what it finds at once.
async fn claim<S: Store, C: Clock>(
    store: &S,
    options: &LeaseOptions,
    choice: Choice,
    clock: &C,
    lease: LeaseId,
    report: Report<'_>,
) -> Result<(Identity, u64), LeaseError> {
    let ttl = options.ttl;
    // Read once: every scan of this claim starts at the same place.
    let start = start_index(&host_name());
    let all = Identity::all;
    let deadline = Instant::now() + options.claim_wait;
    loop {
        let refused = match choice {
            Choice::Auto => {
                return scan(store, options, clock, lease, start, all())
                    .await?
                    .ok_or(LeaseError::AllHeld);
            }
            Choice::Exact(identity) => {
                match within(ttl, store.claim(identity, lease, &options.holder)).await? {
                    Claim::Won { hwm_ms } => return Ok((identity, hwm_ms)),
                    Claim::Held { by } => LeaseError::Held { identity, by },
                    // Waiting would not mend it: said once.
                    Claim::BadMark { key, text } => {
                        return Err(LeaseError::BadMark {
                            identity,
                            key,
                            text,
                        });
                    }
                }
            }
            Choice::Datacenter(datacenter) => {
                let machines = all().filter(|identity| identity.datacenter() == datacenter);
                match scan(store, options, clock, lease, start, machines).await? {
                    Some(won) => return Ok(won),
                    None => LeaseError::DatacenterFull { datacenter },
                }
            }
        };
        if Instant::now() >= deadline {
            return Err(refused);
        }
        event!(DEBUG, error = %refused, "claim refused: waiting");
        report(&refused);
        sleep((ttl / 20).max(Duration::from_millis(50))).await;
        // Our own lease must outlive the wait.
        within(ttl, store.keep_alive(lease)).await?;
    }
}

/// The first free identity of `candidates` that this lease wins, starting at `start`
/// (a hash of the host name, modulo their number), so that the hosts of a fleet spread
/// over them instead of racing for the first: those that one read of the store shows
/// free first, in the order of the scan, then the rest (one claim each for what looked
/// free, not for the whole fleet). An identity whose high-water mark is further ahead
/// than may be waited for is skipped. `None` when every one is held.
async fn scan<S: Store, C: Clock>(
    store: &S,
    options: &LeaseOptions,
    clock: &C,
    lease: LeaseId,
    start: u16,
    candidates: impl Iterator<Item = Identity>,
) -> Result<Option<(Identity, u64)>, LeaseError> {
    let ttl = options.ttl;
    let poisoned_after = clock
        .now_ms()
        .saturating_add(millis(options.max_clock_wait));
    let candidates: Vec<Identity> = candidates.collect();
    let first = usize::from(start) % candidates.len().max(1);
    let held = within(ttl, store.held()).await?;
    let (free, taken): (Vec<Identity>, Vec<Identity>) = candidates[first..]
        .iter()
        .chain(&candidates[..first])
        .partition(|identity| !held.contains(identity));
    for (i, identity) in free.into_iter().chain(taken).enumerate() {
        // A long scan must not outlive the lease it claims with.
        if i % 64 == 63 {
            within(ttl, store.keep_alive(lease)).await?;
        }
        match within(ttl, store.claim(identity, lease, &options.holder)).await? {
            // A holder with a clock far ahead once pushed it, or someone wrote it by
            // hand: skip, do not wait.
            Claim::Won { hwm_ms } if hwm_ms > poisoned_after => {
                within(ttl, store.unclaim(identity, lease)).await?;
            }
            Claim::BadMark { .. } => {
                within(ttl, store.unclaim(identity, lease)).await?;
            }
            Claim::Won { hwm_ms } => return Ok(Some((identity, hwm_ms))),
            Claim::Held { .. } => {}
        }
    }
    Ok(None)
}

/// Where a scan starts looking: a hash of the host name (FNV-1a).
fn start_index(host: &str) -> u16 {
    let hash = host.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    u16::try_from(hash % u64::from(Identity::COUNT)).unwrap_or(0)
}

/// Waits until `clock` is past `hwm_ms`, if that is at most `max_clock_wait` away,
/// keeping `lease` alive meanwhile (the wait may be longer than its TTL).
async fn wait_above<S: Store, C: Clock>(
    store: &S,
    options: &LeaseOptions,
    clock: &C,
    lease: LeaseId,
    identity: Identity,
    hwm_ms: u64,
) -> Result<(), LeaseError> {
    let (ttl, bound) = (options.ttl, options.max_clock_wait);
    // Bounded in real time too, for a clock that does not move.
    let deadline = Instant::now() + bound + Duration::from_secs(1);
    let mut said = false;
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
        if !said {
            event!(
                INFO,
                datacenter = identity.datacenter(),
                machine = identity.machine(),
                wait_ms = hwm_ms - now_ms + 1,
                hwm_ms,
                "waiting for the clock to pass the high-water mark"
            );
            said = true;
        }
        sleep(Duration::from_millis(hwm_ms - now_ms + 1).min(ttl / 3)).await;
        within(ttl, store.keep_alive(lease)).await?;
    }
}

/// Renews `lease` now: until when it counts as valid (`sent + TTL - margin`).
async fn renew<S: Store>(
    store: &S,
    options: &LeaseOptions,
    lease: LeaseId,
    identity: Identity,
) -> Result<Instant, LeaseError> {
    let sent = uptime::now();
    match within(options.ttl, store.keep_alive(lease)).await? {
        Some(granted) => Ok(sent + valid_for(options, granted)),
        None => Err(LeaseError::Lost { identity }),
    }
}

/// How long a lease renewed for `granted` counts as valid from the keep-alive's sending
/// (latency only makes etcd's count end later): the TTL (at most ours) less a tenth, the
/// margin for clock rates and for the wall clock falling behind between two publishes.
pub(crate) fn valid_for(options: &LeaseOptions, granted: Duration) -> Duration {
    granted.min(options.ttl).saturating_sub(options.ttl / 10)
}

/// A store call bounded by a third of the TTL: a silent store is an error, never a hang.
pub(crate) async fn within<T>(
    ttl: Duration,
    call: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    within_bound(ttl / 3, call).await
}

/// A store call bounded by `bound`.
pub(crate) async fn within_bound<T>(
    bound: Duration,
    call: impl Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    timeout(bound, call).await.unwrap_or_else(|_| {
        Err(StoreError::new(
            StoreErrorKind::TimedOut,
            format!("no answer within {bound:?}"),
        ))
    })
}

/// Whole milliseconds as a `u64`: for the arithmetic of times, and for events, where
/// `as_millis`' `u128` would be written as a string in JSON.
pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
