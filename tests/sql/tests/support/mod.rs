//! What the database tests share: the `PostgreSQL` harness, the IDs at the edges of the
//! format, 100,000 generated IDs with a time range inside them, and the error to expect.
#![allow(dead_code, reason = "each test file uses a part")]

pub(crate) mod pg;

use snowflake_kit::layout::{MAX_TIMESTAMP_MS, TWITTER_EPOCH_MS};
use snowflake_kit::{Generator, Identity, Snowflake, compose};
use snowflake_test_support::T;
use snowflake_test_support::clock::ScriptClock;

/// The message of a negative BIGINT read as a `Snowflake`, through every library.
pub(crate) const NEGATIVE_FIVE: &str = "-5 is out of range: an ID is in 0..=9223372036854775807";

/// The epoch's first ID (0), a tweet, the largest fields in one millisecond, and the last
/// ID of 2080 (`i64::MAX`).
pub(crate) fn edges() -> Vec<Snowflake> {
    vec![
        compose(TWITTER_EPOCH_MS, 0, 0, 0).unwrap(),
        "1541815603606036480".parse().unwrap(),
        compose(T, 31, 31, 4095).unwrap(),
        compose(MAX_TIMESTAMP_MS, 31, 31, 4095).unwrap(),
    ]
}

/// 100,000 IDs from a `Generator` over about 1,000 ms, the bounds of a time range inside
/// them, and the IDs in that range.
pub(crate) struct TimeRange {
    /// Every ID, in an order that is not time order (rows go in this way).
    pub(crate) ids: Vec<Snowflake>,
    /// Every ID in time order, as `ORDER BY id` must give them back.
    pub(crate) sorted: Vec<Snowflake>,
    /// `Snowflake::first_at(t0)` and `Snowflake::last_at(t1)`.
    pub(crate) first: Snowflake,
    /// See `first`.
    pub(crate) last: Snowflake,
    /// The IDs of `t0..=t1`, in time order.
    pub(crate) expected: Vec<Snowflake>,
}

pub(crate) fn time_range() -> TimeRange {
    let generator =
        // A millisecond every 100 readings.
        Generator::new(Identity::new(1, 1).unwrap()).with_clock(ScriptClock::new(|n| T + n / 100));
    let (t0, t1) = (T + 250, T + 749);
    let mut ids: Vec<Snowflake> = (0..100_000 - 4).map(|_| generator.next_id()).collect();
    // The tightest neighbours of the bounds: the bounds themselves, and the IDs just
    // outside them, from another issuer than the generator's.
    ids.extend([
        Snowflake::last_at(t0 - 1).unwrap(),
        Snowflake::first_at(t0).unwrap(),
        Snowflake::last_at(t1).unwrap(),
        Snowflake::first_at(t1 + 1).unwrap(),
    ]);
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    ids.sort_by_key(|id| id.as_u64().wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let expected = sorted
        .iter()
        .copied()
        .filter(|id| (t0..=t1).contains(&id.timestamp_ms()))
        .collect();
    TimeRange {
        ids,
        sorted,
        first: Snowflake::first_at(t0).unwrap(),
        last: Snowflake::last_at(t1).unwrap(),
        expected,
    }
}

impl TimeRange {
    /// Checks what a database gave back: every ID by `ORDER BY id`, and those of
    /// `WHERE id BETWEEN first AND last` (in time order).
    pub(crate) fn check(&self, ordered: &[Snowflake], between: &[Snowflake]) {
        assert_eq!(ordered.len(), self.sorted.len());
        assert!(
            ordered == self.sorted,
            "`ORDER BY id` is not the IDs' order"
        );
        assert!(
            ordered
                .windows(2)
                .all(|w| w[0].timestamp_ms() <= w[1].timestamp_ms()),
            "`ORDER BY id` is not time order"
        );
        assert_eq!(between.len(), self.expected.len());
        assert!(
            between == self.expected,
            "`BETWEEN` gave other IDs than the time range's"
        );
        // The bounds are IDs of the range themselves; their neighbours outside are not.
        assert_eq!(
            (between[0], between[between.len() - 1]),
            (self.first, self.last)
        );
    }
}

/// The messages of an error and of its sources, joined by `: `.
pub(crate) fn messages(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(err) = source {
        text = format!("{text}: {err}");
        source = err.source();
    }
    text
}
