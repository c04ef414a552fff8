//! An ID as a BIGINT: `as_i64`, `TryFrom<i64>` (negatives refused by name), and the bounds
//! of a time range, `first_at`/`last_at`, at both ends of the format.

use proptest::prelude::*;
use snowflake_runtime::{
    ComposeError, MAX_TIMESTAMP_MS, ParseSnowflakeError, Snowflake, TWITTER_EPOCH_MS, compose,
};

/// 2022-06-28T16:07:40.105Z.
const T: u64 = 1_656_432_460_105;

#[test]
fn first_at_the_epoch_is_zero() {
    assert_eq!(Snowflake::first_at(TWITTER_EPOCH_MS).unwrap().as_u64(), 0);
}

#[test]
fn last_at_the_last_millisecond_is_max() {
    assert_eq!(Snowflake::last_at(MAX_TIMESTAMP_MS), Ok(Snowflake::MAX));
}

#[test]
fn first_and_last_at_have_the_extreme_fields() {
    assert_eq!(Snowflake::first_at(T), compose(T, 0, 0, 0));
    assert_eq!(Snowflake::last_at(T), compose(T, 31, 31, 4095));
}

#[test]
fn last_at_is_just_below_the_next_first_at() {
    let last = Snowflake::last_at(T).unwrap().as_u64();
    assert_eq!(last + 1, Snowflake::first_at(T + 1).unwrap().as_u64());
}

#[test]
fn bounds_before_the_epoch_are_errors() {
    let before = TWITTER_EPOCH_MS - 1;
    assert_eq!(
        Snowflake::first_at(before),
        Err(ComposeError::TimestampBeforeEpoch(before))
    );
    assert_eq!(
        Snowflake::last_at(before),
        Err(ComposeError::TimestampBeforeEpoch(before))
    );
}

#[test]
fn bounds_after_2080_are_errors() {
    let after = MAX_TIMESTAMP_MS + 1;
    assert_eq!(
        Snowflake::first_at(after),
        Err(ComposeError::TimestampAfterMax(after))
    );
    assert_eq!(
        Snowflake::last_at(after),
        Err(ComposeError::TimestampAfterMax(after))
    );
}

#[test]
fn bounds_are_const() {
    const RANGE: (Snowflake, Snowflake) = match (Snowflake::first_at(T), Snowflake::last_at(T)) {
        (Ok(first), Ok(last)) => (first, last),
        _ => panic!("T is in range"),
    };
    assert_eq!((RANGE.0.timestamp_ms(), RANGE.1.timestamp_ms()), (T, T));
}

#[test]
fn as_i64_of_max_is_i64_max() {
    assert_eq!(Snowflake::MAX.as_i64(), i64::MAX);
    assert_eq!(i64::from(Snowflake::MAX), i64::MAX);
}

#[test]
fn try_from_i64_takes_zero_and_max() {
    assert_eq!(Snowflake::try_from(0_i64).unwrap().as_u64(), 0);
    assert_eq!(Snowflake::try_from(i64::MAX), Ok(Snowflake::MAX));
}

#[test]
fn try_from_i64_refuses_minus_one() {
    assert_eq!(
        Snowflake::try_from(-1_i64),
        Err(ParseSnowflakeError::Negative(-1))
    );
}

#[test]
fn try_from_i64_refuses_i64_min_by_name() {
    assert_eq!(
        Snowflake::try_from(i64::MIN).unwrap_err().to_string(),
        "-9223372036854775808 is negative: a snowflake id is a BIGINT in 0..=9223372036854775807"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn every_id_lies_within_the_bounds_of_its_millisecond(raw in 0..=i64::MAX) {
        let id = Snowflake::try_from(raw).unwrap();
        prop_assert_eq!(id.as_i64(), raw);
        let t = id.timestamp_ms();
        prop_assert!(Snowflake::first_at(t).unwrap() <= id && id <= Snowflake::last_at(t).unwrap());
    }

    #[test]
    fn every_negative_is_refused(raw in i64::MIN..0) {
        prop_assert_eq!(Snowflake::try_from(raw), Err(ParseSnowflakeError::Negative(raw)));
    }
}
