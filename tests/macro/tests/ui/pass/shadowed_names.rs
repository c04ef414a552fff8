// Hygiene: the expansion names only the facade's own path, so a local `core`, `Ok`,
// `snowflake_kit` module or a missing prelude cannot break it.
#![no_implicit_prelude]

mod core {}
mod std {}
#[allow(non_snake_case, dead_code)]
fn Ok() {}
#[allow(dead_code)]
struct BakedSnowflake;

mod inner {
    mod snowflake_kit {}
    pub const ID: u64 = ::snowflake_kit::snowflake!(ts = 1288834975657, dc = 1, machine = 1).id;
    // An omitted `ts` also names `option_env!`, for Cargo to track SOURCE_DATE_EPOCH.
    pub const NOW: u64 = ::snowflake_kit::snowflake!(dc = 1, machine = 1).id;
}

fn main() {
    ::std::assert_eq!(inner::ID, 4194439168);
    ::std::assert!(inner::NOW > inner::ID);
}
