//! The leased generator against a real PostgreSQL on loopback (Debian's `postgresql`), each
//! test with its own server, run as the `postgres` user: the store suite (`tests/suite`),
//! and what only PostgreSQL has. Holders in other processes, so that they can be killed
//! and stopped, run the crate's `snowflake-lease-holder` binary.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use snowflake_lease::{
    Claim, Identity, LeaseError, LeaseOptions, LeasedGenerator, PgConfig, PgStore, Reservation,
    Store, StoreKind,
};
use snowflake_test_support::Postgres;

use crate::suite::{Fixture, options, store_suite};

mod suite;
mod support;

use crate::support::said;

store_suite!(
    Postgres,
    needs: "needs PostgreSQL: bash scripts/test.sh installs it",
    partition needs: "needs PostgreSQL, and root with iproute2 for a network namespace: bash scripts/test.sh installs them"
);

impl Fixture for Postgres {
    type Store = PgStore;

    async fn store(&self, options: &LeaseOptions) -> PgStore {
        PgStore::connect(PgConfig::new(&self.url()).unwrap(), options)
            .await
            .unwrap()
    }

    /// The identities whose lease has not run out by the database's clock.
    async fn owners(&self) -> usize {
        self.psql(
            "SELECT count(*) FROM snowflake.identities i JOIN snowflake.leases l \
             ON l.id = i.lease_id WHERE l.expires_at > clock_timestamp()",
        )
        .parse()
        .unwrap()
    }

    async fn mark(&self, identity: Identity, _: &LeaseOptions) -> u64 {
        self.psql(&format!(
            "SELECT hwm_ms FROM snowflake.identities WHERE datacenter = {} AND machine = {}",
            identity.datacenter(),
            identity.machine()
        ))
        .parse()
        .unwrap()
    }

    /// As a person cleaning the table would: every lease deleted.
    async fn end_lease(&self, _: Identity, _: &LeaseOptions) {
        self.psql("DELETE FROM snowflake.leases");
    }
}

/// Expiry on the database's clock: a lease of 1 s not kept alive ends, and then its
/// identity is free, its reservations refused, its keep-alive answered "gone". The schema
/// keeps the fence's preconditions: no mark lowered, no row deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_lease_ends_on_the_databases_clock_and_the_marks_are_kept() {
    let pg = Postgres::start();
    let store = pg.store(&LeaseOptions::default()).await;
    let (free, ttl) = (Identity::new(4, 4).unwrap(), Duration::from_secs(10));
    let mark = store.grant(ttl).await.unwrap();
    store
        .claim(Identity::new(3, 3).unwrap(), mark, "me")
        .await
        .unwrap();
    store
        .reserve(Identity::new(3, 3).unwrap(), mark, 0, 200)
        .await
        .unwrap();
    let short = store.grant(Duration::from_secs(1)).await.unwrap();
    assert_eq!(
        store.claim(free, short, "short").await.unwrap(),
        Claim::Won { hwm_ms: 0 }
    );
    assert_eq!(
        store.keep_alive(short).await.unwrap(),
        Some(Duration::from_secs(1))
    );
    let later = store.grant(ttl).await.unwrap();
    assert_eq!(
        store.claim(free, later, "later").await.unwrap(),
        Claim::Held { by: "short".into() }
    );
    tokio::time::sleep(Duration::from_millis(1200)).await;
    // Run out, and no keep-alive brings it back, though nobody took it over yet.
    assert_eq!(store.keep_alive(short).await.unwrap(), None);
    assert_eq!(
        store.held().await.unwrap(),
        HashSet::from([Identity::new(3, 3).unwrap()])
    );
    assert_eq!(
        reserve_of(&store, free, short, 0, 10).await,
        Reservation::NotOwner
    );
    assert_eq!(
        store.claim(free, later, "later").await.unwrap(),
        Claim::Won { hwm_ms: 0 }
    );
    // Taken over: the expired lease is gone, and no keep-alive brings it back.
    assert_eq!(store.keep_alive(short).await.unwrap(), None);

    for sql in [
        "UPDATE snowflake.identities SET hwm_ms = 1 WHERE datacenter = 3 AND machine = 3",
        "DELETE FROM snowflake.identities WHERE datacenter = 3 AND machine = 3",
        "TRUNCATE snowflake.identities",
        "UPDATE snowflake.identities SET machine = 9 WHERE datacenter = 3 AND machine = 3",
    ] {
        let e = pg.try_psql(sql).unwrap_err();
        assert!(e.contains("snowflake-lease: "), "{sql}: {e}");
    }
    assert_eq!(
        pg.psql("SELECT count(*), max(hwm_ms) FROM snowflake.identities"),
        "1024|200"
    );
}

