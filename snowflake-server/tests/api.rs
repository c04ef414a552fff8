//! The API's contract through real HTTP on loopback: the library's service in this process,
//! and the binary where only a process shows it (flags, exit statuses, signals).

mod support;

use std::process::Command;

use support::{Server, count_distinct, error_event, fetch_ids};

const REFERENCE_BINARY: &str =
    "0 00000000000000000000000000000001111101000 00001 00001 000000000000";

#[test]
fn compose_and_decode_known_answers() {
    let server = Server::without_identity();
    let answer = server.get("/v1/compose?ts=1288834975657&dc=1&machine=1&seq=0");
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.json(),
        serde_json::json!({
            "id": "4194439168", "timestamp_ms": 1288834975657_u64, "time": "2010-11-04T01:42:55.657Z",
            "datacenter": 1, "machine": 1, "sequence": 0, "binary": REFERENCE_BINARY,
            "segments": [
                {"name": "sign", "key": "sign", "bits": "0", "value": 0},
                {"name": "timestamp", "key": "ts", "bits": "00000000000000000000000000000001111101000", "value": 1000},
                {"name": "datacenter", "key": "dc", "bits": "00001", "value": 1},
                {"name": "machine", "key": "machine", "bits": "00001", "value": 1},
                {"name": "sequence", "key": "seq", "bits": "000000000000", "value": 0}
            ]
        })
    );
    let tweet = server.get("/v1/decode/1541815603606036480").json();
    assert_eq!(tweet["time"], "2022-06-28T16:07:40.105Z");
    assert_eq!(
        (tweet["datacenter"].as_u64(), tweet["machine"].as_u64()),
        (Some(11), Some(26))
    );
    let dated = server
        .get("/v1/compose?ts=2022-06-28T16:07:40.105Z&dc=11&machine=26")
        .json();
    assert_eq!(dated["id"], "1541815603606036480");
    // Whole seconds still have three fraction digits.
    let whole = server
        .get("/v1/compose?ts=1656432460000&dc=0&machine=0")
        .json();
    assert_eq!(whole["time"], "2022-06-28T16:07:40.000Z");
    // Blank timestamp: now.
    let now = server.get("/v1/compose?ts=&dc=1&machine=1").json();
    let ms = now["timestamp_ms"].as_u64().unwrap();
    assert!(ms > 1_700_000_000_000);
}

#[test]
fn bad_input_is_a_400_naming_the_field() {
    let server = Server::without_identity();
    for (path, field, message) in [
        (
            "/v1/compose?ts=1288834975657&dc=32&machine=1",
            "dc",
            "datacenter 32 is out of range 0..=31 (5 bits)",
        ),
        (
            "/v1/compose?ts=1288834975657&dc=1&machine=32",
            "machine",
            "machine 32 is out of range 0..=31 (5 bits)",
        ),
        (
            "/v1/compose?ts=1288834975657&dc=1&machine=1&seq=4096",
            "seq",
            "sequence 4096 is out of range 0..=4095 (12 bits)",
        ),
        (
            "/v1/compose?ts=1&dc=1&machine=1",
            "ts",
            "timestamp 1 ms is out of range 1288834974657..=3487858230208 ms",
        ),
        (
            "/v1/compose?ts=2022-06-28716:07:40Z&dc=1&machine=1",
            "ts",
            "expected `T` between the date and the time at byte 10",
        ),
        (
            "/v1/compose?dc=-1&machine=1",
            "dc",
            "datacenter \"-1\" is negative; expected a whole number in 0..=31",
        ),
        (
            "/v1/compose?dc=1",
            "machine",
            "machine is empty; expected a whole number in 0..=31",
        ),
        ("/v1/decode/abc", "id", "invalid character `a` at byte 0"),
        ("/v1/decode/18446744073709551615", "id", "number too large"),
        ("/v1/decode/9223372036854775808", "id", "number too large"),
        (
            "/v1/ids?count=0",
            "count",
            "count 0 is out of range 1..=4096",
        ),
        (
            "/v1/ids?count=4097",
            "count",
            "count 4097 is out of range 1..=4096",
        ),
        ("/v1/ids?count=x", "count", "not a whole number"),
        ("/v1/decode/%FF%FE", "id", "not valid UTF-8"),
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, 400, "{path}: {}", answer.body);
        let error = &answer.json()["error"];
        assert_eq!(error["field"], field, "{path}");
        assert!(
            error["message"].as_str().unwrap().contains(message),
            "{path}: {error}"
        );
    }
    // Every bad field at once.
    let errors = server
        .get("/v1/compose?ts=x&dc=32&machine=40&seq=5000")
        .json();
    let fields: Vec<&str> = errors["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["ts", "dc", "machine", "seq"]);
}

