//! The [`LeaseModel`]: holders, the store and time as one state machine for stateright,
//! with the IDs each holder issues recorded in every state (the properties checked on them
//! are in `properties.rs`).

use std::sync::atomic::AtomicBool;

use stateright::{Model, Property};

use crate::bounds::{Bounds, MAX_GRANTS, MAX_HOLDERS, Mutation, NOW};
use crate::holder::{Holder, Phase, Step};
use crate::properties::{self, COVERAGE};
use crate::store::{Lease, Store};
use crate::{normal, symmetry};

/// The protocol with `bounds.holders` holders on one identity.
#[derive(Debug)]
pub struct LeaseModel {
    bounds: Bounds,
    mutation: Mutation,
    /// Whether states are stored with their holders in canonical order (`symmetry.rs`).
    symmetric: bool,
    /// Which coverage properties have been seen: each reports once (see `seen_once`).
    pub(crate) seen: [AtomicBool; COVERAGE],
}

/// Everything at one moment, in canonical form (`normal.rs`): store time is [`NOW`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The holders (those past `bounds.holders` never move).
    pub holders: [Holder; MAX_HOLDERS],
    /// etcd.
    pub store: Store,
    /// The milliseconds each holder issued in, as bits, forgetting those below the clock
    /// of every holder that may still issue: clocks never go back, so none issues there.
    pub issued: [u64; MAX_HOLDERS],
    /// The holders that ever issued, as bits.
    pub ever: u8,
    /// Whether two holders issued in one millisecond.
    pub duplicate: bool,
    /// Whether a holder issued once its lease's time had run out at the store.
    pub lapsed: bool,
    /// How many times the store's clock stepped ahead.
    pub jumps: u8,
}

/// A transition of the model. Holder indices are `0..bounds.holders`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A tick of store time; every holder's clock ticks with it (the etcd leader's clock,
    /// `SystemClock` and tokio's `Instant`).
    Tick,
    /// A tick of store time in which this holder's clock stands still: a slow clock, as
    /// far as the skew bound lets it fall behind.
    Stall(u8),
    /// This holder's clock ticks with store time standing still: a fast clock, as far as
    /// the skew bound lets it run ahead.
    Fast(u8),
    /// etcd's lessor revokes a lease whose time ran out, at that tick or any later one
    /// (`PgStore`: a later grant's clean-up deletes it, or a claim does).
    Expire(Lease),
    /// The store's clock steps a tick ahead of the holders' (`PgStore`: the database's wall
    /// clock set forward), at most `Bounds::jumps` times in a run.
    Jump,
    /// The store applies a holder's release of this lease (`EtcdStore::release`), at any
    /// time after it was sent, or never (the request was lost).
    Release(Lease),
    /// An operator revokes the owner's lease (`etcdctl lease revoke`, `MemStore::revoke`).
    Revoke,
    /// A holder's task takes a step (see [`Step`] for the code each stands for).
    Step(u8, Step),
    /// A holder sends a reservation (`Holder::step`'s, or the first of `acquire::steps`)
    /// and `acquire::within` ends the call as the [`Outcome`] says. No time passes during
    /// the call: its delays are a late commit ([`Outcome::Late`]) and the holder's pauses.
    Reserve(u8, Outcome),
    /// The store applies a reservation whose holder no longer awaits it: a late commit.
    ApplyLate(u8),
}

/// How a reservation call ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The store applies it (`EtcdStore::reserve`) and the answer arrives.
    Answered,
    /// The store applies it and the answer is lost: the call times out after the commit.
    AnswerLost,
    /// The request is lost (a partition): the call times out.
    Lost,
    /// The call times out before the store sees the request, which the store may still
    /// apply later (`MemStore::answer_late`); one such request per holder at a time.
    Late,
}

impl LeaseModel {
    /// The model within `bounds`, with `mutation` made to the protocol.
    ///
    /// # Panics
    ///
    /// If `bounds` exceed what the state holds: more holders or grants than fixed, a
    /// window under 2 ticks (half a window must be a tick), a margin not under the TTL, or
    /// times that do not fit beside [`NOW`] (marks are bits of a `u64`, and 16 marks far in
    /// the past need room below the clocks).
    pub fn new(bounds: Bounds, mutation: Mutation) -> LeaseModel {
        let fits = (1..=MAX_HOLDERS).contains(&usize::from(bounds.holders))
            && usize::from(bounds.grants) <= MAX_GRANTS
            && bounds.window >= 2
            && bounds.margin < bounds.ttl
            && u32::from(NOW) + u32::from(bounds.skew) + u32::from(bounds.window) < 64
            && u32::from(bounds.skew) + u32::from(bounds.window) + 16 < u32::from(NOW)
            && u32::from(NOW) + u32::from(bounds.ttl) + u32::from(bounds.skew) <= 255;
        assert!(fits, "bounds out of the model's range: {bounds:?}");
        LeaseModel {
            bounds,
            mutation,
            symmetric: true,
            seen: Default::default(),
        }
    }

    /// The same model with holders kept in their own order: more states, and paths whose
    /// holder numbers do not change from one state to the next (for reading a trace).
    #[must_use]
    pub fn without_symmetry(self) -> LeaseModel {
        LeaseModel {
            symmetric: false,
            ..self
        }
    }

    /// The bounds it is checked within.
    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// The change made to the protocol.
    pub fn mutation(&self) -> Mutation {
        self.mutation
    }

