//! The base32 form: the known answers every front end shares (`tests/vectors/base32.txt`,
//! written by an encoder of its own), every error, and over the whole range a round trip
//! that keeps order, judged against the `crockford` crate.

use proptest::prelude::*;
use snowflake_runtime::typed::{Id, kind};
use snowflake_runtime::{ParseSnowflakeError, Snowflake};

kind!(User, "user");
kind!(Plain);

/// The shared known answers: `(id, base32)`.
fn known_answers() -> Vec<(u64, String)> {
    include_str!("../../tests/vectors/base32.txt")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| {
            let mut words = line.split(' ');
            let id = words.next().unwrap().parse().unwrap();
            (id, words.next().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn known_answers_both_ways() {
    let answers = known_answers();
    assert!(answers.len() >= 19, "{answers:?}");
    for (id, text) in answers {
        let id = Snowflake::try_from(id).unwrap();
        assert_eq!(id.to_base32().digits(), text);
        assert_eq!(id.to_base32().to_string(), text);
        assert_eq!(Snowflake::from_base32(&text), Ok(id), "{text}");
        assert_eq!(
            Snowflake::from_base32(&text.to_lowercase()),
            Ok(id),
            "{text}"
        );
        let user = Id::<User>::from_snowflake(id);
        assert_eq!(user.to_base32().to_string(), format!("user_{text}"));
        assert_eq!(Id::<User>::from_base32(&format!("user_{text}")), Ok(user));
        assert_eq!(Id::<Plain>::from_base32(&text).map(Id::snowflake), Ok(id));
    }
}

#[test]
fn crockfords_substitutions_and_nothing_else() {
    let seed = Snowflake::try_from(4_194_439_168).unwrap();
    for text in [
        "0000003X04400",
        "OOOOOO3XO44OO",
        "oooooo3xo44oo",
        "Oo0oOo3Xo44Oo",
    ] {
        assert_eq!(Snowflake::from_base32(text), Ok(seed), "{text}");
    }
    let one = Snowflake::try_from(1).unwrap();
    for text in [
        "0000000000001",
        "000000000000I",
        "000000000000i",
        "000000000000L",
        "000000000000l",
    ] {
        assert_eq!(Snowflake::from_base32(text), Ok(one), "{text}");
    }
    let invalid = |character, position| {
        Err(ParseSnowflakeError::InvalidBase32Character {
            character,
            position,
        })
    };
    assert_eq!(Snowflake::from_base32("000000000000U"), invalid('U', 12));
    assert_eq!(Snowflake::from_base32("u000000000000"), invalid('u', 0));
    assert_eq!(Snowflake::from_base32("000000-000000"), invalid('-', 6));
    assert_eq!(Snowflake::from_base32(" 000000000000"), invalid(' ', 0));
    assert_eq!(Snowflake::from_base32("00000000000é0"), invalid('é', 11));
    // A bad character is named before a bad length: the text is no ID at all.
    assert_eq!(Snowflake::from_base32("0#1"), invalid('#', 1));
}

#[test]
fn lengths_and_range_on_both_sides() {
    let length = |length| Err(ParseSnowflakeError::Base32Length { length });
    assert_eq!(Snowflake::from_base32(""), length(0));
    assert_eq!(Snowflake::from_base32("000000000000"), length(12));
    assert_eq!(Snowflake::from_base32("00000000000000"), length(14));
    assert_eq!(Snowflake::from_base32("7ZZZZZZZZZZZZ"), Ok(Snowflake::MAX));
    assert_eq!(Snowflake::from_base32("7zzzzzzzzzzzz"), Ok(Snowflake::MAX));
    for (text, first) in [
        ("8000000000000", '8'),
        ("ZZZZZZZZZZZZZ", 'Z'),
        ("z000000000000", 'z'),
    ] {
        assert_eq!(
            Snowflake::from_base32(text),
            Err(ParseSnowflakeError::Base32TooLarge { first })
        );
    }
    assert_eq!(
        ParseSnowflakeError::Base32Length { length: 12 }.to_string(),
        "12 characters: an ID in base32 is 13"
    );
}

#[test]
fn prefixes_are_the_kinds_exactly() {
    let prefix = |expected| ParseSnowflakeError::Base32Prefix { expected };
    assert_eq!(
        Id::<User>::from_base32("0000000000000").unwrap_err(),
        prefix(Some("user"))
    );
    assert_eq!(
        Id::<User>::from_base32("user0000000000000").unwrap_err(),
        prefix(Some("user"))
    );
    assert_eq!(
        Id::<User>::from_base32("USER_0000000000000").unwrap_err(),
        prefix(Some("user"))
    );
    assert_eq!(
        Id::<User>::from_base32("users_0000000000000").unwrap_err(),
        prefix(Some("user"))
    );
    assert_eq!(
        Snowflake::from_base32("user_0000000000000").unwrap_err(),
        prefix(None)
    );
    // Nothing before the `_`: no prefix, but a character that is no digit.
    assert_eq!(
        Id::<Plain>::from_base32("_0000000000000").unwrap_err(),
        ParseSnowflakeError::InvalidBase32Character {
            character: '_',
            position: 0
        }
    );
    assert_eq!(
        Id::<Plain>::from_base32("x_0000000000000").unwrap_err(),
        prefix(None)
    );
    // After the prefix, positions still count from the text's start.
    assert_eq!(
        Id::<User>::from_base32("user_000000000000U"),
        Err(ParseSnowflakeError::InvalidBase32Character {
            character: 'U',
            position: 17
        })
    );
    assert_eq!(
        Id::<User>::from_base32("user_"),
        Err(ParseSnowflakeError::Base32Length { length: 0 })
    );
    assert_eq!(
        ParseSnowflakeError::Base32Prefix { expected: None }.to_string(),
        "a prefix: this ID in base32 is 13 characters and no prefix"
    );
    // A `_` is a prefix's only where the text reads as one: something, `_`, 13 characters.
    for (text, expected) in [
        (
            "user_0000003X04400",
            ParseSnowflakeError::Base32Prefix { expected: None },
        ),
        (
            "a_b_0000003X04400",
            ParseSnowflakeError::Base32Prefix { expected: None },
        ),
        (
            "0000003X0440_",
            ParseSnowflakeError::InvalidBase32Character {
                character: '_',
                position: 12,
            },
        ),
        (
            "_0000003X04400",
            ParseSnowflakeError::InvalidBase32Character {
                character: '_',
                position: 0,
            },
        ),
        (
            "x_000000000000",
            ParseSnowflakeError::InvalidBase32Character {
                character: '_',
                position: 1,
            },
        ),
    ] {
        assert_eq!(Snowflake::from_base32(text), Err(expected), "{text}");
    }
    assert_eq!(
        Snowflake::from_base32("9000000000000"),
        Err(ParseSnowflakeError::Base32TooLarge { first: '9' })
    );
    assert_eq!(
        Id::<User>::from_base32("user_z000000000000")
            .unwrap_err()
            .to_string(),
        "first digit `z` too large: an ID in base32 is at most 7ZZZZZZZZZZZZ, its first digit 0-7"
    );
    let min = Snowflake::MIN;
    assert_eq!(Id::<Plain>::from_snowflake(min).to_base32().prefix(), None);
    assert_eq!(
        Id::<User>::from_snowflake(min).to_base32().to_string(),
        "user_0000000000000"
    );
}

proptest! {
    #[test]
    fn round_trip_and_order_over_the_whole_range(a in 0..=i64::MAX as u64, b in 0..=i64::MAX as u64) {
        let (a, b) = (Snowflake::try_from(a).unwrap(), Snowflake::try_from(b).unwrap());
        let (ta, tb) = (a.to_base32(), b.to_base32());
        prop_assert_eq!(Snowflake::from_base32(ta.digits()), Ok(a));
        prop_assert_eq!(ta.digits().cmp(tb.digits()), a.cmp(&b));
        // The oracle writes no leading zeros.
        let oracle = format!("{:0>13}", crockford::encode(a.as_u64()));
        prop_assert_eq!(ta.digits(), oracle.as_str());
        prop_assert_eq!(crockford::decode(ta.digits()).ok(), Some(a.as_u64()));
    }

    #[test]
    fn every_13_character_text_of_the_alphabet_reads_or_is_too_large(
        text in "[0-9A-HJKMNP-TV-Za-hjkmnp-tv-zOoIiLl]{13}"
    ) {
        match Snowflake::from_base32(&text) {
            Ok(id) => {
                prop_assert!(text.as_bytes()[0].is_ascii_digit() && text.as_bytes()[0] <= b'7'
                    || matches!(text.as_bytes()[0], b'O' | b'o' | b'I' | b'i' | b'L' | b'l'));
                let canonical = text.to_uppercase().replace('O', "0").replace(['I', 'L'], "1");
                let written = id.to_base32();
                prop_assert_eq!(written.digits(), canonical.as_str());
            }
            Err(err) => prop_assert!(matches!(err, ParseSnowflakeError::Base32TooLarge { .. }), "{:?}", err),
        }
    }
}
