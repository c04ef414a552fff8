//! Holders run the same code, so a state and the same state with holders renumbered
//! behave alike: each state is stored with its holders in one canonical order.
//!
//! Everything tied to a holder's number moves with it: its process, the milliseconds it
//! issued, its bit of `ever`, and its leases (holder `h`'s are `h * MAX_GRANTS ..`), in
//! the store's table, release requests and owner key. Holders are sorted by all of that,
//! so two holders that compare equal are interchangeable and any order of them is the same
//! state.

use crate::bounds::{Bounds, MAX_GRANTS, MAX_HOLDERS};
use crate::holder::{Holder, Phase};
use crate::model::State;
use crate::store::{DEAD, Lease};

/// What ties a holder to its number, with its leases counted from its first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    holder: Holder,
    issued: u64,
    ever: bool,
    expiry: [u8; MAX_GRANTS],
    releasing: [bool; MAX_GRANTS],
    owner: Option<u8>,
}

/// Puts the holders of `state` in canonical order.
pub(crate) fn canonical(state: &mut State, bounds: Bounds) {
    let holders = usize::from(bounds.holders);
    if holders < 2 {
        return;
    }
    let mut keys = [None; MAX_HOLDERS];
    for (h, key) in keys.iter_mut().enumerate().take(holders) {
        *key = Some(key_of(state, h));
    }
    let mut order: [usize; MAX_HOLDERS] = core::array::from_fn(|h| h);
    order[..holders].sort_by_key(|&h| keys[h]);
    if order[..holders].iter().enumerate().all(|(i, &h)| i == h) {
        return;
    }
    let old = *state;
    for (i, &h) in order.iter().enumerate().take(holders) {
        let Some(key) = keys[h] else { continue };
        let mut holder = key.holder;
        rebase(&mut holder, 0, i);
        state.holders[i] = holder;
        state.issued[i] = key.issued;
        state.ever = (state.ever & !(1 << i)) | (u8::from(key.ever) << i);
        for n in 0..MAX_GRANTS {
            let (from, to) = (lease(h, n), lease(i, n));
            state.store.expiry[to] = old.store.expiry[from];
            let releasing = old.store.releasing & (1 << from) != 0;
            state.store.releasing =
                (state.store.releasing & !(1 << to)) | (u16::from(releasing) << to);
        }
        if let Some(n) = key.owner {
            state.store.owner = Some(Lease::try_from(lease(i, n.into())).unwrap_or(DEAD));
        }
    }
}

/// Holder `h`'s key.
fn key_of(state: &State, h: usize) -> Key {
    let mut holder = state.holders[h];
    rebase(&mut holder, h, 0);
    let mut expiry = [0; MAX_GRANTS];
    let mut releasing = [false; MAX_GRANTS];
    for n in 0..MAX_GRANTS {
        expiry[n] = state.store.expiry[lease(h, n)];
        releasing[n] = state.store.releasing & (1 << lease(h, n)) != 0;
    }
    let owner = state
        .store
        .owner
        .map(usize::from)
        .filter(|&owner| owner / MAX_GRANTS == h)
        .and_then(|owner| u8::try_from(owner % MAX_GRANTS).ok());
    Key {
        holder,
        issued: state.issued[h],
        ever: state.ever & (1 << h) != 0,
        expiry,
        releasing,
        owner,
    }
}

/// Moves the leases a holder refers to from holder `from`'s to holder `to`'s.
fn rebase(holder: &mut Holder, from: usize, to: usize) {
    let moved = |lease: &mut Lease| {
        if *lease != DEAD {
            let n = usize::from(*lease) - from * MAX_GRANTS;
            *lease = Lease::try_from(to * MAX_GRANTS + n).unwrap_or(DEAD);
        }
    };
    match &mut holder.phase {
        Phase::Idle => {}
        Phase::Claiming { lease }
        | Phase::Waiting { lease, .. }
        | Phase::Renewed { lease, .. }
        | Phase::Holding { lease, .. } => moved(lease),
    }
    if let Some(late) = &mut holder.late {
        moved(&mut late.lease);
    }
}

/// Holder `h`'s `n`th lease.
fn lease(h: usize, n: usize) -> usize {
    h * MAX_GRANTS + n
}
