//! `Snowflake` keys against plain `i64` keys through sqlx on a real `PostgreSQL` on loopback.
//!
//! `cargo bench -p snowflake-bench --bench sql` starts its own `PostgreSQL` (with
//! snowflake-runtime's test harness: `initdb` into a temporary directory, a free port, as
//! `postgres` when run as root), then, round after round, the two key types taking turns
//! (which goes first alternates): a fresh `BIGINT PRIMARY KEY` table, 100,000 rows inserted
//! (10 statements of 10,000 bound values each), and all of them read back with
//! `SELECT id FROM t ORDER BY id`. It prints the median times and the median of the
//! rounds' ratios, `Snowflake` over `i64`, which should be 1.0 within noise: the keys
//! travel as the same eight bytes. Needs `PostgreSQL` (Debian: postgresql).

#[path = "../../tests/sql/tests/support/pg.rs"]
mod pg;

use snowflake_bench::median;
use std::time::{Duration, Instant};

use snowflake_kit::{Generator, Identity, Snowflake};
use sqlx::postgres::Postgres;
use sqlx::{Connection, Decode, Encode, PgConnection, QueryBuilder, Type};

const ROWS: usize = 100_000;
const ROUNDS: usize = 41;

/// The time to insert the keys and the time to read them back.
async fn round<T>(conn: &mut PgConnection, keys: &[T]) -> (Duration, Duration)
where
    T: Copy
        + Send
        + Unpin
        + for<'q> Encode<'q, Postgres>
        + for<'r> Decode<'r, Postgres>
        + Type<Postgres>
        + 'static,
{
    sqlx::raw_sql("DROP TABLE IF EXISTS t; CREATE TABLE t (id BIGINT PRIMARY KEY)")
        .execute(&mut *conn)
        .await
        .expect("a fresh table");
    let start = Instant::now();
    for chunk in keys.chunks(10_000) {
        QueryBuilder::<Postgres>::new("INSERT INTO t (id) ")
            .push_values(chunk, |mut row, key| {
                row.push_bind(*key);
            })
            .build()
            .execute(&mut *conn)
            .await
            .expect("inserts");
    }
    let insert = start.elapsed();
    let start = Instant::now();
    let back: Vec<T> = sqlx::query_scalar("SELECT id FROM t ORDER BY id")
        .fetch_all(&mut *conn)
        .await
        .expect("reads");
    let read = start.elapsed();
    assert_eq!(back.len(), keys.len());
    (insert, read)
}

fn main() {
    // Without PostgreSQL this panics, saying what to install.
    let pg = pg::shared();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let mut conn = PgConnection::connect(&pg.url()).await.expect("connects");
        let generator = Generator::new(Identity::new(1, 1).expect("a valid identity"));
        let mut ids = vec![Snowflake::MAX; ROWS];
        generator.fill(&mut ids);
        let ints: Vec<i64> = ids.iter().map(|id| id.as_i64()).collect();

        // One round of each, not counted: the server's caches and the prepared statements.
        round(&mut conn, &ints).await;
        round(&mut conn, &ids).await;
        let (mut times_i64, mut times_sf) = (Vec::new(), Vec::new());
        for n in 0..ROUNDS {
            let (i, s) = if n % 2 == 0 {
                let i = round(&mut conn, &ints).await;
                (i, round(&mut conn, &ids).await)
            } else {
                let s = round(&mut conn, &ids).await;
                (round(&mut conn, &ints).await, s)
            };
            times_i64.push(i);
            times_sf.push(s);
        }

        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let column = |times: &[(Duration, Duration)], pick: fn(&(Duration, Duration)) -> Duration| {
            median(times.iter().map(|t| ms(pick(t))).collect())
        };
        let ratio = |pick: fn(&(Duration, Duration)) -> Duration| {
            median(
                times_sf
                    .iter()
                    .zip(&times_i64)
                    .map(|(s, i)| ms(pick(s)) / ms(pick(i)))
                    .collect(),
            )
        };
        let insert = |t: &(Duration, Duration)| t.0;
        let read = |t: &(Duration, Duration)| t.1;
        let total = |t: &(Duration, Duration)| t.0 + t.1;
        println!(
            "{ROWS} rows keyed by BIGINT through sqlx on loopback PostgreSQL, {ROUNDS} rounds, the two taking turns\n"
        );
        println!("| key type | insert, ms | read, ms | total, ms |");
        println!("| --- | ---: | ---: | ---: |");
        for (name, times) in [("`i64`", &times_i64), ("`Snowflake`", &times_sf)] {
            println!(
                "| {name} | {:.1} | {:.1} | {:.1} |",
                column(times, insert),
                column(times, read),
                column(times, total)
            );
        }
        println!(
            "| ratio `Snowflake` / `i64`, median of the rounds | {:.3} | {:.3} | {:.3} |",
            ratio(insert),
            ratio(read),
            ratio(total)
        );
    });
}
