//! The background task of a leased generator: keeps the lease alive, reserves time
//! ahead and moves the generator's ceiling; on a loss, halts it and claims again.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use snowflake_runtime::Clock;
use tokio::sync::watch;
use tokio::time::{Instant, sleep};

use crate::acquire::{Acquired, Trust, acquire, millis, valid_for, within, within_bound};
use crate::error::{LeaseError, with_sources};
use crate::events::event;
use crate::options::{Choice, LeaseOptions, OnLoss};
use crate::status::{Loss, Shared, State};
use crate::store::{LeaseId, Reservation, Store, StoreError};
use crate::uptime;

/// How many unanswered marks are remembered: a store silent for long sends many, and
/// forgetting an old one costs at worst a reclaim, never a duplicate.
const UNANSWERED: usize = 64;

/// The task's state: the lease, the committed high-water mark.
pub(crate) struct Holder<S: Store, C: Clock> {
    pub(crate) store: Arc<S>,
    pub(crate) shared: Arc<Shared<C>>,
    pub(crate) options: LeaseOptions,
    lease: LeaseId,
    /// A lease granted by a reclaim that has not finished: released with the other if
    /// the reclaim is cut short.
    pending: Option<LeaseId>,
    /// The high-water mark last committed, Unix ms of the generator's clock.
    hwm_ms: u64,
    /// Until when the lease counts as valid: `sent + TTL - margin` of the last keep-alive,
    /// on the clock that counts a suspend (`uptime::now`).
    valid_until: Instant,
    next_keep_alive: Instant,
    tick: Duration,
    /// Until the next step: the tick, or a fifth of it after a failed call, which may have
    /// met a dead member or an election: the next one likely goes to a live leader.
    pause: Duration,
    trust: Trust,
    /// The marks this lease asked for whose answers never came (a timeout, a dropped
    /// connection, a call asked of two members of which one failed and the other found
    /// the mark there): any of them may have been committed. Only these are taken as
    /// committed when a reservation finds the mark moved; any other mark was written by
    /// someone else, and fences this holder off.
    unanswered: Vec<u64>,
    /// Store calls failed in a row: the first of a run is a `WARN` event, the rest
    /// `DEBUG`, and the first answer after them says how many.
    failing: u32,
}

/// Halts the generator if the task ends without a stop: cancelled, or its runtime shut
/// down. Without it, nothing would say so.
struct HaltOnDrop<C: Clock>(Arc<Shared<C>>);

impl<C: Clock> Drop for HaltOnDrop<C> {
    fn drop(&mut self) {
        self.0.generator.halt();
        self.0.update(|s| {
            if matches!(s.state, State::Holding | State::Reclaiming { .. }) {
                s.state = State::Stopped(Loss::TaskEnded);
            }
        });
    }
}

impl<S: Store, C: Clock> Holder<S, C> {
    /// The task for what `acquired` holds, with the trust its first reservation used.
    pub(crate) fn new(
        store: Arc<S>,
        shared: Arc<Shared<C>>,
        options: LeaseOptions,
        acquired: &Acquired,
        trust: Trust,
    ) -> Holder<S, C> {
        let tick = (options.ttl / 10)
            .min(options.window / 4)
            .min(Duration::from_millis(250));
        let holder = Holder {
            store,
            shared,
            lease: acquired.lease,
            pending: None,
            hwm_ms: acquired.hwm_ms,
            valid_until: acquired.valid_until,
            next_keep_alive: Instant::now() + options.ttl / 3,
            tick,
            pause: tick,
            trust,
            unanswered: Vec::new(),
            failing: 0,
            options,
        };
        holder.publish();
        holder
    }

    fn clock(&self) -> &C {
        self.shared.generator.clock()
    }

