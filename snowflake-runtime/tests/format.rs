//! The format: known answers, both sides of every bound, parse errors, round trips.

use proptest::prelude::*;
use snowflake_runtime::layout::Parts;
use snowflake_runtime::layout::{
    DATACENTER_BITS, DATACENTER_SHIFT, MACHINE_BITS, MACHINE_SHIFT, MAX_DATACENTER, MAX_MACHINE,
    MAX_SEQUENCE, MAX_TIMESTAMP_DELTA, MAX_TIMESTAMP_MS, MAX_TIMESTAMP_RFC3339, SEQUENCE_BITS,
    SEQUENCE_SHIFT, TIMESTAMP_BITS, TIMESTAMP_SHIFT, TWITTER_EPOCH_MS, TWITTER_EPOCH_RFC3339,
};
use snowflake_runtime::{
    Field, FieldRangeError, IdRangeError, ParseSnowflakeError, Snowflake, compose,
};

const REFERENCE_BITS: &str = "0 00000000000000000000000000000001111101000 00001 00001 000000000000";

#[test]
fn reference_vector() {
    let id = compose(1_288_834_975_657, 1, 1, 0).unwrap();
    assert_eq!(id.as_u64(), 4_194_439_168);
    assert_eq!(id.segmented_binary().to_string(), REFERENCE_BITS);
    assert_eq!(id.to_string(), "4194439168");
}

#[test]
fn tweet_vector() {
    let id: Snowflake = "1541815603606036480".parse().unwrap();
    assert_eq!(
        id.parts(),
        Parts {
            timestamp_ms: 1_656_432_460_105,
            datacenter: 11,
            machine: 26,
            sequence: 0
        }
    );
    assert_eq!(compose(1_656_432_460_105, 11, 26, 0), Ok(id));
}

#[test]
fn constants_are_the_layout() {
    assert_eq!(TWITTER_EPOCH_MS, 1_288_834_974_657);
    assert_eq!(MAX_TIMESTAMP_MS, 3_487_858_230_208);
    assert_eq!((MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE), (31, 31, 4095));
    assert_eq!(
        (TIMESTAMP_BITS, DATACENTER_BITS, MACHINE_BITS, SEQUENCE_BITS),
        (41, 5, 5, 12)
    );
    assert_eq!(
        (
            TIMESTAMP_SHIFT,
            DATACENTER_SHIFT,
            MACHINE_SHIFT,
            SEQUENCE_SHIFT
        ),
        (22, 17, 12, 0)
    );
    assert_eq!(MAX_TIMESTAMP_DELTA, (1 << 41) - 1);
    assert_eq!(TWITTER_EPOCH_RFC3339, "2010-11-04T01:42:54.657Z");
    assert_eq!(MAX_TIMESTAMP_RFC3339, "2080-07-10T17:30:30.208Z");
}

#[test]
fn smallest_id_is_zero() {
    assert_eq!(compose(TWITTER_EPOCH_MS, 0, 0, 0).unwrap().as_u64(), 0);
}

#[test]
fn largest_id_is_i64_max() {
    let id = compose(
        MAX_TIMESTAMP_MS,
        MAX_DATACENTER.into(),
        MAX_MACHINE.into(),
        MAX_SEQUENCE.into(),
    )
    .unwrap();
    assert_eq!(id, Snowflake::MAX);
    assert_eq!(id.as_u64(), i64::MAX as u64);
    assert_eq!(i64::from(id), i64::MAX);
}

#[test]
fn timestamp_one_before_epoch() {
    assert_eq!(
        compose(TWITTER_EPOCH_MS - 1, 0, 0, 0),
        Err(FieldRangeError::TimestampBeforeEpoch(TWITTER_EPOCH_MS - 1))
    );
}

#[test]
fn timestamp_zero() {
    assert_eq!(
        compose(0, 0, 0, 0),
        Err(FieldRangeError::TimestampBeforeEpoch(0))
    );
}

#[test]
fn timestamp_one_after_max() {
    assert_eq!(
        compose(MAX_TIMESTAMP_MS + 1, 0, 0, 0),
        Err(FieldRangeError::TimestampAfterMax(MAX_TIMESTAMP_MS + 1))
    );
}

