// A date before the Unix epoch, whose milliseconds are negative.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "1969-12-31T23:59:59Z", dc = 1, machine = 1).id;
fn main() {}
