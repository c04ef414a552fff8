//! The connections of a [`PgStore`](super::PgStore): a small pool that keeps only those that
//! answered, every call bounded, a call given up cancelled at the database.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio_postgres::{Client, Statement};

use super::schema::Statements;
use crate::events::event;
use crate::store::{StoreError, StoreErrorKind};

/// Where the connections go, how to make them, and the ones ready for the next call.
pub(super) struct Pool {
    pub(super) config: tokio_postgres::Config,
    pub(super) tls: Option<tokio_postgres_rustls::MakeRustlsConnect>,
    pub(super) sql: Statements,
    /// The bound on one call, connecting included; the database ends our statements, lock
    /// waits and idle transactions after it too, so that a holder cut off mid-transaction
    /// holds no row for long.
    pub(super) bound: Duration,
    /// Connections that answered their last call, ready for the next. One that failed or
    /// was given up is dropped, never reused: it may hang, or be mid-transaction.
    pub(super) idle: Mutex<Vec<Connection>>,
}

/// A connection and its prepared statements.
pub(super) struct Connection {
    pub(super) client: Client,
    pub(super) prepared: Prepared,
}

/// The store's statements, prepared on one connection.
pub(super) struct Prepared {
    pub(super) grant: Statement,
    pub(super) keep_alive: Statement,
    pub(super) release: Statement,
    pub(super) lock_identity: Statement,
    pub(super) lock_lease: Statement,
    pub(super) live_lease: Statement,
    pub(super) take: Statement,
    pub(super) mark: Statement,
    pub(super) unclaim: Statement,
    pub(super) held: Statement,
}

/// How many idle connections are kept: a holder makes one call at a time.
const IDLE: usize = 4;

/// Why a call failed.
pub(super) enum Failure {
    /// The database, or the way to it.
    Db(tokio_postgres::Error),
    /// An answer about the request (the lease is gone): the connection is sound.
    Refused(StoreErrorKind, String),
}

impl From<tokio_postgres::Error> for Failure {
    fn from(e: tokio_postgres::Error) -> Failure {
        Failure::Db(e)
    }
}

/// Cancels, in the background, what a connection runs at the database, unless disarmed
/// (`None`) before it is dropped: a call that was given up holds no row lock for long.
struct CancelOnDrop(
    Option<(
        tokio_postgres::CancelToken,
        Option<tokio_postgres_rustls::MakeRustlsConnect>,
    )>,
);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some((token, tls)) = self.0.take() else {
            return;
        };
        // Dropped outside a runtime (the runtime itself going), there is nobody to ask.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = match tls {
                    Some(tls) => token.cancel_query(tls).await,
                    None => token.cancel_query(tokio_postgres::NoTls).await,
                };
            });
        }
    }
}

impl Pool {
    /// One call: a connection (an idle one, or a new one), the work, within the bound.
    /// The connection goes back only after an answer; a call given up is cancelled at the
    /// database, so that it holds no row lock after its caller has gone.
    pub(super) async fn call<T>(
        self: &Arc<Pool>,
        op: &'static str,
        work: impl AsyncFnOnce(&mut Client, &Prepared) -> Result<T, Failure>,
    ) -> Result<T, StoreError> {
        let started = std::time::Instant::now();
        let attempt = async {
            let mut connection = match self.check_out() {
                Some(connection) => connection,
                None => self.open_in_background().await?,
            };
            // Given up (by this bound, or by the caller's, which drops this future), the
            // call is cancelled at the database.
            let mut given_up =
                CancelOnDrop(Some((connection.client.cancel_token(), self.tls.clone())));
            let answer = work(&mut connection.client, &connection.prepared).await;
            given_up.0 = None;
            if matches!(answer, Ok(_) | Err(Failure::Refused(..))) {
                self.check_in(connection);
            }
            answer
        };
        let result = tokio::time::timeout(self.bound, attempt).await;
        let elapsed_ms = crate::acquire::millis(started.elapsed());
        let (kind, result) = match result {
            Ok(Ok(answer)) => {
                event!(DEBUG, op, elapsed_ms, "PostgreSQL answered");
                return Ok(answer);
            }
            Ok(Err(Failure::Refused(kind, reason))) => (kind, reason),
            Ok(Err(Failure::Db(e))) => (super::kind(&e), super::cause(&e)),
            Err(_) => (
                StoreErrorKind::TimedOut,
                format!("no answer within {:?}", self.bound),
            ),
        };
        event!(DEBUG, op, elapsed_ms, error = %result, "PostgreSQL call failed");
        let _ = elapsed_ms;
        Err(StoreError::new(kind, format!("PostgreSQL {op}: {result}")))
    }

    /// A new connection, opened and prepared by a task of its own: if the call that asked
    /// for it is given up meanwhile (a slow TLS handshake, authentication), the task puts
    /// it in the pool for the next call, so that a slow way to the database is paid once.
    async fn open_in_background(self: &Arc<Pool>) -> Result<Connection, Failure> {
        let (send, receive) = tokio::sync::oneshot::channel();
        let pool = Arc::clone(self);
        tokio::spawn(async move {
            let opened = async {
                let client = pool.open().await?;
                let prepared = pool.prepare(&client).await?;
                Ok(Connection { client, prepared })
            }
            .await;
            if let Err(Ok(connection)) = send.send(opened) {
                pool.check_in(connection);
            }
        });
        match receive.await {
            Ok(opened) => opened.map_err(Failure::Db),
            Err(_) => Err(Failure::Refused(
                StoreErrorKind::Other,
                "the task opening a connection ended without one".to_owned(),
            )),
        }
    }

    /// A new connection, its driver spawned on the runtime.
    pub(super) async fn open(&self) -> Result<Client, tokio_postgres::Error> {
        // The driver ends with an error when the database goes; the calls on it say so.
        Ok(if let Some(tls) = &self.tls {
            let (client, connection) = self.config.connect(tls.clone()).await?;
            tokio::spawn(connection);
            client
        } else {
            let (client, connection) = self.config.connect(tokio_postgres::NoTls).await?;
            tokio::spawn(connection);
            client
        })
    }

    fn check_out(&self) -> Option<Connection> {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        // A restarted database closed them: they go, and a new one is made.
        while let Some(connection) = idle.pop() {
            if !connection.client.is_closed() {
                return Some(connection);
            }
        }
        None
    }

    pub(super) fn check_in(&self, connection: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < IDLE && !connection.client.is_closed() {
            idle.push(connection);
        }
    }

    pub(super) async fn prepare(&self, client: &Client) -> Result<Prepared, tokio_postgres::Error> {
        let s = &self.sql;
        // Asked together: two round trips' wait, not ten.
        let (grant, keep_alive, release, lock_identity, lock_lease) = tokio::try_join!(
            client.prepare(&s.grant),
            client.prepare(&s.keep_alive),
            client.prepare(&s.release),
            client.prepare(&s.lock_identity),
            client.prepare(&s.lock_lease),
        )?;
        let (live_lease, take, mark, unclaim, held) = tokio::try_join!(
            client.prepare(&s.live_lease),
            client.prepare(&s.take),
            client.prepare(&s.mark),
            client.prepare(&s.unclaim),
            client.prepare(&s.held),
        )?;
        Ok(Prepared {
            grant,
            keep_alive,
            release,
            lock_identity,
            lock_lease,
            live_lease,
            take,
            mark,
            unclaim,
            held,
        })
    }
}
