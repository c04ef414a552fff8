//! Every interleaving of threads sharing a generator, under loom's model of the memory
//! model: `RUSTFLAGS="--cfg loom" cargo test -p snowflake-runtime --test loom --release`.
#![cfg(loom)]

// std's counters, outside the model: how often something happened over all its runs.
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

use loom::sync::Arc;
use loom::sync::atomic::{AtomicU64, Ordering};
use snowflake_runtime::fence::FencedGenerator;
use snowflake_runtime::{Clock, Generator, Identity, Snowflake};
use snowflake_test_support::T;

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
        let generator = Arc::new(
            Generator::new(Identity::new(1, 1).unwrap()).with_clock(ModelClock(AtomicU64::new(T))),
        );
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
        let generator = Arc::new(
            Generator::new(Identity::new(2, 3).unwrap()).with_clock(ModelClock(AtomicU64::new(T))),
        );
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

/// How many calls of every interleaving began after they saw the halt: the model must
/// have run some, or the test below checks nothing.
static SAW_THE_HALT: AtomicUsize = AtomicUsize::new(0);

#[test]
fn nothing_is_issued_after_a_halt_that_was_seen() {
    loom::model(|| {
        let generator = Arc::new(
            FencedGenerator::new(Identity::new(1, 1).unwrap())
                .with_clock(ModelClock(AtomicU64::new(T))),
        );
        let halted = Arc::new(loom::sync::atomic::AtomicBool::new(false));
        let issuer = {
            let (generator, halted) = (Arc::clone(&generator), Arc::clone(&halted));
            loom::thread::spawn(move || {
                let mut late = 0;
                for _ in 0..2 {
                    // A call that begins after it saw the halt must be refused.
                    let after_halt = halted.load(Ordering::Acquire);
                    SAW_THE_HALT.fetch_add(usize::from(after_halt), Relaxed);
                    if generator.try_next_id().is_ok() && after_halt {
                        late += 1;
                    }
                }
                late
            })
        };
        generator.halt();
        halted.store(true, Ordering::Release);
        assert_eq!(issuer.join().unwrap(), 0);
        // Resumed with a floor, it issues again, above it.
        generator.raise_floor(T);
        generator.resume();
        generator.clock().0.store(T + 1, Ordering::Relaxed);
        assert_eq!(generator.try_next_id().unwrap().timestamp_ms(), T + 1);
    });
    assert!(
        SAW_THE_HALT.load(Relaxed) > 0,
        "no call began after the halt"
    );
}

/// How many interleavings of the test below issued after the resume: some must have.
static RESUMED_AND_ISSUED: AtomicUsize = AtomicUsize::new(0);

/// A holder that won its identity back sets the new ceiling, then resumes: a call that
/// sees the generator running must see that ceiling, never the one from before the loss
/// (`Release` in `set_ceiling` and `resume`, `Acquire` where `reserve` reads them).
#[test]
fn a_resume_brings_the_ceiling_set_before_it() {
    loom::model(|| {
        let generator = Arc::new(
            FencedGenerator::new(Identity::new(1, 1).unwrap())
                .with_clock(ModelClock(AtomicU64::new(T))),
        );
        // Lost: halted, its ceiling behind the clock.
        generator.set_ceiling(Some(T - 1));
        generator.halt();
        let issuer = {
            let generator = Arc::clone(&generator);
            loom::thread::spawn(move || generator.try_next_id())
        };
        generator.set_ceiling(Some(T + 1000));
        generator.resume();
        match issuer.join().unwrap() {
            Ok(id) => {
                assert_eq!(id.timestamp_ms(), T);
                RESUMED_AND_ISSUED.fetch_add(1, Relaxed);
            }
            Err(e) => assert_eq!(e, snowflake_runtime::GenerateError::Halted),
        }
    });
    assert!(
        RESUMED_AND_ISSUED.load(Relaxed) > 0,
        "no interleaving issued after the resume"
    );
}
