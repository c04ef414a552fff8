//! Where the service's IDs come from: nothing, an unleased identity, or a leased one.

mod lease;
mod refusal;

use std::time::Duration;

use snowflake_kit::{Clock, GenerateError, Generator, Snowflake, SystemClock};
use snowflake_lease::{Choice, State};

pub(crate) use self::lease::Lease;
pub(crate) use self::refusal::Refusal;
use self::refusal::refused;
use crate::fair::{Asks, Queue};

/// The service's source of IDs, stamped with the clock `C`: the system's when it serves,
/// a test's in the tests, which so drive the very path the handlers take. Generic rather
/// than a `dyn Clock`, so the service's reads of the clock are direct calls.
pub(crate) enum Issuer<C: Clock + 'static = SystemClock> {
    /// No identity was given: the page, compose and decode work; IDs do not.
    None,
    /// `--dc N --machine N` without a store: an identity nobody leases.
    Unleased(Generator<C>),
    /// `--etcd URL` or `--postgres URL`, with `--auto`, `--dc N --auto` or an exact
    /// `--dc N --machine N`: claimed while the server serves.
    Leased(Lease<C>),
}

/// What a 503 for a missing identity says.
pub(crate) const NO_IDENTITY: &str =
    "no identity: start snowflake-server with --dc N --machine N, or --etcd URL --auto";

/// The kind of an identity given with `--dc N --machine N` and no store.
pub(crate) const UNLEASED: &str = "unleased";

/// The kind of a leased identity, how it was chosen, as `/v1/identity`, `/metrics` and the
/// start-up event say it.
pub(crate) fn kind(choice: Choice) -> &'static str {
    match choice {
        Choice::Exact(_) => "exact",
        Choice::Datacenter(_) => "datacenter",
        Choice::Auto => "auto",
    }
}

/// Unix ms as RFC 3339, if the format can write it.
pub(crate) fn rfc3339(ms: u64) -> Option<String> {
    snowflake_kit::rfc3339::Rfc3339::new(ms).map(|time| time.to_string())
}

/// Fills `out` past `done` with what `try_fill_now` issues at once, until it is full; its
/// `WouldWait` once the millisecond is spent, for the queue to wait on.
fn take_into(
    out: &mut [Snowflake],
    done: &mut usize,
    try_fill_now: impl Fn(&mut [Snowflake]) -> Result<usize, GenerateError>,
) -> Result<(), GenerateError> {
    while *done < out.len() {
        *done += try_fill_now(&mut out[*done..])?;
    }
    Ok(())
}

