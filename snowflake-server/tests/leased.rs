//! Servers holding identities leased from a real etcd on loopback.

mod support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use snowflake_lease::harness::Etcd;
use support::{Server, count_distinct, fetch_ids};

#[test]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
fn four_auto_servers_hold_four_identities_and_never_repeat_an_id() {
    let etcd = Etcd::start();
    let endpoint = etcd.endpoint();
    let servers: Vec<Server> = (0..4)
        .map(|_| Server::start(&["--etcd", &endpoint, "--auto", "--lease-ttl", "3"]).ready())
        .collect();
    let identities: HashSet<(u64, u64)> = servers
        .iter()
        .map(|server| {
            let identity = server.get("/v1/identity").json();
            assert_eq!(identity["mode"], "leased");
            assert_eq!(identity["state"], "holding");
            // Named as `--auto` and `Choice::Auto` name it.
            assert_eq!(identity["choice"], "auto");
            (
                identity["datacenter"].as_u64().unwrap(),
                identity["machine"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(identities.len(), 4);
    // From all four at once.
    let threads: Vec<_> = servers
        .iter()
        .flat_map(|server| [server.addr.clone(), server.addr.clone()])
        .map(|addr| {
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                for _ in 0..50 {
                    ids.extend(fetch_ids(&addr, "/v1/id"));
                    ids.extend(fetch_ids(&addr, "/v1/ids?count=64"));
                }
                ids
            })
        })
        .collect();
    assert_eq!(count_distinct(threads), 8 * 50 * 65);
    // SIGTERM releases the identity: a server asking for that very pair gets it at once,
    // where it would otherwise wait out the 3 s TTL.
    let mut servers = servers;
    let first = servers.remove(0);
    let identity = first.get("/v1/identity").json();
    let (dc, machine) = (
        identity["datacenter"].to_string(),
        identity["machine"].to_string(),
    );
    assert!(first.terminate().success());
    let started = Instant::now();
    let fifth = Server::start(&[
        "--etcd",
        &endpoint,
        "--dc",
        &dc,
        "--machine",
        &machine,
        "--lease-ttl",
        "3",
    ])
    .ready();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(fifth.get("/readyz").status, 200);
}

#[test]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
fn readyz_turns_503_when_the_lease_is_lost() {
    let mut etcd = Etcd::start();
    let endpoint = etcd.endpoint();
    let server = Server::start(&[
        "--etcd",
        &endpoint,
        "--dc",
        "9",
        "--machine",
        "9",
        "--lease-ttl",
        "2",
    ])
    .ready();
    assert_eq!(server.get("/readyz").status, 200);
    assert_eq!(server.get("/v1/id").status, 200);
    etcd.kill();
    let killed = Instant::now();
    loop {
        let ready = server.get("/readyz");
        if ready.status == 503 {
            assert_eq!(ready.header("retry-after"), Some("1"));
            break;
        }
        assert!(killed.elapsed() < Duration::from_secs(4), "still ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    let refused = server.get("/v1/id");
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    // The reserved time runs out before the lease does: wait for the lease's local
    // deadline too, or an etcd back in time keeps the lease, and no loss is counted.
    loop {
        let identity = server.get("/v1/identity").json();
        if identity["state"]
            .as_str()
            .is_some_and(|s| s.starts_with("reclaiming"))
        {
            break;
        }
        assert!(killed.elapsed() < Duration::from_secs(4), "{identity}");
        std::thread::sleep(Duration::from_millis(50));
    }
    // etcd back on the same data: the server claims its identity again and is ready.
    etcd.restart();
    let restarted = Instant::now();
    while server.get("/readyz").status != 200 {
        assert!(
            restarted.elapsed() < Duration::from_secs(15),
            "{}",
            server.get("/v1/identity").body
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(server.get("/v1/id").status, 200);
    let metrics = server.get("/metrics").body;
    assert!(
        metrics
            .lines()
            .any(|l| l == "snowflake_lease_losses_total 1"),
        "{metrics}"
    );
}

/// SIGTERM while the claim waits for the clock to pass the high-water mark: the server
/// lets the claim finish and releases the identity, so the next holder gets it within
/// seconds, not at the end of the 10 s TTL.
#[test]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
fn a_stop_during_the_claim_releases_what_the_claim_took() {
    use snowflake_kit::{Clock, SystemClock};
    use snowflake_lease::{
        Claim, EtcdStore, Identity, LeaseOptions, LeasedGenerator, Reservation, Store,
    };

    let etcd = Etcd::start();
    let endpoint = etcd.endpoint();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let identity = Identity::new(12, 12).unwrap();
    let mut options = LeaseOptions::default().fixed(identity);
    options.claim_wait = Duration::from_secs(30);
    let store = runtime
        .block_on(EtcdStore::connect(&endpoint, &options))
        .unwrap();
    // A mark 3 s ahead of the clock, as a holder whose clock ran ahead would leave.
    let hwm_ms = SystemClock.now_ms() + 3_000;
    runtime.block_on(async {
        let lease = store.grant(Duration::from_secs(10)).await.unwrap();
        assert_eq!(
            store.claim(identity, lease, "setup").await.unwrap(),
            Claim::Won { hwm_ms: 0 }
        );
        assert_eq!(
            store.reserve(identity, lease, 0, hwm_ms).await.unwrap(),
            Reservation::Committed
        );
        store.release(lease).await.unwrap();
    });
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--listen", "127.0.0.1:0", "--etcd", &endpoint])
        .args(["--dc", "12", "--machine", "12", "--lease-ttl", "10"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The claim wins at once, then waits about 3 s for the clock.
    std::thread::sleep(Duration::from_secs(1));
    let signalled = Instant::now();
    std::process::Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    let next = runtime
        .block_on(LeasedGenerator::start(store, options))
        .unwrap();
    let waited = signalled.elapsed();
    assert!(
        waited < Duration::from_secs(5),
        "the identity came free {waited:?} after the signal"
    );
    assert!(next.try_next_id().unwrap().timestamp_ms() > hwm_ms);
    assert!(server.wait().unwrap().success());
    runtime.block_on(next.release());
}

/// Two datacenters, each with its own etcd and a fleet started with its own `--dc`:
/// every server holds a machine of its own datacenter, and no ID repeats across them,
/// though neither etcd knows of the other.
#[test]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
fn two_datacenters_with_an_etcd_each_never_collide() {
    let (first, second) = (Etcd::start(), Etcd::start());
    let fleet = |etcd: &Etcd, dc: &str| -> Vec<Server> {
        let endpoint = etcd.endpoint();
        (0..3)
            .map(|_| {
                Server::start(&[
                    "--etcd",
                    &endpoint,
                    "--dc",
                    dc,
                    "--auto",
                    "--lease-ttl",
                    "3",
                ])
                .ready()
            })
            .collect()
    };
    let servers: Vec<Server> = fleet(&first, "1")
        .into_iter()
        .chain(fleet(&second, "2"))
        .collect();
    let mut identities = HashSet::new();
    for (i, server) in servers.iter().enumerate() {
        let identity = server.get("/v1/identity").json();
        assert_eq!(identity["choice"], "datacenter");
        let dc = identity["datacenter"].as_u64().unwrap();
        assert_eq!(dc, if i < 3 { 1 } else { 2 }, "{identity}");
        let machine = identity["machine"].as_u64().unwrap();
        identities.insert((dc, machine));
        let metrics = server.get("/metrics").body;
        let info = format!(
            "snowflake_identity_info{{choice=\"datacenter\",datacenter=\"{dc}\",machine=\"{machine}\"}} 1"
        );
        assert!(metrics.contains(&info), "{metrics}");
    }
    assert_eq!(identities.len(), 6);
    let threads: Vec<_> = servers
        .iter()
        .map(|server| {
            let addr = server.addr.clone();
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                for _ in 0..40 {
                    ids.extend(fetch_ids(&addr, "/v1/ids?count=100"));
                }
                ids
            })
        })
        .collect();
    assert_eq!(count_distinct(threads), 6 * 40 * 100);
}
