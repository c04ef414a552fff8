//! `compose`: an ID built from its four fields, shown with its 64 bits segment by segment;
//! every bad field is reported at once.

use snowflake_kit::{Clock, Field, SystemClock};

use crate::args::{FormatArgs, IdentityArgs};
use crate::failure::Failure;
use crate::input::{self, Problems};
use crate::output;

/// Build an ID from its four fields and show its 64 bits, segment by segment.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
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
}

/// Runs `snowflake compose`.
pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let Args {
        ts,
        identity,
        seq,
        format,
    } = args;
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
    let mut out = output::stdout(format.format(), None);
    out.table(id)?;
    out.flush()?;
    Ok(())
}
