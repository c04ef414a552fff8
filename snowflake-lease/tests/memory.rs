//! The leased generator's state machine on the in-memory store, on tokio's paused
//! clock: time moves only as the tests say (and when every task sleeps). Then the store
//! suite (`tests/suite`) on it, in real time.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use snowflake_kit::GenerateError;
use snowflake_lease::{
    Choice, Identity, LeaseError, LeaseId, LeaseOptions, LeasedGenerator, Loss, MemStore, OnLoss,
    State,
};
use snowflake_test_support::T;
use snowflake_test_support::clock::TokioClock;
use tokio::time::{Instant, advance, sleep};

use crate::suite::{Fixture, Lifecycle, store_suite};

mod suite;
mod support;

fn exact(dc: u64, machine: u64) -> LeaseOptions {
    LeaseOptions::default().exact(Identity::new(dc, machine).unwrap())
}

fn identity() -> Identity {
    Identity::new(1, 1).unwrap()
}

/// A store shared between several holders of the tests.
fn shared_store() -> Arc<MemStore> {
    Arc::new(MemStore::new())
}

async fn start(
    store: &Arc<MemStore>,
    options: LeaseOptions,
    clock: &TokioClock,
) -> Result<LeasedGenerator<TokioClock>, LeaseError> {
    LeasedGenerator::start_with_clock(Arc::clone(store), options, clock.clone()).await
}

#[tokio::test(start_paused = true)]
async fn issues_up_to_the_committed_ceiling() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    let id = generator.try_next_id().unwrap();
    assert_eq!((id.datacenter(), id.machine()), (1, 1));
    let status = generator.status();
    assert_eq!(status.state, State::Holding);
    assert_eq!(status.hwm_ms, T + 2000);
    assert_eq!(store.hwm(identity()), Some(T + 2000));
    assert!(status.ceiling_ms <= status.hwm_ms);
    assert!(status.lease_valid_until_ms > T + 8000);
    // Time goes on: the ceiling stays ahead, and every ID is under a committed HWM.
    for _ in 0..50 {
        sleep(Duration::from_millis(200)).await;
        let id = generator.try_next_id().unwrap();
        assert!(id.timestamp_ms() <= store.hwm(identity()).unwrap());
    }
    assert!(generator.status().hwm_ms > T + 10_000);
    assert_eq!(generator.status().refusals, 0);
}

/// A typed ID from a leased generator: its identity, and refused as a plain one is.
#[tokio::test(start_paused = true)]
async fn issues_typed_ids_under_the_same_fence() {
    snowflake_kit::typed::kind!(User);
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    let first: snowflake_kit::typed::Id<User> = generator.try_next_id_of().unwrap();
    let plain = generator.try_next_id().unwrap();
    assert_eq!(
        (first.snowflake().datacenter(), first.snowflake().machine()),
        (1, 1)
    );
    assert!(first.snowflake() < plain);
    let ceiling = generator.status().ceiling_ms;
    clock.step(i64::try_from(ceiling - T).unwrap() + 1);
    assert!(matches!(
        generator.try_next_id_of::<User>(),
        Err(GenerateError::AboveCeiling { .. })
    ));
}

#[tokio::test(start_paused = true)]
async fn past_the_ceiling_it_refuses_at_once() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    let ceiling = generator.status().ceiling_ms;
    // A clock that jumps past the reserved time: refused, not waited for.
    clock.step(i64::try_from(ceiling - T).unwrap() + 1);
    assert!(matches!(
        generator.try_next_id(),
        Err(GenerateError::AboveCeiling { ceiling_ms, .. }) if ceiling_ms == ceiling
    ));
    assert_eq!(generator.status().refusals, 1);
}

