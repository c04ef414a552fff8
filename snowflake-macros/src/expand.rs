//! `check`ed ID -> tokens.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use snowflake_runtime::Snowflake;

/// The constant expression for `id`: its number and its segmented binary,
/// both computed by the runtime, written as literals.
pub(crate) fn expand(krate: &TokenStream, id: Snowflake) -> TokenStream {
    let number = Literal::u64_suffixed(id.as_u64());
    let binary = id.segmented_binary().to_string();
    quote! {
        #krate::__private::BakedSnowflake::__from_checked(#number, #binary)
    }
}
