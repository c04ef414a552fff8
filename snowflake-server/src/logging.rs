//! Events on stderr: the server's and the lease's (`snowflake_lease`), as text for a
//! person at a terminal or as JSON lines for a collector, filtered by `RUST_LOG`
//! (default `info`: one event per thing an operator needs to know, none per request).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::FlagError;

/// How events are written: `--log-format`.
///
/// ```
/// assert_eq!(snowflake_server::LogFormat::default(), snowflake_server::LogFormat::Auto);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
#[non_exhaustive]
pub enum LogFormat {
    /// Text if stderr is a terminal, JSON lines otherwise.
    #[default]
    Auto,
    /// One line of text per event, with its fields as `key=value`.
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, `message` and the
    /// event's fields beside them.
    Json,
}

/// Installs the binary's subscriber: events of the server and the lease on stderr, as
/// `format` says, filtered by `RUST_LOG` (default `info`). An application that has its own
/// subscriber does not call it.
///
/// ```no_run
/// snowflake_server::init_logging(snowflake_server::LogFormat::Json)?;
/// # Ok::<(), snowflake_server::FlagError>(())
/// ```
///
/// # Errors
///
/// A `RUST_LOG` that does not parse, named; a subscriber installed already.
pub fn init_logging(format: LogFormat) -> Result<(), FlagError> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(text) if !text.is_empty() => EnvFilter::try_new(&text).map_err(|e| {
            FlagError::new(format!(
                "RUST_LOG {text:?} is not a filter such as info or snowflake_lease=debug: {e}"
            ))
        })?,
        _ => EnvFilter::new("info"),
    };
    let terminal = std::io::stderr().is_terminal();
    let json = match format {
        LogFormat::Auto => !terminal,
        LogFormat::Text => false,
        LogFormat::Json => true,
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let installed = if json {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.with_ansi(terminal).try_init()
    };
    installed.map_err(|e| FlagError::new(format!("cannot install the log subscriber: {e}")))
}
