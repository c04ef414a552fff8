//! The clock leases are measured on: tokio's monotonic instant, plus the time the host
//! spent suspended. A monotonic clock stops while a laptop's lid is shut or a VM is
//! frozen; etcd's clock does not, so a holder that woke would think its lease still
//! valid. Linux counts a suspend in `CLOCK_BOOTTIME` and not in `CLOCK_MONOTONIC`: the
//! gap between the two grows by each suspend.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

/// Now, counting the time the host was suspended since the first call.
pub(crate) fn now() -> Instant {
    Instant::now() + suspended()
}

/// How long the host has been suspended since the first call: never less than it said
/// before, and 0 where the platform cannot tell.
pub(crate) fn suspended() -> Duration {
    static BASE_MS: OnceLock<u64> = OnceLock::new();
    static MOST_MS: AtomicU64 = AtomicU64::new(0);
    let Some(gap_ms) = gap_ms() else {
        return Duration::ZERO;
    };
    let suspended_ms = gap_ms.saturating_sub(*BASE_MS.get_or_init(|| gap_ms));
    // The two clocks are read one after the other: a gap that wobbles by a millisecond
    // is no suspend, and a clock must not go back.
    let suspended_ms = if suspended_ms < 50 { 0 } else { suspended_ms };
    let most_ms = MOST_MS
        .fetch_max(suspended_ms, Ordering::Relaxed)
        .max(suspended_ms);
    Duration::from_millis(most_ms)
}

/// `CLOCK_BOOTTIME - CLOCK_MONOTONIC`, in ms.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn gap_ms() -> Option<u64> {
    use rustix::time::{ClockId, Timespec, clock_gettime};
    let ms = |t: Timespec| {
        u64::try_from(t.tv_sec)
            .ok()?
            .checked_mul(1000)?
            .checked_add(u64::try_from(t.tv_nsec).ok()? / 1_000_000)
    };
    let boot = ms(clock_gettime(ClockId::Boottime))?;
    let monotonic = ms(clock_gettime(ClockId::Monotonic))?;
    Some(boot.saturating_sub(monotonic))
}

/// Elsewhere the monotonic clock is taken as it is.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn gap_ms() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both clocks read; without a suspend during the test, no suspend is counted, and
    /// the lease clock keeps pace with the monotonic one.
    #[test]
    fn without_a_suspend_the_lease_clock_is_the_monotonic_clock() {
        #[cfg(target_os = "linux")]
        assert!(gap_ms().is_some());
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (before, lease_before) = (Instant::now(), now());
            std::thread::sleep(Duration::from_millis(100));
            let (after, lease_after) = (Instant::now(), now());
            assert_eq!(suspended(), Duration::ZERO);
            let (real, lease) = (after - before, lease_after - lease_before);
            assert!(
                real.abs_diff(lease) < Duration::from_millis(5),
                "{real:?} {lease:?}"
            );
        });
    }
}
