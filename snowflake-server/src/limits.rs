//! The server's own URL limit, below hyper's 64 KiB, so a long URL gets the router's JSON error
//! and is counted by endpoint. What hyper refuses before routing (a malformed head, a URL past
//! 64 KiB, over 100 header fields) gets an empty body; `snowflake_connections_closed_total`
//! counts the connection.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The longest path and query read, in bytes.
pub(crate) const MAX_URI_BYTES: usize = 8 * 1024;

/// Answers 414 as JSON past the limit; passes the rest on.
pub(crate) async fn limits(request: Request, next: Next) -> Response {
    let uri = request
        .uri()
        .path_and_query()
        .map_or(0, |path| path.as_str().len());
    if uri > MAX_URI_BYTES {
        return ApiError::UriTooLong(format!(
            "the path and query are {uri} bytes long; at most {MAX_URI_BYTES} are read"
        ))
        .into_response();
    }
    next.run(request).await
}
