// A `Snowflake` constant (and static) straight from `snowflake!`, in one step.
use snowflake_kit::{Snowflake, snowflake};

const TWEET: Snowflake =
    snowflake!(ts = "2022-06-28T16:07:40.105Z", dc = 11, machine = 26).snowflake();
static WELCOME: Snowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1).snowflake();

fn main() {
    assert_eq!(TWEET.as_u64(), 1_541_815_603_606_036_480);
    assert_eq!(WELCOME.as_u64(), 4_194_439_168);
    let runtime: Snowflake = snowflake!(ts = 1288834975657, dc = 1, machine = 1).into();
    assert_eq!(runtime, WELCOME);
}
