//! `SplitMix64`: a seeded generator small enough to live in the test, so that a seed
//! replays the same faults without a dependency.

use std::time::Duration;

pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A stream of its own, so that one part's draws do not shift another's.
    pub(crate) fn fork(&mut self) -> Rng {
        Rng(self.next_u64())
    }

    /// Uniform in `lo..=hi` (the modulo bias is far below what a test can notice).
    pub(crate) fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// True `per_mille` times in a thousand.
    pub(crate) fn chance(&mut self, per_mille: u64) -> bool {
        self.next_u64() % 1000 < per_mille
    }

    /// A duration in `lo_ms..=hi_ms` milliseconds.
    pub(crate) fn ms(&mut self, lo_ms: u64, hi_ms: u64) -> Duration {
        Duration::from_millis(self.between(lo_ms, hi_ms))
    }

    /// A signed value in `-bound..=bound`.
    pub(crate) fn signed(&mut self, bound: u64) -> i64 {
        let bound = i64::try_from(bound).expect("a small bound");
        let span = u64::try_from(2 * bound).expect("non-negative");
        i64::try_from(self.between(0, span)).expect("within the bound") - bound
    }
}
