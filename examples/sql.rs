//! IDs in SQL: a table keyed by `Snowflake` (a BIGINT; `SQLite`'s INTEGER here, in memory, so
//! that it runs anywhere), rows keyed by IDs from a `Generator`, and the rows of a time
//! range found by their keys alone. Run with
//! `cargo run -p snowflake-kit-sql-tests --example sql`.

use std::time::Duration;

use snowflake_kit::{Generator, Identity, Snowflake};
use sqlx::{Connection, SqliteConnection};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut db = SqliteConnection::connect("sqlite::memory:").await?;
    sqlx::query("CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT NOT NULL)")
        .execute(&mut db)
        .await?;

    // Three bursts of events, a few milliseconds apart.
    let ids = Generator::new(Identity::new(1, 1)?);
    let mut bursts = Vec::new();
    for burst in ["deploy", "traffic", "rollback"] {
        let mut keys = Vec::new();
        for n in 1..=3 {
            let id = ids.next_id();
            sqlx::query("INSERT INTO events (id, what) VALUES (?, ?)")
                .bind(id)
                .bind(format!("{burst} {n}"))
                .execute(&mut db)
                .await?;
            keys.push(id);
        }
        bursts.push(keys);
        std::thread::sleep(Duration::from_millis(5));
    }

    // The events from the first to the last millisecond of the "traffic" burst: the IDs
    // order by time, so the time range is a range of keys, with no timestamp column.
    let (t0, t1) = (bursts[1][0].timestamp_ms(), bursts[1][2].timestamp_ms());
    let rows: Vec<(Snowflake, String)> =
        sqlx::query_as("SELECT id, what FROM events WHERE id BETWEEN ? AND ? ORDER BY id")
            .bind(Snowflake::first_at(t0)?)
            .bind(Snowflake::last_at(t1)?)
            .fetch_all(&mut db)
            .await?;
    println!("events from {t0} ms to {t1} ms:");
    for (id, what) in &rows {
        println!("  {id}  {}  {what}", id.rfc3339());
    }
    let keys: Vec<Snowflake> = rows.iter().map(|(id, _)| *id).collect();
    assert_eq!(keys, bursts[1]);
    Ok(())
}
