//! `GET /metrics`: Prometheus text, through the `prometheus` crate.

use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus::{Encoder, IntCounter, IntCounterVec, IntGaugeVec, Opts, Registry, TextEncoder};

use crate::AppState;

/// The service's counters.
pub(crate) struct Metrics {
    registry: Registry,
    pub(crate) issued: IntCounter,
    requests: IntCounterVec,
    lease_losses: IntCounter,
    pub(crate) refusals: IntCounter,
    /// 1 for the identity held (or waited for), labelled with it and how it was chosen.
    identity: IntGaugeVec,
    /// 1 for the store a leased identity comes from.
    store: IntGaugeVec,
    /// Ended before or between requests: a header read timed out, a head refused, room at the cap.
    connections_closed: IntCounterVec,
}

impl Metrics {
    pub(crate) fn new() -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new();
        let issued = IntCounter::new("snowflake_ids_issued_total", "IDs issued")?;
        let requests = IntCounterVec::new(
            Opts::new(
                "snowflake_http_requests_total",
                "HTTP requests, by endpoint and status",
            ),
            &["endpoint", "status"],
        )?;
        let lease_losses = IntCounter::new(
            "snowflake_lease_losses_total",
            "times the identity's lease was lost",
        )?;
        let refusals = IntCounter::new(
            "snowflake_refusals_total",
            "ID requests answered 503: no identity, a lease lost, or the reserved time run out",
        )?;
        let identity = IntGaugeVec::new(
            Opts::new(
                "snowflake_identity_info",
                "the identity the IDs carry: datacenter, machine, and its kind (unleased; \
                 or leased: exact, datacenter, auto)",
            ),
            &["datacenter", "machine", "kind"],
        )?;
        let store = IntGaugeVec::new(
            Opts::new(
                "snowflake_lease_store_info",
                "where a leased identity comes from: etcd or postgres",
            ),
            &["store"],
        )?;
        let connections_closed = IntCounterVec::new(
            Opts::new(
                "snowflake_connections_closed_total",
                "connections the server ended, by reason: a header read timed out, a \
                 malformed or too large request head, closed to make room at the cap",
            ),
            &["reason"],
        )?;
        registry.register(Box::new(connections_closed.clone()))?;
        registry.register(Box::new(issued.clone()))?;
        registry.register(Box::new(identity.clone()))?;
        registry.register(Box::new(store.clone()))?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(lease_losses.clone()))?;
        registry.register(Box::new(refusals.clone()))?;
        Ok(Metrics {
            registry,
            issued,
            requests,
            lease_losses,
            refusals,
            identity,
            store,
            connections_closed,
        })
    }

    /// A connection the server ended, and why.
    pub(crate) fn connection_closed(&self, reason: &str) {
        self.connections_closed.with_label_values(&[reason]).inc();
    }
}

/// Counts every request by its route (not its raw path, which would not be bounded) and status.
pub(crate) async fn count(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let endpoint = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_owned(), |path| path.as_str().to_owned());
    let response = next.run(request).await;
    state
        .metrics
        .requests
        .with_label_values(&[endpoint.as_str(), response.status().as_str()])
        .inc();
    response
}

/// Prometheus text: IDs issued, requests, lease losses, refusals, the identity,
/// connections closed early.
#[utoipa::path(
    get,
    path = "/metrics",
    responses((status = 200, description = "Prometheus text format 0.0.4", body = String,
        content_type = "text/plain; version=0.0.4"))
)]
pub(crate) async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    // The leased generator counts its losses; the counter catches up at each scrape.
    let losses = state.issuer.lease_losses();
    let counted = state.metrics.lease_losses.get();
    state
        .metrics
        .lease_losses
        .inc_by(losses.saturating_sub(counted));
    // The identity is that of the generator, which keeps it through reclaims.
    if let Some((identity, kind)) = state.issuer.identity() {
        let labels = [
            identity.datacenter().to_string(),
            identity.machine().to_string(),
            kind.to_owned(),
        ];
        state
            .metrics
            .identity
            .with_label_values(&labels.each_ref().map(String::as_str))
            .set(1);
    }
    if let Some(store) = state.issuer.store() {
        state.metrics.store.with_label_values(&[store.key()]).set(1);
    }
    let mut body = Vec::new();
    let encoder = TextEncoder::new();
    // Encoding our own well-formed families into a Vec cannot fail; say so if it does.
    if let Err(e) = encoder.encode(&state.metrics.registry.gather(), &mut body) {
        body = format!("# encoding failed: {e}\n").into_bytes();
    }
    (
        [(header::CONTENT_TYPE, encoder.format_type().to_owned())],
        body,
    )
        .into_response()
}
