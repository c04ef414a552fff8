//! What stops the service, for the caller to report or branch on.

use std::fmt;

use snowflake_lease::LeaseError;

/// What went wrong in the service (for [`serve`](crate::serve), why it stopped). Its message
/// says the step that failed; the cause is its [`source`](std::error::Error::source), for a
/// reporter that walks the chain (anyhow's `{:#}`, the binary's one line).
///
/// ```
/// # async fn run() {
/// # let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
/// # let config = snowflake_server::Config::without_identity();
/// if let Err(e) = snowflake_server::serve(listener, config, std::future::pending()).await {
///     eprintln!("error: {e}");
/// }
/// # }
/// ```
#[derive(Debug)]
pub struct ServeError {
    kind: ServeErrorKind,
    message: &'static str,
    source: Box<dyn std::error::Error + Send + Sync>,
}

/// What kind of thing stopped the service: [`ServeError::kind`], for code that branches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ServeErrorKind {
    /// The metrics could not be set up.
    Metrics,
    /// The process could not listen for SIGTERM and Ctrl-C.
    Signals,
    /// The listener failed: its address could not be read.
    Listener,
    /// The leased identity could not be claimed: the store was out of reach, refused us,
    /// or the identity was not free in time. Its [`source`](std::error::Error::source) is
    /// the lease's error ([`lease::LeaseError`](crate::lease::LeaseError)), when it had one.
    Claim,
}

impl ServeError {
    /// An error of `kind`, saying `message`, caused by `source`.
    pub(crate) fn new(
        kind: ServeErrorKind,
        message: &'static str,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> ServeError {
        ServeError {
            kind,
            message,
            source: Box::new(source),
        }
    }

    /// A failed claim: the lease's error is the cause.
    pub(crate) fn claim(e: LeaseError) -> ServeError {
        ServeError::new(ServeErrorKind::Claim, "cannot claim the identity", e)
    }

    /// What kind of thing stopped the service.
    ///
    /// ```
    /// use snowflake_server::{ServeError, ServeErrorKind};
    ///
    /// /// What an operator should look at first.
    /// fn advice(e: &ServeError) -> &'static str {
    ///     match e.kind() {
    ///         ServeErrorKind::Claim => "the lease store, or who holds the identity",
    ///         _ => "the message",
    ///     }
    /// }
    /// ```
    pub fn kind(&self) -> ServeErrorKind {
        self.kind
    }
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message)
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use snowflake_lease::LeaseError;

    use super::{ServeError, ServeErrorKind};

    #[test]
    fn a_failed_claim_is_of_its_kind_with_the_lease_error_as_its_source() {
        let lease = LeaseError::InvalidOption("ttl 0 s: expected at least 3 s".to_owned());
        let e = ServeError::claim(lease.clone());
        assert_eq!(e.kind(), ServeErrorKind::Claim);
        assert_eq!(e.to_string(), "cannot claim the identity");
        let source = e.source().expect("a source");
        assert_eq!(source.downcast_ref::<LeaseError>(), Some(&lease));
        // A reporter that walks the chain says each cause once.
        assert_eq!(
            format!("{:#}", anyhow::Error::new(e)),
            "cannot claim the identity: invalid lease option: ttl 0 s: expected at least 3 s"
        );
    }
}
