//! `GET /v1/openapi.json`: the contract, an OpenAPI 3 description made by utoipa from the
//! handlers' own annotations and answer types, so that it moves with them.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa::OpenApi;

use crate::error::Body;
use crate::{api, metrics};

pub(crate) mod fields;

/// The page, `GET /`, in the language that `Accept-Language` prefers: documented here,
/// beside the API, since its handler renders HTML.
#[utoipa::path(
    get,
    path = "/",
    params(
        ("Accept-Language" = Option<String>, Header, description = "the reader's languages: \
            Indonesian (`id`, `in`), Hebrew (`he`, `iw`) or English, which is the default"),
        ("ts" = Option<String>, Query, description = "the form's timestamp, as typed"),
        ("dc" = Option<String>, Query, description = "the form's datacenter, as typed"),
        ("machine" = Option<String>, Query, description = "the form's machine, as typed"),
        ("seq" = Option<String>, Query, description = "the form's sequence, as typed"),
        ("id" = Option<String>, Query, description = "an ID to decode, as typed"),
    ),
    responses((status = 200, description = "the page, with the form's answer or its errors",
        body = String, content_type = "text/html; charset=utf-8"))
)]
#[expect(
    dead_code,
    reason = "documents the page's route; `page::routes` serves it"
)]
fn page() {}

/// The page in one language: `/id/`, `/he/` or `/en/`, whatever the request's languages.
#[utoipa::path(
    get,
    path = "/{lang}/",
    params(
        ("lang" = Language, Path, description = "the page's language"),
        ("ts" = Option<String>, Query, description = "the form's timestamp, as typed"),
        ("dc" = Option<String>, Query, description = "the form's datacenter, as typed"),
        ("machine" = Option<String>, Query, description = "the form's machine, as typed"),
        ("seq" = Option<String>, Query, description = "the form's sequence, as typed"),
        ("id" = Option<String>, Query, description = "an ID to decode, as typed"),
    ),
    responses(
        (status = 200, description = "the page, with the form's answer or its errors",
            body = String, content_type = "text/html; charset=utf-8"),
        (status = 404, description = "not one of the page's languages", body = Body),
    )
)]
#[expect(
    dead_code,
    reason = "documents the page's routes; `page::routes` serves them"
)]
fn page_in() {}

/// A language of the page: Indonesian, Hebrew or English.
#[derive(utoipa::ToSchema)]
#[expect(dead_code, reason = "documents the page's paths")]
enum Language {
    #[schema(rename = "id")]
    Id,
    #[schema(rename = "he")]
    He,
    #[schema(rename = "en")]
    En,
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "snowflake-server",
        description = "Twitter-layout Snowflake IDs: compose, decode, and issue. IDs are JSON \
                       strings of decimal digits. Every error of the service is `{\"error\": \
                       {\"field\", \"message\"}}`; a request that cannot be read (a \
                       malformed head 400, a URL past 64 KiB 414, more than 100 header \
                       fields 431) is refused before routing, with an empty body."
    ),
    paths(
        page,
        page_in,
        api::id,
        api::ids,
        api::compose,
        api::decode,
        api::identity,
        api::healthz,
        api::readyz,
        metrics::metrics,
        openapi
    ),
    components(schemas(Language))
)]
struct Contract;

/// The description, as JSON.
#[utoipa::path(
    get,
    path = "/v1/openapi.json",
    responses((status = 200, description = "this description", body = Object,
        content_type = "application/json"))
)]
pub(crate) async fn openapi() -> Response {
    static JSON: LazyLock<String> = LazyLock::new(|| {
        Contract::openapi()
            .to_pretty_json()
            .unwrap_or_else(|e| format!("{{\"error\":{{\"field\":null,\"message\":\"{e}\"}}}}"))
    });
    ([(header::CONTENT_TYPE, "application/json")], JSON.as_str()).into_response()
}
