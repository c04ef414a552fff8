//! A real etcd on loopback (feature `etcd`): each [`Etcd`] is
//! one member or a cluster of several, with its own data directories and free ports,
//! plain or behind mutual TLS with certificates made for it, waited for through each
//! member's `/health`, and killed when dropped.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::certificates::make_certificates;
use crate::free_port;

/// etcd started by a test: one member, or a cluster.
///
/// ```no_run
/// use snowflake_test_support::Etcd;
///
/// let etcd = Etcd::start();
/// println!("etcd at {}", etcd.endpoint());
/// let cluster = Etcd::cluster(3, true);
/// println!("members at {}, CA in {}", cluster.endpoints(), cluster.ca().display());
/// ```
#[derive(Debug)]
pub struct Etcd {
    dir: PathBuf,
    members: Vec<Member>,
    tls: bool,
    /// Addresses the members listen on besides 127.0.0.1: a test's own hosts.
    hosts: Vec<String>,
}

#[derive(Debug)]
struct Member {
    name: String,
    child: Option<Child>,
    client_port: u16,
    peer_port: u16,
    /// Plain HTTP `/health` and `/metrics`, whatever the client URLs speak.
    metrics_port: u16,
}

impl Etcd {
    /// Starts one member on plain HTTP.
    ///
    /// A test that needs etcd is marked `#[ignore = "needs etcd: ..."]` and run by the
    /// test command with `--include-ignored`: run, it fails without etcd, saying what to
    /// install; it never passes for having skipped.
    ///
    /// # Panics
    ///
    /// When the `etcd` binary is missing, or it does not become healthy in 20 s.
    pub fn start() -> Etcd {
        Etcd::cluster(1, false)
    }

    /// Starts `members` members as one cluster; with `tls`, their client URLs are
    /// `https://` and demand a client certificate signed by the cluster's own CA
    /// ([`ca`](Etcd::ca), [`client_cert`](Etcd::client_cert), [`client_key`](Etcd::client_key),
    /// made with `openssl`).
    ///
    /// # Panics
    ///
    /// As [`start`](Etcd::start), and when `openssl` is missing or fails.
    pub fn cluster(members: usize, tls: bool) -> Etcd {
        Etcd::on_hosts(members, tls, &[])
    }

