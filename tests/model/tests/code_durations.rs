//! The lease model at the code's own durations (TTL 10 s, window 2 s, margin 1 s), whose
//! margin is under twice the skew: uniqueness alone. Some 70 s, so not in the workspace's
//! tests (`test = false` in Cargo.toml: `cargo test` and `--include-ignored` do not build
//! it), only on demand:
//!
//! ```sh
//! cargo test -p snowflake-lease-model --test code_durations -- --nocapture
//! ```

mod check;

use check::holds;
use snowflake_lease_model::{Bounds, INVARIANT, Mutation};

#[test]
fn two_holders_at_the_code_durations() {
    holds(
        Bounds::code_durations(2, 2),
        Mutation::None,
        6_000_000,
        &[INVARIANT],
    );
}
