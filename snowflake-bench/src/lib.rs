//! Benchmarks of `snowflake-kit` beside its peers; see `benches/generators.rs` and
//! `scripts/bench/compile-cost.sh`. Nothing here is published.
//!
//! The one thing this library holds is the adapter that lets one harness drive
//! every generator the same way.
//!
//! ```
//! use snowflake_bench::{Contender, ours};
//!
//! let generator = ours();
//! assert!(generator.next() < generator.next());
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// One generator under test, driven through `&self` from any number of threads.
pub trait Contender: Sync {
    /// The next ID as a `u64`.
    fn next(&self) -> u64;

    /// The Unix time in ms that `id` carries, by this generator's own layout and
    /// epoch: how the benchmark checks that no ID runs ahead of the clock.
    fn unix_ms(&self, id: u64) -> u64;
}

/// The wall clock in Unix ms.
///
/// ```
/// assert!(snowflake_bench::wall_ms() > 1_700_000_000_000);
/// ```
pub fn wall_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Calls of one burst: a millisecond's worth of IDs, so that no generator runs out.
pub const BURST: u16 = 4096;

/// Median nanoseconds per call of each of `bursts` (each makes [`BURST`] calls),
/// over `rounds` rounds. Each burst starts right after a wall-clock millisecond
/// boundary, 2 ms after the last, so that every generator starts in a fresh
/// millisecond; the bursts take turns, so that a slower or busier moment of the
/// machine hits them all.
///
/// ```
/// let ns = snowflake_bench::burst_medians(&[&|| {}], 3);
/// assert_eq!(ns.len(), 1);
/// ```
pub fn burst_medians(bursts: &[&dyn Fn()], rounds: usize) -> Vec<f64> {
    let mut samples = vec![Vec::with_capacity(rounds); bursts.len()];
    for _ in 0..rounds {
        for (burst, samples) in bursts.iter().zip(&mut samples) {
            std::thread::sleep(Duration::from_millis(2));
            let ms = wall_ms();
            while wall_ms() == ms {
                std::hint::spin_loop();
            }
            let started = Instant::now();
            burst();
            samples.push(started.elapsed().as_secs_f64() * 1e9 / f64::from(BURST));
        }
    }
    samples.into_iter().map(median).collect()
}

/// The middle value of `values` (the upper one of an even count); values that do not
/// compare (a NaN) count as equal.
///
/// ```
/// use std::time::Duration;
///
/// assert_eq!(snowflake_bench::median(vec![3.0, 1.0, 2.0]), 2.0);
/// assert_eq!(snowflake_bench::median(vec![Duration::from_millis(9), Duration::ZERO]), Duration::from_millis(9));
/// ```
///
/// # Panics
///
/// When `values` is empty.
pub fn median<T: PartialOrd>(mut values: Vec<T>) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values.swap_remove(values.len() / 2)
}

/// The floor every generator is measured against: one `SystemTime` reading and
/// one compare-and-swap on `ms << 12 | sequence`, spinning on the clock when a
/// millisecond is used up. No range checks, no tolerance of clock steps: what
/// a correct generator cannot do with less.
///
/// ```
/// use snowflake_bench::{Contender, Plain};
/// let generator = Plain::new(33);
/// let (a, b) = (generator.next(), generator.next());
/// assert!(a < b);
/// assert!(generator.unix_ms(b) <= snowflake_bench::wall_ms());
/// ```
#[derive(Debug)]
pub struct Plain {
    next: AtomicU64,
    identity_bits: u64,
}

impl Plain {
    /// A generator for the 10 bits of datacenter and machine in `identity_bits`.
    pub const fn new(identity_bits: u64) -> Plain {
        Plain {
            next: AtomicU64::new(0),
            identity_bits: identity_bits << 12,
        }
    }
}

impl Contender for Plain {
    #[inline]
    fn next(&self) -> u64 {
        let mut now = (wall_ms() - snowflake_kit::layout::TWITTER_EPOCH_MS) << 12;
        let mut current = self.next.load(Ordering::Relaxed);
        loop {
            let candidate = current.max(now);
            if candidate >> 12 > now >> 12 {
                // This millisecond is used up: wait for the clock.
                now = (wall_ms() - snowflake_kit::layout::TWITTER_EPOCH_MS) << 12;
                current = self.next.load(Ordering::Relaxed);
                continue;
            }
            match self.next.compare_exchange_weak(
                current,
                candidate + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => {
                    return ((candidate >> 12) << 22) | self.identity_bits | (candidate & 0xFFF);
                }
                Err(actual) => current = actual,
            }
        }
    }

