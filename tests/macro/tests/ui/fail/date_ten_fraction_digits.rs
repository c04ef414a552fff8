// A tenth fraction digit is not dropped: it is finer than a millisecond.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = "2022-06-28T16:07:40.1050000001Z", dc = 1, machine = 1).id;
fn main() {}
