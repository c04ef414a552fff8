//! The page in a real browser: Debian's headless Chromium, driven through
//! chromedriver's `WebDriver` API, under the page's Content-Security-Policy; the
//! accessibility audit is axe-core's, run in the page. Each case runs twice: on the page
//! that `snowflake-server` serves, and on the static site of `scripts/site.sh`, served by a
//! plain file server under a sub-path with no `snowflake-server` running, where the
//! WebAssembly module computes what the server would (the `_static` tests). The tests are ignored by a plain
//! `cargo test` (`needs Chromium ...`) and run by the test command with `--include-ignored`;
//! run without what they need, they fail, saying what to install.

mod support;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use snowflake_kit::layout::TWITTER_EPOCH_MS;
use snowflake_kit::{SystemClock, compose};
use snowflake_page::{Hosting, Lang, Words};
use support::{Server, element_text, get, post};

/// Where the page is served from.
enum Host {
    /// `snowflake-server`.
    Server(Server),
    /// The static site, and no server.
    Static(StaticSite),
}

impl Host {
    fn server() -> Host {
        Host::Server(Server::start(&[]))
    }

    fn static_site() -> Host {
        Host::Static(StaticSite::serve(StaticSite::SUB_PATH))
    }

    /// The address of `path` (`/he/?dc=1`, or `/` for the page in the browser's language).
    fn url(&self, path: &str) -> String {
        match self {
            Host::Server(server) => format!("http://{}{path}", server.addr),
            Host::Static(site) => format!("http://{}{}{path}", site.addr, site.under),
        }
    }

    /// A link to `path` as the page writes it: from the root on the server, relative in
    /// the static site.
    fn link(&self, path: &str) -> String {
        match self {
            Host::Server(_) => path.to_owned(),
            Host::Static(_) => format!("..{path}"),
        }
    }

    /// What the page for `path` (`/he/?dc=32`) says in the element `id`: the answer the
    /// script must show. The server's answer; for the static site, the renderer's own,
    /// run here, since no server runs.
    fn says(&self, path: &str, id: &str) -> String {
        let html = match self {
            Host::Server(server) => {
                let page = get(&server.addr, path);
                assert_eq!(page.status, 200, "{path}");
                page.body
            }
            Host::Static(_) => {
                let (lang, query) = path.split_once('?').unwrap_or((path, ""));
                let lang = Lang::ALL
                    .into_iter()
                    .find(|l| l.path() == lang)
                    .unwrap_or_else(|| panic!("{path}: not a language's page"));
                let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap();
                snowflake_page::render(Words::of(lang), Hosting::StaticFiles, &pairs, &SystemClock)
            }
        };
        // WebDriver reads a no-break space as a space.
        element_text(&html, id).replace('\u{a0}', " ")
    }
}

/// The static site, written once per run by `scripts/site.sh`, served by Python's
/// `http.server` (a plain static file server) on a free loopback port, until dropped.
struct StaticSite {
    addr: String,
    /// The path the site is under: `/sub` or nothing.
    under: &'static str,
    process: Child,
}

impl StaticSite {
    /// Where most tests find the site: under a sub-path, as a project page is hosted.
    const SUB_PATH: &'static str = "/sub";

    /// The site's folder: built at the first call.
    ///
    /// # Panics
    ///
    /// When `scripts/site.sh` fails, with what it said.
    fn folder() -> &'static std::path::Path {
        static FOLDER: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
        FOLDER.get_or_init(|| {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let folder = root.join(format!("target/site-tests/{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&folder);
            let built = Command::new("bash")
                .arg(root.join("scripts/site.sh"))
                .arg(folder.join("site"))
                .output()
                .unwrap();
            assert!(
                built.status.success(),
                "scripts/site.sh: {}{}",
                String::from_utf8_lossy(&built.stdout),
                String::from_utf8_lossy(&built.stderr)
            );
            folder.join("site")
        })
    }

    /// The site served under `under` (`/sub`, or `""` for the root).
    fn serve(under: &'static str) -> StaticSite {
        let site = StaticSite::folder();
        // The root the server serves holds the site at `under`.
        let root = site.with_file_name(format!("root{}", under.replace('/', "-")));
        if !root.exists() {
            let link = root.join(under.trim_start_matches('/'));
            std::fs::create_dir_all(link.parent().unwrap()).unwrap();
            if under.is_empty() {
                std::os::unix::fs::symlink(site, &root).unwrap();
            } else {
                std::os::unix::fs::symlink(site, &link).unwrap();
            }
        }
        let port = snowflake_test_support::free_port();
        let process = Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--directory",
            ])
            .arg(&root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 serves the static site: `apt-get install python3`");
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(
                Instant::now() < deadline,
                "python3 -m http.server did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        StaticSite {
            addr,
            under,
            process,
        }
    }
}

