//! The one trybuild driver. Runs on every toolchain, stable included: refresh the
//! `.stderr` files with `TRYBUILD=overwrite cargo test --test compiletest` when rustc
//! changes, and read the diff before committing it.
#![cfg(feature = "macros")]

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
