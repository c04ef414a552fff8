//! Fair issuing. An ID to be had now is taken at once; a request that must wait for the
//! clock waits on a timer, never a thread, in a first-come, first-served queue, and wakes as
//! the millisecond it waits for begins (the edge timer of `next_id_async`): no core is
//! spent watching the clock. Without it,
//! requests for 4,096 IDs take each millisecond as it begins, and one for a single ID waits
//! behind all of them for as long as they keep coming.
//!
//! Single IDs have a lane of their own, served first: the batch whose turn it is lets those
//! waiting take theirs first. That costs the batch a 4,096th of a millisecond; a turn behind
//! the batches would cost the single ID a millisecond per batch queued. The batch yields only
//! to the singles waiting when it began to yield, for 2 ms at a time: a stream of them would
//! otherwise hold it off while most of each millisecond went to nobody. It waits for them to
//! be served, woken as each leaves, without looking in between.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use snowflake_kit::__private::{check_wait, until_clock_reads};
use snowflake_kit::{Clock, GenerateError};
use tokio::sync::{Mutex, Notify};

/// The most a batch lets single IDs go first.
const PATIENCE: Duration = Duration::from_millis(2);

/// The queue of requests that wait for the clock.
pub(crate) struct Queue {
    /// Held by the batch whose turn it is: tokio's mutex serves in arrival order.
    turn: Mutex<()>,
    /// Batches waiting: while any do, newcomers queue rather than take the first's millisecond.
    batches: Tally,
    /// Held by the single ID whose turn it is, in the lane served first.
    single_turn: Mutex<()>,
    /// The single IDs that wait.
    singles: Tally,
    /// How long a batch lets single IDs go first, at most, before it takes its own.
    patience: Duration,
}

impl Default for Queue {
    fn default() -> Queue {
        Queue {
            turn: Mutex::default(),
            batches: Tally::default(),
            single_turn: Mutex::default(),
            singles: Tally::default(),
            patience: PATIENCE,
        }
    }
}

/// Counts requests into a lane and out (served, failed or dropped): the difference waits now.
#[derive(Default)]
struct Tally {
    arrived: AtomicU64,
    left: AtomicU64,
    /// Told as each leaves.
    leaving: Notify,
}

impl Tally {
    /// Counts a request in until the guard drops.
    fn arrive(&self) -> Leaves<'_> {
        self.arrived.fetch_add(1, Ordering::AcqRel);
        Leaves(self)
    }

    /// How many wait now.
    fn waiting(&self) -> u64 {
        // `left` first: it never passes `arrived`, so the difference never wraps.
        let left = self.left.load(Ordering::Acquire);
        self.arrived.load(Ordering::Acquire) - left
    }
}

/// Counts a request out of its lane when it drops.
struct Leaves<'a>(&'a Tally);

impl Drop for Leaves<'_> {
    fn drop(&mut self) {
        self.0.left.fetch_add(1, Ordering::AcqRel);
        self.0.leaving.notify_waiters();
    }
}

impl Queue {
    /// The lane of single IDs, served first; or of batches, which let the single IDs waiting
    /// go first.
    pub(crate) fn lane(&self, asks: Asks) -> Lane<'_> {
        let (turn, tally, yields_to) = match asks {
            Asks::One => (&self.single_turn, &self.singles, None),
            Asks::Batch => (&self.turn, &self.batches, Some(&self.singles)),
        };
        Lane {
            turn,
            tally,
            yields_to,
            patience: self.patience,
        }
    }
}

/// What a request asks for, which says its lane.
#[derive(Clone, Copy)]
pub(crate) enum Asks {
    One,
    Batch,
}

/// One of the queue's lanes.
pub(crate) struct Lane<'a> {
    turn: &'a Mutex<()>,
    tally: &'a Tally,
    /// The lane served first, if this is not it.
    yields_to: Option<&'a Tally>,
    /// How long it lets that lane go first, at most.
    patience: Duration,
}

