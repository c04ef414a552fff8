//! The JSON API: its answers' types and the handlers. The form's rules are in
//! `form.rs`, the reading of a query in `query.rs`, the error answers in `error.rs`; the
//! format's rules are the runtime's.

mod identity;

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use snowflake_kit::__private::parse_decimal;
use snowflake_kit::{Field, Snowflake, SystemClock};
use snowflake_page::form::{Spaces, compose_form, decode_text};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, Schema};
use utoipa::{PartialSchema, ToSchema};

pub(crate) use self::identity::{CLAIMING, IdentityJson};
use crate::AppState;
use crate::error::Body;
use crate::error::{ApiError, FieldError};
use crate::openapi::fields::{self, DcQuery, IdPath, MachineQuery, SeqQuery, TsQuery};
use crate::query::Params;

/// The most IDs one `/v1/ids` request takes: a millisecond's worth.
pub(crate) const MAX_COUNT: u64 = Field::Sequence.max() + 1;

/// One ID with its parts, as compose and decode answer.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct IdJson {
    /// The ID, as a string of decimal digits (JSON numbers lose digits past 2^53).
    id: String,
    #[schema(schema_with = base32_text)]
    base32: String,
    #[schema(schema_with = fields::timestamp_ms)]
    timestamp_ms: u64,
    time: String,
    /// The time is within a day of the epoch: the ID may be no Snowflake (Twitter's IDs
    /// before 2010-11-04 counted up from 1; an auto-increment key looks the same).
    near_epoch: bool,
    #[schema(schema_with = fields::datacenter)]
    datacenter: u8,
    #[schema(schema_with = fields::machine)]
    machine: u8,
    #[schema(schema_with = fields::sequence)]
    sequence: u16,
    binary: String,
    /// The five segments, for the page's script: it renders them, knowing nothing of the format.
    #[schema(min_items = 5, max_items = 5)]
    segments: [SegmentJson; 5],
}

/// One of the five segments of an ID: the runtime's [`snowflake_kit::layout::SegmentValue`].
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct SegmentJson {
    name: &'static str,
    key: &'static str,
    bits: String,
    value: u64,
}

impl From<Snowflake> for IdJson {
    fn from(id: Snowflake) -> IdJson {
        let parts = id.parts();
        IdJson {
            id: id.to_string(),
            base32: id.to_base32().to_string(),
            timestamp_ms: parts.timestamp_ms,
            time: id.rfc3339().to_string(),
            near_epoch: id.is_near_epoch(),
            datacenter: parts.datacenter,
            machine: parts.machine,
            sequence: parts.sequence,
            binary: id.segmented_binary().to_string(),
            segments: id.segments().map(|s| SegmentJson {
                name: s.segment.name(),
                key: s.segment.key(),
                bits: format!("{s:b}"),
                value: s.value,
            }),
        }
    }
}

/// `/v1/id`'s answer (written by hand, for speed; a test holds it to this shape).
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct IdAnswer {
    /// The ID, decimal digits.
    #[schema(pattern = "^[0-9]{1,19}$")]
    id: String,
    #[schema(schema_with = base32_text)]
    base32: String,
}

/// `/v1/ids`' answer (written by hand, for speed; a test holds it to this shape).
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct IdsAnswer {
    /// The IDs, increasing, decimal digits.
    #[schema(schema_with = id_list)]
    ids: Vec<IdText>,
    /// The same IDs in base32, in the same order.
    #[schema(schema_with = base32_list)]
    base32: Vec<IdText>,
}

/// An ID in base32, as the answers write it.
fn base32_text() -> utoipa::openapi::ObjectBuilder {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(snowflake_kit::serde::as_base32::PATTERN))
        .description(Some(
            "The ID in 13 characters of base32, sorted as the IDs are.",
        ))
}

/// From 1 to [`MAX_COUNT`] IDs.
fn id_list() -> ArrayBuilder {
    ArrayBuilder::new()
        .items(IdText::schema())
        .min_items(Some(1))
        .max_items(usize::try_from(MAX_COUNT).ok())
        .description(Some("The IDs, increasing, decimal digits."))
}

/// The same IDs in base32.
fn base32_list() -> ArrayBuilder {
    id_list()
        .items(base32_text())
        .description(Some("The same IDs in base32, in the same order."))
}

/// An ID as a string of decimal digits.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(pattern = "^[0-9]{1,19}$")]
pub(crate) struct IdText(String);

fields::described! {
    /// `count` in `/v1/ids`' query: 1 to [`MAX_COUNT`].
    CountQuery = fields::integer(1, MAX_COUNT)
}

/// Compose an ID from its four fields.
#[utoipa::path(
    get,
    path = "/v1/compose",
    params(
        ("ts" = inline(Option<TsQuery>), Query,
            description = "Unix ms, or RFC 3339 text such as 2022-06-28T16:07:40.105Z; blank or left out: now"),
        ("dc" = inline(DcQuery), Query, description = "datacenter id"),
        ("machine" = inline(MachineQuery), Query, description = "machine id"),
        ("seq" = inline(Option<SeqQuery>), Query, description = "sequence; blank or left out: 0"),
    ),
    responses(
        (status = 200, description = "the ID and its parts", body = IdJson),
        (status = 400, description = "every bad field, in the runtime's words", body = Body),
    )
)]
pub(crate) async fn compose(Params(params): Params) -> Result<Json<IdJson>, ApiError> {
    // Each given once (`Params`): the pairs in any order read the same.
    let params: Vec<(String, String)> = params.into_iter().collect();
    let id = compose_form(&params, Spaces::Kept, &SystemClock).map_err(|refused| {
        ApiError::BadRequest(refused.iter().map(FieldError::refused).collect())
    })?;
    Ok(Json(id.into()))
}

