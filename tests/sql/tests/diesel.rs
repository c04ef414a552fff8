//! diesel: `Snowflake` as the Rust type of a `BigInt` column in `table!`, queries,
//! `Insertable`, `Queryable` and `QueryableByName` structs, on a real `PostgreSQL` (started
//! by tests/support/pg.rs) and on `SQLite` in memory: edges, NULL, time order, time ranges,
//! and a negative value read back.

mod support;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable};
use snowflake_kit::Snowflake;
use support::{NEGATIVE_FIVE, edges, messages, time_range};

diesel::table! {
    /// Tweets, keyed by `Snowflake`, each maybe a reply to another.
    tweets (id) {
        /// The tweet's ID.
        id -> BigInt,
        /// The ID of the tweet it replies to.
        parent -> Nullable<BigInt>,
    }
}

diesel::table! {
    /// IDs alone.
    ids (id) {
        /// An ID.
        id -> BigInt,
    }
}

#[derive(Insertable, Queryable, Selectable, QueryableByName, Debug, PartialEq)]
#[diesel(table_name = tweets)]
struct Tweet {
    id: Snowflake,
    parent: Option<Snowflake>,
}

const fn tweet(id: Snowflake, parent: Option<Snowflake>) -> Tweet {
    Tweet { id, parent }
}

const CREATE: &str = "CREATE TEMP TABLE tweets (id BIGINT PRIMARY KEY, parent BIGINT); \
                      CREATE TEMP TABLE ids (id BIGINT PRIMARY KEY)";

/// The same tests on each backend: `connect()` gives a connection with the tables, and
/// whatever keeps its server alive; `$echo` selects its two parameters as a `Tweet`; the
/// attributes (the `ignore` of a database the tests start themselves) go on every test.
macro_rules! backend_tests {
    ($(#[$needs:meta])* $echo:literal) => {
        #[test]
        $(#[$needs])*
        fn round_trips_the_edges() {
            let (_server, mut conn) = connect();
            for id in edges() {
                let row = tweet(id, None);
                diesel::insert_into(tweets::table)
                    .values(&row)
                    .execute(&mut conn)
                    .unwrap();
                let back: Tweet = tweets::table
                    .filter(tweets::id.eq(id))
                    .select(Tweet::as_select())
                    .first(&mut conn)
                    .unwrap();
                assert_eq!(back, row);
                // Stored as the same number.
                let raw: i64 = tweets::table
                    .filter(tweets::id.eq(&id))
                    .select(tweets::id)
                    .first(&mut conn)
                    .unwrap();
                assert_eq!(raw, id.as_i64());
            }
        }

        #[test]
        $(#[$needs])*
        fn binds_in_sql_query() {
            let (_server, mut conn) = connect();
            let [first, reply, ..] = edges()[..] else {
                unreachable!()
            };
            let rows: Vec<Tweet> = diesel::sql_query($echo)
                .bind::<BigInt, _>(reply)
                .bind::<Nullable<BigInt>, _>(Some(first))
                .load(&mut conn)
                .unwrap();
            assert_eq!(rows, [tweet(reply, Some(first))]);
        }

        #[test]
        $(#[$needs])*
        fn null_is_none() {
            let (_server, mut conn) = connect();
            let [first, reply, last_of_ms, ..] = edges()[..] else {
                unreachable!()
            };
            let rows = [
                tweet(first, None),
                tweet(reply, Some(first)),
                tweet(last_of_ms, None),
            ];
            for row in &rows {
                diesel::insert_into(tweets::table)
                    .values(row)
                    .execute(&mut conn)
                    .unwrap();
            }
            diesel::update(tweets::table.filter(tweets::id.eq(last_of_ms)))
                .set(tweets::parent.eq(Some(reply)))
                .execute(&mut conn)
                .unwrap();
            let back: Vec<Tweet> = tweets::table
                .order(tweets::id)
                .select(Tweet::as_select())
                .load(&mut conn)
                .unwrap();
            let expected = [
                tweet(first, None),
                tweet(reply, Some(first)),
                tweet(last_of_ms, Some(reply)),
            ];
            assert_eq!(back, expected);
            let orphans: Vec<Snowflake> = tweets::table
                .filter(tweets::parent.is_null())
                .select(tweets::id)
                .load(&mut conn)
                .unwrap();
            assert_eq!(orphans, [first]);
        }

        #[test]
        $(#[$needs])*
        fn orders_by_time_and_selects_a_time_range() {
            let (_server, mut conn) = connect();
            let range = time_range();
            // 10,000 rows a statement: fewer parameters than either database's limit.
            for chunk in range.ids.chunks(10_000) {
                let rows: Vec<_> = chunk.iter().map(|id| ids::id.eq(*id)).collect();
                diesel::insert_into(ids::table)
                    .values(rows)
                    .execute(&mut conn)
                    .unwrap();
            }
            let ordered: Vec<Snowflake> = ids::table
                .select(ids::id)
                .order(ids::id)
                .load(&mut conn)
                .unwrap();
            let between: Vec<Snowflake> = ids::table
                .select(ids::id)
                .filter(ids::id.between(range.first, range.last))
                .order(ids::id)
                .load(&mut conn)
                .unwrap();
            range.check(&ordered, &between);
        }

        #[test]
        $(#[$needs])*
        fn negative_is_an_error_naming_it() {
            let (_server, mut conn) = connect();
            diesel::insert_into(ids::table)
                .values(ids::id.eq(-5_i64))
                .execute(&mut conn)
                .unwrap();
            let err = ids::table
                .select(ids::id)
                .first::<Snowflake>(&mut conn)
                .unwrap_err();
            assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
        }
    };
}

mod postgres {
    use std::sync::Arc;

    use super::support::pg::{self, Pg};
    use super::*;

    fn connect() -> (Arc<Pg>, PgConnection) {
        let pg = pg::shared();
        let mut conn = PgConnection::establish(&pg.url()).expect("connects");
        diesel::connection::SimpleConnection::batch_execute(&mut conn, CREATE).unwrap();
        (pg, conn)
    }

    backend_tests!(
        #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
        "SELECT $1 AS id, $2 AS parent"
    );
}

mod sqlite {
    use super::*;

    fn connect() -> ((), SqliteConnection) {
        let mut conn = SqliteConnection::establish(":memory:").expect("opens");
        diesel::connection::SimpleConnection::batch_execute(&mut conn, CREATE).unwrap();
        ((), conn)
    }

    backend_tests!("SELECT ? AS id, ? AS parent");
}
