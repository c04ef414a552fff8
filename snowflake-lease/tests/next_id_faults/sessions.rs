//! The database's sessions and their random work, the claims and releases, the Rust holder
//! on the same registry, and the storms of cancels.

use crate::*;

/// One session of the database: random work until the run ends, reconnecting after a
/// kill or a crash.
pub(crate) async fn session(run: Arc<Run>, n: usize, mut rng: Rng) {
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
pub(crate) async fn work(
    run: &Run,
    client: &Client,
    who: &str,
    last: &mut Option<Snowflake>,
    rng: &mut Rng,
) -> bool {
    let pick = rng.between(0, 99);
    if pick < 45 {
        let rows = rng.between(1, 300);
        issue_rows(run, client, who, last, rows).await
    } else if pick < 70 {
        let level = ["READ COMMITTED", "REPEATABLE READ", "SERIALIZABLE"][index(rng, 3)];
        if let Err(e) = client
            .batch_execute(&format!("BEGIN ISOLATION LEVEL {level}"))
            .await
        {
            judge(run, who, "BEGIN", &e);
            return !e.is_closed();
        }
        for _ in 0..rng.between(1, 4) {
            let rows = rng.between(1, 100);
            if !issue_rows(run, client, who, last, rows).await {
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

pub(crate) async fn end_transaction(run: &Run, client: &Client, who: &str, end: &str) -> bool {
    match client.batch_execute(end).await {
        Ok(()) => true,
        Err(e) => {
            judge(run, who, end, &e);
            let _ = client.batch_execute("ROLLBACK").await;
            !e.is_closed()
        }
    }
}

/// `rows` IDs of the database in one statement, given to the oracle as `issue` does.
async fn issue_rows(
    run: &Run,
    client: &Client,
    who: &str,
    last: &mut Option<Snowflake>,
    rows: u64,
) -> bool {
    let sql = format!("SELECT snowflake.next_id() FROM generate_series(1, {rows})");
    issue(run, client, (who, DATABASE), last, &sql, rows).await
}

/// Runs a statement that returns IDs, and gives them to the oracle: new, of the database's
/// identity, above the session's last, within the bound on waiting.
pub(crate) async fn issue(
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
    // A step back lasts 5 s at most, a stay before the epoch 2.5 s (and a second for each
    // process to read the clock again): past this, no wait is one the docs allow.
    let hard = bound + Duration::from_secs(8);
    let answer = tokio::time::timeout(hard, client.query(sql, &[])).await;
    let to = Instant::now();
    let back = Duration::from_millis(run.stepped_back_ms.load(Ordering::SeqCst) - back_before);
    if answer.is_err() || to - from > bound + back {
        run.breach(format!(
            "{who}: `{sql}` waited {:?}, past the docs' bound ({bound:?}, and {back:?} the \
             clock was set back meanwhile)",
            (to - from).min(hard)
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
pub(crate) async fn claimed(run: &Run) -> Option<(u64, u64)> {
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

/// Longer than a claim or release may wait, with room to spare: the docs' bound on a wait
/// (with steps back of the clock) is seconds.
const HANG: Duration = Duration::from_secs(30);

/// A claim's or release's call, under the operator's lock: whether the session lives on,
/// when the call was sent, what the database held before, and what it holds after (asked
/// again where the answer leaves it unsaid: a cancel or a crash may come before or after
/// the commit).
async fn operate(
    run: &Run,
    client: &Client,
    who: &str,
    call: &str,
    held_if_done: Option<(u64, u64)>,
) -> (bool, Instant, Option<(u64, u64)>, Option<(u64, u64)>) {
    let before = claimed(run).await;
    let sent = Instant::now();
    // A claim or release waits for the lock at most as long as a call of next_id waits for
    // the clock (docs/next-id.md, "Waiting"): one that hangs (a lock a planted bug left held)
    // is a breach, not a run that stalls every claim behind the operator's lock.
    let Ok(outcome) = tokio::time::timeout(
        HANG,
        client.batch_execute(&format!("CALL snowflake.{call}")),
    )
    .await
    else {
        run.breach(format!(
            "{who}: {call} waited more than {HANG:?}, far past the docs' bound on a wait"
        ));
        return (false, sent, before, before);
    };
    let alive = match &outcome {
        Ok(()) => true,
        Err(e) => {
            judge(run, who, call, e);
            !e.is_closed()
        }
    };
    let after = if outcome.is_ok() {
        held_if_done
    } else {
        claimed(run).await
    };
    run.event(format!(
        "{who}: {call} with {before:?} held: {outcome:?}, then {after:?} held"
    ));
    if outcome.is_ok() && held_if_done.is_some() && before.is_some_and(|b| Some(b) != held_if_done)
    {
        run.breach(format!(
            "{who}: {call} went through where the database held {before:?}"
        ));
    }
    (alive, sent, before, after)
}

pub(crate) async fn claim(run: &Run, client: &Client, who: &str, rng: &mut Rng) -> bool {
    let _operator = run.operator.lock().await;
    let m = rng.between(0, POOL - 1);
    let call = format!("claim_identity(0, {m})");
    let (alive, from, before, after) = operate(run, client, who, &call, Some((0, m))).await;
    if before.is_none()
        && let Some(identity) = after
    {
        run.hold(DATABASE, identity, from);
        run.ledger().claims += 1;
    }
    alive
}

pub(crate) async fn release(run: &Run, client: &Client, who: &str) -> bool {
    let _operator = run.operator.lock().await;
    let (alive, started, before, after) =
        operate(run, client, who, "release_identity()", None).await;
    if let (Some(identity), None) = (before, after) {
        run.let_go(DATABASE, identity, started);
        // The mark it leaves is at or above every millisecond it issued in, so that the next
        // holder starts above them (read from the registry; all received by now).
        let highest = run
            .ledger()
            .highest
            .get(&(DATABASE.to_owned(), identity))
            .copied();
        if let Some(highest) = highest.and_then(|id| Snowflake::try_from(id).ok())
            && let Ok(row) = client
                .query_one(
                    "SELECT hwm_ms FROM snowflake.identities \
                     WHERE datacenter = $1 AND machine = $2",
                    &[
                        &i16::try_from(identity.0).unwrap(),
                        &i16::try_from(identity.1).unwrap(),
                    ],
                )
                .await
            && row.get::<_, i64>(0) < i64::try_from(highest.timestamp_ms()).unwrap()
        {
            run.breach(format!(
                "{who}: release_identity() left the mark of {identity:?} at {} ms, below its \
                 ID {highest:?}",
                row.get::<_, i64>(0)
            ));
        }
    }
    alive
}

/// A Rust holder on the same registry: an identity of the pool in turn, IDs for a while,
/// released; never while the clock is away from the present.
pub(crate) async fn rust_holder(run: Arc<Run>, mut rng: Rng) {
    let url = format!("{}/faults", run.pg.url().rsplit_once('/').unwrap().0);
    while run.going() {
        tokio::time::sleep(rng.ms(100, 800)).await;
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
        run.hold(HOLDER, identity, from);
        run.ledger().holder_tenures += 1;
        let until = Instant::now() + rng.ms(300, 5_000);
        'issuing: while run.going() && Instant::now() < until {
            let started = Instant::now();
            let mut ids = Vec::with_capacity(64);
            for _ in 0..64 {
                let Ok(id) = generator.try_next_id() else {
                    // Halted (a lease lost to a crash): what it issued, then let go.
                    run.received(HOLDER, HOLDER, &ids, started, Instant::now());
                    break 'issuing;
                };
                ids.push(id);
            }
            run.received(HOLDER, HOLDER, &ids, started, Instant::now());
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let releasing = Instant::now();
        generator.release().await;
        run.let_go(HOLDER, identity, releasing);
        run.event(format!("the Rust holder let {identity:?} go"));
        drop(present);
    }
}

/// Cancels at random moments to a random session: one, two or three at once, then sometimes
/// another one or two a round trip later (tens of microseconds: the second may land while
/// the first is being handled). In storms of a few seconds, then quiet for longer than the
/// bound on a wait, so that a lock a cancel left held shows as a wait past it (a cancel
/// ends every wait). Half the storms aim at running statements.
pub(crate) async fn canceller(run: Arc<Run>, mut rng: Rng) {
    while run.going() {
        tokio::time::sleep(rng.ms(7_000, 10_000)).await;
        let Ok(client) = connect(&run.pg, "postgres").await else {
            continue;
        };
        let storm = Instant::now() + rng.ms(3_000, 6_000);
        // Half the storms mostly at sessions whose statement is running and waits for
        // nothing (a cancel of an idle one does nothing), the list read again every 50 ms;
        // the others at any session. Each kind alone left one planted bug uncaught in both
        // runs of a CI run: aimed, a clock read before the lock; at random, a lock left held
        // by a handler.
        let aimed = rng.chance(500);
        let (mut running, mut read_at) = (Vec::new(), Instant::now());
        while run.going() && Instant::now() < storm {
            tokio::time::sleep(rng.ms(0, 5)).await;
            if aimed && read_at.elapsed() > Duration::from_millis(50) {
                let sessions = run
                    .pids
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .clone();
                running = client
                    .query(
                        "SELECT pid FROM pg_stat_activity WHERE state = 'active' \
                         AND wait_event IS NULL AND pid = ANY($1)",
                        &[&sessions],
                    )
                    .await
                    .map(|rows| rows.iter().map(|row| row.get::<_, i32>(0)).collect())
                    .unwrap_or_default();
                read_at = Instant::now();
            }
            let pid = if !running.is_empty() && rng.chance(750) {
                running[index(&mut rng, running.len())]
            } else {
                run.pids.lock().unwrap_or_else(PoisonError::into_inner)[index(&mut rng, SESSIONS)]
            };
            let sql = match rng.between(1, 3) {
                1 => "SELECT pg_cancel_backend($1)",
                2 => "SELECT pg_cancel_backend($1), pg_cancel_backend($1)",
                _ => "SELECT pg_cancel_backend($1), pg_cancel_backend($1), pg_cancel_backend($1)",
            };
            let again = rng.between(0, 2);
            for sql in std::iter::once(sql).chain(std::iter::repeat_n(
                "SELECT pg_cancel_backend($1)",
                usize::try_from(again).unwrap(),
            )) {
                if client.query(sql, &[&pid]).await.is_err() {
                    break;
                }
                run.ledger().cancels += 1;
            }
        }
    }
}
