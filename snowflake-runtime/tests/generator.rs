//! The generator under threads and under a misbehaving clock.
#![cfg(feature = "std")]

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use snowflake_runtime::fence::FencedGenerator;
use snowflake_runtime::layout::{MAX_TIMESTAMP_MS, TWITTER_EPOCH_MS};
use snowflake_runtime::{
    Clock, FieldRangeError, GenerateError, Generator, Identity, Snowflake, SystemClock,
};
use snowflake_test_support::T;
use snowflake_test_support::clock::{ManualClock, ScriptClock, wall_ms};

fn assert_strictly_increasing(ids: &[Snowflake]) {
    for pair in ids.windows(2) {
        assert!(pair[0] < pair[1], "{} then {}", pair[0], pair[1]);
    }
}

fn assert_unique(batches: &[Vec<Snowflake>]) {
    let mut seen = HashSet::new();
    for id in batches.iter().flatten() {
        assert!(seen.insert(*id), "duplicate {id}");
    }
}

#[test]
fn generator_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<Generator>();
    check::<Generator<Arc<ManualClock>>>();
}

#[test]
fn static_generator() {
    static IDS: Generator = match Identity::new(31, 31) {
        Ok(identity) => Generator::new(identity),
        Err(_) => panic!("valid"),
    };
    let id = IDS.next_id();
    assert_eq!((id.datacenter(), id.machine()), (31, 31));
}

#[test]
fn constructors_check_ranges() {
    assert_eq!(
        Identity::new(32, 0).err(),
        Some(FieldRangeError::DatacenterOutOfRange(32))
    );
    assert_eq!(
        Identity::new(0, 32).err(),
        Some(FieldRangeError::MachineOutOfRange(32))
    );
    assert_eq!(
        Identity::new(u64::MAX, 0).err(),
        Some(FieldRangeError::DatacenterOutOfRange(u64::MAX))
    );
    assert_eq!(
        Identity::new(0, 1 << 40).err(),
        Some(FieldRangeError::MachineOutOfRange(1 << 40))
    );
    assert!(Identity::new(31, 31).is_ok());
}

#[test]
fn known_first_ids() {
    let generator =
        Generator::new(Identity::new(1, 1).unwrap()).with_clock(ManualClock::at(1_288_834_975_657));
    assert_eq!(generator.next_id().as_u64(), 4_194_439_168);
    assert_eq!(generator.next_id().as_u64(), 4_194_439_169);
    let generator = Generator::new(Identity::new(11, 26).unwrap()).with_clock(ManualClock::at(T));
    assert_eq!(generator.next_id().as_u64(), 1_541_815_603_606_036_480);
}

#[test]
fn new_millisecond_restarts_the_sequence() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 2).unwrap()).with_clock(Arc::clone(&clock));
    for expected in 0..3 {
        assert_eq!(generator.next_id().sequence(), expected);
    }
    clock.set(T + 5);
    let id = generator.next_id();
    assert_eq!((id.timestamp_ms(), id.sequence()), (T + 5, 0));
}

#[test]
fn system_clock_threads_share_one_generator() {
    const THREADS: usize = 2;
    const PER_THREAD: usize = 1_000_000;
    let generator = Generator::new(Identity::new(7, 9).unwrap());
    let before = wall_ms();
    let batches: Vec<Vec<Snowflake>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|_| {
                scope.spawn(|| {
                    (0..PER_THREAD)
                        .map(|_| generator.next_id())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let after = wall_ms();
    for ids in &batches {
        assert_eq!(ids.len(), PER_THREAD);
        assert_strictly_increasing(ids);
        for id in ids {
            assert_eq!((id.datacenter(), id.machine()), (7, 9));
            // SystemClock reads the wall clock once per process, to the millisecond.
            assert!(
                id.timestamp_ms() + 1 >= before && id.timestamp_ms() <= after + 1,
                "{id}"
            );
        }
    }
    assert_unique(&batches);
    // 2M IDs at 4,096 a millisecond need at least 489 ms; the sequence ran out and recovered.
    let span = batches
        .iter()
        .flatten()
        .map(|id| id.timestamp_ms())
        .max()
        .unwrap()
        - batches
            .iter()
            .flatten()
            .map(|id| id.timestamp_ms())
            .min()
            .unwrap();
    assert!(span >= 488, "{span}");
}

#[test]
fn system_clock_is_monotonic() {
    let mut last = SystemClock.now_ms();
    for _ in 0..100_000 {
        let now = SystemClock.now_ms();
        assert!(now >= last);
        last = now;
    }
    assert!(last.abs_diff(wall_ms()) < 1_000);
}

#[test]
fn exhausted_sequence_waits_for_the_next_millisecond() {
    // Time moves one millisecond every 10,000 readings: the sequence runs out first.
    let clock = ScriptClock::new(|n| T + n / 10_000);
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(&clock);
    let ids: Vec<Snowflake> = (0..4096 * 3).map(|_| generator.next_id()).collect();
    assert_strictly_increasing(&ids);
    // Every millisecond used is full and starts at 0; none is ahead of the clock.
    let now = T + clock.reads() / 10_000;
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(u64::from(id.sequence()), i as u64 % 4096);
        assert!(id.timestamp_ms() <= now);
    }
    assert!(ids[4095].timestamp_ms() < ids[4096].timestamp_ms());
}

#[test]
fn stopped_clock_is_an_error_not_a_hang() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::from_millis(20));
    for _ in 0..4096 {
        generator.try_next_id().unwrap();
    }
    match generator.try_next_id() {
        Err(GenerateError::ClockStalled { waited_ms }) => assert!(waited_ms >= 21, "{waited_ms}"),
        other => panic!("{other:?}"),
    }
    // Once the clock moves, IDs flow again, after the last one.
    clock.set(T + 1);
    let id = generator.try_next_id().unwrap();
    assert_eq!((id.timestamp_ms(), id.sequence()), (T + 1, 0));
}

