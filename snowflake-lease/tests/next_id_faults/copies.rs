//! Copies by `pg_dump` whose answers are checked and whose hints are followed, and fresh
//! databases whose first claim a crash follows.

use crate::*;

/// A copy by `pg_dump`, into this cluster or the other, sometimes with the clock set back
/// after it (as a copy made while the slot ran ahead of the clock), whose answers are
/// checked and whose hints are followed: its first
/// `next_id` refused; the claim refused with a hint to forget the original's; then no
/// identity held when it was made claimable; then one of its own datacenter (the docs:
/// databases that feed one keyspace claim distinct identities), whose IDs join the rest.
pub(crate) async fn copy(run: &Run, n: u64, rng: &mut Rng) {
    let name = format!("faults_copy_{n}");
    // The orders' rows are not what a copy is about: a short dump.
    let _ = run.pg.try_psql("TRUNCATE orders");
    // While the database holds an identity (its slot running), so that what the copy
    // inherits is a claim and a slot in use.
    if let Ok(client) = connect(&run.pg, "faults").await
        && claimed(run).await.is_none()
    {
        claim(run, &client, "the chaos, as an operator", rng).await;
    }
    // Mostly while a Rust holder issues, whose identity the copy must then never claim (up
    // to 5 s for one to start).
    if rng.chance(700) {
        let waiting = Instant::now();
        while run.going() && waiting.elapsed() < Duration::from_secs(5) && !run.holder_live() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
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
    if copied.is_ok()
        && let Ok(client) = connect(&into, &name).await
    {
        // Mostly, in this cluster, the clock set back to half a second behind the copy's
        // slot, as in a copy made while the slot ran ahead (the bound on a wait counts the
        // step).
        let offset = run.offset_ms.load(Ordering::SeqCst);
        if !Arc::ptr_eq(&into, &run.elsewhere) && rng.chance(900) && offset > -3_000 {
            behind_the_slot(run, &client).await;
        }
        run.ledger().copies += 1;
        check_copy(run, &client, &name, n, from, to).await;
    }
    // Gone after, or after a cancel or a crash met the dump.
    let _ = into.try_psql(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}

/// Sets the clock back so that when the copy's first call comes, the slot the copy
/// inherited is ahead of its clock by less than a second: inside the fast path's `run_ms`,
/// where only the claim that a session's first call reads tells the copy from the original.
/// Never a step forward, nor back by more than 5 s.
async fn behind_the_slot(run: &Run, client: &Client) {
    // The copy's slot and clock, in the format's milliseconds; reading them is no call of
    // next_id, and no one else calls it on the copy.
    let read = async || {
        let row = client
            .query_one(
                "SELECT last_value >> 22, snowflake._next_id_now_ms() FROM snowflake.next_id_slot",
                &[],
            )
            .await
            .ok()?;
        let (slot, now): (i64, i64) = (row.get(0), row.get(1));
        Some(slot - now)
    };
    let Some(ahead) = read().await else { return };
    if (0..1_000).contains(&ahead) {
        return;
    }
    // A backend sees a step once libfaketime reads its file again, which it does as its
    // cache of whole seconds runs out: within two seconds, often more than the 1.1 s the
    // copy waited once (its slot was then behind its clock, and the copy proved nothing).
    // The slot's lead shrinks as the clock runs: 3.2 s at the step (less where that would
    // step back by more than 5 s) leaves it ahead when the step is seen, and the call waits
    // until half a second is left.
    let back = (3_200 - ahead).min(5_000);
    if back <= 0 || ahead + back < 1_000 {
        run.event(format!(
            "the copy's slot {ahead} ms ahead of its clock: no step"
        ));
        return;
    }
    let stepped = Instant::now();
    set_clock(run, run.offset_ms.load(Ordering::SeqCst) - back).await;
    while stepped.elapsed() < Duration::from_millis(3_500) {
        let Some(now_ahead) = read().await else {
            return;
        };
        // Seen: the lead is the step's more than the clock's run alone leaves it.
        let unseen = ahead - i64::try_from(stepped.elapsed().as_millis()).unwrap();
        if now_ahead > unseen + back / 2 {
            // The call comes with the slot half a second ahead.
            let wait = u64::try_from(now_ahead - 500).unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            run.event(format!(
                "the copy's slot {now_ahead} ms ahead of its clock, {wait} ms before its first call"
            ));
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    run.event("the copy's clock not seen to step".to_owned());
}

pub(crate) async fn check_copy(
    run: &Run,
    client: &Client,
    name: &str,
    n: u64,
    from: Instant,
    to: Instant,
) {
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
    // Its leases run out, as they do on the copy's clock after their time to live, which
    // says nothing of the original's, where their holders may still keep them alive.
    if let Err(e) = client
        .batch_execute(
            "UPDATE snowflake.leases SET expires_at = clock_timestamp() - interval '1 second' \
             WHERE expires_at <> 'infinity'",
        )
        .await
    {
        return judge(run, &who, "its leases run out", &e);
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
    // Datacenters 1 to 15 for copies, each its own (the docs: databases that feed one
    // keyspace claim distinct identities).
    let datacenter = 1 + n % 15;
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

/// A database of its own (the docs: its own datacenter, 16 to 31) on the other cluster,
/// loaded fresh, its first claim, IDs handed out in a transaction left open, and a crash
/// moments later, the clock set back by up to the docs' second across it; then its IDs
/// again, checked with the rest.
pub(crate) async fn fresh_claim_then_crash(run: &Run, n: u64, rng: &mut Rng) {
    let name = format!("faults_fresh_{n}");
    let pg = run.elsewhere.clone();
    if pg.try_psql(&format!("CREATE DATABASE {name}")).is_err() {
        return;
    }
    let who = format!("the fresh database {name}");
    let datacenter = 16 + n % 16;
    if let Ok(client) = connect(&pg, &name).await
        && client.batch_execute(&run.sql).await.is_ok()
    {
        let from = Instant::now();
        if client
            .batch_execute(&format!("CALL snowflake.claim_identity({datacenter}, 0)"))
            .await
            .is_ok()
        {
            run.hold(&who, (datacenter, 0), from);
            run.ledger().fresh += 1;
            run.event(format!("{who} claimed ({datacenter}, 0)"));
            let sql = "SELECT snowflake.next_id() FROM generate_series(1, 3000)";
            let _ = client.batch_execute("BEGIN").await;
            issue(run, &client, (&who, &who), &mut None, sql, 3_000).await;
            tokio::time::sleep(rng.ms(0, 50)).await;
            // Back by most of the docs' second, or the restart's own time covers the IDs.
            let back = i64::try_from(rng.between(300, 950)).unwrap();
            let offset = run.elsewhere_offset_ms.fetch_sub(back, Ordering::SeqCst) - back;
            run.event(format!(
                "the other cluster stopped at once, its clock {back} ms back"
            ));
            let server = pg.clone();
            let at = Instant::now();
            tokio::task::spawn_blocking(move || {
                server.stop();
                server.move_clock(offset);
                server.start_again();
            })
            .await
            .unwrap();
            run.crashed(&who, at);
            if let Ok(client) = connect(&pg, &name).await {
                issue(run, &client, (&who, &who), &mut None, sql, 3_000).await;
                let releasing = Instant::now();
                let _ = client
                    .batch_execute("CALL snowflake.release_identity()")
                    .await;
                run.let_go(&who, (datacenter, 0), releasing);
            }
        }
    }
    let _ = pg.try_psql(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
}

pub(crate) async fn claimed_in(client: &Client) -> Option<(u64, u64)> {
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
