//! The [`Store`] on etcd's v3 API.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use etcd_client::{Client, Compare, CompareOp, GetOptions, PutOptions, Txn, TxnOp, TxnOpResponse};

use crate::config::EtcdConfig;
use crate::error::{LeaseError, StoreKind};
use crate::events::event;
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
    members: Arc<Members>,
    prefix: String,
    endpoint: String,
    /// The TTL each lease was granted with: a keep-alive renews it to that.
    ttls: Arc<Mutex<HashMap<i64, Duration>>>,
    /// How long a call that may run twice waits before asking the next member too.
    hedge: Duration,
}

/// A client for each member, and the one calls go to now.
///
/// Why not etcd-client's balanced channel over all members: it picks by the fewest calls
/// in flight, so a member that hangs (a frozen host, a process stopped, a leader lost
/// with its proposals) gets the next call as soon as the last one was given up, and
/// HTTP/2 pings take two thirds of the TTL to declare its connection dead; a server on a
/// busy machine was out for seconds after a new leader was elected (issue #30). Here
/// calls stay on the member that answers, and move to the next as soon as one fails or
/// goes unanswered.
struct Members {
    endpoints: Vec<String>,
    connect: etcd_client::ConnectOptions,
    /// Made on first use: with a user, making one authenticates, which a member that
    /// is down at start cannot answer.
    clients: Vec<Mutex<Option<Client>>>,
    current: AtomicUsize,
}

impl Members {
    /// Member `i`'s client, made now if it has none.
    async fn client(&self, i: usize) -> Result<Client, etcd_client::Error> {
        let made = self.clients[i]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if let Some(client) = made {
            return Ok(client);
        }
        let client =
            Client::connect([self.endpoints[i].as_str()], Some(self.connect.clone())).await?;
        *self.clients[i]
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(client.clone());
        Ok(client)
    }

    /// After a failure on member `from`: the next calls go to the next member, unless
    /// another call moved them already.
    fn move_on(&self, from: usize, op: &'static str) {
        let to = (from + 1) % self.endpoints.len();
        if to != from
            && self
                .current
                .compare_exchange(from, to, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            event!(
                INFO,
                op,
                from = %self.endpoints[from],
                to = %self.endpoints[to],
                "etcd calls move to another member"
            );
            let _ = op;
        }
    }
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
        let unreachable = |reason: String| LeaseError::Unreachable {
            store: StoreKind::Etcd,
            endpoint: endpoint.clone(),
            timeout: options.connect_timeout,
            reason,
        };
        let denied = |reason: String| LeaseError::Denied {
            store: StoreKind::Etcd,
            user: config.user().map(str::to_owned),
            scope: options.prefix.clone(),
            reason,
        };
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
        connect_options = with_tls(connect_options, &config);
        let count = config.endpoints.len();
        let store = EtcdStore {
            members: Arc::new(Members {
                endpoints: config.endpoints.clone(),
                connect: connect_options,
                clients: (0..count).map(|_| Mutex::new(None)).collect(),
                // Servers started together spread over the members.
                current: AtomicUsize::new(std::process::id() as usize % count),
            }),
            prefix: options.prefix.clone(),
            endpoint: endpoint.clone(),
            ttls: Arc::default(),
            hedge: HEDGE.min(options.call_bound() / 3),
        };
        // Ask something, so that a dead address fails here, and read the prefix, so that
        // a user who may not fails here too: each member in turn, until one answers.
        let owners = format!("{}/owner/", options.prefix);
        let deadline = tokio::time::Instant::now() + options.connect_timeout;
        let mut reasons = Vec::new();
        for left in (1..=count).rev() {
            let read = store.call("read the prefix", |mut client| {
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
                Ok(Ok(_)) => return Ok(store),
                Ok(Err(e)) if is_denied(&e) => return Err(denied(cause(&e))),
                // With TLS 1.3 a member that wants a client certificate says so only by
                // closing the connection after the handshake.
                // (Said, and the other members tried: this one may merely be down.)
                Ok(Err(e)) if config.tls && config.client_pem.is_none() => {
                    reasons.push(format!(
                        "{}; a member that demands a client certificate closes the connection \
                         like this: give one (with_client_pem)",
                        cause(&e)
                    ));
                }
                Ok(Err(e)) => reasons.push(cause(&e)),
                Err(_) => reasons.push("no answer".to_owned()),
            }
        }
        reasons.dedup();
        Err(unreachable(reasons.join("; ")))
    }

