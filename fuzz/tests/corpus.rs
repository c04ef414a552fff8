//! The kept corpus, replayed: every file of `corpus/<target>/` through the check its
//! fuzz target runs, so that what the fuzzer found once stays found.

use std::path::Path;

/// Every file of `corpus/<name>/`, through `check`; at least one.
fn replay(name: &str, check: snowflake_kit_fuzz::Check) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(name);
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // The file's name in the failure: its check's own message says what broke.
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{} fails its check", path.display());
        files += 1;
    }
    assert!(files > 0, "{} is empty", dir.display());
}

#[test]
fn from_str_corpus() {
    replay("from_str", snowflake_kit_fuzz::from_str);
}

#[test]
fn field_parse_corpus() {
    replay("field_parse", snowflake_kit_fuzz::field_parse);
}

#[test]
fn rfc3339_corpus() {
    replay("rfc3339", snowflake_kit_fuzz::rfc3339);
}

#[test]
fn macro_tokens_corpus() {
    replay("macro_tokens", snowflake_kit_fuzz::macro_tokens);
}

#[test]
fn every_target_has_its_corpus() {
    for (name, _) in snowflake_kit_fuzz::TARGETS {
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("corpus")
                .join(name)
                .is_dir(),
            "{name}"
        );
    }
}
