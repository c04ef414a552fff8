// Every mistake of one call is reported in one build, in the order written.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = 1, dc = -1, seq = 4096, seq = 0, node = 1).id;
fn main() {}
