//! The server's own limit on a request's URL, below hyper's 64 KiB, so that a long URL gets
//! the JSON error every answer of the router has and is counted by its endpoint. What
//! hyper refuses before routing (a malformed head, a URL past its 64 KiB, more than 100
//! header fields) it answers itself with an empty body; the connection is then counted in
//! `snowflake_connections_closed_total`.

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
