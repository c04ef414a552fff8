use core::fmt;

use crate::Field;
use crate::layout::{
    DATACENTER_BITS, MACHINE_BITS, MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, MAX_TIMESTAMP_MS,
    MAX_TIMESTAMP_RFC3339, SEQUENCE_BITS, TWITTER_EPOCH_MS, TWITTER_EPOCH_RFC3339,
};
use crate::rfc3339::Rfc3339Error;

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

/// Why a field's text is not a whole number of decimal digits, in
/// [`ParseFieldError::Number`].
///
/// ```
/// use snowflake_kit::Field;
/// use snowflake_kit::input::{NumberError, ParseFieldError};
///
/// let Err(ParseFieldError::Number { error, .. }) = Field::Sequence.parse("-3") else {
///     panic!("a negative number is not digits");
/// };
/// assert_eq!(error, NumberError::Negative);
/// assert_eq!(error.to_string(), "negative");
/// assert_eq!(NumberError::NotDigits.to_string(), "not a whole number of decimal digits");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NumberError {
    /// The text is empty.
    Empty,
    /// A `-` and a number.
    Negative,
    /// A `+` and a number: digits only are taken, so that nothing is misread.
    Plus,
    /// Digits, a `.` and digits.
    Fraction,
    /// Anything else that is not decimal digits: `0x1F`, `1e3`, `1_000`, ` 1`.
    NotDigits,
    /// Digits past 64 bits.
    TooLarge,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::Empty => "empty",
            NumberError::Negative => "negative",
            NumberError::Plus => "a number with a `+` sign, where digits only are taken",
            NumberError::Fraction => "not a whole number",
            NumberError::NotDigits => "not a whole number of decimal digits",
            NumberError::TooLarge => "larger than 64 bits",
        })
    }
}

impl core::error::Error for NumberError {}

/// Why a text is not a field's value: [`Field::parse`].
///
/// Its [`Display`](fmt::Display) says what is wrong and what is allowed, without the
/// text; [`with_input`](ParseFieldError::with_input) gives the message with the text
/// quoted, as the macro, the command and the server show it.
///
/// ```
/// use snowflake_kit::Field;
///
/// let err = Field::Timestamp.parse("2022-02-30T00:00:00Z").unwrap_err();
/// assert_eq!(err.field(), Field::Timestamp);
/// assert_eq!(
///     err.with_input("2022-02-30T00:00:00Z").to_string(),
///     "\"2022-02-30T00:00:00Z\" is not an RFC 3339 date: day 30 is out of range 1..=28; \
///      expected Unix ms or a date such as \"2022-06-28T16:07:40.105Z\"",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseFieldError {
    /// Not a whole number of decimal digits (nor, for the timestamp, a date).
    Number {
        /// The field.
        field: Field,
        /// What the text is instead.
        error: NumberError,
    },
    /// A timestamp that is neither digits nor an RFC 3339 date the format can carry.
    Date(Rfc3339Error),
    /// A number (or date) outside the field's range.
    OutOfRange(FieldRangeError),
}

impl ParseFieldError {
    /// The field whose text was refused.
    ///
    /// ```
    /// use snowflake_kit::Field;
    ///
    /// assert_eq!(Field::Machine.parse("99").unwrap_err().field(), Field::Machine);
    /// ```
    pub const fn field(&self) -> Field {
        match self {
            ParseFieldError::Number { field, .. } => *field,
            ParseFieldError::Date(_) => Field::Timestamp,
            ParseFieldError::OutOfRange(e) => e.field(),
        }
    }

    /// The message with the refused text quoted in it: a [`Display`](fmt::Display) value.
    ///
    /// ```
    /// use snowflake_kit::Field;
    ///
    /// let text = "2000-01-01T00:00:00Z";
    /// let err = Field::Timestamp.parse(text).unwrap_err();
    /// assert_eq!(
    ///     err.with_input(text).to_string(),
    ///     "timestamp 946684800000 ms is out of range 1288834974657..=3487858230208 ms: it is \
    ///      before the Twitter epoch (2010-11-04T01:42:54.657Z); \"2000-01-01T00:00:00Z\" is \
    ///      946684800000 ms",
    /// );
    /// ```
    pub const fn with_input<'a>(&'a self, input: &'a str) -> WithInput<'a> {
        WithInput { error: self, input }
    }
}

