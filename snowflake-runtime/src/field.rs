//! The four fields of an ID, each with its range, its short key and the text it is read
//! from: the one place `compose`, the macro, the command and the server check them.

use core::fmt;

use crate::format::{
    DATACENTER_BITS, MACHINE_BITS, MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, MAX_TIMESTAMP_MS,
    MAX_TIMESTAMP_RFC3339, SEQUENCE_BITS, TWITTER_EPOCH_MS, TWITTER_EPOCH_RFC3339,
};

/// One of the four fields of an ID, to check a value on its own: a form or a command line
/// that reports every bad field, where [`compose`](crate::compose) stops at the first.
///
/// ```
/// use snowflake_kit::{FieldRangeError, Field};
///
/// assert_eq!(Field::Datacenter.check(31), Ok(31));
/// assert_eq!(Field::Datacenter.check(32), Err(FieldRangeError::DatacenterOutOfRange(32)));
/// let bad: Vec<_> = Field::ALL
///     .iter()
///     .zip([1_288_834_975_657, 40, 1, 5000])
///     .filter_map(|(field, value)| field.check(value).err())
///     .collect();
/// assert_eq!(
///     bad,
///     [FieldRangeError::DatacenterOutOfRange(40), FieldRangeError::SequenceOutOfRange(5000)],
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// Unix milliseconds, [`TWITTER_EPOCH_MS`]`..=`[`MAX_TIMESTAMP_MS`].
    Timestamp,
    /// The datacenter id, `0..=`[`MAX_DATACENTER`].
    Datacenter,
    /// The machine id, `0..=`[`MAX_MACHINE`].
    Machine,
    /// The sequence number, `0..=`[`MAX_SEQUENCE`].
    Sequence,
}

impl Field {
    /// The fields in the order of [`compose`](crate::compose)'s arguments; `field as usize`
    /// is a field's index here.
    ///
    /// ```
    /// use snowflake_kit::Field;
    ///
    /// assert_eq!(Field::ALL.map(Field::name), ["timestamp", "datacenter", "machine", "sequence"]);
    /// assert_eq!(Field::ALL[Field::Machine as usize], Field::Machine);
    /// ```
    pub const ALL: [Field; 4] = [
        Field::Timestamp,
        Field::Datacenter,
        Field::Machine,
        Field::Sequence,
    ];

    /// Its name, as [`FieldRangeError`]'s messages write it.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Field::Machine.name(), "machine");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Field::Timestamp => "timestamp",
            Field::Datacenter => "datacenter",
            Field::Machine => "machine",
            Field::Sequence => "sequence",
        }
    }

    /// Its short key, as `snowflake!`, the command's flags, the server's query and the
    /// page's form write it: `ts`, `dc`, `machine`, `seq`.
    ///
    /// ```
    /// use snowflake_kit::Field;
    ///
    /// assert_eq!(Field::ALL.map(Field::key), ["ts", "dc", "machine", "seq"]);
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            Field::Timestamp => "ts",
            Field::Datacenter => "dc",
            Field::Machine => "machine",
            Field::Sequence => "seq",
        }
    }

    /// The field whose [short key](Field::key) is `key`, exactly.
    ///
    /// ```
    /// use snowflake_kit::Field;
    ///
    /// assert_eq!(Field::from_key("dc"), Some(Field::Datacenter));
    /// assert_eq!(Field::from_key("datacenter"), None);
    /// ```
    pub fn from_key(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|field| field.key() == key)
    }

    /// Its smallest value.
    ///
    /// ```
    /// use snowflake_kit::Field;
    /// use snowflake_kit::layout::TWITTER_EPOCH_MS;
    ///
    /// assert_eq!(Field::Timestamp.min(), TWITTER_EPOCH_MS);
    /// assert_eq!(Field::Sequence.min(), 0);
    /// ```
    pub const fn min(self) -> u64 {
        match self {
            Field::Timestamp => TWITTER_EPOCH_MS,
            Field::Datacenter | Field::Machine | Field::Sequence => 0,
        }
    }

    /// Its largest value.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::Field::Sequence.max(), 4095);
    /// ```
    pub const fn max(self) -> u64 {
        match self {
            Field::Timestamp => MAX_TIMESTAMP_MS,
            Field::Datacenter => MAX_DATACENTER as u64,
            Field::Machine => MAX_MACHINE as u64,
            Field::Sequence => MAX_SEQUENCE as u64,
        }
    }

    /// `value` if it is in range, or the error [`compose`](crate::compose) gives for it.
    ///
    /// # Errors
    ///
    /// The [`FieldRangeError`] of this field when `value` is outside
    /// [`min`](Field::min)`..=`[`max`](Field::max).
    ///
    /// ```
    /// use snowflake_kit::{FieldRangeError, Field};
    ///
    /// assert_eq!(Field::Timestamp.check(0), Err(FieldRangeError::TimestampBeforeEpoch(0)));
    /// assert_eq!(Field::Sequence.check(4095), Ok(4095));
    /// ```
    pub const fn check(self, value: u64) -> Result<u64, FieldRangeError> {
        if value >= self.min() && value <= self.max() {
            return Ok(value);
        }
        Err(match self {
            Field::Timestamp if value < TWITTER_EPOCH_MS => {
                FieldRangeError::TimestampBeforeEpoch(value)
            }
            Field::Timestamp => FieldRangeError::TimestampAfterMax(value),
            Field::Datacenter => FieldRangeError::DatacenterOutOfRange(value),
            Field::Machine => FieldRangeError::MachineOutOfRange(value),
            Field::Sequence => FieldRangeError::SequenceOutOfRange(value),
        })
    }
}

