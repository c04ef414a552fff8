//! The page as the server renders it, in each language, driven through the router in this
//! process (tower's `oneshot`): its paths, the language a browser asks for, the links
//! between languages, the errors in the page's language, its policy. What a browser does
//! with it is `browser.rs`'s.

mod support;

use std::collections::BTreeSet;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use scraper::{ElementRef, Html};
use snowflake_server::{Config, Service};
use support::{Response as Page, respond, selector};

/// `GET path` with `headers`, through the service's router.
async fn get(path: &str, headers: &[(&str, &str)]) -> Page {
    let router = Service::new(Config::without_identity()).unwrap().router();
    let mut request = Request::get(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    respond(router, request.body(Body::empty()).unwrap()).await
}

/// Each language: its tag, its direction and words of its title.
const LANGUAGES: [(&str, &str, &str); 3] = [
    ("id", "ltr", "Generator ID Snowflake"),
    ("he", "rtl", "מחולל מזהי Snowflake"),
    ("en", "ltr", "Snowflake ID generator"),
];

#[tokio::test]
async fn each_language_lives_at_its_own_path() {
    let mut descriptions = BTreeSet::new();
    for (tag, dir, title) in LANGUAGES {
        let page = get(
            &format!("/{tag}/?ts=1288834975657&dc=1&machine=1&seq=0"),
            &[],
        )
        .await;
        assert_eq!(page.status, 200, "{tag}");
        assert!(
            page.body
                .contains(&format!(r#"<html lang="{tag}" dir="{dir}">"#)),
            "{tag}"
        );
        assert_eq!(page.header("content-language"), Some(tag));
        assert!(page.text_of("id") == "4194439168", "{tag}");
        let head = &page.body[..page.body.find("</head>").unwrap()];
        assert!(head.contains(&format!("<title>{title}")), "{tag}: {head}");
        // A description for search engines, in the language.
        let description = description(&page.body);
        assert!(description.len() > 80, "{tag}: {description}");
        descriptions.insert(description);
        // The same page whatever the browser asks for: no Vary needed. Never kept: a first
        // visit shows an ID of now.
        assert_eq!(page.header("vary"), None, "{tag}");
        assert_eq!(page.header("cache-control"), Some("no-store"), "{tag}");
        let hebrew = get(&format!("/{tag}/"), &[("accept-language", "he")]).await;
        assert!(
            hebrew.body.contains(&format!(r#"<html lang="{tag}""#)),
            "{tag}"
        );
        // Its forms stay on its path.
        let forms = format!(r#"method="get" action="/{tag}/""#);
        assert_eq!(page.body.matches(&forms).count(), 2, "{tag}");
    }
    // The descriptions differ: each is in its language.
    assert_eq!(descriptions.len(), 3, "{descriptions:?}");
    // Each the words of its catalogue alone, not the rest of the page.
    assert!(
        descriptions.iter().all(|d| !d.contains('<')),
        "{descriptions:?}"
    );
}

/// The page's description for search engines: its `<meta name="description">` in the head.
fn description(body: &str) -> String {
    let page = Html::parse_document(body);
    let meta = page
        .select(&selector("head > meta[name=description]"))
        .next();
    let content = meta.and_then(|meta| meta.attr("content"));
    content.expect("a description in the head").to_owned()
}

#[tokio::test]
async fn the_root_serves_the_language_the_browser_prefers() {
    for (header, lang) in [
        (None, "en"),
        (Some("id-ID,id;q=0.9,en-US;q=0.8,en;q=0.7"), "id"),
        (Some("he-IL,he;q=0.9"), "he"),
        (Some("iw"), "he"),
        (Some("in"), "id"),
        (Some("fr-FR,fr;q=0.9,de;q=0.8"), "en"),
        (Some("en;q=0.3, he;q=0.6, id;q=0.5"), "he"),
        (Some("he;q=0, fr"), "en"),
    ] {
        let headers: Vec<(&str, &str)> =
            header.map(|h| ("accept-language", h)).into_iter().collect();
        let page = get("/?dc=3&machine=4&seq=5&ts=1288834975657", &headers).await;
        assert_eq!(page.status, 200);
        assert!(
            page.body.contains(&format!(r#"<html lang="{lang}""#)),
            "{header:?} -> {lang}"
        );
        assert_eq!(page.header("content-language"), Some(lang), "{header:?}");
        // Caches keep one answer per language asked for.
        assert_eq!(page.header("vary"), Some("accept-language"), "{header:?}");
        assert_eq!(page.text_of("id"), "4194713605", "{header:?}");
    }
}

#[tokio::test]
async fn a_language_without_its_slash_is_sent_to_it_with_the_query() {
    for (path, location) in [
        ("/id", "/id/"),
        ("/he?dc=3&machine=4", "/he/?dc=3&machine=4"),
        ("/en?id=4194439168", "/en/?id=4194439168"),
    ] {
        let answer = get(path, &[]).await;
        let permanent = StatusCode::PERMANENT_REDIRECT.as_u16();
        assert_eq!(answer.status, permanent, "{path}");
        assert_eq!(answer.header("location"), Some(location), "{path}");
    }
    // Other paths are not pages.
    for path in ["/fr/", "/he/x", "/HE/"] {
        assert_eq!(get(path, &[]).await.status, 404, "{path}");
    }
}

#[tokio::test]
async fn each_page_links_to_the_others_keeping_the_values_typed() {
    let query = "?ts=2022-06-28T16%3A07%3A40.105Z&dc=11&machine=26&seq=0";
    for (tag, _, _) in LANGUAGES {
        let page = get(&format!("/{tag}/{query}"), &[("host", "ids.example:8080")]).await;
        // Alternates for search engines, whole URLs as they want them: every language and
        // the default.
        for (other, _, _) in LANGUAGES {
            assert!(
                page.body.contains(&format!(
                    r#"<link rel="alternate" hreflang="{other}" href="http://ids.example:8080/{other}/">"#
                )),
                "{tag} -> {other}"
            );
        }
        assert!(page.body.contains(
            r#"<link rel="alternate" hreflang="x-default" href="http://ids.example:8080/">"#
        ));
        // Behind a proxy that serves https; and without a usable Host, none.
        let proxied = get(
            &format!("/{tag}/"),
            &[("host", "ids.example"), ("x-forwarded-proto", "https")],
        )
        .await;
        assert!(
            proxied
                .body
                .contains(r#"hreflang="he" href="https://ids.example/he/">"#)
        );
        for host in [None, Some("a\"><b>"), Some("")] {
            let headers: Vec<(&str, &str)> = host.map(|h| ("host", h)).into_iter().collect();
            let page = get(&format!("/{tag}/"), &headers).await;
            assert!(!page.body.contains("rel=\"alternate\""), "{host:?}");
            assert!(!page.body.contains("<b>"), "{host:?}");
        }
        // Plain links that keep what was typed, each named in its own language.
        let nav = page.text_of("languages");
        assert_eq!(nav, "Bahasa IndonesiaעבריתEnglish", "{tag}");
        for (other, _, _) in LANGUAGES {
            let current = if other == tag {
                r#" aria-current="page""#
            } else {
                ""
            };
            let link = format!(
                r#"<a href="/{other}/?ts=2022-06-28T16%3A07%3A40.105Z&amp;dc=11&amp;machine=26&amp;seq=0" hreflang="{other}" lang="{other}"{current}>"#
            );
            assert!(page.body.contains(&link), "{tag} -> {other}: {link}");
        }
        // A decoded ID is kept as the ID; nothing typed, no query.
        let decoded = get(&format!("/{tag}/?id=4194439168"), &[]).await;
        assert!(
            decoded
                .body
                .contains(r#"<a href="/he/?id=4194439168" hreflang="he""#)
        );
        let bare = get(&format!("/{tag}/"), &[]).await;
        assert!(bare.body.contains(r#"<a href="/id/" hreflang="id""#));
        // Markup typed into a value stays text in the links too.
        let odd = get(&format!("/{tag}/?dc=%22%3E%3Cb%3E"), &[]).await;
        assert!(
            odd.body.contains(r#"href="/en/?dc=%22%3E%3Cb%3E""#),
            "{tag}"
        );
        assert!(!odd.body.contains("<b>"), "{tag}");
    }
}

#[tokio::test]
async fn the_page_renders_without_javascript() {
    let page = get("/?ts=1288834975657&dc=1&machine=1&seq=0", &[]).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains(r#"<output id="id" dir="ltr">4194439168</output>"#)
    );
    assert!(
        page.body
            .contains(r#"<span class="seg ts">00000000000000000000000000000001111101000</span>"#)
    );
    let bad = get("/?ts=1288834975657&dc=32&machine=1&seq=0", &[]).await;
    assert_eq!(
        bad.text_of("dc-error"),
        "32 is out of range for the datacenter ID: it holds 0 to 31 (5 bits)."
    );
    assert!(
        bad.body
            .contains(r#"aria-describedby="dc-error" aria-invalid="true">"#)
    );
    // What was typed stays.
    assert!(bad.body.contains(r#"id="dc" name="dc" value="32""#));
    // Self-contained: nothing is loaded from elsewhere; the one address of another site is
    // each source's link, for the reader to follow.
    let markup = &page.body[..page.body.find("<script>").unwrap()];
    assert!(!markup.contains(" src="));
    for (i, _) in markup.match_indices("http") {
        assert!(
            markup[..i].ends_with(r#"<a href=""#),
            "{}",
            &markup[i.saturating_sub(40)..i + 40]
        );
    }
    assert_eq!(page.body.matches(r#"<a href="https://"#).count(), 3);
    // A decoded ID fills the fields with its parts.
    let tweet = get("/?id=1541815603606036480", &[]).await.body;
    for field in [
        r#"id="ts" name="ts" value="2022-06-28T16:07:40.105Z""#,
        r#"id="dc" name="dc" value="11""#,
        r#"id="machine" name="machine" value="26""#,
        r#"id="seq" name="seq" value="0""#,
    ] {
        assert!(tweet.contains(field), "{field}");
    }
    // A blank ID is the decode box's own error; the other fields are not blanked.
    for path in ["/?id=", "/?id=%20%20"] {
        let blank = get(path, &[]).await;
        assert_eq!(
            blank.text_of("id-error"),
            "Enter an ID: in decimal digits, or in the 13 characters of its base32 form.",
            "{path}"
        );
        assert!(
            blank
                .body
                .contains(r#"required aria-describedby="id-error" aria-invalid="true">"#),
            "{path}"
        );
        assert!(
            blank.body.contains(r#"id="dc" name="dc" value="1""#),
            "{path}"
        );
        assert!(!blank.text_of("id").is_empty(), "{path}");
        let invalid = blank.body.matches(r#"aria-invalid="true""#).count();
        assert_eq!(invalid, 1, "{path}");
    }
}

/// The words of the English page's errors, which no other language's may use.
const ENGLISH_WORDS: [&str; 40] = [
    "the", "and", "of", "is", "to", "with", "for", "from", "this", "that", "are", "by", "be", "an",
    "it", "or", "at", "on", "as", "your", "you", "field", "number", "bits", "time", "enter",
    "which", "not", "was", "its", "than", "only", "where", "each", "into", "whole", "after",
    "before", "page", "type",
];

/// The words of the page outside its code, its values and its names: what a reader reads.
fn prose(body: &str) -> String {
    let page = Html::parse_document(body);
    // Code, values typed, numbers and scripts are not words of a language.
    let not_words = selector("script, style, code, pre, bdi[dir=ltr], output, ul#languages");
    let read = page.root_element().descendants().filter(|node| {
        let mut around = node.ancestors().filter_map(ElementRef::wrap);
        !around.any(|element| not_words.matches(&element))
    });
    // Between elements, a break between words.
    let text: Vec<&str> = read
        .filter_map(|node| Some(&**node.value().as_text()?))
        .collect();
    // An attribute a reader meets: the description.
    format!("{} {}", text.join(" "), description(body))
}

#[tokio::test]
async fn no_english_is_left_on_the_indonesian_and_hebrew_pages() {
    // Names and code a page in any language writes as they are.
    const NAMES: [&str; 20] = [
        "Snowflake",
        "base32",
        "Twitter",
        "Unix",
        "RFC",
        "UTC",
        "Discord",
        "Instagram",
        "SQL",
        "BIGINT",
        "OR",
        "GitHub",
        "snowflake-kit",
        "ID",
        "t",
        "d",
        "c",
        "m",
        "s",
        "I",
    ];
    let states = [
        "?ts=1288834975657&dc=1&machine=1&seq=0",
        "?ts=x&dc=32&machine=-1&seq=1.5",
        "?ts=2022-02-30T00:00:00Z&dc=%2B1&machine=0x1F&seq=99999999999999999999",
        "?ts=2022-06-28T16:07:40.1051Z&dc=&machine=40&seq=4096",
        "?ts=1969-12-31T23:59:59Z&dc=1&machine=1",
        "?ts=2016-12-31T23:59:60Z&dc=1&machine=1",
        "?ts=1288834974656&dc=1&machine=1",
        "?ts=3487858230209&dc=1&machine=1",
        "?id=12x",
        "?id=9223372036854775808",
        "?id=",
        "?id=1541815603606036480",
    ];
    for tag in ["id", "he"] {
        for state in states {
            let page = get(&format!("/{tag}/{state}"), &[]).await;
            let prose = prose(&page.body);
            let words: Vec<&str> = prose
                .split(|c: char| !(c.is_alphanumeric() || c == '-'))
                .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
                .collect();
            for word in &words {
                let english = ENGLISH_WORDS.iter().any(|w| {
                    *word == *w || word.strip_prefix(&w[..1].to_uppercase()) == Some(&w[1..])
                });
                // Hebrew has no Latin letters beyond names.
                let latin = tag == "he" && !NAMES.contains(word) && word.is_ascii();
                assert!(!english && !latin, "/{tag}/{state}: {word:?} in\n{prose}");
            }
            assert!(words.len() > 50 || tag == "he", "{tag}: {words:?}");
        }
    }
    // The check sees English where there is some.
    let english = prose(&get("/en/", &[]).await.body);
    assert!(english.split(' ').any(|w| w == "the"));
}

#[tokio::test]
async fn errors_are_in_the_pages_language_beside_their_field() {
    let query = "?ts=x&dc=32&machine=-1&seq=4096";
    let mut seen = Vec::new();
    for (tag, _, _) in LANGUAGES {
        let page = get(&format!("/{tag}/{query}"), &[]).await;
        let errors: Vec<String> = ["ts", "dc", "machine", "seq"]
            .iter()
            .map(|field| page.text_of(&format!("{field}-error")))
            .collect();
        for (error, typed) in errors.iter().zip(["x", "32", "-1", "4096"]) {
            // The value as typed, named in the message.
            assert!(error.contains(typed), "{tag}: {error}");
            assert!(!seen.contains(error), "{tag}: {error}");
            seen.push(error.clone());
        }
        // The result says to fix them, in the language.
        assert!(!page.text_of("result").is_empty(), "{tag}");
        // Every field marked, and the decode box not.
        let invalid = page.body.matches(r#"aria-invalid="true""#).count();
        assert_eq!(invalid, 4, "{tag}");
    }
    // The datacenter's, in Hebrew and English: the value and the range.
    assert!(
        seen[5].contains("32") && seen[5].contains("31"),
        "{}",
        seen[5]
    );
    assert!(
        seen[9].contains("32") && seen[9].contains("31"),
        "{}",
        seen[9]
    );
    // Indonesian groups the sequence's range as it writes numbers: 4.095.
    assert!(seen[3].contains("4.095"), "{}", seen[3]);
    assert!(seen[11].contains("4,095"), "{}", seen[11]);
}

#[tokio::test]
async fn the_json_api_stays_in_english_whatever_the_language() {
    for language in ["he", "id", "iw"] {
        let answer = get(
            "/v1/compose?ts=1288834975657&dc=32&machine=1",
            &[("accept-language", language)],
        )
        .await;
        assert_eq!(answer.status, 400);
        let body = answer.json();
        assert_eq!(
            body["error"]["message"],
            "datacenter 32 is out of range 0..=31 (5 bits)"
        );
        assert_eq!(answer.header("content-language"), None);
        let decoded = get("/v1/decode/12x", &[("accept-language", language)]).await;
        let body = decoded.json();
        assert_eq!(
            body["error"]["message"],
            "invalid character `x` at byte 2: an ID is decimal digits only"
        );
    }
}

#[tokio::test]
async fn the_worked_example_follows_the_input() {
    for (tag, delta, shifted) in [
        (
            "id",
            "1.288.834.975.657 − 1.288.834.974.657 = 1.000",
            "1.000 << 22 = 4.194.304.000",
        ),
        (
            "he",
            "1,288,834,975,657 − 1,288,834,974,657 = 1,000",
            "1,000 << 22 = 4,194,304,000",
        ),
        (
            "en",
            "1,288,834,975,657 − 1,288,834,974,657 = 1,000",
            "1,000 << 22 = 4,194,304,000",
        ),
    ] {
        let page = get(
            &format!("/{tag}/?ts=1288834975657&dc=1&machine=1&seq=0"),
            &[],
        )
        .await;
        let worked = page.text_of("worked");
        assert!(
            worked.contains(delta) && worked.contains(shifted),
            "{tag}: {worked}"
        );
        // A decoded ID is worked through too.
        let tweet = get(&format!("/{tag}/?id=1541815603606036480"), &[]).await;
        assert!(
            tweet.text_of("worked").contains("1541815603606036480"),
            "{tag}"
        );
        // While a field is wrong, it says what to do instead of working through old values.
        let bad = get(&format!("/{tag}/?dc=32&machine=1"), &[]).await;
        let worked = bad.text_of("worked");
        assert!(
            !worked.contains("<<") && !worked.is_empty(),
            "{tag}: {worked}"
        );
    }
}

/// A CSP source hash, computed here from what was served.
fn sha256_base64(text: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes()))
}

#[tokio::test]
async fn the_page_allows_its_own_script_and_style_and_nothing_else() {
    // A first visit, a form with errors, a decode with an error, in each language: the
    // same headers.
    for path in [
        "/",
        "/?ts=x&dc=32&machine=1",
        "/?id=12x",
        "/id/",
        "/he/?ts=x&dc=32&machine=1",
        "/en/?id=12x",
    ] {
        let page = get(path, &[]).await;
        assert_eq!(page.status, 200, "{path}");
        // One inline script and one inline style, allowed by the hashes of what was served.
        assert_eq!(page.body.matches("<script").count(), 1, "{path}");
        assert_eq!(page.body.matches("<style").count(), 1, "{path}");
        let html = Html::parse_document(&page.body);
        let inline =
            |tag| -> String { html.select(&selector(tag)).flat_map(|e| e.text()).collect() };
        let (script, style) = (
            sha256_base64(&inline("script")),
            sha256_base64(&inline("style")),
        );
        let policy = page
            .header("content-security-policy")
            .unwrap_or_else(|| panic!("{path}: no policy"));
        let directives: Vec<&str> = policy.split(';').map(str::trim).collect();
        assert_eq!(
            directives,
            [
                "default-src 'none'",
                &format!("script-src 'sha256-{script}'"),
                &format!("style-src 'sha256-{style}'"),
                "connect-src 'self'",
                "form-action 'self'",
                "frame-ancestors 'none'",
                "base-uri 'none'",
            ],
            "{path}"
        );
        assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
        assert_eq!(page.header("x-frame-options"), Some("DENY"));
        // The policy would block style attributes and inline handlers: there are none.
        assert_eq!(inline_attributes(&html), BTreeSet::new(), "{path}");
    }
}

/// The attributes of `html`'s elements that the policy would block, by name: styles and
/// handlers.
fn inline_attributes(html: &Html) -> BTreeSet<String> {
    let every = selector("*");
    let elements = html.select(&every);
    let names = elements.flat_map(|element| element.value().attrs().map(|(name, _)| name));
    names
        .filter(|name| *name == "style" || name.starts_with("on"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn inline_attributes_are_read_outside_quotes() {
    let inline = |html| Vec::from_iter(inline_attributes(&Html::parse_fragment(html)));
    let description = r#"<meta name="description" content="or one, style=x onclick">"#;
    assert_eq!(inline(description), Vec::<String>::new());
    let inline_only = r#"<p style="a" onclick='b' hidden>"#;
    assert_eq!(inline(inline_only), ["onclick", "style"]);
}
