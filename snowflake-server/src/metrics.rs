//! `GET /metrics`: Prometheus text, through the `prometheus` crate.

use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus::{
    IntCounter, IntCounterVec, IntGaugeVec, Registry, TextEncoder,
    register_int_counter_vec_with_registry, register_int_counter_with_registry,
    register_int_gauge_vec_with_registry,
};

use crate::AppState;
use crate::api::{CLAIMING, IdentityJson};

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
        Ok(Metrics {
            issued: register_int_counter_with_registry!(
                "snowflake_ids_issued_total",
                "IDs issued",
                registry
            )?,
            requests: register_int_counter_vec_with_registry!(
                "snowflake_http_requests_total",
                "HTTP requests, by endpoint and status",
                &["endpoint", "status"],
                registry
            )?,
            lease_losses: register_int_counter_with_registry!(
                "snowflake_lease_losses_total",
                "times the identity's lease was lost",
                registry
            )?,
            refusals: register_int_counter_with_registry!(
                "snowflake_refusals_total",
                "ID requests answered 503: no identity, a lease lost, or the reserved time run out",
                registry
            )?,
            identity: register_int_gauge_vec_with_registry!(
                "snowflake_identity_info",
                "the identity the IDs carry: datacenter, machine, and its kind (unleased; \
                 or leased: exact, datacenter, auto)",
                &["datacenter", "machine", "kind"],
                registry
            )?,
            store: register_int_gauge_vec_with_registry!(
                "snowflake_lease_store_info",
                "where a leased identity comes from: etcd or postgres",
                &["store"],
                registry
            )?,
            connections_closed: register_int_counter_vec_with_registry!(
                "snowflake_connections_closed_total",
                "connections the server ended, by reason: a header read timed out, a \
                 malformed or too large request head, closed to make room at the cap",
                &["reason"],
                registry
            )?,
            registry,
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
    let metrics = &state.metrics;
    let identity = IdentityJson::of(&state.issuer);
    // The leased generator counts its losses; the counter catches up at each scrape.
    let losses = identity.lease_losses.unwrap_or(0);
    metrics
        .lease_losses
        .inc_by(losses.saturating_sub(metrics.lease_losses.get()));
    // The identity is that of the generator, which keeps it through reclaims: none while claiming.
    if let (Some(datacenter), Some(machine)) = (identity.datacenter, identity.machine)
        && identity.state != Some(CLAIMING)
    {
        let labels = [
            datacenter.to_string(),
            machine.to_string(),
            identity.kind.to_owned(),
        ];
        metrics.identity.with_label_values(&labels).set(1);
    }
    if let Some(store) = identity.store {
        metrics.store.with_label_values(&[store]).set(1);
    }
    // Encoding our own well-formed families cannot fail; say so if it does.
    let body = TextEncoder::new()
        .encode_to_string(&state.metrics.registry.gather())
        .unwrap_or_else(|e| format!("# encoding failed: {e}\n"));
    ([(header::CONTENT_TYPE, prometheus::TEXT_FORMAT)], body).into_response()
}