async fn reserve_of(
    store: &PgStore,
    identity: Identity,
    lease: snowflake_lease::LeaseId,
    expected: u64,
    new: u64,
) -> Reservation {
    store.reserve(identity, lease, expected, new).await.unwrap()
}

/// The schema: made once by stores that start together; the printed SQL applies as
/// printed to a fresh database and is then taken as it is; tables that differ are refused,
/// naming the difference, and nothing is changed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn the_schema_is_made_once_checked_and_printable() {
    let pg = Postgres::start();
    let options = LeaseOptions::default();
    let mut tasks = Vec::new();
    for _ in 0..4 {
        let config = PgConfig::new(&pg.url())
            .unwrap()
            .with_schema("made")
            .unwrap();
        let options = options.clone();
        tasks.push(tokio::spawn(async move {
            PgStore::connect(config, &options).await.map(drop)
        }));
    }
    for task in tasks {
        task.await.unwrap().unwrap();
    }
    assert_eq!(pg.psql("SELECT count(*) FROM made.identities"), "1024");

    // Printed, applied by hand (psql, one transaction), then used as it is.
    let sql = PgStore::schema_sql("reviewed").unwrap();
    pg.psql(&format!("BEGIN; {sql} COMMIT;"));
    let config = PgConfig::new(&pg.url())
        .unwrap()
        .with_schema("reviewed")
        .unwrap();
    let store = PgStore::connect(config, &options).await.unwrap();
    let lease = store.grant(Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        store
            .claim(Identity::new(31, 31).unwrap(), lease, "me")
            .await
            .unwrap(),
        Claim::Won { hwm_ms: 0 }
    );

    for (schema, change, names) in [
        (
            "typed",
            "ALTER TABLE typed.identities ALTER COLUMN hwm_ms TYPE numeric",
            "identities.hwm_ms numeric NOT NULL, where identities.hwm_ms bigint NOT NULL",
        ),
        (
            "rows",
            "ALTER TABLE rows.identities DISABLE TRIGGER keep_marks; \
             DELETE FROM rows.identities WHERE machine = 7",
            "identities has 992 rows",
        ),
        (
            "triggers",
            "DROP TRIGGER keep_marks ON triggers.identities",
            "the triggers keep_marks and keep_marks_whole",
        ),
        (
            "tables",
            "DROP TABLE tables.leases",
            "it has no table leases",
        ),
        (
            "policy",
            "ALTER TABLE policy.identities ENABLE ROW LEVEL SECURITY",
            "plain tables, without row-level security or rules",
        ),
        (
            "ruled",
            "CREATE RULE keep AS ON UPDATE TO ruled.identities DO INSTEAD NOTHING",
            "plain tables, without row-level security or rules",
        ),
        (
            "replica",
            "ALTER TABLE replica.identities ENABLE REPLICA TRIGGER keep_marks",
            "the triggers keep_marks and keep_marks_whole",
        ),
    ] {
        let sql = PgStore::schema_sql(schema).unwrap();
        pg.psql(&format!("BEGIN; {sql} {change}; COMMIT;"));
        let config = PgConfig::new(&pg.url())
            .unwrap()
            .with_schema(schema)
            .unwrap();
        let e = PgStore::connect(config, &options).await.unwrap_err();
        assert!(matches!(e, LeaseError::Schema { .. }), "{e}");
        let text = said(&e);
        assert!(text.contains(names), "{text}");
        assert!(
            text.starts_with(&format!("the PostgreSQL schema {schema} ")),
            "{text}"
        );
    }
    // Nothing was made where something differed.
    assert_eq!(pg.psql("SELECT to_regclass('tables.leases') IS NULL"), "t");
}

