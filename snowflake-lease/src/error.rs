//! [`LeaseError`]: why a leased generator could not start or go on.

use core::fmt;
use std::time::Duration;

use crate::store::{Identity, StoreError};

/// Why a [`LeasedGenerator`](crate::LeasedGenerator) could not start, or stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LeaseError {
    /// The etcd address is not `http://host:port` or `https://host:port`, or the TLS
    /// settings do not fit it.
    InvalidEndpoint {
        /// As given.
        endpoint: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The key prefix is not of the form `/a/b`.
    InvalidPrefix(String),
    /// An option is out of its range.
    InvalidOption(String),
    /// No member answered within the connect timeout, or each refused the connection
    /// (refused, TLS failed): the reason says which.
    Unreachable {
        /// The address tried.
        endpoint: String,
        /// How long it waited.
        timeout: Duration,
        /// What the client said.
        reason: String,
    },
    /// etcd refused the user: a wrong password, or no permission on the prefix.
    Denied {
        /// The user, if one was given.
        user: Option<String>,
        /// The key prefix.
        prefix: String,
        /// What etcd said.
        reason: String,
    },
    /// Every one of the 1,024 identities is held (or poisoned by a clock far ahead).
    AllHeld,
    /// Every one of the 32 machines of the datacenter is held (or poisoned by a clock far
    /// ahead), for longer than the claim wait.
    DatacenterFull {
        /// The datacenter.
        datacenter: u8,
    },
    /// A fixed identity stayed held for longer than the claim wait.
    Held {
        /// The identity.
        identity: Identity,
        /// Who holds it.
        by: String,
    },
    /// The clock is further behind the identity's high-water mark than the bound.
    ClockBehind {
        /// The identity.
        identity: Identity,
        /// The clock, Unix ms.
        now_ms: u64,
        /// The high-water mark, Unix ms.
        hwm_ms: u64,
        /// How far behind may be waited for.
        bound: Duration,
    },
    /// The identity was lost while it was being claimed: its lease went, or came off
    /// the owner key, before the first reservation.
    Lost {
        /// The identity.
        identity: Identity,
    },
    /// The identity's high-water mark moved while it was being claimed: someone else
    /// writes it.
    MarkMoved {
        /// The identity.
        identity: Identity,
        /// The mark read at the claim, Unix ms.
        expected_ms: u64,
        /// The mark found, Unix ms.
        found_ms: u64,
    },
    /// The identity's high-water mark is not text this crate writes: someone wrote it by
    /// hand. Nobody can hold the identity until it is fixed.
    BadMark {
        /// The identity.
        identity: Identity,
        /// The mark's key.
        key: String,
        /// What is there.
        text: String,
    },
    /// The store failed while claiming.
    Store(StoreError),
}

impl fmt::Display for LeaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeaseError::InvalidEndpoint { endpoint, reason } => {
                write!(f, "invalid etcd endpoint {endpoint:?}: {reason}")
            }
            LeaseError::InvalidPrefix(prefix) => write!(
                f,
                "invalid key prefix {prefix:?}: expected `/` and segments without a trailing `/`, such as /snowflake-kit/v1/default"
            ),
            LeaseError::InvalidOption(message) => write!(f, "invalid lease option: {message}"),
            LeaseError::Unreachable {
                endpoint,
                timeout,
                reason,
            } => write!(
                f,
                "cannot reach etcd at {endpoint} (giving up after {timeout:?}): {reason}"
            ),
            LeaseError::Denied {
                user: Some(user),
                prefix,
                reason,
            } => write!(
                f,
                "etcd refused user {user:?} on the prefix {prefix}: {reason}"
            ),
            LeaseError::Denied {
                user: None,
                prefix,
                reason,
            } => write!(
                f,
                "etcd refused access to the prefix {prefix} (no user given): {reason}"
            ),
            LeaseError::AllHeld => f.write_str(
                "all 1024 identities are held (or their high-water marks are far ahead of this clock)",
            ),
            LeaseError::DatacenterFull { datacenter } => write!(
                f,
                "all 32 machines of datacenter {datacenter} are held (or their high-water marks \
                 are far ahead of this clock)"
            ),
            LeaseError::Held { identity, by } => {
                write!(f, "identity {identity} is held by {by:?}")
            }
            LeaseError::ClockBehind {
                identity,
                now_ms,
                hwm_ms,
                bound,
            } => write!(
                f,
                "the clock ({now_ms} ms) is {} ms behind the high-water mark of identity {identity} ({hwm_ms} ms), more than the {bound:?} that may be waited for",
                hwm_ms.saturating_sub(*now_ms)
            ),
            LeaseError::Lost { identity } => {
                write!(f, "identity {identity} was lost while it was being claimed")
            }
            LeaseError::MarkMoved {
                identity,
                expected_ms,
                found_ms,
            } => write!(
                f,
                "the high-water mark of identity {identity} moved from {expected_ms} to \
                 {found_ms} ms while it was being claimed"
            ),
            LeaseError::BadMark {
                identity,
                key,
                text,
            } => write!(
                f,
                "the high-water mark of identity {identity} at {key} is {text:?}, not 13 \
                 zero-padded digits of Unix ms: it was written by hand; set it to a time past \
                 every ID issued with the identity, written that way"
            ),
            LeaseError::Store(e) => write!(f, "the store failed: {e}"),
        }
    }
}

impl std::error::Error for LeaseError {}

impl From<StoreError> for LeaseError {
    fn from(e: StoreError) -> LeaseError {
        LeaseError::Store(e)
    }
}
