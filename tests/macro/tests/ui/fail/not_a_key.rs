// A value where a key belongs.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(1288834975657, dc = 1, machine = 1).id;
fn main() {}
