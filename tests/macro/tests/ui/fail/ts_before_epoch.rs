// One millisecond before the Twitter epoch.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834974656, dc = 1, machine = 1).id;
fn main() {}
