//! The runtime's typed errors in the reader's language: each kind picks its message, and
//! the error's own values (the field, the value, the range) fill it. Never the English
//! text: that stays for the API, the logs and the command.

use snowflake_kit::input::{NumberError, ParseFieldError};
use snowflake_kit::layout::{
    Base32, DATACENTER_BITS, MACHINE_BITS, MAX_TIMESTAMP_MS, SEQUENCE_BITS, TIMESTAMP_BITS,
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
            // Digits whose group marks are out of place, as the page's language writes
            // numbers ([`Lang::unmark`](crate::lang::Lang::unmark)): say where they go.
            NumberError::NotDigits if words.lang().unmark(text).is_err() => "error-grouping",
            NumberError::NotDigits => "error-not-digits",
            NumberError::TooLarge => "error-too-large",
            _ => "error-other",
        },
        ParseFieldError::Date(error) => return date_error(words, args, error),
        ParseFieldError::OutOfRange(error) => return range_error(words, args, error),
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

/// Why a value is outside its field's range, quoting it as the reader typed it (`args`'
/// `text`: `2000-01-01T00:00:00Z`, not the milliseconds the runtime made of it).
fn range_error(words: &Words, args: Args, error: &FieldRangeError) -> Markup {
    let (field, bits) = match *error {
        FieldRangeError::TimestampBeforeEpoch(_) => {
            return words.format(
                "error-before-epoch",
                &args
                    .html("epoch", date(words, epoch()))
                    .number("epoch-ms", TWITTER_EPOCH_MS),
            );
        }
        FieldRangeError::TimestampAfterMax(_) => {
            return words.format(
                "error-after-max",
                &args
                    .html("max", date(words, last()))
                    .number("max-ms", MAX_TIMESTAMP_MS)
                    .number("bits", TIMESTAMP_BITS.into()),
            );
        }
        FieldRangeError::DatacenterOutOfRange(_) => (Field::Datacenter, DATACENTER_BITS),
        FieldRangeError::MachineOutOfRange(_) => (Field::Machine, MACHINE_BITS),
        FieldRangeError::SequenceOutOfRange(_) => (Field::Sequence, SEQUENCE_BITS),
        _ => (error.field(), 0),
    };
    words.format(
        "error-out-of-range",
        &args
            .html("name", words.get(&format!("name-{}", field.key())))
            .number("min", field.min())
            .number("max", field.max())
            .number("bits", bits.into()),
    )
}

/// The largest ID in base32, and its first digit.
const LARGEST_BASE32: &str = "7ZZZZZZZZZZZZ";
const LARGEST_FIRST: &str = "7";

/// Why a text is not an ID.
pub(crate) fn id_error(words: &Words, error: &ParseSnowflakeError) -> Markup {
    // Base32's width: every message of the decode box may name it.
    let args = Args::new(words.lang()).number("digits", Base32::LEN as u64);
    match *error {
        // One arm for both forms' characters: the module's budget is tight.
        ParseSnowflakeError::InvalidCharacter {
            character,
            position,
        }
        | ParseSnowflakeError::InvalidBase32Character {
            character,
            position,
        } => words.format(
            if matches!(error, ParseSnowflakeError::InvalidCharacter { .. }) {
                "error-id-character"
            } else {
                "error-id-base32-character"
            },
            &args
                .typed("character", &character.to_string())
                .number("position", position as u64 + 1),
        ),
        ParseSnowflakeError::TooLarge => words.format(
            "error-id-too-large",
            &args.number("max", i64::MAX.cast_unsigned()),
        ),
        ParseSnowflakeError::Base32Length { length } => words.format(
            "error-id-base32-length",
            &args.number("length", length as u64),
        ),
        // The largest ID's text and its first digit, the format's rather than the words':
        // literals, for the module's budget (a test holds them to `Snowflake::MAX`).
        ParseSnowflakeError::Base32TooLarge { first } => words.format(
            "error-id-base32-too-large",
            &args
                .typed("character", &first.to_string())
                .typed("max", LARGEST_BASE32)
                .typed("highest", LARGEST_FIRST),
        ),
        _ => words.format("error-id-empty", &args),
    }
}