    /// As [`cluster`](Etcd::cluster), the members also listening on `hosts` (addresses
    /// of the test's own, such as one end of a veth pair).
    ///
    /// # Panics
    ///
    /// As [`cluster`](Etcd::cluster).
    pub fn on_hosts(members: usize, tls: bool, hosts: &[&str]) -> Etcd {
        assert!(
            Command::new("etcd").arg("--version").output().is_ok(),
            "etcd is not installed: `apt-get install etcd-server` (Debian, Ubuntu), or run \
             `bash scripts/test.sh`, which installs it"
        );
        let dir = std::env::temp_dir().join(format!(
            "snowflake-lease-etcd-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).expect("a directory for etcd");
        let members = (0..members)
            .map(|i| Member {
                name: format!("m{i}"),
                child: None,
                client_port: free_port(),
                peer_port: free_port(),
                metrics_port: free_port(),
            })
            .collect();
        let mut etcd = Etcd {
            dir,
            members,
            tls,
            hosts: hosts.iter().map(|&host| host.to_owned()).collect(),
        };
        if tls {
            make_certificates(&etcd.dir, &etcd.hosts);
        }
        for i in 0..etcd.members.len() {
            etcd.spawn(i);
        }
        for i in 0..etcd.members.len() {
            etcd.wait_healthy(i);
        }
        etcd
    }

    /// The first member's client URL, `http://127.0.0.1:PORT` (or `https://`).
    pub fn endpoint(&self) -> String {
        self.member_endpoint(0)
    }

    /// Member `i`'s client URL.
    pub fn member_endpoint(&self, i: usize) -> String {
        self.endpoint_on(i, "127.0.0.1")
    }

    /// Member `i`'s client URL on one of the hosts it listens on.
    pub fn endpoint_on(&self, i: usize, host: &str) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{host}:{}", self.members[i].client_port)
    }

    /// Every member's client URL, comma-separated, as `--etcd` takes them.
    pub fn endpoints(&self) -> String {
        (0..self.members.len())
            .map(|i| self.member_endpoint(i))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The client's settings for every member: with TLS, the cluster's CA and a client
    /// certificate it accepts.
    ///
    /// # Panics
    ///
    /// When a certificate file cannot be read.
    pub fn config(&self) -> snowflake_lease::EtcdConfig {
        self.config_for(&self.endpoints())
    }

    /// As [`config`](Etcd::config), for `endpoints` (such as a name the members'
    /// certificate does not cover).
    ///
    /// # Panics
    ///
    /// When `endpoints` is not a list of members, or a certificate file cannot be read.
    pub fn config_for(&self, endpoints: &str) -> snowflake_lease::EtcdConfig {
        let config = snowflake_lease::EtcdConfig::new(endpoints).expect("etcd endpoints");
        if !self.tls {
            return config;
        }
        let read = |path: PathBuf| std::fs::read(path).expect("a certificate the harness made");
        config
            .with_ca_pem(read(self.ca()))
            .with_client_pem(read(self.client_cert()), read(self.client_key()))
    }

    /// The CA certificate (PEM file) that signed the members' and the client's.
    pub fn ca(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    /// A client certificate (PEM file) the members accept.
    pub fn client_cert(&self) -> PathBuf {
        self.dir.join("client.pem")
    }

    /// The client certificate's key (PEM file).
    pub fn client_key(&self) -> PathBuf {
        self.dir.join("client-key.pem")
    }

    /// A CA certificate (PEM file) that signed nothing of this cluster's.
    pub fn other_ca(&self) -> PathBuf {
        self.dir.join("other-ca.pem")
    }

    /// The member that leads now, by the members' own `etcd_server_is_leader` metric.
    ///
    /// # Panics
    ///
    /// When no live member says it leads within 10 s.
    pub fn leader(&self) -> usize {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(leader) = self.leading(&[]).next() {
                return leader;
            }
            assert!(Instant::now() < deadline, "no etcd member leads");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Turns auth on (plain-HTTP members only): a `root` user, `allowed` with read and
    /// write on `prefix` and nothing else, and `stranger` with no permission at all.
    /// Tokens live 2 s (`--auth-token-ttl`), so that a test sees them expire.
    ///
    /// # Panics
    ///
    /// When etcd refuses a step, or the members speak TLS.
    pub fn enable_auth(&self, prefix: &str, allowed: (&str, &str), stranger: (&str, &str)) {
        assert!(!self.tls, "enable_auth is for plain-HTTP members");
        let endpoint = self.endpoint();
        let (prefix, allowed, stranger) = (
            prefix.to_owned(),
            (allowed.0.to_owned(), allowed.1.to_owned()),
            (stranger.0.to_owned(), stranger.1.to_owned()),
        );
        // A runtime of its own, on a thread of its own: the caller may be inside one.
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                use etcd_client::{Client, Permission};
                let mut client = Client::connect([endpoint], None).await?;
                client.user_add("root", "root-password", None).await?;
                client.user_grant_role("root", "root").await?;
                client.role_add("snowflake").await?;
                client
                    .role_grant_permission(
                        "snowflake",
                        Permission::read_write(prefix).with_prefix(),
                    )
                    .await?;
                client.user_add(allowed.0.as_str(), allowed.1, None).await?;
                client.user_grant_role(allowed.0, "snowflake").await?;
                client.user_add(stranger.0, stranger.1, None).await?;
                client.auth_enable().await?;
                Ok::<(), etcd_client::Error>(())
            })
        })
        .join()
        .expect("the auth thread")
        .expect("etcd enables auth");
    }

    /// Kills the first member (SIGKILL); its data directory stays.
    pub fn kill(&mut self) {
        self.kill_member(0);
    }