#[tokio::test(start_paused = true)]
async fn try_next_id_now_says_when_to_ask_again() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    // The clock stands still (paused time): one millisecond's 4,096, then a wait.
    let first = generator.try_next_id_now().unwrap();
    for _ in 1..4096 {
        generator.try_next_id_now().unwrap();
    }
    let until_ms = first.timestamp_ms() + 1;
    assert_eq!(
        generator.try_next_id_now(),
        Err(GenerateError::WouldWait { until_ms })
    );
    assert_eq!(generator.status().refusals, 0, "a wait is not a refusal");
    sleep(Duration::from_millis(1)).await;
    let next = generator.try_next_id_now().unwrap();
    assert_eq!((next.timestamp_ms(), next.sequence()), (until_ms, 0));
    // Past the ceiling it refuses, as try_next_id does, and counts it.
    let ceiling = generator.status().ceiling_ms;
    clock.step(i64::try_from(ceiling - T).unwrap() + 1);
    assert!(matches!(
        generator.try_next_id_now(),
        Err(GenerateError::AboveCeiling { ceiling_ms, .. }) if ceiling_ms == ceiling
    ));
    assert_eq!(generator.status().refusals, 1);
}

#[tokio::test(start_paused = true)]
async fn a_clock_that_jumps_ahead_does_not_push_the_hwm() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    clock.step(3_600_000);
    sleep(Duration::from_secs(3)).await;
    // Real time went on 3 s: the HWM follows real time (plus a second), not the jump; and
    // it did follow it, the holder reserving all along.
    let hwm = store.hwm(identity()).unwrap();
    assert!(hwm <= T + 3_000 + 1_000 + 2_000 + 300, "{hwm}");
    assert!(hwm >= T + 3_000, "{hwm}");
    assert!(generator.try_next_id().is_err());
}

/// What a forward step of the generator's clock does (the `SystemClock` follows the wall
/// clock forward): within the second that reservations may run ahead of real time, the IDs
/// follow it at once, without a refusal.
#[tokio::test(start_paused = true)]
async fn a_small_step_forward_is_followed() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    let before = generator.try_next_id().unwrap();
    clock.step(500);
    sleep(Duration::from_secs(1)).await;
    let after = generator.try_next_id().unwrap();
    assert!(
        after.timestamp_ms() >= before.timestamp_ms() + 1_500,
        "{after:?}"
    );
    assert_eq!(generator.status().refusals, 0);
    assert_eq!(generator.status().state, State::Holding);
}

/// A clock that stays ahead of real time by more than that: refused all along, the HWM
/// held to real time, and after three TTLs the holder stops for good (never reclaiming,
/// which would commit the jumped time) and frees the identity.
#[tokio::test(start_paused = true)]
async fn a_clock_that_stays_ahead_stops_the_holder_and_frees_the_identity() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    clock.step(3_600_000);
    sleep(Duration::from_secs(25)).await;
    assert!(matches!(
        generator.try_next_id(),
        Err(GenerateError::AboveCeiling { .. })
    ));
    assert_eq!(generator.status().state, State::Holding);
    sleep(Duration::from_secs(10)).await;
    let status = generator.status();
    assert!(
        matches!(status.state, State::Stopped(Loss::ClockAhead { by_ms, .. }) if by_ms >= 3_598_000),
        "{status:?}"
    );
    assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
    // Real time went on 35 s: the HWM followed it (plus a second and a window), not the jump.
    let hwm = store.hwm(identity()).unwrap();
    assert!(hwm <= T + 35_000 + 1_000 + 2_000, "{hwm}");
    assert!(store.owner(identity()).is_none(), "the identity is free");
}

#[tokio::test(start_paused = true)]
async fn a_keep_alive_with_ttl_zero_halts_then_reclaims_above_the_hwm() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    let before = generator.try_next_id().unwrap();
    store.set_ttl_zero(true);
    sleep(Duration::from_secs(4)).await;
    assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
    let status = generator.status();
    assert!(
        matches!(
            status.state,
            State::Reclaiming {
                loss: Loss::LeaseGone,
                ..
            }
        ),
        "{status:?}"
    );
    assert_eq!(status.lease_losses, 1);
    let hwm = store.hwm(identity()).unwrap();
    store.set_ttl_zero(false);
    sleep(Duration::from_secs(1)).await;
    assert_eq!(generator.status().state, State::Holding);
    let after = generator.try_next_id().unwrap();
    assert!(after.timestamp_ms() > hwm, "{after:?} above {hwm}");
    assert!(after > before);
}