    /// One call to etcd, `op`, on the member calls go to now. A failure, or the call
    /// given up (dropped by the holder's bound), moves the next calls to the next member.
    /// For a call that may not run twice: a grant, a claim.
    async fn call<T, F, Fut>(&self, op: &'static str, call: F) -> Result<T, etcd_client::Error>
    where
        F: Fn(Client) -> Fut,
        Fut: Future<Output = Result<T, etcd_client::Error>>,
    {
        let member = self.members.current.load(Ordering::Relaxed);
        // Boxed, as below: a call's future (tonic's, with TLS) is large.
        Box::pin(self.attempt(op, member, &call)).await
    }

    /// As [`call`](EtcdStore::call), and if the member has not answered within
    /// the hedge delay (at most [`HEDGE`]), the same call to the next member too: the first answer wins, and the
    /// next calls go to the member that gave it. For calls that may run twice: a
    /// keep-alive, a read, a revoke, an unclaim; and a reservation, a compare-and-set
    /// whose second run finds the mark it asks for already there, an answer that is not
    /// `settled`: it waits for the other run's, and with none, the call counts as
    /// unanswered (the holder then knows the mark may be committed).
    ///
    /// Why: a member that still follows a leader that has died or hangs takes the call
    /// and forwards it to nowhere, and a member that hangs itself holds it; either keeps
    /// the call for its whole bound. Found on a busy machine (issue #30), where two such
    /// calls in a row kept a server refusing for 1.9 s past a new leader.
    async fn hedged<T, F, Fut>(
        &self,
        op: &'static str,
        call: F,
        settled: impl Fn(&T) -> bool,
    ) -> Result<T, etcd_client::Error>
    where
        F: Fn(Client) -> Fut,
        Fut: Future<Output = Result<T, etcd_client::Error>>,
    {
        let first = self.members.current.load(Ordering::Relaxed);
        let second = (first + 1) % self.members.endpoints.len();
        // On the heap: two calls' futures (tonic's, with TLS) would overflow a worker's
        // stack in a debug build.
        let mut asked = Box::pin(self.attempt(op, first, &call));
        if second == first {
            return asked.await;
        }
        tokio::select! {
            biased;
            // Run once: whatever it says is the answer.
            result = &mut asked => return result,
            () = tokio::time::sleep(self.hedge) => {}
        }
        event!(DEBUG, op, member = %self.members.endpoints[second], "etcd asked again, of another member");
        let mut again = Box::pin(self.attempt(op, second, &call));
        // Bound again after `again`, so dropped before it if both are given up: the first
        // member's watch moves the calls to the second, then the second's to the third
        // (the other order would leave them on the second, which hung too).
        let mut asked = asked;
        // The first settled answer; an unsettled one only if the other run's is one too;
        // an answer about the request (no such lease) at once.
        let (answer, by) = tokio::select! {
            biased;
            result = &mut asked => match result {
                Ok(answer) if settled(&answer) => (answer, first),
                Ok(answer) => (other(again.await, answer, &settled)?, second),
                Err(e) if answered(&e) => return Err(e),
                // The failed run may have run all the same: an unsettled answer from
                // the other is no answer.
                Err(e) => (settle(again.await, &settled, &e)?, second),
            },
            result = &mut again => match result {
                Ok(answer) if settled(&answer) => (answer, second),
                Ok(answer) => (other(asked.await, answer, &settled)?, first),
                Err(e) if answered(&e) => return Err(e),
                Err(e) => (settle(asked.await, &settled, &e)?, first),
            },
        };
        // To the member that answered, unless a failure elsewhere moved them already.
        let _ =
            self.members
                .current
                .compare_exchange(first, by, Ordering::Relaxed, Ordering::Relaxed);
        Ok(answer)
    }

    /// `call` on member `member`, with a `debug` event for how it ended (and, when it
    /// is dropped unfinished, for that).
    async fn attempt<T, F, Fut>(
        &self,
        op: &'static str,
        member: usize,
        call: &F,
    ) -> Result<T, etcd_client::Error>
    where
        F: Fn(Client) -> Fut,
        Fut: Future<Output = Result<T, etcd_client::Error>>,
    {
        let mut watch = CallWatch {
            op,
            member,
            members: &self.members,
            started: std::time::Instant::now(),
            done: false,
        };
        let result = match self.members.client(member).await {
            Ok(client) => call(client).await,
            Err(e) => Err(e),
        };
        watch.done = true;
        let elapsed_ms = watch.started.elapsed().as_millis();
        let endpoint = &self.members.endpoints[member];
        match &result {
            Ok(_) => event!(DEBUG, op, member = %endpoint, elapsed_ms, "etcd answered"),
            Err(e) => {
                event!(DEBUG, op, member = %endpoint, elapsed_ms, error = %e, "etcd call failed");
                let _ = e;
                // An answer about the request (no such lease, no permission) keeps the
                // member; any other failure may be the member's.
                if !answered(e) {
                    self.members.move_on(member, op);
                }
            }
        }
        let _ = (elapsed_ms, endpoint);
        result
    }
}

/// With one run's answer unsettled: the other run's if it is settled, the unsettled one
/// if both are (each run saw the same), and unanswered if the other has no answer.
fn other<T>(
    result: Result<T, etcd_client::Error>,
    unsettled: T,
    settled: &impl Fn(&T) -> bool,
) -> Result<T, etcd_client::Error> {
    match result {
        Ok(answer) if settled(&answer) => Ok(answer),
        Ok(_) => Ok(unsettled),
        Err(e) => Err(etcd_client::Error::Internal(format!(
            "asked of two members: one found what it was to write already there, the other \
             did not answer ({e}): unanswered"
        ))),
    }
}

/// The other run's answer, after one run failed with `failed`: a settled one, or an
/// error (the failed run may have run, so an unsettled answer is no answer).
fn settle<T>(
    result: Result<T, etcd_client::Error>,
    settled: &impl Fn(&T) -> bool,
    failed: &etcd_client::Error,
) -> Result<T, etcd_client::Error> {
    match result {
        Ok(answer) if settled(&answer) => Ok(answer),
        Ok(_) => Err(etcd_client::Error::Internal(format!(
            "asked of two members: one failed ({failed}), the other found what it was to \
             write already there: unanswered"
        ))),
        Err(e) => Err(e),
    }
}

/// How long a call that may run twice waits for its member before asking the next one
/// too: well above an answer's usual time on a loaded machine (tens of ms), well below
/// the holder's bound on a call (half the window).
/// Less with a small window: a third of the holder's bound, so that the second run has
/// time to answer.
const HEDGE: Duration = Duration::from_millis(200);

/// Says so when a call is dropped before its answer (the holder's bound on it), and
/// moves the next calls to another member.
struct CallWatch<'a> {
    op: &'static str,
    member: usize,
    members: &'a Members,
    started: std::time::Instant,
    done: bool,
}

