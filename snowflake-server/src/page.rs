//! `GET /`: the page. Rendered by the server from the query (a GET form, so it works
//! without JavaScript); the script only asks the JSON API as you type, so the
//! format stays defined once, in Rust. Self-contained: no external fonts, scripts or styles.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::LazyLock;

use axum::extract::Query;
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::response::{Html, IntoResponse};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};
use snowflake_kit::{Field, Snowflake};

use crate::error::FieldError;
use crate::form::{Spaces, compose_form, decode_text};

/// HTML-escapes `text`, for values echoed into the page.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The result block for `id`: the ID, its time, its bits segment by segment.
fn result(id: Snowflake) -> String {
    let mut bits = String::new();
    let mut legend = String::new();
    // Each segment's class is its short key, as the script's is.
    for s in id.segments() {
        let (class, name, width) = (s.segment.key(), s.segment.name(), s.segment.width());
        if !bits.is_empty() {
            bits.push(' ');
        }
        let _ = write!(bits, r#"<span class="seg {class}">{s:b}</span>"#);
        let _ = write!(
            legend,
            r#"<tr class="{class}"><th scope="row">{name}</th><td>{width}</td><td>{}</td></tr>"#,
            s.value
        );
    }
    format!(
        r#"<p class="id">ID <output id="id">{id}</output> <button type="button" id="copy" hidden>Copy</button></p>
<p>Time <output id="time">{time}</output> <span class="muted">(<output id="ms">{ms}</output> ms)</span></p>
<code id="binary">{bits}</code>
<table id="legend"><thead><tr><th scope="col">field</th><th scope="col">bits</th><th scope="col">value</th></tr></thead><tbody>{legend}</tbody></table>"#,
        time = id.rfc3339(),
        ms = id.timestamp_ms(),
    )
}

fn error_for<'a>(errors: &'a [FieldError], field: &str) -> &'a str {
    errors
        .iter()
        .find(|e| e.field == field)
        .map_or("", |e| e.message.as_str())
}

/// The page's headers. Its own inline script and style run, found by their hashes, and
/// nothing else: no other script, style, image, frame or form target, even if markup
/// ever slipped into the page. The script asks the JSON API on this origin.
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

pub(crate) async fn page(Query(params): Query<HashMap<String, String>>) -> impl IntoResponse {
    (HEADERS.clone(), Html(render(&params)))
}

fn render(params: &HashMap<String, String>) -> String {
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
        Some(Err(e)) => escape(&e.message),
        _ => String::new(),
    };
    let typed = |key: &str, default: &str| escape(form.get(key).map_or(default, String::as_str));
    // One input per field, named by its key; labels, hints and ranges from the runtime.
    let input = |field: Field, default: &str| {
        let key = field.key();
        let name = field.name();
        let label = name[..1].to_ascii_uppercase() + &name[1..];
        let (hint, mode, class) = match field {
            Field::Timestamp => (
                "Unix ms or RFC 3339; blank for now".to_owned(),
                "text",
                "field wide",
            ),
            _ => (
                format!("{}..{}", field.min(), field.max()),
                "numeric",
                "field",
            ),
        };
        let message = escape(error_for(&errors, key));
        format!(
            r#"<div class="{class}"><label for="{key}">{label} <span class="hint">{hint}</span></label>
<input id="{key}" name="{key}" value="{}" inputmode="{mode}" autocomplete="off" aria-describedby="{key}-error"{}>
<p class="error" id="{key}-error" role="alert">{message}</p></div>"#,
            typed(key, default),
            invalid(&message),
        )
    };
    let fields = [
        input(Field::Timestamp, ""),
        input(Field::Datacenter, ""),
        input(Field::Machine, ""),
        input(Field::Sequence, "0"),
    ]
    .concat();
    let shown = shown.map_or_else(
        || r#"<p class="muted">Fix the fields marked above.</p>"#.to_owned(),
        result,
    );
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Snowflake ID</title>
<style>{STYLE}</style>
</head>
<body>
<main>
<h1>Snowflake ID</h1>
<p class="muted">64 bits: a zero sign bit, 41 bits of milliseconds since the Twitter epoch (2010-11-04T01:42:54.657Z), 5 of datacenter, 5 of machine, 12 of sequence.</p>
<form id="compose" method="get" action="/">
{fields}
<div class="actions"><button type="submit">Compose</button></div>
</form>
<section id="result" aria-live="polite">
{shown}
</section>
<form id="decode" method="get" action="/">
<div class="field"><label for="decode-id">Decode an ID</label>
<input id="decode-id" name="id" value="{decoded}" inputmode="numeric" autocomplete="off" required aria-describedby="id-error"{decode_invalid}>
<p class="error" id="id-error" role="alert">{decode_error}</p></div>
<div class="actions"><button type="submit">Decode</button></div>
</form>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        decoded = escape(params.get("id").map_or("", String::as_str)),
        decode_invalid = invalid(&decode_error),
    )
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

/// As you type: the JSON API answers, the page shows; nothing about the format is here.
const SCRIPT: &str = include_str!("page.js");

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
