//! What the checker checks: the invariant, and the coverage properties that show the runs
//! it is about do happen (a model that never reaches them proves nothing).

use std::sync::atomic::Ordering;

use stateright::Property;

use crate::bounds::{Bounds, NOW};
use crate::holder::{Holder, Phase};
use crate::model::{LeaseModel, State};
use crate::store::Lease;

/// The invariant's name: no two holders issue an ID in the same millisecond.
pub const INVARIANT: &str = "no two holders issue in one millisecond";

/// The second invariant's name: a holder stops issuing by the end of its lease as etcd
/// counts it (its expiry as last renewed), whatever became of the lease meanwhile.
///
/// It holds when the margin is at least twice the skew. The ceiling converts the lease's
/// end to the holder's clock when it is published, and stays so until the next publish:
/// a clock that falls behind store time by up to `2 * skew` ticks meanwhile (from a skew
/// ahead to one behind) issues up to that long past the local deadline, `margin` before
/// the store's. The tests check that at `margin == 2 * skew - 1` it fails.
pub const LAPSED: &str = "no holder issues once its lease's time has run out at the store";

/// How many coverage (`sometimes`) properties there are.
pub(crate) const COVERAGE: usize = 6;

/// The invariants, then the coverage properties for `bounds`.
pub(crate) fn properties(bounds: Bounds) -> Vec<Property<LeaseModel>> {
    let mut properties = vec![
        Property::always(INVARIANT, |_, state: &State| !state.duplicate),
        Property::always(LAPSED, |_, state: &State| !state.lapsed),
        // Coverage: the runs the invariant is about do happen.
        Property::sometimes(
            "every holder issues",
            |model: &LeaseModel, state: &State| {
                let all = state.ever.count_ones() == u32::from(model.bounds().holders);
                model.seen_once(0, all)
            },
        ),
        Property::sometimes(
            "a holder issues after its lease is off the owner key",
            |model: &LeaseModel, state: &State| {
                let owner = state.store.owner();
                let holds = model
                    .issuing(state)
                    .any(|(_, lease, _)| owner != Some(lease));
                model.seen_once(1, holds)
            },
        ),
        Property::sometimes(
            "a holder issues with a reservation unanswered",
            |model: &LeaseModel, state: &State| {
                let holds = model
                    .issuing(state)
                    .any(|(_, _, unanswered)| unanswered != 0);
                model.seen_once(2, holds)
            },
        ),
        Property::sometimes(
            "a holder issues with a late reservation in flight",
            |model: &LeaseModel, state: &State| {
                let holds = model
                    .issuing(state)
                    .any(|(holder, _, _)| holder.late.is_some());
                model.seen_once(3, holds)
            },
        ),
        // What `LAPSED` is about: the ceiling lets a clock that fell behind issue past the
        // local deadline, but not past the store's.
        Property::sometimes(
            "a holder issues past its local deadline",
            |model: &LeaseModel, state: &State| {
                let holds = model.issuing(state).any(|(holder, _, _)| {
                    matches!(holder.phase, Phase::Holding { valid_until, .. } if NOW >= valid_until)
                });
                model.seen_once(5, holds)
            },
        ),
    ];
    if bounds.grants > 1 {
        properties.push(Property::sometimes(
            "a holder issues again after a reclaim",
            |model: &LeaseModel, state: &State| {
                let holds = model.issuing(state).any(|(holder, _, _)| holder.grants > 1);
                model.seen_once(4, holds)
            },
        ));
    }
    properties
}

impl LeaseModel {
    /// Whether coverage property `index` holds in a state for the first time. Stateright
    /// records a discovery, with a copy of its path, every time a `sometimes` property
    /// holds, which for these is in a large share of all states.
    fn seen_once(&self, index: usize, holds: bool) -> bool {
        holds && !self.seen[index].swap(true, Ordering::Relaxed)
    }

    /// The holders issuing now, with their lease and unanswered marks.
    fn issuing<'a>(&'a self, state: &'a State) -> impl Iterator<Item = (&'a Holder, Lease, u64)> {
        state.holders[..self.bounds().holders.into()]
            .iter()
            .filter(|holder| holder.issues())
            .filter_map(|holder| match holder.phase {
                Phase::Holding {
                    lease, unanswered, ..
                } => Some((holder, lease, unanswered)),
                _ => None,
            })
    }
}
