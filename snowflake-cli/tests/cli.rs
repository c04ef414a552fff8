//! The `snowflake` binary, run as a user runs it: output, exit status, stdin, pipes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const SEED: &str = "\
id         4194439168
time       2010-11-04T01:42:55.657Z (1288834975657 ms)

      sign  timestamp (ms since the Twitter epoch)     datacenter  machine  sequence
bits  0     00000000000000000000000000000001111101000  00001       00001    000000000000
value 0     1000                                       1           1        0
";

const TWEET: &str = "\
id         1541815603606036480
time       2022-06-28T16:07:40.105Z (1656432460105 ms)
macro      snowflake!(ts = \"2022-06-28T16:07:40.105Z\", dc = 11, machine = 26, seq = 0)

      sign  timestamp (ms since the Twitter epoch)     datacenter  machine  sequence
bits  0     00101010110010110100001000111110110001000  01011       11010    000000000000
value 0     367597485448                               11          26       0
";

/// `decode`'s row of the tweet: what it writes into a file or a pipe.
const TWEET_ROW: &str = "1541815603606036480\t2022-06-28T16:07:40.105Z\t11\t26\t0\n";

const SEED_ROW: &str = "4194439168\t2010-11-04T01:42:55.657Z\t1\t1\t0\n";

/// `compose` of the seed example, `--seq` left to its default.
const SEED_ARGS: [&str; 7] = [
    "compose",
    "--ts",
    "1288834975657",
    "--dc",
    "1",
    "--machine",
    "1",
];

const SEED_JSON: &str = r#"{"id":"4194439168","timestamp_ms":1288834975657,"time":"2010-11-04T01:42:55.657Z","datacenter":1,"machine":1,"sequence":0,"binary":"0 00000000000000000000000000000001111101000 00001 00001 000000000000"}
"#;

const TWEET_JSON: &str = r#"{"id":"1541815603606036480","timestamp_ms":1656432460105,"time":"2022-06-28T16:07:40.105Z","datacenter":11,"machine":26,"sequence":0,"binary":"0 00101010110010110100001000111110110001000 01011 11010 000000000000"}
"#;

fn snowflake(args: &[&str], stdin: &str) -> Output {
    snowflake_bytes(args, stdin.as_bytes())
}

fn snowflake_bytes(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut pipe = child.stdin.take().expect("piped");
    let stdin = stdin.to_vec();
    // From a thread: with a large input, the child waits for its stdout to be read
    // while this would wait for its stdin to be.
    let writer = std::thread::spawn(move || pipe.write_all(&stdin));
    let out = child.wait_with_output().expect("the binary ends");
    writer.join().expect("writer ends").expect("stdin written");
    out
}

/// `snowflake decode` reading IDs from a pipe, its messages on a pipe, its IDs on `stdout`.
fn decode_on_pipes(stdout: Stdio) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .arg("decode")
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs")
}

/// The exit status, stdout and stderr of a run, all three at once.
fn assert_output(out: &Output, status: i32, stdout: &str, stderr: &str) {
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).as_ref(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (Some(status), stdout, stderr)
    );
}

/// Runs a command that must succeed; returns its stdout.
fn ok(args: &[&str]) -> String {
    ok_with_stdin(args, "")
}

