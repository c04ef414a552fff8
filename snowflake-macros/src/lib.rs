//! Internal to `snowflake-kit`: the proc macro behind `snowflake_kit::snowflake!`.
//! Depend on the facade crate, not on this one; nothing here is a stable API.
//!
//! A call in the plain form, as nearly every call is written, is expanded by `fast`
//! without syn; any other, and every mistake, takes the full path. That works in three
//! steps, a module each: `parse` reads the tokens,
//! `check` validates every argument (collecting all errors; the integer rules are
//! in `integer`, those of `ts` in `ts`, the words they share in `vocab`), `expand`
//! writes the constant. The format itself, its keys and dates included, comes from
//! `snowflake_runtime`.

mod check;
mod expand;
mod fast;
mod integer;
mod parse;
mod pasted;
mod ts;
mod vocab;

use proc_macro2::TokenStream;

/// Not API: call `snowflake_kit::snowflake!`, which passes its own path in `[...]` first.
#[doc(hidden)]
#[proc_macro]
pub fn snowflake_impl(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    fast::compiler::expand(&input).unwrap_or_else(|| full(input.into()).into())
}

/// The whole macro on `proc_macro2` tokens, so that unit tests can drive it.
#[cfg(test)]
fn snowflake(input: TokenStream) -> TokenStream {
    fast::fallback::expand(&input).unwrap_or_else(|| full(input))
}

/// The full reader: every form, every error.
fn full(input: TokenStream) -> TokenStream {
    // Read apart from the arguments, so that a call whose arguments do not parse still
    // expands to a value of its type beside its errors.
    let krate = parse::krate(&input);
    let result = syn::parse2::<parse::Invocation>(input)
        .and_then(|call| check::check(&call).map(|checked| expand::expand(&call.krate, &checked)));
    result.unwrap_or_else(|errors| expand::compile_errors(errors, krate.as_ref()))
}

#[cfg(test)]
mod tests;
