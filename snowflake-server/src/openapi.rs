//! `GET /v1/openapi.json`: the contract, an OpenAPI 3 description made by utoipa from the
//! handlers' own annotations and answer types, so that it moves with them.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use utoipa::OpenApi;

use crate::{api, metrics};

pub(crate) mod fields;

/// The page, `GET /`: documented here, beside the API, since its handler renders HTML.
#[utoipa::path(
    get,
    path = "/",
    params(
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
    reason = "documents the page's route; `page::page` serves it"
)]
fn page() {}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "snowflake-server",
        description = "Twitter-layout Snowflake IDs: compose, decode, and issue. IDs are JSON \
                       strings of decimal digits. Every error is `{\"error\": {\"field\", \
                       \"message\"}}`."
    ),
    paths(
        page,
        api::id,
        api::ids,
        api::compose,
        api::decode,
        api::identity,
        api::healthz,
        api::readyz,
        metrics::metrics,
        openapi
    )
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
