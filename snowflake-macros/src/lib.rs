//! Internal to `snowflake-kit`: the proc macro behind `snowflake_kit::snowflake!`.
//! Depend on the facade crate, not on this one; nothing here is a stable API.
//!
//! The macro works in three steps, a module each: `parse` reads the tokens,
//! `check` validates every argument (collecting all errors), `expand`
//! writes the constant. The format itself comes from `snowflake_runtime`.

mod check;
mod expand;
mod parse;

use proc_macro2::TokenStream;
use quote::quote;

/// Not API: call `snowflake_kit::snowflake!`, which passes its own path in `[...]` first.
#[doc(hidden)]
#[proc_macro]
pub fn snowflake_impl(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    snowflake(input.into()).into()
}

/// The whole macro on `proc_macro2` tokens, so that unit tests can drive it.
fn snowflake(input: TokenStream) -> TokenStream {
    let result = syn::parse2::<parse::Invocation>(input)
        .and_then(|call| check::check(&call).map(|id| expand::expand(&call.krate, id)));
    match result {
        Ok(tokens) => tokens,
        Err(errors) => {
            // Keep the braces: several compile_error! calls must sit in one block
            // to be read as one expression, wherever the macro stands.
            let errors = errors.into_compile_error();
            quote!({ #errors })
        }
    }
}

#[cfg(test)]
mod tests;
