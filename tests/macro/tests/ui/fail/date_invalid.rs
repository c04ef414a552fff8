// February has no 30th.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2022-02-30T00:00:00Z", dc = 1, machine = 1).id;
fn main() {}
