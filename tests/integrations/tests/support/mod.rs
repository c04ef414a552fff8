//! What the integration tests share: IDs from all over the range, and bits to make them.
#![allow(dead_code, reason = "each test file uses some of these")]

use snowflake_kit::Snowflake;

/// A tweet's ID, 2022-06-28T16:07:40.105Z, datacenter 11, machine 26.
pub(crate) const TWEET: &str = "1541815603606036480";

/// Bits that look random and are the same on every run (splitmix64).
pub(crate) fn bits(count: usize) -> impl Iterator<Item = u64> {
    let mut state: u64 = 0x5EED;
    (0..count).map(move |_| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    })
}

/// Both ends, the tweet, every power of ten and its neighbours in range, and 1,000 IDs
/// spread over the range.
pub(crate) fn ids() -> Vec<Snowflake> {
    let mut ids = vec![Snowflake::MIN, Snowflake::MAX, TWEET.parse().unwrap()];
    for power in 0..19 {
        let ten = 10u64.pow(power);
        ids.extend([ten - 1, ten, ten + 1].map(|n| Snowflake::try_from_u64(n).unwrap()));
    }
    ids.extend(bits(1_000).map(|bits| Snowflake::try_from_u64(bits >> 1).unwrap()));
    ids
}
