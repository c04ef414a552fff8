// An expression, even a constant one, is not a literal.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1 + 1, machine = 1).id;
fn main() {}
