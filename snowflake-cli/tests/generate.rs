//! `snowflake generate`, run as a user runs it: live IDs of the identity asked for, the
//! count and its errors, the warning in its help, and a reader that leaves early.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use support::{bad, field, now_ms, ok};

#[test]
fn generate_ids() {
    let out = ok(&["generate", "--dc", "5", "--machine", "6", "-n", "5000"]);
    let ids: Vec<u64> = out
        .lines()
        .map(|line| line.parse().expect("decimal"))
        .collect();
    assert_eq!(ids.len(), 5000);
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    assert!(
        ids.iter()
            .all(|id| (id >> 17) & 31 == 5 && (id >> 12) & 31 == 6)
    );
    let before = now_ms();
    let newest = (ids[4999] >> 22) + 1_288_834_974_657;
    assert!(
        newest <= before && before - newest < 60_000,
        "{newest} {before}"
    );
}

#[test]
fn generate_json_and_defaults() {
    let json = ok(&[
        "generate",
        "--dc",
        "31",
        "--machine",
        "0",
        "--json",
        "--count",
        "3",
    ]);
    assert_eq!(json.lines().count(), 3);
    assert!(
        json.lines()
            .all(|line| field(line, "datacenter") == "31" && field(line, "machine") == "0")
    );
    assert_eq!(
        ok(&["generate", "--dc", "1", "--machine", "1"])
            .lines()
            .count(),
        1
    );
    assert_eq!(
        ok(&["generate", "--dc", "1", "--machine", "1", "-n", "0"]),
        ""
    );
}

#[test]
fn closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(["generate", "--dc", "1", "--machine", "1", "-n", "100000000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut first)
        .expect("a line");
    // The reader is gone now, as after `| head -1`.
    let out = child.wait_with_output().expect("ends");
    assert!(first.trim().parse::<u64>().is_ok(), "{first}");
    assert!(out.status.success(), "{:?}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn generate_help_warns_about_duplicate_ids() {
    let help = ok(&["generate", "--help"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        help.contains(
            "two processes with the same --dc and --machine at the same time can issue the same IDs"
        ),
        "{help}"
    );
    assert!(
        help.contains("its own identity (--dc/--machine)")
            && help.contains("one long-running generator"),
        "{help}"
    );
}

#[test]
fn count_errors_name_the_flag_written() {
    let base = ["generate", "--dc", "1", "--machine", "1"];
    for (count, expected) in [
        (
            &["--count", "ten"][..],
            "error: --count \"ten\" is not a whole number of decimal digits",
        ),
        (
            &["--count=ten"],
            "error: --count \"ten\" is not a whole number of decimal digits",
        ),
        (
            &["-n", "ten"],
            "error: -n \"ten\" is not a whole number of decimal digits",
        ),
        (
            &["-nten"],
            "error: -n \"ten\" is not a whole number of decimal digits",
        ),
    ] {
        assert_eq!(bad(&[&base[..], count].concat(), ""), expected, "{count:?}");
    }
}
