//! The page in a real browser: Debian's headless Chromium, driven through
//! chromedriver's `WebDriver` API (fantoccini), under the page's Content-Security-Policy; the
//! accessibility audit is axe-core's, run in the page. Each case runs twice: on the page
//! that `snowflake-server` serves, and on the static site of `scripts/site.sh`, served by a
//! plain file server (tower-http's) under a sub-path with no `snowflake-server` running,
//! where the WebAssembly module computes what the server would (the `_static` tests). The
//! tests are ignored by a plain `cargo test` (`needs Chromium ...`) and run by the test
//! command with `--include-ignored`; run without what they need, they fail, saying what to
//! install.

mod support;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use axum::Router;
use axum::response::Html;
use fantoccini::Locator;
use fantoccini::elements::Element;
use fantoccini::error::CmdError;
use fantoccini::key::Key;
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use snowflake_kit::layout::TWITTER_EPOCH_MS;
use snowflake_kit::{SystemClock, compose};
use snowflake_page::{Hosting, Lang, Words};
use snowflake_test_support::clock::StoppedClock;
use support::{Server, element_text, get, wait_until};
use tempfile::TempDir;
use tower_http::services::ServeDir;

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

    /// The static site under a sub-path, as a project page is hosted.
    fn static_site() -> Host {
        Host::Static(StaticSite::serve("/sub"))
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

/// The static site, written once per run by `scripts/site.sh`, served by a plain static
/// file server (tower-http's `ServeDir`) on a free loopback port, while it lives.
struct StaticSite {
    addr: String,
    /// The path the site is under: `/sub` or nothing.
    under: &'static str,
    _serving: tokio::runtime::Runtime,
}

impl StaticSite {
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
            // Built where cargo is told to build, not in `target/`: the script once read the
            // module from `target/` whatever `CARGO_TARGET_DIR` said, and failed, or shipped
            // a stale one. A relative path, as many set it; CI's own step builds there too.
            let built = Command::new("bash")
                .arg(root.join("scripts/site.sh"))
                .arg(folder.join("site"))
                .env("CARGO_TARGET_DIR", "target/site-build")
                .current_dir(&root)
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
        let files = ServeDir::new(StaticSite::folder());
        let site = match under {
            "" => Router::new().fallback_service(files),
            _ => Router::new().nest_service(under, files),
        };
        let (serving, addr) = serve(site);
        StaticSite {
            addr,
            under,
            _serving: serving,
        }
    }
}

