//! `snowflake decode`, run as a user runs it: IDs from arguments and from stdin, rows, cards
//! and JSON lines, bad IDs reported with their place while the others are decoded, answers
//! before the next line arrives, and writes in blocks of whole lines (counted with strace).

mod support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use support::{
    Case, SEED, SEED_JSON, TWEET_JSON, assert_bad, bad, field, ok, ok_with_stdin, snowflake,
    snowflake_bytes,
};

const TWEET: &str = "\
id         1541815603606036480
base32     1ASD13XH1F800
time       2022-06-28T16:07:40.105Z (1656432460105 ms)
macro      snowflake!(ts = \"2022-06-28T16:07:40.105Z\", dc = 11, machine = 26, seq = 0)

      sign  timestamp (ms since the Twitter epoch)     datacenter  machine  sequence
bits  0     00101010110010110100001000111110110001000  01011       11010    000000000000
value 0     367597485448                               11          26       0
";

/// `decode`'s row of the tweet: what it writes into a file or a pipe.
const TWEET_ROW: &str = "1541815603606036480\t2022-06-28T16:07:40.105Z\t11\t26\t0\n";

const SEED_ROW: &str = "4194439168\t2010-11-04T01:42:55.657Z\t1\t1\t0\n";

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

const DECODE_ERRORS: &[Case] = &[
    (
        &["decode", "12a"],
        "",
        "error: argument 1: invalid ID \"12a\": invalid character `a` at byte 2: an ID is decimal digits only",
    ),
    (
        &["decode", "9223372036854775808"],
        "",
        "error: argument 1: invalid ID \"9223372036854775808\": number too large: an ID is at most 9223372036854775807",
    ),
    (
        &["decode", "18446744073709551616"],
        "",
        "error: argument 1: invalid ID \"18446744073709551616\": number too large: an ID is at most 9223372036854775807",
    ),
    (
        &["decode"],
        "x1\n",
        "error: line 1: invalid ID \"x1\": invalid character `x` at byte 0: an ID is decimal digits only",
    ),
];

#[test]
fn decode_bad_input() {
    assert_bad(DECODE_ERRORS);
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
        "error: line 2: invalid ID \"nope\": invalid character `n` at byte 0: an ID is decimal digits only\n",
    );
}

#[test]
fn decode_reports_every_bad_line_and_argument() {
    let lines = "x\n4194439168\n\n12a\n1541815603606036480\n";
    let errors = "error: line 1: invalid ID \"x\": invalid character `x` at byte 0: an ID is decimal digits only\n\
         error: line 4: invalid ID \"12a\": invalid character `a` at byte 2: an ID is decimal digits only\n";
    let out = snowflake(&["decode"], lines);
    assert_output(&out, 2, &format!("{SEED_ROW}{TWEET_ROW}"), errors);
    let out = snowflake(&["decode", "--layout", "card"], lines);
    let seed = SEED.replace(
        "(1288834975657 ms)\n",
        "(1288834975657 ms)\n\
         note       within a day of the epoch: maybe no Snowflake (Twitter's IDs before\n\
         \x20          2010-11-04 counted up from 1; an auto-increment key looks the same)\n\
         macro      snowflake!(ts = \"2010-11-04T01:42:55.657Z\", dc = 1, machine = 1, seq = 0)\n",
    );
    assert_output(&out, 2, &format!("{seed}\n{TWEET}"), errors);

    let out = snowflake(&["decode", "--json", "1x", "4194439168", "", "-"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout), SEED_JSON);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: argument 1: invalid ID \"1x\": invalid character `x` at byte 1: an ID is decimal digits only\n\
         error: argument 3: invalid ID \"\": empty text: an ID is decimal digits\n\
         error: argument 4: invalid ID \"-\": invalid character `-` at byte 0: an ID is decimal digits only\n"
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
        "error: line 2: invalid ID \"12\\xff3\": invalid UTF-8 at byte 2: an ID is decimal digits only\n",
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
        "error: line 2: invalid ID \"nope\": invalid character `n` at byte 0: an ID is decimal digits only\n"
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
            "base32": id.to_base32().to_string(),
            "timestamp_ms": p.timestamp_ms,
            "time": id.rfc3339().to_string(),
            "near_epoch": p.timestamp_ms - 1_288_834_974_657 < 86_400_000,
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
        "error: line 1: invalid ID \"x\": invalid character `x` at byte 0: an ID is decimal digits only\n"
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
        "error: argument 2: invalid ID \"12\\xff\": invalid UTF-8 at byte 2: an ID is decimal digits only\n",
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
