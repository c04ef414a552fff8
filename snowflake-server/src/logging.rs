//! Events of the server and `snowflake_lease` on stderr, as text or JSON lines, filtered by
//! `RUST_LOG` (default `info`: one event per thing an operator needs to know, none per request).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// How events are written: `--log-format`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// Text if stderr is a terminal, JSON lines otherwise.
    Auto,
    /// One line of text per event, with its fields as `key=value`.
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, `message` and the
    /// event's fields beside them.
    Json,
}

/// Installs the subscriber: the server's and the lease's events on stderr in `format`,
/// filtered by `RUST_LOG` (default `info`). A `RUST_LOG` that does not parse is named.
pub(crate) fn init_logging(format: LogFormat) -> Result<(), String> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(text) if !text.is_empty() => EnvFilter::try_new(&text).map_err(|e| {
            format!("RUST_LOG {text:?} is not a filter such as info or snowflake_lease=debug: {e}")
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
    installed.map_err(|e| format!("cannot install the log subscriber: {e}"))
}
