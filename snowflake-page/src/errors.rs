//! The runtime's typed errors in the reader's language: each kind picks its message, and
//! the error's own values (the field, the value, the range) fill it. Never the English
//! text: that stays for the API, the logs and the command.

use snowflake_kit::input::{NumberError, ParseFieldError};
use snowflake_kit::layout::{
    DATACENTER_BITS, MACHINE_BITS, MAX_TIMESTAMP_MS, SEQUENCE_BITS, TIMESTAMP_BITS,
    TWITTER_EPOCH_MS,
};
use snowflake_kit::rfc3339::{DateField, Rfc3339Error};
use snowflake_kit::{Field, FieldRangeError, ParseSnowflakeError};

use maud::Markup;

use crate::explain::{date, epoch, last};
use crate::words::{Args, Words};

/// What the reader may type in `field`, in a sentence's words.
pub(crate) fn expected(words: &Words, field: Field) -> Markup {
    let args = Args::new(words.lang())
        .number("min", field.min())
        .number("max", field.max());
    match field {
        Field::Timestamp => words.format(
            "expected-ts",
            &args.typed("example", "2022-06-28T16:07:40.105Z"),
        ),
        _ => words.format("expected-number", &args),
    }
}

/// Why `text` is not a value of `field`.
pub(crate) fn field_error(
    words: &Words,
    field: Field,
    text: &str,
    error: &ParseFieldError,
) -> Markup {
    let args = Args::new(words.lang())
        .typed("text", text)
        .html("expected", expected(words, field));
    let id = match error {
        ParseFieldError::Number { error, .. } => match error {
            NumberError::Empty => "error-empty",
            NumberError::Negative => "error-negative",
            NumberError::Plus => "error-plus",
            NumberError::Fraction => "error-fraction",
            NumberError::NotDigits => "error-not-digits",
            NumberError::TooLarge => "error-too-large",
            _ => "error-other",
        },
        ParseFieldError::Date(error) => return date_error(words, args, error),
        ParseFieldError::OutOfRange(error) => return range_error(words, error),
        _ => "error-other",
    };
    words.format(id, &args)
}

/// Why a date is not one the format can carry.
fn date_error(words: &Words, args: Args, error: &Rfc3339Error) -> Markup {
    match *error {
        Rfc3339Error::Unexpected { position, .. } => words.format(
            "error-date-syntax",
            // Counted from 1, as a reader counts characters.
            &args.number("position", position as u64 + 1),
        ),
        Rfc3339Error::OutOfRange {
            field,
            value,
            min,
            max,
        } => {
            let part = words.format(
                "date-part",
                &Args::new(words.lang()).key("part", date_part_key(field)),
            );
            words.format(
                "error-date-part",
                &args
                    .html("part", part)
                    .number("value", value.into())
                    .number("min", min.into())
                    .number("max", max.into()),
            )
        }
        Rfc3339Error::LeapSecond => words.format("error-leap-second", &args),
        Rfc3339Error::FinerThanMillisecond => words.format("error-finer", &args),
        Rfc3339Error::BeforeUnixEpoch => words.format(
            "error-before-1970",
            &args.html("epoch", date(words, epoch())),
        ),
        _ => words.format("error-other", &args),
    }
}

/// The selector key of `date-part` for a part of a date.
fn date_part_key(field: DateField) -> &'static str {
    match field {
        DateField::Month => "month",
        DateField::Day => "day",
        DateField::Hour => "hour",
        DateField::Minute => "minute",
        DateField::Second => "second",
        DateField::OffsetHour => "offset-hour",
        _ => "offset-minute",
    }
}

