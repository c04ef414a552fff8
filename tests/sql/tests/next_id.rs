//! `snowflake.next_id()`, IDs issued by PostgreSQL itself (`sql::postgres_next_id`,
//! docs/next-id.md), on a real PostgreSQL: the claim, the IDs and the release; many sessions
//! and a million-row `INSERT ... SELECT` at once; rollbacks; more than 4,096 IDs in a
//! millisecond and a clock stepped back (libfaketime under the server); a crash (`pg_ctl
//! stop -m immediate`) with IDs in flight; a copy's claim; a stale snapshot; an error
//! inside the lock. Each guard of the design has a planted bug that one of these catches
//! (scripts/planted/next-id-*.patch). Against a Rust holder: snowflake-lease's tests.

mod support;

use std::collections::HashSet;

use snowflake_kit::Snowflake;
use snowflake_kit::sql::{postgres_functions, postgres_next_id};
use support::pg::{self, Pg};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls};

/// A database of its own on `pg`, with the functions and `next_id` loaded; a client of it.
async fn database(pg: &Pg, name: &str) -> Client {
    pg.psql(&format!("DROP DATABASE IF EXISTS {name}"));
    pg.psql(&format!("CREATE DATABASE {name}"));
    let client = connect(pg, name).await;
    let sql = postgres_functions("snowflake").unwrap() + &postgres_next_id("snowflake").unwrap();
    client.batch_execute(&sql).await.expect("next_id loads");
    // Twice: a migration may run it again.
    client
        .batch_execute(&sql)
        .await
        .expect("next_id loads again");
    client
}

/// Another session of `name`.
async fn connect(pg: &Pg, name: &str) -> Client {
    let url = pg.url();
    let url = format!("{}/{name}", url.rsplit_once('/').unwrap().0);
    let (client, connection) = tokio_postgres::connect(&url, NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    client
}

async fn next_id(client: &Client) -> Snowflake {
    let row = client
        .query_one("SELECT snowflake.next_id()", &[])
        .await
        .unwrap();
    Snowflake::try_from_i64(row.get(0)).unwrap()
}

/// `n` IDs from one session, one statement each.
async fn next_ids(client: &Client, n: usize) -> Vec<Snowflake> {
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        ids.push(next_id(client).await);
    }
    ids
}

/// The SQLSTATE and message of `sql`'s error.
async fn error_of(client: &Client, sql: &str) -> (SqlState, String) {
    let error = client.batch_execute(sql).await.expect_err(sql);
    let db = error
        .as_db_error()
        .unwrap_or_else(|| panic!("{sql}: {error}"));
    (db.code().clone(), db.message().to_owned())
}

fn increasing(ids: &[Snowflake]) -> bool {
    ids.windows(2).all(|w| w[0] < w[1])
}

