// A name for `ts` points to the RFC 3339 form and to `compose`.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = NOW, dc = 1, machine = 1).id;
fn main() {}