/// A holder under `OnLoss::Stop` on identity `n`/`n`, and its lease.
async fn stopping_holder(
    store: &Arc<MemStore>,
    clock: &TokioClock,
    n: u64,
) -> (LeasedGenerator<TokioClock>, LeaseId) {
    let mut options = exact(n, n);
    options.on_loss = OnLoss::Stop;
    let generator = start(store, options, clock).await.unwrap();
    let (_, lease) = store.owner(Identity::new(n, n).unwrap()).unwrap();
    (generator, lease)
}

/// Waits for a reservation to happen, then: halted, stopped for `why`, one loss.
async fn assert_stopped(generator: &LeasedGenerator<TokioClock>, why: impl Fn(&Loss) -> bool) {
    sleep(Duration::from_secs(3)).await;
    assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
    let status = generator.status();
    assert!(
        matches!(status.state, State::Stopped(ref loss) if why(loss)),
        "{:?}",
        status.state
    );
    assert_eq!(status.lease_losses, 1);
}

#[tokio::test(start_paused = true)]
async fn a_failed_ownership_check_stops_it_under_on_loss_stop() {
    use snowflake_lease::Store;
    let store = shared_store();
    let clock = TokioClock::new();
    // Someone lowered the HWM: the fence can no longer be trusted.
    let (lowered, _) = stopping_holder(&store, &clock, 1).await;
    store.set_hwm(identity(), T + 1);
    assert_stopped(
        &lowered,
        |loss| matches!(loss, Loss::MarkMoved { found_ms, .. } if *found_ms == T + 1),
    )
    .await;
    // Someone raised it, to fence off times that may be used already: no ID below it.
    let (raised, _) = stopping_holder(&store, &clock, 2).await;
    let two = Identity::new(2, 2).unwrap();
    let raised_to = raised.status().hwm_ms + 600_000;
    store.set_hwm(two, raised_to);
    assert_stopped(
        &raised,
        |loss| matches!(loss, Loss::MarkMoved { found_ms, .. } if *found_ms == raised_to),
    )
    .await;
    // The owner key taken off while the lease lives on: only the reservation sees it.
    let (unowned, lease) = stopping_holder(&store, &clock, 3).await;
    store
        .unclaim(Identity::new(3, 3).unwrap(), lease)
        .await
        .unwrap();
    assert_stopped(&unowned, |loss| *loss == Loss::NotOwner).await;
}

#[tokio::test(start_paused = true)]
async fn a_reservation_committed_without_an_answer_is_adopted_not_a_loss() {
    let store = shared_store();
    let clock = TokioClock::new();
    let (generator, _) = stopping_holder(&store, &clock, 1).await;
    let before = generator.status().hwm_ms;
    // The next reservation commits, but its caller hears a failure (a timeout).
    store.lose_next_reserve_answer();
    for _ in 0..40 {
        sleep(Duration::from_millis(100)).await;
        generator.try_next_id().unwrap();
    }
    let status = generator.status();
    assert_eq!(status.state, State::Holding);
    assert_eq!((status.lease_losses, status.refusals), (0, 0));
    assert!(status.hwm_ms > before + 3_000, "{} {before}", status.hwm_ms);
    assert_eq!(store.hwm(identity()), Some(status.hwm_ms));
}

#[tokio::test(start_paused = true)]
async fn late_commits_are_adopted_or_void_and_never_let_an_id_past_the_mark() {
    for delay_ms in [100, 300, 2_000, 3_500, 9_000] {
        for unanswered in [1, 2, 3] {
            let store = shared_store();
            let clock = TokioClock::new();
            let generator = start(&store, exact(1, 1), &clock).await.unwrap();
            sleep(Duration::from_secs(1)).await;
            // Reservations whose callers never hear back, committed `delay_ms` later:
            // before the next try, after it, after several.
            store.answer_late(unanswered, Duration::from_millis(delay_ms));
            let mut issued = Vec::new();
            for _ in 0..400 {
                sleep(Duration::from_millis(50)).await;
                let stored = store.hwm(identity()).unwrap();
                let status = generator.status();
                assert!(
                    status.ceiling_ms <= stored,
                    "{delay_ms} ms, {unanswered}: {status:?}"
                );
                let id = generator.try_next_id();
                if let Ok(id) = id {
                    assert!(id.timestamp_ms() <= stored);
                }
                issued.push(id.is_ok());
            }
            let status = generator.status();
            let case = format!("{delay_ms} ms late, {unanswered} unanswered: {status:?}");
            assert_eq!(status.state, State::Holding, "{case}");
            assert_eq!(status.lease_losses, 0, "{case}");
            // Refused only while unanswered calls (a third of the TTL each) held the
            // ceiling back; issuing again by the last 2 s.
            assert!(issued[360..].iter().all(|ok| *ok), "{case}");
        }
    }
}

