//! The server on loopback, as a process of the binary or as the library's service in this
//! process, and a small HTTP/1.1 client for the tests; and [`App`], the service's router
//! driven without a socket.
#![allow(dead_code, reason = "each test file uses a part")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use snowflake_server::Config;

mod app;
#[allow(unused_imports, reason = "each test file uses a part")]
pub(crate) use app::{App, respond};

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
        Server::spawn(args, env, Stdio::inherit())
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
        Server::spawn(args, &env, Stdio::from(file))
    }

    fn spawn(args: &[&str], env: &[(&str, &str)], stderr: Stdio) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
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
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            let response = self.get("/readyz");
            if response.status == 200 {
                return self;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "not ready in 20 s: {}",
                response.body
            );
            std::thread::sleep(Duration::from_millis(20));
        }
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

/// A response: status, headers (lower-case names), body.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Response {
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The text inside the element of the body whose `id` is `id`, tags dropped.
    pub(crate) fn text_of(&self, id: &str) -> String {
        element_text(&self.body, id)
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

/// `GET path` on a fresh connection.
pub(crate) fn get(addr: &str, path: &str) -> Response {
    request(addr, "GET", path, None)
}

/// `DELETE path`, on a fresh connection.
pub(crate) fn request_delete(addr: &str, path: &str) -> Response {
    request(addr, "DELETE", path, None)
}

/// `POST path` with a JSON body, on a fresh connection.
pub(crate) fn post(addr: &str, path: &str, body: &serde_json::Value) -> Response {
    request(addr, "POST", path, Some(body))
}

fn request(addr: &str, method: &str, path: &str, body: Option<&serde_json::Value>) -> Response {
    let mut stream = TcpStream::connect(addr).expect("the server accepts");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let body = body.map(serde_json::Value::to_string).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // Read what the headers announce: some servers (chromedriver) keep the
    // connection open after the answer, whatever the request said.
    let mut raw = Vec::new();
    let mut buffer = [0; 8192];
    let header_end = loop {
        if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = stream.read(&mut buffer).unwrap();
        assert!(n > 0, "the connection closed before the headers ended");
        raw.extend_from_slice(&buffer[..n]);
    };
    let head = String::from_utf8(raw[..header_end].to_vec()).unwrap();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok());
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v == "chunked");
    let body_start = header_end + 4;
    loop {
        let have = raw.len() - body_start;
        let done = match length {
            Some(length) => have >= length,
            None if chunked => raw[body_start..].windows(5).any(|w| w == b"0\r\n\r\n"),
            None => false,
        };
        if done {
            break;
        }
        let n = stream.read(&mut buffer).unwrap();
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buffer[..n]);
    }
    let body = String::from_utf8(raw[body_start..].to_vec()).unwrap();
    let body = if chunked { unchunk(&body) } else { body };
    Response {
        status,
        headers,
        body,
    }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// The message of the one ERROR event in a server's stderr (JSON lines, as it writes
/// them when stderr is not a terminal), after checking that every line is JSON.
pub(crate) fn error_event(stderr: &[u8]) -> String {
    let stderr = std::str::from_utf8(stderr).expect("UTF-8");
    let events: Vec<serde_json::Value> = stderr
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line:?}")))
        .collect();
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

/// The text a reader sees of `html`: its tags dropped, its entities read.
pub(crate) fn html_text(html: &str) -> String {
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
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The text inside the element of `html` whose `id` is `id`, as a reader sees it.
///
/// # Panics
///
/// When there is no such element.
pub(crate) fn element_text(html: &str, id: &str) -> String {
    let open = format!(r#"id="{id}""#);
    let start = html.find(&open).unwrap_or_else(|| panic!("no #{id}"));
    let tag_start = html[..start].rfind('<').expect("an element");
    let tag = html[tag_start + 1..]
        .split([' ', '>'])
        .next()
        .expect("a tag name");
    let start = start + html[start..].find('>').expect("the tag ends") + 1;
    let end = start
        + html[start..]
            .find(&format!("</{tag}>"))
            .expect("the element ends");
    html_text(&html[start..end])
}
