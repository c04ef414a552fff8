//! RFC 3339 dates as Unix milliseconds: the one reader and writer of the workspace.
//!
//! The reader takes the subset that names a whole millisecond: `YYYY-MM-DD`, a
//! `T`, `t` or space, `HH:MM:SS`, an optional fraction whose digits past the
//! third are zeros, then `Z`, `z` or `+HH:MM`/`-HH:MM`. The writer gives UTC with
//! exactly three fraction digits, so that dates sort as text.

use core::fmt;

/// `?` for `const fn`, where the operator is not stable yet.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// Reads an RFC 3339 date-time as Unix milliseconds.
///
/// Strict: only what RFC 3339 allows passes (a space between date and time is
/// the one liberty, as RFC 3339 itself suggests), and a date finer than a
/// millisecond, a leap second or a time before 1970 is an error, never rounded.
///
/// ```
/// use snowflake_kit::rfc3339::{Rfc3339Error, parse_rfc3339};
///
/// assert_eq!(parse_rfc3339("2022-06-28T16:07:40.105Z"), Ok(1_656_432_460_105));
/// assert_eq!(parse_rfc3339("2022-06-28 18:07:40.105000+02:00"), Ok(1_656_432_460_105));
/// assert_eq!(parse_rfc3339("2022-06-28T16:07:40.1051Z"), Err(Rfc3339Error::FinerThanMillisecond));
/// assert_eq!(
///     parse_rfc3339("2022-13-28T16:07:40Z").unwrap_err().to_string(),
///     "month 13 is out of range 1..=12",
/// );
/// ```
///
/// # Errors
///
/// An [`Rfc3339Error`] that says where and what is wrong.
pub const fn parse_rfc3339(text: &str) -> Result<u64, Rfc3339Error> {
    let b = text.as_bytes();
    let year = tri!(digits(b, 0, 4, "a four-digit year"));
    tri!(byte(b, 4, b'-', "`-` after the year"));
    let month = tri!(digits(b, 5, 2, "a two-digit month"));
    tri!(byte(b, 7, b'-', "`-` after the month"));
    let day = tri!(digits(b, 8, 2, "a two-digit day"));
    match at(b, 10) {
        Some(b'T' | b't' | b' ') => {}
        found => {
            return Err(Rfc3339Error::Unexpected {
                position: 10,
                expected: "`T` between the date and the time",
                found,
            });
        }
    }
    let hour = tri!(digits(b, 11, 2, "a two-digit hour"));
    tri!(byte(b, 13, b':', "`:` after the hour"));
    let minute = tri!(digits(b, 14, 2, "a two-digit minute"));
    tri!(byte(b, 16, b':', "`:` after the minute"));
    let second = tri!(digits(b, 17, 2, "two-digit seconds"));
    let (i, millis, finer) = tri!(fraction(b, 19));
    let (i, offset_minutes) = tri!(offset(b, i));
    if i < b.len() {
        return Err(Rfc3339Error::Unexpected {
            position: i,
            expected: "the end of the date",
            found: at(b, i),
        });
    }
    tri!(range(DateField::Month, month, 1, 12));
    tri!(range(DateField::Day, day, 1, days_in_month(year, month)));
    tri!(range(DateField::Hour, hour, 0, 23));
    tri!(range(DateField::Minute, minute, 0, 59));
    // A leap second is 23:59:60 UTC; `:60` at any other minute is no time at all.
    let utc_minute = (hour as i64 * 60 + minute as i64 - offset_minutes).rem_euclid(1440);
    if second == 60 && utc_minute == 1439 {
        return Err(Rfc3339Error::LeapSecond);
    }
    tri!(range(DateField::Second, second, 0, 59));
    if finer {
        return Err(Rfc3339Error::FinerThanMillisecond);
    }
    let days = days_from_civil(year as i64, month, day);
    let local_ms = days * DAY_MS
        + (hour as i64 * 3_600_000)
        + (minute as i64 * 60_000)
        + (second as i64 * 1000)
        + millis as i64;
    let ms = local_ms - offset_minutes * 60_000;
    if ms < 0 {
        return Err(Rfc3339Error::BeforeUnixEpoch);
    }
    // `cast_unsigned` is not const before Rust 1.87.
    #[expect(clippy::cast_sign_loss, reason = "checked not negative above")]
    let ms = ms as u64;
    Ok(ms)
}

