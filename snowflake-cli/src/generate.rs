//! `generate`: live IDs from a generator of the process's own, one per line, written in
//! batches.

use std::io::Write;

use snowflake_kit::{Clock, Generator, Identity, Snowflake};

use crate::args::{FormatArgs, IdentityArgs};
use crate::failure::Failure;
use crate::input::{self, Problems};
use crate::output::{self, Out};

/// Issue live IDs from a generator, one per line.
///
/// Each run has a generator of its own: two processes with the same --dc and
/// --machine at the same time can issue the same IDs (59 duplicates turned up across
/// 200 parallel runs). Give each concurrent process its own identity (--dc/--machine), or
/// take the IDs from one long-running generator, such as snowflake-server.
#[derive(clap::Args, Debug)]
pub(crate) struct Args {
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
}

/// Runs `snowflake generate`.
pub(crate) fn run(args: Args) -> Result<(), Failure> {
    let Args {
        identity,
        count,
        format,
    } = args;
    let mut problems = Problems::default();
    let (dc, machine) = identity.parse(&mut problems);
    let flag = input::count_flag(std::env::args_os());
    let count = problems.record(input::count(flag, &count));
    let (Some(dc), Some(machine), Some(count)) = (dc, machine, count) else {
        return Err(Failure::Usage(problems.0));
    };
    let identity =
        Identity::new(dc, machine).map_err(|e| Failure::Usage(vec![input::range_error(&e)]))?;
    let generator = Generator::new(identity);
    let mut out = output::stdout(format.format(), None);
    let generated = generate(&mut out, &generator, count);
    // The IDs issued before a clock failure are good: they go out first.
    out.flush()?;
    generated
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
    use std::process::ExitCode;

    use snowflake_kit::GenerateError;
    use snowflake_test_support::clock::StoppedClock;

    use super::*;
    use crate::output::Format;
    use crate::report;

    /// A clock stuck before the Twitter epoch.
    const BEFORE_2010: StoppedClock = StoppedClock(1_000);

    #[test]
    fn clock_failure_is_its_own_failure_with_status_1() {
        let generator =
            Generator::new(Identity::new(1, 1).expect("valid identity")).with_clock(BEFORE_2010);
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
}
