use core::fmt;
use core::str::FromStr;

use crate::error::{IdRangeError, ParseSnowflakeError};
use crate::field::{Field, FieldRangeError};
use crate::format::{
    DATACENTER_SHIFT, MACHINE_SHIFT, MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, SEQUENCE_SHIFT,
    TIMESTAMP_SHIFT, TWITTER_EPOCH_MS,
};
use crate::rfc3339::Rfc3339;

// The fields' masks, as the `u64` an ID is.
const DATACENTER_MASK: u64 = MAX_DATACENTER as u64;
const MACHINE_MASK: u64 = MAX_MACHINE as u64;
const SEQUENCE_MASK: u64 = MAX_SEQUENCE as u64;
/// A day in milliseconds: IDs this close to the epoch are [near it](Snowflake::is_near_epoch).
const DAY_MS: u64 = 86_400_000;

/// A Snowflake ID: a `u64` whose sign bit is clear, laid out as [below](Snowflake#the-bit-layout).
///
/// Every `Snowflake` is a valid ID: the constructors ([`compose`], [`FromStr`],
/// [`TryFrom<u64>`], [`try_from_i64`](Snowflake::try_from_i64)) reject anything else.
///
/// ```
/// use snowflake_kit::Snowflake;
///
/// let tweet = Snowflake::try_from(1541815603606036480)?;
/// assert_eq!(tweet.to_string(), "1541815603606036480");
/// assert_eq!(u64::from(tweet), 1_541_815_603_606_036_480);
/// assert_eq!(i64::from(tweet), 1_541_815_603_606_036_480); // a BIGINT
/// assert!(Snowflake::try_from(u64::MAX).is_err());
/// # Ok::<(), snowflake_kit::IdRangeError>(())
/// ```
///
/// Values read from an ID have the narrowest type that holds them (`u64` milliseconds,
/// `u8` datacenter and machine, `u16` sequence), as do [`Parts`](crate::layout::Parts) and the `MAX_*`
/// constants; what goes into an ID ([`compose`], [`Generator::new`](crate::Generator::new))
/// is taken as `u64`, so that nothing is truncated before it is checked.
///
/// # The bit layout
///
/// An ID is a `u64`, read from the most significant bit down:
///
/// ```text
///  63 62                                     22 21   17 16   12 11          0
/// +--+-----------------------------------------+-------+-------+-------------+
/// | 0|  milliseconds since the Twitter epoch   |  dc   |machine|  sequence   |
/// +--+-----------------------------------------+-------+-------+-------------+
///  1                    41                        5       5          12
/// ```
///
/// - the sign bit is always 0, so an ID is also a non-negative `i64`;
/// - the timestamp counts milliseconds from [`TWITTER_EPOCH_MS`](crate::layout::TWITTER_EPOCH_MS)
///   (2010-11-04T01:42:54.657Z) up to [`MAX_TIMESTAMP_MS`](crate::layout::MAX_TIMESTAMP_MS) (2080-07-10T17:30:30.208Z);
/// - `dc` (datacenter) and `machine` (Twitter's "worker id") are the [`Identity`](crate::Identity)
///   that issued the ID;
/// - the sequence tells apart the IDs of one identity in one millisecond.
///
/// The layout's constants ([`TIMESTAMP_BITS`](crate::layout::TIMESTAMP_BITS), [`TWITTER_EPOCH_MS`](crate::layout::TWITTER_EPOCH_MS)
/// and the rest) are this drawing as numbers, and [`Segment`](crate::layout::Segment) as data.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Snowflake(u64);

/// The four fields of a [`Snowflake`], as [`Snowflake::parts`] returns them; back into
/// an ID with [`compose`].
///
/// `timestamp_ms` is Unix time in milliseconds (the epoch already added back).
///
/// ```
/// use snowflake_kit::compose;
/// use snowflake_kit::layout::Parts;
///
/// let p = compose(1_288_834_975_657, 1, 1, 0)?.parts();
/// assert_eq!(p, Parts { timestamp_ms: 1_288_834_975_657, datacenter: 1, machine: 1, sequence: 0 });
/// let again = compose(p.timestamp_ms, p.datacenter.into(), p.machine.into(), p.sequence.into())?;
/// assert_eq!(again.as_u64(), 4_194_439_168);
/// # Ok::<(), snowflake_kit::FieldRangeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Parts {
    /// Unix time in milliseconds.
    pub timestamp_ms: u64,
    /// Datacenter id, `0..=31`.
    pub datacenter: u8,
    /// Machine id, `0..=31`.
    pub machine: u8,
    /// Sequence number, `0..=4095`.
    pub sequence: u16,
}

