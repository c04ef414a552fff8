//! The form's rules, shared by the page and `/v1/compose`: text typed by a person ->
//! an ID, or every field's error. The rules and their words are the runtime's
//! ([`Field::parse`]); the form adds only what a blank field means, and whether spaces
//! around a value are dropped ([`Spaces`]).

use std::collections::HashMap;

use snowflake_kit::{Clock, Field, ParseSnowflakeError, Snowflake, SystemClock};

use crate::error::FieldError;

/// What a front end does with spaces around a field's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Spaces {
    /// The page: a person's typing, pasted or not, so spaces around a value are dropped.
    Trimmed,
    /// The API: the text as its contract (`/v1/openapi.json`) describes it, where blank is
    /// the empty text alone and a space is a character like any other, so an error.
    Kept,
}

impl Spaces {
    fn apply(self, text: &str) -> &str {
        match self {
            Spaces::Trimmed => text.trim(),
            Spaces::Kept => text,
        }
    }
}

/// The four form fields -> an ID, or every field's error. A field left out or blank
/// is: now for `ts`, 0 for `seq`, an error for `dc` and `machine`.
pub(crate) fn compose_form(
    params: &HashMap<String, String>,
    spaces: Spaces,
) -> Result<Snowflake, Vec<FieldError>> {
    let mut values = [0; 4];
    let mut errors = Vec::new();
    for field in Field::ALL {
        let text = params
            .get(field.key())
            .map_or("", |text| spaces.apply(text));
        let value = match (field, text) {
            (Field::Timestamp, "") => Ok(SystemClock.now_ms()),
            (Field::Sequence, "") => Ok(0),
            _ => field.parse(text).map_err(|e| FieldError {
                field: field.key(),
                message: e.with_input(text).to_string(),
            }),
        };
        match value {
            Ok(value) => values[field as usize] = value,
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let [ts, dc, machine, seq] = values;
    // Every field was checked against its range: the one error left is the clock's.
    snowflake_kit::compose(ts, dc, machine, seq).map_err(|e| {
        vec![FieldError {
            field: e.field().key(),
            message: e.to_string(),
        }]
    })
}

/// An ID as typed: decimal digits, or what is wrong with it (the runtime's words).
pub(crate) fn decode_text(text: &str, spaces: Spaces) -> Result<Snowflake, FieldError> {
    spaces
        .apply(text)
        .parse()
        .map_err(|e: ParseSnowflakeError| FieldError {
            field: "id",
            message: e.to_string(),
        })
}
