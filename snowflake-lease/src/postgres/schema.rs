//! The store's tables: the SQL that makes them, the check that what is there is that, and
//! the statements the store runs on them.

use tokio_postgres::Client;

use crate::error::LeaseError;
use crate::events::event;

/// The SQL of the schema, `{schema}` standing for its name: the runtime's, which the
/// database's own issuer (`snowflake.next_id()`) makes too when it finds none.
const SCHEMA_SQL: &str = snowflake_runtime::__private::POSTGRES_LEASE_TABLES;

/// The schema's SQL for `schema` (a name [`check_schema`](super::config::check_schema)
/// accepted).
pub(crate) fn sql(schema: &str) -> String {
    SCHEMA_SQL.replace("{schema}", &quoted(schema))
}

/// The schema as an identifier: quoted, so that a name that is also a keyword (`user`)
/// works; the name has no `"` to escape.
fn quoted(schema: &str) -> String {
    format!("\"{schema}\"")
}

/// Every column of the two tables, in order: (table, column, type, nullable), as
/// `information_schema.columns` says them.
const COLUMNS: [(&str, &str, &str, &str); 8] = [
    ("identities", "datacenter", "smallint", "NO"),
    ("identities", "machine", "smallint", "NO"),
    ("identities", "lease_id", "bigint", "YES"),
    ("identities", "holder", "text", "YES"),
    ("identities", "hwm_ms", "bigint", "NO"),
    ("leases", "id", "bigint", "NO"),
    ("leases", "ttl_ms", "bigint", "NO"),
    ("leases", "expires_at", "timestamp with time zone", "NO"),
];

/// What the check reads of the columns: from the catalog, which shows them whatever the
/// user's rights (`information_schema` hides what it may not use).
pub(crate) const CHECK_COLUMNS: &str = "SELECT c.relname::text, a.attname::text, \
     format_type(a.atttypid, a.atttypmod), CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END \
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid \
     JOIN pg_namespace n ON n.oid = c.relnamespace \
     WHERE n.nspname = $1 AND c.relname IN ('identities', 'leases') \
     AND a.attnum > 0 AND NOT a.attisdropped ORDER BY c.relname, a.attnum";

/// The columns found against [`COLUMNS`]: `Err` names the first difference.
pub(crate) fn compare(
    schema: &str,
    found: &[(String, String, String, String)],
) -> Result<(), LeaseError> {
    let differs = |reason: String| LeaseError::Schema {
        schema: schema.to_owned(),
        reason,
    };
    for table in ["identities", "leases"] {
        if !found.iter().any(|(t, ..)| t == table) {
            return Err(differs(format!("it has no table {table}")));
        }
    }
    for (i, want) in COLUMNS.iter().enumerate() {
        let got = found
            .get(i)
            .map(|(t, c, ty, null)| (t.as_str(), c.as_str(), ty.as_str(), null.as_str()));
        if got != Some(*want) {
            let (table, column, ty, null) = want;
            let want = format!(
                "{table}.{column} {ty}{}",
                if *null == "NO" { " NOT NULL" } else { "" }
            );
            return Err(differs(match got {
                Some((t, c, ty, null)) => format!(
                    "column {} of its tables is {t}.{c} {ty}{}, where {want} is expected",
                    i + 1,
                    if null == "NO" { " NOT NULL" } else { "" }
                ),
                None => format!("{want} is missing"),
            }));
        }
    }
    if let Some((t, c, ..)) = found.get(COLUMNS.len()) {
        return Err(differs(format!("{t}.{c} is a column it does not have")));
    }
    Ok(())
}

/// The schema of another registry in the database that `snowflake.next_id()` issues from
/// (its claim table beside the lease tables), if there is one.
const NEXT_ID_ELSEWHERE: &str = "SELECT n.nspname::text FROM pg_class c \
     JOIN pg_namespace n ON n.oid = c.relnamespace \
     WHERE c.relname = 'next_id_claim' AND n.nspname <> $1 LIMIT 1";

/// Connecting and checking the schema: the database failed, or the tables differ.
pub(crate) enum SchemaFailure {
    Db(tokio_postgres::Error),
    Differs(LeaseError),
}

impl From<tokio_postgres::Error> for SchemaFailure {
    fn from(e: tokio_postgres::Error) -> SchemaFailure {
        SchemaFailure::Db(e)
    }
}

