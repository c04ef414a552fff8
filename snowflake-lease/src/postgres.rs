//! The [`Store`] on PostgreSQL: [`PgStore`].
//!
//! Two tables in a schema of the user's (`snowflake` by default): `leases`, each ending on
//! the database's clock unless kept alive, and `identities`, the 1,024 rows of who holds
//! each identity and its high-water mark. Every call is one statement or one transaction
//! at the default isolation (read committed), made safe by row locks taken in one order:
//! an identity's row first, then a lease's. Expiry is judged in the statements, by the
//! database's clock, never by a holder's.

mod config;
mod pool;
mod schema;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_postgres::Client;
use tokio_postgres::error::SqlState;

pub use self::config::PgConfig;
use self::pool::{Failure, Pool};
use self::schema::SchemaFailure;
use crate::error::{Cause, LeaseError, StoreKind, with_sources};
use crate::store::{Claim, Identity, LeaseId, Reservation, Store, StoreError, StoreErrorKind};

/// Identities leased from PostgreSQL, with the protocol and guarantee of
/// [`EtcdStore`](crate::EtcdStore): a lease per holder that ends on the database's clock,
/// an identity claimed with its high-water mark read in the same transaction, and the
/// mark raised only by a compare-and-set that also checks ownership.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use snowflake_lease::{LeaseOptions, LeasedGenerator, PgConfig, PgStore};
///
/// let options = LeaseOptions::default();
/// let config = PgConfig::new("postgres://ids@db.internal/app")?
///     .with_password(std::env::var("PGPASSWORD")?)
///     .with_ca_pem(std::fs::read("ca.pem")?);
/// let store = PgStore::connect(config, &options).await?;
/// let generator = LeasedGenerator::start(store, options).await?;
/// let id = generator.try_next_id()?;
/// # Ok(()) }
/// ```
///
/// # What the guarantee needs of PostgreSQL
///
/// Every holder of an identity uses the same database and schema, on a single primary.
/// Nobody lowers a mark or deletes a row of `identities` (the schema's triggers refuse
/// both). After a failover, the marks survive only if the promoted standby had every
/// commit: synchronous replication (`synchronous_commit = on` with a synchronous
/// standby); an asynchronous standby can lose the last reservation, and a successor can
/// then issue in milliseconds already used. The database's clock runs at the holders'
/// rate, within the tenth of the TTL that a holder's deadline keeps before the
/// database's; a database clock stepped ahead ends leases early, which costs the
/// deadline, never uniqueness, since the marks fence the IDs.
#[derive(Clone)]
pub struct PgStore {
    pool: Arc<Pool>,
    /// For `Debug`: the URL without its password, and the schema.
    endpoint: Arc<str>,
    schema: Arc<str>,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("endpoint", &self.endpoint)
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

impl PgStore {
    /// Connects to the database of `config`, makes the schema's tables if it has none of
    /// them, and checks that they are this crate's. Fails within the options' connect
    /// timeout, naming the cause.
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidEndpoint`] (a CA that cannot be read; `sslmode=require`
    /// without one), [`LeaseError::Unreachable`] (refused, no answer, TLS failed),
    /// [`LeaseError::Denied`] (the password, or no right to make or use the schema), or
    /// [`LeaseError::Schema`] (tables that differ from [`PgStore::schema_sql`]'s).
    pub async fn connect(
        config: PgConfig,
        options: &crate::LeaseOptions,
    ) -> Result<PgStore, LeaseError> {
        let tls = config.tls()?;
        let mut pg = config.config.clone();
        if tls.is_some() {
            pg.ssl_mode(tokio_postgres::config::SslMode::Require);
        }
        // The holder's bound on a call: past it nobody waits for the answer, so the
        // database need not go on either.
        let bound = options.call_bound().min(options.connect_timeout);
        // At least a millisecond: 0 would turn the database's timeouts off.
        let ms = bound.as_millis().max(1);
        // Ours after the URL's own: the later setting wins. A reservation is committed only
        // once it is on disk (and on a synchronous standby, where one is configured), whatever
        // the database's or the role's default: a commit acknowledged and then lost would let a
        // successor reuse milliseconds.
        let settings = format!(
            "{} -c statement_timeout={ms} -c lock_timeout={ms} \
             -c idle_in_transaction_session_timeout={ms} -c synchronous_commit=on",
            pg.get_options().unwrap_or_default()
        );
        pg.application_name("snowflake-lease")
            .connect_timeout(options.connect_timeout)
            .keepalives(true)
            // At least a second: the kernel counts whole ones (and truncates the rest).
            .keepalives_idle((options.ttl / 3).max(Duration::from_secs(1)))
            // A peer that stops acknowledging (a partition) ends the connection within the
            // bound, rather than the kernel's quarter of an hour.
            .tcp_user_timeout(bound)
            .options(settings.trim_start());
        let store = PgStore {
            pool: Arc::new(Pool {
                config: pg,
                tls,
                sql: schema::Statements::new(&config.schema),
                bound,
                idle: Mutex::new(Vec::new()),
            }),
            endpoint: config.endpoint().into(),
            schema: config.schema().into(),
        };
        let failed = |cause: Cause, denied: bool| {
            if denied {
                LeaseError::Denied {
                    store: StoreKind::Postgres,
                    user: config.user().map(str::to_owned),
                    scope: config.schema().to_owned(),
                    cause,
                }
            } else {
                LeaseError::Unreachable {
                    store: StoreKind::Postgres,
                    endpoint: config.endpoint().to_owned(),
                    timeout: options.connect_timeout,
                    cause,
                }
            }
        };
        let first = async {
            let pool = &store.pool;
            let mut client = pool.open().await?;
            schema::ensure(
                &mut client,
                &pool.sql,
                &store.schema,
                options.connect_timeout,
            )
            .await?;
            let prepared = pool.prepare(&client).await?;
            Ok::<_, SchemaFailure>(pool::Connection { client, prepared })
        };
        match tokio::time::timeout(options.connect_timeout, first).await {
            Ok(Ok(connection)) => {
                store.pool.check_in(connection);
                Ok(store)
            }
            Ok(Err(SchemaFailure::Differs(e))) => Err(e),
            Ok(Err(SchemaFailure::Db(e))) if missing_password(&e) => Err(failed(
                Cause::new(
                    "the database asks for a password and none was given: put it in the URL, \
                     or give it (PgConfig::with_password; snowflake-server: \
                     --postgres-password-file or PGPASSWORD)",
                    Some(Arc::new(e)),
                ),
                true,
            )),
            Ok(Err(SchemaFailure::Db(e))) => {
                let denied = is_denied(&e);
                Err(failed(Cause::new(cause(&e), Some(Arc::new(e))), denied))
            }
            Err(_) => Err(failed(Cause::new("no answer", None), false)),
        }
    }

    /// The SQL that makes the store's tables in `schema`, for a migration that a person
    /// reviews (`snowflake-server --print-postgres-schema`); it applies as printed to a
    /// database that has none of them.
    ///
    /// ```
    /// let sql = snowflake_lease::PgStore::schema_sql("snowflake")?;
    /// assert!(sql.contains(r#"CREATE TABLE "snowflake".identities"#));
    /// # Ok::<(), snowflake_lease::LeaseError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidOption`] for a schema name [`PgConfig::with_schema`] refuses.
    pub fn schema_sql(schema: &str) -> Result<String, LeaseError> {
        config::check_schema(schema)?;
        Ok(schema::sql(schema))
    }
}

/// A wrong password, an unknown user, or no right to the schema.
fn is_denied(e: &tokio_postgres::Error) -> bool {
    e.code().is_some_and(|code| {
        [
            SqlState::INVALID_PASSWORD,
            SqlState::INVALID_AUTHORIZATION_SPECIFICATION,
            SqlState::INSUFFICIENT_PRIVILEGE,
        ]
        .contains(code)
    })
}

/// The database asked for a password, and none was given: tokio-postgres says so in its own
/// words, with no code from the database.
fn missing_password(e: &tokio_postgres::Error) -> bool {
    e.as_db_error().is_none() && cause(e).contains("password missing")
}

/// Which failure a client's error is: a refusal of the user, another answer of the
/// database's (it sent a code), or the way to it (no code: a connection refused or lost).
fn kind(e: &tokio_postgres::Error) -> StoreErrorKind {
    if is_denied(e) {
        StoreErrorKind::Denied
    } else if e.as_db_error().is_some() {
        StoreErrorKind::Other
    } else {
        StoreErrorKind::Unreachable
    }
}

/// What went wrong, with the database's own message when it sent one, and the cause
/// (such as a certificate's) below the client's words.
fn cause(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    with_sources(e)
}

/// A transaction at read committed, whatever the database's default: the row locks and
/// their rechecks are what make the calls safe, and a stricter level would only refuse.
async fn read_committed(
    client: &mut Client,
) -> Result<tokio_postgres::Transaction<'_>, tokio_postgres::Error> {
    client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::ReadCommitted)
        .start()
        .await
}

