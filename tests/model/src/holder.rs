//! One holder process: its acquire (`acquire::acquire`) and its background task
//! (`Holder::step`, `Holder::run`), but for its reservations (`reserve.rs`) and its
//! generator (`generator.rs`).
//!
//! The task is sequential, as the code's is. Each store call is one step, applied at once
//! (see the crate docs for why the gaps between sending, applying and answering need no
//! states of their own).

use crate::bounds::{Bounds, MAX_GRANTS, Mutation, NOW};
use crate::store::{Lease, Reserve, Store};

/// What a holder's task is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// No lease: before the first acquire, and after a failed one or a loss (the generator
    /// is halted then, until a reclaim succeeds).
    Idle,
    /// `acquire::claim` for an exact identity: claims, keeps the lease alive, claims again.
    Claiming {
        /// The lease it claims with.
        lease: Lease,
    },
    /// `acquire::wait_above`: waits for its clock to pass the mark the claim read.
    Waiting {
        /// The claimant's lease, now on the owner key.
        lease: Lease,
        /// The mark the claim read: nothing at or below it may be issued.
        floor: u8,
    },
    /// `acquire::renew` answered: the first reservation is next.
    Renewed {
        /// The claimant's lease.
        lease: Lease,
        /// The mark the claim read.
        floor: u8,
        /// `sent + ttl - margin` of the renewal, on the lease clock (in store time).
        valid_until: u8,
    },
    /// `Holder::run`: the generator issues under the ceiling `Holder::publish` sets.
    Holding {
        /// The lease on the owner key, as far as the holder knows.
        lease: Lease,
        /// `Holder::hwm_ms`: the mark last committed.
        hwm: u8,
        /// `Holder::valid_until`: the local lease deadline, on the lease clock (in store
        /// time).
        valid_until: u8,
        /// The generator's ceiling as `Holder::publish` last set it, on the holder's clock
        /// (0: below its clock, where it stays).
        ceiling: u8,
        /// `Holder::unanswered`: the marks asked for whose answers never came, as bits.
        unanswered: u64,
    },
}

/// A step of a holder's task: each names the code it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `acquire::acquire`: `store.grant(ttl)` for a new lease (`EtcdStore::grant`).
    Grant,
    /// `acquire::claim` for an exact identity: `store.claim(identity, lease, holder)`
    /// (`EtcdStore::claim`); `Claim::Held` leaves it claiming.
    Claim,
    /// A keep-alive (`EtcdStore::keep_alive`): between claims in `acquire::claim`, while
    /// waiting in `acquire::wait_above` (answer ignored), or in `Holder::step`, which moves
    /// `valid_until` to `sent + ttl - margin` and publishes the ceiling or, finding no
    /// lease, has lost it (`Loss::LeaseGone`). Sent at any time: a superset of the code's
    /// every third of a TTL.
    KeepAlive,
    /// The publish that ends each round of `Holder::step`, with the deadline it had: a
    /// round whose calls timed out (a partition), or with none due. Also offered past the
    /// deadline, where the code's round ends in `Loss::RanOut` first: harmless, as the
    /// ceiling comes out below the clock there.
    Publish,
    /// `acquire::renew` once the clock is past the claimed mark: `valid_until` from its
    /// sending; no lease is `LeaseError::Lost`.
    Renew,
    /// `acquire::claim` past its claim wait, `acquire::wait_above` past its bound, or any
    /// store call of the acquire failing: `acquire::acquire` releases the lease.
    GiveUp,
    /// `Holder::step` finds its local deadline passed (`Loss::RanOut`): `Holder::run`
    /// halts the generator and releases the lease, then reclaims.
    RanOut,
}

/// A holder process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Holder {
    /// Its clock: the generator's and the task's `SystemClock`, within the skew of store
    /// time. Its lease clock (`uptime::now`, `CLOCK_BOOTTIME`) keeps store time's rate, so
    /// lease deadlines are kept in store time.
    pub clock: u8,
    /// Its task.
    pub phase: Phase,
    /// A reservation it gave up on that the store has not seen and may still apply.
    pub late: Option<Reserve>,
    /// How many leases it has been granted.
    pub grants: u8,
    /// The generator's floor (`Generator::raise_floor`): nothing at or below it.
    pub floor: u8,
    /// How many ticks the store's clock stepped ahead since its last renewal: its lease
    /// ends that much before `valid_until + margin` (0 on etcd).
    pub drift: u8,
}

