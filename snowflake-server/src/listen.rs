//! Accepting connections, with limits a misbehaving client cannot get around: a thousand
//! silent connections cannot shut out `/healthz`. The header-read timeout is also the idle
//! timeout, as hyper starts it when it waits for a request's first byte. At the cap on open
//! connections, the oldest with no request in flight (idle, or half-sent) is closed to make room.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::AppState;
use crate::metrics::Metrics;

/// How long a client may take to send a request's head, and may stay idle between two.
pub(crate) const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// File descriptors kept for everything but client connections: etcd, the listener,
/// standard streams, a connection accepted while one is closed to make room.
const RESERVED_FDS: u64 = 64;

/// The cap on client connections under the open-files limit (the binary first raises soft to hard).
pub(crate) fn connection_cap() -> usize {
    let limit = open_files_limit();
    usize::try_from(limit.saturating_sub(RESERVED_FDS).clamp(16, 1 << 20)).unwrap_or(1 << 20)
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn open_files_limit() -> u64 {
    use rustix::process::{Resource, getrlimit};
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn open_files_limit() -> u64 {
    // Where it cannot be read: a common service default.
    1024
}

/// An open connection: its requests in flight, and a way to close it.
struct Open {
    in_flight: Arc<AtomicUsize>,
    close: tokio::task::AbortHandle,
}

/// The open connections, oldest first.
#[derive(Default)]
struct Connections {
    next: u64,
    open: BTreeMap<u64, Open>,
}

impl Connections {
    /// Closes the oldest connection without a request in flight, if there is one.
    fn close_oldest_idle(&mut self, metrics: &Metrics) {
        let idle = self
            .open
            .iter()
            .find(|(_, open)| open.in_flight.load(Ordering::Acquire) == 0)
            .map(|(&id, _)| id);
        if let Some(open) = idle.and_then(|id| self.open.remove(&id)) {
            open.close.abort();
            metrics.connection_closed("to make room");
        }
    }
}

/// Serves `app` on `listener` until `shutdown` resolves, then lets the connections finish
/// their requests in flight (the caller bounds how long).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    state: Arc<AppState>,
    cap: usize,
    shutdown: impl Future<Output = ()>,
) {
    let connections = Arc::new(Mutex::new(Connections::default()));
    let graceful = GracefulShutdown::new();
    let mut tasks = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        // EMFILE, ENFILE or the like: make room, pause and go on; never end the server.
        let Ok((stream, _)) = accepted else {
            lock(&connections).close_oldest_idle(&state.metrics);
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        {
            let mut open = lock(&connections);
            if open.open.len() >= cap {
                open.close_oldest_idle(&state.metrics);
            }
        }
        let in_flight = Arc::new(AtomicUsize::new(0));
        let counting = Arc::clone(&in_flight);
        let app = app.clone();
        // Counts its requests in flight: a connection with none may be closed to make room.
        let service = hyper::service::service_fn(move |request| {
            counting.fetch_add(1, Ordering::AcqRel);
            let (app, counting) = (app.clone(), Arc::clone(&counting));
            async move {
                let response = app.oneshot(request).await;
                counting.fetch_sub(1, Ordering::AcqRel);
                response
            }
        });
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(HEADER_READ_TIMEOUT);
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        let (connections_, state_) = (Arc::clone(&connections), Arc::clone(&state));
        let mut registry = lock(&connections);
        let id = registry.next;
        registry.next += 1;
        let close = tasks.spawn(async move {
            if let Err(e) = connection.await {
                state_.metrics.connection_closed(why(&e));
            }
            lock(&connections_).open.remove(&id);
        });
        registry.open.insert(id, Open { in_flight, close });
        drop(registry);
        // Reap the finished, so that the set does not grow with every connection.
        while tasks.try_join_next().is_some() {}
    }
    // Each connection finishes its requests in flight, then its task counts how it ended.
    // Dropped with `serve` when the drain ends, the set aborts what is still open.
    graceful.shutdown().await;
    while tasks.join_next().await.is_some() {}
}

/// Why hyper ended a connection, as the metric's label.
fn why(e: &hyper::Error) -> &'static str {
    if e.is_timeout() {
        "header read timeout"
    } else if e.is_parse_too_large() {
        "request head too large"
    } else if e.is_parse() {
        "malformed request"
    } else {
        "connection error"
    }
}

fn lock(connections: &Mutex<Connections>) -> std::sync::MutexGuard<'_, Connections> {
    connections.lock().unwrap_or_else(PoisonError::into_inner)
}
