// A constant's name is a run-time value for the macro: it points to `compose`.
use snowflake_kit::snowflake;
const DC: u64 = 1;
const ID: u64 = snowflake!(ts = 1288834975657, dc = DC, machine = 1).id;
fn main() {}
