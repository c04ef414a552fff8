//! Issuing from async code without blocking the worker: the generator's waits for the
//! clock taken on tokio's timer, judged by the generator's own rule.

use std::time::{Duration, Instant};

use crate::clock::Clock;
use crate::error::GenerateError;
use crate::generator::Generator;
use crate::snowflake::Snowflake;

impl<C: Clock> Generator<C> {
    /// The next ID, from an async task: as [`try_next_id`](Generator::try_next_id),
    /// but where that would spin or sleep for the clock (a millisecond's 4,096 used up,
    /// a clock that stepped back within the tolerance), this waits on tokio's timer, so
    /// the worker thread goes on with other tasks. Needs a tokio runtime with its timer
    /// enabled (`enable_time`, or `#[tokio::main]`).
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
    /// waiting for the clock on tokio's timer as [`next_id_async`](Generator::next_id_async)
    /// does.
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
    /// Sleeps on tokio's timer until the clock may read `until_ms`, or says the clock stalled.
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
        let ms = until_ms.saturating_sub(now_ms);
        if ms > 0 {
            tokio::time::sleep(Duration::from_millis(ms)).await;
        }
        Ok(())
    }
}
