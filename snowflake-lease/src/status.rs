//! What the leased generator and its background task share: the [`State`] people see,
//! the typed [`Loss`] that moves it, and the [`Shared`] block both sides hold.

use core::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use snowflake_runtime::Clock;
use snowflake_runtime::fence::FencedGenerator;

use crate::error::{LeaseError, with_sources};
use crate::store::Identity;

/// Why a holder stopped issuing.
///
/// ```
/// use snowflake_lease::Loss;
///
/// assert_eq!(Loss::LeaseGone.to_string(), "the lease is gone: the keep-alive found no lease");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Loss {
    /// A keep-alive found no lease: it expired or was revoked.
    LeaseGone,
    /// The lease ran out by the local deadline while the store was silent.
    RanOut,
    /// A reservation's ownership check failed: the lease is off the owner key.
    NotOwner,
    /// The high-water mark was changed by someone else.
    MarkMoved {
        /// The mark this holder last committed, Unix ms.
        expected_ms: u64,
        /// The mark found, Unix ms.
        found_ms: u64,
    },
    /// The clock read ahead of real time for longer than three TTLs.
    ClockAhead {
        /// For how long.
        for_: Duration,
        /// By how much, in ms.
        by_ms: u64,
    },
    /// The background task ended without a stop: cancelled, or its runtime shut down.
    TaskEnded,
    /// A reclaim met what waiting cannot mend: a clock further behind the high-water mark
    /// than may be waited for ([`LeaseError::ClockBehind`]), or a mark written by hand
    /// ([`LeaseError::BadMark`]). Restart the holder once it is fixed.
    Unclaimable(LeaseError),
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loss::LeaseGone => f.write_str("the lease is gone: the keep-alive found no lease"),
            Loss::RanOut => f.write_str("the lease ran out while the store was silent"),
            Loss::NotOwner => {
                f.write_str("the ownership check failed: the lease is off the owner key")
            }
            Loss::MarkMoved {
                expected_ms,
                found_ms,
            } => write!(
                f,
                "the high-water mark was changed behind this holder's back, from {expected_ms} \
                 to {found_ms} ms"
            ),
            Loss::ClockAhead { for_, by_ms } => write!(
                f,
                "the clock has read ahead of real time for {for_:?}, by {by_ms} ms"
            ),
            Loss::TaskEnded => f.write_str("the background task ended"),
            Loss::Unclaimable(e) => {
                write!(
                    f,
                    "the identity cannot be claimed again: {}",
                    with_sources(e)
                )
            }
        }
    }
}

/// What a [`LeasedGenerator`](crate::LeasedGenerator) is doing.
///
/// ```
/// use snowflake_lease::{Loss, State};
///
/// let state = State::Reclaiming { loss: Loss::RanOut, retry: None };
/// assert_eq!(state.to_string(), "reclaiming: the lease ran out while the store was silent");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum State {
    /// It holds its identity and issues IDs.
    Holding,
    /// It lost its lease and is claiming its identity again; it issues nothing.
    Reclaiming {
        /// Why it lost the lease.
        loss: Loss,
        /// Why the last attempt to claim it again failed, if one did.
        retry: Option<LeaseError>,
    },
    /// It stopped for good; it issues nothing.
    Stopped(Loss),
    /// It was released: the lease is revoked, the high-water mark stays.
    Released,
}

impl State {
    /// The state in one word, for code and dashboards to branch on: `holding`,
    /// `reclaiming`, `stopped` or `released`; its [`Display`](fmt::Display) says the same
    /// with the reason.
    ///
    /// ```
    /// use snowflake_lease::{Loss, State};
    ///
    /// assert_eq!(State::Holding.key(), "holding");
    /// assert_eq!(State::Reclaiming { loss: Loss::RanOut, retry: None }.key(), "reclaiming");
    /// assert_eq!(State::Stopped(Loss::TaskEnded).key(), "stopped");
    /// assert_eq!(State::Released.key(), "released");
    /// ```
    pub const fn key(&self) -> &'static str {
        match self {
            State::Holding => "holding",
            State::Reclaiming { .. } => "reclaiming",
            State::Stopped(_) => "stopped",
            State::Released => "released",
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            State::Holding => f.write_str("holding"),
            State::Reclaiming { loss, retry: None } => write!(f, "reclaiming: {loss}"),
            State::Reclaiming {
                loss,
                retry: Some(e),
            } => write!(f, "reclaiming: {loss}; {}", with_sources(e)),
            State::Stopped(loss) => write!(f, "stopped: {loss}"),
            State::Released => f.write_str("released"),
        }
    }
}

/// What can be seen of a [`LeasedGenerator`](crate::LeasedGenerator):
/// [`status`](crate::LeasedGenerator::status).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Status {
    /// The identity it holds or held.
    pub identity: Identity,
    /// What it is doing.
    pub state: State,
    /// Until when the lease counts as valid, in Unix ms of the generator's clock
    /// (projected from the monotonic clock, which it is measured on).
    pub lease_valid_until_ms: u64,
    /// The last Unix ms it may stamp an ID with.
    pub ceiling_ms: u64,
    /// The high-water mark it last committed, Unix ms.
    pub hwm_ms: u64,
    /// How many times it lost its lease.
    pub lease_losses: u64,
    /// How many calls it refused (past the ceiling, or without a lease).
    pub refusals: u64,
}

/// Held by the generator's handle and its background task.
pub(crate) struct Shared<C: Clock> {
    pub(crate) generator: FencedGenerator<C>,
    pub(crate) status: Mutex<Status>,
    pub(crate) lease_losses: AtomicU64,
    pub(crate) refusals: AtomicU64,
    /// Set by `release`: a reclaim in flight must not resume the generator.
    pub(crate) stopping: AtomicBool,
}

impl<C: Clock> Shared<C> {
    pub(crate) fn update(&self, change: impl FnOnce(&mut Status)) {
        change(&mut self.status.lock().unwrap_or_else(PoisonError::into_inner));
    }

    pub(crate) fn identity(&self) -> Identity {
        self.generator.identity()
    }
}
