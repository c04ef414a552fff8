//! `snowflake`: compose, decode and generate Twitter-layout Snowflake IDs in a terminal.
//!
//! ```text
//! snowflake compose --ts 1288834975657 --dc 1 --machine 1 --seq 0
//! snowflake decode 1541815603606036480
//! snowflake generate --dc 1 --machine 1 -n 5
//! ```
//!
//! Bad input: one line on stderr naming the argument, the value and what is
//! allowed, and exit status 2. `--json` writes one JSON object per line.

mod input;
mod output;

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sf::{Generator, Snowflake};

use crate::output::Format;

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
        node: NodeArgs,
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
    Decode {
        /// IDs in decimal.
        #[arg(value_name = "ID")]
        ids: Vec<String>,
        #[command(flatten)]
        format: FormatArgs,
    },
    /// Issue live IDs from a generator, one per line.
    Generate {
        #[command(flatten)]
        node: NodeArgs,
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

/// The issuer: `--dc` and `--machine`, checked by the runtime's `compose`.
#[derive(Args, Debug)]
struct NodeArgs {
    /// Datacenter id, 0..=31.
    // Strings, parsed by `input`: clap's own parsing would print several lines and
    // read `-1` as a flag.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    dc: String,
    /// Machine id, 0..=31.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    machine: String,
}

impl NodeArgs {
    fn parse(&self) -> Result<(u64, u64), Failure> {
        Ok((
            input::number("--dc", &self.dc)?,
            input::number("--machine", &self.machine)?,
        ))
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
enum Failure {
    /// Bad input: exit status 2.
    Usage(String),
    /// Reading or writing failed: exit status 1, or 0 for a closed pipe.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            return usage_error(
                "missing command: expected `compose`, `decode` or `generate` (see --help)",
            );
        }
        Err(e) => return usage_error(&one_line(&e.to_string())),
    };
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => usage_error(&message),
        // `snowflake generate -n 1000000 | head -1`: the reader has what it wanted.
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Io(e)) => {
            let _ = writeln!(io::stderr(), "error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    let message = message.strip_prefix("error: ").unwrap_or(message);
    let _ = writeln!(io::stderr(), "error: {message}");
    ExitCode::from(2)
}

/// Clap's message without its usage block, on one line.
fn one_line(message: &str) -> String {
    let message = message.split("\n\n").next().unwrap_or(message);
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn run(command: Command) -> Result<(), Failure> {
    // Buffered: `generate -n 1000000` would otherwise make a write call per line.
    let mut out = io::BufWriter::new(anstream::stdout().lock());
    match command {
        Command::Compose {
            ts,
            node,
            seq,
            format,
        } => {
            let ts = match ts {
                Some(ts) => input::timestamp(&ts)?,
                None => input::now_ms(),
            };
            let (dc, machine) = node.parse()?;
            let id = sf::compose(ts, dc, machine, input::number("--seq", &seq)?)
                .map_err(|e| Failure::Usage(input::compose_error(&e)))?;
            output::write(&mut out, id, format.format(), false)?;
        }
        Command::Decode { ids, format } => {
            if ids.is_empty() {
                decode_stdin(&mut out, format.format())?;
            } else {
                for (index, text) in ids.iter().enumerate() {
                    decode_one(&mut out, text, format.format(), index, "")?;
                }
            }
        }
        Command::Generate {
            node,
            count,
            format,
        } => {
            let (dc, machine) = node.parse()?;
            let count = input::number("-n", &count)?;
            let generator = Generator::new(dc, machine)
                .map_err(|e| Failure::Usage(input::compose_error(&e)))?;
            generate(&mut out, &generator, count, format.format())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Decodes the `index`-th ID and writes it; `place` (such as `line 3: `) starts its error.
fn decode_one(
    out: &mut impl Write,
    text: &str,
    format: Format,
    index: usize,
    place: &str,
) -> Result<(), Failure> {
    let id: Snowflake = text
        .parse()
        .map_err(|e| Failure::Usage(format!("{place}invalid ID {text:?}: {e}")))?;
    // A blank line between the human blocks of several IDs.
    if format == Format::Human && index > 0 {
        writeln!(out)?;
    }
    output::write(out, id, format, true)?;
    Ok(())
}

fn decode_stdin(out: &mut impl Write, format: Format) -> Result<(), Failure> {
    let mut shown = 0;
    for (number, line) in io::stdin().lock().lines().enumerate() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        decode_one(out, text, format, shown, &format!("line {}: ", number + 1))?;
        // Each answer as soon as its line is read, for interactive use and pipes.
        out.flush()?;
        shown += 1;
    }
    Ok(())
}

fn generate(
    out: &mut impl Write,
    generator: &Generator,
    count: u64,
    format: Format,
) -> Result<(), Failure> {
    // A batch at a time: one clock reading and one atomic operation per millisecond's worth.
    let mut batch = [Snowflake::MAX; 1024];
    let mut left = count;
    while left > 0 {
        let n = usize::try_from(left.min(1024)).unwrap_or(1024);
        generator
            .try_fill(&mut batch[..n])
            .map_err(|e| Failure::Io(io::Error::other(e)))?;
        for id in &batch[..n] {
            match format {
                Format::Human => writeln!(out, "{id}")?,
                Format::Json => output::write(out, *id, format, false)?,
            }
        }
        left -= n as u64;
    }
    Ok(())
}
