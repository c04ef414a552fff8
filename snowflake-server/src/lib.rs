//! The `snowflake-server` service as a library, for the binary and for applications: the page
//! that shows how a Twitter-layout Snowflake ID is built, and the ID service around it.
//!
//! - [`serve()`] serves a [`Config`] on a listener until a shutdown future resolves
//!   ([`serve_until_signal`]: until SIGTERM or Ctrl-C, as the binary does);
//! - [`Service`] gives the router to mount, and claims and releases a leased identity;
//! - [`Config`] says where the IDs come from: no identity, an unleased one, or one leased
//!   from a [`StoreConfig`] (the binary makes one from its own flags).
//!
//! The crates whose types this API names are re-exported, so that an application uses the
//! very versions the service was built with: [`axum`] ([`Service::router`] is an axum
//! `Router`), [`tokio`] (the listener [`serve`] takes), [`lease`] (`snowflake-lease`:
//! [`StoreConfig`] and [`Config::leased`] take its options), [`snowflake_kit`] (an
//! [`Identity`](snowflake_kit::Identity) for [`Config::unleased`]).
//!
//! The endpoints, the flags and the lease are described in the
//! [README](https://github.com/snowflake-kit/snowflake-kit/blob/main/snowflake-server/README.md).
//!
//! ```no_run
//! # #[tokio::main]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use snowflake_server::Config;
//!
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! let config = Config::unleased(snowflake_kit::Identity::new(1, 1)?);
//! let signals = snowflake_server::StopSignals::listen()?;
//! snowflake_server::serve_until_signal(listener, config, signals).await?;
//! # Ok(()) }
//! ```

mod api;
mod chain;
mod config;
mod error;
mod fair;
mod issuer;
mod limits;
mod listen;
mod metrics;
mod openapi;
mod page;
mod query;
mod serve;

use std::sync::Arc;

use axum::Router;
use axum::routing::get;

pub use axum;
pub use snowflake_kit;
pub use snowflake_lease as lease;
pub use tokio;

pub use crate::config::{Config, StoreConfig};
pub use crate::serve::{
    ServeError, ServeErrorKind, Service, StopSignals, serve, serve_until_signal,
};

/// What the handlers share.
pub(crate) struct AppState {
    issuer: issuer::Issuer,
    /// Requests waiting for the clock, served in turn.
    queue: fair::Queue,
    metrics: metrics::Metrics,
}

/// The router on `state`.
fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .merge(page::routes())
        // A HEAD would issue IDs and throw them away: 405.
        .route("/v1/id", get(api::id).head(api::method_not_allowed))
        .route("/v1/ids", get(api::ids).head(api::method_not_allowed))
        .route("/v1/compose", get(api::compose))
        .route("/v1/decode/{id}", get(api::decode))
        .route("/v1/identity", get(api::identity))
        .route("/healthz", get(api::healthz))
        .route("/readyz", get(api::readyz))
        .route("/metrics", get(metrics::metrics))
        .route("/v1/openapi.json", get(openapi::openapi))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        // Inside the count: answers past the limits are counted too.
        .layer(axum::middleware::from_fn(limits::limits))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&state),
            metrics::count,
        ))
        .with_state(state)
}
