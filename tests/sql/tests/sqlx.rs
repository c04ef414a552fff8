//! sqlx: `Snowflake` as a BIGINT on a real `PostgreSQL` (started by tests/support/pg.rs), and
//! as an INTEGER on `SQLite` in memory: edges, arrays, NULL, time order, time ranges, and a
//! negative value read back.

mod support;

use snowflake_kit::Snowflake;
use sqlx::{Connection, QueryBuilder};
use support::{NEGATIVE_FIVE, edges, messages, time_range};

/// The same tests on each database: `connect()` gives a connection, and whatever keeps
/// its server alive; `$bigint` is the column type; the attributes (the `ignore` of a
/// database the tests start themselves) go on every test. The SQL is the same for both,
/// `$1` parameters included, which `SQLite` reads as parameters 1 and 2 too.
macro_rules! database_tests {
    ($(#[$needs:meta])* $db:ty, $bigint:literal) => {
        #[tokio::test]
        $(#[$needs])*
        async fn round_trips_the_edges() {
            let (_server, mut conn) = connect().await;
            let create = concat!("CREATE TEMP TABLE ids (id ", $bigint, " PRIMARY KEY)");
            sqlx::query(create).execute(&mut conn).await.unwrap();
            for id in edges() {
                sqlx::query("INSERT INTO ids (id) VALUES ($1)")
                    .bind(id)
                    .execute(&mut conn)
                    .await
                    .unwrap();
                // Stored as the same number, not as text or NUMERIC.
                let (back, raw): (Snowflake, i64) =
                    sqlx::query_as("SELECT id, id FROM ids WHERE id = $1")
                        .bind(id)
                        .fetch_one(&mut conn)
                        .await
                        .unwrap();
                assert_eq!((back, raw), (id, id.as_i64()));
            }
        }

        #[tokio::test]
        $(#[$needs])*
        async fn null_is_none() {
            let (_server, mut conn) = connect().await;
            let create = concat!(
                "CREATE TEMP TABLE replies (id ",
                $bigint,
                " PRIMARY KEY, parent ",
                $bigint,
                ")"
            );
            sqlx::query(create).execute(&mut conn).await.unwrap();
            let [first, reply, ..] = edges()[..] else {
                unreachable!()
            };
            for (id, parent) in [(first, None), (reply, Some(first))] {
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
            assert_eq!(rows, [(first, None), (reply, Some(first))]);
        }

        #[tokio::test]
        $(#[$needs])*
        async fn orders_by_time_and_selects_a_time_range() {
            let (_server, mut conn) = connect().await;
            let range = time_range();
            let create = concat!("CREATE TEMP TABLE ids (id ", $bigint, " PRIMARY KEY)");
            sqlx::query(create).execute(&mut conn).await.unwrap();
            // 10,000 rows a statement: fewer parameters than either database's limit.
            for chunk in range.ids.chunks(10_000) {
                QueryBuilder::<$db>::new("INSERT INTO ids (id) ")
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
                sqlx::query_scalar("SELECT id FROM ids WHERE id BETWEEN $1 AND $2 ORDER BY id")
                    .bind(range.first)
                    .bind(range.last)
                    .fetch_all(&mut conn)
                    .await
                    .unwrap();
            range.check(&ordered, &between);
        }

        #[tokio::test]
        $(#[$needs])*
        async fn negative_is_an_error_naming_it() {
            let (_server, mut conn) = connect().await;
            let err = sqlx::query_scalar::<_, Snowflake>("SELECT CAST(-5 AS BIGINT)")
                .fetch_one(&mut conn)
                .await
                .unwrap_err();
            assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
        }
    };
}

mod postgres {
    use std::sync::Arc;

    use sqlx::{PgConnection, Postgres};

    use super::support::pg::{self, Pg};
    use super::*;

    async fn connect() -> (Arc<Pg>, PgConnection) {
        let pg = pg::shared();
        let conn = PgConnection::connect(&pg.url()).await.expect("connects");
        (pg, conn)
    }

    database_tests!(
        #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
        Postgres,
        "BIGINT"
    );

    #[tokio::test]
    #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
    async fn binds_as_bigint_and_vec_as_bigint_array() {
        let (_pg, mut conn) = connect().await;
        let (one, many, back): (String, String, Vec<Snowflake>) =
            sqlx::query_as("SELECT pg_typeof($1)::text, pg_typeof($2)::text, $2")
                .bind(edges()[0])
                .bind(edges())
                .fetch_one(&mut conn)
                .await
                .unwrap();
        assert_eq!(
            (one.as_str(), many.as_str(), back),
            ("bigint", "bigint[]", edges())
        );
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
    async fn negative_in_an_array_is_an_error_naming_it() {
        let (_pg, mut conn) = connect().await;
        let err = sqlx::query_scalar::<_, Vec<Snowflake>>("SELECT ARRAY[1, -5]::int8[]")
            .fetch_one(&mut conn)
            .await
            .unwrap_err();
        assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
    }
}

mod sqlite {
    use sqlx::{Sqlite, SqliteConnection};

    use super::*;

    async fn connect() -> ((), SqliteConnection) {
        let conn = SqliteConnection::connect("sqlite::memory:")
            .await
            .expect("opens");
        ((), conn)
    }

    database_tests!(Sqlite, "INTEGER");

    #[tokio::test]
    async fn stores_an_integer() {
        let mut conn = SqliteConnection::connect("sqlite::memory:").await.unwrap();
        let ty: String = sqlx::query_scalar("SELECT typeof($1)")
            .bind(Snowflake::MAX)
            .fetch_one(&mut conn)
            .await
            .unwrap();
        assert_eq!(ty, "integer");
    }
}
