//! A baked ID behaves as its ID: `BakedSnowflake` compares, sorts, hashes and prints as
//! the `Snowflake` it stands for, and compares with one either way round.
#![cfg(feature = "macros")]

use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::hash::{BuildHasher, RandomState};

use proptest::prelude::*;
use snowflake_kit::{BakedSnowflake, Snowflake, compose, snowflake};

/// A baked ID for any valid one, as `snowflake!` would make it.
fn bake(id: Snowflake) -> BakedSnowflake {
    let binary = id.segmented_binary().to_string().leak();
    snowflake_kit::__private::baked(id.as_u64(), binary)
}

fn id() -> impl Strategy<Value = Snowflake> {
    (0..=i64::MAX as u64).prop_map(|n| Snowflake::try_from(n).unwrap())
}

proptest! {
    #[test]
    fn compares_sorts_and_hashes_as_its_id(a in id(), b in id()) {
        let (baked_a, baked_b) = (bake(a), bake(b));
        prop_assert_eq!(baked_a.cmp(&baked_b), a.cmp(&b));
        prop_assert_eq!(baked_a == baked_b, a == b);
        prop_assert_eq!(baked_a.partial_cmp(&b), Some(a.cmp(&b)));
        prop_assert_eq!(a.partial_cmp(&baked_b), Some(a.cmp(&b)));
        prop_assert_eq!(baked_a == b, a == b);
        prop_assert_eq!(a == baked_b, a == b);
        prop_assert!(baked_a == a);
        prop_assert!(a == baked_a);
        let hasher = RandomState::new();
        prop_assert_eq!(hasher.hash_one(baked_a), hasher.hash_one(a));
        prop_assert_eq!(baked_a.to_string(), a.to_string());
    }
}

#[test]
fn fixtures_compare_sort_and_collect_as_ids() {
    const OLD: BakedSnowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1);
    const SAME_MS: BakedSnowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 1);
    const NEW: BakedSnowflake = snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26);
    // The const forms: the typed ID and the number.
    const NEW_ID: Snowflake = NEW.snowflake();
    const OLD_NUMBER: u64 = OLD.id;

    let old = compose(1_288_834_975_657, 1, 1, 0).unwrap();
    assert_eq!(old, OLD);
    assert_eq!(OLD, old);
    assert_eq!(OLD_NUMBER, 4_194_439_168);
    assert_ne!(OLD, SAME_MS);
    assert_eq!(OLD.cmp(&SAME_MS), Ordering::Less);
    assert!(old < SAME_MS && SAME_MS < NEW_ID && NEW > old);

    let mut fixtures = vec![NEW, SAME_MS, OLD];
    fixtures.sort();
    assert_eq!(fixtures, [OLD, SAME_MS, NEW]);
    let set: BTreeSet<BakedSnowflake> = fixtures.into_iter().collect();
    assert!(set.contains(&SAME_MS));
    assert_eq!(format!("{NEW}"), "1541815603606036480");
    assert_eq!(format!("{NEW:>20}"), " 1541815603606036480");
}

/// A baked value changed after the macro made it is checked where it becomes a `Snowflake`:
/// an `id` past `i64::MAX` never comes out as a `Snowflake` with its sign bit set.
#[test]
#[should_panic(expected = "a baked ID was changed after `snowflake!` made it: its `id` is no ID")]
fn a_baked_id_set_past_i64_max_is_refused_where_it_becomes_a_snowflake() {
    let mut baked = snowflake!(ts = 1288834975657, dc = 1, machine = 1);
    baked.id = u64::MAX;
    let id = baked.snowflake();
    // Never reached: the line above panics, in release builds too.
    assert!(id.as_i64() >= 0, "a negative BIGINT: {id:?}");
}

#[test]
#[should_panic(
    expected = "a baked ID was changed after `snowflake!` made it: its `binary` is not its `id`'s"
)]
fn a_baked_id_whose_binary_disagrees_is_refused() {
    let mut baked = snowflake!(ts = 1288834975657, dc = 1, machine = 1);
    baked.id += 1;
    let _ = baked.snowflake();
}

#[test]
fn every_path_to_a_snowflake_checks_a_changed_baked_id() {
    let changed = || {
        let mut baked = snowflake!(ts = 1288834975657, dc = 1, machine = 1);
        baked.binary = "0 00000000000000000000000000000001111101000 00001 00001 000000000001";
        baked
    };
    let refused = |f: fn(BakedSnowflake)| std::panic::catch_unwind(move || f(changed())).is_err();
    assert!(refused(|b| {
        b.snowflake();
    }));
    assert!(refused(|b| {
        b.parts();
    }));
    assert!(refused(|b| {
        let _ = Snowflake::from(b);
    }));
    assert!(refused(|b| {
        b.to_string();
    }));
    // The untouched value passes every one.
    let baked = snowflake!(ts = 1288834975657, dc = 1, machine = 1);
    assert_eq!(Snowflake::from(baked).as_u64(), 4_194_439_168);
    assert_eq!(baked.parts().machine, 1);
}
