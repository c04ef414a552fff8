//! The lease on production-shaped etcd: three members, plain and behind mutual TLS.
//!
//! `cargo bench -p snowflake-bench --bench cluster` prints:
//! - the time to connect and claim an identity over mutual TLS against plain HTTP (a
//!   fresh connection each time, so the handshake counts), median of 21, the two taking
//!   turns;
//! - the longest refusal a holder sees when a follower dies and when the leader dies,
//!   pulling an ID every millisecond, in each of 3 rounds, with the default TTL (10 s)
//!   and window (2 s).
//!
//! Needs `etcd` (Debian: etcd-server) and `openssl`. The time from a partition until a
//! successor issues is printed by the partition test, which builds its own network
//! namespace (root): `cargo test -p snowflake-lease --all-features --test etcd partition
//! -- --include-ignored --nocapture`.

use snowflake_bench::median;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use snowflake_lease::{EtcdConfig, EtcdStore, Identity, LeaseOptions, LeasedGenerator};
use snowflake_test_support::Etcd;

fn options(index: u16) -> LeaseOptions {
    LeaseOptions::default().exact(Identity::try_from_index(index).expect("an index below 1,024"))
}

/// Connects, claims, releases: how long until it could issue.
async fn claim(config: EtcdConfig, index: u16) -> Duration {
    let started = Instant::now();
    let options = options(index);
    let store = EtcdStore::connect_with(config, &options)
        .await
        .expect("connect");
    let generator = LeasedGenerator::start(store, options).await.expect("claim");
    let took = started.elapsed();
    generator.release().await;
    took
}

/// The longest stretch of refusals while `during` runs, pulling every millisecond.
async fn longest_refusal(generator: &Arc<LeasedGenerator>, during: impl FnOnce()) -> Duration {
    let stop = Arc::new(AtomicBool::new(false));
    let puller = {
        let (generator, stop) = (Arc::clone(generator), Arc::clone(&stop));
        std::thread::spawn(move || {
            let (mut longest, mut since) = (Duration::ZERO, None);
            while !stop.load(Ordering::Relaxed) {
                if generator.try_next_id().is_ok() {
                    if let Some(since) = since.take() {
                        longest = longest.max(Instant::elapsed(&since));
                    }
                } else {
                    since.get_or_insert_with(Instant::now);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            since.map_or(longest, |since| longest.max(since.elapsed()))
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    during();
    tokio::time::sleep(Duration::from_secs(5)).await;
    stop.store(true, Ordering::Relaxed);
    puller.join().expect("the puller")
}

fn main() {
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("run with `cargo bench -p snowflake-bench --bench cluster`");
        return;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    // Without etcd or openssl these panic, saying what to install.
    let (plain, mut tls) = (Etcd::cluster(3, false), Etcd::cluster(3, true));
    runtime.block_on(async {
        let (mut plain_times, mut tls_times) = (Vec::new(), Vec::new());
        for i in 0..21 {
            plain_times.push(claim(plain.config(), i).await);
            tls_times.push(claim(tls.config(), i).await);
        }
        let (plain_median, tls_median) = (median(plain_times), median(tls_times));
        println!(
            "connect and claim, three members: plain {plain_median:?}, mutual TLS \
             {tls_median:?} (x{:.2})",
            tls_median.as_secs_f64() / plain_median.as_secs_f64()
        );

        let options = options(100);
        let store = EtcdStore::connect_with(tls.config(), &options)
            .await
            .expect("connect");
        let generator = Arc::new(LeasedGenerator::start(store, options).await.expect("claim"));
        for round in 1..=3 {
            let follower = (tls.leader() + 1) % 3;
            let lost_follower = longest_refusal(&generator, || tls.kill_member(follower)).await;
            tls.restart_member(follower);
            let leader = tls.leader();
            let lost_leader = longest_refusal(&generator, || tls.kill_member(leader)).await;
            tls.restart_member(leader);
            println!(
                "round {round}: longest refusal when a follower dies {lost_follower:?}, when \
                 the leader dies {lost_leader:?} (window 2 s)"
            );
        }
        let status = generator.status();
        println!(
            "lease losses {}, identity {} kept",
            status.lease_losses,
            generator.identity()
        );
        generator.release().await;
    });
}
