//! An error and its causes on one line, each once, as anyhow's `{:#}` writes it: for a 503's
//! reason in the library, and for the binary's last event. A module of both (`mod chain` in
//! `lib.rs` and in `main.rs`), so that the two say an error the same way.

/// `e: cause: its cause`, to the end of the chain.
pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let causes: Vec<String> = std::iter::successors(Some(e), |e| e.source())
        .map(ToString::to_string)
        .collect();
    causes.join(": ")
}
