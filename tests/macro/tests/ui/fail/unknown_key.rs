// A misspelt key lists the valid ones.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1288834975657, dcc = 1, machine = 1).id;
fn main() {}
