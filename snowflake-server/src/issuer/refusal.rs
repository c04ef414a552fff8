//! [`Refusal`]: why no ID was issued; a WARN, once a second at most, when the clock is to blame.

use std::fmt;
use std::sync::OnceLock;

use snowflake_kit::GenerateError;
use snowflake_lease::State;

use super::NO_IDENTITY;

/// Why no ID was issued (or the service is not ready), for a 503; typed until `Display` says it.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// No identity was given.
    NoIdentity,
    /// A leased identity not held yet: what its claim waits for, as the lease says it.
    Claiming(String),
    /// The generator's error, as [`Queue`](crate::fair::Queue) passes it on.
    Generator(GenerateError),
    /// An unleased identity's clock reads outside the times an ID can carry.
    ClockOutside { now_ms: u64 },
    /// A lease not held: its state.
    NotHeld(Box<State>),
    /// The lease's reserved time is behind the clock.
    RanOut,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoIdentity => f.write_str(NO_IDENTITY),
            Refusal::Claiming(what) => f.write_str(what),
            Refusal::Generator(GenerateError::Halted) => {
                f.write_str("the identity's lease was lost; claiming it again")
            }
            Refusal::Generator(e @ GenerateError::AboveCeiling { .. }) => write!(
                f,
                "{e}: the reservation of time ahead has not been renewed (is the lease store \
                 reachable?)"
            ),
            Refusal::Generator(e) => write!(f, "{e}"),
            Refusal::ClockOutside { now_ms } => write!(
                f,
                "the clock reads {now_ms} ms, outside the times an ID can carry"
            ),
            Refusal::NotHeld(state) => write!(f, "the lease is not held: {state}"),
            Refusal::RanOut => {
                f.write_str("the reserved time has run out (is the lease store reachable?)")
            }
        }
    }
}

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

/// A `WARN` for a clock refusal, once a second at most, however many requests a step back refuses.
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

/// The generator's refusal for the client, and a WARN if the clock is to blame. Not a `From`: a
/// conversion stays free of side effects, so a test or a retry makes one without a log line.
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
    Refusal::Generator(e)
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
