//! Servers holding identities leased from a real PostgreSQL on loopback (`--postgres`).

mod support;

use std::collections::HashSet;
use std::process::Command;
use std::time::{Duration, Instant};

use snowflake_test_support::Postgres;
use support::{Server, count_distinct, error_event, fetch_ids, json_lines, text};

/// Four servers on a PostgreSQL that demands TLS and a password (from a file, and from
/// `PGPASSWORD`): four identities, say which store in `/v1/identity` and `/metrics`, never
/// repeat an ID, and never show the password, in an answer, a metric or a log line.
/// SIGTERM frees an identity for the next server at once.
#[test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
fn servers_on_postgres_hold_their_own_identities_and_never_show_the_password() {
    let pg = Postgres::start_with(&[], true);
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let password_file = dir.join("password");
    std::fs::write(&password_file, format!("{}\n", Postgres::PASSWORD)).unwrap();
    let (url, ca, file) = (pg.ids_url(), text(&pg.ca()), text(&password_file));
    let common = ["--postgres", &url, "--postgres-ca", &ca, "--lease-ttl", "3"];
    let from_file = [&common[..], &["--postgres-password-file", &file]].concat();
    let choices: [&[&str]; 4] = [
        &["--auto"],
        &["--auto"],
        &["--dc", "4", "--auto"],
        &["--auto"],
    ];
    let servers: Vec<(Server, std::path::PathBuf)> = choices
        .iter()
        .enumerate()
        .map(|(i, choice)| {
            let log = dir.join(format!("{i}.log"));
            // The last one reads libpq's variable instead of a file.
            let (args, env) = if i == 3 {
                (
                    [&common[..], choice].concat(),
                    vec![("PGPASSWORD", Postgres::PASSWORD)],
                )
            } else {
                ([&from_file[..], choice].concat(), vec![])
            };
            (Server::start_logging(&args, &env, &log).ready(), log)
        })
        .collect();
    let mut identities = HashSet::new();
    for ((server, _), choice) in servers.iter().zip(choices) {
        let identity = server.get("/v1/identity");
        let json = identity.json();
        let kind = if choice.contains(&"--dc") {
            "datacenter"
        } else {
            "auto"
        };
        assert_eq!(
            (&json["kind"], &json["store"], &json["state"]),
            (&kind.into(), &"postgres".into(), &"holding".into()),
            "{json}"
        );
        identities.insert((
            json["datacenter"].as_u64().unwrap(),
            json["machine"].as_u64().unwrap(),
        ));
        let metrics = server.get("/metrics").body;
        assert!(
            metrics
                .lines()
                .any(|l| l == r#"snowflake_lease_store_info{store="postgres"} 1"#),
            "{metrics}"
        );
        for body in [identity.body, metrics] {
            assert!(!body.contains(Postgres::PASSWORD));
        }
    }
    assert_eq!(identities.len(), 4);
    assert_eq!(servers[2].0.get("/v1/identity").json()["datacenter"], 4);
    let threads: Vec<_> = servers
        .iter()
        .map(|(server, _)| server.addr.clone())
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
    assert_eq!(count_distinct(threads), 4 * 50 * 65);

    let mut servers = servers;
    let (first, first_log) = servers.remove(0);
    let identity = first.get("/v1/identity").json();
    let (dc, machine) = (
        identity["datacenter"].to_string(),
        identity["machine"].to_string(),
    );
    assert!(first.terminate().success());
    let started = Instant::now();
    let fixed = [&from_file[..], &["--dc", &dc, "--machine", &machine]].concat();
    let next = Server::start(&fixed).ready();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(next.get("/v1/identity").json()["kind"], "exact");
    drop(next);
    drop(servers);
    check_logs(dir, &first_log, &url);
}

/// The logs: the store and database named, the password never.
fn check_logs(dir: &std::path::Path, first_log: &std::path::Path, url: &str) {
    let log = std::fs::read_to_string(first_log).unwrap();
    let listening = json_lines(&log)
        .into_iter()
        .find(|event| event["message"] == "listening; claiming the identity")
        .expect("the start-up event");
    assert_eq!(listening["store"], "postgres");
    assert_eq!(listening["database"], url);
    assert_eq!(listening["tls"], true);
    assert_eq!(listening["schema"], "snowflake");
    assert!(listening["window_ms"].is_u64(), "a number: {listening}");
    let mut logs = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "log") {
            let log = std::fs::read_to_string(entry.path()).unwrap();
            // Each server said that it claimed its identity, and never the password.
            assert!(
                log.contains("identity claimed"),
                "{}",
                entry.path().display()
            );
            assert!(
                !log.contains(Postgres::PASSWORD),
                "{}",
                entry.path().display()
            );
            logs += 1;
        }
    }
    assert_eq!(logs, 4, "a log of each server");
}

