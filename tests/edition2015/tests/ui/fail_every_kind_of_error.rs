// Edition 2015: every mistake keeps its message and its place, as in tests/ui/fail/every_kind_of_error.rs.
#[macro_use] extern crate snowflake_kit;
const ID: u64 = snowflake!(ts = 1, dc = -1, seq = 4096, seq = 0, node = 1).id;
fn main() {}
