//! [`Segment`]: the five segments of an ID's 64 bits, as data built from the layout
//! constants, so that the segmented binary, the command's tables and the server's JSON
//! all read one table.

use core::fmt;

use crate::field::Field;
use crate::format::{
    DATACENTER_BITS, DATACENTER_SHIFT, MACHINE_BITS, MACHINE_SHIFT, SEQUENCE_BITS, SEQUENCE_SHIFT,
    TIMESTAMP_BITS, TIMESTAMP_SHIFT,
};
use crate::snowflake::Snowflake;

/// One of the five segments of an ID, from the most significant bit down: see
/// [the bit layout](Snowflake#the-bit-layout).
///
/// ```
/// use snowflake_kit::layout::Segment;
///
/// assert_eq!(Segment::ALL.map(Segment::width), [1, 41, 5, 5, 12]);
/// assert_eq!(Segment::ALL.map(Segment::width).iter().sum::<u32>(), 64);
/// assert_eq!(Segment::Machine.shift(), 12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// The sign bit, always 0.
    Sign,
    /// Milliseconds since the Twitter epoch.
    Timestamp,
    /// The datacenter id.
    Datacenter,
    /// The machine id.
    Machine,
    /// The sequence number.
    Sequence,
}

impl Segment {
    /// The segments from the most significant bit down.
    pub const ALL: [Segment; 5] = [
        Segment::Sign,
        Segment::Timestamp,
        Segment::Datacenter,
        Segment::Machine,
        Segment::Sequence,
    ];

    /// The field the segment holds; `None` for the sign bit.
    ///
    /// ```
    /// use snowflake_kit::Field;
    /// use snowflake_kit::layout::Segment;
    ///
    /// assert_eq!(Segment::Datacenter.field(), Some(Field::Datacenter));
    /// assert_eq!(Segment::Sign.field(), None);
    /// ```
    pub const fn field(self) -> Option<Field> {
        match self {
            Segment::Sign => None,
            Segment::Timestamp => Some(Field::Timestamp),
            Segment::Datacenter => Some(Field::Datacenter),
            Segment::Machine => Some(Field::Machine),
            Segment::Sequence => Some(Field::Sequence),
        }
    }

    /// Its name: `sign`, or its field's [name](Field::name).
    ///
    /// ```
    /// use snowflake_kit::layout::Segment;
    ///
    /// assert_eq!(Segment::ALL.map(Segment::name), ["sign", "timestamp", "datacenter", "machine", "sequence"]);
    /// ```
    pub const fn name(self) -> &'static str {
        match self.field() {
            Some(field) => field.name(),
            None => "sign",
        }
    }

    /// Its short key: `sign`, or its field's [key](Field::key).
    ///
    /// ```
    /// use snowflake_kit::layout::Segment;
    ///
    /// assert_eq!(Segment::ALL.map(Segment::key), ["sign", "ts", "dc", "machine", "seq"]);
    /// ```
    pub const fn key(self) -> &'static str {
        match self.field() {
            Some(field) => field.key(),
            None => "sign",
        }
    }

    /// How many bits it has.
    pub const fn width(self) -> u32 {
        match self {
            Segment::Sign => 1,
            Segment::Timestamp => TIMESTAMP_BITS,
            Segment::Datacenter => DATACENTER_BITS,
            Segment::Machine => MACHINE_BITS,
            Segment::Sequence => SEQUENCE_BITS,
        }
    }

    /// The position of its lowest bit.
    pub const fn shift(self) -> u32 {
        match self {
            Segment::Sign => TIMESTAMP_SHIFT + TIMESTAMP_BITS,
            Segment::Timestamp => TIMESTAMP_SHIFT,
            Segment::Datacenter => DATACENTER_SHIFT,
            Segment::Machine => MACHINE_SHIFT,
            Segment::Sequence => SEQUENCE_SHIFT,
        }
    }

    /// Its bits in `id`, as a number: for the timestamp, milliseconds since the epoch.
    ///
    /// ```
    /// use snowflake_kit::compose;
    /// use snowflake_kit::layout::Segment;
    ///
    /// let id = compose(1_288_834_975_657, 1, 2, 3)?;
    /// assert_eq!(Segment::ALL.map(|s| s.value(id)), [0, 1000, 1, 2, 3]);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn value(self, id: Snowflake) -> u64 {
        (id.as_u64() >> self.shift()) & ((1 << self.width()) - 1)
    }
}

/// A segment and its bits in one ID: [`Snowflake::segments`].
///
/// `{:b}` writes its bits zero-padded to the segment's width, as the segmented binary
/// shows them.
///
/// ```
/// use snowflake_kit::compose;
/// use snowflake_kit::layout::Segment;
///
/// let id = compose(1_288_834_975_657, 1, 2, 3)?;
/// let [_, _, dc, _, seq] = id.segments();
/// assert_eq!((dc.segment, dc.value), (Segment::Datacenter, 1));
/// assert_eq!(format!("{dc:b} {seq:b}"), "00001 000000000011");
/// # Ok::<(), snowflake_kit::FieldRangeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SegmentValue {
    /// Which segment.
    pub segment: Segment,
    /// Its bits, as a number.
    pub value: u64,
}

impl fmt::Binary for SegmentValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:0width$b}",
            self.value,
            width = self.segment.width() as usize
        )
    }
}

impl Snowflake {
    /// The five segments of the ID with their values, from the most significant bit down.
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// let values = id.segments().map(|s| s.value);
    /// assert_eq!(values, [0, 1_656_432_460_105 - snowflake_kit::layout::TWITTER_EPOCH_MS, 11, 26, 0]);
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn segments(self) -> [SegmentValue; 5] {
        let mut out = [SegmentValue {
            segment: Segment::Sign,
            value: 0,
        }; 5];
        let mut i = 0;
        while i < Segment::ALL.len() {
            let segment = Segment::ALL[i];
            out[i] = SegmentValue {
                segment,
                value: segment.value(self),
            };
            i += 1;
        }
        out
    }
}
