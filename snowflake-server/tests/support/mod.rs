//! The server on loopback, as a process of the binary or as the library's service in this
//! process, and `GET` (ureq) and the page's elements (scraper) for the tests; and [`App`],
//! the service's router driven without a socket.
#![allow(dead_code, reason = "each test file uses a part")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use snowflake_server::Config;

mod app;
#[allow(unused_imports, reason = "each test file uses a part")]
pub(crate) use app::{App, respond};

/// The server's binary.
const BINARY: &str = env!("CARGO_BIN_EXE_snowflake-server");

/// A running server on a free loopback port: a process of the binary, killed when dropped,
/// or the library's service in this process, shut down when dropped.
pub(crate) struct Server {
    pub(crate) addr: String,
    running: Running,
}

enum Running {
    Process(Child),
    /// `serve` on a runtime of its own thread, until `stop` is sent or dropped.
    InProcess {
        stop: Option<tokio::sync::oneshot::Sender<()>>,
        thread: Option<std::thread::JoinHandle<Result<(), snowflake_server::ServeError>>>,
    },
}

impl Server {
    /// The binary on a free port with `args`; waits for its "listening on" line.
    pub(crate) fn start(args: &[&str]) -> Server {
        Server::start_with_env(args, &[])
    }

    /// As `start`, with environment variables set.
    pub(crate) fn start_with_env(args: &[&str], env: &[(&str, &str)]) -> Server {
        Server::spawn(Command::new(BINARY), args, env, Stdio::inherit())
    }

    /// As `start_with_env`, its stderr (the log) written to `log`.
    pub(crate) fn start_logging(
        args: &[&str],
        env: &[(&str, &str)],
        log: &std::path::Path,
    ) -> Server {
        let file = std::fs::File::create(log).expect("a log file");
        // What a test reads in the log is said at `info`, whatever RUST_LOG the tests ran with.
        let mut env = env.to_vec();
        if !env.iter().any(|&(name, _)| name == "RUST_LOG") {
            env.push(("RUST_LOG", "info"));
        }
        Server::spawn(Command::new(BINARY), args, &env, Stdio::from(file))
    }

    /// As `start`, under a limit of `files` open files, soft and hard: one it cannot raise.
    pub(crate) fn start_with_open_files(files: u32, args: &[&str]) -> Server {
        let mut limited = Command::new("sh");
        let exec = format!(r#"ulimit -n {files} && exec "$0" "$@""#);
        limited.args(["-c", &exec, BINARY]);
        Server::spawn(limited, args, &[], Stdio::inherit())
    }

    /// `command`, which runs the server, on a free port with `args`; waits for its
    /// "listening on" line.
    fn spawn(mut command: Command, args: &[&str], env: &[(&str, &str)], stderr: Stdio) -> Server {
        let mut child = command
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("the server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("snowflake-server listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Server {
            addr,
            running: Running::Process(child),
        }
    }

    /// The library's `serve` of `config` in this process, on a free port.
    pub(crate) fn in_process(config: Config) -> Server {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a free port");
        let addr = listener.local_addr().expect("its address").to_string();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            runtime.block_on(snowflake_server::serve(listener, config, async {
                let _ = stopped.await;
            }))
        });
        Server {
            addr,
            running: Running::InProcess {
                stop: Some(stop),
                thread: Some(thread),
            },
        }
    }

    /// The service in this process with the identity (`dc`, `machine`), unleased.
    pub(crate) fn unleased(dc: u64, machine: u64) -> Server {
        let identity = snowflake_kit::Identity::new(dc, machine).expect("an identity");
        Server::in_process(Config::unleased(identity))
    }

    pub(crate) fn get(&self, path: &str) -> Response {
        get(&self.addr, path)
    }

    /// Waits until `/readyz` says 200: a leased server answers before it holds its
    /// identity.
    pub(crate) fn ready(self) -> Server {
        let ready = || (self.get("/readyz").status == 200).then_some(());
        let still = || format!("not ready in 20 s: {}", self.get("/readyz").body);
        wait_until(Duration::from_secs(20), ready, still);
        self
    }

    /// The process's id.
    pub(crate) fn pid(&self) -> u32 {
        let Running::Process(child) = &self.running else {
            panic!("a process has an id: start the server with Server::start");
        };
        child.id()
    }

    /// SIGTERM, then its exit status.
    pub(crate) fn terminate(self) -> std::process::ExitStatus {
        self.signal("-TERM")
    }

    /// A signal (`-TERM`, `-INT`) to the process, then its exit status.
    pub(crate) fn signal(mut self, signal: &str) -> std::process::ExitStatus {
        let Running::Process(child) = &mut self.running else {
            panic!("a signal goes to a process: start the server with Server::start");
        };
        let pid = child.id().to_string();
        Command::new("kill").args([signal, &pid]).status().unwrap();
        child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        match &mut self.running {
            Running::Process(child) => {
                let _ = child.kill();
                let _ = child.wait();
            }
            Running::InProcess { stop, thread } => {
                drop(stop.take());
                if let Some(thread) = thread.take() {
                    let served = thread.join();
                    // A test that failed already is not failed again by its server.
                    if !std::thread::panicking()
                        && let Err(e) = served.expect("the server's thread")
                    {
                        panic!("served: {e}");
                    }
                }
            }
        }
    }
}

