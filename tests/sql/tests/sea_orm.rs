//! SeaORM: `Snowflake` as a primary key and a nullable column of an entity, on a real
//! `PostgreSQL` (started by tests/support/pg.rs) and on `SQLite` in memory: the table
//! SeaORM creates has BIGINT (INTEGER) columns, rows go in and come back by `find_by_id`,
//! NULL is `None`, a time range by `first_at`/`last_at` in `filter(...)`, and a negative
//! value read back is an error naming it.

mod support;

use sea_orm::entity::prelude::*;
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, QueryOrder, Schema, Set};
use snowflake_kit::Snowflake;
use support::{NEGATIVE_FIVE, edges, messages, time_range};

mod event {
    use sea_orm::entity::prelude::*;
    use snowflake_kit::Snowflake;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "events")]
    pub(crate) struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub(crate) id: Snowflake,
        pub(crate) reply_to: Option<Snowflake>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub(crate) enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

async fn create(db: &DatabaseConnection) {
    let schema = Schema::new(db.get_database_backend());
    db.execute(&schema.create_table_from_entity(event::Entity))
        .await
        .unwrap();
}

fn row(id: Snowflake, reply_to: Option<Snowflake>) -> event::ActiveModel {
    event::ActiveModel {
        id: Set(id),
        reply_to: Set(reply_to),
    }
}

/// The same tests on each database; `connect()` gives a connection with an empty
/// `events` table, and whatever keeps its server alive.
macro_rules! database_tests {
    ($(#[$needs:meta])*) => {
        #[tokio::test]
        $(#[$needs])*
        async fn inserts_and_finds_by_id_at_the_edges() {
            let (_server, db) = connect().await;
            for id in edges() {
                row(id, None).insert(&db).await.unwrap();
                let found = event::Entity::find_by_id(id).one(&db).await.unwrap();
                assert_eq!(found, Some(event::Model { id, reply_to: None }));
            }
            let missing = Snowflake::try_from_u64(1).unwrap();
            assert_eq!(event::Entity::find_by_id(missing).one(&db).await.unwrap(), None);
        }

        #[tokio::test]
        $(#[$needs])*
        async fn null_is_none() {
            let (_server, db) = connect().await;
            let [first, reply, ..] = edges()[..] else { unreachable!() };
            row(first, None).insert(&db).await.unwrap();
            row(reply, Some(first)).insert(&db).await.unwrap();
            let roots = event::Entity::find()
                .filter(event::Column::ReplyTo.is_null())
                .all(&db)
                .await
                .unwrap();
            assert_eq!(roots, [event::Model { id: first, reply_to: None }]);
            let replies = event::Entity::find()
                .filter(event::Column::ReplyTo.eq(first))
                .all(&db)
                .await
                .unwrap();
            assert_eq!(replies, [event::Model { id: reply, reply_to: Some(first) }]);
        }

        #[tokio::test]
        $(#[$needs])*
        async fn a_time_range_by_first_at_and_last_at() {
            let (_server, db) = connect().await;
            let range = time_range();
            for ids in range.ids.chunks(5_000) {
                event::Entity::insert_many(ids.iter().map(|&id| row(id, None)))
                    .exec(&db)
                    .await
                    .unwrap();
            }
            let ids = |models: Vec<event::Model>| -> Vec<Snowflake> {
                models.into_iter().map(|model| model.id).collect()
            };
            let ordered = event::Entity::find().order_by_asc(event::Column::Id).all(&db).await.unwrap();
            let between = event::Entity::find()
                .filter(event::Column::Id.between(range.first, range.last))
                .order_by_asc(event::Column::Id)
                .all(&db)
                .await
                .unwrap();
            range.check(&ids(ordered), &ids(between));
            // The same by `gte`/`lte`, and by `issued_in`'s ends.
            let t0 = range.first.timestamp_ms();
            let t1 = range.last.timestamp_ms();
            let issued = Snowflake::issued_in(t0..t1 + 1);
            let count = event::Entity::find()
                .filter(event::Column::Id.gte(*issued.start()))
                .filter(event::Column::Id.lte(*issued.end()))
                .count(&db)
                .await
                .unwrap();
            assert_eq!(count, u64::try_from(range.expected.len()).unwrap());
        }

        #[tokio::test]
        $(#[$needs])*
        async fn a_negative_value_is_an_error_naming_it() {
            let (_server, db) = connect().await;
            db.execute_unprepared("INSERT INTO events (id) VALUES (-5)").await.unwrap();
            let err = event::Entity::find().one(&db).await.unwrap_err();
            assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
        }
    };
}

mod postgres {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::support::pg::{self, Pg};
    use super::*;

    async fn connect() -> (Arc<Pg>, DatabaseConnection) {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let pg = pg::shared();
        let db = Database::connect(pg.url()).await.expect("connects");
        // A schema of each test's own: the tests of this file share the server.
        let schema = format!("events_{}", NEXT.fetch_add(1, Ordering::Relaxed));
        db.execute_unprepared(&format!("CREATE SCHEMA {schema}"))
            .await
            .unwrap();
        db.close().await.unwrap();
        let url = format!("{}?options=-c%20search_path%3D{schema}", pg.url());
        let db = Database::connect(url).await.expect("connects");
        create(&db).await;
        (pg, db)
    }

    database_tests!(#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]);

    #[tokio::test]
    #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
    async fn the_columns_are_bigint() {
        let (_pg, db) = connect().await;
        let types = db
            .query_all_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT column_name::text, data_type::text, is_nullable::text FROM \
                 information_schema.columns WHERE table_name = 'events' AND \
                 table_schema = current_schema() ORDER BY column_name",
            ))
            .await
            .unwrap()
            .iter()
            .map(|row| {
                let get = |i| row.try_get_by_index::<String>(i).unwrap();
                (get(0), get(1), get(2))
            })
            .collect::<Vec<_>>();
        let row = |a: &str, b: &str, c: &str| (a.to_owned(), b.to_owned(), c.to_owned());
        assert_eq!(
            types,
            [row("id", "bigint", "NO"), row("reply_to", "bigint", "YES")]
        );
    }
}

mod sqlite {
    use super::*;

    async fn connect() -> ((), DatabaseConnection) {
        let db = Database::connect("sqlite::memory:").await.expect("opens");
        create(&db).await;
        ((), db)
    }

    database_tests!();

    #[tokio::test]
    async fn the_columns_are_integers() {
        let ((), db) = connect().await;
        row(Snowflake::MAX, Some(Snowflake::MIN))
            .insert(&db)
            .await
            .unwrap();
        let row = db
            .query_one_raw(sea_orm::Statement::from_string(
                db.get_database_backend(),
                "SELECT typeof(id), typeof(reply_to) FROM events",
            ))
            .await
            .unwrap()
            .unwrap();
        let get = |i| row.try_get_by_index::<String>(i).unwrap();
        assert_eq!(
            (get(0), get(1)),
            ("integer".to_owned(), "integer".to_owned())
        );
    }
}
