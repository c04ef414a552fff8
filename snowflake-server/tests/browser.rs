//! The page in a real browser: Debian's headless Chromium, driven through
//! chromedriver's `WebDriver` API, under the page's Content-Security-Policy; the
//! accessibility audit is axe-core's, run in the page. The tests are ignored by a plain
//! `cargo test` (`needs Chromium ...`) and run by the test command with `--include-ignored`;
//! run without what they need, they fail, saying what to install.

mod support;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{Server, get, post};

/// Panics, saying what to install, when `program` does not run.
fn require(program: &str) {
    assert!(
        Command::new(program).arg("--version").output().is_ok(),
        "{program} is not installed: `apt-get install chromium chromium-driver` (Debian), or \
         run `bash scripts/test.sh`, which installs them"
    );
}

/// axe-core's browser bundle, where `scripts/test.sh` installs it (or `$AXE_CORE_JS`).
///
/// # Panics
///
/// When it is not there, saying how to install it.
fn axe_source() -> String {
    let path = std::env::var("AXE_CORE_JS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../target/axe/node_modules/axe-core/axe.min.js"
        )
        .to_owned()
    });
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "axe-core is not at {path} ({e}): run `bash scripts/test.sh`, which installs it with \
             npm, or set AXE_CORE_JS to its axe.min.js"
        )
    })
}

/// The flags this machine's Chromium needs as root, without network, in a fresh profile.
fn chromium_flags(profile: &std::path::Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=412,1000",
        // Scrollbars that take no room: a page that grows does not reflow sideways.
        "--hide-scrollbars",
    ]
    .iter()
    .map(|flag| (*flag).to_owned())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// A fresh profile directory. One per browser: a second Chromium given a profile in use
/// hands its window to the first and exits, and two tests then share one browser.
fn profile(name: &str) -> std::path::PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "snowflake-server-{name}-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A `WebDriver` session on a chromedriver of its own.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
    profile: std::path::PathBuf,
}

