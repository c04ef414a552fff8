// A signed suffix is refused: ids are unsigned.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc = 1i32, machine = 1).id;
fn main() {}