#[test]
fn without_an_identity_ids_are_503_with_retry_after() {
    let server = Server::without_identity();
    for path in ["/v1/id", "/v1/ids?count=3", "/readyz"] {
        let answer = server.get(path);
        assert_eq!(answer.status, 503, "{path}");
        assert_eq!(answer.header("retry-after"), Some("1"));
        assert!(
            answer.json()["error"]["message"]
                .as_str()
                .unwrap()
                .contains("--dc N --machine N")
        );
    }
    assert_eq!(server.get("/healthz").status, 200);
    assert_eq!(server.get("/v1/identity").json()["kind"], "none");
    let metrics = server.get("/metrics").body;
    assert!(
        metrics.lines().any(|l| l == "snowflake_refusals_total 2"),
        "{metrics}"
    );
}

#[test]
fn ids_are_distinct_increasing_strings() {
    let server = Server::unleased(3, 4);
    let one = server.get("/v1/id").json();
    let id: u64 = one["id"].as_str().unwrap().parse().unwrap();
    let batch = server.get("/v1/ids?count=4096").json();
    let ids: Vec<u64> = batch["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids.len(), 4096);
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert!(ids[0] > id);
    let decoded = snowflake_kit::Snowflake::from_u64(ids[0]).unwrap();
    assert_eq!((decoded.datacenter(), decoded.machine()), (3, 4));
    assert_eq!(
        server.get("/v1/ids").json()["ids"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let identity = server.get("/v1/identity").json();
    assert_eq!(
        identity,
        serde_json::json!({"kind": "unleased", "datacenter": 3, "machine": 4})
    );
    // The same word in the metrics: an identity nobody leases.
    let metrics = server.get("/metrics").body;
    assert!(
        metrics
            .contains(r#"snowflake_identity_info{datacenter="3",kind="unleased",machine="4"} 1"#),
        "{metrics}"
    );
    assert_eq!(server.get("/readyz").status, 200);
}

#[test]
fn many_concurrent_clients_never_see_a_duplicate() {
    let server = Server::unleased(1, 1);
    let addr = server.addr.clone();
    let threads: Vec<_> = (0..8)
        .map(|n| {
            let addr = addr.clone();
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                for i in 0..100 {
                    let path = if (i + n) % 10 == 0 {
                        "/v1/ids?count=100"
                    } else {
                        "/v1/id"
                    };
                    ids.extend(fetch_ids(&addr, path));
                }
                ids
            })
        })
        .collect();
    // Each thread: ten batches of 100 and 90 single IDs, every one answered.
    assert_eq!(count_distinct(threads), 8 * (10 * 100 + 90));
}

#[test]
fn unknown_paths_are_404_and_metrics_count_them() {
    let server = Server::unleased(1, 1);
    let answer = server.get("/nope");
    assert_eq!(answer.status, 404);
    assert!(answer.json()["error"]["message"].is_string());
    server.get("/v1/id");
    server.get("/v1/ids?count=10");
    server.get("/v1/compose?dc=99&machine=1");
    let metrics = server.get("/metrics");
    assert_eq!(metrics.status, 200);
    for line in [
        "snowflake_ids_issued_total 11",
        "snowflake_http_requests_total{endpoint=\"/v1/id\",status=\"200\"} 1",
        "snowflake_http_requests_total{endpoint=\"/v1/compose\",status=\"400\"} 1",
        "snowflake_http_requests_total{endpoint=\"unmatched\",status=\"404\"} 1",
        "snowflake_lease_losses_total 0",
        "snowflake_refusals_total 0",
    ] {
        assert!(
            metrics.body.lines().any(|l| l == line),
            "{line} in\n{}",
            metrics.body
        );
    }
}

#[test]
fn other_methods_are_405_and_head_issues_nothing() {
    let server = Server::unleased(1, 1);
    for (method, path) in [
        ("POST", "/v1/id"),
        ("DELETE", "/"),
        ("PUT", "/v1/ids"),
        ("HEAD", "/v1/ids?count=4096"),
        ("HEAD", "/v1/id"),
    ] {
        let answer = support::request_method(&server.addr, method, path);
        assert_eq!(answer.status, 405, "{method} {path}");
        // What is allowed there, exactly: a HEAD of an ID endpoint is not.
        let allow = if path == "/" { "GET, HEAD" } else { "GET" };
        assert_eq!(answer.header("allow"), Some(allow), "{method} {path}");
        if method != "HEAD" {
            assert!(
                answer.json()["error"]["message"].is_string(),
                "{method} {path}"
            );
        }
    }
    let metrics = server.get("/metrics").body;
    assert!(
        metrics.lines().any(|l| l == "snowflake_ids_issued_total 0"),
        "{metrics}"
    );
    let answer = server.get("/v1/id");
    assert_eq!(answer.header("cache-control"), Some("no-store"));
    assert_eq!(
        server.get("/v1/ids?count=2").header("cache-control"),
        Some("no-store")
    );
    // The counter that stood at 0 counts: the GETs' three IDs.
    let metrics = server.get("/metrics").body;
    assert!(
        metrics.lines().any(|l| l == "snowflake_ids_issued_total 3"),
        "{metrics}"
    );
}

/// A repeated parameter is a 400 naming it, whichever of its values comes first.
#[test]
fn a_repeated_parameter_is_a_400_naming_it() {
    let server = Server::unleased(1, 1);
    for (path, field, times) in [
        ("/v1/ids?count=4097&count=2", "count", 2),
        ("/v1/ids?count=2&count=4097", "count", 2),
        ("/v1/compose?dc=1&dc=2&machine=1", "dc", 2),
        ("/v1/compose?dc=1&machine=1&seq=1&seq=2&seq=3", "seq", 3),
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status, 400, "{path}");
        let error = &answer.json()["error"];
        assert_eq!(error["field"], field, "{path}");
        assert_eq!(
            error["message"],
            format!("{field} is given {times} times; give it once"),
            "{path}"
        );
    }
    assert_eq!(server.get("/v1/ids?count=2").status, 200);
}

#[test]
fn odd_requests_never_get_a_500() {
    let server = Server::unleased(1, 1);
    for path in [
        "/v1/decode/",
        "/v1/decode/%FF%FE",
        "/v1/decode/1%202",
        "/v1/compose?ts=%E2%80%8B&dc=1&machine=1",
        "/v1/compose?dc=1&dc=2&machine=1",
        "/v1/ids?count=99999999999999999999999",
        "/?ts=%3Cscript%3E&dc=1&machine=1",
        "/?id=%3Cb%3E",
        "/?dc=%22%3E%3Cb%3E&machine=1",
        "/v1/id/extra",
    ] {
        let answer = server.get(path);
        assert!(
            answer.status < 500,
            "{path}: {} {}",
            answer.status,
            answer.body
        );
        // The page's own script, and nothing the request brought.
        assert!(
            answer.body.matches("<script>").count() <= 1,
            "{path} echoed markup"
        );
        assert!(!answer.body.contains("<b>"), "{path} echoed markup");
        // What each did answer: the page, whatever its fields say, or an error of the API.
        if path.starts_with("/?") {
            assert_eq!(answer.status, 200, "{path}");
            assert_eq!(answer.body.matches("<script>").count(), 1, "{path}");
        } else {
            assert!(
                (400..500).contains(&answer.status),
                "{path}: {}",
                answer.status
            );
            assert!(answer.json()["error"]["message"].is_string(), "{path}");
        }
    }
}

/// TLS and auth flags: a file that names nothing, half a pair, a password without its
/// user or the other way round, never a password in a flag.
#[test]
fn bad_flags_are_one_line_and_exit_2() {
    for (args, message) in [
        (
            &["--dc", "32", "--machine", "1"][..],
            "--dc: datacenter 32 is out of range 0..=31 (5 bits)",
        ),
        (&["--dc", "1"], "--dc needs --machine too"),
        (&["--listen", "nonsense"], "invalid --listen \"nonsense\""),
        (
            &["--auto"],
            "--auto is about a leased identity: it needs --etcd URL or --postgres URL",
        ),
        (
            &["--etcd", "ftp://x:1", "--auto"],
            "--etcd: invalid etcd endpoint \"ftp://x:1\"",
        ),
        (
            &[
                "--etcd",
                "http://127.0.0.1:2379",
                "--auto",
                "--lease-ttl",
                "0",
            ],
            "--lease-ttl 0 is out of range: expected whole seconds in 1..=3600",
        ),
        (&["--etcd", "http://127.0.0.1:2379"], "--etcd needs --auto"),
        (
            &["--etcd", "http://127.0.0.1:2379", "--dc", "40", "--auto"],
            "--dc: datacenter 40 is out of range 0..=31 (5 bits)",
        ),
        (
            &["--etcd", "http://127.0.0.1:2379", "--dc", "4"],
            "--dc needs --machine too, or --auto (with --etcd or --postgres) for any free machine of it",
        ),
        (
            &[
                "--etcd",
                "http://127.0.0.1:2379",
                "--dc",
                "4",
                "--machine",
                "1",
                "--auto",
            ],
            "--auto and --machine exclude each other",
        ),
        (
            &["--claim-wait", "5"],
            "--claim-wait is about a leased identity: it needs --etcd URL or --postgres URL",
        ),
        (
            &[
                "--etcd",
                "http://127.0.0.1:2379",
                "--auto",
                "--claim-wait",
                "x",
            ],
            "--claim-wait \"x\" is not a whole number of decimal digits: expected whole seconds \
             in 0..=3600",
        ),
        (
            &["--lease-ttl", "0"],
            "--lease-ttl is about a leased identity: it needs --etcd URL or --postgres URL",
        ),
        (
            &["--etcd-prefix", "/x"],
            "--etcd-prefix is about an identity leased from etcd",
        ),
        (
            &[
                "--etcd",
                "http://127.0.0.1:2379",
                "--auto",
                "--etcd-prefix",
                "bad",
            ],
            "--etcd-prefix: invalid key prefix \"bad\"",
        ),
        (&["--bogus"], "unexpected argument '--bogus'"),
    ] {
        usage(args, message);
    }
}

#[test]
fn bad_etcd_access_flags_are_one_line_and_exit_2() {
    for (args, message) in [
        (
            &["--etcd", "http://x:1,https://y:1", "--auto"][..],
            "--etcd: invalid etcd endpoint \"http://x:1,https://y:1\": the members mix",
        ),
        (
            &["--etcd", "https://x:1", "--auto"],
            "--etcd https://... needs --etcd-ca FILE",
        ),
        (
            &["--etcd", "http://x:1", "--auto", "--etcd-ca", "Cargo.toml"],
            "--etcd-ca is for https:// members",
        ),
        (
            &[
                "--etcd",
                "https://x:1",
                "--auto",
                "--etcd-ca",
                "/nowhere/ca.pem",
            ],
            "--etcd-ca \"/nowhere/ca.pem\": cannot read it: No such file or directory",
        ),
        (
            &[
                "--etcd",
                "https://x:1",
                "--auto",
                "--etcd-ca",
                "Cargo.toml",
                "--etcd-cert",
                "Cargo.toml",
            ],
            "--etcd-cert needs --etcd-key too",
        ),
        (
            &[
                "--etcd",
                "https://x:1",
                "--auto",
                "--etcd-ca",
                "Cargo.toml",
                "--etcd-key",
                "Cargo.toml",
            ],
            "--etcd-key needs --etcd-cert too",
        ),
        (
            &[
                "--etcd",
                "http://x:1",
                "--auto",
                "--etcd-cert",
                "Cargo.toml",
                "--etcd-key",
                "Cargo.toml",
            ],
            "--etcd-cert and --etcd-key are for https:// members",
        ),
        (
            &["--etcd", "http://x:1", "--auto", "--etcd-user", "snowflake"],
            "--etcd-user needs a password: --etcd-password-file FILE, or the environment variable \
             SNOWFLAKE_ETCD_PASSWORD",
        ),
        (
            &[
                "--etcd",
                "http://x:1",
                "--auto",
                "--etcd-user",
                "u",
                "--etcd-password-file",
                "/nowhere",
            ],
            "--etcd-password-file \"/nowhere\": cannot read it",
        ),
        (
            &[
                "--etcd",
                "http://x:1",
                "--auto",
                "--etcd-password-file",
                "Cargo.toml",
            ],
            "--etcd-password-file needs --etcd-user",
        ),
        (
            &["--etcd-user", "u"],
            "--etcd-user is about an identity leased from etcd: it needs --etcd URL",
        ),
    ] {
        usage(args, message);
    }
}

#[test]
fn bad_postgres_flags_are_one_line_and_exit_2() {
    for (args, message) in [
        (
            &[
                "--etcd",
                "http://127.0.0.1:2379",
                "--postgres",
                "postgres://db/x",
                "--auto",
            ][..],
            "--etcd and --postgres exclude each other: lease the identity from one store",
        ),
        (
            &["--postgres", "postgres://db/x"],
            "--postgres needs --auto (any free identity), --dc N --auto",
        ),
        (
            &["--postgres", "http://db:2379", "--auto"],
            "--postgres: invalid PostgreSQL URL \"http://db:2379\": expected postgres://",
        ),
        (
            &["--postgres", "postgres://ids:s3cret@db:x/app", "--auto"],
            "--postgres: invalid PostgreSQL URL \"postgres://***@db:x\"",
        ),
        (
            &["--postgres-schema", "ids"],
            "--postgres-schema is about an identity leased from PostgreSQL: it needs --postgres URL",
        ),
        (
            &[
                "--postgres",
                "postgres://db/x",
                "--auto",
                "--postgres-schema",
                "Bad-Name",
            ],
            "--postgres-schema: invalid lease option: schema \"Bad-Name\": expected lower-case",
        ),
        (
            &[
                "--postgres",
                "postgres://db/x",
                "--auto",
                "--etcd-prefix",
                "/x",
            ],
            "--etcd-prefix is about an identity leased from etcd; --postgres leases from PostgreSQL",
        ),
        (
            &[
                "--etcd",
                "http://127.0.0.1:2379",
                "--auto",
                "--postgres-ca",
                "ca.pem",
            ],
            "--postgres-ca is about an identity leased from PostgreSQL; --etcd leases from etcd",
        ),
        (
            &[
                "--postgres",
                "postgres://db/x",
                "--auto",
                "--postgres-ca",
                "/nonexistent/ca.pem",
            ],
            "--postgres-ca \"/nonexistent/ca.pem\": cannot read it",
        ),
        (
            &[
                "--postgres",
                "postgres://ids:s3cret@db/x",
                "--auto",
                "--postgres-password-file",
                "/dev/null",
            ],
            "--postgres-password-file: the URL has a password already; give one of them",
        ),
        (
            &["--print-postgres-schema", "--postgres-schema", "a-b"],
            "--postgres-schema: invalid lease option: schema \"a-b\"",
        ),
    ] {
        usage(args, message);
    }
}

/// TLS to PostgreSQL: asked for without a CA, asked for in libpq's words, or a CA that is
/// no certificate: each a bad flag, before any connection.
#[test]
fn bad_postgres_tls_flags_are_one_line_and_exit_2() {
    for (args, message) in [
        (
            &["--postgres", "postgres://db/x?sslmode=require", "--auto"][..],
            "--postgres: invalid PostgreSQL URL \"postgres://db:5432/x\": sslmode=require needs the CA",
        ),
        (
            &[
                "--postgres",
                "postgres://db/x?sslmode=verify-full",
                "--auto",
            ],
            "--postgres: invalid PostgreSQL URL \"postgres://db\": sslmode=verify-ca and verify-full are libpq's",
        ),
        (
            &[
                "--postgres",
                "postgres://db/x",
                "--auto",
                "--postgres-ca",
                "/dev/null",
            ],
            "--postgres-ca \"/dev/null\": the CA: no certificate in it",
        ),
    ] {
        usage(args, message);
    }
}

/// Every flag has its variable, `--lease-ttl` `SNOWFLAKE_LEASE_TTL` and so on, named in
/// `--help`, read by the same rules, and beaten by the flag when both are given.
#[test]
fn every_flag_comes_from_its_environment_variable_too() {
    let help = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let flags: Vec<&str> = help
        .split_whitespace()
        .filter(|word| word.starts_with("--") && word.len() > 2)
        .map(|word| word.trim_end_matches([',', '.', ')', ':']))
        // Actions, not settings: nothing to read from the environment.
        .filter(|flag| !["--help", "--version", "--print-postgres-schema"].contains(flag))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(flags.len() >= 14, "{flags:?}");
    for flag in flags {
        let variable = format!("SNOWFLAKE_{}", flag[2..].replace('-', "_").to_uppercase());
        assert!(
            help.contains(&format!("[env: {variable}")),
            "{flag}: no {variable} in\n{help}"
        );
    }

    let env_usage = |env: &[(&str, &str)], message: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
            .envs(env.iter().copied())
            .env_remove("SNOWFLAKE_ETCD_PASSWORD")
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{env:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("error: {message}")),
            "{env:?}: {stderr}"
        );
    };
    env_usage(
        &[("SNOWFLAKE_DC", "32"), ("SNOWFLAKE_MACHINE", "1")],
        "--dc: datacenter 32 is out of range 0..=31 (5 bits)",
    );
    env_usage(
        &[("SNOWFLAKE_LISTEN", "nonsense")],
        "invalid --listen \"nonsense\"",
    );
    env_usage(
        &[("SNOWFLAKE_AUTO", "true")],
        "--auto is about a leased identity: it needs --etcd URL or --postgres URL",
    );
    env_usage(
        &[
            ("SNOWFLAKE_ETCD", "http://127.0.0.1:2379"),
            ("SNOWFLAKE_AUTO", "1"),
            ("SNOWFLAKE_LEASE_TTL", "0"),
        ],
        "--lease-ttl 0 is out of range: expected whole seconds in 1..=3600",
    );
    env_usage(
        &[
            ("SNOWFLAKE_POSTGRES", "postgres://db/x"),
            ("SNOWFLAKE_AUTO", "1"),
            ("PGSSLMODE", "verify-full"),
        ],
        "PGSSLMODE=verify-full is libpq's and is not read: give --postgres-ca FILE",
    );
    env_usage(
        &[("SNOWFLAKE_LOG_FORMAT", "xml")],
        "invalid value 'xml' for '--log-format",
    );

    // The flag beats its variable: `Server` gives --listen 127.0.0.1:0 and --machine 5.
    let server = Server::start_with_env(
        &["--machine", "5"],
        &[
            ("SNOWFLAKE_LISTEN", "nonsense"),
            ("SNOWFLAKE_DC", "3"),
            ("SNOWFLAKE_MACHINE", "40"),
        ],
    );
    let identity = server.get("/v1/identity").json();
    assert_eq!(
        (
            identity["datacenter"].as_u64(),
            identity["machine"].as_u64()
        ),
        (Some(3), Some(5)),
        "{identity}"
    );
}

