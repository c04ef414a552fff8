//! One generator's calls, for an instruction count under callgrind
//! (`scripts/bench/instructions.sh`):
//! `per_call <contender> <calls>` makes `calls` calls inside `measure`, the one function
//! callgrind is told to count (`--toggle-collect`), so that start-up, a runtime's threads
//! and the lease's holder task are not in the figure.
//!
//! Contenders: `next_id`, `try_next_id`, `fill` (per ID, in slices of 4,096; see `fill`), `fenced`
//! (`FencedGenerator::try_next_id`, its ceiling far ahead), `leased`
//! (`LeasedGenerator::try_next_id` on the memory store), `plain` (the reference: one
//! `SystemTime` reading, one CAS), `snowdon`, `snowflaked`, `rs-snowflake` and
//! `twitter_snowflake` (both behind a `Mutex`, as their users share them); and the clocks
//! alone, each generator's share: `clock` (our `SystemClock`), `systemtime` (`SystemTime`
//! in Unix ms, the reading of the reference and of most peers) and `instant` (`Instant`).

use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use snowflake_bench::{Contender, Plain, Snowdon, ours};
use snowflake_kit::fence::FencedGenerator;
use snowflake_kit::{Clock, Generator, Snowflake, SystemClock};
use snowflake_lease::{Identity, LeaseOptions, LeasedGenerator, MemStore};

/// The counted loop. Never inlined, so that callgrind can find it by name.
#[inline(never)]
fn measure(calls: u64, call: &mut dyn FnMut()) {
    for _ in 0..calls {
        call();
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(contender), Some(calls)) = (args.next(), args.next()) else {
        eprintln!("usage: per_call <contender> <calls>");
        std::process::exit(2);
    };
    let Ok(calls) = calls.parse::<u64>() else {
        eprintln!("per_call: calls: {calls:?} is not a whole number");
        std::process::exit(2);
    };
    match contender.as_str() {
        "next_id" => {
            let generator = ours();
            measure(calls, &mut || {
                black_box(generator.next_id());
            });
        }
        "next_id_of" => {
            // A typed ID (`typed::Id<K>`): the same call, its kind a type.
            snowflake_kit::typed::kind!(User);
            let generator = ours();
            measure(calls, &mut || {
                black_box(generator.next_id_of::<User>());
            });
        }
        "try_next_id" => {
            let generator = ours();
            measure(calls, &mut || {
                let _ = black_box(generator.try_next_id());
            });
        }
        "fill" => fill(calls, &ours()),
        "fenced" => {
            // The generator a lease holder runs, its ceiling far ahead: the fence's own cost.
            let generator = FencedGenerator::new(Identity::new(1, 1).expect("in range"));
            generator.set_ceiling(Some(u64::MAX - 1));
            measure(calls, &mut || {
                let _ = black_box(generator.try_next_id());
            });
        }
        "clock" => measure(calls, &mut || {
            black_box(SystemClock.now_ms());
        }),
        "systemtime" => measure(calls, &mut || {
            black_box(snowflake_bench::wall_ms());
        }),
        "instant" => measure(calls, &mut || {
            black_box(Instant::now());
        }),
        "leased" => leased(calls),
        "plain" => contend(calls, &Plain::new(33)),
        "snowdon" => contend(calls, &Snowdon::default()),
        "snowflaked" => contend(calls, &snowflaked::sync::Generator::new(33)),
        "rs-snowflake" => contend(
            calls,
            &Mutex::new(snowflake::SnowflakeIdGenerator::new(1, 1)),
        ),
        "twitter_snowflake" => contend(
            calls,
            &Mutex::new(twitter_snowflake::Snowflake::new(33).expect("machine 33 is in range")),
        ),
        other => {
            eprintln!("per_call: unknown contender {other:?}");
            std::process::exit(2);
        }
    }
}

fn contend(calls: u64, generator: &dyn Contender) {
    measure(calls, &mut || {
        black_box(generator.next());
    });
}

/// `calls` IDs by `fill`, a millisecond's 4,096 a call, each call in a millisecond of its
/// own: the count per ID, without the wait for the next millisecond (not counted: it is
/// outside `measure`), which a burst of more than 4,096 a millisecond must make.
fn fill(calls: u64, generator: &Generator) {
    let mut ids = vec![Snowflake::MIN; 4096];
    for _ in 0..calls / 4096 {
        let last = generator.clock().now_ms();
        while generator.clock().now_ms() == last {
            std::hint::spin_loop();
        }
        measure(1, &mut || {
            generator.fill(black_box(&mut ids));
            black_box(&ids);
        });
    }
}

/// `LeasedGenerator::try_next_id` on the memory store, its holder task on a runtime thread.
fn leased(calls: u64) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut options =
        LeaseOptions::default().exact(Identity::try_from_index(0).expect("an index below 1,024"));
    options.ttl = Duration::from_secs(30);
    let generator = runtime
        .block_on(LeasedGenerator::start(MemStore::new(), options))
        .expect("a lease on the memory store");
    measure(calls, &mut || {
        let _ = black_box(generator.try_next_id());
    });
    assert_eq!(generator.status().refusals, 0, "every call was issued");
}
