//! [`Source`]: one way to issue from an unleased identity's generator and a lease's alike.

use std::time::Duration;

use snowflake_kit::{GenerateError, Generator, Snowflake};
use snowflake_lease::LeasedGenerator;

/// What issues the IDs: an unleased identity's generator, or a lease's (which also counts its
/// refusals).
pub(super) trait Source {
    fn try_next_id_now(&self) -> Result<Snowflake, GenerateError>;
    fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError>;
    fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError>;
}

impl Source for Generator {
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
        snowflake_kit::__private::check_wait(self, from_ms, until_ms, waited)
    }
}

impl Source for LeasedGenerator {
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
        snowflake_lease::__private::check_wait(self, from_ms, until_ms, waited)
    }
}