/// Makes the tables if the schema has none of them (one maker at a time, under an
/// advisory lock, waited for as long as `patience`), then checks what is there: the
/// columns, the 1,024 rows, plain tables, the triggers that keep the marks.
pub(crate) async fn ensure(
    client: &mut Client,
    statements: &Statements,
    schema: &str,
    patience: std::time::Duration,
) -> Result<(), SchemaFailure> {
    let columns = |rows: Vec<tokio_postgres::Row>| -> Vec<(String, String, String, String)> {
        rows.iter()
            .map(|row| (row.get(0), row.get(1), row.get(2), row.get(3)))
            .collect()
    };
    let mut found = columns(client.query(CHECK_COLUMNS, &[&schema]).await?);
    if found.is_empty() {
        let tx = client.transaction().await?;
        // Servers that start together on a fresh database wait for the one that makes
        // the tables, longer than a call's bound.
        let ms = patience.as_millis().max(1);
        tx.batch_execute(&format!(
            "SET LOCAL lock_timeout = {ms}; SET LOCAL statement_timeout = {ms}"
        ))
        .await?;
        tx.execute(
            "SELECT pg_advisory_xact_lock(hashtext('snowflake-lease schema ' || $1::text))",
            &[&schema],
        )
        .await?;
        found = columns(tx.query(CHECK_COLUMNS, &[&schema]).await?);
        if found.is_empty() {
            // Not beside the registry `snowflake.next_id()` issues from in another schema:
            // the database and the Rust holders would lease from two, and issue under one
            // identity (next_id refuses the same the other way round).
            if let Some(row) = tx.query_opt(NEXT_ID_ELSEWHERE, &[&schema]).await? {
                let elsewhere: String = row.get(0);
                return Err(SchemaFailure::Differs(LeaseError::Schema {
                    schema: schema.to_owned(),
                    reason: format!(
                        "it has no tables, and snowflake.next_id() issues in this database \
                         from the registry in the schema {elsewhere}: lease from that one \
                         (`PgConfig::with_schema(\"{elsewhere}\")`), so that the database and \
                         the Rust holders never take one identity"
                    ),
                }));
            }
            tx.batch_execute(&sql(schema)).await?;
            event!(INFO, schema, "PostgreSQL: the lease store's tables made");
            found = columns(tx.query(CHECK_COLUMNS, &[&schema]).await?);
        }
        tx.commit().await?;
    }
    compare(schema, &found).map_err(SchemaFailure::Differs)?;
    let differs = |reason: String| {
        SchemaFailure::Differs(LeaseError::Schema {
            schema: schema.to_owned(),
            reason,
        })
    };
    let row = client.query_one(&statements.count, &[]).await?;
    let (rows, distinct): (i64, i64) = (row.get(0), row.get(1));
    if rows != 1024 || distinct != 1024 {
        return Err(differs(format!(
            "identities has {rows} rows for {distinct} identities, where it has one for \
             each of the 1,024; a deleted row is a lost high-water mark"
        )));
    }
    let row = client.query_one(&statements.guards, &[&schema]).await?;
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

/// The statements of the store, on the schema it was given.
pub(crate) struct Statements {
    pub(crate) grant: String,
    pub(crate) keep_alive: String,
    pub(crate) release: String,
    pub(crate) lock_identity: String,
    pub(crate) lock_lease: String,
    pub(crate) live_lease: String,
    pub(crate) take: String,
    pub(crate) mark: String,
    pub(crate) unclaim: String,
    pub(crate) held: String,
    pub(crate) count: String,
    pub(crate) guards: String,
}

impl Statements {
    pub(crate) fn new(schema: &str) -> Statements {
        let s = quoted(schema);
        Statements {
            // Expired leases an hour old go as a new one comes: an identity on one is free
            // whether its lease row is there or not.
            grant: format!(
                "WITH gone AS (DELETE FROM {s}.leases WHERE expires_at < now() - interval '1 hour') \
                 INSERT INTO {s}.leases (ttl_ms, expires_at) \
                 VALUES ($1::bigint, now() + $1::bigint * interval '1 millisecond') RETURNING id"
            ),
            // now(): when the statement's transaction began, no earlier than the holder sent
            // it, so the database's expiry is never before the holder's deadline; and never
            // earlier than it was, for a keep-alive that ran late behind a later one. Alive is
            // judged by clock_timestamp(), the moment of the check.
            keep_alive: format!(
                "UPDATE {s}.leases \
                 SET expires_at = greatest(expires_at, now() + ttl_ms * interval '1 millisecond') \
                 WHERE id = $1 AND expires_at > clock_timestamp() RETURNING ttl_ms"
            ),
            // A release; also a claim's end of a run-out lease it has locked.
            release: format!("DELETE FROM {s}.leases WHERE id = $1"),
            // Every transaction that reads or writes an identity locks its row first, and a
            // lease's row after: one order, no deadlock.
            lock_identity: format!(
                "SELECT lease_id, holder, hwm_ms FROM {s}.identities \
                 WHERE datacenter = $1 AND machine = $2 FOR UPDATE"
            ),
            // The owner's lease, locked so that no keep-alive renews it between the check and
            // the end of the claim.
            lock_lease: format!(
                "SELECT expires_at > clock_timestamp() FROM {s}.leases WHERE id = $1 FOR UPDATE"
            ),
            // Key share: no one deletes it before the commit; its keep-alives go on.
            live_lease: format!(
                "SELECT 1 FROM {s}.leases WHERE id = $1 AND expires_at > clock_timestamp() \
                 FOR KEY SHARE"
            ),
            take: format!(
                "UPDATE {s}.identities SET lease_id = $3, holder = $4 \
                 WHERE datacenter = $1 AND machine = $2 RETURNING lease_id"
            ),
            mark: format!(
                "UPDATE {s}.identities SET hwm_ms = $3 WHERE datacenter = $1 AND machine = $2 \
                 RETURNING hwm_ms"
            ),
            unclaim: format!(
                "UPDATE {s}.identities SET lease_id = NULL, holder = NULL \
                 WHERE datacenter = $1 AND machine = $2 AND lease_id = $3"
            ),
            held: format!(
                "SELECT i.datacenter, i.machine FROM {s}.identities i \
                 JOIN {s}.leases l ON l.id = i.lease_id WHERE l.expires_at > clock_timestamp()"
            ),
            count: format!(
                "SELECT count(*), count(DISTINCT (datacenter, machine)) FROM {s}.identities"
            ),
            // Plain tables without row-level security, no rules, the two triggers enabled in
            // the normal mode (O) or always (A), and a session that fires them.
            guards: "SELECT \
                 (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                  WHERE n.nspname = $1 AND c.relname IN ('identities', 'leases') \
                  AND c.relkind = 'r' AND NOT c.relrowsecurity), \
                 (SELECT count(*) FROM pg_rules WHERE schemaname = $1 \
                  AND tablename IN ('identities', 'leases')), \
                 (SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid \
                  JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 \
                  AND c.relname = 'identities' AND t.tgname IN ('keep_marks', 'keep_marks_whole') \
                  AND t.tgenabled IN ('O', 'A')), \
                 current_setting('session_replication_role')"
                .to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns() -> Vec<(String, String, String, String)> {
        COLUMNS
            .iter()
            .map(|(t, c, ty, null)| {
                (
                    (*t).to_owned(),
                    (*c).to_owned(),
                    (*ty).to_owned(),
                    (*null).to_owned(),
                )
            })
            .collect()
    }

    #[test]
    fn the_tables_as_made_pass_and_each_difference_is_named() {
        assert!(compare("s", &columns()).is_ok());
        let mut nullable = columns();
        nullable[4].3 = "YES".to_owned();
        let e = compare("s", &nullable).unwrap_err().to_string();
        assert!(
            e.contains("identities.hwm_ms bigint, where identities.hwm_ms bigint NOT NULL"),
            "{e}"
        );
        let mut integer = columns();
        integer[0].2 = "integer".to_owned();
        let e = compare("s", &integer).unwrap_err().to_string();
        assert!(e.contains("column 1"), "{e}");
        let e = compare("s", &columns()[..5]).unwrap_err().to_string();
        assert!(e.contains("no table leases"), "{e}");
        let e = compare("s", &columns()[..7]).unwrap_err().to_string();
        assert!(e.contains("leases.expires_at"), "{e}");
        assert!(e.contains("is missing"), "{e}");
        let mut more = columns();
        more.push(("leases".into(), "note".into(), "text".into(), "YES".into()));
        let e = compare("s", &more).unwrap_err().to_string();
        assert!(
            e.contains("leases.note is a column it does not have"),
            "{e}"
        );
        assert!(e.contains("schema s "), "{e}");
    }

    #[test]
    fn the_sql_names_the_schema_everywhere() {
        let sql = sql("ids_2");
        assert!(!sql.contains("{schema}"));
        assert!(sql.contains("CREATE TABLE \"ids_2\".identities"));
        assert!(sql.contains("EXECUTE FUNCTION \"ids_2\".keep_marks()"));
    }
}