const NO_IDENTITY: &str = "snowflake.next_id(): this database holds no identity to issue under";

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn claims_refuse_what_they_must() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_refusals").await;
    // Without a claim, an error saying how to claim one.
    let (code, message) = error_of(&client, "SELECT snowflake.next_id()").await;
    assert_eq!(
        (code, message.as_str()),
        (SqlState::OBJECT_NOT_IN_PREREQUISITE_STATE, NO_IDENTITY)
    );
    // The claim commits itself: never inside a transaction a rollback could take back.
    let (code, _) = error_of(&client, "BEGIN; CALL snowflake.claim_identity(3, 4)").await;
    assert_eq!(code, SqlState::INVALID_TRANSACTION_TERMINATION);
    client.batch_execute("ROLLBACK").await.unwrap();
    for (call, code, message) in [
        (
            "CALL snowflake.claim_identity(32)",
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            "claim_identity: datacenter 32 is out of range 0..=31 (5 bits)",
        ),
        (
            "CALL snowflake.claim_identity(1, -1)",
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            "claim_identity: machine -1 is out of range 0..=31 (5 bits)",
        ),
        (
            "CALL snowflake.claim_identity(NULL, 3)",
            SqlState::INVALID_PARAMETER_VALUE,
            "claim_identity: a machine needs its datacenter",
        ),
    ] {
        assert_eq!(
            error_of(&client, call).await,
            (code, message.to_owned()),
            "{call}"
        );
    }
    client
        .batch_execute("CALL snowflake.claim_identity(3, 4)")
        .await
        .unwrap();
    let (_, message) = error_of(&client, "CALL snowflake.claim_identity(5, 6)").await;
    assert_eq!(
        message,
        "claim_identity: this database holds (3, 4) already"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn claims_issues_and_releases() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_claims").await;
    client
        .batch_execute("CALL snowflake.claim_identity(3, 4)")
        .await
        .unwrap();
    let before_ms = u64::try_from(pg_now_ms(&client).await).unwrap();
    let ids = next_ids(&client, 2_000).await;
    assert!(increasing(&ids));
    assert!(
        ids.iter()
            .all(|id| (id.datacenter(), id.machine()) == (3, 4))
    );
    // Issued now: not behind the clock, at most its second ahead.
    assert!(ids[0].timestamp_ms() >= before_ms && ids[0].timestamp_ms() < before_ms + 2_000);
    // Held as a Rust holder sees a lease held (PgStore's `Held`), by this database.
    let held = client
        .query_one(
            "SELECT i.holder, l.expires_at = 'infinity' FROM snowflake.identities i \
             JOIN snowflake.leases l ON l.id = i.lease_id \
             WHERE l.expires_at > clock_timestamp() AND (i.datacenter, i.machine) = (3, 4)",
            &[],
        )
        .await
        .unwrap();
    let system: i64 = client
        .query_one("SELECT system_identifier FROM pg_control_system()", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(
        held.get::<_, String>(0),
        format!("postgres {system}/next_id_claims")
    );
    assert!(held.get::<_, bool>(1));
    // The same again keeps it.
    client
        .batch_execute("CALL snowflake.claim_identity()")
        .await
        .unwrap();
    let more = next_ids(&client, 10).await;
    assert!(more[0] > ids[ids.len() - 1]);
    // Released: nothing more, and the mark at the last millisecond issued.
    client
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    let (_, message) = error_of(&client, "SELECT snowflake.next_id()").await;
    assert_eq!(message, NO_IDENTITY);
    let mark: i64 = client
        .query_one(
            "SELECT hwm_ms FROM snowflake.identities WHERE (datacenter, machine) = (3, 4) \
             AND lease_id IS NULL AND holder IS NULL",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let last = more[more.len() - 1];
    assert_eq!(u64::try_from(mark).unwrap(), last.timestamp_ms());
    let leases: i64 = client
        .query_one("SELECT count(*) FROM snowflake.leases", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(leases, 0);
    let (_, message) = error_of(&client, "CALL snowflake.release_identity()").await;
    assert_eq!(message, "release_identity: this database holds no identity");
    // Claimed again: above its mark. Another identity, a lower one, in the same session:
    // still above every ID before (its next millisecond).
    client
        .batch_execute("CALL snowflake.claim_identity(3, 4)")
        .await
        .unwrap();
    let again = next_id(&client).await;
    assert!(
        again.timestamp_ms() > last.timestamp_ms(),
        "{again:?} after {last:?}"
    );
    client
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    client
        .batch_execute("CALL snowflake.claim_identity(0, 1)")
        .await
        .unwrap();
    let lower = next_id(&client).await;
    assert!(lower > again && (lower.datacenter(), lower.machine()) == (0, 1));
    // The first free, and the first free machine of a datacenter, as PgStore's auto.
    let other = connect(&pg, "next_id_claims").await;
    other
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    other
        .batch_execute("CALL snowflake.claim_identity(0)")
        .await
        .unwrap();
    assert_eq!(
        (
            next_id(&other).await.datacenter(),
            next_id(&other).await.machine()
        ),
        (0, 0)
    );
}

/// Unix ms by the server's clock.
async fn pg_now_ms(client: &Client) -> i64 {
    client
        .query_one(
            "SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint",
            &[],
        )
        .await
        .unwrap()
        .get(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn many_sessions_and_a_million_rows_never_share_an_id() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_sessions").await;
    client
        .batch_execute("CALL snowflake.claim_identity()")
        .await
        .unwrap();
    client
        .batch_execute(
            "CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake.next_id(), n integer)",
        )
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let session = connect(&pg, "next_id_sessions").await;
        tasks.push(tokio::spawn(async move { next_ids(&session, 1_500).await }));
    }
    // Beside them, a million rows in one statement, each its own ID and clock reading.
    let rows = connect(&pg, "next_id_sessions").await;
    let insert = tokio::spawn(async move {
        rows.execute(
            "INSERT INTO orders (n) SELECT g FROM generate_series(1, 1000000) g",
            &[],
        )
        .await
        .unwrap()
    });
    let mut all = HashSet::new();
    for task in tasks {
        let ids = task.await.unwrap();
        // Never decreasing from one session.
        assert!(increasing(&ids));
        for id in ids {
            assert!(all.insert(id), "{id:?} twice");
        }
    }
    assert_eq!(insert.await.unwrap(), 1_000_000);
    let table = client
        .query("SELECT id FROM orders ORDER BY n", &[])
        .await
        .unwrap();
    let ids: Vec<Snowflake> = table
        .iter()
        .map(|r| Snowflake::try_from_i64(r.get(0)).unwrap())
        .collect();
    // In one statement's order, increasing; over more than one millisecond (a clock per row).
    assert!(increasing(&ids));
    assert!(ids[ids.len() - 1].timestamp_ms() > ids[0].timestamp_ms());
    for id in ids {
        assert!(all.insert(id), "{id:?} twice");
    }
    assert_eq!(all.len(), 6 * 1_500 + 1_000_000);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn an_id_of_a_rolled_back_transaction_is_never_issued_again() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_rollback").await;
    client
        .batch_execute("CALL snowflake.claim_identity()")
        .await
        .unwrap();
    let mut issued = Vec::new();
    for _ in 0..3 {
        // A new session's first call takes the slow path, and a rollback takes back its
        // mark of the session: the next call takes it again.
        let session = connect(&pg, "next_id_rollback").await;
        session.batch_execute("BEGIN").await.unwrap();
        let rolled_back = next_ids(&session, 5).await;
        session.batch_execute("ROLLBACK").await.unwrap();
        let after = next_ids(&session, 5).await;
        assert!(after[0] > rolled_back[4]);
        issued.extend(rolled_back);
        issued.extend(after);
    }
    assert!(increasing(&issued));
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_copys_claim_and_a_stale_snapshot_issue_nothing() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_copies").await;
    client
        .batch_execute("CALL snowflake.claim_identity(7, 7)")
        .await
        .unwrap();
    let before = next_id(&client).await;
    // The claim row as another cluster wrote it (a logical replica's copy, a clone).
    client
        .batch_execute(
            "UPDATE snowflake.next_id_claim SET system_identifier = system_identifier + 1",
        )
        .await
        .unwrap();
    let fresh = connect(&pg, "next_id_copies").await;
    let (_, message) = error_of(&fresh, "SELECT snowflake.next_id()").await;
    assert_eq!(message, NO_IDENTITY);
    let (_, message) = error_of(&fresh, "CALL snowflake.claim_identity()").await;
    assert!(
        message.starts_with("claim_identity: the claim of (7, 7) is another database's"),
        "{message}"
    );
    // The same database after pg_upgrade: adopted, it issues on above what it did.
    fresh
        .batch_execute("CALL snowflake.adopt_identity()")
        .await
        .unwrap();
    assert!(next_id(&fresh).await > before);
    // A repeatable-read snapshot that still shows the claim after its release.
    let stale = connect(&pg, "next_id_copies").await;
    stale
        .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1")
        .await
        .unwrap();
    client
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    let (_, message) = error_of(&stale, "SELECT snowflake.next_id()").await;
    assert_eq!(message, NO_IDENTITY);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn the_lock_is_let_go_on_an_error() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_locks").await;
    client
        .batch_execute("CALL snowflake.claim_identity()")
        .await
        .unwrap();
    next_id(&client).await;
    // A role that may call the functions but not use the sequence: an error inside the
    // lock, which it lets go.
    pg.psql("DROP ROLE IF EXISTS next_id_app");
    pg.psql("CREATE ROLE next_id_app LOGIN");
    client
        .batch_execute(
            "GRANT USAGE ON SCHEMA snowflake TO next_id_app; \
             GRANT SELECT ON ALL TABLES IN SCHEMA snowflake TO next_id_app; \
             GRANT SELECT ON ALL SEQUENCES IN SCHEMA snowflake TO next_id_app",
        )
        .await
        .unwrap();
    let url = pg
        .url()
        .replace("postgres@", "next_id_app@")
        .replace("/postgres", "/next_id_locks");
    let (app, connection) = tokio_postgres::connect(&url, NoTls).await.unwrap();
    tokio::spawn(connection);
    let (code, _) = error_of(&app, "SELECT snowflake.next_id()").await;
    assert_eq!(code, SqlState::INSUFFICIENT_PRIVILEGE);
    // The session lives on; nobody waits for it.
    let other = connect(&pg, "next_id_locks").await;
    other
        .batch_execute("SET lock_timeout = '2s'")
        .await
        .unwrap();
    next_id(&other).await;
}

/// A server of its own whose clock is libfaketime's.
async fn faked(name: &str) -> (Pg, Client) {
    let pg = Pg::start_faked();
    let client = database(&pg, name).await;
    (pg, client)
}

#[tokio::test]
#[ignore = "needs PostgreSQL and libfaketime: bash scripts/test.sh installs them"]
async fn more_than_4096_in_a_millisecond_and_a_clock_stepped_back() {
    let (pg, client) = faked("next_id_clock").await;
    client
        .batch_execute("CALL snowflake.claim_identity(0, 5)")
        .await
        .unwrap();
    // A clock stopped: 10,000 IDs in one millisecond's reading run into the next three.
    // An hour ago, in whole seconds: moved back to now later, the clock goes forward.
    let hour_ago = pg_now_ms(&client).await - 3_600_000;
    let at = snowflake_kit::rfc3339::Rfc3339::new(u64::try_from(hour_ago / 1000 * 1000).unwrap());
    pg.freeze_clock(&at.unwrap().to_string()[..19].replace('T', " "));
    let frozen = client
        .query(
            "SELECT snowflake.next_id() FROM generate_series(1, 10000)",
            &[],
        )
        .await
        .unwrap();
    let ids: Vec<Snowflake> = frozen
        .iter()
        .map(|r| Snowflake::try_from_i64(r.get(0)).unwrap())
        .collect();
    assert!(increasing(&ids));
    let first_ms = ids[0].timestamp_ms();
    assert_eq!(ids[9_999].timestamp_ms() - first_ms, 2, "{ids:?}");
    // Every call takes the lock, the fast path too (the stopped clock keeps it fast):
    // held exclusively elsewhere, a call waits, and gives up.
    let held = connect(&pg, "next_id_clock").await;
    held.batch_execute(
        "SELECT pg_advisory_lock(1936617316, 'snowflake.next_id_slot'::regclass::oid::integer)",
    )
    .await
    .unwrap();
    client
        .batch_execute("SET lock_timeout = '1s'")
        .await
        .unwrap();
    let (code, _) = error_of(&client, "SELECT snowflake.next_id()").await;
    assert_eq!(code, SqlState::LOCK_NOT_AVAILABLE);
    drop(held);
    client.batch_execute("RESET lock_timeout").await.unwrap();
    // Another identity, a lower one, on the stopped clock: its next millisecond.
    client
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    client
        .batch_execute("CALL snowflake.claim_identity(0, 3)")
        .await
        .unwrap();
    let lower = next_id(&client).await;
    assert!(lower > ids[9_999], "{lower:?} after {:?}", ids[9_999]);
    // The clock stepped back 3 s: IDs go on above, after a wait for the clock.
    pg.move_clock(0);
    let before = next_ids(&client, 100).await;
    pg.move_clock(-3_000);
    let after = next_ids(&client, 100).await;
    assert!(after[0] > before[99] && increasing(&after));
    // Four new sessions at once after another step back: one waits for the clock, and the
    // others, which read it after their wait for the lock, not again.
    pg.move_clock(-6_000);
    let started = std::time::Instant::now();
    let mut waiting = Vec::new();
    for _ in 0..4 {
        let session = connect(&pg, "next_id_clock").await;
        waiting.push(tokio::spawn(async move { next_id(&session).await }));
    }
    for task in waiting {
        assert!(task.await.unwrap() > after[99]);
    }
    let waited = started.elapsed();
    assert!(waited < std::time::Duration::from_secs(5), "{waited:?}");
    pg.move_clock(-3_000);
    // Back 30 s: an error naming how far, until the clock catches up.
    pg.move_clock(-30_000);
    let (code, message) = error_of(&client, "SELECT snowflake.next_id()").await;
    assert_eq!(code, SqlState::OBJECT_NOT_IN_PREREQUISITE_STATE);
    assert!(
        message.starts_with("snowflake.next_id(): the clock is "),
        "{message}"
    );
    pg.move_clock(0);
    assert!(next_id(&client).await > after[99]);
}

#[tokio::test]
#[ignore = "needs PostgreSQL and libfaketime: bash scripts/test.sh installs them"]
async fn a_crash_loses_no_id_that_left() {
    let (pg, client) = faked("next_id_crash").await;
    client
        .batch_execute("CALL snowflake.claim_identity(9, 9)")
        .await
        .unwrap();
    let committed = next_ids(&client, 50).await;
    // IDs handed out in a transaction still open when the server dies: their sequence's
    // WAL not flushed, so the crash may take the sequence back over them. The clock is
    // stepped back 3 s across the crash, so that the clock alone would not carry the next
    // IDs above them (the skip past a crash does, from the value recovered).
    let open = connect(&pg, "next_id_crash").await;
    open.batch_execute("BEGIN").await.unwrap();
    let in_flight = next_ids(&open, 200).await;
    pg.stop();
    pg.move_clock(-3_000);
    pg.start_again();
    let after = connect(&pg, "next_id_crash").await;
    let next = next_ids(&after, 200).await;
    let last = committed.iter().chain(&in_flight).max().unwrap();
    assert!(next[0] > *last, "{:?} after {last:?}", next[0]);
    // The mark a release leaves covers them too, crash and all.
    pg.stop();
    pg.start_again();
    let again = connect(&pg, "next_id_crash").await;
    again
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    let mark: i64 = again
        .query_one(
            "SELECT hwm_ms FROM snowflake.identities WHERE (datacenter, machine) = (9, 9)",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert!(u64::try_from(mark).unwrap() >= next[199].timestamp_ms());
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn the_example_runs_in_psql_as_its_header_says() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_example").await;
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/next_id.sql");
    let url = pg.url();
    let url = format!("{}/next_id_example", url.rsplit_once('/').unwrap().0);
    for run in 1..=2 {
        let out = std::process::Command::new("psql")
            .args([
                url.as_str(),
                "-X",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-f",
                example,
            ])
            .output()
            .expect("psql runs");
        let printed = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "run {run}: {}{printed}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            printed.contains(" last_minute ") && printed.contains(" short "),
            "{printed}"
        );
        // The claim says where its registry is, the one every issuer of the keyspace shares.
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains(
                "NOTICE:  claim_identity: database next_id_example holds (0, 0) in the registry \
                 snowflake.identities; every database and Rust holder that issues into the same \
                 keyspace must lease from this registry, or claim distinct identities"
            ),
            "{said}"
        );
    }
    let row = client
        .query_one("SELECT count(*), count(DISTINCT id), min(snowflake.datacenter(id) * 32 + snowflake.machine(id)) FROM orders", &[])
        .await
        .unwrap();
    assert_eq!((row.get::<_, i64>(0), row.get::<_, i64>(1)), (2_004, 2_004));
    // The first free identity: (0, 0) on a fresh database.
    assert_eq!(row.get::<_, i32>(2), 0);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_claim_starts_above_the_identitys_mark() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_mark").await;
    // A mark 2.5 s ahead, as a Rust holder's reservation leaves it: the first ID is above.
    let mark: i64 = client
        .query_one(
            "UPDATE snowflake.identities SET hwm_ms = floor(extract(epoch FROM clock_timestamp()) * 1000) + 2500 \
             WHERE (datacenter, machine) = (0, 1) RETURNING hwm_ms",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    client
        .batch_execute("CALL snowflake.claim_identity(0, 1)")
        .await
        .unwrap();
    let first = next_id(&client).await;
    assert!(
        first.timestamp_ms() > u64::try_from(mark).unwrap(),
        "{first:?} at or below {mark}"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL and libfaketime: bash scripts/test.sh installs them"]
async fn a_copy_of_the_database_issues_nothing_of_the_originals() {
    let (pg, client) = faked("next_id_original").await;
    client
        .batch_execute("CALL snowflake.claim_identity(0, 1)")
        .await
        .unwrap();
    // A stopped clock keeps the slot in range for the copy's first call, as a copy made
    // while the slot ran ahead of the clock has it.
    let hour_ago = pg_now_ms(&client).await - 3_600_000;
    let at = snowflake_kit::rfc3339::Rfc3339::new(u64::try_from(hour_ago / 1000 * 1000).unwrap());
    pg.freeze_clock(&at.unwrap().to_string()[..19].replace('T', " "));
    let first = next_id(&client).await;
    // Once the session has gone (its connection, a task of this runtime, closes after the
    // client drops).
    drop(client);
    let mut copied = false;
    for _ in 0..50 {
        if pg
            .try_psql("CREATE DATABASE next_id_copy TEMPLATE next_id_original")
            .is_ok()
        {
            copied = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(copied, "the copy was made");
    // Its claim is not its own, and its first call reads it.
    let copy = connect(&pg, "next_id_copy").await;
    let (_, message) = error_of(&copy, "SELECT snowflake.next_id()").await;
    assert_eq!(message, NO_IDENTITY);
    copy.batch_execute("CALL snowflake.forget_copied_claim()")
        .await
        .unwrap();
    copy.batch_execute("CALL snowflake.claim_identity(0, 2)")
        .await
        .unwrap();
    assert_eq!(next_id(&copy).await.machine(), 2);
    let original = connect(&pg, "next_id_original").await;
    assert!(next_id(&original).await > first);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_cancel_on_a_claims_commit_leaves_no_lock() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_commit").await;
    // A commit that takes 300 ms (a deferred trigger), and a statement that may take 100.
    client
        .batch_execute(
            "CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS \
                 $$ BEGIN PERFORM pg_sleep(0.3); RETURN NULL; END $$; \
             CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON snowflake.next_id_claim \
                 DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow(); \
             SET statement_timeout = '100ms'",
        )
        .await
        .unwrap();
    let (code, _) = error_of(&client, "CALL snowflake.claim_identity()").await;
    assert_eq!(code, SqlState::QUERY_CANCELED);
    // The session lives on; nobody waits for its lock.
    let other = connect(&pg, "next_id_commit").await;
    other
        .batch_execute("SET lock_timeout = '2s'")
        .await
        .unwrap();
    let (_, message) = error_of(&other, "SELECT snowflake.next_id()").await;
    assert_eq!(message, NO_IDENTITY);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn it_loads_beside_the_lease_store_only_in_its_schema() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_schemas").await;
    // The store's tables in `ids` (as `PgStore` with that schema makes them); next_id into
    // the default schema would lease from a registry of its own.
    client
        .batch_execute("DROP SCHEMA snowflake CASCADE")
        .await
        .unwrap();
    client
        .batch_execute(&(postgres_functions("ids").unwrap() + &postgres_next_id("ids").unwrap()))
        .await
        .unwrap();
    let sql = postgres_functions("snowflake").unwrap() + &postgres_next_id("snowflake").unwrap();
    let (_, message) = error_of(&client, &sql).await;
    assert!(
        message.starts_with("snowflake-lease's tables are in the schema ids, not snowflake"),
        "{message}"
    );
    client
        .batch_execute("CALL ids.claim_identity()")
        .await
        .unwrap();
    assert_eq!(next_id_in(&client, "ids").await.machine(), 0);
}

async fn next_id_in(client: &Client, schema: &str) -> Snowflake {
    let row = client
        .query_one(&format!("SELECT {schema}.next_id()"), &[])
        .await
        .unwrap();
    Snowflake::try_from_i64(row.get(0)).unwrap()
}

/// The SQLSTATE, message and hint of `sql`'s error.
async fn hinted_error_of(client: &Client, sql: &str) -> (SqlState, String, String) {
    let error = client.batch_execute(sql).await.expect_err(sql);
    let db = error
        .as_db_error()
        .unwrap_or_else(|| panic!("{sql}: {error}"));
    (
        db.code().clone(),
        db.message().to_owned(),
        db.hint().unwrap_or_default().to_owned(),
    )
}

/// `n` IDs from one statement of `client`.
async fn next_ids_at_once(client: &Client, n: i32) -> Vec<Snowflake> {
    client
        .query(
            "SELECT snowflake.next_id() FROM generate_series(1, $1)",
            &[&n],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| Snowflake::try_from_i64(r.get(0)).unwrap())
        .collect()
}

#[tokio::test]
#[ignore = "needs PostgreSQL and libfaketime: bash scripts/test.sh installs them"]
async fn a_crash_soon_after_the_first_claim_reissues_nothing() {
    // Claimed and checkpointed, then IDs handed out in a transaction left open: nothing
    // since the claim flushed the slot's WAL, so the crash takes the slot back to where the
    // claim stopped it, and the clock is set back 950 ms across it (the docs allow a second).
    let (pg, client) = faked("next_id_first_crash").await;
    client
        .batch_execute("CALL snowflake.claim_identity(2, 2)")
        .await
        .unwrap();
    pg.psql("CHECKPOINT");
    let open = connect(&pg, "next_id_first_crash").await;
    open.batch_execute("BEGIN").await.unwrap();
    let in_flight = next_ids_at_once(&open, 3_000).await;
    pg.stop();
    pg.move_clock(-950);
    pg.start_again();
    let after = connect(&pg, "next_id_first_crash").await;
    let next = next_ids_at_once(&after, 3_000).await;
    let last = in_flight.iter().max().unwrap();
    let again: Vec<_> = next.iter().filter(|id| in_flight.contains(id)).collect();
    assert!(again.is_empty(), "{} IDs issued again", again.len());
    assert!(next[0] > *last, "{:?} after {last:?}", next[0]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn no_pattern_of_cancels_leaves_a_lock() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_cancels").await;
    client
        .batch_execute("CALL snowflake.claim_identity()")
        .await
        .unwrap();
    // Two victims: one issuing 300 IDs a statement, one claiming again and again (its own
    // claim, kept); each cancelled once, twice or three times at once, 3,000 times in all.
    let mut victims = Vec::new();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for work in [
        "SELECT count(snowflake.next_id()) FROM generate_series(1, 300)",
        "CALL snowflake.claim_identity()",
    ] {
        let victim = connect(&pg, "next_id_cancels").await;
        let pid: i32 = victim
            .query_one("SELECT pg_backend_pid()", &[])
            .await
            .unwrap()
            .get(0);
        let stop = stop.clone();
        let task = tokio::spawn(async move {
            let (mut done, mut cancelled) = (0_u32, 0_u32);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                match victim.batch_execute(work).await {
                    Ok(()) => done += 1,
                    Err(e) if e.code() == Some(&SqlState::QUERY_CANCELED) => cancelled += 1,
                    Err(e) => panic!("{work}: {e:?}"),
                }
            }
            (done, cancelled)
        });
        victims.push((pid, task));
    }
    let sender = connect(&pg, "next_id_cancels").await;
    let checker = connect(&pg, "next_id_cancels").await;
    checker
        .batch_execute("SET lock_timeout = '2s'")
        .await
        .unwrap();
    for round in 0..3_000_u32 {
        let pid = victims[round as usize % 2].0;
        let sql = match round % 3 {
            0 => "SELECT pg_cancel_backend($1)",
            1 => "SELECT pg_cancel_backend($1), pg_cancel_backend($1)",
            _ => "SELECT pg_cancel_backend($1), pg_cancel_backend($1), pg_cancel_backend($1)",
        };
        sender.query(sql, &[&pid]).await.unwrap();
        if round % 250 == 249 {
            // Nobody waits for a lock a cancel left: another session's ID comes at once.
            next_id(&checker).await;
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for (_, task) in victims {
        let (done, cancelled) = task.await.unwrap();
        // The cancels landed, and the work went on between them.
        assert!(
            done > 0 && cancelled > 100,
            "{done} done, {cancelled} cancelled"
        );
    }
    next_id(&checker).await;
    let other = connect(&pg, "next_id_cancels").await;
    other
        .batch_execute("SET lock_timeout = '2s'")
        .await
        .unwrap();
    other
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
}

#[tokio::test]
#[ignore = "needs PostgreSQL and libfaketime: bash scripts/test.sh installs them"]
async fn a_clock_outside_the_formats_span_is_an_error_never_an_id() {
    let (pg, client) = faked("next_id_span").await;
    client
        .batch_execute("CALL snowflake.claim_identity(1, 2)")
        .await
        .unwrap();
    let before = next_id(&client).await;
    for (at, reads) in [
        ("2010-07-03 00:00:00", "2010-07-03T00:00:00.000Z"),
        ("2010-11-04 01:42:54", "2010-11-04T01:42:54.000Z"),
        ("2080-07-11 00:00:00", "2080-07-11T00:00:00.000Z"),
    ] {
        pg.freeze_clock(at);
        // A session that has issued, and a new one: both take the slow path, which refuses.
        let fresh = connect(&pg, "next_id_span").await;
        for session in [&client, &fresh] {
            for _ in 0..100 {
                let (code, message) = error_of(session, "SELECT snowflake.next_id()").await;
                assert_eq!(code, SqlState::DATETIME_FIELD_OVERFLOW, "{message}");
                assert_eq!(
                    message,
                    format!(
                        "snowflake.next_id(): the clock reads {reads}, outside the format's span \
                         (2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z)"
                    )
                );
            }
        }
    }
    pg.move_clock(0);
    assert!(next_id(&client).await > before);
}

#[tokio::test]
#[ignore = "needs PostgreSQL and libfaketime: bash scripts/test.sh installs them"]
async fn a_clock_that_ran_ahead_says_the_way_out_and_it_works() {
    let (pg, client) = faked("next_id_ahead").await;
    client
        .batch_execute("CALL snowflake.claim_identity(0, 5)")
        .await
        .unwrap();
    // A minute ahead for a moment, then right again: the IDs issued then stand.
    pg.move_clock(60_000);
    let ahead = next_ids(&client, 10).await;
    pg.move_clock(0);
    let (code, message, hint) = hinted_error_of(&client, "SELECT snowflake.next_id()").await;
    assert_eq!(code, SqlState::OBJECT_NOT_IN_PREREQUISITE_STATE);
    assert!(
        message.starts_with("snowflake.next_id(): the clock is "),
        "{message}"
    );
    assert!(
        hint.starts_with("IDs go on at ")
            && hint.ends_with(
                "when the clock gets there; or at once under another identity: \
                 CALL snowflake.release_identity(); CALL snowflake.claim_identity()"
            ),
        "{hint}"
    );
    // Followed: IDs at once, of another identity, by the clock now.
    client
        .batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    client
        .batch_execute("CALL snowflake.claim_identity()")
        .await
        .unwrap();
    let now_ms = u64::try_from(pg_now_ms(&client).await).unwrap();
    let id = next_id(&client).await;
    assert_ne!(id.machine(), 5);
    assert!(
        id.timestamp_ms() < now_ms + 2_000 && id < ahead[0],
        "{id:?}"
    );
    // The identity that ran ahead keeps its mark past every ID issued under it.
    let mark: i64 = client
        .query_one(
            "SELECT hwm_ms FROM snowflake.identities WHERE (datacenter, machine) = (0, 5)",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert!(u64::try_from(mark).unwrap() >= ahead[9].timestamp_ms());
}

/// A Rust holder's lease on `(datacenter, machine)` as `PgStore` writes it: live for `ttl_s`.
async fn hold_as_a_rust_holder(client: &Client, datacenter: i16, machine: i16, ttl_s: i32) {
    client
        .execute(
            "WITH l AS (INSERT INTO snowflake.leases (ttl_ms, expires_at) \
                 VALUES ($3::integer * 1000, clock_timestamp() + $3::integer * interval '1 second') RETURNING id) \
             UPDATE snowflake.identities SET lease_id = (SELECT id FROM l), holder = 'rust-holder' \
             WHERE (datacenter, machine) = ($1, $2)",
            &[&datacenter, &machine, &ttl_s],
        )
        .await
        .unwrap();
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_copys_hints_followed_never_take_a_live_identity() {
    let pg = pg::shared();
    let client = database(&pg, "next_id_dumped").await;
    client
        .batch_execute("CALL snowflake.claim_identity(0, 0)")
        .await
        .unwrap();
    hold_as_a_rust_holder(&client, 0, 1, 10).await;
    next_id(&client).await;
    pg.psql("DROP DATABASE IF EXISTS next_id_restored");
    pg.copy_database("next_id_dumped", &pg, "next_id_restored");
    let copy = connect(&pg, "next_id_restored").await;
    let (_, message) = error_of(&copy, "SELECT snowflake.next_id()").await;
    assert_eq!(message, NO_IDENTITY);
    // Another oid: a copy, never an upgrade, and the hint says only what a copy does.
    let (_, message, hint) = hinted_error_of(&copy, "CALL snowflake.claim_identity()").await;
    assert!(
        message.starts_with("claim_identity: the claim of (0, 0) is another database's"),
        "{message}"
    );
    assert_eq!(
        hint,
        "CALL snowflake.forget_copied_claim(), which fences every identity held when it was \
         made, then claim one of its own"
    );
    let (_, message) = error_of(&copy, "CALL snowflake.adopt_identity()").await;
    assert!(
        message.starts_with("adopt_identity: this database is a copy"),
        "{message}"
    );
    copy.batch_execute("CALL snowflake.forget_copied_claim()")
        .await
        .unwrap();
    // The holder's lease runs out in the copy, whose clock says nothing of the original's:
    // still fenced, as the original's own claim is.
    copy.batch_execute("UPDATE snowflake.leases SET expires_at = clock_timestamp() - interval '1 second' WHERE expires_at <> 'infinity'")
        .await
        .unwrap();
    copy.batch_execute("CALL snowflake.claim_identity()")
        .await
        .unwrap();
    let own = next_id(&copy).await;
    assert_eq!((own.datacenter(), own.machine()), (0, 2));
    copy.batch_execute("CALL snowflake.release_identity()")
        .await
        .unwrap();
    for machine in [0, 1] {
        let (_, message, hint) = hinted_error_of(
            &copy,
            &format!("CALL snowflake.claim_identity(0, {machine})"),
        )
        .await;
        let holder = if machine == 0 {
            "postgres "
        } else {
            "rust-holder"
        };
        assert!(
            message.starts_with(&format!(
                "claim_identity: (0, {machine}) was held by {holder}"
            )) && message.ends_with("when this database was copied from another, and may be still"),
            "{message}"
        );
        assert_eq!(
            hint,
            format!(
                "Claim another, or CALL snowflake.unfence_identity(0, {machine}) once nothing \
                 that shares this keyspace issues under it"
            )
        );
    }
    let (_, message) = error_of(&copy, "CALL snowflake.forget_copied_claim()").await;
    assert_eq!(
        message,
        "forget_copied_claim: this database is no copy of another, and holds no other database's claim"
    );
    // Until an operator says otherwise.
    copy.batch_execute("CALL snowflake.unfence_identity(0, 1)")
        .await
        .unwrap();
    copy.batch_execute("CALL snowflake.claim_identity(0, 1)")
        .await
        .unwrap();
    assert_eq!(next_id(&copy).await.machine(), 1);
    let (_, message) = error_of(&copy, "CALL snowflake.unfence_identity(0, 1)").await;
    assert_eq!(message, "unfence_identity: (0, 1) is not fenced");
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn a_copy_of_a_database_without_a_claim_is_a_copy_all_the_same() {
    // Its registry's live leases are fenced before it claims.
    let pg = pg::shared();
    let client = database(&pg, "next_id_unclaimed").await;
    hold_as_a_rust_holder(&client, 0, 1, 10).await;
    pg.psql("DROP DATABASE IF EXISTS next_id_restored_again");
    pg.copy_database("next_id_unclaimed", &pg, "next_id_restored_again");
    let copy = connect(&pg, "next_id_restored_again").await;
    let (_, message, hint) = hinted_error_of(&copy, "CALL snowflake.claim_identity(0, 1)").await;
    assert!(
        message.starts_with("claim_identity: this database is a copy of another"),
        "{message}"
    );
    assert!(
        hint.starts_with("CALL snowflake.forget_copied_claim()"),
        "{hint}"
    );
    copy.batch_execute("CALL snowflake.forget_copied_claim()")
        .await
        .unwrap();
    copy.batch_execute("CALL snowflake.claim_identity(0)")
        .await
        .unwrap();
    assert_eq!(next_id(&copy).await.machine(), 0);
}
