#![doc = include_str!("../README.md")]
#![no_std]
#![deny(missing_docs)]

#[doc(inline)]
pub use snowflake_runtime::*;

/// Builds a Snowflake ID from literal parts at compile time.
///
/// ```
/// use snowflake_kit::snowflake;
///
/// const WELCOME: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).id;
/// const BITS: &str = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).binary;
/// assert_eq!(WELCOME, 4_194_439_168);
/// assert_eq!(BITS, "0 00000000000000000000000000000001111101000 00001 00001 000000000000");
///
/// let tweet = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
/// assert_eq!(tweet.id, 1_541_815_603_606_036_480);
/// ```
///
/// The result is a [`BakedSnowflake`] constant, `{ id: u64, binary: &'static str }`,
/// usable in `const`, `static` and any expression. The ID is computed by the
/// same [`compose`] that serves run-time values.
///
/// # Arguments
///
/// `key = value` pairs, in any order, each at most once, separated by commas:
///
/// | key | value | when left out |
/// | --- | --- | --- |
/// | `ts` | Unix time in ms, `1288834974657..=3487858230208`, or an RFC 3339 string (`Z` or an offset, at most millisecond precision) from `"2010-11-04T01:42:54.657Z"` to `"2080-07-10T17:30:30.208Z"` | the build time: `SOURCE_DATE_EPOCH` (seconds) when set, so that builds are reproducible, else the clock |
/// | `dc` | datacenter id, `0..=31` | required |
/// | `machine` | machine id, `0..=31` | required |
/// | `seq` | sequence number, `0..=4095` | `0` |
///
/// An omitted `ts` is read when the calling crate compiles: a build that does not
/// recompile that crate keeps the earlier time.
///
/// Integers may be written in any base, with `_` separators and an unsigned
/// integer suffix (`0x1F`, `0b1_1111`, `31u8`).
///
/// # Errors
///
/// Every mistake is a compile error under the token at fault, and all of an
/// invocation's mistakes are reported in one build: a value out of range (the
/// message names the field, the value and the range, and for timestamps the
/// dates), a negative number, a float or other literal, a name or expression
/// where a literal belongs, an unknown, repeated or missing key, a date that is
/// not RFC 3339 or finer than a millisecond.
///
/// ```compile_fail
/// // error: `dc`: datacenter 32 is out of range 0..=31 (5 bits)
/// const BAD: u64 = snowflake_kit::snowflake!(ts = 1288834975657, dc = 32, machine = 1).id;
/// ```
///
/// For values known only at run time, call [`compose`].
#[cfg(feature = "macros")]
#[macro_export]
macro_rules! snowflake {
    ($($args:tt)*) => {
        $crate::__private::snowflake_impl!([$crate] $($args)*)
    };
}

// What `snowflake!` expansions refer to. Not API; may change in any release.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "macros")]
    pub use snowflake_macros::snowflake_impl;
    pub use snowflake_runtime::BakedSnowflake;
}
