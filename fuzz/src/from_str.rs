//! `Snowflake::from_str`: decimal digits only, at most `i64::MAX`, held to a plain oracle.

use snowflake_kit::{ParseSnowflakeError, Snowflake};

/// What a decimal ID text must read as: its value, or the error it must be.
fn oracle(text: &str) -> Result<u64, ParseSnowflakeError> {
    if text.is_empty() {
        return Err(ParseSnowflakeError::Empty);
    }
    if let Some(position) = text.bytes().position(|b| !b.is_ascii_digit()) {
        let character = text[position..].chars().next().unwrap_or_default();
        return Err(ParseSnowflakeError::InvalidCharacter {
            character,
            position,
        });
    }
    let significant = text.trim_start_matches('0');
    if significant.len() > 19 {
        return Err(ParseSnowflakeError::TooLarge);
    }
    // At most 19 digits: fits in a u64.
    let value: u64 = if significant.is_empty() {
        0
    } else {
        significant.parse().expect("19 digits fit in 64 bits")
    };
    if value > Snowflake::MAX.as_u64() {
        return Err(ParseSnowflakeError::TooLarge);
    }
    Ok(value)
}

/// `Snowflake::from_str` of `data` (when it is UTF-8, as a `str` must be): the oracle's
/// answer, the ID written back as the digits without leading zeros, every error a message.
///
/// # Panics
///
/// When the parser disagrees with the oracle.
pub fn from_str(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ours = text.parse::<Snowflake>();
    let expected = oracle(text);
    assert_eq!(ours.map(Snowflake::as_u64), expected, "{text:?}");
    match ours {
        Ok(id) => {
            let written = id.to_string();
            let digits = text.trim_start_matches('0');
            assert_eq!(written, if digits.is_empty() { "0" } else { digits });
            assert_eq!(written.parse::<Snowflake>(), Ok(id));
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}
