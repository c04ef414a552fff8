//! `snowflake`: compose, decode and generate Twitter-layout Snowflake IDs in a terminal, and
//! print them as SQL functions for a database.
//!
//! ```text
//! snowflake compose --ts 1288834975657 --dc 1 --machine 1 --seq 0
//! snowflake decode 1541815603606036480
//! snowflake generate --dc 1 --machine 1 -n 5
//! snowflake sql postgres | psql
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

mod args;
mod blocks;
mod compose;
mod decode;
mod failure;
#[cfg(any(test, fuzzing))]
mod fuzz;
mod generate;
mod input;
mod messages;
mod output;
mod sql;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::failure::Failure;

/// Compose, decode and generate Twitter-layout Snowflake IDs; print them as SQL functions.
#[derive(Parser, Debug)]
#[command(name = "snowflake", version, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Each subcommand's options, its help and its run are in its module.
#[derive(Subcommand, Debug)]
enum Command {
    Compose(compose::Args),
    Decode(decode::Args),
    Generate(generate::Args),
    Sql(sql::Args),
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
                "missing command: expected `compose`, `decode`, `generate` or `sql` (see --help)";
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

/// Hands the command to its subcommand's module.
fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Compose(args) => compose::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Sql(args) => sql::run(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_errors_keep_the_message_and_the_first_tip() {
        let rendered = "error: unexpected argument '--dcc' found\n\n  tip: a similar argument exists: '--dc'\n  tip: another\n\nUsage: snowflake compose --dc <N>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            short(rendered),
            "error: unexpected argument '--dcc' found\ntip: a similar argument exists: '--dc'\n"
        );
    }
}