#[cfg(test)]
mod tests {
    use snowflake_kit::Field;

    use super::{field_error, id_error};
    use crate::form::read;
    use crate::lang::Lang;
    use crate::text;
    use crate::words::Words;

    /// One text per kind of error a field's text can get, and its English.
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
            "1.5 is not a whole number: here a point marks decimals, and a comma groups thousands; enter a whole number from 0 to 4,095.",
        ),
        (
            Field::Sequence,
            "40,95",
            "40,95 has a comma out of place: commas part the digits into groups of three, counted from the right; enter a whole number from 0 to 4,095.",
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
            "4,096",
            "4,096 is out of range for the sequence number: it holds 0 to 4,095 (12 bits).",
        ),
        (
            Field::Timestamp,
            "1288834974656",
            "1288834974656 is before the Twitter epoch, 4 November 2010, 01:42:54.657 UTC (1,288,834,974,657 ms): timestamps start there.",
        ),
        (
            Field::Timestamp,
            "3487858230209",
            "3487858230209 is after 10 July 2080, 17:30:30.208 UTC (3,487,858,230,208 ms), the last time 41 bits can hold.",
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
    ];

    const ID_CASES: [(&str, &str); 7] = [
        (
            "",
            "Enter an ID: in decimal digits, or in the 13 characters of its base32 form.",
        ),
        (
            "12x",
            "x (character 3) is not a digit: a Snowflake ID is written in decimal digits only, or in 13 characters of base32.",
        ),
        (
            "9223372036854775808",
            "The number is too large: a Snowflake ID is at most 9,223,372,036,854,775,807.",
        ),
        (
            "user_000000000000U",
            "U (character 18) is not a character of base32: an ID in base32 is written with the digits and the letters A to Z, but not U.",
        ),
        (
            "user_0000000000",
            "An ID in base32 has 13 characters; this one has 10.",
        ),
        (
            "user_",
            "An ID in base32 has 13 characters; this one has 0.",
        ),
        (
            "8000000000000",
            "The first character, 8, is too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first character 0 to 7.",
        ),
    ];

    #[test]
    fn the_largest_base32_is_the_formats() {
        let max = snowflake_kit::Snowflake::MAX.to_base32();
        assert_eq!(super::LARGEST_BASE32, max.digits());
        assert!(max.digits().starts_with(super::LARGEST_FIRST));
    }

    /// The error the page shows for `typed` in `field`, read as `lang` writes numbers.
    fn field_message(lang: Lang, field: Field, typed: &str) -> String {
        let error = read(field, typed, Some(lang)).expect_err(typed);
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
            let error =
                crate::form::decode_text(typed, crate::form::Spaces::Trimmed).expect_err(typed);
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
            // Indonesian's marks are the other way round in a number (not in a date): its
            // fraction is `1,5` and its misplaced group mark `40.95`, the same two kinds.
            let swap = |typed: &str| {
                let number = typed
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'.' || b == b',');
                match lang {
                    Lang::Id if number => {
                        typed.replace(',', "#").replace('.', ",").replace('#', ".")
                    }
                    _ => typed.to_owned(),
                }
            };
            for (field, typed, english) in FIELD_CASES {
                let typed = &swap(typed);
                let message = field_message(lang, field, typed);
                // The value as typed, left to right, whatever the language.
                if !typed.is_empty() {
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
                let error =
                    crate::form::decode_text(typed, crate::form::Spaces::Trimmed).expect_err(typed);
                let message = text(&id_error(Words::of(lang), &error).0);
                if lang != Lang::En {
                    assert_ne!(message, english, "{lang:?} {typed:?}");
                }
                assert!(seen.insert(message), "{lang:?} {typed:?}");
            }
        }
    }

    #[test]
    fn a_number_misread_says_how_the_language_writes_numbers() {
        for (lang, field, typed, said) in [
            (
                Lang::Id,
                Field::Sequence,
                "4,095",
                "4,095 bukan bilangan bulat: di sini koma menandai desimal, dan titik memisahkan ribuan; masukkan bilangan bulat dari 0 hingga 4.095.",
            ),
            (
                Lang::Id,
                Field::Sequence,
                "40.95",
                "40.95 memuat titik di tempat yang salah: titik memisahkan digit menjadi kelompok tiga angka, dihitung dari kanan; masukkan bilangan bulat dari 0 hingga 4.095.",
            ),
            (
                Lang::Id,
                Field::Timestamp,
                "1,288,834,975,657",
                "1,288,834,975,657 bukan bilangan bulat: di sini koma menandai desimal, dan titik memisahkan ribuan; masukkan waktu Unix dalam milidetik dari 1.288.834.974.657 hingga 3.487.858.230.208, atau tanggal RFC 3339 seperti 2022-06-28T16:07:40.105Z.",
            ),
            (
                Lang::Id,
                Field::Sequence,
                "4.096",
                "4.096 berada di luar rentang nomor urutan, yaitu 0 hingga 4.095 (12 bit).",
            ),
            (
                Lang::He,
                Field::Sequence,
                "4.095",
                "הערך 4.095 אינו מספר שלם: כאן הנקודה מסמנת שבר עשרוני, והפסיק מפריד בין אלפים. הזינו מספר שלם מ־0 עד 4,095.",
            ),
            (
                Lang::He,
                Field::Sequence,
                "40,95",
                "בערך 40,95 יש פסיק שלא במקומו: פסיקים מחלקים את הספרות לקבוצות של שלוש, שנספרות מימין. הזינו מספר שלם מ־0 עד 4,095.",
            ),
            (
                Lang::He,
                Field::Sequence,
                "4,096",
                "הערך 4,096 חורג מהטווח של מספר הרצף: מ־0 עד 4,095 (12 סיביות).",
            ),
            (
                Lang::En,
                Field::Timestamp,
                "1.288.834.975.657",
                "1.288.834.975.657 is not a whole number: here a point marks decimals, and a comma groups thousands; enter Unix ms from 1,288,834,974,657 to 3,487,858,230,208, or an RFC 3339 date such as 2022-06-28T16:07:40.105Z.",
            ),
        ] {
            assert_eq!(
                text(&field_message(lang, field, typed)),
                said,
                "{lang:?} {typed:?}"
            );
        }
    }

    #[test]
    fn a_time_out_of_range_is_quoted_as_typed() {
        for (lang, typed, said) in [
            (
                Lang::Id,
                "2000-01-01T00:00:00Z",
                "2000-01-01T00:00:00Z jatuh sebelum epoch Twitter, 4 November 2010, pukul 01.42.54,657 UTC (1.288.834.974.657 md): stempel waktu Snowflake dihitung mulai dari titik itu.",
            ),
            (
                Lang::Id,
                "1.288.834.974.656",
                "1.288.834.974.656 jatuh sebelum epoch Twitter, 4 November 2010, pukul 01.42.54,657 UTC (1.288.834.974.657 md): stempel waktu Snowflake dihitung mulai dari titik itu.",
            ),
            (
                Lang::He,
                "2000-01-01T00:00:00Z",
                "חותמת הזמן 2000-01-01T00:00:00Z מוקדמת מדי: הספירה מתחילה בראשית הזמן של Twitter, 4 בנובמבר 2010 בשעה 01:42:54.657 UTC (1,288,834,974,657 אלפיות שנייה).",
            ),
            (
                Lang::He,
                "2080-07-10T17:30:30.209Z",
                "חותמת הזמן 2080-07-10T17:30:30.209Z מאוחרת מ־10 ביולי 2080 בשעה 17:30:30.208 UTC (3,487,858,230,208 אלפיות שנייה), הרגע האחרון שאפשר לייצג ב־41 סיביות.",
            ),
            (
                Lang::En,
                "2000-01-01T00:00:00Z",
                "2000-01-01T00:00:00Z is before the Twitter epoch, 4 November 2010, 01:42:54.657 UTC (1,288,834,974,657 ms): timestamps start there.",
            ),
        ] {
            let message = text(&field_message(lang, Field::Timestamp, typed));
            assert_eq!(message.replace('\u{a0}', " "), said, "{lang:?} {typed:?}");
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
