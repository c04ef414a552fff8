//! The API's query: a repeated parameter is an error naming it, not one value picked in silence.

use std::collections::HashMap;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use snowflake_kit::Field;

use crate::error::ApiError;

/// A request's query parameters, each given at most once.
pub(crate) struct Params(pub(crate) HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Params {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Params, ApiError> {
        params(parts.uri.query().unwrap_or("")).map(Params)
    }
}

/// The query's parameters, or the first that is repeated.
pub(crate) fn params(query: &str) -> Result<HashMap<String, String>, ApiError> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
        .map_err(|e| ApiError::field("query", format!("the query string cannot be read: {e}")))?;
    let mut params = HashMap::with_capacity(pairs.len());
    for (name, value) in &pairs {
        if params.insert(name.clone(), value.clone()).is_none() {
            continue;
        }
        let times = pairs.iter().filter(|(other, _)| other == name).count();
        let message = format!("{name} is given {times} times; give it once");
        let field = match Field::from_key(name) {
            Some(field) => field.key(),
            None if name == "count" => "count",
            None if name == "form" => "form",
            None => "query",
        };
        return Err(ApiError::field(field, message));
    }
    Ok(params)
}