/// Decode an ID into its parts.
#[utoipa::path(
    get,
    path = "/v1/decode/{id}",
    params(("id" = inline(IdPath), Path,
        description = "the ID: decimal digits, or 13 characters of base32 after a typed ID's prefix if any")),
    responses(
        (status = 200, description = "the ID's parts", body = IdJson),
        (status = 400, description = "not an ID: what is wrong with it", body = Body),
    )
)]
pub(crate) async fn decode(
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<IdJson>, ApiError> {
    let Ok(Path(text)) = path else {
        return Err(ApiError::field(
            "id",
            "the ID in the path is not valid UTF-8: an ID is decimal digits",
        ));
    };
    let id = decode_text(&text, Spaces::Kept).map_err(|e| ApiError::field("id", e.to_string()))?;
    Ok(Json(id.into()))
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

/// One new ID.
#[utoipa::path(
    get,
    path = "/v1/id",
    responses(
        (status = 200, description = "a new ID", body = IdAnswer),
        (status = 503, description = "no ID can be issued now, and why", body = Body,
            headers(("Retry-After" = String, description = "seconds"))),
    )
)]
pub(crate) async fn id(State(state): State<Arc<AppState>>) -> Result<Response, ApiError> {
    let id = state.issuer.next_id(&state.queue).await.inspect_err(|_| {
        state.metrics.refusals.inc();
    })?;
    state.metrics.issued.inc();
    // Written by hand: the one hot endpoint, and a fixed shape.
    let base32 = id.to_base32();
    Ok(issued(format!(
        "{{\"id\":\"{id}\",\"base32\":\"{base32}\"}}"
    )))
}

/// `count`: 1 when left out.
fn count(params: &HashMap<String, String>) -> Result<u64, ApiError> {
    let Some(text) = params.get("count") else {
        return Ok(1);
    };
    let range = format!("1..={MAX_COUNT}");
    let message = match parse_decimal(text) {
        Ok(count @ 1..=MAX_COUNT) => return Ok(count),
        Ok(count) => format!("count {count} is out of range {range}"),
        Err(e) => format!("count {text:?} is {e}; expected a whole number in {range}"),
    };
    Err(ApiError::field("count", message))
}

/// New IDs, increasing.
#[utoipa::path(
    get,
    path = "/v1/ids",
    params(("count" = inline(Option<CountQuery>), Query, description = "how many; left out: 1")),
    responses(
        (status = 200, description = "`count` new IDs, increasing", body = IdsAnswer),
        (status = 400, description = "a bad count", body = Body),
        (status = 503, description = "no ID can be issued now, and why", body = Body,
            headers(("Retry-After" = String, description = "seconds"))),
    )
)]
pub(crate) async fn ids(
    State(state): State<Arc<AppState>>,
    Params(params): Params,
) -> Result<Response, ApiError> {
    let count = count(&params)?;
    let mut out = vec![Snowflake::MAX; usize::try_from(count).unwrap_or(1)];
    // A millisecond used up is waited for on a timer, in turn with the other requests:
    // no thread is held, and /v1/id is not starved.
    state
        .issuer
        .fill(&state.queue, &mut out)
        .await
        .inspect_err(|_| {
            state.metrics.refusals.inc();
        })?;
    state.metrics.issued.inc_by(count);
    // 4,096 IDs of up to 19 digits and 13 characters, each written into the one buffer: no
    // allocation per ID.
    let mut body = String::with_capacity(24 + out.len() * 38);
    body.push_str("{\"ids\":[");
    for (i, id) in out.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        // Writing to a `String` cannot fail.
        let _ = write!(body, "{comma}\"{id}\"");
    }
    body.push_str("],\"base32\":[");
    for (i, id) in out.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(body, "{comma}\"{}\"", id.to_base32().as_str());
    }
    body.push_str("]}");
    Ok(issued(body))
}

/// The identity the IDs carry and its kind: none, unleased, or leased (exact, datacenter,
/// auto), with the lease's store and state.
#[utoipa::path(
    get,
    path = "/v1/identity",
    responses((status = 200, description = "the identity", body = IdentityJson))
)]
pub(crate) async fn identity(State(state): State<Arc<AppState>>) -> Response {
    Json(IdentityJson::of(&state.issuer)).into_response()
}

/// Alive: answers as long as the process serves.
#[utoipa::path(
    get,
    path = "/healthz",
    responses((status = 200, description = "alive", body = String, content_type = "text/plain"))
)]
pub(crate) async fn healthz() -> &'static str {
    "ok\n"
}

/// Ready: an ID could be issued now.
#[utoipa::path(
    get,
    path = "/readyz",
    responses(
        (status = 200, description = "ready", body = String, content_type = "text/plain"),
        (status = 503, description = "not ready, and why", body = Body,
            headers(("Retry-After" = String, description = "seconds"))),
    )
)]
pub(crate) async fn readyz(State(state): State<Arc<AppState>>) -> Result<&'static str, ApiError> {
    state.issuer.ready()?;
    Ok("ready\n")
}

pub(crate) async fn not_found() -> ApiError {
    ApiError::NotFound
}

/// 405, with the methods that are allowed there: GET only where a HEAD would issue IDs
/// (the router sends such a HEAD here too).
pub(crate) async fn method_not_allowed(uri: axum::http::Uri) -> ApiError {
    match uri.path() {
        "/v1/id" | "/v1/ids" => ApiError::MethodNotAllowed {
            message: "only GET is served here",
            allow: "GET",
        },
        _ => ApiError::MethodNotAllowed {
            message: "only GET and HEAD are served here",
            allow: "GET, HEAD",
        },
    }
}
