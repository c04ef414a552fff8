//! [`Refusal`]: why no ID was issued, in words for the client; and the WARN event, once a
//! second at most, for a refusal that is the clock's doing.

use std::sync::OnceLock;

use snowflake_kit::GenerateError;

/// Why no ID was issued, for a 503: no identity, a claim that waits, or the generator's
/// error (as [`Queue`](crate::fair::Queue) passes it on) in words for the client.
pub(crate) struct Refusal(pub(crate) String);

/// At most once per second: `due(second)` is true for the first call of each second.
struct OncePerSecond(std::sync::atomic::AtomicU64);

impl OncePerSecond {
    const fn new() -> OncePerSecond {
        OncePerSecond(std::sync::atomic::AtomicU64::new(u64::MAX))
    }

    fn due(&self, second: u64) -> bool {
        self.0.swap(second, std::sync::atomic::Ordering::Relaxed) != second
    }
}

/// A `WARN` event for a refusal that is the clock's doing, once a second at most, however
/// many requests a clock stepped far back refuses.
fn clock_refusal(e: &GenerateError) {
    static SAID: OncePerSecond = OncePerSecond::new();
    static STARTED: OnceLock<std::time::Instant> = OnceLock::new();
    let second = STARTED
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs();
    if SAID.due(second) {
        tracing::warn!(error = %e, "the clock: IDs refused (said at most once a second)");
    }
}

/// The generator's refusal as the client reads it, and a WARN event when the clock is to
/// blame. A function called where an ID is refused, not a `From`: a conversion stays free
/// of side effects, and can be called anywhere (a test, a retry) without a log line.
pub(super) fn refused(e: GenerateError) -> Refusal {
    if matches!(
        e,
        GenerateError::ClockMovedBackwards { .. }
            | GenerateError::ClockStalled { .. }
            | GenerateError::ClockBeforeEpoch { .. }
            | GenerateError::ClockAfterMax { .. }
    ) {
        clock_refusal(&e);
    }
    Refusal::from(e)
}

impl From<GenerateError> for Refusal {
    fn from(e: GenerateError) -> Refusal {
        let reason = match e {
            GenerateError::Halted => "the identity's lease was lost; claiming it again".to_owned(),
            GenerateError::AboveCeiling { .. } => {
                format!(
                    "{e}: the reservation of time ahead has not been renewed (is the lease store \
                     reachable?)"
                )
            }
            other => other.to_string(),
        };
        Refusal(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_refusal_is_said_once_a_second() {
        let said = OncePerSecond::new();
        let seconds = [0, 0, 0, 1, 1, 5, 5, 5, 6];
        let due: Vec<bool> = seconds.iter().map(|&s| said.due(s)).collect();
        assert_eq!(
            due,
            [true, false, false, true, false, true, false, false, true]
        );
    }
}
