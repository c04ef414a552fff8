//! The page's routes: `/id/`, `/he/`, `/en/`, and `/` in the browser's language. `snowflake_page`
//! renders each from its query (a GET form, so it works without JavaScript); its script fetches
//! the page as you type and shows the new parts. No external fonts, scripts or styles.

use std::sync::LazyLock;

use axum::Router;
use axum::extract::{Query, RawQuery};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use snowflake_kit::SystemClock;
use snowflake_page::{Hosting, Lang, Words, content_security_policy, render};

/// A path per language (redirected to from its name without the slash), and `/` negotiated.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new().route("/", get(negotiated));
    for lang in Lang::ALL {
        router = router
            .route(
                lang.path(),
                get(
                    move |headers: HeaderMap, Query(params): Query<Vec<(String, String)>>| async move {
                        page(lang, &headers, &params, false)
                    },
                ),
            )
            .route(
                lang.path().trim_end_matches('/'),
                get(move |RawQuery(query): RawQuery| async move {
                    let query = query.map_or_else(String::new, |q| format!("?{q}"));
                    Redirect::permanent(&format!("{}{query}", lang.path()))
                }),
            );
    }
    router
}

/// `GET /`: the page in the language `Accept-Language` prefers, else English; cached per header.
async fn negotiated(headers: HeaderMap, Query(params): Query<Vec<(String, String)>>) -> Response {
    let asked = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok());
    page(Lang::negotiate(asked), &headers, &params, true)
}

fn page(
    lang: Lang,
    headers: &HeaderMap,
    params: &[(String, String)],
    negotiated: bool,
) -> Response {
    let origin = origin(headers);
    let hosting = Hosting::Server {
        origin: origin.as_deref(),
    };
    let page = render(Words::of(lang), hosting, params, &SystemClock);
    // A page without a timestamp shows an ID of now: a copy kept would show an old one.
    let own = [
        (header::CONTENT_LANGUAGE, lang.tag()),
        (header::CACHE_CONTROL, "no-store"),
    ];
    let vary = negotiated.then_some([(header::VARY, "accept-language")]);
    (HEADERS.clone(), own, vary, Html(page)).into_response()
}

/// `http://host:port` from `Host` (`https` if a proxy's `X-Forwarded-Proto` says so), for the
/// alternates search engines want as whole URLs; `None` for a `Host` that is no host and port.
fn origin(headers: &HeaderMap) -> Option<String> {
    let host = headers.get(header::HOST)?.to_str().ok()?;
    let is_authority = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b));
    if !is_authority {
        return None;
    }
    let https = headers
        .get("x-forwarded-proto")
        .is_some_and(|proto| proto.as_bytes().eq_ignore_ascii_case(b"https"));
    Some(format!("{}://{host}", if https { "https" } else { "http" }))
}

/// A policy of only its own inline script and style (by hash); no sniffing, referrer or framing.
static HEADERS: LazyLock<[(HeaderName, HeaderValue); 4]> = LazyLock::new(|| {
    let policy = content_security_policy(Hosting::Server { origin: None });
    [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::try_from(policy).expect("internal error: the policy is ASCII"),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    ]
});