fn ok_with_stdin(args: &[&str], stdin: &str) -> String {
    let out = snowflake(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    assert_eq!(stderr, "", "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs a command that must fail on bad input: exit status 2, one line on stderr, nothing on stdout.
fn bad(args: &[&str], stdin: &str) -> String {
    let out = snowflake(args, stdin);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.ends_with('\n'),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr.trim_end().to_owned()
}

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
fn decode_tweet() {
    // Into a pipe, as here, a row; a card when asked, as on a terminal.
    assert_eq!(ok(&["decode", "1541815603606036480"]), TWEET_ROW);
    assert_eq!(
        ok(&["decode", "--layout", "card", "1541815603606036480"]),
        TWEET
    );
    assert_eq!(
        ok(&["decode", "--layout", "row", "1541815603606036480"]),
        TWEET_ROW
    );
    assert_eq!(ok(&["decode", "1541815603606036480", "--json"]), TWEET_JSON);
}

#[test]
fn decode_layout_and_json_exclude_each_other() {
    assert_eq!(
        bad(&["decode", "--json", "--layout", "row", "1"], ""),
        "error: the argument '--json' cannot be used with '--layout <LAYOUT>'"
    );
    assert_eq!(
        bad(&["decode", "--layout", "table", "1"], ""),
        "error: invalid value 'table' for '--layout <LAYOUT>' [possible values: card, row]"
    );
    let help = ok(&["decode", "--help"]);
    assert!(
        help.contains("card on a terminal, row into a file or a pipe"),
        "{help}"
    );
    assert!(
        help.contains(
            "row:  One line of tab-separated fields: id, time, datacenter, machine, sequence"
        ),
        "{help}"
    );
}

#[test]
fn rows_are_coloured_only_when_wanted() {
    let run = |force: &str, no_color: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_snowflake"));
        command
            .args(["decode", "1541815603606036480"])
            .env("CLICOLOR_FORCE", force)
            .env_remove("NO_COLOR");
        if let Some(value) = no_color {
            command.env("NO_COLOR", value);
        }
        let out = command.output().expect("runs");
        assert!(out.status.success());
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    assert_eq!(
        run("1", None),
        "\u{1b}[1m1541815603606036480\u{1b}[0m\t\u{1b}[36m2022-06-28T16:07:40.105Z\u{1b}[0m\t\
         \u{1b}[33m11\u{1b}[0m\t\u{1b}[35m26\u{1b}[0m\t\u{1b}[32m0\u{1b}[0m\n"
    );
    assert_eq!(run("1", Some("1")), TWEET_ROW);
    assert_eq!(run("0", None), TWEET_ROW);
}

#[test]
fn decode_agrees_with_snowflake_macro() {
    const TWEET_ID: snowflake_kit::BakedSnowflake =
        snowflake_kit::snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
    let json = ok(&["decode", "--json", &TWEET_ID.id.to_string()]);
    assert_eq!(json, TWEET_JSON);
    assert_eq!(field(&json, "binary"), TWEET_ID.binary);
}

#[test]
fn decode_several_ids() {
    assert_eq!(
        ok(&["decode", "4194439168", "1541815603606036480"]),
        format!("{SEED_ROW}{TWEET_ROW}")
    );
    let human = ok(&[
        "decode",
        "--layout",
        "card",
        "4194439168",
        "1541815603606036480",
    ]);
    assert!(human.starts_with("id         4194439168\n"));
    assert!(human.ends_with(&format!("\n\n{TWEET}")), "{human}");
    let json = ok(&["decode", "--json", "4194439168", "1541815603606036480"]);
    assert_eq!(json.lines().count(), 2);
    assert!(json.ends_with(TWEET_JSON));
}

#[test]
fn decode_reads_stdin() {
    let json = ok_with_stdin(
        &["decode", "--json"],
        "4194439168\n\n  1541815603606036480  \n",
    );
    assert_eq!(json.lines().nth(1), TWEET_JSON.lines().next());
    assert_eq!(json.lines().count(), 2);
    assert_eq!(ok_with_stdin(&["decode"], "1541815603606036480"), TWEET_ROW);
    assert_eq!(
        ok_with_stdin(&["decode", "--layout", "card"], "1541815603606036480"),
        TWEET
    );
    assert_eq!(ok_with_stdin(&["decode"], ""), "");
}

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
fn help_and_version() {
    assert!(ok(&["--help"]).contains("Compose, decode and generate Twitter-layout Snowflake IDs"));
    assert!(ok(&["compose", "--help"]).contains("--ts <MS|RFC3339>"));
    assert_eq!(
        ok(&["--version"]),
        format!("snowflake {}\n", env!("CARGO_PKG_VERSION"))
    );
}

/// Runs a command that must fail on bad input with several lines on stderr, or a tip: exit
/// status 2, nothing on stdout; returns stderr.
fn bad_lines(args: &[&str], stdin: &str) -> String {
    let out = snowflake(args, stdin);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr
}

/// Arguments, stdin, and the one line expected on stderr.
type Case = (&'static [&'static str], &'static str, &'static str);

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

const DECODE_ERRORS: &[Case] = &[
    (
        &["decode", "12a"],
        "",
        "error: argument 1: invalid ID \"12a\": invalid character `a` at byte 2: a snowflake id is decimal digits only",
    ),
    (
        &["decode", "9223372036854775808"],
        "",
        "error: argument 1: invalid ID \"9223372036854775808\": number too large: a snowflake id is at most 9223372036854775807",
    ),
    (
        &["decode", "18446744073709551616"],
        "",
        "error: argument 1: invalid ID \"18446744073709551616\": number too large: a snowflake id is at most 9223372036854775807",
    ),
    (
        &["decode"],
        "x1\n",
        "error: line 1: invalid ID \"x1\": invalid character `x` at byte 0: a snowflake id is decimal digits only",
    ),
];

const OTHER_ERRORS: &[Case] = &[
    (&["bogus"], "", "error: unrecognized subcommand 'bogus'"),
    (
        &[],
        "",
        "error: missing command: expected `compose`, `decode` or `generate` (see --help)",
    ),
    (
        &["generate", "--dc", "32", "--machine", "0"],
        "",
        "error: --dc: datacenter 32 is out of range 0..=31 (5 bits)",
    ),
    (
        &["generate", "--dc", "1", "--machine", "1", "-n", "ten"],
        "",
        "error: -n \"ten\" is not a whole number of decimal digits",
    ),
];

fn assert_bad(cases: &[Case]) {
    for (args, stdin, expected) in cases {
        assert_eq!(bad(args, stdin), *expected, "{args:?}");
    }
}

#[test]
fn compose_bad_input() {
    assert_bad(COMPOSE_ERRORS);
}

#[test]
fn decode_bad_input() {
    assert_bad(DECODE_ERRORS);
}

#[test]
fn generate_and_usage_bad_input() {
    assert_bad(OTHER_ERRORS);
}

#[test]
fn bad_line_after_good_ones_is_reported_and_decoding_goes_on() {
    let out = snowflake(
        &["decode", "--json"],
        "4194439168\nnope\n1541815603606036480\n",
    );
    assert_output(
        &out,
        2,
        &format!("{SEED_JSON}{TWEET_JSON}"),
        "error: line 2: invalid ID \"nope\": invalid character `n` at byte 0: a snowflake id is decimal digits only\n",
    );
}

#[test]
fn decode_reports_every_bad_line_and_argument() {
    let lines = "x\n4194439168\n\n12a\n1541815603606036480\n";
    let errors = "error: line 1: invalid ID \"x\": invalid character `x` at byte 0: a snowflake id is decimal digits only\n\
         error: line 4: invalid ID \"12a\": invalid character `a` at byte 2: a snowflake id is decimal digits only\n";
    let out = snowflake(&["decode"], lines);
    assert_output(&out, 2, &format!("{SEED_ROW}{TWEET_ROW}"), errors);
    let out = snowflake(&["decode", "--layout", "card"], lines);
    let seed = SEED.replace(
        "(1288834975657 ms)\n",
        "(1288834975657 ms)\nmacro      snowflake!(ts = \"2010-11-04T01:42:55.657Z\", dc = 1, machine = 1, seq = 0)\n",
    );
    assert_output(&out, 2, &format!("{seed}\n{TWEET}"), errors);

    let out = snowflake(&["decode", "--json", "1x", "4194439168", "", "-"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout), SEED_JSON);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: argument 1: invalid ID \"1x\": invalid character `x` at byte 1: a snowflake id is decimal digits only\n\
         error: argument 3: invalid ID \"\": empty text: a snowflake id is decimal digits\n\
         error: argument 4: invalid ID \"-\": invalid character `-` at byte 0: a snowflake id is decimal digits only\n"
    );
}

#[test]
fn arguments_are_trimmed_like_lines() {
    assert_eq!(ok(&["decode", " 1541815603606036480\t"]), TWEET_ROW);
    assert_eq!(
        ok_with_stdin(&["decode"], "\t1541815603606036480 \r\n"),
        TWEET_ROW
    );
    assert!(ok(&["decode", "--help"]).contains("in arguments and in stdin lines alike"));
}

#[test]
fn invalid_utf8_on_stdin_is_a_bad_line() {
    let out = snowflake_bytes(
        &["decode", "--json"],
        b"4194439168\n12\xff3\n1541815603606036480\n",
    );
    assert_output(
        &out,
        2,
        &format!("{SEED_JSON}{TWEET_JSON}"),
        "error: line 2: invalid ID \"12\\xff3\": invalid UTF-8 at byte 2: a snowflake id is decimal digits only\n",
    );
}

#[test]
fn a_byte_order_mark_before_the_first_line_is_skipped() {
    let out = snowflake_bytes(
        &["decode", "--json"],
        b"\xef\xbb\xbf1541815603606036480\r\n",
    );
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), TWEET_JSON);
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
fn clap_errors_keep_one_tip() {
    assert_eq!(
        bad_lines(&["compose", "--dcc", "1", "--machine", "1"], ""),
        "error: unexpected argument '--dcc' found\ntip: a similar argument exists: '--dc'\n"
    );
    assert_eq!(
        bad_lines(&["decode", "-1"], ""),
        "error: unexpected argument '-1' found\ntip: to pass '-1' as a value, use '-- -1'\n"
    );
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

#[test]
fn decode_answers_each_line_before_the_next_arrives() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(["decode", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let (answers, answered) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for _ in 0..2 {
            let mut line = String::new();
            stdout.read_line(&mut line).expect("a line");
            answers.send(line).expect("sent");
        }
    });
    // stdin stays open: an answer that waited for more input would never come.
    for (id, json) in [
        ("4194439168\n", SEED_JSON),
        ("1541815603606036480\n", TWEET_JSON),
    ] {
        stdin.write_all(id.as_bytes()).expect("written");
        stdin.flush().expect("flushed");
        let answer = answered.recv_timeout(std::time::Duration::from_secs(20));
        if answer.is_err() {
            let _ = child.kill();
        }
        assert_eq!(answer.expect("an answer while stdin is open"), json);
    }
    drop(stdin);
    reader.join().expect("reader ends");
    assert!(child.wait().expect("ends").success());
}