impl<C: Clock + 'static> Issuer<C> {
    /// One ID. Where the generator would wait for the clock (a used-up millisecond, a
    /// clock that stepped back), the task waits on a timer in `queue`: the worker thread
    /// goes on serving other requests.
    pub(crate) async fn next_id(&self, queue: &Queue) -> Result<Snowflake, Refusal> {
        let lane = queue.lane(Asks::One);
        match self {
            Issuer::None => return Err(Refusal::NoIdentity),
            Issuer::Unleased(generator) => {
                let take = || generator.try_next_id_now();
                lane.issue(take, generator.clock(), generator.tolerance())
                    .await
            }
            Issuer::Leased(lease) => {
                let generator = lease.generator()?;
                let take = || generator.try_next_id_now();
                lane.issue(take, generator.clock(), generator.tolerance())
                    .await
            }
        }
        .map_err(refused)
    }

    /// `out.len()` IDs, increasing; waits for the clock as `next_id` does, taking what
    /// each millisecond has in its turn.
    pub(crate) async fn fill(&self, queue: &Queue, out: &mut [Snowflake]) -> Result<(), Refusal> {
        let (lane, mut done) = (queue.lane(Asks::Batch), 0);
        match self {
            Issuer::None => return Err(Refusal::NoIdentity),
            Issuer::Unleased(generator) => {
                let take = || take_into(out, &mut done, |rest| generator.try_fill_now(rest));
                lane.issue(take, generator.clock(), generator.tolerance())
                    .await
            }
            Issuer::Leased(lease) => {
                let generator = lease.generator()?;
                let take = || take_into(out, &mut done, |rest| generator.try_fill_now(rest));
                lane.issue(take, generator.clock(), generator.tolerance())
                    .await
            }
        }
        .map_err(refused)
    }

    /// Whether an ID could be issued now: an identity held, its ceiling ahead of the clock.
    pub(crate) fn ready(&self) -> Result<(), Refusal> {
        match self {
            Issuer::None => Err(Refusal::NoIdentity),
            Issuer::Unleased(generator) => {
                // Without taking an ID: can the clock's reading be one?
                let now_ms = generator.clock().now_ms();
                if (snowflake_kit::layout::TWITTER_EPOCH_MS
                    ..=snowflake_kit::layout::MAX_TIMESTAMP_MS)
                    .contains(&now_ms)
                {
                    Ok(())
                } else {
                    Err(Refusal::ClockOutside { now_ms })
                }
            }
            Issuer::Leased(lease) => {
                let generator = lease.generator()?;
                let status = generator.status();
                if status.state != State::Holding {
                    return Err(Refusal::NotHeld(Box::new(status.state)));
                }
                if status.ceiling_ms < generator.clock().now_ms() {
                    return Err(Refusal::RanOut);
                }
                Ok(())
            }
        }
    }

    /// Releases a leased identity, so that the next holder need not wait for its TTL.
    pub(crate) async fn release(&self) {
        if let Issuer::Leased(lease) = self
            && let Some(generator) = lease.generator.get()
        {
            // Bounded: a shutdown must not hang on a silent etcd.
            let _ = tokio::time::timeout(Duration::from_secs(5), generator.release()).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use snowflake_kit::Identity;
    use snowflake_test_support::T;
    use snowflake_test_support::clock::ManualClock;

    use super::*;

    /// An issuer whose millisecond `T` is used up, on a clock standing at `T`.
    async fn used_up() -> (Arc<ManualClock>, Issuer<Arc<ManualClock>>) {
        let clock = ManualClock::at(T);
        let issuer = Issuer::Unleased(
            Generator::new(Identity::new(1, 1).expect("valid identity"))
                .with_clock(Arc::clone(&clock)),
        );
        let mut ids = vec![Snowflake::MAX; 4096];
        issuer
            .fill(&Queue::default(), &mut ids)
            .await
            .expect("4,096 IDs at T");
        assert!(ids.iter().all(|id| id.timestamp_ms() == T));
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
        (clock, issuer)
    }

    /// A task that moves `clock` to `T + 1` after 300 ms of tokio's time.
    fn move_on_later(clock: Arc<ManualClock>) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            clock.set(T + 1);
        })
    }

    /// On a single thread, the task that moves the clock runs only if the wait gives the
    /// thread back: a wait on the thread would end in `ClockStalled`.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn the_wait_for_the_clock_leaves_the_thread_to_other_tasks() {
        let (clock, issuer) = used_up().await;
        let mover = move_on_later(clock);
        let id = issuer
            .next_id(&Queue::default())
            .await
            .expect("an ID once the clock moves");
        assert_eq!((id.timestamp_ms(), id.sequence()), (T + 1, 0));
        mover.await.expect("the mover ran");
    }

    /// A batch waits as one ID does, and takes the next millisecond's from its start.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_batch_waits_for_the_next_millisecond_too() {
        let (clock, issuer) = used_up().await;
        let mover = move_on_later(clock);
        let mut ids = vec![Snowflake::MAX; 3];
        issuer
            .fill(&Queue::default(), &mut ids)
            .await
            .expect("IDs once the clock moves");
        let stamped: Vec<_> = ids
            .iter()
            .map(|id| (id.timestamp_ms(), id.sequence()))
            .collect();
        assert_eq!(stamped, [(T + 1, 0), (T + 1, 1), (T + 1, 2)]);
        mover.await.expect("the mover ran");
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_clock_that_never_gets_there_is_a_stalled_clock() {
        let (_, issuer) = used_up().await;
        let started = tokio::time::Instant::now();
        let Err(refusal) = issuer.next_id(&Queue::default()).await else {
            panic!("an ID from a stopped clock");
        };
        // The tolerance and the millisecond expected, then the first check past them.
        assert!(
            matches!(
                refusal,
                Refusal::Generator(GenerateError::ClockStalled { waited_ms: 1002 })
            ),
            "{refusal}"
        );
        let Issuer::Unleased(generator) = &issuer else {
            unreachable!("an unleased issuer");
        };
        assert!(started.elapsed() > generator.tolerance());
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn other_errors_pass_at_once() {
        let (clock, issuer) = used_up().await;
        // Further back than the 1 s the generator waits out.
        clock.set(T - 5_000);
        let started = tokio::time::Instant::now();
        let Err(refusal) = issuer.next_id(&Queue::default()).await else {
            panic!("an ID from a clock an hour back");
        };
        assert_eq!(
            refusal.to_string(),
            "the clock moved backwards by 5000 ms, more than the 1000 ms the generator waits out"
        );
        assert_eq!(started.elapsed(), Duration::ZERO);
    }

    /// The readiness an unleased identity reports is the test clock's: outside the times
    /// an ID can carry, the issuer is not ready, and says what the clock reads.
    #[tokio::test]
    async fn readiness_reads_the_issuers_clock() {
        let (clock, issuer) = used_up().await;
        assert!(issuer.ready().is_ok());
        clock.set(snowflake_kit::layout::TWITTER_EPOCH_MS - 1);
        let Err(refusal) = issuer.ready() else {
            panic!("ready before the epoch");
        };
        assert_eq!(
            refusal.to_string(),
            format!(
                "the clock reads {} ms, outside the times an ID can carry",
                snowflake_kit::layout::TWITTER_EPOCH_MS - 1
            )
        );
        clock.set(snowflake_kit::layout::MAX_TIMESTAMP_MS + 1);
        assert!(issuer.ready().is_err());
        clock.set(snowflake_kit::layout::MAX_TIMESTAMP_MS);
        assert!(issuer.ready().is_ok());
        assert_eq!(
            Issuer::<SystemClock>::None
                .ready()
                .map_err(|e| e.to_string()),
            Err(NO_IDENTITY.to_owned())
        );
    }
}
