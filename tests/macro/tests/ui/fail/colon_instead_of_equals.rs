// A `:` for `=` is one error, and the range errors of every argument still come out.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc: 99, machine = 99).id;
fn main() {}
