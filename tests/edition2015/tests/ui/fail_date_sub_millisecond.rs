// Edition 2015: a date error reads as in tests/ui/fail/date_sub_millisecond.rs.
#[macro_use] extern crate snowflake_kit;
const ID: u64 = snowflake!(ts = "2022-06-28T16:07:40.105001Z", dc = 1, machine = 1).id;
fn main() {}