/// Why a value is outside its field's range.
pub(crate) fn range_error(words: &Words, error: &FieldRangeError) -> Markup {
    let args = Args::new(words.lang());
    let (field, value, bits) = match *error {
        FieldRangeError::TimestampBeforeEpoch(ms) => {
            return words.format(
                "error-before-epoch",
                &args
                    .typed("ms", &ms.to_string())
                    .html("epoch", date(words, epoch()))
                    .number("epoch-ms", TWITTER_EPOCH_MS),
            );
        }
        FieldRangeError::TimestampAfterMax(ms) => {
            return words.format(
                "error-after-max",
                &args
                    .typed("ms", &ms.to_string())
                    .html("max", date(words, last()))
                    .number("max-ms", MAX_TIMESTAMP_MS)
                    .select("bits", TIMESTAMP_BITS.into()),
            );
        }
        FieldRangeError::DatacenterOutOfRange(v) => (Field::Datacenter, v, DATACENTER_BITS),
        FieldRangeError::MachineOutOfRange(v) => (Field::Machine, v, MACHINE_BITS),
        FieldRangeError::SequenceOutOfRange(v) => (Field::Sequence, v, SEQUENCE_BITS),
        _ => (error.field(), 0, 0),
    };
    words.format(
        "error-out-of-range",
        &args
            .typed("value", &value.to_string())
            .html("name", words.get(&format!("name-{}", field.key())))
            .number("min", field.min())
            .number("max", field.max())
            .select("bits", bits.into()),
    )
}

/// Why a text is not an ID.
pub(crate) fn id_error(words: &Words, error: &ParseSnowflakeError) -> Markup {
    let args = Args::new(words.lang());
    match *error {
        ParseSnowflakeError::InvalidCharacter {
            character,
            position,
        } => words.format(
            "error-id-character",
            &args
                .typed("character", &character.to_string())
                .number("position", position as u64 + 1),
        ),
        ParseSnowflakeError::TooLarge => words.format(
            "error-id-too-large",
            &args.number("max", i64::MAX.cast_unsigned()),
        ),
        _ => words.get("error-id-empty"),
    }
}

#[cfg(test)]
mod tests {
    use snowflake_kit::Field;

    use super::{field_error, id_error};
    use crate::lang::Lang;
    use crate::text;
    use crate::words::Words;

    /// One text per kind of error the runtime returns for a field, and its English.
    const FIELD_CASES: [(Field, &str, &str); 17] = [
        (
            Field::Datacenter,
            "",
            "This field is empty; enter a whole number from 0 to 31.",
        ),
        (
            Field::Datacenter,
            "-1",
            "-1 is negative; enter a whole number from 0 to 31.",
        ),
        (
            Field::Machine,
            "+1",
            "+1 has a plus sign, and only digits are read; enter a whole number from 0 to 31.",
        ),
        (
            Field::Sequence,
            "1.5",
            "1.5 is not a whole number; enter a whole number from 0 to 4,095.",
        ),
        (
            Field::Machine,
            "0x1F",
            "0x1F is not a whole number in decimal digits; enter a whole number from 0 to 31.",
        ),
        (
            Field::Sequence,
            "99999999999999999999",
            "99999999999999999999 is larger than 64 bits can hold; enter a whole number from 0 to 4,095.",
        ),
        (
            Field::Datacenter,
            "32",
            "32 is out of range for the datacenter ID: it holds 0 to 31 (5 bits).",
        ),
        (
            Field::Machine,
            "40",
            "40 is out of range for the machine ID: it holds 0 to 31 (5 bits).",
        ),
        (
            Field::Sequence,
            "4096",
            "4096 is out of range for the sequence number: it holds 0 to 4,095 (12 bits).",
        ),
        (
            Field::Timestamp,
            "1288834974656",
            "1288834974656 ms is before the Twitter epoch, 4 November 2010, 01:42:54.657 UTC (1,288,834,974,657 ms): timestamps start there.",
        ),
        (
            Field::Timestamp,
            "3487858230209",
            "3487858230209 ms is after 10 July 2080, 17:30:30.208 UTC (3,487,858,230,208 ms), the last time 41 bits can hold.",
        ),
        (
            Field::Timestamp,
            "2022-06-28 16:07",
            "2022-06-28 16:07 is not an RFC 3339 date: character 17 does not fit; enter Unix ms from 1,288,834,974,657 to 3,487,858,230,208, or an RFC 3339 date such as 2022-06-28T16:07:40.105Z.",
        ),
        (
            Field::Timestamp,
            "2022-02-30T00:00:00Z",
            "2022-02-30T00:00:00Z is not a real date: the day is 30, where 1 to 28 is allowed.",
        ),
        (
            Field::Timestamp,
            "2016-12-31T23:59:60Z",
            "2016-12-31T23:59:60Z has second 60, a leap second, which Unix time does not count.",
        ),
        (
            Field::Timestamp,
            "2022-06-28T16:07:40.1051Z",
            "2022-06-28T16:07:40.1051Z is finer than a millisecond: Snowflake timestamps are whole milliseconds, so digits past the third after the point must be 0.",
        ),
        (
            Field::Timestamp,
            "1969-12-31T23:59:59Z",
            "1969-12-31T23:59:59Z is before 1970, and so before the Twitter epoch, 4 November 2010, 01:42:54.657 UTC.",
        ),
        (
            Field::Timestamp,
            "2000-01-01T00:00:00Z",
            "946684800000 ms is before the Twitter epoch, 4 November 2010, 01:42:54.657 UTC (1,288,834,974,657 ms): timestamps start there.",
        ),
    ];

