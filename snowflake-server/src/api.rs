//! The JSON API: its answers' types and the handlers. The form's rules are in
//! `form.rs`, the reading of a query in `query.rs`, the error answers in `error.rs`; the
//! format's rules are the runtime's.

mod identity;

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use snowflake_kit::__private::{base32_digits, parse_decimal};
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

/// `/v1/id`'s answer (written by hand, for speed; a test holds it to this shape): each
/// field as `form` asks, both when it is left out.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct IdAnswer {
    /// The ID, decimal digits: unless `form=base32`.
    #[schema(pattern = "^[0-9]{1,19}$", nullable = false)]
    id: Option<String>,
    /// The ID in 13 characters of base32: unless `form=decimal`.
    #[schema(schema_with = base32_text)]
    base32: Option<String>,
}

/// `/v1/ids`' answer (written by hand, for speed; a test holds it to this shape): each
/// field as `form` asks, both when it is left out.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct IdsAnswer {
    /// The IDs, increasing, decimal digits: unless `form=base32`.
    #[schema(schema_with = id_list)]
    ids: Option<Vec<IdText>>,
    /// The same IDs in base32, in the same order: unless `form=decimal`.
    #[schema(schema_with = base32_list)]
    base32: Option<Vec<IdText>>,
}

/// How an answer writes its IDs: in decimal digits, in base32, or both. Left out, both, as
/// the answers were before there was a choice; a client that reads one asks for it, and
/// gets a smaller answer: 4,096 IDs are 156 KB in both, 90 KB in decimal, 66 KB in base32.
#[derive(Clone, Copy, PartialEq, Eq, Debug, utoipa::ToSchema)]
#[schema(as = Form)]
pub(crate) enum Form {
    /// `ids`, or `id`: decimal digits.
    #[schema(rename = "decimal")]
    Decimal,
    /// `base32`: 13 characters of base32.
    #[schema(rename = "base32")]
    Base32,
    /// Both.
    #[schema(rename = "both")]
    Both,
}

impl Form {
    /// `form` from the query: both when it is left out.
    fn of(params: &HashMap<String, String>) -> Result<Form, ApiError> {
        match params.get("form").map(String::as_str) {
            None | Some("both") => Ok(Form::Both),
            Some("decimal") => Ok(Form::Decimal),
            Some("base32") => Ok(Form::Base32),
            Some(other) => Err(ApiError::field(
                "form",
                format!("form {other:?} is not one of decimal, base32 and both (left out: both)"),
            )),
        }
    }

    fn decimal(self) -> bool {
        self != Form::Base32
    }

    fn base32(self) -> bool {
        self != Form::Decimal
    }
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
        .description(Some(
            "The IDs, increasing, decimal digits: unless `form=base32`.",
        ))
}

/// The same IDs in base32.
fn base32_list() -> ArrayBuilder {
    id_list().items(base32_text()).description(Some(
        "The same IDs in base32, in the same order: unless `form=decimal`.",
    ))
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
fn issued(body: impl Into<axum::body::Body>) -> Response {
    // Header values made once, not parsed from text per response: `/v1/id` is the one
    // hot endpoint.
    const JSON: HeaderValue = HeaderValue::from_static("application/json");
    const NO_STORE: HeaderValue = HeaderValue::from_static("no-store");
    (
        [
            (header::CONTENT_TYPE, JSON),
            (header::CACHE_CONTROL, NO_STORE),
        ],
        body.into(),
    )
        .into_response()
}

/// One new ID.
#[utoipa::path(
    get,
    path = "/v1/id",
    params(("form" = inline(Option<Form>), Query,
        description = "decimal (`id`), base32 (`base32`) or both; left out: both")),
    responses(
        (status = 400, description = "a bad form", body = Body),
        (status = 200, description = "a new ID", body = IdAnswer),
        (status = 503, description = "no ID can be issued now, and why", body = Body,
            headers(("Retry-After" = String, description = "seconds"))),
    )
)]
pub(crate) async fn id(
    State(state): State<Arc<AppState>>,
    Params(params): Params,
) -> Result<Response, ApiError> {
    let form = Form::of(&params)?;
    let id = state.issuer.next_id(&state.queue).await.inspect_err(|_| {
        state.metrics.refusals.inc();
    })?;
    state.metrics.issued.inc();
    // Written by hand: the one hot endpoint, and a fixed shape.
    let base32 = id.to_base32();
    Ok(issued(match form {
        Form::Both => format!("{{\"id\":\"{id}\",\"base32\":\"{base32}\"}}"),
        Form::Decimal => format!("{{\"id\":\"{id}\"}}"),
        Form::Base32 => format!("{{\"base32\":\"{base32}\"}}"),
    }))
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
    params(
        ("count" = inline(Option<CountQuery>), Query, description = "how many; left out: 1"),
        ("form" = inline(Option<Form>), Query,
            description = "decimal (`ids`), base32 (`base32`) or both; left out: both"),
    ),
    responses(
        (status = 200, description = "`count` new IDs, increasing", body = IdsAnswer),
        (status = 400, description = "a bad count or form", body = Body),
        (status = 503, description = "no ID can be issued now, and why", body = Body,
            headers(("Retry-After" = String, description = "seconds"))),
    )
)]
pub(crate) async fn ids(
    State(state): State<Arc<AppState>>,
    Params(params): Params,
) -> Result<Response, ApiError> {
    let count = count(&params)?;
    let form = Form::of(&params)?;
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
    Ok(issued(ids_body(&out, form)))
}

