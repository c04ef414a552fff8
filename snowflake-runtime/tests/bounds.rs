//! An ID as a BIGINT: `as_i64`, `try_from_i64` (negatives refused by name), and the bounds
//! of a time range, `first_at`/`last_at` and the clamped `issued_in`, at both ends of the
//! format.

use proptest::prelude::*;
use snowflake_runtime::layout::{MAX_TIMESTAMP_MS, TWITTER_EPOCH_MS};
use snowflake_runtime::{FieldRangeError, Snowflake, compose};
use snowflake_test_support::T;

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
        Err(FieldRangeError::TimestampBeforeEpoch(before))
    );
    assert_eq!(
        Snowflake::last_at(before),
        Err(FieldRangeError::TimestampBeforeEpoch(before))
    );
}

#[test]
fn bounds_after_2080_are_errors() {
    let after = MAX_TIMESTAMP_MS + 1;
    assert_eq!(
        Snowflake::first_at(after),
        Err(FieldRangeError::TimestampAfterMax(after))
    );
    assert_eq!(
        Snowflake::last_at(after),
        Err(FieldRangeError::TimestampAfterMax(after))
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
    assert_eq!(Snowflake::try_from_i64(0).unwrap().as_u64(), 0);
    assert_eq!(Snowflake::try_from_i64(0), Ok(Snowflake::MIN));
    assert_eq!(Snowflake::try_from_i64(i64::MAX), Ok(Snowflake::MAX));
}

#[test]
fn try_from_i64_refuses_minus_one() {
    assert_eq!(Snowflake::try_from_i64(-1).map_err(|e| e.value()), Err(-1));
}

#[test]
fn try_from_i64_refuses_i64_min_by_name() {
    assert_eq!(
        Snowflake::try_from_i64(i64::MIN).unwrap_err().to_string(),
        "-9223372036854775808 is out of range: an ID is in 0..=9223372036854775807"
    );
}

#[test]
fn try_from_i64_is_const() {
    const TWEET: Snowflake = match Snowflake::try_from_i64(1_541_815_603_606_036_480) {
        Ok(id) => id,
        Err(_) => panic!("not negative"),
    };
    assert_eq!(TWEET.timestamp_ms(), T);
}

/// An untyped literal, the way a newcomer writes it: one `TryFrom` of an integer, so
/// the literal is a `u64` and needs no suffix.
#[test]
fn try_from_an_untyped_literal() {
    let tweet = Snowflake::try_from(1541815603606036480).unwrap();
    assert_eq!(tweet.timestamp_ms(), T);
    assert!(Snowflake::try_from(0).is_ok());
}

#[test]
fn min_is_zero_at_the_epoch() {
    assert_eq!(Snowflake::MIN.as_u64(), 0);
    assert_eq!(
        Snowflake::MIN,
        Snowflake::first_at(TWITTER_EPOCH_MS).unwrap()
    );
    assert!(Snowflake::MIN < Snowflake::MAX);
}

#[test]
fn issued_in_one_millisecond_is_first_and_last_at() {
    assert_eq!(
        Snowflake::issued_in(T..T + 1),
        Snowflake::first_at(T).unwrap()..=Snowflake::last_at(T).unwrap()
    );
}

#[test]
fn issued_in_leaves_out_its_end() {
    let ids = Snowflake::issued_in(T..T + 1000);
    assert_eq!(ids.end().timestamp_ms(), T + 999);
    assert!(!ids.contains(&Snowflake::first_at(T + 1000).unwrap()));
    assert!(ids.contains(&Snowflake::last_at(T + 999).unwrap()));
    assert!(!ids.contains(&Snowflake::last_at(T - 1).unwrap()));
}

#[test]
fn issued_in_clamps_the_start_to_the_epoch() {
    // Both sides of the epoch: before it clamps to MIN, at it is MIN, after it is not.
    assert_eq!(*Snowflake::issued_in(0..T).start(), Snowflake::MIN);
    assert_eq!(
        *Snowflake::issued_in(TWITTER_EPOCH_MS - 1..T).start(),
        Snowflake::MIN
    );
    assert_eq!(
        *Snowflake::issued_in(TWITTER_EPOCH_MS..T).start(),
        Snowflake::MIN
    );
    assert_eq!(
        *Snowflake::issued_in(TWITTER_EPOCH_MS + 1..T).start(),
        Snowflake::first_at(TWITTER_EPOCH_MS + 1).unwrap()
    );
}

#[test]
fn issued_in_clamps_the_end_to_2080() {
    assert_eq!(*Snowflake::issued_in(T..u64::MAX).end(), Snowflake::MAX);
    assert_eq!(
        *Snowflake::issued_in(T..MAX_TIMESTAMP_MS + 2).end(),
        Snowflake::MAX
    );
    assert_eq!(
        *Snowflake::issued_in(T..MAX_TIMESTAMP_MS + 1).end(),
        Snowflake::MAX
    );
    assert_eq!(
        *Snowflake::issued_in(T..MAX_TIMESTAMP_MS).end(),
        Snowflake::last_at(MAX_TIMESTAMP_MS - 1).unwrap()
    );
}

#[test]
#[allow(
    clippy::reversed_empty_ranges,
    reason = "a reversed range of times is one of the cases"
)]
fn issued_in_is_empty_where_no_id_can_be() {
    for times in [
        T..T,
        T + 1..T,
        0..TWITTER_EPOCH_MS,
        0..1,
        MAX_TIMESTAMP_MS + 1..u64::MAX,
        u64::MAX..u64::MAX,
    ] {
        let ids = Snowflake::issued_in(times.clone());
        assert!(ids.is_empty(), "{times:?} gave {ids:?}");
        assert!(
            ids.start() > ids.end(),
            "{times:?}: BETWEEN must find nothing"
        );
    }
    // The smallest ranges that are not empty, at both ends of the span.
    assert!(!Snowflake::issued_in(0..TWITTER_EPOCH_MS + 1).is_empty());
    assert!(!Snowflake::issued_in(MAX_TIMESTAMP_MS..u64::MAX).is_empty());
}