/// A response: status, headers, body.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) headers: axum::http::HeaderMap,
    pub(crate) body: String,
}

impl Response {
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        let value = self.headers.get(name)?;
        Some(value.to_str().expect("a header in ASCII"))
    }

    /// The text inside the element of the body whose `id` is `id`, tags dropped.
    pub(crate) fn text_of(&self, id: &str) -> String {
        element_text(&self.body, id)
    }
}

/// What `found` finds, asked every 20 ms for up to `limit`; past it, a panic with what
/// `still` says then.
pub(crate) fn wait_until<T>(
    limit: Duration,
    mut found: impl FnMut() -> Option<T>,
    still: impl Fn() -> String,
) -> T {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(found) = found() {
            return found;
        }
        assert!(Instant::now() < deadline, "{}", still());
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The IDs that `GET path` answers: one from `/v1/id`, a list from `/v1/ids`.
pub(crate) fn fetch_ids(addr: &str, path: &str) -> Vec<String> {
    ids_in(&get(addr, path).json())
}

/// The IDs of an answer of `/v1/id` (one) or `/v1/ids` (a list).
pub(crate) fn ids_in(answer: &serde_json::Value) -> Vec<String> {
    let text = |v: &serde_json::Value| v.as_str().expect("IDs are strings").to_owned();
    match answer.get("ids") {
        Some(ids) => ids.as_array().expect("a list").iter().map(text).collect(),
        None => vec![text(&answer["id"])],
    }
}

/// The IDs that `threads` fetched, all of them, checked to be all different; their count.
pub(crate) fn count_distinct(threads: Vec<std::thread::JoinHandle<Vec<String>>>) -> usize {
    let mut all = Vec::new();
    for thread in threads {
        all.extend(thread.join().expect("a fetching thread"));
    }
    let count = all.len();
    let distinct: std::collections::HashSet<String> = all.into_iter().collect();
    assert_eq!(distinct.len(), count, "IDs repeated");
    count
}

/// Eight clients at once, each asking 100 times through `fetch` (ten batches of
/// `/v1/ids?count=100` and 90 single IDs, interleaved): every ID they got, checked to be
/// all different; their count.
pub(crate) fn eight_clients(fetch: impl Fn(&str) -> Vec<String> + Clone + Send + 'static) -> usize {
    let threads = (0..8)
        .map(|n| {
            let fetch = fetch.clone();
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                for i in 0..100 {
                    let path = if (i + n) % 10 == 0 {
                        "/v1/ids?count=100"
                    } else {
                        "/v1/id"
                    };
                    ids.extend(fetch(path));
                }
                ids
            })
        })
        .collect();
    count_distinct(threads)
}

/// `GET path` on a fresh connection (a client of its own), whatever the status: a redirect
/// is the answer, not followed.
pub(crate) fn get(addr: &str, path: &str) -> Response {
    let client: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .timeout_global(Some(Duration::from_secs(30)))
        .build()
        .into();
    let mut answer = client
        .get(format!("http://{addr}{path}"))
        .call()
        .unwrap_or_else(|e| panic!("GET {path}: {e}"));
    Response {
        status: answer.status().as_u16(),
        headers: answer.headers().clone(),
        body: answer.body_mut().read_to_string().expect("a body in UTF-8"),
    }
}

/// The events of a server's log in JSON lines (as it writes them when stderr is not a
/// terminal), every line checked to be one.
pub(crate) fn json_lines(log: &str) -> Vec<serde_json::Value> {
    let event = |line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    log.lines().map(event).collect()
}

/// The message of the one ERROR event in a server's stderr, in JSON lines.
pub(crate) fn error_event(stderr: &[u8]) -> String {
    let stderr = std::str::from_utf8(stderr).expect("UTF-8");
    let events = json_lines(stderr);
    let errors: Vec<&serde_json::Value> = events.iter().filter(|e| e["level"] == "ERROR").collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    errors[0]["message"].as_str().expect("a message").to_owned()
}

/// A path as a flag's value.
pub(crate) fn text(path: &std::path::Path) -> String {
    path.to_str().expect("a UTF-8 path").to_owned()
}

/// The flags of an `--auto` server on every member of `etcd`'s mutual-TLS cluster.
pub(crate) fn tls_auto_args(etcd: &snowflake_test_support::Etcd) -> Vec<String> {
    [
        "--etcd".to_owned(),
        etcd.endpoints(),
        "--auto".to_owned(),
        "--etcd-ca".to_owned(),
        text(&etcd.ca()),
        "--etcd-cert".to_owned(),
        text(&etcd.client_cert()),
        "--etcd-key".to_owned(),
        text(&etcd.client_key()),
    ]
    .into()
}

/// `css`, read as a browser reads a selector.
pub(crate) fn selector(css: &str) -> scraper::Selector {
    scraper::Selector::parse(css).unwrap_or_else(|e| panic!("{css}: {e}"))
}

/// The text inside the element of `html` whose `id` is `id`, as a browser reads the page
/// (html5ever, through scraper).
///
/// # Panics
///
/// When there is no such element.
pub(crate) fn element_text(html: &str, id: &str) -> String {
    let page = scraper::Html::parse_document(html);
    let element = page.select(&selector(&format!("#{id}"))).next();
    element
        .unwrap_or_else(|| panic!("no #{id}"))
        .text()
        .collect()
}
