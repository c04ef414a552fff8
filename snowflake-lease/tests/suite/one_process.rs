//! The scenarios whose holders all run in the test's own process: every store has them.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use snowflake_lease::{
    Claim, Identity, LeaseError, LeaseOptions, LeasedGenerator, OnLoss, Reservation, State, Store,
    StoreErrorKind,
};

use super::{Fixture, Offset, options};

/// The store's calls, as the holder relies on them: a claim won with the mark read in it,
/// or held by another; a reservation committed only for the owner's lease and the expected
/// mark, never lowering the mark nor leaving it where it is; on a mismatch the stored mark
/// told to the owner (whose earlier answer may have been lost), and only "not owner" to
/// others; a keep-alive renewing to the TTL, an unclaim only with the owner's lease; after
/// a release, the lease gone, the identity free, and the mark outliving it; a claim on a
/// lease gone failing without touching the claims of others.
pub(crate) async fn each_call_answers_as_the_holder_relies_on<F: Fixture>() {
    let fixture = F::fresh();
    let opts = options(3, 3, 10);
    let store = fixture.store(&opts).await;
    let identity = Identity::new(3, 3).unwrap();
    let ttl = Duration::from_secs(10);
    let lease = store.grant(ttl).await.unwrap();
    let other = store.grant(ttl).await.unwrap();
    assert_ne!(lease, other);
    assert_eq!(
        store.claim(identity, lease, "me").await.unwrap(),
        Claim::Won { hwm_ms: 0 }
    );
    assert_eq!(
        store.claim(identity, other, "you").await.unwrap(),
        Claim::Held { by: "me".into() }
    );
    assert_eq!(store.held().await.unwrap(), HashSet::from([identity]));
    let reserve = |lease, expected_ms, new_ms| store.reserve(identity, lease, expected_ms, new_ms);
    // Not the owner's lease: nothing written, not even a hint of the mark.
    assert_eq!(reserve(other, 0, 100).await.unwrap(), Reservation::NotOwner);
    assert_eq!(fixture.mark(identity, &opts).await, 0);
    assert_eq!(
        reserve(lease, 0, 100).await.unwrap(),
        Reservation::Committed
    );
    // Not written over an unexpected mark, below it or above it: the stored one is told.
    for (expected_ms, new_ms) in [(0, 150), (90, 200), (150, 200)] {
        assert_eq!(
            reserve(lease, expected_ms, new_ms).await.unwrap(),
            Reservation::MarkMoved { found_ms: 100 },
            "expecting {expected_ms}"
        );
    }
    // Never lowered nor left where it is, though the expected mark is right.
    for new_ms in [50, 99, 100] {
        assert_eq!(
            reserve(lease, 100, new_ms).await.unwrap(),
            Reservation::MarkMoved { found_ms: 100 },
            "to {new_ms}"
        );
    }
    assert_eq!(
        reserve(lease, 100, 200).await.unwrap(),
        Reservation::Committed
    );
    // As if the answer to 100 -> 200 had been lost: the next call still expects 100.
    assert_eq!(
        reserve(lease, 100, 300).await.unwrap(),
        Reservation::MarkMoved { found_ms: 200 }
    );
    // Another lease is no owner, whatever it expects.
    assert_eq!(
        reserve(other, 200, 300).await.unwrap(),
        Reservation::NotOwner
    );
    assert_eq!(fixture.mark(identity, &opts).await, 200);
    assert_eq!(store.keep_alive(lease).await.unwrap(), Some(ttl));
    // Unclaimed only with the owner's lease.
    store.unclaim(identity, other).await.unwrap();
    assert_eq!(store.held().await.unwrap(), HashSet::from([identity]));
    store.release(lease).await.unwrap();
    assert_eq!(store.keep_alive(lease).await.unwrap(), None);
    assert_eq!(store.held().await.unwrap(), HashSet::new());
    assert_eq!(
        reserve(lease, 200, 300).await.unwrap(),
        Reservation::NotOwner
    );
    // The mark outlives the lease: the next owner starts above it.
    assert_eq!(
        store.claim(identity, other, "you").await.unwrap(),
        Claim::Won { hwm_ms: 200 }
    );
    // A claim on a lease gone fails, and leaves the other holders' claims as they were.
    let gone = store.grant(ttl).await.unwrap();
    store.release(gone).await.unwrap();
    let e = store
        .claim(Identity::new(4, 4).unwrap(), gone, "ghost")
        .await
        .unwrap_err();
    assert_eq!(e.kind(), StoreErrorKind::LeaseGone, "{e}");
    assert_eq!(store.held().await.unwrap(), HashSet::from([identity]));
    store.unclaim(identity, other).await.unwrap();
    assert_eq!(store.held().await.unwrap(), HashSet::new());
    assert_eq!(fixture.mark(identity, &opts).await, 200);
}

