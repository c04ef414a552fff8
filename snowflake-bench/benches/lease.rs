//! The leased generator beside the plain one, in one run, and the lease's timings
//! against a real etcd on loopback.
//!
//! `cargo bench -p snowflake-bench --bench lease` prints:
//! - `try_next_id` of a `LeasedGenerator` against `Generator::try_next_id`: the cost
//!   of one call in a burst of 4,096 right after a millisecond boundary, median of
//!   301, the two taking turns (the bar: at most 1.1x);
//! - the time to claim an identity from etcd, and the time from a holder's crash
//!   (its process gone: no keep-alive, no release) until another holds the
//!   identity (its lease running out, then the wait for the clock to pass the
//!   high-water mark it left, at most the 1 s window), both against the TTL;
//! - the time for `auto` to claim one of the 24 identities left free by a fleet holding
//!   1,000, spread over the 1,024: with the one read of who holds what, against a store
//!   that hides it (the scan then claims identity after identity, as it did before).
//!   Needs `etcd` (Debian: etcd-server).

use std::hint::black_box;
use std::time::{Duration, Instant};

use snowflake_bench::{BURST, burst_medians, median};
use snowflake_lease::harness::Etcd;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use snowflake_lease::{
    Claim, EtcdStore, Identity, LeaseId, LeaseOptions, LeasedGenerator, MemStore, Reservation,
    Store, StoreError,
};

const BURSTS: usize = 301;

/// A fixed identity, `index` of the 1,024.
fn options(ttl: Duration, index: u16) -> LeaseOptions {
    let mut options = LeaseOptions::default().fixed(Identity::from_index(index));
    options.ttl = ttl;
    options.window = Duration::from_secs(1);
    options.claim_wait = ttl * 3;
    options
}

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("run with `cargo bench -p snowflake-bench --bench lease`");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");

    hot_path(&runtime);
    etcd_timings(&runtime);
}

/// The same generator, with and without the lease around it.
fn hot_path(runtime: &tokio::runtime::Runtime) {
    let plain = snowflake_kit::Generator::new(1, 1).expect("in range");
    let leased = runtime
        .block_on(LeasedGenerator::start(
            MemStore::new(),
            options(Duration::from_secs(10), 0),
        ))
        .expect("a lease on the memory store");
    let plain_burst = || {
        for _ in 0..BURST {
            let _ = black_box(plain.try_next_id());
        }
    };
    let leased_burst = || {
        for _ in 0..BURST {
            let _ = black_box(leased.try_next_id());
        }
    };
    let ns = burst_medians(&[&plain_burst, &leased_burst], BURSTS);
    assert_eq!(
        leased.status().refusals,
        0,
        "every call of the bench was issued"
    );
    println!("| `try_next_id` | ns per call in a burst | ratio |");
    println!("| --- | ---: | ---: |");
    println!("| `Generator` | {:.1} | 1.00 |", ns[0]);
    println!(
        "| `LeasedGenerator` | {:.1} | {:.2} |",
        ns[1],
        ns[1] / ns[0]
    );
    println!(
        "\nbar: leased at most 1.1x the plain generator: {}\n",
        if ns[1] <= 1.1 * ns[0] {
            "met"
        } else {
            "NOT MET"
        }
    );
}

/// Claim and takeover against a real etcd.
fn etcd_timings(runtime: &tokio::runtime::Runtime) {
    // Without etcd this panics, saying what to install.
    let etcd = Etcd::start();
    let endpoint = etcd.endpoint();
    println!("| against etcd on loopback | TTL | median | as a share of the TTL |");
    println!("| --- | ---: | ---: | ---: |");
    for ttl_secs in [2, 5] {
        let ttl = Duration::from_secs(ttl_secs);
        let runs: u64 = if ttl_secs == 2 { 5 } else { 3 };
        let mut claims = Vec::new();
        let mut takeovers = Vec::new();
        for run in 0..runs {
            // A fresh identity each run: claiming it waits for no high-water mark.
            let index = u16::try_from(ttl_secs * 10 + run).expect("small");
            // The first holder, on a runtime of its own that is then dropped: its
            // keep-alives stop and it never releases, as if its process were killed.
            let crashed = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            let started = Instant::now();
            let first = crashed.block_on(async {
                let store = EtcdStore::connect(&endpoint, &options(ttl, index))
                    .await
                    .expect("etcd");
                LeasedGenerator::start(store, options(ttl, index))
                    .await
                    .expect("a claim")
            });
            claims.push(started.elapsed());
            std::mem::forget(first);
            crashed.shutdown_background();
            let crashed_at = Instant::now();
            let second = runtime.block_on(async {
                let store = EtcdStore::connect(&endpoint, &options(ttl, index))
                    .await
                    .expect("etcd");
                LeasedGenerator::start(store, options(ttl, index))
                    .await
                    .expect("a takeover")
            });
            takeovers.push(crashed_at.elapsed());
            runtime.block_on(second.release());
        }
        let claim = median(claims);
        let takeover = median(takeovers);
        println!(
            "| claim an identity | {ttl_secs} s | {:.1} ms | {:.2}% |",
            claim.as_secs_f64() * 1e3,
            100.0 * claim.as_secs_f64() / ttl.as_secs_f64()
        );
        println!(
            "| a holder crashes, until another holds it | {ttl_secs} s | {:.0} ms | {:.0}% |",
            takeover.as_secs_f64() * 1e3,
            100.0 * takeover.as_secs_f64() / ttl.as_secs_f64()
        );
    }
    auto_in_a_fleet(runtime, &endpoint);
}