/// Unix milliseconds written as RFC 3339 in UTC with three fraction digits, such as
/// `2022-06-28T16:07:40.105Z`. Made by [`Rfc3339::new`] or
/// [`Snowflake::rfc3339`](crate::Snowflake::rfc3339); [`parse_rfc3339`] reads it back.
///
/// ```
/// use snowflake_kit::rfc3339::Rfc3339;
///
/// let time = Rfc3339::new(1_656_432_460_000).unwrap();
/// assert_eq!(time.to_string(), "2022-06-28T16:07:40.000Z");
/// assert_eq!(time.as_ms(), 1_656_432_460_000);
/// assert!(Rfc3339::new(Rfc3339::MAX_MS + 1).is_none()); // past the year 9999
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rfc3339(u64);

impl Rfc3339 {
    /// The last millisecond four year digits can write, 9999-12-31T23:59:59.999Z.
    pub const MAX_MS: u64 = 253_402_300_799_999;

    /// The date of `ms` (Unix milliseconds), or `None` past [`Rfc3339::MAX_MS`].
    ///
    /// ```
    /// let epoch = snowflake_kit::rfc3339::Rfc3339::new(0).unwrap();
    /// assert_eq!(epoch.to_string(), "1970-01-01T00:00:00.000Z");
    /// ```
    pub const fn new(ms: u64) -> Option<Rfc3339> {
        if ms > Self::MAX_MS {
            None
        } else {
            Some(Rfc3339(ms))
        }
    }

    /// The Unix milliseconds it writes.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::rfc3339::Rfc3339::new(7).unwrap().as_ms(), 7);
    /// ```
    pub const fn as_ms(self) -> u64 {
        self.0
    }

    /// The year, in the proleptic Gregorian calendar, UTC: its civil fields are these
    /// accessors', for code that writes a date in other words than RFC 3339's.
    ///
    /// ```
    /// let time = snowflake_kit::rfc3339::Rfc3339::new(1_656_432_460_105).unwrap();
    /// assert_eq!((time.year(), time.month(), time.day()), (2022, 6, 28));
    /// ```
    pub const fn year(self) -> u32 {
        self.date().0
    }

    /// The month, 1..=12.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::rfc3339::Rfc3339::new(0).unwrap().month(), 1);
    /// ```
    pub const fn month(self) -> u32 {
        self.date().1
    }

    /// The day of the month, 1..=31.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::rfc3339::Rfc3339::new(0).unwrap().day(), 1);
    /// ```
    pub const fn day(self) -> u32 {
        self.date().2
    }

    /// The hour, 0..=23.
    ///
    /// ```
    /// let time = snowflake_kit::rfc3339::Rfc3339::new(1_656_432_460_105).unwrap();
    /// assert_eq!((time.hour(), time.minute(), time.second(), time.millisecond()), (16, 7, 40, 105));
    /// ```
    pub const fn hour(self) -> u32 {
        self.in_day(3_600_000, 24)
    }

    /// The minute, 0..=59.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::rfc3339::Rfc3339::new(60_000).unwrap().minute(), 1);
    /// ```
    pub const fn minute(self) -> u32 {
        self.in_day(60_000, 60)
    }

    /// The second, 0..=59 (no leap second).
    ///
    /// ```
    /// assert_eq!(snowflake_kit::rfc3339::Rfc3339::new(59_999).unwrap().second(), 59);
    /// ```
    pub const fn second(self) -> u32 {
        self.in_day(1000, 60)
    }

    /// The millisecond, 0..=999.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::rfc3339::Rfc3339::new(59_999).unwrap().millisecond(), 999);
    /// ```
    pub const fn millisecond(self) -> u32 {
        self.in_day(1, 1000)
    }

    /// Year, month and day.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "at most 9999, 12 and 31: `new` bounds the year"
    )]
    const fn date(self) -> (u32, u32, u32) {
        let (year, month, day) = civil_from_days(self.0 / DAY_MS as u64);
        (year as u32, month as u32, day as u32)
    }

    /// `(ms of the day / unit) % modulus`: each field below the day is below its modulus.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "below the modulus, at most 1000"
    )]
    const fn in_day(self, unit: u64, modulus: u64) -> u32 {
        (self.0 % DAY_MS as u64 / unit % modulus) as u32
    }

    /// Length of the text in bytes, for every date it writes.
    ///
    /// ```
    /// assert_eq!(snowflake_kit::rfc3339::Rfc3339::LEN, "2022-06-28T16:07:40.105Z".len());
    /// ```
    pub const LEN: usize = 24;

    /// The text as ASCII bytes, computed in a `const` context if need be; what
    /// `Display` writes, without the formatter's cost per field.
    ///
    /// ```
    /// let time = snowflake_kit::rfc3339::Rfc3339::new(1_656_432_460_105).unwrap();
    /// assert_eq!(&time.to_bytes(), b"2022-06-28T16:07:40.105Z");
    /// ```
    pub const fn to_bytes(self) -> [u8; Self::LEN] {
        let day_ms = DAY_MS as u64;
        let (year, month, day) = civil_from_days(self.0 / day_ms);
        let in_day = self.0 % day_ms;
        let mut out = *b"0000-00-00T00:00:00.000Z";
        put_digits(&mut out, 0, 4, year);
        put_digits(&mut out, 5, 2, month);
        put_digits(&mut out, 8, 2, day);
        put_digits(&mut out, 11, 2, in_day / 3_600_000);
        put_digits(&mut out, 14, 2, in_day / 60_000 % 60);
        put_digits(&mut out, 17, 2, in_day / 1000 % 60);
        put_digits(&mut out, 20, 3, in_day % 1000);
        out
    }
}

