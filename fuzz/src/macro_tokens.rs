//! The macro's parse and check on arbitrary token streams, outside the compiler
//! (proc-macro2's fallback): never a panic, every error with a span in the input.

use proc_macro2::TokenStream;

use crate::check::check;
use crate::expand::{compile_errors, expand};
use crate::parse::{Invocation, krate};

/// What `snowflake_kit::snowflake!` passes first.
const KRATE: &str = "[::snowflake_kit] ";

/// Errors that point at the whole invocation: nothing in it is wrong, something is not
/// there.
fn about_the_whole_call(message: &str) -> bool {
    message.starts_with("missing argument `")
}

/// The macro on `data` as its arguments (when UTF-8 that lexes as tokens, as rustc gives
/// a macro nothing else): an ID, or errors each pointing into the input; never a panic,
/// never an "internal error"; the expansion lexes again as tokens.
///
/// # Panics
///
/// When the macro panics or an error breaks that rule.
pub fn macro_tokens(data: &[u8]) {
    let Ok(args) = std::str::from_utf8(data) else {
        return;
    };
    let source = format!("{KRATE}{args}");
    let Ok(tokens) = source.parse::<TokenStream>() else {
        return;
    };
    let krate = krate(&tokens);
    let result = syn::parse2::<Invocation>(tokens)
        .and_then(|call| check(&call).map(|checked| (call, checked)));
    let output = match result {
        Ok((call, checked)) => {
            let id = checked.id;
            assert!(id.as_u64() <= snowflake_kit::Snowflake::MAX.as_u64());
            expand(&call.krate, &checked)
        }
        Err(errors) => {
            for error in errors.clone() {
                let message = error.to_string();
                assert!(!message.is_empty(), "{args:?}");
                assert!(!message.contains("internal error"), "{args:?}: {message}");
                // proc-macro2 keeps no span locations under `--cfg fuzzing`, which
                // `cargo afl build` sets: the spans are checked where the corpus is
                // replayed (`cargo test`), and on every input AFL++ keeps (scripts/fuzz.sh).
                let range = error.span().byte_range();
                if !cfg!(fuzzing) && !about_the_whole_call(&message) {
                    assert!(
                        range.start >= KRATE.len()
                            && range.end <= source.len()
                            && range.start < range.end,
                        "{args:?}: {message:?} points at {range:?}, outside the arguments"
                    );
                }
            }
            compile_errors(errors, krate.as_ref())
        }
    };
    let text = output.to_string();
    assert!(
        text.parse::<TokenStream>().is_ok(),
        "{args:?} expands to {text}"
    );
    // The fallback's spans live in a thread-local map that would grow with every input.
    proc_macro2::extra::invalidate_current_thread_spans();
}
