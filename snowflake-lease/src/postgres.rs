//! The [`Store`] on PostgreSQL: [`PgStore`].
//!
//! Two tables in a schema of the user's (`snowflake` by default): `leases`, each ending on
//! the database's clock unless kept alive, and `identities`, the 1,024 rows of who holds
//! each identity and its high-water mark. Every call is one statement or one transaction
//! at the default isolation (read committed), made safe by row locks taken in one order:
//! an identity's row first, then a lease's. Expiry is judged in the statements, by the
//! database's clock, never by a holder's.

mod config;
mod schema;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Statement};

pub use self::config::PgConfig;
use crate::error::{LeaseError, StoreKind};
use crate::events::event;
use crate::store::{Claim, Identity, LeaseId, Reservation, Store, StoreError};

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
    inner: Arc<Inner>,
}

struct Inner {
    config: tokio_postgres::Config,
    tls: Option<tokio_postgres_rustls::MakeRustlsConnect>,
    sql: schema::Statements,
    endpoint: String,
    schema: String,
    /// The bound on one call, connecting included; the database ends our statements, lock
    /// waits and idle transactions after it too, so that a holder cut off mid-transaction
    /// holds no row for long.
    bound: Duration,
    /// Connections that answered their last call, ready for the next. One that failed or
    /// was given up is dropped, never reused: it may hang, or be mid-transaction.
    idle: Mutex<Vec<Connection>>,
}

/// A connection and its prepared statements.
struct Connection {
    client: Client,
    prepared: Prepared,
}

struct Prepared {
    grant: Statement,
    keep_alive: Statement,
    release: Statement,
    lock_identity: Statement,
    lock_lease: Statement,
    drop_lease: Statement,
    live_lease: Statement,
    take: Statement,
    mark: Statement,
    unclaim: Statement,
    held: Statement,
}

/// How many idle connections are kept: a holder makes one call at a time.
const IDLE: usize = 4;

/// Why a call failed.
enum Failure {
    /// The database, or the way to it.
    Db(tokio_postgres::Error),
    /// An answer about the request (the lease is gone): the connection is sound.
    Refused(String),
}

