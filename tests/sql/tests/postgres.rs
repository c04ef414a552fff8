//! `postgres-types` through tokio-postgres: `Snowflake` as an INT8 on a real `PostgreSQL`
//! (started by tests/support/pg.rs): edges, arrays, NULL, time order, time ranges, other
//! column types refused, and a negative value read back.

mod support;

use std::sync::Arc;

use snowflake_kit::Snowflake;
use support::pg::{self, Pg};
use support::{NEGATIVE_FIVE, edges, messages, time_range};
use tokio_postgres::{Client, NoTls};

/// A client of the shared server, kept alive by the `Arc`.
async fn client() -> (Arc<Pg>, Client) {
    let pg = pg::shared();
    let (client, connection) = tokio_postgres::connect(&pg.url(), NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    (pg, client)
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn round_trips_the_edges_as_int8() {
    let (_pg, client) = client().await;
    client
        .batch_execute("CREATE TEMP TABLE ids (id BIGINT PRIMARY KEY)")
        .await
        .unwrap();
    for id in edges() {
        client
            .execute("INSERT INTO ids VALUES ($1)", &[&id])
            .await
            .unwrap();
        let row = client
            .query_one("SELECT id, id::text FROM ids WHERE id = $1", &[&id])
            .await
            .unwrap();
        assert_eq!(row.get::<_, Snowflake>(0), id);
        assert_eq!(row.get::<_, String>(1), id.to_string());
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn refuses_columns_other_than_int8() {
    let (_pg, client) = client().await;
    let id = edges()[1];
    for sql in ["SELECT $1::int4", "SELECT $1::numeric", "SELECT $1::text"] {
        assert!(
            client.query_one(sql, &[&id]).await.is_err(),
            "{sql} took a Snowflake"
        );
    }
    for sql in ["SELECT 5::int4", "SELECT 5::numeric", "SELECT '5'::text"] {
        let row = client.query_one(sql, &[]).await.unwrap();
        assert!(
            row.try_get::<_, Snowflake>(0).is_err(),
            "{sql} gave a Snowflake"
        );
    }
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn binds_slices_as_int8_arrays() {
    let (_pg, client) = client().await;
    let row = client
        .query_one("SELECT $1::int8[]", &[&edges()])
        .await
        .unwrap();
    assert_eq!(row.get::<_, Vec<Snowflake>>(0), edges());
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn null_is_none() {
    let (_pg, client) = client().await;
    client
        .batch_execute("CREATE TEMP TABLE replies (id BIGINT PRIMARY KEY, parent BIGINT)")
        .await
        .unwrap();
    let [first, tweet, ..] = edges()[..] else {
        unreachable!()
    };
    for (id, parent) in [(first, None), (tweet, Some(first))] {
        client
            .execute("INSERT INTO replies VALUES ($1, $2)", &[&id, &parent])
            .await
            .unwrap();
    }
    let rows = client
        .query("SELECT id, parent FROM replies ORDER BY id", &[])
        .await
        .unwrap();
    let rows: Vec<(Snowflake, Option<Snowflake>)> =
        rows.iter().map(|row| (row.get(0), row.get(1))).collect();
    assert_eq!(rows, [(first, None), (tweet, Some(first))]);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn orders_by_time_and_selects_a_time_range() {
    let (_pg, client) = client().await;
    let range = time_range();
    client
        .batch_execute("CREATE TEMP TABLE ids (id BIGINT PRIMARY KEY)")
        .await
        .unwrap();
    client
        .execute(
            "INSERT INTO ids SELECT * FROM unnest($1::int8[])",
            &[&range.ids],
        )
        .await
        .unwrap();
    let ids = |rows: Vec<tokio_postgres::Row>| {
        rows.iter()
            .map(|row| row.get(0))
            .collect::<Vec<Snowflake>>()
    };
    let ordered = ids(client
        .query("SELECT id FROM ids ORDER BY id", &[])
        .await
        .unwrap());
    let between = ids(client
        .query(
            "SELECT id FROM ids WHERE id BETWEEN $1 AND $2 ORDER BY id",
            &[&range.first, &range.last],
        )
        .await
        .unwrap());
    range.check(&ordered, &between);
}

#[tokio::test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
async fn negative_is_an_error_naming_it() {
    let (_pg, client) = client().await;
    let row = client
        .query_one("SELECT -5::int8, ARRAY[1, -5]::int8[]", &[])
        .await
        .unwrap();
    let err = row.try_get::<_, Snowflake>(0).unwrap_err();
    assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
    let err = row.try_get::<_, Vec<Snowflake>>(1).unwrap_err();
    assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
}
