//! The page of snowflake-kit: what a Snowflake ID is and how one is built, worked for the
//! values in its form, in Indonesian, Hebrew and English. Every word is from the
//! language's Fluent catalogue ([`Words`]), every figure and every rule from the runtime.
//!
//! One renderer for both places the page lives: `snowflake-server`, which renders it for
//! each request ([`Hosting::Server`]), and the static site of `scripts/site.sh`
//! ([`Hosting::StaticFiles`]), whose WebAssembly module renders, in the browser, the same
//! parts the server would ([`render_parts`]). The page's script ([`SCRIPT`]) shows those
//! parts as you type; it holds no rule and no word.
//!
//! ```
//! use snowflake_kit::SystemClock;
//! use snowflake_page::{Hosting, Lang, Words, render};
//!
//! let query = [("ts", "1288834975657"), ("dc", "1"), ("machine", "1")]
//!     .map(|(k, v)| (k.to_owned(), v.to_owned()));
//! let page = render(Words::of(Lang::Id), Hosting::StaticFiles, &query, &SystemClock);
//! assert!(page.contains(r#"<output id="id" dir="ltr">4194439168</output>"#));
//! assert!(page.starts_with("<!doctype html>\n<html lang=\"id\""));
//! ```

mod errors;
mod explain;
mod fluent;
pub mod form;
mod lang;
mod words;

use std::fmt::Write;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};
use snowflake_kit::{Clock, Field, Snowflake};

use form::{Refused, Spaces, compose_form, decode_text, value};
pub use lang::Lang;
/// The runtime whose types this API names (`Snowflake`, `Clock`, `Field`, its errors), at
/// the version the page is built with.
pub use snowflake_kit;
use words::{Args, escape};
pub use words::{Words, WordsError};

/// Where the page is served from, which decides its links and how its script computes.
///
/// ```
/// use snowflake_page::Hosting;
///
/// let served = Hosting::Server { origin: Some("https://ids.example") };
/// assert!(snowflake_page::content_security_policy(served).contains("script-src 'sha256-"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosting<'a> {
    /// Rendered by a server for each request at `/id/`, `/he/`, `/en/`: links from the
    /// root, the script inline and asking the server for the page anew. `origin` is where
    /// the reader reached it (`https://host:port`), for the alternates that search engines
    /// want as whole URLs; without it there are none.
    Server {
        /// `scheme://host[:port]`, or `None`.
        origin: Option<&'a str>,
    },
    /// Files in a folder per language, reached from anywhere (the root or a sub-path):
    /// links relative, the script [`SCRIPT_FILE`] beside the language folders, computing
    /// in the module [`MODULE_FILE`] with the catalogue of `locales/TAG.ftl`.
    StaticFiles,
}

/// The static site's script, beside the language folders: [`SCRIPT`].
///
/// ```
/// assert_eq!(snowflake_page::SCRIPT_FILE, "page.js");
/// ```
pub const SCRIPT_FILE: &str = "page.js";

/// The static site's WebAssembly module, beside the language folders.
///
/// ```
/// assert!(snowflake_page::MODULE_FILE.ends_with(".wasm"));
/// ```
pub const MODULE_FILE: &str = "snowflake-page.wasm";

/// The page's look, inline so that the page stands alone.
const STYLE: &str = include_str!("page.css");

/// The page's script: as you type, it shows the new parts of the page for the new values,
/// rendered by the server, or in the static site by the module. Inline in the server's
/// page, the file [`SCRIPT_FILE`] in the static site.
///
/// ```
/// assert!(snowflake_page::SCRIPT.contains("getElementById(\"compose\")"));
/// ```
pub const SCRIPT: &str = include_str!("page.js");

