//! The parts of [`Field::parse`](crate::Field::parse)'s answers: what a front end reading
//! text typed by a person (a command's flags, a form's fields, a query string) shows. The
//! range a field expects ([`Expected`], from [`Field::expected`](crate::Field::expected)),
//! why a text is not a number ([`NumberError`]), the error itself ([`ParseFieldError`]),
//! and the error with the text quoted ([`WithInput`], from
//! [`ParseFieldError::with_input`]).
//!
//! An application that only composes, decodes and generates IDs does not need this module;
//! one that reads a field from text meets [`ParseFieldError`], the error of
//! [`Field::parse`](crate::Field::parse).
//!
//! ```
//! use snowflake_kit::Field;
//!
//! // A field: its rule, its range, and the text quoted in the message.
//! let err = Field::Machine.parse("0x1F").unwrap_err();
//! assert_eq!(
//!     err.with_input("0x1F").to_string(),
//!     "machine \"0x1F\" is not a whole number of decimal digits; expected a whole number in 0..=31",
//! );
//! assert_eq!(Field::Machine.expected().to_string(), "a whole number in 0..=31");
//! ```

use core::fmt;

use crate::field::{Field, FieldRangeError};
use crate::format::{
    MAX_TIMESTAMP_MS, MAX_TIMESTAMP_RFC3339, TWITTER_EPOCH_MS, TWITTER_EPOCH_RFC3339,
};
use crate::rfc3339::{Rfc3339Error, parse_rfc3339};

impl Field {
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
}

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
// Hidden, as in the 0.1 API: `pub` only so that `__private` can pass it on.
#[doc(hidden)]
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