#[test]
fn small_step_back_keeps_the_last_millisecond() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
    let first = generator.next_id();
    clock.set(T - 3);
    let second = generator.next_id();
    assert!(second > first);
    // Still in the last millisecond used, ahead of the clock while it recovers.
    assert_eq!((second.timestamp_ms(), second.sequence()), (T, 1));
    clock.set(T + 1);
    assert_eq!(generator.next_id().timestamp_ms(), T + 1);
}

#[test]
fn small_step_back_with_a_full_millisecond_waits_for_the_clock() {
    // 4,096 readings at T, then the clock is 5 ms behind and walks forward 1 ms per 3 readings.
    let clock = ScriptClock::new(|n| if n < 4096 { T } else { T - 5 + (n - 4096) / 3 });
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(&clock);
    let ids: Vec<Snowflake> = (0..4097).map(|_| generator.next_id()).collect();
    assert_strictly_increasing(&ids);
    assert!(ids[..4096].iter().all(|id| id.timestamp_ms() == T));
    assert_eq!((ids[4096].timestamp_ms(), ids[4096].sequence()), (T + 1, 0));
    // It waited for the clock to walk from T - 5 to T + 1.
    assert!(clock.reads() > 4096 + 6 * 3, "{}", clock.reads());
}

#[test]
fn try_next_id_now_never_waits() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
    let mut ids = vec![Snowflake::MAX; 4096];
    for id in &mut ids {
        *id = generator.try_next_id_now().unwrap();
    }
    assert_strictly_increasing(&ids);
    assert!(ids.iter().all(|id| id.timestamp_ms() == T));
    // The millisecond is full and the clock stays: at once, and again, without a stall.
    for _ in 0..3 {
        assert_eq!(
            generator.try_next_id_now(),
            Err(GenerateError::WouldWait { until_ms: T + 1 })
        );
    }
    clock.set(T + 1);
    let next = generator.try_next_id_now().unwrap();
    assert_eq!((next.timestamp_ms(), next.sequence()), (T + 1, 0));

    // A step back within the tolerance: the last millisecond's IDs first, then a wait
    // until the clock is past it; beyond the tolerance, the same error as try_next_id.
    clock.set(T - 5);
    let more = generator.try_next_id_now().unwrap();
    assert_eq!((more.timestamp_ms(), more.sequence()), (T + 1, 1));
    for _ in 0..4094 {
        generator.try_next_id_now().unwrap();
    }
    assert_eq!(
        generator.try_next_id_now(),
        Err(GenerateError::WouldWait { until_ms: T + 2 })
    );
    assert_eq!(
        GenerateError::WouldWait { until_ms: T + 2 }.to_string(),
        format!("the next ID has to wait for the clock to read {} ms", T + 2)
    );
    clock.set(T - 2_000);
    assert_eq!(
        generator.try_next_id_now(),
        Err(GenerateError::ClockMovedBackwards {
            by_ms: 2_001,
            tolerance_ms: 1_000
        })
    );
    clock.set(T + 2);
    let last = generator.try_next_id_now().unwrap();
    assert_eq!((last.timestamp_ms(), last.sequence()), (T + 2, 0));
    // A fenced generator's halt: at once, as every other refusal.
    let fenced = FencedGenerator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
    fenced.halt();
    assert_eq!(fenced.try_next_id_now(), Err(GenerateError::Halted));
}

