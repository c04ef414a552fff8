//! The leased generator beside the plain one, in one run, and the lease's timings
//! against a real etcd and a real PostgreSQL on loopback, side by side.
//!
//! `cargo bench -p snowflake-bench --bench lease` prints:
//! - `try_next_id` of a `LeasedGenerator` (on the memory store, on etcd, on PostgreSQL)
//!   against `Generator::try_next_id`: the cost of one call in a burst of 4,096 right
//!   after a millisecond boundary, median of 301, all taking turns (the bar: at most 1.1x);
//! - each store call the holder makes (claim, keep-alive, reservation), on etcd and on
//!   PostgreSQL in one run: median and 99th percentile of 500, the two taking turns;
//! - the time to claim an identity, and the time from a holder's crash (its process
//!   gone: no keep-alive, no release) until another holds the identity (its lease running
//!   out, then the wait for the clock to pass the high-water mark it left, at most the 1 s
//!   window), both against the TTL, on each store;
//! - the time for `auto` to claim one of the 24 identities left free by a fleet holding
//!   1,000, spread over the 1,024: with the one read of who holds what, against a store
//!   that hides it (the scan then claims identity after identity, as it did before).
//!   Needs `etcd` (Debian: etcd-server) and PostgreSQL (Debian: postgresql).

use std::hint::black_box;
use std::time::{Duration, Instant};

use snowflake_bench::{BURST, burst_medians, median};
use snowflake_test_support::{Etcd, Postgres};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use snowflake_lease::{
    Claim, EtcdStore, Identity, LeaseId, LeaseOptions, LeasedGenerator, MemStore, PgConfig,
    PgStore, Reservation, Store, StoreError,
};

/// A store to run the same timings on.
enum Backend {
    Etcd(String),
    Postgres(String),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Etcd(_) => "etcd",
            Backend::Postgres(_) => "PostgreSQL",
        }
    }

    /// A generator leasing with `options` from this store.
    async fn start(&self, options: LeaseOptions) -> LeasedGenerator {
        match self {
            Backend::Etcd(endpoint) => {
                let store = EtcdStore::connect(endpoint, &options).await.expect("etcd");
                LeasedGenerator::start(store, options)
                    .await
                    .expect("a claim")
            }
            Backend::Postgres(url) => {
                let config = PgConfig::new(url).expect("a URL");
                let store = PgStore::connect(config, &options)
                    .await
                    .expect("PostgreSQL");
                LeasedGenerator::start(store, options)
                    .await
                    .expect("a claim")
            }
        }
    }
}

const BURSTS: usize = 301;

/// An exact identity, `index` of the 1,024.
fn options(ttl: Duration, index: u16) -> LeaseOptions {
    let mut options = LeaseOptions::default()
        .exact(Identity::try_from_index(index).expect("an index below 1,024"));
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

    // Without etcd or PostgreSQL these panic, saying what to install.
    let (etcd, pg) = (Etcd::start(), Postgres::start());
    let backends = [Backend::Etcd(etcd.endpoint()), Backend::Postgres(pg.url())];
    hot_path(&runtime, &backends);
    store_calls(&runtime, &backends);
    println!("| on loopback | TTL | median | as a share of the TTL |");
    println!("| --- | ---: | ---: | ---: |");
    for backend in &backends {
        timings(&runtime, backend);
    }
    auto_in_a_fleet(&runtime, &etcd.endpoint());
}

/// The same generator, without the lease around it and with it, on each store.
fn hot_path(runtime: &tokio::runtime::Runtime, backends: &[Backend]) {
    let plain =
        snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1).expect("in range"));
    let mut leased = vec![(
        "memory",
        runtime
            .block_on(LeasedGenerator::start(
                MemStore::new(),
                options(Duration::from_secs(10), 0),
            ))
            .expect("a lease on the memory store"),
    )];
    for (n, backend) in (1..).zip(backends) {
        let generator = runtime.block_on(backend.start(options(Duration::from_secs(10), n)));
        leased.push((backend.name(), generator));
    }
    let plain_burst = || {
        for _ in 0..BURST {
            let _ = black_box(plain.try_next_id());
        }
    };
    let leased_bursts: Vec<Box<dyn Fn()>> = leased
        .iter()
        .map(|(_, generator)| -> Box<dyn Fn()> {
            Box::new(move || {
                for _ in 0..BURST {
                    let _ = black_box(generator.try_next_id());
                }
            })
        })
        .collect();
    let mut bursts: Vec<&dyn Fn()> = vec![&plain_burst];
    bursts.extend(leased_bursts.iter().map(|burst| &**burst as &dyn Fn()));
    let ns = burst_medians(&bursts, BURSTS);
    println!("| `try_next_id` | ns per call in a burst | ratio |");
    println!("| --- | ---: | ---: |");
    println!("| `Generator` | {:.1} | 1.00 |", ns[0]);
    for ((store, generator), ns_leased) in leased.iter().zip(&ns[1..]) {
        assert_eq!(
            generator.status().refusals,
            0,
            "every call of the bench was issued ({store})"
        );
        println!(
            "| `LeasedGenerator`, {store} | {ns_leased:.1} | {:.2} |",
            ns_leased / ns[0]
        );
    }
    let worst = ns[1..].iter().copied().fold(0.0, f64::max);
    println!(
        "\nbar: leased at most 1.1x the plain generator: {}\n",
        if worst <= 1.1 * ns[0] {
            "met"
        } else {
            "NOT MET"
        }
    );
    drop(leased_bursts);
    for (_, generator) in leased {
        runtime.block_on(generator.release());
    }
}

