//! The words the checks share: the keys (the runtime's [`Field::key`]s, with the names
//! people reach for instead) and how a message names a key, a value and what is allowed.

use std::fmt::Display;

use quote::ToTokens;
use snowflake_runtime::Field;
use syn::Lit;

use crate::parse::Value;

/// Names people reach for, and the field they mean.
const SYNONYMS: [(&str, Field); 12] = [
    ("timestamp", Field::Timestamp),
    ("time", Field::Timestamp),
    ("t", Field::Timestamp),
    ("datacenter", Field::Datacenter),
    ("datacenter_id", Field::Datacenter),
    ("data_center", Field::Datacenter),
    ("worker", Field::Machine),
    ("worker_id", Field::Machine),
    ("machine_id", Field::Machine),
    ("node", Field::Machine),
    ("sequence", Field::Sequence),
    ("sequence_id", Field::Sequence),
];

/// The field an unknown key most likely meant: a synonym, or the one key nearest by
/// edits, if near enough for the name's length (`mchine`, `dcc`; not `id` or `x`, which
/// are as near to several keys as to none).
pub(crate) fn nearest(name: &str) -> Option<Field> {
    let lower = name.to_ascii_lowercase();
    if let Some((_, field)) = SYNONYMS.into_iter().find(|(synonym, _)| *synonym == lower) {
        return Some(field);
    }
    let limit = (lower.chars().count() / 3).max(1);
    let mut near = Field::ALL
        .into_iter()
        .map(|field| (edit_distance(&lower, field.key()), field))
        .filter(|(distance, _)| *distance <= limit);
    let (mut best, field) = near.next()?;
    let mut chosen = Some(field);
    for (distance, field) in near {
        if distance < best {
            (best, chosen) = (distance, Some(field));
        } else if distance == best {
            chosen = None;
        }
    }
    chosen
}

/// Levenshtein distance, for suggestions among four short keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// What the key accepts, for messages: the runtime's words.
pub(crate) fn allowed(field: Field) -> String {
    format!("expected {}", field.expected())
}

/// What the key takes as a literal, for messages about a value of the wrong kind.
pub(crate) fn expected_literal(field: Field) -> String {
    match field {
        Field::Timestamp => format!(
            "an integer literal (Unix ms) in {}..={}, or an RFC 3339 string from \"{}\" to \"{}\"",
            field.min(),
            field.max(),
            snowflake_runtime::layout::TWITTER_EPOCH_RFC3339,
            snowflake_runtime::layout::MAX_TIMESTAMP_RFC3339
        ),
        _ => format!("an integer literal in {}..={}", field.min(), field.max()),
    }
}

/// An error under `tokens` that starts with the key.
pub(crate) fn error(tokens: impl ToTokens, field: Field, message: impl Display) -> syn::Error {
    syn::Error::new_spanned(tokens, format!("`{}`: {message}", field.key()))
}

/// What a value that is not an unsigned integer literal is, for messages:
/// `a string "1"`, `a boolean true`, `-"2022-..."` (a string with a minus sign).
pub(crate) fn describe(value: &Value) -> String {
    let kind = |lit: &Lit| match lit {
        Lit::Int(_) => "an integer",
        Lit::Float(_) => "a float",
        Lit::Str(_) => "a string",
        Lit::Char(_) => "a character",
        Lit::Byte(_) => "a byte",
        Lit::ByteStr(_) => "a byte string",
        Lit::CStr(_) => "a C string",
        Lit::Bool(_) => "a boolean",
        _ => "a literal",
    };
    let written = value.to_token_stream().to_string();
    match value {
        Value::Lit(lit) => format!("{} `{written}`", kind(lit)),
        Value::Negative(_, lit) => {
            format!(
                "`-{}` ({} with a minus sign)",
                lit.to_token_stream(),
                kind(lit)
            )
        }
        Value::Other(tokens) if is_bool(tokens) => format!("a boolean `{written}`"),
        Value::Other(_) => format!("`{written}`"),
    }
}

/// `true` or `false`, which reach the macro as identifiers.
pub(crate) fn is_bool(tokens: &proc_macro2::TokenStream) -> bool {
    let text = tokens.to_string();
    text == "true" || text == "false"
}

/// A literal of the wrong kind, or a boolean.
pub(crate) fn wrong_kind(field: Field, value: &Value) -> syn::Error {
    error(
        value,
        field,
        format!(
            "expected {}, found {}",
            expected_literal(field),
            describe(value)
        ),
    )
}