    const ID_CASES: [(&str, &str); 3] = [
        (
            "",
            "Enter an ID: a Snowflake ID is written in decimal digits.",
        ),
        (
            "12x",
            "x (character 3) is not a digit: a Snowflake ID is written in decimal digits only.",
        ),
        (
            "9223372036854775808",
            "The number is too large: a Snowflake ID is at most 9,223,372,036,854,775,807.",
        ),
    ];

    fn field_message(lang: Lang, field: Field, typed: &str) -> String {
        let error = field.parse(typed).expect_err(typed);
        field_error(Words::of(lang), field, typed, &error).into_string()
    }

    #[test]
    fn every_kind_of_field_error_says_what_is_wrong_in_english() {
        for (field, typed, english) in FIELD_CASES {
            assert_eq!(
                text(&field_message(Lang::En, field, typed)),
                english,
                "{typed:?}"
            );
        }
        for (typed, english) in ID_CASES {
            let error = typed.parse::<snowflake_kit::Snowflake>().expect_err(typed);
            assert_eq!(
                text(&id_error(Words::of(Lang::En), &error).0),
                english,
                "{typed:?}"
            );
        }
    }

    #[test]
    fn every_kind_of_error_has_its_own_message_in_every_language() {
        for lang in Lang::ALL {
            let mut seen = std::collections::HashSet::new();
            for (field, typed, english) in FIELD_CASES {
                let message = field_message(lang, field, typed);
                // The value as typed, left to right, whatever the language.
                if !typed.is_empty() && !typed.starts_with("2000") {
                    assert!(
                        message.contains(&format!(
                            r#"<bdi dir="ltr"><code dir="ltr">{typed}</code></bdi>"#
                        )),
                        "{lang:?} {typed:?}: {message}"
                    );
                }
                if lang != Lang::En {
                    assert_ne!(text(&message), english, "{lang:?} {typed:?}");
                }
                // No two kinds share a message, and none falls to the catch-all.
                assert!(
                    seen.insert(text(&message).replace(typed, "")),
                    "{lang:?} {typed:?}: {message}"
                );
                let other = Words::of(lang).format(
                    "error-other",
                    &crate::words::Args::new(lang)
                        .typed("text", typed)
                        .html("expected", super::expected(Words::of(lang), field)),
                );
                assert_ne!(message, other.into_string(), "{lang:?} {typed:?}");
            }
            for (typed, english) in ID_CASES {
                let error = typed.parse::<snowflake_kit::Snowflake>().expect_err(typed);
                let message = text(&id_error(Words::of(lang), &error).0);
                if lang != Lang::En {
                    assert_ne!(message, english, "{lang:?} {typed:?}");
                }
                assert!(seen.insert(message), "{lang:?} {typed:?}");
            }
        }
    }

    #[test]
    fn ranges_are_grouped_as_the_language_writes_numbers() {
        let id = text(&field_message(Lang::Id, Field::Sequence, "4096"));
        assert!(id.contains("4.095") && id.contains("4096"), "{id}");
        let he = text(&field_message(Lang::He, Field::Timestamp, "1288834974656"));
        assert!(
            he.contains("1,288,834,974,657") && he.contains("1288834974656"),
            "{he}"
        );
    }
}
