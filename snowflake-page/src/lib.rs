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

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use maud::{Markup, PreEscaped, html};
use sha2::{Digest, Sha256};
use snowflake_kit::{Clock, Field, Snowflake};

use form::{Refused, Spaces, compose_typed, decode_text, value};
pub use lang::Lang;
/// The runtime whose types this API names (`Snowflake`, `Clock`, `Field`, its errors), at
/// the version the page is built with.
pub use snowflake_kit;
use words::Args;
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

/// The result block for `id`: the ID and its base32, its time, its bits segment by
/// segment; for an ID `decoded` near the epoch, the word that it may be no Snowflake.
fn result(words: &Words, id: Snowflake, decoded: bool) -> Markup {
    let ms = Args::new(words.lang()).html(
        "ms",
        html! { output id="ms" dir="ltr" { (format_args!("{}", id.timestamp_ms())) } },
    );
    // Each segment's class is its short key, as the figure's and the stylesheet's are.
    let segments = id.segments();
    html! {
        p class="id" {
            (words.get("result-id")) " "
            output id="id" dir="ltr" { (id) } " "
            button type="button" id="copy" data-copied=(attribute(&words.get("copied")))
                data-selected=(attribute(&words.get("selected"))) hidden { (words.get("copy")) }
        }
        "\n"
        p { (words.get("result-base32")) " " output id="base32" dir="ltr" { (id.to_base32().digits()) } }
        "\n"
        @if decoded && id.is_near_epoch() {
            p { (words.get("result-near-epoch")) } "\n"
        }
        p {
            (words.get("result-time")) " "
            output id="time" dir="ltr" { (id.rfc3339()) } " "
            span class="muted" { "(" (words.format("result-ms", &ms)) ")" }
        }
        "\n"
        code id="binary" dir="ltr" {
            @for (i, s) in segments.iter().enumerate() {
                @if i > 0 { " " }
                span class={ "seg " (s.segment.key()) } { (format!("{s:b}")) }
            }
        }
        "\n"
        table id="legend" {
            thead { tr {
                th scope="col" { (words.get("result-segment")) }
                th scope="col" { (words.get("result-bits")) }
                th scope="col" { (words.get("result-value")) }
            } }
            tbody { @for s in segments {
                tr class=(s.segment.key()) {
                    th scope="row" { (words.get(&format!("segment-{}", s.segment.key()))) }
                    td { (format_args!("{}", s.segment.width())) }
                    td { (format_args!("{}", s.value)) }
                }
            } }
        }
    }
}

/// The error of `field`'s input, in the reader's words, or nothing.
fn error_for(words: &Words, errors: &[Refused], field: Field) -> Markup {
    errors
        .iter()
        .find(|e| e.field == field)
        .map_or_else(Markup::default, |e| {
            errors::field_error(words, e.field, &e.text, &e.error)
        })
}

/// The query that keeps the reader's values, for the links to the other languages: a
/// number as `lang` writes it in plain digits, which every language reads alike, so that
/// `4.095` typed in Indonesian is 4095 in English too, not a fraction.
fn kept_query(lang: Lang, params: &[(String, String)]) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for key in Field::ALL.map(Field::key) {
        if let Some(typed) = value(params, key) {
            query.append_pair(key, lang.unmark(typed).as_deref().unwrap_or(typed));
        }
    }
    // The decode box's ID, which is never grouped.
    if let Some(id) = value(params, "id") {
        query.append_pair("id", id);
    }
    let query = query.finish();
    if query.is_empty() {
        return query;
    }
    format!("?{query}")
}

/// What follows the form's values: computed once, shown whole by [`render`] and in parts
/// by [`render_parts`], so that the two agree by construction.
struct Parts<'a> {
    /// The four fields: inputs, labels, errors.
    fields: Markup,
    /// Inside `#result`.
    result: Markup,
    /// The decode box's value, as typed.
    decoded: &'a str,
    /// Inside `#id-error`.
    decode_error: Markup,
    /// Inside `#worked`.
    worked: Markup,
    /// Inside `#languages`.
    languages: Markup,
    /// The alternates, for the head.
    alternates: Markup,
}

