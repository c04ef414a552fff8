//! Command-line values -> numbers, with one-line errors that name the argument; the rules
//! and their words are the runtime's.

use std::ffi::OsString;

use snowflake_kit::{Field, FieldRangeError};

/// Every bad argument of a command, so that all of them are reported at once.
#[derive(Default)]
pub(crate) struct Problems(pub(crate) Vec<String>);

impl Problems {
    /// The value, or `None` with its error written down.
    pub(crate) fn record<T>(&mut self, checked: Result<T, String>) -> Option<T> {
        checked.map_err(|message| self.0.push(message)).ok()
    }
}

/// The option that sets `field`: `--` and the field's short key.
fn flag(field: Field) -> String {
    format!("--{}", field.key())
}

/// `--ts`, `--dc`, `--machine` or `--seq`: read and checked by the runtime's rule for
/// the field, with its words.
pub(crate) fn field(field: Field, text: &str) -> Result<u64, String> {
    field
        .parse(text)
        .map_err(|e| format!("{}: {}", flag(field), e.with_input(text)))
}

/// A count (`-n`): decimal digits, so `-1`, `+1` and `0x1F` are refused rather than
/// misread; the runtime's rule and words.
pub(crate) fn count(flag: &str, text: &str) -> Result<u64, String> {
    snowflake_kit::__private::parse_decimal(text).map_err(|e| format!("{flag} {text:?} is {e}"))
}

/// The argument that a compose error is about, and the runtime's own message.
pub(crate) fn range_error(e: &FieldRangeError) -> String {
    format!("{}: {e}", flag(e.field()))
}

/// The spelling of `generate`'s count option on the command line, `-n` or `--count`, so
/// that its errors name what was typed: clap keeps the value, not the spelling.
pub(crate) fn count_flag(args: impl IntoIterator<Item = OsString>) -> &'static str {
    let mut args = args.into_iter().skip_while(|arg| arg != "generate").skip(1);
    while let Some(arg) = args.next() {
        let arg = arg.as_encoded_bytes();
        if arg == b"--" {
            break;
        } else if arg == b"--count" || arg.starts_with(b"--count=") {
            return "--count";
        } else if arg.starts_with(b"-n") {
            return "-n";
        } else if arg == b"--dc" || arg == b"--machine" {
            // Its value, which may look like an option.
            args.next();
        }
    }
    "-n"
}
