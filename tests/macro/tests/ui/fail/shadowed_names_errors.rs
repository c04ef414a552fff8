// Errors keep their messages where `core` is shadowed and there is no prelude.
#![no_implicit_prelude]
mod core {}
const ID: u64 = ::snowflake_kit::snowflake!(ts = 1288834975657, dc = 32, machine = -1).id;
fn main() {}
