//! [`Lease`]: a claim in progress, or the leased identity once it is held.

use std::sync::{Mutex, OnceLock, PoisonError};

use snowflake_kit::{Clock, SystemClock};
use snowflake_lease::{Choice, LeasedGenerator, StoreKind};

use super::Refusal;

/// A leased identity, or what the claim of one waits for; its IDs stamped with `C`.
pub(crate) struct Lease<C: Clock + 'static = SystemClock> {
    pub(crate) choice: Choice,
    pub(crate) store: StoreKind,
    pub(super) generator: OnceLock<LeasedGenerator<C>>,
    waiting: Mutex<String>,
}

impl<C: Clock + 'static> Lease<C> {
    /// Not held yet: claiming from `store` as `choice` says.
    pub(crate) fn claiming(choice: Choice, store: StoreKind) -> Lease<C> {
        let what = match choice {
            Choice::Exact(identity) => format!(
                "datacenter {}, machine {}",
                identity.datacenter(),
                identity.machine()
            ),
            Choice::Datacenter(datacenter) => {
                format!("any free machine of datacenter {datacenter}")
            }
            Choice::Auto => "any free identity".to_owned(),
        };
        Lease {
            choice,
            store,
            generator: OnceLock::new(),
            waiting: Mutex::new(format!("claiming {what} from {store}")),
        }
    }

    /// What the claim waits for now, as a 503 says it.
    pub(crate) fn wait_for(&self, reason: &str) {
        *self.waiting.lock().unwrap_or_else(PoisonError::into_inner) =
            format!("waiting for the identity: {reason}; trying again");
    }

    /// The claim is done: issue from `generator`.
    pub(crate) fn hold(&self, generator: LeasedGenerator<C>) {
        let _ = self.generator.set(generator);
    }

    pub(crate) fn generator(&self) -> Result<&LeasedGenerator<C>, Refusal> {
        self.generator.get().ok_or_else(|| {
            Refusal::Claiming(
                self.waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
            )
        })
    }
}
