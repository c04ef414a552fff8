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
fn server_corpus() {
    snowflake_kit_fuzz::replay("server", snowflake_kit_fuzz::server::check);
}

/// The floor under `server_corpus`: `check` passes an input that spells no request without
/// asking the router, so most of the corpus (nine in ten files when this was written) must
/// spell one. `fuzz.sh --update-corpus` keeps what AFL++ found by its coverage, requests or
/// not: after one, this says whether the corpus still tests the router.
#[test]
fn most_of_the_server_corpus_reaches_the_router() {
    let corpus = snowflake_kit_fuzz::corpus("server");
    let files = corpus.len();
    let requests = corpus
        .iter()
        .filter(|(_, data)| snowflake_kit_fuzz::server::request(data).is_some())
        .count();
    println!("{requests} of {files} files spell a request");
    assert!(
        requests * 5 >= files * 4,
        "{requests} of {files} files spell a request"
    );
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
