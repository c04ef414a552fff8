//! The JSON API, and the form rules the page shares with it: the format's rules
//! come from the runtime, so the page, the API and `snowflake!` say the same.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use snowflake_kit::{Clock, Field, Snowflake, SystemClock};

use crate::AppState;
use crate::issuer::Unavailable;

/// The most IDs one `/v1/ids` request takes: a millisecond's worth.
pub(crate) const MAX_COUNT: u64 = 4096;

/// One ID with its parts, as compose and decode answer.
#[derive(Serialize)]
pub(crate) struct IdJson {
    id: String,
    timestamp_ms: u64,
    time: String,
    datacenter: u8,
    machine: u8,
    sequence: u16,
    binary: String,
    /// The five segments, for the page's script: it renders them, knowing nothing of the format.
    segments: [Segment; 5],
}

/// One of the five segments of an ID: its name, its bits, its value.
#[derive(Serialize)]
pub(crate) struct Segment {
    pub(crate) name: &'static str,
    pub(crate) bits: String,
    pub(crate) value: u64,
}

/// The five segments of `id`, from its segmented binary and its parts.
pub(crate) fn segments(id: Snowflake) -> [Segment; 5] {
    let parts = id.parts();
    let binary = id.segmented_binary().to_string();
    let mut bits = binary.split(' ').map(str::to_owned);
    let mut next = || bits.next().unwrap_or_default();
    [
        Segment {
            name: "sign",
            bits: next(),
            value: 0,
        },
        Segment {
            name: "timestamp",
            bits: next(),
            value: parts.timestamp_ms - snowflake_kit::TWITTER_EPOCH_MS,
        },
        Segment {
            name: "datacenter",
            bits: next(),
            value: parts.datacenter.into(),
        },
        Segment {
            name: "machine",
            bits: next(),
            value: parts.machine.into(),
        },
        Segment {
            name: "sequence",
            bits: next(),
            value: parts.sequence.into(),
        },
    ]
}

impl From<Snowflake> for IdJson {
    fn from(id: Snowflake) -> IdJson {
        let parts = id.parts();
        IdJson {
            id: id.to_string(),
            timestamp_ms: parts.timestamp_ms,
            time: id.rfc3339().to_string(),
            datacenter: parts.datacenter,
            machine: parts.machine,
            sequence: parts.sequence,
            binary: id.segmented_binary().to_string(),
            segments: segments(id),
        }
    }
}

/// A bad value: which field, and the runtime's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct FieldError {
    pub(crate) field: &'static str,
    pub(crate) message: String,
}

/// A 400 with `{"error": {"field", "message"}}` (the first) and `"errors"` (all).
pub(crate) fn bad_request(errors: Vec<FieldError>) -> Response {
    #[derive(Serialize)]
    struct Body {
        error: FieldError,
        errors: Vec<FieldError>,
    }
    let error = errors[0].clone();
    (StatusCode::BAD_REQUEST, Json(Body { error, errors })).into_response()
}

/// A 503 with `Retry-After`.
pub(crate) fn unavailable(why: &Unavailable) -> Response {
    let body = serde_json::json!({ "error": { "field": null, "message": why.0 } });
    let mut response = (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// A whole number of decimal digits for `field`, or what is wrong with it.
fn number(field: &'static str, text: &str, range: &str) -> Result<u64, FieldError> {
    let text = text.trim();
    let error = |what: &str| FieldError {
        field,
        message: format!("{field} {text:?} is {what}; expected a whole number in {range}"),
    };
    if text.is_empty() {
        return Err(error("empty"));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(error("not a whole number of decimal digits"));
    }
    text.parse().map_err(|_| error("larger than 64 bits"))
}

/// A field's values, for messages: `0..=31`.
fn range(field: Field) -> String {
    format!("{}..={}", field.min(), field.max())
}

/// The timestamp field: blank for now, Unix ms, or RFC 3339 (the runtime's reader).
fn timestamp(text: &str) -> Result<u64, FieldError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(SystemClock.now_ms());
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return number("ts", text, &range(Field::Timestamp));
    }
    snowflake_kit::parse_rfc3339(text).map_err(|e| FieldError {
        field: "ts",
        message: format!("{text:?} is not a timestamp: {e}; expected Unix ms or an RFC 3339 date such as 2022-06-28T16:07:40.105Z"),
    })
}

