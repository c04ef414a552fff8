//! The RFC 3339 reader and writer: edge tables, and the `time` crate as the oracle.

use proptest::prelude::*;
use snowflake_runtime::Snowflake;
use snowflake_runtime::layout::{MAX_TIMESTAMP_MS, TWITTER_EPOCH_MS};
use snowflake_runtime::rfc3339::{DateField, Rfc3339, Rfc3339Error, parse_rfc3339};
use time::format_description::well_known::Rfc3339 as TimeRfc3339;
use time::{OffsetDateTime, UtcOffset};

fn parse(text: &str) -> Result<u64, Rfc3339Error> {
    parse_rfc3339(text)
}

fn write(ms: u64) -> String {
    Rfc3339::new(ms).unwrap().to_string()
}

fn out_of_range(field: DateField, value: u32, min: u32, max: u32) -> Rfc3339Error {
    Rfc3339Error::OutOfRange {
        field,
        value,
        min,
        max,
    }
}

fn unexpected(position: usize, expected: &'static str, found: Option<u8>) -> Rfc3339Error {
    Rfc3339Error::Unexpected {
        position,
        expected,
        found,
    }
}

#[test]
fn known_answers() {
    assert_eq!(parse("1970-01-01T00:00:00Z"), Ok(0));
    assert_eq!(parse("2010-11-04T01:42:54.657Z"), Ok(TWITTER_EPOCH_MS));
    assert_eq!(parse("2080-07-10T17:30:30.208Z"), Ok(MAX_TIMESTAMP_MS));
    assert_eq!(parse("2022-06-28T16:07:40.105Z"), Ok(1_656_432_460_105));
    assert_eq!(write(0), "1970-01-01T00:00:00.000Z");
    assert_eq!(write(TWITTER_EPOCH_MS), "2010-11-04T01:42:54.657Z");
    assert_eq!(write(MAX_TIMESTAMP_MS), "2080-07-10T17:30:30.208Z");
    assert_eq!(write(Rfc3339::MAX_MS), "9999-12-31T23:59:59.999Z");
    assert_eq!(Rfc3339::new(Rfc3339::MAX_MS + 1), None);
    assert_eq!(parse("9999-12-31T23:59:59.999Z"), Ok(Rfc3339::MAX_MS));
}

#[test]
fn separators_and_case() {
    for text in [
        "2022-06-28T16:07:40.105Z",
        "2022-06-28t16:07:40.105z",
        "2022-06-28 16:07:40.105Z",
    ] {
        assert_eq!(parse(text), Ok(1_656_432_460_105), "{text}");
    }
    for (text, found) in [
        ("2022-06-28716:07:40.105Z", b'7'),
        ("2022-06-28_16:07:40.105Z", b'_'),
        ("2022-06-28\t16:07:40.105Z", b'\t'),
    ] {
        assert_eq!(
            parse(text),
            Err(unexpected(
                10,
                "`T` between the date and the time",
                Some(found)
            )),
            "{text}"
        );
    }
}

#[test]
fn fractions_to_the_millisecond() {
    let base = 1_656_432_460_000;
    for (fraction, ms) in [
        ("", 0),
        (".1", 100),
        (".12", 120),
        (".123", 123),
        (".1230", 123),
        (".123000000", 123),
        (".1230000000000", 123),
        (".000", 0),
    ] {
        assert_eq!(
            parse(&format!("2022-06-28T16:07:40{fraction}Z")),
            Ok(base + ms),
            "{fraction}"
        );
    }
    for fraction in [".1231", ".123000001", ".1230000000001", ".0001"] {
        assert_eq!(
            parse(&format!("2022-06-28T16:07:40{fraction}Z")),
            Err(Rfc3339Error::FinerThanMillisecond),
            "{fraction}"
        );
    }
    assert_eq!(
        parse("2022-06-28T16:07:40.Z"),
        Err(unexpected(20, "a digit after `.`", Some(b'Z')))
    );
}

#[test]
fn month_lengths_and_leap_years() {
    let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    for (year, leap) in [(2023, false), (2024, true), (2000, true), (2100, false)] {
        for (month, &days) in (1..).zip(&lengths) {
            let days = if month == 2 && leap { 29 } else { days };
            let last = format!("{year}-{month:02}-{days:02}T00:00:00Z");
            assert!(parse(&last).is_ok(), "{last}");
            let next = format!("{year}-{month:02}-{:02}T00:00:00Z", days + 1);
            assert_eq!(
                parse(&next),
                Err(out_of_range(DateField::Day, days + 1, 1, days)),
                "{next}"
            );
        }
    }
    assert_eq!(
        parse("2024-00-01T00:00:00Z"),
        Err(out_of_range(DateField::Month, 0, 1, 12))
    );
    assert_eq!(
        parse("2024-13-01T00:00:00Z"),
        Err(out_of_range(DateField::Month, 13, 1, 12))
    );
    assert_eq!(
        parse("2024-01-00T00:00:00Z"),
        Err(out_of_range(DateField::Day, 0, 1, 31))
    );
}