impl Browser {
    /// A headless Chromium, with JavaScript or without.
    ///
    /// # Panics
    ///
    /// Without Chromium or chromedriver, saying what to install.
    fn start(javascript: bool) -> Browser {
        require("chromium");
        require("chromedriver");
        let port = snowflake_test_support::free_port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = profile(if javascript { "js" } else { "nojs" });
        // 2 blocks scripts, as a person who turned JavaScript off has it.
        let scripts = if javascript { 1 } else { 2 };
        let session = post(
            &addr,
            "/session",
            // The browser's console, CSP violations included, for `csp_violations`.
            &json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
                "binary": "/usr/bin/chromium", "args": chromium_flags(&profile),
                "prefs": {"profile.managed_default_content_settings.javascript": scripts}
            }, "goog:loggingPrefs": {"browser": "ALL"}}}}),
        )
        .json();
        let id = session["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("{session}"))
            .to_owned();
        Browser {
            driver,
            addr,
            session: id,
            profile,
        }
    }

    fn call(&self, path: &str, body: &Value) -> Value {
        post(
            &self.addr,
            &format!("/session/{}{path}", self.session),
            body,
        )
        .json()["value"]
            .clone()
    }

    fn open(&self, url: &str) {
        self.call("/url", &json!({ "url": url }));
    }

    fn url(&self) -> String {
        let answer = get(&self.addr, &format!("/session/{}/url", self.session)).json();
        answer["value"].as_str().unwrap_or_default().to_owned()
    }

    /// Runs `script` in the page, as `WebDriver` does: outside the page's own policy.
    fn run(&self, script: &str) -> Value {
        self.call("/execute/sync", &json!({ "script": script, "args": [] }))
    }

    /// Sets the window's size, as a wider screen would have it.
    fn resize(&self, width: u32) {
        self.call("/window/rect", &json!({ "width": width, "height": 1000 }));
    }

    /// What Chromium's console said since the last call.
    fn console(&self) -> Vec<String> {
        let log = self.call("/se/log", &json!({ "type": "browser" }));
        log.as_array()
            .unwrap_or_else(|| panic!("no browser log: {log}"))
            .iter()
            .filter_map(|entry| entry["message"].as_str())
            .map(str::to_owned)
            .collect()
    }

    /// What Chromium's console said about the Content-Security-Policy since the last call.
    fn csp_violations(&self) -> Vec<String> {
        let mut console = self.console();
        console.retain(|message| message.contains("Content Security Policy"));
        console
    }

    /// axe-core's audit of the page as it is now: each violation's rule, impact and nodes.
    fn audit(&self, axe: &str) -> Vec<String> {
        // Given as the body of the script that WebDriver runs, so the page's policy,
        // which would refuse a <script> element, does not apply.
        assert_eq!(self.run(&format!("{axe}\nreturn typeof axe;")), "object");
        let found = self.call(
            "/execute/async",
            &json!({"script": r#"
                const done = arguments[arguments.length - 1];
                axe.run(document, { resultTypes: ["violations"] }).then(
                  (r) => done(r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n` +
                    v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary}`).join("\n"))),
                  (e) => done([`axe failed: ${e}`]));
            "#, "args": []}),
        );
        found
            .as_array()
            .unwrap_or_else(|| panic!("axe answered {found}"))
            .iter()
            .map(|v| v.as_str().unwrap_or_default().to_owned())
            .collect()
    }

    /// Each input's box in the compose form: left, top, width, height, in Chromium's
    /// layout unit (1/64 px), so that equal means equal.
    fn input_boxes(&self) -> Vec<[i64; 4]> {
        let boxes = self.run(
            "return Array.from(document.querySelectorAll('#compose input'), (input) => { \
               const r = input.getBoundingClientRect(); \
               return [r.left, r.top, r.width, r.height].map((x) => Math.round(x * 64)); })",
        );
        serde_json::from_value(boxes).unwrap()
    }

    fn element(&self, css: &str) -> String {
        let found = self.call("/element", &json!({"using": "css selector", "value": css}));
        found["element-6066-11e4-a52e-4f735466cecf"]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {found}"))
            .to_owned()
    }

    /// The text of `css`, or nothing while there is no such element.
    fn text(&self, css: &str) -> String {
        let found = self.call("/element", &json!({"using": "css selector", "value": css}));
        let Some(element) = found["element-6066-11e4-a52e-4f735466cecf"].as_str() else {
            return String::new();
        };
        let answer = get(
            &self.addr,
            &format!("/session/{}/element/{element}/text", self.session),
        )
        .json();
        answer["value"].as_str().unwrap_or_default().to_owned()
    }

    fn value(&self, css: &str) -> String {
        let element = self.element(css);
        let answer = get(
            &self.addr,
            &format!("/session/{}/element/{element}/property/value", self.session),
        )
        .json();
        answer["value"].as_str().unwrap_or_default().to_owned()
    }

    fn click(&self, css: &str) {
        let element = self.element(css);
        self.call(&format!("/element/{element}/click"), &json!({}));
    }

    fn replace(&self, css: &str, text: &str) {
        let element = self.element(css);
        self.call(&format!("/element/{element}/clear"), &json!({}));
        self.call(
            &format!("/element/{element}/value"),
            &json!({ "text": text }),
        );
    }

    /// Waits up to 10 s for the text of `css` to satisfy `check`.
    fn wait_for(&self, css: &str, check: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let text = self.text(css);
            if check(&text) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "{css} still reads {text:?}; the console: {:?}",
                self.console()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self) -> Vec<u8> {
        let answer = get(&self.addr, &format!("/session/{}/screenshot", self.session)).json();
        decode_base64(answer["value"].as_str().unwrap())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = support::request_delete(&self.addr, &format!("/session/{}", self.session));
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = text
        .bytes()
        .filter(|c| *c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (18 - 6 * i));
        let [_, a, b, c] = n.to_be_bytes();
        out.extend_from_slice(&[a, b, c][..chunk.len() - 1]);
    }
    out
}

/// Inputs level before are level after, and none moved sideways or changed size.
fn assert_in_line(before: &[[i64; 4]], after: &[[i64; 4]]) {
    for (i, (b, a)) in before.iter().zip(after).enumerate() {
        assert_eq!(
            (b[0], b[2], b[3]),
            (a[0], a[2], a[3]),
            "input {i} moved sideways or resized: {before:?} -> {after:?}"
        );
        for (j, (b2, a2)) in before.iter().zip(after).enumerate() {
            if b[1] == b2[1] {
                assert_eq!(
                    a[1], a2[1],
                    "inputs {i} and {j} out of line: {before:?} -> {after:?}"
                );
            }
        }
    }
}

