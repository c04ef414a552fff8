//! `GET /`: the page. Rendered by the server from the query (a GET form, so it works
//! without JavaScript); the script only asks the JSON API as you type, so the
//! format stays defined once, in Rust. Self-contained: no external fonts, scripts or styles.

use std::collections::HashMap;
use std::fmt::Write;

use axum::extract::Query;
use axum::response::Html;
use snowflake_kit::Snowflake;

use snowflake_kit::Field;

use crate::form::{FieldError, compose_form, decode_text};

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

pub(crate) async fn page(Query(params): Query<HashMap<String, String>>) -> Html<String> {
    let value = |key: &str| params.get(key).map(String::as_str);
    let first_visit = !Field::ALL
        .map(Field::key)
        .iter()
        .chain(&["id"])
        .any(|k| params.contains_key(*k));
    let (shown, errors, decode_error) = if let Some(text) = value("id") {
        match decode_text(text) {
            Ok(id) => (Some(id), Vec::new(), String::new()),
            Err(e) => (None, Vec::new(), e.message),
        }
    } else {
        let mut form = params.clone();
        // A first visit: an ID of now, for datacenter 1, machine 1.
        if first_visit {
            for field in [Field::Datacenter, Field::Machine] {
                form.insert(field.key().to_owned(), "1".to_owned());
            }
        }
        match compose_form(&form) {
            Ok(id) => (Some(id), Vec::new(), String::new()),
            Err(errors) => (None, errors, String::new()),
        }
    };
    let typed = |key: &str, default: &str| escape(value(key).unwrap_or(default));
    let (dc, machine) = if first_visit { ("1", "1") } else { ("", "") };
    // One input per field, named by its key; labels, hints and ranges from the runtime.
    let input = |field: Field, default: &str| {
        let key = field.key();
        let name = field.name();
        let label = name[..1].to_ascii_uppercase() + &name[1..];
        let (hint, mode) = match field {
            Field::Timestamp => ("Unix ms or RFC 3339; blank for now".to_owned(), "text"),
            _ => (format!("{}..{}", field.min(), field.max()), "numeric"),
        };
        let message = escape(error_for(&errors, key));
        let invalid = if message.is_empty() {
            ""
        } else {
            r#" aria-invalid="true""#
        };
        format!(
            r#"<div class="field"><label for="{key}">{label} <span class="hint">{hint}</span></label>
<input id="{key}" name="{key}" value="{}" inputmode="{mode}" autocomplete="off" aria-describedby="{key}-error"{invalid}>
<p class="error" id="{key}-error" role="alert">{message}</p></div>"#,
            typed(key, default)
        )
    };
    let fields = [
        input(Field::Timestamp, ""),
        input(Field::Datacenter, dc),
        input(Field::Machine, machine),
        input(Field::Sequence, "0"),
    ]
    .concat();
    let shown = shown.map_or_else(
        || r#"<p class="muted">Fix the fields marked above.</p>"#.to_owned(),
        result,
    );
    Html(format!(
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
<button type="submit">Compose</button>
</form>
<section id="result" aria-live="polite">
{shown}
</section>
<form id="decode" method="get" action="/">
<div class="field"><label for="decode-id">Decode an ID</label>
<input id="decode-id" name="id" value="{decoded}" inputmode="numeric" autocomplete="off" aria-describedby="id-error">
<p class="error" id="id-error" role="alert">{decode_error}</p></div>
<button type="submit">Decode</button>
</form>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"#,
        decoded = typed("id", ""),
        decode_error = escape(&decode_error),
    ))
}

/// The page's look, inline so that the page stands alone.
const STYLE: &str = include_str!("page.css");

/// As you type: the JSON API answers, the page shows; nothing about the format is here.
const SCRIPT: &str = include_str!("page.js");
