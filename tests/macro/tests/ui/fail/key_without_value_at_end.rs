// A key with nothing after it, at the end: the error is under the key.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1, machine).id;
fn main() {}
