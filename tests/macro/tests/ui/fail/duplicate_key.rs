// The second `seq` is the one underlined.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 1, seq = 2).id;
fn main() {}