#[test]
fn clock_jitter_back_and_forth() {
    // Forward 1 ms every 30 readings, but every 7th reading is up to 9 ms behind.
    let clock = ScriptClock::new(|n| T + n / 30 - if n % 7 == 0 { (n / 7) % 10 } else { 0 });
    let generator = Generator::new(Identity::new(2, 3).unwrap())
        .with_clock(&clock)
        .with_tolerance(Duration::from_millis(10));
    let mut ids = vec![Snowflake::MAX; 200_000];
    for id in &mut ids {
        *id = generator.try_next_id().unwrap();
    }
    assert_strictly_increasing(&ids);
    assert!(
        ids.iter()
            .all(|id| (id.datacenter(), id.machine()) == (2, 3))
    );
    // Never ahead of the furthest reading by more than the tolerance.
    let last_reading = T + clock.reads() / 30;
    assert!(ids.last().unwrap().timestamp_ms() <= last_reading);
}

#[test]
fn far_step_back_is_an_error_at_once() {
    let clock = ScriptClock::new(|n| if (1..=4).contains(&n) { T - 5_000 } else { T });
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(&clock);
    let first = generator.next_id();
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::ClockMovedBackwards {
            by_ms: 5_000,
            tolerance_ms: 1_000
        })
    );
    // At once: the failed call read the clock twice (its reading, then once more), no waiting.
    assert_eq!(clock.reads(), 3);
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::ClockMovedBackwards {
            by_ms: 5_000,
            tolerance_ms: 1_000
        })
    );
    // When the clock comes back, the next ID follows the last one.
    assert!(generator.next_id() > first);
}

#[test]
fn zero_tolerance_refuses_any_step_back() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::ZERO);
    generator.next_id();
    clock.set(T - 1);
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::ClockMovedBackwards {
            by_ms: 1,
            tolerance_ms: 0
        })
    );
}

#[test]
fn clock_before_the_epoch() {
    let generator = Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(ManualClock::at(TWITTER_EPOCH_MS - 1));
    let err = generator.try_next_id().unwrap_err();
    assert_eq!(
        err,
        GenerateError::ClockBeforeEpoch {
            now_ms: TWITTER_EPOCH_MS - 1
        }
    );
    assert_eq!(
        err.to_string(),
        "the clock reads 1288834974656 ms, before the Twitter epoch (1288834974657 ms, 2010-11-04T01:42:54.657Z)"
    );
    let generator =
        Generator::new(Identity::new(1, 1).unwrap()).with_clock(ManualClock::at(TWITTER_EPOCH_MS));
    assert_eq!(generator.next_id().timestamp_ms(), TWITTER_EPOCH_MS);
}

#[test]
fn the_last_millisecond_then_an_error_never_a_wrap() {
    let clock = ManualClock::at(MAX_TIMESTAMP_MS);
    let generator = Generator::new(Identity::new(31, 31).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::from_millis(5));
    let mut ids = vec![Snowflake::MAX; 4096];
    generator.fill(&mut ids);
    assert_eq!(ids[4095], Snowflake::MAX);
    clock.set(MAX_TIMESTAMP_MS + 1);
    let err = generator.try_next_id().unwrap_err();
    assert_eq!(
        err,
        GenerateError::ClockAfterMax {
            now_ms: MAX_TIMESTAMP_MS + 1
        }
    );
    assert_eq!(
        err.to_string(),
        "the clock reads 3487858230209 ms, after the last timestamp 41 bits hold (3487858230208 ms, 2080-07-10T17:30:30.208Z)"
    );
    clock.set(u64::MAX);
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::ClockAfterMax { now_ms: u64::MAX })
    );
}

#[test]
fn exhausting_the_last_millisecond_while_the_clock_stays() {
    let clock = ManualClock::at(MAX_TIMESTAMP_MS);
    let generator = Generator::new(Identity::new(0, 0).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::from_millis(5));
    let mut ids = vec![Snowflake::MAX; 4096];
    generator.fill(&mut ids);
    assert!(matches!(
        generator.try_next_id(),
        Err(GenerateError::ClockStalled { .. })
    ));
}

#[test]
fn fill_reserves_whole_milliseconds() {
    let clock = ScriptClock::new(|n| T + n);
    let generator = Generator::new(Identity::new(4, 5).unwrap()).with_clock(&clock);
    let mut ids = vec![Snowflake::MAX; 10_000];
    generator.fill(&mut ids);
    assert_strictly_increasing(&ids);
    // 4096 + 4096 + 1808: one clock reading for each batch.
    assert_eq!(clock.reads(), 3);
    assert_eq!(ids[0].parts().sequence, 0);
    assert_eq!(ids[4095].sequence(), 4095);
    assert_eq!(ids[4096].timestamp_ms(), ids[4095].timestamp_ms() + 1);
    assert_eq!(ids[9999].sequence(), 1807);
}

