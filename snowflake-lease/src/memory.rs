//! [`MemStore`]: the [`Store`] in memory, with faults on demand, for tests.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::time::Instant;

use crate::store::{Claim, Identity, LeaseId, Reservation, Store, StoreError, StoreErrorKind};

/// A [`Store`] in one process's memory. Leases expire on tokio's clock, so tests
/// can pause and advance time; faults can be injected.
///
/// ```
/// use snowflake_lease::{Claim, Identity, MemStore, Store};
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let store = MemStore::new();
/// let lease = store.grant(std::time::Duration::from_secs(10)).await?;
/// let identity = Identity::new(1, 1)?;
/// assert_eq!(store.claim(identity, lease, "me").await?, Claim::Won { hwm_ms: 0 });
/// let other = store.grant(std::time::Duration::from_secs(10)).await?;
/// assert_eq!(store.claim(identity, other, "you").await?, Claim::Held { by: "me".into() });
/// # Ok::<(), Box<dyn std::error::Error>>(()) }).unwrap();
/// ```
///
/// # Faults, for your own tests
///
/// An application that embeds a [`LeasedGenerator`](crate::LeasedGenerator) has to answer
/// when its store fails: a readiness probe that turns, requests refused with a 503, a log
/// line. This store fails on demand, so that those answers have tests without an etcd or a
/// PostgreSQL to break: [`set_unreachable`](MemStore::set_unreachable),
/// [`set_ttl_zero`](MemStore::set_ttl_zero),
/// [`lose_next_reserve_answer`](MemStore::lose_next_reserve_answer),
/// [`answer_late`](MemStore::answer_late), [`set_hides_held`](MemStore::set_hides_held), and
/// a second writer's doings behind the holder's back ([`revoke`](MemStore::revoke),
/// [`set_hwm`](MemStore::set_hwm)), with [`claims`](MemStore::claims), [`hwm`](MemStore::hwm)
/// and [`owner`](MemStore::owner) to look. They are the API on purpose, this crate's own
/// fault tests' tools as well: a store in memory that cannot fail would test only the
/// happy path. Each failure has the kind a real store's would have.
///
/// ```
/// use std::time::Duration;
/// use snowflake_lease::{MemStore, Store, StoreErrorKind};
///
/// # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
/// let store = MemStore::new();
/// store.set_unreachable(true);
/// let e = store.grant(Duration::from_secs(10)).await.unwrap_err();
/// assert_eq!(e.kind(), StoreErrorKind::Unreachable);
/// store.set_unreachable(false);
/// assert!(store.grant(Duration::from_secs(10)).await.is_ok());
/// # })
/// ```
#[derive(Debug, Default)]
pub struct MemStore {
    /// Shared with the late commits of [`MemStore::answer_late`].
    inner: Arc<Mutex<Mem>>,
}

/// Faults to inject.
#[derive(Debug, Default)]
#[expect(clippy::struct_excessive_bools, reason = "independent switches")]
struct Faults {
    unreachable: bool,
    ttl_zero: bool,
    lose_reserve_answer: bool,
    hides_held: bool,
    /// How many reservations still go unanswered, and how late they commit.
    late: (u64, Duration),
}

#[derive(Debug, Default)]
struct Mem {
    next_lease: i64,
    /// Lease -> when it expires, and its TTL.
    leases: HashMap<i64, (Instant, Duration)>,
    /// Identity -> (holder, lease).
    owners: HashMap<Identity, (String, i64)>,
    hwms: HashMap<Identity, u64>,
    faults: Faults,
    /// Claims made, counted for tests.
    claims: u64,
}

impl Mem {
    /// Drops expired leases and the owner keys on them.
    fn expire(&mut self) {
        let now = Instant::now();
        self.leases.retain(|_, (until, _)| *until > now);
        let leases = &self.leases;
        self.owners
            .retain(|_, (_, lease)| leases.contains_key(lease));
    }