    pub(crate) async fn run(mut self, mut stop: watch::Receiver<bool>) {
        let _halt = HaltOnDrop(Arc::clone(&self.shared));
        loop {
            tokio::select! {
                () = sleep(self.pause) => {}
                _ = stop.changed() => return self.release().await,
            }
            let Err(loss) = self.step().await else {
                continue;
            };
            self.shared.generator.halt();
            let identity = self.shared.identity();
            event!(
                WARN,
                datacenter = identity.datacenter(),
                machine = identity.machine(),
                loss = %loss,
                reclaim = !matches!(loss, Loss::ClockAhead { .. })
                    && self.options.on_loss == OnLoss::Reclaim,
                "lease lost: issuing stopped"
            );
            let _ = identity;
            // Free it at once if the store still knows the lease.
            let _ = within(self.options.ttl, self.store.release(self.lease)).await;
            if matches!(loss, Loss::ClockAhead { .. }) {
                self.shared.update(|s| s.state = State::Stopped(loss));
                return;
            }
            self.shared.lease_losses.fetch_add(1, Ordering::Relaxed);
            if self.options.on_loss == OnLoss::Stop {
                self.shared.update(|s| s.state = State::Stopped(loss));
                return;
            }
            self.shared.update(|s| {
                s.state = State::Reclaiming {
                    loss: loss.clone(),
                    retry: None,
                };
            });
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
                    Ok(()) => {
                        event!(
                            INFO,
                            datacenter = identity.datacenter(),
                            machine = identity.machine(),
                            reserved_to_ms = self.hwm_ms,
                            "identity reclaimed: issuing again"
                        );
                        break;
                    }
                    // Retrying would fail the same way for as long as nobody steps in:
                    // said once, as a stop.
                    Err(e @ (LeaseError::ClockBehind { .. } | LeaseError::BadMark { .. })) => {
                        event!(ERROR, error = %with_sources(&e), "the identity cannot be claimed again: stopped");
                        self.shared
                            .update(|s| s.state = State::Stopped(Loss::Unclaimable(e)));
                        return self.release_pending().await;
                    }
                    Err(e) => {
                        backoff = (backoff * 2).min(self.options.ttl / 3);
                        event!(
                            WARN,
                            error = %with_sources(&e),
                            retry_in_ms = millis(backoff),
                            "reclaim failed"
                        );
                        self.shared.update(|s| {
                            s.state = State::Reclaiming {
                                loss: loss.clone(),
                                retry: Some(e),
                            };
                        });
                    }
                }
            }
        }
    }

    /// Keeps the lease, reserves time ahead, moves the ceiling.
    async fn step(&mut self) -> Result<(), Loss> {
        let ttl = self.options.ttl;
        let call = self.options.call_bound();
        self.pause = self.tick;
        if Instant::now() >= self.next_keep_alive {
            // The lease's end on the clock that counts a suspend, like etcd's; the next
            // keep-alive on tokio's, which its timers use.
            let (sent, sent_at) = (uptime::now(), Instant::now());
            match within_bound(call, self.store.keep_alive(self.lease)).await {
                Ok(Some(granted)) => {
                    self.answered();
                    self.valid_until = sent + valid_for(&self.options, granted);
                    self.next_keep_alive = sent_at + ttl / 3;
                }
                Ok(None) => return Err(Loss::LeaseGone),
                // Silent or failing: try again soon; the lease runs out on its own.
                Err(e) => {
                    self.failed("keep-alive", &e, None);
                    self.next_keep_alive = Instant::now() + self.tick / 5;
                    self.pause = self.tick / 5;
                }
            }
        }
        if uptime::now() >= self.valid_until {
            return Err(Loss::RanOut);
        }
        let now_ms = self.clock().now_ms();
        let trusted_ms = self.trust.trusted_ms(now_ms);
        if let Some(since) = self
            .trust
            .ahead_since
            .filter(|since| since.elapsed() > ttl * 3)
        {
            return Err(Loss::ClockAhead {
                for_: since.elapsed(),
                by_ms: now_ms - trusted_ms,
            });
        }
        let window = millis(self.options.window);
        let reserve_ms = trusted_ms + window;
        if self.hwm_ms.saturating_sub(trusted_ms) < window / 2 && reserve_ms > self.hwm_ms {
            let identity = self.shared.identity();
            let reserve = self
                .store
                .reserve(identity, self.lease, self.hwm_ms, reserve_ms);
            match within_bound(call, reserve).await {
                Ok(Reservation::Committed) => {
                    self.answered();
                    self.hwm_ms = reserve_ms;
                    // Each asked to move the mark from where it no longer is: none can
                    // commit now.
                    self.unanswered.clear();
                }
                Ok(Reservation::NotOwner) => return Err(Loss::NotOwner),
                // Our own earlier reservation, committed though its answer was lost:
                // committed is all the fence asks. The next tick reserves above it.
                Ok(Reservation::MarkMoved { found_ms }) if self.unanswered.contains(&found_ms) => {
                    self.hwm_ms = found_ms;
                    self.unanswered.clear();
                }
                Ok(Reservation::MarkMoved { found_ms }) => {
                    return Err(Loss::MarkMoved {
                        expected_ms: self.hwm_ms,
                        found_ms,
                    });
                }
                // Try again soon; the ceiling stays where it is.
                Err(e) => {
                    self.failed("reservation", &e, Some(reserve_ms));
                    self.pause = self.tick / 5;
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

    /// A store call failed: said at `WARN` if it is the first of a run.
    #[cfg_attr(
        not(feature = "tracing"),
        expect(
            clippy::if_same_then_else,
            reason = "events are nothing without the feature"
        )
    )]
    fn failed(&mut self, call: &'static str, failure: &StoreError, mark_ms: Option<u64>) {
        let (kind, error) = (failure.kind().key(), failure.message());
        if self.failing == 0 {
            event!(
                WARN,
                call,
                kind,
                error,
                mark_ms,
                "store call failed; trying again (more failures in a row at debug level)"
            );
        } else {
            event!(
                DEBUG,
                call,
                kind,
                error,
                mark_ms,
                failures = self.failing + 1,
                "store call failed"
            );
        }
        let _ = (call, kind, error, mark_ms);
        self.failing = self.failing.saturating_add(1);
    }

    /// A store call answered: after failures, said once.
    fn answered(&mut self) {
        if self.failing > 0 {
            event!(INFO, failures = self.failing, "the store answers again");
            self.failing = 0;
        }
    }

    /// Sets the generator's ceiling: the committed HWM, and never past the lease's end,
    /// taken to the generator's clock as it reads now (the model checks the margin it
    /// needs: `tests/model`, `LAPSED`).
    fn publish(&self) {
        let now_ms = self.clock().now_ms();
        let left = self.valid_until.saturating_duration_since(uptime::now());
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
        // The old lease may have outlived a store that was down (etcd restores
        // leases on restart): revoke it, or our own owner key holds us off.
        within(self.options.ttl, self.store.release(self.lease)).await?;
        let choice = Choice::Exact(self.shared.identity());
        let acquired = Box::pin(acquire(
            &*self.store,
            &self.options,
            choice,
            self.shared.generator.clock(),
            &mut self.trust,
            &mut self.pending,
            // The status says why a reclaim is retried.
            &|_| {},
        ))
        .await?;
        self.lease = acquired.lease;
        self.failing = 0;
        self.hwm_ms = acquired.hwm_ms;
        self.valid_until = acquired.valid_until;
        self.next_keep_alive = Instant::now() + self.options.ttl / 3;
        // Asked under the old lease, which is off the owner key now: none can commit.
        self.unanswered.clear();
        // Nothing at or below what the holders in between may have used.
        self.shared.generator.raise_floor(acquired.floor_ms);
        self.publish();
        // A release that came while claiming: the main loop sees its stop and lets go.
        if !self.shared.stopping.load(Ordering::SeqCst) {
            self.shared.update(|s| s.state = State::Holding);
            self.shared.generator.resume();
        }
        Ok(())
    }

    /// Revokes what a stop leaves granted, and keeps the state that says why it stopped.
    async fn release_pending(self) {
        let ttl = self.options.ttl;
        for lease in [Some(self.lease), self.pending].into_iter().flatten() {
            let _ = within(ttl, self.store.release(lease)).await;
        }
    }

    /// Stops issuing and revokes the lease, and one a cut-short reclaim left granted.
    async fn release(self) {
        self.shared.generator.halt();
        let identity = self.shared.identity();
        event!(
            INFO,
            datacenter = identity.datacenter(),
            machine = identity.machine(),
            "identity released"
        );
        let _ = identity;
        let shared = Arc::clone(&self.shared);
        self.release_pending().await;
        shared.update(|s| s.state = State::Released);
    }
}