#[test]
fn issued_in_is_const() {
    const YEAR_2022: core::ops::RangeInclusive<Snowflake> =
        Snowflake::issued_in(1_640_995_200_000..1_672_531_200_000);
    assert_eq!(
        YEAR_2022.start().rfc3339().to_string(),
        "2022-01-01T00:00:00.000Z"
    );
    assert_eq!(
        YEAR_2022.end().rfc3339().to_string(),
        "2022-12-31T23:59:59.999Z"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn every_id_lies_within_the_bounds_of_its_millisecond(raw in 0..=i64::MAX) {
        let id = Snowflake::try_from_i64(raw).unwrap();
        prop_assert_eq!(id.as_i64(), raw);
        let t = id.timestamp_ms();
        prop_assert!(Snowflake::first_at(t).unwrap() <= id && id <= Snowflake::last_at(t).unwrap());
    }

    #[test]
    fn every_negative_is_refused(raw in i64::MIN..0) {
        prop_assert_eq!(Snowflake::try_from_i64(raw).map_err(|e| e.value()), Err(i128::from(raw)));
    }

    /// An ID lies in `issued_in(start..end)` exactly when its time does, wherever the two
    /// ends fall: before the epoch, in the span, after 2080.
    #[test]
    fn issued_in_holds_exactly_the_ids_of_its_times(
        raw in 0..=i64::MAX,
        start in prop_oneof![0..TWITTER_EPOCH_MS + 10, TWITTER_EPOCH_MS..=MAX_TIMESTAMP_MS + 10, Just(u64::MAX)],
        end in prop_oneof![0..TWITTER_EPOCH_MS + 10, TWITTER_EPOCH_MS..=MAX_TIMESTAMP_MS + 10, Just(u64::MAX)],
    ) {
        let id = Snowflake::try_from_i64(raw).unwrap();
        let t = id.timestamp_ms();
        let ids = Snowflake::issued_in(start..end);
        prop_assert_eq!(ids.contains(&id), (start..end).contains(&t));
    }

    /// Near an ID's own millisecond, where the property above rarely lands by chance.
    #[test]
    fn issued_in_around_an_ids_millisecond(raw in 0..=i64::MAX, before in 0_u64..3, after in 0_u64..3) {
        let id = Snowflake::try_from_i64(raw).unwrap();
        let t = id.timestamp_ms();
        let (start, end) = (t + 1 - before.min(t + 1), t + after);
        prop_assert_eq!(Snowflake::issued_in(start..end).contains(&id), start <= t && t < end);
    }
}