fn parts<'a>(
    words: &Words,
    hosting: Hosting<'_>,
    params: &'a [(String, String)],
    clock: &impl Clock,
) -> Parts<'a> {
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
        _ => match compose_typed(&form, words.lang(), clock) {
            Ok(id) => (Some(id), Vec::new()),
            Err(errors) => (None, errors),
        },
    };
    let decode_error = match &decoded {
        Some(Err(e)) => errors::id_error(words, e),
        _ => Markup::default(),
    };
    let (alternates, languages) = languages(words.lang(), hosting, params);
    Parts {
        fields: fields(words, &form, &errors),
        result: shown.map_or_else(
            || html! { p class="muted" { (words.get("result-stale")) } },
            |id| result(words, id, matches!(decoded, Some(Ok(_)))),
        ),
        decoded: value(params, "id").unwrap_or_default(),
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
    let (action, busy, head, script) = match hosting {
        Hosting::Server { .. } => (
            lang.path(),
            None,
            Markup::default(),
            // The page's own script, whose hash the policy allows.
            html! { script { (PreEscaped(SCRIPT)) } },
        ),
        Hosting::StaticFiles => (
            "./",
            Some("true"),
            html! {
                meta http-equiv="Content-Security-Policy" content=(content_security_policy(hosting));
                "\n"
            },
            html! {
                script src={ "../" (SCRIPT_FILE) } data-module={ "../" (MODULE_FILE) }
                    data-words={ "../locales/" (lang.tag()) ".ftl" } {}
            },
        ),
    };
    let digits = Args::new(lang).number("digits", snowflake_kit::layout::Base32::LEN as u64);
    let nl = "\n";
    html! {
        (PreEscaped("<!doctype html>")) (nl)
        html lang=(lang.tag()) dir=(lang.dir()) {
            (nl)
            head {
                (nl) meta charset="utf-8"; (nl)
                (head)
                meta name="viewport" content="width=device-width, initial-scale=1"; (nl)
                title { (words.get("page-title")) } (nl)
                meta name="description" content=(attribute(&words.get("page-description"))); (nl)
                (parts.alternates)
                // Our own stylesheet, whose hash the policy allows.
                style { (PreEscaped(STYLE)) } (nl)
            }
            (nl)
            body {
                (nl)
                header { nav aria-label=(attribute(&words.get("languages"))) {
                    ul id="languages" { (parts.languages) }
                } }
                (nl)
                main {
                    (nl) h1 { (words.get("page-heading")) } (nl)
                    p class="lead" { (words.get("page-lead")) } (nl)
                    form id="compose" method="get" action=(action) {
                        (nl) (parts.fields) (nl)
                        div class="actions" { button type="submit" { (words.get("compose")) } }
                        (nl)
                    }
                    (nl)
                    section id="result" aria-live="polite" aria-busy=[busy] {
                        (nl) (parts.result) (nl)
                    }
                    (nl)
                    form id="decode" method="get" action=(action) {
                        (nl)
                        div class="field" {
                            label for="decode-id" {
                                (words.get("decode")) " "
                                span class="hint" { (words.format("decode-hint", &digits)) }
                            }
                            (nl)
                            // Not `inputmode="numeric"`: base32 has letters.
                            input id="decode-id" name="id" value=(parts.decoded)
                                dir="ltr" autocomplete="off" required aria-describedby="id-error"
                                aria-invalid=[invalid(&parts.decode_error)];
                            (nl)
                            p class="error" id="id-error" role="alert" { (parts.decode_error) }
                        }
                        (nl)
                        div class="actions" { button type="submit" { (words.get("decode-button")) } }
                        (nl)
                    }
                    (nl)
                    article id="explanation" {
                        (nl) (explain::explanation(words, &parts.worked)) (nl)
                    }
                    (nl)
                }
                (nl) (script) (nl)
            }
            (nl)
        }
        (nl)
    }
    .into_string()
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
    let english = Words::of(Lang::En);
    let nl = "\n";
    html! {
        (PreEscaped("<!doctype html>")) (nl)
        html lang="en" dir="ltr" {
            (nl)
            head {
                (nl) meta charset="utf-8"; (nl)
                meta http-equiv="Content-Security-Policy" content=(content_security_policy(Hosting::StaticFiles)); (nl)
                meta name="viewport" content="width=device-width, initial-scale=1"; (nl)
                title { (english.get("page-title")) } (nl)
                meta name="description" content=(attribute(&english.get("page-description"))); (nl)
                style { (PreEscaped(STYLE)) } (nl)
            }
            (nl)
            body {
                (nl)
                main {
                    (nl) h1 { (english.get("page-heading")) } (nl)
                    ul id="languages" { @for lang in Lang::ALL {
                        li {
                            a href={ (lang.tag()) "/" } hreflang=(lang.tag()) lang=(lang.tag()) dir=(lang.dir()) {
                                (lang.autonym())
                            }
                            " "
                            span lang=(lang.tag()) dir=(lang.dir()) { (Words::of(lang).get("page-heading")) }
                        }
                    } }
                    (nl)
                }
                (nl)
                script src=(SCRIPT_FILE) data-module=(MODULE_FILE) {}
                (nl)
            }
            (nl)
        }
        (nl)
    }
    .into_string()
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
    let nl = "\n";
    html! {
        (parts.fields) (nl)
        section id="result" { (parts.result) } (nl)
        input id="decode-id" value=(parts.decoded);
        p id="id-error" { (parts.decode_error) } (nl)
        div id="worked" { (parts.worked) } (nl)
        ul id="languages" { (parts.languages) } (nl)
    }
    .into_string()
}

