// 300 does not fit in the `u8` its suffix names, as rustc would say of the literal.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 300u8, machine = 1).id;
fn main() {}
