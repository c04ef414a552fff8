// The datacenter has 5 bits: 32 is one too many.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 32, machine = 1).id;
fn main() {}
