//! Command-line values -> numbers, with one-line errors that name the argument.

use std::ffi::OsString;

use sf::{ComposeError, Field};

/// Every bad argument of a command, so that all of them are reported at once.
#[derive(Default)]
pub(crate) struct Problems(pub(crate) Vec<String>);

impl Problems {
    /// The value, or `None` with its error written down.
    pub(crate) fn record<T>(&mut self, checked: Result<T, String>) -> Option<T> {
        checked.map_err(|message| self.0.push(message)).ok()
    }
}

/// The option that sets `field`.
fn flag(field: Field) -> &'static str {
    match field {
        Field::Timestamp => "--ts",
        Field::Datacenter => "--dc",
        Field::Machine => "--machine",
        Field::Sequence => "--seq",
    }
}

/// `--dc`, `--machine` or `--seq`: digits, checked against the field's range by the
/// runtime, with the check `compose` makes.
pub(crate) fn field(field: Field, text: &str) -> Result<u64, String> {
    let range = format!(" in {}..={}", field.min(), field.max());
    let value = number(flag(field), text, &range)?;
    field.check(value).map_err(|e| compose_error(&e))
}

/// A decimal integer: digits only, so `-1`, `+1` and `0x1F` are refused rather than
/// misread. `range` ends the message, such as ` in 0..=31`.
pub(crate) fn number(flag: &str, text: &str, range: &str) -> Result<u64, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "invalid {flag} {text:?}: expected a whole number of decimal digits{range}"
        ));
    }
    text.parse().map_err(|_| {
        format!("invalid {flag} {text:?}: larger than 64 bits; expected a whole number{range}")
    })
}

/// `--ts`: Unix milliseconds, or an RFC 3339 date read by the runtime.
pub(crate) fn timestamp(text: &str) -> Result<u64, String> {
    let range = format!("{}..={}", sf::TWITTER_EPOCH_MS, sf::MAX_TIMESTAMP_MS);
    let ms = match Number::read(text) {
        Some(Number::Digits) => text
            .parse()
            .map_err(|_| format!("out of range; expected Unix milliseconds in {range}")),
        Some(Number::Negative) => Err(format!("negative; expected Unix milliseconds in {range}")),
        Some(Number::Plus) => Err(format!(
            "a `+` sign; expected Unix milliseconds as digits only, in {range}"
        )),
        Some(Number::Fraction) => Err(format!(
            "not a whole number; expected Unix milliseconds in {range}"
        )),
        None => sf::parse_rfc3339(text).map_err(|e| match e {
            // The runtime's reason names 1970; what a snowflake holds is narrower.
            sf::Rfc3339Error::BeforeUnixEpoch => format!(
                "{e}; expected a date in {}..={}",
                sf::TWITTER_EPOCH_RFC3339,
                sf::MAX_TIMESTAMP_RFC3339
            ),
            e => e.to_string(),
        }),
    }
    .map_err(|why| format!("invalid --ts {text:?}: {why}"))?;
    Field::Timestamp.check(ms).map_err(|e| compose_error(&e))
}

/// What a `--ts` that is not a date looks like: `-1`, `+1`, `1.5`, or digits.
enum Number {
    Digits,
    Negative,
    Plus,
    Fraction,
}

impl Number {
    /// `[+-]digits[.digits]`, or `None` for anything else (a date, perhaps).
    fn read(text: &str) -> Option<Number> {
        let (sign, unsigned) = match text.as_bytes().first() {
            Some(b'-') => (Some(Number::Negative), &text[1..]),
            Some(b'+') => (Some(Number::Plus), &text[1..]),
            _ => (None, text),
        };
        let (whole, fraction) = match unsigned.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (unsigned, None),
        };
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() || !digits(whole) || !fraction.is_none_or(digits) {
            return None;
        }
        Some(match (sign, fraction) {
            (Some(sign), _) => sign,
            (None, Some(_)) => Number::Fraction,
            (None, None) => Number::Digits,
        })
    }
}

/// The argument that a compose error is about, and the runtime's own message.
pub(crate) fn compose_error(e: &ComposeError) -> String {
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
