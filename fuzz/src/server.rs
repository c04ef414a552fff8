//! The fuzz target of the server's router: arbitrary bytes as a request, a method and a
//! target on the first line and a header on each line after it, sent in process through
//! the router the server serves ([`Service::router`]), with an unleased identity.

use axum::body::Body;
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderName, HeaderValue, Method, Request, Uri};
use snowflake_kit::Identity;
use snowflake_server::{Config, Service, axum, snowflake_kit, tokio};
use tower::ServiceExt;

/// The request that `data` spells, or `None` where hyper would refuse it before the router
/// (a method or target that is not HTTP): `METHOD TARGET` (or `TARGET`, a GET) and then
/// `name: value` lines; a line that is no header is left out.
pub fn request(data: &[u8]) -> Option<Request<Body>> {
    let mut lines = data.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let (method, target) = match first.iter().position(|&b| b == b' ') {
        Some(space) => (
            Method::from_bytes(&first[..space]).ok()?,
            &first[space + 1..],
        ),
        None => (Method::GET, first),
    };
    let uri = Uri::try_from(target).ok()?;
    let mut request = Request::builder().method(method).uri(uri);
    for line in lines {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(&line[..colon]),
            HeaderValue::from_bytes(line[colon + 1..].trim_ascii()),
        ) else {
            continue;
        };
        request = request.header(name, value);
    }
    request.body(Body::empty()).ok()
}

/// The router on the request `data` spells, with an unleased identity: never a panic, never a
/// 5xx, every error (4xx) JSON, `{"error": {"message": ...}, ...}` (but for HEAD, which has
/// no body), every answer of `/v1/` JSON.
///
/// # Panics
///
/// When an answer breaks one of those rules.
pub fn check(data: &[u8]) {
    let Some(request) = request(data) else {
        return;
    };
    let head = request.method() == Method::HEAD;
    let api = request.uri().path().starts_with("/v1/");
    let described = format!("{} {}", request.method(), request.uri());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime");
    let identity = Identity::try_from_index(0).expect("index 0 is 00/00");
    let service = Service::new(Config::unleased(identity)).expect("the service");
    let (status, content_type, body) = runtime.block_on(async {
        let response = service.router().oneshot(request).await.expect("infallible");
        let status = response.status();
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let body = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("the body");
        (status, content_type, body)
    });
    let shown = String::from_utf8_lossy(&body);
    assert!(!status.is_server_error(), "{described}: {status} {shown}");
    let json = content_type
        .as_deref()
        .is_some_and(|t| t.starts_with("application/json"));
    if status.is_client_error() || api {
        assert!(json, "{described}: {status} as {content_type:?}: {shown}");
    }
    if json && !head {
        let value: serde_json::Value = serde_json::from_slice(&body)
            .unwrap_or_else(|e| panic!("{described}: {status}, not JSON ({e}): {shown}"));
        if status.is_client_error() {
            assert!(
                value["error"]["message"].is_string(),
                "{described}: {status} without an error message: {shown}"
            );
        }
    }
}
