//! One holder process: its acquire (`acquire::acquire`), its background task
//! (`Holder::step`, `Holder::run`) and the ceiling and floor of its generator.
//!
//! The task is sequential, as the code's is. Each store call is one step, applied at once;
//! a reservation's answer may be lost, the request lost, or left to be applied late (see
//! the crate docs for why the gaps between sending, applying and answering need no
//! states of their own).

use crate::bounds::{Bounds, MAX_GRANTS, Mutation, NOW};
use crate::store::{Lease, Reservation, Reserve, Store};

/// What a holder's task is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// No lease: before the first acquire, and after a failed one or a loss (the generator
    /// is halted then, until a reclaim succeeds).
    Idle,
    /// `acquire::claim` for a fixed identity: claims, keeps the lease alive, claims again.
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
        /// `sent + ttl - margin` of the renewal, on the holder's clock.
        valid_until: u8,
    },
    /// `Holder::run`: the generator issues under the ceiling `Holder::publish` sets.
    Holding {
        /// The lease on the owner key, as far as the holder knows.
        lease: Lease,
        /// `Holder::hwm_ms`: the mark last committed.
        hwm: u8,
        /// `Holder::valid_until`: the local lease deadline, on the holder's clock.
        valid_until: u8,
        /// `Holder::unanswered`: the marks asked for whose answers never came, as bits.
        unanswered: u64,
    },
}

