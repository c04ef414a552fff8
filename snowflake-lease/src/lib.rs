//! Snowflake machine identities leased from etcd or PostgreSQL, fenced by a high-water
//! mark so that no two holders ever issue the same ID.
//!
//! No two live generators may share an identity (a datacenter and machine), and fleets get
//! that wrong: two pods with the same identity, a restarted process whose clock went
//! back, a paused process that wakes after someone else took its identity. A
//! [`LeasedGenerator`] claims a free identity from etcd ([`EtcdStore`]) or PostgreSQL
//! (`PgStore`, feature `postgres`), or exactly the one given, keeps the lease alive, and issues
//! IDs only up to a time it has reserved in the store: the **high-water mark** (HWM). A
//! later holder of the identity starts above it.
//!
//! ```no_run
//! use snowflake_lease::{EtcdStore, LeaseOptions, LeasedGenerator};
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let options = LeaseOptions::default(); // `auto`: any free identity
//! let store = EtcdStore::connect("http://127.0.0.1:2379", &options).await?;
//! let generator = LeasedGenerator::start(store, options).await?;
//! println!("holding {}", generator.identity());
//! let id = generator.try_next_id()?; // lock-free, never waits on the network
//! generator.release().await; // the identity is free at once; the HWM stays
//! # Ok(()) }
//! ```
//!
//! # The guarantee, and the keys
//!
//! No two holders of an identity ever issue IDs in the same millisecond, under the
//! preconditions that [the protocol](https://github.com/snowflake-kit/snowflake-kit/blob/main/docs/lease-protocol.md#the-guarantee-and-its-preconditions)
//! lists with the keys in etcd and the steps; PostgreSQL's tables are on `PgStore`.
//!
//! # When things fail
//!
//! - **The lease is lost** (a keep-alive finds no lease, an ownership check fails, the
//!   HWM was changed by someone else, or the lease runs out while etcd is silent): the
//!   generator halts at once, then claims the same identity again above its HWM
//!   ([`OnLoss::Reclaim`]) or stays stopped ([`OnLoss::Stop`]).
//! - **A reservation's answer is lost** after etcd committed it: the next one finds
//!   the HWM at a mark this holder asked for and never heard back about, on an
//!   identity still owned by its lease, and takes it as committed
//!   ([`Reservation::MarkMoved`]); no halt. An HWM changed to any other value is a loss.
//! - **etcd is down**: IDs go on up to the reserved ceiling (at most the window
//!   ahead), and stop before etcd can count the lease's end; then calls are refused
//!   until etcd answers. The ceiling takes the lease's local end (a tenth of the TTL
//!   before etcd's) to the wall clock at each round of the holder, and the holder halts
//!   at its first round past it. Only a wall clock set back by more than that tenth
//!   between two rounds (a few seconds apart while etcd is silent: each call gives up
//!   after half the window, or a third of the TTL if less) can issue past etcd's end,
//!   by at most the step and until that next round; IDs stay unique even then, since the HWM fences them and
//!   the deadline only ends them.
//! - **The clock is behind the HWM**: the holder waits up to
//!   [`LeaseOptions::max_clock_wait`]; further behind is [`LeaseError::ClockBehind`].
//! - **The clock steps back** after the claim: the generator issues nothing at or
//!   below the HWM it read (its floor); a step back within the generator's
//!   tolerance is waited out, a larger one is an error.
//! - **The clock jumps ahead**: reservations advance no faster than real time
//!   since the claim (plus a second), so one bad reading cannot push the HWM far
//!   ahead for every later holder; IDs are refused meanwhile, and a clock still
//!   ahead after three TTLs stops the holder ([`State::Stopped`] with
//!   [`Loss::ClockAhead`]) and frees the identity, never claiming it again, which would
//!   commit the jumped time. The `SystemClock` follows the wall clock forward, so a
//!   wall clock set ahead is such a jump: by up to that second, its IDs follow it at
//!   once; by more, the holder stops unless the wall clock comes back within three TTLs.

mod acquire;
mod error;
mod etcd;
mod events;
mod holder;
mod leased;
mod memory;
mod options;
#[cfg(feature = "postgres")]
mod postgres;
mod status;
mod store;
mod uptime;

pub use crate::error::{Cause, LeaseError, StoreKind};
pub use crate::etcd::{EtcdConfig, EtcdStore};
pub use crate::leased::LeasedGenerator;
pub use crate::memory::MemStore;
pub use crate::options::{Choice, LeaseOptions, OnLoss};
#[cfg(feature = "postgres")]
pub use crate::postgres::{PgConfig, PgStore};
pub use crate::status::{Loss, State, Status};
pub use crate::store::{Claim, Identity, LeaseId, Reservation, Store, StoreError, StoreErrorKind};

// This crate's README's examples, every one as written there.
// The README shows the PostgreSQL store too: tested with the feature that has it.
#[cfg(all(doctest, feature = "postgres"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