#[tokio::test(start_paused = true)]
async fn store_down_it_issues_to_the_ceiling_never_past_the_lease() {
    let store = shared_store();
    let clock = TokioClock::new();
    let mut options = exact(1, 1);
    options.window = Duration::from_secs(4);
    let generator = start(&store, options, &clock).await.unwrap();
    store.set_unreachable(true);
    let down = Instant::now();
    let mut last_ok = None;
    for _ in 0..150 {
        sleep(Duration::from_millis(100)).await;
        if let Ok(id) = generator.try_next_id() {
            last_ok = Some((id, down.elapsed()));
        }
    }
    let (id, at) = last_ok.unwrap();
    let ceiling = generator.status().ceiling_ms;
    assert!(id.timestamp_ms() <= ceiling);
    // It went on for about the window, and stopped before the lease's 9 s (10 s - margin).
    assert!(
        at >= Duration::from_secs(2) && at < Duration::from_secs(9),
        "{at:?}"
    );
    assert!(generator.try_next_id().is_err());
    // Past the lease's end it has halted.
    assert!(matches!(
        generator.status().state,
        State::Reclaiming {
            loss: Loss::RanOut,
            ..
        }
    ));
    // The store is back: the lease had expired there too; it claims again above the HWM.
    let hwm = store.hwm(identity()).unwrap();
    store.set_unreachable(false);
    // Within the reclaim's backoff, at most a third of the TTL.
    sleep(Duration::from_secs(4)).await;
    assert_eq!(generator.status().state, State::Holding);
    assert!(generator.try_next_id().unwrap().timestamp_ms() > hwm);
}

#[tokio::test(start_paused = true)]
async fn a_clock_behind_the_hwm_waits_within_the_bound() {
    let store = shared_store();
    store.set_hwm(identity(), T + 3_000);
    let clock = TokioClock::new();
    let started = Instant::now();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(3));
    assert!(generator.try_next_id().unwrap().timestamp_ms() > T + 3_000);
}

#[tokio::test(start_paused = true)]
async fn a_clock_far_behind_the_hwm_is_an_error_with_both_times() {
    let store = shared_store();
    store.set_hwm(identity(), T + 8_000);
    let clock = TokioClock::new();
    let error = start(&store, exact(1, 1), &clock).await.unwrap_err();
    assert_eq!(
        error,
        LeaseError::ClockBehind {
            identity: identity(),
            now_ms: T,
            hwm_ms: T + 8_000,
            bound: Duration::from_secs(5),
        }
    );
    assert!(error.to_string().contains("8000 ms behind"), "{error}");
    // And the way out: wait for the clock, or take another identity.
    assert!(
        error.to_string().ends_with(
            "it issues again once the clock passes the mark; another identity issues now"
        ),
        "{error}"
    );
    // The lease was revoked: the identity is free.
    assert_eq!(store.owner(identity()), None);
}

#[tokio::test(start_paused = true)]
async fn an_exact_identity_waits_for_its_holder_then_gives_up() {
    let store = shared_store();
    let clock = TokioClock::new();
    let first = start(&store, exact(1, 1), &clock).await.unwrap();
    let mut options = exact(1, 1);
    options.claim_wait = Duration::from_secs(2);
    options.holder = "second".to_owned();
    let error = start(&store, options.clone(), &clock).await.unwrap_err();
    assert!(matches!(error, LeaseError::Held { .. }), "{error}");
    // Released: the second gets it at once, above the first's HWM.
    let hwm = {
        first.release().await;
        store.hwm(identity()).unwrap()
    };
    assert_eq!(first.status().state, State::Released);
    assert_eq!(store.owner(identity()), None);
    let second = start(&store, options, &clock).await.unwrap();
    assert!(second.try_next_id().unwrap().timestamp_ms() > hwm);
    assert_eq!(store.owner(identity()).unwrap().0, "second");
}