/// Builds the ID of the given fields, checking each one against its range.
///
/// The arguments are all `u64`, so that a caller never truncates an
/// out-of-range value before it is checked. Fields are checked in the order
/// timestamp, datacenter, machine, sequence; the first one out of range is
/// reported.
///
/// ```
/// use snowflake_kit::{compose, FieldRangeError};
///
/// assert_eq!(compose(1_288_834_975_657, 1, 1, 0)?.as_u64(), 4_194_439_168);
/// assert_eq!(compose(1_288_834_975_657, 32, 1, 0), Err(FieldRangeError::DatacenterOutOfRange(32)));
///
/// // Usable in constants: a bad value fails the build.
/// const ID: u64 = match compose(1_288_834_975_657, 1, 1, 0) {
///     Ok(id) => id.as_u64(),
///     Err(_) => panic!("bad id"),
/// };
/// assert_eq!(ID, 4_194_439_168);
/// # Ok::<(), FieldRangeError>(())
/// ```
///
/// # Errors
///
/// A [`FieldRangeError`] naming the first field out of range.
pub const fn compose(
    timestamp_ms: u64,
    datacenter: u64,
    machine: u64,
    sequence: u64,
) -> Result<Snowflake, FieldRangeError> {
    let values = [timestamp_ms, datacenter, machine, sequence];
    let mut i = 0;
    while i < values.len() {
        if let Err(e) = Field::ALL[i].check(values[i]) {
            return Err(e);
        }
        i += 1;
    }
    Ok(Snowflake(
        ((timestamp_ms - TWITTER_EPOCH_MS) << TIMESTAMP_SHIFT)
            | (datacenter << DATACENTER_SHIFT)
            | (machine << MACHINE_SHIFT)
            | (sequence << SEQUENCE_SHIFT),
    ))
}

impl Snowflake {
    /// The smallest ID, 0: the first millisecond of the epoch, datacenter, machine and
    /// sequence 0.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::layout::TWITTER_EPOCH_MS;
    ///
    /// assert_eq!(Snowflake::MIN.as_u64(), 0);
    /// assert_eq!(Snowflake::MIN.timestamp_ms(), TWITTER_EPOCH_MS);
    /// ```
    pub const MIN: Snowflake = Snowflake(0);

    /// The largest ID: every bit but the sign bit set.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    ///
    /// assert_eq!(Snowflake::MAX.as_u64(), i64::MAX as u64);
    /// assert_eq!(Snowflake::MAX.timestamp_ms(), snowflake_kit::layout::MAX_TIMESTAMP_MS);
    /// ```
    pub const MAX: Snowflake = Snowflake(u64::MAX >> 1);

    /// The ID of a `u64` whose sign bit is clear: the `const` form of `TryFrom<u64>`.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    ///
    /// assert_eq!(Snowflake::try_from_u64(7)?.as_u64(), 7);
    /// assert_eq!(
    ///     Snowflake::try_from_u64(1 << 63).unwrap_err().to_string(),
    ///     "9223372036854775808 is out of range: an ID is in 0..=9223372036854775807",
    /// );
    /// # Ok::<(), snowflake_kit::IdRangeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// An [`IdRangeError`] naming the value, past `i64::MAX`.
    pub const fn try_from_u64(id: u64) -> Result<Snowflake, IdRangeError> {
        if id >> 63 == 0 {
            Ok(Snowflake(id))
        } else {
            Err(IdRangeError::new(id as i128))
        }
    }

    /// The ID as a `u64`.
    ///
    /// ```
    /// let id = snowflake_kit::compose(1_288_834_975_657, 1, 1, 0)?;
    /// assert_eq!(id.as_u64(), 4_194_439_168);
    /// # Ok::<(), snowflake_kit::FieldRangeError>(())
    /// ```
    pub const fn as_u64(self) -> u64 {
        self.0
    }

    /// Unix time in milliseconds at which the ID was issued.
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// assert_eq!(id.timestamp_ms(), 1_656_432_460_105);
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn timestamp_ms(self) -> u64 {
        (self.0 >> TIMESTAMP_SHIFT) + TWITTER_EPOCH_MS
    }

    /// Datacenter id, `0..=31`.
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// assert_eq!(id.datacenter(), 11);
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn datacenter(self) -> u8 {
        ((self.0 >> DATACENTER_SHIFT) & DATACENTER_MASK) as u8
    }

    /// Machine id, `0..=31`.
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// assert_eq!(id.machine(), 26);
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn machine(self) -> u8 {
        ((self.0 >> MACHINE_SHIFT) & MACHINE_MASK) as u8
    }

    /// Sequence number, `0..=4095`.
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// assert_eq!(id.sequence(), 0);
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn sequence(self) -> u16 {
        ((self.0 >> SEQUENCE_SHIFT) & SEQUENCE_MASK) as u16
    }

    /// All four fields at once; [`compose`] is the way back.
    ///
    /// ```
    /// let id: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// let p = id.parts();
    /// assert_eq!((p.timestamp_ms, p.datacenter, p.machine, p.sequence), (1_656_432_460_105, 11, 26, 0));
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn parts(self) -> Parts {
        Parts {
            timestamp_ms: self.timestamp_ms(),
            datacenter: self.datacenter(),
            machine: self.machine(),
            sequence: self.sequence(),
        }
    }

