//! Typed IDs (`typed::Id<K>`) in every SQL integration, as `Snowflake`s are tested in the
//! files beside this one: two kinds, users and orders, in one table each, on a real
//! `PostgreSQL` (started by tests/support/pg.rs) and on `SQLite` in memory; each ID goes in
//! as its kind and comes back as its kind, a column of another type is refused, and a
//! negative value read back is an error naming it, as for a `Snowflake`.

mod support;

use snowflake_kit::typed::{Id, kind};
use support::{NEGATIVE_FIVE, edges, messages};

kind!(
    /// The shop's users.
    pub User, "user"
);
kind!(
    /// Their orders.
    pub Order, "order"
);

/// The edges of the format, as users' IDs.
fn users() -> Vec<Id<User>> {
    edges().into_iter().map(Id::from_snowflake).collect()
}

/// A user's order: the same ID, said to be an order's.
fn order_of(user: Id<User>) -> Id<Order> {
    user.cast()
}

mod sqlx_tests {
    use sqlx::Connection;

    use super::*;

    /// Users and their orders in two tables, each ID bound and read back as its kind;
    /// `$bigint` the column type.
    macro_rules! two_kinds {
        ($conn:expr, $bigint:literal) => {{
            let conn = $conn;
            for create in [
                concat!("CREATE TEMP TABLE users (id ", $bigint, " PRIMARY KEY)"),
                concat!("CREATE TEMP TABLE orders (id ", $bigint, " PRIMARY KEY)"),
            ] {
                sqlx::query(create).execute(&mut *conn).await.unwrap();
            }
            for user in users() {
                sqlx::query("INSERT INTO users (id) VALUES ($1)")
                    .bind(user)
                    .execute(&mut *conn)
                    .await
                    .unwrap();
                sqlx::query("INSERT INTO orders (id) VALUES ($1)")
                    .bind(order_of(user))
                    .execute(&mut *conn)
                    .await
                    .unwrap();
                let (back, raw): (Id<User>, i64) =
                    sqlx::query_as("SELECT id, id FROM users WHERE id = $1")
                        .bind(user)
                        .fetch_one(&mut *conn)
                        .await
                        .unwrap();
                assert_eq!((back, raw), (user, user.snowflake().as_i64()));
                let order: Id<Order> = sqlx::query_scalar("SELECT id FROM orders WHERE id = $1")
                    .bind(order_of(user))
                    .fetch_one(&mut *conn)
                    .await
                    .unwrap();
                assert_eq!(order, order_of(user));
            }
            let err = sqlx::query_scalar::<_, Id<User>>("SELECT CAST(-5 AS BIGINT)")
                .fetch_one(&mut *conn)
                .await
                .unwrap_err();
            assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
        }};
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
    async fn postgres_binds_and_reads_each_kind_and_arrays() {
        let pg = support::pg::shared();
        let mut conn = sqlx::PgConnection::connect(&pg.url()).await.unwrap();
        two_kinds!(&mut conn, "BIGINT");
        let (many, back): (String, Vec<Id<User>>) =
            sqlx::query_as("SELECT pg_typeof($1)::text, $1")
                .bind(users())
                .fetch_one(&mut conn)
                .await
                .unwrap();
        assert_eq!((many.as_str(), back), ("bigint[]", users()));
        let refused = sqlx::query_scalar::<_, Id<User>>("SELECT 5::int4")
            .fetch_one(&mut conn)
            .await;
        assert!(refused.is_err(), "an int4 read as a user's ID");
    }

    #[tokio::test]
    async fn sqlite_binds_and_reads_each_kind() {
        let mut conn = sqlx::SqliteConnection::connect("sqlite::memory:")
            .await
            .unwrap();
        two_kinds!(&mut conn, "INTEGER");
    }
}

mod postgres_types {
    use tokio_postgres::NoTls;

    use super::*;

    #[tokio::test]
    #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
    async fn binds_and_reads_each_kind_and_arrays() {
        let pg = support::pg::shared();
        let (client, connection) = tokio_postgres::connect(&pg.url(), NoTls).await.unwrap();
        tokio::spawn(connection);
        client
            .batch_execute("CREATE TEMP TABLE orders (id BIGINT PRIMARY KEY)")
            .await
            .unwrap();
        for user in users() {
            let order = order_of(user);
            client
                .execute("INSERT INTO orders VALUES ($1)", &[&order])
                .await
                .unwrap();
            let row = client
                .query_one("SELECT id FROM orders WHERE id = $1", &[&order])
                .await
                .unwrap();
            assert_eq!(row.get::<_, Id<Order>>(0), order);
        }
        let row = client
            .query_one("SELECT $1::int8[]", &[&users()])
            .await
            .unwrap();
        assert_eq!(row.get::<_, Vec<Id<User>>>(0), users());
        let row = client.query_one("SELECT 5::int4", &[]).await.unwrap();
        assert!(
            row.try_get::<_, Id<User>>(0).is_err(),
            "an int4 read as an ID"
        );
        let row = client.query_one("SELECT -5::int8", &[]).await.unwrap();
        let err = row.try_get::<_, Id<User>>(0).unwrap_err();
        assert!(messages(&err).contains(NEGATIVE_FIVE), "{err}");
    }
}

mod diesel_tests {
    use diesel::prelude::*;

