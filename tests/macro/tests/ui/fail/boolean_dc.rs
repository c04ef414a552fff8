// `true` is a boolean, and the message states the range.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = true, machine = 1).id;
fn main() {}
