//! What a leased generator needs of a coordination service: the [`Store`] trait,
//! and the keys of an [`Identity`] in it.

use core::fmt;
use std::collections::HashSet;
use std::future::Future;
use std::time::Duration;

pub use snowflake_runtime::Identity;

/// The key holding the holder's name, attached to its lease: `{prefix}/owner/DD/MM`.
pub(crate) fn owner_key(prefix: &str, identity: Identity) -> String {
    format!("{prefix}/owner/{identity}")
}

/// The key holding the high-water mark, never deleted, never lowered: `{prefix}/hwm/DD/MM`.
pub(crate) fn hwm_key(prefix: &str, identity: Identity) -> String {
    format!("{prefix}/hwm/{identity}")
}

/// A lease of the store, by its id.
///
/// ```
/// let lease = snowflake_lease::LeaseId::new(7_587_862_155_183_436_048);
/// assert_eq!(lease.get(), 7_587_862_155_183_436_048);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeaseId(pub(crate) i64);

impl LeaseId {
    /// The lease with this id, as the store numbers its leases.
    pub const fn new(id: i64) -> LeaseId {
        LeaseId(id)
    }

    /// The id, as the store numbers its leases.
    pub const fn get(self) -> i64 {
        self.0
    }
}

/// The answer to [`Store::claim`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The identity is ours, attached to the lease; its high-water mark (Unix ms,
    /// 0 if it never had one), read in the same transaction.
    Won {
        /// The highest timestamp any earlier holder may have used.
        hwm_ms: u64,
    },
    /// Someone holds it.
    Held {
        /// The holder's name, as it wrote it.
        by: String,
    },
    /// Won, but its high-water mark is not one this crate writes (13 zero-padded digits
    /// of Unix ms): someone wrote it by hand. Its string comparisons cannot fence, so
    /// the claim must let go, and nobody can hold it until a person fixes the key.
    BadMark {
        /// The mark's key.
        key: String,
        /// What is there.
        text: String,
    },
}

/// The answer to [`Store::reserve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reservation {
    /// The new high-water mark is committed.
    Committed,
    /// The lease is no longer on the owner key (or the stored mark cannot be read, which
    /// nothing can be built on): the holder must stop.
    NotOwner,
    /// The lease is still on the owner key, but the high-water mark is not the one
    /// expected: it is `found_ms` (0 for none). Nothing was written.
    ///
    /// If `found_ms` is a mark this holder asked for and never heard back about (a timeout
    /// after the commit), that reservation was committed; any other mark was written by
    /// someone else, and the holder must stop.
    MarkMoved {
        /// The stored high-water mark, Unix ms.
        found_ms: u64,
    },
}

/// A store's failure to answer: the network, a timeout, a refusal, a malformed reply. The
/// holder only retries, reports and counts it; [`kind`](StoreError::kind) says which, for
/// code that decides, and the message says what happened, for a person.
///
/// ```
/// use snowflake_lease::{StoreError, StoreErrorKind};
///
/// let e = StoreError::new(StoreErrorKind::Unreachable, "etcd keep-alive: connection reset");
/// assert_eq!(e.kind(), StoreErrorKind::Unreachable);
/// assert_eq!(e.message(), "etcd keep-alive: connection reset");
/// assert_eq!(e.to_string(), "etcd keep-alive: connection reset");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    kind: StoreErrorKind,
    message: String,
}

/// Which failure a [`StoreError`] is: what a store's implementation says of it, and what a
/// caller or a test branches on.
///
/// ```
/// use snowflake_lease::StoreErrorKind;
///
/// assert_eq!(StoreErrorKind::TimedOut.key(), "timed_out");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StoreErrorKind {
    /// No answer within the call's bound: what was asked may have been done all the same
    /// (a reservation may have committed), which is why the holder never counts on it.
    TimedOut,
    /// The store could not be reached, or the connection failed on the way.
    Unreachable,
    /// The store refused the user: a wrong name or password, or no permission.
    Denied,
    /// The lease the call named is gone: it expired, was revoked, or never was.
    LeaseGone,
    /// The store holds what this crate never writes there (a malformed high-water mark).
    Malformed,
    /// Any other failure the store answered with.
    Other,
}

impl StoreErrorKind {
    /// The kind as a key for logs and metrics labels: `timed_out`, `unreachable`, `denied`,
    /// `lease_gone`, `malformed` or `other`.
    ///
    /// ```
    /// assert_eq!(snowflake_lease::StoreErrorKind::LeaseGone.key(), "lease_gone");
    /// ```
    pub const fn key(self) -> &'static str {
        match self {
            StoreErrorKind::TimedOut => "timed_out",
            StoreErrorKind::Unreachable => "unreachable",
            StoreErrorKind::Denied => "denied",
            StoreErrorKind::LeaseGone => "lease_gone",
            StoreErrorKind::Malformed => "malformed",
            StoreErrorKind::Other => "other",
        }
    }
}

impl StoreError {
    /// A failure of `kind`, in words that say what happened.
    ///
    /// ```
    /// use snowflake_lease::{StoreError, StoreErrorKind};
    ///
    /// let e = StoreError::new(StoreErrorKind::TimedOut, "no answer within 2s");
    /// assert_eq!(e.kind(), StoreErrorKind::TimedOut);
    /// ```
    pub fn new(kind: StoreErrorKind, message: impl Into<String>) -> StoreError {
        StoreError {
            kind,
            message: message.into(),
        }
    }

