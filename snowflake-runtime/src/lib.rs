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
//! The bit layout is drawn on [`Snowflake`](Snowflake#the-bit-layout); the public
//! constants below are that layout, and [`Segment`] is the same as data: nothing else in
//! this workspace retypes these numbers.
//!
//! # Features
//!
//! `std` (default): [`Generator`], [`SystemClock`] and [`Snowflake::system_time`]; without
//! it the crate is `no_std` and allocation-free. `serde` (with [`as_string`]), `tokio`, and
//! the database features `sqlx-postgres`, `sqlx-sqlite`, `postgres`, `diesel`,
//! `diesel-sqlite` and `sea-orm`, and `utoipa`, `schemars`, `async-graphql` and
//! `arbitrary`, are those of `snowflake-kit`, described in
//! [its README's table](https://github.com/snowflake-kit/snowflake-kit#features).
//!
//! A negative BIGINT read as a [`Snowflake`] is an error naming the value
//! ([`OutOfRangeError`], from [`Snowflake::try_from_i64`]), and [`Snowflake::issued_in`]
//! (or [`Snowflake::first_at`]/[`Snowflake::last_at`]) bound a time range:
//! `WHERE id BETWEEN $1 AND $2`.
//!
//! # For identity stores and front ends
//!
//! Two modules are interfaces for the crates around an application rather than for the
//! application itself: [`fence`], how the holder of a leased identity fences its
//! generator (`snowflake-lease`), and [`input`], what front ends that read text typed by a
//! person share (`snowflake!`, the `snowflake` command, `snowflake-server`). Items hidden
//! from these docs are internal to the workspace and may change in any release.
#![no_std]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "std")]
extern crate std;

mod baked;
mod bounds;
#[cfg(feature = "std")]
mod clock;
mod error;
#[cfg(feature = "std")]
pub mod fence;
mod field;
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
mod rfc3339;
mod segment;
#[cfg(feature = "serde")]
mod serde_impl;
mod snowflake;
#[cfg(any(
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "postgres",
    feature = "diesel",
    feature = "sea-orm"
))]
mod sql;
#[cfg(feature = "tokio")]
mod wait;

pub use crate::baked::BakedSnowflake;
#[cfg(feature = "std")]
pub use crate::clock::{Clock, SystemClock};
pub use crate::error::{
    ComposeError, GenerateError, OutOfRangeError, ParseFieldError, ParseSnowflakeError,
};
pub use crate::field::Field;
#[cfg(feature = "std")]
pub use crate::generator::Generator;
pub use crate::identity::Identity;
pub use crate::rfc3339::{DateField, Rfc3339, Rfc3339Error, parse_rfc3339};
pub use crate::segment::{Segment, SegmentValue};
#[cfg(feature = "serde")]
pub use crate::serde_impl::as_string;
pub use crate::snowflake::{Parts, SegmentedBinary, Snowflake, compose};

/// Unix time in milliseconds of the Twitter epoch, 2010-11-04T01:42:54.657Z: timestamp 0 of an ID.
pub const TWITTER_EPOCH_MS: u64 = 1_288_834_974_657;

/// Width of the timestamp field: 41 bits of milliseconds, about 69.7 years.
///
/// ```
/// # use snowflake_kit::*;
/// assert_eq!(1 + TIMESTAMP_BITS + DATACENTER_BITS + MACHINE_BITS + SEQUENCE_BITS, 64);
/// ```
pub const TIMESTAMP_BITS: u32 = 41;
/// Width of the datacenter field: 5 bits.
pub const DATACENTER_BITS: u32 = 5;
/// Width of the machine field: 5 bits.
pub const MACHINE_BITS: u32 = 5;
/// Width of the sequence field: 12 bits.
pub const SEQUENCE_BITS: u32 = 12;

/// Position of the sequence field's lowest bit.
pub const SEQUENCE_SHIFT: u32 = 0;
/// Position of the machine field's lowest bit.
pub const MACHINE_SHIFT: u32 = SEQUENCE_SHIFT + SEQUENCE_BITS;
/// Position of the datacenter field's lowest bit.
pub const DATACENTER_SHIFT: u32 = MACHINE_SHIFT + MACHINE_BITS;
/// Position of the timestamp field's lowest bit.
pub const TIMESTAMP_SHIFT: u32 = DATACENTER_SHIFT + DATACENTER_BITS;

/// Largest timestamp field: milliseconds since the epoch, `2^41 - 1`.
pub const MAX_TIMESTAMP_DELTA: u64 = (1 << TIMESTAMP_BITS) - 1;
/// Last encodable Unix time in milliseconds, 2080-07-10T17:30:30.208Z.
pub const MAX_TIMESTAMP_MS: u64 = TWITTER_EPOCH_MS + MAX_TIMESTAMP_DELTA;
/// Largest datacenter id, 31.
pub const MAX_DATACENTER: u8 = (1 << DATACENTER_BITS) - 1;
/// Largest machine id, 31.
pub const MAX_MACHINE: u8 = (1 << MACHINE_BITS) - 1;
/// Largest sequence number, 4095: an identity has 4,096 IDs per millisecond.
pub const MAX_SEQUENCE: u16 = (1 << SEQUENCE_BITS) - 1;

/// RFC 3339 form of [`TWITTER_EPOCH_MS`], for messages.
pub const TWITTER_EPOCH_RFC3339: &str = "2010-11-04T01:42:54.657Z";
/// RFC 3339 form of [`MAX_TIMESTAMP_MS`], for messages.
pub const MAX_TIMESTAMP_RFC3339: &str = "2080-07-10T17:30:30.208Z";
