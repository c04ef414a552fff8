//! Servers holding identities leased from a real etcd on loopback.

mod support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use snowflake_test_support::Etcd;
use support::{Server, count_distinct, fetch_ids, wait_until};

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
            // Leased (from etcd), and its kind named as `--auto` and `Choice::Auto` name it.
            assert_eq!(identity["store"], "etcd");
            assert_eq!(identity["state"], "holding");
            assert_eq!(identity["kind"], "auto");
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

/// The lease lost when etcd goes and reclaimed when it is back, with the events that say
/// so on stderr, as JSON lines and as text.
#[test]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
fn readyz_turns_503_when_the_lease_is_lost() {
    for format in ["json", "text"] {
        lose_and_reclaim(format);
    }
}

fn lose_and_reclaim(format: &str) {
    let mut etcd = Etcd::start();
    let endpoint = etcd.endpoint();
    let log = tempfile::NamedTempFile::new().unwrap();
    let server = Server::start_logging(
        &[
            "--etcd",
            &endpoint,
            "--dc",
            "9",
            "--machine",
            "9",
            "--lease-ttl",
            "2",
            "--log-format",
            format,
        ],
        &[],
        log.path(),
    )
    .ready();
    assert_eq!(server.get("/readyz").status, 200);
    assert_eq!(server.get("/v1/id").status, 200);
    etcd.kill();
    let killed = Instant::now();
    let refused = || Some(server.get("/readyz")).filter(|ready| ready.status == 503);
    let ready = wait_until(Duration::from_secs(4), refused, || "still ready".to_owned());
    assert_eq!(ready.header("retry-after"), Some("1"));
    let refused = server.get("/v1/id");
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    // The reserved time runs out before the lease does: wait for the lease's local
    // deadline too, or an etcd back in time keeps the lease, and no loss is counted.
    let now = || server.get("/v1/identity").json();
    let reclaiming = || Some(now()).filter(|identity| identity["state"] == "reclaiming");
    let left = Duration::from_secs(4).saturating_sub(killed.elapsed());
    let identity = wait_until(left, reclaiming, || now().to_string());
    // The key to branch on, and the reason in words beside it.
    let detail = identity["state_detail"].as_str().unwrap_or_default();
    assert!(detail.starts_with("reclaiming: "), "{identity}");
    // etcd back on the same data: the server claims its identity again and is ready.
    etcd.restart();
    let ready = || (server.get("/readyz").status == 200).then_some(());
    wait_until(Duration::from_secs(15), ready, || {
        server.get("/v1/identity").body
    });
    assert_eq!(server.get("/v1/id").status, 200);
    let metrics = server.get("/metrics").body;
    assert!(
        metrics
            .lines()
            .any(|l| l == "snowflake_lease_losses_total 1"),
        "{metrics}"
    );
    assert!(server.terminate().success());
    check_events(log.path(), format, &endpoint);
}

/// What an operator reads of a lease lost and reclaimed: each of these, in this order,
/// with its fields.
fn check_events(log: &std::path::Path, format: &str, endpoint: &str) {
    let text = std::fs::read_to_string(log).unwrap();
    let events = Events::read(&text, format);
    let mut at = 0;
    for (level, message, fields) in [
        (
            "INFO",
            "listening; claiming the identity",
            &[
                ("store", "etcd"),
                ("members", endpoint),
                ("ttl_s", "2"),
                ("identity", "exact"),
            ][..],
        ),
        (
            "INFO",
            "identity claimed",
            &[("datacenter", "9"), ("machine", "9"), ("ttl_s", "2")],
        ),
        (
            "WARN",
            "lease lost: issuing stopped",
            &[
                ("loss", "the lease ran out while the store was silent"),
                ("reclaim", "true"),
            ],
        ),
        // ("reclaim failed" only if a reclaim came before etcd was back: a race.)
        (
            "INFO",
            "identity reclaimed: issuing again",
            &[("datacenter", "9"), ("machine", "9")],
        ),
        ("INFO", "stop signal: draining the requests in flight", &[]),
        (
            "INFO",
            "identity released",
            &[("datacenter", "9"), ("machine", "9")],
        ),
        ("INFO", "stopped", &[]),
    ] {
        let found = events.0[at..]
            .iter()
            .position(|event| event.level == level && event.message == message)
            .unwrap_or_else(|| {
                panic!("{format}: no {level} {message:?} after event {at} in\n{text}")
            });
        at += found;
        for (name, value) in fields {
            assert_eq!(
                events.0[at].fields.get(*name).map(String::as_str),
                Some(*value),
                "{format}: {message}: {name} in\n{text}"
            );
        }
        at += 1;
    }
    // Store calls are `debug`: not there at the default level; nor are failures after
    // the first of a run.
    assert!(!text.contains("etcd answered"), "{text}");
    let failures = events
        .0
        .iter()
        .filter(|e| e.message.starts_with("store call failed"))
        .count();
    assert!(failures <= 3, "{failures} failures said:\n{text}");
}

