// A missing comma is one error; both values are still checked.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 99 machine = 99).id;
fn main() {}
