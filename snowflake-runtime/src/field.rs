//! The four fields of an ID, each with its range: the one place `compose` checks them.

use crate::{
    ComposeError, MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, MAX_TIMESTAMP_MS, TWITTER_EPOCH_MS,
};

/// One of the four fields of an ID, to check a value on its own: a form or a command line
/// that reports every bad field, where [`compose`](crate::compose) stops at the first.
///
/// ```
/// use snowflake_kit::{ComposeError, Field};
///
/// assert_eq!(Field::Datacenter.check(31), Ok(31));
/// assert_eq!(Field::Datacenter.check(32), Err(ComposeError::DatacenterOutOfRange(32)));
/// let bad: Vec<_> = Field::ALL
///     .iter()
///     .zip([1_288_834_975_657, 40, 1, 5000])
///     .filter_map(|(field, value)| field.check(value).err())
///     .collect();
/// assert_eq!(
///     bad,
///     [ComposeError::DatacenterOutOfRange(40), ComposeError::SequenceOutOfRange(5000)],
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

    /// Its name, as [`ComposeError`]'s messages write it.
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

    /// Its smallest value.
    ///
    /// ```
    /// use snowflake_kit::{Field, TWITTER_EPOCH_MS};
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
            Field::Datacenter => MAX_DATACENTER,
            Field::Machine => MAX_MACHINE,
            Field::Sequence => MAX_SEQUENCE,
        }
    }

    /// `value` if it is in range, or the error [`compose`](crate::compose) gives for it.
    ///
    /// # Errors
    ///
    /// The [`ComposeError`] of this field when `value` is outside
    /// [`min`](Field::min)`..=`[`max`](Field::max).
    ///
    /// ```
    /// use snowflake_kit::{ComposeError, Field};
    ///
    /// assert_eq!(Field::Timestamp.check(0), Err(ComposeError::TimestampBeforeEpoch(0)));
    /// assert_eq!(Field::Sequence.check(4095), Ok(4095));
    /// ```
    pub const fn check(self, value: u64) -> Result<u64, ComposeError> {
        if value >= self.min() && value <= self.max() {
            return Ok(value);
        }
        Err(match self {
            Field::Timestamp if value < TWITTER_EPOCH_MS => {
                ComposeError::TimestampBeforeEpoch(value)
            }
            Field::Timestamp => ComposeError::TimestampAfterMax(value),
            Field::Datacenter => ComposeError::DatacenterOutOfRange(value),
            Field::Machine => ComposeError::MachineOutOfRange(value),
            Field::Sequence => ComposeError::SequenceOutOfRange(value),
        })
    }
}
