//! The canonical form of a state, which makes the state space finite without a time bound.
//!
//! - **Time is relative to the store's.** Store time is [`NOW`] in every state: a tick
//!   moves every other time value one back instead. No rule of the protocol reads a time
//!   except to compare it with another or to add a fixed duration to it, so states that
//!   differ by a shift of all times behave alike.
//! - **Marks far below every clock keep only their order.** A mark `m` with
//!   `m + window < NOW - skew` is below every clock by more than a window, now and later
//!   (clocks never go back): every rule that compares it with a clock answers the same
//!   (it is below the floor test, the ceiling, the reservation test) and no rule adds to it.
//!   What is left is `==` and `<` between marks (the store's compares, `unanswered`), so
//!   such marks are renumbered densely below that line, in order.
//! - **A deadline passed by more than the margin is `NOW - margin`**, and a lease whose
//!   time has run out expires `NOW`: how long ago makes no difference to any rule (a
//!   deadline's margin is kept for [`LAPSED`](crate::LAPSED), which reads the lease's end
//!   as `valid_until + margin`). **A ceiling below the clock is 0**: clocks never go back,
//!   and it only stops the generator until the next publish.
//! - **Leases etcd no longer has are one lease**, [`DEAD`]; a lease nobody holds and that
//!   is not on the owner key is revoked at once.
//! - **A holder that has used its grants and is idle is retired**: it takes no step and
//!   issues nothing more, so its clock is set to `NOW` and no longer ticks apart.
//! - **An unanswered mark the store's mark can never take again is forgotten.** A holder
//!   looks at its unanswered marks only to match the mark a reservation finds moved, which
//!   is the store's, and only while its lease is on the owner key. Then only its own
//!   reservations move the mark: a late one to its `new`, and any other either commits
//!   (which clears the list) or times out (which puts its mark back on it). So an
//!   unanswered mark that is neither the store's mark nor a late `new` never matches.
//! - **A late reservation that can no longer commit is dropped.** Its lease is off the
//!   owner key (a lease is put on it by one claim only, before its first reservation), or
//!   the store's mark is above the one it expects (marks never go down): either way the
//!   store refuses it whenever it arrives, and refused, it changes nothing.

use crate::bounds::{Bounds, MAX_LEASES, Mutation, NOW};
use crate::holder::{Holder, Phase, bit};
use crate::model::State;
use crate::store::{DEAD, Reserve};

/// Moves every time value one tick back, except the clock of `stalled` holders, which
/// did not tick: store time ticked (to `NOW + 1`) and is brought back to `NOW`.
pub(crate) fn tick(state: &mut State, bounds: Bounds, stalled: Option<usize>) {
    let back = |t: &mut u8| {
        if *t != 0 {
            *t -= 1;
        }
    };
    for (h, holder) in state
        .holders
        .iter_mut()
        .enumerate()
        .take(bounds.holders.into())
    {
        if stalled == Some(h) {
            holder.clock -= 1;
        }
        for_each_mark(holder, back);
        match &mut holder.phase {
            Phase::Renewed { valid_until, .. } => back(valid_until),
            Phase::Holding {
                valid_until,
                ceiling,
                ..
            } => {
                back(valid_until);
                back(ceiling);
            }
            Phase::Idle | Phase::Claiming { .. } | Phase::Waiting { .. } => {}
        }
    }
    back(&mut state.store.hwm);
    state.store.expiry.iter_mut().for_each(back);
    for issued in &mut state.issued {
        *issued >>= 1;
    }
}

/// Brings `state` to its canonical form (see the module docs).
pub(crate) fn normalize(state: &mut State, bounds: Bounds, mutation: Mutation) {
    settle_leases(state, bounds);
    for holder in &mut state.holders[..bounds.holders.into()] {
        if let Phase::Renewed { valid_until, .. } | Phase::Holding { valid_until, .. } =
            &mut holder.phase
        {
            *valid_until = (*valid_until).max(NOW - bounds.margin);
        } else {
            // No deadline to drift from.
            holder.drift = 0;
        }
        if let Phase::Holding { ceiling, .. } = &mut holder.phase
            && *ceiling < holder.clock
        {
            *ceiling = 0;
        }
        if holder.retired(bounds) {
            holder.clock = NOW;
        }
    }
    forget_issued(state, bounds);
    drop_dead_late(state, bounds, mutation);
    forget_unanswered(state, bounds, mutation);
    pack_deep_marks(state, bounds);
}

/// Leases: a run-out one expires `NOW`; one that is neither on the owner key nor any
/// holder's is revoked (nobody will claim, renew or reserve with it, and a late
/// reservation with it is refused); with operator revokes on, a release in flight is one
/// of those (the only lease it can matter for is the owner's); a holder's lease that is
/// gone is [`DEAD`].
fn settle_leases(state: &mut State, bounds: Bounds) {
    let holders = &mut state.holders[..bounds.holders.into()];
    let store = &mut state.store;
    for lease in 0..MAX_LEASES {
        let id = u8::try_from(lease).unwrap_or(DEAD);
        let expiry = &mut store.expiry[lease];
        if *expiry != 0 && *expiry < NOW {
            *expiry = NOW;
        }
        let held = holders
            .iter()
            .any(|holder| holder.phase.lease() == Some(id));
        if *expiry != 0 && !held && store.owner != Some(id) {
            *expiry = 0;
        }
    }
    if bounds.revoke {
        store.releasing = 0;
    }
    for lease in 0..MAX_LEASES {
        if store.expiry[lease] == 0 {
            store.releasing &= !(1 << lease);
        }
    }
    for holder in holders {
        let dead = |lease: &mut u8| {
            if !store.lease_exists(*lease) {
                *lease = DEAD;
            }
        };
        match &mut holder.phase {
            Phase::Idle => {}
            Phase::Claiming { lease }
            | Phase::Waiting { lease, .. }
            | Phase::Renewed { lease, .. }
            | Phase::Holding { lease, .. } => dead(lease),
        }
        if let Some(late) = &mut holder.late {
            dead(&mut late.lease);
        }
    }
}

