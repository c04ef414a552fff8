//! `snowflake!` called from an edition 2015 crate: the same expansions and the
//! same messages, under the same tokens, as in tests/ui of the 2024 facade.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass_*.rs");
    cases.compile_fail("tests/ui/fail_*.rs");
}
