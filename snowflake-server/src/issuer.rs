//! Where the service's IDs come from: nothing, an unleased identity, or a leased one.

use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use serde::Serialize;
use snowflake_kit::{Clock, GenerateError, Generator, Identity, Snowflake, SystemClock};
use snowflake_lease::{Choice, LeasedGenerator, State, StoreKind};

use crate::fair::Queue;
use crate::openapi::fields;

/// The service's source of IDs.
pub(crate) enum Issuer {
    /// No identity was given: the page, compose and decode work; IDs do not.
    None,
    /// `--dc N --machine N` without a store: an identity nobody leases.
    Unleased(Generator),
    /// `--etcd URL` or `--postgres URL`, with `--auto`, `--dc N --auto` or an exact
    /// `--dc N --machine N`: claimed while the server serves.
    Leased(Lease),
}

/// A leased identity, or what the claim of one waits for.
pub(crate) struct Lease {
    choice: Choice,
    store: StoreKind,
    generator: OnceLock<LeasedGenerator>,
    waiting: Mutex<String>,
}

impl Lease {
    /// Not held yet: claiming from `store` as `choice` says.
    pub(crate) fn claiming(choice: Choice, store: StoreKind) -> Lease {
        let what = match choice {
            Choice::Exact(identity) => format!(
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
            store,
            generator: OnceLock::new(),
            waiting: Mutex::new(format!("claiming {what} from {store}")),
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

    fn generator(&self) -> Result<&LeasedGenerator, Refusal> {
        self.generator.get().ok_or_else(|| {
            Refusal(
                self.waiting
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone(),
            )
        })
    }
}

/// Why no ID was issued, for a 503: no identity, a claim that waits, or the generator's
/// error (as [`Queue`] passes it on) in words for the client.
pub(crate) struct Refusal(pub(crate) String);

/// At most once per second: `due(second)` is true for the first call of each second.
struct OncePerSecond(std::sync::atomic::AtomicU64);

impl OncePerSecond {
    const fn new() -> OncePerSecond {
        OncePerSecond(std::sync::atomic::AtomicU64::new(u64::MAX))
    }

    fn due(&self, second: u64) -> bool {
        self.0.swap(second, std::sync::atomic::Ordering::Relaxed) != second
    }
}

/// A `WARN` event for a refusal that is the clock's doing, once a second at most, however
/// many requests a clock stepped far back refuses.
fn clock_refusal(e: &GenerateError) {
    static SAID: OncePerSecond = OncePerSecond::new();
    static STARTED: OnceLock<std::time::Instant> = OnceLock::new();
    let second = STARTED
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs();
    if SAID.due(second) {
        tracing::warn!(error = %e, "the clock: IDs refused (said at most once a second)");
    }
}

/// The generator's refusal as the client reads it, and a WARN event when the clock is to
/// blame. A function called where an ID is refused, not a `From`: a conversion stays free
/// of side effects, and can be called anywhere (a test, a retry) without a log line.
pub(crate) fn refused(e: GenerateError) -> Refusal {
    if matches!(
        e,
        GenerateError::ClockMovedBackwards { .. }
            | GenerateError::ClockStalled { .. }
            | GenerateError::ClockBeforeEpoch { .. }
            | GenerateError::ClockAfterMax { .. }
    ) {
        clock_refusal(&e);
    }
    Refusal::from(e)
}

impl From<GenerateError> for Refusal {
    fn from(e: GenerateError) -> Refusal {
        let reason = match e {
            GenerateError::Halted => "the identity's lease was lost; claiming it again".to_owned(),
            GenerateError::AboveCeiling { .. } => {
                format!(
                    "{e}: the reservation of time ahead has not been renewed (is the lease store \
                     reachable?)"
                )
            }
            other => other.to_string(),
        };
        Refusal(reason)
    }
}

/// `GET /v1/identity`: where the IDs' identity comes from, and a lease's state.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct IdentityJson {
    /// Which kind of identity: `none`; `unleased`, a pair given with `--dc N --machine N`
    /// and no store; or leased from a store: `exact` (exactly the pair given), `datacenter`
    /// (any free machine of one, `--dc N --auto`) or `auto` (any free one of all 1,024,
    /// `--auto`). The same words as the start-up event and `/metrics`.
    #[schema(value_type = String)]
    kind: &'static str,
    /// Where a leased identity comes from: `etcd` or `postgres`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    store: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = fields::datacenter)]
    datacenter: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = fields::machine)]
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

fn rfc3339(ms: u64) -> Option<String> {
    snowflake_kit::Rfc3339::new(ms).map(|time| time.to_string())
}

/// What issues the IDs: an unleased identity's generator, or a lease's (which also counts its
/// refusals).
trait Source {
    fn try_next_id_now(&self) -> Result<Snowflake, GenerateError>;
    fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError>;
    fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError>;
}

impl Source for Generator {
    fn try_next_id_now(&self) -> Result<Snowflake, GenerateError> {
        Generator::try_next_id_now(self)
    }

    fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        Generator::try_fill_now(self, out)
    }

    fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError> {
        snowflake_kit::__private::check_wait(self, from_ms, until_ms, waited)
    }
}

impl Source for LeasedGenerator {
    fn try_next_id_now(&self) -> Result<Snowflake, GenerateError> {
        LeasedGenerator::try_next_id_now(self)
    }

    fn try_fill_now(&self, out: &mut [Snowflake]) -> Result<usize, GenerateError> {
        LeasedGenerator::try_fill_now(self, out)
    }

    fn check_wait(
        &self,
        from_ms: u64,
        until_ms: u64,
        waited: Duration,
    ) -> Result<(), GenerateError> {
        snowflake_lease::__private::check_wait(self, from_ms, until_ms, waited)
    }
}

/// Fills `out` through `try_fill_now`, in `queue`'s turns.
async fn fill(
    queue: &Queue,
    out: &mut [Snowflake],
    try_fill_now: impl Fn(&mut [Snowflake]) -> Result<usize, GenerateError>,
    check_wait: impl Fn(u64, u64, Duration) -> Result<(), GenerateError>,
    clock: &impl Clock,
) -> Result<(), Refusal> {
    let mut done = 0;
    queue
        .issue(
            || {
                // Each call takes what it can; `WouldWait` once this millisecond is spent.
                while done < out.len() {
                    done += try_fill_now(&mut out[done..])?;
                }
                Ok(())
            },
            check_wait,
            clock,
        )
        .await
        .map_err(refused)
}

impl Issuer {
    /// The generator that issues, if there is one now (shared by the tasks that wait on it).
    fn source(&self) -> Result<&(dyn Source + Sync), Refusal> {
        match self {
            Issuer::None => Err(Refusal(NO_IDENTITY.to_owned())),
            Issuer::Unleased(generator) => Ok(generator),
            Issuer::Leased(lease) => Ok(lease.generator()?),
        }
    }

    /// One ID. Where the generator would wait for the clock (a used-up millisecond, a
    /// clock that stepped back), the task waits on a timer in `queue`: the worker thread
    /// goes on serving other requests.
    pub(crate) async fn next_id(&self, queue: &Queue) -> Result<Snowflake, Refusal> {
        let source = self.source()?;
        let id = queue
            .issue_one(
                || source.try_next_id_now(),
                |from, until, waited| source.check_wait(from, until, waited),
                // Both generators stamp IDs with it.
                &SystemClock,
            )
            .await
            .map_err(refused)?;
        Ok(id)
    }

    /// `out.len()` IDs, increasing; waits for the clock as `next_id` does, taking what
    /// each millisecond has in its turn.
    pub(crate) async fn fill(&self, queue: &Queue, out: &mut [Snowflake]) -> Result<(), Refusal> {
        let source = self.source()?;
        fill(
            queue,
            out,
            |rest| source.try_fill_now(rest),
            |from, until, waited| source.check_wait(from, until, waited),
            &SystemClock,
        )
        .await
    }

    /// Whether an ID could be issued now: an identity held, its ceiling ahead of the clock.
    pub(crate) fn ready(&self) -> Result<(), Refusal> {
        match self {
            Issuer::None => Err(Refusal(NO_IDENTITY.to_owned())),
            Issuer::Unleased(_) => {
                // Without taking an ID: can the clock's reading be one?
                let now_ms = SystemClock.now_ms();
                if (snowflake_kit::TWITTER_EPOCH_MS..=snowflake_kit::MAX_TIMESTAMP_MS)
                    .contains(&now_ms)
                {
                    Ok(())
                } else {
                    Err(Refusal(format!(
                        "the clock reads {now_ms} ms, outside the times an ID can carry"
                    )))
                }
            }
            Issuer::Leased(lease) => {
                let status = lease.generator()?.status();
                if status.state != State::Holding {
                    return Err(Refusal(format!("the lease is not held: {}", status.state)));
                }
                if status.ceiling_ms < SystemClock.now_ms() {
                    return Err(Refusal(
                        "the reserved time has run out (is the lease store reachable?)".to_owned(),
                    ));
                }
                Ok(())
            }
        }
    }

