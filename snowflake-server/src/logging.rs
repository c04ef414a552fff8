//! Events of the server and `snowflake_lease` on stderr, as text or JSON lines, filtered by
//! `RUST_LOG` (default `info`: one event per thing an operator needs to know, none per request).

use std::fmt;
use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

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

/// Installs the binary's subscriber: the server's and the lease's events on stderr in `format`,
/// filtered by `RUST_LOG` (default `info`). An application with its own subscriber skips it.
///
/// ```no_run
/// snowflake_server::init_logging(snowflake_server::LogFormat::Json)?;
/// # Ok::<(), snowflake_server::LoggingError>(())
/// ```
///
/// # Errors
///
/// A `RUST_LOG` that does not parse, named; a subscriber installed already.
pub fn init_logging(format: LogFormat) -> Result<(), LoggingError> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(text) if !text.is_empty() => EnvFilter::try_new(&text).map_err(|e| LoggingError {
            message: format!(
                "RUST_LOG {text:?} is not a filter such as info or snowflake_lease=debug: {e}"
            ),
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
    installed.map_err(|e| LoggingError {
        message: format!("cannot install the log subscriber: {e}"),
    })
}

/// Why [`init_logging`] failed: a `RUST_LOG` that is no filter (named), or a subscriber in place.
///
/// ```no_run
/// if let Err(e) = snowflake_server::init_logging(snowflake_server::LogFormat::Text) {
///     eprintln!("error: {e}"); // RUST_LOG "info,[" is not a filter such as info or ...
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggingError {
    message: String,
}

impl fmt::Display for LoggingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LoggingError {}