#[test]
#[ignore = "needs Chromium and chromedriver: bash scripts/test.sh installs them"]
fn without_javascript_the_form_is_rendered_by_the_server() {
    let server = Server::start(&[]);
    let browser = Browser::start(false);
    browser.open(&format!(
        "http://{}/?ts=1288834975657&dc=1&machine=1&seq=0",
        server.addr
    ));
    assert_eq!(browser.text("#id"), "4194439168");
    assert_eq!(
        browser.text("#binary"),
        "0 00000000000000000000000000000001111101000 00001 00001 000000000000"
    );
    assert_eq!(browser.text("#legend tr.ts td:last-child"), "1000");
    // Without a script there is no Copy button to press.
    let hidden = browser.call(
        "/execute/sync",
        &json!({"script": "return document.getElementById('copy').hidden", "args": []}),
    );
    assert_eq!(hidden, json!(true));
    // Typing does nothing without a script; submitting asks the server again.
    browser.replace("#dc", "32");
    assert_eq!(browser.text("#dc-error"), "");
    browser.click("#compose button[type=submit]");
    browser.wait_for("#dc-error", |text| {
        text == "datacenter 32 is out of range 0..=31 (5 bits)"
    });
    assert_eq!(browser.value("#dc"), "32");
    assert_eq!(browser.value("#ts"), "1288834975657");
    // The decode box, submitted: the fields show the ID's parts.
    browser.replace("#decode-id", "1541815603606036480");
    browser.click("#decode button[type=submit]");
    browser.wait_for("#time", |time| time == "2022-06-28T16:07:40.105Z");
    assert_eq!(browser.value("#ts"), "2022-06-28T16:07:40.105Z");
    assert_eq!(
        (browser.value("#dc"), browser.value("#machine")),
        ("11".to_owned(), "26".to_owned())
    );
    // Submitted empty, the decode box is not sent: the browser asks for an ID.
    let page = format!("http://{}/?ts=1288834975657&dc=3&machine=4", server.addr);
    browser.open(&page);
    browser.click("#decode button[type=submit]");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(browser.url(), page);
    assert_eq!(browser.value("#dc"), "3");
    // Blank, it is sent: its own error, and the other fields an ID of now for 1, 1.
    browser.replace("#decode-id", "  ");
    browser.click("#decode button[type=submit]");
    browser.wait_for("#id-error", |text| {
        text == "empty text: a snowflake id is decimal digits"
    });
    let marked =
        browser.run("return document.getElementById('decode-id').getAttribute('aria-invalid')");
    assert_eq!(marked, json!("true"));
    assert_eq!(
        (browser.value("#dc"), browser.value("#machine")),
        ("1".to_owned(), "1".to_owned())
    );
    assert!(!browser.text("#id").is_empty());
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
}