/// The compose form's inputs, one per field, named by its key: the value as `form` has it,
/// labels and hints from the catalogue, ranges from the runtime, the field's error if any.
fn fields(words: &Words, form: &[(String, String)], errors: &[Refused]) -> Markup {
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
        html! {
            div class=(class) {
                label for=(key) { (label) " " span class="hint" { (hint) } }
                "\n"
                input id=(key) name=(key) value=(value(form, key).unwrap_or(default)) inputmode=(mode)
                    dir="ltr" autocomplete="off" aria-describedby={ (key) "-error" }
                    aria-invalid=[invalid(&message)];
                "\n"
                p class="error" id={ (key) "-error" } role="alert" { (message) }
            }
        }
    };
    html! {
        (input(Field::Timestamp, ""))
        (input(Field::Datacenter, ""))
        (input(Field::Machine, ""))
        (input(Field::Sequence, "0"))
    }
}

/// The other languages: the alternates for search engines (whole URLs, so only with an
/// `origin`), and the links for readers, which keep the values of `params`.
fn languages(lang: Lang, hosting: Hosting<'_>, params: &[(String, String)]) -> (Markup, Markup) {
    let (origin, prefix) = match hosting {
        Hosting::Server { origin } => (origin, ""),
        Hosting::StaticFiles => (None, ".."),
    };
    let kept = kept_query(lang, params);
    let alternates = html! {
        @if let Some(origin) = origin {
            @for other in Lang::ALL {
                link rel="alternate" hreflang=(other.tag()) href={ (origin) (other.path()) };
                "\n"
            }
            link rel="alternate" hreflang="x-default" href={ (origin) "/" };
            "\n"
        }
    };
    let links = html! {
        @for other in Lang::ALL {
            li { a href={ (prefix) (other.path()) (kept) } hreflang=(other.tag()) lang=(other.tag())
                aria-current=[(other == lang).then_some("page")] { (other.autonym()) } }
        }
    };
    (alternates, links)
}

