//! `snowflake compose`, run as a user runs it: the table and the JSON line, dates, bounds,
//! colour, and every bad field reported at once.

mod support;

use std::process::Command;

use support::{
    Case, SEED, SEED_ARGS, SEED_JSON, TWEET_JSON, assert_bad, bad_lines, field, now_ms, ok,
};

#[test]
fn compose_seed_example() {
    assert_eq!(ok(&[&SEED_ARGS[..], &["--seq", "0"]].concat()), SEED);
}

#[test]
fn compose_seed_example_json() {
    let args = [&SEED_ARGS[..], &["--seq", "0", "--json"]].concat();
    assert_eq!(ok(&args), SEED_JSON);
}

#[test]
fn compose_from_dates_and_defaults() {
    for ts in [
        "2022-06-28T16:07:40.105Z",
        "2022-06-28T18:07:40.105+02:00",
        "1656432460105",
    ] {
        let json = ok(&[
            "compose",
            "--ts",
            ts,
            "--dc",
            "11",
            "--machine",
            "26",
            "--json",
        ]);
        assert_eq!(json, TWEET_JSON, "{ts}");
    }
}

#[test]
fn compose_bounds() {
    let smallest = ok(&[
        "compose",
        "--ts",
        "1288834974657",
        "--dc",
        "0",
        "--machine",
        "0",
        "--json",
    ]);
    assert!(smallest.starts_with(r#"{"id":"0","#), "{smallest}");
    let args = [
        "compose",
        "--ts",
        "3487858230208",
        "--dc",
        "31",
        "--machine",
        "31",
        "--seq",
        "4095",
        "--json",
    ];
    let largest = ok(&args);
    assert!(
        largest.starts_with(r#"{"id":"9223372036854775807","#),
        "{largest}"
    );
    assert!(
        largest.contains(r#""time":"2080-07-10T17:30:30.208Z""#),
        "{largest}"
    );
}

#[test]
fn compose_without_ts_is_now() {
    let before = now_ms();
    let json = ok(&["compose", "--dc", "2", "--machine", "3", "--json"]);
    let after = now_ms();
    let ts: u64 = field(&json, "timestamp_ms").parse().expect("a number");
    assert!(before <= ts && ts <= after, "{before} {ts} {after}");
    assert_eq!(field(&json, "sequence"), "0");
}

#[test]
fn no_colour_off_a_terminal_unless_forced() {
    let args = SEED_ARGS;
    assert!(!ok(&args).contains('\u{1b}'));
    let forced = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(args)
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .output()
        .expect("runs");
    assert!(
        String::from_utf8_lossy(&forced.stdout)
            .contains("\u{1b}[36m00000000000000000000000000000001111101000")
    );
    let no_color = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(args)
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&no_color.stdout), SEED);
}

const COMPOSE_ERRORS: &[Case] = &[
    (
        &["compose", "--dc", "32", "--machine", "1"],
        "",
        "error: --dc: datacenter 32 is out of range 0..=31 (5 bits)",
    ),
    (
        &["compose", "--dc", "1", "--machine", "32"],
        "",
        "error: --machine: machine 32 is out of range 0..=31 (5 bits)",
    ),
    (
        &["compose", "--dc", "1", "--machine", "1", "--seq", "4096"],
        "",
        "error: --seq: sequence 4096 is out of range 0..=4095 (12 bits)",
    ),
    (
        &["compose", "--dc", "-1", "--machine", "1"],
        "",
        "error: --dc: datacenter \"-1\" is negative; expected a whole number in 0..=31",
    ),
    (
        &["compose", "--dc", "0x1", "--machine", "1"],
        "",
        "error: --dc: datacenter \"0x1\" is not a whole number of decimal digits; expected a whole number in 0..=31",
    ),
    (
        &["compose", "--dc", "", "--machine", "1"],
        "",
        "error: --dc: datacenter is empty; expected a whole number in 0..=31",
    ),
    (
        &["compose", "--dc", "1", "--machine", "99999999999999999999"],
        "",
        "error: --machine: machine \"99999999999999999999\" is larger than 64 bits; expected a whole number in 0..=31",
    ),
    (
        &[
            "compose",
            "--ts",
            "1288834974656",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: timestamp 1288834974656 ms is out of range 1288834974657..=3487858230208 ms: it is before the Twitter epoch (2010-11-04T01:42:54.657Z)",
    ),
    (
        &[
            "compose",
            "--ts",
            "3487858230209",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: timestamp 3487858230209 ms is out of range 1288834974657..=3487858230208 ms: it is after the last one 41 bits hold (2080-07-10T17:30:30.208Z)",
    ),
    (
        &[
            "compose",
            "--ts",
            "2022-06-28T16:07:40.1051Z",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: \"2022-06-28T16:07:40.1051Z\": finer than a millisecond: snowflake timestamps are whole milliseconds, so fraction digits past the third must be 0",
    ),
    (
        &[
            "compose",
            "--ts",
            "yesterday",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: \"yesterday\" is not an RFC 3339 date: expected a four-digit year at byte 0, found `y`; expected Unix ms or a date such as \"2022-06-28T16:07:40.105Z\"",
    ),
    (
        &["compose", "--ts", "-5", "--dc", "1", "--machine", "1"],
        "",
        "error: --ts: timestamp \"-5\" is negative; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
    ),
    (
        &[
            "compose",
            "--ts",
            "1969-12-31T23:59:59Z",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: \"1969-12-31T23:59:59Z\" is before 1970, and so before the Twitter epoch (2010-11-04T01:42:54.657Z); expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
    ),
    (
        &["compose", "--machine", "1"],
        "",
        "error: the following required arguments were not provided: --dc <N>",
    ),
    (
        &["compose", "--dc", "1", "--machine", "1", "--node", "1"],
        "",
        "error: unexpected argument '--node' found",
    ),
];

#[test]
fn compose_bad_input() {
    assert_bad(COMPOSE_ERRORS);
}

#[test]
fn times_have_three_fraction_digits() {
    let args = [
        "compose",
        "--ts",
        "2022-06-28T16:07:40Z",
        "--dc",
        "11",
        "--machine",
        "26",
    ];
    let human = ok(&args);
    assert!(
        human.contains("\ntime       2022-06-28T16:07:40.000Z (1656432460000 ms)\n"),
        "{human}"
    );
    let json = ok(&[&args[..], &["--json"]].concat());
    assert_eq!(field(&json, "time"), "2022-06-28T16:07:40.000Z");
    let id = field(&json, "id");
    assert_eq!(
        ok(&["decode", &id]),
        format!("{id}\t2022-06-28T16:07:40.000Z\t11\t26\t0\n")
    );
    let decoded = ok(&["decode", "--layout", "card", &id]);
    assert!(
        decoded.contains(
            "\nmacro      snowflake!(ts = \"2022-06-28T16:07:40.000Z\", dc = 11, machine = 26, seq = 0)\n"
        ),
        "{decoded}"
    );
    let json = ok(&["decode", "--json", &id]);
    assert_eq!(field(&json, "time"), "2022-06-28T16:07:40.000Z");
    // The fraction is kept to the millisecond: `.100`, not `.1`.
    let json = ok(&[
        "compose",
        "--ts",
        "2022-06-28T16:07:40.1Z",
        "--dc",
        "0",
        "--machine",
        "0",
        "--json",
    ]);
    assert_eq!(field(&json, "time"), "2022-06-28T16:07:40.100Z");
}

#[test]
fn compose_reports_every_bad_field() {
    let stderr = bad_lines(
        &[
            "compose",
            "--ts",
            "-1",
            "--dc",
            "32",
            "--machine",
            "x",
            "--seq",
            "4096",
        ],
        "",
    );
    assert_eq!(
        stderr,
        "error: --ts: timestamp \"-1\" is negative; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z\n\
         error: --dc: datacenter 32 is out of range 0..=31 (5 bits)\n\
         error: --machine: machine \"x\" is not a whole number of decimal digits; expected a whole number in 0..=31\n\
         error: --seq: sequence 4096 is out of range 0..=4095 (12 bits)\n"
    );
    let stderr = bad_lines(
        &["generate", "--dc", "99", "--machine", "-2", "-n", "1.5"],
        "",
    );
    assert_eq!(
        stderr,
        "error: --dc: datacenter 99 is out of range 0..=31 (5 bits)\n\
         error: --machine: machine \"-2\" is negative; expected a whole number in 0..=31\n\
         error: -n \"1.5\" is not a whole number\n"
    );
}

const TS_ERRORS: &[Case] = &[
    (
        &["compose", "--ts", "-1", "--dc", "1", "--machine", "1"],
        "",
        "error: --ts: timestamp \"-1\" is negative; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
    ),
    (
        &["compose", "--ts", "1.5", "--dc", "1", "--machine", "1"],
        "",
        "error: --ts: timestamp \"1.5\" is not a whole number; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
    ),
    (
        &[
            "compose",
            "--ts",
            "+1288834975657",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: timestamp \"+1288834975657\" is a number with a `+` sign, where digits only are taken; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
    ),
    (
        &[
            "compose",
            "--ts",
            "99999999999999999999",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: timestamp \"99999999999999999999\" is larger than 64 bits; expected Unix ms in 1288834974657..=3487858230208, or an RFC 3339 date from 2010-11-04T01:42:54.657Z to 2080-07-10T17:30:30.208Z",
    ),
    (
        &[
            "compose",
            "--ts",
            "2022-06-28716:07:40Z",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: \"2022-06-28716:07:40Z\" is not an RFC 3339 date: expected `T` between the date and the time at byte 10, found `7`; expected Unix ms or a date such as \"2022-06-28T16:07:40.105Z\"",
    ),
    (
        &[
            "compose",
            "--ts",
            "2022-13-28T16:07:40Z",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: \"2022-13-28T16:07:40Z\" is not an RFC 3339 date: month 13 is out of range 1..=12; expected Unix ms or a date such as \"2022-06-28T16:07:40.105Z\"",
    ),
    (
        &[
            "compose",
            "--ts",
            "2016-12-31T23:59:60Z",
            "--dc",
            "1",
            "--machine",
            "1",
        ],
        "",
        "error: --ts: \"2016-12-31T23:59:60Z\": second 60 is a leap second, which Unix time and snowflake timestamps do not have",
    ),
];

#[test]
fn ts_errors_say_what_is_wrong() {
    assert_bad(TS_ERRORS);
}

#[test]
fn clicolor_force_0_does_not_force_colour() {
    let args = SEED_ARGS;
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(args)
        .env("CLICOLOR_FORCE", "0")
        .env_remove("NO_COLOR")
        .output()
        .expect("runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), SEED);
}
