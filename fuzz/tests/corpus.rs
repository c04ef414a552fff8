//! The kept corpus, replayed: every file of `corpus/<target>/` through the check its
//! fuzz target runs, so that what the fuzzer found once stays found.

use std::path::Path;

#[test]
fn from_str_corpus() {
    snowflake_kit_fuzz::replay("from_str", snowflake_kit_fuzz::from_str);
}

#[test]
fn field_parse_corpus() {
    snowflake_kit_fuzz::replay("field_parse", snowflake_kit_fuzz::field_parse);
}

#[test]
fn rfc3339_corpus() {
    snowflake_kit_fuzz::replay("rfc3339", snowflake_kit_fuzz::rfc3339);
}

#[test]
fn macro_tokens_corpus() {
    snowflake_kit_fuzz::replay("macro_tokens", snowflake_kit_fuzz::macro_tokens);
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