    fn unix_ms(&self, id: u64) -> u64 {
        (id >> 22) + snowflake_kit::layout::TWITTER_EPOCH_MS
    }
}

/// This crate's generator, for datacenter 1, machine 1.
///
/// ```
/// assert_eq!(snowflake_bench::ours().next_id().machine(), 1);
/// ```
///
/// # Panics
///
/// Never: 1 and 1 are in range.
pub fn ours() -> snowflake_kit::Generator {
    snowflake_kit::Generator::new(snowflake_kit::Identity::new(1, 1).expect("1 and 1 are in range"))
}

impl Contender for snowflake_kit::Generator {
    fn next(&self) -> u64 {
        self.next_id().as_u64()
    }

    fn unix_ms(&self, id: u64) -> u64 {
        snowflake_kit::Snowflake::try_from_u64(id).map_or(0, snowflake_kit::Snowflake::timestamp_ms)
    }
}

/// `snowflaked::sync::Generator`: thread-safe, lock-free.
///
/// ```
/// use snowflake_bench::Contender;
/// let generator = snowflaked::sync::Generator::new(33);
/// assert!(generator.next() < generator.next());
/// ```
impl Contender for snowflaked::sync::Generator {
    fn next(&self) -> u64 {
        self.generate()
    }

    fn unix_ms(&self, id: u64) -> u64 {
        // The Unix epoch, by default.
        id >> 22
    }
}

/// Parameters for `snowdon`: the Twitter epoch, machine 33 (datacenter 1, machine 1).
#[derive(Debug)]
pub struct SnowdonParams;

impl snowdon::MachineId for SnowdonParams {
    fn machine_id() -> u64 {
        33
    }
}

impl snowdon::Epoch for SnowdonParams {
    fn millis_since_unix() -> u64 {
        snowflake_kit::layout::TWITTER_EPOCH_MS
    }
}

/// `snowdon`'s lock-free generator with the classic layout.
pub type Snowdon = snowdon::Generator<snowdon::ClassicLayout<SnowdonParams>, SnowdonParams>;

/// `generate` returns an error when a millisecond's sequence is used up; its
/// users call it again, and so does this adapter, spinning like the others.
///
/// ```
/// use snowflake_bench::{Contender, Snowdon};
/// let generator = Snowdon::default();
/// assert!(generator.next() < generator.next());
/// ```
impl Contender for Snowdon {
    fn next(&self) -> u64 {
        loop {
            match self.generate() {
                Ok(id) => return id.into_inner(),
                Err(_) => std::hint::spin_loop(),
            }
        }
    }

    fn unix_ms(&self, id: u64) -> u64 {
        (id >> 22) + snowflake_kit::layout::TWITTER_EPOCH_MS
    }
}

/// `rs-snowflake`'s `real_time_generate`, which takes `&mut self`: shared through a `Mutex`,
/// as its users must.
///
/// ```
/// use snowflake_bench::Contender;
/// let generator = std::sync::Mutex::new(snowflake::SnowflakeIdGenerator::new(1, 1));
/// assert!(generator.next() < generator.next());
/// ```
impl Contender for Mutex<snowflake::SnowflakeIdGenerator> {
    fn next(&self) -> u64 {
        let id = self.lock().map_or(0, |mut g| g.real_time_generate());
        u64::try_from(id).unwrap_or(0)
    }

    fn unix_ms(&self, id: u64) -> u64 {
        // The Unix epoch, by default.
        id >> 22
    }
}

/// `twitter_snowflake`, which takes `&mut self`: shared through a `Mutex`.
///
/// ```
/// use snowflake_bench::Contender;
/// let generator = std::sync::Mutex::new(twitter_snowflake::Snowflake::new(33).unwrap());
/// assert!(generator.next() < generator.next());
/// ```
impl Contender for Mutex<twitter_snowflake::Snowflake> {
    fn next(&self) -> u64 {
        self.lock()
            .ok()
            .and_then(|mut g| g.generate().ok())
            .unwrap_or(0)
    }

    fn unix_ms(&self, id: u64) -> u64 {
        // Its fixed epoch, 2024-01-01T00:00:00Z.
        (id >> 22) + 1_704_038_400_000
    }
}
