//! The trybuild driver of the facade's `snowflake!`. Runs on every toolchain, stable
//! included: refresh the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p snowflake-kit-macro-tests` when rustc changes, and read
//! the diff before committing it.

/// Cases whose messages are rustc's own and worded otherwise by Rust 1.85 (a panic in const
/// evaluation, a trait's `help`, a generic type's name in "no method found"). Where
/// `scripts/msrv.sh` sets `SNOWFLAKE_MSRV`, they run from `tests/ui/fail-rust-1.85/` (links
/// to the same cases, each with the `.stderr` that 1.85 gives, reviewed as the others are),
/// and every other case from `tests/ui/fail/`: every case runs on both compilers. The
/// panics in const evaluation are `#[track_caller]`, so that rustc reports each at the
/// caller's line alone, quoting no source of the standard library (which it would where
/// the `rust-src` component is installed, and not elsewhere).
const WORDED_OTHERWISE_BY_1_85: [&str; 5] = [
    "baked_changed_in_const.rs",
    "pasted_wrong_kind.rs",
    "plain_generator_has_no_halt.rs",
    "typed_bad_prefix.rs",
    "typed_hand_written_kind.rs",
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
        if msrv && WORDED_OTHERWISE_BY_1_85.contains(&name) {
            cases.compile_fail(format!("tests/ui/fail-rust-1.85/{name}"));
        } else {
            cases.compile_fail(case);
        }
    }
}

/// Each case of the list has its link in `tests/ui/fail-rust-1.85/`, and nothing else is
/// there: a case renamed or added to the list is seen here, on any compiler.
#[test]
fn the_cases_of_rust_1_85_are_the_listed_ones() {
    let mut linked: Vec<String> = std::fs::read_dir("tests/ui/fail-rust-1.85")
        .expect("the cases of Rust 1.85")
        .map(|entry| {
            entry
                .expect("a case")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name.ends_with(".rs"))
        .collect();
    linked.sort();
    assert_eq!(linked, WORDED_OTHERWISE_BY_1_85);
    for name in WORDED_OTHERWISE_BY_1_85 {
        let case = std::path::Path::new("tests/ui/fail").join(name);
        assert!(case.exists(), "{name} is in tests/ui/fail");
        let stderr = format!("tests/ui/fail-rust-1.85/{}", name.replace(".rs", ".stderr"));
        assert!(std::path::Path::new(&stderr).exists(), "{stderr}");
    }
}
