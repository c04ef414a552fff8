//! This crate's generator beside its peers, in one run, reported as ratios to a
//! plain reference generator (`snowflake_bench::Plain`: one clock reading, one CAS).
//!
//! `cargo bench -p snowflake-bench --bench generators` prints a Markdown table:
//! - sustained IDs per second from 1 thread, and from 2 threads sharing one
//!   generator, as a share of the format's ceiling of 4,096,000 a second;
//! - the cost of one call in a burst of 4,096 started right after a millisecond
//!   boundary (so that no generator runs out of sequence), median of many bursts,
//!   and its ratio to ours;
//! - `fill`'s cost per ID in the same burst;
//! - an audit of every contender, so that no figure rests on IDs that are not
//!   real: two threads take 200,000 IDs each; none may repeat, and none may carry a
//!   time ahead of the wall clock read right after it was issued.
//!
//! `rs-snowflake` and `twitter_snowflake` take `&mut self`: they are shared through
//! a `Mutex`, as their users must, even from one thread, so that every row measures
//! a generator a service can share.

use std::hint::black_box;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use snowflake_bench::{BURST, Contender, Plain, Snowdon, burst_medians, ours, wall_ms};

const CEILING: f64 = 4_096_000.0;
const BURSTS: usize = 301;
const SUSTAIN: Duration = Duration::from_secs(1);

/// IDs per second while `threads` threads share `generator` for [`SUSTAIN`].
fn sustained(threads: usize, next_batch: &(dyn Fn() -> u64 + Sync)) -> f64 {
    let stop = AtomicBool::new(false);
    let total = AtomicU64::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut count = 0;
                while !stop.load(Ordering::Relaxed) {
                    count += next_batch();
                }
                total.fetch_add(count, Ordering::Relaxed);
            });
        }
        std::thread::sleep(SUSTAIN);
        stop.store(true, Ordering::Relaxed);
    });
    #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
    let ids = total.load(Ordering::Relaxed) as f64;
    ids / started.elapsed().as_secs_f64()
}

/// 256 calls of `next`, for [`sustained`]: checking the stop flag per call would cost as much as a call.
fn batch_of(generator: &dyn Contender) -> impl Fn() -> u64 + Sync + '_ {
    move || {
        for _ in 0..256 {
            black_box(generator.next());
        }
        256
    }
}

struct Row {
    name: &'static str,
    shared_by: &'static str,
    one_thread: f64,
    two_threads: f64,
    ns_per_id: f64,
    audit: Audit,
}

/// What [`audit`] found.
struct Audit {
    ids: usize,
    duplicates: usize,
    /// The largest lead, in ms, of an ID's time over the wall clock read after it.
    lead_ms: u64,
}

impl Audit {
    fn passed(&self) -> bool {
        // 1 ms of slack: a generator on the monotonic clock may sit a hair ahead of the wall clock.
        self.duplicates == 0 && self.lead_ms <= 1
    }
}

const AUDIT_PER_THREAD: usize = 200_000;

/// Two threads share `generator` for [`AUDIT_PER_THREAD`] IDs each.
fn audit(generator: &dyn Contender) -> Audit {
    let mut all = Vec::with_capacity(2 * AUDIT_PER_THREAD);
    let mut lead_ms = 0;
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut ids = Vec::with_capacity(AUDIT_PER_THREAD);
                    let mut lead = 0;
                    for _ in 0..AUDIT_PER_THREAD {
                        let id = generator.next();
                        lead = u64::max(lead, generator.unix_ms(id).saturating_sub(wall_ms()));
                        ids.push(id);
                    }
                    (ids, lead)
                })
            })
            .collect();
        for thread in threads {
            let (ids, lead) = thread.join().expect("audit thread");
            all.extend(ids);
            lead_ms = lead_ms.max(lead);
        }
    });
    let ids = all.len();
    all.sort_unstable();
    all.dedup();
    Audit {
        ids,
        duplicates: ids - all.len(),
        lead_ms,
    }
}