impl From<tokio_postgres::Error> for Failure {
    fn from(e: tokio_postgres::Error) -> Failure {
        Failure::Db(e)
    }
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("endpoint", &self.inner.endpoint)
            .field("schema", &self.inner.schema)
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
        let PgConfig {
            config: mut pg,
            ca_pem,
            schema,
            ..
        } = config.clone();
        let endpoint = config.endpoint().to_owned();
        let invalid = |reason: String| LeaseError::InvalidEndpoint {
            store: StoreKind::Postgres,
            endpoint: endpoint.clone(),
            reason,
        };
        let tls = match &ca_pem {
            Some(pem) => {
                pg.ssl_mode(tokio_postgres::config::SslMode::Require);
                Some(make_tls(pem).map_err(|e| invalid(format!("the CA: {e}")))?)
            }
            None if pg.get_ssl_mode() == tokio_postgres::config::SslMode::Require => {
                return Err(invalid(
                    "sslmode=require needs the CA that signed the server's certificate \
                     (PgConfig::with_ca_pem, --postgres-ca)"
                        .to_owned(),
                ));
            }
            None => None,
        };
        let bound = (options.ttl / 3).min(options.connect_timeout);
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
            // Whole seconds, at least one: the kernel's unit.
            .keepalives_idle((options.ttl / 3).max(Duration::from_secs(1)))
            // A peer that stops acknowledging (a partition) ends the connection within the
            // bound, rather than the kernel's quarter of an hour.
            .tcp_user_timeout(bound)
            .options(settings.trim_start());
        let store = PgStore {
            inner: Arc::new(Inner {
                config: pg,
                tls,
                sql: schema::Statements::new(&schema),
                endpoint: endpoint.clone(),
                schema: schema.clone(),
                bound,
                idle: Mutex::new(Vec::new()),
            }),
        };
        let unreachable = |reason: String| LeaseError::Unreachable {
            store: StoreKind::Postgres,
            endpoint: endpoint.clone(),
            timeout: options.connect_timeout,
            reason,
        };
        let denied = |reason: String| LeaseError::Denied {
            store: StoreKind::Postgres,
            user: config.user().map(str::to_owned),
            prefix: schema.clone(),
            reason,
        };
        let first = async {
            let mut client = store.inner.open().await?;
            store.inner.ensure_schema(&mut client).await?;
            let prepared = store.inner.prepare(&client).await?;
            Ok::<_, SchemaFailure>(Connection { client, prepared })
        };
        match tokio::time::timeout(options.connect_timeout, first).await {
            Ok(Ok(connection)) => {
                store.inner.check_in(connection);
                Ok(store)
            }
            Ok(Err(SchemaFailure::Differs(e))) => Err(e),
            Ok(Err(SchemaFailure::Db(e))) if is_denied(&e) => Err(denied(cause(&e))),
            Ok(Err(SchemaFailure::Db(e))) => Err(unreachable(cause(&e))),
            Err(_) => Err(unreachable("no answer".to_owned())),
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

    /// One call: a connection (an idle one, or a new one), the work, within the bound.
    /// The connection goes back only after an answer; a call given up is cancelled at the
    /// database, so that it holds no row lock after its caller has gone.
    async fn call<T>(
        &self,
        op: &'static str,
        work: impl AsyncFnOnce(&mut Client, &Prepared) -> Result<T, Failure>,
    ) -> Result<T, StoreError> {
        let inner = &*self.inner;
        let started = std::time::Instant::now();
        let mut cancel = None;
        let attempt = async {
            let mut connection = match inner.check_out() {
                Some(connection) => connection,
                None => self.open_in_background().await?,
            };
            cancel = Some(connection.client.cancel_token());
            let answer = work(&mut connection.client, &connection.prepared).await;
            if matches!(answer, Ok(_) | Err(Failure::Refused(_))) {
                inner.check_in(connection);
            }
            answer
        };
        let result = tokio::time::timeout(inner.bound, attempt).await;
        let elapsed_ms = started.elapsed().as_millis();
        let result = match result {
            Ok(Ok(answer)) => {
                event!(DEBUG, op, elapsed_ms, "PostgreSQL answered");
                return Ok(answer);
            }
            Ok(Err(Failure::Refused(reason))) => reason,
            Ok(Err(Failure::Db(e))) => cause(&e),
            Err(_) => {
                if let Some(cancel) = cancel {
                    inner.cancel(cancel);
                }
                format!("no answer within {:?}", inner.bound)
            }
        };
        event!(DEBUG, op, elapsed_ms, error = %result, "PostgreSQL call failed");
        let _ = elapsed_ms;
        Err(StoreError(format!("PostgreSQL {op}: {result}")))
    }

    /// A new connection, opened and prepared by a task of its own that puts it in the pool:
    /// a call given up while it opens (TLS, authentication, the statements) leaves it for the
    /// next call, so that a slow way to the database is paid once, not by every call.
    async fn open_in_background(&self) -> Result<Connection, Failure> {
        let inner = Arc::clone(&self.inner);
        let opened = tokio::spawn(async move {
            let client = inner.open().await?;
            let prepared = inner.prepare(&client).await?;
            inner.check_in(Connection { client, prepared });
            Ok::<_, tokio_postgres::Error>(())
        });
        match opened.await {
            Ok(Ok(())) => self.inner.check_out().ok_or_else(|| {
                Failure::Refused("the connection just made was taken by another call".to_owned())
            }),
            Ok(Err(e)) => Err(Failure::Db(e)),
            Err(e) => Err(Failure::Refused(format!(
                "opening a connection failed: {e}"
            ))),
        }
    }
}

/// Connecting and checking the schema: the database failed, or the tables differ.
enum SchemaFailure {
    Db(tokio_postgres::Error),
    Differs(LeaseError),
}

impl From<tokio_postgres::Error> for SchemaFailure {
    fn from(e: tokio_postgres::Error) -> SchemaFailure {
        SchemaFailure::Db(e)
    }
}

impl Inner {
    /// A new connection, its driver spawned on the runtime.
    async fn open(&self) -> Result<Client, tokio_postgres::Error> {
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

    /// Cancels what a connection given up runs at the database, in the background.
    fn cancel(&self, token: tokio_postgres::CancelToken) {
        let tls = self.tls.clone();
        tokio::spawn(async move {
            let _ = match tls {
                Some(tls) => token.cancel_query(tls).await,
                None => token.cancel_query(tokio_postgres::NoTls).await,
            };
        });
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

    fn check_in(&self, connection: Connection) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        if idle.len() < IDLE && !connection.client.is_closed() {
            idle.push(connection);
        }
    }

    async fn prepare(&self, client: &Client) -> Result<Prepared, tokio_postgres::Error> {
        let s = &self.sql;
        // Asked together: one round trip's wait, not eleven.
        let (grant, keep_alive, release, lock_identity, lock_lease, drop_lease) = tokio::try_join!(
            client.prepare(&s.grant),
            client.prepare(&s.keep_alive),
            client.prepare(&s.release),
            client.prepare(&s.lock_identity),
            client.prepare(&s.lock_lease),
            client.prepare(&s.drop_lease),
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
            drop_lease,
            live_lease,
            take,
            mark,
            unclaim,
            held,
        })
    }