/// Where `snowflake.next_id()` issues from a registry in another schema, no second one is
/// made beside it: the database and the Rust holders would take one identity.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn no_second_registry_is_made_beside_next_ids() {
    let pg = Postgres::start();
    let options = LeaseOptions::default();
    pg.psql("CREATE DATABASE next_id_beside");
    let url = format!("{}/next_id_beside", pg.url().rsplit_once('/').unwrap().0);
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
        .batch_execute(
            &(snowflake_kit::sql::postgres_functions("issuer").unwrap()
                + &snowflake_kit::sql::postgres_next_id("issuer").unwrap()),
        )
        .await
        .unwrap();
    let config = PgConfig::new(&url).unwrap().with_schema("beside").unwrap();
    let e = PgStore::connect(config, &options).await.unwrap_err();
    assert!(matches!(e, LeaseError::Schema { .. }), "{e}");
    assert!(
        said(&e).contains(
            "snowflake.next_id() issues in this database from the registry in the schema \
             issuer: lease from that one (`PgConfig::with_schema(\"issuer\")`)"
        ),
        "{}",
        said(&e)
    );
    let made = client
        .query_one("SELECT to_regclass('beside.leases') IS NULL", &[])
        .await
        .unwrap();
    assert!(made.get::<_, bool>(0));
    // Its own registry it uses.
    let config = PgConfig::new(&url).unwrap().with_schema("issuer").unwrap();
    PgStore::connect(config, &options).await.unwrap();
}

/// A schema named as a keyword is made and used, quoted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_schema_named_as_a_keyword_works() {
    let pg = Postgres::start();
    let options = LeaseOptions::default();
    let config = PgConfig::new(&pg.url())
        .unwrap()
        .with_schema("user")
        .unwrap();
    let store = PgStore::connect(config, &options).await.unwrap();
    let lease = store.grant(Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        store
            .claim(Identity::new(0, 0).unwrap(), lease, "me")
            .await
            .unwrap(),
        Claim::Won { hwm_ms: 0 }
    );
    assert_eq!(
        pg.psql("SELECT holder FROM \"user\".identities WHERE lease_id IS NOT NULL"),
        "me"
    );
}

/// A schema applied by hand, and a role with only the rights the README names: `USAGE` on
/// the schema, `SELECT`, `INSERT`, `UPDATE` and `DELETE` on the two tables. It holds,
/// reserves, releases; it can neither make nor change the tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_role_with_only_the_rights_the_readme_names_leases() {
    let pg = Postgres::start();
    let sql = PgStore::schema_sql("ids").unwrap();
    pg.psql(&format!(
        "BEGIN; {sql} REVOKE CREATE ON DATABASE postgres FROM ids; \
         GRANT USAGE ON SCHEMA ids TO ids; \
         GRANT SELECT, INSERT, UPDATE, DELETE ON ids.leases, ids.identities TO ids; COMMIT;"
    ));
    let config = PgConfig::new(&pg.ids_url())
        .unwrap()
        .with_password(Postgres::PASSWORD)
        .with_schema("ids")
        .unwrap();
    let options = options(2, 9, 3);
    let generator = LeasedGenerator::start(
        PgStore::connect(config.clone(), &options).await.unwrap(),
        options.clone(),
    )
    .await
    .unwrap();
    assert!(generator.try_next_id().is_ok());
    generator.release().await;
    // Where it would have to make the tables, it is refused, naming the schema.
    let e = PgStore::connect(config.with_schema("other").unwrap(), &options)
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            LeaseError::Denied {
                store: StoreKind::Postgres,
                ..
            }
        ),
        "{e}"
    );
    assert!(said(&e).contains("on the schema other"), "{e}");
    assert!(pg.try_psql("SET ROLE ids; DROP TABLE ids.leases").is_err());
}