/// `/v1/ids`' answer in `form`: 4,096 IDs of 19 digits and 13 characters each, in slots of
/// a fixed width laid out in the buffer beforehand. Through `write!`, or pushed a piece at
/// a time, they cost the server more CPU than all the rest of the answer (0.72 ms per
/// answer in both forms through `write!`, 0.3 pushed).
fn ids_body(ids: &[Snowflake], form: Form) -> Vec<u8> {
    let mut body = Vec::with_capacity(24 + ids.len() * 38);
    body.push(b'{');
    if form.decimal() {
        body.extend_from_slice(b"\"ids\":");
        // Increasing: all 19 digits if the first is, as every ID since 2015 is.
        if ids
            .first()
            .is_some_and(|first| first.as_u64() >= 10_u64.pow(18))
        {
            let mut last: Option<(u64, [u8; 19])> = None;
            list::<22>(&mut body, ids, |id, slot| {
                let text = match last {
                    // The ID after the last, most often: its text plus one, never past the
                    // first digit (no ID is nineteen 9s).
                    Some((before, mut text)) if before + 1 == id => {
                        let mut i = text.len() - 1;
                        while text[i] == b'9' {
                            text[i] = b'0';
                            i -= 1;
                        }
                        text[i] += 1;
                        text
                    }
                    _ => {
                        let mut text = [b'0'; 19];
                        let mut rest = id;
                        for digit in text.iter_mut().rev() {
                            *digit = b'0' + (rest % 10) as u8;
                            rest /= 10;
                        }
                        text
                    }
                };
                slot[1..20].copy_from_slice(&text);
                last = Some((id, text));
            });
        } else {
            body.push(b'[');
            for (i, id) in ids.iter().enumerate() {
                let comma = if i > 0 { "," } else { "" };
                body.extend_from_slice(format!("{comma}\"{id}\"").as_bytes());
            }
            body.push(b']');
        }
        if form.base32() {
            body.push(b',');
        }
    }
    if form.base32() {
        body.extend_from_slice(b"\"base32\":");
        list::<16>(&mut body, ids, |id, slot| {
            slot[1..14].copy_from_slice(&base32_digits(id));
        });
    }
    body.push(b'}');
    body
}

/// A JSON list of `ids`, each a string written by `write` into a slot of `W` bytes: `"`,
/// the text, `",`; the last `,` is the list's `]`.
fn list<const W: usize>(
    body: &mut Vec<u8>,
    ids: &[Snowflake],
    mut write: impl FnMut(u64, &mut [u8; W]),
) {
    body.push(b'[');
    let start = body.len();
    body.resize(start + ids.len() * W, b'"');
    for (id, slot) in ids.iter().zip(body[start..].chunks_exact_mut(W)) {
        let Ok(slot) = <&mut [u8; W]>::try_from(slot) else {
            continue;
        };
        write(id.as_u64(), slot);
        slot[W - 1] = b',';
    }
    match body.last_mut() {
        Some(last) if !ids.is_empty() => *last = b']',
        _ => body.push(b']'),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The answer as serde writes it: what the hand-written one must be, byte for byte.
    fn by_serde(ids: &[u64], form: Form) -> String {
        let decimal: Vec<String> = ids.iter().map(u64::to_string).collect();
        let base32: Vec<String> = ids
            .iter()
            .map(|&id| Snowflake::try_from_u64(id).unwrap().to_base32().to_string())
            .collect();
        let mut answer = serde_json::Map::new();
        if form.decimal() {
            answer.insert("ids".into(), decimal.into());
        }
        if form.base32() {
            answer.insert("base32".into(), base32.into());
        }
        // `ids` first, as the handler writes it (serde_json's map sorts its keys).
        let text = serde_json::to_string(&answer).unwrap();
        match form {
            Form::Both => {
                let ids = serde_json::to_string(&answer["ids"]).unwrap();
                let base32 = serde_json::to_string(&answer["base32"]).unwrap();
                format!("{{\"ids\":{ids},\"base32\":{base32}}}")
            }
            _ => text,
        }
    }

    /// Runs of consecutive IDs (the text of one plus one), a carry through every digit
    /// that can carry, a new millisecond within the batch, the largest ID, and IDs of
    /// fewer than 19 digits: each form as serde writes it.
    #[test]
    fn the_answers_are_written_as_serde_writes_them() {
        let max = Snowflake::MAX.as_u64();
        let batches: Vec<Vec<u64>> = vec![
            vec![1_541_815_603_606_036_480],
            (1_541_815_603_606_036_480..1_541_815_603_606_036_480 + 4096).collect(),
            (1_999_999_999_999_999_990..2_000_000_000_000_000_010).collect(),
            vec![
                1_099_999_999_999_999_999,
                1_100_000_000_000_000_000,
                1_100_000_000_000_004_096,
            ],
            ((max - 5)..=max).collect(),
            vec![0, 1, 9, 10, 99_999, 4_194_439_168, 999_999_999_999_999_999],
            vec![999_999_999_999_999_999, 1_000_000_000_000_000_000],
        ];
        for ids in &batches {
            let snowflakes: Vec<Snowflake> = ids
                .iter()
                .map(|&id| Snowflake::try_from_u64(id).unwrap())
                .collect();
            for form in [Form::Both, Form::Decimal, Form::Base32] {
                let written = String::from_utf8(ids_body(&snowflakes, form)).unwrap();
                assert_eq!(written, by_serde(ids, form), "{form:?}, from {}", ids[0]);
            }
        }
    }
}
