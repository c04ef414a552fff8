//! An ID as a database stores it: a non-negative `i64` (a BIGINT), and the bounds of a
//! time range, since IDs sort by time.

use core::ops::{Range, RangeInclusive};

use crate::error::IdRangeError;
use crate::field::FieldRangeError;
use crate::format::{
    MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, MAX_TIMESTAMP_MS, TWITTER_EPOCH_MS,
};
use crate::snowflake::{Snowflake, compose};

impl Snowflake {
    /// The smallest ID of the millisecond `unix_ms`: datacenter, machine and sequence 0.
    /// With [`last_at`](Self::last_at), the bounds of a time range in a query such as
    /// `WHERE id BETWEEN $1 AND $2`: every ID issued from `t0` to `t1` inclusive, and no
    /// other, lies in `first_at(t0)..=last_at(t1)`.
    ///
    /// Both ends are whole milliseconds, and both are included: `last_at(t1)` covers the
    /// millisecond `t1` only, so a `to` of `23:59:59Z` leaves out the last 999 ms of that
    /// second. For a range of times that may lie outside the format's span, or that ends
    /// before `to`, [`issued_in`](Self::issued_in) takes a half-open range and clamps it.
    ///
    /// ```
    /// use snowflake_kit::{compose, FieldRangeError, Snowflake};
    ///
    /// let first = Snowflake::first_at(1_656_432_460_105)?;
    /// assert_eq!(first, compose(1_656_432_460_105, 0, 0, 0)?);
    /// assert!(first <= "1541815603606036480".parse::<Snowflake>()?); // a tweet of that millisecond
    /// assert_eq!(Snowflake::first_at(0), Err(FieldRangeError::TimestampBeforeEpoch(0)));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FieldRangeError::TimestampBeforeEpoch`] or [`FieldRangeError::TimestampAfterMax`] when
    /// no ID can carry that time.
    pub const fn first_at(unix_ms: u64) -> Result<Snowflake, FieldRangeError> {
        compose(unix_ms, 0, 0, 0)
    }

    /// The largest ID of the millisecond `unix_ms`: datacenter 31, machine 31, sequence
    /// 4095. See [`first_at`](Self::first_at).
    ///
    /// ```
    /// use snowflake_kit::{FieldRangeError, Snowflake};
    /// use snowflake_kit::layout::MAX_TIMESTAMP_MS;
    ///
    /// let t = 1_656_432_460_105;
    /// assert_eq!(Snowflake::last_at(t)?.as_u64() + 1, Snowflake::first_at(t + 1)?.as_u64());
    /// assert_eq!(Snowflake::last_at(MAX_TIMESTAMP_MS)?, Snowflake::MAX);
    /// assert!(matches!(Snowflake::last_at(MAX_TIMESTAMP_MS + 1), Err(FieldRangeError::TimestampAfterMax(_))));
    ///
    /// // Usable in constants.
    /// const END_OF_2022: Snowflake = match Snowflake::last_at(1_672_531_199_999) {
    ///     Ok(id) => id,
    ///     Err(_) => panic!("2022 is in range"),
    /// };
    /// assert_eq!(END_OF_2022.rfc3339().to_string(), "2022-12-31T23:59:59.999Z");
    /// # Ok::<(), FieldRangeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FieldRangeError::TimestampBeforeEpoch`] or [`FieldRangeError::TimestampAfterMax`] when
    /// no ID can carry that time.
    pub const fn last_at(unix_ms: u64) -> Result<Snowflake, FieldRangeError> {
        compose(
            unix_ms,
            MAX_DATACENTER as u64,
            MAX_MACHINE as u64,
            MAX_SEQUENCE as u64,
        )
    }

