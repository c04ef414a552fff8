// A leap second is named as one: Unix time has none.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2016-12-31T23:59:60Z", dc = 1, machine = 1).id;
fn main() {}
