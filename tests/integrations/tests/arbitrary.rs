//! arbitrary: a `Snowflake` from fuzzing input is always a valid ID (sign bit 0), both ends
//! are reachable, and every one of its 63 bits follows the input, over many inputs; it
//! also serves a struct that derives `Arbitrary`.

mod support;

use arbitrary::{Arbitrary, Unstructured};
use snowflake_kit::Snowflake;
use support::bits;

fn from(bytes: &[u8]) -> Snowflake {
    Snowflake::arbitrary(&mut Unstructured::new(bytes)).unwrap()
}

#[test]
fn reaches_both_ends() {
    assert_eq!(from(&[0; 8]), Snowflake::MIN);
    assert_eq!(from(&[0xFF; 8]), Snowflake::MAX);
    // The sign bit of the input is dropped, not refused.
    assert_eq!(from(&(1u64 << 63).to_le_bytes()), Snowflake::MIN);
    // Input that ran out reads as zeros, as arbitrary's integers do.
    assert_eq!(from(&[]), Snowflake::MIN);
    assert_eq!(<Snowflake as Arbitrary>::size_hint(0), (8, Some(8)));
}

#[test]
fn every_input_is_a_valid_id_and_every_bit_follows_it() {
    let count = 100_000;
    let mut set = [0u32; 64];
    for input in bits(count) {
        let id = from(&input.to_le_bytes());
        // The input with its sign bit cleared, no more: the whole range, evenly.
        assert_eq!(id.as_u64(), input & (u64::MAX >> 1));
        assert_eq!(id.as_u64() >> 63, 0);
        assert_eq!(Snowflake::try_from(id.as_u64()), Ok(id));
        for (bit, set) in set.iter_mut().enumerate() {
            *set += u32::from(id.as_u64() >> bit & 1 == 1);
        }
    }
    assert_eq!(set[63], 0);
    let count = u32::try_from(count).unwrap();
    for (bit, &set) in set[..63].iter().enumerate() {
        // Each bit is set about half the time: 50% within 1.5 points (over 9 sigmas).
        assert!(
            (count * 485 / 1000..=count * 515 / 1000).contains(&set),
            "bit {bit} set {set} times in {count}"
        );
    }
}

#[test]
fn every_take_of_a_long_input_is_valid() {
    let input: Vec<u8> = bits(10_000).flat_map(u64::to_le_bytes).collect();
    let mut u = Unstructured::new(&input);
    let mut ids = 0;
    while !u.is_empty() {
        let id = Snowflake::arbitrary(&mut u).unwrap();
        assert_eq!(id.as_u64() >> 63, 0);
        ids += 1;
    }
    assert_eq!(ids, 10_000);
}

/// What a fuzz target or a property test might take.
#[derive(Arbitrary, Debug)]
struct Event {
    id: Snowflake,
    parent: Option<Snowflake>,
    thread: Vec<Snowflake>,
}

#[test]
fn serves_a_derived_struct() {
    let input: Vec<u8> = bits(1_000).flat_map(u64::to_le_bytes).collect();
    let mut u = Unstructured::new(&input);
    let mut ids = 0;
    while let Ok(event) = Event::arbitrary(&mut u) {
        for id in [event.id]
            .into_iter()
            .chain(event.parent)
            .chain(event.thread)
        {
            assert_eq!(id.as_u64() >> 63, 0);
            ids += 1;
        }
        if u.is_empty() {
            break;
        }
    }
    assert!(ids > 100, "{ids}");
}