/// Each call the holder makes of its store, on each store, taking turns: median and 99th
/// percentile of `CALLS`.
fn store_calls(runtime: &tokio::runtime::Runtime, backends: &[Backend]) {
    const CALLS: usize = 500;
    let options = LeaseOptions::default();
    let (etcd, pg) = runtime.block_on(async {
        let [Backend::Etcd(endpoint), Backend::Postgres(url)] = backends else {
            unreachable!("etcd, then PostgreSQL");
        };
        let etcd = EtcdStore::connect(endpoint, &options).await.expect("etcd");
        let config = PgConfig::new(url).expect("a URL");
        (
            etcd,
            PgStore::connect(config, &options)
                .await
                .expect("PostgreSQL"),
        )
    });
    let [mut etcd_samples, mut pg_samples]: [[Vec<Duration>; 3]; 2] = Default::default();
    runtime.block_on(async {
        let identity = Identity::new(31, 31).expect("in range");
        let (etcd_lease, pg_lease) = (
            etcd.grant(Duration::from_mins(1)).await.expect("a lease"),
            pg.grant(Duration::from_mins(1)).await.expect("a lease"),
        );
        for call in 0..CALLS {
            let mark = 1_800_000_000_000 + 1000 * u64::try_from(call).expect("small");
            for (store, lease, samples) in [
                (&etcd as &dyn Timed, etcd_lease, &mut etcd_samples),
                (&pg as &dyn Timed, pg_lease, &mut pg_samples),
            ] {
                let times = store.round(identity, lease, mark).await;
                for (sample, time) in samples.iter_mut().zip(times) {
                    sample.push(time);
                }
            }
        }
    });
    println!(
        "| store call, on loopback | etcd median | etcd p99 | PostgreSQL median | PostgreSQL p99 |"
    );
    println!("| --- | ---: | ---: | ---: | ---: |");
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    for (i, call) in ["claim (and unclaim)", "keep-alive", "reservation"]
        .iter()
        .enumerate()
    {
        let [etcd, pg] = [&etcd_samples[i], &pg_samples[i]].map(|s| percentiles(s.clone()));
        println!(
            "| {call} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms |",
            ms(etcd.0),
            ms(etcd.1),
            ms(pg.0),
            ms(pg.1)
        );
    }
    println!();
}

/// The median and the 99th percentile.
fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort_unstable();
    // The sample at `percent` of the way, by whole numbers.
    let at = |percent: usize| samples[(samples.len() - 1) * percent / 100];
    (at(50), at(99))
}

/// One round of the holder's calls on a store, timed: a claim (then an unclaim, untimed),
/// a keep-alive, a reservation of `mark` (the mark before it was a second less).
trait Timed {
    fn round(
        &self,
        identity: Identity,
        lease: LeaseId,
        mark: u64,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = [Duration; 3]> + '_>>;
}

impl<S: Store> Timed for S {
    fn round(
        &self,
        identity: Identity,
        lease: LeaseId,
        mark: u64,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = [Duration; 3]> + '_>> {
        Box::pin(async move {
            let started = Instant::now();
            let claim = self.claim(identity, lease, "bench").await.expect("a claim");
            let claimed = started.elapsed();
            let expected = match claim {
                Claim::Won { hwm_ms } => hwm_ms,
                other => panic!("{other:?}"),
            };
            let started = Instant::now();
            self.keep_alive(lease)
                .await
                .expect("a keep-alive")
                .expect("alive");
            let kept = started.elapsed();
            let started = Instant::now();
            let reserved = self.reserve(identity, lease, expected, mark).await;
            let reserved_in = started.elapsed();
            assert_eq!(reserved.expect("a reservation"), Reservation::Committed);
            self.unclaim(identity, lease).await.expect("an unclaim");
            [claimed, kept, reserved_in]
        })
    }
}

/// Claim and takeover on one store.
fn timings(runtime: &tokio::runtime::Runtime, backend: &Backend) {
    let store = backend.name();
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
            let first = crashed.block_on(backend.start(options(ttl, index)));
            claims.push(started.elapsed());
            std::mem::forget(first);
            crashed.shutdown_background();
            let crashed_at = Instant::now();
            let second = runtime.block_on(backend.start(options(ttl, index)));
            takeovers.push(crashed_at.elapsed());
            runtime.block_on(second.release());
        }
        let claim = median(claims);
        let takeover = median(takeovers);
        println!(
            "| claim an identity, {store} | {ttl_secs} s | {:.1} ms | {:.2}% |",
            claim.as_secs_f64() * 1e3,
            100.0 * claim.as_secs_f64() / ttl.as_secs_f64()
        );
        println!(
            "| a holder crashes, until another holds it, {store} | {ttl_secs} s | {:.0} ms | {:.0}% |",
            takeover.as_secs_f64() * 1e3,
            100.0 * takeover.as_secs_f64() / ttl.as_secs_f64()
        );
    }
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
            let claim = store.claim(
                Identity::try_from_index(index).expect("an index below 1,024"),
                lease,
                "fleet",
            );
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