/// Runs the server with `args`: exit status 2 and one line, starting with `message`.
fn usage(args: &[&str], message: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(args)
        .env_remove("SNOWFLAKE_ETCD_PASSWORD")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.starts_with(&format!("error: {message}")),
        "{args:?}: {stderr}"
    );
}

#[test]
fn a_log_filter_that_is_no_filter_is_one_line_and_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--listen", "127.0.0.1:0"])
        .env("RUST_LOG", "info,[")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(
            "error: RUST_LOG \"info,[\" is not a filter such as info or snowflake_lease=debug: "
        ),
        "{stderr}"
    );
}

#[test]
fn a_port_in_use_and_a_silent_etcd_exit_1_naming_them() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--listen", &addr])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = error_event(&out.stderr);
    assert!(
        message.starts_with(&format!("cannot listen on {addr}")),
        "{message}"
    );
    let free = snowflake_test_support::free_port();
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--etcd", &format!("http://127.0.0.1:{free}"), "--auto"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = error_event(&out.stderr);
    assert!(
        message.starts_with(&format!(
            "cannot reach etcd at http://127.0.0.1:{free} (giving up after 5s): "
        )),
        "{message}"
    );
}

#[test]
fn sigterm_and_ctrl_c_exit_0() {
    for signal in ["-TERM", "-INT"] {
        let server = Server::start(&["--dc", "1", "--machine", "1"]);
        assert_eq!(server.get("/v1/id").status, 200);
        assert!(server.signal(signal).success(), "{signal}");
    }
}

