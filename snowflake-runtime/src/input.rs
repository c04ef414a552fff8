//! For front ends that read what a person typed: a command's flags, a form's fields, a
//! query string. [`Field::parse`](crate::Field::parse) reads a field of an ID; this
//! module has what its errors are made of, and the rule for the other numbers a front end
//! reads (a count, a number of seconds), so that every front end refuses the same text
//! with the same words.
//!
//! `snowflake!`, the `snowflake` command and `snowflake-server` read their text here; an
//! application that only composes, decodes and generates IDs does not need this module.
//!
//! ```
//! use snowflake_kit::Field;
//! use snowflake_kit::input::{parse_decimal, NumberError};
//!
//! // A field: its rule, its range, and the text quoted in the message.
//! let err = Field::Machine.parse("0x1F").unwrap_err();
//! assert_eq!(
//!     err.with_input("0x1F").to_string(),
//!     "machine \"0x1F\" is not a whole number of decimal digits; expected a whole number in 0..=31",
//! );
//! // Any other number: the same digits-only rule.
//! assert_eq!(parse_decimal("4096"), Ok(4096));
//! assert_eq!(parse_decimal("+1"), Err(NumberError::Plus));
//! ```

pub use crate::error::{NumberError, WithInput};
pub use crate::field::{Expected, parse_decimal};
