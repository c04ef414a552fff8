// A date one millisecond before the Twitter epoch.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2010-11-04T01:42:54.656Z", dc = 1, machine = 1).id;
fn main() {}
