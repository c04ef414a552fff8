//! `check`ed ID -> tokens.

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;

use crate::check::Checked;
use crate::ts::SOURCE_DATE_EPOCH;

/// The constant expression for the ID: its number and its segmented binary,
/// both computed by the runtime, written as literals.
pub(crate) fn expand(krate: &TokenStream, checked: &Checked) -> TokenStream {
    let number = Literal::u64_suffixed(checked.id.as_u64());
    let binary = checked.id.segmented_binary().to_string();
    let baked = match &checked.prefix {
        None => quote! { #krate::__private::baked(#number, #binary) },
        Some(prefix) => quote! { #krate::__private::baked_with_prefix(#number, #binary, #prefix) },
    };
    if !checked.build_time {
        return baked;
    }
    // The ID depends on SOURCE_DATE_EPOCH. Cargo rebuilds a crate when a
    // variable that its expansion reads through `option_env!` changes, and
    // reads of a proc macro's own environment are not tracked on stable.
    quote! {{
        const _: ::core::option::Option<&str> = ::core::option_env!(#SOURCE_DATE_EPOCH);
        #baked
    }}
}

/// Every error as `::core::compile_error!` at the offending tokens, resolved
/// where the facade's `snowflake!` stands (edition 2024). Resolved at the
/// caller's tokens, `::core` in an edition 2015 crate means the crate root,
/// which has no `core`, and the message would be lost. Every token of a message
/// gets the same resolution, so that the underline still spans all of `-1`.
///
/// After the errors, a value of the call's own type: rustc reports only the errors either
/// way, but rust-analyzer would type a block of errors alone as `()` and report a second
/// error at `.id`, `.binary` or `.snowflake()` after the call. The value is never built:
/// the crate does not compile.
pub(crate) fn compile_errors(errors: syn::Error, krate: Option<&TokenStream>) -> TokenStream {
    let errors: TokenStream = errors
        .into_compile_error()
        .into_iter()
        .map(|mut tree| {
            tree.set_span(tree.span().resolved_at(Span::call_site()));
            tree
        })
        .collect();
    let value = krate.map(|krate| quote!(#krate::__private::baked(0, "")));
    // Keep the braces: several compile_error! calls must sit in one block
    // to be read as one expression, wherever the macro stands.
    quote!({ #errors #value })
}