impl Drop for CallWatch<'_> {
    fn drop(&mut self) {
        if !self.done {
            let (op, elapsed_ms) = (self.op, self.started.elapsed().as_millis());
            let member = &self.members.endpoints[self.member];
            event!(DEBUG, op, member = %member, elapsed_ms, "etcd call given up unanswered");
            let _ = (member, elapsed_ms);
            self.members.move_on(self.member, op);
        }
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

/// Whether `e` is an answer about the request, which any member would give: no such
/// lease, or a user refused.
fn answered(e: &etcd_client::Error) -> bool {
    match e {
        etcd_client::Error::LeaseKeepAliveError(message) => message.contains("not found"),
        etcd_client::Error::GRpcStatus(status) => {
            status.message().contains("not found") || is_denied(e)
        }
        _ => false,
    }
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
        self.hedged("unclaim", ask, |_| true)
            .await
            .map_err(|e| store_error("unclaim", &e))?;
        Ok(())
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        // `lease_keep_alive` sends one renewal and reads its answer; a TTL of 0
        // there comes back as an error saying "lease not found".
        let renew = |mut client: Client| async move { client.lease_keep_alive(lease.0).await };
        match self.hedged("keep-alive", renew, |_| true).await {
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
        let ask = |mut client: Client| {
            let txn = txn.clone();
            async move { Ok(reservation(&client.txn(txn).await?, lease)) }
        };
        // Run twice, the second run finds the mark it asks for: not an answer to go by.
        let settled = |answer: &Reservation| *answer != Reservation::MarkMoved { found_ms: new_ms };
        self.hedged("reserve", ask, settled)
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
            .hedged("read the owners", read, |_| true)
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
        match self.hedged("revoke", revoke, |_| true).await {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A reservation asked of two members: the run that found its own mark is settled by
    /// the other's answer, and without one it is unanswered, never taken as committed.
    #[test]
    fn an_unsettled_answer_waits_for_the_other_run() {
        let new_ms = 1_796_000_000_000;
        let moved = Reservation::MarkMoved { found_ms: new_ms };
        let settled = |answer: &Reservation| *answer != moved;
        assert_eq!(
            other(Ok(Reservation::Committed), moved.clone(), &settled).unwrap(),
            Reservation::Committed
        );
        assert_eq!(
            other(Ok(Reservation::NotOwner), moved.clone(), &settled).unwrap(),
            Reservation::NotOwner
        );
        // Both found it there: someone wrote it before either ran.
        assert_eq!(
            other(Ok(moved.clone()), moved.clone(), &settled).unwrap(),
            moved
        );
        let silent = Err(etcd_client::Error::InvalidArgs("timed out".to_owned()));
        let error = other(silent, moved.clone(), &settled).unwrap_err();
        assert!(error.to_string().contains("unanswered"), "{error}");
    }

    /// One run failed (it may have committed all the same): the other's settled answer
    /// is the answer; its finding the mark there is no answer at all.
    #[test]
    fn after_a_failed_run_only_a_settled_answer_counts() {
        let new_ms = 1_796_000_000_000;
        let moved = Reservation::MarkMoved { found_ms: new_ms };
        let settled = |answer: &Reservation| *answer != moved;
        let failed = etcd_client::Error::InvalidArgs("leader changed".to_owned());
        assert_eq!(
            settle(Ok(Reservation::Committed), &settled, &failed).unwrap(),
            Reservation::Committed
        );
        let other_mark = Reservation::MarkMoved {
            found_ms: new_ms - 1,
        };
        assert_eq!(
            settle(Ok(other_mark.clone()), &settled, &failed).unwrap(),
            other_mark
        );
        let error = settle(Ok(moved.clone()), &settled, &failed).unwrap_err();
        assert!(error.to_string().contains("unanswered"), "{error}");
        assert!(error.to_string().contains("leader changed"), "{error}");
    }
}
