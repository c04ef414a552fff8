//! `Field::parse` for each field: digits only (for `ts` also an RFC 3339 date), then the
//! field's range; held to `parse_decimal`, `parse_rfc3339` and `Field::check`.

use snowflake_kit::__private::parse_decimal;
use snowflake_kit::Field;
use snowflake_kit::input::{NumberError, ParseFieldError};
use snowflake_kit::rfc3339::parse_rfc3339;

/// What the text must be for `field`: a number in its range, or the error it must be.
fn oracle(field: Field, text: &str) -> Result<u64, ParseFieldError> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let value = if digits {
        // Digits past 64 bits are too large for every field.
        match text.trim_start_matches('0') {
            "" => 0,
            significant => match significant.parse::<u64>() {
                Ok(value) => value,
                Err(_) => {
                    return Err(ParseFieldError::Number {
                        field,
                        error: parse_decimal(text).expect_err("past 64 bits"),
                    });
                }
            },
        }
    } else {
        match parse_decimal(text) {
            Ok(value) => panic!("{text:?} is not digits, and parse_decimal read {value}"),
            Err(NumberError::NotDigits) if field == Field::Timestamp => {
                parse_rfc3339(text).map_err(ParseFieldError::Date)?
            }
            Err(error) => return Err(ParseFieldError::Number { field, error }),
        }
    };
    if value < field.min() || value > field.max() {
        return Err(ParseFieldError::OutOfRange(
            field.check(value).expect_err("outside min..=max"),
        ));
    }
    Ok(value)
}

/// `Field::parse` of `data` (when UTF-8) for each of the four fields: the oracle's answer,
/// a value that `Field::check` and `compose` take, and a message that quotes the text.
///
/// # Panics
///
/// When a field's parse disagrees with the oracle or with its own range.
pub fn field_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for field in Field::ALL {
        let ours = field.parse(text);
        assert_eq!(ours, oracle(field, text), "{field:?} {text:?}");
        match ours {
            Ok(value) => {
                assert_eq!(field.check(value), Ok(value), "{field:?} {text:?}");
                // A value of one field composes with the others at their minimum.
                let mut parts = Field::ALL.map(Field::min);
                parts[field as usize] = value;
                let id = snowflake_kit::compose(parts[0], parts[1], parts[2], parts[3])
                    .unwrap_or_else(|e| panic!("{field:?} {text:?}: {e}"));
                let back = match field {
                    Field::Timestamp => id.timestamp_ms(),
                    Field::Datacenter => u64::from(id.datacenter()),
                    Field::Machine => u64::from(id.machine()),
                    Field::Sequence => u64::from(id.sequence()),
                };
                assert_eq!(back, value, "{field:?} {text:?}");
            }
            Err(e) => {
                assert_eq!(e.field(), field, "{text:?}");
                let message = e.to_string();
                assert!(!message.is_empty(), "{field:?} {text:?}");
                assert!(
                    !e.with_input(text).to_string().is_empty(),
                    "{field:?} {text:?}"
                );
            }
        }
    }
}