#[test]
fn decode_reports_a_bad_line_before_the_next_arrives() {
    let mut child = decode_on_pipes(Stdio::null());
    let mut stdin = child.stdin.take().expect("piped");
    let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
    let (messages, reported) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut line = String::new();
        stderr.read_line(&mut line).expect("a line");
        messages.send(line).expect("sent");
    });
    // stdin stays open: a message that waited for more input would never come.
    stdin.write_all(b"4194439168\nnope\n").expect("written");
    stdin.flush().expect("flushed");
    let message = reported.recv_timeout(std::time::Duration::from_secs(20));
    if message.is_err() {
        let _ = child.kill();
    }
    assert_eq!(
        message.expect("a message while stdin is open"),
        "error: line 2: invalid ID \"nope\": invalid character `n` at byte 0: a snowflake id is decimal digits only\n"
    );
    drop(stdin);
    reader.join().expect("reader ends");
    assert_eq!(child.wait().expect("ends").code(), Some(2));
}

#[test]
fn decode_of_many_ids_agrees_with_generate() {
    let ids = ok(&["generate", "--dc", "7", "--machine", "9", "-n", "20000"]);
    let json = ok_with_stdin(&["decode", "--json"], &ids);
    assert_eq!(json.lines().count(), 20_000);
    for (id, line) in ids.lines().zip(json.lines()) {
        assert_eq!(field(line, "id"), id);
        assert_eq!(field(line, "datacenter"), "7");
    }
    let generated = ok(&[
        "generate",
        "--dc",
        "7",
        "--machine",
        "9",
        "-n",
        "3",
        "--json",
    ]);
    let mut again = String::new();
    for line in generated.lines() {
        again.push_str(&field(line, "id"));
        again.push('\n');
    }
    assert_eq!(ok_with_stdin(&["decode", "--json"], &again), generated);
    let rows = ok_with_stdin(&["decode"], &ids);
    assert_eq!(rows.lines().count(), 20_000);
    for ((id, row), line) in ids.lines().zip(rows.lines()).zip(json.lines()) {
        let fields: Vec<&str> = row.split('\t').collect();
        let expected = [id, &field(line, "time"), "7", "9", &field(line, "sequence")];
        assert_eq!(fields, expected);
    }
    let human = ok_with_stdin(&["decode", "--layout", "card"], &ids);
    assert_eq!(human.matches("\nmacro      snowflake!(").count(), 20_000);
    // A blank line between two tables, and one inside each.
    assert_eq!(human.matches("\n\nid         ").count(), 19_999);
    assert_eq!(human.matches("\n\n").count(), 39_999);
}

