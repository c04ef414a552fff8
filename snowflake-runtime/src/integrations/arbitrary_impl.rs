//! arbitrary: a `Snowflake` from fuzzing input is any valid ID, `Snowflake::MIN` to
//! `Snowflake::MAX` alike, never one with the sign bit set: the input's `u64` with that bit
//! cleared, so that every one of the other 63 bits follows the input.

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::snowflake::Snowflake;
use crate::typed::{Id, Kind};

/// Every valid ID, from eight bytes of input (missing bytes read as 0).
impl<'a> Arbitrary<'a> for Snowflake {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        // Never an error: the sign bit is cleared.
        Snowflake::try_from_u64(u64::arbitrary(u)? & Snowflake::MAX.as_u64())
            .map_err(|_| arbitrary::Error::IncorrectFormat)
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        <u64 as Arbitrary<'a>>::size_hint(depth)
    }
}

/// Every valid ID, as a `Snowflake` is made.
impl<'a, K: Kind> Arbitrary<'a> for Id<K> {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Snowflake::arbitrary(u).map(Id::from_snowflake)
    }

    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        <Snowflake as Arbitrary<'a>>::size_hint(depth)
    }
}
