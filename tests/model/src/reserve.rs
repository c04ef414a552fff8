//! A holder's reservations: the one its task sends (the first of `acquire::steps`, or
//! `Holder::step`'s), and what it does with the answer, or without one.

use crate::bounds::{Bounds, Mutation, NOW};
use crate::holder::{Holder, Phase, bit};
use crate::store::{Reservation, Reserve, Store};

impl Holder {
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
            } if NOW < valid_until
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
                    ceiling: 0,
                    unanswered: 0,
                };
                // `Holder::start`.
                self.publish(mutation);
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
                self.publish(mutation);
            }
            // Our own earlier reservation, committed though its answer was lost.
            (
                Phase::Holding {
                    hwm, unanswered, ..
                },
                Reservation::MarkMoved(found),
            ) if *unanswered & bit(found) != 0 || mutation == Mutation::AdoptAnyMovedMark => {
                *hwm = found;
                *unanswered = 0;
                self.publish(mutation);
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
                self.publish(mutation);
            }
            phase => {
                if let Some(lease) = phase.lease() {
                    self.let_go(lease, store);
                }
            }
        }
    }
}
