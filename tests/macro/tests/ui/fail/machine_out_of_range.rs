// The machine has 5 bits: 32 is one too many.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1, machine = 32).id;
fn main() {}
