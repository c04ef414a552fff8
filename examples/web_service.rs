//! A first web service keyed by `Snowflake`: axum 0.8 and sqlx 0.9 on `SQLite` (in memory, so
//! that it runs anywhere). It creates events with IDs from a shared `Generator`, taken on
//! tokio's timer so that no worker blocks; lists the events of a time range given as two
//! RFC 3339 dates, found by their keys alone (the IDs sort by time); and writes IDs to JSON
//! as strings, which JavaScript reads without losing digits.
//!
//! ```sh
//! cargo run -p snowflake-kit-sql-tests --example web_service   # serves on 127.0.0.1:3000
//! curl -X POST 127.0.0.1:3000/events -H 'content-type: application/json' -d '{"what":"deploy"}'
//! curl '127.0.0.1:3000/events?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z'
//! ```
//!
//! Its tests (`cargo test -p snowflake-kit-sql-tests --example web_service`) drive the
//! same router in process.

use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use snowflake_kit::{Generator, Identity, Snowflake, snowflake};
use sqlx::SqlitePool;

/// The service's one generator, for datacenter 1, machine 1. An identity is one process's
/// alone: a fleet leases them (`snowflake-lease`) rather than hard-coding one per host.
static IDS: Generator = match Identity::new(1, 1) {
    Ok(identity) => Generator::new(identity),
    Err(_) => panic!("datacenter and machine are 0..=31"),
};

/// A fixture baked at compile time: the first event every database starts with.
const WELCOME: Snowflake =
    snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 1, machine = 1).snowflake();

#[derive(Serialize, Deserialize, Debug, PartialEq, sqlx::FromRow)]
struct Event {
    /// A string in JSON: a JavaScript number loses digits past 2^53.
    #[serde(with = "snowflake_kit::serde::as_string")]
    id: Snowflake,
    /// What the event answers, if anything; `null` or a string in JSON.
    #[serde(with = "snowflake_kit::serde::as_string::option", default)]
    reply_to: Option<Snowflake>,
    what: String,
}

#[derive(Deserialize)]
struct NewEvent {
    what: String,
    #[serde(with = "snowflake_kit::serde::as_string::option", default)]
    reply_to: Option<Snowflake>,
}

/// `?from=&to=`: RFC 3339 dates or Unix ms, `from` included and `to` not.
#[derive(Deserialize)]
struct Range {
    from: String,
    to: String,
}

/// A 400 that names the field and says what it accepts.
struct BadRequest {
    field: &'static str,
    message: String,
}

impl IntoResponse for BadRequest {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": { "field": self.field, "message": self.message } });
        (StatusCode::BAD_REQUEST, Json(body)).into_response()
    }
}

/// Any other failure: a 500 with no detail for the client.
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

/// The time in ms of `text`, typed by a person: Unix ms or an RFC 3339 date. Out of the
/// format's span is fine here, since a range is clamped to it; anything else is a 400.
fn time_ms(field: &'static str, text: &str) -> Result<u64, BadRequest> {
    let bad = |message: String| BadRequest { field, message };
    // Digits alone are Unix ms (`u64`'s `FromStr` would also take a leading `+`).
    match text.parse::<u64>() {
        Ok(ms) if !text.starts_with('+') => Ok(ms),
        _ => snowflake_kit::rfc3339::parse_rfc3339(text)
            .map_err(|e| bad(format!("{text:?} is not Unix ms or an RFC 3339 date: {e}"))),
    }
}

async fn create(
    State(db): State<SqlitePool>,
    Json(new): Json<NewEvent>,
) -> Result<(StatusCode, Json<Event>), Internal> {
    // On tokio's timer where the clock must be waited for: the worker serves others meanwhile.
    let id = IDS.next_id_async().await?;
    sqlx::query("INSERT INTO events (id, reply_to, what) VALUES (?, ?, ?)")
        .bind(id)
        .bind(new.reply_to)
        .bind(&new.what)
        .execute(&db)
        .await?;
    let event = Event {
        id,
        reply_to: new.reply_to,
        what: new.what,
    };
    Ok((StatusCode::CREATED, Json(event)))
}

async fn list(
    State(db): State<SqlitePool>,
    Query(range): Query<Range>,
) -> Result<Json<Vec<Event>>, Response> {
    let from = time_ms("from", &range.from).map_err(IntoResponse::into_response)?;
    let to = time_ms("to", &range.to).map_err(IntoResponse::into_response)?;
    // The IDs of `from..to`, clamped to the format's span: "since 2000" is no error, and a
    // `to` of midnight takes the whole day before it, its last millisecond included.
    let ids = Snowflake::issued_in(from..to);
    let events = sqlx::query_as(
        "SELECT id, reply_to, what FROM events WHERE id BETWEEN ? AND ? ORDER BY id",
    )
    .bind(*ids.start())
    .bind(*ids.end())
    .fetch_all(&db)
    .await
    .map_err(|e| Internal::from(e).into_response())?;
    Ok(Json(events))
}

