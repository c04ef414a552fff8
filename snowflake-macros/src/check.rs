//! [`Invocation`] -> the ID it names, or every error in it at once.

use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;
use snowflake_runtime::{
    ComposeError, MAX_DATACENTER, MAX_MACHINE, MAX_SEQUENCE, MAX_TIMESTAMP_MS,
    MAX_TIMESTAMP_RFC3339, Snowflake, TWITTER_EPOCH_MS, TWITTER_EPOCH_RFC3339, compose,
};
use syn::{Lit, LitInt, LitStr};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::parse::{Invocation, Value};

/// The four keys, in the order of the layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Key {
    Ts,
    Dc,
    Machine,
    Seq,
}

const KEYS: [Key; 4] = [Key::Ts, Key::Dc, Key::Machine, Key::Seq];

impl Key {
    fn name(self) -> &'static str {
        match self {
            Key::Ts => "ts",
            Key::Dc => "dc",
            Key::Machine => "machine",
            Key::Seq => "seq",
        }
    }

    fn from_name(name: &str) -> Option<Key> {
        KEYS.into_iter().find(|key| key.name() == name)
    }

    /// What the key accepts, for messages.
    fn allowed(self) -> String {
        match self {
            Key::Ts => format!(
                "expected Unix ms in {TWITTER_EPOCH_MS}..={MAX_TIMESTAMP_MS}, or an RFC 3339 \
                 string from {TWITTER_EPOCH_RFC3339} to {MAX_TIMESTAMP_RFC3339}"
            ),
            Key::Dc => format!("expected 0..={MAX_DATACENTER}"),
            Key::Machine => format!("expected 0..={MAX_MACHINE}"),
            Key::Seq => format!("expected 0..={MAX_SEQUENCE}"),
        }
    }

    /// Checks one value against its field's range with the runtime's own
    /// `compose`, the other fields set to their smallest valid values.
    fn check_range(self, value: u64) -> Result<u64, ComposeError> {
        let (ts, dc, machine, seq) = match self {
            Key::Ts => (value, 0, 0, 0),
            Key::Dc => (TWITTER_EPOCH_MS, value, 0, 0),
            Key::Machine => (TWITTER_EPOCH_MS, 0, value, 0),
            Key::Seq => (TWITTER_EPOCH_MS, 0, 0, value),
        };
        compose(ts, dc, machine, seq).map(|_| value)
    }
}

/// Every error of one invocation, merged into one `syn::Error`.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(errors) => errors.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// Records `result`'s error, if any, and passes its value on.
    fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }
}

/// Validates every argument and composes the ID.
pub(crate) fn check(call: &Invocation) -> syn::Result<Snowflake> {
    let mut errors = Errors::default();
    // Each key's value, once given: `None` inside when it is wrong (and reported).
    let mut values: [Option<Option<u64>>; 4] = [None; 4];
    // In the order written, so that the errors come out in that order too.
    for arg in &call.args {
        let name = arg.key.to_string();
        match Key::from_name(&name) {
            None => errors.push(syn::Error::new(
                arg.key.span(),
                format!("unknown argument `{name}`, expected `ts`, `dc`, `machine` or `seq`"),
            )),
            Some(key) if values[key as usize].is_some() => {
                errors.push(syn::Error::new(
                    arg.key.span(),
                    format!("duplicate argument `{name}`"),
                ));
            }
            Some(key) => {
                let value = match key {
                    Key::Ts => timestamp(&arg.value),
                    _ => integer_field(key, &arg.value),
                };
                values[key as usize] = Some(errors.take(value));
            }
        }
    }
    let [ts, dc, machine, seq] = values;
    let ts = ts.unwrap_or_else(|| errors.take(build_time()));
    let mut missing = |key: Key| {
        let message = format!("missing argument `{}`", key.name());
        errors.push(syn::Error::new(Span::call_site(), message));
        None
    };
    let dc = dc.unwrap_or_else(|| missing(Key::Dc));
    let machine = machine.unwrap_or_else(|| missing(Key::Machine));
    let seq = seq.unwrap_or(Some(0));
    if let Some(errors) = errors.0 {
        return Err(errors);
    }
    match (ts, dc, machine, seq) {
        (Some(ts), Some(dc), Some(machine), Some(seq)) => compose(ts, dc, machine, seq)
            .map_err(|e| syn::Error::new(Span::call_site(), format!("internal error: {e}"))),
        _ => Err(syn::Error::new(
            Span::call_site(),
            "internal error: a field has neither a value nor an error",
        )),
    }
}

/// An error under `tokens` that starts with the key's name.
fn error(tokens: impl ToTokens, key: Key, message: impl Display) -> syn::Error {
    syn::Error::new_spanned(tokens, format!("`{}`: {message}", key.name()))
}

