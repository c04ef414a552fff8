use core::fmt;

use crate::format::{
    IDENTITY_COUNT, MAX_TIMESTAMP_MS, MAX_TIMESTAMP_RFC3339, TWITTER_EPOCH_MS,
    TWITTER_EPOCH_RFC3339,
};

/// Why a text is not a [`Snowflake`](crate::Snowflake): the error of its `FromStr` (decimal
/// digits) and of [`Snowflake::from_base32`](crate::Snowflake::from_base32).
///
/// ```
/// use snowflake_kit::{ParseSnowflakeError, Snowflake};
///
/// assert_eq!("".parse::<Snowflake>(), Err(ParseSnowflakeError::Empty));
/// assert_eq!(
///     "0x1F".parse::<Snowflake>().unwrap_err().to_string(),
///     "invalid character `x` at byte 1: an ID is decimal digits only",
/// );
/// assert_eq!(
///     "9223372036854775808".parse::<Snowflake>(),
///     Err(ParseSnowflakeError::TooLarge),
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseSnowflakeError {
    /// The text is empty.
    Empty,
    /// The text has something other than the digits `0` to `9`.
    InvalidCharacter {
        /// The first character that is not a decimal digit.
        character: char,
        /// Its byte offset in the text.
        position: usize,
    },
    /// The number is larger than the largest ID, [`Snowflake::MAX`](crate::Snowflake::MAX)
    /// (`i64::MAX`): its sign bit would be set, or it does not fit in 64 bits at all.
    TooLarge,
    /// Base32 text ([`Snowflake::from_base32`](crate::Snowflake::from_base32)) with
    /// something other than Crockford's digits: `0-9`, and `A-Z` but `U` (`I`, `L` and `O`
    /// read as 1, 1 and 0), in either case.
    InvalidBase32Character {
        /// The first character that is not a digit of base32.
        character: char,
        /// Its byte offset in the text.
        position: usize,
    },
    /// Base32 text of 13 digits whose first is past 7: 65 bits, where an ID has 63 (the
    /// largest is `7ZZZZZZZZZZZZ`).
    Base32TooLarge {
        /// The first digit, as written.
        first: char,
    },
    /// Base32 text whose digits are not 13 characters.
    Base32Length {
        /// How many characters there are, after the prefix.
        length: usize,
    },
    /// Base32 text without its kind's prefix and `_`, or with a prefix where the ID has
    /// none.
    Base32Prefix {
        /// The prefix the kind's IDs have, if any.
        expected: Option<&'static str>,
    },
}

impl fmt::Display for ParseSnowflakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseSnowflakeError::Empty => f.write_str("empty text: an ID is decimal digits"),
            ParseSnowflakeError::InvalidCharacter {
                character,
                position,
            } => write!(
                f,
                "invalid character `{}` at byte {position}: an ID is decimal digits only",
                character.escape_debug()
            ),
            ParseSnowflakeError::TooLarge => {
                write!(f, "number too large: an ID is at most {}", i64::MAX)
            }
            ParseSnowflakeError::InvalidBase32Character {
                character,
                position,
            } => write!(
                f,
                "invalid character `{}` at byte {position}: base32 is 0-9 and A-Z without U",
                character.escape_debug()
            ),
            ParseSnowflakeError::Base32TooLarge { first } => write!(
                f,
                "first digit `{}` too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first digit 0-7",
                first.escape_debug()
            ),
            ParseSnowflakeError::Base32Length { length } => {
                write!(f, "{length} characters: an ID in base32 is 13")
            }
            ParseSnowflakeError::Base32Prefix {
                expected: Some(prefix),
            } => write!(
                f,
                "no prefix `{prefix}_`: this kind's IDs in base32 are `{prefix}_` and 13 characters"
            ),
            ParseSnowflakeError::Base32Prefix { expected: None } => {
                f.write_str("a prefix: this ID in base32 is 13 characters and no prefix")
            }
        }
    }
}

impl core::error::Error for ParseSnowflakeError {}

/// A number that is no ID (outside `0..=i64::MAX`, so that its sign bit would be set), or no
/// identity's index (outside `0..=1023`). Returned by `Snowflake::try_from(u64)`,
/// [`Snowflake::try_from_u64`](crate::Snowflake::try_from_u64),
/// [`Snowflake::try_from_i64`](crate::Snowflake::try_from_i64) (a database's BIGINT) and
/// [`Identity::try_from_index`](crate::Identity::try_from_index); the message names the value
/// and the range.
///
/// ```
/// use snowflake_kit::{Identity, Snowflake};
///
/// let err = Snowflake::try_from(1_u64 << 63).unwrap_err();
/// assert_eq!(err.value(), 1_i128 << 63);
/// assert_eq!(
///     err.to_string(),
///     "9223372036854775808 is out of range: an ID is in 0..=9223372036854775807",
/// );
/// assert_eq!(
///     Snowflake::try_from_i64(-5).unwrap_err().to_string(),
///     "-5 is out of range: an ID is in 0..=9223372036854775807",
/// );
/// assert_eq!(
///     Identity::try_from_index(1057).unwrap_err().to_string(),
///     "1057 is out of range: an identity's index is in 0..=1023",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IdRangeError {
    // Wide enough for every `u64` and every `i64`, so the message quotes what was given.
    value: i128,
    of: Range,
}