#[test]
fn fill_of_nothing() {
    let clock = ScriptClock::new(|_| T);
    let generator = Generator::new(Identity::new(4, 5).unwrap()).with_clock(&clock);
    generator.fill(&mut []);
    assert_eq!(clock.reads(), 0);
}

#[test]
fn fill_continues_where_next_id_left_off() {
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(ManualClock::at(T));
    let first = generator.next_id();
    let mut batch = [Snowflake::MAX; 10];
    generator.fill(&mut batch);
    assert_eq!(batch[0].as_u64(), first.as_u64() + 1);
    assert_eq!(generator.next_id().as_u64(), batch[9].as_u64() + 1);
}

#[test]
fn fill_error_keeps_what_was_issued() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::from_millis(2));
    let mut ids = vec![Snowflake::MAX; 5000];
    assert!(matches!(
        generator.try_fill(&mut ids),
        Err(GenerateError::ClockStalled { .. })
    ));
    assert_strictly_increasing(&ids[..4096]);
    assert!(ids[4096..].iter().all(|id| *id == Snowflake::MAX));
}

#[test]
fn fill_and_next_id_interleaved_across_threads() {
    let generator = Generator::new(Identity::new(3, 3).unwrap());
    let batches: Vec<Vec<Snowflake>> = std::thread::scope(|scope| {
        let filler = scope.spawn(|| {
            let mut all = Vec::new();
            for size in [1, 7, 4096, 5000, 100, 12_345] {
                let mut ids = vec![Snowflake::MAX; size];
                generator.fill(&mut ids);
                assert_strictly_increasing(&ids);
                all.extend(ids);
            }
            all
        });
        let single = scope.spawn(|| (0..50_000).map(|_| generator.next_id()).collect::<Vec<_>>());
        vec![filler.join().unwrap(), single.join().unwrap()]
    });
    for ids in &batches {
        assert_strictly_increasing(ids);
    }
    assert_unique(&batches);
}

#[test]
fn error_messages() {
    assert_eq!(
        GenerateError::ClockMovedBackwards {
            by_ms: 5000,
            tolerance_ms: 1000
        }
        .to_string(),
        "the clock moved backwards by 5000 ms, more than the 1000 ms the generator waits out"
    );
    assert_eq!(
        GenerateError::ClockStalled { waited_ms: 21 }.to_string(),
        "the clock did not advance in 21 ms while the generator waited for a new millisecond"
    );
}

#[test]
#[should_panic(expected = "snowflake generator: the clock reads 0 ms, before the Twitter epoch")]
fn next_id_panics_with_the_error() {
    Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(ManualClock::at(0))
        .next_id();
}

#[test]
fn debug_shows_the_identity() {
    let generator = Generator::new(Identity::new(11, 26).unwrap());
    assert_eq!(
        format!("{generator:?}"),
        "Generator { identity: Identity { datacenter: 11, machine: 26 }, tolerance_ms: 1000, clock: SystemClock, .. }"
    );
}

#[test]
fn the_ceiling_is_the_last_millisecond_issued() {
    let clock = ManualClock::at(T);
    let generator =
        FencedGenerator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
    generator.set_ceiling(Some(T));
    let mut ids = vec![Snowflake::MAX; 4096];
    generator.try_fill(&mut ids).unwrap();
    assert!(ids.iter().all(|id| id.timestamp_ms() == T));
    // The millisecond is full and the next one is past the ceiling: refused at once, no wait.
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::AboveCeiling {
            timestamp_ms: T + 1,
            ceiling_ms: T
        })
    );
    clock.set(T + 5);
    assert!(matches!(
        generator.try_next_id(),
        Err(GenerateError::AboveCeiling { timestamp_ms, .. }) if timestamp_ms == T + 5
    ));
    generator.set_ceiling(Some(T + 5));
    assert_eq!(generator.try_next_id().unwrap().timestamp_ms(), T + 5);
    generator.set_ceiling(Some(T + 4));
    assert!(generator.try_next_id().is_err());
    generator.set_ceiling(None);
    assert_eq!(generator.try_next_id().unwrap().timestamp_ms(), T + 5);
}

