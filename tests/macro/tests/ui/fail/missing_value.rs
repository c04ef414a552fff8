// `key =` and nothing after it.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dc =, machine = 1).id;
fn main() {}
