//! [`Invocation`] -> the ID it names, or every error in it at once: the key dispatch.
//! The integer rules are in `integer.rs`, those of `ts` in `ts.rs`, the words they
//! share in `vocab.rs`.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use snowflake_runtime::{Field, Snowflake, compose};

use crate::integer::integer_field;
use crate::parse::{Arg, Invocation, Value};
use crate::pasted::{self, ID, NEAR_EPOCH, Pasted};
use crate::{ts, vocab};

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
enum Slot {
    /// Not written.
    Missing,
    /// Written, and wrong: the error is recorded.
    Invalid,
    /// Written and valid.
    Given(u64),
}

impl From<Option<u64>> for Slot {
    fn from(value: Option<u64>) -> Slot {
        value.map_or(Slot::Invalid, Slot::Given)
    }
}

/// What `expand` needs of a valid invocation.
pub(crate) struct Checked {
    pub(crate) id: Snowflake,
    /// `ts` was left out, so the ID depends on `SOURCE_DATE_EPOCH`.
    pub(crate) build_time: bool,
    /// The kind's prefix of a pasted base32 text.
    pub(crate) prefix: Option<String>,
}

/// What became of `id`.
enum Paste {
    /// Not written: the ID is composed.
    Absent,
    /// Written, and wrong: the error is recorded.
    Refused,
    Read(Pasted),
}

/// Every argument as far as it is valid: the four fields (with the tokens of each value
/// written, for errors about it), a pasted ID, and the `near_epoch` flag.
struct Arguments {
    slots: [Slot; 4],
    stated: [Option<TokenStream>; 4],
    pasted: Paste,
    near_epoch: Option<TokenStream>,
}

/// Validates every argument and composes the ID, or reads the pasted one and holds the
/// stated fields to it.
pub(crate) fn check(call: &Invocation) -> syn::Result<Checked> {
    let mut errors = Errors::default();
    let mut args = Arguments {
        slots: [Slot::Missing; 4],
        stated: Default::default(),
        pasted: Paste::Absent,
        near_epoch: None,
    };
    // In the order written, so that the errors come out in that order too.
    for arg in &call.args {
        for slip in &arg.slips {
            errors.push(slip.clone());
        }
        check_arg(arg, &mut args, &mut errors);
        for slip in &arg.slips_after {
            errors.push(slip.clone());
        }
    }
    match args.pasted {
        Paste::Absent => {}
        // Its error is recorded; the stated fields cannot be held to nothing.
        Paste::Refused => return Err(errors.0.unwrap_or_else(|| internal("`id` refused"))),
        Paste::Read(pasted) => {
            let near_epoch = args.near_epoch.as_ref();
            return check_pasted(pasted, &args.slots, &args.stated, near_epoch, errors);
        }
    }
    if let Some(flag) = &args.near_epoch {
        errors.push(pasted::error(
            flag,
            NEAR_EPOCH,
            "goes with a pasted ID, `id = ...`; a composed ID's time is the one stated",
        ));
    }
    let [ts, dc, machine, seq] = args.slots;
    let build_time = matches!(ts, Slot::Missing);
    let ts = match ts {
        Slot::Missing => errors.record(ts::build_time()).into(),
        other => other,
    };
    let mut required = |slot: Slot, field: Field| {
        if matches!(slot, Slot::Missing) {
            let message = format!("missing argument `{}`", field.key());
            errors.push(syn::Error::new(Span::call_site(), message));
        }
        slot
    };
    let dc = required(dc, Field::Datacenter);
    let machine = required(machine, Field::Machine);
    let seq = match seq {
        Slot::Missing => Slot::Given(0),
        other => other,
    };
    if let Some(errors) = errors.0 {
        return Err(errors);
    }
    match (ts, dc, machine, seq) {
        (Slot::Given(ts), Slot::Given(dc), Slot::Given(machine), Slot::Given(seq)) => {
            compose(ts, dc, machine, seq)
                .map(|id| Checked {
                    id,
                    build_time,
                    prefix: None,
                })
                .map_err(|e| syn::Error::new(Span::call_site(), format!("internal error: {e}")))
        }
        _ => Err(syn::Error::new(
            Span::call_site(),
            "internal error: a field has neither a value nor an error",
        )),
    }
}

/// A pasted ID: every field stated beside it is its own, and one near the epoch is meant.
fn check_pasted(
    pasted: Pasted,
    slots: &[Slot; 4],
    stated: &[Option<TokenStream>; 4],
    near_epoch: Option<&TokenStream>,
    mut errors: Errors,
) -> syn::Result<Checked> {
    errors.record(pasted::near_epoch(&pasted, near_epoch));
    for field in Field::ALL {
        if let (Slot::Given(value), Some(tokens)) = (slots[field as usize], &stated[field as usize])
        {
            errors.record(pasted::hold(pasted.id, field, value, tokens));
        }
    }
    match errors.0 {
        Some(errors) => Err(errors),
        None => Ok(Checked {
            id: pasted.id,
            build_time: false,
            prefix: pasted.prefix,
        }),
    }
}

/// An error that no input should bring: the fuzz target looks for these.
fn internal(what: &str) -> syn::Error {
    syn::Error::new(
        Span::call_site(),
        format!("internal error: {what} without an error"),
    )
}

/// Checks one argument's key and value, and records the value in `args`.
fn check_arg(arg: &Arg, args: &mut Arguments, errors: &mut Errors) {
    let Some(ident) = &arg.key else { return };
    // `r#ts` is `ts`.
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    let duplicate = || syn::Error::new(ident.span(), format!("duplicate argument `{name}`"));
    if name == ID {
        let pasted = arg
            .value
            .as_ref()
            .and_then(|value| errors.record(pasted::pasted(value)));
        if matches!(args.pasted, Paste::Absent) {
            args.pasted = pasted.map_or(Paste::Refused, Paste::Read);
        } else {
            errors.push(duplicate());
        }
        return;
    }
    if name == NEAR_EPOCH {
        match &arg.value {
            Some(value) => errors.push(pasted::error(
                value,
                NEAR_EPOCH,
                "is a word alone: `near_epoch`, without `=` and a value",
            )),
            None if args.near_epoch.is_some() => errors.push(duplicate()),
            None => args.near_epoch = Some(ident.to_token_stream()),
        }
        return;
    }
    match Field::from_key(&name) {
        None => {
            let hint = vocab::nearest(&name)
                .map(|field| format!("; did you mean `{}`?", field.key()))
                .unwrap_or_default();
            errors.push(syn::Error::new(
                ident.span(),
                format!(
                    "unknown argument `{name}`, expected `ts`, `dc`, `machine`, `seq`, or `id` \
                     for a pasted ID{hint}"
                ),
            ));
        }
        Some(field) if !matches!(args.slots[field as usize], Slot::Missing) => {
            errors.push(duplicate());
            // Its value too, so that deleting the first one brings no new error.
            if let Some(value) = &arg.value {
                errors.record(check_value(field, value));
            }
        }
        Some(field) => {
            args.slots[field as usize] = match &arg.value {
                // The slip says what is missing.
                None => Slot::Invalid,
                Some(value) => {
                    args.stated[field as usize] = Some(value.to_token_stream());
                    errors.record(check_value(field, value)).into()
                }
            };
        }
    }
}

fn check_value(field: Field, value: &Value) -> syn::Result<u64> {
    match field {
        Field::Timestamp => ts::timestamp(value),
        _ => integer_field(field, value),
    }
}