/// The hot path (one comparison against the ceiling's millisecond) and the general one
/// (`try_fill`) refuse and issue alike, at every ceiling around the clock, the epoch and the
/// format's end.
#[test]
fn the_hot_path_and_the_general_one_agree_on_the_ceiling() {
    for now in [T, TWITTER_EPOCH_MS, MAX_TIMESTAMP_MS] {
        let ceilings = [
            Some(0),
            Some(TWITTER_EPOCH_MS - 1),
            Some(now - 1),
            Some(now),
            Some(now + 1),
            Some(MAX_TIMESTAMP_MS),
            Some(u64::MAX - 1),
            Some(u64::MAX),
            None,
        ];
        for ceiling in ceilings {
            let fenced = || {
                let generator = FencedGenerator::new(Identity::new(1, 1).unwrap())
                    .with_clock(ManualClock::at(now));
                generator.set_ceiling(ceiling);
                generator
            };
            let one = fenced().try_next_id();
            let mut batch = [Snowflake::MAX; 1];
            let general = fenced().try_fill(&mut batch).map(|()| batch[0]);
            assert_eq!(one, general, "clock {now}, ceiling {ceiling:?}");
            assert_eq!(
                one.is_ok(),
                ceiling.is_none_or(|c| c >= now),
                "clock {now}, ceiling {ceiling:?}"
            );
        }
    }
}

#[test]
fn a_ceiling_below_the_epoch_refuses_everything() {
    let generator =
        FencedGenerator::new(Identity::new(1, 1).unwrap()).with_clock(ManualClock::at(T));
    generator.set_ceiling(Some(0));
    assert!(matches!(
        generator.try_next_id(),
        Err(GenerateError::AboveCeiling { ceiling_ms: 0, .. })
    ));
    let mut ids = [Snowflake::MAX; 3];
    assert!(generator.try_fill(&mut ids).is_err());
    assert_eq!(ids, [Snowflake::MAX; 3]);
}

#[test]
fn nothing_is_issued_after_halt_returns() {
    use std::sync::atomic::AtomicBool;
    let generator = FencedGenerator::new(Identity::new(1, 1).unwrap());
    let halted = AtomicBool::new(false);
    let late = AtomicU64::new(0);
    let issued = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let after_halt = halted.load(Ordering::Acquire);
                    match generator.try_next_id() {
                        Ok(_) if after_halt => {
                            late.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(_) => {
                            issued.fetch_add(1, Ordering::Relaxed);
                        }
                        Err(GenerateError::Halted) if after_halt => break,
                        Err(GenerateError::Halted) => {}
                        Err(e) => panic!("{e}"),
                    }
                }
            });
        }
        while issued.load(Ordering::Relaxed) < 100_000 {
            std::hint::spin_loop();
        }
        generator.halt();
        halted.store(true, Ordering::Release);
    });
    assert_eq!(late.load(Ordering::Relaxed), 0);
    assert!(generator.is_halted());
    generator.resume();
    assert!(generator.try_next_id().is_ok());
}

#[test]
fn ceiling_and_halt_messages() {
    assert_eq!(
        GenerateError::AboveCeiling {
            timestamp_ms: 5,
            ceiling_ms: 4
        }
        .to_string(),
        "the next ID would carry 5 ms, past the generator's ceiling of 4 ms"
    );
    assert_eq!(GenerateError::Halted.to_string(), "the generator is halted");
}

#[test]
fn the_floor_keeps_ids_above_a_high_water_mark() {
    let clock = ManualClock::at(T);
    let generator = FencedGenerator::new(Identity::new(1, 1).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::from_millis(5));
    generator.raise_floor(T - 100);
    assert_eq!(generator.try_next_id().unwrap().timestamp_ms(), T);
    // The clock is 10 ms behind the floor: more than the tolerance, an error at once.
    generator.raise_floor(T + 10);
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::ClockMovedBackwards {
            by_ms: 10,
            tolerance_ms: 5
        })
    );
    clock.set(T + 11);
    assert_eq!(generator.try_next_id().unwrap().timestamp_ms(), T + 11);
    // A lower floor changes nothing; a halt survives a raise.
    generator.raise_floor(T);
    assert_eq!(generator.try_next_id().unwrap().timestamp_ms(), T + 11);
    generator.halt();
    generator.raise_floor(T + 20);
    assert_eq!(generator.try_next_id(), Err(GenerateError::Halted));
    generator.resume();
    clock.set(T + 21);
    assert_eq!(generator.try_next_id().unwrap().timestamp_ms(), T + 21);
}

// Each test below kills a mutant that cargo-mutants found alive (scripts/mutants.sh).

#[test]
fn a_lower_floor_never_rewinds_the_generator() {
    let clock = ManualClock::at(T);
    let generator =
        FencedGenerator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
    let a = generator.try_next_id().unwrap();
    generator.raise_floor(T - 5);
    let b = generator.try_next_id().unwrap();
    assert!(b > a, "{b:?} after {a:?}");
    assert_eq!((b.timestamp_ms(), b.sequence()), (T, a.sequence() + 1));
    // Nor across a halt.
    generator.halt();
    generator.raise_floor(T - 5);
    generator.resume();
    let c = generator.try_next_id().unwrap();
    assert_eq!((c.timestamp_ms(), c.sequence()), (T, b.sequence() + 1));
}

