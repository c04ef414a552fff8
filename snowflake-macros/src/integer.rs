//! The integer rules: `dc`, `machine`, `seq`, and `ts` given as a number. Any base,
//! `_` separators and an unsigned suffix are Rust's own; the range is the runtime's.

use quote::ToTokens;
use snowflake_runtime::rfc3339::Rfc3339;
use snowflake_runtime::{Field, FieldRangeError};
use syn::{Lit, LitInt};

use crate::parse::Value;
use crate::vocab::{allowed, error, expected_literal, is_bool, wrong_kind};

/// The field's value from an integer literal, checked against its range.
pub(crate) fn integer_field(field: Field, value: &Value) -> syn::Result<u64> {
    let lit = match value {
        Value::Lit(Lit::Int(lit)) => lit,
        Value::Negative(tokens, Lit::Int(lit))
            if lit.base10_digits().bytes().all(|b| b == b'0') =>
        {
            return Err(error(
                tokens,
                field,
                format!(
                    "`-{lit}` has a minus sign, which no field takes; {}",
                    allowed(field)
                ),
            ));
        }
        Value::Negative(tokens, lit @ (Lit::Int(_) | Lit::Float(_))) => {
            let written = lit.to_token_stream();
            return Err(error(
                tokens,
                field,
                format!("`-{written}` is negative; {}", allowed(field)),
            ));
        }
        Value::Other(tokens) if !is_bool(tokens) => {
            return Err(error(
                tokens,
                field,
                format!(
                    "expected {}, found `{tokens}`; `snowflake!` takes literals, for run-time \
                     values call `snowflake_kit::compose`",
                    expected_literal(field)
                ),
            ));
        }
        _ => return Err(wrong_kind(field, value)),
    };
    let value = unsigned(field, lit)?;
    field.check(value).map_err(|e| match e {
        FieldRangeError::TimestampBeforeEpoch(ms) | FieldRangeError::TimestampAfterMax(ms) => {
            let date = Rfc3339::new(ms)
                .map_or_else(|| "after the year 9999".to_owned(), |d| d.to_string());
            error(lit, field, format!("{e}; {ms} ms is {date}"))
        }
        _ => error(lit, field, e),
    })
}

/// The value of an integer literal, honouring its suffix: `300u8` is an error, as it is in Rust.
fn unsigned(field: Field, lit: &LitInt) -> syn::Result<u64> {
    let too_large = |ty: &str| {
        error(
            lit,
            field,
            format!(
                "{} does not fit in `{ty}`; {}",
                lit.base10_digits(),
                allowed(field)
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
                field,
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
