//! Issuing from async code without blocking the worker: the generator's waits for the
//! clock taken on a timer, judged by the generator's own rule.
//!
//! tokio's timer fires on whole-millisecond ticks, up to one late: a wait for the next
//! millisecond on it loses half of them, or, spun out in the last one, burns a core. A
//! clock that can say when its next millisecond begins ([`Clock::time_until_ms`]) is
//! waited for on tokio's timer to within 2 ms, then on the edge timer: one thread for the
//! process, asleep while nobody waits, that wakes the waiting tasks at their instant.

use core::future::Future;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use std::collections::BinaryHeap;
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use crate::clock::Clock;
use crate::error::GenerateError;
use crate::generator::Generator;
use crate::snowflake::Snowflake;

impl<C: Clock> Generator<C> {
    /// The next ID, from an async task: as [`try_next_id`](Generator::try_next_id),
    /// but where that would spin or sleep for the clock (a millisecond's 4,096 used up,
    /// a clock that stepped back within the tolerance), this sleeps on a timer until the
    /// clock reads the millisecond it waits for, so the worker thread goes on with other
    /// tasks and no core is spent watching the clock. The wait ends within some tens of
    /// microseconds of the millisecond's start on a clock that says when that is
    /// ([`Clock::time_until_ms`]: the [`SystemClock`](crate::SystemClock) does), and
    /// within a millisecond or so on one that does not. Needs a tokio runtime with its
    /// timer enabled (`enable_time`, or `#[tokio::main]`).
    ///
    /// ```
    /// use snowflake_kit::{Generator, Identity};
    ///
    /// static IDS: Generator = match Identity::new(1, 1) {
    ///     Ok(identity) => Generator::new(identity),
    ///     Err(_) => panic!("datacenter and machine are 0..=31"),
    /// };
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), snowflake_kit::GenerateError> {
    /// // In a handler, say of axum: many tasks share one generator.
    /// let tasks: Vec<_> = (0..8)
    ///     .map(|_| tokio::spawn(async { IDS.next_id_async().await }))
    ///     .collect();
    /// for task in tasks {
    ///     let id = task.await.expect("the task ran")?;
    ///     assert_eq!((id.datacenter(), id.machine()), (1, 1));
    /// }
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`try_next_id`](Generator::try_next_id): a clock before the epoch or after
    /// 2080, stepped back further than the tolerance, or stopped
    /// ([`GenerateError::ClockStalled`], judged as `try_next_id` judges its own waits).
    pub async fn next_id_async(&self) -> Result<Snowflake, GenerateError> {
        let mut waiting = Waiting::default();
        loop {
            match self.try_next_id_now() {
                Err(GenerateError::WouldWait { until_ms }) => {
                    waiting.wait(self, until_ms).await?;
                }
                other => return other,
            }
        }
    }

    /// Fills `out` with new IDs, from an async task: as [`try_fill`](Generator::try_fill),
    /// waiting for the clock on a timer as [`next_id_async`](Generator::next_id_async)
    /// does: 4,096 IDs each millisecond, at the cost of a wake-up each.
    ///
    /// ```
    /// use snowflake_kit::{Generator, Identity, Snowflake};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), snowflake_kit::GenerateError> {
    /// let generator = Generator::new(Identity::new(1, 1).expect("in range"));
    /// let mut ids = vec![Snowflake::MIN; 10_000]; // more than a millisecond holds
    /// generator.fill_async(&mut ids).await?;
    /// assert!(ids.windows(2).all(|w| w[0] < w[1]));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// As [`try_fill`](Generator::try_fill); the IDs written before the error are
    /// valid and issued, the rest of `out` is left as it was.
    pub async fn fill_async(&self, out: &mut [Snowflake]) -> Result<(), GenerateError> {
        let mut waiting = Waiting::default();
        let mut done = 0;
        while done < out.len() {
            match self.try_fill_now(&mut out[done..]) {
                Ok(count) => {
                    done += count;
                    waiting = Waiting::default();
                }
                Err(GenerateError::WouldWait { until_ms }) => {
                    waiting.wait(self, until_ms).await?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// One wait for the clock: where it began, to judge a stall as the generator does.
#[derive(Default)]
struct Waiting {
    began: Option<(u64, Instant)>,
}

impl Waiting {
    /// Sleeps until the clock may read `until_ms`, or says the clock stalled.
    async fn wait<C: Clock>(
        &mut self,
        generator: &Generator<C>,
        until_ms: u64,
    ) -> Result<(), GenerateError> {
        let now_ms = generator.clock().now_ms();
        let (from_ms, began) = *self.began.get_or_insert((now_ms, Instant::now()));
        crate::__private::check_wait(
            generator.clock(),
            generator.tolerance(),
            from_ms,
            until_ms,
            began.elapsed(),
        )?;
        // The millisecond may have come meanwhile: then ask again at once.
        if until_ms > now_ms {
            until_clock_reads(generator.clock(), until_ms).await;
        }
        Ok(())
    }
}

/// Sleeps until `clock` reads `until_ms`: to its instant where the clock says when, on the
/// edge timer; else a millisecond or more on tokio's timer. The caller looks again after:
/// a clock may not keep the time it said (stepped, stopped, or a test's).
pub async fn until_clock_reads<C: Clock + ?Sized>(clock: &C, until_ms: u64) {
    // Where a clock says zero, or too soon, and yet the millisecond has not come (a clock
    // of its own ideas), the caller's loop looks again no sooner than this: a wait, never
    // a spin.
    const AT_LEAST: Duration = Duration::from_micros(20);
    // tokio's timer for all but this, then the edge timer: the former ends up to 1 ms late.
    const LAST: Duration = Duration::from_millis(2);
    if let Some(left) = clock.time_until_ms(until_ms) {
        let at = Instant::now() + left.max(AT_LEAST);
        if let Some(bulk) = left.checked_sub(LAST).filter(|bulk| !bulk.is_zero()) {
            tokio::time::sleep(bulk).await;
        }
        EDGE.sleep_until(at).await;
    } else {
        let ms = until_ms.saturating_sub(clock.now_ms()).max(1);
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
}

/// The edge timer: the instants waited for, soonest first, and the thread that wakes each
/// task at its own. A thread's sleep (a futex's timeout) ends within the kernel's timer
/// slack, some tens of microseconds, where tokio's ends on its next millisecond tick.
struct EdgeTimer {
    due: Mutex<BinaryHeap<Due>>,
    /// Told when an instant sooner than the soonest comes in.
    sooner: Condvar,
    /// Whether its thread runs: started at the first wait, or not at all where threads
    /// cannot be made (then the waits fall back to tokio's timer).
    thread: OnceLock<bool>,
}

static EDGE: EdgeTimer = EdgeTimer {
    due: Mutex::new(BinaryHeap::new()),
    sooner: Condvar::new(),
    thread: OnceLock::new(),
};

/// A task to wake at an instant; the soonest is the heap's greatest.
struct Due {
    at: Instant,
    waker: Waker,
}

impl PartialEq for Due {
    fn eq(&self, other: &Due) -> bool {
        self.at == other.at
    }
}

impl Eq for Due {}

impl PartialOrd for Due {
    fn partial_cmp(&self, other: &Due) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Due {
    fn cmp(&self, other: &Due) -> core::cmp::Ordering {
        other.at.cmp(&self.at)
    }
}

impl EdgeTimer {
    async fn sleep_until(&'static self, at: Instant) {
        let started = *self.thread.get_or_init(|| {
            std::thread::Builder::new()
                .name("snowflake-edge-timer".into())
                .spawn(|| EDGE.run())
                .is_ok()
        });
        if started {
            EdgeSleep {
                timer: self,
                at,
                registered: None,
            }
            .await;
        } else {
            tokio::time::sleep_until(at.into()).await;
        }
    }

    /// Wakes `waker` at `at`.
    fn wake_at(&self, at: Instant, waker: Waker) {
        // A poisoned lock: a waker's wake panicked under it. The heap is whole all the same.
        let mut due = self.due.lock().unwrap_or_else(PoisonError::into_inner);
        let soonest = due.peek().is_none_or(|first| at < first.at);
        due.push(Due { at, waker });
        if soonest {
            self.sooner.notify_one();
        }
    }

    /// The thread: wakes each task at its instant, and sleeps until the next.
    fn run(&self) {
        let mut due = self.due.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            let now = Instant::now();
            while due.peek().is_some_and(|first| first.at <= now) {
                if let Some(first) = due.pop() {
                    first.waker.wake();
                }
            }
            due = match due.peek() {
                None => self
                    .sooner
                    .wait(due)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(first) => {
                    let left = first.at - now;
                    let (due, _) = self
                        .sooner
                        .wait_timeout(due, left)
                        .unwrap_or_else(PoisonError::into_inner);
                    due
                }
            };
        }
    }
}

/// A sleep on the edge timer.
struct EdgeSleep {
    timer: &'static EdgeTimer,
    at: Instant,
    /// The waker the timer holds for it: registered again only if the task's changes. A
    /// sleep dropped early leaves its entry to wake nobody at its instant, soon.
    registered: Option<Waker>,
}

impl Future for EdgeSleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if Instant::now() >= self.at {
            return Poll::Ready(());
        }
        if !self
            .registered
            .as_ref()
            .is_some_and(|waker| waker.will_wake(cx.waker()))
        {
            self.timer.wake_at(self.at, cx.waker().clone());
            self.registered = Some(cx.waker().clone());
        }
        Poll::Pending
    }
}
