//! Text typed by people -> field values (`Field::parse`, `parse_decimal`), the segments
//! view, and identities: the rules the macro, the command and the server share.

use proptest::prelude::*;
use snowflake_runtime::__private::parse_decimal;
use snowflake_runtime::input::{NumberError, ParseFieldError};
use snowflake_runtime::layout::{MAX_TIMESTAMP_MS, Segment, TWITTER_EPOCH_MS};
use snowflake_runtime::rfc3339::Rfc3339Error;
use snowflake_runtime::{Field, FieldRangeError, Identity, Snowflake};

fn number(field: Field, error: NumberError) -> ParseFieldError {
    ParseFieldError::Number { field, error }
}

#[test]
fn decimal_text() {
    let cases: [(&str, Result<u64, NumberError>); 16] = [
        ("0", Ok(0)),
        ("4096", Ok(4096)),
        ("007", Ok(7)),
        ("18446744073709551615", Ok(u64::MAX)),
        ("18446744073709551616", Err(NumberError::TooLarge)),
        ("", Err(NumberError::Empty)),
        ("-1", Err(NumberError::Negative)),
        ("-1.5", Err(NumberError::Negative)),
        ("+1", Err(NumberError::Plus)),
        ("1.5", Err(NumberError::Fraction)),
        ("1.", Err(NumberError::NotDigits)),
        (".5", Err(NumberError::NotDigits)),
        ("-", Err(NumberError::NotDigits)),
        ("0x1F", Err(NumberError::NotDigits)),
        ("1e3", Err(NumberError::NotDigits)),
        (" 1", Err(NumberError::NotDigits)),
    ];
    for (text, expected) in cases {
        assert_eq!(parse_decimal(text), expected, "{text:?}");
    }
    assert_eq!(parse_decimal("1_000"), Err(NumberError::NotDigits));
    assert_eq!(parse_decimal("١"), Err(NumberError::NotDigits));
}

#[test]
fn field_text_both_sides_of_every_bound() {
    for field in Field::ALL {
        assert_eq!(field.parse(&field.min().to_string()), Ok(field.min()));
        assert_eq!(field.parse(&field.max().to_string()), Ok(field.max()));
        let above = (field.max() + 1).to_string();
        assert_eq!(
            field.parse(&above),
            Err(ParseFieldError::OutOfRange(
                field.check(field.max() + 1).unwrap_err()
            ))
        );
    }
    assert_eq!(
        Field::Timestamp.parse(&(TWITTER_EPOCH_MS - 1).to_string()),
        Err(ParseFieldError::OutOfRange(
            FieldRangeError::TimestampBeforeEpoch(TWITTER_EPOCH_MS - 1)
        ))
    );
    assert_eq!(
        Field::Timestamp.parse("2080-07-10T17:30:30.208Z"),
        Ok(MAX_TIMESTAMP_MS)
    );
}

#[test]
fn only_the_timestamp_reads_dates() {
    let date = "2022-06-28T16:07:40.105Z";
    assert_eq!(Field::Timestamp.parse(date), Ok(1_656_432_460_105));
    for field in [Field::Datacenter, Field::Machine, Field::Sequence] {
        assert_eq!(
            field.parse(date),
            Err(number(field, NumberError::NotDigits))
        );
    }
    assert_eq!(
        Field::Timestamp.parse("-5"),
        Err(number(Field::Timestamp, NumberError::Negative))
    );
    assert_eq!(
        Field::Timestamp.parse("yesterday"),
        Err(ParseFieldError::Date(Rfc3339Error::Unexpected {
            position: 0,
            expected: "a four-digit year",
            found: Some(b'y'),
        }))
    );
}

