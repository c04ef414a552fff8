//! Where the service's IDs come from: nothing, a fixed identity, or a leased one.

use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use serde::Serialize;
use snowflake_kit::{Clock, GenerateError, Generator, Identity, Snowflake, SystemClock};
use snowflake_lease::{Choice, LeasedGenerator, State};

/// The service's source of IDs.
pub(crate) enum Issuer {
    /// No identity was given: the page, compose and decode work; IDs do not.
    None,
    /// `--dc N --machine N`.
    Fixed(Generator),
    /// `--etcd URL`, with `--auto` or a fixed pair: claimed while the server serves.
    Leased(Lease),
}

/// A leased identity, or what the claim of one waits for.
pub(crate) struct Lease {
    choice: Choice,
    generator: OnceLock<LeasedGenerator>,
    waiting: Mutex<String>,
}

impl Lease {
    /// Not held yet: claiming as `choice` says.
    pub(crate) fn claiming(choice: Choice) -> Lease {
        let what = match choice {
            Choice::Fixed(identity) => format!(
                "datacenter {}, machine {}",
                identity.datacenter(),
                identity.machine()
            ),
            Choice::Datacenter(datacenter) => {
                format!("any free machine of datacenter {datacenter}")
            }
            Choice::Auto => "any free identity".to_owned(),
        };
        Lease {
            choice,
            generator: OnceLock::new(),
            waiting: Mutex::new(format!("claiming {what} from etcd")),
        }
    }

    /// What the claim waits for now, as a 503 says it.
    pub(crate) fn wait_for(&self, reason: &str) {
        *self.waiting.lock().unwrap_or_else(PoisonError::into_inner) =
            format!("waiting for the identity: {reason}; trying again");
    }

    /// The claim is done: issue from `generator`.
    pub(crate) fn hold(&self, generator: LeasedGenerator) {
        let _ = self.generator.set(generator);
    }

    fn generator(&self) -> Result<&LeasedGenerator, Unavailable> {
        self.generator.get().ok_or_else(|| {
            Unavailable(
                self.waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
            )
        })
    }
}

/// Why no ID was issued, for a 503.
pub(crate) struct Unavailable(pub(crate) String);

impl From<GenerateError> for Unavailable {
    fn from(e: GenerateError) -> Unavailable {
        let reason = match e {
            GenerateError::Halted => "the identity's lease was lost; claiming it again".to_owned(),
            GenerateError::AboveCeiling { .. } => {
                format!(
                    "{e}: the reservation of time ahead has not been renewed (is etcd reachable?)"
                )
            }
            other => other.to_string(),
        };
        Unavailable(reason)
    }
}

/// `GET /v1/identity`.
#[derive(Serialize)]
pub(crate) struct IdentityJson {
    mode: &'static str,
    /// How the identity was chosen: `fixed`, `datacenter` (any free machine of one) or
    /// `any` (any free one of all 1,024).
    #[serde(skip_serializing_if = "Option::is_none")]
    choice: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    datacenter: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    machine: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lease_valid_until: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ceiling: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lease_losses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

/// What a 503 for a missing identity says.
pub(crate) const NO_IDENTITY: &str =
    "no identity: start snowflake-server with --dc N --machine N, or --etcd URL --auto";

/// How a leased identity was chosen, as `/v1/identity` and `/metrics` say it.
pub(crate) fn choice_name(choice: Choice) -> &'static str {
    match choice {
        Choice::Fixed(_) => "fixed",
        Choice::Datacenter(_) => "datacenter",
        Choice::Auto => "any",
    }
}

fn rfc3339(ms: u64) -> Option<String> {
    snowflake_kit::Rfc3339::new(ms).map(|time| time.to_string())
}

