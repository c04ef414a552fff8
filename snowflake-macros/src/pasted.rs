//! The rules of `id`: a pasted ID, read by the runtime's own readers (`FromStr` for an
//! integer's digits, `from_base32` for a string, a kind's prefix by `kind!`'s rule), and
//! the fields stated beside it, held to it.

use proc_macro2::TokenStream;
use quote::ToTokens;
use snowflake_runtime::{Field, Snowflake};
use syn::Lit;

use crate::parse::Value;
use crate::vocab::{describe, is_bool};

/// The key of a pasted ID, and the flag that says an ID near the epoch is meant.
pub(crate) const ID: &str = "id";
pub(crate) const NEAR_EPOCH: &str = "near_epoch";

/// What `id` takes, for messages.
const EXPECTED: &str = "an ID: an integer literal in 0..=9223372036854775807, or a string of \
                        base32 (13 characters, after a kind's prefix and `_` if any)";

/// A pasted ID: the ID, the prefix of a typed base32 text, and the value as written.
pub(crate) struct Pasted {
    pub(crate) id: Snowflake,
    pub(crate) prefix: Option<String>,
    pub(crate) tokens: TokenStream,
}

/// An error under `tokens` that starts with the key `key`.
pub(crate) fn error(
    tokens: impl ToTokens,
    key: &str,
    message: impl std::fmt::Display,
) -> syn::Error {
    syn::Error::new_spanned(tokens, format!("`{key}`: {message}"))
}

/// `id`'s value.
pub(crate) fn pasted(value: &Value) -> syn::Result<Pasted> {
    let tokens = value.to_token_stream();
    let (id, prefix) = match value {
        Value::Lit(Lit::Int(lit)) => {
            match lit.suffix() {
                "" | "u64" | "i64" => {}
                suffix => {
                    return Err(error(
                        lit,
                        ID,
                        format!(
                            "unexpected suffix `{suffix}`; write an ID with none, `u64` or `i64`"
                        ),
                    ));
                }
            }
            // Any base, as Rust reads it; then the digits as `FromStr` reads an ID's.
            let id = lit
                .base10_digits()
                .parse::<Snowflake>()
                .map_err(|e| error(lit, ID, e))?;
            (id, None)
        }
        Value::Lit(Lit::Str(lit)) => {
            if !lit.suffix().is_empty() {
                return Err(error(
                    lit,
                    ID,
                    format!("unexpected suffix `{}` on the text", lit.suffix()),
                ));
            }
            base32(&lit.value()).map_err(|message| error(lit, ID, message))?
        }
        Value::Negative(tokens, Lit::Int(lit)) => {
            // The runtime's words for a negative BIGINT: the value and the range.
            let digits = lit.base10_digits();
            let message = match digits.parse::<i64>() {
                Ok(n) => Snowflake::try_from_i64(-n).map_or_else(
                    |e| e.to_string(),
                    |_| {
                        // `-0`: no sign is allowed, even on zero.
                        format!("-{digits} has a minus sign: an ID is in 0..={}", i64::MAX)
                    },
                ),
                Err(_) => format!("-{digits} is out of range: an ID is in 0..={}", i64::MAX),
            };
            return Err(error(tokens, ID, message));
        }
        Value::Other(tokens) if !is_bool(tokens) => {
            return Err(error(
                tokens,
                ID,
                format!(
                    "expected {EXPECTED}, found `{tokens}`; `snowflake!` takes literals, for \
                     run-time values call `Snowflake::try_from` or `Snowflake::from_base32`"
                ),
            ));
        }
        _ => {
            let found = describe(value);
            return Err(error(
                value,
                ID,
                format!("expected {EXPECTED}, found {found}"),
            ));
        }
    };
    Ok(Pasted { id, prefix, tokens })
}

/// A string's ID: 13 characters of base32 as `from_base32` reads them, after a kind's
/// prefix and `_` if the text has one. The message on failure, as the runtime words it.
fn base32(text: &str) -> Result<(Snowflake, Option<String>), String> {
    let Some(underscore) = text.rfind('_') else {
        return Snowflake::from_base32(text)
            .map(|id| (id, None))
            .map_err(|e| {
                let decimal = text.len() != 13
                    && !text.is_empty()
                    && text.bytes().all(|b| b.is_ascii_digit());
                if decimal {
                    format!("{e}; a decimal ID is written without quotes: `id = {text}`")
                } else {
                    e.to_string()
                }
            });
    };
    let prefix = &text[..underscore];
    if let Some(refusal) = snowflake_runtime::__private::prefix_refusal(prefix) {
        return Err(refusal.as_str().to_owned());
    }
    // The digits after it, their positions counted from the start of the text.
    let id = Snowflake::read_decimal_or_base32(text).map_err(|e| e.to_string())?;
    Ok((id, Some(prefix.to_owned())))
}

/// The ID's value of `field`, and how a message names it.
fn held(id: Snowflake, field: Field) -> (u64, &'static str) {
    let parts = id.parts();
    match field {
        Field::Timestamp => (parts.timestamp_ms, "time"),
        Field::Datacenter => (u64::from(parts.datacenter), "datacenter"),
        Field::Machine => (u64::from(parts.machine), "machine"),
        Field::Sequence => (u64::from(parts.sequence), "sequence"),
    }
}

/// A field stated beside a pasted ID: an error under its value unless it is the ID's.
pub(crate) fn hold(
    id: Snowflake,
    field: Field,
    stated: u64,
    tokens: &TokenStream,
) -> syn::Result<()> {
    let (value, name) = held(id, field);
    if value == stated {
        return Ok(());
    }
    let said = |ms: u64| match snowflake_runtime::rfc3339::Rfc3339::new(ms) {
        Some(date) => format!("{date} ({ms})"),
        None => ms.to_string(),
    };
    let message = match field {
        Field::Timestamp => format!("the ID's {name} is {}, not {}", said(value), said(stated)),
        _ => format!("the ID's {name} is {value}, not {stated}"),
    };
    Err(error(tokens, field.key(), message))
}

/// An ID near the epoch pasted without `near_epoch`, or `near_epoch` beside one that is not.
pub(crate) fn near_epoch(pasted: &Pasted, flag: Option<&TokenStream>) -> syn::Result<()> {
    let near = pasted.id.is_near_epoch();
    let time = pasted.id.rfc3339();
    match flag {
        None if near => Err(error(
            &pasted.tokens,
            ID,
            format!(
                "{} is within a day of the epoch ({time}): more likely no Snowflake (a count \
                 from 1, as tweets before 2010-11-04 and auto-increment keys are); if it is \
                 one, say so: `{NEAR_EPOCH}`",
                pasted.id
            ),
        )),
        Some(flag) if !near => Err(error(
            flag,
            NEAR_EPOCH,
            format!("the ID is not within a day of the epoch ({time}); leave it out"),
        )),
        _ => Ok(()),
    }
}
