//! The generator's side of a holder: the ceiling `Holder::publish` sets and the floor
//! `Generator::raise_floor` keeps, which decide whether `Generator::try_next_id` issues.

use crate::bounds::Mutation;
use crate::holder::{Holder, Phase};

impl Holder {
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
