//! How the store reaches etcd: the client's options (keep-alive, user, TLS), and the first
//! call, which shows that a member answers and that the user may read the prefix.

use std::sync::Arc;

use etcd_client::GetOptions;

use super::config::EtcdConfig;
use super::errors::{cause, is_denied};
use super::members::Members;
use crate::LeaseOptions;
use crate::error::{Cause, LeaseError, StoreKind};

/// The client's options for the members of `config`, with the timeouts of `options`.
pub(super) fn connect_options(
    config: &EtcdConfig,
    options: &LeaseOptions,
) -> etcd_client::ConnectOptions {
    // HTTP/2 pings find a half-open connection within two thirds of the TTL. Without a
    // leader, a member refuses at once rather than holding the request: the holder
    // tries again, on the next member.
    let mut connect_options = etcd_client::ConnectOptions::new()
        .with_connect_timeout(options.connect_timeout)
        .with_timeout(options.connect_timeout)
        .with_keep_alive(options.ttl / 3, options.ttl / 3)
        .with_keep_alive_while_idle(true)
        .with_require_leader(true)
        // A token outlives no `--auth-token-ttl`: a holder runs for months.
        .with_auto_token_refresh(true);
    if let Some((name, password)) = &config.user {
        connect_options = connect_options.with_user(name, password);
    }
    with_tls(connect_options, config)
}

/// Fails within the connect timeout of `options` when no member answers, naming the
/// cause, and when etcd refuses the user or its reading of the prefix; `endpoint` is the
/// members' list as the errors name it.
pub(super) async fn first_answer(
    members: &Members,
    config: &EtcdConfig,
    options: &LeaseOptions,
    endpoint: &str,
) -> Result<(), LeaseError> {
    let unreachable = |cause: Cause| LeaseError::Unreachable {
        store: StoreKind::Etcd,
        endpoint: endpoint.to_owned(),
        timeout: options.connect_timeout,
        cause,
    };
    let denied = |cause: Cause| LeaseError::Denied {
        store: StoreKind::Etcd,
        user: config.user().map(str::to_owned),
        scope: options.prefix.clone(),
        cause,
    };
    // Ask something, so that a dead address fails here, and read the prefix, so that
    // a user who may not fails here too: each member in turn, until one answers.
    let owners = format!("{}/owner/", options.prefix);
    let deadline = tokio::time::Instant::now() + options.connect_timeout;
    let mut reasons = Vec::new();
    let mut last_error = None;
    for left in (1..=members.endpoints.len()).rev() {
        let read = members.call("read the prefix", |mut client| {
            let owners = owners.clone();
            async move {
                let read = GetOptions::new()
                    .with_prefix()
                    .with_keys_only()
                    .with_limit(1);
                client.get(owners, Some(read)).await
            }
        });
        // The time left shared among the members left: one that hangs leaves the
        // others their turn.
        let bound = deadline.saturating_duration_since(tokio::time::Instant::now())
            / u32::try_from(left).unwrap_or(u32::MAX);
        match tokio::time::timeout(bound, read).await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(e)) if is_denied(&e) => {
                return Err(denied(Cause::new(cause(&e), Some(Arc::new(e)))));
            }
            // With TLS 1.3 a member that wants a client certificate says so only by
            // closing the connection after the handshake.
            // (Said, and the other members tried: this one may merely be down.)
            Ok(Err(e)) if config.tls && config.client_pem.is_none() => {
                reasons.push(format!(
                    "{}; a member that demands a client certificate closes the connection \
                     like this: give one (with_client_pem)",
                    cause(&e)
                ));
                last_error = Some(e);
            }
            Ok(Err(e)) => {
                reasons.push(cause(&e));
                last_error = Some(e);
            }
            Err(_) => reasons.push("no answer".to_owned()),
        }
    }
    reasons.dedup();
    let last_error = last_error.map(|e| Arc::new(e) as Arc<dyn std::error::Error + Send + Sync>);
    Err(unreachable(Cause::new(reasons.join("; "), last_error)))
}

/// The TLS settings of `config`, on the client's options.
#[cfg(feature = "tls")]
fn with_tls(
    connect: etcd_client::ConnectOptions,
    config: &EtcdConfig,
) -> etcd_client::ConnectOptions {
    use etcd_client::{Certificate, Identity as ClientIdentity, TlsOptions};
    let Some(ca) = config.ca_pem.as_ref().filter(|_| config.tls) else {
        return connect;
    };
    let mut tls = TlsOptions::new().ca_certificate(Certificate::from_pem(ca));
    if let Some((certificate, key)) = &config.client_pem {
        tls = tls.identity(ClientIdentity::from_pem(certificate, key));
    }
    connect.with_tls(tls)
}

/// Without the `tls` feature, `check_tls` has refused https already.
#[cfg(not(feature = "tls"))]
fn with_tls(
    connect: etcd_client::ConnectOptions,
    _config: &EtcdConfig,
) -> etcd_client::ConnectOptions {
    connect
}