impl fmt::Display for ParseFieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFieldError::Number { field, error } => {
                write!(f, "{error}; expected {}", field.expected())
            }
            ParseFieldError::Date(e) => write!(f, "{e}"),
            ParseFieldError::OutOfRange(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for ParseFieldError {}

/// A [`ParseFieldError`]'s message with the text quoted: [`ParseFieldError::with_input`].
#[derive(Clone, Copy, Debug)]
pub struct WithInput<'a> {
    error: &'a ParseFieldError,
    input: &'a str,
}

impl fmt::Display for WithInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.input;
        match *self.error {
            ParseFieldError::Number {
                field,
                error: NumberError::Empty,
            } => write!(
                f,
                "{} is empty; expected {}",
                field.name(),
                field.expected()
            ),
            ParseFieldError::Number { field, error } => write!(
                f,
                "{} {text:?} is {error}; expected {}",
                field.name(),
                field.expected()
            ),
            // Dates, but not ones a snowflake can carry.
            ParseFieldError::Date(
                e @ (Rfc3339Error::LeapSecond | Rfc3339Error::FinerThanMillisecond),
            ) => {
                write!(f, "{text:?}: {e}")
            }
            ParseFieldError::Date(Rfc3339Error::BeforeUnixEpoch) => write!(
                f,
                "{text:?} is before 1970, and so before the Twitter epoch \
                 ({TWITTER_EPOCH_RFC3339}); expected {}",
                Field::Timestamp.expected()
            ),
            ParseFieldError::Date(e) => write!(
                f,
                "{text:?} is not an RFC 3339 date: {e}; expected Unix ms or a date such as \
                 \"2022-06-28T16:07:40.105Z\""
            ),
            // A date out of range: its Unix ms too, which the message names.
            ParseFieldError::OutOfRange(
                e @ (FieldRangeError::TimestampBeforeEpoch(ms)
                | FieldRangeError::TimestampAfterMax(ms)),
            ) if !text.bytes().all(|b| b.is_ascii_digit()) => {
                write!(f, "{e}; {text:?} is {ms} ms")
            }
            ParseFieldError::OutOfRange(e) => write!(f, "{e}"),
        }
    }
}

/// Why a text is not a [`Snowflake`](crate::Snowflake): its `FromStr`.
///
/// ```
/// use snowflake_kit::{ParseSnowflakeError, Snowflake};
///
/// assert_eq!("".parse::<Snowflake>(), Err(ParseSnowflakeError::Empty));
/// assert_eq!(
///     "0x1F".parse::<Snowflake>().unwrap_err().to_string(),
///     "invalid character `x` at byte 1: a snowflake id is decimal digits only",
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
}

impl fmt::Display for ParseSnowflakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseSnowflakeError::Empty => {
                f.write_str("empty text: a snowflake id is decimal digits")
            }
            ParseSnowflakeError::InvalidCharacter {
                character,
                position,
            } => write!(
                f,
                "invalid character `{}` at byte {position}: a snowflake id is decimal digits only",
                character.escape_debug()
            ),
            ParseSnowflakeError::TooLarge => {
                write!(
                    f,
                    "number too large: a snowflake id is at most {}",
                    i64::MAX
                )
            }
        }
    }
}

impl core::error::Error for ParseSnowflakeError {}

/// A number that is no ID: outside `0..=i64::MAX`, so that its sign bit would be set.
/// Returned by `Snowflake::try_from(u64)` and [`Snowflake::try_from_i64`](crate::Snowflake::try_from_i64)
/// (a database's BIGINT); the message names the value.
///
/// ```
/// use snowflake_kit::Snowflake;
///
/// let err = Snowflake::try_from(1_u64 << 63).unwrap_err();
/// assert_eq!(err.value(), 1_i128 << 63);
/// assert_eq!(
///     err.to_string(),
///     "9223372036854775808 is out of range: a snowflake id is in 0..=9223372036854775807",
/// );
/// assert_eq!(
///     Snowflake::try_from_i64(-5).unwrap_err().to_string(),
///     "-5 is out of range: a snowflake id is in 0..=9223372036854775807",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IdRangeError {
    // Wide enough for every `u64` and every `i64`, so the message quotes what was given.
    value: i128,
}

impl IdRangeError {
    pub(crate) const fn new(value: i128) -> IdRangeError {
        IdRangeError { value }
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
        write!(
            f,
            "{} is out of range: a snowflake id is in 0..={}",
            self.value,
            i64::MAX
        )
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
    /// [ceiling](crate::fence::Fence::set_ceiling).
    AboveCeiling {
        /// The time the next ID would carry, Unix ms.
        timestamp_ms: u64,
        /// The ceiling, Unix ms.
        ceiling_ms: u64,
    },
    /// The generator is [halted](crate::fence::Fence::halt).
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
