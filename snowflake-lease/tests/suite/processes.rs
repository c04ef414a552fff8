//! The scenarios with a holder in a process of its own (`snowflake-lease-holder`), which
//! the test kills, stops, or cuts off from the store.

use std::time::{Duration, Instant};

use snowflake_kit::Snowflake;
use snowflake_lease::LeasedGenerator;

use super::{Offset, Processes, millis, options};
use crate::support::{HolderProcess, TestHost};

/// Where holder processes on this host reach the store.
const LOOPBACK: &str = "127.0.0.1";

/// SIGKILL: the identity is free once the lease ends at the store (2 s), and the next
/// holder starts above everything the killed one printed, read to its last line.
pub(crate) async fn a_killed_holder_frees_its_identity_within_the_ttl<F: Processes>() {
    let fixture = F::fresh();
    let mut holder = HolderProcess::start(&fixture.url_on(LOOPBACK), 2, 2, 2, 60);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let killed = Instant::now();
    let last = *holder.kill().iter().max().unwrap();
    let mut options = options(2, 2, 2);
    options.claim_wait = Duration::from_secs(10);
    let generator = LeasedGenerator::start(fixture.store(&options).await, options)
        .await
        .unwrap();
    let first = generator.try_next_id().unwrap();
    let took_over = killed.elapsed();
    println!("takeover after SIGKILL (TTL 2 s): {took_over:?}");
    // Its lease's end at the store (at most the TTL after the kill), then the claim and
    // the wait for the clock to pass the mark it left (the window, which runs meanwhile).
    assert!(took_over < Duration::from_millis(3500), "{took_over:?}");
    assert!(first.timestamp_ms() > Snowflake::try_from_u64(last).unwrap().timestamp_ms());
}

/// SIGSTOP past the lease: the successor, its clock behind, takes the identity and issues
/// above the mark; woken, the paused holder issues nothing in the successor's
/// milliseconds and is refused.
pub(crate) async fn a_paused_holder_issues_nothing_its_successor_can_issue<F: Processes>() {
    let fixture = F::fresh();
    let holder = HolderProcess::start(&fixture.url_on(LOOPBACK), 3, 3, 2, 12);
    tokio::time::sleep(Duration::from_millis(500)).await;
    holder.signal("-STOP");
    let mut before = holder.ids();
    // Past its TTL: the identity frees, and a successor takes it and issues.
    let mut options = options(3, 3, 2);
    options.claim_wait = Duration::from_secs(10);
    // Its clock 1.5 s behind: without the fence its first IDs would fall among the paused holder's.
    let successor =
        LeasedGenerator::start_with_clock(fixture.store(&options).await, options, Offset(-1500))
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
    let (mine, successors) = (millis(&before), millis(&theirs));
    assert!(
        mine.is_disjoint(&successors),
        "the two issued in one millisecond"
    );
    assert!(theirs.len() > 100 && !before.is_empty());
}

/// A holder cut off from the store by a partition (it keeps running, and keeps being asked
/// for IDs) stops by the end of its lease; a successor takes over; the two never issue in
/// the same millisecond. Healed, the first issues nothing until it holds the identity
/// again, above the successor's mark.
pub(crate) async fn a_partitioned_holder_stops_and_comes_back_above_its_successor<F: Processes>() {
    let host = TestHost::make();
    let fixture = F::start_on(&host.here);
    let wrapper = ["ip", "netns", "exec", host.namespace.as_str()];
    let cut_off = HolderProcess::start_in(&wrapper, &fixture.url_on(&host.here), 6, 6, 3, 30);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = cut_off.ids();
    assert!(before.len() > 100, "{}", before.len());

    host.link(false);
    let cut = Instant::now();
    let mut options = options(6, 6, 3);
    options.claim_wait = Duration::from_secs(20);
    let successor = LeasedGenerator::start(fixture.store(&options).await, options)
        .await
        .unwrap();
    let mut theirs = Vec::new();
    while theirs.is_empty() {
        if let Ok(id) = successor.try_next_id() {
            theirs.push(id.as_u64());
        }
    }
    println!(
        "from the partition until the successor issues: {:?}",
        cut.elapsed()
    );
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        if let Ok(id) = successor.try_next_id() {
            theirs.push(id.as_u64());
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    let (during, refused) = cut_off.output();
    assert!(refused > 0, "the cut-off holder was never refused");
    let (mine, successors) = (millis(&[before, during].concat()), millis(&theirs));
    assert!(
        mine.is_disjoint(&successors),
        "the two issued in one millisecond"
    );
    // Stopped by its lease's end as the store counts it: before the successor began.
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
    let released = Instant::now();
    let deadline = released + Duration::from_secs(10);
    let mut again = Vec::new();
    while again.len() < 100 {
        assert!(Instant::now() < deadline, "it never came back");
        again.extend(cut_off.ids());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "from the successor's release until 100 IDs of the healed holder: {:?}",
        released.elapsed()
    );
    assert!(
        millis(&again).iter().all(|&ms| ms > successor_last),
        "it came back at or below the successor's last millisecond"
    );
}
