// A date one millisecond after the last one 41 bits hold.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2080-07-10T17:30:30.209Z", dc = 1, machine = 1).id;
fn main() {}
