//! The [`Store`] on etcd's v3 API.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use etcd_client::{Client, Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};

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
/// let store = EtcdStore::connect("http://127.0.0.1:2379", &options).await?;
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
    /// Connects to etcd at `endpoint` (`http://host:port`, or `host:port`), with the
    /// key prefix and connect timeout of `options`. Fails after the timeout, naming
    /// the address, when etcd does not answer.
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidEndpoint`], [`LeaseError::InvalidPrefix`] or
    /// [`LeaseError::Unreachable`].
    pub async fn connect(
        endpoint: &str,
        options: &crate::LeaseOptions,
    ) -> Result<EtcdStore, LeaseError> {
        let url = check_endpoint(endpoint)?;
        crate::options::check_prefix(&options.prefix)?;
        let unreachable = |reason: String| LeaseError::Unreachable {
            endpoint: url.clone(),
            timeout: options.connect_timeout,
            reason,
        };
        // HTTP/2 pings find a half-open connection within a third of the TTL.
        let connect_options = etcd_client::ConnectOptions::new()
            .with_connect_timeout(options.connect_timeout)
            .with_timeout(options.connect_timeout)
            .with_keep_alive(options.ttl / 3, options.ttl / 3)
            .with_keep_alive_while_idle(true);
        let mut client = tokio::time::timeout(
            options.connect_timeout,
            Client::connect([url.as_str()], Some(connect_options)),
        )
        .await
        .map_err(|_| unreachable("no answer".to_owned()))?
        .map_err(|e| unreachable(e.to_string()))?;
        // The channel connects lazily: ask something, so that a dead address fails here.
        tokio::time::timeout(options.connect_timeout, client.status())
            .await
            .map_err(|_| unreachable("no answer".to_owned()))?
            .map_err(|e| unreachable(e.to_string()))?;
        Ok(EtcdStore {
            client,
            prefix: options.prefix.clone(),
            endpoint: url,
            ttls: Arc::default(),
        })
    }

    fn client(&self) -> Client {
        // A handle on the same channel: cheap, and lets `&self` methods send.
        self.client.clone()
    }
}

/// Checks an etcd address: `http://host:port` or `host:port` (https needs TLS, which
/// this build leaves out). Returns it as `http://host:port`.
///
/// ```
/// use snowflake_lease::check_endpoint;
///
/// assert_eq!(check_endpoint("127.0.0.1:2379")?, "http://127.0.0.1:2379");
/// assert!(check_endpoint("https://etcd:2379").is_err());
/// # Ok::<(), snowflake_lease::LeaseError>(())
/// ```
///
/// # Errors
///
/// [`LeaseError::InvalidEndpoint`], saying what is wrong.
pub fn check_endpoint(endpoint: &str) -> Result<String, LeaseError> {
    let invalid = |reason: &str| LeaseError::InvalidEndpoint {
        endpoint: endpoint.to_owned(),
        reason: reason.to_owned(),
    };
    let rest = match endpoint.split_once("://") {
        Some(("http", rest)) => rest,
        Some((scheme, _)) => {
            return Err(invalid(&format!(
                "scheme `{scheme}` is not supported; expected http://host:port"
            )));
        }
        None => endpoint,
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let Some((host, port)) = rest.rsplit_once(':') else {
        return Err(invalid("expected host:port, such as http://127.0.0.1:2379"));
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'[' | b']' | b':'));
    if !host_ok {
        return Err(invalid(
            "the host is empty or has characters no host name has",
        ));
    }
    if port.parse::<u16>().map_or(true, |port| port == 0) {
        return Err(invalid("the port is not a number in 1..=65535"));
    }
    Ok(format!("http://{host}:{port}"))
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
                TxnOp::get(hwm, None),
            ])
            .or_else([TxnOp::get(owner, None)]);
        let response = self
            .client()
            .txn(txn)
            .await
            .map_err(|e| store_error("claim", &e))?;
        let answers = response.op_responses();
        if response.succeeded() {
            let hwm_ms = parse_hwm(first_value(answers.get(1)).as_deref())?;
            Ok(Claim::Won { hwm_ms })
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