#[test]
fn a_floor_at_the_end_of_time_is_clamped_to_it() {
    let clock = ManualClock::at(T);
    let generator =
        FencedGenerator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
    generator.raise_floor(u64::MAX);
    // The floor is the millisecond after the last one: every ID is refused, and the
    // distance names the last one exactly.
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::ClockMovedBackwards {
            by_ms: MAX_TIMESTAMP_MS - T,
            tolerance_ms: 1000
        })
    );
    let last = FencedGenerator::new(Identity::new(1, 1).unwrap())
        .with_clock(ManualClock::at(MAX_TIMESTAMP_MS));
    last.raise_floor(MAX_TIMESTAMP_MS - 1);
    assert_eq!(last.try_next_id().unwrap().timestamp_ms(), MAX_TIMESTAMP_MS);
}

#[test]
fn a_tolerance_past_u64_ms_is_clamped_not_truncated() {
    let generator = Generator::new(Identity::new(1, 1).unwrap());
    let max = Duration::from_millis(u64::MAX);
    assert_eq!(generator.with_tolerance(Duration::MAX).tolerance(), max);
    let generator = Generator::new(Identity::new(1, 1).unwrap());
    let just_past = max + Duration::from_millis(1);
    assert_eq!(generator.with_tolerance(just_past).tolerance(), max);
}

#[test]
fn a_later_reading_by_another_thread_is_no_step_back() {
    // The first ID is at T + 1; the next call reads T, behind it, then reads again.
    let clock = ScriptClock::new(|n| if n == 1 { T } else { T + 1 });
    let generator = Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(&clock)
        .with_tolerance(Duration::ZERO);
    let a = generator.try_next_id().unwrap();
    let b = generator.try_next_id().unwrap();
    assert_eq!((a.timestamp_ms(), a.sequence()), (T + 1, 0));
    assert_eq!((b.timestamp_ms(), b.sequence()), (T + 1, 1));
}

#[test]
fn a_step_back_of_exactly_the_tolerance_is_waited_out() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::from_millis(5));
    generator.next_id();
    clock.set(T - 5);
    let id = generator.try_next_id().unwrap();
    assert_eq!((id.timestamp_ms(), id.sequence()), (T, 1));
    clock.set(T - 6);
    assert_eq!(
        generator.try_next_id(),
        Err(GenerateError::ClockMovedBackwards {
            by_ms: 6,
            tolerance_ms: 5
        })
    );
}

#[test]
fn try_fill_on_a_stopped_clock_never_stamps_ahead_of_it() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap())
        .with_clock(Arc::clone(&clock))
        .with_tolerance(Duration::from_millis(10));
    let unset = Snowflake::try_from(0_u64).unwrap();
    let mut ids = vec![unset; 2 * 4096];
    let result = generator.try_fill(&mut ids);
    assert!(
        matches!(result, Err(GenerateError::ClockStalled { .. })),
        "{result:?}"
    );
    assert!(ids[..4096].iter().all(|id| id.timestamp_ms() == T));
    assert!(ids.iter().all(|id| id.timestamp_ms() <= T));
}

#[test]
fn a_generator_says_its_identity() {
    let generator = Generator::new(Identity::new(11, 26).unwrap());
    assert_eq!((generator.datacenter(), generator.machine()), (11, 26));
    assert_eq!(
        generator.identity(),
        snowflake_runtime::Identity::new(11, 26).unwrap()
    );
}

/// The rule a caller waiting on a timer asks, through `__private` (the server's queue).
fn check_wait<C: Clock>(
    generator: &Generator<C>,
    from_ms: u64,
    until_ms: u64,
    waited: Duration,
) -> Result<(), GenerateError> {
    snowflake_runtime::__private::check_wait(
        generator.clock(),
        generator.tolerance(),
        from_ms,
        until_ms,
        waited,
    )
}

