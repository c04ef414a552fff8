//! `snowflake-server`: the page that shows how a Snowflake ID is built, and an ID service around
//! it. The flags are this binary's (`flags.rs`, see `--help`); the service is the library's.
//!
//! Bad flags: one line on stderr, exit 2. Events: on stderr, text or JSON lines, filtered by
//! `RUST_LOG`. A port in use, an unreachable store, a TLS or auth failure, an identity not
//! claimed in time: an ERROR event naming it, exit 1. The server answers at once; while it
//! claims its identity, the ID endpoints and `/readyz` answer 503 saying what it waits for.
//! SIGTERM or Ctrl-C: stop accepting, finish what is in flight, release the identity, exit 0.

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use snowflake_server::StopSignals;

use crate::chain::chain;
use crate::flags::Flags;

mod chain;
mod flags;
mod logging;

fn main() -> ExitCode {
    let flags = match Flags::try_parse() {
        Ok(flags) => flags,
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => return fail(2, &flags::one_line(&e)),
    };
    // Passwords come from the environment, looked up here and nowhere else.
    let env = |name: &str| std::env::var(name).ok();
    match flags.schema_sql() {
        Some(Ok(sql)) => {
            return match std::io::stdout().write_all(sql.as_bytes()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(1, &format!("cannot write the schema: {e}")),
            };
        }
        Some(Err(e)) => return fail(2, &e),
        None => {}
    }
    let config = match flags.config(&env) {
        Ok(config) => config,
        Err(e) => return fail(2, &e),
    };
    let (listen, log_format) = (flags.listen, flags.log_format);
    if let Err(e) = logging::init_logging(log_format) {
        return fail(2, &e);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => return fail(1, &format!("cannot start the runtime: {e}")),
    };
    // Before the first connection: the cap on connections follows the limit on files.
    raise_open_files_limit();
    let served = runtime.block_on(async {
        // The port first: a port in use must not cost a claim of an identity.
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
        // Stop signals before the address is printed: from then on, whoever started it may stop it.
        let signals = StopSignals::listen().map_err(|e| chain(&e))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        // A closed stdout is no reason to stop.
        let _ = writeln!(
            std::io::stdout(),
            "snowflake-server listening on http://{local}"
        );
        snowflake_server::serve_until_signal(listener, config, signals)
            .await
            .map_err(|e| chain(&e))
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        // An event, as everything after the start is: one line, JSON for a collector.
        Err(message) => {
            tracing::error!("{message}");
            ExitCode::from(1)
        }
    }
}

fn fail(code: u8, message: &str) -> ExitCode {
    let _ = writeln!(std::io::stderr(), "error: {message}");
    ExitCode::from(code)
}

/// Raises the soft limit on open files to the hard one: each client connection is one.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn raise_open_files_limit() {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        limit.current = limit.maximum;
        // Kept as it was if the kernel refuses: the cap follows what is in force.
        let _ = setrlimit(Resource::Nofile, limit);
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn raise_open_files_limit() {}
