//! `snowflake`: compose, decode and generate Twitter-layout Snowflake IDs in a terminal.
//!
//! ```text
//! snowflake compose --ts 1288834975657 --dc 1 --machine 1 --seq 0
//! snowflake decode 1541815603606036480
//! snowflake generate --dc 1 --machine 1 -n 5
//! ```
//!
//! Bad input: a line on stderr for each bad argument, naming it, the value and what is
//! allowed, and exit status 2. `decode` reports each bad ID with its place (`argument 2:`,
//! `line 7:`), decodes the others, and exits with 2 at the end. Times are RFC 3339 in
//! UTC with three fraction digits. `decode` shows a card per ID on a terminal and a row of
//! tab-separated fields per ID into a file or a pipe (`--layout` chooses); `--json` writes
//! one JSON object per line. Into a file or a pipe, output goes out in blocks of 64 KiB;
//! `decode` also writes out what it has whenever it waits for the next line of stdin. Its
//! messages on stderr are buffered alike, in whole lines, and go out before any later ID.
//!
//! Output that cannot be written is a line on stderr and exit status 1: a full disk,
//! `--help` and `--version` too. Whatever stdout is given is written to: /dev/null takes
//! the output, with status 0, opened write-only (`> /dev/null`) or read-write
//! (`1<>/dev/null`, Python's `subprocess.DEVNULL`, and what Rust's runtime puts on a
//! stdout closed with `>&-`). A reader that leaves early (`| head -1`) ends the command
//! quietly, with status 0 (or 2 for bad IDs reported).

// Built by `cargo afl build` (scripts/fuzz.sh), the binary is decode's fuzz target.
#![cfg_attr(fuzzing, allow(dead_code, unused_imports))]

mod blocks;
mod decode;
#[cfg(any(test, fuzzing))]
mod fuzz;
mod input;
mod messages;
mod output;

use std::ffi::OsString;
use std::io::{self, IsTerminal, StdoutLock, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use snowflake_kit::{Clock, Field, GenerateError, Generator, Identity, Snowflake, SystemClock};

use crate::input::Problems;
use crate::messages::Messages;
use crate::output::{Format, Layout, Out};

/// Compose, decode and generate Twitter-layout Snowflake IDs.
#[derive(Parser, Debug)]
#[command(name = "snowflake", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build an ID from its four fields and show its 64 bits, segment by segment.
    Compose {
        /// Unix time in milliseconds, or an RFC 3339 date such as 2022-06-28T16:07:40.105Z [default: now]
        #[arg(long, value_name = "MS|RFC3339", allow_hyphen_values = true)]
        ts: Option<String>,
        #[command(flatten)]
        identity: IdentityArgs,
        /// Sequence number, 0..=4095.
        #[arg(
            long,
            value_name = "N",
            default_value = "0",
            allow_hyphen_values = true
        )]
        seq: String,
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Split IDs into their fields; reads one ID per line from stdin when none are given.
    ///
    /// On a terminal each ID gets a card: its time, the `snowflake!` call that bakes it,
    /// and its 64 bits in labelled segments. Into a file or a pipe each ID gets a row,
    /// one line of tab-separated fields (id, time, datacenter, machine, sequence) that
    /// `sort`, `cut` and `awk` read; --layout chooses either anywhere.
    ///
    /// Spaces and tabs around an ID are ignored, in arguments and in stdin lines alike;
    /// blank lines are skipped, and a UTF-8 byte-order mark at the start. A bad ID is
    /// reported on stderr with its place (`argument 2: ...`, `line 7: ...`), the others
    /// are still decoded, and the exit status is then 2.
    Decode {
        /// IDs in decimal.
        // OsString: an argument that is not UTF-8 is a bad ID, reported with its place
        // while the others are decoded, not a usage error that stops everything.
        #[arg(value_name = "ID")]
        ids: Vec<OsString>,
        /// How each ID is shown without --json [default: card on a terminal, row into a
        /// file or a pipe]
        #[arg(long, value_enum, value_name = "LAYOUT", conflicts_with = "json")]
        layout: Option<Layout>,
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Issue live IDs from a generator, one per line.
    ///
    /// Each run has a generator of its own: two processes with the same --dc and
    /// --machine at the same time can issue the same IDs (59 duplicates turned up across
    /// 200 parallel runs). Give each concurrent process its own identity (--dc/--machine), or
    /// take the IDs from one long-running generator, such as snowflake-server.
    Generate {
        #[command(flatten)]
        identity: IdentityArgs,
        /// How many IDs.
        #[arg(
            short = 'n',
            long = "count",
            value_name = "COUNT",
            default_value = "1",
            allow_hyphen_values = true
        )]
        count: String,
        #[command(flatten)]
        format: FormatArgs,
    },
}

