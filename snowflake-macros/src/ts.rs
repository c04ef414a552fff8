//! The rules of `ts`: Unix ms, an RFC 3339 string (read by the runtime's one
//! reader), or, when left out, the build time.

use proc_macro2::Span;
use snowflake_runtime::{Clock, Field, Rfc3339, Rfc3339Error, SystemClock, parse_rfc3339};
use syn::{Lit, LitStr};

use crate::check::{Key, error, integer_field, wrong_kind};
use crate::parse::Value;

/// The variable an omitted `ts` is read from, in seconds, for reproducible builds.
pub(crate) const SOURCE_DATE_EPOCH: &str = "SOURCE_DATE_EPOCH";

/// `ts`: Unix ms, or an RFC 3339 string.
pub(crate) fn timestamp(value: &Value) -> syn::Result<u64> {
    match value {
        Value::Lit(Lit::Str(lit)) => date(lit),
        // `-"2022-..."`: a string, but not one to read.
        Value::Negative(_, Lit::Str(_)) => Err(wrong_kind(Key::Ts, value)),
        _ => integer_field(Key::Ts, value),
    }
}

/// An RFC 3339 date with at most millisecond precision, as Unix ms.
fn date(lit: &LitStr) -> syn::Result<u64> {
    let text = lit.value();
    if !lit.suffix().is_empty() {
        return Err(error(
            lit,
            Key::Ts,
            format!("unexpected suffix `{}` on the date", lit.suffix()),
        ));
    }
    let ms = parse_rfc3339(&text).map_err(|e| {
        let message = match e {
            // RFC 3339 dates, but not ones a snowflake can carry.
            Rfc3339Error::LeapSecond | Rfc3339Error::FinerThanMillisecond => {
                format!("{text:?}: {e}")
            }
            Rfc3339Error::BeforeUnixEpoch => format!(
                "{text:?} is before 1970, and so before the Twitter epoch ({}); {}",
                snowflake_runtime::TWITTER_EPOCH_RFC3339,
                Key::Ts.allowed()
            ),
            _ => format!(
                "{text:?} is not an RFC 3339 date: {e}; expected e.g. \"2022-06-28T16:07:40.105Z\""
            ),
        };
        error(lit, Key::Ts, message)
    })?;
    Field::Timestamp
        .check(ms)
        .map_err(|e| error(lit, Key::Ts, format!("{e}; {text:?} is {ms} ms")))
}

/// The build time for an omitted `ts`: `SOURCE_DATE_EPOCH` (seconds) when set.
pub(crate) fn build_time() -> syn::Result<u64> {
    let source_date_epoch = std::env::var(SOURCE_DATE_EPOCH).ok();
    build_time_from(source_date_epoch.as_deref(), &SystemClock)
        .map_err(|message| syn::Error::new(Span::call_site(), message))
}

/// [`build_time`] with its inputs passed in, for tests.
pub(crate) fn build_time_from(
    source_date_epoch: Option<&str>,
    clock: &impl Clock,
) -> Result<u64, String> {
    let ms = match source_date_epoch {
        Some(text) => text
            .trim()
            .parse::<u64>()
            .ok()
            .and_then(|seconds| seconds.checked_mul(1000))
            .ok_or_else(|| {
                format!(
                    "`ts` left out and `{SOURCE_DATE_EPOCH}` is {text:?}, not whole seconds since 1970"
                )
            })?,
        None => clock.now_ms(),
    };
    Field::Timestamp.check(ms).map_err(|e| {
        let date = Rfc3339::new(ms).map_or_else(|| format!("{ms} ms"), |d| d.to_string());
        format!("`ts` left out, so the build time ({date}): {e}")
    })
}
