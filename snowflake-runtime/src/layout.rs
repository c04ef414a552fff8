//! The bit layout field by field: the epoch, each field's width, position and largest
//! value ([`TWITTER_EPOCH_MS`], [`MAX_TIMESTAMP_MS`], [`MAX_DATACENTER`], [`MAX_MACHINE`],
//! [`MAX_SEQUENCE`]), the timestamp's span, the five [segments](Segment) as data, and an
//! ID written out by them ([`SegmentedBinary`]) or in 13 characters of base32
//! ([`Base32`]), and an ID's four fields as numbers ([`Parts`]). The layout is drawn on
//! [`Snowflake`](crate::Snowflake#the-bit-layout). Nothing else in this workspace retypes
//! these numbers.
//!
//! ```
//! use snowflake_kit::compose;
//! use snowflake_kit::layout::{Segment, MACHINE_BITS, MACHINE_SHIFT};
//!
//! let id = compose(1_288_834_975_657, 1, 26, 0)?;
//! assert_eq!((id.as_u64() >> MACHINE_SHIFT) & ((1 << MACHINE_BITS) - 1), 26);
//! assert_eq!(Segment::Machine.value(id), 26);
//! # Ok::<(), snowflake_kit::FieldRangeError>(())
//! ```

pub use crate::base32::Base32;
pub use crate::binary::SegmentedBinary;
pub use crate::format::{
    DATACENTER_BITS, DATACENTER_SHIFT, MACHINE_BITS, MACHINE_SHIFT, MAX_DATACENTER, MAX_MACHINE,
    MAX_SEQUENCE, MAX_TIMESTAMP_DELTA, MAX_TIMESTAMP_MS, MAX_TIMESTAMP_RFC3339, SEQUENCE_BITS,
    SEQUENCE_SHIFT, TIMESTAMP_BITS, TIMESTAMP_SHIFT, TWITTER_EPOCH_MS, TWITTER_EPOCH_RFC3339,
};
pub use crate::segment::{Segment, SegmentValue};
pub use crate::snowflake::Parts;
