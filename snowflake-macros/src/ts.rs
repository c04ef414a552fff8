//! The rules of `ts`: Unix ms, an RFC 3339 string (read by the runtime's one
//! reader), or, when left out, the build time.

use proc_macro2::Span;
use snowflake_runtime::rfc3339::Rfc3339;
use snowflake_runtime::{Clock, Field, SystemClock};
use syn::{Lit, LitStr};

use crate::integer::integer_field;
use crate::parse::Value;
use crate::vocab::{error, wrong_kind};

/// The variable an omitted `ts` is read from, in seconds, for reproducible builds.
pub(crate) const SOURCE_DATE_EPOCH: &str = "SOURCE_DATE_EPOCH";

/// `ts`: Unix ms, or a string read by the runtime's rule for timestamp text.
pub(crate) fn timestamp(value: &Value) -> syn::Result<u64> {
    match value {
        Value::Lit(Lit::Str(lit)) => text(lit),
        // `-"2022-..."`: a string, but not one to read.
        Value::Negative(_, Lit::Str(_)) => Err(wrong_kind(Field::Timestamp, value)),
        _ => integer_field(Field::Timestamp, value),
    }
}

/// A string `ts`: an RFC 3339 date with at most millisecond precision (or Unix ms in
/// digits), as the command and the server read it too.
fn text(lit: &LitStr) -> syn::Result<u64> {
    if !lit.suffix().is_empty() {
        return Err(error(
            lit,
            Field::Timestamp,
            format!("unexpected suffix `{}` on the date", lit.suffix()),
        ));
    }
    let text = lit.value();
    Field::Timestamp
        .parse(&text)
        .map_err(|e| error(lit, Field::Timestamp, e.with_input(&text)))
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
