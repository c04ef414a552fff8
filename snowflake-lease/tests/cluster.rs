//! The leased generator on production-shaped etcd: three members behind mutual TLS,
//! members dying under it, TLS and auth that are wrong, each a clear error within the
//! connect timeout. etcd is real (Debian's `etcd-server`), certificates are made by the
//! harness with `openssl`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use snowflake_lease::{EtcdConfig, EtcdStore, Identity, LeaseError, LeaseOptions, LeasedGenerator};
use snowflake_test_support::Etcd;

use crate::support::said;

mod support;

fn options(ttl: u64, window_ms: u64) -> LeaseOptions {
    let mut options = LeaseOptions::default().exact(Identity::new(2, 7).unwrap());
    options.ttl = Duration::from_secs(ttl);
    options.window = Duration::from_millis(window_ms);
    options.connect_timeout = Duration::from_secs(2);
    options
}

/// Pulls an ID every millisecond until told to stop: the longest run of refusals, in
/// time, since the last `take`, and how many IDs.
struct Puller {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<(Duration, u64, Vec<u64>)>,
}

impl Puller {
    fn start(generator: Arc<LeasedGenerator>) -> Puller {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let (mut longest, mut refused_since, mut ids) = (Duration::ZERO, None, Vec::new());
            while !stopped.load(Ordering::Relaxed) {
                match generator.try_next_id() {
                    Ok(id) => {
                        if let Some(since) = refused_since.take() {
                            longest = longest.max(Instant::elapsed(&since));
                        }
                        ids.push(u64::from(id));
                    }
                    Err(_) => {
                        refused_since.get_or_insert_with(Instant::now);
                    }
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            if let Some(since) = refused_since {
                longest = longest.max(since.elapsed());
            }
            (longest, ids.len() as u64, ids)
        });
        Puller { stop, thread }
    }

    /// Stops: the longest refusal, the number of IDs, the IDs.
    fn finish(self) -> (Duration, u64, Vec<u64>) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap()
    }
}

/// A follower dying costs no refusal; the leader dying costs at most the window. The
/// holder keeps its lease and identity through both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd and openssl: bash scripts/test.sh installs them"]
async fn a_holder_keeps_its_identity_through_a_follower_and_a_leader_dying() {
    let mut etcd = Etcd::cluster(3, true);
    // The defaults: the window reserved ahead rides out an election.
    let options = options(10, 2000);
    let window = options.window;
    let started = Instant::now();
    let store = EtcdStore::connect_with(etcd.config(), &options)
        .await
        .unwrap();
    let generator = Arc::new(LeasedGenerator::start(store, options).await.unwrap());
    println!(
        "claim over mutual TLS, three members: {:?}",
        started.elapsed()
    );

    let leader = etcd.leader();
    let follower = (leader + 1) % 3;
    let puller = Puller::start(Arc::clone(&generator));
    tokio::time::sleep(Duration::from_secs(1)).await;
    etcd.kill_member(follower);
    tokio::time::sleep(Duration::from_secs(4)).await;
    let (longest, ids, mut all) = puller.finish();
    println!("follower killed: longest refusal {longest:?}, {ids} IDs");
    assert_eq!(longest, Duration::ZERO, "a follower's death refused IDs");
    assert!(ids > 1000, "{ids} IDs");

    // Two of three: still a quorum once the next leader is elected.
    etcd.restart_member(follower);
    let leader = etcd.leader();
    let puller = Puller::start(Arc::clone(&generator));
    tokio::time::sleep(Duration::from_secs(1)).await;
    etcd.kill_member(leader);
    tokio::time::sleep(Duration::from_secs(5)).await;
    let (longest, ids, more) = puller.finish();
    println!("leader killed: longest refusal {longest:?}, {ids} IDs");
    assert!(
        longest <= window,
        "refused for {longest:?}, above the window"
    );
    assert!(ids > 1000, "{ids} IDs");

    let status = generator.status();
    assert_eq!(status.lease_losses, 0, "{status:?}");
    assert_eq!(generator.identity(), Identity::new(2, 7).unwrap());
    all.extend(more);
    let count = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), count, "a duplicate ID");
    generator.release().await;
}