/// `try_now` until it issues an ID or fails, sleeping on a timer while it would wait for
/// `clock`. Whether the clock has stalled meanwhile is the generator's to say
/// (`check_wait`): it says so only of a clock that did not reach the millisecond.
async fn waiting(
    try_now: impl Fn() -> Result<Snowflake, GenerateError>,
    check_wait: impl Fn(u64, u64, Duration) -> Result<(), GenerateError>,
    clock: &impl Clock,
) -> Result<Snowflake, Unavailable> {
    let mut started = None;
    loop {
        let result = try_now();
        let Err(GenerateError::WouldWait { until_ms }) = result else {
            return Ok(result?);
        };
        let now_ms = clock.now_ms();
        // Timed from the first wait: the common call, which issues at once, reads no
        // clock but the generator's.
        let (started, from_ms) =
            *started.get_or_insert_with(|| (tokio::time::Instant::now(), now_ms));
        check_wait(from_ms, until_ms, started.elapsed())?;
        let wait_ms = until_ms.saturating_sub(now_ms).max(1);
        tokio::time::sleep(Duration::from_millis(wait_ms)).await;
    }
}

impl Issuer {
    /// One ID. Where the generator would wait for the clock (a used-up millisecond, a
    /// clock that stepped back), the task waits on a timer and asks again: the worker
    /// thread goes on serving other requests.
    pub(crate) async fn next_id(&self) -> Result<Snowflake, Unavailable> {
        match self {
            Issuer::None => Err(Unavailable(NO_IDENTITY.to_owned())),
            Issuer::Fixed(generator) => {
                waiting(
                    || generator.try_next_id_now(),
                    |from, until, waited| generator.check_wait(from, until, waited),
                    generator.clock(),
                )
                .await
            }
            Issuer::Leased(lease) => {
                let generator = lease.generator()?;
                waiting(
                    || generator.try_next_id_now(),
                    |from, until, waited| generator.check_wait(from, until, waited),
                    generator.clock(),
                )
                .await
            }
        }
    }

    /// `out.len()` IDs, increasing.
    pub(crate) fn fill(&self, out: &mut [Snowflake]) -> Result<(), Unavailable> {
        match self {
            Issuer::None => Err(Unavailable(NO_IDENTITY.to_owned())),
            Issuer::Fixed(generator) => Ok(generator.try_fill(out)?),
            Issuer::Leased(lease) => Ok(lease.generator()?.try_fill(out)?),
        }
    }

    /// Whether an ID could be issued now: an identity held, its ceiling ahead of the clock.
    pub(crate) fn ready(&self) -> Result<(), Unavailable> {
        match self {
            Issuer::None => Err(Unavailable(NO_IDENTITY.to_owned())),
            Issuer::Fixed(_) => {
                // Without taking an ID: can the clock's reading be one?
                let now_ms = SystemClock.now_ms();
                if (snowflake_kit::TWITTER_EPOCH_MS..=snowflake_kit::MAX_TIMESTAMP_MS)
                    .contains(&now_ms)
                {
                    Ok(())
                } else {
                    Err(Unavailable(format!(
                        "the clock reads {now_ms} ms, outside the times an ID can carry"
                    )))
                }
            }
            Issuer::Leased(lease) => {
                let status = lease.generator()?.status();
                if status.state != State::Holding {
                    return Err(Unavailable(format!(
                        "the lease is not held: {}",
                        status.state
                    )));
                }
                if status.ceiling_ms < SystemClock.now_ms() {
                    return Err(Unavailable(
                        "the reserved time has run out (is etcd reachable?)".to_owned(),
                    ));
                }
                Ok(())
            }
        }
    }

    /// The identity held (or waited for), and how it was chosen, for the metrics.
    pub(crate) fn identity(&self) -> Option<(Identity, &'static str)> {
        match self {
            Issuer::None => None,
            Issuer::Fixed(generator) => Some((generator.identity(), "fixed")),
            Issuer::Leased(lease) => {
                let generator = lease.generator.get()?;
                Some((generator.identity(), choice_name(generator.choice())))
            }
        }
    }

    /// How many times the lease was lost, for the metrics.
    pub(crate) fn lease_losses(&self) -> u64 {
        match self {
            Issuer::Leased(lease) => lease
                .generator
                .get()
                .map_or(0, |generator| generator.status().lease_losses),
            _ => 0,
        }
    }

