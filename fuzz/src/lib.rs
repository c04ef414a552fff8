//! The workspace's fuzz targets: one check per parser, each a function of arbitrary bytes
//! that panics when the parser breaks its rule, so that AFL++ counts it as a crash.
//!
//! The same functions replay the corpus kept in `corpus/` ([`replay`], `tests/corpus.rs`),
//! so that what the fuzzer found once stays found. The command's `decode` has its check in
//! its own crate (`snowflake-cli/src/fuzz.rs`), where its private modules are, and replays
//! its corpus with [`replay`] too; the server's router is reached through its public
//! `Service` ([`server`], with the feature `server`).

// The macro's modules, compiled here as they are in snowflake-macros: a proc-macro crate
// cannot export them. `crate::parse` and the rest name these from inside them.
#[path = "../../snowflake-macros/src/check.rs"]
mod check;
#[path = "../../snowflake-macros/src/expand.rs"]
mod expand;
#[path = "../../snowflake-macros/src/integer.rs"]
mod integer;
#[path = "../../snowflake-macros/src/parse.rs"]
mod parse;
#[path = "../../snowflake-macros/src/pasted.rs"]
mod pasted;
#[path = "../../snowflake-macros/src/ts.rs"]
mod ts;
#[path = "../../snowflake-macros/src/vocab.rs"]
mod vocab;

mod field_parse;
mod from_str;
mod macro_tokens;
mod rfc3339;
#[cfg(feature = "server")]
pub mod server;

pub use field_parse::field_parse;
pub use from_str::from_str;
pub use macro_tokens::macro_tokens;
pub use rfc3339::rfc3339;

/// A target's check of one input: it panics when the code under test breaks its rule.
pub type Check = fn(&[u8]);

/// Every target by the name of its binary and of its corpus directory.
pub const TARGETS: [(&str, Check); 4] = [
    ("from_str", from_str),
    ("field_parse", field_parse),
    ("rfc3339", rfc3339),
    ("macro_tokens", macro_tokens),
];

/// Every file of `corpus/<name>/`, with its path, for a test.
///
/// # Panics
///
/// When the directory or a file in it cannot be read.
pub fn corpus(name: &str) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(name);
    std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("a directory entry").path();
            let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, data)
        })
        .collect()
}

/// Every file of `corpus/<name>/` through `check`, for a test: it fails naming the first
/// file whose check panics, or when the directory is empty.
///
/// # Panics
///
/// As said: a file whose check fails, a directory that is empty or cannot be read.
pub fn replay(name: &str, check: Check) {
    let files = corpus(name);
    assert!(!files.is_empty(), "corpus/{name} is empty");
    for (path, data) in files {
        // The file's name in the failure: its check's own message says what broke.
        let result = std::panic::catch_unwind(|| check(&data));
        assert!(result.is_ok(), "{} fails its check", path.display());
    }
}

/// The `main` of a target's binary: under `cargo afl build`, AFL++'s persistent loop over
/// `check`; in a plain build, `check` of stdin once, to replay a file, or given
/// directories, of every file in them (scripts/fuzz.sh so checks what AFL++ kept, with the
/// span locations that the fuzzing build of proc-macro2 leaves out), exiting with 1 and
/// naming the files that fail.
///
/// # Panics
///
/// When stdin or a directory given cannot be read, and where `check` panics.
pub fn run(check: Check) {
    #[cfg(fuzzing)]
    afl::fuzz(true, |data| check(data));
    #[cfg(not(fuzzing))]
    {
        use std::io::Read;
        let dirs: Vec<_> = std::env::args_os().skip(1).collect();
        if dirs.is_empty() {
            let mut data = Vec::new();
            std::io::stdin()
                .read_to_end(&mut data)
                .expect("stdin is readable");
            check(&data);
            return;
        }
        let mut failed = Vec::new();
        for dir in dirs {
            let entries = std::fs::read_dir(&dir).expect("a directory of inputs");
            for path in entries.map(|entry| entry.expect("a directory entry").path()) {
                if path.is_file() {
                    let data = std::fs::read(&path).expect("a readable input");
                    if std::panic::catch_unwind(|| check(&data)).is_err() {
                        failed.push(path);
                    }
                }
            }
        }
        for path in &failed {
            eprintln!("fails its check: {}", path.display());
        }
        if !failed.is_empty() {
            std::process::exit(1);
        }
    }
}