    /// Kills member `i` (SIGKILL); its data directory stays.
    pub fn kill_member(&mut self, i: usize) {
        if let Some(mut child) = self.members[i].child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Stops member `i` (SIGSTOP): it hangs with its connections open, as a member on a
    /// frozen host does, until [`resume_member`](Etcd::resume_member).
    ///
    /// # Panics
    ///
    /// When the member is not running, or `kill` fails.
    pub fn pause_member(&self, i: usize) {
        self.signal_member(i, "-STOP");
    }

    /// Lets member `i` go on after [`pause_member`](Etcd::pause_member) (SIGCONT).
    ///
    /// # Panics
    ///
    /// As [`pause_member`](Etcd::pause_member).
    pub fn resume_member(&self, i: usize) {
        self.signal_member(i, "-CONT");
    }

    fn signal_member(&self, i: usize, signal: &str) {
        let child = self.members[i].child.as_ref().expect("a running member");
        let status = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal} member {i}");
    }

    /// Which members lead now, by their own `etcd_server_is_leader` metric, without
    /// waiting: none during an election. A paused member is not asked.
    pub fn leaders_now(&self, skip: &[usize]) -> Vec<usize> {
        self.leading(skip).collect()
    }

    /// The live members not in `skip` that say they lead, asked one by one as the
    /// iterator is drawn (within 1 s each).
    fn leading<'a>(&'a self, skip: &'a [usize]) -> impl Iterator<Item = usize> + 'a {
        (0..self.members.len()).filter(move |&i| {
            !skip.contains(&i)
                && self.members[i].child.is_some()
                && leads(self.members[i].metrics_port, Duration::from_secs(1)).unwrap_or(false)
        })
    }