    pub(crate) fn identity_json(&self) -> IdentityJson {
        let mut json = IdentityJson {
            mode: "none",
            choice: None,
            datacenter: None,
            machine: None,
            state: None,
            lease_valid_until: None,
            ceiling: None,
            lease_losses: None,
            message: None,
        };
        match self {
            Issuer::None => json.message = Some(NO_IDENTITY.to_owned()),
            Issuer::Fixed(generator) => {
                json.mode = "fixed";
                json.choice = Some("fixed");
                json.datacenter = Some(generator.datacenter());
                json.machine = Some(generator.machine());
            }
            Issuer::Leased(lease) => {
                json.mode = "leased";
                let generator = match lease.generator() {
                    Ok(generator) => generator,
                    Err(Unavailable(waiting)) => {
                        json.choice = Some(choice_name(lease.choice));
                        match lease.choice {
                            Choice::Fixed(identity) => {
                                json.datacenter = Some(identity.datacenter());
                                json.machine = Some(identity.machine());
                            }
                            Choice::Datacenter(datacenter) => json.datacenter = Some(datacenter),
                            Choice::Auto => {}
                        }
                        json.state = Some("claiming".to_owned());
                        json.message = Some(waiting);
                        return json;
                    }
                };
                let status = generator.status();
                json.choice = Some(choice_name(generator.choice()));
                json.datacenter = Some(status.identity.datacenter());
                json.machine = Some(status.identity.machine());
                json.state = Some(status.state.to_string());
                json.lease_valid_until = rfc3339(status.lease_valid_until_ms);
                json.ceiling = rfc3339(status.ceiling_ms);
                json.lease_losses = Some(status.lease_losses);
            }
        }
        json
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
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;

    /// 2022-06-28T16:07:40.105Z.
    const T: u64 = 1_656_432_460_105;

    /// A clock that moves only when told to.
    struct ManualClock(AtomicU64);

    impl Clock for ManualClock {
        fn now_ms(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
    }

    /// A generator whose millisecond `T` is used up, on a clock standing at `T`.
    fn used_up() -> (Arc<ManualClock>, Generator<Arc<ManualClock>>) {
        let clock = Arc::new(ManualClock(AtomicU64::new(T)));
        let generator = Generator::with_clock(1, 1, Arc::clone(&clock)).expect("valid identity");
        let mut ids = vec![Snowflake::MAX; 4096];
        generator.try_fill(&mut ids).expect("4,096 IDs at T");
        assert!(ids.iter().all(|id| id.timestamp_ms() == T));
        (clock, generator)
    }

    /// The next ID, waited for as `/v1/id` waits; `clock` is the generator's.
    async fn next_id(
        generator: &Generator<Arc<ManualClock>>,
        clock: &ManualClock,
    ) -> Result<Snowflake, Unavailable> {
        waiting(
            || generator.try_next_id_now(),
            |from, until, waited| generator.check_wait(from, until, waited),
            clock,
        )
        .await
    }

    /// On a single thread, the task that moves the clock runs only if the wait gives the
    /// thread back: a wait on the thread would end in `ClockStalled`.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn the_wait_for_the_clock_leaves_the_thread_to_other_tasks() {
        let (clock, generator) = used_up();
        let mover = {
            let clock = Arc::clone(&clock);
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300)).await;
                clock.0.store(T + 1, Ordering::SeqCst);
            })
        };
        let id = next_id(&generator, &clock)
            .await
            .map_err(|e| e.0)
            .expect("an ID once the clock moves");
        assert_eq!((id.timestamp_ms(), id.sequence()), (T + 1, 0));
        mover.await.expect("the mover ran");
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_clock_that_never_gets_there_is_a_stalled_clock() {
        let (clock, generator) = used_up();
        let started = tokio::time::Instant::now();
        let Err(Unavailable(reason)) = next_id(&generator, &clock).await else {
            panic!("an ID from a stopped clock");
        };
        // The tolerance and the millisecond expected, then the first check past them.
        assert!(
            reason.starts_with("the clock did not advance in 1002 ms"),
            "{reason}"
        );
        assert!(started.elapsed() > generator.tolerance());
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn other_errors_pass_at_once() {
        let (clock, generator) = used_up();
        generator.halt();
        let Err(Unavailable(reason)) = next_id(&generator, &clock).await else {
            panic!("an ID from a halted generator");
        };
        assert_eq!(reason, "the identity's lease was lost; claiming it again");
    }
}