fn main() {
    // `cargo test --benches` runs this without `--bench`: building it is the check.
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("run with `cargo bench -p snowflake-bench --bench generators`");
        return;
    }
    let plain_generator = Plain::new(33);
    let ours_generator = ours();
    let snowflaked_generator = snowflaked::sync::Generator::new(33);
    let snowdon_generator = Snowdon::default();
    let rs_snowflake_generator = Mutex::new(snowflake::SnowflakeIdGenerator::new(1, 1));
    let twitter_generator =
        Mutex::new(twitter_snowflake::Snowflake::new(33).expect("valid worker id"));
    let contenders: [(&str, &str, &dyn Contender); 6] = [
        (
            "reference: one `SystemTime` reading, one CAS",
            "`&self`, lock-free",
            &plain_generator,
        ),
        (
            "snowflake-kit `next_id`",
            "`&self`, lock-free",
            &ours_generator,
        ),
        (
            "snowflaked 1.0 `sync::Generator`",
            "`&self`, lock-free",
            &snowflaked_generator,
        ),
        (
            "snowdon 0.2 `generate` (lock-free)",
            "`&self`, lock-free",
            &snowdon_generator,
        ),
        (
            "rs-snowflake 0.6 `real_time_generate`",
            "`Mutex` (`&mut self`)",
            &rs_snowflake_generator,
        ),
        (
            "twitter_snowflake 1.0 `generate`",
            "`Mutex` (`&mut self`)",
            &twitter_generator,
        ),
    ];

    let fill_generator = ours();
    let mut fill_ids = vec![snowflake_kit::Snowflake::MAX; BURST as usize];
    let fill_ids = Mutex::new(&mut fill_ids[..]);
    let fill_burst = || {
        let mut ids = fill_ids.lock().expect("not poisoned");
        fill_generator.fill(&mut ids);
        black_box(&ids);
    };
    let fill_batch = || {
        let mut ids = vec![snowflake_kit::Snowflake::MAX; BURST as usize];
        fill_generator.fill(&mut ids);
        black_box(&ids);
        u64::from(BURST)
    };

    let mut bursts: Vec<Box<dyn Fn()>> = contenders
        .iter()
        .map(|&(_, _, generator)| -> Box<dyn Fn()> {
            Box::new(move || {
                for _ in 0..BURST {
                    black_box(generator.next());
                }
            })
        })
        .collect();
    bursts.push(Box::new(fill_burst));
    let burst_refs: Vec<&dyn Fn()> = bursts.iter().map(|b| &**b as &dyn Fn()).collect();
    let ns = burst_medians(&burst_refs, BURSTS);

    let rows: Vec<Row> = contenders
        .iter()
        .zip(&ns)
        .map(|(&(name, shared_by, generator), &ns_per_id)| {
            let batch = batch_of(generator);
            Row {
                name,
                shared_by,
                one_thread: sustained(1, &batch),
                two_threads: sustained(2, &batch),
                ns_per_id,
                audit: audit(generator),
            }
        })
        .collect();
    let fill_one = sustained(1, &fill_batch);
    let fill_two = sustained(2, &fill_batch);
    let fill_ns = ns[contenders.len()];

    report(&rows, fill_one, fill_two, fill_ns);
}

/// Prints the table and whether the bars of the generator issue are met.
fn report(rows: &[Row], fill_one: f64, fill_two: f64, fill_ns: f64) {
    let plain_ns = rows[0].ns_per_id;
    let ours = &rows[1];
    println!(
        "| generator | shared through | 1 thread, ids/s | share of 4,096,000 | 2 threads, ids/s | share | ns per id in a burst | ratio to the reference | audit |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
    for row in rows {
        let audit = &row.audit;
        println!(
            "| {} | {} | {:.0} | {:.2}% | {:.0} | {:.2}% | {:.1} | {:.2} | {} of {} IDs repeated, at most {} ms ahead of the clock |",
            row.name,
            row.shared_by,
            row.one_thread,
            100.0 * row.one_thread / CEILING,
            row.two_threads,
            100.0 * row.two_threads / CEILING,
            row.ns_per_id,
            row.ns_per_id / plain_ns,
            audit.duplicates,
            audit.ids,
            audit.lead_ms,
        );
    }
    println!(
        "| snowflake-kit `fill`, 4,096 at a time | `&self`, lock-free | {fill_one:.0} | {:.2}% | {fill_two:.0} | {:.2}% | {fill_ns:.1} | {:.2} | |",
        100.0 * fill_one / CEILING,
        100.0 * fill_two / CEILING,
        fill_ns / plain_ns,
    );

    let best_peer = rows[2..]
        .iter()
        .map(|row| row.ns_per_id)
        .fold(f64::INFINITY, f64::min);
    println!();
    println!(
        "bars: sustained >= 99% from 1 thread: {}; from 2 threads: {}; per call <= 1.0x the reference: {}; \
         per call <= every peer (best {best_peer:.1} ns): {}; fill <= 1/5 of per call: {}; every audit clean: {}",
        verdict(ours.one_thread >= 0.99 * CEILING),
        verdict(ours.two_threads >= 0.99 * CEILING),
        verdict(ours.ns_per_id <= plain_ns),
        verdict(ours.ns_per_id <= best_peer),
        verdict(fill_ns * 5.0 <= ours.ns_per_id),
        verdict(rows.iter().all(|row| row.audit.passed())),
    );
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "NOT MET" }
}