    /// The identity held, and its kind ([`kind`], or `unleased`), for the metrics.
    pub(crate) fn identity(&self) -> Option<(Identity, &'static str)> {
        match self {
            Issuer::None => None,
            Issuer::Unleased(generator) => Some((generator.identity(), UNLEASED)),
            Issuer::Leased(lease) => {
                let generator = lease.generator.get()?;
                Some((generator.identity(), kind(generator.choice())))
            }
        }
    }

    /// The store a leased identity comes from, for the metrics.
    pub(crate) fn store(&self) -> Option<StoreKind> {
        match self {
            Issuer::Leased(lease) => Some(lease.store),
            _ => None,
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
            kind: "none",
            store: None,
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
            Issuer::Unleased(generator) => {
                json.kind = UNLEASED;
                json.datacenter = Some(generator.datacenter());
                json.machine = Some(generator.machine());
            }
            Issuer::Leased(lease) => {
                json.store = Some(lease.store.key());
                let generator = match lease.generator() {
                    Ok(generator) => generator,
                    Err(Refusal(waiting)) => {
                        json.kind = kind(lease.choice);
                        match lease.choice {
                            Choice::Exact(identity) => {
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
                json.kind = kind(generator.choice());
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

    #[test]
    fn a_clock_refusal_is_said_once_a_second() {
        let said = OncePerSecond::new();
        let seconds = [0, 0, 0, 1, 1, 5, 5, 5, 6];
        let due: Vec<bool> = seconds.iter().map(|&s| said.due(s)).collect();
        assert_eq!(
            due,
            [true, false, false, true, false, true, false, false, true]
        );
    }
    use snowflake_kit::fence::Fence;

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
        let generator = Generator::new(Identity::new(1, 1).expect("valid identity"))
            .with_clock(Arc::clone(&clock));
        let mut ids = vec![Snowflake::MAX; 4096];
        generator.try_fill(&mut ids).expect("4,096 IDs at T");
        assert!(ids.iter().all(|id| id.timestamp_ms() == T));
        (clock, generator)
    }

    /// One ID through `queue`, waited for as `/v1/id` waits.
    pub(super) async fn one<C: Clock>(
        generator: &Generator<C>,
        queue: &Queue,
    ) -> Result<Snowflake, Refusal> {
        let id = queue
            .issue_one(
                || generator.try_next_id_now(),
                |from, until, waited| {
                    snowflake_kit::__private::check_wait(generator, from, until, waited)
                },
                generator.clock(),
            )
            .await
            .map_err(refused)?;
        Ok(id)
    }

    /// `out.len()` IDs through `queue`, waited for as `/v1/ids` waits.
    pub(super) async fn batch<C: Clock>(
        generator: &Generator<C>,
        queue: &Queue,
        out: &mut [Snowflake],
    ) -> Result<(), Refusal> {
        fill(
            queue,
            out,
            |rest| generator.try_fill_now(rest),
            |from, until, waited| {
                snowflake_kit::__private::check_wait(generator, from, until, waited)
            },
            generator.clock(),
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
        let id = one(&generator, &Queue::default())
            .await
            .map_err(|e| e.0)
            .expect("an ID once the clock moves");
        assert_eq!((id.timestamp_ms(), id.sequence()), (T + 1, 0));
        mover.await.expect("the mover ran");
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_clock_that_never_gets_there_is_a_stalled_clock() {
        let (_, generator) = used_up();
        let started = tokio::time::Instant::now();
        let Err(Refusal(reason)) = one(&generator, &Queue::default()).await else {
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
        let (_, generator) = used_up();
        generator.halt();
        let Err(Refusal(reason)) = one(&generator, &Queue::default()).await else {
            panic!("an ID from a halted generator");
        };
        assert_eq!(reason, "the identity's lease was lost; claiming it again");
    }
}

#[cfg(test)]
mod fairness {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use super::tests::{batch, one};
    use super::*;

    const T: u64 = 1_656_432_460_105;

    /// tokio's paused time, as Unix ms from `T`.
    struct PausedClock(tokio::time::Instant);

    impl Clock for PausedClock {
        fn now_ms(&self) -> u64 {
            T + u64::try_from(self.0.elapsed().as_millis()).unwrap()
        }
    }

    /// `tasks` tasks each asking for a whole millisecond's 4,096 IDs, again and again,
    /// until `stop`; each counts its batches in `filled`.
    fn batches(
        tasks: usize,
        generator: &Arc<Generator<PausedClock>>,
        queue: &Arc<Queue>,
        filled: &Arc<AtomicUsize>,
        stop: &Arc<AtomicBool>,
    ) -> Vec<tokio::task::JoinHandle<()>> {
        (0..tasks)
            .map(|_| {
                let (generator, queue, filled, stop) = (
                    Arc::clone(generator),
                    Arc::clone(queue),
                    Arc::clone(filled),
                    Arc::clone(stop),
                );
                tokio::spawn(async move {
                    let mut out = vec![Snowflake::MAX; 4096];
                    while !stop.load(Ordering::Relaxed) {
                        batch(&generator, &queue, &mut out)
                            .await
                            .map_err(|e| e.0)
                            .unwrap();
                        filled.fetch_add(1, Ordering::Relaxed);
                        // Back as the next millisecond begins, as fresh requests come.
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                })
            })
            .collect()
    }

    /// Twenty tasks each asking for a whole millisecond's 4,096 IDs, again and again, and
    /// one asking for one ID: it gets it in the next millisecond, ahead of the batches
    /// queued before it, and nobody hears of a stalled clock.
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn one_id_goes_ahead_of_requests_for_whole_milliseconds() {
        let clock = PausedClock(tokio::time::Instant::now());
        let generator = Arc::new(Generator::new(Identity::new(1, 1).unwrap()).with_clock(clock));
        let queue = Arc::new(Queue::default());
        let filled = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let bulk = batches(20, &generator, &queue, &filled, &stop);
        // The batches have the clock's milliseconds to themselves for a while.
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(queue.batches_waiting() > 10, "batches queue");
        let mut waits = Vec::new();
        for _ in 0..20 {
            let started = tokio::time::Instant::now();
            let id = one(&generator, &queue).await.map_err(|e| e.0).unwrap();
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

    /// Four tasks asking for single IDs, each again as soon as it has its ID, beside 50
    /// batches of a whole millisecond's 4,096 through one queue: the batches must be done
    /// within 20 s; the single IDs issued meanwhile, counted.
    async fn stream<C: Clock + 'static>(generator: Generator<C>) -> u64 {
        // One stream at a time: the one on two threads needs both cores, and the one on
        // tokio's paused clock keeps one busy.
        static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
        let _alone = ONE_AT_A_TIME.lock().await;
        let generator = Arc::new(generator);
        let queue = Arc::new(Queue::default());
        let stop = Arc::new(AtomicBool::new(false));
        let singles: Vec<_> = (0..4)
            .map(|_| {
                let (generator, queue, stop) = (
                    Arc::clone(&generator),
                    Arc::clone(&queue),
                    Arc::clone(&stop),
                );
                tokio::spawn(async move {
                    let mut count = 0_u64;
                    while !stop.load(Ordering::Relaxed) {
                        one(&generator, &queue).await.map_err(|e| e.0).unwrap();
                        count += 1;
                        // As a request's task ends: an ID taken at once, without waiting,
                        // never hands the worker back, and a loop of them would hold it,
                        // starving the batch's task of polls rather than of IDs (a
                        // scheduling artefact of the test, which failed it now and then
                        // at a load of 4).
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
                batch(&generator, &queue, &mut out)
                    .await
                    .map_err(|e| e.0)
                    .unwrap();
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

    /// A stream of single IDs, four tasks each asking again as soon as it has its ID,
    /// cannot hold the batches off: a batch lets those waiting go first, not those that
    /// come meanwhile, and for a short while only. On one thread and tokio's paused clock,
    /// so that the count is the rule's and not the machine's: on two threads and the real
    /// clock, the singles' share moved with the load, from 1% to 27% of the IDs under
    /// the same rule (the test below).
    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn a_stream_of_single_ids_does_not_starve_the_batches() {
        let clock = PausedClock(tokio::time::Instant::now());
        let singles_issued =
            stream(Generator::new(Identity::new(1, 1).unwrap()).with_clock(clock)).await;
        // They wait for a millisecond each time a batch has taken the last: some dozens.
        assert!(singles_issued > 20, "{singles_issued} single IDs");
        // The singles waiting when a batch begins to take go first, a few dozen a
        // millisecond, and the batch takes the rest: 6,043 single IDs here, under 3% of
        // the IDs, however busy the machine. Under the rule that held the batches off
        // while any single waited, the singles had 34,000 to 56,000, 14% to 21%.
        let batch_ids: u64 = 50 * 4096;
        assert!(
            singles_issued < batch_ids / 16,
            "the batches were held off: the singles had {singles_issued} IDs to the batches' \
             {batch_ids}, over one in 17"
        );
    }

    /// The same on two threads and the real clock, the singles beside the batches at
    /// once: the batches are done, and the singles have theirs. How many depends on how
    /// the machine schedules the threads (the test above holds the rule), so only that
    /// the batches have the most.
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