/// What the refused number was to be, and so the range it missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Range {
    Id,
    IdentityIndex,
}

impl IdRangeError {
    /// A number that is no ID.
    pub(crate) const fn new(value: i128) -> IdRangeError {
        IdRangeError {
            value,
            of: Range::Id,
        }
    }

    /// A number that is no identity's index.
    pub(crate) const fn identity_index(value: u16) -> IdRangeError {
        IdRangeError {
            value: value as i128,
            of: Range::IdentityIndex,
        }
    }

    /// The number that was refused, as given.
    ///
    /// ```
    /// let err = snowflake_kit::Snowflake::try_from_i64(-1).unwrap_err();
    /// assert_eq!(err.value(), -1);
    /// ```
    pub const fn value(&self) -> i128 {
        self.value
    }
}

impl fmt::Display for IdRangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, max) = match self.of {
            Range::Id => ("an ID", u64::MAX >> 1),
            Range::IdentityIndex => ("an identity's index", u64::from(IDENTITY_COUNT - 1)),
        };
        write!(f, "{} is out of range: {what} is in 0..={max}", self.value)
    }
}

impl core::error::Error for IdRangeError {}

/// Why a [`Generator`](crate::Generator) could not issue an ID.
///
/// ```
/// use snowflake_kit::GenerateError;
///
/// let err = GenerateError::ClockMovedBackwards { by_ms: 1500, tolerance_ms: 1000 };
/// assert_eq!(
///     err.to_string(),
///     "the clock moved backwards by 1500 ms, more than the 1000 ms the generator waits out",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GenerateError {
    /// The clock reads further behind the last issued ID than the generator's
    /// tolerance. Reported at once, without waiting.
    ClockMovedBackwards {
        /// How far the clock is behind the last issued ID's timestamp.
        by_ms: u64,
        /// The generator's tolerance.
        tolerance_ms: u64,
    },
    /// The clock reads before the Twitter epoch: no ID can carry that time.
    ClockBeforeEpoch {
        /// The clock's reading, Unix ms.
        now_ms: u64,
    },
    /// The clock reads after 2080-07-10T17:30:30.208Z, the last time 41 bits hold.
    ClockAfterMax {
        /// The clock's reading, Unix ms.
        now_ms: u64,
    },
    /// The generator waited for the clock to reach a new millisecond, and it did not
    /// advance: a stopped clock, not a slow one, since the wait is bounded.
    ClockStalled {
        /// How long the generator waited, in ms of the monotonic clock.
        waited_ms: u64,
    },
    /// The next ID would carry a time past the generator's
    /// [ceiling](crate::fence::FencedGenerator::set_ceiling).
    AboveCeiling {
        /// The time the next ID would carry, Unix ms.
        timestamp_ms: u64,
        /// The ceiling, Unix ms.
        ceiling_ms: u64,
    },
    /// The generator is [halted](crate::fence::FencedGenerator::halt).
    Halted,
    /// No ID can be issued before the clock reads `until_ms`: the current millisecond's
    /// 4,096 are used up, or the clock stepped back (within the tolerance) behind the
    /// last ID. Only [`try_next_id_now`](crate::Generator::try_next_id_now) returns it,
    /// where [`try_next_id`](crate::Generator::try_next_id) would wait.
    WouldWait {
        /// The clock reading (Unix ms) that the next ID needs.
        until_ms: u64,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GenerateError::ClockMovedBackwards {
                by_ms,
                tolerance_ms,
            } => write!(
                f,
                "the clock moved backwards by {by_ms} ms, more than the {tolerance_ms} ms the generator waits out"
            ),
            GenerateError::ClockBeforeEpoch { now_ms } => write!(
                f,
                "the clock reads {now_ms} ms, before the Twitter epoch ({TWITTER_EPOCH_MS} ms, {TWITTER_EPOCH_RFC3339})"
            ),
            GenerateError::ClockAfterMax { now_ms } => write!(
                f,
                "the clock reads {now_ms} ms, after the last timestamp 41 bits hold \
                 ({MAX_TIMESTAMP_MS} ms, {MAX_TIMESTAMP_RFC3339})"
            ),
            GenerateError::ClockStalled { waited_ms } => write!(
                f,
                "the clock did not advance in {waited_ms} ms while the generator waited for a new millisecond"
            ),
            GenerateError::AboveCeiling {
                timestamp_ms,
                ceiling_ms,
            } => write!(
                f,
                "the next ID would carry {timestamp_ms} ms, past the generator's ceiling of {ceiling_ms} ms"
            ),
            GenerateError::Halted => f.write_str("the generator is halted"),
            GenerateError::WouldWait { until_ms } => write!(
                f,
                "the next ID has to wait for the clock to read {until_ms} ms"
            ),
        }
    }
}

impl core::error::Error for GenerateError {}