/// The four form fields -> an ID, or every field's error. A field left out is
/// blank: now for `ts`, 0 for `seq`, an error for `dc` and `machine`.
pub(crate) fn compose_form(params: &HashMap<String, String>) -> Result<Snowflake, Vec<FieldError>> {
    let get = |key: &str| params.get(key).map_or("", String::as_str);
    let seq_text = if get("seq").trim().is_empty() {
        "0"
    } else {
        get("seq")
    };
    let texts = [
        timestamp(get("ts")),
        number("dc", get("dc"), &range(Field::Datacenter)),
        number("machine", get("machine"), &range(Field::Machine)),
        number("seq", seq_text, &range(Field::Sequence)),
    ];
    // Each field against its own range, so that every bad one is reported.
    let names = ["ts", "dc", "machine", "seq"];
    let error = |e: snowflake_kit::ComposeError| FieldError {
        field: names[e.field() as usize],
        message: e.to_string(),
    };
    let mut values = [0; 4];
    let mut errors = Vec::new();
    for (i, text) in texts.into_iter().enumerate() {
        match text.and_then(|number| Field::ALL[i].check(number).map_err(error)) {
            Ok(number) => values[i] = number,
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    snowflake_kit::compose(values[0], values[1], values[2], values[3]).map_err(|e| vec![error(e)])
}

/// An ID as typed: decimal digits, or what is wrong with it (the runtime's words).
pub(crate) fn decode_text(text: &str) -> Result<Snowflake, FieldError> {
    text.trim()
        .parse()
        .map_err(|e: snowflake_kit::ParseSnowflakeError| FieldError {
            field: "id",
            message: e.to_string(),
        })
}

pub(crate) async fn compose(Query(params): Query<HashMap<String, String>>) -> Response {
    match compose_form(&params) {
        Ok(id) => Json(IdJson::from(id)).into_response(),
        Err(errors) => bad_request(errors),
    }
}

pub(crate) async fn decode(path: Result<Path<String>, PathRejection>) -> Response {
    let Ok(Path(text)) = path else {
        return bad_request(vec![FieldError {
            field: "id",
            message: "the ID in the path is not valid UTF-8: a snowflake id is decimal digits"
                .to_owned(),
        }]);
    };
    match decode_text(&text) {
        Ok(id) => Json(IdJson::from(id)).into_response(),
        Err(error) => bad_request(vec![error]),
    }
}

/// IDs are issued once: never cached, and not issued for a `HEAD`, whose body is thrown away.
fn issued(body: String) -> Response {
    // Header values made once, not parsed from text per response: `/v1/id` is the one
    // hot endpoint.
    const JSON: HeaderValue = HeaderValue::from_static("application/json");
    const NO_STORE: HeaderValue = HeaderValue::from_static("no-store");
    (
        [
            (header::CONTENT_TYPE, JSON),
            (header::CACHE_CONTROL, NO_STORE),
        ],
        body,
    )
        .into_response()
}

/// A `HEAD` of an endpoint that issues IDs: 405, for a `HEAD` would waste them.
fn head_refused() -> Response {
    let body = serde_json::json!({ "error": { "field": null, "message": "HEAD would issue IDs and throw them away: use GET" } });
    let mut response = (StatusCode::METHOD_NOT_ALLOWED, Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET"));
    response
}

pub(crate) async fn id(method: Method, State(state): State<Arc<AppState>>) -> Response {
    if method == Method::HEAD {
        return head_refused();
    }
    match state.issuer.next_id().await {
        Ok(id) => {
            state.metrics.issued.inc();
            // Written by hand: the one hot endpoint, and a fixed shape.
            issued(format!("{{\"id\":\"{id}\"}}"))
        }
        Err(why) => {
            state.metrics.refusals.inc();
            unavailable(&why)
        }
    }
}

pub(crate) async fn ids(
    method: Method,
    State(state): State<Arc<AppState>>,
    Query(params): Query<HashMap<String, String>>,
) -> Response {
    if method == Method::HEAD {
        return head_refused();
    }
    let count = match params.get("count") {
        None => 1,
        Some(text) => match number("count", text, "1..=4096") {
            Ok(count @ 1..=MAX_COUNT) => count,
            Ok(count) => {
                return bad_request(vec![FieldError {
                    field: "count",
                    message: format!("count {count} is out of range 1..=4096"),
                }]);
            }
            Err(e) => return bad_request(vec![e]),
        },
    };
    let mut out = vec![Snowflake::MAX; usize::try_from(count).unwrap_or(1)];
    // A full millisecond's worth may spin to the next millisecond: off the worker's
    // other tasks, so that /healthz and the rest stay prompt.
    if let Err(why) = tokio::task::block_in_place(|| state.issuer.fill(&mut out)) {
        state.metrics.refusals.inc();
        return unavailable(&why);
    }
    state.metrics.issued.inc_by(count);
    // 4,096 IDs of up to 19 digits: one buffer, written by hand.
    let mut body = String::with_capacity(10 + out.len() * 22);
    body.push_str("{\"ids\":[");
    for (i, id) in out.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push('"');
        body.push_str(&id.to_string());
        body.push('"');
    }
    body.push_str("]}");
    issued(body)
}

pub(crate) async fn identity(State(state): State<Arc<AppState>>) -> Response {
    Json(state.issuer.identity_json()).into_response()
}

pub(crate) async fn healthz() -> &'static str {
    "ok\n"
}

pub(crate) async fn readyz(State(state): State<Arc<AppState>>) -> Response {
    match state.issuer.ready() {
        Ok(()) => "ready\n".into_response(),
        Err(why) => unavailable(&why),
    }
}

pub(crate) async fn not_found() -> Response {
    let body = serde_json::json!({ "error": { "field": null, "message": "no such path: the page is GET /, the API GET /v1/id, /v1/ids, /v1/compose, /v1/decode/{id} and /v1/identity" } });
    (StatusCode::NOT_FOUND, Json(body)).into_response()
}

pub(crate) async fn method_not_allowed() -> Response {
    let body =
        serde_json::json!({ "error": { "field": null, "message": "only GET is served here" } });
    let mut response = (StatusCode::METHOD_NOT_ALLOWED, Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    response
}
