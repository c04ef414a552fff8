// A minus sign before a date: the message does not ask for the string it found.
use snowflake_kit::snowflake;
const ID: u64 = snowflake!(ts = -"2022-06-28T16:07:40.105Z", dc = 1, machine = 1).id;
fn main() {}