/// Passwords and certificates: TLS verified against the CA works; a wrong password, none,
/// no TLS where the server demands it, a CA that did not sign the server's certificate, a
/// name it does not cover, `sslmode=require` without a CA, a CA that is not PEM: each a
/// clear error naming the cause, and never the password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn bad_passwords_and_certificates_are_clear_errors_and_tls_works() {
    let pg = Postgres::start_with(&[], true);
    let mut options = LeaseOptions::default();
    options.connect_timeout = Duration::from_secs(2);
    let ca = std::fs::read(pg.ca()).unwrap();
    let connect = |config: PgConfig| PgStore::connect(config, &options);

    // TLS with the CA: works, and the password may come from the URL or be given.
    let url = pg.ids_url();
    let config = PgConfig::new(&url)
        .unwrap()
        .with_password(Postgres::PASSWORD)
        .with_ca_pem(ca.clone());
    let store = connect(config).await.unwrap();
    store.grant(Duration::from_secs(5)).await.unwrap();
    let with_password = url.replace("ids@", &format!("ids:{}@", Postgres::PASSWORD));
    connect(
        PgConfig::new(&with_password)
            .unwrap()
            .with_ca_pem(ca.clone()),
    )
    .await
    .unwrap();

    // A wrong password, and none: refused, naming the user; never the password.
    for (password, says) in [
        (Some("wrong-password"), "password authentication failed"),
        (None, "the database asks for a password and none was given"),
    ] {
        let mut config = PgConfig::new(&url).unwrap().with_ca_pem(ca.clone());
        if let Some(password) = password {
            config = config.with_password(password);
        }
        let e = connect(config).await.unwrap_err();
        let text = said(&e);
        assert!(
            matches!(&e, LeaseError::Denied { store: StoreKind::Postgres, user: Some(user), .. } if user == "ids"),
            "{text}"
        );
        assert!(text.contains(says), "{text}");
        assert!(!text.contains("wrong-password"), "{text}");
    }
    // Without TLS, the server refuses (hostnossl reject), saying so.
    let e = connect(
        PgConfig::new(&url)
            .unwrap()
            .with_password(Postgres::PASSWORD),
    )
    .await
    .unwrap_err();
    assert!(matches!(e, LeaseError::Denied { .. }), "{e}");
    assert!(said(&e).contains("no encryption"), "{e}");
    let other = std::fs::read(pg.other_ca()).unwrap();
    let e = connect(
        PgConfig::new(&url)
            .unwrap()
            .with_password(Postgres::PASSWORD)
            .with_ca_pem(other),
    )
    .await
    .unwrap_err();
    assert!(matches!(e, LeaseError::Unreachable { .. }), "{e}");
    assert!(said(&e).to_lowercase().contains("certificate"), "{e}");
    // A name the certificate does not cover.
    let e = connect(
        PgConfig::new(&url.replace("127.0.0.1", "localhost"))
            .unwrap()
            .with_password(Postgres::PASSWORD)
            .with_ca_pem(ca.clone()),
    )
    .await
    .unwrap_err();
    assert!(said(&e).to_lowercase().contains("certificate"), "{e}");
    // sslmode=require without a CA, and a CA that is not PEM: said before connecting.
    let e = connect(PgConfig::new(&format!("{url}?sslmode=require")).unwrap())
        .await
        .unwrap_err();
    assert!(said(&e).contains("needs the CA"), "{e}");
    let e = connect(
        PgConfig::new(&url)
            .unwrap()
            .with_ca_pem(b"not a certificate".to_vec()),
    )
    .await
    .unwrap_err();
    assert!(said(&e).contains("the CA: no certificate"), "{e}");
    // A kind of its own, which the server turns into a bad --postgres-ca: no text matched.
    assert!(
        matches!(
            e,
            LeaseError::InvalidCa {
                store: StoreKind::Postgres,
                ..
            }
        ),
        "{e:?}"
    );
}

