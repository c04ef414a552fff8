//! [`Source`]: one way to issue from an unleased identity's generator and a lease's alike.

use std::time::Duration;

use snowflake_kit::{Clock, GenerateError, Generator, Snowflake};
use snowflake_lease::LeasedGenerator;

/// What issues the IDs: an unleased identity's generator, or a lease's (which also counts its
/// refusals), stamping them with `C`.
pub(super) trait Source<C: Clock> {
    /// The clock the IDs are stamped with, which the queue's waits read.
    fn clock(&self) -> &C;
    fn try_next_id_now(&self) -> Result<Snowflake, GenerateError>;
    fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError>;
    fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError>;
}

impl<C: Clock> Source<C> for Generator<C> {
    fn clock(&self) -> &C {
        Generator::clock(self)
    }

    fn try_next_id_now(&self) -> Result<Snowflake, GenerateError> {
        Generator::try_next_id_now(self)
    }

    fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        Generator::try_fill_now(self, out)
    }

    fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError> {
        snowflake_kit::__private::check_wait(
            self.clock(),
            self.tolerance(),
            from_ms,
            until_ms,
            waited,
        )
    }
}

impl<C: Clock + 'static> Source<C> for LeasedGenerator<C> {
    fn clock(&self) -> &C {
        LeasedGenerator::clock(self)
    }

    fn try_next_id_now(&self) -> Result<Snowflake, GenerateError> {
        LeasedGenerator::try_next_id_now(self)
    }

    fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        LeasedGenerator::try_fill_now(self, out)
    }

    fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError> {
        snowflake_kit::__private::check_wait(
            self.clock(),
            self.tolerance(),
            from_ms,
            until_ms,
            waited,
        )
    }
}
