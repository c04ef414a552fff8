//! A real etcd on loopback, for tests and benchmarks (feature `harness`): each
//! [`Etcd`] has its own data directory and free ports, is waited for through its
//! `/health` endpoint, and is killed when dropped.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An etcd server started by a test.
///
/// ```no_run
/// let etcd = snowflake_lease::harness::Etcd::start_or_skip("my test").expect("etcd");
/// println!("etcd at {}", etcd.endpoint());
/// ```
#[derive(Debug)]
pub struct Etcd {
    child: Option<Child>,
    dir: PathBuf,
    client_port: u16,
    peer_port: u16,
}

impl Etcd {
    /// Starts etcd, or, when the `etcd` binary is missing, says why and returns
    /// `None` so that the test can skip. Under CI (`CI` set to `true`) a missing
    /// etcd is a failure, never a skip.
    ///
    /// # Panics
    ///
    /// When etcd is missing under CI, or does not become healthy in 20 s.
    pub fn start_or_skip(test: &str) -> Option<Etcd> {
        if Command::new("etcd").arg("--version").output().is_err() {
            let message = "etcd is not installed: `apt-get install etcd-server` (Debian, Ubuntu), \
                           or run the README's test command, which installs it";
            assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
            eprintln!("skipped {test}: {message}");
            return None;
        }
        let dir = std::env::temp_dir().join(format!(
            "snowflake-lease-etcd-{}-{}",
            std::process::id(),
            free_port()
        ));
        let mut etcd = Etcd {
            child: None,
            dir,
            client_port: free_port(),
            peer_port: free_port(),
        };
        etcd.launch();
        Some(etcd)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.client_port)
    }

    /// Kills it (SIGKILL); the data directory stays.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same data directory and ports.
    ///
    /// # Panics
    ///
    /// When it does not become healthy in 20 s.
    pub fn restart(&mut self) {
        self.kill();
        self.launch();
    }

    fn launch(&mut self) {
        let client = format!("http://127.0.0.1:{}", self.client_port);
        let peer = format!("http://127.0.0.1:{}", self.peer_port);
        let log = std::fs::File::create(self.dir.with_extension("log")).ok();
        let child = Command::new("etcd")
            .arg("--name=test")
            .arg(format!("--data-dir={}", self.dir.display()))
            .arg(format!("--listen-client-urls={client}"))
            .arg(format!("--advertise-client-urls={client}"))
            .arg(format!("--listen-peer-urls={peer}"))
            .arg(format!("--initial-advertise-peer-urls={peer}"))
            .arg(format!("--initial-cluster=test={peer}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log.map_or_else(Stdio::null, Stdio::from))
            .spawn()
            .expect("etcd starts");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.healthy() {
            assert!(
                Instant::now() < deadline,
                "etcd on port {} did not become healthy; see {}",
                self.client_port,
                self.dir.with_extension("log").display()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `GET /health` answers `"health":"true"`.
    fn healthy(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.client_port)) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let request = format!(
            "GET /health HTTP/1.0\r\nHost: 127.0.0.1:{}\r\n\r\n",
            self.client_port
        );
        let mut answer = String::new();
        stream.write_all(request.as_bytes()).is_ok()
            && stream.read_to_string(&mut answer).is_ok()
            && answer.contains("\"health\":\"true\"")
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
        let _ = std::fs::remove_file(self.dir.with_extension("log"));
    }
}

/// A port that was free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port on loopback")
}