/// An identity's numbers as the columns hold them.
fn columns(identity: Identity) -> (i16, i16) {
    (
        i16::from(identity.datacenter()),
        i16::from(identity.machine()),
    )
}

/// Unix ms as a `bigint`: below 2^63 for 292 million years.
fn ms_column(ms: u64) -> Result<i64, Failure> {
    i64::try_from(ms).map_err(|_| {
        Failure::Refused(
            StoreErrorKind::Other,
            format!("{ms} ms does not fit a bigint"),
        )
    })
}

fn ms_value(ms: i64) -> u64 {
    // The column's CHECK keeps it at 0 or above.
    u64::try_from(ms).unwrap_or(0)
}

impl Store for PgStore {
    async fn grant(&self, ttl: Duration) -> Result<LeaseId, StoreError> {
        let ttl_ms = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX).max(1);
        self.pool
            .call("grant", async |client, p| {
                let row = client.query_one(&p.grant, &[&ttl_ms]).await?;
                Ok(LeaseId(row.get(0)))
            })
            .await
    }

    async fn claim(
        &self,
        identity: Identity,
        lease: LeaseId,
        holder: &str,
    ) -> Result<Claim, StoreError> {
        let (dc, machine) = columns(identity);
        self.pool
            .call("claim", async |client, p| {
                let tx = read_committed(client).await?;
                let row = tx.query_one(&p.lock_identity, &[&dc, &machine]).await?;
                let (owner, by, hwm_ms): (Option<i64>, Option<String>, i64) =
                    (row.get(0), row.get(1), row.get(2));
                if let Some(owner) = owner {
                    match tx.query_opt(&p.lock_lease, &[&owner]).await? {
                        Some(row) if row.get::<_, bool>(0) => {
                            tx.rollback().await?;
                            return Ok(Claim::Held {
                                by: by.unwrap_or_default(),
                            });
                        }
                        // Expired, and locked: no keep-alive can bring it back now.
                        Some(_) => {
                            tx.execute(&p.release, &[&owner]).await?;
                        }
                        None => {}
                    }
                }
                if tx.query_opt(&p.live_lease, &[&lease.0]).await?.is_none() {
                    tx.rollback().await?;
                    return Err(Failure::Refused(
                        StoreErrorKind::LeaseGone,
                        format!("lease {} not found (expired or revoked)", lease.0),
                    ));
                }
                // One row, now ours: anything else (a rule, a policy, a trigger that kept the row
                // as it was) is no claim.
                let taken = tx
                    .query_opt(&p.take, &[&dc, &machine, &lease.0, &holder])
                    .await?;
                if taken.is_none_or(|row| row.get::<_, Option<i64>>(0) != Some(lease.0)) {
                    tx.rollback().await?;
                    return Err(Failure::Refused(
                        StoreErrorKind::Other,
                        "the claim changed no row".to_owned(),
                    ));
                }
                tx.commit().await?;
                Ok(Claim::Won {
                    hwm_ms: ms_value(hwm_ms),
                })
            })
            .await
    }

    async fn unclaim(&self, identity: Identity, lease: LeaseId) -> Result<(), StoreError> {
        let (dc, machine) = columns(identity);
        self.pool
            .call("unclaim", async |client, p| {
                client
                    .execute(&p.unclaim, &[&dc, &machine, &lease.0])
                    .await?;
                Ok(())
            })
            .await
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        self.pool
            .call("keep-alive", async |client, p| {
                let row = client.query_opt(&p.keep_alive, &[&lease.0]).await?;
                Ok(row.map(|row| Duration::from_millis(ms_value(row.get(0)))))
            })
            .await
    }

    async fn reserve(
        &self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> Result<Reservation, StoreError> {
        let (dc, machine) = columns(identity);
        self.pool
            .call("reserve", async |client, p| {
                let new = ms_column(new_ms)?;
                let tx = read_committed(client).await?;
                let row = tx.query_one(&p.lock_identity, &[&dc, &machine]).await?;
                let (owner, hwm_ms): (Option<i64>, i64) = (row.get(0), row.get(2));
                let hwm_ms = ms_value(hwm_ms);
                let lease_held = owner == Some(lease.0)
                    && tx.query_opt(&p.live_lease, &[&lease.0]).await?.is_some();
                if !lease_held {
                    tx.rollback().await?;
                    return Ok(Reservation::NotOwner);
                }
                // As in etcd: 0 is no mark yet, and a mark is never lowered.
                if hwm_ms != expected_ms || hwm_ms >= new_ms {
                    tx.rollback().await?;
                    return Ok(Reservation::MarkMoved { found_ms: hwm_ms });
                }
                // The mark as written, read back: a reservation that moved nothing is none.
                let marked = tx.query_opt(&p.mark, &[&dc, &machine, &new]).await?;
                if marked.is_none_or(|row| row.get::<_, i64>(0) != new) {
                    tx.rollback().await?;
                    return Err(Failure::Refused(
                        StoreErrorKind::Other,
                        "the reservation changed no mark".to_owned(),
                    ));
                }
                tx.commit().await?;
                Ok(Reservation::Committed)
            })
            .await
    }

    async fn release(&self, lease: LeaseId) -> Result<(), StoreError> {
        self.pool
            .call("release", async |client, p| {
                client.execute(&p.release, &[&lease.0]).await?;
                Ok(())
            })
            .await
    }

    async fn held(&self) -> Result<HashSet<Identity>, StoreError> {
        self.pool
            .call("read the owners", async |client, p| {
                let rows = client.query(&p.held, &[]).await?;
                Ok(rows
                    .iter()
                    .filter_map(|row| {
                        let (dc, machine): (i16, i16) = (row.get(0), row.get(1));
                        Identity::new(u64::try_from(dc).ok()?, u64::try_from(machine).ok()?).ok()
                    })
                    .collect())
            })
            .await
    }
}
