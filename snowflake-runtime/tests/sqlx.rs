//! sqlx: `Snowflake` as a BIGINT on a real `PostgreSQL` (started by tests/support/pg.rs), and
//! as an INTEGER on `SQLite` in memory: edges, arrays, NULL, time order, time ranges, and a
//! negative value read back.

mod support;

use std::sync::Arc;

use snowflake_runtime::Snowflake;
use sqlx::{Connection, PgConnection, QueryBuilder, Sqlite, SqliteConnection};
use support::pg::Pg;
use support::{NEGATIVE_FIVE, edges, messages, time_range};

/// A connection to the shared server, kept alive by the `Arc`; `None` when skipped.
async fn postgres(test: &str) -> Option<(Arc<Pg>, PgConnection)> {
    let pg = Pg::shared(test)?;
    let conn = PgConnection::connect(&pg.url()).await.expect("connects");
    Some((pg, conn))
}

async fn sqlite() -> SqliteConnection {
    SqliteConnection::connect("sqlite::memory:")
        .await
        .expect("opens")
}

#[tokio::test]
async fn pg_binds_as_bigint_and_round_trips_the_edges() {
    let Some((_pg, mut conn)) = postgres("pg_binds_as_bigint_and_round_trips_the_edges").await
    else {
        return;
    };
    let ty: String = sqlx::query_scalar("SELECT pg_typeof($1)::text")
        .bind(edges()[0])
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(ty, "bigint");
    sqlx::query("CREATE TEMP TABLE ids (id BIGINT PRIMARY KEY)")
        .execute(&mut conn)
        .await
        .unwrap();
    for id in edges() {
        sqlx::query("INSERT INTO ids (id) VALUES ($1)")
            .bind(id)
            .execute(&mut conn)
            .await
            .unwrap();
        let back: Snowflake = sqlx::query_scalar("SELECT id FROM ids WHERE id = $1")
            .bind(id)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(back, id);
        // Stored as the same number, not as text or NUMERIC.
        let raw: i64 = sqlx::query_scalar("SELECT id FROM ids WHERE id = $1")
            .bind(id)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(raw, id.as_i64());
    }
}

#[tokio::test]
async fn pg_binds_vec_as_bigint_array() {
    let Some((_pg, mut conn)) = postgres("pg_binds_vec_as_bigint_array").await else {
        return;
    };
    let (ty, back): (String, Vec<Snowflake>) = sqlx::query_as("SELECT pg_typeof($1)::text, $1")
        .bind(edges())
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!((ty.as_str(), back), ("bigint[]", edges()));
}

#[tokio::test]
async fn pg_null_is_none() {
    let Some((_pg, mut conn)) = postgres("pg_null_is_none").await else {
        return;
    };
    sqlx::query("CREATE TEMP TABLE replies (id BIGINT PRIMARY KEY, parent BIGINT)")
        .execute(&mut conn)
        .await
        .unwrap();
    let [first, tweet, ..] = edges()[..] else {
        unreachable!()
    };
    for (id, parent) in [(first, None), (tweet, Some(first))] {
        sqlx::query("INSERT INTO replies VALUES ($1, $2)")
            .bind(id)
            .bind(parent)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let rows: Vec<(Snowflake, Option<Snowflake>)> =
        sqlx::query_as("SELECT id, parent FROM replies ORDER BY id")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    assert_eq!(rows, [(first, None), (tweet, Some(first))]);
}

#[tokio::test]
async fn pg_orders_by_time_and_selects_a_time_range() {
    let Some((_pg, mut conn)) = postgres("pg_orders_by_time_and_selects_a_time_range").await else {
        return;
    };
    let range = time_range();
    sqlx::query("CREATE TEMP TABLE ids (id BIGINT PRIMARY KEY)")
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query("INSERT INTO ids SELECT * FROM unnest($1::int8[])")
        .bind(&range.ids)
        .execute(&mut conn)
        .await
        .unwrap();
    let ordered: Vec<Snowflake> = sqlx::query_scalar("SELECT id FROM ids ORDER BY id")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    let between: Vec<Snowflake> =
        sqlx::query_scalar("SELECT id FROM ids WHERE id BETWEEN $1 AND $2 ORDER BY id")
            .bind(range.first)
            .bind(range.last)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    range.check(&ordered, &between);
}

#[tokio::test]
async fn pg_negative_is_an_error_naming_it() {
    let Some((_pg, mut conn)) = postgres("pg_negative_is_an_error_naming_it").await else {
        return;
    };
    let err = sqlx::query_scalar::<_, Snowflake>("SELECT -5::int8")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
    let err = sqlx::query_scalar::<_, Vec<Snowflake>>("SELECT ARRAY[1, -5]::int8[]")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
}

#[tokio::test]
async fn sqlite_stores_an_integer_and_round_trips_the_edges() {
    let mut conn = sqlite().await;
    sqlx::query("CREATE TABLE ids (id INTEGER PRIMARY KEY)")
        .execute(&mut conn)
        .await
        .unwrap();
    for id in edges() {
        sqlx::query("INSERT INTO ids (id) VALUES (?)")
            .bind(id)
            .execute(&mut conn)
            .await
            .unwrap();
        let (back, ty): (Snowflake, String) =
            sqlx::query_as("SELECT id, typeof(id) FROM ids WHERE id = ?")
                .bind(id)
                .fetch_one(&mut conn)
                .await
                .unwrap();
        assert_eq!((back, ty.as_str()), (id, "integer"));
    }
}

#[tokio::test]
async fn sqlite_null_is_none() {
    let mut conn = sqlite().await;
    sqlx::query("CREATE TABLE replies (id INTEGER PRIMARY KEY, parent INTEGER)")
        .execute(&mut conn)
        .await
        .unwrap();
    let [first, tweet, ..] = edges()[..] else {
        unreachable!()
    };
    for (id, parent) in [(first, None), (tweet, Some(first))] {
        sqlx::query("INSERT INTO replies VALUES (?, ?)")
            .bind(id)
            .bind(parent)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let rows: Vec<(Snowflake, Option<Snowflake>)> =
        sqlx::query_as("SELECT id, parent FROM replies ORDER BY id")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    assert_eq!(rows, [(first, None), (tweet, Some(first))]);
}

#[tokio::test]
async fn sqlite_orders_by_time_and_selects_a_time_range() {
    let mut conn = sqlite().await;
    let range = time_range();
    sqlx::query("CREATE TABLE ids (id INTEGER PRIMARY KEY)")
        .execute(&mut conn)
        .await
        .unwrap();
    // 10,000 rows a statement: SQLite takes at most 32,766 parameters.
    for chunk in range.ids.chunks(10_000) {
        QueryBuilder::<Sqlite>::new("INSERT INTO ids (id) ")
            .push_values(chunk, |mut row, id| {
                row.push_bind(*id);
            })
            .build()
            .execute(&mut conn)
            .await
            .unwrap();
    }
    let ordered: Vec<Snowflake> = sqlx::query_scalar("SELECT id FROM ids ORDER BY id")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    let between: Vec<Snowflake> =
        sqlx::query_scalar("SELECT id FROM ids WHERE id BETWEEN ? AND ? ORDER BY id")
            .bind(range.first)
            .bind(range.last)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    range.check(&ordered, &between);
}

#[tokio::test]
async fn sqlite_negative_is_an_error_naming_it() {
    let mut conn = sqlite().await;
    let err = sqlx::query_scalar::<_, Snowflake>("SELECT -5")
        .fetch_one(&mut conn)
        .await
        .unwrap_err();
    assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
}
