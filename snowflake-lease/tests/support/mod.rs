//! What the lease tests on a real store share: a holder in a process of its own, and a
//! host of the test's own to cut off.
#![allow(dead_code, reason = "each test file uses a part")]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A holder in another process: `snowflake-lease-holder`.
pub(crate) struct HolderProcess {
    child: Child,
    lines: std::sync::mpsc::Receiver<String>,
}

impl HolderProcess {
    /// Holds `dc`/`machine` on `endpoint` (etcd's, or a PostgreSQL URL) with a TTL of `ttl_secs`, issuing an ID every
    /// millisecond and printing each, for `run_secs`.
    pub(crate) fn start(
        endpoint: &str,
        dc: u64,
        machine: u64,
        ttl_secs: u64,
        run_secs: u64,
    ) -> HolderProcess {
        HolderProcess::start_in(&[], endpoint, dc, machine, ttl_secs, run_secs)
    }

    /// As `start`, run through `wrapper` (such as `ip netns exec NS`).
    pub(crate) fn start_in(
        wrapper: &[&str],
        endpoint: &str,
        dc: u64,
        machine: u64,
        ttl_secs: u64,
        run_secs: u64,
    ) -> HolderProcess {
        let holder = HolderProcess::spawn(wrapper, endpoint, [dc, machine, ttl_secs, run_secs]);
        // Wait until it holds the identity.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = holder
                .lines
                .recv_timeout(left)
                .expect("the holder process holds its identity");
            if line.ends_with("holding") {
                break holder;
            }
        }
    }

    /// Starts one with `[dc, machine, ttl_secs, run_secs]`, not waiting for it to hold.
    pub(crate) fn spawn(wrapper: &[&str], endpoint: &str, numbers: [u64; 4]) -> HolderProcess {
        let numbers = numbers.map(|n| n.to_string());
        let holder = env!("CARGO_BIN_EXE_snowflake-lease-holder");
        let (program, args) = match wrapper {
            [program, args @ ..] => (*program, [args, &[holder][..]].concat()),
            [] => (holder, Vec::new()),
        };
        let mut child = Command::new(program)
            .args(args)
            .arg(endpoint)
            .args(numbers)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        HolderProcess { child, lines }
    }

    /// SIGKILL (unless it has exited already), then every ID it printed before it died,
    /// read to the end of its output.
    pub(crate) fn kill(&mut self) -> Vec<u64> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut ids = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(2);
        // Its output ends when it has died: the reader thread sees the pipe close.
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            ids.extend(
                line.strip_prefix("id ")
                    .and_then(|id| id.parse::<u64>().ok()),
            );
        }
        ids
    }

    /// Its process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether it has exited.
    pub(crate) fn exited(&mut self) -> bool {
        self.child.try_wait().is_ok_and(|status| status.is_some())
    }

    pub(crate) fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// Every ID it printed so far, and how many calls it refused.
    pub(crate) fn output(&self) -> (Vec<u64>, usize) {
        let mut ids = Vec::new();
        let mut refused = 0;
        for line in self.lines.try_iter() {
            if let Some(id) = line.strip_prefix("id ").and_then(|id| id.parse().ok()) {
                ids.push(id);
            } else if line == "refused" {
                refused += 1;
            }
        }
        (ids, refused)
    }

    pub(crate) fn ids(&self) -> Vec<u64> {
        self.output().0
    }
}

impl Drop for HolderProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A host of the test's own: a network namespace joined to this one by a veth pair,
/// removed when dropped. Cutting the link is a partition: both sides keep running.
pub(crate) struct TestHost {
    pub(crate) namespace: String,
    link: String,
    /// This side's address, and the namespace's.
    pub(crate) here: String,
    pub(crate) there: String,
}

impl TestHost {
    /// Makes it.
    ///
    /// # Panics
    ///
    /// When it cannot (not root, no `ip`), saying so.
    pub(crate) fn make() -> TestHost {
        let id = std::process::id() % 10_000;
        let subnet = std::process::id() % 250;
        let host = TestHost {
            namespace: format!("sfk-{id}"),
            link: format!("sfkh{id}"),
            here: format!("10.213.{subnet}.1"),
            there: format!("10.213.{subnet}.2"),
        };
        let peer = format!("sfkn{id}");
        let made = TestHost::ip(&["netns", "add", &host.namespace])
            && TestHost::ip(&[
                "link", "add", &host.link, "type", "veth", "peer", "name", &peer,
            ])
            && TestHost::ip(&["link", "set", &peer, "netns", &host.namespace])
            && TestHost::ip(&[
                "addr",
                "add",
                &format!("{}/30", host.here),
                "dev",
                &host.link,
            ])
            && TestHost::ip(&["link", "set", &host.link, "up"])
            && host.in_namespace(&["addr", "add", &format!("{}/30", host.there), "dev", &peer])
            && host.in_namespace(&["link", "set", &peer, "up"])
            && host.in_namespace(&["link", "set", "lo", "up"]);
        assert!(
            made,
            "cannot make a network namespace and a veth pair: run as root, with iproute2's `ip` \
             (`apt-get install iproute2` on Debian, or `bash scripts/test.sh`, which installs it)"
        );
        host
    }

    fn ip(args: &[&str]) -> bool {
        Command::new("ip")
            .args(args)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    }

    fn in_namespace(&self, args: &[&str]) -> bool {
        TestHost::ip(&[&["netns", "exec", &self.namespace, "ip"][..], args].concat())
    }

    /// Cuts the link (`false`) or heals it (`true`).
    pub(crate) fn link(&self, up: bool) {
        let state = if up { "up" } else { "down" };
        assert!(
            TestHost::ip(&["link", "set", &self.link, state]),
            "ip link set {state}"
        );
    }
}

impl Drop for TestHost {
    fn drop(&mut self) {
        // Deleting one end of the pair deletes both.
        TestHost::ip(&["link", "del", &self.link]);
        TestHost::ip(&["netns", "del", &self.namespace]);
    }
}

/// An error as a reporter that walks its chain says it (anyhow's `{:#}`): the step that
/// failed, then each cause once.
pub(crate) fn said(e: &snowflake_lease::LeaseError) -> String {
    format!("{:#}", anyhow::Error::new(e.clone()))
}