/// The database stopped: `/readyz` and the IDs answer 503 with `Retry-After` by the
/// lease's end; started again, the server claims its identity again and is ready.
#[test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
fn a_server_stops_issuing_while_postgres_is_down_and_claims_again() {
    let pg = Postgres::start();
    let server = Server::start(&[
        "--postgres",
        &pg.url(),
        "--dc",
        "9",
        "--machine",
        "9",
        "--lease-ttl",
        "2",
    ])
    .ready();
    assert_eq!(server.get("/v1/id").status, 200);
    pg.stop();
    let stopped = Instant::now();
    loop {
        let ready = server.get("/readyz");
        if ready.status == 503 {
            assert_eq!(ready.header("retry-after"), Some("1"));
            break;
        }
        assert!(stopped.elapsed() < Duration::from_secs(3), "still ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    // Past its reserved time while the lease lasts, then the lease lost: either says so.
    let refused = server.get("/v1/id");
    assert_eq!(refused.status, 503, "{}", refused.body);
    let message = refused.json()["error"]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.ends_with(
            "the reservation of time ahead has not been renewed (is the lease store reachable?)"
        ) || message == "the identity's lease was lost; claiming it again",
        "{message}"
    );
    pg.start_again();
    let back = Instant::now();
    while server.get("/readyz").status != 200 {
        assert!(
            back.elapsed() < Duration::from_secs(15),
            "{}",
            server.get("/v1/identity").body
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(server.get("/v1/id").status, 200);
    assert!(server.terminate().success());
}

/// A wrong password, and a database nobody serves: exit status 1 with one ERROR event
/// naming the cause, never the password.
#[test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
fn a_refused_password_and_an_unreachable_database_exit_1() {
    let pg = Postgres::start();
    let url = pg.ids_url().replace("ids@", "ids:not-the-password@");
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--listen", "127.0.0.1:0", "--postgres", &url, "--auto"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = error_event(&out.stderr);
    assert!(
        message.starts_with(
            "cannot claim the identity: PostgreSQL refused user \"ids\" on the schema snowflake: "
        ),
        "{message}"
    );
    for output in [&out.stdout, &out.stderr] {
        assert!(!String::from_utf8_lossy(output).contains("not-the-password"));
    }
    let free = snowflake_test_support::free_port();
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--listen", "127.0.0.1:0", "--auto"])
        .args([
            "--postgres",
            &format!("postgres://ids@127.0.0.1:{free}/app"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let message = error_event(&out.stderr);
    assert!(
        message.starts_with(&format!(
            "cannot claim the identity: cannot reach PostgreSQL at \
             postgres://ids@127.0.0.1:{free}/app (giving up after 5s): "
        )),
        "{message}"
    );
}

/// `--print-postgres-schema`: SQL that applies as printed to a fresh database, in the
/// schema asked for, which a server then uses as it is.
#[test]
#[ignore = "needs PostgreSQL: bash scripts/test.sh installs it"]
fn the_printed_schema_applies_as_printed_and_is_used() {
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(["--print-postgres-schema", "--postgres-schema", "reviewed"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let sql = String::from_utf8(out.stdout).unwrap();
    assert!(sql.starts_with("-- snowflake-lease"), "{sql}");
    let pg = Postgres::start();
    pg.psql(&format!("BEGIN; {sql} COMMIT;"));
    let server = Server::start(&[
        "--postgres",
        &pg.url(),
        "--postgres-schema",
        "reviewed",
        "--auto",
    ])
    .ready();
    let identity = server.get("/v1/identity").json();
    let held = pg.psql(
        "SELECT datacenter || '/' || machine FROM reviewed.identities WHERE lease_id IS NOT NULL",
    );
    assert_eq!(
        held,
        format!("{}/{}", identity["datacenter"], identity["machine"])
    );
    // Nothing was made in the default schema.
    assert_eq!(
        pg.psql("SELECT to_regclass('snowflake.identities') IS NULL"),
        "t"
    );
}
