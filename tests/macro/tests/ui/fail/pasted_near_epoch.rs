// An ID within a day of the epoch is pasted only with `near_epoch`, and the word only beside one.
use snowflake_kit::snowflake;
const TWEET_20: u64 = snowflake!(id = 20).id;
const NOT_NEAR: u64 = snowflake!(id = 1541815603606036480, near_epoch).id;
const COMPOSED: u64 = snowflake!(near_epoch, ts = 1288834975657, dc = 1, machine = 1).id;
const WITH_A_VALUE: u64 = snowflake!(id = 20, near_epoch = true).id;
fn main() {}
