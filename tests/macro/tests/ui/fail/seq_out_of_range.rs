// The sequence has 12 bits: 4096 is one too many.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 1, seq = 4096).id;
fn main() {}
