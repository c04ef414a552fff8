//! What etcd-client's errors mean to the store: a user refused, an answer about the
//! request, the cause to show, and the [`StoreError`] a failed call becomes.

use crate::store::StoreError;

/// Whether etcd refused the user: a wrong password, or no permission. (tonic's status
/// codes are not re-exported; etcd's messages are stable, `etcdserver: ...`.)
pub(super) fn is_denied(e: &etcd_client::Error) -> bool {
    let etcd_client::Error::GRpcStatus(status) = e else {
        return false;
    };
    let message = status.message();
    [
        "authentication failed",
        "permission denied",
        "user name",
        "invalid auth token",
    ]
    .iter()
    .any(|phrase| message.contains(phrase))
}

/// Whether `e` is an answer about the request, which any member would give: no such
/// lease, or a user refused.
pub(super) fn answered(e: &etcd_client::Error) -> bool {
    match e {
        etcd_client::Error::LeaseKeepAliveError(message) => message.contains("not found"),
        etcd_client::Error::GRpcStatus(status) => {
            status.message().contains("not found") || is_denied(e)
        }
        _ => false,
    }
}

/// What went wrong: etcd's own message, or a transport error's innermost cause (a TLS
/// failure says what it is only at the bottom).
pub(super) fn cause(e: &etcd_client::Error) -> String {
    if let etcd_client::Error::GRpcStatus(status) = e {
        return status.message().to_owned();
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(inner) = source {
        let message = inner.to_string();
        if !text.contains(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
        source = inner.source();
    }
    text
}

pub(super) fn store_error(what: &str, e: &etcd_client::Error) -> StoreError {
    StoreError(format!("etcd {what}: {e}"))
}