    /// Which failure it is.
    ///
    /// ```
    /// use snowflake_lease::{StoreError, StoreErrorKind};
    ///
    /// let e = StoreError::new(StoreErrorKind::Denied, "etcd claim: permission denied");
    /// assert_eq!(e.kind(), StoreErrorKind::Denied);
    /// ```
    pub fn kind(&self) -> StoreErrorKind {
        self.kind
    }

    /// What happened.
    ///
    /// ```
    /// use snowflake_lease::{StoreError, StoreErrorKind};
    ///
    /// let e = StoreError::new(StoreErrorKind::Other, "etcd claim: too many requests");
    /// assert_eq!(e.message(), "etcd claim: too many requests");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StoreError {}

/// What a leased generator asks of its coordination service.
///
/// [`EtcdStore`](crate::EtcdStore) is the real one; [`MemStore`](crate::MemStore)
/// keeps everything in memory, for tests of the generator's state machine.
pub trait Store: Send + Sync + 'static {
    /// Grants a lease of `ttl`.
    fn grant(&self, ttl: Duration) -> impl Future<Output = Result<LeaseId, StoreError>> + Send;

    /// In one transaction: if nobody owns `identity`, writes `holder` into its
    /// owner key under `lease` and reads its high-water mark; otherwise reads who
    /// owns it.
    fn claim(
        &self,
        identity: Identity,
        lease: LeaseId,
        holder: &str,
    ) -> impl Future<Output = Result<Claim, StoreError>> + Send;

    /// Gives up a claim that was won but is not wanted (`auto` skipping an
    /// identity whose high-water mark is too far ahead), if it is still ours.
    fn unclaim(
        &self,
        identity: Identity,
        lease: LeaseId,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Renews the lease: its new time to live, or `None` if it is gone (expired,
    /// revoked, or answered with a TTL of 0).
    fn keep_alive(
        &self,
        lease: LeaseId,
    ) -> impl Future<Output = Result<Option<Duration>, StoreError>> + Send;

    /// In one transaction: if `lease` is on the owner key and the high-water mark
    /// is still `expected_ms` (0: there is none yet) and below `new_ms`, writes `new_ms`.
    fn reserve(
        &self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> impl Future<Output = Result<Reservation, StoreError>> + Send;

    /// Revokes the lease: the owner key goes with it, the high-water mark stays.
    fn release(&self, lease: LeaseId) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// The identities that have an owner now, in one read: `auto` tries the others
    /// first, rather than one claim per identity across a fleet. Only a hint, since
    /// owners come and go; the default knows none, and `auto` then tries every one.
    fn held(&self) -> impl Future<Output = Result<HashSet<Identity>, StoreError>> + Send {
        std::future::ready(Ok(HashSet::new()))
    }
}

/// A shared store is a store: a test keeps an `Arc` for its faults, the generator another.
impl<S: Store> Store for std::sync::Arc<S> {
    fn grant(&self, ttl: Duration) -> impl Future<Output = Result<LeaseId, StoreError>> + Send {
        (**self).grant(ttl)
    }

    fn claim(
        &self,
        identity: Identity,
        lease: LeaseId,
        holder: &str,
    ) -> impl Future<Output = Result<Claim, StoreError>> + Send {
        (**self).claim(identity, lease, holder)
    }

    fn unclaim(
        &self,
        identity: Identity,
        lease: LeaseId,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        (**self).unclaim(identity, lease)
    }

    fn keep_alive(
        &self,
        lease: LeaseId,
    ) -> impl Future<Output = Result<Option<Duration>, StoreError>> + Send {
        (**self).keep_alive(lease)
    }

    fn reserve(
        &self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> impl Future<Output = Result<Reservation, StoreError>> + Send {
        (**self).reserve(identity, lease, expected_ms, new_ms)
    }

    fn release(&self, lease: LeaseId) -> impl Future<Output = Result<(), StoreError>> + Send {
        (**self).release(lease)
    }

    fn held(&self) -> impl Future<Output = Result<HashSet<Identity>, StoreError>> + Send {
        (**self).held()
    }
}

/// The high-water mark as stored: Unix ms, zero-padded, so that keys list in order.
pub(crate) fn hwm_text(ms: u64) -> String {
    format!("{ms:013}")
}

/// A stored high-water mark; a missing one is 0. Only the text [`hwm_text`] writes: the
/// reservations compare marks as strings, which order as the numbers only when padded.
pub(crate) fn parse_hwm(text: Option<&[u8]>) -> Result<u64, StoreError> {
    match text {
        None => Ok(0),
        Some(bytes) => std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| text.parse().ok().filter(|&ms| hwm_text(ms) == text))
            .ok_or_else(|| {
                StoreError::new(
                    StoreErrorKind::Malformed,
                    format!(
                        "a high-water mark is {:?}, not 13 zero-padded digits of Unix milliseconds",
                        String::from_utf8_lossy(bytes)
                    ),
                )
            }),
    }
}