impl Lane<'_> {
    /// `take` until done: it issues what it can and says [`GenerateError::WouldWait`] for the
    /// rest, from a generator on `clock` with `tolerance`. A stall is judged by `check_wait`:
    /// a clock short of the millisecond, never a wait behind other requests. Errors come back
    /// as the generator's; what they mean for a request is the issuer's to say.
    pub(crate) async fn issue<T>(
        &self,
        mut take: impl FnMut() -> Result<T, GenerateError>,
        clock: &impl Clock,
        tolerance: Duration,
    ) -> Result<T, GenerateError> {
        let first = |tally: &Tally| tally.waiting() == 0;
        if first(self.tally) && self.yields_to.is_none_or(first) {
            match take() {
                Err(GenerateError::WouldWait { .. }) => {}
                other => return other,
            }
        }
        let _leaves = self.tally.arrive();
        let _turn = self.turn.lock().await;
        // Timed from the first wait on the clock in this turn, not from the queue.
        let mut started = None;
        // Since when this turn lets single IDs go first, and how many had come by then: only
        // those go first (a stream would hold the batch off), for at most its patience.
        let mut yielding = None;
        loop {
            if let Some(singles) = self.yields_to {
                let (since, arrived) = *yielding.get_or_insert_with(|| {
                    (
                        std::time::Instant::now(),
                        singles.arrived.load(Ordering::Acquire),
                    )
                });
                // Listening before looking: one who leaves in between still wakes it.
                let mut left = std::pin::pin!(singles.leaving.notified());
                left.as_mut().enable();
                let patience = self.patience.saturating_sub(since.elapsed());
                if singles.left.load(Ordering::Acquire) < arrived && !patience.is_zero() {
                    let _ = tokio::time::timeout(patience, left).await;
                    continue;
                }
            }
            yielding = None;
            let until_ms = match take() {
                Err(GenerateError::WouldWait { until_ms }) => until_ms,
                other => return other,
            };
            let now_ms = clock.now_ms();
            let (started, from_ms) =
                *started.get_or_insert_with(|| (tokio::time::Instant::now(), now_ms));
            check_wait(clock, tolerance, from_ms, until_ms, started.elapsed())?;
            // Asleep until the millisecond begins, to its instant on the system's clock: the
            // last of tokio's timer's ticks would be up to one late and lose it. A clock that
            // does not come (stalled, or a test's) is looked at again a millisecond or so on.
            until_clock_reads(clock, until_ms).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    use snowflake_kit::{Generator, Identity, Snowflake};
    use snowflake_test_support::T;
    use snowflake_test_support::clock::{StoppedClock, TokioClock};

    use super::*;
    use crate::issuer::Issuer;

    /// A clock standing at `T`.
    const STILL: StoppedClock = StoppedClock(T);

    /// A tolerance no wait in these tests runs past: a stall is not what they look at.
    const NEVER_STALLS: Duration = Duration::MAX;

    /// A batch in `queue`, its millisecond used up until `open`; counts `take` calls in `calls`.
    fn batch(
        queue: &Arc<Queue>,
        open: &Arc<AtomicBool>,
        calls: &Arc<AtomicUsize>,
    ) -> tokio::task::JoinHandle<Result<(), GenerateError>> {
        let (queue, open, calls) = (Arc::clone(queue), Arc::clone(open), Arc::clone(calls));
        tokio::spawn(async move {
            let take = || {
                calls.fetch_add(1, Ordering::SeqCst);
                if open.load(Ordering::SeqCst) {
                    Ok(())
                } else {
                    Err(GenerateError::WouldWait { until_ms: T })
                }
            };
            queue
                .lane(Asks::Batch)
                .issue(take, &STILL, NEVER_STALLS)
                .await
        })
    }

    /// A single ID in `queue`, its millisecond used up while `used_up`.
    fn one_id(
        queue: &Arc<Queue>,
        used_up: &Arc<AtomicBool>,
    ) -> tokio::task::JoinHandle<Result<u32, GenerateError>> {
        let (queue, used_up) = (Arc::clone(queue), Arc::clone(used_up));
        tokio::spawn(async move {
            let take = || {
                if used_up.load(Ordering::SeqCst) {
                    Err(GenerateError::WouldWait { until_ms: T })
                } else {
                    Ok(7)
                }
            };
            queue
                .lane(Asks::One)
                .issue(take, &STILL, NEVER_STALLS)
                .await
        })
    }

    /// Gives the batch's task (on this thread) its turns.
    async fn turns() {
        for _ in 0..50 {
            tokio::task::yield_now().await;
        }
    }

    fn patient() -> Arc<Queue> {
        Arc::new(Queue {
            patience: Duration::from_secs(3600),
            ..Queue::default()
        })
    }

    /// A batch that finds a single ID waiting takes nothing until it has gone.
    #[tokio::test(flavor = "current_thread")]
    async fn a_batch_takes_nothing_while_a_single_id_waits() {
        let queue = patient();
        let (open, calls) = (Arc::default(), Arc::default());
        let single = queue.singles.arrive();
        let batch = batch(&queue, &open, &calls);
        turns().await;
        assert_eq!(queue.batches.waiting(), 1, "the batch waits in its turn");
        open.store(true, Ordering::SeqCst);
        turns().await;
        assert_eq!(
            calls.load(Ordering::SeqCst),
            0,
            "it took beside a single ID"
        );
        drop(single);
        batch.await.unwrap().unwrap();
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }

    /// A batch waits only for the single IDs already waiting: a stream of them cannot hold it off.
    #[tokio::test(flavor = "current_thread")]
    async fn a_batch_waits_only_for_the_single_ids_already_waiting() {
        let queue = patient();
        let (open, calls) = (Arc::new(AtomicBool::new(true)), Arc::default());
        let first = queue.singles.arrive();
        let batch = batch(&queue, &open, &calls);
        turns().await;
        assert_eq!(queue.batches.waiting(), 1, "the batch waits in its turn");
        let later = queue.singles.arrive();
        turns().await;
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        drop(first);
        tokio::time::timeout(Duration::from_secs(10), batch)
            .await
            .expect("the batch waited for a single ID that came after it began")
            .unwrap()
            .unwrap();
        drop(later);
    }

    /// A single ID that never goes holds a batch off for its patience only.
    #[tokio::test(flavor = "current_thread")]
    async fn a_batch_waits_for_single_ids_for_a_while_only() {
        let queue = Arc::new(Queue {
            patience: Duration::from_millis(50),
            ..Queue::default()
        });
        let (open, calls) = (Arc::new(AtomicBool::new(true)), Arc::default());
        let _stuck = queue.singles.arrive();
        let started = std::time::Instant::now();
        let batch = batch(&queue, &open, &calls);
        tokio::time::timeout(Duration::from_secs(10), batch)
            .await
            .expect("a single ID held the batch off for good")
            .unwrap()
            .unwrap();
        assert!(started.elapsed() >= Duration::from_millis(50));
    }

    /// Single IDs go ahead of a waiting batch; one dropped while it waits is counted out.
    #[tokio::test(flavor = "current_thread")]
    async fn single_ids_go_ahead_and_are_counted_out_when_dropped() {
        let queue = patient();
        let (open, calls) = (Arc::default(), Arc::default());
        let batch = batch(&queue, &open, &calls);
        turns().await;
        // The millisecond is used up: the single ID waits in its lane, not the batches'.
        let used_up = Arc::new(AtomicBool::new(true));
        let single = one_id(&queue, &used_up);
        turns().await;
        assert_eq!(queue.singles.waiting(), 1);
        // The batch's millisecond has come, yet it stops looking while the single ID waits:
        // over real time, in which a batch that did not stop would look each millisecond.
        open.store(true, Ordering::SeqCst);
        let looks = calls.load(Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert_eq!(
            calls.load(Ordering::SeqCst),
            looks,
            "it looked beside a single ID"
        );
        used_up.store(false, Ordering::SeqCst);
        assert_eq!(single.await.unwrap().unwrap(), 7);
        assert_eq!(queue.singles.waiting(), 0);
        // Dropped while it waits.
        used_up.store(true, Ordering::SeqCst);
        let dropped = one_id(&queue, &used_up);
        turns().await;
        assert_eq!(queue.singles.waiting(), 1);
        dropped.abort();
        let _ = dropped.await;
        assert_eq!(queue.singles.waiting(), 0);
        batch.await.unwrap().unwrap();
    }

    /// A wait for the next millisecond sleeps to its start, never watches the clock: a
    /// batch of 40 milliseconds' IDs on the system's clock looks at the generator about
    /// once a millisecond, where a turn that yielded in a loop until the millisecond came
    /// (the queue before the edge timer: a core spent) looked hundreds of times.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_wait_for_the_next_millisecond_sleeps_until_it_begins() {
        let generator = Generator::new(Identity::new(1, 1).unwrap());
        let queue = Queue::default();
        let mut out = vec![Snowflake::MAX; 40 * 4096];
        let (mut done, mut looks) = (0, 0_u64);
        let started = std::time::Instant::now();
        let take = || {
            looks += 1;
            while done < out.len() {
                done += generator.try_fill_now(&mut out[done..])?;
            }
            Ok(())
        };
        queue
            .lane(Asks::Batch)
            .issue(take, generator.clock(), generator.tolerance())
            .await
            .unwrap();
        let ms = u64::try_from(started.elapsed().as_millis()).unwrap();
        // The first millisecond's IDs may be taken as it ends, the rest in the 39 after it.
        assert!(ms >= 38, "40 milliseconds' IDs in {ms} ms");
        assert!(
            looks <= 2 * ms + 4,
            "{looks} looks at the generator in {ms} ms: the wait watched the clock"
        );
        assert!(out.windows(2).all(|w| w[0] < w[1]));
    }

    // The queue in front of an issuer, as the handlers use it.

    /// `tasks` tasks taking a whole millisecond's IDs until `stop`, counting each in `filled`.
    fn batches(
        tasks: usize,
        issuer: &Arc<Issuer<TokioClock>>,
        queue: &Arc<Queue>,
        filled: &Arc<AtomicUsize>,
        stop: &Arc<AtomicBool>,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        (0..tasks)
            .map(|_| {
                let (issuer, queue, filled, stop) = (
                    Arc::clone(issuer),
                    Arc::clone(queue),
                    Arc::clone(filled),
                    Arc::clone(stop),
                );
                tokio::spawn(async move {
                    let mut out = vec![Snowflake::MAX; 4096];
                    while !stop.load(Ordering::Relaxed) {
                        issuer.fill(&queue, &mut out).await.unwrap();
                        filled.fetch_add(1, Ordering::Relaxed);
                        // Back as the next millisecond begins, as fresh requests come.
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                })
            })
            .collect()
    }

    /// Beside twenty tasks taking whole milliseconds of IDs, a request for one ID gets it in
    /// the next millisecond, ahead of the batches queued before it, and no stall is reported.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn one_id_goes_ahead_of_requests_for_whole_milliseconds() {
        let clock = TokioClock::new();
        let issuer = Arc::new(Issuer::Unleased(
            Generator::new(Identity::new(1, 1).unwrap()).with_clock(clock),
        ));
        let queue = Arc::new(Queue::default());
        let filled = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let bulk = batches(20, &issuer, &queue, &filled, &stop);
        // The batches have the clock's milliseconds to themselves for a while.
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(queue.batches.waiting() > 10, "batches queue");
        let mut waits = Vec::new();
        for _ in 0..20 {
            let started = tokio::time::Instant::now();
            let id = issuer.next_id(&queue).await.unwrap();
            waits.push(started.elapsed());
            assert_eq!(id.datacenter(), 1);
        }
        stop.store(true, Ordering::Relaxed);
        for task in bulk {
            task.await.unwrap();
        }
        assert!(filled.load(Ordering::Relaxed) > 40);
        // The next millisecond, where a turn behind the batches took one for each.
        let longest = waits.iter().max().unwrap();
        assert!(*longest <= Duration::from_millis(2), "waited {waits:?}");
    }

    /// Four tasks asking for single IDs back to back, beside 50 whole-millisecond batches
    /// in one queue: the batches must finish within 20 s; returns the single IDs issued.
    async fn stream<C: Clock + 'static>(generator: Generator<C>) -> u64 {
        // One stream at a time: the one on two threads needs both cores, and the one on
        // tokio's paused clock keeps one busy.
        static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
        let _alone = ONE_AT_A_TIME.lock().await;
        let issuer = Arc::new(Issuer::Unleased(generator));
        let queue = Arc::new(Queue::default());
        let stop = Arc::new(AtomicBool::new(false));
        let singles: Vec<_> = (0..4)
            .map(|_| {
                let (issuer, queue, stop) =
                    (Arc::clone(&issuer), Arc::clone(&queue), Arc::clone(&stop));
                tokio::spawn(async move {
                    let mut count = 0_u64;
                    while !stop.load(Ordering::Relaxed) {
                        issuer.next_id(&queue).await.unwrap();
                        count += 1;
                        // As a request's task ends: an ID taken at once never yields,
                        // and a loop of them would starve the batch's task of polls,
                        // not of IDs, which failed the test now and then at a load of 4.
                        tokio::task::yield_now().await;
                    }
                    count
                })
            })
            .collect();
        let mut out = vec![Snowflake::MAX; 4096];
        let started = std::time::Instant::now();
        let batches = async {
            for _ in 0..50 {
                issuer.fill(&queue, &mut out).await.unwrap();
            }
        };
        let done = tokio::time::timeout(Duration::from_secs(20), batches).await;
        let took = started.elapsed();
        stop.store(true, Ordering::Relaxed);
        assert!(done.is_ok(), "the batches starved: not done in {took:?}");
        let mut singles_issued = 0;
        for task in singles {
            singles_issued += task.await.unwrap();
        }
        singles_issued
    }

    /// A stream of single IDs cannot hold the batches off: a batch lets those already
    /// waiting go first, for a short while only. On one thread and tokio's paused clock, so
    /// that the count is the rule's, not the machine's: on two threads and the real clock,
    /// the singles' share moved with the load from 1% to 27% (the test below).
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_stream_of_single_ids_does_not_starve_the_batches() {
        let clock = TokioClock::new();
        let singles_issued =
            stream(Generator::new(Identity::new(1, 1).unwrap()).with_clock(clock)).await;
        // They wait for a millisecond each time a batch has taken the last: some dozens.
        assert!(singles_issued > 20, "{singles_issued} single IDs");
        // Those waiting when a batch begins go first, a few dozen a millisecond, and the
        // batch takes the rest: a small share, however busy the machine. Holding the
        // batches off while any single waited gives the singles several times this bound.
        let batch_ids: u64 = 50 * 4096;
        assert!(
            singles_issued < batch_ids / 16,
            "the batches were held off: the singles had {singles_issued} IDs to the batches' \
             {batch_ids}, over one in 17"
        );
    }

    /// The same on two threads and the real clock: the batches finish and the singles get
    /// some. How many hangs on the machine's scheduling (the test above holds the rule), so
    /// only that the batches have the most.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stream_of_single_ids_on_two_threads_lets_the_batches_finish() {
        let singles_issued = stream(Generator::new(Identity::new(1, 1).unwrap())).await;
        assert!(singles_issued > 20, "{singles_issued} single IDs");
        let batch_ids: u64 = 50 * 4096;
        assert!(
            singles_issued < batch_ids,
            "the batches had under half of the IDs: {batch_ids} to the singles' {singles_issued}"
        );
    }
}
