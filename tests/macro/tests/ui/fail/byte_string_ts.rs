// `ts` takes an integer or a string, not a byte string.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = b"2022-06-28T16:07:40.105Z", dc = 1, machine = 1).id;
fn main() {}
