// Only `T`, `t` or a space may stand between the date and the time.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2022-06-28716:07:40.105Z", dc = 1, machine = 1).id;
fn main() {}
