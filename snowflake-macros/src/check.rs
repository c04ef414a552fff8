//! [`Invocation`] -> the ID it names, or every error in it at once: the key
//! dispatch and the integer rules. The rules of `ts` are in `ts.rs`.

use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;
use snowflake_runtime::{
    ComposeError, MAX_TIMESTAMP_MS, Rfc3339, Snowflake, TWITTER_EPOCH_MS, compose,
};
use syn::{Lit, LitInt};

use crate::parse::{Arg, Invocation, Value};
use crate::ts;

/// The four keys, in the order of the layout.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Key {
    Ts,
    Dc,
    Machine,
    Seq,
}

const KEYS: [Key; 4] = [Key::Ts, Key::Dc, Key::Machine, Key::Seq];

/// Names people reach for, and the key they mean.
const SYNONYMS: [(&str, Key); 12] = [
    ("timestamp", Key::Ts),
    ("time", Key::Ts),
    ("t", Key::Ts),
    ("datacenter", Key::Dc),
    ("datacenter_id", Key::Dc),
    ("data_center", Key::Dc),
    ("worker", Key::Machine),
    ("worker_id", Key::Machine),
    ("machine_id", Key::Machine),
    ("node", Key::Machine),
    ("sequence", Key::Seq),
    ("sequence_id", Key::Seq),
];

impl Key {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Key::Ts => "ts",
            Key::Dc => "dc",
            Key::Machine => "machine",
            Key::Seq => "seq",
        }
    }

    /// The runtime's field that the key sets.
    pub(crate) fn field(self) -> snowflake_runtime::Field {
        use snowflake_runtime::Field;
        match self {
            Key::Ts => Field::Timestamp,
            Key::Dc => Field::Datacenter,
            Key::Machine => Field::Machine,
            Key::Seq => Field::Sequence,
        }
    }

    fn from_name(name: &str) -> Option<Key> {
        KEYS.into_iter().find(|key| key.name() == name)
    }

    /// The key an unknown name most likely meant: a synonym, or the one key
    /// nearest by edits, if near enough for the name's length (`mchine`, `dcc`;
    /// not `id` or `x`, which are as near to several keys as to none).
    fn nearest(name: &str) -> Option<Key> {
        let lower = name.to_ascii_lowercase();
        if let Some((_, key)) = SYNONYMS.into_iter().find(|(synonym, _)| *synonym == lower) {
            return Some(key);
        }
        let limit = (lower.chars().count() / 3).max(1);
        let mut near = KEYS
            .into_iter()
            .map(|key| (edit_distance(&lower, key.name()), key))
            .filter(|(distance, _)| *distance <= limit);
        let (best, key) = near.next()?;
        let mut chosen = Some(key);
        let mut best = best;
        for (distance, key) in near {
            if distance < best {
                (best, chosen) = (distance, Some(key));
            } else if distance == best {
                chosen = None;
            }
        }
        chosen
    }

    /// What the key accepts, for messages.
    pub(crate) fn allowed(self) -> String {
        match self {
            Key::Ts => format!(
                "expected Unix ms in {TWITTER_EPOCH_MS}..={MAX_TIMESTAMP_MS}, or an RFC 3339 \
                 string from {} to {}",
                snowflake_runtime::TWITTER_EPOCH_RFC3339,
                snowflake_runtime::MAX_TIMESTAMP_RFC3339
            ),
            Key::Dc | Key::Machine | Key::Seq => format!("expected 0..={}", self.field().max()),
        }
    }

    /// What the key takes, for messages about a value of the wrong kind.
    pub(crate) fn expected(self) -> String {
        match self {
            Key::Ts => format!(
                "an integer literal (Unix ms) in {TWITTER_EPOCH_MS}..={MAX_TIMESTAMP_MS}, or an \
                 RFC 3339 string from \"{}\" to \"{}\"",
                snowflake_runtime::TWITTER_EPOCH_RFC3339,
                snowflake_runtime::MAX_TIMESTAMP_RFC3339
            ),
            Key::Dc | Key::Machine | Key::Seq => {
                format!("an integer literal in 0..={}", self.field().max())
            }
        }
    }
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

/// Every error of one invocation, merged into one `syn::Error`.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(errors) => errors.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// Records `result`'s error, if any, and passes its value on.
    fn record<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }
}

/// What became of one key's value.
#[derive(Clone, Copy)]
enum Field {
    /// Not written.
    Missing,
    /// Written, and wrong: the error is recorded.
    Invalid,
    /// Written and valid.
    Given(u64),
}

impl From<Option<u64>> for Field {
    fn from(value: Option<u64>) -> Field {
        value.map_or(Field::Invalid, Field::Given)
    }
}

/// What `expand` needs of a valid invocation.
pub(crate) struct Checked {
    pub(crate) id: Snowflake,
    /// `ts` was left out, so the ID depends on `SOURCE_DATE_EPOCH`.
    pub(crate) build_time: bool,
}