#[test]
fn time_fields() {
    assert!(parse("2024-01-01T23:59:59Z").is_ok());
    assert_eq!(
        parse("2024-01-01T24:00:00Z"),
        Err(out_of_range(DateField::Hour, 24, 0, 23))
    );
    assert_eq!(
        parse("2024-01-01T00:60:00Z"),
        Err(out_of_range(DateField::Minute, 60, 0, 59))
    );
    assert_eq!(
        parse("2024-01-01T00:00:61Z"),
        Err(out_of_range(DateField::Second, 61, 0, 59))
    );
    assert_eq!(parse("2016-12-31T23:59:60Z"), Err(Rfc3339Error::LeapSecond));
    assert_eq!(
        parse("2016-12-31T23:59:60.5Z"),
        Err(Rfc3339Error::LeapSecond)
    );
    assert_eq!(
        parse("2016-12-31T18:59:60-05:00"),
        Err(Rfc3339Error::LeapSecond)
    );
    // `:60` where no leap second can be is simply out of range.
    assert_eq!(
        parse("2024-05-05T12:34:60Z"),
        Err(out_of_range(DateField::Second, 60, 0, 59))
    );
    assert_eq!(
        parse("2016-12-31T23:59:60+01:00"),
        Err(out_of_range(DateField::Second, 60, 0, 59))
    );
}

#[test]
fn offsets() {
    let utc = parse("2024-01-01T12:00:00Z").unwrap();
    assert_eq!(parse("2024-01-01T12:00:00+00:00"), Ok(utc));
    assert_eq!(parse("2024-01-01T12:00:00-00:00"), Ok(utc));
    assert_eq!(parse("2024-01-02T11:59:00+23:59"), Ok(utc));
    assert_eq!(parse("2023-12-31T12:01:00-23:59"), Ok(utc));
    assert_eq!(
        parse("2024-01-01T12:00:00+24:00"),
        Err(out_of_range(DateField::OffsetHour, 24, 0, 23))
    );
    assert_eq!(
        parse("2024-01-01T12:00:00+00:60"),
        Err(out_of_range(DateField::OffsetMinute, 60, 0, 59))
    );
    assert_eq!(
        parse("2024-01-01T12:00:00+0100"),
        Err(unexpected(22, "`:` in the offset", Some(b'0')))
    );
    assert_eq!(
        parse("2024-01-01T12:00:00"),
        Err(unexpected(19, "`Z` or an offset such as `+02:00`", None))
    );
}

#[test]
fn the_unix_epoch_bound() {
    assert_eq!(parse("1969-12-31T23:00:00-01:00"), Ok(0));
    assert_eq!(
        parse("1969-12-31T23:59:59.999Z"),
        Err(Rfc3339Error::BeforeUnixEpoch)
    );
    assert_eq!(
        parse("1970-01-01T00:00:00+00:01"),
        Err(Rfc3339Error::BeforeUnixEpoch)
    );
    assert_eq!(
        parse("0000-01-01T00:00:00Z"),
        Err(Rfc3339Error::BeforeUnixEpoch)
    );
}

#[test]
fn grammar_errors_say_where() {
    for (text, error) in [
        ("", unexpected(0, "a four-digit year", None)),
        (
            "22-06-28T16:07:40Z",
            unexpected(2, "a four-digit year", Some(b'-')),
        ),
        (
            "2022/06/28T16:07:40Z",
            unexpected(4, "`-` after the year", Some(b'/')),
        ),
        (
            "2022-6-28T16:07:40Z",
            unexpected(6, "a two-digit month", Some(b'-')),
        ),
        (
            "2022-06-28T16:07:40Zjunk",
            unexpected(20, "the end of the date", Some(b'j')),
        ),
        (
            "2022-06-28T16:07:40Z ",
            unexpected(20, "the end of the date", Some(b' ')),
        ),
        (
            " 2022-06-28T16:07:40Z",
            unexpected(0, "a four-digit year", Some(b' ')),
        ),
        (
            "2022-06-28T16:07Z",
            unexpected(16, "`:` after the minute", Some(b'Z')),
        ),
        (
            "２022-06-28T16:07:40Z",
            unexpected(0, "a four-digit year", Some(0xEF)),
        ),
    ] {
        assert_eq!(parse(text), Err(error), "{text:?}");
    }
}

