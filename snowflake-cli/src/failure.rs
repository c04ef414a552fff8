//! Why a subcommand stopped: the one error type of every subcommand, which `main` turns into
//! a message and an exit status.

use std::io;

use snowflake_kit::GenerateError;

/// Why the command stopped.
#[derive(Debug)]
pub(crate) enum Failure {
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
