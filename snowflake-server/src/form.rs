//! The form's rules, shared by the page and `/v1/compose`: text typed by a person ->
//! an ID, or every field's error. The rules and their words are the runtime's
//! ([`Field::parse`]); the form adds only what a blank field means.

use std::collections::HashMap;

use serde::Serialize;
use snowflake_kit::{Clock, Field, ParseSnowflakeError, Snowflake, SystemClock};

/// A bad value: which field (its short key, or `id`), and the runtime's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub(crate) struct FieldError {
    /// The field: `ts`, `dc`, `machine`, `seq`, `id` or `count`.
    #[schema(value_type = String)]
    pub(crate) field: &'static str,
    /// What is wrong, and what is allowed.
    pub(crate) message: String,
}

/// A request's query parameters, each given at most once: a repeated one is an error
/// that names it, rather than one of its values chosen in silence.
pub(crate) struct Params(pub(crate) HashMap<String, String>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Params {
    type Rejection = crate::error::ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Params, Self::Rejection> {
        params(parts.uri.query().unwrap_or("")).map(Params)
    }
}

/// The query's parameters, or the first that is repeated.
pub(crate) fn params(query: &str) -> Result<HashMap<String, String>, crate::error::ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).map_err(|e| {
        crate::error::ApiError::field("query", format!("the query string cannot be read: {e}"))
    })?;
    let mut params = HashMap::with_capacity(pairs.len());
    for (name, value) in pairs {
        if params.contains_key(&name) {
            let times = query
                .split('&')
                .filter(|pair| pair.split('=').next() == Some(name.as_str()))
                .count()
                .max(2);
            let message = format!("{name} is given {times} times; give it once");
            return Err(match Field::from_key(&name) {
                Some(field) => crate::error::ApiError::field(field.key(), message),
                None if name == "count" => crate::error::ApiError::field("count", message),
                None => crate::error::ApiError::field("query", message),
            });
        }
        params.insert(name, value);
    }
    Ok(params)
}

/// The four form fields -> an ID, or every field's error. A field left out or blank
/// is: now for `ts`, 0 for `seq`, an error for `dc` and `machine`.
pub(crate) fn compose_form(params: &HashMap<String, String>) -> Result<Snowflake, Vec<FieldError>> {
    let mut values = [0; 4];
    let mut errors = Vec::new();
    for field in Field::ALL {
        let text = params.get(field.key()).map_or("", |text| text.trim());
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
pub(crate) fn decode_text(text: &str) -> Result<Snowflake, FieldError> {
    text.trim()
        .parse()
        .map_err(|e: ParseSnowflakeError| FieldError {
            field: "id",
            message: e.to_string(),
        })
}
