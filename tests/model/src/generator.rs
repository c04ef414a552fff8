//! The generator's side of a holder: the ceiling `Holder::publish` sets and the floor
//! `Generator::raise_floor` keeps, which decide whether `Generator::try_next_id` issues.

use crate::bounds::{Mutation, NOW};
use crate::holder::{Holder, Phase};

impl Holder {
    /// `Holder::publish`: sets the ceiling to min(committed mark, deadline - 1), the
    /// deadline taken from the lease clock to the holder's as it reads now (`now_ms` plus
    /// the time left). It stays until the next publish, however the clocks move meanwhile.
    pub(crate) fn publish(&mut self, mutation: Mutation) {
        let clock = self.clock;
        let Phase::Holding {
            hwm,
            valid_until,
            ceiling,
            ..
        } = &mut self.phase
        else {
            return;
        };
        *ceiling = if mutation == Mutation::IgnoreDeadline {
            *hwm
        } else {
            // `valid_until` may have passed: then the ceiling is below the clock.
            let deadline = i16::from(clock) + i16::from(*valid_until) - i16::from(NOW);
            let ceiling = i16::from(*hwm).min(deadline - 1);
            u8::try_from(ceiling).unwrap_or(0)
        };
    }

    /// Whether `Generator::try_next_id` issues an ID stamped with the clock now: not
    /// halted, above the floor, at or below the ceiling.
    pub(crate) fn issues(&self) -> bool {
        match self.phase {
            Phase::Holding { ceiling, .. } => self.floor < self.clock && self.clock <= ceiling,
            _ => false,
        }
    }
}
