//! The randomized fault run of `snowflake.next_id()` (docs/next-id.md, "How it is tested"):
//! eight sessions of one database on a real PostgreSQL whose wall clock is libfaketime's,
//! each doing random work (IDs one at a time and by the hundred, in transactions committed,
//! rolled back or left open, at every isolation level; `INSERT ... SELECT ... RETURNING`;
//! claims, releases, a claim inside a transaction block), a Rust `PgStore` holder taking
//! the same identities in turn, and between them, at random moments from a seed: single,
//! double and triple cancels, `kill -9` of a backend, an immediate stop of the server with
//! transactions open (the clock set back by up to the second the docs allow across it),
//! clock steps back (waited out) and forward, a clock that stands still, a clock before the
//! epoch (an error is the answer), and copies by `pg_dump` whose errors' hints are then
//! followed.
//!
//! The oracle keeps every ID any client received, committed or not, with who received it
//! and when, and fails on: an ID seen twice; an ID of an identity its issuer did not hold
//! during the call; an identity's IDs not above every ID of its previous holder; a session
//! whose IDs do not rise; a statement that waited longer than the docs allow; an error the
//! docs do not name for what happened; a copy that claims what was held when it was made.
//!
//! `NEXT_ID_FAULTS_SECONDS` (default 150), `NEXT_ID_FAULTS_SEED` (default: from the time,
//! printed), and `NEXT_ID_FAULTS_SQL`, a file of `next_id`'s SQL to load in place of the
//! shipped one (what `scripts/planted-bugs.sh` plants bugs in, without a build per bug).
//! A failure prints `NEXT_ID_FAULTS: seed N: ...` and the command that replays it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use snowflake_kit::Snowflake;
use snowflake_lease::{Identity, LeaseOptions, LeasedGenerator, OnLoss, PgConfig, PgStore};
use snowflake_test_support::Postgres;
use tokio::sync::{Mutex as AsyncMutex, RwLock};
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, NoTls};

// The fault test's seeded generator, shared rather than copied (tests are not published).
#[path = "faults/rng.rs"]
#[allow(dead_code, reason = "the fault test uses more of it")]
mod rng;

use rng::Rng;

/// The sessions of the database, each its own connection and random work.
const SESSIONS: usize = 8;
/// The identities the database and the Rust holder take in turn: (0, 0), (0, 1), (0, 2).
const POOL: u64 = 3;
/// How long a statement of `next_id` may take, beside its rows' own cost: the docs' wait
/// for the clock (5 s), then the slack of a loaded 2-core machine. A wait for the lock
/// behind another call's sleep is that sleep, the clock being read after it.
const WAIT_BOUND: Duration = Duration::from_secs(7);
/// Each row's share of the bound, for the statements of many rows.
const PER_ROW: Duration = Duration::from_micros(100);

/// The database's own sessions, as a holder in the ledger.
const DATABASE: &str = "the database";

/// What the run saw, for the oracle.
#[derive(Default)]
struct Ledger {
    /// Every ID received, with who received it.
    seen: HashMap<u64, String>,
    /// Each identity's holders, in the order they took it.
    tenures: HashMap<(u64, u64), Vec<Tenure>>,
    /// What broke a promise; the run stops at the first.
    breaches: Vec<String>,
    /// Calls whose holder's tenure was not written yet when their IDs came.
    pending: Vec<Call>,
    /// What the run did, ms from its start: claims, releases, crashes, clock steps, copies.
    events: Vec<(u128, String)>,
    /// Counts, for the floor of what the run must have done.
    ids: u64,
    claims: u64,
    holder_tenures: u64,
    crashes: u64,
    copies: u64,
    cancels: u64,
    errors: HashMap<String, u64>,
}

/// A call's IDs, by identity (the lowest and highest of each), and who received them when.
struct Call {
    who: String,
    holder: String,
    from: Instant,
    to: Instant,
    ids: Vec<((u64, u64), u64, u64)>,
}

impl Ledger {
    /// The tenure of the call's holder on `identity` that overlaps the call.
    fn tenure_of(&mut self, call: &Call, identity: (u64, u64)) -> Option<&mut Tenure> {
        self.tenures.get_mut(&identity)?.iter_mut().rev().find(|t| {
            t.holder == call.holder
                && t.from <= call.to
                && t.until.is_none_or(|until| until >= call.from)
        })
    }

    /// Gives each of the call's IDs to its tenure; false when one has none (yet).
    fn assign(&mut self, call: &Call) -> bool {
        if call
            .ids
            .iter()
            .any(|&(identity, ..)| self.tenure_of(call, identity).is_none())
        {
            return false;
        }
        for &(identity, low, high) in &call.ids {
            let tenure = self.tenure_of(call, identity).expect("checked above");
            tenure.low = Some(tenure.low.map_or(low, |l| l.min(low)));
            tenure.high = Some(tenure.high.map_or(high, |h| h.max(high)));
        }
        true
    }
}

/// One holder's hold of an identity, from before its claim to after its release, and
/// surely from after its claim to before its release.
struct Tenure {
    holder: String,
    from: Instant,
    until: Option<Instant>,
    sure_from: Instant,
    sure_until: Option<Instant>,
    /// The smallest and largest ID it issued.
    low: Option<u64>,
    high: Option<u64>,
}