    /// The IDs issued in the half-open range of Unix ms `times` (`start..end`: `start`
    /// included, `end` not), clamped to the format's span: every such ID, and no other,
    /// lies in the range returned, whose two ends bind to `WHERE id BETWEEN $1 AND $2`.
    /// Times before the epoch or after 2080 are no error: no ID carries them. When no ID
    /// can lie in `times`, the range is empty (`start() > end()`, which `BETWEEN` also
    /// takes as empty).
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    /// use snowflake_kit::rfc3339::parse_rfc3339;
    ///
    /// // "Since 2000, up to the start of 2023": the first end is before the epoch.
    /// let ids = Snowflake::issued_in(parse_rfc3339("2000-01-01T00:00:00Z")?..parse_rfc3339("2023-01-01T00:00:00Z")?);
    /// assert_eq!(*ids.start(), Snowflake::MIN);
    /// assert_eq!(ids.end().rfc3339().to_string(), "2022-12-31T23:59:59.999Z");
    ///
    /// let tweet: Snowflake = "1541815603606036480".parse()?;
    /// assert!(ids.contains(&tweet));
    /// assert!(!Snowflake::issued_in(0..tweet.timestamp_ms()).contains(&tweet));
    /// assert!(Snowflake::issued_in(tweet.timestamp_ms()..tweet.timestamp_ms() + 1).contains(&tweet));
    ///
    /// // Nothing: an empty range of times, or one wholly before the epoch.
    /// assert!(Snowflake::issued_in(5..5).is_empty());
    /// assert!(Snowflake::issued_in(0..1_000).is_empty());
    /// assert_eq!(Snowflake::issued_in(0..u64::MAX), Snowflake::MIN..=Snowflake::MAX);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub const fn issued_in(times: Range<u64>) -> RangeInclusive<Snowflake> {
        // Clamp to the span, `end` exclusive: `TWITTER_EPOCH_MS..=MAX_TIMESTAMP_MS + 1`.
        let start = clamp(times.start);
        let end = clamp(times.end);
        if start >= end {
            return RangeInclusive::new(Snowflake::MAX, Snowflake::MIN);
        }
        match (Snowflake::first_at(start), Snowflake::last_at(end - 1)) {
            (Ok(first), Ok(last)) => RangeInclusive::new(first, last),
            // Both are in the span, clamped just above.
            _ => unreachable!(),
        }
    }

    /// The ID whose `i64` (a BIGINT column's value) this is: every `i64` in
    /// `0..=i64::MAX` is one. The `const` form of reading a BIGINT; the inverse of
    /// [`as_i64`](Self::as_i64).
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    ///
    /// assert_eq!(Snowflake::try_from_i64(4_194_439_168)?.as_u64(), 4_194_439_168);
    /// assert_eq!(Snowflake::try_from_i64(i64::MAX)?, Snowflake::MAX);
    /// let err = Snowflake::try_from_i64(-5).unwrap_err();
    /// assert_eq!(err.value(), -5);
    /// assert_eq!(err.to_string(), "-5 is out of range: an ID is in 0..=9223372036854775807");
    /// # Ok::<(), snowflake_kit::IdRangeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`IdRangeError`], naming the value, when it is negative.
    pub const fn try_from_i64(value: i64) -> Result<Snowflake, IdRangeError> {
        if value < 0 {
            Err(IdRangeError::new(value as i128))
        } else {
            // `cast_unsigned` is not const before Rust 1.87; the value is not negative here.
            #[expect(clippy::cast_sign_loss, reason = "checked not negative above")]
            let value = value as u64;
            Ok(Snowflake::from_valid(value))
        }
    }

    /// The ID as an `i64`, never negative: the value of a BIGINT column. Same as
    /// `i64::from(id)`.
    ///
    /// ```
    /// use snowflake_kit::Snowflake;
    ///
    /// let tweet: Snowflake = "1541815603606036480".parse()?;
    /// assert_eq!(tweet.as_i64(), 1_541_815_603_606_036_480);
    /// assert_eq!(Snowflake::MAX.as_i64(), i64::MAX);
    /// # Ok::<(), snowflake_kit::ParseSnowflakeError>(())
    /// ```
    pub const fn as_i64(self) -> i64 {
        // The sign bit of an ID is clear, so the value is the same (`cast_signed` is not
        // const before Rust 1.87).
        #[expect(clippy::cast_possible_wrap, reason = "the sign bit of an ID is clear")]
        let value = self.as_u64() as i64;
        value
    }
}

/// `ms` within `TWITTER_EPOCH_MS..=MAX_TIMESTAMP_MS + 1`, the span as a half-open range.
const fn clamp(ms: u64) -> u64 {
    if ms < TWITTER_EPOCH_MS {
        TWITTER_EPOCH_MS
    } else if ms > MAX_TIMESTAMP_MS + 1 {
        MAX_TIMESTAMP_MS + 1
    } else {
        ms
    }
}