    /// Makes the tables if the schema has none of them (one maker at a time, under an
    /// advisory lock), then checks what is there: the columns, the 1,024 rows, the
    /// triggers that keep the marks.
    async fn ensure_schema(&self, client: &mut Client) -> Result<(), SchemaFailure> {
        let schema = self.schema.as_str();
        let columns = |rows: Vec<tokio_postgres::Row>| -> Vec<(String, String, String, String)> {
            rows.iter()
                .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3)))
                .collect()
        };
        let mut found = columns(client.query(schema::CHECK_COLUMNS, &[&schema]).await?);
        if found.is_empty() {
            let tx = client.transaction().await?;
            tx.execute(
                "SELECT pg_advisory_xact_lock(hashtext('snowflake-lease schema ' || $1::text))",
                &[&schema],
            )
            .await?;
            found = columns(tx.query(schema::CHECK_COLUMNS, &[&schema]).await?);
            if found.is_empty() {
                tx.batch_execute(&schema::sql(schema)).await?;
                event!(INFO, schema, "PostgreSQL: the lease store's tables made");
                found = columns(tx.query(schema::CHECK_COLUMNS, &[&schema]).await?);
            }
            tx.commit().await?;
        }
        schema::compare(schema, &found).map_err(SchemaFailure::Differs)?;
        let differs = |reason: String| {
            SchemaFailure::Differs(LeaseError::Schema {
                schema: schema.to_owned(),
                reason,
            })
        };
        let rows: i64 = client.query_one(&self.sql.count, &[]).await?.get(0);
        if rows != 1024 {
            return Err(differs(format!(
                "identities has {rows} rows, where it has one for each of the 1,024 \
                 identities; a deleted row is a lost high-water mark"
            )));
        }
        let row = client.query_one(&self.sql.guards, &[&schema]).await?;
        let (tables, rules, triggers, role): (i64, i64, i64, String) =
            (row.get(0), row.get(1), row.get(2), row.get(3));
        if tables != 2 || rules != 0 {
            return Err(differs(
                "identities and leases are to be plain tables, without row-level security or \
                 rules: either could make a write change nothing and say it did"
                    .to_owned(),
            ));
        }
        if triggers != 2 || role != "origin" {
            return Err(differs(format!(
                "the triggers keep_marks and keep_marks_whole, which refuse a lowered mark \
                 and a deleted row, are missing, disabled or not fired \
                 (session_replication_role is {role})"
            )));
        }
        Ok(())
    }
}