/// `dc`, `machine`, `seq`, or `ts` given as a number.
fn integer_field(key: Key, value: &Value) -> syn::Result<u64> {
    let lit = match value {
        Value::Lit(Lit::Int(lit)) => lit,
        Value::Negative(tokens, lit @ (Lit::Int(_) | Lit::Float(_))) => {
            let written = lit.to_token_stream();
            return Err(error(
                tokens,
                key,
                format!("`-{written}` is negative; {}", key.allowed()),
            ));
        }
        Value::Lit(lit) | Value::Negative(_, lit) => {
            let kind = match lit {
                Lit::Float(_) => "a float",
                Lit::Str(_) => "a string",
                Lit::Char(_) => "a character",
                Lit::Byte(_) => "a byte",
                Lit::ByteStr(_) => "a byte string",
                Lit::CStr(_) => "a C string",
                _ => "a literal",
            };
            let wanted = if key == Key::Ts {
                "an integer literal (Unix ms) or an RFC 3339 string"
            } else {
                "an integer literal"
            };
            let written = value.to_token_stream();
            return Err(error(
                value,
                key,
                format!("expected {wanted}, found {kind} `{written}`"),
            ));
        }
        Value::Other(tokens) => {
            return Err(error(
                tokens,
                key,
                format!(
                    "expected an integer literal, found `{tokens}`; `snowflake!` takes literals, \
                     for run-time values call `snowflake_kit::compose`"
                ),
            ));
        }
    };
    let value = unsigned(key, lit)?;
    key.check_range(value).map_err(|e| match e {
        ComposeError::TimestampBeforeEpoch(ms) | ComposeError::TimestampAfterMax(ms) => error(
            lit,
            key,
            format!("{e}; {ms} ms is {}", rfc3339(i128::from(ms))),
        ),
        _ => error(lit, key, e),
    })
}

/// The value of an integer literal, honouring its suffix: `300u8` is an error, as it is in Rust.
fn unsigned(key: Key, lit: &LitInt) -> syn::Result<u64> {
    let too_large = |ty: &str| {
        error(
            lit,
            key,
            format!(
                "{} does not fit in `{ty}`; {}",
                lit.base10_digits(),
                key.allowed()
            ),
        )
    };
    let bits = match lit.suffix() {
        "" | "u64" | "u128" | "usize" => 64,
        "u8" => 8,
        "u16" => 16,
        "u32" => 32,
        suffix => {
            return Err(error(
                lit,
                key,
                format!(
                    "unexpected suffix `{suffix}`; use none or an unsigned integer type such as `u64`"
                ),
            ));
        }
    };
    let value: u64 = lit.base10_digits().parse().map_err(|_| too_large("u64"))?;
    if bits < 64 && value >> bits != 0 {
        return Err(too_large(lit.suffix()));
    }
    Ok(value)
}

/// `ts`: Unix ms, or an RFC 3339 string.
fn timestamp(value: &Value) -> syn::Result<u64> {
    match value {
        Value::Lit(Lit::Str(lit)) => date(lit),
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
    let date = OffsetDateTime::parse(&text, &Rfc3339).map_err(|e| {
        error(
            lit,
            Key::Ts,
            format!(
                "{text:?} is not an RFC 3339 date ({e}); expected e.g. \"2022-06-28T16:07:40.105Z\""
            ),
        )
    })?;
    let nanos = date.unix_timestamp_nanos();
    if nanos % 1_000_000 != 0 {
        return Err(error(
            lit,
            Key::Ts,
            format!(
                "{text:?} is finer than a millisecond; snowflake timestamps are whole milliseconds"
            ),
        ));
    }
    let ms = nanos.div_euclid(1_000_000);
    let message = match u64::try_from(ms) {
        Ok(ms) => match Key::Ts.check_range(ms) {
            Ok(ms) => return Ok(ms),
            Err(e) => format!("{e}; {text:?} is {ms} ms"),
        },
        // Before 1970 the milliseconds are negative, which no `u64` (and so no `compose`) takes.
        Err(_) => format!(
            "{text:?} is {ms} ms, before the Twitter epoch ({TWITTER_EPOCH_RFC3339}); {}",
            Key::Ts.allowed()
        ),
    };
    Err(error(lit, Key::Ts, message))
}

/// The build time for an omitted `ts`: `SOURCE_DATE_EPOCH` (seconds) when set, for reproducible builds.
fn build_time() -> syn::Result<u64> {
    let source_date_epoch = std::env::var("SOURCE_DATE_EPOCH").ok();
    build_time_from(source_date_epoch.as_deref(), std::time::SystemTime::now())
        .map_err(|message| syn::Error::new(Span::call_site(), message))
}

/// [`build_time`] with its inputs passed in, for tests.
pub(crate) fn build_time_from(
    source_date_epoch: Option<&str>,
    now: std::time::SystemTime,
) -> Result<u64, String> {
    let ms = match source_date_epoch {
        Some(text) => text
            .trim()
            .parse::<u64>()
            .ok()
            .and_then(|seconds| seconds.checked_mul(1000))
            .ok_or_else(|| format!("`ts` left out and `SOURCE_DATE_EPOCH` is {text:?}, not whole seconds since 1970"))?,
        None => now
            .duration_since(std::time::UNIX_EPOCH)
            .ok()
            .and_then(|now| u64::try_from(now.as_millis()).ok())
            .ok_or("`ts` left out and the system clock is before 1970")?,
    };
    Key::Ts.check_range(ms).map_err(|e| {
        format!(
            "`ts` left out, so the build time ({}): {e}",
            rfc3339(i128::from(ms))
        )
    })
}

/// Unix ms as an RFC 3339 date in UTC with milliseconds, for messages.
pub(crate) fn rfc3339(ms: i128) -> String {
    match OffsetDateTime::from_unix_timestamp_nanos(ms * 1_000_000) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            t.year(),
            u8::from(t.month()),
            t.day(),
            t.hour(),
            t.minute(),
            t.second(),
            t.millisecond()
        ),
        Err(_) => "a date outside years -9999..=9999".to_owned(),
    }
}
