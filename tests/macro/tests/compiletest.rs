//! The trybuild driver of the facade's `snowflake!`. Runs on every toolchain, stable
//! included: refresh the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p snowflake-kit-macro-tests` when rustc changes, and read
//! the diff before committing it.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
