//! The Twitter Snowflake ID format: one definition for compile time and run time.
//!
//! ```
//! use snowflake_kit::{compose, Snowflake};
//!
//! let id = compose(1_288_834_975_657, 1, 1, 0)?;
//! assert_eq!(id.as_u64(), 4_194_439_168);
//! assert_eq!(
//!     id.segmented_binary().to_string(),
//!     "0 00000000000000000000000000000001111101000 00001 00001 000000000000",
//! );
//!
//! let tweet: Snowflake = "1541815603606036480".parse()?;
//! assert_eq!(tweet.timestamp_ms(), 1_656_432_460_105);
//! assert_eq!((tweet.datacenter(), tweet.machine(), tweet.sequence()), (11, 26, 0));
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! The bit layout is drawn on [`Snowflake`](Snowflake#the-bit-layout); the module
//! [`layout`] has it field by field (the epoch, each field's width, position and largest
//! value), and the segments as data: nothing else in this workspace retypes these numbers.
//! Dates are read and written by [`rfc3339`], the one RFC 3339 reader and writer.
//!
//! # Features
//!
//! `std` (default): [`Generator`], [`SystemClock`] and [`Snowflake::system_time`]; without
//! it the crate is `no_std` and allocation-free. The optional features are those of
//! `snowflake-kit`, in [its README's table](https://github.com/snowflake-kit/snowflake-kit#features).
//!
//! A negative BIGINT read as a [`Snowflake`] is an error naming the value
//! ([`IdRangeError`], from [`Snowflake::try_from_i64`]), and [`Snowflake::issued_in`]
//! (or [`Snowflake::first_at`]/[`Snowflake::last_at`]) bound a time range:
//! `WHERE id BETWEEN $1 AND $2`.
//!
//! # For identity stores and front ends
//!
//! Two modules are mostly for the crates around an application: [`fence`], the generator
//! that the holder of a leased identity runs, with a ceiling, a floor and a halt
//! (`snowflake-lease`), and [`input`], the error
//! of [`Field::parse`] and the parts of it that front ends show (`snowflake!`, the
//! `snowflake` command, `snowflake-server`). Items hidden from these docs (`__private`) are
//! internal to the workspace and may change in any release.
#![no_std]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "std")]
extern crate std;

mod baked;
mod base32;
mod binary;
mod bounds;
#[cfg(feature = "std")]
mod clock;
mod error;
#[cfg(feature = "std")]
pub mod fence;
mod field;
mod format;
#[cfg(feature = "std")]
mod generator;
mod identity;
pub mod input;
#[cfg(any(
    feature = "utoipa",
    feature = "schemars",
    feature = "async-graphql",
    feature = "arbitrary"
))]
mod integrations;
pub mod layout;
pub mod rfc3339;
mod segment;
#[cfg(feature = "std")]
mod sequencer;
#[cfg(feature = "serde")]
mod serde_impl;
mod snowflake;
pub mod sql;
pub mod typed;
#[cfg(feature = "tokio")]
mod wait;

pub use crate::baked::BakedSnowflake;
#[cfg(feature = "std")]
pub use crate::clock::{Clock, SystemClock};
pub use crate::error::{GenerateError, IdRangeError, ParseSnowflakeError};
pub use crate::field::{Field, FieldRangeError};
#[cfg(feature = "std")]
pub use crate::generator::Generator;
pub use crate::identity::Identity;

