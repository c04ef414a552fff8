//! [`ApiError`]: every answer but a success, as JSON `{"error": {"field", "message"}}` with its
//! status and headers; [`FieldError`]: a 400's bad value, in the words the page shows by its field.

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use snowflake_page::form::Refused;

use crate::issuer::Refusal;

/// A bad value: which field (its short key, or `id`), and the runtime's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub(crate) struct FieldError {
    /// The field: `ts`, `dc`, `machine`, `seq`, `id` or `count`.
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

/// The body of every error: `error` always, `errors` (every bad field) for a 400.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct Body {
    error: ErrorDetail,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<Vec<FieldError>>,
}

/// What went wrong: the field, if one is to blame, and what is allowed.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct ErrorDetail {
    field: Option<&'static str>,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, message, header) = match self {
            ApiError::BadRequest(errors) => {
                let error = errors.first().map_or_else(
                    || ErrorDetail {
                        field: None,
                        message: "bad request".to_owned(),
                    },
                    |e| ErrorDetail {
                        field: Some(e.field),
                        message: e.message.clone(),
                    },
                );
                let errors = Some(errors);
                return (StatusCode::BAD_REQUEST, Json(Body { error, errors })).into_response();
            }
            ApiError::Unavailable(why) => (
                StatusCode::SERVICE_UNAVAILABLE,
                why.to_string(),
                Some([(header::RETRY_AFTER, "1")]),
            ),
            ApiError::NotFound => (
                StatusCode::NOT_FOUND,
                "no such path: the page is GET / (or /id/, /he/, /en/), the API GET /v1/id, /v1/ids, \
                 /v1/compose, /v1/decode/{id} and /v1/identity"
                    .to_owned(),
                None,
            ),
            ApiError::UriTooLong(message) => (StatusCode::URI_TOO_LONG, message, None),
            ApiError::MethodNotAllowed { message, allow } => (
                StatusCode::METHOD_NOT_ALLOWED,
                message.to_owned(),
                Some([(header::ALLOW, allow)]),
            ),
        };
        let error = ErrorDetail {
            field: None,
            message,
        };
        (
            status,
            header,
            Json(Body {
                error,
                errors: None,
            }),
        )
            .into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(why: Refusal) -> ApiError {
        ApiError::Unavailable(why)
    }
}
