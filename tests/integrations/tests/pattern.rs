//! `as_string::PATTERN` holds exactly the strings `as_string` writes: the decimal digits
//! of every ID, and no other string, judged by a JSON Schema validator's own regular
//! expressions (ECMA 262, as OpenAPI and JSON Schema read a pattern).

mod support;

use jsonschema::Validator;
use serde_json::json;
use snowflake_kit::Snowflake;
use snowflake_kit::serde::as_string;
use support::bits;

fn pattern() -> Validator {
    jsonschema::validator_for(&json!({ "type": "string", "pattern": as_string::PATTERN }))
        .expect("a schema")
}

/// Whether `as_string` writes `text` for some ID.
fn written(text: &str) -> bool {
    text.parse::<Snowflake>()
        .is_ok_and(|id| as_string::serialize(&id, serde_json::value::Serializer).unwrap() == text)
}

fn check(pattern: &Validator, text: &str) {
    assert_eq!(
        pattern.is_valid(&json!(text)),
        written(text),
        "{text:?}: the pattern and `as_string` disagree"
    );
}

#[test]
fn holds_every_length_and_every_bound_of_the_range() {
    let pattern = pattern();
    let max = Snowflake::MAX.as_u64();
    // The last ID and its neighbours, and the 19-digit numbers that differ from it in one
    // digit, up or down: the pattern's alternatives split at each of those digits.
    let mut numbers = vec![0, 1, 9, 10, max - 1, max, max + 1, u64::MAX];
    let digits = max.to_string();
    for (position, digit) in digits.bytes().enumerate() {
        let place = 10u64.pow(u32::try_from(digits.len() - 1 - position).unwrap());
        let digit = u64::from(digit - b'0');
        if digit > 0 {
            numbers.push(max - place);
        }
        if digit < 9 {
            numbers.extend([max + place, (max / place / 10 * 10 + digit + 1) * place]);
        }
        numbers.push(max / place * place);
    }
    // Every power of ten and its neighbours, and numbers from all of u64.
    for power in 0..20 {
        let ten = 10u64.pow(power);
        numbers.extend([ten - 1, ten, ten + 1]);
    }
    numbers.extend(bits(20_000));
    numbers.extend(bits(20_000).map(|bits| bits >> 1));
    for n in numbers {
        check(&pattern, &n.to_string());
    }
    // Past u64, 20 digits and more.
    for text in [
        "18446744073709551616",
        "99999999999999999999",
        "100000000000000000000",
    ] {
        check(&pattern, text);
    }
}

#[test]
fn holds_no_other_text() {
    let pattern = pattern();
    for text in [
        "",
        "-1",
        "+1",
        "-0",
        "01",
        "00",
        "007",
        " 1",
        "1 ",
        "1\n",
        "1.0",
        "1e3",
        "0x1F",
        "١",
        "9223372036854775807 ",
        "09223372036854775807",
        "abc",
    ] {
        check(&pattern, text);
        assert!(!pattern.is_valid(&json!(text)), "{text:?}");
    }
}