/// Writes `value`, which is in `0..10^len`, as `len` digits from `at`.
const fn put_digits(out: &mut [u8; Rfc3339::LEN], at: usize, len: usize, mut value: u64) {
    let mut i = len;
    while i > 0 {
        i -= 1;
        // 0..=9: clippy sees that the cast cannot truncate.
        let digit = (value % 10) as u8;
        out[at + i] = b'0' + digit;
        value /= 10;
    }
}

impl fmt::Display for Rfc3339 {
    /// Honours width and alignment flags, like `str`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.to_bytes();
        // Only ASCII digits and separators: the conversion cannot fail.
        f.pad(core::str::from_utf8(&bytes).map_err(|_| fmt::Error)?)
    }
}

/// A field of a date, for [`Rfc3339Error::OutOfRange`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DateField {
    /// `MM` of the date.
    Month,
    /// `DD` of the date.
    Day,
    /// `HH` of the time.
    Hour,
    /// `MM` of the time.
    Minute,
    /// `SS` of the time.
    Second,
    /// The hours of the offset.
    OffsetHour,
    /// The minutes of the offset.
    OffsetMinute,
}

impl DateField {
    const fn name(self) -> &'static str {
        match self {
            DateField::Month => "month",
            DateField::Day => "day",
            DateField::Hour => "hour",
            DateField::Minute => "minute",
            DateField::Second => "second",
            DateField::OffsetHour => "offset hour",
            DateField::OffsetMinute => "offset minute",
        }
    }
}

/// Why [`parse_rfc3339`] refused a date.
///
/// ```
/// use snowflake_kit::rfc3339::parse_rfc3339;
///
/// let err = parse_rfc3339("2022-06-28716:07:40Z").unwrap_err();
/// assert_eq!(err.to_string(), "expected `T` between the date and the time at byte 10, found `7`");
/// let err = parse_rfc3339("2016-12-31T23:59:60Z").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "second 60 is a leap second, which Unix time and snowflake timestamps do not have",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rfc3339Error {
    /// Something else than the grammar allows at `position`.
    Unexpected {
        /// Byte offset in the text.
        position: usize,
        /// What belongs there.
        expected: &'static str,
        /// The byte found there, `None` at the end of the text.
        found: Option<u8>,
    },
    /// A field's digits are outside its range.
    OutOfRange {
        /// Which field.
        field: DateField,
        /// Its value.
        value: u32,
        /// Its smallest value.
        min: u32,
        /// Its largest value (for a day, in that month of that year).
        max: u32,
    },
    /// `23:59:60` UTC: RFC 3339 allows a leap second, but Unix time has none.
    LeapSecond,
    /// A non-zero fraction digit past the third: snowflake timestamps are whole milliseconds.
    FinerThanMillisecond,
    /// The date is before 1970-01-01T00:00:00Z, where Unix milliseconds would be negative.
    BeforeUnixEpoch,
}

impl fmt::Display for Rfc3339Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rfc3339Error::Unexpected {
                position,
                expected,
                found,
            } => {
                write!(f, "expected {expected} at byte {position}, found ")?;
                match found {
                    None => f.write_str("the end of the text"),
                    Some(b) if b.is_ascii_graphic() => write!(f, "`{}`", char::from(b)),
                    Some(b' ') => f.write_str("a space"),
                    Some(b) if b.is_ascii() => write!(f, "`{}`", char::from(b).escape_debug()),
                    Some(_) => f.write_str("a non-ASCII character"),
                }
            }
            Rfc3339Error::OutOfRange {
                field,
                value,
                min,
                max,
            } => write!(f, "{} {value} is out of range {min}..={max}", field.name()),
            Rfc3339Error::LeapSecond => f.write_str(
                "second 60 is a leap second, which Unix time and snowflake timestamps do not have",
            ),
            Rfc3339Error::FinerThanMillisecond => f.write_str(
                "finer than a millisecond: snowflake timestamps are whole milliseconds, \
                 so fraction digits past the third must be 0",
            ),
            Rfc3339Error::BeforeUnixEpoch => {
                f.write_str("before 1970-01-01T00:00:00Z, where Unix milliseconds begin")
            }
        }
    }
}

