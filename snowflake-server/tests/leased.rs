//! Servers holding identities leased from a real etcd on loopback.

mod support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use snowflake_lease::harness::Etcd;
use support::{Server, fetch_ids};

#[test]
fn four_auto_servers_hold_four_identities_and_never_repeat_an_id() {
    let Some(etcd) = Etcd::start_or_skip("four_auto_servers_hold_four_identities") else {
        return;
    };
    let endpoint = etcd.endpoint();
    let servers: Vec<Server> = (0..4)
        .map(|_| Server::start(&["--etcd", &endpoint, "--auto", "--lease-ttl", "3"]))
        .collect();
    let identities: HashSet<(u64, u64)> = servers
        .iter()
        .map(|server| {
            let identity = server.get("/v1/identity").json();
            assert_eq!(identity["mode"], "leased");
            assert_eq!(identity["state"], "holding");
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
    let mut all = Vec::new();
    for thread in threads {
        all.extend(thread.join().unwrap());
    }
    let count = all.len();
    assert_eq!(count, 8 * 50 * 65);
    assert_eq!(all.into_iter().collect::<HashSet<_>>().len(), count);
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
    ]);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(fifth.get("/readyz").status, 200);
}

#[test]
fn readyz_turns_503_when_the_lease_is_lost() {
    let Some(mut etcd) = Etcd::start_or_skip("readyz_turns_503_when_the_lease_is_lost") else {
        return;
    };
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
    ]);
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
