//! The format's numbers: the epoch, each field's width, position and largest value. Made
//! public by [`layout`](crate::layout), which gathers them with the segments.

/// Unix time in milliseconds of the Twitter epoch, 2010-11-04T01:42:54.657Z: timestamp 0 of an ID.
pub const TWITTER_EPOCH_MS: u64 = 1_288_834_974_657;

/// Last encodable Unix time in milliseconds, 2080-07-10T17:30:30.208Z.
pub const MAX_TIMESTAMP_MS: u64 = TWITTER_EPOCH_MS + MAX_TIMESTAMP_DELTA;
/// Largest datacenter id, 31.
pub const MAX_DATACENTER: u8 = (1 << DATACENTER_BITS) - 1;
/// Largest machine id, 31.
pub const MAX_MACHINE: u8 = (1 << MACHINE_BITS) - 1;
/// Largest sequence number, 4095: an identity has 4,096 IDs per millisecond.
pub const MAX_SEQUENCE: u16 = (1 << SEQUENCE_BITS) - 1;

/// Width of the timestamp field: 41 bits of milliseconds, about 69.7 years.
///
/// ```
/// # use snowflake_kit::layout::*;
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
/// RFC 3339 form of [`TWITTER_EPOCH_MS`], for messages.
pub const TWITTER_EPOCH_RFC3339: &str = "2010-11-04T01:42:54.657Z";
/// RFC 3339 form of [`MAX_TIMESTAMP_MS`], for messages.
pub const MAX_TIMESTAMP_RFC3339: &str = "2080-07-10T17:30:30.208Z";

/// How many identities the format has: a datacenter and a machine, 5 bits each.
pub(crate) const IDENTITY_COUNT: u16 = 1 << (DATACENTER_BITS + MACHINE_BITS);