/// A message of the catalogue, HTML we wrote, as an attribute's value: its quotes escaped
/// (maud escapes text, not markup).
fn attribute(message: &Markup) -> Markup {
    PreEscaped(message.0.replace('"', "&quot;"))
}

/// `aria-invalid`'s value for an input whose error message is `message`: none without one.
fn invalid(message: &Markup) -> Option<&'static str> {
    (!message.0.is_empty()).then_some("true")
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
    use snowflake_kit::compose;

    use super::*;

    /// The `'sha256-...'` sources of `directive` in `policy`.
    fn hashes_allowed(policy: &str, directive: &str) -> Vec<String> {
        let sources = policy
            .split(';')
            .find_map(|d| d.trim().strip_prefix(directive)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("no {directive}: {policy}"));
        let hashes = sources.split(' ').filter(|s| s.starts_with("'sha256-"));
        hashes.map(str::to_owned).collect()
    }

    /// The sources that allow each inline `<tag>` of `page`: its text's SHA-256 in standard
    /// base64, as a browser computes it.
    fn hashes_of(page: &str, tag: &str) -> Vec<String> {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        let texts = page.split(open.as_str()).skip(1);
        texts
            .map(|rest| rest.split(close.as_str()).next().expect("it ends"))
            .map(|text| format!("'sha256-{}'", STANDARD.encode(Sha256::digest(text))))
            .collect()
    }

    /// The result carries the ID's base32; the decode box reads either form and a typed
    /// ID's prefix; a decoded ID near the epoch (real tweets from before Snowflake) is said
    /// to be maybe no Snowflake, a composed one or a later tweet is not.
    #[test]
    fn the_result_shows_base32_and_a_word_on_ids_near_the_epoch() {
        let clock = &snowflake_kit::SystemClock;
        let decode = |lang: Lang, id: &str| {
            let query = [("id".to_owned(), id.to_owned())];
            render_parts(Words::of(lang), Hosting::StaticFiles, &query, clock)
        };
        // Read, not included: the package ships its tests, and the repository's vectors stay
        // home.
        let vectors = |name: &str| {
            let path = format!("{}/../tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        };
        let tweets = vectors("pre-snowflake-tweets.txt");
        let tweets = tweets.lines();
        let early: Vec<&str> = tweets
            .filter(|line| !line.starts_with('#'))
            .filter_map(|line| line.split(' ').next())
            .collect();
        assert_eq!(early.len(), 4);
        // The known answers every front end shares, decoded from either form.
        let known = vectors("base32.txt");
        for (id, base32) in known
            .lines()
            .skip(3)
            .filter_map(|line| line.split_once(' '))
        {
            let base32 = &base32[..13];
            for typed in [id, base32] {
                let parts = decode(Lang::En, typed);
                let shown = format!(r#"<output id="base32" dir="ltr">{base32}</output>"#);
                assert!(parts.contains(&shown), "{typed}");
                assert!(parts.contains(&format!(r#"<output id="id" dir="ltr">{id}</output>"#)));
            }
        }
        for lang in Lang::ALL {
            let note = text(&Words::of(lang).get("result-near-epoch").0);
            let tweet = decode(lang, "1541815603606036480");
            assert!(tweet.contains(r#"<output id="base32" dir="ltr">1ASD13XH1F800</output>"#));
            for other in ["1ASD13XH1F800", "user_1asd13xh1f8oo"] {
                let same = decode(lang, other);
                assert!(same.contains(r#"<output id="id" dir="ltr">1541815603606036480</output>"#));
            }
            assert!(!text(&tweet).contains(&note), "{lang:?}");
            for id in &early {
                assert!(text(&decode(lang, id)).contains(&note), "{lang:?} {id}");
            }
            let query = [("ts", "1288834975657"), ("dc", "1"), ("machine", "1")]
                .map(|(k, v)| (k.to_owned(), v.to_owned()));
            let composed = render_parts(Words::of(lang), Hosting::StaticFiles, &query, clock);
            assert!(composed.contains(r#"<output id="base32" dir="ltr">0000003X04400</output>"#));
            assert!(!text(&composed).contains(&note), "{lang:?}");
        }
    }

    #[test]
    fn a_page_reads_numbers_as_its_language_writes_them_and_links_them_plain() {
        let query = |seq: &str| {
            [
                ("ts", "1288834975657"),
                ("dc", "1"),
                ("machine", "1"),
                ("seq", seq),
            ]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
        };
        let clock = &snowflake_kit::SystemClock;
        let id = compose(1_288_834_975_657, 1, 1, 4095).unwrap().to_string();
        for (lang, typed, misread) in [
            (Lang::Id, "4.095", "4,095"),
            (Lang::He, "4,095", "4.095"),
            (Lang::En, "4,095", "4.095"),
        ] {
            let parts = render_parts(Words::of(lang), Hosting::StaticFiles, &query(typed), clock);
            assert!(
                parts.contains(&format!(r#"<output id="id" dir="ltr">{id}</output>"#)),
                "{lang:?}"
            );
            // As typed in its box; plain digits in the links to the other languages.
            assert!(
                parts.contains(&format!(r#"name="seq" value="{typed}""#)),
                "{lang:?}"
            );
            assert!(parts.contains("&amp;seq=4095\""), "{lang:?}: {parts}");
            let parts = render_parts(
                Words::of(lang),
                Hosting::StaticFiles,
                &query(misread),
                clock,
            );
            let error = parts.split(r#"id="seq-error""#).nth(1).unwrap();
            let quoted = format!(r#"<code dir="ltr">{misread}</code>"#);
            assert!(
                error.split("</p>").next().unwrap().contains(&quoted),
                "{lang:?}"
            );
            assert!(!parts.contains(r#"<output id="id""#), "{lang:?}");
        }
        // Marks out of place stay as typed in the links.
        let kept = kept_query(Lang::En, &query("40,95"));
        assert!(kept.ends_with("&seq=40%2C95"), "{kept}");
    }

    #[test]
    fn the_policy_allows_exactly_the_pages_own_inline_script_and_style() {
        let query = [("dc".to_owned(), "32".to_owned())];
        let clock = &snowflake_kit::SystemClock;
        for lang in Lang::ALL {
            // The server's page: its script and style inline, the policy its header.
            let server = Hosting::Server { origin: None };
            let page = render(Words::of(lang), server, &query, clock);
            let policy = content_security_policy(server);
            for (tag, directive) in [("script", "script-src"), ("style", "style-src")] {
                let inline = hashes_of(&page, tag);
                assert_eq!(inline.len(), 1, "{lang:?} {tag}");
                assert_eq!(hashes_allowed(&policy, directive), inline, "{lang:?}");
            }
            // The static site's page and front door: the script a file, the style inline,
            // the policy a <meta> in the page.
            let door = render_front_door();
            let page = render(Words::of(lang), Hosting::StaticFiles, &query, clock);
            for page in [page, door] {
                let policy = page
                    .split(r#"<meta http-equiv="Content-Security-Policy" content=""#)
                    .nth(1)
                    .and_then(|rest| rest.split('"').next())
                    .expect("a policy in the page");
                assert_eq!(policy, content_security_policy(Hosting::StaticFiles));
                assert!(hashes_of(&page, "script").is_empty() && page.contains("<script src="));
                assert_eq!(hashes_allowed(policy, "script-src"), Vec::<String>::new());
                let inline = hashes_of(&page, "style");
                assert_eq!(inline.len(), 1, "{lang:?}");
                assert_eq!(hashes_allowed(policy, "style-src"), inline, "{lang:?}");
            }
        }
    }
}