/// The run's shared state.
struct Run {
    seed: u64,
    deadline: Instant,
    pg: Arc<Postgres>,
    /// Another cluster, for copies that keep the database's oid (as a restore into a new
    /// cluster may, and `pg_upgrade` does) under another system identifier.
    elsewhere: Arc<Postgres>,
    ledger: Mutex<Ledger>,
    /// Set at the first breach: every task stops.
    stop: AtomicBool,
    /// The faked clock's offset from the real one, in ms, as last set.
    offset_ms: AtomicI64,
    /// Until when (ms since the run began) the clock may read outside the format's span in
    /// some backend (each reads it within a second or two of a step): `u64::MAX` while it is.
    odd_until: AtomicU64,
    /// When the clock was last stepped back, in ms since the run began.
    stepped_back_at: AtomicU64,
    /// Every step back so far, in ms: a wait measured by the wall clock (`pg_sleep`'s) is
    /// lengthened by the steps back during it.
    stepped_back_ms: AtomicU64,
    began: Instant,
    /// Claims and releases of the database, one at a time, so that the ledger knows what
    /// it holds; held across a crash until the answer is known.
    operator: AsyncMutex<()>,
    /// Read by a live Rust holder; written while the clock leaves the present (a lease
    /// granted in 2009 would run out at once back in the present: the docs' precondition).
    present: RwLock<()>,
    /// The sessions' backends, for cancels and kills.
    pids: Mutex<Vec<i32>>,
}

impl Run {
    fn breach(&self, what: String) {
        let mut ledger = self.ledger();
        if ledger.breaches.is_empty() {
            eprintln!("NEXT_ID_FAULTS: seed {}: {what}", self.seed);
        }
        ledger.breaches.push(what);
        self.stop.store(true, Ordering::SeqCst);
    }

    fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn going(&self) -> bool {
        !self.stop.load(Ordering::SeqCst) && Instant::now() < self.deadline
    }

    fn since_began_ms(&self) -> u64 {
        u64::try_from(self.began.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// The faked clock now, in Unix ms, as the run last set it (each backend reads it
    /// within a second).
    fn faked_now_ms(&self) -> i64 {
        real_now_ms() + self.offset_ms.load(Ordering::SeqCst)
    }

    /// Records IDs received by `who` (of `database`, or the Rust holder when `None`) from a
    /// call that began at `from` and ended at `to`: each new, of an identity its issuer held
    /// then.
    fn received(&self, who: &str, holder: &str, ids: &[Snowflake], from: Instant, to: Instant) {
        let mut ledger = self.ledger();
        let mut breaches = Vec::new();
        let mut call = Call {
            who: who.to_owned(),
            holder: holder.to_owned(),
            from,
            to,
            ids: Vec::new(),
        };
        for id in ids {
            ledger.ids += 1;
            if let Some(first) = ledger.seen.insert(id.as_u64(), who.to_owned()) {
                breaches.push(format!(
                    "{id:?} ({}) issued twice: to {first}, then to {who}",
                    describe(*id)
                ));
                continue;
            }
            let identity = (u64::from(id.datacenter()), u64::from(id.machine()));
            match call.ids.iter_mut().find(|(i, ..)| *i == identity) {
                Some((_, low, high)) => {
                    *low = (*low).min(id.as_u64());
                    *high = (*high).max(id.as_u64());
                }
                None => call.ids.push((identity, id.as_u64(), id.as_u64())),
            }
        }
        // Its holder's tenure may be written a moment after another session's IDs come
        // (the claim's answer, then the ledger): checked now, and again until it is.
        if !ledger.assign(&call) {
            ledger.pending.push(call);
        }
        drop(ledger);
        for breach in breaches {
            self.breach(breach);
        }
    }

    /// Checks the calls whose tenure was not written yet: a breach once one has waited
    /// `grace` (none at the end of the run).
    fn settle(&self, grace: Duration) {
        let mut ledger = self.ledger();
        let pending = std::mem::take(&mut ledger.pending);
        let mut breaches = Vec::new();
        for call in pending {
            if ledger.assign(&call) {
                continue;
            }
            if call.to.elapsed() < grace {
                ledger.pending.push(call);
                continue;
            }
            let at = |t: Instant| t.saturating_duration_since(self.began).as_millis();
            for &(identity, low, _) in &call.ids {
                if ledger.tenure_of(&call, identity).is_some() {
                    continue;
                }
                let tenures: Vec<String> =
                    ledger.tenures.get(&identity).map_or(Vec::new(), |tenures| {
                        tenures
                            .iter()
                            .map(|t| {
                                format!("{} {}..{:?} ms", t.holder, at(t.from), t.until.map(at))
                            })
                            .collect()
                    });
                let id = Snowflake::try_from(low).expect("an ID");
                breaches.push(format!(
                    "{id:?} ({}) received by {}, whose issuer {} did not hold {identity:?} during \
                     the call ({}..{} ms into the run); its holders: {tenures:?}",
                    describe(id),
                    call.who,
                    call.holder,
                    at(call.from),
                    at(call.to)
                ));
            }
        }
        drop(ledger);
        for breach in breaches {
            self.breach(breach);
        }
    }

    /// `holder` took `identity` in a call from `from` to now.
    fn hold(&self, holder: &str, identity: (u64, u64), from: Instant) {
        let mut ledger = self.ledger();
        ledger.tenures.entry(identity).or_default().push(Tenure {
            holder: holder.to_owned(),
            from,
            until: None,
            sure_from: Instant::now(),
            sure_until: None,
            low: None,
            high: None,
        });
    }

    /// `holder` let `identity` go in a call from `sure_until` to now.
    fn let_go(&self, holder: &str, identity: (u64, u64), sure_until: Instant) {
        let until = Instant::now();
        let mut ledger = self.ledger();
        if let Some(tenure) = ledger
            .tenures
            .get_mut(&identity)
            .and_then(|tenures| tenures.iter_mut().rev().find(|t| t.holder == holder))
            .filter(|t| t.until.is_none())
        {
            tenure.until = Some(until);
            tenure.sure_until = Some(sure_until);
        }
    }

    /// Whether an identity surely had a holder all through `from..=to` (so at the instant a
    /// dump read it), and who.
    fn held_throughout(&self, identity: (u64, u64), from: Instant, to: Instant) -> Option<String> {
        self.ledger()
            .tenures
            .get(&identity)?
            .iter()
            .find(|t| t.sure_from <= from && t.sure_until.is_none_or(|until| until >= to))
            .map(|t| t.holder.clone())
    }

    /// Notes what the run did, for the account of a breach.
    fn event(&self, what: String) {
        let at = self.began.elapsed().as_millis();
        self.ledger().events.push((at, what));
    }

    fn count_error(&self, what: &str) {
        *self.ledger().errors.entry(what.to_owned()).or_default() += 1;
    }
}

fn describe(id: Snowflake) -> String {
    format!(
        "{} ms, ({}, {}), seq {}",
        id.timestamp_ms(),
        id.datacenter(),
        id.machine(),
        id.sequence()
    )
}

fn real_now_ms() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970");
    i64::try_from(since.as_millis()).expect("in range")
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} is not a number"))
    })
}