/// A store that does not say who holds what: `auto` claims one identity after another.
/// It counts the claims.
struct Hidden(EtcdStore, Arc<AtomicUsize>);

impl Store for Hidden {
    async fn grant(&self, ttl: Duration) -> Result<LeaseId, StoreError> {
        self.0.grant(ttl).await
    }

    async fn claim(
        &self,
        identity: Identity,
        lease: LeaseId,
        holder: &str,
    ) -> Result<Claim, StoreError> {
        self.1.fetch_add(1, Ordering::Relaxed);
        self.0.claim(identity, lease, holder).await
    }

    async fn unclaim(&self, identity: Identity, lease: LeaseId) -> Result<(), StoreError> {
        self.0.unclaim(identity, lease).await
    }

    async fn keep_alive(&self, lease: LeaseId) -> Result<Option<Duration>, StoreError> {
        self.0.keep_alive(lease).await
    }

    async fn reserve(
        &self,
        identity: Identity,
        lease: LeaseId,
        expected_ms: u64,
        new_ms: u64,
    ) -> Result<Reservation, StoreError> {
        self.0.reserve(identity, lease, expected_ms, new_ms).await
    }

    async fn release(&self, lease: LeaseId) -> Result<(), StoreError> {
        self.0.release(lease).await
    }
}

/// `auto` in a fleet of 1,000 holders: with the one read, and without.
fn auto_in_a_fleet(runtime: &tokio::runtime::Runtime, endpoint: &str) {
    let mut options = LeaseOptions::default();
    options.window = Duration::from_millis(100);
    // Every 43rd identity free: 24 of them, spread over the 1,024.
    let free: HashSet<u16> = (0..Identity::COUNT).step_by(43).take(24).collect();
    let fleet = runtime.block_on(async {
        let store = EtcdStore::connect(endpoint, &options).await.expect("etcd");
        let lease = store.grant(Duration::from_mins(10)).await.expect("a lease");
        for index in (0..Identity::COUNT).filter(|index| !free.contains(index)) {
            let claim = store.claim(Identity::from_index(index), lease, "fleet");
            assert!(matches!(claim.await, Ok(Claim::Won { .. })));
        }
        (store, lease)
    });
    let mut times = [Vec::new(), Vec::new()];
    let claims = Arc::new(AtomicUsize::new(0));
    for _ in 0..5 {
        for (hide, times) in [false, true].into_iter().zip(&mut times) {
            let started = Instant::now();
            let generator = runtime.block_on(async {
                let store = EtcdStore::connect(endpoint, &options).await.expect("etcd");
                let generator = if hide {
                    claims.store(0, Ordering::Relaxed);
                    LeasedGenerator::start(Hidden(store, Arc::clone(&claims)), options.clone())
                        .await
                } else {
                    LeasedGenerator::start(store, options.clone()).await
                };
                generator.expect("a free identity")
            });
            times.push(started.elapsed());
            assert!(free.contains(&generator.identity().index()));
            runtime.block_on(generator.release());
            // Past the mark it left (the window ahead), so that every run finds the
            // fleet as the first did: the same free identity, no mark to wait for.
            std::thread::sleep(options.window * 2);
        }
    }
    let [read, scan] = times.map(median);
    println!(
        "| `auto` claims in a fleet holding 1,000 of 1,024 | 10 s | {:.1} ms | {:.2}% (claim by claim, {} claims from this host's start: {:.1} ms) |",
        read.as_secs_f64() * 1e3,
        100.0 * read.as_secs_f64() / 10.0,
        claims.load(Ordering::Relaxed),
        scan.as_secs_f64() * 1e3,
    );
    let (store, lease) = fleet;
    runtime.block_on(store.release(lease)).expect("released");
}