impl core::error::Error for Rfc3339Error {}

/// An optional `.` and digits from `i`: where it ends, its milliseconds, and
/// whether a digit past the third is not zero.
const fn fraction(b: &[u8], mut i: usize) -> Result<(usize, u32, bool), Rfc3339Error> {
    let (mut millis, mut finer) = (0, false);
    if !matches!(at(b, i), Some(b'.')) {
        return Ok((i, 0, false));
    }
    i += 1;
    let start = i;
    while let Some(d @ b'0'..=b'9') = at(b, i) {
        if i - start < 3 {
            millis = millis * 10 + (d - b'0') as u32;
        } else if d != b'0' {
            finer = true;
        }
        i += 1;
    }
    if i == start {
        return Err(Rfc3339Error::Unexpected {
            position: i,
            expected: "a digit after `.`",
            found: at(b, i),
        });
    }
    // `.1` is 100 ms, `.12` is 120 ms.
    let mut shown = i - start;
    while shown < 3 {
        millis *= 10;
        shown += 1;
    }
    Ok((i, millis, finer))
}

/// `Z`, `z`, `+HH:MM` or `-HH:MM` from `i`: where it ends, and the offset in minutes east of UTC.
const fn offset(b: &[u8], i: usize) -> Result<(usize, i64), Rfc3339Error> {
    match at(b, i) {
        Some(b'Z' | b'z') => Ok((i + 1, 0)),
        Some(sign @ (b'+' | b'-')) => {
            let hours = tri!(digits(b, i + 1, 2, "a two-digit offset hour"));
            tri!(byte(b, i + 3, b':', "`:` in the offset"));
            let minutes = tri!(digits(b, i + 4, 2, "a two-digit offset minute"));
            tri!(range(DateField::OffsetHour, hours, 0, 23));
            tri!(range(DateField::OffsetMinute, minutes, 0, 59));
            let total = (hours * 60 + minutes) as i64;
            Ok((i + 6, if sign == b'-' { -total } else { total }))
        }
        found => Err(Rfc3339Error::Unexpected {
            position: i,
            expected: "`Z` or an offset such as `+02:00`",
            found,
        }),
    }
}

const fn at(b: &[u8], i: usize) -> Option<u8> {
    if i < b.len() { Some(b[i]) } else { None }
}

const fn byte(b: &[u8], i: usize, want: u8, expected: &'static str) -> Result<(), Rfc3339Error> {
    match at(b, i) {
        Some(found) if found == want => Ok(()),
        found => Err(Rfc3339Error::Unexpected {
            position: i,
            expected,
            found,
        }),
    }
}

/// Exactly `n` ASCII digits from `start`.
const fn digits(
    b: &[u8],
    start: usize,
    n: usize,
    expected: &'static str,
) -> Result<u32, Rfc3339Error> {
    let mut value = 0;
    let mut i = start;
    while i < start + n {
        match at(b, i) {
            Some(d @ b'0'..=b'9') => value = value * 10 + (d - b'0') as u32,
            found => {
                return Err(Rfc3339Error::Unexpected {
                    position: i,
                    expected,
                    found,
                });
            }
        }
        i += 1;
    }
    Ok(value)
}

const fn range(field: DateField, value: u32, min: u32, max: u32) -> Result<(), Rfc3339Error> {
    if value < min || value > max {
        Err(Rfc3339Error::OutOfRange {
            field,
            value,
            min,
            max,
        })
    } else {
        Ok(())
    }
}

const fn is_leap(year: u32) -> bool {
    // `is_multiple_of` is Rust 1.87; the core builds on 1.85.
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

const fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar
/// (Howard Hinnant's `days_from_civil`).
const fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = month as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The inverse of [`days_from_civil`], for days on or after 1970-01-01.
const fn civil_from_days(days: u64) -> (u64, u64, u64) {
    // Unsigned: every date written is from 1970 on, and unsigned division by a constant
    // is cheaper.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
    (year, month, day)
}