/// A step of a holder's task: each names the code it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// `acquire::acquire`: `store.grant(ttl)` for a new lease (`EtcdStore::grant`).
    Grant,
    /// `acquire::claim` for a fixed identity: `store.claim(identity, lease, holder)`
    /// (`EtcdStore::claim`); `Claim::Held` leaves it claiming.
    Claim,
    /// A keep-alive (`EtcdStore::keep_alive`): between claims in `acquire::claim`, while
    /// waiting in `acquire::wait_above` (answer ignored), or in `Holder::step`, which moves
    /// `valid_until` to `sent + ttl - margin` or, finding no lease, has lost it
    /// (`Loss::LeaseGone`). Sent at any time: a superset of the code's every third of a TTL.
    KeepAlive,
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
    /// Its clock: the generator's and the task's (the model gives them one rate).
    pub clock: u8,
    /// Its task.
    pub phase: Phase,
    /// A reservation it gave up on that the store has not seen and may still apply.
    pub late: Option<Reserve>,
    /// How many leases it has been granted.
    pub grants: u8,
    /// The generator's floor (`Generator::raise_floor`): nothing at or below it.
    pub floor: u8,
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
                steps.push(Step::KeepAlive);
                if clock >= valid_until {
                    steps.push(Step::RanOut);
                }
            }
        }
    }

    /// The reservation its task sends now, if it sends one: the first of `acquire::steps`,
    /// `floor -> max(now, floor) + window`, or `Holder::step`'s, `hwm -> now + window`, when
    /// the mark is less than half a window ahead and the deadline has not passed.
    pub(crate) fn reservation(&self, bounds: Bounds) -> Option<Reserve> {
        let (clock, window) = (self.clock, bounds.window);
        match self.phase {
            // `trusted_ms(now).max(floor) + window`; clock jumps past the skew, which
            // `Trust` limits, are outside the model.
            Phase::Renewed { lease, floor, .. } => Some(Reserve {
                lease,
                expected: floor,
                new: clock.max(floor) + window,
            }),
            Phase::Holding {
                lease,
                hwm,
                valid_until,
                ..
            } if clock < valid_until
                && hwm.saturating_sub(clock) < window / 2
                && clock + window > hwm =>
            {
                Some(Reserve {
                    lease,
                    expected: hwm,
                    new: clock + window,
                })
            }
            _ => None,
        }
    }

    /// Takes `step` (one [`Holder::steps`] offered); `me` is its index.
    pub(crate) fn take(&mut self, step: Step, me: usize, store: &mut Store, bounds: Bounds) {
        let now = NOW;
        let clock = self.clock;
        match (step, self.phase) {
            (Step::Grant, Phase::Idle) => {
                let lease = u8::try_from(me * MAX_GRANTS).unwrap_or(u8::MAX) + self.grants;
                self.grants += 1;
                store.grant(lease, now, bounds);
                self.phase = Phase::Claiming { lease };
            }
            (Step::Claim, Phase::Claiming { lease }) => match store.claim(lease) {
                Some(floor) => self.phase = Phase::Waiting { lease, floor },
                // Held: it tries again. Or the lease is gone: the acquire fails.
                None if store.lease_exists(lease) => {}
                None => self.let_go(lease, store),
            },
            (Step::KeepAlive, Phase::Holding { lease, .. }) => {
                if store.keep_alive(lease, now, bounds) {
                    if let Phase::Holding { valid_until, .. } = &mut self.phase {
                        *valid_until = clock + bounds.ttl - bounds.margin;
                    }
                } else {
                    self.let_go(lease, store);
                }
            }
            // While acquiring only a failure to answer counts, which is `GiveUp`.
            (Step::KeepAlive, Phase::Claiming { lease } | Phase::Waiting { lease, .. }) => {
                store.keep_alive(lease, now, bounds);
            }
            (Step::Renew, Phase::Waiting { lease, floor }) => {
                if store.keep_alive(lease, now, bounds) {
                    let valid_until = clock + bounds.ttl - bounds.margin;
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

    /// The answer to its reservation for `new` arrives.
    pub(crate) fn answered(
        &mut self,
        new: u8,
        answer: Reservation,
        store: &mut Store,
        mutation: Mutation,
    ) {
        match (&mut self.phase, answer) {
            (
                &mut Phase::Renewed {
                    lease,
                    floor,
                    valid_until,
                },
                Reservation::Committed,
            ) => {
                if mutation != Mutation::NoFloor {
                    self.floor = self.floor.max(floor);
                }
                self.phase = Phase::Holding {
                    lease,
                    hwm: new,
                    valid_until,
                    unanswered: 0,
                };
            }
            (
                Phase::Holding {
                    hwm, unanswered, ..
                },
                Reservation::Committed,
            ) => {
                *hwm = new;
                // Each asked to move the mark from where it no longer is: none can commit.
                *unanswered = 0;
            }
            // Our own earlier reservation, committed though its answer was lost.
            (
                Phase::Holding {
                    hwm, unanswered, ..
                },
                Reservation::Moved(found),
            ) if *unanswered & bit(found) != 0 || mutation == Mutation::AdoptAnyMovedMark => {
                *hwm = found;
                *unanswered = 0;
            }
            // `Loss::NotOwner`, `Loss::MarkMoved`; or the first reservation refused, and
            // the acquire fails.
            (phase, _) => {
                if let Some(lease) = phase.lease() {
                    self.let_go(lease, store);
                }
            }
        }
    }

    /// `acquire::within` gives up on its reservation for `new`: the request or its answer
    /// was lost, or the request is late. `Holder::step` remembers it as unanswered; in
    /// `acquire::steps` the `?` fails the acquire, which releases the lease.
    pub(crate) fn timed_out(&mut self, new: u8, store: &mut Store, mutation: Mutation) {
        match &mut self.phase {
            Phase::Holding {
                hwm, unanswered, ..
            } => {
                *unanswered |= bit(new);
                if mutation == Mutation::TimeoutAsCommitted {
                    *hwm = new;
                }
            }
            phase => {
                if let Some(lease) = phase.lease() {
                    self.let_go(lease, store);
                }
            }
        }
    }

    /// Halts the generator (the phase leaves `Holding`) and sends a release of `lease`
    /// that nothing waits for: `Holder::run` and `acquire::acquire` ignore its answer.
    fn let_go(&mut self, lease: Lease, store: &mut Store) {
        self.phase = Phase::Idle;
        store.release(lease);
    }

    /// The highest millisecond its generator may issue now, if it issues at all: the
    /// ceiling `Holder::publish` sets, min(committed mark, deadline - 1).
    pub(crate) fn ceiling(&self, mutation: Mutation) -> Option<u8> {
        let Phase::Holding {
            hwm, valid_until, ..
        } = self.phase
        else {
            return None;
        };
        Some(if mutation == Mutation::IgnoreDeadline {
            hwm
        } else {
            hwm.min(valid_until.saturating_sub(1))
        })
    }

    /// Whether `Generator::try_next_id` issues an ID stamped with the clock now: not
    /// halted, above the floor, at or below the ceiling.
    pub(crate) fn issues(&self, mutation: Mutation) -> bool {
        self.ceiling(mutation)
            .is_some_and(|ceiling| self.floor < self.clock && self.clock <= ceiling)
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