/// A server's events as read back from its stderr.
struct Events(Vec<Event>);

struct Event {
    level: String,
    message: String,
    fields: std::collections::HashMap<String, String>,
}

impl Events {
    /// JSON lines (each an object with timestamp, level, target, message and the
    /// fields), or text (`TIME LEVEL target: message key=value ...`).
    fn read(text: &str, format: &str) -> Events {
        Events(
            text.lines()
                .map(|line| {
                    if format == "json" {
                        let value: serde_json::Value = serde_json::from_str(line)
                            .unwrap_or_else(|e| panic!("not JSON, {e}: {line}"));
                        let object = value.as_object().expect("an object");
                        for key in ["timestamp", "level", "target", "message"] {
                            assert!(object.contains_key(key), "no {key}: {line}");
                        }
                        let fields = object
                            .iter()
                            .filter(|(key, _)| {
                                !["timestamp", "level", "target", "message"].contains(&key.as_str())
                            })
                            .map(|(key, value)| {
                                let value = value
                                    .as_str()
                                    .map_or_else(|| value.to_string(), str::to_owned);
                                (key.clone(), value)
                            })
                            .collect();
                        Event {
                            level: object["level"].as_str().unwrap().to_owned(),
                            message: object["message"].as_str().unwrap().to_owned(),
                            fields,
                        }
                    } else {
                        // `2026-12-01T00:00:00.000000Z  INFO snowflake_server: message key=value`
                        let mut words = line.split_whitespace();
                        let _time = words.next();
                        let level = words.next().unwrap_or_default().to_owned();
                        let rest = line.split_once(": ").map_or("", |(_, rest)| rest);
                        let (message, fields) = split_fields(rest);
                        Event {
                            level,
                            message,
                            fields,
                        }
                    }
                })
                .collect(),
        )
    }
}

/// A text event's message and its `key=value` fields: a value runs to the next
/// ` key=`, quotes around it dropped (tracing writes `%` values bare, `?` ones quoted).
fn split_fields(rest: &str) -> (String, std::collections::HashMap<String, String>) {
    let bytes = rest.as_bytes();
    let starts: Vec<(usize, usize)> = (0..bytes.len())
        .filter(|&i| i == 0 || bytes[i - 1] == b' ')
        .filter_map(|i| {
            let name = rest[i..]
                .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
                .map(|n| i + n)?;
            (name > i && bytes[name] == b'=').then_some((i, name))
        })
        .collect();
    let message = rest[..starts.first().map_or(rest.len(), |&(i, _)| i)].trim();
    let fields = starts
        .iter()
        .enumerate()
        .map(|(k, &(i, eq))| {
            let end = starts.get(k + 1).map_or(rest.len(), |&(next, _)| next);
            let value = rest[eq + 1..end].trim();
            (rest[i..eq].to_owned(), value.trim_matches('"').to_owned())
        })
        .collect();
    (message.to_owned(), fields)
}
