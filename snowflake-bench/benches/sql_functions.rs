//! The format's SQL functions (`snowflake_kit::sql::POSTGRES_FUNCTIONS`) against the
//! hand-written expressions they stand for, on a real `PostgreSQL` on loopback.
//!
//! `cargo bench -p snowflake-bench --bench sql_functions` starts its own `PostgreSQL` (the
//! tests' harness), loads the functions, fills a `BIGINT PRIMARY KEY` table with 1,000,000
//! IDs, then, round after round, the two forms taking turns (which goes first alternates):
//! `sum(snowflake.unix_ms(id))` beside `sum((id >> 22) + 1288834974657)` over every row, and
//! a time range, `id BETWEEN snowflake.first_at(a) AND snowflake.last_at(b)` beside the same
//! bounds written as numbers. It prints the median times, the median of the rounds' ratios
//! (the bar: at most 1.3 for decoding), and the plan of the range (an index scan). Twice:
//! with the server's defaults (parallel workers, JIT), and in one process without JIT, where
//! the expression's own cost shows most. Needs `PostgreSQL` (Debian: postgresql).

#[path = "../../tests/sql/tests/support/pg.rs"]
mod pg;

use snowflake_bench::median;
use std::time::{Duration, Instant};

use snowflake_kit::sql::POSTGRES_FUNCTIONS;
use sqlx::{Connection, PgConnection, Row};

const ROWS: i64 = 1_000_000;
const ROUNDS: usize = 21;

/// The time `sql` takes, and its one row's first column.
async fn timed(conn: &mut PgConnection, sql: &'static str) -> (Duration, i64) {
    let start = Instant::now();
    let row = sqlx::query(sql).fetch_one(&mut *conn).await.expect(sql);
    (start.elapsed(), row.get(0))
}

/// Median times of `ours` and `plain`, and the median of their ratios, over the rounds.
async fn compare(
    conn: &mut PgConnection,
    ours: &'static str,
    plain: &'static str,
) -> (f64, f64, f64) {
    // One of each, not counted: caches and plans.
    let (_, a) = timed(conn, ours).await;
    let (_, b) = timed(conn, plain).await;
    assert_eq!(a, b, "{ours} and {plain} disagree");
    let (mut ours_ms, mut plain_ms, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for n in 0..ROUNDS {
        let (o, p) = if n % 2 == 0 {
            let o = timed(conn, ours).await.0;
            (o, timed(conn, plain).await.0)
        } else {
            let p = timed(conn, plain).await.0;
            (timed(conn, ours).await.0, p)
        };
        let (o, p) = (o.as_secs_f64() * 1e3, p.as_secs_f64() * 1e3);
        ours_ms.push(o);
        plain_ms.push(p);
        ratios.push(o / p);
    }
    (median(ours_ms), median(plain_ms), median(ratios))
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
        sqlx::raw_sql(POSTGRES_FUNCTIONS)
            .execute(&mut conn)
            .await
            .expect("the functions load");
        // An ID a millisecond for 1,000,000 ms, each with its own datacenter, machine and
        // sequence, as a busy table has them.
        sqlx::raw_sql(
            "DROP TABLE IF EXISTS t; CREATE TABLE t (id bigint PRIMARY KEY); \
             INSERT INTO t SELECT (g << 22) | (g % 4194304) FROM generate_series(1::bigint, 1000000) g",
        )
        .execute(&mut conn)
        .await
        .expect("the table");
        // Its own statement: VACUUM runs in no transaction block.
        sqlx::raw_sql("VACUUM ANALYZE t")
            .execute(&mut conn)
            .await
            .expect("the table's statistics");
        let decode = (
            "SELECT sum(snowflake.unix_ms(id))::bigint FROM t",
            "SELECT sum((id >> 22) + 1288834974657)::bigint FROM t",
        );
        // 10 s of IDs, from the table's middle.
        let range = (
            "SELECT count(*) FROM t WHERE id BETWEEN snowflake.first_at('2010-11-04T01:51:14.657Z') \
             AND snowflake.last_at('2010-11-04T01:51:24.656Z')",
            "SELECT count(*) FROM t WHERE id BETWEEN 2097152000000 AND 2139095039999",
        );
        println!(
            "{ROWS} IDs in a BIGINT PRIMARY KEY table on loopback PostgreSQL, {ROUNDS} rounds, the two forms taking turns\n"
        );
        println!("| query | settings | functions, ms | hand-written, ms | ratio, median of the rounds |");
        println!("| --- | --- | ---: | ---: | ---: |");
        for settings in ["defaults", "no JIT, no parallel workers"] {
            if settings != "defaults" {
                sqlx::raw_sql("SET jit = off; SET max_parallel_workers_per_gather = 0")
                    .execute(&mut conn)
                    .await
                    .expect("settings");
            }
            for (name, (ours, plain)) in [("decode every row", decode), ("a 10 s time range", range)] {
                let (o, p, ratio) = compare(&mut conn, ours, plain).await;
                println!("| {name} | {settings} | {o:.2} | {p:.2} | {ratio:.3} |");
            }
        }
        let plan: Vec<String> = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN {}", range.0)))
            .fetch_all(&mut conn)
            .await
            .expect("the plan")
            .iter()
            .map(|row| row.get(0))
            .collect();
        println!("\nThe range's plan:\n\n```text\n{}\n```", plan.join("\n"));
    });
}