/// Eight claimants of one identity at once, each with its own store: one wins, and the
/// others are told who holds it. Eight `auto` claimants at once: eight identities.
pub(crate) async fn claims_are_exclusive<F: Fixture>() {
    let fixture = F::fresh();
    let claimants = (0..8).map(|n| {
        let mut options = options(1, 1, 5);
        options.claim_wait = Duration::from_millis(500);
        options.holder = format!("claimant {n}");
        options
    });
    let mut won = Vec::new();
    for started in start_at_once(&fixture, claimants).await {
        match started {
            Ok(generator) => won.push(generator),
            Err(LeaseError::Held { by, .. }) => assert!(by.starts_with("claimant "), "{by}"),
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(won.len(), 1);
    let autos = (0..8).map(|n| {
        let mut options = LeaseOptions::default();
        options.holder = format!("auto {n}");
        options
    });
    // All alive at once: a dropped one would free its identity for the others.
    let mut holders = Vec::new();
    for started in start_at_once(&fixture, autos).await {
        holders.push(started.unwrap());
    }
    let identities: HashSet<Identity> = holders.iter().map(LeasedGenerator::identity).collect();
    assert_eq!(identities.len(), 8);
    assert!(!identities.contains(&Identity::new(1, 1).unwrap()));
    // The store's own record agrees: the one winner and the eight, each on a live lease.
    assert_eq!(fixture.owners().await, 9);
}

/// A holder started for each of `options` at once, each with its own store: connected
/// first, so that the claims themselves meet.
async fn start_at_once<F: Fixture>(
    fixture: &F,
    options: impl Iterator<Item = LeaseOptions>,
) -> Vec<Result<LeasedGenerator, LeaseError>> {
    let mut claimants = Vec::new();
    for options in options {
        claimants.push((fixture.store(&options).await, options));
    }
    let tasks: Vec<_> = claimants
        .into_iter()
        .map(|(store, options)| tokio::spawn(LeasedGenerator::start(store, options)))
        .collect();
    let mut started = Vec::new();
    for task in tasks {
        started.push(task.await.unwrap());
    }
    started
}

/// A holder whose lease ends behind its back (revoked by another client, deleted by a
/// person cleaning the table) halts at once and, told to stop on a loss, stays stopped.
pub(crate) async fn a_lease_revoked_behind_its_back_halts_the_holder_at_once<F: Fixture>() {
    let fixture = F::fresh();
    let mut options = options(7, 7, 3);
    options.on_loss = OnLoss::Stop;
    let generator = LeasedGenerator::start(fixture.store(&options).await, options.clone())
        .await
        .unwrap();
    assert!(generator.try_next_id().is_ok());
    fixture.end_lease(generator.identity(), &options).await;
    let ended = Instant::now();
    while !matches!(generator.status().state, State::Stopped(_)) {
        assert!(
            ended.elapsed() < Duration::from_secs(2),
            "{:?}",
            generator.status()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(generator.try_next_id().is_err());
    assert_eq!(generator.status().lease_losses, 1);
}

/// The store down and back: the holder issues on into its reserved window, stops by its
/// lease's deadline and issues nothing meanwhile; once the store is back it holds its
/// identity again (claimed anew where the lease ran out), above every ID it issued: the
/// mark survived.
pub(crate) async fn a_store_down_stops_issuing_by_the_lease_then_it_claims_again_above_the_mark<
    F: Fixture,
>() {
    let mut fixture = F::fresh();
    let mut options = options(5, 5, 3);
    options.window = Duration::from_secs(2);
    let generator = LeasedGenerator::start(fixture.store(&options).await, options)
        .await
        .unwrap();
    let mut before = Vec::new();
    for _ in 0..200 {
        before.push(generator.try_next_id().unwrap().as_u64());
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    fixture.take_down();
    let down = Instant::now();
    let (mut last_ok, mut refused_at, mut lost_at) = (None, None, None);
    while down.elapsed() < Duration::from_secs(5) {
        let holding = generator.status().state == State::Holding;
        match generator.try_next_id() {
            // Past its ceiling nothing moves the ceiling while the store is down.
            Ok(id) => {
                assert!(refused_at.is_none(), "{id:?} issued after a refusal");
                last_ok = Some((id, down.elapsed()));
            }
            Err(_) => {
                refused_at.get_or_insert(down.elapsed());
            }
        }
        if !holding {
            lost_at.get_or_insert(down.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    println!("the store down: IDs refused after {refused_at:?}, the lease lost after {lost_at:?}");
    // It issued on into its reserved window, and stopped before the lease ran out.
    let (last, last_ok_at) = last_ok.expect("it issued on after the store went down");
    assert!(last_ok_at >= Duration::from_millis(500), "{last_ok_at:?}");
    assert!(last_ok_at < Duration::from_secs(3), "{last_ok_at:?}");
    // Past the lease's local deadline (a tenth of the TTL before the store's end), the
    // lease counts as lost.
    let lost_at = lost_at.expect("the lease counted as lost");
    assert!(lost_at < Duration::from_secs(4), "{lost_at:?}");
    assert!(generator.try_next_id().is_err());
    fixture.bring_back();
    let back = Instant::now();
    while generator.status().state != State::Holding {
        assert!(
            back.elapsed() < Duration::from_secs(15),
            "{:?}",
            generator.status()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!("the store back: holding again after {:?}", back.elapsed());
    assert_eq!(generator.status().lease_losses, 1);
    assert_eq!(generator.identity(), Identity::new(5, 5).unwrap());
    let id = generator.try_next_id().unwrap();
    assert!(
        id.timestamp_ms() > last.timestamp_ms(),
        "the HWM survived the restart"
    );
    assert!(id.as_u64() > before.iter().max().copied().unwrap());
}

/// Released, the identity is free at once: the next holder, waiting for nobody, claims it
/// and issues above the first's mark.
pub(crate) async fn after_a_release_the_next_holder_claims_at_once_above_the_hwm<F: Fixture>() {
    let fixture = F::fresh();
    let opts = options(6, 6, 10);
    let first = LeasedGenerator::start(fixture.store(&opts).await, opts.clone())
        .await
        .unwrap();
    let last = first.try_next_id().unwrap();
    let hwm = first.status().hwm_ms;
    first.release().await;
    let started = Instant::now();
    let mut second_opts = opts.clone();
    second_opts.claim_wait = Duration::ZERO;
    let second = LeasedGenerator::start(fixture.store(&second_opts).await, second_opts)
        .await
        .unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let next = second.try_next_id().unwrap();
    assert!(next.timestamp_ms() > hwm && next > last);
}

/// A store says which failure it met, not only in words: a claim on a lease it released is
/// an error of kind `LeaseGone` (its message says so too), and leaves the identity free.
pub(crate) async fn a_claim_on_a_lease_gone_is_that_kind_of_error<F: Fixture>() {
    let fixture = F::fresh();
    let opts = options(7, 7, 10);
    let store = fixture.store(&opts).await;
    let gone = store.grant(Duration::from_secs(10)).await.unwrap();
    store.release(gone).await.unwrap();
    let identity = Identity::new(7, 7).unwrap();
    let e = store.claim(identity, gone, "ghost").await.unwrap_err();
    assert_eq!(e.kind(), StoreErrorKind::LeaseGone, "{e}");
    assert!(e.message().contains("not found"), "{e}");
    assert!(!store.held().await.unwrap().contains(&identity));
}

/// A clock behind the mark a predecessor left waits for it, within the bound; beyond the
/// bound, the start fails.
pub(crate) async fn a_clock_behind_waits_within_the_bound_and_fails_beyond_it<F: Fixture>() {
    let fixture = F::fresh();
    // A holder whose clock runs 2 s ahead pushes the HWM about 3 s ahead of ours.
    let ahead = options(4, 4, 5);
    let generator =
        LeasedGenerator::start_with_clock(fixture.store(&ahead).await, ahead.clone(), Offset(2000))
            .await
            .unwrap();
    let hwm = generator.status().hwm_ms;
    generator.release().await;
    let started = Instant::now();
    let ours = LeasedGenerator::start(fixture.store(&ahead).await, ahead.clone())
        .await
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(ours.try_next_id().unwrap().timestamp_ms() > hwm);
    ours.release().await;
    // A clock 10 s ahead: now ours is too far behind.
    let far = LeasedGenerator::start_with_clock(
        fixture.store(&ahead).await,
        ahead.clone(),
        Offset(10_000),
    )
    .await
    .unwrap();
    far.release().await;
    let error = LeasedGenerator::start(fixture.store(&ahead).await, ahead)
        .await
        .unwrap_err();
    assert!(matches!(error, LeaseError::ClockBehind { .. }), "{error}");
}

/// A datacenter's 32 machines go to 32 holders; the 33rd is told the datacenter is full;
/// one lets go, and the next claimant gets exactly that machine.
pub(crate) async fn a_datacenter_of_32_machines_then_a_33rd<F: Fixture>() {
    let fixture = F::fresh();
    let mut options = LeaseOptions::default().in_datacenter(5).unwrap();
    options.ttl = Duration::from_secs(5);
    options.window = Duration::from_secs(1);
    options.claim_wait = Duration::ZERO;
    let store = fixture.store(&options).await;
    let mut holders = Vec::new();
    for _ in 0..32 {
        let generator = Box::pin(LeasedGenerator::start(store.clone(), options.clone()))
            .await
            .unwrap();
        holders.push(generator);
    }
    let machines: HashSet<u8> = holders
        .iter()
        .map(|h| {
            assert_eq!(h.identity().datacenter(), 5);
            h.identity().machine()
        })
        .collect();
    assert_eq!(machines.len(), 32);
    let full = Box::pin(LeasedGenerator::start(store.clone(), options.clone())).await;
    assert_eq!(
        full.unwrap_err(),
        LeaseError::DatacenterFull { datacenter: 5 }
    );
    let freed = holders.swap_remove(9);
    let identity = freed.identity();
    freed.release().await;
    let next = Box::pin(LeasedGenerator::start(store.clone(), options))
        .await
        .unwrap();
    assert_eq!(next.identity(), identity);
    next.release().await;
    for holder in holders {
        holder.release().await;
    }
}