/// Validates every argument and composes the ID.
pub(crate) fn check(call: &Invocation) -> syn::Result<Checked> {
    let mut errors = Errors::default();
    let mut fields = [Field::Missing; 4];
    // In the order written, so that the errors come out in that order too.
    for arg in &call.args {
        for slip in &arg.slips {
            errors.push(slip.clone());
        }
        check_arg(arg, &mut fields, &mut errors);
        for slip in &arg.slips_after {
            errors.push(slip.clone());
        }
    }
    let [ts, dc, machine, seq] = fields;
    let build_time = matches!(ts, Field::Missing);
    let ts = match ts {
        Field::Missing => errors.record(ts::build_time()).into(),
        other => other,
    };
    let mut required = |field: Field, key: Key| {
        if matches!(field, Field::Missing) {
            let message = format!("missing argument `{}`", key.name());
            errors.push(syn::Error::new(Span::call_site(), message));
        }
        field
    };
    let dc = required(dc, Key::Dc);
    let machine = required(machine, Key::Machine);
    let seq = match seq {
        Field::Missing => Field::Given(0),
        other => other,
    };
    if let Some(errors) = errors.0 {
        return Err(errors);
    }
    match (ts, dc, machine, seq) {
        (Field::Given(ts), Field::Given(dc), Field::Given(machine), Field::Given(seq)) => {
            compose(ts, dc, machine, seq)
                .map(|id| Checked { id, build_time })
                .map_err(|e| syn::Error::new(Span::call_site(), format!("internal error: {e}")))
        }
        _ => Err(syn::Error::new(
            Span::call_site(),
            "internal error: a field has neither a value nor an error",
        )),
    }
}

/// Checks one argument's key and value, and records the value in `fields`.
fn check_arg(arg: &Arg, fields: &mut [Field; 4], errors: &mut Errors) {
    let Some(ident) = &arg.key else { return };
    // `r#ts` is `ts`.
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    match Key::from_name(&name) {
        None => {
            let hint = Key::nearest(&name)
                .map(|key| format!("; did you mean `{}`?", key.name()))
                .unwrap_or_default();
            errors.push(syn::Error::new(
                ident.span(),
                format!("unknown argument `{name}`, expected `ts`, `dc`, `machine` or `seq`{hint}"),
            ));
        }
        Some(key) if !matches!(fields[key as usize], Field::Missing) => {
            errors.push(syn::Error::new(
                ident.span(),
                format!("duplicate argument `{name}`"),
            ));
            // Its value too, so that deleting the first one brings no new error.
            if let Some(value) = &arg.value {
                errors.record(check_value(key, value));
            }
        }
        Some(key) => {
            fields[key as usize] = match &arg.value {
                // The slip says what is missing.
                None => Field::Invalid,
                Some(value) => errors.record(check_value(key, value)).into(),
            };
        }
    }
}

fn check_value(key: Key, value: &Value) -> syn::Result<u64> {
    match key {
        Key::Ts => ts::timestamp(value),
        _ => integer_field(key, value),
    }
}

/// An error under `tokens` that starts with the key's name.
pub(crate) fn error(tokens: impl ToTokens, key: Key, message: impl Display) -> syn::Error {
    syn::Error::new_spanned(tokens, format!("`{}`: {message}", key.name()))
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

fn is_bool(tokens: &proc_macro2::TokenStream) -> bool {
    let text = tokens.to_string();
    text == "true" || text == "false"
}

/// A literal of the wrong kind, or a boolean.
pub(crate) fn wrong_kind(key: Key, value: &Value) -> syn::Error {
    error(
        value,
        key,
        format!("expected {}, found {}", key.expected(), describe(value)),
    )
}

/// `dc`, `machine`, `seq`, or `ts` given as a number.
pub(crate) fn integer_field(key: Key, value: &Value) -> syn::Result<u64> {
    let lit = match value {
        Value::Lit(Lit::Int(lit)) => lit,
        Value::Negative(tokens, Lit::Int(lit))
            if lit.base10_digits().bytes().all(|b| b == b'0') =>
        {
            return Err(error(
                tokens,
                key,
                format!(
                    "`-{lit}` has a minus sign, which no field takes; {}",
                    key.allowed()
                ),
            ));
        }
        Value::Negative(tokens, lit @ (Lit::Int(_) | Lit::Float(_))) => {
            let written = lit.to_token_stream();
            return Err(error(
                tokens,
                key,
                format!("`-{written}` is negative; {}", key.allowed()),
            ));
        }
        Value::Other(tokens) if !is_bool(tokens) => {
            return Err(error(
                tokens,
                key,
                format!(
                    "expected {}, found `{tokens}`; `snowflake!` takes literals, for run-time \
                     values call `snowflake_kit::compose`",
                    key.expected()
                ),
            ));
        }
        _ => return Err(wrong_kind(key, value)),
    };
    let value = unsigned(key, lit)?;
    key.field().check(value).map_err(|e| match e {
        ComposeError::TimestampBeforeEpoch(ms) | ComposeError::TimestampAfterMax(ms) => {
            let date = Rfc3339::new(ms)
                .map_or_else(|| "after the year 9999".to_owned(), |d| d.to_string());
            error(lit, key, format!("{e}; {ms} ms is {date}"))
        }
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