    /// Watches, from a thread of its own, whether any member leads (its
    /// `etcd_server_is_leader` metric, asked every 10 ms with a 100 ms bound), until
    /// [`LeaderWatch::finish`]. A member that refuses the connection (killed) leads
    /// nothing; one that does not answer within the bound (paused, or slow on a busy
    /// machine) leaves the state as it was, unless another says it leads: a slow answer is
    /// no election, and a paused leader's successor shows when it is elected.
    pub fn watch_leader(&self) -> LeaderWatch {
        let ports: Vec<u16> = self.members.iter().map(|m| m.metrics_port).collect();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = std::sync::Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut changes: Vec<(Instant, bool)> = Vec::new();
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                let said: Vec<Option<bool>> = ports
                    .iter()
                    .map(|&port| match leads(port, Duration::from_millis(100)) {
                        Ok(leads) => Some(leads),
                        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => Some(false),
                        Err(_) => None,
                    })
                    .collect();
                let leads = if said.contains(&Some(true)) {
                    Some(true)
                } else if said.iter().all(Option::is_some) {
                    Some(false)
                } else {
                    None
                };
                if let Some(leads) = leads {
                    if changes.last().is_none_or(|&(_, led)| led != leads) {
                        changes.push((Instant::now(), leads));
                    }
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            changes
        });
        LeaderWatch { stop, thread }
    }

    /// Starts the first member again on the same data directory and ports.
    ///
    /// # Panics
    ///
    /// When it does not become healthy in 20 s.
    pub fn restart(&mut self) {
        self.restart_member(0);
    }

    /// Starts member `i` again on the same data directory and ports.
    ///
    /// # Panics
    ///
    /// When it does not become healthy in 20 s.
    pub fn restart_member(&mut self, i: usize) {
        self.kill_member(i);
        self.spawn(i);
        self.wait_healthy(i);
    }

    fn spawn(&mut self, i: usize) {
        let scheme = if self.tls { "https" } else { "http" };
        let cluster = self
            .members
            .iter()
            .map(|m| format!("{}=http://127.0.0.1:{}", m.name, m.peer_port))
            .collect::<Vec<_>>()
            .join(",");
        let member = &self.members[i];
        let listen = std::iter::once("127.0.0.1")
            .chain(self.hosts.iter().map(String::as_str))
            .map(|host| format!("{scheme}://{host}:{}", member.client_port))
            .collect::<Vec<_>>()
            .join(",");
        let advertise = format!("{scheme}://127.0.0.1:{}", member.client_port);
        let peer = format!("http://127.0.0.1:{}", member.peer_port);
        let data = self.dir.join(&member.name);
        let log = std::fs::File::create(self.dir.join(format!("{}.log", member.name))).ok();
        let mut command = Command::new("etcd");
        command
            .arg(format!("--name={}", member.name))
            .arg(format!("--data-dir={}", data.display()))
            .arg(format!("--listen-client-urls={listen}"))
            .arg(format!("--advertise-client-urls={advertise}"))
            .arg(format!("--listen-peer-urls={peer}"))
            .arg(format!("--initial-advertise-peer-urls={peer}"))
            .arg(format!("--initial-cluster={cluster}"))
            .arg(format!(
                "--listen-metrics-urls=http://127.0.0.1:{}",
                member.metrics_port
            ))
            // Elections within a second, as on a healthy LAN.
            .arg("--heartbeat-interval=100")
            .arg("--election-timeout=1000")
            .arg("--auth-token-ttl=2");
        if self.tls {
            command
                .arg(format!(
                    "--cert-file={}",
                    self.dir.join("server.pem").display()
                ))
                .arg(format!(
                    "--key-file={}",
                    self.dir.join("server-key.pem").display()
                ))
                .arg(format!("--trusted-ca-file={}", self.ca().display()))
                .arg("--client-cert-auth");
        }
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log.map_or_else(Stdio::null, Stdio::from))
            .spawn()
            .expect("etcd starts");
        self.members[i].child = Some(child);
    }

    fn wait_healthy(&self, i: usize) {
        let member = &self.members[i];
        let deadline = Instant::now() + Duration::from_secs(20);
        while !get(member.metrics_port, "/health")
            .is_some_and(|t| t.contains("\"health\":\"true\""))
        {
            if Instant::now() >= deadline {
                let log = std::fs::read_to_string(self.dir.join(format!("{}.log", member.name)))
                    .unwrap_or_default();
                let tail: Vec<&str> = log.lines().rev().take(15).collect();
                panic!(
                    "etcd member {} did not become healthy in 20 s; the end of its log:\n{}",
                    member.name,
                    tail.into_iter().rev().collect::<Vec<_>>().join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A plain HTTP GET on loopback: the body, if it answered.
fn get(port: u16, path: &str) -> Option<String> {
    get_within(port, path, Duration::from_secs(1)).ok()
}

/// Whether the member whose metrics are at `port` says it leads (`etcd_server_is_leader`),
/// if it answers within `bound`.
fn leads(port: u16, bound: Duration) -> std::io::Result<bool> {
    get_within(port, "/metrics", bound).map(|text| text.contains("\netcd_server_is_leader 1"))
}

/// As [`get`], within `bound`, saying why not.
fn get_within(port: u16, path: &str, bound: Duration) -> std::io::Result<String> {
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut stream = TcpStream::connect_timeout(&address, bound)?;
    stream.set_read_timeout(Some(bound))?;
    let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    stream.write_all(request.as_bytes())?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer)?;
    Ok(answer)
}

/// Whether a cluster had a leader, over time: [`Etcd::watch_leader`].
#[derive(Debug)]
pub struct LeaderWatch {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<Vec<(Instant, bool)>>,
}

impl LeaderWatch {
    /// Stops watching: each change, when it was seen and whether a member led from then
    /// on, the first entry saying how it began.
    ///
    /// ```no_run
    /// use snowflake_test_support::Etcd;
    ///
    /// let mut etcd = Etcd::cluster(3, false);
    /// let watch = etcd.watch_leader();
    /// let leader = etcd.leader();
    /// etcd.kill_member(leader);
    /// std::thread::sleep(std::time::Duration::from_secs(3));
    /// let changes = watch.finish();
    /// assert!(changes.iter().any(|&(_, led)| !led), "an election");
    /// ```
    ///
    /// # Panics
    ///
    /// When the watching thread panicked.
    pub fn finish(self) -> Vec<(Instant, bool)> {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.join().expect("the leader watch")
    }
}

impl crate::StoreServer for Etcd {
    fn start() -> Etcd {
        Etcd::start()
    }

    fn start_on(host: &str) -> Etcd {
        Etcd::on_hosts(1, false, &[host])
    }

    fn url_on(&self, host: &str) -> String {
        self.endpoint_on(0, host)
    }

    /// SIGKILL.
    fn crash(&mut self) {
        self.kill();
    }

    fn recover(&mut self) {
        self.restart();
    }
}

impl Drop for Etcd {
    fn drop(&mut self) {
        for i in 0..self.members.len() {
            self.kill_member(i);
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
