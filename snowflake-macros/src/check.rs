//! [`Invocation`] -> the ID it names, or every error in it at once: the key dispatch.
//! The integer rules are in `integer.rs`, those of `ts` in `ts.rs`, the words they
//! share in `vocab.rs`.

use proc_macro2::Span;
use snowflake_runtime::{Field, Snowflake, compose};

use crate::integer::integer_field;
use crate::parse::{Arg, Invocation, Value};
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
}

/// Validates every argument and composes the ID.
pub(crate) fn check(call: &Invocation) -> syn::Result<Checked> {
    let mut errors = Errors::default();
    let mut slots = [Slot::Missing; 4];
    // In the order written, so that the errors come out in that order too.
    for arg in &call.args {
        for slip in &arg.slips {
            errors.push(slip.clone());
        }
        check_arg(arg, &mut slots, &mut errors);
        for slip in &arg.slips_after {
            errors.push(slip.clone());
        }
    }
    let [ts, dc, machine, seq] = slots;
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
                .map(|id| Checked { id, build_time })
                .map_err(|e| syn::Error::new(Span::call_site(), format!("internal error: {e}")))
        }
        _ => Err(syn::Error::new(
            Span::call_site(),
            "internal error: a field has neither a value nor an error",
        )),
    }
}

/// Checks one argument's key and value, and records the value in `slots`.
fn check_arg(arg: &Arg, slots: &mut [Slot; 4], errors: &mut Errors) {
    let Some(ident) = &arg.key else { return };
    // `r#ts` is `ts`.
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    match Field::from_key(&name) {
        None => {
            let hint = vocab::nearest(&name)
                .map(|field| format!("; did you mean `{}`?", field.key()))
                .unwrap_or_default();
            errors.push(syn::Error::new(
                ident.span(),
                format!("unknown argument `{name}`, expected `ts`, `dc`, `machine` or `seq`{hint}"),
            ));
        }
        Some(field) if !matches!(slots[field as usize], Slot::Missing) => {
            errors.push(syn::Error::new(
                ident.span(),
                format!("duplicate argument `{name}`"),
            ));
            // Its value too, so that deleting the first one brings no new error.
            if let Some(value) = &arg.value {
                errors.record(check_value(field, value));
            }
        }
        Some(field) => {
            slots[field as usize] = match &arg.value {
                // The slip says what is missing.
                None => Slot::Invalid,
                Some(value) => errors.record(check_value(field, value)).into(),
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