#[test]
fn a_half_sent_request_does_not_hold_the_shutdown() {
    use std::io::Write;
    let server = Server::start(&["--dc", "1", "--machine", "1"]);
    let mut stuck = std::net::TcpStream::connect(&server.addr).unwrap();
    write!(stuck, "GET /healthz HTTP/1.1\r\nHost: x\r\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(100));
    let started = std::time::Instant::now();
    assert!(server.signal("-TERM").success());
    // The drain time, 10 s, and not forever.
    assert!(started.elapsed() < std::time::Duration::from_secs(12));
}

/// Sends `raw` as it is, and reads the answer until the server closes.
fn raw_request(addr: &str, raw: &[u8]) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream.write_all(raw).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// A request head past the server's own limits is a JSON error, counted; one that hyper
/// refuses before routing (a malformed request line) is counted too.
#[test]
fn heads_past_the_limits_are_json_errors_and_counted() {
    use std::fmt::Write;
    let server = Server::unleased(1, 1);
    let long = format!("/v1/ids?count=1&pad={}", "a".repeat(20 * 1024));
    let answer = raw_request(
        &server.addr,
        format!("GET {long} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    assert!(answer.starts_with("HTTP/1.1 414 "), "{answer}");
    assert!(
        answer.contains(r#"{"error":{"field":null,"message":"the path and query are 20500 bytes long; at most 8192 are read"}}"#),
        "{answer}"
    );
    let headers = (0..200).fold(String::new(), |mut headers, i| {
        let _ = write!(headers, "X-Pad-{i}: {i}\r\n");
        headers
    });
    let answer = raw_request(
        &server.addr,
        format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{headers}Connection: close\r\n\r\n")
            .as_bytes(),
    );
    assert!(answer.starts_with("HTTP/1.1 431 "), "{answer}");
    assert!(
        answer.contains("the request has 202 header fields; at most 100 are read"),
        "{answer}"
    );
    // What hyper answers before routing is JSON too.
    let answer = raw_request(&server.addr, b"NOT A REQUEST LINE\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
    assert!(
        answer.ends_with(r#"{"error":{"field":null,"message":"the request's head could not be read: expected `METHOD /path HTTP/1.1`, then header lines"}}"#),
        "{answer}"
    );
    let huge = format!(
        "GET /v1/id?pad={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(100 * 1024)
    );
    let answer = raw_request(&server.addr, huge.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 414 "), "{answer}");
    assert!(answer.contains("application/json"), "{answer}");
    assert!(
        answer.ends_with(r#""the URL is longer than the 64 KiB the server reads"}}"#),
        "{answer}"
    );
    // A connection is counted once it has ended, which may be a moment after its answer
    // was read: the counts are awaited, for five seconds at most.
    let lines = [
        "snowflake_http_requests_total{endpoint=\"/v1/ids\",status=\"414\"} 1",
        "snowflake_http_requests_total{endpoint=\"/healthz\",status=\"431\"} 1",
        "snowflake_connections_closed_total{reason=\"malformed request\"} 1",
        "snowflake_connections_closed_total{reason=\"request head too large\"} 1",
    ];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let metrics = server.get("/metrics").body;
        let missing = lines
            .iter()
            .find(|&&line| !metrics.lines().any(|l| l == line));
        match missing {
            None => break,
            Some(line) if std::time::Instant::now() > deadline => {
                panic!("{line} in {metrics}")
            }
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
        }
    }
}

/// The README's list of flags is `--help`'s, line for line (trailing spaces aside): the
/// flags are written down once, in the code.
#[test]
fn the_readme_shows_the_flags_as_help_prints_them() {
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let trimmed = |text: &str| -> String {
        text.lines()
            .flat_map(|line| [line.trim_end(), "\n"])
            .collect()
    };
    let help = trimmed(&String::from_utf8(out.stdout).unwrap());
    assert!(help.contains("--postgres-schema <NAME>"), "{help}");
    let readme = trimmed(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap(),
    );
    assert!(
        readme.contains(&format!("```text\n{help}```\n")),
        "snowflake-server/README.md does not show `snowflake-server --help` as it prints it now:\n{help}"
    );
}