    /// The timestamp as RFC 3339 in UTC, always with three fraction digits.
    ///
    /// ```
    /// let tweet: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// assert_eq!(tweet.rfc3339().to_string(), "2022-06-28T16:07:40.105Z");
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn rfc3339(self) -> Rfc3339 {
        match Rfc3339::new(self.timestamp_ms()) {
            Some(time) => time,
            // Every ID's timestamp is before 2081.
            None => unreachable!(),
        }
    }

    /// Whether the ID's time is within a day of the epoch (before
    /// 2010-11-05T01:42:54.657Z): a number like this is more likely no Snowflake at all.
    /// Twitter's IDs before 2010-11-04 counted up from 1, and an auto-increment key looks
    /// the same: each decodes, as every `u64` below 2^63 does, to a time just after the
    /// epoch. A person shown such an ID decoded should be told; [`parts`](Snowflake::parts)
    /// and the getters read it all the same.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    ///
    /// // Tweet 20, 2006-03-21: Twitter counted from 1.
    /// assert!(Snowflake::try_from(20)?.is_near_epoch());
    /// // The epoch's first day is its first 86,400,000 ms.
    /// assert!(Snowflake::try_from((86_400_000 << 22) - 1)?.is_near_epoch());
    /// assert!(!Snowflake::try_from(86_400_000 << 22)?.is_near_epoch());
    /// # Ok::<(), snowflake_kit::IdRangeError>(())
    /// ```
    pub const fn is_near_epoch(self) -> bool {
        self.0 >> TIMESTAMP_SHIFT < DAY_MS
    }

    /// The time at which the ID was issued.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    ///
    /// let id: snowflake_kit::Snowflake = "1541815603606036480".parse()?;
    /// assert_eq!(id.system_time(), UNIX_EPOCH + Duration::from_millis(1_656_432_460_105));
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn system_time(self) -> std::time::SystemTime {
        std::time::UNIX_EPOCH + core::time::Duration::from_millis(self.timestamp_ms())
    }

    /// Wraps a value that the caller's own arithmetic keeps below 2^63 (the generator's
    /// reservations, a time range's bounds). Checked all the same, in every build: where
    /// the optimizer can see the bound, the check costs nothing; where it cannot, an ID
    /// with its sign bit set would be worse than a panic.
    #[inline]
    pub(crate) const fn from_valid(id: u64) -> Snowflake {
        assert!(id >> 63 == 0, "internal error: an ID with its sign bit set");
        Snowflake(id)
    }

    /// The ID `n` after this one in its millisecond, for a batch the generator reserved:
    /// `n` more than the sequence of a checked ID, within the millisecond's 4,096 (the
    /// reservation's own bound), so its sign bit is this one's, clear.
    #[cfg(feature = "std")]
    #[inline]
    pub(crate) const fn later_in_batch(self, n: u64) -> Snowflake {
        Snowflake(self.0 + n)
    }
}

impl fmt::Debug for Snowflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Snowflake").field(&self.0).finish()
    }
}

impl fmt::Display for Snowflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The plain binary digits of the `u64`, with the usual flags (`{:064b}`, `{:#b}`).
impl fmt::Binary for Snowflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Binary::fmt(&self.0, f)
    }
}

/// Parses decimal digits only: no sign, no spaces, no `0x`.
impl FromStr for Snowflake {
    type Err = ParseSnowflakeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Err(ParseSnowflakeError::Empty);
        }
        // `None` once past 64 bits: the rest is still read, since a text with a character
        // that is not a digit is no number at all, however many digits come first.
        let mut value = Some(0_u64);
        // Byte by byte: decoding characters was a third of `snowflake decode`'s parsing.
        for (position, &byte) in s.as_bytes().iter().enumerate() {
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                // Every byte before `position` is an ASCII digit, so a character starts here.
                let character = s.get(position..).and_then(|rest| rest.chars().next());
                let character = character.unwrap_or_default();
                return Err(ParseSnowflakeError::InvalidCharacter {
                    character,
                    position,
                });
            }
            value = value
                .and_then(|v| v.checked_mul(10))
                .and_then(|v| v.checked_add(u64::from(digit)));
        }
        match value {
            Some(value) if value >> 63 == 0 => Ok(Snowflake(value)),
            _ => Err(ParseSnowflakeError::TooLarge),
        }
    }
}

/// Fails with [`IdRangeError`], which names the value, when its sign bit is set
/// (past `i64::MAX`). The one `TryFrom` of an integer, so that an untyped literal
/// (`Snowflake::try_from(1541815603606036480)`) needs no suffix; a BIGINT's `i64` goes
/// through [`Snowflake::try_from_i64`].
impl TryFrom<u64> for Snowflake {
    type Error = IdRangeError;

    fn try_from(value: u64) -> Result<Self, Self::Error> {
        Snowflake::try_from_u64(value)
    }
}

impl From<Snowflake> for u64 {
    fn from(id: Snowflake) -> u64 {
        id.0
    }
}

/// Every ID is a non-negative `i64`, which is how databases such as `PostgreSQL` store it.
impl From<Snowflake> for i64 {
    fn from(id: Snowflake) -> i64 {
        id.as_i64()
    }
}