/// serde's other forms of an ID, for `#[serde(with = "...")]`: [`as_string`](serde::as_string)
/// (decimal digits in a string) and [`as_base32`](serde::as_base32) (the 13 characters of
/// [`Snowflake::to_base32`]). Without them an ID is written as a number, and read from a
/// number or a string of decimal digits.
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Tweet {
///     #[serde(with = "snowflake_kit::serde::as_base32")]
///     id: snowflake_kit::Snowflake,
/// }
/// let tweet = Tweet { id: snowflake_kit::compose(1_288_834_975_657, 1, 1, 0)? };
/// assert_eq!(serde_json::to_string(&tweet)?, r#"{"id":"0000003X04400"}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "serde")]
pub mod serde {
    pub use crate::serde_impl::{as_base32, as_string};
}
pub use crate::snowflake::{Snowflake, compose};

/// Not API: what the workspace's own crates share (the facade's `snowflake!`, the
/// `snowflake` command, `snowflake-server`, `snowflake-lease`). It may change in any
/// release; depend on none of it.
#[doc(hidden)]
pub mod __private {
    pub use crate::input::parse_decimal;

    /// The tables `snowflake-lease`'s `PgStore` leases identities from, `{schema}` standing
    /// for the schema's quoted name: its one definition, which the database's own issuer
    /// ([`sql::postgres_next_id`](crate::sql::postgres_next_id)) makes too when it finds
    /// none.
    pub const POSTGRES_LEASE_TABLES: &str = include_str!("../sql/postgres-lease.sql");
    #[cfg(feature = "utoipa")]
    pub use utoipa;

    /// What `kind!` passes on: the prefix given, or none. A function here, so that an
    /// empty or malformed prefix fails the build where the kind is declared (the caller's
    /// line: `track_caller`), saying which and why.
    #[track_caller]
    pub const fn prefix(given: &[&'static str]) -> Option<&'static str> {
        let [prefix] = given else {
            return None;
        };
        if let Some(refusal) = crate::typed::prefix_refusal(prefix) {
            panic!("{}", refusal.as_str());
        }
        Some(prefix)
    }

    /// Why `prefix` is no kind's prefix, in `kind!`'s words: for `snowflake!`, which reads
    /// a pasted one.
    pub const fn prefix_refusal(prefix: &str) -> Option<Message> {
        crate::typed::prefix_refusal(prefix)
    }

    /// A message written in a `const`: no allocation, no `fmt`. Cut short past its capacity.
    pub struct Message {
        bytes: [u8; 256],
        len: usize,
    }

    impl Message {
        pub(crate) const fn new() -> Message {
            Message {
                bytes: [0; 256],
                len: 0,
            }
        }

        pub(crate) const fn push_bytes(&mut self, bytes: &[u8]) {
            let mut i = 0;
            while i < bytes.len() && self.len < self.bytes.len() {
                self.bytes[self.len] = bytes[i];
                self.len += 1;
                i += 1;
            }
        }

        pub(crate) const fn push(&mut self, text: &str) {
            self.push_bytes(text.as_bytes());
        }

        /// The character that starts at byte `at` of `bytes` (UTF-8, as a `str`'s).
        pub(crate) const fn push_char_at(&mut self, bytes: &[u8], at: usize) {
            let len = match bytes[at] {
                0xF0.. => 4,
                0xE0.. => 3,
                0xC0.. => 2,
                _ => 1,
            };
            let mut i = at;
            while i < at + len && i < bytes.len() {
                self.push_bytes(&[bytes[i]]);
                i += 1;
            }
        }

        pub(crate) const fn push_number(&mut self, mut n: u64) {
            let mut digits = [0; 20];
            let mut i = digits.len();
            loop {
                i -= 1;
                digits[i] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            self.push_bytes(digits.split_at(i).1);
        }

        /// The text, as far as it is whole UTF-8 (a cut may split a character).
        pub const fn as_str(&self) -> &str {
            let (mut text, _) = self.bytes.split_at(self.len);
            loop {
                match core::str::from_utf8(text) {
                    Ok(text) => return text,
                    Err(_) => text = text.split_at(text.len() - 1).0,
                }
            }
        }
    }

    /// What `kind!` implements, and nothing else can: [`Kind`](crate::typed::Kind) is
    /// sealed, so that every prefix is checked where its kind is declared.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is no kind of ID: kinds are declared with `kind!`",
        label = "declared otherwise than with `kind!`"
    )]
    pub trait DeclaredByKind {}

    /// Whether two texts are the same, in a `const`.
    pub const fn same_text(a: &str, b: &str) -> bool {
        let (a, b) = (a.as_bytes(), b.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// What `snowflake!` expands to, after it has checked `id` and computed `binary`: a
    /// function here rather than a hidden method, which a user would meet in completions.
    pub const fn baked(id: u64, binary: &'static str) -> crate::BakedSnowflake {
        // Free in the constants the macro writes; a call with a bad ID fails the build.
        assert!(id <= i64::MAX as u64, "internal error: not an ID");
        crate::BakedSnowflake::from_checked(id, binary, None)
    }

    /// An ID's 13 digits of base32, as bytes: for the server's 4,096-ID answers, where
    /// making each a `Base32` and checking its text cost a tenth of the answer's CPU.
    pub const fn base32_digits(id: u64) -> [u8; crate::layout::Base32::LEN] {
        crate::base32::encode(id)
    }

    /// As [`baked`], for a pasted base32 text with a kind's prefix, which `typed` then
    /// holds the kind to.
    pub const fn baked_with_prefix(
        id: u64,
        binary: &'static str,
        prefix: &'static str,
    ) -> crate::BakedSnowflake {
        assert!(id <= i64::MAX as u64, "internal error: not an ID");
        crate::BakedSnowflake::from_checked(id, binary, Some(prefix))
    }

    /// Sleeps until a clock reads a millisecond, as the async generators wait: for the
    /// server's timer queue.
    #[cfg(feature = "tokio")]
    pub use crate::wait::until_clock_reads;

    /// Whether a wait for the clock on a timer has gone on too long, by the generators'
    /// own rule: for the server's timer queue, which waits for a generator or a lease's
    /// on `clock`, with that generator's `tolerance`.
    ///
    /// # Errors
    ///
    /// `GenerateError::ClockStalled`, or the clock's own errors.
    #[cfg(feature = "std")]
    pub fn check_wait<C: crate::clock::Clock>(
        clock: &C,
        tolerance: core::time::Duration,
        from_ms: u64,
        until_ms: u64,
        waited: core::time::Duration,
    ) -> Result<(), crate::error::GenerateError> {
        let tolerance_ms = u64::try_from(tolerance.as_millis()).unwrap_or(u64::MAX);
        crate::sequencer::judge_wait(clock.now_ms(), from_ms, until_ms, waited, tolerance_ms)
    }
}
