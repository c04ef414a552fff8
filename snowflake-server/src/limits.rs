//! Limits on a request's head that the server sets itself, below hyper's, so that a
//! request past them gets a JSON error and is counted like any other answer. (Past
//! hyper's own, which are higher, hyper answers before routing; `hyper_errors.rs` makes
//! that answer JSON, and the connection is counted in `snowflake_connections_closed_total`.)

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The longest path and query read, in bytes.
pub(crate) const MAX_URI_BYTES: usize = 8 * 1024;

/// The most header fields read.
pub(crate) const MAX_HEADERS: usize = 100;

/// hyper's own limit on header fields: well above ours, so that ours answers.
pub(crate) const HYPER_MAX_HEADERS: usize = 1024;

/// Answers 414 or 431 as JSON past the limits; passes the rest on.
pub(crate) async fn limits(request: Request, next: Next) -> Response {
    let uri = request
        .uri()
        .path_and_query()
        .map_or(0, |path| path.as_str().len());
    if uri > MAX_URI_BYTES {
        return ApiError::TooLarge {
            status: StatusCode::URI_TOO_LONG,
            message: format!(
                "the path and query are {uri} bytes long; at most {MAX_URI_BYTES} are read"
            ),
        }
        .into_response();
    }
    let headers = request.headers().len();
    if headers > MAX_HEADERS {
        return ApiError::TooLarge {
            status: StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            message: format!(
                "the request has {headers} header fields; at most {MAX_HEADERS} are read"
            ),
        }
        .into_response();
    }
    next.run(request).await
}
