//! Command-line values -> numbers, with one-line errors that name the argument.

use std::time::{SystemTime, UNIX_EPOCH};

use sf::ComposeError;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::Failure;

/// A decimal integer: digits only, so `-1`, `+1` and `0x1F` are refused rather than misread.
pub(crate) fn number(arg: &str, text: &str) -> Result<u64, Failure> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Failure::Usage(format!(
            "invalid {arg} {text:?}: expected a whole number of decimal digits{}",
            range(arg)
        )));
    }
    text.parse().map_err(|_| {
        Failure::Usage(format!(
            "invalid {arg} {text:?}: larger than 64 bits; expected a whole number{}",
            range(arg)
        ))
    })
}

/// The values an argument takes, for messages.
fn range(arg: &str) -> String {
    match arg {
        "--dc" => format!(" in 0..={}", sf::MAX_DATACENTER),
        "--machine" => format!(" in 0..={}", sf::MAX_MACHINE),
        "--seq" => format!(" in 0..={}", sf::MAX_SEQUENCE),
        _ => String::new(),
    }
}

/// `--ts`: Unix milliseconds, or an RFC 3339 date with at most millisecond precision.
pub(crate) fn timestamp(text: &str) -> Result<u64, Failure> {
    if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() {
        return number("--ts", text);
    }
    let date = OffsetDateTime::parse(text, &Rfc3339).map_err(|e| {
        Failure::Usage(format!(
            "invalid --ts {text:?}: expected Unix milliseconds or an RFC 3339 date such as 2022-06-28T16:07:40.105Z ({e})"
        ))
    })?;
    let nanos = date.unix_timestamp_nanos();
    if nanos % 1_000_000 != 0 {
        return Err(Failure::Usage(format!(
            "invalid --ts {text:?}: finer than a millisecond; snowflake timestamps are whole milliseconds"
        )));
    }
    u64::try_from(nanos / 1_000_000).map_err(|_| {
        Failure::Usage(format!(
            "invalid --ts {text:?}: before the Twitter epoch ({}); expected {}..={} ms",
            sf::TWITTER_EPOCH_RFC3339,
            sf::TWITTER_EPOCH_MS,
            sf::MAX_TIMESTAMP_MS
        ))
    })
}

/// The argument that a compose error is about, and the runtime's own message.
pub(crate) fn compose_error(e: &ComposeError) -> String {
    let arg = match e {
        ComposeError::DatacenterOutOfRange(_) => "--dc",
        ComposeError::MachineOutOfRange(_) => "--machine",
        ComposeError::SequenceOutOfRange(_) => "--seq",
        _ => "--ts",
    };
    format!("{arg}: {e}")
}

/// Now, in Unix milliseconds.
pub(crate) fn now_ms() -> u64 {
    let since_1970 = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since_1970.as_millis()).unwrap_or(u64::MAX)
}