/// The identity: `--dc` and `--machine`, each read by the runtime's rule for its field.
#[derive(Args, Debug)]
struct IdentityArgs {
    /// Datacenter id, 0..=31.
    // Strings, parsed by `input`: clap's own parsing would print several lines and
    // read `-1` as a flag.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    dc: String,
    /// Machine id, 0..=31.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    machine: String,
}

impl IdentityArgs {
    /// `--dc` and `--machine`, each bad one recorded in `problems`.
    fn parse(&self, problems: &mut Problems) -> (Option<u64>, Option<u64>) {
        (
            problems.record(input::field(Field::Datacenter, &self.dc)),
            problems.record(input::field(Field::Machine, &self.machine)),
        )
    }
}

#[derive(Args, Debug)]
struct FormatArgs {
    /// Write one JSON object per ID and per line (JSON Lines), the ID as a decimal string.
    #[arg(long)]
    json: bool,
}

impl FormatArgs {
    fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            Format::Human
        }
    }
}

/// Why the command stopped.
#[derive(Debug)]
enum Failure {
    /// Bad arguments, a message for each: exit status 2.
    Usage(Vec<String>),
    /// Bad IDs, each reported already while `decode` went on: exit status 2.
    BadIds,
    /// The generator's clock failed it: exit status 1.
    Clock(GenerateError),
    /// Reading stdin failed: exit status 1.
    Read(io::Error),
    /// Writing the output failed: exit status 1, or 0 for a closed pipe.
    Write(io::Error),
}

/// Every other I/O is a write of the output.
impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Write(e)
    }
}

#[cfg(fuzzing)]
fn main() {
    fuzz::main();
}