impl Drop for StaticSite {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// A case run on both hosts: `$served` on `snowflake-server`, `$static_site` on the static
/// site with no server running.
macro_rules! on_both_hosts {
    ($($case:ident => $served:ident, $static_site:ident;)*) => {$(
        #[test]
        #[ignore = "needs Chromium and chromedriver (and for some, axe-core or Lighthouse): bash scripts/test.sh installs them"]
        fn $served() {
            $case(&Host::server());
        }

        #[test]
        #[ignore = "needs Chromium, chromedriver, the wasm32 target and wasm-opt (and for some, axe-core or Lighthouse): bash scripts/test.sh installs them"]
        fn $static_site() {
            $case(&Host::static_site());
        }
    )*};
}

on_both_hosts! {
    typing_updates_the_result_and_shows_errors_beside_their_field => typing_updates_the_result_and_shows_errors_beside_their_field_served, typing_updates_the_result_and_shows_errors_beside_their_field_static;
    axe_finds_no_accessibility_violation_in_any_language => axe_finds_no_accessibility_violation_in_any_language_served, axe_finds_no_accessibility_violation_in_any_language_static;
    each_language_composes_with_script_and_without => each_language_composes_with_script_and_without_served, each_language_composes_with_script_and_without_static;
    an_error_of_every_kind_appears_in_each_language => an_error_of_every_kind_appears_in_each_language_served, an_error_of_every_kind_appears_in_each_language_static;
    the_worked_example_agrees_with_the_runtime_as_you_type => the_worked_example_agrees_with_the_runtime_as_you_type_served, the_worked_example_agrees_with_the_runtime_as_you_type_static;
    the_language_links_keep_the_values_typed => the_language_links_keep_the_values_typed_served, the_language_links_keep_the_values_typed_static;
    hebrew_runs_right_to_left_and_its_bits_left_to_right => hebrew_runs_right_to_left_and_its_bits_left_to_right_served, hebrew_runs_right_to_left_and_its_bits_left_to_right_static;
    each_language_fits_a_phone_and_a_desktop => each_language_fits_a_phone_and_a_desktop_served, each_language_fits_a_phone_and_a_desktop_static;
    lighthouse_scores_every_language_100_for_access_practice_and_search => lighthouse_scores_every_language_100_for_access_practice_and_search_served, lighthouse_scores_every_language_100_for_access_practice_and_search_static;
}

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
        Browser::start_speaking(javascript, "en-US,en")
    }

    /// A headless Chromium whose reader asks for `languages` (`Accept-Language`,
    /// `navigator.languages`).
    fn start_speaking(javascript: bool, languages: &str) -> Browser {
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
                "prefs": {"profile.managed_default_content_settings.javascript": scripts,
                    "intl.accept_languages": languages}
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

    /// Types `text` in place of what `css` holds, as a person does it: select all, delete,
    /// type; every step an input event, an emptied field included.
    fn replace(&self, css: &str, text: &str) {
        let element = self.element(css);
        self.call(
            &format!("/element/{element}/value"),
            &json!({ "text": format!("\u{E009}a\u{E009}\u{E003}{text}") }),
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
    let host = &Host::server();
    let browser = Browser::start(false);
    open(&browser, host, "/?ts=1288834975657&dc=1&machine=1&seq=0");
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
        text == "32 is out of range for the datacenter ID: it holds 0 to 31 (5 bits)."
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
    let page = host.url("/?ts=1288834975657&dc=3&machine=4");
    browser.open(&page);
    browser.click("#decode button[type=submit]");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(browser.url(), page);
    assert_eq!(browser.value("#dc"), "3");
    // Blank, it is sent: its own error, and the other fields an ID of now for 1, 1.
    browser.replace("#decode-id", "  ");
    browser.click("#decode button[type=submit]");
    browser.wait_for("#id-error", |text| {
        text == "Enter an ID: a Snowflake ID is written in decimal digits."
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

fn typing_updates_the_result_and_shows_errors_beside_their_field(host: &Host) {
    let browser = Browser::start(true);
    open(&browser, host, "/en/?ts=1288834975657&dc=1&machine=1&seq=0");
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
    // An error appears beside its field, as the server words it, and what was typed stays.
    browser.replace("#dc", "32");
    browser.wait_for("#dc-error", |text| {
        text == "32 is out of range for the datacenter ID: it holds 0 to 31 (5 bits)."
    });
    // No ID that the fields no longer say.
    browser.wait_for("#result", |text| text == "Fix the fields marked above.");
    assert_eq!(browser.value("#dc"), "32");
    // The decode box: an ID taken apart, its parts put into the form, as the server puts
    // them without a script.
    browser.replace("#decode-id", "4194439168");
    browser.wait_for("#time", |time| time == "2010-11-04T01:42:55.657Z");
    assert_eq!(
        [
            browser.value("#ts"),
            browser.value("#dc"),
            browser.value("#machine"),
            browser.value("#seq")
        ],
        ["2010-11-04T01:42:55.657Z", "1", "1", "0"]
    );
    browser.wait_for("#dc-error", str::is_empty);
    // An ID that is not one shows its error and leaves the form and its result alone.
    browser.replace("#dc", "7");
    browser.wait_for("#id", |id| id == "4195225600");
    browser.replace("#decode-id", "12x");
    browser.wait_for("#id-error", |text| {
        text == "x (character 3) is not a digit: a Snowflake ID is written in decimal digits only."
    });
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
    assert_eq!(browser.value("#dc"), "7");
    assert_eq!(browser.text("#id"), "4195225600");
    // All of it ran under the page's policy, which refused nothing.
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
    // A picture of the page as a phone shows it, for the README.
    open(
        &browser,
        host,
        "/en/?ts=2022-06-28T16:07:40.105Z&dc=11&machine=26&seq=0",
    );
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

fn axe_finds_no_accessibility_violation_in_any_language(host: &Host) {
    let axe = axe_source();
    let browser = Browser::start(true);
    let mut found = Vec::new();
    // `/` is the page in the browser's language on the server; in the static site, the
    // front door sends the reader on to it.
    for lang in ["/", "/id/", "/he/", "/en/"] {
        // As a first visit shows it, and with errors from the server.
        for (state, query) in [
            ("first visit", ""),
            ("every field wrong", "?ts=x&dc=32&machine=40&seq=5000"),
            ("a bad ID", "?id=12x"),
            ("a decoded ID", "?id=1541815603606036480"),
        ] {
            open(&browser, host, &format!("{lang}{query}"));
            found.extend(
                browser
                    .audit(&axe)
                    .iter()
                    .map(|v| format!("{lang}{query} ({state}): {v}")),
            );
        }
        // With errors shown by the script as they are typed.
        open(&browser, host, lang);
        let stale = browser.text("#result");
        browser.replace("#dc", "32");
        browser.replace("#decode-id", "12x");
        browser.wait_for("#result", |text| text != stale && !text.contains('0'));
        browser.wait_for("#id-error", |text| !text.is_empty());
        found.extend(
            browser
                .audit(&axe)
                .iter()
                .map(|v| format!("{lang} (typed errors): {v}")),
        );
    }
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

/// Opens `path` on `host`; `/` of the static site is its front door, which sends the
/// browser on to its language, waited for here.
fn open(browser: &Browser, host: &Host, path: &str) {
    browser.open(&host.url(path));
    if let Host::Static(_) = host {
        let deadline = Instant::now() + Duration::from_secs(10);
        if path == "/" || path.starts_with("/?") {
            while !browser.url().contains("/en/") {
                assert!(
                    Instant::now() < deadline,
                    "the front door stayed at {}",
                    browser.url()
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        // The page was rendered once, for no query: until the module has rendered this
        // address's, the result says it is busy.
        while browser.run(
            "const r = document.getElementById('result'); return !r || r.hasAttribute('aria-busy')",
        ) != json!(false)
        {
            assert!(
                Instant::now() < deadline,
                "the module did not render; the console: {:?}",
                browser.console()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The page's languages: path, and the text of the datacenter's error for 32.
const LANGUAGES: [&str; 3] = ["/id/", "/he/", "/en/"];

fn each_language_composes_with_script_and_without(host: &Host) {
    // Static files need a script to compute anything: they are read without one in
    // `the_static_site_reads_whole_without_a_script`.
    let modes: &[bool] = match host {
        Host::Server(_) => &[false, true],
        Host::Static(_) => &[true],
    };
    for &javascript in modes {
        let browser = Browser::start(javascript);
        for lang in LANGUAGES {
            open(
                &browser,
                host,
                &format!("{lang}?ts=1288834975657&dc=1&machine=1&seq=0"),
            );
            assert_eq!(browser.text("#id"), "4194439168", "{lang}");
            let direction = browser.run("return getComputedStyle(document.body).direction");
            assert_eq!(
                direction,
                json!(if lang == "/he/" { "rtl" } else { "ltr" }),
                "{lang}"
            );
            // The tweet's fields, typed; without a script, submitted.
            browser.replace("#ts", "2022-06-28T16:07:40.105Z");
            browser.replace("#dc", "11");
            browser.replace("#machine", "26");
            if !javascript {
                browser.click("#compose button[type=submit]");
            }
            browser.wait_for("#id", |id| id == "1541815603606036480");
            assert_eq!(
                browser.text("#binary"),
                "0 00101010110010110100001000111110110001000 01011 11010 000000000000",
                "{lang}"
            );
            // The worked example, for what was typed.
            let worked = browser.text("#worked");
            assert!(worked.contains("1541815603606036480"), "{lang}: {worked}");
            // A wrong value: its error beside it, in the page's language, as the server
            // words it for that value.
            browser.replace("#dc", "32");
            if !javascript {
                browser.click("#compose button[type=submit]");
            }
            let expected = host.says(
                &format!("{lang}?ts=2022-06-28T16%3A07%3A40.105Z&dc=32&machine=26&seq=0"),
                "dc-error",
            );
            browser.wait_for("#dc-error", |text| text == expected);
            let stale = host.says(&format!("{lang}?dc=32&machine=1"), "result");
            browser.wait_for("#result", |text| text == stale.trim());
            assert_eq!(browser.value("#dc"), "32", "{lang}");
            assert_eq!(browser.csp_violations(), Vec::<String>::new(), "{lang}");
        }
    }
}

fn an_error_of_every_kind_appears_in_each_language(host: &Host) {
    let browser = Browser::start(true);
    // One input for each kind of error the runtime returns.
    let fields = [
        ("dc", "-1"),
        ("dc", "+1"),
        ("dc", ""),
        ("seq", "1.5"),
        ("machine", "0x1F"),
        ("seq", "99999999999999999999"),
        ("dc", "32"),
        ("machine", "32"),
        ("seq", "4096"),
        ("ts", "2022-06-28 16:07"),
        ("ts", "2022-02-30T00:00:00Z"),
        ("ts", "2016-12-31T23:59:60Z"),
        ("ts", "2022-06-28T16:07:40.1051Z"),
        ("ts", "1969-12-31T23:59:59Z"),
        ("ts", "1288834974656"),
        ("ts", "3487858230209"),
    ];
    for lang in LANGUAGES {
        open(
            &browser,
            host,
            &format!("{lang}?ts=1288834975657&dc=1&machine=1&seq=0"),
        );
        let mut seen = std::collections::HashSet::new();
        for (field, typed) in fields {
            browser.replace(&format!("#{field}"), typed);
            let mut query = vec![
                ("ts", "1288834975657"),
                ("dc", "1"),
                ("machine", "1"),
                ("seq", "0"),
            ];
            for pair in &mut query {
                if pair.0 == field {
                    pair.1 = typed;
                }
            }
            let query = serde_urlencoded::to_string(&query).unwrap();
            let expected = host.says(&format!("{lang}?{query}"), &format!("{field}-error"));
            assert!(
                !expected.is_empty() && seen.insert(expected.clone()),
                "{lang} {field}={typed:?}"
            );
            browser.wait_for(&format!("#{field}-error"), |text| text == expected);
            // Put right again, before the next.
            let right = if field == "ts" { "1288834975657" } else { "1" };
            browser.replace(&format!("#{field}"), right);
            browser.wait_for(&format!("#{field}-error"), str::is_empty);
        }
        // The decode box's own errors.
        for typed in ["12x", "9223372036854775808", " "] {
            browser.replace("#decode-id", typed);
            if typed == " " {
                // Blank as typed: nothing to decode, and no error.
                browser.wait_for("#id-error", str::is_empty);
                continue;
            }
            let expected = host.says(
                &format!(
                    "{lang}?{}",
                    serde_urlencoded::to_string([("id", typed)]).unwrap()
                ),
                "id-error",
            );
            assert!(seen.insert(expected.clone()), "{lang} id={typed:?}");
            browser.wait_for("#id-error", |text| text == expected);
        }
        assert_eq!(browser.csp_violations(), Vec::<String>::new(), "{lang}");
    }
}

/// `n` grouped by three with `mark`, as a language's prose writes it.
fn grouped(n: u64, mark: char) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(mark);
        }
        out.push(digit);
    }
    out
}

fn the_worked_example_agrees_with_the_runtime_as_you_type(host: &Host) {
    let browser = Browser::start(true);
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % (bound + 1)
    };
    let mut inputs = vec![(0, 0, 0, 0), ((1 << 41) - 1, 31, 31, 4095), (1000, 1, 1, 0)];
    for _ in 0..6 {
        inputs.push((next((1 << 41) - 1), next(31), next(31), next(4095)));
    }
    for lang in LANGUAGES {
        let mark = if lang == "/id/" { '.' } else { ',' };
        open(&browser, host, lang);
        for &(delta, dc, machine, seq) in &inputs {
            let ts = TWITTER_EPOCH_MS + delta;
            let id = compose(ts, dc, machine, seq).unwrap();
            for (field, value) in [("ts", ts), ("dc", dc), ("machine", machine), ("seq", seq)] {
                browser.replace(&format!("#{field}"), &value.to_string());
            }
            let g = |n: u64| grouped(n, mark);
            let delta_line = format!("{} − {} = {}", g(ts), g(TWITTER_EPOCH_MS), g(delta));
            let worked = browser.wait_for("#worked", |text| {
                text.contains(&delta_line) && text.contains(&format!(": {id}."))
            });
            for line in [
                format!("{} − {} = {}", g(ts), g(TWITTER_EPOCH_MS), g(delta)),
                format!("{} << 22 = {}", g(delta), g(delta << 22)),
                format!("{} << 17 = {}", g(dc), g(dc << 17)),
                format!("{} << 12 = {}", g(machine), g(machine << 12)),
                format!(
                    "{} | {} | {} | {} = {} + {} + {} + {} = {}",
                    g(delta << 22),
                    g(dc << 17),
                    g(machine << 12),
                    g(seq),
                    g(delta << 22),
                    g(dc << 17),
                    g(machine << 12),
                    g(seq),
                    g(id.as_u64())
                ),
            ] {
                assert!(worked.contains(&line), "{lang}: {line}\n{worked}");
            }
        }
    }
}

fn the_language_links_keep_the_values_typed(host: &Host) {
    let browser = Browser::start(true);
    open(&browser, host, "/en/");
    browser.replace("#ts", "2022-06-28T16:07:40.105Z");
    browser.replace("#dc", "11");
    browser.replace("#machine", "26");
    browser.wait_for("#id", |id| id == "1541815603606036480");
    // The links follow the typing; a plain link, followed.
    browser.wait_for("#languages", |_| {
        browser.run("return document.querySelector('a[hreflang=he]').getAttribute('href')")
            == json!(host.link("/he/?ts=2022-06-28T16%3A07%3A40.105Z&dc=11&machine=26&seq=0"))
    });
    browser.click("a[hreflang=he]");
    browser.wait_for("#id", |id| id == "1541815603606036480");
    assert!(browser.url().contains("/he/?"), "{}", browser.url());
    assert_eq!(
        browser.run("return document.documentElement.lang"),
        json!("he")
    );
    assert_eq!(
        [
            browser.value("#ts"),
            browser.value("#dc"),
            browser.value("#machine")
        ],
        ["2022-06-28T16:07:40.105Z", "11", "26"]
    );
    // And on to Indonesian, from Hebrew, without a script's help: the server's links.
    // (Static files without a script show the page of a first visit, whatever the link.)
    if matches!(host, Host::Static(_)) {
        return;
    }
    let plain = Browser::start(false);
    open(&plain, host, "/he/?dc=3&machine=4&seq=5&ts=1288834975657");
    plain.click("a[hreflang=id]");
    plain.wait_for("#id", |id| id == "4194713605");
    assert_eq!(
        plain.run("return document.documentElement.lang"),
        json!("id")
    );
    assert_eq!(
        [
            plain.value("#dc"),
            plain.value("#machine"),
            plain.value("#seq")
        ],
        ["3", "4", "5"]
    );
}

fn hebrew_runs_right_to_left_and_its_bits_left_to_right(host: &Host) {
    let browser = Browser::start(true);
    for width in [412, 1280] {
        browser.resize(width);
        open(&browser, host, "/he/?id=1541815603606036480");
        // The page mirrors: the heading and the labels start at the right.
        let edges = browser.run(
            "const w = document.documentElement.clientWidth; \
             const r = (q) => { const range = document.createRange(); \
               range.selectNodeContents(document.querySelector(q)); return range.getBoundingClientRect(); }; \
             const box = (q) => document.querySelector(q).getBoundingClientRect(); \
             const main = box('main'); \
             return [main.right - r('h1').right, r('h1').left - main.left, \
                     main.right - r('label[for=ts]').right, box('#compose').right - box('#ts').right];",
        );
        let [h1_right, h1_left, label_right, ts_right]: [f64; 4] =
            serde_json::from_value(edges).unwrap();
        assert!(
            h1_right < 40.0 && h1_left > 40.0,
            "{width}: {h1_right} {h1_left}"
        );
        assert!(
            label_right < 40.0 && ts_right.abs() < 1.0,
            "{width}: {label_right} {ts_right}"
        );
        // The ID, the bits, the time and the formula run left to right, their segments
        // from the top bit on the left.
        for css in ["#id", "#binary", "#time", "#formula pre", "#layout .scroll"] {
            let direction = browser.run(&format!(
                "return getComputedStyle(document.querySelector('{css}')).direction"
            ));
            assert_eq!(direction, json!("ltr"), "{width}: {css}");
        }
        let lefts = browser.run(
            "return Array.from(document.querySelectorAll('#binary .seg'), (s) => s.getClientRects()[0].left)",
        );
        let lefts: Vec<f64> = serde_json::from_value(lefts).unwrap();
        assert_eq!(lefts.len(), 5);
        assert!(
            lefts[0] < lefts[1] && lefts[2] < lefts[3] && lefts[3] < lefts[4],
            "{width}: {lefts:?}"
        );
        let figure = browser.run(
            "return Array.from(document.querySelectorAll('#layout th'), (c) => c.getBoundingClientRect().left)",
        );
        let figure: Vec<f64> = serde_json::from_value(figure).unwrap();
        assert!(
            figure.windows(2).all(|w| w[0] < w[1]),
            "{width}: {figure:?}"
        );
        // A worked step reads left to right inside the Hebrew sentence.
        let step = browser.run(
            "const s = Array.from(document.querySelectorAll('#worked bdi'), (b) => b.textContent) \
               .find((t) => t.includes('<<')); return [s, getComputedStyle(document.querySelector('#worked bdi')).direction]",
        );
        assert_eq!(
            step,
            json!(["367,597,485,448 << 22 = 1,541,815,603,604,488,192", "ltr"])
        );
        // Nothing wider than the screen.
        let fits = browser.run("return document.documentElement.scrollWidth <= window.innerWidth");
        assert_eq!(fits, json!(true), "{width}");
    }
}

fn each_language_fits_a_phone_and_a_desktop(host: &Host) {
    let browser = Browser::start(true);
    for lang in LANGUAGES {
        for width in [412, 1280] {
            browser.resize(width);
            open(
                &browser,
                host,
                &format!("{lang}?ts=2022-06-28T16:07:40.105Z&dc=11&machine=26&seq=0"),
            );
            let fits =
                browser.run("return document.documentElement.scrollWidth <= window.innerWidth");
            assert_eq!(fits, json!(true), "{lang} at {width}");
            // For a person to look at: SNOWFLAKE_SERVER_SCREENSHOTS=DIR keeps each.
            if let Ok(dir) = std::env::var("SNOWFLAKE_SERVER_SCREENSHOTS") {
                let height = browser.run("return document.documentElement.scrollHeight");
                browser.call("/window/rect", &json!({ "width": width, "height": height }));
                let name = format!("{dir}/page-{}-{width}.png", lang.trim_matches('/'));
                std::fs::write(name, browser.screenshot()).unwrap();
                browser.resize(width);
            }
        }
    }
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
}

/// Lighthouse's command, where `scripts/test.sh` installs it (or `$LIGHTHOUSE`).
///
/// # Panics
///
/// When it is not there, saying how to install it.
fn lighthouse_command() -> String {
    let path = std::env::var("LIGHTHOUSE").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../target/lighthouse/node_modules/.bin/lighthouse"
        )
        .to_owned()
    });
    assert!(
        std::path::Path::new(&path).exists(),
        "lighthouse is not at {path}: run `bash scripts/test.sh`, which installs it with npm, \
         or set LIGHTHOUSE to its command"
    );
    path
}

/// Lighthouse's four category scores for `url`, out of 100, and the audits that lost points.
fn lighthouse(url: &str) -> (Vec<(String, u32)>, Vec<String>) {
    let profile = profile("lighthouse");
    let report = profile.with_extension("json");
    let flags = chromium_flags(&profile).join(" ");
    let run = Command::new(lighthouse_command())
        .args([
            url,
            "--quiet",
            "--output=json",
            &format!("--output-path={}", report.display()),
            &format!("--chrome-flags={flags}"),
            // Performance is timing: reported by scripts/bench/lighthouse.sh on an idle
            // machine, never judged by a test.
            "--only-categories=accessibility,best-practices,seo",
        ])
        .env("CHROME_PATH", "/usr/bin/chromium")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "lighthouse: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let json: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let _ = std::fs::remove_file(&report);
    let _ = std::fs::remove_dir_all(&profile);
    let scores = json["categories"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, category)| {
            let score = category["score"].as_f64().unwrap_or(0.0);
            // Lighthouse's scores are hundredths: written as a whole percentage.
            let percent = format!("{:.0}", score * 100.0).parse().unwrap();
            (name.clone(), percent)
        })
        .collect();
    let lost = json["audits"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, audit)| {
            audit["scoreDisplayMode"] == "binary" && audit["score"].as_f64() == Some(0.0)
        })
        .map(|(id, audit)| format!("{id}: {}", audit["title"]))
        .collect();
    (scores, lost)
}

fn lighthouse_scores_every_language_100_for_access_practice_and_search(host: &Host) {
    for lang in LANGUAGES {
        let (scores, lost) = lighthouse(&host.url(lang));
        assert_eq!(
            scores,
            [
                ("accessibility".to_owned(), 100),
                ("best-practices".to_owned(), 100),
                ("seo".to_owned(), 100)
            ],
            "{lang}: {lost:?}"
        );
    }
    // It does look (once): a page without a language or a description loses points for
    // each.
    if matches!(host, Host::Static(_)) {
        return;
    }
    let bare = BarePage::serve("<!doctype html><title>Snowflake</title><p>An ID.</p>");
    let (scores, lost) = lighthouse(&format!("http://{}/", bare.addr));
    assert!(scores.iter().any(|(_, score)| *score < 100), "{scores:?}");
    for audit in ["html-has-lang", "meta-description"] {
        assert!(
            lost.iter().any(|lost| lost.starts_with(audit)),
            "{audit}: {lost:?}"
        );
    }
}

/// One HTML page on a free loopback port, whatever the path, until dropped.
struct BarePage {
    addr: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl BarePage {
    fn serve(html: &'static str) -> BarePage {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = std::sync::Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            // Bounded: a minute at most, whatever the test does.
            let deadline = Instant::now() + Duration::from_secs(60);
            while !stopped.load(Ordering::Relaxed) && Instant::now() < deadline {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
                let mut request = [0; 4096];
                let _ = stream.read(&mut request);
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{html}",
                    html.len()
                );
            }
        });
        BarePage {
            addr,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for BarePage {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The static site without a script: each page whole, the explanation and the form, the
/// front door's plain links to each language.
#[test]
#[ignore = "needs Chromium, chromedriver, the wasm32 target and wasm-opt: bash scripts/test.sh installs them"]
fn the_static_site_reads_whole_without_a_script() {
    let host = &Host::static_site();
    let browser = Browser::start(false);
    for (lang, heading) in [
        ("/id/", "Generator ID Snowflake"),
        ("/he/", "מחולל מזהי Snowflake"),
        ("/en/", "Snowflake ID generator"),
    ] {
        browser.open(&host.url(lang));
        assert_eq!(browser.text("h1"), heading, "{lang}");
        // Rendered when the site was written: an ID of that time, for 1, 1.
        let id: u64 = browser.text("#id").parse().unwrap();
        assert_eq!(id >> 12 & 0x3ff, 1 << 5 | 1, "{lang}");
        for section in [
            "#about",
            "#structure",
            "#formula",
            "#example",
            "#limits",
            "#faq",
            "#sources",
        ] {
            assert!(!browser.text(section).is_empty(), "{lang}{section}");
        }
        assert!(browser.text("#worked").contains(&id.to_string()), "{lang}");
        assert_eq!(browser.csp_violations(), Vec::<String>::new(), "{lang}");
    }
    // The front door: a plain link to each language, named in that language.
    browser.open(&host.url("/"));
    assert_eq!(browser.url(), host.url("/"));
    assert_eq!(
        browser
            .text("#languages")
            .lines()
            .map(|l| l.split(' ').next().unwrap_or_default().to_owned())
            .collect::<Vec<_>>(),
        ["Bahasa", "עברית", "English"]
    );
    browser.click("a[hreflang=he]");
    browser.wait_for("h1", |h| h == "מחולל מזהי Snowflake");
    assert_eq!(browser.url(), host.url("/he/"));
}

/// The front door sends a reader on to the language their browser asks for, as the server
/// negotiates `/`, with the query; the site at the root of its host.
#[test]
#[ignore = "needs Chromium, chromedriver, the wasm32 target and wasm-opt: bash scripts/test.sh installs them"]
fn the_front_door_sends_a_reader_to_their_language() {
    let site = StaticSite::serve("");
    let root = format!("http://{}", site.addr);
    for (languages, landed) in [
        ("he-IL,he,en", "/he/"),
        ("fr-CH,id,en", "/id/"),
        ("fr,de", "/en/"),
        ("en-GB,he", "/en/"),
    ] {
        let browser = Browser::start_speaking(true, languages);
        browser.open(&format!("{root}/?ts=1288834975657&dc=3&machine=4"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !browser.url().starts_with(&format!("{root}{landed}")) {
            assert!(
                Instant::now() < deadline,
                "{languages}: at {}",
                browser.url()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(
            browser.url(),
            format!("{root}{landed}?ts=1288834975657&dc=3&machine=4"),
            "{languages}"
        );
        let expected = compose(1_288_834_975_657, 3, 4, 0).unwrap().to_string();
        browser.wait_for("#id", |id| id == expected);
        assert_eq!(browser.value("#dc"), "3", "{languages}");
        assert!(
            browser.console().is_empty(),
            "{languages}: {:?}",
            browser.console()
        );
    }
}

/// A clock that reads `self.0`: the time given to the module, given here too.
struct At(u64);

impl snowflake_kit::Clock for At {
    fn now_ms(&self) -> u64 {
        self.0
    }
}

/// The compose form's query for these four values.
fn compose_query(ts: &str, dc: &str, machine: &str, seq: &str) -> String {
    serde_urlencoded::to_string([("ts", ts), ("dc", dc), ("machine", machine), ("seq", seq)])
        .unwrap()
}

/// The queries the module and the native renderer are compared over: both ends of every
/// field and one past them, the epoch, 2080, RFC 3339 in its forms, text that is not a
/// number, IDs at their edges, and random values, in range and out.
fn agreement_queries() -> Vec<String> {
    const MAX_MS: u64 = TWITTER_EPOCH_MS + (1 << 41) - 1;
    let mut queries = Vec::new();
    let timestamps = [
        "0".to_owned(),
        (TWITTER_EPOCH_MS - 1).to_string(),
        TWITTER_EPOCH_MS.to_string(),
        (TWITTER_EPOCH_MS + 1).to_string(),
        MAX_MS.to_string(),
        (MAX_MS + 1).to_string(),
        u64::MAX.to_string(),
        "18446744073709551616".to_owned(),
        "2010-11-04T01:42:54.657Z".to_owned(),
        "2010-11-04T01:42:54.656Z".to_owned(),
        "2080-07-10T17:30:30.208Z".to_owned(),
        "2080-07-10T17:30:30.209Z".to_owned(),
        "2022-06-28T18:07:40.105+02:00".to_owned(),
        "2022-06-28t16:07:40.105z".to_owned(),
        "2022-06-28T16:07:40Z".to_owned(),
        "2022-02-30T00:00:00Z".to_owned(),
        "2016-12-31T23:59:60Z".to_owned(),
        "2022-06-28T16:07:40.1051Z".to_owned(),
        "2022-06-28T16:07:40.1050Z".to_owned(),
        "1969-12-31T23:59:59Z".to_owned(),
        "2022-06-28 16:07".to_owned(),
        String::new(),
        " 1288834975657 ".to_owned(),
        "abc".to_owned(),
        "1e3".to_owned(),
        "+1".to_owned(),
        "-1".to_owned(),
        "٣".to_owned(),
    ];
    for ts in &timestamps {
        queries.push(compose_query(ts, "1", "1", "0"));
    }
    for value in [
        "0",
        "31",
        "32",
        "-1",
        "",
        "x",
        "1.5",
        "0x1F",
        "99999999999999999999",
        " 7 ",
    ] {
        queries.push(compose_query("1288834975657", value, "1", "0"));
        queries.push(compose_query("1288834975657", "1", value, "0"));
    }
    for seq in ["0", "4095", "4096", "", "-0", "4e3"] {
        queries.push(compose_query("1288834975657", "1", "1", seq));
    }
    queries.push(compose_query("x", "32", "-1", "4096"));
    let ids = [
        "0",
        "1",
        "4194439168",
        "1541815603606036480",
        "9223372036854775807",
        "9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "12x",
        "",
        " ",
        " 4194439168 ",
    ];
    for id in ids {
        queries.push(serde_urlencoded::to_string([("id", id)]).unwrap());
    }
    // A key given twice: the last counts, on both sides.
    queries.push("dc=32&dc=3&machine=4".to_owned());
    queries.extend(random_queries());
    queries
}

/// Random values, in range and out, and random IDs, for `agreement_queries`.
fn random_queries() -> Vec<String> {
    const MAX_MS: u64 = TWITTER_EPOCH_MS + (1 << 41) - 1;
    let mut queries = Vec::new();
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    for _ in 0..150 {
        let ms = TWITTER_EPOCH_MS - 1000 + next(MAX_MS - TWITTER_EPOCH_MS + 2000);
        let ts = match next(3) {
            0 => ms.to_string(),
            1 => snowflake_kit::Snowflake::first_at(ms.clamp(TWITTER_EPOCH_MS, MAX_MS))
                .unwrap()
                .rfc3339()
                .to_string(),
            _ => String::new(),
        };
        let (dc, machine, seq) = (next(40), next(40), next(5000));
        queries.push(compose_query(
            &ts,
            &dc.to_string(),
            &machine.to_string(),
            &seq.to_string(),
        ));
        queries.push(format!("id={}", next(u64::MAX)));
    }
    queries
}

/// The module in Chromium renders what the renderer renders natively, in every language,
/// for every query of `agreement_queries`.
#[test]
#[ignore = "needs Chromium, chromedriver, the wasm32 target and wasm-opt: bash scripts/test.sh installs them"]
fn the_module_in_the_browser_agrees_with_the_native_renderer() {
    let host = &Host::static_site();
    let browser = Browser::start(true);
    open(&browser, host, "/en/");
    let queries = agreement_queries();
    // A time of its own, not now: both sides render the same blank timestamp.
    let now = 1_700_000_000_123_u64;
    let answers = browser.call(
        "/execute/async",
        &json!({"script": r#"
            const [queries, now, done] = arguments;
            (async () => {
              const bytes = await (await fetch("../snowflake-page.wasm")).arrayBuffer();
              const wasm = (await WebAssembly.instantiate(bytes)).instance.exports;
              const call = (name, text, ...args) => {
                const b = new TextEncoder().encode(text);
                const at = wasm.input(b.length);
                new Uint8Array(wasm.memory.buffer, at, b.length).set(b);
                const length = wasm[name](...args);
                return new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, wasm.output(), length));
              };
              const out = {};
              for (const lang of ["id", "he", "en"]) {
                const words = await (await fetch(`../locales/${lang}.ftl`)).text();
                const loaded = call("words", lang + "\n" + words);
                if (loaded !== "") throw new Error(loaded);
                out[lang] = queries.map((q) => call("render", q, now));
              }
              return out;
            })().then(done, (e) => done(String(e)));
        "#, "args": [queries, now]}),
    );
    let mut compared = 0;
    for lang in Lang::ALL {
        let rendered = answers[lang.tag()]
            .as_array()
            .unwrap_or_else(|| panic!("the module answered {answers}"));
        assert_eq!(rendered.len(), queries.len());
        for (query, answer) in queries.iter().zip(rendered) {
            let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).unwrap();
            let native = snowflake_page::render_parts(
                Words::of(lang),
                Hosting::StaticFiles,
                &pairs,
                &At(now),
            );
            assert_eq!(answer.as_str().unwrap(), native, "{} ?{query}", lang.tag());
            compared += 1;
        }
    }
    assert!(compared > 1_000, "{compared}");
}

/// The static site is small, under its policy, and asks nothing of any other origin.
#[test]
#[ignore = "needs Chromium, chromedriver, the wasm32 target and wasm-opt: bash scripts/test.sh installs them"]
fn the_static_site_is_small_strict_and_self_contained() {
    let host = &Host::static_site();
    let folder = StaticSite::folder();
    let module = std::fs::metadata(folder.join(snowflake_page::MODULE_FILE))
        .unwrap()
        .len();
    assert!(module <= 64 * 1024, "the module is {module} bytes");
    let mut total = 0;
    let mut files = vec![folder.to_path_buf()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else {
            total += std::fs::metadata(&path).unwrap().len();
        }
    }
    assert!(total <= 256 * 1024, "the site is {total} bytes");
    let policy = snowflake_page::content_security_policy(Hosting::StaticFiles);
    for directive in [
        "default-src 'none'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "connect-src 'self'",
    ] {
        assert!(policy.contains(directive), "{policy}");
    }
    assert!(
        !policy.contains("unsafe-inline") && !policy.contains("'unsafe-eval'"),
        "{policy}"
    );
    let browser = Browser::start(true);
    for path in ["/id/?dc=32", "/he/?id=4194439168", "/en/", "/"] {
        open(&browser, host, path);
        let meta = browser.run(
            "return document.querySelector('meta[http-equiv=Content-Security-Policy]').content",
        );
        assert_eq!(meta, json!(policy), "{path}");
        // Every request the page made went to its own origin.
        let foreign = browser.run(
            "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => !n.startsWith(location.origin + '/'))",
        );
        assert_eq!(foreign, json!([]), "{path}");
        let asked = browser.run("return performance.getEntriesByType('resource').length");
        assert!(asked.as_u64() >= Some(3), "{path}: {asked}");
        assert_eq!(browser.console(), Vec::<String>::new(), "{path}");
    }
    // The policy holds: a script put into the page does not run.
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