/// rustls, verifying the server's certificate and name against the CA in `pem`.
fn make_tls(pem: &[u8]) -> Result<tokio_postgres_rustls::MakeRustlsConnect, String> {
    use rustls_pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_pki_types::CertificateDer::pem_slice_iter(pem) {
        let cert = cert.map_err(|e| format!("not PEM: {e}"))?;
        roots
            .add(cert)
            .map_err(|e| format!("not a certificate: {e}"))?;
    }
    if roots.is_empty() {
        return Err("no certificate in it".to_owned());
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
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

/// What went wrong, with the database's own message when it sent one, and the cause
/// (such as a certificate's) below the client's words.
fn cause(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(inner) = source {
        let more = inner.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        source = inner.source();
    }
    text
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
    i64::try_from(ms).map_err(|_| Failure::Refused(format!("{ms} ms does not fit a bigint")))
}

fn ms_value(ms: i64) -> u64 {
    // The column's CHECK keeps it at 0 or above.
    u64::try_from(ms).unwrap_or(0)
}

impl Store for PgStore {
    async fn grant(&self, ttl: Duration) -> Result<LeaseId, StoreError> {
        let ttl_ms = i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX).max(1);
        self.call("grant", async |client, p| {
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
        self.call("claim", async |client, p| {
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
                        tx.execute(&p.drop_lease, &[&owner]).await?;
                    }
                    None => {}
                }
            }
            if tx.query_opt(&p.live_lease, &[&lease.0]).await?.is_none() {
                tx.rollback().await?;
                return Err(Failure::Refused(format!(
                    "lease {} not found (expired or revoked)",
                    lease.0
                )));
            }
            // One row, now ours: anything else (a rule, a policy, a trigger that kept the row
            // as it was) is no claim.
            let taken = tx
                .query_opt(&p.take, &[&dc, &machine, &lease.0, &holder])
                .await?;
            if taken.is_none_or(|row| row.get::<_, Option<i64>>(0) != Some(lease.0)) {
                tx.rollback().await?;
                return Err(Failure::Refused("the claim changed no row".to_owned()));
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
        self.call("unclaim", async |client, p| {
            client
                .execute(&p.unclaim, &[&dc, &machine, &lease.0])
                .await?;
            Ok(())
        })
        .await
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        self.call("keep-alive", async |client, p| {
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
        self.call("reserve", async |client, p| {
            let new = ms_column(new_ms)?;
            let tx = read_committed(client).await?;
            let row = tx.query_one(&p.lock_identity, &[&dc, &machine]).await?;
            let (owner, hwm_ms): (Option<i64>, i64) = (row.get(0), row.get(2));
            let hwm_ms = ms_value(hwm_ms);
            let lease_held =
                owner == Some(lease.0) && tx.query_opt(&p.live_lease, &[&lease.0]).await?.is_some();
            if !lease_held {
                tx.rollback().await?;
                return Ok(Reservation::NotOwner);
            }
            // As in etcd: 0 is no mark yet, and a mark is never lowered.
            if hwm_ms != expected_ms || hwm_ms >= new_ms {
                tx.rollback().await?;
                return Ok(Reservation::Moved { hwm_ms });
            }
            // The mark as written, read back: a reservation that moved nothing is none.
            let marked = tx.query_opt(&p.mark, &[&dc, &machine, &new]).await?;
            if marked.is_none_or(|row| row.get::<_, i64>(0) != new) {
                tx.rollback().await?;
                return Err(Failure::Refused(
                    "the reservation changed no mark".to_owned(),
                ));
            }
            tx.commit().await?;
            Ok(Reservation::Committed)
        })
        .await
    }

    async fn release(&self, lease: LeaseId) -> Result<(), StoreError> {
        self.call("release", async |client, p| {
            client.execute(&p.release, &[&lease.0]).await?;
            Ok(())
        })
        .await
    }

    async fn held(&self) -> Result<HashSet<Identity>, StoreError> {
        self.call("read the owners", async |client, p| {
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
