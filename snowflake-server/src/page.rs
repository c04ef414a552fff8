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

const STYLE: &str = r"
:root { font-family: system-ui, sans-serif; color: #1d2330; background: #f7f8fa; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: 0.5rem 0; }
.muted, .hint { color: #5b6475; font-size: 0.9rem; }
form { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 0.5rem 1rem; align-items: end; margin: 1rem 0; }
.field { display: flex; flex-direction: column; }
label { font-weight: 600; }
input { font: inherit; padding: 0.45rem; border: 1px solid #9aa3b2; border-radius: 0.3rem; min-width: 0; }
input[aria-invalid=true] { border-color: #b3261e; }
button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 0.3rem; border: 1px solid #3559b7; background: #3559b7; color: white; }
.error { color: #b3261e; min-height: 1.2em; margin: 0.2rem 0 0; font-size: 0.9rem; }
#result { background: white; border: 1px solid #d5d9e0; border-radius: 0.4rem; padding: 0.75rem 1rem; }
.id output { font-size: 1.3rem; font-weight: 700; user-select: all; }
#binary { display: block; font-size: 1rem; word-break: break-all; line-height: 1.8; }
.seg { padding: 0.1rem 0.15rem; border-radius: 0.2rem; }
.sign { background: #e3e5e8; } .ts { background: #d7ecff; } .dc { background: #fff0c2; }
.machine { background: #f4dcff; } .seq { background: #d9f5e0; }
table { border-collapse: collapse; margin-top: 0.6rem; }
th, td { text-align: left; padding: 0.2rem 0.6rem; }
tbody tr th { border-left: 0.5rem solid transparent; }
tr.sign th { border-color: #c4c8ce; } tr.ts th { border-color: #8cc4f5; } tr.dc th { border-color: #f0cf5e; }
tr.machine th { border-color: #d79df0; } tr.seq th { border-color: #8fd8a3; }
";

/// As you type: the JSON API answers, the page shows; nothing about the format is here.
const SCRIPT: &str = r#"
(() => {
  const compose = document.getElementById("compose");
  const decode = document.getElementById("decode");
  const result = document.getElementById("result");
  const text = (tag, value, attrs = {}) => {
    const node = document.createElement(tag);
    node.textContent = value;
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const show = (d) => {
    result.replaceChildren();
    const idLine = text("p", "ID ", { class: "id" });
    idLine.append(text("output", d.id, { id: "id" }), " ", text("button", "Copy", { type: "button", id: "copy" }));
    const time = text("p", "Time ");
    time.append(text("output", d.time, { id: "time" }), " ");
    const ms = text("span", "(", { class: "muted" });
    ms.append(text("output", String(d.timestamp_ms), { id: "ms" }), " ms)");
    time.append(ms);
    const code = text("code", "", { id: "binary" });
    const body = document.createElement("tbody");
    d.segments.forEach((s, i) => {
      const cls = s.key;
      if (i > 0) code.append(" ");
      code.append(text("span", s.bits, { class: "seg " + cls }));
      const row = text("tr", "", { class: cls });
      row.append(text("th", s.name, { scope: "row" }), text("td", String(s.bits.length)), text("td", String(s.value)));
      body.append(row);
    });
    const table = text("table", "", { id: "legend" });
    const head = document.createElement("thead");
    const hr = document.createElement("tr");
    hr.append(text("th", "field", { scope: "col" }), text("th", "bits", { scope: "col" }), text("th", "value", { scope: "col" }));
    head.append(hr);
    table.append(head, body);
    result.append(idLine, time, code, table);
  };
  const stale = () => result.replaceChildren(text("p", "Fix the fields marked above.", { class: "muted" }));
  const errors = (list, fields) => {
    for (const f of fields) {
      const message = (list.find((e) => e.field === f) || {}).message || "";
      document.getElementById(f === "id" ? "id-error" : f + "-error").textContent = message;
      const input = document.getElementById(f === "id" ? "decode-id" : f);
      if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    }
  };
  // One request at a time per form: a newer one aborts the older, so answers never arrive out of order.
  const asker = (fields) => {
    let timer, inflight;
    return {
      ask(url) {
        clearTimeout(timer);
        timer = setTimeout(async () => {
          if (inflight) inflight.abort();
          inflight = new AbortController();
          try {
            const answer = await fetch(url, { signal: inflight.signal });
            const body = await answer.json();
            if (answer.ok) { errors([], fields); show(body); }
            else { errors(body.errors || [body.error], fields); stale(); }
          } catch (e) { /* aborted, or offline: the form still works */ }
        }, 120);
      },
      clear() { clearTimeout(timer); if (inflight) inflight.abort(); errors([], fields); },
    };
  };
  // The form's own fields: their names are the API's keys.
  const composing = asker(Array.from(compose.elements, (e) => e.name).filter(Boolean));
  const decoding = asker(["id"]);
  compose.addEventListener("input", () => {
    const params = new URLSearchParams(new FormData(compose));
    history.replaceState(null, "", "?" + params);
    composing.ask("/v1/compose?" + params);
  });
  decode.addEventListener("input", () => {
    const id = document.getElementById("decode-id").value.trim();
    if (id) decoding.ask("/v1/decode/" + encodeURIComponent(id));
    else decoding.clear();
  });
  const copy = document.getElementById("copy");
  if (copy) copy.hidden = false;
  result.addEventListener("click", async (event) => {
    if (event.target.id !== "copy") return;
    const id = document.getElementById("id");
    try {
      await navigator.clipboard.writeText(id.textContent);
      event.target.textContent = "Copied";
    } catch (e) {
      // No clipboard (plain http to another host): select it for the person to copy.
      const range = document.createRange();
      range.selectNodeContents(id);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      event.target.textContent = "Selected";
    }
  });
})();
"#;