#[test]
fn a_wait_is_a_stalled_clock_only_past_its_budget_and_before_its_millisecond() {
    let clock = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
    let ms = Duration::from_millis;
    // Waiting from T - 10 for T + 10: 20 ms expected, plus the 1 s tolerance.
    assert_eq!(check_wait(&generator, T - 10, T + 10, ms(1020)), Ok(()));
    assert_eq!(
        check_wait(&generator, T - 10, T + 10, ms(1021)),
        Err(GenerateError::ClockStalled { waited_ms: 1021 })
    );
    // The clock reached the millisecond: never stalled, however long the wait.
    assert_eq!(check_wait(&generator, T - 10, T, ms(60_000)), Ok(()));
    clock.set(T + 10);
    assert_eq!(check_wait(&generator, T - 10, T + 10, ms(60_000)), Ok(()));
    // A clock that cannot be an ID's says so first.
    clock.set(TWITTER_EPOCH_MS - 1);
    assert_eq!(
        check_wait(&generator, T - 10, T + 10, ms(0)),
        Err(GenerateError::ClockBeforeEpoch {
            now_ms: TWITTER_EPOCH_MS - 1
        })
    );
}

/// `try_fill_now` takes what the millisecond has left, then says when to come back; it
/// never waits, and never writes past what it returns.
#[test]
fn try_fill_now_takes_what_is_left_then_would_wait() {
    let now = ManualClock::at(T);
    let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&now));
    let mut ids = vec![Snowflake::MAX; 5000];
    assert_eq!(generator.try_fill_now(&mut ids[..96]), Ok(96));
    // 4,000 left in this millisecond: all of them, and nothing past them.
    assert_eq!(generator.try_fill_now(&mut ids[96..]), Ok(4000));
    assert_eq!(ids[4095].sequence(), 4095);
    assert_eq!(ids[4096], Snowflake::MAX);
    assert_eq!(
        generator.try_fill_now(&mut ids[4096..]),
        Err(GenerateError::WouldWait { until_ms: T + 1 })
    );
    now.set(T + 1);
    assert_eq!(generator.try_fill_now(&mut ids[4096..]), Ok(904));
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    assert_eq!((ids[4096].timestamp_ms(), ids[4096].sequence()), (T + 1, 0));
    assert_eq!(generator.try_fill_now(&mut []), Ok(0));
    let fenced = FencedGenerator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&now));
    fenced.halt();
    assert_eq!(fenced.try_fill_now(&mut ids), Err(GenerateError::Halted));
}

/// `next_id_async` and `fill_async`: the generator's waits, on tokio's timer and the edge
/// timer.
#[cfg(feature = "tokio")]
mod on_tokios_timer {
    use super::*;

    fn used_up(clock: &Arc<ManualClock>, tolerance_ms: u64) -> Generator<Arc<ManualClock>> {
        let generator = Generator::new(Identity::new(1, 1).unwrap())
            .with_clock(Arc::clone(clock))
            .with_tolerance(Duration::from_millis(tolerance_ms));
        let mut ids = vec![Snowflake::MIN; 4096];
        generator.try_fill(&mut ids).unwrap();
        generator
    }