#[test]
fn messages_name_the_field_the_text_and_what_is_allowed() {
    let message =
        |field: Field, text: &str| field.parse(text).unwrap_err().with_input(text).to_string();
    assert_eq!(
        message(Field::Sequence, ""),
        "sequence is empty; expected a whole number in 0..=4095"
    );
    assert_eq!(
        message(Field::Datacenter, "+3"),
        "datacenter \"+3\" is a number with a `+` sign, where digits only are taken; expected \
         a whole number in 0..=31"
    );
    assert_eq!(
        message(Field::Machine, "32"),
        "machine 32 is out of range 0..=31 (5 bits)"
    );
    assert_eq!(
        message(Field::Timestamp, "2016-12-31T23:59:60Z"),
        "\"2016-12-31T23:59:60Z\": second 60 is a leap second, which Unix time and snowflake \
         timestamps do not have"
    );
    assert_eq!(
        message(Field::Timestamp, "1969-12-31T23:59:59Z"),
        "\"1969-12-31T23:59:59Z\" is before 1970, and so before the Twitter epoch \
         (2010-11-04T01:42:54.657Z); expected Unix ms in 1288834974657..=3487858230208, or an \
         RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z"
    );
    assert_eq!(
        message(Field::Timestamp, "2080-07-10T17:30:30.209Z"),
        "timestamp 3487858230209 ms is out of range 1288834974657..=3487858230208 ms: it is \
         after the last one 41 bits hold (2080-07-10T17:30:30.208Z); \
         \"2080-07-10T17:30:30.209Z\" is 3487858230209 ms"
    );
    // Digits out of range: the number is the text, said once.
    assert_eq!(
        message(Field::Timestamp, "5"),
        "timestamp 5 ms is out of range 1288834974657..=3487858230208 ms: it is before the \
         Twitter epoch (2010-11-04T01:42:54.657Z)"
    );
    // Without the text, the error still says what is wrong and what is allowed.
    assert_eq!(
        Field::Machine.parse("x").unwrap_err().to_string(),
        "not a whole number of decimal digits; expected a whole number in 0..=31"
    );
}

#[test]
fn keys_are_one_table() {
    for field in Field::ALL {
        assert_eq!(Field::from_key(field.key()), Some(field));
    }
    assert_eq!(Field::from_key("sign"), None);
    assert_eq!(Field::from_key("TS"), None);
}

#[test]
fn segments_tile_the_64_bits() {
    let mut next = 0;
    for segment in Segment::ALL.iter().rev() {
        assert_eq!(segment.shift(), next, "{segment:?}");
        next += segment.width();
    }
    assert_eq!(next, 64);
}

#[test]
fn identities_are_the_1024_pairs() {
    for index in 0..Identity::COUNT {
        let identity = Identity::try_from_index(index).unwrap();
        assert_eq!(identity.index(), index);
        let again = Identity::new(identity.datacenter().into(), identity.machine().into());
        assert_eq!(again, Ok(identity));
    }
    // Past the last, an error naming the index, never a wrap to another identity.
    let past = Identity::try_from_index(Identity::COUNT).unwrap_err();
    assert_eq!(
        past.to_string(),
        "1024 is out of range: an identity's index is in 0..=1023"
    );
    assert_eq!(past.value(), 1024);
    assert_eq!(
        Identity::try_from_index(u16::MAX).unwrap_err().value(),
        65535
    );
    // `all` is every index in order, both ways.
    let by_index: Vec<_> = (0..Identity::COUNT)
        .map(|index| Identity::try_from_index(index).unwrap())
        .collect();
    assert!(Identity::all().eq(by_index.iter().copied()));
    assert!(Identity::all().rev().eq(by_index.iter().rev().copied()));
    assert_eq!(
        Identity::new(32, 0),
        Err(FieldRangeError::DatacenterOutOfRange(32))
    );
    assert_eq!(
        Identity::new(0, 32),
        Err(FieldRangeError::MachineOutOfRange(32))
    );
    assert_eq!(Identity::new(31, 31).unwrap().to_string(), "31/31");
}

proptest! {
    #[test]
    fn decimal_text_round_trips(value: u64) {
        prop_assert_eq!(parse_decimal(&value.to_string()), Ok(value));
    }

    #[test]
    fn segments_agree_with_the_parts_and_the_binary(raw in 0..=i64::MAX as u64) {
        let id = Snowflake::try_from(raw).unwrap();
        let segments = id.segments();
        let p = id.parts();
        let values = segments.map(|s| s.value);
        prop_assert_eq!(
            values,
            [0, p.timestamp_ms - TWITTER_EPOCH_MS, p.datacenter.into(), p.machine.into(), p.sequence.into()]
        );
        let joined: Vec<String> = segments.iter().map(|s| format!("{s:b}")).collect();
        prop_assert_eq!(joined.join(" "), id.segmented_binary().to_string());
    }

    #[test]
    fn field_text_agrees_with_check(field in 0..4_usize, value: u64) {
        let field = Field::ALL[field];
        let parsed = field.parse(&value.to_string());
        prop_assert_eq!(parsed, field.check(value).map_err(ParseFieldError::OutOfRange));
    }
}

#[test]
fn each_segment_names_its_field() {
    let fields = Segment::ALL.map(Segment::field);
    assert_eq!(fields[0], None);
    assert_eq!(fields[1..], Field::ALL.map(Some));
    assert_eq!(
        Segment::ALL.map(Segment::name),
        ["sign", "timestamp", "datacenter", "machine", "sequence"]
    );
    assert_eq!(
        Segment::ALL.map(Segment::key),
        ["sign", "ts", "dc", "machine", "seq"]
    );
}