    /// [`Store::reserve`], at once.
    fn reserve(
        &mut self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> Result<Reservation, StoreError> {
        self.expire();
        let owned = self
            .owners
            .get(&identity)
            .is_some_and(|(_, l)| *l == lease.0);
        if !owned {
            return Ok(Reservation::NotOwner);
        }
        // As in etcd: 0 means no HWM yet, and an HWM is never lowered.
        let stored = self.hwms.get(&identity).copied();
        let unmoved = match stored {
            None => expected_ms == 0,
            Some(ms) => expected_ms != 0 && ms == expected_ms && ms < new_ms,
        };
        if !unmoved {
            return Ok(Reservation::MarkMoved {
                found_ms: stored.unwrap_or(0),
            });
        }
        self.hwms.insert(identity, new_ms);
        if std::mem::take(&mut self.faults.lose_reserve_answer) {
            return Err(StoreError::new(
                StoreErrorKind::TimedOut,
                "memory store: reserve committed, its answer lost (injected)",
            ));
        }
        Ok(Reservation::Committed)
    }

    fn reachable(&self) -> Result<(), StoreError> {
        if self.faults.unreachable {
            Err(StoreError::new(
                StoreErrorKind::Unreachable,
                "memory store: unreachable (injected)",
            ))
        } else {
            Ok(())
        }
    }
}

impl MemStore {
    /// An empty store.
    pub fn new() -> MemStore {
        MemStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, Mem> {
        lock(&self.inner)
    }

    /// Every call fails until set back, as if the store were down.
    pub fn set_unreachable(&self, unreachable: bool) {
        self.lock().faults.unreachable = unreachable;
    }

    /// Every keep-alive answers with a TTL of 0 until set back.
    pub fn set_ttl_zero(&self, ttl_zero: bool) {
        self.lock().faults.ttl_zero = ttl_zero;
    }

    /// The next reservation that commits answers with an error, as a client whose
    /// call timed out after the store committed it.
    pub fn lose_next_reserve_answer(&self) {
        self.lock().faults.lose_reserve_answer = true;
    }

    /// The next `reservations` reservations go unanswered: their callers wait until they
    /// give up, and each is committed `delay` later (if it still can be), as a call whose
    /// answer a slow network lost.
    pub fn answer_late(&self, reservations: u64, delay: Duration) {
        self.lock().faults.late = (reservations, delay);
    }

    /// [`Store::held`] answers with nobody until set back, as a store without that one
    /// read does: `auto` then claims identity after identity.
    pub fn set_hides_held(&self, hides: bool) {
        self.lock().faults.hides_held = hides;
    }

    /// How many claims were made.
    pub fn claims(&self) -> u64 {
        self.lock().claims
    }

    /// Revokes `lease` behind its holder's back.
    pub fn revoke(&self, lease: LeaseId) {
        let mut mem = self.lock();
        mem.leases.remove(&lease.0);
        mem.expire();
    }

    /// Writes a high-water mark behind the holder's back, as a second writer would.
    pub fn set_hwm(&self, identity: Identity, ms: u64) {
        self.lock().hwms.insert(identity, ms);
    }

    /// The stored high-water mark of `identity`.
    pub fn hwm(&self, identity: Identity) -> Option<u64> {
        self.lock().hwms.get(&identity).copied()
    }

    /// Who holds `identity`, and on which lease.
    pub fn owner(&self, identity: Identity) -> Option<(String, LeaseId)> {
        let mut mem = self.lock();
        mem.expire();
        mem.owners
            .get(&identity)
            .map(|(holder, lease)| (holder.clone(), LeaseId(*lease)))
    }
}

impl Store for MemStore {
    async fn grant(&self, ttl: Duration) -> Result<LeaseId, StoreError> {
        let mut mem = self.lock();
        mem.reachable()?;
        mem.next_lease += 1;
        let id = mem.next_lease;
        mem.leases.insert(id, (Instant::now() + ttl, ttl));
        Ok(LeaseId(id))
    }

    async fn claim(
        &self,
        identity: Identity,
        lease: LeaseId,
        holder: &str,
    ) -> Result<Claim, StoreError> {
        let mut mem = self.lock();
        mem.reachable()?;
        mem.claims += 1;
        mem.expire();
        if let Some((by, _)) = mem.owners.get(&identity) {
            return Ok(Claim::Held { by: by.clone() });
        }
        if !mem.leases.contains_key(&lease.0) {
            return Err(StoreError::new(
                StoreErrorKind::LeaseGone,
                format!("memory store: lease {} not found", lease.0),
            ));
        }
        mem.owners.insert(identity, (holder.to_owned(), lease.0));
        Ok(Claim::Won {
            hwm_ms: mem.hwms.get(&identity).copied().unwrap_or(0),
        })
    }

    async fn unclaim(&self, identity: Identity, lease: LeaseId) -> Result<(), StoreError> {
        let mut mem = self.lock();
        mem.reachable()?;
        if mem
            .owners
            .get(&identity)
            .is_some_and(|(_, l)| *l == lease.0)
        {
            mem.owners.remove(&identity);
        }
        Ok(())
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        let mut mem = self.lock();
        mem.reachable()?;
        mem.expire();
        if mem.faults.ttl_zero {
            return Ok(None);
        }
        let Some((until, ttl)) = mem.leases.get_mut(&lease.0) else {
            return Ok(None);
        };
        // Renewed to the TTL it was granted with, as etcd does.
        *until = Instant::now() + *ttl;
        Ok(Some(*ttl))
    }

    async fn reserve(
        &self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> Result<Reservation, StoreError> {
        let late = {
            let mut mem = self.lock();
            mem.reachable()?;
            let (count, delay) = &mut mem.faults.late;
            if *count == 0 {
                return mem.reserve(identity, lease, expected_ms, new_ms);
            }
            *count -= 1;
            *delay
        };
        let inner = Arc::clone(&self.inner);
        tokio::spawn(async move {
            tokio::time::sleep(late).await;
            let _ = lock(&inner).reserve(identity, lease, expected_ms, new_ms);
        });
        std::future::pending().await
    }

    async fn held(&self) -> Result<HashSet<Identity>, StoreError> {
        let mut mem = self.lock();
        mem.reachable()?;
        mem.expire();
        if mem.faults.hides_held {
            return Ok(HashSet::new());
        }
        Ok(mem.owners.keys().copied().collect())
    }

    async fn release(&self, lease: LeaseId) -> Result<(), StoreError> {
        let mut mem = self.lock();
        mem.reachable()?;
        mem.leases.remove(&lease.0);
        mem.expire();
        Ok(())
    }
}

fn lock(inner: &Mutex<Mem>) -> MutexGuard<'_, Mem> {
    // A test that panicked while holding it poisons nothing we rely on.
    inner
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