#[tokio::test(start_paused = true)]
async fn auto_holders_get_different_identities_until_all_are_held() {
    use snowflake_lease::Store;
    let store = shared_store();
    let clock = TokioClock::new();
    // Others hold all but 8 identities.
    let others = store.grant(Duration::from_secs(3600)).await.unwrap();
    for index in 8..Identity::COUNT {
        store
            .claim(
                Identity::try_from_index(index).expect("an index below 1,024"),
                others,
                "others",
            )
            .await
            .unwrap();
    }
    let mut held = Vec::new();
    for n in 0..8 {
        let mut options = LeaseOptions::default();
        options.holder = format!("holder {n}");
        held.push(start(&store, options, &clock).await.unwrap());
    }
    let identities: HashSet<Identity> = held.iter().map(LeasedGenerator::identity).collect();
    assert_eq!(identities.len(), 8);
    assert!(identities.iter().all(|identity| identity.index() < 8));
    let error = start(&store, LeaseOptions::default(), &clock)
        .await
        .unwrap_err();
    assert_eq!(error, LeaseError::AllHeld);
    assert_eq!(
        error.to_string(),
        "all 1024 identities are held (or their high-water marks are far ahead of this clock)"
    );
}

#[tokio::test(start_paused = true)]
async fn auto_claims_what_one_read_shows_free_and_without_it_still_finds_it() {
    use snowflake_lease::Store;
    let inner = shared_store();
    let clock = TokioClock::new();
    // Others hold every identity but three.
    let others = inner.grant(Duration::from_secs(3600)).await.unwrap();
    let free = [500, 501, 900];
    for index in (0..Identity::COUNT).filter(|index| !free.contains(index)) {
        inner
            .claim(
                Identity::try_from_index(index).expect("an index below 1,024"),
                others,
                "others",
            )
            .await
            .unwrap();
    }
    assert_eq!(inner.held().await.unwrap().len(), 1021);
    for tells_held in [true, false] {
        inner.set_hides_held(!tells_held);
        let claims = inner.claims();
        let generator = start(&inner, LeaseOptions::default(), &clock)
            .await
            .unwrap();
        assert!(free.contains(&generator.identity().index()));
        // With the one read, one claim; without it, one per identity tried until a
        // free one (how many depends on where this host's scan starts).
        if tells_held {
            assert_eq!(inner.claims() - claims, 1);
        }
        generator.release().await;
    }
}

#[tokio::test(start_paused = true)]
async fn auto_skips_an_identity_poisoned_by_a_clock_far_ahead() {
    let store = shared_store();
    let clock = TokioClock::new();
    let mut options = LeaseOptions::default();
    options.choice = Choice::Auto;
    let probe = start(&store, options.clone(), &clock).await.unwrap();
    let first = probe.identity();
    probe.release().await;
    store.set_hwm(first, T + 3_600_000);
    let generator = start(&store, options, &clock).await.unwrap();
    assert_ne!(generator.identity(), first);
}

#[tokio::test(start_paused = true)]
async fn bad_options_are_errors_naming_them() {
    let store = shared_store();
    let clock = TokioClock::new();
    let mut options = exact(1, 1);
    options.prefix = "snowflake/".to_owned();
    assert_eq!(
        start(&store, options, &clock).await.unwrap_err(),
        LeaseError::InvalidPrefix("snowflake/".to_owned())
    );
    let mut options = exact(1, 1);
    options.window = Duration::from_secs(10);
    assert!(matches!(
        start(&store, options, &clock).await.unwrap_err(),
        LeaseError::InvalidOption(message) if message.contains("window")
    ));
    let mut options = exact(1, 1);
    options.ttl = Duration::from_millis(500);
    assert!(matches!(
        start(&store, options, &clock).await.unwrap_err(),
        LeaseError::InvalidOption(message) if message.contains("ttl")
    ));
}

