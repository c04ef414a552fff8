// The expansion is a constant: in `const`, `static`, array lengths, patterns and plain expressions.
use snowflake_kit::{snowflake, BakedSnowflake, Snowflake};

const WELCOME: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).id;
const BITS: &str = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 0).binary;
static BAKED: BakedSnowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1);
const AS_ID: Snowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1).snowflake();
const LEN: usize = snowflake!(ts = 1288834974657, dc = 0, machine = 0, seq = 3).id as usize;

fn main() {
    assert_eq!(WELCOME, 4194439168);
    assert_eq!(BITS.len(), 68);
    assert_eq!(BAKED.id, WELCOME);
    assert_eq!(AS_ID.as_u64(), WELCOME);
    let array = [0u8; LEN];
    assert_eq!(array.len(), 3);
    match 4194439168u64 {
        WELCOME => {}
        _ => unreachable!(),
    }
    let (a, b) = (snowflake!(ts = 1288834975657, dc = 1, machine = 1).id, 0);
    assert_eq!((a, b), (WELCOME, 0));
}