/// The JSON lines are written by hand; `serde_json` reads them back, for IDs across the
/// whole range, with exactly the fields of the runtime's decoding.
#[test]
fn json_lines_read_back_with_serde_json() {
    let mut ids = vec![
        0,
        1,
        4_194_439_168,
        1_541_815_603_606_036_480,
        i64::MAX as u64,
    ];
    // Spread over the 63 bits by a fixed LCG, so that every field takes many values.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    for _ in 0..5_000 {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ids.push(x >> 1);
    }
    let input = ids.iter().fold(String::new(), |mut input, id| {
        input.push_str(&id.to_string());
        input.push('\n');
        input
    });
    let json = ok_with_stdin(&["decode", "--json"], &input);
    assert_eq!(json.lines().count(), ids.len());
    for (&raw, line) in ids.iter().zip(json.lines()) {
        let id = snowflake_kit::Snowflake::try_from(raw).expect("below 2^63");
        let p = id.parts();
        let expected = serde_json::json!({
            "id": raw.to_string(),
            "timestamp_ms": p.timestamp_ms,
            "time": id.rfc3339().to_string(),
            "datacenter": p.datacenter,
            "machine": p.machine,
            "sequence": p.sequence,
            "binary": id.segmented_binary().to_string(),
        });
        let read: serde_json::Value = serde_json::from_str(line).expect("a JSON object");
        assert_eq!(read, expected, "{line}");
    }
}