    use super::*;

    diesel::table! {
        /// Orders, each by a user.
        orders (id) {
            /// The order's ID.
            id -> BigInt,
            /// The ID of the user who placed it.
            user_id -> BigInt,
            /// The order it replaces, if any.
            replaces -> Nullable<BigInt>,
        }
    }

    #[derive(Insertable, Queryable, Selectable, Debug, PartialEq)]
    #[diesel(table_name = orders)]
    struct OrderRow {
        id: Id<Order>,
        user_id: Id<User>,
        replaces: Option<Id<Order>>,
    }

    /// Rows in and out with their kinds, a query by a user's ID, NULL as `None`.
    macro_rules! rows_by_kind {
        ($conn:expr) => {{
            let conn = $conn;
            let rows: Vec<OrderRow> = users()
                .into_iter()
                .map(|user| OrderRow {
                    id: order_of(user),
                    user_id: user,
                    replaces: (user.snowflake().as_u64() > 0).then(|| order_of(users()[0])),
                })
                .collect();
            diesel::insert_into(orders::table)
                .values(&rows)
                .execute(conn)
                .unwrap();
            let back: Vec<OrderRow> = orders::table
                .order(orders::id)
                .select(OrderRow::as_select())
                .load(conn)
                .unwrap();
            assert_eq!(back, rows);
            let last = users()[users().len() - 1];
            let mine: Vec<Id<Order>> = orders::table
                .filter(orders::user_id.eq(last))
                .select(orders::id)
                .load(conn)
                .unwrap();
            assert_eq!(mine, [order_of(last)]);
        }};
    }

    #[test]
    #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
    fn postgres_rows_keep_their_kinds() {
        let pg = support::pg::shared();
        let conn = &mut PgConnection::establish(&pg.url()).unwrap();
        diesel::sql_query(
            "CREATE TEMP TABLE orders (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, replaces BIGINT)",
        )
        .execute(conn)
        .unwrap();
        rows_by_kind!(conn);
    }

    #[test]
    fn sqlite_rows_keep_their_kinds() {
        let conn = &mut SqliteConnection::establish(":memory:").unwrap();
        diesel::sql_query(
            "CREATE TABLE orders (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, replaces BIGINT)",
        )
        .execute(conn)
        .unwrap();
        rows_by_kind!(conn);
    }
}

mod sea_orm_tests {
    use sea_orm::entity::prelude::*;
    use sea_orm::{ConnectionTrait, Database, DatabaseConnection, Schema, Set};

    use super::*;

    mod order {
        use sea_orm::entity::prelude::*;
        use snowflake_kit::typed::Id;

        #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
        #[sea_orm(table_name = "orders")]
        pub(crate) struct Model {
            #[sea_orm(primary_key, auto_increment = false)]
            pub(crate) id: Id<super::super::Order>,
            pub(crate) user_id: Id<super::super::User>,
            pub(crate) replaces: Option<Id<super::super::Order>>,
        }

        #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
        pub(crate) enum Relation {}

        impl ActiveModelBehavior for ActiveModel {}
    }

    /// A typed primary key and columns: the table SeaORM makes, rows by `find_by_id`.
    async fn keys_keep_their_kinds(db: &DatabaseConnection) {
        let schema = Schema::new(db.get_database_backend());
        db.execute(&schema.create_table_from_entity(order::Entity))
            .await
            .unwrap();
        for user in users() {
            order::ActiveModel {
                id: Set(order_of(user)),
                user_id: Set(user),
                replaces: Set(None),
            }
            .insert(db)
            .await
            .unwrap();
            let back = order::Entity::find_by_id(order_of(user))
                .one(db)
                .await
                .unwrap()
                .expect("the order is there");
            assert_eq!(
                (back.id, back.user_id, back.replaces),
                (order_of(user), user, None)
            );
        }
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
    async fn postgres_keys_keep_their_kinds() {
        let pg = support::pg::shared();
        // A schema of its own on the shared server, every pooled connection in it.
        let db = Database::connect(pg.url()).await.unwrap();
        db.execute_unprepared("CREATE SCHEMA typed_orders")
            .await
            .unwrap();
        db.close().await.unwrap();
        let url = format!("{}?options=-c%20search_path%3Dtyped_orders", pg.url());
        keys_keep_their_kinds(&Database::connect(url).await.unwrap()).await;
    }

    #[tokio::test]
    async fn sqlite_keys_keep_their_kinds() {
        let db = Database::connect("sqlite::memory:").await.unwrap();
        keys_keep_their_kinds(&db).await;
    }
}