/// Forgets the milliseconds below the clock of every holder that may still issue: no one
/// issues there again. A holder that has used its grants and is idle issues nothing more.
fn forget_issued(state: &mut State, bounds: Bounds) {
    let holders = &state.holders[..bounds.holders.into()];
    let oldest = holders
        .iter()
        .filter(|holder| !holder.retired(bounds))
        .map(|holder| holder.clock)
        .min();
    let keep = oldest.map_or(0, |clock| !(bit(clock) - 1));
    for issued in &mut state.issued {
        *issued &= keep;
    }
}

/// Drops the late reservations the store can only refuse. Under the mutations that take
/// a compare out of the store, that compare no longer refuses them.
fn drop_dead_late(state: &mut State, bounds: Bounds, mutation: Mutation) {
    let store = &state.store;
    for holder in &mut state.holders[..bounds.holders.into()] {
        let Some(late) = holder.late else { continue };
        let off_owner = store.owner != Some(late.lease);
        // `expected == 0` wants no mark at all, which never comes back once written.
        let passed = store.hwm > late.expected || late.expected >= late.new && late.expected != 0;
        if off_owner && mutation != Mutation::ReserveWithoutLeaseCheck
            || passed && mutation != Mutation::ReserveWithoutMarkCheck
        {
            holder.late = None;
        }
    }
}

/// Drops the unanswered marks that no reservation can make the store's mark again, and
/// all of them once the holder's lease is off the owner key: a reservation finds the mark
/// moved only while its lease is on it, and the lease never is again.
///
/// Without the lease compare (`Mutation::ReserveWithoutLeaseCheck`) other holders move
/// the mark too, and a mark one of them asks for next is its clock plus a window: the
/// marks from a window below every clock up are kept as well.
fn forget_unanswered(state: &mut State, bounds: Bounds, mutation: Mutation) {
    let holders = &mut state.holders[..bounds.holders.into()];
    let mut reachable = holders
        .iter()
        .filter_map(|holder| holder.late)
        .fold(bit(state.store.hwm), |marks, request| {
            marks | bit(request.new)
        });
    if mutation == Mutation::ReserveWithoutLeaseCheck {
        reachable |= !(bit(deep_line(bounds)) - 1);
    }
    for holder in holders {
        if let Phase::Holding {
            lease, unanswered, ..
        } = &mut holder.phase
        {
            *unanswered &= reachable;
            if state.store.owner != Some(*lease) {
                *unanswered = 0;
            }
        }
    }
}

/// The line below which marks are far in the past: a window below the slowest clock.
fn deep_line(bounds: Bounds) -> u8 {
    NOW - bounds.skew - bounds.window
}

/// Renumbers the marks below `NOW - skew - window` densely under that line, in order.
fn pack_deep_marks(state: &mut State, bounds: Bounds) {
    let line = deep_line(bounds);
    let mut deep: u64 = 0;
    let mut note = |m: &mut u8| {
        if *m != 0 && *m < line {
            deep |= bit(*m);
        }
    };
    note(&mut state.store.hwm);
    for holder in state.holders.iter_mut().take(bounds.holders.into()) {
        for_each_mark(holder, &mut note);
    }
    if deep == 0 {
        return;
    }
    // The `i`th lowest of `k` deep marks goes to `line - k + i`.
    let count = u8::try_from(deep.count_ones()).unwrap_or(u8::MAX);
    assert!(
        count < line,
        "internal error: {count} deep marks do not fit below {line}"
    );
    let packed = |m: &mut u8| {
        if *m != 0 && *m < line {
            let below = u8::try_from((deep & (bit(*m) - 1)).count_ones()).unwrap_or(0);
            *m = line - count + below;
        }
    };
    packed(&mut state.store.hwm);
    for holder in state.holders.iter_mut().take(bounds.holders.into()) {
        for_each_mark(holder, packed);
    }
}

/// Calls `f` on each mark a holder keeps (0, none, included): the generator's floor, the
/// claimed or committed mark, the unanswered ones (taken apart and put back as bits), and
/// those of its late reservation.
fn for_each_mark(holder: &mut Holder, mut f: impl FnMut(&mut u8)) {
    f(&mut holder.floor);
    match &mut holder.phase {
        Phase::Idle | Phase::Claiming { .. } => {}
        Phase::Waiting { floor, .. } | Phase::Renewed { floor, .. } => f(floor),
        Phase::Holding {
            hwm, unanswered, ..
        } => {
            f(hwm);
            let mut marks = *unanswered;
            *unanswered = 0;
            while marks != 0 {
                let mut mark = u8::try_from(marks.trailing_zeros()).unwrap_or(0);
                marks &= marks - 1;
                f(&mut mark);
                *unanswered |= bit(mark);
            }
        }
    }
    if let Some(Reserve { expected, new, .. }) = &mut holder.late {
        f(expected);
        f(new);
    }
}