#[test]
#[ignore = "needs Chromium and chromedriver: bash scripts/test.sh installs them"]
fn typing_updates_the_result_and_shows_errors_beside_their_field() {
    let server = Server::start(&[]);
    let browser = Browser::start(true);
    browser.open(&format!(
        "http://{}/?ts=1288834975657&dc=1&machine=1&seq=0",
        server.addr
    ));
    assert_eq!(browser.text("#id"), "4194439168");
    // The tweet's fields, typed: the result follows without a submit.
    browser.replace("#ts", "2022-06-28T16:07:40.105Z");
    browser.replace("#dc", "11");
    browser.replace("#machine", "26");
    browser.wait_for("#id", |id| id == "1541815603606036480");
    assert_eq!(browser.text("#time"), "2022-06-28T16:07:40.105Z");
    assert_eq!(
        browser.text("#binary"),
        "0 00101010110010110100001000111110110001000 01011 11010 000000000000"
    );
    // The timestamp box shows the whole time.
    let fits = browser
        .run("const ts = document.getElementById('ts'); return ts.scrollWidth <= ts.clientWidth");
    assert_eq!(fits, json!(true));
    // A long error beside one field moves no input out of line with its row, on a
    // phone (datacenter beside machine) and on a wider screen (the three in a row).
    browser.resize(412);
    let phone = browser.input_boxes();
    assert_eq!(phone[1][1], phone[2][1]);
    browser.resize(800);
    let wide = browser.input_boxes();
    assert!(
        wide[1][1] == wide[2][1] && wide[2][1] == wide[3][1],
        "{wide:?}"
    );
    browser.replace("#dc", "-1");
    browser.wait_for("#dc-error", |text| text.contains("is negative"));
    assert_in_line(&wide, &browser.input_boxes());
    browser.resize(412);
    assert_in_line(&phone, &browser.input_boxes());
    // An error appears beside its field, in the runtime's words, and what was typed stays.
    browser.replace("#dc", "32");
    browser.wait_for("#dc-error", |text| {
        text == "datacenter 32 is out of range 0..=31 (5 bits)"
    });
    // No ID that the fields no longer say.
    browser.wait_for("#result", |text| text == "Fix the fields marked above.");
    assert_eq!(browser.value("#dc"), "32");
    // The decode box.
    browser.replace("#decode-id", "4194439168");
    browser.wait_for("#time", |time| time == "2010-11-04T01:42:55.657Z");
    browser.replace("#decode-id", "12x");
    browser.wait_for("#id-error", |text| text.contains("invalid character `x`"));
    // Emptied as a person does it (select all, backspace), the decode box drops its error.
    let decode_box = browser.element("#decode-id");
    browser.call(
        &format!("/element/{decode_box}/value"),
        &json!({ "text": "\u{E009}a\u{E009}\u{E003}" }),
    );
    browser.wait_for("#id-error", str::is_empty);
    // Submitted empty, it is not sent, and nothing else changes.
    let before = (browser.url(), browser.value("#dc"));
    browser.click("#decode button[type=submit]");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!((browser.url(), browser.value("#dc")), before);
    assert_eq!(browser.value("#dc"), "32");
    // All of it ran under the page's policy, which refused nothing.
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
    // A picture of the page as a phone shows it, for the README.
    browser.open(&format!(
        "http://{}/?ts=2022-06-28T16:07:40.105Z&dc=11&machine=26&seq=0",
        server.addr
    ));
    // Phone-sized: nothing wider than the screen, the Copy button shown by the script.
    let fits = browser.call(
        "/execute/sync",
        &json!({"script": "return document.documentElement.scrollWidth <= window.innerWidth", "args": []}),
    );
    assert_eq!(fits, json!(true));
    assert_eq!(browser.text("#copy"), "Copy");
    let png = browser.screenshot();
    assert_eq!(&png[1..4], b"PNG");
    if let Ok(path) = std::env::var("SNOWFLAKE_SERVER_SCREENSHOT") {
        std::fs::write(path, png).unwrap();
    }
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
    // The policy holds, and its refusals reach the log read above: a script added to the
    // page does not run.
    let ran = browser.run(
        "const s = document.createElement('script'); s.textContent = 'window.injected = 1'; \
         document.body.append(s); return window.injected === 1",
    );
    assert_eq!(ran, json!(false));
    let refused = browser.csp_violations();
    assert!(
        refused.len() == 1 && refused[0].contains("script-src"),
        "{refused:?}"
    );
}

#[test]
#[ignore = "needs Chromium, chromedriver and axe-core (npm): bash scripts/test.sh installs them"]
fn axe_finds_no_accessibility_violation() {
    let axe = axe_source();
    let server = Server::start(&[]);
    let browser = Browser::start(true);
    let mut found = Vec::new();
    // As a first visit shows it, and with errors from the server.
    for (state, path) in [
        ("first visit", "/"),
        ("every field wrong", "/?ts=x&dc=32&machine=40&seq=5000"),
        ("a bad ID", "/?id=12x"),
    ] {
        browser.open(&format!("http://{}{path}", server.addr));
        found.extend(browser.audit(&axe).iter().map(|v| format!("{state}: {v}")));
    }
    // With errors shown by the script as they are typed.
    browser.open(&format!("http://{}/", server.addr));
    browser.replace("#dc", "32");
    browser.replace("#decode-id", "12x");
    browser.wait_for("#result", |text| text == "Fix the fields marked above.");
    browser.wait_for("#id-error", |text| !text.is_empty());
    found.extend(
        browser
            .audit(&axe)
            .iter()
            .map(|v| format!("typed errors: {v}")),
    );
    assert!(found.is_empty(), "axe found:\n{}", found.join("\n"));
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
    // The audit does look: without its language the page fails it.
    browser.run("document.documentElement.removeAttribute('lang')");
    let found = browser.audit(&axe);
    assert!(
        found.len() == 1 && found[0].starts_with("html-has-lang (serious)"),
        "{found:?}"
    );
}