impl Holder {
    /// A holder that has not started.
    pub(crate) const fn new(clock: u8) -> Holder {
        Holder {
            clock,
            phase: Phase::Idle,
            late: None,
            grants: 0,
            floor: 0,
            drift: 0,
        }
    }

    /// Whether it has used its grants and is idle: it takes no step again.
    pub(crate) fn retired(&self, bounds: Bounds) -> bool {
        self.phase == Phase::Idle && self.grants == bounds.grants
    }

    /// The steps its task may take now, reservations aside.
    pub(crate) fn steps(&self, bounds: Bounds, mutation: Mutation, steps: &mut Vec<Step>) {
        let clock = self.clock;
        match self.phase {
            Phase::Idle => {
                if self.grants < bounds.grants {
                    steps.push(Step::Grant);
                }
            }
            Phase::Claiming { .. } => steps.extend([Step::Claim, Step::KeepAlive, Step::GiveUp]),
            Phase::Waiting { floor, .. } => {
                if clock > floor || mutation == Mutation::NoFloor {
                    steps.push(Step::Renew);
                } else if floor - clock <= bounds.max_clock_wait {
                    steps.push(Step::KeepAlive);
                }
                steps.push(Step::GiveUp);
            }
            Phase::Renewed { .. } => {}
            Phase::Holding { valid_until, .. } => {
                steps.extend([Step::KeepAlive, Step::Publish]);
                if NOW >= valid_until {
                    steps.push(Step::RanOut);
                }
            }
        }
    }

    /// Takes `step` (one [`Holder::steps`] offered); `me` is its index.
    pub(crate) fn take(
        &mut self,
        step: Step,
        me: usize,
        store: &mut Store,
        bounds: Bounds,
        mutation: Mutation,
    ) {
        let now = NOW;
        match (step, self.phase) {
            (Step::Grant, Phase::Idle) => {
                let lease = u8::try_from(me * MAX_GRANTS).unwrap_or(u8::MAX) + self.grants;
                self.grants += 1;
                store.grant(lease, now, bounds);
                self.phase = Phase::Claiming { lease };
            }
            (Step::Claim, Phase::Claiming { lease }) => match store.claim(lease, bounds.store) {
                Some(floor) => self.phase = Phase::Waiting { lease, floor },
                // Held: it tries again. Or the lease is gone: the acquire fails.
                None if store.lease_exists(lease) => {}
                None => self.let_go(lease, store),
            },
            (Step::KeepAlive, Phase::Holding { lease, .. }) => {
                if store.keep_alive(lease, now, bounds) {
                    if let Phase::Holding { valid_until, .. } = &mut self.phase {
                        *valid_until = now + bounds.ttl - bounds.margin;
                    }
                    self.drift = 0;
                    self.publish(mutation);
                } else {
                    self.let_go(lease, store);
                }
            }
            (Step::Publish, Phase::Holding { .. }) => self.publish(mutation),
            // While acquiring only a failure to answer counts, which is `GiveUp`.
            (Step::KeepAlive, Phase::Claiming { lease } | Phase::Waiting { lease, .. }) => {
                store.keep_alive(lease, now, bounds);
            }
            (Step::Renew, Phase::Waiting { lease, floor }) => {
                if store.keep_alive(lease, now, bounds) {
                    let valid_until = now + bounds.ttl - bounds.margin;
                    self.drift = 0;
                    self.phase = Phase::Renewed {
                        lease,
                        floor,
                        valid_until,
                    };
                } else {
                    self.let_go(lease, store);
                }
            }
            (Step::GiveUp | Step::RanOut, phase) => {
                if let Some(lease) = phase.lease() {
                    self.let_go(lease, store);
                }
            }
            _ => unreachable!("internal error: {step:?} offered in {:?}", self.phase),
        }
    }

    /// Halts the generator (the phase leaves `Holding`) and sends a release of `lease`
    /// that nothing waits for: `Holder::run` and `acquire::acquire` ignore its answer.
    pub(crate) fn let_go(&mut self, lease: Lease, store: &mut Store) {
        self.phase = Phase::Idle;
        store.release(lease);
    }
}

impl Phase {
    /// The lease it holds or is acquiring with, if any.
    pub(crate) fn lease(self) -> Option<Lease> {
        match self {
            Phase::Idle => None,
            Phase::Claiming { lease }
            | Phase::Waiting { lease, .. }
            | Phase::Renewed { lease, .. }
            | Phase::Holding { lease, .. } => Some(lease),
        }
    }
}

/// A mark's bit in `unanswered`.
pub(crate) fn bit(mark: u8) -> u64 {
    1u64.checked_shl(u32::from(mark)).unwrap_or(0)
}
