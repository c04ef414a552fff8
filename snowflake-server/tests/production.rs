//! Servers on production-shaped etcd: a three-member cluster behind mutual TLS whose
//! members die under load, auth, and a server that answers while it waits for its
//! identity. etcd is real (Debian's `etcd-server`), started by each test.

mod support;

use std::collections::HashSet;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use snowflake_test_support::Etcd;
use support::{Server, error_event, fetch_ids, get, ids_in, text, tls_auto_args, wait_until};

/// Three `--auto` servers given every member of a mutual-TLS cluster, with clients
/// pulling IDs: a follower dies, then the leader. Each server keeps its identity, IDs
/// keep coming, none repeats.
#[test]
#[ignore = "needs etcd and openssl: bash scripts/test.sh installs them"]
fn three_servers_ride_out_a_follower_and_the_leader_dying() {
    let mut etcd = Etcd::cluster(3, true);
    let owned = tls_auto_args(&etcd);
    let args: Vec<&str> = owned.iter().map(String::as_str).collect();
    let servers: Vec<Server> = (0..3).map(|_| Server::start(&args)).collect();
    let identity = |server: &Server| {
        let holding =
            || Some(server.get("/v1/identity").json()).filter(|j| j["state"] == "holding");
        let json = wait_until(Duration::from_secs(10), holding, || {
            server.get("/v1/identity").body
        });
        (json["datacenter"].clone(), json["machine"].clone())
    };
    let before: Vec<_> = servers.iter().map(identity).collect();
    assert_eq!(before.iter().collect::<HashSet<_>>().len(), 3);

    let stop = Arc::new(AtomicBool::new(false));
    let clients: Vec<_> = servers
        .iter()
        .map(|server| {
            let (addr, stop) = (server.addr.clone(), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                // The longest stretch of refusals, and what they said.
                let (mut since, mut longest, mut said) = (None, Duration::ZERO, HashSet::new());
                while !stop.load(Ordering::Relaxed) {
                    let response = get(&addr, "/v1/ids?count=16");
                    if response.status == 200 {
                        ids.extend(ids_in(&response.json()));
                        if let Some(since) = since.take() {
                            longest = longest.max(Instant::elapsed(&since));
                        }
                    } else {
                        since.get_or_insert_with(Instant::now);
                        said.insert(response.body);
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                (ids, longest, said)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let leader = etcd.leader();
    etcd.kill_member((leader + 1) % 3);
    std::thread::sleep(Duration::from_secs(3));
    etcd.restart_member((leader + 1) % 3);
    let leader = etcd.leader();
    etcd.kill_member(leader);
    std::thread::sleep(Duration::from_secs(4));
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    for client in clients {
        let (ids, longest, said) = client.join().unwrap();
        let sample = said.iter().next();
        println!(
            "a server: {} IDs, longest refusal {longest:?}, e.g. {sample:?}",
            ids.len()
        );
        // An election may cost a moment of refusals, at most the window (2 s).
        assert!(ids.len() > 1000, "{} IDs", ids.len());
        assert!(
            longest <= Duration::from_secs(2),
            "refused for {longest:?}: {said:?}"
        );
        all.extend(ids);
    }
    let count = all.len();
    assert_eq!(
        all.into_iter().collect::<HashSet<_>>().len(),
        count,
        "a duplicate"
    );
    let after: Vec<_> = servers.iter().map(identity).collect();
    assert_eq!(before, after, "a server changed its identity");
    for server in &servers {
        let metrics = server.get("/metrics").body;
        assert!(
            metrics.contains("snowflake_lease_losses_total 0"),
            "{metrics}"
        );
    }
}

/// A server whose exact identity another holds answers from its first second: the
/// page, health and metrics work; the rest say what it waits for. When the holder
/// leaves, it takes over.
#[test]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
fn a_server_serves_while_it_waits_for_its_identity() {
    let etcd = Etcd::start();
    let endpoint = etcd.endpoint();
    let fixed = [
        "--etcd",
        &endpoint,
        "--dc",
        "3",
        "--machine",
        "3",
        "--lease-ttl",
        "3",
    ];
    let holder = Server::start(&fixed).ready();
    let started = Instant::now();
    let waiting = Server::start(&fixed);
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(waiting.get("/healthz").status, 200);
    assert_eq!(waiting.get("/").status, 200);
    assert_eq!(waiting.get("/v1/decode/1").status, 200);
    assert_eq!(waiting.get("/metrics").status, 200);
    for path in ["/readyz", "/v1/id", "/v1/ids?count=2"] {
        let response = waiting.get(path);
        assert_eq!(response.status, 503, "{path}");
        assert_eq!(response.header("retry-after"), Some("1"), "{path}");
        let message = response.json()["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            message.starts_with("waiting for the identity: identity 03/03 is held by"),
            "{path}: {message}"
        );
    }
    let identity = waiting.get("/v1/identity").json();
    assert_eq!(
        (
            &identity["kind"],
            &identity["state"],
            &identity["datacenter"],
            &identity["machine"]
        ),
        (&"exact".into(), &"claiming".into(), &3.into(), &3.into()),
        "{identity}"
    );
    assert!(holder.terminate().success());
    let took_over = || (waiting.get("/readyz").status == 200).then_some(());
    wait_until(Duration::from_secs(5), took_over, || {
        "never took over".to_owned()
    });
    assert_eq!(fetch_ids(&waiting.addr, "/v1/id").len(), 1);
    assert_eq!(waiting.get("/v1/identity").json()["state"], "holding");
}

/// A claim that fails for good still ends the server: exit 1, naming why.
#[test]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
fn a_claim_wait_that_runs_out_exits_1() {
    let etcd = Etcd::start();
    let endpoint = etcd.endpoint();
    let fixed = [
        "--etcd",
        &endpoint,
        "--dc",
        "4",
        "--machine",
        "4",
        "--lease-ttl",
        "3",
    ];
    let _holder = Server::start(&fixed).ready();
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--listen", "127.0.0.1:0"])
        .args(fixed)
        .args(["--claim-wait", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = error_event(&out.stderr);
    assert!(
        message.starts_with("cannot claim the identity: identity 04/04 is held by"),
        "{message}"
    );
}

/// With auth on: a user allowed on the prefix, its password from a file or from the
/// environment, works; a wrong password and a user without permission exit 1 naming
/// it; so does a TLS mistake.
#[test]
#[ignore = "needs etcd and openssl: bash scripts/test.sh installs them"]
fn auth_and_tls_failures_exit_1_naming_them() {
    let etcd = Etcd::start();
    let prefix = "/snowflake-kit/v1/default";
    etcd.enable_auth(prefix, ("snowflake", "right"), ("stranger", "theirs"));
    let endpoint = etcd.endpoint();
    let password_file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(&password_file, "right\n").unwrap();
    let file = text(password_file.path());

    let base = ["--etcd", &endpoint, "--auto", "--etcd-user", "snowflake"];
    let from_file = Server::start(&[&base[..], &["--etcd-password-file", &file]].concat());
    let from_env = Server::start_with_env(&base, &[("SNOWFLAKE_ETCD_PASSWORD", "right")]);
    for server in [from_file.ready(), from_env.ready()] {
        assert_eq!(fetch_ids(&server.addr, "/v1/id").len(), 1);
    }
    for (user, password, said) in [
        ("snowflake", "wrong", "authentication failed"),
        ("stranger", "theirs", "permission denied"),
    ] {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
            .args([
                "--listen",
                "127.0.0.1:0",
                "--etcd",
                &endpoint,
                "--auto",
                "--etcd-user",
                user,
            ])
            .env("SNOWFLAKE_ETCD_PASSWORD", password)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{user}");
        let message = error_event(&out.stderr);
        assert!(
            message.starts_with(&format!(
                "cannot claim the identity: etcd refused user \"{user}\" on the prefix {prefix}: "
            )) && message.contains(said),
            "{message}"
        );
        // Who, never the password.
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!stderr.contains(password), "{stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(6),
            "{:?}",
            started.elapsed()
        );
    }

    let tls = Etcd::cluster(1, true);
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--etcd",
            &tls.endpoint(),
            "--auto",
        ])
        .args(["--etcd-ca", &text(&tls.other_ca())])
        .args([
            "--etcd-cert",
            &text(&tls.client_cert()),
            "--etcd-key",
            &text(&tls.client_key()),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = error_event(&out.stderr);
    assert!(
        message.contains("invalid peer certificate: UnknownIssuer"),
        "{message}"
    );
}