/// What strace saw of a run of `snowflake ARGS < stdin > file 2> file`: the exit status, and
/// for stdout and for stderr, the bytes written and the size of each write(2).
struct Traced {
    status: Option<i32>,
    stdout: (Vec<u8>, Vec<usize>),
    stderr: (Vec<u8>, Vec<usize>),
}

/// Runs `snowflake ARGS < stdin` under strace.
///
/// # Panics
///
/// Without a working strace, saying what to install.
fn traced(args: &[&str], stdin: &str) -> Traced {
    // A directory per run: tests run side by side.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let dir =
        std::env::temp_dir().join(format!("snowflake-cli-writes-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let [input, output, errors, trace] = ["in", "out", "err", "trace"].map(|name| dir.join(name));
    std::fs::write(&input, stdin).expect("input written");
    let status = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=write", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_snowflake"))
        .args(args)
        .stdin(std::fs::File::open(&input).expect("input"))
        .stdout(std::fs::File::create(&output).expect("output"))
        .stderr(std::fs::File::create(&errors).expect("errors"))
        .status()
        .unwrap_or_else(|e| panic!("strace does not run ({e}): {INSTALL_STRACE}"));
    // Every run here writes: an empty trace is strace failing (ptrace not permitted, say).
    let trace = std::fs::read_to_string(&trace).unwrap_or_default();
    assert!(
        !trace.is_empty(),
        "strace traced nothing ({status}; is ptrace permitted?): {INSTALL_STRACE}"
    );
    // Lines such as `1234  write(2, "error: line 1: "..., 65519) = 65519`.
    let sizes = |fd: &str| -> Vec<usize> {
        trace
            .lines()
            .filter(|line| line.contains(&format!("write({fd}, ")))
            .map(|line| {
                let size = line.rsplit(" = ").next().unwrap_or_default();
                size.trim().parse().expect("a size")
            })
            .collect()
    };
    let traced = Traced {
        status: status.code(),
        stdout: (std::fs::read(&output).expect("output"), sizes("1")),
        stderr: (std::fs::read(&errors).expect("errors"), sizes("2")),
    };
    let _ = std::fs::remove_dir_all(&dir);
    traced
}

/// What to do when strace is missing.
const INSTALL_STRACE: &str =
    "`apt-get install strace` (Debian), or run `bash scripts/test.sh`, which installs it";

/// Whether every write ends a line: each one's end, counted through `written`, falls just
/// after a `\n`.
fn whole_lines((written, sizes): &(Vec<u8>, Vec<usize>)) -> bool {
    let mut end = 0;
    sizes.iter().all(|size| {
        end += size;
        written.get(end - 1) == Some(&b'\n')
    }) && end == written.len()
}

#[test]
#[ignore = "needs strace: bash scripts/test.sh installs it"]
fn decode_into_a_file_writes_at_least_4_kib_at_a_time() {
    let ids = ok(&["generate", "--dc", "7", "--machine", "9", "-n", "20000"]);
    for args in [
        &["decode"][..],
        &["decode", "--layout", "card"],
        &["decode", "--json"],
    ] {
        // The unit test `decode::tests` counts the writes without strace.
        let run = traced(args, &ids);
        assert_eq!(run.status, Some(0), "{args:?}");
        let (bytes, writes) = (run.stdout.0.len(), run.stdout.1.len());
        let average = bytes / writes.max(1);
        assert!(average >= 4096, "{args:?}: {average} bytes per write");
        assert!(whole_lines(&run.stdout), "{args:?}: a write ended mid-line");
    }
}

#[test]
#[ignore = "needs strace: bash scripts/test.sh installs it"]
fn bad_lines_are_reported_in_blocks_of_whole_lines() {
    let lines = 10_000;
    let bad_lines: Vec<String> = (0..lines)
        .map(|n| format!("{}x\n", 1_541_815_603_606_036_480_u64 + n))
        .collect();
    let input = bad_lines.concat();
    // Bad lines alone, then every tenth line bad among good ones.
    let bad = traced(&["decode"], &input);
    assert_eq!(bad.status, Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr.0).lines().count(),
        10_000
    );
    let writes = bad.stderr.1.len();
    assert!(
        writes <= 100,
        "{writes} writes to stderr for {lines} bad lines"
    );
    assert!(whole_lines(&bad.stderr), "a write to stderr ended mid-line");
    assert!(bad.stdout.1.is_empty(), "{:?}", bad.stdout.1);

    let mixed: Vec<String> = bad_lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if i % 10 == 0 {
                line.clone()
            } else {
                line.replace('x', "")
            }
        })
        .collect();
    let mixed = mixed.concat();
    let run = traced(&["decode"], &mixed);
    assert_eq!(run.status, Some(2));
    assert_eq!(
        String::from_utf8_lossy(&run.stderr.0).lines().count(),
        1_000
    );
    assert_eq!(
        String::from_utf8_lossy(&run.stdout.0).lines().count(),
        9_000
    );
    // One write per switch between the two streams, at most: each bad line writes out the
    // rows before it, and its message goes out before the next row.
    assert!(run.stdout.1.len() <= 1_000, "{:?}", run.stdout.1.len());
    assert!(run.stderr.1.len() <= 1_000, "{:?}", run.stderr.1.len());
    assert!(whole_lines(&run.stdout) && whole_lines(&run.stderr));
}

