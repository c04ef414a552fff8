//! What stops the service: a shutdown future given by the caller, or the process's signals.

use std::future::Future;
use std::pin::Pin;

use super::{ServeError, ServeErrorKind};

/// What stops the service: `wait` resolves at a stop, and again at each later one.
pub(crate) trait Stop: Send {
    fn wait(&mut self) -> impl Future<Output = ()> + Send;
}

/// A shutdown future: the first stop; there is no second.
pub(crate) struct Once<F>(pub(crate) Option<Pin<Box<F>>>);

impl<F: Future<Output = ()> + Send> Stop for Once<F> {
    async fn wait(&mut self) {
        match self.0.as_mut() {
            Some(shutdown) => {
                shutdown.await;
                self.0 = None;
            }
            None => std::future::pending().await,
        }
    }
}

/// SIGTERM and Ctrl-C (SIGINT), listened for from the moment [`StopSignals::listen`]
/// returns, for [`serve_until_signal`](crate::serve_until_signal).
#[derive(Debug)]
pub struct StopSignals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
}

impl StopSignals {
    /// Starts listening: from here on the signals stop the service, not the process. Call it
    /// as early as the program can, inside a tokio runtime (outside one, tokio's signals panic).
    ///
    /// ```no_run
    /// # #[tokio::main]
    /// # async fn main() -> Result<(), snowflake_server::ServeError> {
    /// let signals = snowflake_server::StopSignals::listen()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`ServeError`] of kind [`ServeErrorKind::Signals`] when the process cannot listen.
    pub fn listen() -> Result<StopSignals, ServeError> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let listen = || -> std::io::Result<StopSignals> {
                Ok(StopSignals {
                    term: signal(SignalKind::terminate())?,
                    interrupt: signal(SignalKind::interrupt())?,
                })
            };
            listen()
                .map_err(|e| ServeError::new(ServeErrorKind::Signals, "cannot handle signals", e))
        }
        #[cfg(not(unix))]
        Ok(StopSignals {})
    }
}

impl Stop for StopSignals {
    async fn wait(&mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.interrupt.recv() => {}
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

// rustix, which sends the signals, is a dependency on Linux and Android only.
#[cfg(all(test, any(target_os = "linux", target_os = "android")))]
mod tests {
    use std::time::Duration;

    use rustix::process::{Signal, getpid, kill_process};

    use super::{Stop, StopSignals};

    /// Each signal, sent to this process once listening, stops the service, not the process.
    #[tokio::test]
    async fn the_signals_are_heard_inside_a_runtime() {
        let mut signals = StopSignals::listen().expect("listening for the signals");
        for signal in [Signal::TERM, Signal::INT] {
            // Nothing heard before the signal is sent.
            let early = tokio::time::timeout(Duration::from_millis(100), signals.wait()).await;
            assert!(early.is_err(), "a stop heard before {signal:?} was sent");
            kill_process(getpid(), signal).expect("a signal sent to this process");
            tokio::time::timeout(Duration::from_secs(5), signals.wait())
                .await
                .unwrap_or_else(|_| panic!("{signal:?} was not heard"));
        }
    }
}