#[cfg(not(fuzzing))]
fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // --help and --version.
        Err(e) if !e.use_stderr() => return report(help(&e), &mut io::stderr()),
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let missing =
                "missing command: expected `compose`, `decode` or `generate` (see --help)";
            return report(Err(Failure::Usage(vec![missing.into()])), &mut io::stderr());
        }
        Err(e) => {
            let _ = write!(io::stderr(), "{}", short(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    report(run(cli.command), &mut io::stderr())
}

/// Writes what stopped the command, if anything, to `stderr`; returns the exit status.
fn report(result: Result<(), Failure>, stderr: &mut impl Write) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(messages)) => {
            for message in messages {
                let _ = writeln!(stderr, "error: {message}");
            }
            ExitCode::from(2)
        }
        Err(Failure::BadIds) => ExitCode::from(2),
        Err(Failure::Clock(e)) => {
            let _ = writeln!(stderr, "error: cannot generate IDs: {e}");
            ExitCode::FAILURE
        }
        // `snowflake generate -n 1000000 | head -1`: the reader has what it wanted. Quiet,
        // as SIGPIPE ends `yes | head -1`; status 0 rather than its 141, which would fail
        // a `set -o pipefail` script on its `| head`.
        Err(Failure::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Write(e)) => {
            let _ = writeln!(stderr, "error: cannot write the output: {e}");
            ExitCode::FAILURE
        }
        Err(Failure::Read(e)) => {
            let _ = writeln!(stderr, "error: cannot read stdin: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Clap's error, short: its message on one line, then its first tip (a similar
/// argument, how to pass `-1` as a value) if it has one; no usage block.
fn short(rendered: &str) -> String {
    let first = rendered.split("\n\n").next().unwrap_or(rendered);
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let mut short = format!(
        "error: {}\n",
        first.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    let tip = rendered
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("tip: "));
    if let Some(tip) = tip {
        short.push_str(tip);
        short.push('\n');
    }
    short
}

/// `--help` or `--version`, written and checked: clap's `Error::print` drops a failed
/// write, and `--help > /dev/full` exited 0.
fn help(e: &clap::Error) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    write!(stdout, "{}", e.render())?;
    stdout.flush()?;
    Ok(())
}

/// Stdout, buffered, coloured if wanted; `decode`'s layout as asked, or the one for a
/// terminal or not.
///
/// Whatever fd 1 is, it is written to; only a write that fails is an error. A stdout
/// closed with `>&-` is not refused: it cannot be told apart, since before `main` Rust's
/// runtime opens /dev/null, read-write, on a closed fd 1, just as `1<>/dev/null` and
/// Python's `subprocess.DEVNULL` give it, and those are a user discarding the output.
fn stdout(format: &FormatArgs, layout: Option<Layout>) -> Out<StdoutLock<'static>> {
    let stdout = io::stdout().lock();
    let terminal = stdout.is_terminal();
    let layout = layout.unwrap_or(if terminal { Layout::Card } else { Layout::Row });
    Out::new(stdout, format.format(), output::wants_colour(terminal)).with_layout(layout)
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Compose {
            ts,
            identity,
            seq,
            format,
        } => {
            let mut problems = Problems::default();
            let ts = match ts {
                Some(ts) => problems.record(input::field(Field::Timestamp, &ts)),
                None => Some(SystemClock.now_ms()),
            };
            let (dc, machine) = identity.parse(&mut problems);
            let seq = problems.record(input::field(Field::Sequence, &seq));
            let (Some(ts), Some(dc), Some(machine), Some(seq)) = (ts, dc, machine, seq) else {
                return Err(Failure::Usage(problems.0));
            };
            let id = snowflake_kit::compose(ts, dc, machine, seq)
                .map_err(|e| Failure::Usage(vec![input::range_error(&e)]))?;
            let mut out = stdout(&format, None);
            out.table(id)?;
            out.flush()?;
        }
        Command::Decode {
            ids,
            layout,
            format,
        } => {
            let mut out = stdout(&format, layout);
            let mut stderr = Messages::new(io::stderr().lock());
            let mut bad = 0;
            let decoded = if ids.is_empty() {
                decode::lines(io::stdin().lock(), &mut out, &mut stderr, &mut bad)
            } else {
                decode::arguments(&ids, &mut out, &mut stderr, &mut bad)
            };
            // Only one of the two holds bytes; either way, before a failure is reported.
            let flushed = out.flush().and_then(|()| stderr.flush());
            match decoded.and_then(|()| Ok(flushed?)) {
                // `| head`: the reader left, but a bad ID it was told about still counts.
                Err(Failure::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe && bad > 0 => {
                    return Err(Failure::BadIds);
                }
                Err(failure) => return Err(failure),
                Ok(()) if bad > 0 => return Err(Failure::BadIds),
                Ok(()) => {}
            }
        }
        Command::Generate {
            identity,
            count,
            format,
        } => {
            let mut problems = Problems::default();
            let (dc, machine) = identity.parse(&mut problems);
            let flag = input::count_flag(std::env::args_os());
            let count = problems.record(input::count(flag, &count));
            let (Some(dc), Some(machine), Some(count)) = (dc, machine, count) else {
                return Err(Failure::Usage(problems.0));
            };
            let identity = Identity::new(dc, machine)
                .map_err(|e| Failure::Usage(vec![input::range_error(&e)]))?;
            let generator = Generator::new(identity);
            let mut out = stdout(&format, None);
            let generated = generate(&mut out, &generator, count);
            // The IDs issued before a clock failure are good: they go out first.
            out.flush()?;
            generated?;
        }
    }
    Ok(())
}

fn generate<C: Clock, W: Write>(
    out: &mut Out<W>,
    generator: &Generator<C>,
    count: u64,
) -> Result<(), Failure> {
    // A batch at a time: one clock reading and one atomic operation per millisecond's worth.
    let mut batch = [Snowflake::MAX; 1024];
    let mut left = count;
    while left > 0 {
        let n = usize::try_from(left.min(1024)).unwrap_or(1024);
        generator
            .try_fill(&mut batch[..n])
            .map_err(Failure::Clock)?;
        for id in &batch[..n] {
            out.line(*id)?;
        }
        left -= n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock stuck before the Twitter epoch.
    struct Before2010;

    impl Clock for Before2010 {
        fn now_ms(&self) -> u64 {
            1_000
        }
    }

    #[test]
    fn clock_failure_is_its_own_failure_with_status_1() {
        let generator =
            Generator::new(Identity::new(1, 1).expect("valid identity")).with_clock(Before2010);
        let mut out = Out::new(Vec::new(), Format::Human, false);
        let failure = generate(&mut out, &generator, 3).expect_err("the clock is before 2010");
        assert!(
            matches!(
                failure,
                Failure::Clock(GenerateError::ClockBeforeEpoch { now_ms: 1_000 })
            ),
            "{failure:?}"
        );
        let mut stderr = Vec::new();
        assert_eq!(report(Err(failure), &mut stderr), ExitCode::FAILURE);
        assert_eq!(
            String::from_utf8_lossy(&stderr),
            "error: cannot generate IDs: the clock reads 1000 ms, before the Twitter epoch \
             (1288834974657 ms, 2010-11-04T01:42:54.657Z)\n"
        );
    }

    #[test]
    fn clap_errors_keep_the_message_and_the_first_tip() {
        let rendered = "error: unexpected argument '--dcc' found\n\n  tip: a similar argument exists: '--dc'\n  tip: another\n\nUsage: snowflake compose --dc <N>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            short(rendered),
            "error: unexpected argument '--dcc' found\ntip: a similar argument exists: '--dc'\n"
        );
    }
}
