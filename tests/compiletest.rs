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

/// The edition 2015 crate in tests/edition2015 pins its own `.stderr` files;
/// their messages and the columns they point at must be those of edition 2024.
#[test]
fn edition_2015_errors_read_as_in_2024() {
    let messages = |path: &str| -> Vec<String> {
        let text = std::fs::read_to_string(path).expect(path);
        text.lines()
            .filter(|line| line.starts_with("error") || line.starts_with(" -->"))
            .map(|line| line.replace("tests/ui/fail_", "tests/ui/fail/"))
            .collect()
    };
    for case in ["every_kind_of_error", "date_sub_millisecond"] {
        let old = messages(&format!("tests/edition2015/tests/ui/fail_{case}.stderr"));
        let new = messages(&format!("tests/ui/fail/{case}.stderr"));
        assert!(!new.is_empty());
        assert_eq!(old, new, "{case}");
    }
}
