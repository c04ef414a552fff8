// One millisecond after the last timestamp 41 bits hold.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 3487858230209, dc = 1, machine = 1).id;
fn main() {}
