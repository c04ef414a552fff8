//! `parse_rfc3339` against the `time` crate's RFC 3339 reader: every date one accepts the
//! other accepts, at the same instant; we refuse only what our docs say we refuse.

use snowflake_kit::rfc3339::{Rfc3339, Rfc3339Error, parse_rfc3339};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339 as TimeRfc3339;

/// What the oracle makes of a text: Unix nanoseconds.
fn oracle(text: &str) -> Option<i128> {
    OffsetDateTime::parse(text, &TimeRfc3339)
        .ok()
        .map(OffsetDateTime::unix_timestamp_nanos)
}

/// Whether the text's fraction has a non-zero digit past the third.
fn finer_than_a_millisecond(text: &str) -> bool {
    let Some(fraction) = text.get(19..).and_then(|rest| rest.strip_prefix('.')) else {
        return false;
    };
    let digits = fraction.bytes().take_while(u8::is_ascii_digit);
    digits.skip(3).any(|d| d != b'0')
}

/// `parse_rfc3339` of `data` (when UTF-8) beside the oracle.
///
/// - What we accept, the oracle accepts, at the same instant (with `T` for our `t` or
///   space between date and time, which RFC 3339 allows and the oracle does not read),
///   and we write it back to the same millisecond.
/// - What the oracle accepts and we refuse is one of the refusals our docs name: a `:60`
///   (a leap second, or no time at all), digits finer than a millisecond, a date before
///   1970, or a byte between date and time other than `T`, `t` or a space.
/// - Every refusal has a message.
///
/// # Panics
///
/// On a disagreement that is none of those.
pub fn rfc3339(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let ours = parse_rfc3339(text);
    // The oracle reads `T` only; we read `t` and a space there too.
    let separator = text.as_bytes().get(10).copied();
    let with_t = match separator {
        Some(b't' | b' ') => format!("{}T{}", &text[..10], &text[11..]),
        _ => text.to_owned(),
    };
    let theirs = oracle(&with_t);
    match ours {
        Ok(ms) => {
            assert_eq!(
                theirs,
                Some(i128::from(ms) * 1_000_000),
                "we read {text:?} as {ms} ms"
            );
            if let Some(time) = Rfc3339::new(ms) {
                assert_eq!(parse_rfc3339(&time.to_string()), Ok(ms), "{text:?}");
            }
        }
        Err(e) => {
            assert!(!e.to_string().is_empty(), "{text:?}");
            let Some(nanos) = theirs else { return };
            let documented = match e {
                Rfc3339Error::LeapSecond => true,
                Rfc3339Error::OutOfRange { value: 60, .. } => text.get(17..19) == Some("60"),
                Rfc3339Error::FinerThanMillisecond => {
                    nanos % 1_000_000 != 0 || finer_than_a_millisecond(text)
                }
                Rfc3339Error::BeforeUnixEpoch => nanos < 0,
                Rfc3339Error::Unexpected { position: 10, .. } => {
                    !matches!(separator, Some(b'T' | b't' | b' '))
                }
                _ => false,
            };
            assert!(
                documented,
                "the oracle reads {text:?} as {nanos} ns, we refuse it: {e:?} ({e})"
            );
        }
    }
}
