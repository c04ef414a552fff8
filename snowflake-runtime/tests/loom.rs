//! Every interleaving of threads sharing a generator, under loom's model of the memory
//! model: `RUSTFLAGS="--cfg loom" cargo test -p snowflake-runtime --test loom --release`.
#![cfg(loom)]

use loom::sync::Arc;
use loom::sync::atomic::{AtomicU64, Ordering};
use snowflake_runtime::{Clock, Generator, Snowflake};

const T: u64 = 1_656_432_460_105;

/// A clock that a thread of the model moves forward.
struct ModelClock(AtomicU64);

impl Clock for ModelClock {
    fn now_ms(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

fn check(per_thread: &[Vec<Snowflake>]) {
    let mut all: Vec<Snowflake> = per_thread.iter().flatten().copied().collect();
    for ids in per_thread {
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "{ids:?}");
    }
    let count = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), count, "duplicates");
}

#[test]
fn two_threads_two_ids_each() {
    loom::model(|| {
        let generator =
            Arc::new(Generator::with_clock(1, 1, ModelClock(AtomicU64::new(T))).unwrap());
        let other = {
            let generator = Arc::clone(&generator);
            loom::thread::spawn(move || vec![generator.next_id(), generator.next_id()])
        };
        let mine = vec![generator.next_id(), generator.next_id()];
        check(&[mine, other.join().unwrap()]);
    });
}

#[test]
fn ids_and_a_batch_while_the_clock_moves() {
    loom::model(|| {
        let generator =
            Arc::new(Generator::with_clock(2, 3, ModelClock(AtomicU64::new(T))).unwrap());
        let ticker = {
            let generator = Arc::clone(&generator);
            loom::thread::spawn(move || generator.clock().0.store(T + 1, Ordering::Relaxed))
        };
        let filler = {
            let generator = Arc::clone(&generator);
            loom::thread::spawn(move || {
                let mut ids = vec![Snowflake::MAX; 3];
                generator.fill(&mut ids);
                ids
            })
        };
        let mine = vec![generator.next_id(), generator.next_id()];
        ticker.join().unwrap();
        let batch = filler.join().unwrap();
        // Never ahead of the clock: the clock only ever read T or T + 1.
        assert!(
            mine.iter()
                .chain(&batch)
                .all(|id| id.timestamp_ms() <= T + 1)
        );
        check(&[mine, batch]);
    });
}
