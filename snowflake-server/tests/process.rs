//! The binary, where only a process shows it: a bad flag and a bad log filter (exit status
//! 2, one line), a port in use and a silent store (1, an ERROR event), the stop signals
//! (0), the flags read from the environment and `--help` as the README shows it. The flags'
//! rules, case by case, are the unit tests of `Flags` (`src/flags.rs`).

mod support;

use std::process::Command;

use support::{Server, error_event};

/// A bad flag, the library's or clap's: one line, exit status 2, as every case of the
/// tables in `src/flags.rs` would be.
#[test]
fn a_bad_flag_is_one_line_and_exit_2() {
    usage(
        &["--dc", "32", "--machine", "1"],
        "invalid value '32' for '--dc <N>': datacenter 32 is out of range 0..=31 (5 bits)",
    );
    // A rule that clap writes over several lines, said on one.
    usage(
        &["--dc", "1"],
        "the following required arguments were not provided: <--auto|--machine <N>>",
    );
    usage(&["--bogus"], "unexpected argument '--bogus'");
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

    let env_usage = |env: &[(&str, &str)], message: &str| usage_with(&[], env, message);
    env_usage(
        &[("SNOWFLAKE_DC", "32"), ("SNOWFLAKE_MACHINE", "1")],
        "invalid value '32' for '--dc <N>': datacenter 32 is out of range 0..=31 (5 bits)",
    );
    env_usage(
        &[("SNOWFLAKE_LISTEN", "nonsense")],
        "invalid value 'nonsense' for '--listen <ADDR>'",
    );
    env_usage(
        &[("SNOWFLAKE_AUTO", "true")],
        "the following required arguments were not provided: <--etcd <URL[,URL...]>|--postgres \
         <URL>>",
    );
    env_usage(
        &[
            ("SNOWFLAKE_ETCD", "http://127.0.0.1:2379"),
            ("SNOWFLAKE_AUTO", "1"),
            ("SNOWFLAKE_LEASE_TTL", "0"),
        ],
        "invalid value '0' for '--lease-ttl <SECONDS>': 0 is out of range: expected whole \
         seconds in 1..=3600",
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
    usage_with(args, &[], message);
}

/// As `usage`, with `env` set.
fn usage_with(args: &[&str], env: &[(&str, &str)], message: &str) {
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake-server"))
        .args(args)
        .envs(env.iter().copied())
        .env_remove("SNOWFLAKE_ETCD_PASSWORD")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?} {env:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?} {env:?}: {stderr}");
    assert!(
        stderr.starts_with(&format!("error: {message}")),
        "{args:?} {env:?}: {stderr}"
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
            "cannot claim the identity: cannot reach etcd at http://127.0.0.1:{free} (giving up \
             after 5s): "
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
