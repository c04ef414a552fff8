//! What etcd-client's errors mean to the store: which [`StoreErrorKind`] a failure is, the
//! cause to show, and the [`StoreError`] a failed call becomes.

use etcd_client::Error;

use crate::error::with_sources;
use crate::store::{StoreError, StoreErrorKind};

// gRPC's status codes, fixed by its specification (tonic's `Code`, which etcd-client does
// not re-export, numbers them so).
const INVALID_ARGUMENT: i32 = 3;
const DEADLINE_EXCEEDED: i32 = 4;
const NOT_FOUND: i32 = 5;
const PERMISSION_DENIED: i32 = 7;
const FAILED_PRECONDITION: i32 = 9;
const UNAVAILABLE: i32 = 14;
const UNAUTHENTICATED: i32 = 16;

/// Which failure `e` is, from its status code: `NotFound` is a lease gone (the only thing
/// our calls name that etcd can miss), `PermissionDenied` and `Unauthenticated` a refusal.
/// A wrong password or user comes with codes etcd also gives other answers
/// (`InvalidArgument`, `FailedPrecondition`): there its words tell them apart, stable
/// since etcd 3.0 (`etcdserver: authentication failed, ...`, `etcdserver: user name ...`).
/// A keep-alive's refusal reaches us as etcd-client's words alone.
pub(super) fn kind(e: &Error) -> StoreErrorKind {
    match e {
        Error::GRpcStatus(status) => match i32::from(status.code()) {
            NOT_FOUND => StoreErrorKind::LeaseGone,
            PERMISSION_DENIED | UNAUTHENTICATED => StoreErrorKind::Denied,
            INVALID_ARGUMENT | FAILED_PRECONDITION
                if ["authentication failed", "user name"]
                    .iter()
                    .any(|words| status.message().contains(words)) =>
            {
                StoreErrorKind::Denied
            }
            DEADLINE_EXCEEDED => StoreErrorKind::TimedOut,
            UNAVAILABLE => StoreErrorKind::Unreachable,
            _ => StoreErrorKind::Other,
        },
        Error::LeaseKeepAliveError(message) if message.contains("not found") => {
            StoreErrorKind::LeaseGone
        }
        Error::TransportError(_) | Error::IoError(_) => StoreErrorKind::Unreachable,
        _ => StoreErrorKind::Other,
    }
}

/// Whether etcd refused the user: a wrong password, or no permission.
pub(super) fn is_denied(e: &Error) -> bool {
    kind(e) == StoreErrorKind::Denied
}

/// Whether `e` is an answer about the request, which any member would give: no such
/// lease, or a user refused.
pub(super) fn answered(e: &Error) -> bool {
    matches!(kind(e), StoreErrorKind::LeaseGone | StoreErrorKind::Denied)
}

/// What went wrong: etcd's own message, or a transport error's innermost cause (a TLS
/// failure says what it is only at the bottom).
pub(super) fn cause(e: &Error) -> String {
    if let Error::GRpcStatus(status) = e {
        return status.message().to_owned();
    }
    with_sources(e)
}

pub(super) fn store_error(what: &str, e: &Error) -> StoreError {
    StoreError::new(kind(e), format!("etcd {what}: {e}"))
}

#[cfg(test)]
mod tests {
    use etcd_client::Error;
    use tonic::{Code, Status};

    use super::{answered, kind};
    use crate::store::StoreErrorKind;

    #[test]
    fn etcds_answers_are_classified_by_their_codes() {
        // etcd's own errors (server/etcdserver/api/v3rpc/rpctypes/error.go), code and words.
        let cases = [
            (
                Code::NotFound,
                "etcdserver: requested lease not found",
                StoreErrorKind::LeaseGone,
            ),
            (
                Code::PermissionDenied,
                "etcdserver: permission denied",
                StoreErrorKind::Denied,
            ),
            (
                Code::Unauthenticated,
                "etcdserver: invalid auth token",
                StoreErrorKind::Denied,
            ),
            (
                Code::InvalidArgument,
                "etcdserver: authentication failed, invalid user ID or password",
                StoreErrorKind::Denied,
            ),
            (
                Code::InvalidArgument,
                "etcdserver: user name is empty",
                StoreErrorKind::Denied,
            ),
            (
                Code::FailedPrecondition,
                "etcdserver: user name not found",
                StoreErrorKind::Denied,
            ),
            (
                Code::InvalidArgument,
                "etcdserver: key is not provided",
                StoreErrorKind::Other,
            ),
            (
                Code::FailedPrecondition,
                "etcdserver: authentication is not enabled",
                StoreErrorKind::Other,
            ),
            (
                Code::Unavailable,
                "etcdserver: leader changed",
                StoreErrorKind::Unreachable,
            ),
            (
                Code::DeadlineExceeded,
                "etcdserver: request timed out",
                StoreErrorKind::TimedOut,
            ),
            (
                Code::ResourceExhausted,
                "etcdserver: too many requests",
                StoreErrorKind::Other,
            ),
        ];
        for (code, message, expected) in cases {
            let e = Error::GRpcStatus(Status::new(code, message));
            assert_eq!(kind(&e), expected, "{code:?} {message}");
            assert_eq!(
                answered(&e),
                matches!(expected, StoreErrorKind::LeaseGone | StoreErrorKind::Denied),
                "{message}"
            );
        }
        let gone = Error::LeaseKeepAliveError("lease not found".to_owned());
        assert_eq!(kind(&gone), StoreErrorKind::LeaseGone);
        let io = Error::IoError(std::io::Error::from(std::io::ErrorKind::ConnectionRefused));
        assert_eq!(kind(&io), StoreErrorKind::Unreachable);
        assert_eq!(
            kind(&Error::WatchError("ended".to_owned())),
            StoreErrorKind::Other
        );
    }
}