#[test]
fn messages() {
    for (text, message) in [
        (
            "2022-06-28716:07:40Z",
            "expected `T` between the date and the time at byte 10, found `7`",
        ),
        (
            "2022-06-28T16:07:40",
            "expected `Z` or an offset such as `+02:00` at byte 19, found the end of the text",
        ),
        (
            "2022-06-28T16:07:40Z x",
            "expected the end of the date at byte 20, found a space",
        ),
        (
            "２022-06-28T16:07:40Z",
            "expected a four-digit year at byte 0, found a non-ASCII character",
        ),
        ("2023-02-29T00:00:00Z", "day 29 is out of range 1..=28"),
        (
            "2022-06-28T16:07:40+24:00",
            "offset hour 24 is out of range 0..=23",
        ),
        (
            "2016-12-31T23:59:60Z",
            "second 60 is a leap second, which Unix time and snowflake timestamps do not have",
        ),
        (
            "2022-06-28T16:07:40.1051Z",
            "finer than a millisecond: snowflake timestamps are whole milliseconds, so fraction digits past the third must be 0",
        ),
        (
            "1969-12-31T23:59:59Z",
            "before 1970-01-01T00:00:00Z, where Unix milliseconds begin",
        ),
    ] {
        assert_eq!(parse(text).unwrap_err().to_string(), message, "{text:?}");
    }
}

#[test]
fn const_usable() {
    const MS: u64 = match parse_rfc3339("2022-06-28T16:07:40.105Z") {
        Ok(ms) => ms,
        Err(_) => panic!("not a date"),
    };
    const TEXT: [u8; Rfc3339::LEN] = match Rfc3339::new(MS) {
        Some(time) => time.to_bytes(),
        None => panic!("past 9999"),
    };
    assert_eq!(MS, 1_656_432_460_105);
    assert_eq!(&TEXT, b"2022-06-28T16:07:40.105Z");
}

#[test]
fn width_and_alignment_flags_pad_like_a_str() {
    let time = Rfc3339::new(0).unwrap();
    assert_eq!(format!("[{time:>26}]"), "[  1970-01-01T00:00:00.000Z]");
    assert_eq!(format!("[{time:-<25}]"), "[1970-01-01T00:00:00.000Z-]");
    assert_eq!(format!("[{time:4}]"), "[1970-01-01T00:00:00.000Z]");
}

#[test]
fn snowflake_times_have_three_fraction_digits() {
    for (ms, text) in [
        (1_656_432_460_000, "2022-06-28T16:07:40.000Z"),
        (1_656_432_460_100, "2022-06-28T16:07:40.100Z"),
        (1_656_432_460_120, "2022-06-28T16:07:40.120Z"),
    ] {
        let id = snowflake_runtime::compose(ms, 0, 0, 0).unwrap();
        assert_eq!(id.rfc3339().to_string(), text);
    }
    assert_eq!(
        Snowflake::MAX.rfc3339().to_string(),
        "2080-07-10T17:30:30.208Z"
    );
}

/// The oracle's RFC 3339 text of `ms` at `offset` minutes, with `digits` fraction digits.
fn oracle_text(ms: u64, offset: i32, digits: usize) -> String {
    let nanos = i128::from(ms) * 1_000_000;
    let offset = UtcOffset::from_whole_seconds(offset * 60).unwrap();
    let t = OffsetDateTime::from_unix_timestamp_nanos(nanos)
        .unwrap()
        .to_offset(offset);
    let fraction = format!("{:09}", t.nanosecond());
    let fraction = if digits == 0 {
        String::new()
    } else {
        format!(".{}", &fraction[..digits])
    };
    let (h, m, _) = offset.as_hms();
    let sign = if offset.is_negative() { '-' } else { '+' };
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{fraction}{sign}{:02}:{:02}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        h.unsigned_abs(),
        m.unsigned_abs()
    )
}

/// What the oracle makes of a text: Unix nanoseconds.
fn oracle_parse(text: &str) -> Option<i128> {
    OffsetDateTime::parse(text, &TimeRfc3339)
        .ok()
        .map(OffsetDateTime::unix_timestamp_nanos)
}