#[tokio::test(start_paused = true)]
async fn many_threads_never_see_a_duplicate() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = Arc::new(start(&store, exact(1, 1), &clock).await.unwrap());
    let mut ids = Vec::new();
    for _ in 0..20 {
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let generator = Arc::clone(&generator);
                let runtime = tokio::runtime::Handle::current();
                std::thread::spawn(move || {
                    // The test's paused clock, which stands still while the threads run.
                    let _paused = runtime.enter();
                    (0..1000)
                        .filter_map(|_| generator.try_next_id().ok())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for handle in handles {
            ids.extend(handle.join().unwrap());
        }
        advance(Duration::from_millis(1)).await;
    }
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count);
    // Each round 2,000 in one millisecond (of 4,096), 20 ms below a ceiling 2 s ahead.
    assert_eq!(count, 40_000);
}

#[tokio::test(start_paused = true)]
async fn a_clock_stepping_back_after_the_claim_never_reaches_the_hwm() {
    let store = shared_store();
    store.set_hwm(identity(), T + 1_000);
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    assert!(generator.try_next_id().unwrap().timestamp_ms() > T + 1_000);
    // The clock steps back 1.5 s, below the HWM the claim read.
    clock.step(-1_500);
    for _ in 0..20 {
        match generator.try_next_id() {
            Ok(id) => assert!(id.timestamp_ms() > T + 1_000, "{id:?}"),
            Err(e) => assert!(
                matches!(
                    e,
                    GenerateError::ClockMovedBackwards { .. } | GenerateError::ClockStalled { .. }
                ),
                "{e}"
            ),
        }
    }
    // Nor does the HWM ever go down.
    sleep(Duration::from_secs(3)).await;
    assert!(store.hwm(identity()).unwrap() >= T + 3_000);
}

/// 32 holders of datacenter `dc`, which then has no machine free; their options, with no
/// claim wait.
async fn every_machine_of(
    store: &Arc<MemStore>,
    clock: &TokioClock,
    dc: u64,
) -> (Vec<LeasedGenerator<TokioClock>>, LeaseOptions) {
    let mut options = LeaseOptions::default().in_datacenter(dc).unwrap();
    options.claim_wait = Duration::ZERO;
    let mut holders = Vec::new();
    for _ in 0..32 {
        holders.push(start(store, options.clone(), clock).await.unwrap());
    }
    (holders, options)
}

#[tokio::test(start_paused = true)]
async fn a_datacenter_hands_out_its_32_machines_and_no_other() {
    let store = shared_store();
    let clock = TokioClock::new();
    let (mut holders, options) = every_machine_of(&store, &clock, 3).await;
    let machines: HashSet<u8> = holders
        .iter()
        .map(|h| {
            assert_eq!(h.identity().datacenter(), 3);
            assert_eq!(h.choice(), Choice::Datacenter(3));
            h.identity().machine()
        })
        .collect();
    assert_eq!(machines.len(), 32);
    // The 33rd: the datacenter is full, though 992 identities of others are free.
    let full = start(&store, options.clone(), &clock).await.unwrap_err();
    assert_eq!(full, LeaseError::DatacenterFull { datacenter: 3 });
    assert_eq!(
        full.to_string(),
        "all 32 machines of datacenter 3 are held (or their high-water marks are far ahead \
         of this clock)"
    );
    // One lets go: the next claimant gets exactly that machine.
    let freed = holders.swap_remove(17);
    let machine = freed.identity().machine();
    freed.release().await;
    let next = start(&store, options.clone(), &clock).await.unwrap();
    assert_eq!(next.identity(), Identity::new(3, machine.into()).unwrap());
}

#[tokio::test(start_paused = true)]
async fn a_full_datacenter_is_waited_for_within_the_claim_wait() {
    let store = shared_store();
    let clock = TokioClock::new();
    let (mut holders, mut options) = every_machine_of(&store, &clock, 0).await;
    options.claim_wait = Duration::from_secs(5);
    let releaser = {
        let last = holders.pop().unwrap();
        tokio::spawn(async move {
            sleep(Duration::from_secs(2)).await;
            let identity = last.identity();
            last.release().await;
            identity
        })
    };
    let started = Instant::now();
    let waited = start(&store, options, &clock).await.unwrap();
    let freed = releaser.await.unwrap();
    assert_eq!(waited.identity(), freed);
    assert!(started.elapsed() >= Duration::from_secs(2));
}

