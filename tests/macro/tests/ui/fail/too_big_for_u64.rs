// An integer beyond u64 is out of range, not wrapped.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 18446744073709551616).id;
fn main() {}