/// The service on `db`: its table made, its fixture in it.
async fn app(db: SqlitePool) -> Result<Router, sqlx::Error> {
    sqlx::query(
        "CREATE TABLE events (id INTEGER PRIMARY KEY, reply_to INTEGER, what TEXT NOT NULL)",
    )
    .execute(&db)
    .await?;
    sqlx::query("INSERT INTO events (id, what) VALUES (?, 'welcome')")
        .bind(WELCOME)
        .execute(&db)
        .await?;
    Ok(Router::new()
        .route("/events", get(list).post(create))
        .with_state(db))
}

/// An in-memory database of one connection: each connection to `:memory:` is a database
/// of its own.
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
    use snowflake_kit::Field;
    use tower::ServiceExt;

    use super::*;

    async fn call(app: &Router, request: Request<Body>) -> (StatusCode, serde_json::Value) {
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
        )
    }

    async fn post(app: &Router, body: &str) -> (StatusCode, serde_json::Value) {
        let request = Request::post("/events")
            .header("content-type", "application/json")
            .body(Body::from(body.to_owned()))
            .unwrap();
        call(app, request).await
    }

    async fn get(app: &Router, query: &str) -> (StatusCode, serde_json::Value) {
        call(
            app,
            Request::get(format!("/events?{query}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
    }

    fn id_of(event: &serde_json::Value) -> Snowflake {
        event["id"]
            .as_str()
            .expect("an ID is a string in JSON")
            .parse()
            .unwrap()
    }

    #[tokio::test]
    async fn creates_lists_a_time_range_and_writes_ids_as_strings() {
        let app = app(memory_db().await.unwrap()).await.unwrap();
        let (status, first) = post(&app, r#"{"what":"deploy"}"#).await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(first["reply_to"], serde_json::Value::Null);
        let first_id = id_of(&first);
        assert_eq!((first_id.datacenter(), first_id.machine()), (1, 1));
        // A reply, its parent given as a string, read back as one.
        let (status, reply) = post(
            &app,
            &format!(r#"{{"what":"rollback","reply_to":"{first_id}"}}"#),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED);
        assert_eq!(reply["reply_to"], first_id.to_string());
        let reply_id = id_of(&reply);
        assert!(reply_id > first_id);

        // Since 2000, before the epoch: no error, everything up to now.
        let (status, all) = get(&app, "from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z").await;
        assert_eq!(status, StatusCode::OK);
        let ids: Vec<Snowflake> = all.as_array().unwrap().iter().map(id_of).collect();
        assert_eq!(ids, [WELCOME, first_id, reply_id]);
        assert_eq!(all[0]["what"], "welcome");
        assert_eq!(all[2]["reply_to"], first_id.to_string());

        // The welcome's day, `to` at the next midnight: the fixture's millisecond is in it.
        let (_, day) = get(&app, "from=2022-06-28T00:00:00Z&to=2022-06-29T00:00:00Z").await;
        assert_eq!(
            day.as_array()
                .unwrap()
                .iter()
                .map(id_of)
                .collect::<Vec<_>>(),
            [WELCOME]
        );
        // `to` is left out: a range ending at the fixture's millisecond does not hold it.
        let to = WELCOME.timestamp_ms();
        let (_, before) = get(&app, &format!("from=0&to={to}")).await;
        assert_eq!(before, serde_json::json!([]));
        let (_, at) = get(&app, &format!("from={to}&to={}", to + 1)).await;
        assert_eq!(at.as_array().unwrap().len(), 1);
        // From the first new event on: the two made just now.
        let (_, recent) = get(
            &app,
            &format!("from={}&to=4102444800000", first_id.timestamp_ms()),
        )
        .await;
        assert_eq!(
            recent
                .as_array()
                .unwrap()
                .iter()
                .map(id_of)
                .collect::<Vec<_>>(),
            [first_id, reply_id]
        );
    }

    #[tokio::test]
    async fn bad_input_is_a_400_naming_the_field() {
        let app = app(memory_db().await.unwrap()).await.unwrap();
        let (status, body) = get(&app, "from=yesterday&to=2030-01-01T00:00:00Z").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["error"]["field"], "from");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("\"yesterday\" is not Unix ms or an RFC 3339 date"),
            "{message}"
        );
        let (status, body) = get(&app, "from=0&to=2022-02-30T00:00:00Z").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["error"]["field"], "to");
        // A reply to something that is no ID: refused by serde, naming the value.
        let (status, _) = post(&app, r#"{"what":"x","reply_to":"-1"}"#).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    }

    #[test]
    fn the_fixture_is_a_snowflake_constant() {
        assert_eq!(
            Ok(WELCOME),
            snowflake_kit::compose(1_656_432_460_105, 1, 1, 0)
        );
        assert_eq!(
            Field::Timestamp.parse("2022-06-28T16:07:40.105Z"),
            Ok(WELCOME.timestamp_ms())
        );
    }
}
