//! `snowflake!` called from an edition 2015 crate: the same expansions and the
//! same messages, under the same tokens, as in tests/macro (the facade in edition 2024).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass_*.rs");
    cases.compile_fail("tests/ui/fail_*.rs");
}

/// The messages of the 2015 cases and the columns they point at are those of the
/// facade's 2024 cases. This test lives here, not in the facade: the facade's
/// package does not carry this crate's files.
#[test]
fn errors_read_as_in_2024() {
    let messages = |path: &str| -> Vec<String> {
        let text = ::std::fs::read_to_string(path).expect(path);
        text.lines()
            .filter(|line| line.starts_with("error") || line.starts_with(" -->"))
            .map(|line| line.replace("tests/ui/fail_", "tests/ui/fail/"))
            .collect()
    };
    for case in &["every_kind_of_error", "date_sub_millisecond"] {
        let old = messages(&format!("tests/ui/fail_{}.stderr", case));
        let new = messages(&format!("../macro/tests/ui/fail/{}.stderr", case));
        assert!(!new.is_empty());
        assert_eq!(old, new, "{}", case);
    }
}
