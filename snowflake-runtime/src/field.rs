//! The four fields of an ID, each with its range, its short key and the text it is read
//! from: the one place `compose`, the macro, the command and the server check them.

use core::fmt;

use crate::FieldRangeError;
use crate::error::NumberError;
use crate::input::ParseFieldError;
use crate::layout::{
    MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, MAX_TIMESTAMP_MS, MAX_TIMESTAMP_RFC3339,
    TWITTER_EPOCH_MS, TWITTER_EPOCH_RFC3339,
};
use crate::rfc3339::parse_rfc3339;

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

    /// What [`parse`](Field::parse) accepts, for messages: a [`Display`](fmt::Display) value.
    ///
    /// ```
    /// use snowflake_kit::Field;
    ///
    /// assert_eq!(Field::Machine.expected().to_string(), "a whole number in 0..=31");
    /// assert_eq!(
    ///     Field::Timestamp.expected().to_string(),
    ///     "Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from \
    ///      2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
    /// );
    /// ```
    pub const fn expected(self) -> Expected {
        Expected(self)
    }

    /// The field's value from text typed by a person: decimal digits only (no sign, no
    /// `0x`, no spaces), or for the timestamp also an RFC 3339 date ([`parse_rfc3339`]);
    /// then checked against the field's range. `snowflake!`'s string `ts`, the
    /// command's flags and the server's fields all read their text here.
    ///
    /// ```
    /// use snowflake_kit::input::{NumberError, ParseFieldError};
    /// use snowflake_kit::{Field, FieldRangeError};
    ///
    /// assert_eq!(Field::Datacenter.parse("31"), Ok(31));
    /// assert_eq!(Field::Timestamp.parse("2022-06-28T16:07:40.105Z"), Ok(1_656_432_460_105));
    /// assert_eq!(Field::Timestamp.parse("1656432460105"), Ok(1_656_432_460_105));
    /// assert_eq!(
    ///     Field::Sequence.parse("-1"),
    ///     Err(ParseFieldError::Number { field: Field::Sequence, error: NumberError::Negative }),
    /// );
    /// let err = Field::Datacenter.parse("32").unwrap_err();
    /// assert_eq!(err, ParseFieldError::OutOfRange(FieldRangeError::DatacenterOutOfRange(32)));
    /// assert_eq!(err.to_string(), "datacenter 32 is out of range 0..=31 (5 bits)");
    /// assert_eq!(
    ///     Field::Machine.parse("0x1F").unwrap_err().with_input("0x1F").to_string(),
    ///     "machine \"0x1F\" is not a whole number of decimal digits; expected a whole number in 0..=31",
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// A [`ParseFieldError`]: not a number (or date), or out of range.
    pub fn parse(self, text: &str) -> Result<u64, ParseFieldError> {
        let number = match parse_decimal(text) {
            Ok(value) => value,
            // Anything that does not look like a number may be a date.
            Err(NumberError::NotDigits) if self == Field::Timestamp => {
                parse_rfc3339(text).map_err(ParseFieldError::Date)?
            }
            Err(error) => return Err(ParseFieldError::Number { field: self, error }),
        };
        self.check(number).map_err(ParseFieldError::OutOfRange)
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

/// What a [`Field`] accepts, for messages; see [`Field::expected`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected(Field);

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = self.0;
        match field {
            Field::Timestamp => write!(
                f,
                "Unix ms in {TWITTER_EPOCH_MS}..={MAX_TIMESTAMP_MS}, or an RFC 3339 date from \
                 {TWITTER_EPOCH_RFC3339} to {MAX_TIMESTAMP_RFC3339}"
            ),
            _ => write!(f, "a whole number in {}..={}", field.min(), field.max()),
        }
    }
}

/// A whole number of decimal digits, as a person types it: no sign, no spaces, no `0x`,
/// no `_`. For numbers that are not a field of an ID (a count, a number of seconds); a
/// field's text is read by [`Field::parse`]. Not API: the front ends reach it through
/// `__private` (its cases are in `tests/text.rs`).
///
/// # Errors
///
/// A [`NumberError`] that says what the text is instead.
pub fn parse_decimal(text: &str) -> Result<u64, NumberError> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if digits(text) {
        // Digits only: the one way this fails is a value past 64 bits.
        return text.parse().map_err(|_| NumberError::TooLarge);
    }
    let (sign, unsigned) = match text.as_bytes().first() {
        None => return Err(NumberError::Empty),
        Some(b'-') => (Some(NumberError::Negative), &text[1..]),
        Some(b'+') => (Some(NumberError::Plus), &text[1..]),
        Some(_) => (None, text),
    };
    let (whole, fraction) = match unsigned.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (unsigned, None),
    };
    if !digits(whole) || !fraction.is_none_or(digits) {
        return Err(NumberError::NotDigits);
    }
    Err(match (sign, fraction) {
        (Some(sign), _) => sign,
        (None, _) => NumberError::Fraction,
    })
}