#[test]
#[ignore = "needs PostgreSQL and libfaketime: bash scripts/test.sh installs them"]
fn next_id_keeps_its_promise_under_random_faults() {
    let seconds: u64 = env_or("NEXT_ID_FAULTS_SECONDS", 150);
    let seed: u64 = env_or(
        "NEXT_ID_FAULTS_SEED",
        u64::try_from(real_now_ms()).expect("after 1970"),
    );
    eprintln!(
        "next_id faults: seed {seed}, {seconds} s{}",
        std::env::var("NEXT_ID_FAULTS_SQL")
            .map(|f| format!(", next_id from {f}"))
            .unwrap_or_default()
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let ledger = runtime.block_on(run(seed, Duration::from_secs(seconds)));
    let replay = format!(
        "replay: NEXT_ID_FAULTS_SEED={seed} NEXT_ID_FAULTS_SECONDS={seconds} cargo test -p \
         snowflake-lease --test next_id_faults -- --include-ignored"
    );
    let mut errors: Vec<_> = ledger.errors.iter().collect();
    errors.sort();
    let summary = format!(
        "{} IDs checked, {} claims of the database, {} Rust holder tenures, {} crashes, {} \
         copies, {} cancel statements; errors answered: {errors:?}",
        ledger.ids,
        ledger.claims,
        ledger.holder_tenures,
        ledger.crashes,
        ledger.copies,
        ledger.cancels
    );
    if !ledger.breaches.is_empty() {
        let events = ledger.events.len();
        for (at, what) in &ledger.events[events.saturating_sub(40)..] {
            eprintln!("  {at:>7} ms  {what}");
        }
    }
    assert!(
        ledger.breaches.is_empty(),
        "NEXT_ID_FAULTS: seed {seed} breaks a promise: {}\n{summary}\n{replay}",
        ledger.breaches[0]
    );
    // A run that issues nothing breaches nothing: it must have done what it is for.
    let floor = seconds / 30;
    assert!(
        ledger.ids >= 10_000 * seconds / 10
            && ledger.claims >= floor
            && ledger.holder_tenures >= floor
            && ledger.crashes >= floor
            && (seconds < 60 || ledger.copies >= 1),
        "NEXT_ID_FAULTS: seed {seed} did too little to prove anything: {summary}\n{replay}"
    );
    eprintln!("next_id faults: seed {seed}: no breach; {summary}");
}

async fn run(seed: u64, length: Duration) -> Ledger {
    let pg = Arc::new(
        tokio::task::spawn_blocking(Postgres::start_faked_cached)
            .await
            .unwrap(),
    );
    let elsewhere = Arc::new(tokio::task::spawn_blocking(Postgres::start).await.unwrap());
    // No timer of the server's beside ours: each lands in a signal handler that reads the
    // clock (docs/next-id.md, on libfaketime).
    pg.psql("ALTER SYSTEM SET deadlock_timeout = '1h'");
    pg.psql("SELECT pg_reload_conf()");
    pg.psql("CREATE DATABASE faults");
    let sql = match std::env::var("NEXT_ID_FAULTS_SQL") {
        Ok(file) => render(&std::fs::read_to_string(&file).expect("NEXT_ID_FAULTS_SQL reads")),
        Err(_) => snowflake_kit::sql::postgres_next_id("snowflake").unwrap(),
    };
    let setup = connect(&pg, "faults").await.expect("connects");
    setup
        .batch_execute(&(snowflake_kit::sql::postgres_functions("snowflake").unwrap() + &sql))
        .await
        .expect("next_id loads");
    setup
        .batch_execute(
            "CREATE TABLE orders (id bigint PRIMARY KEY DEFAULT snowflake.next_id(), n integer)",
        )
        .await
        .unwrap();
    drop(setup);
    let began = Instant::now();
    let run = Arc::new(Run {
        seed,
        deadline: began + length,
        pg,
        elsewhere,
        ledger: Mutex::default(),
        stop: AtomicBool::new(false),
        offset_ms: AtomicI64::new(0),
        odd_until: AtomicU64::new(0),
        stepped_back_at: AtomicU64::new(0),
        stepped_back_ms: AtomicU64::new(0),
        began,
        operator: AsyncMutex::new(()),
        present: RwLock::new(()),
        pids: Mutex::new(vec![0; SESSIONS]),
    });
    let mut rng = Rng::new(seed);
    let mut tasks = Vec::new();
    for n in 0..SESSIONS {
        tasks.push(tokio::spawn(session(run.clone(), n, rng.fork())));
    }
    tasks.push(tokio::spawn(rust_holder(run.clone(), rng.fork())));
    tasks.push(tokio::spawn(canceller(run.clone(), rng.fork())));
    tasks.push(tokio::spawn(chaos(run.clone(), rng.fork())));
    for task in tasks {
        if let Err(e) = task.await {
            run.breach(format!("a task of the run panicked: {e}"));
        }
    }
    run.settle(Duration::ZERO);
    let mut ledger = std::mem::take(&mut *run.ledger());
    hand_overs(&mut ledger);
    ledger
}

/// Each identity's holders in turn: every ID of a later tenure above every ID of the one
/// before (the mark, and the floor above it).
fn hand_overs(ledger: &mut Ledger) {
    let mut breaches = Vec::new();
    for (identity, tenures) in &mut ledger.tenures {
        // In the order they took it: a tenure's claim ended before the next one's, which
        // began after the one before let go (the registry's own order).
        tenures.sort_by_key(|t| t.sure_from);
        let mut previous: Option<(&str, u64)> = None;
        for tenure in tenures.iter() {
            let (Some(low), Some(high)) = (tenure.low, tenure.high) else {
                continue;
            };
            if let Some((holder, high_before)) = previous
                && low <= high_before
            {
                let (low, before) = (Snowflake::try_from(low), Snowflake::try_from(high_before));
                breaches.push(format!(
                    "{identity:?} passed from {holder} to {}, whose first ID {low:?} is not above \
                     the last before it, {before:?}",
                    tenure.holder
                ));
            }
            previous = Some((
                tenure.holder.as_str(),
                previous.map_or(high, |(_, h)| h.max(high)),
            ));
        }
    }
    ledger.breaches.extend(breaches);
}

/// `next_id`'s SQL from a file (a planted bug's), for the schema `snowflake`, as
/// `sql::postgres_next_id` gives the shipped one.
fn render(sql: &str) -> String {
    let shipped = snowflake_kit::sql::postgres_next_id("snowflake").unwrap();
    let tables =
        snowflake_runtime::__private::POSTGRES_LEASE_TABLES.replace("{schema}", "snowflake");
    let rendered = sql.replace("{lease_tables}", &tables);
    assert_ne!(
        rendered, shipped,
        "NEXT_ID_FAULTS_SQL is the shipped next_id"
    );
    rendered
}

async fn connect(pg: &Postgres, database: &str) -> Result<Client, tokio_postgres::Error> {
    let url = pg.url();
    let url = format!("{}/{database}", url.rsplit_once('/').unwrap().0);
    let (client, connection) = tokio_postgres::connect(&url, NoTls).await?;
    tokio::spawn(connection);
    Ok(client)
}

/// What an error says, for the oracle: a class the docs name for what the run did, or
/// `None` for one they do not.
fn answer(run: &Run, error: &tokio_postgres::Error) -> Option<&'static str> {
    let Some(db) = error.as_db_error() else {
        // The connection went: a kill, a stop.
        return Some("connection lost");
    };
    let code = db.code();
    let message = db.message();
    Some(if *code == SqlState::QUERY_CANCELED {
        "cancelled"
    } else if code.code().starts_with("57P") || code.code().starts_with("08") {
        "server going or starting"
    } else if *code == SqlState::T_R_SERIALIZATION_FAILURE {
        "serialization failure"
    } else if *code == SqlState::IN_FAILED_SQL_TRANSACTION {
        "transaction aborted before"
    } else if message == "snowflake.next_id(): this database holds no identity to issue under" {
        "no identity"
    } else if let Some(rest) = message.strip_prefix("snowflake.next_id(): the clock is ") {
        // Behind an identity's mark or the IDs issued: after a step back, a Rust holder's
        // reservation, a crash's skip; by seconds. Behind by years is a clock outside the
        // format's span, which the docs say is named as such.
        let behind: u64 = rest.split(' ').next()?.parse().ok()?;
        if behind > 86_400_000 {
            return None;
        }
        "clock behind"
    } else if message.starts_with("snowflake.next_id(): the clock reads ") {
        if run.since_began_ms() > run.odd_until.load(Ordering::SeqCst) {
            return None;
        }
        "clock outside the span"
    } else if message.starts_with("claim_identity: no free identity")
        || message.starts_with("claim_identity: this database holds")
    {
        "claim refused"
    } else if message == "release_identity: this database holds no identity" {
        "nothing to release"
    } else if *code == SqlState::INVALID_TRANSACTION_TERMINATION {
        "claim inside a transaction block"
    } else {
        return None;
    })
}