#[test]
fn a_datacenter_out_of_range_is_an_invalid_option() {
    assert!(LeaseOptions::default().in_datacenter(32).is_err());
    let mut options = LeaseOptions::default();
    options.choice = Choice::Datacenter(40);
    assert_eq!(
        options.check(),
        Err(LeaseError::InvalidOption(
            "datacenter 40 is out of range 0..=31 (5 bits)".to_owned()
        ))
    );
}

#[tokio::test(start_paused = true)]
async fn a_wait_for_a_datacenter_longer_than_the_ttl_keeps_the_lease_alive() {
    let store = shared_store();
    let clock = TokioClock::new();
    let (mut holders, mut options) = every_machine_of(&store, &clock, 4).await;
    // The claimant's own lease would run out twice over while it waits.
    options.ttl = Duration::from_secs(2);
    options.window = Duration::from_secs(1);
    options.claim_wait = Duration::from_secs(10);
    let last = holders.pop().unwrap();
    let freed = last.identity();
    let releaser = tokio::spawn(async move {
        sleep(Duration::from_secs(5)).await;
        last.release().await;
    });
    let waited = start(&store, options, &clock).await.unwrap();
    releaser.await.unwrap();
    assert_eq!(waited.identity(), freed);
    assert_eq!(waited.status().state, State::Holding);
}

/// A reclaim that finds the clock further behind the mark than may be waited for stops,
/// saying why, instead of retrying for good: the clock stepped back an hour while the
/// lease was lost.
#[tokio::test(start_paused = true)]
async fn a_reclaim_with_the_clock_far_behind_the_mark_stops_saying_why() {
    let store = shared_store();
    let clock = TokioClock::new();
    let generator = start(&store, exact(1, 1), &clock).await.unwrap();
    let (_, lease) = store.owner(identity()).unwrap();
    clock.step(-3_600_000);
    store.revoke(lease);
    sleep(Duration::from_secs(20)).await;
    let status = generator.status();
    let State::Stopped(Loss::Unclaimable(LeaseError::ClockBehind { bound, .. })) = status.state
    else {
        panic!("{status:?}");
    };
    assert_eq!(bound, Duration::from_secs(5));
    assert!(
        status
            .state
            .to_string()
            .starts_with("stopped: the identity cannot be claimed again: the clock ("),
        "{}",
        status.state
    );
    // Nothing left held: another host, with a good clock, can take it.
    assert!(store.owner(identity()).is_none());
    let claims = store.claims();
    sleep(Duration::from_secs(20)).await;
    assert_eq!(store.claims(), claims, "it went on trying");
    assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
}

// No process but this one reaches the store, so it has no `Processes`: the scenarios that
// kill, stop or cut off a holder process are not its.
store_suite!(Memory);

/// One store, shared by every holder of a scenario; its leases run on tokio's clock, here
/// real time.
struct Memory(Arc<MemStore>);

impl Lifecycle for Memory {
    fn fresh() -> Memory {
        Memory(shared_store())
    }

    /// Out of reach: every call fails; the leases run on and may expire.
    fn take_down(&mut self) {
        self.0.set_unreachable(true);
    }

    fn bring_back(&mut self) {
        self.0.set_unreachable(false);
    }
}

impl Fixture for Memory {
    type Store = Arc<MemStore>;

    async fn store(&self, _: &LeaseOptions) -> Arc<MemStore> {
        Arc::clone(&self.0)
    }

    async fn owners(&self) -> usize {
        (0..Identity::COUNT)
            .filter(|&index| {
                self.0
                    .owner(Identity::try_from_index(index).expect("an index below 1,024"))
                    .is_some()
            })
            .count()
    }

    async fn mark(&self, identity: Identity, _: &LeaseOptions) -> u64 {
        self.0.hwm(identity).unwrap_or(0)
    }

    async fn end_lease(&self, identity: Identity, _: &LeaseOptions) {
        let (_, lease) = self.0.owner(identity).unwrap();
        self.0.revoke(lease);
    }
}
