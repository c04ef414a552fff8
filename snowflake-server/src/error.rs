//! [`ApiError`]: every answer but a success, as JSON `{"error": {"field", "message"}}` with its
//! status and headers; [`FieldError`]: a 400's bad value, in the words the page shows by its field.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use snowflake_page::form::Refused;

use crate::issuer::Refusal;

/// A bad value: which field (its short key, or `id`), and the runtime's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub(crate) struct FieldError {
    /// The field: `ts`, `dc`, `machine`, `seq`, `id` or `count`.
    #[schema(value_type = String)]
    pub(crate) field: &'static str,
    /// What is wrong, and what is allowed.
    pub(crate) message: String,
}

impl FieldError {
    /// A field that the form refused, in the runtime's English, with the text quoted.
    pub(crate) fn refused(refused: &Refused) -> FieldError {
        FieldError {
            field: refused.field.key(),
            message: refused.message(),
        }
    }
}

/// Why a request was not answered with what it asked for.
#[derive(Debug)]
pub(crate) enum ApiError {
    /// 400: bad values, every one of them (the first is `error`, all are `errors`).
    BadRequest(Vec<FieldError>),
    /// 503 with `Retry-After`: no ID can be issued now, and why.
    Unavailable(Refusal),
    /// 404: no such path.
    NotFound,
    /// 405, with the methods that are allowed.
    MethodNotAllowed {
        message: &'static str,
        allow: &'static str,
    },
    /// 414: a path and query past the server's own limit.
    UriTooLong(String),
}

impl ApiError {
    /// A 400 for one field.
    pub(crate) fn field(field: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::BadRequest(vec![FieldError {
            field,
            message: message.into(),
        }])
    }
}

impl From<FieldError> for ApiError {
    fn from(error: FieldError) -> ApiError {
        ApiError::BadRequest(vec![error])
    }
}

/// The body of every error: `error` always, `errors` (every bad field) for a 400.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct Body {
    error: ErrorDetail,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<Vec<FieldError>>,
}

impl Body {
    /// An error no field is to blame for.
    pub(crate) fn plain(message: String) -> Body {
        Body {
            error: ErrorDetail {
                field: None,
                message,
            },
            errors: None,
        }
    }
}

/// What went wrong: the field, if one is to blame, and what is allowed.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct ErrorDetail {
    #[schema(value_type = Option<String>)]
    field: Option<&'static str>,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let plain = Body::plain;
        let (status, body, header) = match self {
            ApiError::BadRequest(errors) => {
                let first = errors.first().map_or_else(
                    || ErrorDetail {
                        field: None,
                        message: "bad request".to_owned(),
                    },
                    |e| ErrorDetail {
                        field: Some(e.field),
                        message: e.message.clone(),
                    },
                );
                let body = Body {
                    error: first,
                    errors: Some(errors),
                };
                (StatusCode::BAD_REQUEST, body, None)
            }
            ApiError::Unavailable(why) => (
                StatusCode::SERVICE_UNAVAILABLE,
                plain(why.to_string()),
                Some((header::RETRY_AFTER, HeaderValue::from_static("1"))),
            ),
            ApiError::NotFound => (
                StatusCode::NOT_FOUND,
                plain(
                    "no such path: the page is GET / (or /id/, /he/, /en/), the API GET /v1/id, /v1/ids, \
                     /v1/compose, /v1/decode/{id} and /v1/identity"
                        .to_owned(),
                ),
                None,
            ),
            ApiError::UriTooLong(message) => (StatusCode::URI_TOO_LONG, plain(message), None),
            ApiError::MethodNotAllowed { message, allow } => (
                StatusCode::METHOD_NOT_ALLOWED,
                plain(message.to_owned()),
                Some((header::ALLOW, HeaderValue::from_static(allow))),
            ),
        };
        let mut response = (status, Json(body)).into_response();
        if let Some((name, value)) = header {
            response.headers_mut().insert(name, value);
        }
        response
    }
}

impl From<Refusal> for ApiError {
    fn from(why: Refusal) -> ApiError {
        ApiError::Unavailable(why)
    }
}

/// An error and its causes on one line, each once, as anyhow's `{:#}` writes it: a 503's reason.
pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
