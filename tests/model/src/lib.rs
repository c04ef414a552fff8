#![doc = include_str!("../README.md")]

mod bounds;
mod generator;
mod holder;
mod model;
mod normal;
mod properties;
mod reserve;
mod show;
mod store;
mod symmetry;

pub use crate::bounds::{Bounds, Flavor, MAX_GRANTS, MAX_HOLDERS, MAX_LEASES, Mutation, NOW};
pub use crate::holder::{Holder, Phase, Step};
pub use crate::model::{Action, LeaseModel, Outcome, State};
pub use crate::properties::{INVARIANT, LAPSED};
pub use crate::store::{DEAD, Lease, Reservation, Reserve, Store};
