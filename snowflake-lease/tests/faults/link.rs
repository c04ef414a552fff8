//! The network between one holder's process and the shared store: a [`Store`] that
//! passes each call to the [`MemStore`], unless this holder's faults say to refuse it,
//! swallow it, hold it until a pause ends, send it late, or lose its answer. Calls sent
//! late still execute when they arrive, after their caller has given up on them.

use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use snowflake_lease::{
    Claim, Identity, LeaseId, MemStore, Reservation, Store, StoreError, StoreErrorKind,
};
use tokio::sync::oneshot;
use tokio::time::{Instant, sleep, sleep_until};

use crate::ledger::{Incarnation, Ledger};
use crate::rng::Rng;

/// How a cut holder's calls fail.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cut {
    /// At once, as a refused connection.
    Refused,
    /// Never answered, as a black hole: the caller's timeout ends the call.
    Silent,
}

/// One holder's faults, set by the chaos, read by each call of its links.
pub(crate) struct Faults {
    /// Every call fails, until then.
    pub(crate) cut: Option<(Instant, Cut)>,
    /// Keep-alives fail (their stream broke; other calls go through), until then.
    pub(crate) keep_alive_cut: Option<(Instant, Cut)>,
    /// The process is stopped: calls wait, until then.
    pub(crate) paused_until: Option<Instant>,
    /// This many calls in a thousand execute but their answers are lost, until then.
    pub(crate) lossy: Option<(Instant, u64)>,
    /// This many calls in a thousand are slow, each way up to half a TTL, until then.
    pub(crate) late: Option<(Instant, u64)>,
    rng: Rng,
}

impl Faults {
    pub(crate) fn new(rng: Rng) -> Faults {
        Faults {
            cut: None,
            keep_alive_cut: None,
            paused_until: None,
            lossy: None,
            late: None,
            rng,
        }
    }

    /// What happens to the next call.
    fn plan(&mut self, keep_alive: bool) -> Plan {
        let now = Instant::now();
        let active = |until: Instant| until > now;
        if let Some(until) = self.paused_until.filter(|until| active(*until)) {
            return Plan::Wait(until);
        }
        let cut = self.cut.filter(|(until, _)| active(*until));
        let keep_alive_cut = self
            .keep_alive_cut
            .filter(|(until, _)| keep_alive && active(*until));
        if let Some((_, how)) = cut.or(keep_alive_cut) {
            return Plan::Cut(how);
        }
        let (mut before, mut after) = (Duration::ZERO, Duration::ZERO);
        if let Some((_, per_mille)) = self.late.filter(|(until, _)| active(*until))
            && self.rng.chance(per_mille)
        {
            let most = crate::TTL / 2;
            before = self.rng.ms(0, most.as_millis().try_into().expect("short"));
            after = self.rng.ms(0, most.as_millis().try_into().expect("short"));
        }
        let mut answer = Answer::Delivered;
        if let Some((_, per_mille)) = self.lossy.filter(|(until, _)| active(*until))
            && self.rng.chance(per_mille)
        {
            answer = if self.rng.chance(500) {
                Answer::Failed
            } else {
                Answer::Never
            };
        }
        Plan::Send {
            before,
            after,
            answer,
        }
    }
}

enum Plan {
    Wait(Instant),
    Cut(Cut),
    Send {
        before: Duration,
        after: Duration,
        answer: Answer,
    },
}

/// What becomes of the answer of a call that executed.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Delivered,
    Failed,
    Never,
}

/// One process's connection to the store.
pub(crate) struct Link {
    pub(crate) incarnation: Incarnation,
    pub(crate) store: Arc<MemStore>,
    pub(crate) faults: Arc<Mutex<Faults>>,
    pub(crate) ledger: Arc<Ledger>,
}