#[test]
fn timestamp_u64_max() {
    assert_eq!(
        compose(u64::MAX, 0, 0, 0),
        Err(FieldRangeError::TimestampAfterMax(u64::MAX))
    );
}

#[test]
fn datacenter_bounds() {
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 31, 0, 0).unwrap().datacenter(),
        31
    );
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 32, 0, 0),
        Err(FieldRangeError::DatacenterOutOfRange(32))
    );
    assert_eq!(
        compose(TWITTER_EPOCH_MS, u64::MAX, 0, 0),
        Err(FieldRangeError::DatacenterOutOfRange(u64::MAX))
    );
}

#[test]
fn machine_bounds() {
    assert_eq!(compose(TWITTER_EPOCH_MS, 0, 31, 0).unwrap().machine(), 31);
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 0, 32, 0),
        Err(FieldRangeError::MachineOutOfRange(32))
    );
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 0, u64::MAX, 0),
        Err(FieldRangeError::MachineOutOfRange(u64::MAX))
    );
}

#[test]
fn sequence_bounds() {
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 0, 0, 4095).unwrap().sequence(),
        4095
    );
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 0, 0, 4096),
        Err(FieldRangeError::SequenceOutOfRange(4096))
    );
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 0, 0, u64::MAX),
        Err(FieldRangeError::SequenceOutOfRange(u64::MAX))
    );
}

#[test]
fn a_wide_value_is_not_truncated_into_range() {
    // 32 + 2^32 would be 32 again in a u32, and 0 in the 5 bits of a careless shift.
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 1 << 32, 0, 0),
        Err(FieldRangeError::DatacenterOutOfRange(1 << 32))
    );
}

#[test]
fn first_bad_field_is_reported() {
    assert_eq!(
        compose(u64::MAX, u64::MAX, u64::MAX, u64::MAX),
        Err(FieldRangeError::TimestampAfterMax(u64::MAX))
    );
    assert_eq!(
        compose(TWITTER_EPOCH_MS, 0, u64::MAX, u64::MAX),
        Err(FieldRangeError::MachineOutOfRange(u64::MAX))
    );
}

