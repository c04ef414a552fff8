//! An ID as a database stores it: a non-negative `i64` (a BIGINT), and the bounds of a
//! time range, since IDs sort by time.

use crate::{
    ComposeError, MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, ParseSnowflakeError, Snowflake,
    compose,
};

impl Snowflake {
    /// The smallest ID of the millisecond `unix_ms`: datacenter, machine and sequence 0.
    /// With [`last_at`](Self::last_at), the bounds of a time range in a query such as
    /// `WHERE id BETWEEN $1 AND $2`: every ID issued from `t0` to `t1` inclusive, and no
    /// other, lies in `first_at(t0)..=last_at(t1)`.
    ///
    /// ```
    /// use snowflake_kit::{compose, ComposeError, Snowflake};
    ///
    /// let first = Snowflake::first_at(1_656_432_460_105)?;
    /// assert_eq!(first, compose(1_656_432_460_105, 0, 0, 0)?);
    /// assert!(first <= "1541815603606036480".parse::<Snowflake>()?); // a tweet of that millisecond
    /// assert_eq!(Snowflake::first_at(0), Err(ComposeError::TimestampBeforeEpoch(0)));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ComposeError::TimestampBeforeEpoch`] or [`ComposeError::TimestampAfterMax`] when
    /// no ID can carry that time.
    pub const fn first_at(unix_ms: u64) -> Result<Snowflake, ComposeError> {
        compose(unix_ms, 0, 0, 0)
    }

    /// The largest ID of the millisecond `unix_ms`: datacenter 31, machine 31, sequence
    /// 4095. See [`first_at`](Self::first_at).
    ///
    /// ```
    /// use snowflake_kit::{ComposeError, Snowflake, MAX_TIMESTAMP_MS};
    ///
    /// let t = 1_656_432_460_105;
    /// assert_eq!(Snowflake::last_at(t)?.as_u64() + 1, Snowflake::first_at(t + 1)?.as_u64());
    /// assert_eq!(Snowflake::last_at(MAX_TIMESTAMP_MS)?, Snowflake::MAX);
    /// assert!(matches!(Snowflake::last_at(MAX_TIMESTAMP_MS + 1), Err(ComposeError::TimestampAfterMax(_))));
    ///
    /// // Usable in constants.
    /// const END_OF_2022: Snowflake = match Snowflake::last_at(1_672_531_199_999) {
    ///     Ok(id) => id,
    ///     Err(_) => panic!("2022 is in range"),
    /// };
    /// assert_eq!(END_OF_2022.rfc3339().to_string(), "2022-12-31T23:59:59.999Z");
    /// # Ok::<(), ComposeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ComposeError::TimestampBeforeEpoch`] or [`ComposeError::TimestampAfterMax`] when
    /// no ID can carry that time.
    pub const fn last_at(unix_ms: u64) -> Result<Snowflake, ComposeError> {
        compose(unix_ms, MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE)
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
        // The sign bit of an ID is clear, so the value is the same.
        self.as_u64().cast_signed()
    }
}

/// Fails with [`ParseSnowflakeError::Negative`], which names the value, when it is
/// negative: every `i64` in `0..=i64::MAX` is an ID.
///
/// ```
/// use snowflake_kit::{ParseSnowflakeError, Snowflake};
///
/// assert_eq!(Snowflake::try_from(4_194_439_168_i64)?.as_u64(), 4_194_439_168);
/// let err = Snowflake::try_from(-5_i64).unwrap_err();
/// assert_eq!(err, ParseSnowflakeError::Negative(-5));
/// assert_eq!(err.to_string(), "-5 is negative: a snowflake id is a BIGINT in 0..=9223372036854775807");
/// # Ok::<(), ParseSnowflakeError>(())
/// ```
impl TryFrom<i64> for Snowflake {
    type Error = ParseSnowflakeError;

    fn try_from(value: i64) -> Result<Self, Self::Error> {
        if value < 0 {
            Err(ParseSnowflakeError::Negative(value))
        } else {
            Ok(Snowflake::from_valid(value.cast_unsigned()))
        }
    }
}