pub(crate) fn lock(faults: &Mutex<Faults>) -> MutexGuard<'_, Faults> {
    faults.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Link {
    /// Sends `call` (named `what` in the trace) through this holder's faults.
    async fn route<T: Send + 'static>(
        &self,
        what: &str,
        call: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let keep_alive = what == "keep-alive";
        let (before, after, answer) = loop {
            let plan = lock(&self.faults).plan(keep_alive);
            match plan {
                Plan::Wait(until) => sleep_until(until).await,
                Plan::Cut(Cut::Refused) => {
                    return Err(StoreError::new(
                        StoreErrorKind::Unreachable,
                        "refused (injected)",
                    ));
                }
                Plan::Cut(Cut::Silent) => std::future::pending().await,
                Plan::Send {
                    before,
                    after,
                    answer,
                } => break (before, after, answer),
            }
        };
        let result = if before.is_zero() {
            call.await
        } else {
            // Sent now, executed on arrival even if its caller gave up meanwhile.
            let (tx, rx) = oneshot::channel();
            tokio::spawn(async move {
                sleep(before).await;
                let _ = tx.send(call.await);
            });
            rx.await.expect("the call's task answers")
        };
        sleep(after).await;
        match answer {
            Answer::Delivered => result,
            Answer::Failed => {
                self.ledger
                    .note(format_args!("{} {what}: answer lost", self.incarnation));
                Err(StoreError::new(
                    StoreErrorKind::TimedOut,
                    "answer lost (injected)",
                ))
            }
            Answer::Never => {
                self.ledger.note(format_args!(
                    "{} {what}: answer never comes",
                    self.incarnation
                ));
                std::future::pending().await
            }
        }
    }
}

impl Store for Link {
    async fn grant(&self, ttl: Duration) -> Result<LeaseId, StoreError> {
        let (store, ledger) = (Arc::clone(&self.store), Arc::clone(&self.ledger));
        self.route("grant", async move {
            let lease = store.grant(ttl).await?;
            ledger.alive(lease, ttl);
            Ok(lease)
        })
        .await
    }

    async fn claim(
        &self,
        identity: Identity,
        lease: LeaseId,
        holder: &str,
    ) -> Result<Claim, StoreError> {
        let (store, ledger) = (Arc::clone(&self.store), Arc::clone(&self.ledger));
        let (holder, incarnation) = (holder.to_owned(), self.incarnation);
        let claim = self
            .route("claim", async move {
                let claim = store.claim(identity, lease, &holder).await?;
                if let Claim::Won { hwm_ms } = claim {
                    ledger.note(format_args!(
                        "{incarnation} claim won on lease {} above {hwm_ms}",
                        lease.get()
                    ));
                }
                Ok(claim)
            })
            .await?;
        if matches!(claim, Claim::Won { .. }) {
            self.ledger.won(self.incarnation, lease);
        }
        Ok(claim)
    }

    async fn unclaim(&self, identity: Identity, lease: LeaseId) -> Result<(), StoreError> {
        let store = Arc::clone(&self.store);
        self.route(
            "unclaim",
            async move { store.unclaim(identity, lease).await },
        )
        .await
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        let (store, ledger) = (Arc::clone(&self.store), Arc::clone(&self.ledger));
        self.route("keep-alive", async move {
            let granted = store.keep_alive(lease).await?;
            if let Some(ttl) = granted {
                ledger.alive(lease, ttl);
            }
            Ok(granted)
        })
        .await
    }

    async fn reserve(
        &self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> Result<Reservation, StoreError> {
        let (store, ledger) = (Arc::clone(&self.store), Arc::clone(&self.ledger));
        let incarnation = self.incarnation;
        self.route("reserve", async move {
            let reservation = store.reserve(identity, lease, expected_ms, new_ms).await?;
            if reservation == Reservation::Committed {
                ledger.committed(lease, new_ms);
            }
            ledger.note(format_args!(
                "{incarnation} reserve {expected_ms} -> {new_ms} on lease {}: {reservation:?}",
                lease.get()
            ));
            Ok(reservation)
        })
        .await
    }

    async fn release(&self, lease: LeaseId) -> Result<(), StoreError> {
        let store = Arc::clone(&self.store);
        self.route("release", async move { store.release(lease).await })
            .await
    }
}