/// Each TLS mistake fails within the connect timeout, saying what it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd and openssl: bash scripts/test.sh installs them"]
async fn tls_mistakes_fail_in_time_naming_the_cause() {
    let etcd = Etcd::cluster(1, true);
    let options = options(6, 1500);
    let read = |path: std::path::PathBuf| std::fs::read(path).unwrap();
    let endpoint = etcd.endpoint();
    let port = endpoint.rsplit(':').next().unwrap();
    let cases = [
        (
            "an unknown CA",
            EtcdConfig::new(&endpoint)
                .unwrap()
                .with_ca_pem(read(etcd.other_ca()))
                .with_client_pem(read(etcd.client_cert()), read(etcd.client_key())),
            "UnknownIssuer",
        ),
        (
            "a name the certificate does not cover",
            etcd.config_for(&format!("https://localhost:{port}")),
            "not valid for name",
        ),
        (
            "no client certificate",
            EtcdConfig::new(&endpoint)
                .unwrap()
                .with_ca_pem(read(etcd.ca())),
            "demands a client certificate",
        ),
        (
            "plain HTTP to a TLS member",
            EtcdConfig::new(&format!("http://127.0.0.1:{port}")).unwrap(),
            "",
        ),
    ];
    for (what, config, cause) in cases {
        let started = Instant::now();
        let error = EtcdStore::connect_with(config, &options).await.unwrap_err();
        let took = started.elapsed();
        println!("{what}: {error} ({took:?})");
        assert!(
            matches!(error, LeaseError::Unreachable { .. }),
            "{what}: {error}"
        );
        assert!(said(&error).contains(cause), "{what}: {error}");
        assert!(
            took < options.connect_timeout + Duration::from_secs(1),
            "{what}: {took:?}"
        );
    }
    // The settings that do not fit are refused before anything connects.
    for (config, reason) in [
        (
            EtcdConfig::new(&endpoint).unwrap(),
            "https:// members need the CA certificate",
        ),
        (
            EtcdConfig::new("http://127.0.0.1:1")
                .unwrap()
                .with_ca_pem(read(etcd.ca())),
            "a CA or client certificate is for https:// members",
        ),
    ] {
        let error = EtcdStore::connect_with(config, &options).await.unwrap_err();
        assert!(
            matches!(error, LeaseError::InvalidEndpoint { .. }) && said(&error).contains(reason),
            "{error}"
        );
    }
}

/// A user allowed only on the prefix works, across many expiries of its token; a wrong
/// password and a user without permission are refused, naming the user.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn auth_a_user_on_the_prefix_works_and_the_wrong_ones_are_refused() {
    let etcd = Etcd::start();
    let options = options(3, 1000);
    etcd.enable_auth(
        &options.prefix,
        ("snowflake", "right"),
        ("stranger", "theirs"),
    );
    let config = EtcdConfig::new(&etcd.endpoint()).unwrap();

    let store = EtcdStore::connect_with(config.clone().with_user("snowflake", "right"), &options)
        .await
        .unwrap();
    let generator = LeasedGenerator::start(store, options.clone())
        .await
        .unwrap();
    // The harness's tokens live 2 s: held for three of them.
    let until = Instant::now() + Duration::from_secs(7);
    let mut ids = 0;
    while Instant::now() < until {
        if generator.try_next_id().is_ok() {
            ids += 1;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let status = generator.status();
    assert_eq!((status.lease_losses, status.refusals), (0, 0), "{status:?}");
    assert!(ids > 500, "{ids}");
    generator.release().await;

    for (user, password, said) in [
        ("snowflake", "wrong", "authentication failed"),
        ("stranger", "theirs", "permission denied"),
    ] {
        let started = Instant::now();
        let error = EtcdStore::connect_with(config.clone().with_user(user, password), &options)
            .await
            .unwrap_err();
        assert!(matches!(error, LeaseError::Denied { .. }), "{error}");
        let text = format!("{:#}", anyhow::Error::new(error));
        assert!(
            text.starts_with(&format!(
                "etcd refused user \"{user}\" on the prefix {}",
                options.prefix
            )) && text.contains(said),
            "{text}"
        );
        assert!(
            started.elapsed() < options.connect_timeout,
            "{:?}",
            started.elapsed()
        );
    }
    // No user at all, on a cluster that demands one.
    let error = EtcdStore::connect_with(config, &options).await.unwrap_err();
    assert!(
        matches!(error, LeaseError::Denied { user: None, .. }),
        "{error}"
    );
}