/// Texts near the grammar: every field sometimes just out of range.
fn near_dates() -> impl Strategy<Value = String> {
    (
        prop_oneof![1965u32..=2085, 0u32..=9999],
        0u32..=13,
        0u32..=32,
        prop::sample::select(vec!["T", "t", " ", "T", "x", "_"]),
        0u32..=24,
        0u32..=60,
        0u32..=60,
        prop::option::of("[0-9]{1,9}"),
        prop_oneof![
            Just("Z".to_owned()),
            Just("z".to_owned()),
            (prop::bool::ANY, 0u32..=24, 0u32..=60)
                .prop_map(|(neg, h, m)| format!("{}{h:02}:{m:02}", if neg { '-' } else { '+' })),
        ],
    )
        .prop_map(|(y, mo, d, sep, h, mi, s, frac, off)| {
            let frac = frac.map(|f| format!(".{f}")).unwrap_or_default();
            format!("{y:04}-{mo:02}-{d:02}{sep}{h:02}:{mi:02}:{s:02}{frac}{off}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Every millisecond from 1970 to 2080, at any offset, with any number of
    /// fraction digits that still names it: the oracle writes, we read.
    #[test]
    fn reads_what_the_oracle_writes(
        ms in 0..=MAX_TIMESTAMP_MS,
        offset in -1439i32..=1439,
        digits in 0usize..=9,
    ) {
        // Fewer than three digits only where the dropped ones are zeros.
        let needed = match ms % 1000 {
            0 => 0,
            x if x % 100 == 0 => 1,
            x if x % 10 == 0 => 2,
            _ => 3,
        };
        let digits = digits.max(needed);
        let text = oracle_text(ms, offset, digits);
        prop_assert_eq!(parse(&text), Ok(ms), "{}", text);
    }

    /// We write, the oracle reads the same instant; we read it back.
    #[test]
    fn the_oracle_reads_what_we_write(ms in 0..=Rfc3339::MAX_MS) {
        let text = write(ms);
        prop_assert_eq!(text.len(), Rfc3339::LEN);
        prop_assert_eq!(text.as_bytes(), Rfc3339::new(ms).unwrap().to_bytes());
        prop_assert_eq!(oracle_parse(&text), Some(i128::from(ms) * 1_000_000));
        prop_assert_eq!(parse(&text), Ok(ms));
    }

    /// The civil fields are the oracle's for the same instant, from 1970 to 9999.
    #[test]
    fn the_civil_fields_are_the_oracles(ms in 0..=Rfc3339::MAX_MS) {
        let time = Rfc3339::new(ms).unwrap();
        let oracle = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).unwrap();
        prop_assert_eq!(
            (time.year(), time.month(), time.day()),
            (u32::try_from(oracle.year()).unwrap(), u32::from(u8::from(oracle.month())), u32::from(oracle.day()))
        );
        prop_assert_eq!(
            (time.hour(), time.minute(), time.second(), time.millisecond()),
            (u32::from(oracle.hour()), u32::from(oracle.minute()), u32::from(oracle.second()), u32::from(oracle.millisecond()))
        );
    }

    /// On texts near the grammar (at most nine fraction digits, where the oracle
    /// is exact), we accept exactly what the oracle accepts as a whole millisecond
    /// from 1970 on; the oracle also takes a leap second and any separator byte,
    /// which we refuse.
    #[test]
    fn accepts_what_the_oracle_accepts(text in near_dates()) {
        let ours = parse(&text);
        if text.as_bytes()[17..19] == *b"60" {
            // The oracle reads a leap second as the nanosecond before it; we refuse every `:60`.
            prop_assert!(ours.is_err(), "{}", text);
            return Ok(());
        }
        // The oracle takes any byte there; we take `T`, `t` and a space.
        if !matches!(text.as_bytes()[10], b'T' | b't' | b' ') {
            prop_assert!(ours.is_err(), "{}", text);
            return Ok(());
        }
        let with_t = format!("{}T{}", &text[..10], &text[11..]);
        let expected = oracle_parse(&with_t)
            .filter(|nanos| *nanos >= 0 && nanos % 1_000_000 == 0)
            .map(|nanos| u64::try_from(nanos / 1_000_000).unwrap());
        prop_assert_eq!(ours.ok(), expected, "{} -> {:?}", text, ours);
    }

    /// Any text at all: an answer, never a panic.
    #[test]
    fn never_panics(text in "\\PC{0,40}") {
        let _ = parse(&text);
    }
}

// Each test below kills a mutant that cargo-mutants found alive (scripts/mutants.sh).

#[test]
fn text_after_the_offset_is_refused() {
    for text in [
        "2022-06-28T18:07:40.105+02:00x",
        "2022-06-28T18:07:40+02:00 ",
        "2022-06-28T16:07:40Zx",
    ] {
        assert_eq!(
            parse_rfc3339(text),
            Err(Rfc3339Error::Unexpected {
                position: text.trim_end_matches(['x', ' ']).len(),
                expected: "the end of the date",
                found: Some(*text.as_bytes().last().unwrap()),
            }),
            "{text}"
        );
    }
}

#[test]
fn a_quote_and_a_tab_are_shown_as_they_are() {
    let quote = parse_rfc3339("2022-06-28T16:07:40Z\"").unwrap_err();
    assert_eq!(
        quote.to_string(),
        "expected the end of the date at byte 20, found `\"`"
    );
    let tab = parse_rfc3339("2022-06-28\t16:07:40Z").unwrap_err();
    assert_eq!(
        tab.to_string(),
        "expected `T` between the date and the time at byte 10, found `\\t`"
    );
}
