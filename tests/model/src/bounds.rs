//! What the model is checked within ([`Bounds`]), and the single changes to the protocol
//! that it must catch ([`Mutation`]).

/// The most holders a model has; fixed, so that a state is `Copy` and hashes fast.
pub const MAX_HOLDERS: usize = 3;

/// The most leases one holder may be granted in a run.
pub const MAX_GRANTS: usize = 3;

/// Every lease a run can grant: holder `h`'s `n`th lease is `h * MAX_GRANTS + n`.
pub const MAX_LEASES: usize = MAX_HOLDERS * MAX_GRANTS;

/// Store time in every state: time is kept relative to it (see `normal.rs`).
pub const NOW: u8 = 40;

/// The protocol's durations and the limits of a run, in ticks: one tick of the store's
/// time, and the unit of holder clocks, of high-water marks and of the IDs' milliseconds.
/// Time itself is unbounded: a run ends when every holder has used its grants.
///
/// `snowflake-lease`'s defaults are a TTL of 10 s, a margin of a tenth of it, a window of
/// 2 s and a clock wait of 5 s: [`Bounds::code_durations`] has them at one tick per second;
/// [`Bounds::checked`] shortens the TTL, which makes the state space smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// How many holders contend for the one identity (at most [`MAX_HOLDERS`]).
    pub holders: u8,
    /// How far a holder's clock may be from the store's time, either way.
    pub skew: u8,
    /// How many leases each holder may be granted (at most [`MAX_GRANTS`]).
    pub grants: u8,
    /// `LeaseOptions::ttl`.
    pub ttl: u8,
    /// `ttl / 10` in `acquire::valid_for`: a renewal counts for `ttl - margin` from its sending.
    pub margin: u8,
    /// `LeaseOptions::window`: how far ahead of its clock a holder reserves.
    pub window: u8,
    /// `LeaseOptions::max_clock_wait`: how far behind a mark a claimant's clock may be.
    pub max_clock_wait: u8,
    /// Whether an operator may revoke the owner's lease at any time (`etcdctl lease revoke`).
    pub revoke: bool,
    /// Which store, as far as their protocols differ.
    pub store: Flavor,
    /// How many times the store's clock may step a tick ahead of the holders' lease clocks
    /// (a database's wall clock set forward); 0 for etcd, whose leases run on its leader's
    /// monotonic clock.
    pub jumps: u8,
}

/// The store's flavour: where `EtcdStore` and `PgStore` differ in what a lease's end does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// etcd: a lease whose time has run out is revoked by the lessor at or after its end,
    /// and until then its owner key stays, for a claim and a reservation alike.
    Etcd,
    /// PostgreSQL (`PgStore`): every statement judges the lease's end itself, on the
    /// database's clock. A claim takes over an identity whose owner's lease has run out
    /// (deleting that lease, in the claim's transaction); a reservation with a run-out
    /// lease is refused (`NotOwner`).
    Postgres,
}

impl Bounds {
    /// The bounds the tests check exhaustively: `holders`, `grants` each, a TTL of 3
    /// ticks, a margin of 2, a window of 2, a clock wait of 3, clocks within a tick of the
    /// store's, and operator revokes. The margin is twice the skew, the least with which a
    /// holder stops by its lease's end at the store ([`LAPSED`](crate::LAPSED)).
    pub const fn checked(holders: u8, grants: u8) -> Bounds {
        Bounds {
            holders,
            skew: 1,
            grants,
            ttl: 3,
            margin: 2,
            window: 2,
            max_clock_wait: 3,
            revoke: true,
            store: Flavor::Etcd,
            jumps: 0,
        }
    }

    /// These bounds on PostgreSQL, whose clock steps ahead at most `jumps` times.
    #[must_use]
    pub const fn on_postgres(self, jumps: u8) -> Bounds {
        Bounds {
            store: Flavor::Postgres,
            jumps,
            ..self
        }
    }

    /// The code's default durations at one tick per second (TTL 10, margin 1, window 2,
    /// clock wait 5), with the other bounds of [`Bounds::checked`]. A margin under twice
    /// the skew: [`LAPSED`](crate::LAPSED) does not hold here, and is not asked.
    pub const fn code_durations(holders: u8, grants: u8) -> Bounds {
        Bounds {
            ttl: 10,
            margin: 1,
            max_clock_wait: 5,
            ..Bounds::checked(holders, grants)
        }
    }

    /// The holders' indices.
    pub(crate) fn holders(&self) -> impl Iterator<Item = usize> {
        0..usize::from(self.holders)
    }
}

/// One change to the protocol as coded, each in one place of `snowflake-lease`: the model
/// with a mutation is checked to find what goes wrong, or to show that the place it changes
/// does not carry the guarantee alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The protocol as coded.
    None,
    /// `Holder::publish` sets the ceiling to the committed mark alone, ignoring the lease's
    /// local deadline (`valid_until`): a holder cut off goes on issuing up to its mark.
    IgnoreDeadline,
    /// `Holder::step` takes a reservation that timed out as committed (`Err(_)` sets
    /// `hwm_ms = reserve_ms`), where the code only remembers it as unanswered.
    TimeoutAsCommitted,
    /// `Holder::step` adopts any mark a reservation finds moved, not only one it asked for.
    AdoptAnyMovedMark,
    /// `EtcdStore::reserve` without `Compare::lease` on the owner key: the mark alone fences.
    ReserveWithoutLeaseCheck,
    /// `EtcdStore::reserve` without the compare on the mark's value: the lease alone fences.
    ReserveWithoutMarkCheck,
    /// The claimant neither waits for its clock to pass the mark it read
    /// (`acquire::wait_above`) nor raises the generator's floor to it (`raise_floor`).
    NoFloor,
}
