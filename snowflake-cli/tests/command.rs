//! The `snowflake` command as a whole, run as a user runs it: `--help`, `--version`, bad
//! usage, the READMEs' examples, and the exit status whatever stdout is (/dev/null, a closed
//! stdout, a full disk, a file over the size limit, a pipe whose reader left, `head -1`).

mod support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use support::{Case, SEED, SEED_ARGS, assert_bad, bad_lines, ok, snowflake};

#[test]
fn help_and_version() {
    assert!(ok(&["--help"]).contains("Compose, decode and generate Twitter-layout Snowflake IDs"));
    assert!(ok(&["compose", "--help"]).contains("--ts <MS|RFC3339>"));
    assert_eq!(
        ok(&["--version"]),
        format!("snowflake {}\n", env!("CARGO_PKG_VERSION"))
    );
}

const OTHER_ERRORS: &[Case] = &[
    (&["bogus"], "", "error: unrecognized subcommand 'bogus'"),
    (
        &[],
        "",
        "error: missing command: expected `compose`, `decode`, `generate` or `sql` (see --help)",
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

#[test]
fn generate_and_usage_bad_input() {
    assert_bad(OTHER_ERRORS);
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

/// Every `$ snowflake ...` example in this crate's README, which its package carries, and in
/// the repository's README, which a packaged crate has not: what each shows is what the
/// command writes (stdout, then stderr). Each `|` stage is dropped, since the command runs
/// into a pipe here anyway.
#[test]
fn readme_examples_run_as_shown() {
    let own = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
    assert_eq!(readme_examples_run(own), 5, "{own}");
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
                                  byte 0: an ID is decimal digits only\n";

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
/// is: refusing it would refuse every script that discards the output from Python.
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