    #[tokio::test(flavor = "current_thread")]
    async fn next_id_async_waits_for_the_clock_without_blocking_the_worker() {
        let clock = ManualClock::at(T);
        let generator = used_up(&clock, 1000);
        // On this one thread, the task that moves the clock runs only if the one that
        // waits for it yields the worker: a blocking wait would stall here until the
        // tolerance ran out.
        let mover = {
            let clock = Arc::clone(&clock);
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                clock.set(T + 1);
            })
        };
        let id = generator.next_id_async().await.unwrap();
        assert_eq!((id.timestamp_ms(), id.sequence()), (T + 1, 0));
        mover.await.unwrap();
    }

    #[tokio::test(flavor = "current_thread")]
    async fn next_id_async_says_a_stopped_clock_stalled() {
        let clock = ManualClock::at(T);
        let generator = used_up(&clock, 20);
        match generator.next_id_async().await {
            // As `try_next_id` judges it: past the tolerance plus the wait it expected.
            Err(GenerateError::ClockStalled { waited_ms }) => {
                assert!(waited_ms >= 21, "{waited_ms}");
            }
            other => panic!("{other:?}"),
        }
        clock.set(T + 1);
        assert_eq!(
            generator.next_id_async().await.unwrap().timestamp_ms(),
            T + 1
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn next_id_async_passes_other_errors_at_once() {
        let clock = ManualClock::at(T);
        let generator = used_up(&clock, 1000);
        clock.set(TWITTER_EPOCH_MS - 1);
        assert_eq!(
            generator.next_id_async().await,
            Err(GenerateError::ClockBeforeEpoch {
                now_ms: TWITTER_EPOCH_MS - 1
            })
        );
        clock.set(T - 5_000);
        assert!(matches!(
            generator.next_id_async().await,
            Err(GenerateError::ClockMovedBackwards { .. })
        ));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn fill_async_spans_milliseconds_as_the_clock_moves() {
        let clock = ManualClock::at(T);
        let generator = Generator::new(Identity::new(1, 1).unwrap()).with_clock(Arc::clone(&clock));
        let mover = {
            let clock = Arc::clone(&clock);
            tokio::spawn(async move {
                for ms in 1..=2 {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    clock.set(T + ms);
                }
            })
        };
        let mut ids = vec![Snowflake::MIN; 4096 * 3];
        generator.fill_async(&mut ids).await.unwrap();
        assert_strictly_increasing(&ids);
        assert_eq!(
            (ids[0].timestamp_ms(), ids[4096 * 3 - 1].timestamp_ms()),
            (T, T + 2)
        );
        mover.await.unwrap();
    }

    /// On the system's clock, which says when its next millisecond begins, `fill_async`
    /// wakes as it begins: 40 milliseconds' IDs span 40 of the clock's milliseconds (41
    /// where the first was under way), give or take a late wake-up. Waiting a
    /// millisecond on tokio's timer instead, which fires on ticks of its own and up to
    /// one late, they spanned about 80.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn fill_async_takes_each_millisecond_as_it_begins() {
        let generator = Generator::new(Identity::new(1, 1).unwrap());
        let mut ids = vec![Snowflake::MIN; 40 * 4096];
        generator.fill_async(&mut ids).await.unwrap();
        assert_strictly_increasing(&ids);
        let span = ids[ids.len() - 1].timestamp_ms() - ids[0].timestamp_ms() + 1;
        assert!(
            (40..=55).contains(&span),
            "40 milliseconds' IDs spread over {span}: the waits woke late"
        );
    }

    /// A clock that says its millisecond has come (`time_until_ms` zero) while its reading
    /// stays short of it is waited for all the same, never spun on: it is looked at some
    /// thousands of times until it is judged stalled, where a loop that believed it
    /// looked some hundreds of thousands of times.
    #[tokio::test(flavor = "current_thread")]
    async fn a_clock_that_says_it_has_come_is_not_spun_on() {
        struct SaysNow {
            reads: AtomicU64,
        }
        impl Clock for SaysNow {
            fn now_ms(&self) -> u64 {
                self.reads.fetch_add(1, Ordering::Relaxed);
                T
            }
            fn time_until_ms(&self, _ms: u64) -> Option<Duration> {
                Some(Duration::ZERO)
            }
        }
        let clock = Arc::new(SaysNow {
            reads: AtomicU64::new(0),
        });
        let generator = Generator::new(Identity::new(1, 1).unwrap())
            .with_clock(Arc::clone(&clock))
            .with_tolerance(Duration::from_millis(50));
        let mut ids = vec![Snowflake::MIN; 4096];
        generator.try_fill(&mut ids).unwrap();
        let reads = clock.reads.load(Ordering::Relaxed);
        assert!(matches!(
            generator.next_id_async().await,
            Err(GenerateError::ClockStalled { .. })
        ));
        let reads = clock.reads.load(Ordering::Relaxed) - reads;
        assert!(
            (10..50_000).contains(&reads),
            "the clock read {reads} times in a stall of 50 ms"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn many_tasks_share_one_generator_on_the_system_clock() {
        static IDS: Generator = match Identity::new(1, 1) {
            Ok(identity) => Generator::new(identity),
            Err(_) => panic!("in range"),
        };
        let tasks: Vec<_> = (0..16)
            .map(|_| {
                tokio::spawn(async {
                    let mut ids = Vec::new();
                    for _ in 0..1000 {
                        ids.push(IDS.next_id_async().await.unwrap());
                    }
                    ids
                })
            })
            .collect();
        let mut batches = Vec::new();
        for task in tasks {
            let ids = task.await.unwrap();
            assert_strictly_increasing(&ids);
            batches.push(ids);
        }
        assert_unique(&batches);
    }
}

/// The rule a caller waiting on a timer asks (the server's queue), as its doc example had it.
#[test]
fn check_wait_says_stalled_only_past_the_expected_wait_and_the_tolerance() {
    let generator = Generator::new(Identity::new(1, 1).unwrap());
    let now = generator.clock().now_ms();
    // The clock reached the millisecond: never stalled, however long the wait.
    assert_eq!(
        check_wait(&generator, now - 5, now, Duration::from_secs(60)),
        Ok(())
    );
    // Waiting for an hour from now, a wait expected to take 10 ms: past those and the
    // 1 s tolerance, the clock has stalled.
    let until = now + 3_600_000;
    assert_eq!(
        check_wait(&generator, until - 10, until, Duration::from_millis(1011)),
        Err(GenerateError::ClockStalled { waited_ms: 1011 }),
    );
    assert_eq!(
        check_wait(&generator, until - 10, until, Duration::from_millis(1010)),
        Ok(())
    );
}
