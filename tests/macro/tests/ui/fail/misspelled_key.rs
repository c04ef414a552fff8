// An unknown key suggests the nearest one.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1, mchine = 1).id;
fn main() {}