#[test]
fn compose_error_messages() {
    let cases = [
        (
            FieldRangeError::TimestampBeforeEpoch(5),
            "timestamp 5 ms is out of range 1288834974657..=3487858230208 ms: \
             it is before the Twitter epoch (2010-11-04T01:42:54.657Z)",
        ),
        (
            FieldRangeError::TimestampAfterMax(3_487_858_230_209),
            "timestamp 3487858230209 ms is out of range 1288834974657..=3487858230208 ms: \
             it is after the last one 41 bits hold (2080-07-10T17:30:30.208Z)",
        ),
        (
            FieldRangeError::DatacenterOutOfRange(32),
            "datacenter 32 is out of range 0..=31 (5 bits)",
        ),
        (
            FieldRangeError::MachineOutOfRange(40),
            "machine 40 is out of range 0..=31 (5 bits)",
        ),
        (
            FieldRangeError::SequenceOutOfRange(4096),
            "sequence 4096 is out of range 0..=4095 (12 bits)",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn compose_error_is_an_error() {
    let error: Box<dyn std::error::Error> = Box::new(FieldRangeError::MachineOutOfRange(32));
    assert_eq!(
        error.to_string(),
        "machine 32 is out of range 0..=31 (5 bits)"
    );
}

#[test]
fn parse_accepts_bounds() {
    assert_eq!("0".parse::<Snowflake>().unwrap().as_u64(), 0);
    assert_eq!(
        "9223372036854775807".parse::<Snowflake>(),
        Ok(Snowflake::MAX)
    );
    assert_eq!(
        "0004194439168".parse::<Snowflake>().unwrap().as_u64(),
        4_194_439_168
    );
}

#[test]
fn parse_rejects_empty() {
    let err = "".parse::<Snowflake>().unwrap_err();
    assert_eq!(err, ParseSnowflakeError::Empty);
    assert_eq!(err.to_string(), "empty text: an ID is decimal digits");
}

#[test]
fn parse_rejects_sign_bit() {
    let err = "9223372036854775808".parse::<Snowflake>().unwrap_err();
    assert_eq!(err, ParseSnowflakeError::TooLarge);
    assert_eq!(
        err.to_string(),
        "number too large: an ID is at most 9223372036854775807"
    );
    assert_eq!(
        "18446744073709551615".parse::<Snowflake>(),
        Err(ParseSnowflakeError::TooLarge)
    );
    assert_eq!(
        "9223372036854775807".parse::<Snowflake>(),
        Ok(Snowflake::MAX)
    );
}

#[test]
fn parse_rejects_overflow() {
    let err = "18446744073709551616".parse::<Snowflake>().unwrap_err();
    assert_eq!(err, ParseSnowflakeError::TooLarge);
    assert_eq!(
        err.to_string(),
        "number too large: an ID is at most 9223372036854775807"
    );
    assert_eq!(
        "99999999999999999999999999".parse::<Snowflake>(),
        Err(ParseSnowflakeError::TooLarge)
    );
}

#[test]
fn field_ranges_on_both_sides() {
    let cases = [
        (Field::Timestamp, TWITTER_EPOCH_MS, MAX_TIMESTAMP_MS),
        (Field::Datacenter, 0, 31),
        (Field::Machine, 0, 31),
        (Field::Sequence, 0, 4095),
    ];
    for (field, min, max) in cases {
        assert_eq!((field.min(), field.max()), (min, max), "{field:?}");
        assert_eq!(field.check(min), Ok(min), "{field:?}");
        assert_eq!(field.check(max), Ok(max), "{field:?}");
        let above = field.check(max + 1).unwrap_err();
        assert_eq!(above.field(), field);
        assert_eq!(field.check(u64::MAX).unwrap_err().field(), field);
    }
    assert_eq!(
        Field::Timestamp.check(TWITTER_EPOCH_MS - 1),
        Err(FieldRangeError::TimestampBeforeEpoch(TWITTER_EPOCH_MS - 1))
    );
    assert_eq!(
        Field::Timestamp.check(MAX_TIMESTAMP_MS + 1),
        Err(FieldRangeError::TimestampAfterMax(MAX_TIMESTAMP_MS + 1))
    );
    assert_eq!(
        Field::Sequence.check(4096).unwrap_err().to_string(),
        "sequence 4096 is out of range 0..=4095 (12 bits)"
    );
    // The names are those of the messages; the discriminants are the indices.
    for (i, field) in Field::ALL.into_iter().enumerate() {
        assert_eq!(field as usize, i);
        let message = field.check(u64::MAX).unwrap_err().to_string();
        assert!(message.starts_with(field.name()), "{message}");
    }
}

#[test]
fn parse_rejects_non_digits() {
    let cases = [
        ("+1", '+', 0),
        ("-1", '-', 0),
        (" 1", ' ', 0),
        ("1 ", ' ', 1),
        ("0x1F", 'x', 1),
        ("1_000", '_', 1),
        ("12é", 'é', 2),
        ("١", '١', 0), // an Arabic-Indic digit is not an ASCII digit
    ];
    for (text, character, position) in cases {
        assert_eq!(
            text.parse::<Snowflake>(),
            Err(ParseSnowflakeError::InvalidCharacter {
                character,
                position
            }),
            "{text:?}"
        );
    }
    assert_eq!(
        "0x1F".parse::<Snowflake>().unwrap_err().to_string(),
        "invalid character `x` at byte 1: an ID is decimal digits only"
    );
    assert_eq!(
        "1\n".parse::<Snowflake>().unwrap_err().to_string(),
        "invalid character `\\n` at byte 1: an ID is decimal digits only"
    );
}

#[test]
fn try_from_u64() {
    // `const`, the way `TryFrom` is not.
    const MAX: Result<Snowflake, IdRangeError> = Snowflake::try_from_u64(i64::MAX as u64);
    assert_eq!(Snowflake::try_from(i64::MAX as u64), Ok(Snowflake::MAX));
    let err = Snowflake::try_from(1_u64 << 63).unwrap_err();
    assert_eq!(err.value(), 1 << 63);
    assert_eq!(
        err.to_string(),
        "9223372036854775808 is out of range: an ID is in 0..=9223372036854775807"
    );
    assert_eq!(
        Snowflake::try_from_u64(u64::MAX).map_err(|e| e.value()),
        Err(i128::from(u64::MAX))
    );
    assert_eq!(MAX, Ok(Snowflake::MAX));
    assert_eq!(u64::from(Snowflake::try_from(42_u64).unwrap()), 42);
}

#[test]
fn formatting() {
    let id = Snowflake::try_from(4_194_439_168_u64).unwrap();
    assert_eq!(format!("{id}"), "4194439168");
    assert_eq!(format!("{id:>12}"), "  4194439168");
    assert_eq!(format!("{id:?}"), "Snowflake(4194439168)");
    assert_eq!(format!("{id:b}"), "11111010000000100001000000000000");
    assert_eq!(format!("{id:064b}"), format!("{:064b}", 4_194_439_168_u64));
    assert_eq!(
        format!("{:>70}|", id.segmented_binary()),
        format!("  {REFERENCE_BITS}|")
    );
}

#[test]
fn system_time() {
    let id: Snowflake = "1541815603606036480".parse().unwrap();
    let since_unix = id
        .system_time()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    assert_eq!(since_unix.as_millis(), 1_656_432_460_105);
}

#[test]
fn order_follows_time() {
    let early = compose(TWITTER_EPOCH_MS + 1, 31, 31, 4095).unwrap();
    let late = compose(TWITTER_EPOCH_MS + 2, 0, 0, 0).unwrap();
    assert!(early < late);
}

/// `Snowflake::from_str` as first written: a character at a time, checked arithmetic; a
/// character that is not a digit is named even after the digits before it passed 64 bits.
fn parse_by_characters(text: &str) -> Result<Snowflake, ParseSnowflakeError> {
    if text.is_empty() {
        return Err(ParseSnowflakeError::Empty);
    }
    let mut value = Some(0_u64);
    for (position, character) in text.char_indices() {
        let Some(digit) = character.to_digit(10) else {
            return Err(ParseSnowflakeError::InvalidCharacter {
                character,
                position,
            });
        };
        value = value
            .and_then(|v| v.checked_mul(10))
            .and_then(|v| v.checked_add(u64::from(digit)));
    }
    value
        .and_then(|n| Snowflake::try_from_u64(n).ok())
        .ok_or(ParseSnowflakeError::TooLarge)
}

/// Found by the fuzzer (fuzz/corpus/from_str/past-64-bits-then-a-semicolon): digits past 64
/// bits and then a `;` were "too large", where the text is no number at all, as
/// `Field::parse` says of it.
#[test]
fn parse_names_a_bad_character_after_digits_past_64_bits() {
    let text = "0010000000000000000000000000100000000;42";
    assert_eq!(
        text.parse::<Snowflake>(),
        Err(ParseSnowflakeError::InvalidCharacter {
            character: ';',
            position: 37,
        })
    );
    assert_eq!(
        "99999999999999999999999x".parse::<Snowflake>(),
        Err(ParseSnowflakeError::InvalidCharacter {
            character: 'x',
            position: 23,
        })
    );
    assert_eq!(
        "99999999999999999999999".parse::<Snowflake>(),
        Err(ParseSnowflakeError::TooLarge)
    );
}

/// The segmented binary, by hand: `{:064b}` cut at 1, 42, 47 and 52.
fn split_by_hand(id: u64) -> String {
    let bits = format!("{id:064b}");
    format!(
        "{} {} {} {} {}",
        &bits[..1],
        &bits[1..42],
        &bits[42..47],
        &bits[47..52],
        &bits[52..]
    )
}

fn valid_parts() -> impl Strategy<Value = Parts> {
    (
        TWITTER_EPOCH_MS..=MAX_TIMESTAMP_MS,
        0..=31_u8,
        0..=31_u8,
        0..=4095_u16,
    )
        .prop_map(|(timestamp_ms, datacenter, machine, sequence)| Parts {
            timestamp_ms,
            datacenter,
            machine,
            sequence,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn parts_round_trip(parts in valid_parts()) {
        let id = compose(
            parts.timestamp_ms,
            parts.datacenter.into(),
            parts.machine.into(),
            parts.sequence.into(),
        )
        .unwrap();
        prop_assert_eq!(id.parts(), parts);
        prop_assert_eq!(Snowflake::try_from(id.as_u64()).unwrap().parts(), parts);
    }

    #[test]
    fn id_round_trip(raw in 0..=i64::MAX as u64) {
        let id = Snowflake::try_from(raw).unwrap();
        let p = id.parts();
        let again = compose(p.timestamp_ms, p.datacenter.into(), p.machine.into(), p.sequence.into());
        prop_assert_eq!(again, Ok(id));
        prop_assert_eq!(id.to_string().parse::<Snowflake>(), Ok(id));
    }

    #[test]
    fn sign_bit_always_rejected(raw in (1_u64 << 63)..=u64::MAX) {
        prop_assert_eq!(Snowflake::try_from(raw).map_err(|e| e.value()), Err(i128::from(raw)));
        prop_assert_eq!(raw.to_string().parse::<Snowflake>(), Err(ParseSnowflakeError::TooLarge));
    }

    /// `compose` is its fields' checks: it succeeds when all four pass, and fails with
    /// the first failing field's error otherwise.
    #[test]
    fn compose_is_the_first_failing_field_check(
        ts in prop_oneof![
            Just(0),
            TWITTER_EPOCH_MS - 2..=TWITTER_EPOCH_MS + 1,
            MAX_TIMESTAMP_MS - 1..=MAX_TIMESTAMP_MS + 2,
            any::<u64>(),
        ],
        dc in prop_oneof![0..=33_u64, any::<u64>()],
        machine in prop_oneof![0..=33_u64, any::<u64>()],
        seq in prop_oneof![4090..=4100_u64, 0..=3_u64, any::<u64>()],
    ) {
        let values = [ts, dc, machine, seq];
        let composed = compose(values[0], values[1], values[2], values[3]);
        let checks = Field::ALL.map(|field| field.check(values[field as usize]));
        match checks.iter().find_map(|check| check.err()) {
            None => {
                prop_assert!(composed.is_ok());
                prop_assert_eq!(checks.map(Result::ok), values.map(Some));
            }
            Some(first) => {
                prop_assert_eq!(composed, Err(first));
                let field = first.field();
                prop_assert_eq!(field.check(values[field as usize]), Err(first));
            }
        }
    }

    /// The byte-by-byte parser against the plain character-by-character reading.
    #[test]
    fn parse_agrees_with_a_reading_by_characters(
        text in "[0-9]{0,21}(|[^0-9][0-9]{0,3})|\\PC{0,6}",
    ) {
        prop_assert_eq!(text.parse::<Snowflake>(), parse_by_characters(&text), "{:?}", text);
    }

    #[test]
    fn segmented_binary_matches_hand_split(raw in 0..=i64::MAX as u64) {
        let id = Snowflake::try_from(raw).unwrap();
        let text = id.segmented_binary().to_string();
        prop_assert_eq!(text.len(), 68);
        prop_assert_eq!(text, split_by_hand(raw));
    }

    #[test]
    fn out_of_range_fields_always_rejected(
        ts in prop_oneof![0..TWITTER_EPOCH_MS, (MAX_TIMESTAMP_MS + 1)..=u64::MAX],
        dc in 32..=u64::MAX,
        machine in 32..=u64::MAX,
        seq in 4096..=u64::MAX,
    ) {
        prop_assert!(compose(ts, 0, 0, 0).is_err());
        prop_assert_eq!(compose(TWITTER_EPOCH_MS, dc, 0, 0), Err(FieldRangeError::DatacenterOutOfRange(dc)));
        prop_assert_eq!(compose(TWITTER_EPOCH_MS, 0, machine, 0), Err(FieldRangeError::MachineOutOfRange(machine)));
        prop_assert_eq!(compose(TWITTER_EPOCH_MS, 0, 0, seq), Err(FieldRangeError::SequenceOutOfRange(seq)));
    }
}

/// The README's warning, held to the code: Discord's example ID (epoch 2015) reads as
/// Twitter's layout, four years early.
#[test]
fn an_id_of_another_layout_decodes_to_the_wrong_time() {
    let discord: Snowflake = "175928847299117063".parse().unwrap();
    assert_eq!(discord.rfc3339().to_string(), "2012-03-03T13:01:20.453Z");
    // Counted from Discord's epoch (2015-01-01T00:00:00Z) it would be 2016-04-30.
    let discord_epoch_ms = 1_420_070_400_000;
    let real_ms = discord.timestamp_ms() - TWITTER_EPOCH_MS + discord_epoch_ms;
    let real = snowflake_runtime::rfc3339::Rfc3339::new(real_ms)
        .unwrap()
        .to_string();
    assert_eq!(real, "2016-04-30T11:18:25.796Z");
}
