//! Where etcd calls go: a client for each member, the one calls go to now, and the move to
//! the next member when a call fails or goes unanswered.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use etcd_client::Client;

use super::errors::answered;
use crate::events::event;

/// A client for each member, and the one calls go to now.
///
/// Why not etcd-client's balanced channel over all members: it picks by the fewest calls
/// in flight, so a member that hangs (a frozen host, a process stopped, a leader lost
/// with its proposals) gets the next call as soon as the last one was given up, and
/// HTTP/2 pings take two thirds of the TTL to declare its connection dead. Here calls stay on the member that answers, and move to the next as soon as one fails or
/// goes unanswered.
pub(super) struct Members {
    pub(super) endpoints: Vec<String>,
    connect: etcd_client::ConnectOptions,
    /// Made on first use: with a user, making one authenticates, which a member that
    /// is down at start cannot answer.
    clients: Vec<Mutex<Option<Client>>>,
    pub(super) current: AtomicUsize,
}

impl Members {
    /// The members at `endpoints`, each reached with `connect`; no client made yet.
    pub(super) fn new(endpoints: Vec<String>, connect: etcd_client::ConnectOptions) -> Members {
        let count = endpoints.len();
        Members {
            endpoints,
            connect,
            clients: (0..count).map(|_| Mutex::new(None)).collect(),
            // Servers started together spread over the members.
            current: AtomicUsize::new(std::process::id() as usize % count),
        }
    }

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

    /// One call to etcd, `op`, on the member calls go to now. A failure, or the call
    /// given up (dropped by the holder's bound), moves the next calls to the next member.
    /// For a call that may not run twice: a grant, a claim.
    pub(super) async fn call<T, F, Fut>(
        &self,
        op: &'static str,
        call: F,
    ) -> Result<T, etcd_client::Error>
    where
        F: Fn(Client) -> Fut,
        Fut: Future<Output = Result<T, etcd_client::Error>>,
    {
        let member = self.current.load(Ordering::Relaxed);
        // Boxed, as in `hedged`: a call's future (tonic's, with TLS) is large.
        Box::pin(self.attempt(op, member, &call)).await
    }

    /// `call` on member `member`, with a `debug` event for how it ended (and, when it
    /// is dropped unfinished, for that).
    pub(super) async fn attempt<T, F, Fut>(
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
            members: self,
            started: std::time::Instant::now(),
            done: false,
        };
        let result = match self.client(member).await {
            Ok(client) => call(client).await,
            Err(e) => Err(e),
        };
        watch.done = true;
        let elapsed_ms = crate::acquire::millis(watch.started.elapsed());
        let endpoint = &self.endpoints[member];
        match &result {
            Ok(_) => event!(DEBUG, op, member = %endpoint, elapsed_ms, "etcd answered"),
            Err(e) => {
                event!(DEBUG, op, member = %endpoint, elapsed_ms, error = %e, "etcd call failed");
                let _ = e;
                // An answer about the request (no such lease, no permission) keeps the
                // member; any other failure may be the member's.
                if !answered(e) {
                    self.move_on(member, op);
                }
            }
        }
        let _ = (elapsed_ms, endpoint);
        result
    }
}

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
            let (op, elapsed_ms) = (self.op, crate::acquire::millis(self.started.elapsed()));
            let member = &self.members.endpoints[self.member];
            event!(DEBUG, op, member = %member, elapsed_ms, "etcd call given up unanswered");
            let _ = (member, elapsed_ms);
            self.members.move_on(self.member, op);
        }
    }
}
