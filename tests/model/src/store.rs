//! The store as the protocol sees it: leases that expire in store time, the owner key on a
//! lease, and the high-water mark; each request one transaction, as `EtcdStore` and
//! `PgStore` send it ([`Flavor`] says where the two differ).

use crate::bounds::{Bounds, Flavor, MAX_LEASES, Mutation, NOW};

/// A lease, by index: holder `h`'s `n`th grant is `h * MAX_GRANTS + n`, so that no two
/// grants share an id, as etcd's never do; or [`DEAD`].
pub type Lease = u8;

/// Every lease etcd no longer has: nothing tells them apart (the owner key is never on
/// one, and a keep-alive, claim or release with any of them does the same).
pub const DEAD: Lease = 255;

/// A reservation request (`Store::reserve`): if `lease` is on the owner key and the mark
/// is `expected` (absent for 0) and below `new`, write `new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reserve {
    /// The lease that must be on the owner key.
    pub lease: Lease,
    /// The mark the holder last committed, or read at its claim (0: none yet).
    pub expected: u8,
    /// The mark asked for.
    pub new: u8,
}

/// `Store::reserve`'s answer (`snowflake_lease::Reservation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reservation {
    /// The new mark is committed.
    Committed,
    /// The lease is not on the owner key.
    NotOwner,
    /// The lease is on the owner key, the mark is not the one expected: it is this (0: none).
    MarkMoved(u8),
}

/// etcd's state, as far as the protocol reads and writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Store {
    /// Each lease's expiry in store time (from that tick on, a keep-alive finds it gone,
    /// and etcd revokes it at some point), or 0: never granted, or revoked.
    pub(crate) expiry: [u8; MAX_LEASES],
    /// The leases whose release request (`EtcdStore::release`, a revoke) the store has not
    /// applied yet, as bits: it applies each at some point, or never (lost).
    pub(crate) releasing: u16,
    /// The lease the owner key is attached to, if the key exists.
    pub(crate) owner: Option<Lease>,
    /// The high-water mark; 0 while the key does not exist (the code reads it so too).
    pub(crate) hwm: u8,
}

impl Store {
    /// No leases, no owner, no mark.
    pub(crate) const fn new() -> Store {
        Store {
            expiry: [0; MAX_LEASES],
            releasing: 0,
            owner: None,
            hwm: 0,
        }
    }

    /// The lease on the owner key, if any.
    pub(crate) fn owner(&self) -> Option<Lease> {
        self.owner
    }

    /// Whether etcd still has `lease` (its time may have run out).
    pub(crate) fn lease_exists(&self, lease: Lease) -> bool {
        self.expiry
            .get(usize::from(lease))
            .is_some_and(|&expiry| expiry != 0)
    }

    /// The leases that etcd's lessor may revoke now: those whose time has run out at `now`
    /// (it revokes them then or later, never before).
    pub(crate) fn expired(&self) -> impl Iterator<Item = Lease> + '_ {
        (0..MAX_LEASES)
            .filter(move |&lease| self.expiry[lease] != 0 && NOW >= self.expiry[lease])
            .map(lease_id)
    }

    /// The leases with a release request in flight.
    pub(crate) fn releasing(&self) -> impl Iterator<Item = Lease> + '_ {
        (0..MAX_LEASES)
            .filter(move |&lease| self.releasing & (1 << lease) != 0)
            .map(lease_id)
    }

    /// `EtcdStore::grant`: a lease of the TTL from `now`.
    pub(crate) fn grant(&mut self, lease: Lease, now: u8, bounds: Bounds) {
        self.expiry[usize::from(lease)] = now + bounds.ttl;
    }

    /// Whether `lease`'s time has run out (it may not be revoked yet).
    fn run_out(&self, lease: Lease) -> bool {
        self.expiry
            .get(usize::from(lease))
            .is_some_and(|&expiry| expiry != 0 && NOW >= expiry)
    }

    /// `EtcdStore::claim`: if the owner key is absent, puts it on `lease` and reads the
    /// mark (`Claim::Won`); `None` if it is held (`Claim::Held`), or if the lease is gone
    /// (etcd fails a put on a lease it no longer has: a `StoreError`).
    ///
    /// `PgStore::claim` first deletes the owner's lease if its time has run out, in the
    /// same transaction; and its own lease must not have run out.
    pub(crate) fn claim(&mut self, lease: Lease, flavor: Flavor) -> Option<u8> {
        if flavor == Flavor::Postgres {
            if let Some(owner) = self.owner
                && self.run_out(owner)
            {
                self.revoke(owner);
            }
            if self.run_out(lease) {
                return None;
            }
        }
        if self.owner.is_some() || !self.lease_exists(lease) {
            return None;
        }
        self.owner = Some(lease);
        Some(self.hwm)
    }

    /// `EtcdStore::keep_alive`: renews `lease` to the TTL from `now`; `false` if it is gone
    /// (etcd refuses a lease whose time has run out, revoked or not yet).
    pub(crate) fn keep_alive(&mut self, lease: Lease, now: u8, bounds: Bounds) -> bool {
        let Some(expiry) = self.expiry.get_mut(usize::from(lease)) else {
            return false;
        };
        if *expiry == 0 || now >= *expiry {
            return false;
        }
        *expiry = now + bounds.ttl;
        true
    }

    /// `EtcdStore::reserve`'s transaction: its compares, then its put or its reads.
    /// `PgStore::reserve` also refuses a lease whose time has run out, as not the owner's.
    pub(crate) fn reserve(
        &mut self,
        request: Reserve,
        mutation: Mutation,
        flavor: Flavor,
    ) -> Reservation {
        let Reserve {
            lease,
            expected,
            new,
        } = request;
        let owned =
            self.owner == Some(lease) && !(flavor == Flavor::Postgres && self.run_out(lease));
        let lease_ok = owned || mutation == Mutation::ReserveWithoutLeaseCheck;
        let mark_ok = if expected == 0 {
            self.hwm == 0
        } else {
            self.hwm == expected && expected < new
        };
        let mark_ok = mark_ok || mutation == Mutation::ReserveWithoutMarkCheck;
        if lease_ok && mark_ok {
            self.hwm = new;
            Reservation::Committed
        } else if owned {
            Reservation::MarkMoved(self.hwm)
        } else {
            Reservation::NotOwner
        }
    }

    /// The store's clock steps a tick ahead of the holders': every lease ends a tick sooner
    /// than its holder counts.
    pub(crate) fn jump(&mut self) {
        for expiry in &mut self.expiry {
            if *expiry != 0 {
                *expiry -= 1;
            }
        }
    }

    /// A holder sends `EtcdStore::release` for `lease` and does not wait for it.
    pub(crate) fn release(&mut self, lease: Lease) {
        if self.lease_exists(lease) {
            self.releasing |= 1 << lease;
        }
    }

    /// Revokes `lease`: by its expiry, a release or an operator alike. The owner key goes
    /// with it; the mark stays.
    pub(crate) fn revoke(&mut self, lease: Lease) {
        if usize::from(lease) < MAX_LEASES {
            self.expiry[usize::from(lease)] = 0;
            self.releasing &= !(1 << lease);
        }
        if self.owner == Some(lease) {
            self.owner = None;
        }
    }
}

fn lease_id(index: usize) -> Lease {
    Lease::try_from(index).unwrap_or(Lease::MAX)
}