/// A field of a JSON line as `serde_json` reads it: a string's text, or a number's digits.
fn field(json: &str, name: &str) -> String {
    let object: serde_json::Value = serde_json::from_str(json).expect("a JSON object");
    match &object[name] {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        other => panic!("{name}: {other:?} in {json}"),
    }
}

fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970");
    u64::try_from(since.as_millis()).expect("fits")
}

/// Every `$ snowflake ...` example in this crate's README, which its package carries, and in
/// the repository's README, which a packaged crate has not: what each shows is what the
/// command writes (stdout, then stderr). Each `|` stage is dropped, since the command runs
/// into a pipe here anyway.
#[test]
fn readme_examples_run_as_shown() {
    let own = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    assert_eq!(readme_examples_run(own), 3, "{own}");
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if repository.join("snowflake-cli/Cargo.toml").exists() {
        let path = repository.join("README.md");
        assert_eq!(readme_examples_run(&path), 3, "{}", path.display());
    }
}

/// Runs the README's examples and says how many there were.
fn readme_examples_run(path: impl AsRef<Path>) -> usize {
    let readme = std::fs::read_to_string(path).expect("a README");
    let mut examples = 0;
    let mut lines = readme.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ snowflake ") else {
            continue;
        };
        let mut shown = String::new();
        while let Some(next) = lines.next_if(|next| !next.starts_with("$ ") && *next != "```") {
            shown.push_str(next);
            shown.push('\n');
        }
        let args: Vec<&str> = command
            .split('|')
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let out = snowflake(&args, "");
        let written = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(written, shown, "README: $ snowflake {command}");
        examples += 1;
    }
    examples
}

#[test]
fn a_bad_id_still_counts_when_the_reader_leaves_early() {
    let mut child = decode_on_pipes(Stdio::piped());
    // The reader is gone before anything is written, as with `| head -0`.
    drop(child.stdout.take());
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(b"x\n4194439168\n")
        .expect("written");
    let out = child.wait_with_output().expect("ends");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: line 1: invalid ID \"x\": invalid character `x` at byte 0: a snowflake id is decimal digits only\n"
    );
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_a_bad_argument() {
    use std::os::unix::ffi::OsStrExt;

    let out = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .arg("decode")
        .arg("4194439168")
        .arg(std::ffi::OsStr::from_bytes(b"12\xff"))
        .arg("1541815603606036480")
        .output()
        .expect("runs");
    assert_output(
        &out,
        2,
        &format!("{SEED_ROW}{TWEET_ROW}"),
        "error: argument 2: invalid ID \"12\\xff\": invalid UTF-8 at byte 2: a snowflake id is decimal digits only\n",
    );
}