/// Counts an error, or records it as a breach when the docs do not name it.
fn judge(run: &Run, who: &str, what: &str, error: &tokio_postgres::Error) {
    match answer(run, error) {
        Some(kind) => run.count_error(kind),
        None => run.breach(format!(
            "{who}: {what}: an error the docs do not name: {error:?}"
        )),
    }
}

/// One session of the database: random work until the run ends, reconnecting after a
/// kill or a crash.
async fn session(run: Arc<Run>, n: usize, mut rng: Rng) {
    let who = format!("session {n}");
    while run.going() {
        let Ok(client) = connect(&run.pg, "faults").await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let Ok(row) = client.query_one("SELECT pg_backend_pid()", &[]).await else {
            continue;
        };
        run.pids.lock().unwrap_or_else(PoisonError::into_inner)[n] = row.get(0);
        // A new connection, a new session: its IDs rise from its first.
        let mut last: Option<Snowflake> = None;
        let who = format!("{who}, backend {}", row.get::<_, i32>(0));
        while run.going() {
            if !work(&run, &client, &who, &mut last, &mut rng).await {
                break;
            }
        }
    }
}

/// One piece of random work; false when the connection is gone.
async fn work(
    run: &Run,
    client: &Client,
    who: &str,
    last: &mut Option<Snowflake>,
    rng: &mut Rng,
) -> bool {
    let pick = rng.between(0, 99);
    if pick < 45 {
        let rows = rng.between(1, 300);
        issue(
            run,
            client,
            (who, DATABASE),
            last,
            &format!("SELECT snowflake.next_id() FROM generate_series(1, {rows})"),
            rows,
        )
        .await
    } else if pick < 70 {
        let level =
            ["READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"][rng.between(0, 2) as usize];
        if let Err(e) = client
            .batch_execute(&format!("BEGIN ISOLATION LEVEL {level}"))
            .await
        {
            judge(run, who, "BEGIN", &e);
            return !e.is_closed();
        }
        for _ in 0..rng.between(1, 4) {
            let rows = rng.between(1, 100);
            if !issue(
                run,
                client,
                (who, DATABASE),
                last,
                &format!("SELECT snowflake.next_id() FROM generate_series(1, {rows})"),
                rows,
            )
            .await
            {
                return false;
            }
            // Left open a while: a crash, a release, a copy may come meanwhile.
            tokio::time::sleep(rng.ms(0, 400)).await;
        }
        let end = if rng.chance(500) {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        end_transaction(run, client, who, end).await
    } else if pick < 82 {
        let rows = rng.between(100, 5_000);
        issue(
            run,
            client,
            (who, DATABASE),
            last,
            &format!(
                "INSERT INTO orders (n) SELECT g FROM generate_series(1, {rows}) g RETURNING id"
            ),
            rows,
        )
        .await
    } else if pick < 90 {
        claim(run, client, who, rng).await
    } else if pick < 96 {
        release(run, client, who).await
    } else {
        // A claim inside a transaction block is refused: one that went through there
        // would issue under a claim the rollback takes back. Its IDs are checked as the
        // database's claim stands outside it.
        let m = rng.between(0, POOL - 1);
        if let Err(e) = client
            .batch_execute(&format!("BEGIN; CALL snowflake.claim_identity(0, {m})"))
            .await
        {
            judge(run, who, "a claim inside BEGIN", &e);
            if e.is_closed() {
                return false;
            }
        }
        let alive = issue(
            run,
            client,
            (who, DATABASE),
            last,
            "SELECT snowflake.next_id()",
            1,
        )
        .await;
        alive && end_transaction(run, client, who, "ROLLBACK").await
    }
}

async fn end_transaction(run: &Run, client: &Client, who: &str, end: &str) -> bool {
    match client.batch_execute(end).await {
        Ok(()) => true,
        Err(e) => {
            judge(run, who, end, &e);
            let _ = client.batch_execute("ROLLBACK").await;
            !e.is_closed()
        }
    }
}

/// Runs a statement that returns IDs, and gives them to the oracle: new, of the database's
/// identity, above the session's last, within the bound on waiting.
async fn issue(
    run: &Run,
    client: &Client,
    (who, holder): (&str, &str),
    last: &mut Option<Snowflake>,
    sql: &str,
    rows: u64,
) -> bool {
    let bound = WAIT_BOUND + PER_ROW * u32::try_from(rows).unwrap_or(u32::MAX);
    let faked_at_start = run.faked_now_ms();
    let back_before = run.stepped_back_ms.load(Ordering::SeqCst);
    let from = Instant::now();
    // Past this, nobody's wait is one the docs allow, whatever the clock did (it is set
    // back by 4 s at most at once, and not again for 8 s).
    let answer = tokio::time::timeout(bound + Duration::from_secs(5), client.query(sql, &[])).await;
    let to = Instant::now();
    let back = Duration::from_millis(run.stepped_back_ms.load(Ordering::SeqCst) - back_before);
    if answer.is_err() || to - from > bound + back {
        run.breach(format!(
            "{who}: `{sql}` waited {:?}, past the docs' bound ({bound:?}, and {back:?} the clock \
             was set back meanwhile)",
            to - from
        ));
        return false;
    }
    let rows = match answer {
        Err(_) => unreachable!("a timeout is a breach, above"),
        Ok(Err(e)) => {
            judge(run, who, sql, &e);
            return !e.is_closed();
        }
        Ok(Ok(rows)) => rows,
    };
    let mut ids = Vec::with_capacity(rows.len());
    for row in rows {
        let value: i64 = row.get(0);
        match Snowflake::try_from_i64(value) {
            Ok(id) => ids.push(id),
            Err(e) => {
                run.breach(format!("{who}: `{sql}` gave {value}, no ID: {e}"));
                return false;
            }
        }
    }
    for &id in &ids {
        if let Some(before) = *last
            && id <= before
        {
            // The one exception the docs make: another identity after IDs that ran more than
            // the wait (6 s) ahead of the clock, the way out of a clock that ran ahead.
            let far_ahead = i64::try_from(before.timestamp_ms()).unwrap() > faked_at_start + 4_500;
            if (id.datacenter(), id.machine()) == (before.datacenter(), before.machine())
                || !far_ahead
            {
                run.breach(format!(
                    "{who}: the session's IDs fell: {id:?} ({}) after {before:?} ({})",
                    describe(id),
                    describe(before)
                ));
                return false;
            }
        }
        *last = Some(id);
    }
    run.received(who, holder, &ids, from, to);
    true
}

/// What the database holds now by its claim row (a stale one included: nobody else can
/// take it), asked again until the server answers.
async fn claimed(run: &Run) -> Option<(u64, u64)> {
    loop {
        if let Ok(client) = connect(&run.pg, "faults").await
            && let Ok(rows) = client
                .query(
                    "SELECT datacenter, machine FROM snowflake.next_id_claim",
                    &[],
                )
                .await
        {
            return rows.first().map(|row| {
                let (dc, machine): (i16, i16) = (row.get(0), row.get(1));
                (u64::try_from(dc).unwrap(), u64::try_from(machine).unwrap())
            });
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn claim(run: &Run, client: &Client, who: &str, rng: &mut Rng) -> bool {
    let _operator = run.operator.lock().await;
    let before = claimed(run).await;
    let m = rng.between(0, POOL - 1);
    let from = Instant::now();
    let outcome = client
        .batch_execute(&format!("CALL snowflake.claim_identity(0, {m})"))
        .await;
    let alive = match &outcome {
        Ok(()) => true,
        Err(e) => {
            judge(run, who, "claim_identity", e);
            !e.is_closed()
        }
    };
    let after = if outcome.is_ok() {
        Some((0, m))
    } else {
        claimed(run).await
    };
    run.event(format!(
        "{who}: claim_identity(0, {m}) with {before:?} held: {outcome:?}, then {after:?} held"
    ));
    if before.is_none()
        && let Some(identity) = after
    {
        run.hold(DATABASE, identity, from);
        run.ledger().claims += 1;
    }
    if outcome.is_ok() && before.is_some_and(|b| b != (0, m)) {
        run.breach(format!(
            "{who}: claim_identity(0, {m}) went through where the database held {before:?}"
        ));
    }
    alive
}

async fn release(run: &Run, client: &Client, who: &str) -> bool {
    let _operator = run.operator.lock().await;
    let before = claimed(run).await;
    let started = Instant::now();
    let outcome = client
        .batch_execute("CALL snowflake.release_identity()")
        .await;
    let alive = match &outcome {
        Ok(()) => true,
        Err(e) => {
            judge(run, who, "release_identity", e);
            !e.is_closed()
        }
    };
    let after = if outcome.is_ok() {
        None
    } else {
        claimed(run).await
    };
    run.event(format!(
        "{who}: release_identity() with {before:?} held: {outcome:?}, then {after:?} held"
    ));
    if let (Some(identity), None) = (before, after) {
        run.let_go(DATABASE, identity, started);
    }
    alive
}

/// A Rust holder on the same registry: an identity of the pool in turn, IDs for a while,
/// released; never while the clock is away from the present.
async fn rust_holder(run: Arc<Run>, mut rng: Rng) {
    let url = format!("{}/faults", run.pg.url().rsplit_once('/').unwrap().0);
    while run.going() {
        tokio::time::sleep(rng.ms(100, 1_500)).await;
        let present = run.present.read().await;
        let m = rng.between(0, POOL - 1);
        let mut options = LeaseOptions::default().exact(Identity::new(0, m).unwrap());
        options.claim_wait = Duration::from_millis(500);
        options.on_loss = OnLoss::Stop;
        options.holder = format!("rust holder of the fault run ({m})");
        let from = Instant::now();
        let started = match PgStore::connect(PgConfig::new(&url).unwrap(), &options).await {
            Ok(store) => LeasedGenerator::start(store, options).await,
            Err(e) => Err(e),
        };
        let generator = match started {
            Ok(generator) => generator,
            Err(e) => {
                run.count_error(
                    &format!("the Rust holder: {e}")
                        .chars()
                        .take(60)
                        .collect::<String>(),
                );
                continue;
            }
        };
        let identity = (0, m);
        run.event(format!("the Rust holder holds {identity:?}"));
        run.hold("the Rust holder", identity, from);
        run.ledger().holder_tenures += 1;
        let until = Instant::now() + rng.ms(300, 3_000);
        'issuing: while run.going() && Instant::now() < until {
            let started = Instant::now();
            let mut ids = Vec::with_capacity(64);
            for _ in 0..64 {
                match generator.try_next_id() {
                    Ok(id) => ids.push(id),
                    Err(_) => {
                        run.received(
                            "the Rust holder",
                            "the Rust holder",
                            &ids,
                            started,
                            Instant::now(),
                        );
                        break 'issuing;
                    }
                }
            }
            run.received(
                "the Rust holder",
                "the Rust holder",
                &ids,
                started,
                Instant::now(),
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let releasing = Instant::now();
        generator.release().await;
        run.let_go("the Rust holder", identity, releasing);
        run.event(format!("the Rust holder let {identity:?} go"));
        drop(present);
    }
}

/// Cancels at random moments: one, two or three at once, to a random session.
async fn canceller(run: Arc<Run>, mut rng: Rng) {
    while run.going() {
        tokio::time::sleep(rng.ms(2, 60)).await;
        let Ok(client) = connect(&run.pg, "postgres").await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        while run.going() {
            tokio::time::sleep(rng.ms(2, 60)).await;
            let pid = run.pids.lock().unwrap_or_else(PoisonError::into_inner)
                [rng.between(0, SESSIONS as u64 - 1) as usize];
            let sql = match rng.between(1, 3) {
                1 => "SELECT pg_cancel_backend($1)",
                2 => "SELECT pg_cancel_backend($1), pg_cancel_backend($1)",
                _ => "SELECT pg_cancel_backend($1), pg_cancel_backend($1), pg_cancel_backend($1)",
            };
            if client.query(sql, &[&pid]).await.is_err() {
                break;
            }
            run.ledger().cancels += 1;
        }
    }
}

/// The server's and the clock's faults, one at a time, at random moments.
async fn chaos(run: Arc<Run>, mut rng: Rng) {
    let mut copies = 0;
    let mut next_copy = run.began + Duration::from_secs(15);
    while run.going() {
        tokio::time::sleep(rng.ms(300, 1_200)).await;
        run.settle(Duration::from_secs(3));
        if !run.going() {
            break;
        }
        let pick = rng.between(0, 99);
        let offset = run.offset_ms.load(Ordering::SeqCst);
        let since_back = run.since_began_ms() - run.stepped_back_at.load(Ordering::SeqCst);
        if Instant::now() >= next_copy {
            next_copy = Instant::now() + rng.ms(15_000, 30_000);
            copies += 1;
            copy(&run, copies, &mut rng).await;
        } else if pick < 8 {
            crash(&run, &mut rng, true).await;
        } else if pick < 14 {
            crash(&run, &mut rng, false).await;
        } else if pick < 30 && offset > -600 && since_back > 8_000 {
            // Back by up to 3 s: waited out, never more than the docs' wait at once.
            let back = i64::try_from(rng.between(100, 3_000)).unwrap();
            set_clock(&run, offset - back).await;
        } else if pick < 34 && since_back > 8_000 {
            // Before the epoch for a moment: every call an error, never an ID.
            let present = run.present.write().await;
            run.odd_until.store(u64::MAX, Ordering::SeqCst);
            let pg = run.pg.clone();
            tokio::task::spawn_blocking(move || pg.freeze_clock("2009-06-01 00:00:00"))
                .await
                .unwrap();
            tokio::time::sleep(rng.ms(1_200, 2_500)).await;
            set_clock(&run, offset).await;
            run.odd_until
                .store(run.since_began_ms() + 3_000, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(3_000)).await;
            drop(present);
        } else if offset < 0 {
            // Forward, as a clock being corrected: by at most 200 ms at once, within a Rust
            // holder's margin (a tenth of its lease).
            set_clock(&run, (offset + 200).min(0)).await;
        }
    }
    set_clock(&run, 0).await;
}

async fn set_clock(run: &Run, offset: i64) {
    run.event(format!("the clock at {offset:+} ms from the real one"));
    let before = run.offset_ms.swap(offset, Ordering::SeqCst);
    if offset < before {
        run.stepped_back_ms
            .fetch_add(before.abs_diff(offset), Ordering::SeqCst);
        run.stepped_back_at
            .store(run.since_began_ms(), Ordering::SeqCst);
    }
    let pg = run.pg.clone();
    tokio::task::spawn_blocking(move || pg.move_clock(offset))
        .await
        .unwrap();
}

/// A backend killed (`kill -9`: the server recovers from a crash), or the server stopped at
/// once and started again, the clock set back by up to the docs' second across it.
async fn crash(run: &Run, rng: &mut Rng, kill: bool) {
    run.ledger().crashes += 1;
    let pg = run.pg.clone();
    if kill {
        let pid = run.pids.lock().unwrap_or_else(PoisonError::into_inner)
            [rng.between(0, SESSIONS as u64 - 1) as usize];
        run.event(format!("kill -9 of backend {pid}"));
        if pid > 0 {
            let _ = std::process::Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status();
        }
        return;
    }
    let back = i64::try_from(rng.between(0, 950)).unwrap();
    let offset = run.offset_ms.load(Ordering::SeqCst) - back;
    run.event("the server stopped at once".to_owned());
    tokio::task::spawn_blocking(move || pg.stop())
        .await
        .unwrap();
    set_clock(run, offset).await;
    let pg = run.pg.clone();
    tokio::task::spawn_blocking(move || pg.start_again())
        .await
        .unwrap();
    run.event("the server started again".to_owned());
}

/// A copy by `pg_dump`, sometimes with the clock standing still (a copy made while the slot
/// runs ahead of it), whose answers are checked and whose hints are followed: its first
/// `next_id` refused; the claim refused with a hint to forget the original's; then no
/// identity held when it was made claimable; then one of its own datacenter (the docs:
/// databases that feed one keyspace claim distinct identities), whose IDs join the rest.
async fn copy(run: &Run, n: u64, rng: &mut Rng) {
    let name = format!("faults_copy_{n}");
    // The orders' rows are not what a copy is about: a short dump.
    let _ = run.pg.try_psql("TRUNCATE orders");
    // Every other copy into the other cluster, with the same oid.
    let into = if n % 2 == 0 {
        run.elsewhere.clone()
    } else {
        run.pg.clone()
    };
    let from = Instant::now();
    let (pg, target) = (run.pg.clone(), into.clone());
    let (source, copy) = ("faults".to_owned(), name.clone());
    let copied = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pg.copy_database(&source, &target, &copy);
        }))
    })
    .await
    .unwrap();
    let to = Instant::now();
    run.event(format!(
        "copied into {name}: {}",
        if copied.is_ok() { "done" } else { "failed" }
    ));
    if copied.is_ok() {
        // Sometimes the clock set back by as long as the copy took, and a little more: the
        // copy's slot, as the dump read it, is then ahead of its clock when its first call
        // comes, as in a copy made while the slot ran ahead.
        let offset = run.offset_ms.load(Ordering::SeqCst);
        let since_back = run.since_began_ms() - run.stepped_back_at.load(Ordering::SeqCst);
        if rng.chance(600) && offset > -600 && since_back > 8_000 {
            let back = i64::try_from((to - from).as_millis()).unwrap() + 500;
            set_clock(run, offset - back.min(4_000)).await;
        }
        if let Ok(client) = connect(&into, &name).await {
            run.ledger().copies += 1;
            check_copy(run, &client, &name, n, from, to).await;
        }
    }
    // Gone after, or after a cancel or a crash met the dump.
    let _ = into.try_psql(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}

async fn check_copy(run: &Run, client: &Client, name: &str, n: u64, from: Instant, to: Instant) {
    let who = format!("the copy {name}");
    match client.query("SELECT snowflake.next_id()", &[]).await {
        Ok(rows) => {
            let id = Snowflake::try_from_i64(rows[0].get(0));
            run.breach(format!(
                "{who}: its first next_id gave {id:?}, though it holds no identity"
            ));
            return;
        }
        Err(e) if answer(run, &e) == Some("no identity") => {}
        Err(e) => return judge(run, &who, "its first next_id", &e),
    }
    match client
        .batch_execute("CALL snowflake.claim_identity()")
        .await
    {
        Ok(()) => {
            return run.breach(format!("{who}: claim_identity() went through on a copy"));
        }
        Err(e) => {
            let hint = e.as_db_error().and_then(|db| db.hint()).unwrap_or_default();
            if !hint.contains("CALL snowflake.forget_copied_claim()") {
                return run.breach(format!(
                    "{who}: the refused claim's hint does not say what a copy does: {e:?}"
                ));
            }
        }
    }
    if let Err(e) = client
        .batch_execute("CALL snowflake.forget_copied_claim()")
        .await
    {
        return judge(run, &who, "forget_copied_claim", &e);
    }
    // Whatever was held when it was made stays unclaimable; the rest is the operator's to
    // keep apart, so a claim that goes through is let go at once.
    for m in 0..POOL {
        let held = run.held_throughout((0, m), from, to);
        let claim = client
            .batch_execute(&format!("CALL snowflake.claim_identity(0, {m})"))
            .await;
        match (claim, held) {
            (Ok(()), Some(holder)) => {
                return run.breach(format!(
                    "{who}: claim_identity(0, {m}) went through on a copy made while {holder} held it"
                ));
            }
            (Ok(()), None) => {
                if let Err(e) = client
                    .batch_execute("CALL snowflake.release_identity()")
                    .await
                {
                    return judge(run, &who, "release_identity", &e);
                }
            }
            (Err(_), _) => {}
        }
    }
    let datacenter = 1 + n % 31;
    let from = Instant::now();
    if let Err(e) = client
        .batch_execute(&format!("CALL snowflake.claim_identity({datacenter})"))
        .await
    {
        return judge(run, &who, "its own claim", &e);
    }
    let identity = claimed_in(client).await;
    let Some(identity) = identity else { return };
    run.hold(&who, identity, from);
    let mut last = None;
    for _ in 0..20 {
        if !issue(
            run,
            client,
            (&who, &who),
            &mut last,
            "SELECT snowflake.next_id() FROM generate_series(1, 200)",
            200,
        )
        .await
        {
            break;
        }
    }
    // Received under the copy's own identity, checked by the same oracle.
    let releasing = Instant::now();
    let _ = client
        .batch_execute("CALL snowflake.release_identity()")
        .await;
    run.let_go(&who, identity, releasing);
}

async fn claimed_in(client: &Client) -> Option<(u64, u64)> {
    let rows = client
        .query(
            "SELECT datacenter, machine FROM snowflake.next_id_claim",
            &[],
        )
        .await
        .ok()?;
    rows.first().map(|row| {
        let (dc, machine): (i16, i16) = (row.get(0), row.get(1));
        (u64::try_from(dc).unwrap(), u64::try_from(machine).unwrap())
    })
}
