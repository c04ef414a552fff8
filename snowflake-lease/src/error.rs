//! [`LeaseError`]: why a leased generator could not start or go on.

use core::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::store::{Identity, StoreError};

/// Why a [`LeasedGenerator`](crate::LeasedGenerator) could not start, or stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LeaseError {
    /// The etcd address is not `http://host:port` or `https://host:port`, or the TLS
    /// settings do not fit it; or the PostgreSQL URL cannot be read.
    InvalidEndpoint {
        /// Which store.
        store: StoreKind,
        /// As given (a password in it blanked).
        endpoint: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The CA certificate given for TLS cannot be used: no certificate in it, or one that
    /// cannot be read.
    InvalidCa {
        /// Which store.
        store: StoreKind,
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
        /// Which store.
        store: StoreKind,
        /// The address tried.
        endpoint: String,
        /// How long it waited.
        timeout: Duration,
        /// What the client said: the error's [`source`](std::error::Error::source).
        cause: Cause,
    },
    /// The store refused the user: a wrong password, or no permission on the key prefix
    /// (etcd) or the schema (PostgreSQL).
    Denied {
        /// Which store.
        store: StoreKind,
        /// The user, if one was given.
        user: Option<String>,
        /// What it was refused on: the key prefix (etcd) or the schema (PostgreSQL).
        scope: String,
        /// What the store said: the error's [`source`](std::error::Error::source).
        cause: Cause,
    },
    /// The PostgreSQL schema's tables are not the ones this crate makes (see
    /// `PgStore::schema_sql`): nothing is guessed or changed.
    Schema {
        /// The schema.
        schema: String,
        /// What differs.
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
    /// An exact identity stayed held for longer than the claim wait.
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
            LeaseError::InvalidEndpoint {
                store: StoreKind::Etcd,
                endpoint,
                reason,
            } => write!(f, "invalid etcd endpoint {endpoint:?}: {reason}"),
            LeaseError::InvalidEndpoint {
                store: StoreKind::Postgres,
                endpoint,
                reason,
            } => write!(f, "invalid PostgreSQL URL {endpoint:?}: {reason}"),
            LeaseError::InvalidCa { store, reason } => {
                write!(f, "TLS to {store}: the CA: {reason}")
            }
            LeaseError::InvalidPrefix(prefix) => write!(
                f,
                "invalid key prefix {prefix:?}: expected `/` and segments without a trailing `/`, such as /snowflake-kit/v1/default"
            ),
            LeaseError::InvalidOption(message) => write!(f, "invalid lease option: {message}"),
            LeaseError::Unreachable {
                store,
                endpoint,
                timeout,
                ..
            } => write!(
                f,
                "cannot reach {store} at {endpoint} (giving up after {timeout:?})"
            ),
            LeaseError::Denied {
                store,
                user,
                scope,
                ..
            } => {
                let what = match store {
                    StoreKind::Etcd => "prefix",
                    StoreKind::Postgres => "schema",
                };
                match user {
                    Some(user) => write!(f, "{store} refused user {user:?} on the {what} {scope}"),
                    None => write!(
                        f,
                        "{store} refused access to the {what} {scope} (no user given)"
                    ),
                }
            }
            LeaseError::Schema { schema, reason } => write!(
                f,
                "the PostgreSQL schema {schema} is not the lease store's: {reason} (compare it \
                 with `PgStore::schema_sql`, or `snowflake-server --print-postgres-schema`)"
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
                "the clock ({now_ms} ms) is {} ms behind the high-water mark of identity \
                 {identity} ({hwm_ms} ms), more than the {bound:?} that may be waited for: it \
                 issues again once the clock passes the mark; another identity issues now",
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
            LeaseError::Store(_) => f.write_str("the store failed"),
        }
    }
}

/// Its cause, where a store's client gave one: [`Cause`] for [`LeaseError::Unreachable`]
/// and [`LeaseError::Denied`], the [`StoreError`] for [`LeaseError::Store`]. The message
/// says the step that failed and leaves the cause to the source, so that a reporter that
/// walks the chain (anyhow's `{:#}`) says each once.
impl std::error::Error for LeaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LeaseError::Unreachable { cause, .. } | LeaseError::Denied { cause, .. } => Some(cause),
            LeaseError::Store(e) => Some(e),
            _ => None,
        }
    }
}

/// What a store's client said when it could not connect or was refused: the store's own
/// words (or a transport error's innermost cause, where a TLS failure says what it is),
/// and the client's error itself, for code that looks into it.
///
/// ```
/// use std::error::Error;
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let mut options = snowflake_lease::LeaseOptions::default();
/// options.connect_timeout = std::time::Duration::from_millis(300);
/// let config = snowflake_lease::EtcdConfig::new("http://127.0.0.1:9")?;
/// let e = snowflake_lease::EtcdStore::connect_with(config, &options).await.unwrap_err();
/// assert_eq!(e.to_string(), "cannot reach etcd at http://127.0.0.1:9 (giving up after 300ms)");
/// let cause = e.source().expect("what the client said");
/// assert!(!cause.to_string().is_empty());
/// # Ok::<(), snowflake_lease::LeaseError>(()) }).unwrap();
/// ```
#[derive(Clone)]
pub struct Cause {
    text: String,
    error: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl Cause {
    /// The store's words, `text`, and the client's error they were read from, if one.
    pub(crate) fn new(
        text: impl Into<String>,
        error: Option<Arc<dyn std::error::Error + Send + Sync>>,
    ) -> Cause {
        Cause {
            text: text.into(),
            error,
        }
    }

    /// The client's own error (etcd-client's, tokio-postgres'), where one was the cause;
    /// of several members that each failed, the last one's.
    pub fn client_error(&self) -> Option<&(dyn std::error::Error + Send + Sync + 'static)> {
        self.error.as_deref()
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text, f)
    }
}

/// By the words alone: the client's error has no equality of its own.
impl PartialEq for Cause {
    fn eq(&self, other: &Cause) -> bool {
        self.text == other.text
    }
}

impl Eq for Cause {}

/// The end of the chain: its words were read from the client's error, which
/// [`client_error`](Cause::client_error) gives.
impl std::error::Error for Cause {}

/// An error's words, then those of each of its sources that add to them: a client's error
/// often says what failed only at the bottom (a certificate, a refused connection). The
/// one walk over a chain of causes, for every store.
pub(crate) fn with_sources(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(inner) = source {
        let more = inner.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = inner.source();
    }
    text
}

/// Which coordination service a store is, for messages, logs and metrics.
///
/// ```
/// use snowflake_lease::StoreKind;
/// assert_eq!(StoreKind::Postgres.to_string(), "PostgreSQL");
/// assert_eq!(StoreKind::Postgres.key(), "postgres");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StoreKind {
    /// etcd's v3 API: [`EtcdStore`](crate::EtcdStore).
    Etcd,
    /// PostgreSQL: `PgStore` (feature `postgres`).
    Postgres,
}

impl StoreKind {
    /// Its name in JSON, metrics labels and flags: `etcd` or `postgres`.
    pub const fn key(self) -> &'static str {
        match self {
            StoreKind::Etcd => "etcd",
            StoreKind::Postgres => "postgres",
        }
    }
}

impl fmt::Display for StoreKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StoreKind::Etcd => "etcd",
            StoreKind::Postgres => "PostgreSQL",
        })
    }
}

impl From<StoreError> for LeaseError {
    fn from(e: StoreError) -> LeaseError {
        LeaseError::Store(e)
    }
}
