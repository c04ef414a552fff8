//! The page: `/id/`, `/he/` and `/en/`, and `/` in the language the browser asks for.
//! Rendered by the server from the query (a GET form, so it works without JavaScript),
//! with every word from the language's catalogue ([`words`]) and every figure from the
//! runtime. The script asks the server for the same page as you type and shows its new
//! parts, so that the format, the words and the errors stay in one place, here.
//! Self-contained: no external fonts, scripts or styles.

mod errors;
mod explain;
mod lang;
mod words;

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::LazyLock;

use axum::Router;
use axum::extract::{Query, RawQuery};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};
use snowflake_kit::{Field, Snowflake};

use crate::form::{Refused, Spaces, compose_form, decode_text};
pub(crate) use lang::Lang;
use words::{Args, Words, escape};

/// The page's routes: a path per language, its name without the slash sent on to it, and
/// `/` for whichever the browser prefers.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    let mut router = Router::new().route("/", get(negotiated));
    for lang in Lang::ALL {
        router = router
            .route(
                lang.path(),
                get(
                    move |headers: HeaderMap, Query(params): Query<HashMap<String, String>>| async move {
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

/// `GET /`: the page in the language that `Accept-Language` prefers, English when it
/// names none of ours; caches keep one copy per header.
async fn negotiated(headers: HeaderMap, Query(params): Query<HashMap<String, String>>) -> Response {
    let asked = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|value| value.to_str().ok());
    page(Lang::negotiate(asked), &headers, &params, true)
}

fn page(
    lang: Lang,
    headers: &HeaderMap,
    params: &HashMap<String, String>,
    negotiated: bool,
) -> Response {
    let origin = origin(headers);
    let page = render(lang, origin.as_deref(), params);
    let mut response = (HEADERS.clone(), Html(page)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_LANGUAGE,
        HeaderValue::from_static(lang.tag()),
    );
    if negotiated {
        headers.insert(header::VARY, HeaderValue::from_static("accept-language"));
    }
    // A page without a timestamp shows an ID of now: a copy kept would show an old one.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// Where the reader reached the page, `http://host:port`, for the alternates that search
/// engines want as whole URLs: the request's `Host`, and `https` when a proxy in front says
/// so (`X-Forwarded-Proto`). `None` for a `Host` that is not a host and port.
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

/// The result block for `id`: the ID, its time, its bits segment by segment.
fn result(words: &Words, id: Snowflake) -> String {
    let mut bits = String::new();
    let mut legend = String::new();
    // Each segment's class is its short key, as the figure's and the stylesheet's are.
    for s in id.segments() {
        let (class, width) = (s.segment.key(), s.segment.width());
        if !bits.is_empty() {
            bits.push(' ');
        }
        let _ = write!(bits, r#"<span class="seg {class}">{s:b}</span>"#);
        let _ = write!(
            legend,
            r#"<tr class="{class}"><th scope="row">{}</th><td>{width}</td><td>{}</td></tr>"#,
            words.get(&format!("segment-{class}")),
            s.value
        );
    }
    let ms = words.format(
        "result-ms",
        &Args::new(words.lang()).html(
            "ms",
            format!(
                r#"<output id="ms" dir="ltr">{}</output>"#,
                id.timestamp_ms()
            ),
        ),
    );
    format!(
        r#"<p class="id">{id_label} <output id="id" dir="ltr">{id}</output> <button type="button" id="copy" data-copied="{copied}" data-selected="{selected}" hidden>{copy}</button></p>
<p>{time_label} <output id="time" dir="ltr">{time}</output> <span class="muted">({ms})</span></p>
<code id="binary" dir="ltr">{bits}</code>
<table id="legend"><thead><tr><th scope="col">{segment}</th><th scope="col">{bits_label}</th><th scope="col">{value}</th></tr></thead><tbody>{legend}</tbody></table>"#,
        id_label = words.get("result-id"),
        copied = attribute(&words.get("copied")),
        selected = attribute(&words.get("selected")),
        copy = words.get("copy"),
        time_label = words.get("result-time"),
        time = id.rfc3339(),
        segment = words.get("result-segment"),
        bits_label = words.get("result-bits"),
        value = words.get("result-value"),
    )
}

/// The error of `field`'s input, in the reader's words, or nothing.
fn error_for(words: &Words, errors: &[Refused], field: Field) -> String {
    errors
        .iter()
        .find(|e| e.field == field)
        .map_or_else(String::new, |e| {
            errors::field_error(words, e.field, &e.text, &e.error)
        })
}

/// The page's headers. Its own inline script and style run, found by their hashes, and
/// nothing else: no other script, style, image, frame or form target, even if markup
/// ever slipped into the page. The script asks this origin for the page anew.
static HEADERS: LazyLock<[(HeaderName, HeaderValue); 4]> = LazyLock::new(|| {
    let policy = format!(
        "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; \
         connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        sha256_base64(SCRIPT),
        sha256_base64(STYLE),
    );
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

/// A CSP source hash: SHA-256 in standard base64.
fn sha256_base64(text: &str) -> String {
    STANDARD.encode(Sha256::digest(text.as_bytes()))
}

/// The query that keeps the reader's values, for the links to the other languages.
fn kept_query(params: &HashMap<String, String>) -> String {
    // The fields' keys, then the decode box's.
    let keys = Field::ALL.map(Field::key).into_iter().chain(["id"]);
    let pairs: Vec<(&str, &str)> = keys
        .filter_map(|key| params.get(key).map(|value| (key, value.as_str())))
        .collect();
    if pairs.is_empty() {
        return String::new();
    }
    let query = serde_urlencoded::to_string(pairs).unwrap_or_default();
    format!("?{query}")
}

/// The page in `lang` for the query `params`, reached at `origin`.
fn render(lang: Lang, origin: Option<&str>, params: &HashMap<String, String>) -> String {
    let words = Words::of(lang);
    let decoded = params
        .get("id")
        .map(|text| decode_text(text, Spaces::Trimmed));
    // The compose form's fields: as typed; from a decoded ID its parts, so that the
    // fields say what the result shows; or, when the query has none of them (a first
    // visit, a decode that failed), an ID of now for datacenter 1, machine 1.
    let mut form = params.clone();
    if let Some(Ok(id)) = &decoded {
        for (field, value) in [
            (Field::Timestamp, id.rfc3339().to_string()),
            (Field::Datacenter, id.datacenter().to_string()),
            (Field::Machine, id.machine().to_string()),
            (Field::Sequence, id.sequence().to_string()),
        ] {
            form.insert(field.key().to_owned(), value);
        }
    } else if !Field::ALL.iter().any(|f| params.contains_key(f.key())) {
        for field in [Field::Datacenter, Field::Machine] {
            form.insert(field.key().to_owned(), "1".to_owned());
        }
    }
    let (shown, errors) = match &decoded {
        Some(Ok(id)) => (Some(*id), Vec::new()),
        _ => match compose_form(&form, Spaces::Trimmed) {
            Ok(id) => (Some(id), Vec::new()),
            Err(errors) => (None, errors),
        },
    };
    let decode_error = match &decoded {
        Some(Err(e)) => errors::id_error(words, e),
        _ => String::new(),
    };
    let fields = fields(words, &form, &errors);
    let shown_html = shown.map_or_else(
        || format!(r#"<p class="muted">{}</p>"#, words.get("result-stale")),
        |id| result(words, id),
    );
    let (alternates, languages) = languages(lang, origin, params);
    format!(
        r#"<!doctype html>
<html lang="{tag}" dir="{dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta name="description" content="{description}">
{alternates}<style>{STYLE}</style>
</head>
<body>
<header><nav aria-label="{languages_label}"><ul id="languages">{languages}</ul></nav></header>
<main>
<h1>{heading}</h1>
<p class="lead">{lead}</p>
<form id="compose" method="get" action="{path}">
{fields}
<div class="actions"><button type="submit">{compose}</button></div>
</form>
<section id="result" aria-live="polite">
{shown_html}
</section>
<form id="decode" method="get" action="{path}">
<div class="field"><label for="decode-id">{decode}</label>
<input id="decode-id" name="id" value="{decoded}" inputmode="numeric" dir="ltr" autocomplete="off" required aria-describedby="id-error"{decode_invalid}>
<p class="error" id="id-error" role="alert">{decode_error}</p></div>
<div class="actions"><button type="submit">{decode_button}</button></div>
</form>
<article id="explanation">
{explanation}
</article>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        tag = lang.tag(),
        dir = lang.dir(),
        path = lang.path(),
        title = words.get("page-title"),
        description = attribute(&words.get("page-description")),
        languages_label = attribute(&words.get("languages")),
        heading = words.get("page-heading"),
        lead = words.get("page-lead"),
        compose = words.get("compose"),
        decode = words.get("decode"),
        decode_button = words.get("decode-button"),
        decoded = escape(params.get("id").map_or("", String::as_str)),
        decode_invalid = invalid(&decode_error),
        explanation = explain::explanation(words, shown),
    )
}

/// The compose form's inputs, one per field, named by its key: the value as `form` has it,
/// labels and hints from the catalogue, ranges from the runtime, the field's error if any.
fn fields(words: &Words, form: &HashMap<String, String>, errors: &[Refused]) -> String {
    let input = |field: Field, default: &str| {
        let key = field.key();
        // The field's label is the message `field-KEY`, as its name in a sentence is
        // `name-KEY` and a segment's `segment-KEY`: named by the runtime's keys.
        let label = words.get(&format!("field-{key}"));
        let (hint, mode, class) = match field {
            Field::Timestamp => (words.get("field-ts-hint"), "text", "field wide"),
            _ => (
                words.format(
                    "field-range-hint",
                    &Args::new(words.lang())
                        .number("min", field.min())
                        .number("max", field.max()),
                ),
                "numeric",
                "field",
            ),
        };
        let message = error_for(words, errors, field);
        format!(
            r#"<div class="{class}"><label for="{key}">{} <span class="hint">{hint}</span></label>
<input id="{key}" name="{key}" value="{}" inputmode="{mode}" dir="ltr" autocomplete="off" aria-describedby="{key}-error"{}>
<p class="error" id="{key}-error" role="alert">{message}</p></div>"#,
            label,
            escape(form.get(key).map_or(default, String::as_str)),
            invalid(&message),
        )
    };
    [
        input(Field::Timestamp, ""),
        input(Field::Datacenter, ""),
        input(Field::Machine, ""),
        input(Field::Sequence, "0"),
    ]
    .concat()
}

/// The other languages: the alternates for search engines (whole URLs, so only with an
/// `origin`), and the links for readers, which keep the values of `params`.
fn languages(
    lang: Lang,
    origin: Option<&str>,
    params: &HashMap<String, String>,
) -> (String, String) {
    let kept = escape(&kept_query(params));
    let mut alternates = String::new();
    let mut links = String::new();
    for other in Lang::ALL {
        let (tag, path) = (other.tag(), other.path());
        if let Some(origin) = origin {
            let _ = writeln!(
                alternates,
                r#"<link rel="alternate" hreflang="{tag}" href="{origin}{path}">"#
            );
        }
        let current = if other == lang {
            r#" aria-current="page""#
        } else {
            ""
        };
        let _ = write!(
            links,
            r#"<li><a href="{path}{kept}" hreflang="{tag}" lang="{tag}"{current}>{}</a></li>"#,
            other.autonym()
        );
    }
    if let Some(origin) = origin {
        let _ = writeln!(
            alternates,
            r#"<link rel="alternate" hreflang="x-default" href="{origin}/">"#
        );
    }
    (alternates, links)
}

/// A message of the catalogue (HTML) as an attribute's value: its text, quotes escaped.
fn attribute(html: &str) -> String {
    html.replace('"', "&quot;")
}

/// The attribute that marks an input whose error message is `message`, if any.
fn invalid(message: &str) -> &'static str {
    if message.is_empty() {
        ""
    } else {
        r#" aria-invalid="true""#
    }
}

/// The page's look, inline so that the page stands alone.
const STYLE: &str = include_str!("page.css");

/// As you type: the server renders the page, the script shows its new parts.
const SCRIPT: &str = include_str!("page.js");

/// The text a reader sees of `html`, a line per paragraph or list item: what the tests
/// compare.
#[cfg(test)]
fn text(html: &str) -> String {
    let html = html.replace("</p>", "\n").replace("</li>", "\n");
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_hashes_are_sha256_in_standard_base64() {
        // FIPS 180-2's "abc" and the empty text, as `openssl dgst -sha256 -binary | base64` has them.
        assert_eq!(
            sha256_base64("abc"),
            "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="
        );
        assert_eq!(
            sha256_base64(""),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }
}
