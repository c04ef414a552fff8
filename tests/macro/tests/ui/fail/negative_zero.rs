// `-0` is not negative, but no field takes a sign.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = -0, machine = 1).id;
fn main() {}
