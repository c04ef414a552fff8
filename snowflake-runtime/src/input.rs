//! The parts of [`Field::parse`](crate::Field::parse)'s answers: what a front end reading
//! text typed by a person (a command's flags, a form's fields, a query string) shows. The
//! range a field expects ([`Expected`], from [`Field::expected`](crate::Field::expected)),
//! why a text is not a number ([`NumberError`]), the error itself ([`ParseFieldError`]),
//! and the error with the text quoted ([`WithInput`], from
//! [`ParseFieldError::with_input`]).
//!
//! An application that only composes, decodes and generates IDs does not need this module;
//! one that reads a field from text meets [`ParseFieldError`], the error of
//! [`Field::parse`](crate::Field::parse).
//!
//! ```
//! use snowflake_kit::Field;
//!
//! // A field: its rule, its range, and the text quoted in the message.
//! let err = Field::Machine.parse("0x1F").unwrap_err();
//! assert_eq!(
//!     err.with_input("0x1F").to_string(),
//!     "machine \"0x1F\" is not a whole number of decimal digits; expected a whole number in 0..=31",
//! );
//! assert_eq!(Field::Machine.expected().to_string(), "a whole number in 0..=31");
//! ```

pub use crate::error::{NumberError, ParseFieldError, WithInput};
pub use crate::field::Expected;