    /// Records the IDs each holder's generator issues now: every state is visited, and
    /// issuing changes nothing else, so issuing whenever allowed covers every choice.
    fn issue(&self, state: &mut State) {
        for h in self.bounds.holders() {
            let holder = &state.holders[h];
            if !holder.issues() {
                continue;
            }
            if let Phase::Holding {
                lease, valid_until, ..
            } = holder.phase
            {
                // The store's expiry of the lease as last renewed: the model applies a
                // keep-alive as it is sent, so it is the local deadline plus the margin, less
                // the ticks the store's clock stepped ahead since. It outlives the lease (a
                // revoke, an expiry), which is what it is kept for.
                let end = (valid_until + self.bounds.margin).saturating_sub(holder.drift);
                if let Some(&expiry) = state.store.expiry.get(usize::from(lease))
                    && expiry != 0
                    && holder.drift == 0
                {
                    assert_eq!(expiry, end, "internal error: the lease's end drifted");
                }
                state.lapsed |= NOW >= end;
            }
            let ms = 1u64 << holder.clock;
            let others = self
                .bounds
                .holders()
                .filter(|&other| other != h)
                .any(|other| state.issued[other] & ms != 0);
            state.duplicate |= others;
            state.issued[h] |= ms;
            state.ever |= 1 << h;
        }
    }
}

impl Model for LeaseModel {
    type State = State;
    type Action = Action;

    fn init_states(&self) -> Vec<State> {
        vec![State {
            holders: [Holder::new(NOW); MAX_HOLDERS],
            store: Store::new(),
            issued: [0; MAX_HOLDERS],
            ever: 0,
            duplicate: false,
            lapsed: false,
            jumps: 0,
        }]
    }

    fn actions(&self, state: &State, actions: &mut Vec<Action>) {
        let bounds = self.bounds;
        let skew = bounds.skew;
        actions.push(Action::Tick);
        let mut steps = Vec::new();
        for (h, holder) in state.holders.iter().enumerate().take(bounds.holders.into()) {
            let index = u8::try_from(h).unwrap_or(u8::MAX);
            if !holder.retired(bounds) {
                if holder.clock + skew > NOW {
                    actions.push(Action::Stall(index));
                }
                if holder.clock < NOW + skew {
                    actions.push(Action::Fast(index));
                }
            }
            steps.clear();
            holder.steps(bounds, self.mutation, &mut steps);
            actions.extend(steps.iter().map(|&step| Action::Step(index, step)));
            if holder.reservation(bounds).is_some() {
                actions.extend([
                    Action::Reserve(index, Outcome::Answered),
                    Action::Reserve(index, Outcome::AnswerLost),
                    Action::Reserve(index, Outcome::Lost),
                ]);
                if holder.late.is_none() {
                    actions.push(Action::Reserve(index, Outcome::Late));
                }
            }
            if holder.late.is_some() {
                actions.push(Action::ApplyLate(index));
            }
        }
        actions.extend(state.store.expired().map(Action::Expire));
        actions.extend(state.store.releasing().map(Action::Release));
        if bounds.revoke && state.store.owner().is_some() {
            actions.push(Action::Revoke);
        }
        if state.jumps < bounds.jumps {
            actions.push(Action::Jump);
        }
    }

    fn next_state(&self, last: &State, action: Action) -> Option<State> {
        let (bounds, mutation) = (self.bounds, self.mutation);
        let mut state = *last;
        let State {
            store,
            holders: all,
            ..
        } = &mut state;
        match action {
            Action::Tick => normal::tick(&mut state, bounds, None),
            Action::Stall(h) => normal::tick(&mut state, bounds, Some(h.into())),
            Action::Fast(h) => all[usize::from(h)].clock += 1,
            Action::Expire(lease) | Action::Release(lease) => store.revoke(lease),
            Action::Jump => {
                store.jump();
                for holder in all.iter_mut() {
                    holder.drift += 1;
                }
                state.jumps += 1;
            }
            Action::Revoke => {
                if let Some(lease) = store.owner() {
                    store.revoke(lease);
                }
            }
            Action::Step(h, step) => {
                all[usize::from(h)].take(step, h.into(), store, bounds, mutation);
            }
            Action::Reserve(h, outcome) => {
                let holder = &mut all[usize::from(h)];
                if let Some(request) = holder.reservation(bounds) {
                    let new = request.new;
                    match outcome {
                        Outcome::Answered => {
                            let answer = store.reserve(request, mutation, bounds.store);
                            holder.answered(new, answer, store, mutation);
                        }
                        Outcome::AnswerLost => {
                            store.reserve(request, mutation, bounds.store);
                            holder.timed_out(new, store, mutation);
                        }
                        Outcome::Lost => holder.timed_out(new, store, mutation),
                        Outcome::Late => {
                            holder.late = Some(request);
                            holder.timed_out(new, store, mutation);
                        }
                    }
                }
            }
            Action::ApplyLate(h) => {
                if let Some(request) = all[usize::from(h)].late.take() {
                    store.reserve(request, mutation, bounds.store);
                }
            }
        }
        self.issue(&mut state);
        normal::normalize(&mut state, bounds, mutation);
        if self.symmetric {
            symmetry::canonical(&mut state, bounds);
        }
        Some(state)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        properties::properties(self.bounds)
    }
}
