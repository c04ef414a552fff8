//! The trybuild driver of the facade's `snowflake!`. Runs on every toolchain, stable
//! included: refresh the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p snowflake-kit-macro-tests` when rustc changes, and read
//! the diff before committing it.

/// Cases whose messages are rustc's own and worded otherwise by Rust 1.85 (a panic in
/// const evaluation; a generic type's name in "no method found"), where `scripts/msrv.sh`
/// sets `SNOWFLAKE_MSRV`: they run on every newer compiler, and every other case on 1.85
/// too.
const NEWEST_COMPILER_ONLY: [&str; 3] = [
    "baked_changed_in_const.rs",
    "plain_generator_has_no_halt.rs",
    "typed_bad_prefix.rs",
];

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    let msrv = std::env::var_os("SNOWFLAKE_MSRV").is_some();
    let mut fail: Vec<_> = std::fs::read_dir("tests/ui/fail")
        .expect("the failing cases")
        .map(|entry| entry.expect("a case").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    fail.sort();
    assert!(fail.len() > 30, "{} failing cases found", fail.len());
    for case in fail {
        let name = case
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        if !(msrv && NEWEST_COMPILER_ONLY.contains(&name)) {
            cases.compile_fail(case);
        }
    }
}
