// Two bad values: two errors, each under its own literal, in one build.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 32, machine = 40).id;
fn main() {}
