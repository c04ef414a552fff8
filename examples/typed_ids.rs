//! Typed IDs in a web service: users and their orders, each keyed by an ID of its own kind
//! (`typed::Id<User>`, `typed::Id<Order>`), so that an order's ID passed where a user's
//! belongs does not compile. axum 0.8 and sqlx 0.9 on `SQLite` in memory; one `Generator`
//! issues both kinds; a fixture user is baked at compile time as its kind; IDs are strings
//! in JSON.
//!
//! ```sh
//! cargo run -p snowflake-kit-sql-tests --example typed_ids   # serves on 127.0.0.1:3000
//! curl -X POST 127.0.0.1:3000/users/4194439168/orders -H 'content-type: application/json' -d '{"what":"tea"}'
//! curl 127.0.0.1:3000/users/4194439168/orders
//! ```
//!
//! Its tests (`cargo test -p snowflake-kit-sql-tests --example typed_ids`) drive the same
//! router in process.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use snowflake_kit::typed::{Id, kind};
use snowflake_kit::{Generator, Identity, snowflake};
use sqlx::SqlitePool;

kind!(
    /// The shop's users.
    pub User, "user"
);
kind!(
    /// What they order.
    pub Order, "order"
);

/// One generator for every kind: the kind is the ID's type, not the generator's.
static IDS: Generator = match Identity::new(1, 1) {
    Ok(identity) => Generator::new(identity),
    Err(_) => panic!("datacenter and machine are 0..=31"),
};

/// The first user, baked at compile time as a user's ID.
const ADMIN: Id<User> = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 1, machine = 1).typed();

#[derive(Serialize, Deserialize, Debug, PartialEq, sqlx::FromRow)]
struct OrderRow {
    #[serde(with = "snowflake_kit::serde::as_string")]
    id: Id<Order>,
    #[serde(with = "snowflake_kit::serde::as_string")]
    user_id: Id<User>,
    what: String,
}

#[derive(Deserialize)]
struct NewOrder {
    what: String,
}

/// Any failure: a 500 with no detail for the client.
struct Internal;

impl<E: std::fmt::Display> From<E> for Internal {
    fn from(error: E) -> Internal {
        eprintln!("internal error: {error}");
        Internal
    }
}

impl IntoResponse for Internal {
    fn into_response(self) -> Response {
        StatusCode::INTERNAL_SERVER_ERROR.into_response()
    }
}

/// The user's ID from the path, read as a user's: `Path<Id<User>>` parses the digits.
async fn place(
    State(db): State<SqlitePool>,
    Path(user): Path<Id<User>>,
    Json(new): Json<NewOrder>,
) -> Result<(StatusCode, Json<OrderRow>), Internal> {
    let order = OrderRow {
        id: IDS.try_next_id_of()?,
        user_id: user,
        what: new.what,
    };
    sqlx::query("INSERT INTO orders (id, user_id, what) VALUES (?, ?, ?)")
        .bind(order.id)
        .bind(order.user_id)
        .bind(&order.what)
        .execute(&db)
        .await?;
    Ok((StatusCode::CREATED, Json(order)))
}

/// A user's orders, oldest first: the IDs sort by time.
async fn orders_of(
    State(db): State<SqlitePool>,
    Path(user): Path<Id<User>>,
) -> Result<Json<Vec<OrderRow>>, Internal> {
    let orders =
        sqlx::query_as("SELECT id, user_id, what FROM orders WHERE user_id = ? ORDER BY id")
            .bind(user)
            .fetch_all(&db)
            .await?;
    Ok(Json(orders))
}

/// The service on `db`, its tables made.
async fn app(db: SqlitePool) -> Result<Router, sqlx::Error> {
    sqlx::query("CREATE TABLE users (id INTEGER PRIMARY KEY)")
        .execute(&db)
        .await?;
    sqlx::query("CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id), what TEXT NOT NULL)")
        .execute(&db)
        .await?;
    sqlx::query("INSERT INTO users (id) VALUES (?)")
        .bind(ADMIN)
        .execute(&db)
        .await?;
    Ok(Router::new()
        .route("/users/{user}/orders", get(orders_of).post(place))
        .with_state(db))
}

/// An in-memory database of one connection.
async fn memory_db() -> Result<SqlitePool, sqlx::Error> {
    sqlx::pool::PoolOptions::new()
        .max_connections(1)
        .connect("sqlite::memory:")
        .await
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let app = app(memory_db().await?).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    println!("listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    use super::*;

    async fn call(app: &Router, request: Request<Body>) -> (StatusCode, serde_json::Value) {
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let json = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
        (status, json)
    }

    async fn place(app: &Router, user: &str, what: &str) -> (StatusCode, serde_json::Value) {
        let request = Request::post(format!("/users/{user}/orders"))
            .header("content-type", "application/json")
            .body(Body::from(format!(r#"{{"what":"{what}"}}"#)))
            .unwrap();
        call(app, request).await
    }

    #[tokio::test]
    async fn orders_are_placed_and_listed_by_their_users_id() {
        let app = app(memory_db().await.unwrap()).await.unwrap();
        let (status, tea) = place(&app, &ADMIN.to_string(), "tea").await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(tea["user_id"], ADMIN.to_string());
        let (_, cake) = place(&app, &ADMIN.to_string(), "cake").await;
        let id = |order: &serde_json::Value| -> Id<Order> {
            order["id"]
                .as_str()
                .expect("a string in JSON")
                .parse()
                .unwrap()
        };
        assert!(id(&tea) < id(&cake));
        assert_eq!(
            (
                id(&tea).snowflake().datacenter(),
                id(&tea).snowflake().machine()
            ),
            (1, 1)
        );
        let request = Request::get(format!("/users/{ADMIN}/orders")).body(Body::empty());
        let (status, orders) = call(&app, request.unwrap()).await;
        assert_eq!(status, StatusCode::OK);
        let rows: Vec<OrderRow> = serde_json::from_value(orders).unwrap();
        assert_eq!(
            rows.iter()
                .map(|row| (row.id, row.what.as_str()))
                .collect::<Vec<_>>(),
            [(id(&tea), "tea"), (id(&cake), "cake")]
        );
        assert!(rows.iter().all(|row| row.user_id == ADMIN));
    }

    #[tokio::test]
    async fn a_path_that_is_no_id_is_refused() {
        let app = app(memory_db().await.unwrap()).await.unwrap();
        let (status, _) = place(&app, "-1", "tea").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }

    #[test]
    fn the_admin_is_a_baked_users_id() {
        assert_eq!(
            ADMIN.snowflake(),
            snowflake_kit::compose(1_656_432_460_105, 1, 1, 0).unwrap()
        );
        assert_eq!(format!("{ADMIN:?}"), format!("User({ADMIN})"));
    }
}