#[cfg(target_os = "linux")]
#[test]
fn read_and_write_failures_say_which() {
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .arg("decode")
        .stdin(std::fs::File::open("/").expect("a directory"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot read stdin: Is a directory (os error 21)\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(["decode", "4194439168"])
        .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: cannot write the output: No space left on device (os error 28)\n"
    );
}

/// Every kind of run that writes to stdout, with its stdin: a table, rows from arguments
/// and from stdin, generated IDs, help and the version.
const WRITERS: [(&[&str], &str); 7] = [
    (&SEED_ARGS, ""),
    (&["decode", "4194439168"], ""),
    (&["decode"], "4194439168\n"),
    (&["generate", "--dc", "1", "--machine", "1", "-n", "3"], ""),
    (&["--help"], ""),
    (&["compose", "--help"], ""),
    (&["--version"], ""),
];

/// Runs `snowflake ARGS` with `stdout` as its stdout; returns the exit status and stderr.
fn with_stdout(command: &mut Command, stdin: &str) -> (Option<i32>, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut pipe = child.stdin.take().expect("piped");
    // A run that stops early may not read it all.
    let _ = pipe.write_all(stdin.as_bytes());
    drop(pipe);
    let out = child.wait_with_output().expect("ends");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `sh -c SCRIPT snowflake ARGS`: the binary is `$0` and ARGS are `"$@"` in SCRIPT, which
/// runs it as a script would, `exec "$0" "$@" >&-` say.
#[cfg(unix)]
fn through_sh(script: &str, args: &[&str]) -> Command {
    let mut sh = Command::new("sh");
    sh.args(["-c", script, env!("CARGO_BIN_EXE_snowflake")])
        .args(args);
    sh
}

/// A run of `decode` with a bad argument between two good ones: its message and status 2,
/// whatever stdout is.
const BAD_DECODE: [&str; 4] = ["decode", "4194439168", "x", "1541815603606036480"];

const BAD_DECODE_MESSAGE: &str = "error: argument 2: invalid ID \"x\": invalid character `x` at \
                                  byte 0: a snowflake id is decimal digits only\n";

/// `compose --dc 32`: its message and status 2, whatever stdout is.
const BAD_COMPOSE: [&str; 5] = ["compose", "--dc", "32", "--machine", "1"];

const BAD_COMPOSE_MESSAGE: &str = "error: --dc: datacenter 32 is out of range 0..=31 (5 bits)\n";

/// /dev/null opened for writing only (`> /dev/null`, `Stdio::null`) and for reading and
/// writing (`1<>/dev/null`, and Python's `subprocess.DEVNULL`, which opens it `O_RDWR` as
/// the read-write `OpenOptions` here do) takes the output: status 0, nothing on stderr.
#[cfg(unix)]
#[test]
fn dev_null_takes_the_output_opened_either_way() {
    let null = |read: bool| {
        std::fs::OpenOptions::new()
            .read(read)
            .write(true)
            .open("/dev/null")
            .expect("/dev/null")
    };
    let runs = |args: &[&str]| {
        let snowflake = || {
            let mut snowflake = Command::new(env!("CARGO_BIN_EXE_snowflake"));
            snowflake.args(args);
            snowflake
        };
        let (mut write_only, mut read_write, mut stdio_null) =
            (snowflake(), snowflake(), snowflake());
        write_only.stdout(null(false));
        read_write.stdout(null(true));
        stdio_null.stdout(Stdio::null());
        [
            ("write-only", write_only),
            ("read-write", read_write),
            ("Stdio::null", stdio_null),
            (
                "> /dev/null",
                through_sh("exec \"$0\" \"$@\" >/dev/null", args),
            ),
            (
                "1<> /dev/null",
                through_sh("exec \"$0\" \"$@\" 1<>/dev/null", args),
            ),
        ]
    };
    for (args, stdin) in WRITERS {
        for (how, mut run) in runs(args) {
            assert_eq!(
                with_stdout(&mut run, stdin),
                (Some(0), String::new()),
                "{args:?}, {how}"
            );
        }
    }
    // Bad input is still bad input; decode still goes on past a bad ID.
    for (args, message) in [
        (&BAD_COMPOSE[..], BAD_COMPOSE_MESSAGE),
        (&BAD_DECODE[..], BAD_DECODE_MESSAGE),
    ] {
        for (how, mut run) in runs(args) {
            assert_eq!(
                with_stdout(&mut run, ""),
                (Some(2), message.into()),
                "{args:?}, {how}"
            );
        }
    }
}

/// A stdout closed with `>&-` reaches `main` as /dev/null opened for reading and writing
/// (Rust's runtime opens it on a closed fd 1), as `1<>/dev/null` does: it cannot be told
/// apart from a stdout that discards the output on purpose, and is written to as that one
/// is. Until issue #25 the command refused it (exit 1, "stdout is closed; redirect it to
/// /dev/null"), and with it every script that discards the output from Python.
#[cfg(unix)]
#[test]
fn a_closed_stdout_is_written_to_as_dev_null() {
    let closed = "exec \"$0\" \"$@\" >&-";
    for (args, stdin) in WRITERS {
        assert_eq!(
            with_stdout(&mut through_sh(closed, args), stdin),
            (Some(0), String::new()),
            "{args:?}"
        );
    }
    assert_eq!(
        with_stdout(&mut through_sh(closed, &BAD_COMPOSE), ""),
        (Some(2), BAD_COMPOSE_MESSAGE.into())
    );
    assert_eq!(
        with_stdout(&mut through_sh(closed, &BAD_DECODE), ""),
        (Some(2), BAD_DECODE_MESSAGE.into())
    );
}

/// A write that fails for another reason than a full disk is an error too, named: here a
/// file over the size limit (`ulimit -f 0`, SIGXFSZ ignored), EFBIG.
#[cfg(target_os = "linux")]
#[test]
fn a_file_over_the_size_limit_is_an_error() {
    let file = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("snowflake-cli-size-limit-{}", std::process::id()));
    let limited = "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\" >\"$OUT\"";
    for (args, stdin) in WRITERS {
        let mut run = through_sh(limited, args);
        run.env("OUT", &file);
        assert_eq!(
            with_stdout(&mut run, stdin),
            (
                Some(1),
                "error: cannot write the output: File too large (os error 27)\n".into()
            ),
            "{args:?}"
        );
    }
    let _ = std::fs::remove_file(&file);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_stdout_is_an_error() {
    for (args, stdin) in WRITERS {
        let mut full = Command::new(env!("CARGO_BIN_EXE_snowflake"));
        full.args(args)
            .stdout(std::fs::File::create("/dev/full").expect("/dev/full"));
        assert_eq!(
            with_stdout(&mut full, stdin),
            (
                Some(1),
                "error: cannot write the output: No space left on device (os error 28)\n".into()
            ),
            "{args:?}"
        );
    }
}

#[test]
fn a_pipe_whose_reader_left_ends_quietly() {
    for (args, stdin) in WRITERS {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut gone = Command::new(env!("CARGO_BIN_EXE_snowflake"));
        gone.args(args).stdout(writer);
        assert_eq!(
            with_stdout(&mut gone, stdin),
            (Some(0), String::new()),
            "{args:?}"
        );
    }
}

#[test]
fn decode_into_head_1_ends_quietly() {
    let ids = ok(&["generate", "--dc", "3", "--machine", "4", "-n", "100000"]);
    let mut child = decode_on_pipes(Stdio::piped());
    let mut stdin = child.stdin.take().expect("piped");
    // It may stop reading before the end: a failed write here is expected.
    let writer = std::thread::spawn(move || stdin.write_all(ids.as_bytes()));
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut first)
        .expect("a line");
    // The reader is gone now, as after `snowflake decode < ids | head -1`.
    let out = child.wait_with_output().expect("ends");
    let _ = writer.join().expect("writer ends");
    assert_eq!(first.split('\t').count(), 5, "{first}");
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (Some(0), "")
    );
}