/// Nobody listening, and a listener that never answers: each an error within the connect
/// timeout, naming the address and never the password.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silence_is_a_clear_error_within_the_connect_timeout() {
    let mut options = LeaseOptions::default();
    options.connect_timeout = Duration::from_secs(2);
    let connect = |config: PgConfig| PgStore::connect(config, &options);
    let port = snowflake_test_support::free_port();
    let e = connect(PgConfig::new(&format!("postgres://ids:s3cret@127.0.0.1:{port}/x")).unwrap())
        .await
        .unwrap_err();
    let text = format!("{:#}", anyhow::Error::new(e));
    assert!(
        text.starts_with(&format!(
            "cannot reach PostgreSQL at postgres://ids@127.0.0.1:{port}/x (giving up after 2s): "
        )),
        "{text}"
    );
    assert!(!text.contains("s3cret"), "{text}");
    // Something listens and never answers: the connect timeout.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let started = Instant::now();
    let e = connect(PgConfig::new(&format!("postgres://ids@127.0.0.1:{port}/x")).unwrap())
        .await
        .unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert!(matches!(e, LeaseError::Unreachable { .. }), "{e}");
}

/// The database's own issuer (`snowflake.next_id()`, from `sql::postgres_next_id`) and a
/// Rust holder on the same tables: neither claims what the other holds, and whoever takes
/// an identity after the database starts above every ID it issued.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn the_database_and_a_rust_holder_never_hold_one_identity() {
    let pg = Postgres::start();
    let holder = LeasedGenerator::start(pg.store(&options(1, 1, 10)).await, options(1, 1, 10))
        .await
        .unwrap();
    let sql = snowflake_kit::sql::postgres_functions("snowflake").unwrap()
        + &snowflake_kit::sql::postgres_next_id("snowflake").unwrap();
    pg.psql(&sql);
    let refused = pg
        .try_psql("CALL snowflake.claim_identity(1, 1)")
        .unwrap_err();
    assert!(
        refused.contains("claim_identity: no free identity: (1, 1) is held"),
        "{refused}"
    );
    // The database holds (2, 2): the holder that asks for it waits, and is refused.
    pg.psql("CALL snowflake.claim_identity(2, 2)");
    let ids: Vec<u64> = (0..500)
        .map(|_| pg.psql("SELECT snowflake.next_id()").parse().unwrap())
        .collect();
    let mut two = options(2, 2, 10);
    two.claim_wait = Duration::from_millis(300);
    let held = LeasedGenerator::start(pg.store(&two).await, two.clone()).await;
    assert!(matches!(held, Err(LeaseError::Held { .. })), "{held:?}");
    // Released, its mark is the database's last millisecond, and the holder that takes it
    // next issues above.
    pg.psql("CALL snowflake.release_identity()");
    let last = snowflake_kit::Snowflake::try_from(*ids.iter().max().unwrap()).unwrap();
    let mark: u64 = pg
        .psql("SELECT hwm_ms FROM snowflake.identities WHERE (datacenter, machine) = (2, 2)")
        .parse()
        .unwrap();
    assert_eq!(mark, last.timestamp_ms());
    let successor = LeasedGenerator::start(pg.store(&two).await, two)
        .await
        .unwrap();
    let first = successor.try_next_id().unwrap();
    assert!(
        first.timestamp_ms() > mark,
        "{first:?} at or below the mark {mark}"
    );
    assert!(holder.try_next_id().is_ok());
    successor.release().await;
    holder.release().await;
}
