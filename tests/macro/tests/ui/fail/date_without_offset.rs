// RFC 3339 requires `Z` or an offset: a local time is ambiguous.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2022-06-28T16:07:40.105", dc = 1, machine = 1).id;
fn main() {}