/// A field's value outside its range: which field, and the value given. The error of
/// [`compose`](crate::compose), [`Identity::new`](crate::Identity::new) and
/// [`Field::check`](crate::Field::check); the message names the field, the value and the
/// allowed range:
///
/// ```
/// use snowflake_kit::{compose, FieldRangeError};
///
/// let err = compose(1_288_834_975_657, 32, 1, 0).unwrap_err();
/// assert_eq!(err, FieldRangeError::DatacenterOutOfRange(32));
/// assert_eq!(err.to_string(), "datacenter 32 is out of range 0..=31 (5 bits)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldRangeError {
    /// The timestamp (Unix ms) is before the Twitter epoch.
    TimestampBeforeEpoch(u64),
    /// The timestamp (Unix ms) is after 2080-07-10T17:30:30.208Z, the last one 41 bits hold.
    TimestampAfterMax(u64),
    /// The datacenter id is above 31.
    DatacenterOutOfRange(u64),
    /// The machine id is above 31.
    MachineOutOfRange(u64),
    /// The sequence number is above 4095.
    SequenceOutOfRange(u64),
}

impl FieldRangeError {
    /// The field whose value was refused.
    ///
    /// ```
    /// use snowflake_kit::{compose, Field};
    ///
    /// assert_eq!(compose(0, 1, 1, 0).unwrap_err().field(), Field::Timestamp);
    /// assert_eq!(compose(1_288_834_975_657, 1, 99, 0).unwrap_err().field(), Field::Machine);
    /// ```
    pub const fn field(&self) -> Field {
        match self {
            FieldRangeError::TimestampBeforeEpoch(_) | FieldRangeError::TimestampAfterMax(_) => {
                Field::Timestamp
            }
            FieldRangeError::DatacenterOutOfRange(_) => Field::Datacenter,
            FieldRangeError::MachineOutOfRange(_) => Field::Machine,
            FieldRangeError::SequenceOutOfRange(_) => Field::Sequence,
        }
    }
}

impl fmt::Display for FieldRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (field, value, max, bits) = match *self {
            FieldRangeError::TimestampBeforeEpoch(ms) => {
                return write!(
                    f,
                    "timestamp {ms} ms is out of range {TWITTER_EPOCH_MS}..={MAX_TIMESTAMP_MS} ms: \
                     it is before the Twitter epoch ({TWITTER_EPOCH_RFC3339})"
                );
            }
            FieldRangeError::TimestampAfterMax(ms) => {
                return write!(
                    f,
                    "timestamp {ms} ms is out of range {TWITTER_EPOCH_MS}..={MAX_TIMESTAMP_MS} ms: \
                     it is after the last one 41 bits hold ({MAX_TIMESTAMP_RFC3339})"
                );
            }
            FieldRangeError::DatacenterOutOfRange(v) => {
                ("datacenter", v, u64::from(MAX_DATACENTER), DATACENTER_BITS)
            }
            FieldRangeError::MachineOutOfRange(v) => {
                ("machine", v, u64::from(MAX_MACHINE), MACHINE_BITS)
            }
            FieldRangeError::SequenceOutOfRange(v) => {
                ("sequence", v, u64::from(MAX_SEQUENCE), SEQUENCE_BITS)
            }
        };
        write!(f, "{field} {value} is out of range 0..={max} ({bits} bits)")
    }
}

impl core::error::Error for FieldRangeError {}