/// The page's Content-Security-Policy: its own script and style and nothing else, no
/// other script, style, image, frame or form target, even if markup ever slipped in. The
/// server's inline script and style by their hashes (sent as a header, with
/// `frame-ancestors 'none'`); the static site's script and module from its own origin, as
/// a `<meta>` in each page, where `frame-ancestors` is not read.
///
/// ```
/// use snowflake_page::{Hosting, content_security_policy};
///
/// let policy = content_security_policy(Hosting::StaticFiles);
/// assert!(policy.starts_with("default-src 'none'; script-src 'self' 'wasm-unsafe-eval';"));
/// assert!(!policy.contains("unsafe-inline"));
/// ```
pub fn content_security_policy(hosting: Hosting<'_>) -> String {
    let style = sha256_base64(STYLE);
    match hosting {
        Hosting::Server { .. } => format!(
            "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{style}'; \
             connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            sha256_base64(SCRIPT),
        ),
        Hosting::StaticFiles => format!(
            "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'sha256-{style}'; \
             connect-src 'self'; form-action 'self'; base-uri 'none'"
        ),
    }
}

/// A CSP source hash: SHA-256 in standard base64.
fn sha256_base64(text: &str) -> String {
    STANDARD.encode(Sha256::digest(text.as_bytes()))
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

/// The query that keeps the reader's values, for the links to the other languages.
fn kept_query(params: &[(String, String)]) -> String {
    // The fields' keys, then the decode box's.
    let keys = Field::ALL.map(Field::key).into_iter().chain(["id"]);
    let pairs: Vec<(&str, &str)> = keys
        .filter_map(|key| value(params, key).map(|value| (key, value)))
        .collect();
    if pairs.is_empty() {
        return String::new();
    }
    let query = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish();
    format!("?{query}")
}

/// What follows the form's values: computed once, shown whole by [`render`] and in parts
/// by [`render_parts`], so that the two agree by construction.
struct Parts {
    /// The four fields: inputs, labels, errors.
    fields: String,
    /// Inside `#result`.
    result: String,
    /// The decode box's value, as an attribute.
    decoded: String,
    /// Inside `#id-error`.
    decode_error: String,
    /// Inside `#worked`.
    worked: String,
    /// Inside `#languages`.
    languages: String,
    /// The alternates, for the head.
    alternates: String,
}

fn parts(
    words: &Words,
    hosting: Hosting<'_>,
    params: &[(String, String)],
    clock: &impl Clock,
) -> Parts {
    let decoded = value(params, "id").map(|text| decode_text(text, Spaces::Trimmed));
    // The compose form's fields: as typed; from a decoded ID its parts, so that the
    // fields say what the result shows; or, when the query has none of them (a first
    // visit, a decode that failed), an ID of now for datacenter 1, machine 1.
    let mut form = params.to_vec();
    if let Some(Ok(id)) = &decoded {
        for (field, value) in [
            (Field::Timestamp, id.rfc3339().to_string()),
            (Field::Datacenter, id.datacenter().to_string()),
            (Field::Machine, id.machine().to_string()),
            (Field::Sequence, id.sequence().to_string()),
        ] {
            form.push((field.key().to_owned(), value));
        }
    } else if !Field::ALL.iter().any(|f| value(params, f.key()).is_some()) {
        for field in [Field::Datacenter, Field::Machine] {
            form.push((field.key().to_owned(), "1".to_owned()));
        }
    }
    let (shown, errors) = match &decoded {
        Some(Ok(id)) => (Some(*id), Vec::new()),
        _ => match compose_form(&form, Spaces::Trimmed, clock) {
            Ok(id) => (Some(id), Vec::new()),
            Err(errors) => (None, errors),
        },
    };
    let decode_error = match &decoded {
        Some(Err(e)) => errors::id_error(words, e),
        _ => String::new(),
    };
    let (alternates, languages) = languages(words.lang(), hosting, params);
    Parts {
        fields: fields(words, &form, &errors),
        result: shown.map_or_else(
            || format!(r#"<p class="muted">{}</p>"#, words.get("result-stale")),
            |id| result(words, id),
        ),
        decoded: escape(value(params, "id").unwrap_or_default()),
        decode_error,
        worked: explain::worked_example(words, shown),
        languages,
        alternates,
    }
}

/// The page in `words`' language for the query `params`, its pairs in order (the form's
/// fields by their keys, `ts`, `dc`, `machine`, `seq`, and the decode box's `id`; of a key
/// given twice, the last), as `hosting` serves it. A blank
/// timestamp is now, by `clock`.
///
/// ```
/// use snowflake_kit::SystemClock;
/// use snowflake_page::{Hosting, Lang, Words, render};
///
/// let query = [("id".to_owned(), "4194439168".to_owned())];
/// let page = render(Words::of(Lang::He), Hosting::Server { origin: None }, &query, &SystemClock);
/// assert!(page.contains(r#"<html lang="he" dir="rtl">"#));
/// assert!(page.contains(r#"<input id="dc" name="dc" value="1""#));
/// ```
pub fn render(
    words: &Words,
    hosting: Hosting<'_>,
    params: &[(String, String)],
    clock: &impl Clock,
) -> String {
    let lang = words.lang();
    let parts = parts(words, hosting, params, clock);
    // Static files were rendered for no query: the result is busy until the module has
    // rendered the address's.
    let (action, head, busy, script) = match hosting {
        Hosting::Server { .. } => (
            lang.path(),
            String::new(),
            "",
            format!("<script>{SCRIPT}</script>"),
        ),
        Hosting::StaticFiles => (
            "./",
            format!(
                r#"<meta http-equiv="Content-Security-Policy" content="{}">
"#,
                content_security_policy(hosting)
            ),
            r#" aria-busy="true""#,
            format!(
                r#"<script src="../{SCRIPT_FILE}" data-module="../{MODULE_FILE}" data-words="../locales/{}.ftl"></script>"#,
                lang.tag()
            ),
        ),
    };
    format!(
        r#"<!doctype html>
<html lang="{tag}" dir="{dir}">
<head>
<meta charset="utf-8">
{head}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta name="description" content="{description}">
{alternates}<style>{STYLE}</style>
</head>
<body>
<header><nav aria-label="{languages_label}"><ul id="languages">{languages}</ul></nav></header>
<main>
<h1>{heading}</h1>
<p class="lead">{lead}</p>
<form id="compose" method="get" action="{action}">
{fields}
<div class="actions"><button type="submit">{compose}</button></div>
</form>
<section id="result" aria-live="polite"{busy}>
{result}
</section>
<form id="decode" method="get" action="{action}">
<div class="field"><label for="decode-id">{decode}</label>
<input id="decode-id" name="id" value="{decoded}" inputmode="numeric" dir="ltr" autocomplete="off" required aria-describedby="id-error"{decode_invalid}>
<p class="error" id="id-error" role="alert">{decode_error}</p></div>
<div class="actions"><button type="submit">{decode_button}</button></div>
</form>
<article id="explanation">
{explanation}
</article>
</main>
{script}
</body>
</html>
"#,
        tag = lang.tag(),
        dir = lang.dir(),
        title = words.get("page-title"),
        description = attribute(&words.get("page-description")),
        alternates = parts.alternates,
        languages_label = attribute(&words.get("languages")),
        languages = parts.languages,
        heading = words.get("page-heading"),
        lead = words.get("page-lead"),
        fields = parts.fields,
        compose = words.get("compose"),
        result = parts.result,
        decode = words.get("decode"),
        decoded = parts.decoded,
        decode_invalid = invalid(&parts.decode_error),
        decode_error = parts.decode_error,
        decode_button = words.get("decode-button"),
        explanation = explain::explanation(words, &parts.worked),
    )
}

/// The catalogue of `lang`, as `locales/TAG.ftl` has it: what the static site sends its
/// module for the page's words.
///
/// ```
/// use snowflake_page::{Lang, Words, catalogue};
///
/// assert!(catalogue(Lang::He).contains("page-title = "));
/// assert!(Words::parse(Lang::He, catalogue(Lang::He)).is_ok());
/// ```
pub fn catalogue(lang: Lang) -> &'static str {
    words::SOURCES[lang.index()].1
}

/// The static site's front door, `index.html` beside the language folders: a link to each
/// language's page, each named in its own language, and the script, which sends the reader
/// on to the language that the browser prefers (English when it prefers none of ours).
///
/// ```
/// let door = snowflake_page::render_front_door();
/// assert!(door.contains(r#"<a href="he/" hreflang="he" lang="he" dir="rtl">"#));
/// assert!(door.contains(r#"<script src="page.js" data-module="snowflake-page.wasm"></script>"#));
/// ```
pub fn render_front_door() -> String {
    let links: String = Lang::ALL
        .map(|lang| {
            let (tag, dir) = (lang.tag(), lang.dir());
            format!(
                r#"<li><a href="{tag}/" hreflang="{tag}" lang="{tag}" dir="{dir}">{}</a> <span lang="{tag}" dir="{dir}">{}</span></li>"#,
                lang.autonym(),
                Words::of(lang).get("page-heading"),
            )
        })
        .concat();
    let english = Words::of(Lang::En);
    format!(
        r#"<!doctype html>
<html lang="en" dir="ltr">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<meta name="description" content="{description}">
<style>{STYLE}</style>
</head>
<body>
<main>
<h1>{heading}</h1>
<ul id="languages">{links}</ul>
</main>
<script src="{SCRIPT_FILE}" data-module="{MODULE_FILE}"></script>
</body>
</html>
"#,
        policy = content_security_policy(Hosting::StaticFiles),
        title = english.get("page-title"),
        description = attribute(&english.get("page-description")),
        heading = english.get("page-heading"),
    )
}

/// The parts of the page that follow the form's values, as [`render`] writes them for the
/// same arguments, each under its id: the fields (`ts`, `dc`, `machine`, `seq`, each with
/// its `KEY-error`), `result`, the decode box `decode-id` and its `id-error`, `worked` and
/// `languages`. What the static site's module gives its script for each change.
///
/// ```
/// use snowflake_kit::SystemClock;
/// use snowflake_page::{Hosting, Lang, Words, render_parts};
///
/// let query = [("dc".to_owned(), "32".to_owned())];
/// let parts = render_parts(Words::of(Lang::En), Hosting::StaticFiles, &query, &SystemClock);
/// assert!(parts.contains(r#"<p class="error" id="dc-error" role="alert">"#));
/// assert!(parts.contains("is out of range"));
/// ```
pub fn render_parts(
    words: &Words,
    hosting: Hosting<'_>,
    params: &[(String, String)],
    clock: &impl Clock,
) -> String {
    let parts = parts(words, hosting, params, clock);
    format!(
        r#"{fields}
<section id="result">{result}</section>
<input id="decode-id" value="{decoded}"><p id="id-error">{decode_error}</p>
<div id="worked">{worked}</div>
<ul id="languages">{languages}</ul>
"#,
        fields = parts.fields,
        result = parts.result,
        decoded = parts.decoded,
        decode_error = parts.decode_error,
        worked = parts.worked,
        languages = parts.languages,
    )
}

/// The compose form's inputs, one per field, named by its key: the value as `form` has it,
/// labels and hints from the catalogue, ranges from the runtime, the field's error if any.
fn fields(words: &Words, form: &[(String, String)], errors: &[Refused]) -> String {
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
            escape(value(form, key).unwrap_or(default)),
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
fn languages(lang: Lang, hosting: Hosting<'_>, params: &[(String, String)]) -> (String, String) {
    let (origin, prefix) = match hosting {
        Hosting::Server { origin } => (origin, ""),
        Hosting::StaticFiles => (None, ".."),
    };
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
            r#"<li><a href="{prefix}{path}{kept}" hreflang="{tag}" lang="{tag}"{current}>{}</a></li>"#,
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
