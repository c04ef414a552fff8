// A negative number is refused under the whole `-1`.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = -1).id;
fn main() {}
