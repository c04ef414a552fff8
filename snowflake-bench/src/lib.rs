//! Benchmarks of `snowflake-kit` beside its peers; see `benches/generators.rs` and
//! `compile-cost.sh`. Nothing here is published.
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

/// One generator under test, driven through `&self` from any number of threads.
pub trait Contender: Sync {
    /// The next ID as a `u64`.
    fn next(&self) -> u64;
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
pub fn ours() -> sf::Generator {
    sf::Generator::new(1, 1).expect("1 and 1 are in range")
}

impl Contender for sf::Generator {
    fn next(&self) -> u64 {
        self.next_id().as_u64()
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
        sf::TWITTER_EPOCH_MS
    }
}

/// `snowdon`'s lock-free generator with the classic layout.
pub type Snowdon = snowdon::Generator<snowdon::ClassicLayout<SnowdonParams>, SnowdonParams>;

/// ```
/// use snowflake_bench::{Contender, Snowdon};
/// let generator = Snowdon::default();
/// assert!(generator.next() < generator.next());
/// ```
impl Contender for Snowdon {
    fn next(&self) -> u64 {
        self.generate().map_or(0, snowdon::Snowflake::into_inner)
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
}
