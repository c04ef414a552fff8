//! The `snowflake` binary, run as a user runs it: output, exit status, stdin, pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

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

const SEED_JSON: &str = r#"{"id":"4194439168","timestamp_ms":1288834975657,"time":"2010-11-04T01:42:55.657Z","datacenter":1,"machine":1,"sequence":0,"binary":"0 00000000000000000000000000000001111101000 00001 00001 000000000000"}
"#;

const TWEET_JSON: &str = r#"{"id":"1541815603606036480","timestamp_ms":1656432460105,"time":"2022-06-28T16:07:40.105Z","datacenter":11,"machine":26,"sequence":0,"binary":"0 00101010110010110100001000111110110001000 01011 11010 000000000000"}
"#;

fn snowflake(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snowflake"))
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    child.wait_with_output().expect("the binary ends")
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
    assert_eq!(
        ok(&[
            "compose",
            "--ts",
            "1288834975657",
            "--dc",
            "1",
            "--machine",
            "1",
            "--seq",
            "0"
        ]),
        SEED
    );
}

#[test]
fn compose_seed_example_json() {
    let args = [
        "compose",
        "--ts",
        "1288834975657",
        "--dc",
        "1",
        "--machine",
        "1",
        "--seq",
        "0",
        "--json",
    ];
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
    assert_eq!(ok(&["decode", "1541815603606036480"]), TWEET);
    assert_eq!(ok(&["decode", "1541815603606036480", "--json"]), TWEET_JSON);
}

#[test]
fn decode_agrees_with_snowflake_macro() {
    // `sf` is this package's name for snowflake-kit: the macro works under a renamed dependency.
    const TWEET_ID: sf::BakedSnowflake =
        sf::snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
    let json = ok(&["decode", "--json", &TWEET_ID.id.to_string()]);
    assert_eq!(json, TWEET_JSON);
    assert_eq!(field(&json, "binary"), TWEET_ID.binary);
}

#[test]
fn decode_several_ids() {
    let human = ok(&["decode", "4194439168", "1541815603606036480"]);
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
    assert_eq!(ok_with_stdin(&["decode"], "1541815603606036480"), TWEET);
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
    let args = [
        "compose",
        "--ts",
        "1288834975657",
        "--dc",
        "1",
        "--machine",
        "1",
    ];
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
        "error: invalid --dc \"-1\": expected a whole number of decimal digits in 0..=31",
    ),
    (
        &["compose", "--dc", "0x1", "--machine", "1"],
        "",
        "error: invalid --dc \"0x1\": expected a whole number of decimal digits in 0..=31",
    ),
    (
        &["compose", "--dc", "", "--machine", "1"],
        "",
        "error: invalid --dc \"\": expected a whole number of decimal digits in 0..=31",
    ),
    (
        &["compose", "--dc", "1", "--machine", "99999999999999999999"],
        "",
        "error: invalid --machine \"99999999999999999999\": larger than 64 bits; expected a whole number in 0..=31",
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
        "error: invalid --ts \"2022-06-28T16:07:40.1051Z\": finer than a millisecond; snowflake timestamps are whole milliseconds",
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
        "error: invalid --ts \"yesterday\": expected Unix milliseconds or an RFC 3339 date such as 2022-06-28T16:07:40.105Z (the 'year' component could not be parsed)",
    ),
    (
        &["compose", "--ts", "-5", "--dc", "1", "--machine", "1"],
        "",
        "error: invalid --ts \"-5\": expected Unix milliseconds or an RFC 3339 date such as 2022-06-28T16:07:40.105Z (the 'year' component could not be parsed)",
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
        "error: invalid --ts \"1969-12-31T23:59:59Z\": before the Twitter epoch (2010-11-04T01:42:54.657Z); expected 1288834974657..=3487858230208 ms",
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
        "error: invalid ID \"12a\": invalid character `a` at byte 2: a snowflake id is decimal digits only",
    ),
    (
        &["decode", "9223372036854775808"],
        "",
        "error: invalid ID \"9223372036854775808\": 9223372036854775808 has the sign bit set: a snowflake id is at most 9223372036854775807",
    ),
    (
        &["decode", "18446744073709551616"],
        "",
        "error: invalid ID \"18446744073709551616\": number too large: a snowflake id is at most 9223372036854775807",
    ),
    (
        &["decode", "-1"],
        "",
        "error: unexpected argument '-1' found",
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
        "error: invalid -n \"ten\": expected a whole number of decimal digits",
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
fn bad_line_after_good_ones_stops_with_status_2() {
    let out = snowflake(
        &["decode", "--json"],
        "4194439168\nnope\n1541815603606036480\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout), SEED_JSON);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: line 2: invalid ID \"nope\": invalid character `n` at byte 0: a snowflake id is decimal digits only\n"
    );
}

/// A field of a JSON line, without its quotes.
fn field<'a>(json: &'a str, name: &str) -> &'a str {
    let start = json.find(&format!("\"{name}\":")).expect("field present") + name.len() + 3;
    let rest = &json[start..];
    rest[..rest.find([',', '}']).expect("field ends")].trim_matches('"')
}

fn now_ms() -> u64 {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970");
    u64::try_from(since.as_millis()).expect("fits")
}
