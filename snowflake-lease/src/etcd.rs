//! The [`Store`] on etcd's v3 API.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use etcd_client::{Client, Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};

use crate::config::EtcdConfig;
use crate::error::LeaseError;
use crate::store::{
    Claim, Identity, LeaseId, Reservation, Store, StoreError, hwm_key, hwm_text, owner_key,
    parse_hwm,
};

/// Identities leased from etcd: owner keys on leases, high-water marks beside them.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use snowflake_lease::{EtcdStore, LeaseOptions, LeasedGenerator};
///
/// let options = LeaseOptions::default();
/// let store = EtcdStore::connect("http://10.0.0.1:2379,http://10.0.0.2:2379,http://10.0.0.3:2379", &options).await?;
/// let generator = LeasedGenerator::start(store, options).await?;
/// let id = generator.try_next_id()?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct EtcdStore {
    client: Client,
    prefix: String,
    endpoint: String,
    /// The TTL each lease was granted with: a keep-alive renews it to that.
    ttls: Arc<Mutex<HashMap<i64, Duration>>>,
}

impl std::fmt::Debug for EtcdStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EtcdStore")
            .field("endpoint", &self.endpoint)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl EtcdStore {
    /// Connects to the etcd members `endpoints` lists (comma-separated, all `http://`;
    /// see [`EtcdConfig::new`]), with the key prefix and connect timeout of `options`.
    /// For TLS or a user, see [`connect_with`](EtcdStore::connect_with).
    ///
    /// # Errors
    ///
    /// As [`connect_with`](EtcdStore::connect_with).
    pub async fn connect(
        endpoints: &str,
        options: &crate::LeaseOptions,
    ) -> Result<EtcdStore, LeaseError> {
        EtcdStore::connect_with(EtcdConfig::new(endpoints)?, options).await
    }

    /// Connects to the members of `config`, over TLS and as its user if it says so. Fails
    /// within the connect timeout when no member answers, naming the cause (a refused
    /// connection, an unknown CA, a name the certificate does not cover), and when etcd
    /// refuses the user or its reading of the prefix.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use snowflake_lease::{EtcdConfig, EtcdStore, LeaseOptions};
    ///
    /// let config = EtcdConfig::new("https://10.0.0.1:2379,https://10.0.0.2:2379,https://10.0.0.3:2379")?
    ///     .with_ca_pem(std::fs::read("ca.pem")?)
    ///     .with_client_pem(std::fs::read("client.pem")?, std::fs::read("client-key.pem")?);
    /// let store = EtcdStore::connect_with(config, &LeaseOptions::default()).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidEndpoint`] (TLS settings that do not fit the scheme, or a
    /// build without the `tls` feature), [`LeaseError::InvalidPrefix`],
    /// [`LeaseError::Unreachable`] or [`LeaseError::Denied`].
    pub async fn connect_with(
        config: EtcdConfig,
        options: &crate::LeaseOptions,
    ) -> Result<EtcdStore, LeaseError> {
        config.check_tls()?;
        crate::options::check_prefix(&options.prefix)?;
        let endpoint = config.endpoints.join(",");
        let unreachable = |reason: String| LeaseError::Unreachable {
            endpoint: endpoint.clone(),
            timeout: options.connect_timeout,
            reason,
        };
        let denied = |reason: String| LeaseError::Denied {
            user: config.user().map(str::to_owned),
            prefix: options.prefix.clone(),
            reason,
        };
        // HTTP/2 pings find a half-open connection within a third of the TTL. Without a
        // leader, a member refuses at once rather than holding the request: the holder
        // tries again, perhaps on another member.
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
        connect_options = with_tls(connect_options, &config);
        let connecting = Client::connect(&config.endpoints, Some(connect_options));
        let mut client = match tokio::time::timeout(options.connect_timeout, connecting).await {
            Err(_) => return Err(unreachable("no answer".to_owned())),
            Ok(Err(e)) if is_denied(&e) => return Err(denied(cause(&e))),
            Ok(Err(e)) => return Err(unreachable(cause(&e))),
            Ok(Ok(client)) => client,
        };
        // The channel connects lazily: ask something, so that a dead address fails here,
        // and read the prefix, so that a user who may not fails here too.
        let owners = format!("{}/owner/", options.prefix);
        let read = client.get(
            owners.as_str(),
            Some(
                GetOptions::new()
                    .with_prefix()
                    .with_keys_only()
                    .with_limit(1),
            ),
        );
        match tokio::time::timeout(options.connect_timeout, read).await {
            Err(_) => return Err(unreachable("no answer".to_owned())),
            Ok(Err(e)) if is_denied(&e) => return Err(denied(cause(&e))),
            // With TLS 1.3 a member that wants a client certificate says so only by
            // closing the connection after the handshake.
            Ok(Err(e)) if config.tls && config.client_pem.is_none() => {
                return Err(unreachable(format!(
                    "{}; a member that demands a client certificate closes the connection \
                     like this: give one (with_client_pem)",
                    cause(&e)
                )));
            }
            Ok(Err(e)) => return Err(unreachable(cause(&e))),
            Ok(Ok(_)) => {}
        }
        Ok(EtcdStore {
            client,
            prefix: options.prefix.clone(),
            endpoint,
            ttls: Arc::default(),
        })
    }

    fn client(&self) -> Client {
        // A handle on the same channel: cheap, and lets `&self` methods send.
        self.client.clone()
    }
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

/// Whether etcd refused the user: a wrong password, or no permission. (tonic's status
/// codes are not re-exported; etcd's messages are stable, `etcdserver: ...`.)
fn is_denied(e: &etcd_client::Error) -> bool {
    let etcd_client::Error::GRpcStatus(status) = e else {
        return false;
    };
    let message = status.message();
    [
        "authentication failed",
        "permission denied",
        "user name",
        "invalid auth token",
    ]
    .iter()
    .any(|phrase| message.contains(phrase))
}

/// What went wrong: etcd's own message, or a transport error's innermost cause (a TLS
/// failure says what it is only at the bottom).
fn cause(e: &etcd_client::Error) -> String {
    if let etcd_client::Error::GRpcStatus(status) = e {
        return status.message().to_owned();
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(inner) = source {
        let message = inner.to_string();
        if !text.contains(&message) {
            text.push_str(": ");
            text.push_str(&message);
        }
        source = inner.source();
    }
    text
}

fn store_error(what: &str, e: &etcd_client::Error) -> StoreError {
    StoreError(format!("etcd {what}: {e}"))
}

/// The value of the first key of a `get` inside a transaction.
fn first_value(response: Option<&TxnOpResponse>) -> Option<Vec<u8>> {
    match response {
        Some(TxnOpResponse::Get(get)) => get.kvs().first().map(|kv| kv.value().to_vec()),
        _ => None,
    }
}

impl Store for EtcdStore {
    async fn grant(&self, ttl: Duration) -> Result<LeaseId, StoreError> {
        let seconds = i64::try_from(ttl.as_secs().max(1)).unwrap_or(i64::MAX);
        let granted = self
            .client()
            .lease_grant(seconds, None)
            .await
            .map_err(|e| store_error("lease grant", &e))?;
        let granted_ttl = Duration::from_secs(granted.ttl().unsigned_abs());
        self.ttls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(granted.id(), granted_ttl);
        Ok(LeaseId(granted.id()))
    }

    async fn claim(
        &self,
        identity: Identity,
        lease: LeaseId,
        holder: &str,
    ) -> Result<Claim, StoreError> {
        let owner = owner_key(&self.prefix, identity);
        let hwm = hwm_key(&self.prefix, identity);
        let txn = Txn::new()
            .when([Compare::create_revision(owner.clone(), CompareOp::Equal, 0)])
            .and_then([
                TxnOp::put(
                    owner.clone(),
                    holder,
                    Some(PutOptions::new().with_lease(lease.0)),
                ),
                TxnOp::get(hwm.clone(), None),
            ])
            .or_else([TxnOp::get(owner, None)]);
        let response = self
            .client()
            .txn(txn)
            .await
            .map_err(|e| store_error("claim", &e))?;
        let answers = response.op_responses();
        if response.succeeded() {
            let text = first_value(answers.get(1));
            Ok(match parse_hwm(text.as_deref()) {
                Ok(hwm_ms) => Claim::Won { hwm_ms },
                Err(_) => Claim::Unreadable {
                    key: hwm,
                    text: String::from_utf8_lossy(&text.unwrap_or_default()).into_owned(),
                },
            })
        } else {
            let by = first_value(answers.first())
                .map(|v| String::from_utf8_lossy(&v).into_owned())
                .unwrap_or_default();
            Ok(Claim::Held { by })
        }
    }

    async fn unclaim(&self, identity: Identity, lease: LeaseId) -> Result<(), StoreError> {
        let owner = owner_key(&self.prefix, identity);
        let txn = Txn::new()
            .when([Compare::lease(owner.clone(), CompareOp::Equal, lease.0)])
            .and_then([TxnOp::delete(owner, None)]);
        self.client()
            .txn(txn)
            .await
            .map_err(|e| store_error("unclaim", &e))?;
        Ok(())
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        // `lease_keep_alive` sends one renewal and reads its answer; a TTL of 0
        // there comes back as an error saying "lease not found".
        match self.client().lease_keep_alive(lease.0).await {
            Ok(_) => Ok(self
                .ttls
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(&lease.0)
                .copied()),
            Err(etcd_client::Error::LeaseKeepAliveError(message))
                if message.contains("not found") =>
            {
                Ok(None)
            }
            Err(etcd_client::Error::GRpcStatus(status))
                if status.message().contains("not found") =>
            {
                Ok(None)
            }
            Err(e) => Err(store_error("keep-alive", &e)),
        }
    }

    async fn reserve(
        &self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> Result<Reservation, StoreError> {
        let owner = owner_key(&self.prefix, identity);
        let hwm = hwm_key(&self.prefix, identity);
        let mut checks = vec![Compare::lease(owner.clone(), CompareOp::Equal, lease.0)];
        if expected_ms == 0 {
            checks.push(Compare::create_revision(hwm.clone(), CompareOp::Equal, 0));
        } else {
            checks.push(Compare::value(
                hwm.clone(),
                CompareOp::Equal,
                hwm_text(expected_ms),
            ));
            // Never lowered: zero-padded, the text orders as the number does.
            checks.push(Compare::value(
                hwm.clone(),
                CompareOp::Less,
                hwm_text(new_ms),
            ));
        }
        let txn = Txn::new()
            .when(checks)
            .and_then([TxnOp::put(hwm.clone(), hwm_text(new_ms), None)])
            // Why not, in the same revision: who owns it, and the mark.
            .or_else([TxnOp::get(owner, None), TxnOp::get(hwm, None)]);
        let response = self
            .client()
            .txn(txn)
            .await
            .map_err(|e| store_error("reserve", &e))?;
        if response.succeeded() {
            return Ok(Reservation::Committed);
        }
        let answers = response.op_responses();
        let still_ours = match answers.first() {
            Some(TxnOpResponse::Get(get)) => {
                get.kvs().first().is_some_and(|kv| kv.lease() == lease.0)
            }
            _ => false,
        };
        Ok(
            match (
                still_ours,
                parse_hwm(first_value(answers.get(1)).as_deref()),
            ) {
                (true, Ok(hwm_ms)) => Reservation::Moved { hwm_ms },
                // An unreadable mark is no fence to go on with: as a lost identity, so
                // that the holder stops and its claim says what is wrong, rather than
                // retrying this for ever.
                _ => Reservation::NotOwner,
            },
        )
    }

    async fn held(&self) -> Result<HashSet<Identity>, StoreError> {
        let owners = format!("{}/owner/", self.prefix);
        let response = self
            .client()
            .get(
                owners.as_str(),
                Some(GetOptions::new().with_prefix().with_keys_only()),
            )
            .await
            .map_err(|e| store_error("read the owners", &e))?;
        // `{prefix}/owner/DD/MM`; a key of another shape is nobody's identity.
        Ok(response
            .kvs()
            .iter()
            .filter_map(|kv| {
                let (dc, machine) = kv
                    .key()
                    .strip_prefix(owners.as_bytes())?
                    .split_at_checked(2)?;
                let number = |digits: &[u8]| std::str::from_utf8(digits).ok()?.parse().ok();
                Identity::new(number(dc)?, number(machine.strip_prefix(b"/")?)?).ok()
            })
            .collect())
    }

    async fn release(&self, lease: LeaseId) -> Result<(), StoreError> {
        self.ttls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&lease.0);
        match self.client().lease_revoke(lease.0).await {
            Ok(_) => Ok(()),
            // Already gone: released all the same.
            Err(etcd_client::Error::GRpcStatus(status))
                if status.message().contains("not found") =>
            {
                Ok(())
            }
            Err(e) => Err(store_error("lease revoke", &e)),
        }
    }
}
