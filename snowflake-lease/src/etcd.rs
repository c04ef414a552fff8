//! The [`Store`] on etcd's v3 API: [`EtcdStore`].
//!
//! Calls go to one member at a time and move on when it fails (`members`), calls that may
//! run twice are asked of a second member when the first is slow (`hedge`); where the
//! cluster is and how to reach it is in `config`, the client's options and the first call
//! in `connect`, and what etcd's errors mean in `errors`.

mod config;
mod connect;
mod errors;
mod hedge;
mod members;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use etcd_client::{Client, Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};

pub use self::config::EtcdConfig;
use self::errors::store_error;
use self::hedge::HEDGE;
use self::members::Members;
use crate::error::LeaseError;
use crate::store::{
    Claim, Identity, LeaseId, Reservation, Store, StoreError, StoreErrorKind, hwm_key, hwm_text,
    owner_key, parse_hwm,
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
    members: Arc<Members>,
    prefix: String,
    endpoint: String,
    /// The TTL each lease was granted with: a keep-alive renews it to that.
    ttls: Arc<Mutex<HashMap<i64, Duration>>>,
    /// How long a call that may run twice waits before asking the next member too.
    hedge: Duration,
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
    /// Calls go to one member at a time: the one that answered last. A call that fails
    /// or goes unanswered moves the next ones to the next member of the list, so that a
    /// member that died or hangs costs at most the one call in flight.
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
        let members = Members::new(
            config.endpoints.clone(),
            connect::connect_options(&config, options),
        );
        connect::first_answer(&members, &config, options, &endpoint).await?;
        Ok(EtcdStore {
            members: Arc::new(members),
            prefix: options.prefix.clone(),
            endpoint,
            ttls: Arc::default(),
            hedge: HEDGE.min(options.call_bound() / 3),
        })
    }
}

/// What a reservation's transaction says.
fn reservation(response: &etcd_client::TxnResponse, lease: LeaseId) -> Reservation {
    if response.succeeded() {
        return Reservation::Committed;
    }
    let answers = response.op_responses();
    let still_ours = match answers.first() {
        Some(TxnOpResponse::Get(get)) => get.kvs().first().is_some_and(|kv| kv.lease() == lease.0),
        _ => false,
    };
    match (
        still_ours,
        parse_hwm(first_value(answers.get(1)).as_deref()),
    ) {
        (true, Ok(hwm_ms)) => Reservation::MarkMoved { found_ms: hwm_ms },
        // An unreadable mark is no fence to go on with: as a lost identity, so that the
        // holder stops and its claim says what is wrong, rather than retrying this for
        // ever.
        _ => Reservation::NotOwner,
    }
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
            .members
            .call("grant", |mut client| async move {
                client.lease_grant(seconds, None).await
            })
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
            .members
            .call("claim", |mut client| {
                let txn = txn.clone();
                async move { client.txn(txn).await }
            })
            .await
            .map_err(|e| store_error("claim", &e))?;
        let answers = response.op_responses();
        if response.succeeded() {
            let text = first_value(answers.get(1));
            Ok(match parse_hwm(text.as_deref()) {
                Ok(hwm_ms) => Claim::Won { hwm_ms },
                Err(_) => Claim::BadMark {
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
        let ask = |mut client: Client| {
            let txn = txn.clone();
            async move { client.txn(txn).await }
        };
        self.members
            .hedged("unclaim", self.hedge, ask, |_| true)
            .await
            .map_err(|e| store_error("unclaim", &e))?;
        Ok(())
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        // `lease_keep_alive` sends one renewal and reads its answer; a TTL of 0
        // there comes back as an error, a lease gone.
        let renew = |mut client: Client| async move { client.lease_keep_alive(lease.0).await };
        match self
            .members
            .hedged("keep-alive", self.hedge, renew, |_| true)
            .await
        {
            Ok(_) => Ok(self
                .ttls
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get(&lease.0)
                .copied()),
            Err(e) if errors::kind(&e) == StoreErrorKind::LeaseGone => Ok(None),
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
        let ask = |mut client: Client| {
            let txn = txn.clone();
            async move { Ok(reservation(&client.txn(txn).await?, lease)) }
        };
        // Run twice, the second run finds the mark it asks for: not an answer to go by.
        let settled = |answer: &Reservation| *answer != Reservation::MarkMoved { found_ms: new_ms };
        self.members
            .hedged("reserve", self.hedge, ask, settled)
            .await
            .map_err(|e| store_error("reserve", &e))
    }

    async fn held(&self) -> Result<HashSet<Identity>, StoreError> {
        let owners = format!("{}/owner/", self.prefix);
        let read = |mut client: Client| {
            let owners = owners.clone();
            async move {
                let options = GetOptions::new().with_prefix().with_keys_only();
                client.get(owners, Some(options)).await
            }
        };
        let response = self
            .members
            .hedged("read the owners", self.hedge, read, |_| true)
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
        let revoke = |mut client: Client| async move { client.lease_revoke(lease.0).await };
        match self
            .members
            .hedged("revoke", self.hedge, revoke, |_| true)
            .await
        {
            Ok(_) => Ok(()),
            // Already gone: released all the same.
            Err(e) if errors::kind(&e) == StoreErrorKind::LeaseGone => Ok(()),
            Err(e) => Err(store_error("lease revoke", &e)),
        }
    }
}