/// `app` on a free loopback port: served while the runtime it returns lives.
fn serve(app: Router) -> (tokio::runtime::Runtime, String) {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a free port");
    let addr = listener.local_addr().expect("its address").to_string();
    runtime.spawn(async { axum::serve(listener, app).await });
    (runtime, addr)
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

/// Where `scripts/test.sh` installs `tool` with npm, `under` target/ (or where
/// `$variable` says).
///
/// # Panics
///
/// When it is not there, saying how to install it.
fn installed(tool: &str, variable: &str, under: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../target");
    let path = std::env::var(variable).unwrap_or_else(|_| format!("{root}/{under}"));
    assert!(
        std::path::Path::new(&path).exists(),
        "{tool} is not at {path}: run `bash scripts/test.sh`, which installs it with npm, or \
         set {variable} to where it is"
    );
    path
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

/// A fresh profile directory, removed when dropped. One per browser: a second Chromium
/// given a profile in use hands its window to the first and exits, and two tests then
/// share one browser.
fn profile() -> TempDir {
    TempDir::with_prefix("snowflake-server-chromium-").expect("a profile directory")
}

/// A `WebDriver` session (fantoccini's client) on a chromedriver of its own, driven from
/// the test's thread: each call runs to its end on the browser's own runtime.
struct Browser {
    client: fantoccini::Client,
    runtime: tokio::runtime::Runtime,
    driver: Child,
    /// Chromium's, until the browser is gone.
    _profile: TempDir,
}

/// chromedriver's `POST /session/{id}/se/log`, beyond the standard: the browser's console.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (
            axum::http::Method::POST,
            Some(json!({"type": "browser"}).to_string()),
        )
    }
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
        let listening = || std::net::TcpStream::connect(&addr).ok();
        wait_until(Duration::from_secs(20), listening, || {
            "chromedriver did not start".to_owned()
        });
        let profile = profile();
        // 2 blocks scripts, as a person who turned JavaScript off has it.
        let scripts = if javascript { 1 } else { 2 };
        // The browser's console, CSP violations included, for `csp_violations`.
        let capabilities = json!({"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium", "args": chromium_flags(profile.path()),
            "prefs": {"profile.managed_default_content_settings.javascript": scripts,
                "intl.accept_languages": languages}
        }, "goog:loggingPrefs": {"browser": "ALL"}});
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        let client = runtime
            .block_on(
                fantoccini::ClientBuilder::new(HttpConnector::new())
                    .capabilities(serde_json::from_value(capabilities).expect("an object"))
                    .connect(&format!("http://{addr}")),
            )
            .unwrap_or_else(|e| panic!("a session of chromedriver: {e}"));
        Browser {
            client,
            runtime,
            driver,
            _profile: profile,
        }
    }

    /// Runs `call` to its end on the browser's runtime; a `WebDriver` error is a panic.
    fn done<T>(&self, call: impl Future<Output = Result<T, CmdError>>) -> T {
        self.runtime
            .block_on(call)
            .unwrap_or_else(|e| panic!("WebDriver: {e}"))
    }

    fn open(&self, url: &str) {
        self.done(self.client.goto(url));
    }

    fn url(&self) -> String {
        self.done(self.client.current_url()).into()
    }

    /// Runs `script` in the page, as `WebDriver` does: outside the page's own policy.
    fn run(&self, script: &str) -> Value {
        self.done(self.client.execute(script, Vec::new()))
    }

    /// Runs `script`, which ends by calling its last argument, after `args`.
    fn run_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.done(self.client.execute_async(script, args))
    }

    /// Sets the window's size, as a wider screen would have it.
    fn resize(&self, width: u32) {
        self.done(self.client.set_window_size(width, 1000));
    }

    /// What Chromium's console said since the last call.
    fn console(&self) -> Vec<String> {
        let log = self.done(self.client.issue_cmd(BrowserLog));
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
        let found = self.run_async(
            r#"
                const done = arguments[arguments.length - 1];
                axe.run(document, { resultTypes: ["violations"] }).then(
                  (r) => done(r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n` +
                    v.nodes.map((n) => `  ${n.target.join(" ")}: ${n.failureSummary}`).join("\n"))),
                  (e) => done([`axe failed: ${e}`]));
            "#,
            Vec::new(),
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

    fn element(&self, css: &str) -> Element {
        self.done(self.client.find(Locator::Css(css)))
    }

    /// The text of `css`, or nothing while there is no such element.
    fn text(&self, css: &str) -> String {
        let text = async { self.client.find(Locator::Css(css)).await?.text().await };
        self.runtime.block_on(text).unwrap_or_default()
    }

    fn value(&self, css: &str) -> String {
        let element = self.element(css);
        self.done(element.prop("value")).unwrap_or_default()
    }

    fn click(&self, css: &str) {
        let element = self.element(css);
        self.done(element.click());
    }

    /// Types `text` in place of what `css` holds, as a person does it: select all (Ctrl+A),
    /// delete (Backspace), type; every step an input event, an emptied field included.
    fn replace(&self, css: &str, text: &str) {
        let element = self.element(css);
        let (ctrl, backspace) = (char::from(Key::Control), char::from(Key::Backspace));
        self.done(element.send_keys(&format!("{ctrl}a{ctrl}{backspace}{text}")));
    }

    /// Waits up to 10 s for the text of `css` to satisfy `check`.
    fn wait_for(&self, css: &str, check: impl Fn(&str) -> bool) -> String {
        let found = || Some(self.text(css)).filter(|text| check(text));
        let still = || {
            let text = self.text(css);
            format!(
                "{css} still reads {text:?}; the console: {:?}",
                self.console()
            )
        };
        wait_until(Duration::from_secs(10), found, still)
    }

    fn screenshot(&self) -> Vec<u8> {
        self.done(self.client.screenshot())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.runtime.block_on(self.client.clone().close());
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
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
    let hidden = browser.run("return document.getElementById('copy').hidden");
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
        text == "Enter an ID: in decimal digits, or in the 13 characters of its base32 form."
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
        text == "x (character 3) is not a digit: a Snowflake ID is written in decimal digits only, or in 13 characters of base32."
    });
    // Emptied as a person does it (select all, backspace), the decode box drops its error.
    browser.replace("#decode-id", "");
    browser.wait_for("#id-error", str::is_empty);
    // Submitted empty, it is not sent, and nothing else changes.
    let before = (browser.url(), browser.value("#dc"));
    browser.click("#decode button[type=submit]");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!((browser.url(), browser.value("#dc")), before);
    assert_eq!(browser.value("#dc"), "7");
    assert_eq!(browser.text("#id"), "4195225600");
    // Base32, as the result shows it, decodes as the digits do.
    browser.replace("#decode-id", "user_1asd13xh1f8oo");
    browser.wait_for("#base32", |text| text == "1ASD13XH1F800");
    // All of it ran under the page's policy, which refused nothing.
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
    // A picture of the page as a phone shows it, for the README.
    open(
        &browser,
        host,
        "/en/?ts=2022-06-28T16:07:40.105Z&dc=11&machine=26&seq=0",
    );
    // Phone-sized: nothing wider than the screen, the Copy button shown by the script.
    let fits = browser.run("return document.documentElement.scrollWidth <= window.innerWidth");
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
    let axe = "axe/node_modules/axe-core/axe.min.js";
    let axe = std::fs::read_to_string(installed("axe-core", "AXE_CORE_JS", axe)).unwrap();
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
            let landed = || browser.url().contains("/en/").then_some(());
            wait_until(Duration::from_secs(10), landed, || {
                format!("the front door stayed at {}", browser.url())
            });
        }
        // The page was rendered once, for no query: until the module has rendered this
        // address's, the result says it is busy.
        let rendered = || {
            let busy = "const r = document.getElementById('result'); \
                        return !r || r.hasAttribute('aria-busy')";
            (browser.run(busy) == json!(false)).then_some(())
        };
        let left = deadline.saturating_duration_since(Instant::now());
        wait_until(left, rendered, || {
            format!(
                "the module did not render; the console: {:?}",
                browser.console()
            )
        });
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
    // Random, but the same in every run.
    let mut random = fastrand::Rng::with_seed(0x2545_F491_4F6C_DD1D);
    let mut next = |most: u64| random.u64(..=most);
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
                let height = height.as_u64().and_then(|h| u32::try_from(h).ok()).unwrap();
                browser.done(browser.client.set_window_size(width, height));
                let name = format!("{dir}/page-{}-{width}.png", lang.trim_matches('/'));
                std::fs::write(name, browser.screenshot()).unwrap();
                browser.resize(width);
            }
        }
    }
    assert_eq!(browser.csp_violations(), Vec::<String>::new());
}

/// Lighthouse's four category scores for `url`, out of 100, and the audits that lost points.
fn lighthouse(url: &str) -> (Vec<(String, u32)>, Vec<String>) {
    let profile = profile();
    let report = profile.path().join("report.json");
    let flags = chromium_flags(&profile.path().join("chromium")).join(" ");
    let command = "lighthouse/node_modules/.bin/lighthouse";
    let run = Command::new(installed("lighthouse", "LIGHTHOUSE", command))
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
    let bare = "<!doctype html><title>Snowflake</title><p>An ID.</p>";
    let (_serving, addr) = serve(Router::new().fallback(move || async move { Html(bare) }));
    let (scores, lost) = lighthouse(&format!("http://{addr}/"));
    assert!(scores.iter().any(|(_, score)| *score < 100), "{scores:?}");
    for audit in ["html-has-lang", "meta-description"] {
        assert!(
            lost.iter().any(|lost| lost.starts_with(audit)),
            "{audit}: {lost:?}"
        );
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
        let arrived = || {
            browser
                .url()
                .starts_with(&format!("{root}{landed}"))
                .then_some(())
        };
        wait_until(Duration::from_secs(10), arrived, || {
            format!("{languages}: at {}", browser.url())
        });
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
    // Random, but the same in every run.
    let mut random = fastrand::Rng::with_seed(0x9E37_79B9_7F4A_7C15);
    let mut next = |bound: u64| random.u64(..bound);
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
    let answers = browser.run_async(
        r#"
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
        "#,
        vec![json!(queries), json!(now)],
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
                &StoppedClock(now),
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
