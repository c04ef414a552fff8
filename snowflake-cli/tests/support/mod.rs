//! What the test targets of the `snowflake` command share: running the binary as a user
//! runs it, what must succeed and what must fail, the outputs of the seed ID, and a field of
//! a JSON line.

use std::io::Write;
use std::process::{Command, Output, Stdio};

#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) const SEED: &str = "\
id         4194439168
base32     0000003X04400
time       2010-11-04T01:42:55.657Z (1288834975657 ms)

      sign  timestamp (ms since the Twitter epoch)     datacenter  machine  sequence
bits  0     00000000000000000000000000000001111101000  00001       00001    000000000000
value 0     1000                                       1           1        0
";

/// `compose` of the seed example, `--seq` left to its default.
#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) const SEED_ARGS: [&str; 7] = [
    "compose",
    "--ts",
    "1288834975657",
    "--dc",
    "1",
    "--machine",
    "1",
];

#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) const SEED_JSON: &str = r#"{"id":"4194439168","base32":"0000003X04400","timestamp_ms":1288834975657,"time":"2010-11-04T01:42:55.657Z","near_epoch":true,"datacenter":1,"machine":1,"sequence":0,"binary":"0 00000000000000000000000000000001111101000 00001 00001 000000000000"}
"#;

#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) const TWEET_JSON: &str = r#"{"id":"1541815603606036480","base32":"1ASD13XH1F800","timestamp_ms":1656432460105,"time":"2022-06-28T16:07:40.105Z","near_epoch":false,"datacenter":11,"machine":26,"sequence":0,"binary":"0 00101010110010110100001000111110110001000 01011 11010 000000000000"}
"#;

pub(crate) fn snowflake(args: &[&str], stdin: &str) -> Output {
    snowflake_bytes(args, stdin.as_bytes())
}

pub(crate) fn snowflake_bytes(args: &[&str], stdin: &[u8]) -> Output {
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

/// Runs a command that must succeed; returns its stdout.
pub(crate) fn ok(args: &[&str]) -> String {
    ok_with_stdin(args, "")
}

pub(crate) fn ok_with_stdin(args: &[&str], stdin: &str) -> String {
    let out = snowflake(args, stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    assert_eq!(stderr, "", "{args:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs a command that must fail on bad input: exit status 2, one line on stderr, nothing on stdout.
pub(crate) fn bad(args: &[&str], stdin: &str) -> String {
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

/// Runs a command that must fail on bad input with several lines on stderr, or a tip: exit
/// status 2, nothing on stdout; returns stderr.
#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) fn bad_lines(args: &[&str], stdin: &str) -> String {
    let out = snowflake(args, stdin);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr
}

/// Arguments, stdin, and the one line expected on stderr.
#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) type Case = (&'static [&'static str], &'static str, &'static str);

#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) fn assert_bad(cases: &[Case]) {
    for (args, stdin, expected) in cases {
        assert_eq!(bad(args, stdin), *expected, "{args:?}");
    }
}

/// A field of a JSON line as `serde_json` reads it: a string's text, or a number's digits.
#[allow(dead_code, reason = "not every test target uses it")]
pub(crate) fn field(json: &str, name: &str) -> String {
    let object: serde_json::Value = serde_json::from_str(json).expect("a JSON object");
    match &object[name] {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::Bool(b) => b.to_string(),
        other => panic!("{name}: {other:?} in {json}"),
    }
}

#[allow(unused_imports, reason = "not every test target uses it")]
pub(crate) use snowflake_test_support::clock::wall_ms as now_ms;
