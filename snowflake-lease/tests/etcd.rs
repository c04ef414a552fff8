//! The leased generator against a real etcd on loopback (Debian's `etcd-server`),
//! each test with its own server. Holders in other processes, so that they can be
//! killed and stopped, run the crate's `snowflake-lease-holder` binary.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use snowflake_kit::{Clock, SystemClock};
use snowflake_lease::harness::Etcd;
use snowflake_lease::{EtcdStore, Identity, LeaseError, LeaseOptions, LeasedGenerator, State};

use crate::support::{HolderProcess, TestHost};

mod support;

fn options(dc: u64, machine: u64, ttl_secs: u64) -> LeaseOptions {
    let mut options = LeaseOptions::default().exact(Identity::new(dc, machine).unwrap());
    options.ttl = Duration::from_secs(ttl_secs);
    options.window = Duration::from_secs(1);
    options
}

async fn store(etcd: &Etcd, options: &LeaseOptions) -> EtcdStore {
    EtcdStore::connect(&etcd.endpoint(), options).await.unwrap()
}

/// The system clock moved by a fixed offset: a host whose clock is off.
#[derive(Clone)]
struct Offset(i64);

impl Clock for Offset {
    fn now_ms(&self) -> u64 {
        SystemClock.now_ms().checked_add_signed(self.0).unwrap()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn claims_are_exclusive() {
    let etcd = Etcd::start();
    // Eight claimants of one fixed identity at once: exactly one wins.
    let mut tasks = Vec::new();
    for n in 0..8 {
        let endpoint = etcd.endpoint();
        tasks.push(tokio::spawn(async move {
            let mut options = options(1, 1, 5);
            options.claim_wait = Duration::from_millis(500);
            options.holder = format!("claimant {n}");
            let store = EtcdStore::connect(&endpoint, &options).await.unwrap();
            LeasedGenerator::start(store, options).await
        }));
    }
    let mut won = Vec::new();
    for task in tasks {
        match task.await.unwrap() {
            Ok(generator) => won.push(generator),
            Err(LeaseError::Held { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(won.len(), 1);
    // Eight `auto` claimants at once: eight different identities.
    let mut tasks = Vec::new();
    for n in 0..8 {
        let endpoint = etcd.endpoint();
        tasks.push(tokio::spawn(async move {
            let mut options = LeaseOptions::default();
            options.holder = format!("auto {n}");
            let store = EtcdStore::connect(&endpoint, &options).await.unwrap();
            LeasedGenerator::start(store, options).await.unwrap()
        }));
    }
    // All alive at once: a dropped one would free its identity for the others.
    let mut holders = Vec::new();
    for task in tasks {
        holders.push(task.await.unwrap());
    }
    let identities: HashSet<Identity> = holders.iter().map(LeasedGenerator::identity).collect();
    assert_eq!(identities.len(), 8);
    assert!(!identities.contains(&Identity::new(1, 1).unwrap()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn a_killed_holder_frees_its_identity_within_the_ttl() {
    let etcd = Etcd::start();
    let holder = HolderProcess::start(&etcd.endpoint(), 2, 2, 2, 60);
    tokio::time::sleep(Duration::from_millis(500)).await;
    holder.signal("-KILL");
    let killed = Instant::now();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let last = *holder.ids().iter().max().unwrap();
    let mut options = options(2, 2, 2);
    options.claim_wait = Duration::from_secs(10);
    let generator = LeasedGenerator::start(store(&etcd, &options).await, options)
        .await
        .unwrap();
    let freed_after = killed.elapsed();
    assert!(freed_after < Duration::from_secs(4), "{freed_after:?}");
    let first = generator.try_next_id().unwrap();
    assert!(
        first.timestamp_ms()
            > snowflake_kit::Snowflake::from_u64(last)
                .unwrap()
                .timestamp_ms()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn a_paused_holder_issues_nothing_its_successor_can_issue() {
    let etcd = Etcd::start();
    let holder = HolderProcess::start(&etcd.endpoint(), 3, 3, 2, 12);
    tokio::time::sleep(Duration::from_millis(500)).await;
    holder.signal("-STOP");
    let mut before = holder.ids();
    // Past its TTL: the identity frees, and a successor takes it and issues.
    let mut options = options(3, 3, 2);
    options.claim_wait = Duration::from_secs(10);
    // Its clock 1.5 s behind: without the fence its first IDs would fall among the paused holder's.
    let successor =
        LeasedGenerator::start_with_clock(store(&etcd, &options).await, options, Offset(-1500))
            .await
            .unwrap();
    let mut theirs = Vec::new();
    let resume_at = Instant::now() + Duration::from_secs(1);
    let mut resumed = false;
    let until = Instant::now() + Duration::from_secs(4);
    while Instant::now() < until {
        if !resumed && Instant::now() >= resume_at {
            holder.signal("-CONT");
            resumed = true;
        }
        if let Ok(id) = successor.try_next_id() {
            theirs.push(id.as_u64());
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // Let the woken holder try for a while.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (after, refused) = holder.output();
    assert!(refused > 0, "the woken holder was never refused");
    let successor_first = theirs[0];
    let paused_last = before.iter().max().copied().unwrap();
    assert!(
        successor_first > paused_last,
        "the successor started above the paused holder"
    );
    // What the paused holder issued after waking is below everything the successor issues.
    for id in &after {
        assert!(
            *id < successor_first,
            "{id} issued after the pause, not below {successor_first}"
        );
    }
    before.extend(after);
    let mut all: Vec<u64> = before.iter().chain(&theirs).copied().collect();
    let count = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), count, "a duplicate across the two processes");
    assert!(theirs.len() > 100 && !before.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn a_clock_behind_waits_within_the_bound_and_fails_beyond_it() {
    let etcd = Etcd::start();
    // A holder whose clock runs 2 s ahead pushes the HWM about 3 s ahead of ours.
    let ahead = options(4, 4, 5);
    let generator =
        LeasedGenerator::start_with_clock(store(&etcd, &ahead).await, ahead.clone(), Offset(2000))
            .await
            .unwrap();
    let hwm = generator.status().hwm_ms;
    generator.release().await;
    let started = Instant::now();
    let ours = LeasedGenerator::start(store(&etcd, &ahead).await, ahead.clone())
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
        store(&etcd, &ahead).await,
        ahead.clone(),
        Offset(10_000),
    )
    .await
    .unwrap();
    far.release().await;
    let error = LeasedGenerator::start(store(&etcd, &ahead).await, ahead)
        .await
        .unwrap_err();
    assert!(matches!(error, LeaseError::ClockBehind { .. }), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn etcd_down_stops_issuing_by_the_lease_and_the_hwm_survives_a_restart() {
    let mut etcd = Etcd::start();
    let mut opts = options(5, 5, 3);
    opts.window = Duration::from_secs(2);
    let generator = Arc::new(
        LeasedGenerator::start(store(&etcd, &opts).await, opts.clone())
            .await
            .unwrap(),
    );
    let last_ok = Arc::new(AtomicU64::new(0));
    etcd.kill();
    let killed = Instant::now();
    let mut last_ok_at = Duration::ZERO;
    while killed.elapsed() < Duration::from_secs(5) {
        if let Ok(id) = generator.try_next_id() {
            last_ok.store(id.timestamp_ms(), Ordering::SeqCst);
            last_ok_at = killed.elapsed();
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // It issued on into its reserved window, and stopped before the lease ran out.
    assert!(last_ok_at >= Duration::from_millis(500), "{last_ok_at:?}");
    assert!(last_ok_at < Duration::from_secs(3), "{last_ok_at:?}");
    assert!(generator.try_next_id().is_err());
    let last = last_ok.load(Ordering::SeqCst);
    etcd.restart();
    let deadline = Instant::now() + Duration::from_secs(15);
    while generator.status().state != State::Holding {
        assert!(Instant::now() < deadline, "{:?}", generator.status());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(generator.status().lease_losses, 1);
    let id = generator.try_next_id().unwrap();
    assert!(id.timestamp_ms() > last, "the HWM survived the restart");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn after_a_release_the_next_holder_claims_at_once_above_the_hwm() {
    let etcd = Etcd::start();
    let opts = options(6, 6, 10);
    let first = LeasedGenerator::start(store(&etcd, &opts).await, opts.clone())
        .await
        .unwrap();
    let last = first.try_next_id().unwrap();
    let hwm = first.status().hwm_ms;
    first.release().await;
    let started = Instant::now();
    let mut second_opts = opts.clone();
    second_opts.claim_wait = Duration::ZERO;
    let second = LeasedGenerator::start(store(&etcd, &second_opts).await, second_opts)
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_endpoints_and_silence_are_clear_errors() {
    let options = LeaseOptions::default();
    for (endpoint, reason) in [
        ("ftp://127.0.0.1:2379", "scheme `ftp`"),
        (
            "https://127.0.0.1:2379",
            "https:// members need the CA certificate",
        ),
        (
            "http://127.0.0.1:2379,https://127.0.0.1:2380",
            "mix http:// and https://",
        ),
        ("127.0.0.1", "expected host:port"),
        ("http://127.0.0.1:0", "port"),
        ("http://bad host:1", "host"),
    ] {
        let error = EtcdStore::connect(endpoint, &options).await.unwrap_err();
        assert!(
            matches!(&error, LeaseError::InvalidEndpoint { .. }),
            "{error}"
        );
        let text = error.to_string();
        assert!(text.contains(endpoint) && text.contains(reason), "{text}");
    }
    let mut bad_prefix = LeaseOptions::default();
    bad_prefix.prefix = "no-slash".to_owned();
    assert_eq!(
        EtcdStore::connect("http://127.0.0.1:2379", &bad_prefix)
            .await
            .unwrap_err(),
        LeaseError::InvalidPrefix("no-slash".to_owned())
    );
    // Nobody listens there: it fails after the connect timeout, naming the address.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut quick = LeaseOptions::default();
    quick.connect_timeout = Duration::from_millis(500);
    let started = Instant::now();
    let error = EtcdStore::connect(&format!("127.0.0.1:{port}"), &quick)
        .await
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(
        error.to_string().starts_with(&format!(
            "cannot reach etcd at http://127.0.0.1:{port} (giving up after 500ms): "
        )),
        "{error}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn a_lease_revoked_behind_its_back_halts_the_holder_at_once() {
    let etcd = Etcd::start();
    let mut opts = options(7, 7, 3);
    opts.on_loss = snowflake_lease::OnLoss::Stop;
    let generator = LeasedGenerator::start(store(&etcd, &opts).await, opts.clone())
        .await
        .unwrap();
    assert!(generator.try_next_id().is_ok());
    // Another client revokes the lease on the owner key.
    let mut client = etcd_client::Client::connect([etcd.endpoint()], None)
        .await
        .unwrap();
    let owner = client
        .get(format!("{}/owner/07/07", opts.prefix), None)
        .await
        .unwrap();
    let lease = owner.kvs()[0].lease();
    client.lease_revoke(lease).await.unwrap();
    let revoked = Instant::now();
    while !matches!(generator.status().state, State::Stopped(_)) {
        assert!(
            revoked.elapsed() < Duration::from_secs(2),
            "{:?}",
            generator.status()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(generator.try_next_id().is_err());
    assert_eq!(generator.status().lease_losses, 1);
}

/// The store's calls on a real etcd: the reservation commits only for the owner's lease
/// and the expected mark, never lowers the mark, and on a mismatch tells the stored mark
/// to the owner (whose earlier answer may have been lost) and only "not owner" to others;
/// one read tells who holds what.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn the_store_on_etcd_answers_as_the_holder_expects() {
    use snowflake_lease::{Claim, Reservation, Store};

    let etcd = Etcd::start();
    let opts = options(3, 3, 5);
    let store = store(&etcd, &opts).await;
    let identity = Identity::new(3, 3).unwrap();
    let ttl = Duration::from_secs(5);
    let lease = store.grant(ttl).await.unwrap();
    assert_eq!(
        store.claim(identity, lease, "me").await.unwrap(),
        Claim::Won { hwm_ms: 0 }
    );
    let reserve = |lease, expected_ms, new_ms| store.reserve(identity, lease, expected_ms, new_ms);
    assert_eq!(
        reserve(lease, 0, 100).await.unwrap(),
        Reservation::Committed
    );
    assert_eq!(
        reserve(lease, 100, 200).await.unwrap(),
        Reservation::Committed
    );
    // As if the answer to 100 -> 200 had been lost: the next call still expects 100.
    assert_eq!(
        reserve(lease, 100, 300).await.unwrap(),
        Reservation::MarkMoved { found_ms: 200 }
    );
    assert_eq!(
        reserve(lease, 0, 300).await.unwrap(),
        Reservation::MarkMoved { found_ms: 200 }
    );
    // Never lowered, even when the expected mark is right.
    assert_eq!(
        reserve(lease, 200, 150).await.unwrap(),
        Reservation::MarkMoved { found_ms: 200 }
    );
    let other = store.grant(ttl).await.unwrap();
    assert_eq!(
        reserve(other, 200, 300).await.unwrap(),
        Reservation::NotOwner
    );
    // One read of who holds what: this identity, and nothing from keys of another shape.
    let mut client = etcd_client::Client::connect([etcd.endpoint()], None)
        .await
        .unwrap();
    client
        .put(format!("{}/owner/not-an-identity", opts.prefix), "x", None)
        .await
        .unwrap();
    assert_eq!(store.held().await.unwrap(), HashSet::from([identity]));
    store.release(lease).await.unwrap();
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
    // A mark nobody can read is no fence to build on: the owner is told to stop.
    client
        .put(format!("{}/hwm/03/03", opts.prefix), "garbage", None)
        .await
        .unwrap();
    assert_eq!(
        reserve(other, 200, 300).await.unwrap(),
        Reservation::NotOwner
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn a_datacenter_of_32_machines_then_a_33rd() {
    let etcd = Etcd::start();
    let mut options = LeaseOptions::default().in_datacenter(5).unwrap();
    options.ttl = Duration::from_secs(5);
    options.window = Duration::from_secs(1);
    options.claim_wait = Duration::ZERO;
    let store = store(&etcd, &options).await;
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

/// A holder cut off from etcd by a partition (it keeps running, and keeps being asked
/// for IDs) stops by the end of its lease; a successor takes over; the two never issue in
/// the same millisecond. Healed, the first issues nothing until it holds the identity
/// again, above the successor's mark.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd, and root with iproute2 for a network namespace: bash scripts/test.sh installs them"]
async fn a_partitioned_holder_stops_and_comes_back_above_its_successor() {
    let host = TestHost::make();
    let etcd = Etcd::on_hosts(1, false, &[&host.here]);
    let wrapper = ["ip", "netns", "exec", host.namespace.as_str()];
    let far = etcd.endpoint_on(0, &host.here);
    let cut_off = HolderProcess::start_in(&wrapper, &far, 6, 6, 3, 30);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = cut_off.ids();
    assert!(before.len() > 100, "{}", before.len());

    host.link(false);
    let cut = Instant::now();
    let mut options = options(6, 6, 3);
    options.claim_wait = Duration::from_secs(20);
    let successor = LeasedGenerator::start(store(&etcd, &options).await, options)
        .await
        .unwrap();
    let mut theirs = Vec::new();
    while theirs.is_empty() {
        if let Ok(id) = successor.try_next_id() {
            theirs.push(id.as_u64());
        }
    }
    let took_over = cut.elapsed();
    println!("from the partition until the successor issues: {took_over:?}");
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        if let Ok(id) = successor.try_next_id() {
            theirs.push(id.as_u64());
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let (during, refused) = cut_off.output();
    assert!(refused > 0, "the cut-off holder was never refused");
    let ms = |ids: &[u64]| -> HashSet<u64> {
        ids.iter()
            .map(|&id| {
                snowflake_kit::Snowflake::from_u64(id)
                    .unwrap()
                    .timestamp_ms()
            })
            .collect()
    };
    let (mine, successors) = (ms(&[before, during].concat()), ms(&theirs));
    assert!(
        mine.is_disjoint(&successors),
        "the two issued in the same millisecond"
    );
    // Stopped by its lease's end as etcd counts it: before the successor began.
    assert!(mine.iter().max() < successors.iter().min());

    host.link(true);
    // Healed, it finds its lease gone and the identity held: nothing issued.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (healed, _) = cut_off.output();
    assert!(
        healed.is_empty(),
        "{} IDs while another held it",
        healed.len()
    );
    let successor_last = *successors.iter().max().unwrap();
    successor.release().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut again = Vec::new();
    while again.len() < 100 {
        assert!(Instant::now() < deadline, "it never came back");
        again.extend(cut_off.ids());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        ms(&again).iter().all(|&ms| ms > successor_last),
        "it came back at or below the successor's last millisecond"
    );
}

/// A high-water mark written by hand as `999` (not 13 zero-padded digits, so the
/// reservations' string comparisons cannot fence with it) is refused once, naming the
/// key: at a start, and by a holder whose mark is overwritten, which stops instead of
/// retrying for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs etcd: bash scripts/test.sh installs it"]
async fn a_mark_written_by_hand_is_refused_once_naming_its_key() {
    let etcd = Etcd::start();
    let mut client = etcd_client::Client::connect([etcd.endpoint()], None)
        .await
        .unwrap();
    let key = "/snowflake-kit/v1/default/hwm/09/09";
    client.put(key, "999", None).await.unwrap();
    let error = LeasedGenerator::start(store(&etcd, &options(9, 9, 3)).await, options(9, 9, 3))
        .await
        .unwrap_err();
    assert!(matches!(error, LeaseError::BadMark { .. }), "{error}");
    assert!(
        error.to_string().starts_with(&format!(
            "the high-water mark of identity 09/09 at {key} is \"999\", not 13 zero-padded digits"
        )),
        "{error}"
    );
    // Let go at once: the owner key is not left to its TTL.
    let owners = client
        .get("/snowflake-kit/v1/default/owner/09/09", None)
        .await
        .unwrap();
    assert!(owners.kvs().is_empty());

    let holder =
        LeasedGenerator::start(store(&etcd, &options(10, 10, 3)).await, options(10, 10, 3))
            .await
            .unwrap();
    client
        .put("/snowflake-kit/v1/default/hwm/10/10", "999", None)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let state = holder.status().state;
        if let State::Stopped(snowflake_lease::Loss::Unclaimable(LeaseError::BadMark {
            key,
            text,
            ..
        })) = &state
        {
            assert_eq!(
                (key.as_str(), text.as_str()),
                ("/snowflake-kit/v1/default/hwm/10/10", "999")
            );
            break;
        }
        assert!(Instant::now() < deadline, "{state}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(holder.try_next_id().is_err());
}
