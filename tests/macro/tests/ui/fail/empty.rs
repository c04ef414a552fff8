// An empty call misses both required keys, reported together.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!().id;
fn main() {}