/// `snowflake ... | head -1` with a real `head`: it gets the first line, and the command
/// ends quietly with status 0 whether it had written everything before `head` left (one
/// table) or not (many IDs: a write into the pipe then fails with EPIPE).
#[cfg(unix)]
#[test]
fn head_1_gets_the_first_line_and_the_command_ends_quietly() {
    let ids = ok(&["generate", "--dc", "3", "--machine", "4", "-n", "100000"]);
    let first_id = ids.lines().next().expect("an ID").to_owned();
    let generate = ["generate", "--dc", "1", "--machine", "1", "-n", "1000000"];
    let runs: [(&[&str], &str); 4] = [
        (&SEED_ARGS, ""),
        (&["decode"], &ids),
        (&generate, ""),
        (
            &[
                "generate",
                "--dc",
                "1",
                "--machine",
                "1",
                "--json",
                "-n",
                "1000000",
            ],
            "",
        ),
    ];
    for (args, stdin) in runs {
        let mut head = Command::new("head")
            .arg("-1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("head runs");
        let into_head = head.stdin.take().expect("piped");
        let status = with_stdout(
            Command::new(env!("CARGO_BIN_EXE_snowflake"))
                .args(args)
                .stdout(into_head),
            stdin,
        );
        let line = head.wait_with_output().expect("head ends").stdout;
        let line = String::from_utf8(line).expect("UTF-8");
        assert_eq!(status, (Some(0), String::new()), "{args:?}");
        let expected = match args[0] {
            "compose" => SEED.lines().next().expect("a line").to_owned(),
            "decode" => format!("{first_id}\t"),
            _ if args.contains(&"--json") => "{\"id\":\"".to_owned(),
            _ => String::new(),
        };
        assert!(
            line.starts_with(&expected) && line.ends_with('\n') && line.lines().count() == 1,
            "{args:?}: {line:?}"
        );
        if args == generate {
            assert!(line.trim_end().parse::<u64>().is_ok(), "{line:?}");
        }
    }
}

#[test]
fn a_long_line_is_one_bad_line_quoted_short() {
    let input = format!("4194439168\n{}\n1541815603606036480\n", "9".repeat(100_000));
    let out = snowflake(&["decode"], &input);
    assert_output(
        &out,
        2,
        &format!("{SEED_ROW}{TWEET_ROW}"),
        &format!(
            "error: line 2: invalid ID \"{}...\": 100000 bytes, too long for an ID (at most 256 \
             bytes with the spaces around its digits)\n",
            "9".repeat(40)
        ),
    );
}
