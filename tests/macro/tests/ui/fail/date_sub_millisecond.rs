// Microseconds would be lost: an error, not a silent truncation.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2022-06-28T16:07:40.105001Z", dc = 1, machine = 1).id;
fn main() {}
